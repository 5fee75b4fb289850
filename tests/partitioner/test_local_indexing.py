"""`convert_global_to_local` of gathers and scatters on sharded operands.

A gather from a dim sharded on the table reads on every device from its own
shard, masks the rows other shards hold, and the `sdy.all_reduce` after it
sums the one real row with zeros; a scatter into a sharded dim shifts its
indices, and updates split along batch dims scatter partially on every
device. Each program is checked by its numbers (indices out of range
included): the per-device program, run on every device by the simulator,
computes what the global program computes.
"""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay import parse_module
from shardonnay.testing.partitioned_programs import (
    MESH,
    assert_local_program_computes_the_same,
    inputs_for,
    per_value,
    sharding,
)

# -- gathers --------------------------------------------------------------------------------------


def gather_program(table: str, ids: str, result: str, reduction: str) -> str:
    return MESH + (
        f"func.func @main(%arg0: tensor<16x8xf32> {{sdy.sharding = {sharding(table)}}},\n"
        f"    %arg1: tensor<2x3x1xi32> {{sdy.sharding = {sharding(ids)}}})\n"
        f"    -> (tensor<2x3x8xf32> {{sdy.sharding = {sharding(result)}}}) {{\n"
        '  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<'
        "offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], "
        "index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> "
        f"{per_value(result)} : (tensor<16x8xf32>, tensor<2x3x1xi32>) -> tensor<2x3x8xf32>\n"
        f"  %1 = sdy.all_reduce {reduction} %0 out_sharding=<@mesh, {result}> "
        ": tensor<2x3x8xf32>\n"
        "  return %1 : tensor<2x3x8xf32>\n}"
    )


def test_gathering_rows_of_a_sharded_table_masks_other_shards_rows() -> None:
    text = gather_program('[{"y"}, {"x"}]', "[{}, {}, {}]", '[{}, {}, {"x"}]', '{"y"}')
    ids = np.array([[[0], [5], [15]], [[-3], [20], [9]]], np.int32)  # out of range too
    table = np.arange(128, dtype=np.float32).reshape(16, 8)
    assert_local_program_computes_the_same(text, table, ids)


def test_gathering_from_a_dim_no_index_reaches() -> None:
    text = MESH + (
        f"func.func @main(%arg0: tensor<4x8xf32> {{sdy.sharding = {sharding('[{}, {y}]')}}},\n"
        f"    %arg1: tensor<3x1xi32> {{sdy.sharding = {sharding('[{}, {}]')}}})\n"
        f"    -> (tensor<3xf32> {{sdy.sharding = {sharding('[{}]')}}}) {{\n"
        '  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<'
        "collapsed_slice_dims = [0, 1], start_index_map = [0], index_vector_dim = 1>, "
        "slice_sizes = array<i64: 1, 1>}> "
        f"{per_value('[{}]')} : (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3xf32>\n"
        '  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}]> : tensor<3xf32>\n'
        "  return %1 : tensor<3xf32>\n}"
    )
    assert_local_program_computes_the_same(
        text, inputs_for(parse_module(text))[0], np.array([[3], [0], [1]], np.int32)
    )


def test_gathering_single_elements_of_two_sharded_dims() -> None:
    text = MESH + (
        f"func.func @main(%arg0: tensor<16x8xf32> {{sdy.sharding = {sharding('[{y}, {x}]')}}},\n"
        f"    %arg1: tensor<5x2xi32> {{sdy.sharding = {sharding('[{}, {}]')}}})\n"
        f"    -> (tensor<5xf32> {{sdy.sharding = {sharding('[{}]')}}}) {{\n"
        '  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<'
        "collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, "
        "slice_sizes = array<i64: 1, 1>}> "
        f"{per_value('[{}]')} : (tensor<16x8xf32>, tensor<5x2xi32>) -> tensor<5xf32>\n"
        '  %1 = sdy.all_reduce {"y", "x"} %0 out_sharding=<@mesh, [{}]> : tensor<5xf32>\n'
        "  return %1 : tensor<5xf32>\n}"
    )
    table = np.arange(128, dtype=np.float32).reshape(16, 8)
    ids = np.array([[0, 0], [15, 7], [4, 3], [-2, 9], [9, 5]], np.int32)
    assert_local_program_computes_the_same(text, table, ids)


# -- scatters -------------------------------------------------------------------------------------


def scatter_program(operand: str, updates: str, result: str, body: str, after) -> str:
    return MESH + (
        f"func.func @main(%arg0: tensor<16x4xf32> {{sdy.sharding = {sharding(operand)}}},\n"
        f"    %arg1: tensor<6x1xi32> {{sdy.sharding = {sharding(updates)}}},\n"
        f"    %arg2: tensor<6x4xf32> {{sdy.sharding = {sharding(updates)}}})\n"
        f"    -> (tensor<16x4xf32> {{sdy.sharding = {sharding(operand)}}}) {{\n"
        '  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, '
        "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
        "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, "
        "unique_indices = false}> ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        f"    %s = {body} %a, %b : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>\n"
        f"  }}) {per_value(result)} : (tensor<16x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) "
        "-> tensor<16x4xf32>\n"
        + (after or "  %r = stablehlo.negate %0 " + per_value(result) + " : tensor<16x4xf32>\n")
        + "  return %r : tensor<16x4xf32>\n}"
    )


@pytest.mark.parametrize("body", ["stablehlo.add", "stablehlo.maximum"])
def test_scattering_into_a_sharded_dim_shifts_the_indices(body: str) -> None:
    text = scatter_program('[{"y"}, {}]', "[{}, {}]", '[{"y"}, {}]', body, None)
    ids = np.array([[3], [15], [3], [-1], [16], [8]], np.int32)
    module = parse_module(text)
    operand, _, updates = inputs_for(module)
    assert_local_program_computes_the_same(text, operand, ids, updates)


@pytest.mark.parametrize("body", ["stablehlo.add", "stablehlo.maximum"])
def test_scattering_updates_sharded_along_batch_dims_combines_partial_results(body) -> None:
    after = '  %r = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<16x4xf32>\n'
    text = scatter_program("[{}, {}]", '[{"x"}, {}]', "[{}, {}]", body, after)
    ids = np.array([[3], [15], [3], [0], [7], [8]], np.int32)
    module = parse_module(text)
    operand, _, updates = inputs_for(module)
    assert_local_program_computes_the_same(text, operand, ids, updates)
