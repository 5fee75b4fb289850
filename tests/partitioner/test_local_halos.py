"""`convert_global_to_local` of ops that move data along sharded dims.

Slices, pads, reverses and concatenations along a sharded dim exchange only
halos (no all_gather of the whole dim); uneven collectives whose shards do
not line up fetch only the slots each device lacks; a prefix scan gathers one
total per device, a top-k along a sharded dim `k` candidates per device. The
per-device programs, run on every device by the simulator with the padding of
uneven shards poisoned, compute what the global programs compute.
"""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay.testing.partitioned_programs import (
    MESH,
    assert_local_program_computes_the_same,
    collective_program,
    collectives_in,
    per_value,
    sharding,
    single_op_program,
)

# -- data moving along a sharded dim: halos only ------------------------------------------------


def _moving(shape: str, dims: str, op: str, types: str, result: str) -> str:
    """`%r = op` on `%arg0` (`tensor<shape>` sharded `dims`), its result
    `tensor<result>` sharded `dims` too; `%c` is a pad value."""
    return single_op_program(
        [(f"tensor<{shape}xf32>", dims)],
        f"  %c = sdy.constant dense<-1.0> : tensor<f32>\n  %r = {op} {per_value(dims)} : {types}",
        (f"tensor<{result}xf32>", dims),
    )


HALOS = {
    "slice_even": ("8", "[{y}]", "stablehlo.slice %arg0 [1:8]", "7"),
    "slice_strided_uneven": ("10", "[{y}]", "stablehlo.slice %arg0 [1:9:2]", "4"),
    "slice_two_dims": ("8x32", "[{x}, {y}]", "stablehlo.slice %arg0 [1:7:2, 3:30:3]", "3x9"),
    "slice_two_axes": ("13", "[{y, x}]", "stablehlo.slice %arg0 [2:13]", "11"),
    "pad_interior": (
        "7",
        "[{y}]",
        "stablehlo.pad %arg0, %c, low = [1], high = [2], interior = [1]",
        "16",
    ),
    "pad_negative_low": (
        "9x3",
        "[{y}, {}]",
        "stablehlo.pad %arg0, %c, low = [-2, 1], high = [3, 0], interior = [0, 0]",
        "10x4",
    ),
    "reverse": ("7", "[{y}]", "stablehlo.reverse %arg0, dims = [0]", "7"),
    "reverse_two_dims": ("6x10", "[{x}, {y}]", "stablehlo.reverse %arg0, dims = [0, 1]", "6x10"),
}


@pytest.mark.parametrize("name", list(HALOS))
def test_ops_moving_data_along_sharded_dims_exchange_only_halos(name: str) -> None:
    shape, dims, op, result = HALOS[name]
    source, target = f"tensor<{shape}xf32>", f"tensor<{result}xf32>"
    if "pad" in op:
        types = f"({source}, tensor<f32>) -> {target}"
    elif "reverse" in op:
        types = source
    else:
        types = f"({source}) -> {target}"
    local = assert_local_program_computes_the_same(_moving(shape, dims, op, types, result))
    assert collectives_in(local) == []  # no all_gather of the whole dim


def test_a_concatenation_along_a_sharded_dim_exchanges_only_halos() -> None:
    text = single_op_program(
        [("tensor<5x3xf32>", "[{y}, {x}]"), ("tensor<6x3xf32>", "[{y}, {x}]")],
        "  %r = stablehlo.concatenate %arg0, %arg1, dim = 0 "
        f"{per_value('[{y}, {x}]')} : (tensor<5x3xf32>, tensor<6x3xf32>) -> tensor<11x3xf32>",
        ("tensor<11x3xf32>", "[{y}, {x}]"),
    )
    local = assert_local_program_computes_the_same(text)
    assert collectives_in(local) == []


# -- uneven collectives: only the slots a device lacks move ---------------------------------------

UNEVEN_COLLECTIVES = {
    # 18 over "y"=4: 5 slots per device; over "y":(1)2: 9 slots
    "all_gather": ("18x2", '[{"y"}, {}]', 'sdy.all_gather [{"y":(2)2}, {}]', '[{"y":(1)2}, {}]'),
    "all_slice": ("18x2", '[{"y":(1)2}, {}]', 'sdy.all_slice [{"y":(2)2}, {}]', '[{"y"}, {}]'),
    "all_to_all": (
        "18x4",
        '[{"y"}, {}]',
        'sdy.all_to_all [{"y":(2)2}: 0->1]',
        '[{"y":(1)2}, {"y":(2)2}]',
    ),
}


@pytest.mark.parametrize("name", list(UNEVEN_COLLECTIVES))
def test_uneven_collectives_whose_shards_do_not_line_up_fetch_only_what_is_missing(name) -> None:
    local = assert_local_program_computes_the_same(collective_program(*UNEVEN_COLLECTIVES[name]))
    assert collectives_in(local) == []  # no gather of the whole dim
    assert any(op.name == "stablehlo.collective_permute" for op in local.walk())


# -- scans and top-k along a sharded dim: a few values per device move ----------------------------


def _scan_program(size: int, body: str, init: str) -> str:
    """A cumulative `body` along dim 1 (size `size`) of `tensor<4xsize>` on `[{x}, {y}]`."""
    t = f"tensor<4x{size}xf32>"
    return single_op_program(
        [(t, "[{x}, {y}]")],
        f"  %c = sdy.constant dense<{init}> : tensor<f32>\n"
        '  %r = "stablehlo.reduce_window"(%arg0, %c) <{padding = dense<[[0, 0], '
        f"[{size - 1}, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, {size}>}}> ({{\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        f"    %s = {body} %a, %b : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>\n"
        f"  }}) {per_value('[{x}, {y}]')} : ({t}, tensor<f32>) -> {t}",
        (t, "[{x}, {y}]"),
    )


@pytest.mark.parametrize(
    "size, body, init",
    [
        (8, "stablehlo.add", "0.0"),
        (10, "stablehlo.add", "0.0"),
        (7, "stablehlo.maximum", "0xFF800000"),
    ],
)
def test_a_prefix_scan_along_a_sharded_dim_gathers_one_total_per_device(size, body, init) -> None:
    local = assert_local_program_computes_the_same(_scan_program(size, body, init))
    assert collectives_in(local) == [("stablehlo.all_gather", 4, 1)]
    (gather,) = [op for op in local.walk() if op.name == "stablehlo.all_gather"]
    assert gather.operands[0].type.shape == (2, 1)  # the shard's total, per row


@pytest.mark.parametrize("result", ["[{}, {}]", "[{x}, {}]"])
def test_top_k_along_a_sharded_dim_gathers_k_candidates_per_device(result) -> None:
    text = MESH + (
        "func.func @main(%arg0: tensor<2x16xf32> "
        f"{{sdy.sharding = {sharding('[{x}, {y}]')}}})\n"
        f"    -> (tensor<2x3xf32> {{sdy.sharding = {sharding(result)}}}, "
        f"tensor<2x3xi32> {{sdy.sharding = {sharding(result)}}}) {{\n"
        f"  %v, %i = chlo.top_k(%arg0, k = 3) {per_value(result, result)} "
        ": tensor<2x16xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)\n"
        "  return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>\n}"
    )
    ties = np.random.default_rng(0).integers(0, 3, size=(2, 16)).astype(np.float32)
    local = assert_local_program_computes_the_same(text, ties)
    over_y = [op for op in local.walk() if op.name == "stablehlo.all_gather"]
    assert over_y and all(op.operands[0].type.shape[-1] == 3 for op in over_y)
