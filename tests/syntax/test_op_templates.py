"""Ops read from templates: a line whose text, but for its operand names, is
that of an op read before is built from that op. The result must be what
reading the line gives, including every error; the differential tests read
each corpus program with and without templates and compare the two."""

from __future__ import annotations

from pathlib import Path

import pytest

from shardonnay.errors import ParseError
from shardonnay.syntax import mlir_reader
from shardonnay.syntax.mlir_reader import parse_module, parse_modules
from shardonnay.syntax.mlir_writer import write_module

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

_T = "tensor<4xf32>"


def _func(body: str, args: str = f"%arg0: {_T}, %arg1: {_T}") -> str:
    return f"func.func @main({args}) -> {_T} {{\n{body}\n}}\n"


def _without_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mlir_reader, "_TEMPLATE_LINE_LIMIT", -1)


def _both_ways(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The generic print (with locations) of `text` read with and without templates."""
    with_templates = [write_module(m, generic=True, debug_info=True) for m in parse_modules(text)]
    with monkeypatch.context() as m:
        _without_templates(m)
        without = [write_module(x, generic=True, debug_info=True) for x in parse_modules(text)]
    return "".join(with_templates), "".join(without)


def _error(text: str) -> tuple[str, int]:
    with pytest.raises(ParseError) as e:
        parse_module(text)
    return e.value.message, e.value.offset


def _errors_both_ways(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    templated = _error(text)
    with monkeypatch.context() as m:
        _without_templates(m)
        assert _error(text) == templated
    return templated


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.mlir")), ids=lambda p: p.name)
def test_corpus_reads_the_same_with_templates(path: Path, monkeypatch: pytest.MonkeyPatch):
    templated, read = _both_ways(path.read_text(), monkeypatch)
    assert templated == read


def test_repeated_lines_are_built_from_one_template():
    line = "stablehlo.add {a}, %arg1 {{sdy.sharding = #sdy.sharding_per_value<[<@m, [{{}}]>]>}}"
    body = "\n".join(
        f"  %{i} = {line.format(a=f'%{i - 1}' if i else '%arg0')} : {_T}" for i in range(4)
    )
    module = parse_module('sdy.mesh @m = <["x"=2]>\n' + _func(body + f"\n  return %3 : {_T}"))
    adds = [op for op in module.walk() if op.name == "stablehlo.add"]
    assert [op.operands[0] for op in adds[1:]] == [op.result for op in adds[:-1]]
    assert all(op.operands[1] is adds[0].operands[1] for op in adds)
    # Each op owns its attribute dictionary; the immutable values are shared.
    adds[1].attributes["x"] = 1
    assert "x" not in adds[2].attributes
    assert adds[1].attributes["sdy.sharding"] is adds[2].attributes["sdy.sharding"]
    assert [len(v.uses) for v in (adds[0].result, adds[1].result)] == [1, 1]


def test_a_template_is_not_used_for_operands_of_other_types(monkeypatch):
    text = _func(
        f"  %0 = stablehlo.add %arg0, %arg1 : {_T}\n"
        "  %1 = stablehlo.convert %0 : (tensor<4xf32>) -> tensor<4xi32>\n"
        "  %2 = stablehlo.convert %1 : (tensor<4xi32>) -> tensor<4xf32>\n"
        f"  %3 = stablehlo.add %1, %2 : {_T}\n"
        f"  return %3 : {_T}"
    )
    message, offset = _errors_both_ways(text, monkeypatch)
    assert "tensor<4xi32>" in message
    assert text[:offset].endswith("%3 = stablehlo.add %1, %2 : ")


def test_undefined_operand_and_redefinition_on_a_template_line(monkeypatch):
    ops = f"  %0 = stablehlo.add %arg0, %arg1 : {_T}\n  %1 = stablehlo.add %0, %arg1 : {_T}\n"
    message, _ = _errors_both_ways(
        _func(ops + f"  %2 = stablehlo.add %9, %arg1 : {_T}\n  return %2 : {_T}"), monkeypatch
    )
    assert message == "use of undefined value '%9'"
    text = _func(ops + f"  %1 = stablehlo.add %0, %arg1 : {_T}\n  return %1 : {_T}")
    message, offset = _errors_both_ways(text, monkeypatch)
    assert message == "redefinition of SSA value '%1'"
    assert offset == text.rindex("%1 = ")


def test_a_line_continued_on_the_next_is_read(monkeypatch):
    """A location on the line after an op belongs to it: such a line is read."""
    lines = [f"  %{i} = stablehlo.negate %{i - 1 if i else 'arg0'} : {_T}" for i in range(3)]
    text = _func("\n".join(lines) + f'\n    loc("x")\n  return %2 : {_T}', f"%arg0: {_T}")
    module = parse_module(text)
    assert [op.location for op in module.walk()][1:4] == [None, None, 'loc("x")']
    templated, read = _both_ways(text, monkeypatch)
    assert templated == read


def test_same_operand_twice_and_multiple_results(monkeypatch):
    text = _func(
        f"  %0 = stablehlo.add %arg0, %arg0 : {_T}\n"
        f"  %1 = stablehlo.add %0, %arg1 : {_T}\n"
        f"  %2 = stablehlo.add %1, %1 : {_T}\n"
        f'  %3:2 = "x.pair"(%2, %arg1) : ({_T}, {_T}) -> ({_T}, {_T})\n'
        f'  %4:2 = "x.pair"(%3#1, %3#0) : ({_T}, {_T}) -> ({_T}, {_T})\n'
        f'  %5:2 = "x.pair"(%4#0, %4#2) : ({_T}, {_T}) -> ({_T}, {_T})\n'
        f"  return %5#1 : {_T}"
    )
    message, _ = _errors_both_ways(text, monkeypatch)
    assert message == "%4 has only 2 results"
    fixed = text.replace("%4#2", "%4#1")
    templated, read = _both_ways(fixed, monkeypatch)
    assert templated == read
    pairs = [op for op in parse_module(fixed).walk() if op.name == "x.pair"]
    assert pairs[1].operands == (pairs[0].results[1], pairs[0].results[0])


def test_reduce_bodies_are_cloned(monkeypatch):
    line = (
        "stablehlo.reduce({x} init: %arg1) applies stablehlo.add across dimensions = [0] : "
        "(tensor<4xf32>, tensor<f32>) -> tensor<f32>"
    )
    text = (
        f"func.func @main(%arg0: {_T}, %arg1: tensor<f32>, %arg2: {_T}) -> tensor<f32> {{\n"
        f"  %0 = {line.format(x='%arg0')}\n  %1 = {line.format(x='%arg2')}\n"
        "  return %1 : tensor<f32>\n}\n"
    )
    reduces = [op for op in parse_module(text).walk() if op.name == "stablehlo.reduce"]
    assert reduces[0].regions[0] is not reduces[1].regions[0]
    assert reduces[1].operands[0] is not reduces[0].operands[0]
    templated, read = _both_ways(text, monkeypatch)
    assert templated == read


def test_lookups_pause_over_lines_that_do_not_repeat_and_resume(monkeypatch):
    monkeypatch.setattr(mlir_reader, "_TEMPLATE_WINDOW", 16)
    monkeypatch.setattr(mlir_reader, "_TEMPLATE_PAUSE", 8)
    used = []
    from_template = mlir_reader.Parser._from_template

    def counting(parser, template, uses, eol):
        op = from_template(parser, template, uses, eol)
        used.append(op is not None)
        return op

    monkeypatch.setattr(mlir_reader.Parser, "_from_template", counting)
    unique = [f"  %{i} = stablehlo.add %arg0, %arg1 {{x.id = {i} : i64}} : {_T}" for i in range(40)]
    repeated = [f"  %{i} = stablehlo.add %{i - 1}, %arg1 : {_T}" for i in range(40, 100)]
    text = _func("\n".join([*unique, *repeated, f"  return %99 : {_T}"]))
    module = parse_module(text)
    # The first repeated lines come during the pause; then lookups find the template.
    assert 0 < sum(used) < len(repeated) - 1
    templated, read = _both_ways(text, monkeypatch)
    assert templated == read
    assert len(list(module.walk())) == 102


def test_a_template_is_used_only_before_what_followed_it(monkeypatch):
    """`return` read before `}` is no template for a `return` before an op,
    which the reader takes as its operands (an error here)."""
    text = (
        "func.func @f() {\n  return\n}\n"
        f"func.func @g(%arg0: {_T}) {{\n  return\n  %0 = stablehlo.negate %arg0 : {_T}\n}}\n"
    )
    message, offset = _errors_both_ways(text, monkeypatch)
    assert (message, offset) == ("expected ':'", text.index("= stablehlo.negate"))
