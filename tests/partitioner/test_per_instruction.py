"""`sdy-per-instruction-partitioning`: each op with sharded values becomes an
`sdy.manual_computation` holding its per-device program.

jaxlib does not register Shardy's pass of that name (a test below says so,
and fails once it does: then the output should be compared with Shardy's).
Until then the pass is checked by what its output computes: random programs
partitioned up to explicit reshards compute the same numbers after the pass,
run by the reference interpreter (whose manual computations run their
bodies on every device in lockstep) and, converted to per-device programs,
by the simulator; and by hand-written cases after Shardy's lit tests.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from shardonnay.errors import ShardingError
from shardonnay.export.explicit_reshards import insert_explicit_reshards
from shardonnay.ir.core import Module
from shardonnay.ir.shardings import sharding_of
from shardonnay.ir.verifier import verify
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.per_instruction import OpFilter, per_instruction_partitioning
from shardonnay.passes import parse_pipeline, pass_options, run_pipeline
from shardonnay.pipeline import propagation_pipeline
from shardonnay.runtime.interpreter import run
from shardonnay.runtime.simulator import simulate
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.partitioned_programs import inputs_for
from shardonnay.testing.program_generator import random_program_with_inputs

PASS = "builtin.module(sdy-per-instruction-partitioning)"


def test_jaxlib_does_not_register_the_pass() -> None:
    """When this fails, jaxlib has Shardy's pass: compare its output with ours."""
    pytest.importorskip("jax")
    from jaxlib.mlir import passmanager

    from shardonnay.testing.mlir_oracle import context

    with context(), pytest.raises(Exception, match="sdy-per-instruction-partitioning"):
        passmanager.PassManager.parse(PASS)


def test_pass_is_registered_with_its_options() -> None:
    assert pass_options("sdy-per-instruction-partitioning") == {
        "enable-halo-exchange": "true",
        "filter": "",
    }


