"""One name per value: the name the propagated program prints and the source line, the same in
`propagate`, `explain`, `show`, the report of `partition` and a failed `--simulate`."""

from __future__ import annotations

import inspect
import json
import os
import re
from pathlib import Path

import pytest

from shardonnay import parse_module
from shardonnay.cli import main
from shardonnay.errors import IRError
from shardonnay.ir.naming import (
    find_value,
    output_names,
    source_location,
    value_names,
)
from shardonnay.partitioner.analysis.correspondence import COMMUNICATION_OPS, corresponding_values
from shardonnay.partitioner.program import explicit_collectives, propagated_program
from shardonnay.pipeline import propagation_pipeline

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

ROOT = Path(__file__).resolve().parent.parent.parent
MLP = ROOT / "examples" / "mlp.mlir"
CORPUS = sorted((ROOT / "tests" / "corpus").glob("*.mlir"))

CALLS = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8x16xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = func.call @relu(%0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
func.func private @relu(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %cst = stablehlo.constant dense<0.0> : tensor<8x16xf32>
  %0 = stablehlo.maximum %arg0, %cst : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
"""


def _out(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _defined(text: str, name: str, func: str = "main") -> str:
    """The op that defines `name` in function `func` of printed `text`."""
    body = text.split("func.func ")
    chunk = next(c for c in body if re.match(rf"(public |private )?@{func}\(", c))
    m = re.search(rf"^\s*{re.escape(name)}(:\d+)? = (\"?[\w.]+)", chunk, re.M)
    assert m, (name, func)
    return m.group(2).strip('"')


def test_the_same_value_in_propagate_explain_show_and_the_report(capsys) -> None:
    printed = _out(capsys, "propagate", str(MLP))
    report = json.loads(_out(capsys, "partition", str(MLP), "--report", "--json"))
    moved = [r["value"] for r in report["collectives"]]
    assert moved == ["%2"]  # the second dot's partial sums are all-reduced
    name = moved[0]
    op = _defined(printed, name)
    assert op == "stablehlo.dot_general"
    story = _out(capsys, "explain", str(MLP), name)
    assert story.startswith(f"{name} = {op}: ")
    sharding = story.split(": ", 1)[1].splitlines()[0]
    picture = _out(capsys, "show", str(MLP), name)
    assert picture.startswith(f"{name}: 16x8 {sharding} on ")
    assert f"{name} = {op} " in printed.replace(",", " ")
    summary = _out(capsys, "partition", str(MLP), "--report")
    row = next(line for line in summary.splitlines() if line.startswith("// all_reduce"))
    assert name in row.split()


def test_values_of_called_functions_are_explained(capsys, tmp_path: Path) -> None:
    path = tmp_path / "calls.mlir"
    path.write_text(CALLS)
    printed = _out(capsys, "propagate", str(path))
    # the pipeline renumbers @relu (its constant becomes %0): the printed name is the name
    assert _defined(printed, "%0", "relu") == "sdy.constant"
    assert _defined(printed, "%1", "relu") == "stablehlo.maximum"
    story = _out(capsys, "explain", str(path), "relu:%1")
    first = story.splitlines()[0]
    assert first == 'relu:%1 = stablehlo.maximum: #sdy.sharding<@mesh, [{"x"}, {"y"}]>'
    assert "from input 0 (%arg0) via stablehlo.negate (%0)" in story
    assert "argument 0 of @relu" in story
    # the call's result is the named computation's, traced through the callee
    call = _out(capsys, "explain", str(path), "%1").splitlines()[0]
    assert call == '%1 = func.call: #sdy.sharding<@mesh, [{"x"}, {"y"}]>'
    picture = _out(capsys, "show", str(path), "relu:%1")
    assert picture.startswith('relu:%1: 8x16 #sdy.sharding<@mesh, [{"x"}, {"y"}]>')


def test_unknown_names_say_which_exist() -> None:
    module = parse_module(CALLS)
    with pytest.raises(IRError, match=r"no value named '%7' .*values of @main: %arg0, %0, %1"):
        find_value(module, "%7")
    with pytest.raises(IRError, match="no function @gelu"):
        find_value(module, "gelu:%0")
    assert find_value(module, "@relu:%cst").op.name == "stablehlo.constant"
    assert find_value(module, "main:%arg0") is module.function("main").arguments[0]


@pytest.mark.parametrize("path", CORPUS[::4], ids=lambda p: p.stem)
def test_names_of_some_values_are_their_names_in_the_whole_program(path: Path) -> None:
    """Naming a few values numbers the whole program all the same."""
    module = parse_module(path.read_text())
    every = value_names(module)
    some = list(every)[1::3]
    assert value_names(module, some) == {v: every[v] for v in some}


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_global_program_maps_back_to_the_propagated_one(path: Path) -> None:
    module = parse_module(path.read_text())
    propagated = propagated_program(module)  # what the report names values by
    explicit = explicit_collectives(module)
    same = corresponding_values(propagated, explicit)
    mapped = 0
    for func in explicit.functions:
        for op in func.walk():
            if op is func.op or op.name in COMMUNICATION_OPS:
                continue
            for r in op.results:
                assert r in same, (path.stem, op.name)
                assert same[r].op.name == op.name
                mapped += 1
    assert mapped > 0


def test_jax_source_lines(capsys, tmp_path: Path) -> None:
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    from shardonnay.jax import lower

    def attention(x, w):
        scores = jnp.dot(x, w)  # the line the dot comes from
        return jax.nn.relu(scores).sum(axis=1)

    mesh = jax.sharding.Mesh(jax.devices()[:8], ("x",))
    x = jax.ShapeDtypeStruct((8, 16), jnp.float32, sharding=NamedSharding(mesh, P("x")))
    w = jax.ShapeDtypeStruct((16, 4), jnp.float32, sharding=NamedSharding(mesh, P()))
    module = lower(attention, x, w)
    lines, first = inspect.getsourcelines(attention)
    dot_line = first + next(i for i, line in enumerate(lines) if "jnp.dot" in line)
    propagated = propagation_pipeline(module)
    names = value_names(propagated)
    dot = next(n for n in names.values() if n.op == "stablehlo.dot_general")
    assert dot.location == f"test_naming.py:{dot_line} in {attention.__qualname__}"
    op = next(op for op in module.walk() if op.name == "stablehlo.dot_general")
    assert source_location(op, module) == dot.location
    # JAX names the arguments (`loc("x")`): read, kept by propagation, printed back as JAX does
    arguments = [str(names[a]) for a in propagated.function("main").arguments]
    assert arguments == ["%arg0 (x)", "%arg1 (w)"]
    assert find_value(propagated, "w") is propagated.function("main").arguments[1]
    signature = next(
        line for line in module.to_text(debug_info=True).splitlines() if "@main" in line
    )
    assert '} loc("x"), %arg1: tensor<16x4xf32> {' in signature and '} loc("w")) -> ' in signature
    path = tmp_path / "attention.mlir"
    path.write_text(module.to_text(debug_info=True))
    story = _out(capsys, "explain", str(path), dot.spec)
    assert story.startswith(f"{dot.spec} = stablehlo.dot_general (test_naming.py:{dot_line} in ")
    assert "from input 0 (%arg0, x)" in story
    # the propagated program printed with its locations names every value alike
    again = parse_module(_out(capsys, "propagate", str(path), "--debug-info"))
    assert [str(n) for n in value_names(again).values()] == [str(n) for n in names.values()]


def test_a_failed_simulation_names_the_output(capsys) -> None:
    assert main(["partition", str(MLP), "--simulate", "--rounding", "0", "--rtol", "0",
                 "--atol", "0"]) == 1  # fmt: skip
    err = capsys.readouterr().err
    name = str(output_names(propagation_pipeline(parse_module(MLP.read_text())))[0])
    assert err.startswith(f"error: output 0 ({name}: (16, 8) float32) of @main differs")
