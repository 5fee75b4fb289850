"""The lowering table (`partitioner.local.dispatch.LOWERINGS`) and the op
traits the factor plan asks (`EXACT_RULE`, `MovesElements`).

The table names real ops and real functions; an op that moves elements
along a sharded dim, run on every device by the simulator, computes what the
reference interpreter computes on the global program.
"""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay import parse_module, run, simulate
from shardonnay.ops.registry import is_registered
from shardonnay.ops.traits import (
    EXACT_RULE,
    SHARDING_COLLECTIVE,
    MovesElements,
    has_trait,
    names_with,
    trait_of,
)
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.local.dispatch import GENERIC, LOWERINGS, lowering_of

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'


def test_every_row_names_a_registered_op_and_lowers_it_somehow() -> None:
    for name, row in LOWERINGS.items():
        assert is_registered(name), name
        steps = (row.any_shards, row.even, row.cheaper)
        assert any(callable(f) for f in steps) or row.makes_unreduced, name
        assert not (row.any_shards and (row.even or row.cheaper)), name  # later steps unreachable
        assert not row.whole_unless_even or row.even is not None, name


def test_every_sharding_collective_has_a_row() -> None:
    collectives = names_with(SHARDING_COLLECTIVE)
    assert collectives and all(lowering_of(n) is not GENERIC for n in collectives)
    takes_partial = {n for n in collectives if lowering_of(n).takes_partial}
    assert takes_partial == {"sdy.all_reduce", "sdy.reduce_scatter"}


def test_ops_that_move_elements_have_exact_rules() -> None:
    moving = set(names_with(MovesElements))
    assert {"stablehlo.slice", "stablehlo.pad", "stablehlo.sort"} <= moving
    assert moving <= set(names_with(EXACT_RULE))


def program(arguments: str, body: str, result: str) -> str:
    return MESH + f"func.func @main({arguments}) -> ({result}) {{\n{body}\n}}"


def sharded(t: str, dims: str) -> str:
    return f"{t} {{sdy.sharding = #sdy.sharding<@mesh, {dims}>}}"


PER_VALUE = '{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}'
ADD = (
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %c = stablehlo.add %a, %b : tensor<f32>\n"
    "    stablehlo.return %c : tensor<f32>\n"
)
GE = (
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n"
)
SPLIT = '[{"y"}, {}]'
MOVING = {
    "select_and_scatter": program(
        f"%arg0: {sharded('tensor<8x4xf32>', SPLIT)}, %arg1: {sharded('tensor<4x4xf32>', SPLIT)}",
        "  %i = stablehlo.constant dense<0.0> : tensor<f32>\n"
        '  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %i) <{window_dimensions = '
        "array<i64: 2, 1>, window_strides = array<i64: 2, 1>}> ({\n"
        f"{GE}  }}, {{\n{ADD}  }}) {PER_VALUE} "
        ": (tensor<8x4xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<8x4xf32>\n"
        "  return %0 : tensor<8x4xf32>",
        sharded("tensor<8x4xf32>", SPLIT),
    ),
    "reduce_window": program(
        f"%arg0: {sharded('tensor<8x4xf32>', SPLIT)}",
        "  %i = stablehlo.constant dense<0.0> : tensor<f32>\n"
        '  %0 = "stablehlo.reduce_window"(%arg0, %i) <{window_dimensions = array<i64: 3, 1>, '
        "padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>}> ({\n"
        f"{ADD}  }}) {PER_VALUE} : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>\n"
        "  return %0 : tensor<8x4xf32>",
        sharded("tensor<8x4xf32>", SPLIT),
    ),
    "sort": program(
        f"%arg0: {sharded('tensor<8x4xf32>', SPLIT)}",
        '  %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64}> ({\n'
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        f"  }}) {PER_VALUE} : (tensor<8x4xf32>) -> tensor<8x4xf32>\n"
        "  return %0 : tensor<8x4xf32>",
        sharded("tensor<8x4xf32>", SPLIT),
    ),
    "dynamic_slice": program(
        f"%arg0: {sharded('tensor<8x4xf32>', SPLIT)}, %arg1: tensor<i32>",
        "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %0 = stablehlo.dynamic_slice %arg0, %arg1, %z, sizes = [3, 4] "
        "{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} "
        ": (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>\n"
        "  return %0 : tensor<3x4xf32>",
        sharded("tensor<3x4xf32>", "[{}, {}]"),
    ),
}


@pytest.mark.parametrize("name", sorted(MOVING))
def test_an_op_moving_elements_along_a_sharded_dim_computes_the_same(name: str) -> None:
    module = parse_module(MOVING[name])
    op = next(o for o in module.function("main").body.ops if o.name == f"stablehlo.{name}")
    assert 0 in trait_of(op, MovesElements).dims_of(op)  # the sharded dim
    rng = np.random.default_rng(0)
    inputs = [
        rng.permutation(np.prod(t.shape)).reshape(t.shape).astype(np.float32)
        if t.element_type == "f32"
        else np.array(5, np.int32)
        for t in module.function("main").type.inputs
    ]
    local = convert_global_to_local(module, poison_padding=True)
    got = simulate(local, *inputs)
    want = run(module, *inputs)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert has_trait(op, EXACT_RULE)