def _partitioned(seed: int) -> tuple[Module, list[np.ndarray]]:
    text, inputs = random_program_with_inputs(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # propagation warnings about the random annotations
        module = propagation_pipeline(parse_module(text))
    return insert_explicit_reshards(module, full_version=True), inputs


def _assert_close(got, want) -> None:
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def _sharded_ops_left(module: Module) -> list[str]:
    """The ops of the functions' bodies, outside manual computations, with a
    sharded value that the pass should have partitioned."""
    left = []
    for func in module.functions:
        for op in func.body.ops:
            if op.name in ("sdy.manual_computation", "func.return"):
                continue
            values = (*op.operands, *op.results)
            if any(s is not None and not s.is_fully_replicated() for s in map(sharding_of, values)):
                left.append(op.name)
    return left


BATCH = 20


@pytest.mark.parametrize("first", range(0, 60, BATCH))
def test_random_programs_compute_the_same(first: int) -> None:
    partitioned = 0
    for seed in range(first, first + BATCH):
        module, inputs = _partitioned(seed)
        want = run(module, *inputs)
        try:
            out = per_instruction_partitioning(module.copy())
        except ShardingError as e:  # values on two meshes
            assert "one mesh" in str(e)
            continue
        partitioned += 1
        verify(out)
        # Only the pads and slices the pass adds around its manual
        # computations keep sharded values.
        assert set(_sharded_ops_left(out)) <= {"stablehlo.pad", "stablehlo.slice"}, seed
        out = parse_module(out.to_text())
        _assert_close(run(out, *inputs), want)
        _assert_close(simulate(convert_global_to_local(out), *inputs), want)
    # (Seeds 0-59: 56 of 60 partition, 16 of them with sub-axes of manual axes.)
    assert partitioned >= BATCH // 2


MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>\n'


def _sharding(dims: str) -> str:
    return f"#sdy.sharding<@mesh, {dims}>"


def _per_value(*dims: str) -> str:
    return (
        "{sdy.sharding = #sdy.sharding_per_value<["
        + ", ".join(f"<@mesh, {d}>" for d in dims)
        + "]>}"
    )


DOT = (
    MESH
    + f"""func.func @main(%arg0: tensor<8x32xf32> {{sdy.sharding = {_sharding('[{"x"}, {}]')}}},
    %arg1: tensor<32x16xf32> {{sdy.sharding = {_sharding('[{}, {"y"}]')}}})
    -> (tensor<8x16xf32> {{sdy.sharding = {_sharding('[{"x"}, {"y"}]')}}}) {{
  %0 = stablehlo.dot %arg0, %arg1 {_per_value('[{"x"}, {"y"}]')}
      : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.add %0, %0 {_per_value('[{"x"}, {"y"}]')} : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}}"""
)

INDIVISIBLE_RESHARD = (
    MESH
    + f"""func.func @main(%arg0: tensor<5x5xf32> {{sdy.sharding = {_sharding('[{"x"}, {}]')}}})
    -> (tensor<5x5xf32> {{sdy.sharding = {_sharding('[{}, {"y"}]')}}}) {{
  %0 = sdy.reshard %arg0 <@mesh, [{{}}, {{"y"}}]> : tensor<5x5xf32>
  return %0 : tensor<5x5xf32>
}}"""
)

# A reduce over an indivisible sharded dim: the padding must not count (max of
# negative numbers).
INDIVISIBLE_MAX = (
    MESH
    + f"""func.func @main(%arg0: tensor<7x4xf32> {{sdy.sharding = {_sharding('[{"x"}, {}]')}}})
    -> tensor<4xf32> {{
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0]
      {_per_value("[{}]")} : (tensor<7x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}"""
)

# A loop whose body reads a value from outside it.
CAPTURING_WHILE = (
    MESH
    + f"""func.func @main(%arg0: tensor<8xf32> {{sdy.sharding = {_sharding('[{"x"}]')}}},
    %arg1: tensor<8xf32> {{sdy.sharding = {_sharding('[{"x"}]')}}}) -> tensor<8xf32> {{
  %c = stablehlo.constant dense<0> : tensor<i32>
  %c_0 = stablehlo.constant dense<3> : tensor<i32>
  %c_1 = stablehlo.constant dense<1> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c) : tensor<8xf32>, tensor<i32>
      attributes {_per_value('[{"x"}]', "[]")}
    cond {{
    %1 = stablehlo.compare  LT, %iterArg_2, %c_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }} do {{
    %1 = stablehlo.add %iterArg, %arg1 {_per_value('[{"x"}]')} : tensor<8xf32>
    %2 = stablehlo.add %iterArg_2, %c_1 : tensor<i32>
    stablehlo.return %1, %2 : tensor<8xf32>, tensor<i32>
  }}
  return %0#0 : tensor<8xf32>
}}"""
)


def _partition(text: str, pipeline: str = PASS) -> Module:
    module = parse_module(text)
    out = run_pipeline(module, pipeline)
    verify(out)
    inputs = inputs_for(module)
    _assert_close(run(out, *inputs), run(module, *inputs))
    _assert_close(simulate(convert_global_to_local(out), *inputs), run(module, *inputs))
    return out


def _names(block) -> list[str]:
    return [op.name for op in block.ops]


def test_a_dot_becomes_a_manual_computation_on_every_axis() -> None:
    out = _partition(DOT, "builtin.module(sdy-per-instruction-partitioning{filter=dot})")
    body = out.functions[0].body
    assert _names(body) == ["sdy.manual_computation", "stablehlo.add", "func.return"]
    computation = body.ops[0]
    assert str(computation.attributes["in_shardings"]) == (
        '#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>]>'
    )
    assert str(computation.attributes["out_shardings"]) == (
        '#sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>'
    )
    assert computation.attributes["manual_axes"].names == ("x", "y")
    inner = computation.regions[0].entry
    assert [str(a.type) for a in inner.arguments] == ["tensor<4x32xf32>", "tensor<32x8xf32>"]
    assert _names(inner) == ["stablehlo.dot", "sdy.return"]
    assert "sdy.sharding" not in inner.ops[0].attributes
    assert str(inner.ops[0].results[0].type) == "tensor<4x8xf32>"


def test_an_indivisible_reshard_is_padded_and_sliced_back() -> None:
    out = _partition(INDIVISIBLE_RESHARD)
    body = out.functions[0].body
    assert _names(body) == [
        "stablehlo.constant",
        "stablehlo.pad",
        "sdy.manual_computation",
        "stablehlo.slice",
        "func.return",
    ]
    pad, computation, sliced = body.ops[1], body.ops[2], body.ops[3]
    # each padded by its own sharding (Shardy pads both to one type, 6x6)
    assert str(pad.results[0].type) == "tensor<6x5xf32>"
    assert str(computation.results[0].type) == "tensor<5x6xf32>"
    assert [str(a.type) for a in computation.regions[0].entry.arguments] == ["tensor<3x5xf32>"]
    assert str(sliced.results[0].type) == "tensor<5x5xf32>"
    assert str(sharding_of(sliced.results[0])) == '#sdy.sharding<@mesh, [{}, {"y"}]>'


def test_the_padding_of_an_indivisible_dim_does_not_reach_a_reduction() -> None:
    module = parse_module(INDIVISIBLE_MAX)
    out = _partition(INDIVISIBLE_MAX)
    negative = -1 - np.abs(inputs_for(module)[0])
    _assert_close(run(out, negative), run(module, negative))


def test_values_a_region_reads_from_outside_become_operands() -> None:
    out = _partition(CAPTURING_WHILE)
    (computation,) = [op for op in out.functions[0].body.ops if op.name == "sdy.manual_computation"]
    arg0, arg1 = out.functions[0].arguments
    c, c_0, c_1 = out.functions[0].body.ops[:3]
    # the loop's operands, then what its regions read in order: %c_0, %arg1, %c_1
    assert list(computation.operands) == [arg0, c.results[0], c_0.results[0], arg1, c_1.results[0]]


FILTERED = (
    MESH
    + f"""func.func @main(%arg0: tensor<8xf32> {{sdy.sharding = {_sharding('[{"x"}]')}}})
    -> tensor<8xf32> {{
  %0 = stablehlo.negate %arg0 {_per_value('[{"x"}]')} : tensor<8xf32>
  %1 = stablehlo.abs %0 {_per_value('[{"x"}]')} : tensor<8xf32>
  %2 = stablehlo.negate %1 {_per_value('[{"x"}]')} : tensor<8xf32>
  %3 = stablehlo.add %2, %2 : tensor<8xf32>
  return %3 : tensor<8xf32>
}}"""
)


@pytest.mark.parametrize(
    ("option", "kept"),
    [
        ("", []),
        ("filter=negate", ["stablehlo.abs", "stablehlo.add"]),
        ("filter='selectLow=1, selectHigh=2'", ["stablehlo.negate", "stablehlo.add"]),
        ("filter='selectHigh=1,abs'", ["stablehlo.negate", "stablehlo.negate", "stablehlo.add"]),
    ],
)
def test_the_filter_chooses_the_ops(option: str, kept: list[str]) -> None:
    """Candidates 0-3: negate, abs, negate, and the add (which reads a sharded value)."""
    pipeline = f"builtin.module(sdy-per-instruction-partitioning{{{option}}})"
    out = _partition(FILTERED, pipeline)
    names = [n for n in _names(out.functions[0].body) if n != "sdy.manual_computation"]
    assert names[:-1] == kept


def test_filter_syntax() -> None:
    (spec,) = parse_pipeline("builtin.module(sdy-per-instruction-partitioning{filter='a, b'})")
    assert spec.options == {"filter": "'a, b'"}  # (the pass drops the quotes)
    assert OpFilter.parse("") == OpFilter(select_all=True)
    assert OpFilter.parse('"selectHigh=4"') == OpFilter(high=4)
    assert OpFilter.parse("selectLow=x, dot") == OpFilter(names=("dot",))


def test_values_on_two_meshes_are_an_error() -> None:
    text = """sdy.mesh @mesh = <["x"=2]>
sdy.mesh @other = <["y"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@other, [{"y"}]>]>}
      : tensor<8xf32>
  return %0 : tensor<8xf32>
}"""
    with pytest.raises(ShardingError, match="one mesh"):
        per_instruction_partitioning(parse_module(text))


SUB_AXIS = """sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"y"}]>})
    -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2}, {}]>}) {
  %0 = stablehlo.negate %arg0
      {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}, {"y"}]>]>} : tensor<8x6xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x":(2)2}, {}]> : tensor<8x6xf32>
  return %1 : tensor<8x6xf32>
}"""


def test_values_on_sub_axes_are_manual_on_the_whole_axis() -> None:
    """A manual computation manual on all of "x" takes values sharded on its
    sub-axes (as Shardy's verifier in jaxlib 0.10.2 accepts): the body holds
    the shard of the sub-axis, the same on devices that differ in the rest of "x"."""
    out = _partition(SUB_AXIS)
    text = out.to_text()
    assert 'in_shardings=[<@mesh, [{"x":(1)2}, {"y"}]>]' in text
    assert 'manual_axes={"x", "y"}' in text
