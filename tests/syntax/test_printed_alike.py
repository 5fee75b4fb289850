"""Ops printed from the text of an op alike: an op without regions whose
name, attribute and type objects are those of an op printed before is
written from that op's text with its own operand names. The result must be
what printing it gives: the differential tests print programs (read, and
propagated, whose ops share objects as the reader and copies make them)
with and without reusing texts and compare the two."""

from __future__ import annotations

from pathlib import Path

import pytest

from shardonnay.passes import run_pipeline
from shardonnay.syntax import mlir_writer
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.syntax.mlir_writer import write_module
from shardonnay.testing.program_generator import random_program

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sorted((ROOT / "corpus").glob("*.mlir")) + sorted((ROOT / "models").glob("*.mlir"))


def _both_ways(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The pretty and generic prints of `text` read, and propagated, reusing
    texts in every module, and never."""
    modules = [parse_module(text)]
    modules.append(run_pipeline(parse_module(text), "builtin.module(sdy-propagation-pipeline)"))
    printed = []
    for threshold in (0, 1 << 60):
        with monkeypatch.context() as m:
            m.setattr(mlir_writer, "_REUSE_TEXTS_FROM", threshold)
            printed.append(
                [
                    write_module(x, generic=g, debug_info=d)
                    for x in modules
                    for g in (False, True)
                    for d in (False, True)
                ]
            )
    return printed[0], printed[1]


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_programs_print_alike_with_and_without_reused_texts(path, monkeypatch) -> None:
    reused, printed = _both_ways(path.read_text(), monkeypatch)
    assert reused == printed


@pytest.mark.parametrize("seed", range(40))
def test_random_programs_print_alike_with_and_without_reused_texts(seed, monkeypatch) -> None:
    reused, printed = _both_ways(random_program(seed, max_ops=40), monkeypatch)
    assert reused == printed


def test_repeated_operands_and_lines_print_their_own_names(monkeypatch) -> None:
    t = "tensor<4xf32>"
    body = "\n".join(
        [
            f"  %0 = stablehlo.add %arg0, %arg1 : {t}",
            f"  %1 = stablehlo.add %0, %0 : {t}",
            f"  %2 = stablehlo.add %1, %arg0 : {t}",
            f"  %3 = stablehlo.add %2, %2 : {t}",
            f"  %4 = stablehlo.add %arg1, %3 : {t}",
            f"  return %4 : {t}",
        ]
    )
    text = f"func.func @main(%arg0: {t}, %arg1: {t}) -> {t} {{\n{body}\n}}\n"
    with monkeypatch.context() as m:
        m.setattr(mlir_writer, "_REUSE_TEXTS_FROM", 0)
        printed = write_module(parse_module(text))
    assert printed == write_module(parse_module(text))
    assert "%1 = stablehlo.add %0, %0" in printed and "%4 = stablehlo.add %arg1, %3" in printed
