"""The mesh simulator: per-device programs run on every device of their mesh.

`simulate` cuts the inputs per `main`'s argument shardings (`layout.shard`),
runs the program on every device in lockstep and puts the results together
(`layout.unshard`). End to end, the per-device program of a program
partitioned by Shardy or by shardonnay's own passes computes what the
original program computes, both for our `convert_global_to_local` and (where
it works) for Shardy's own `sdy-convert-global-to-local`.
"""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay import parse_module, run
from shardonnay.errors import LayoutError, PartitionError, ShardonnayError
from shardonnay.layout import device_slices
from shardonnay.mesh import Mesh
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.runtime.simulator import simulate
from shardonnay.sharding import TensorSharding
from shardonnay.testing.partitioned_programs import (
    MESH,
    assert_local_program_computes_the_same,
    collective_program,
    collectives_in,
    corpus_cases,
    has_uneven_shards,
    own_corpus_cases,
    own_random_case,
    per_value,
    random_cases,
    sharding,
    shardy_local_of,
    single_op_program,
)

RANDOM_PROGRAMS = 100
OWN_RANDOM_PROGRAMS = 100
SHARDY_LOCAL_PROGRAMS = 300  # Shardy's own local programs: cheap, so a wider sweep


def assert_close(got, want) -> None:
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.shape == w.shape, (i, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=f"result {i}")


# -- the simulator on hand-written per-device programs --------------------------------------------


def test_partition_id_is_the_device_id_in_mesh_order() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 1, 2, 0]>
        func.func @main() -> (tensor<1xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) {
          %0 = stablehlo.partition_id : tensor<ui32>
          %1 = stablehlo.reshape %0 : (tensor<ui32>) -> tensor<1xui32>
          return %1 : tensor<1xui32>
        }"""
    )
    (ids,) = simulate(module)
    np.testing.assert_array_equal(ids, [3, 1, 2, 0])


def test_values_split_on_a_smaller_mesh_live_on_its_devices_only() -> None:
    """The program runs on the 4 devices of @mesh; %arg0, split on the 2 of
    @small, is handed to devices 0 and 1 (the others get poison) and read back
    from them."""
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=4]>
        sdy.mesh @small = <["z"=2]>
        func.func @main(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@small, [{"z"}]>},
                        %arg1: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
            -> (tensor<2xf32> {sdy.sharding = #sdy.sharding<@small, [{"z"}]>},
                tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                tensor<2xi1> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
          %0 = stablehlo.compare NE, %arg0, %arg0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
          return %arg0, %arg1, %0 : tensor<2xf32>, tensor<2xf32>, tensor<2xi1>
        }"""
    )
    a, b = np.arange(4, dtype=np.float32), np.arange(8, dtype=np.float32)
    got_a, got_b, is_poison = simulate(module, a, b)
    np.testing.assert_array_equal(got_a, a)
    np.testing.assert_array_equal(got_b, b)
    np.testing.assert_array_equal(is_poison, [False] * 4 + [True] * 4)


def test_each_device_gets_its_shard_of_each_input() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2, "y"=4]>
        func.func @main(
            %arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}
        ) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
          %0 = stablehlo.partition_id : tensor<ui32>
          %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<f32>
          %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
          %3 = stablehlo.add %arg0, %2 : tensor<4x2xf32>
          return %3 : tensor<4x2xf32>
        }"""
    )
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    (got,) = simulate(module, x)
    mesh = Mesh({"x": 2, "y": 4})
    sharding = TensorSharding.from_axes(mesh, ["x", "y"])
    want = x.copy()
    for device, region in device_slices(x.shape, sharding, mesh).items():
        want[region] += device
    np.testing.assert_array_equal(got, want)


def test_replicated_results_must_agree_across_devices() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2]>
        func.func @main() -> tensor<1xui32> {
          %0 = stablehlo.partition_id : tensor<ui32>
          %1 = stablehlo.reshape %0 : (tensor<ui32>) -> tensor<1xui32>
          return %1 : tensor<1xui32>
        }"""
    )
    with pytest.raises(LayoutError, match="devices 0 and 1"):
        simulate(module)


def test_an_input_that_does_not_shard_to_the_argument_type_is_an_error() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2]>
        func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
            -> tensor<4xf32> {
          return %arg0 : tensor<4xf32>
        }"""
    )
    with pytest.raises(ShardonnayError, match="input 0 of @main"):
        simulate(module, np.zeros(6, np.float32))


def test_collectives_exchange_buffers_between_devices() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2, "y"=2]>
        func.func @main(%arg0: tensor<1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>})
            -> (tensor<1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
          %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
              replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %s = stablehlo.add %a, %b : tensor<f32>
            stablehlo.return %s : tensor<f32>
          }) : (tensor<1xf32>) -> tensor<1xf32>
          return %0 : tensor<1xf32>
        }"""  # noqa: E501
    )
    (got,) = simulate(module, np.array([1, 2, 10, 20], np.float32))
    np.testing.assert_array_equal(got, [11, 22])


UNEVEN = """
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32>, tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>,
                                      shardonnay.global_shape = array<i64: 6>}) {
  %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
      replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}>
      : (tensor<2xf32>) -> tensor<8xf32>
  return %0, %arg0 : tensor<8xf32>, tensor<2xf32>
}
"""


@pytest.mark.parametrize("poison", [True, False])
def test_uneven_shards_end_in_padding_that_is_poisoned_on_request(poison: bool) -> None:
    x = np.arange(6, dtype=np.float32)
    gathered, same = simulate(parse_module(UNEVEN), x, poison=poison)
    np.testing.assert_array_equal(gathered[:6], x)  # 2 slots per device, 6 elements
    np.testing.assert_array_equal(gathered[6:], [np.nan, np.nan] if poison else [0, 0])
    np.testing.assert_array_equal(same, x)  # shape 6, as the result notes


def test_a_program_runs_on_its_num_partitions_devices() -> None:
    module = parse_module(
        """
        module attributes {mhlo.num_partitions = 4 : i32} {
          sdy.mesh @mesh = <["x"=4]>
          sdy.mesh @one = <["y"=1]>
          func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
            %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
                replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
            ^bb0(%a: tensor<f32>, %b: tensor<f32>):
              %s = stablehlo.add %a, %b : tensor<f32>
              stablehlo.return %s : tensor<f32>
            }) : (tensor<f32>) -> tensor<f32>
            return %0 : tensor<f32>
          }
        }"""  # noqa: E501
    )
    (total,) = simulate(module, np.float32(1.5))
    assert total == 6.0


# -- uneven shards -----------------------------------------------------------------------------

UNEVEN_COLLECTIVES = {
    "all_gather": ("6x16", '[{"y"}, {}]', 'sdy.all_gather [{"y"}, {}]', "[{}, {}]"),
    "all_gather_minor_axis": (
        "6x16",
        '[{"x", "y"}, {}]',
        'sdy.all_gather [{"y"}, {}]',
        '[{"x"}, {}]',
    ),
    "all_gather_two_dims": ("6x5", '[{"x"}, {"y"}]', 'sdy.all_gather [{"x"}, {"y"}]', "[{}, {}]"),
    "all_slice": ("6x16", "[{}, {}]", 'sdy.all_slice [{"y"}, {}]', '[{"y"}, {}]'),
    "all_slice_minor_axis": (
        "10x4",
        '[{"x"}, {}]',
        'sdy.all_slice [{"y"}, {}]',
        '[{"x", "y"}, {}]',
    ),
    "all_to_all": ("6x6", '[{"y"}, {}]', 'sdy.all_to_all [{"y"}: 0->1]', '[{}, {"y"}]'),
    "collective_permute": (
        "6x6",
        '[{"x"}, {"y"}]',
        "sdy.collective_permute",
        '[{"y":(1)2}, {"x", "y":(2)2}]',
    ),
}


@pytest.mark.parametrize("name", list(UNEVEN_COLLECTIVES))
def test_collectives_of_uneven_shards_keep_the_global_value(name: str) -> None:
    assert_local_program_computes_the_same(collective_program(*UNEVEN_COLLECTIVES[name]))


def test_gathering_uneven_shards_drops_their_padding() -> None:
    text = collective_program(*UNEVEN_COLLECTIVES["all_gather"])
    local = convert_global_to_local(parse_module(text))
    assert local.function("main").type.inputs[0].shape == (2, 16)  # ceil(6 / 4) rows each
    assert collectives_in(local) == [("stablehlo.all_gather", 4, 0)]
    assert_local_program_computes_the_same(text)


UNEVEN_OPS = {
    "elementwise": single_op_program(
        [("tensor<6x3xf32>", '[{"y"}, {}]')],
        f"  %r = stablehlo.negate %arg0 {per_value('[{y}, {}]')} : tensor<6x3xf32>",
        ("tensor<6x3xf32>", '[{"y"}, {}]'),
    ),
    "broadcast": single_op_program(
        [("tensor<6xf32>", '[{"y"}]')],
        f"  %r = stablehlo.broadcast_in_dim %arg0, dims = [0] {per_value('[{y}, {x}]')} "
        ": (tensor<6xf32>) -> tensor<6x3xf32>",
        ("tensor<6x3xf32>", '[{"y"}, {"x"}]'),
    ),
    "reshape": single_op_program(
        [("tensor<6x4xf32>", '[{"y"}, {}]')],
        f"  %r = stablehlo.reshape %arg0 {per_value('[{y}]')} "
        ": (tensor<6x4xf32>) -> tensor<24xf32>",
        ("tensor<24xf32>", '[{"y"}]'),
    ),
    "iota": single_op_program(
        [],
        f"  %r = stablehlo.iota dim = 0 {per_value('[{y}, {x}]')} : tensor<6x3xi32>",
        ("tensor<6x3xi32>", '[{"y"}, {"x"}]'),
    ),
    "constant": single_op_program(
        [],
        f"  %r = sdy.constant {per_value('[{y}]')} dense<[1.0, 2.0, 3.0, 4.0, 5.0]> "
        ": tensor<5xf32>",
        ("tensor<5xf32>", '[{"y"}]'),
    ),
}


@pytest.mark.parametrize("name", list(UNEVEN_OPS))
def test_ops_on_uneven_shards_compute_the_same(name: str) -> None:
    assert_local_program_computes_the_same(UNEVEN_OPS[name])


def reduce_program(shape: str, dims: str, body: str, init: str, kept: str) -> str:
    """A reduce of `tensor<{shape}xf32>` sharded `[{"y"}, {}]`, then its all_reduce."""
    rank = len(shape.split("x"))
    arg = "[" + ", ".join(['{"y"}'] + ["{}"] * (rank - 1)) + "]"
    return MESH + (
        f"func.func @main(%arg0: tensor<{shape}xf32> {{sdy.sharding = {sharding(arg)}}})\n"
        f"    -> (tensor<{kept}xf32> {{sdy.sharding = {sharding('[{}]')}}}) {{\n"
        f"  %c = sdy.constant dense<{init}> : tensor<f32>\n"
        f"  %p = stablehlo.reduce(%arg0 init: %c) applies {body} across dimensions = {dims} "
        f"{per_value('[{}]')} : (tensor<{shape}xf32>, tensor<f32>) -> tensor<{kept}xf32>\n"
        f'  %r = sdy.all_reduce {{"y"}} %p out_sharding=<@mesh, [{{}}]> : tensor<{kept}xf32>\n'
        f"  return %r : tensor<{kept}xf32>\n}}"
    )


@pytest.mark.parametrize(
    ("shape", "body", "init"),
    [
        ("6x4", "stablehlo.add", "0.0"),
        ("6x4", "stablehlo.maximum", "0xFF800000"),
        ("6x4", "stablehlo.minimum", "2.0"),
        ("8x4", "stablehlo.add", "1.5"),  # not the identity: added once, not per shard
        ("6x4", "stablehlo.add", "-2.0"),
        ("6x4", "stablehlo.multiply", "3.0"),
    ],
)
def test_reductions_over_sharded_dims_count_the_init_once_and_skip_padding(
    shape, body, init
) -> None:
    text = reduce_program(shape, "[0]", body, init, shape.split("x")[1])
    assert_local_program_computes_the_same(text)


def test_a_dot_contracting_an_uneven_dim_skips_padding() -> None:
    text = MESH + (
        f"func.func @main(%arg0: tensor<4x6xf32> {{sdy.sharding = {sharding('[{}, {y}]')}}},\n"
        f"    %arg1: tensor<6x3xf32> {{sdy.sharding = {sharding('[{y}, {}]')}}})\n"
        f"    -> (tensor<4x3xf32> {{sdy.sharding = {sharding('[{}, {}]')}}}) {{\n"
        f"  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] "
        f"{per_value('[{}, {}]')} : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>\n"
        '  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<4x3xf32>\n'
        "  return %1 : tensor<4x3xf32>\n}"
    )
    assert_local_program_computes_the_same(text)


ARGMAX = MESH + (
    f"func.func @main(%arg0: tensor<4x6xf32> {{sdy.sharding = {sharding('[{x}, {y}]')}}})\n"
    f"    -> (tensor<4xi32> {{sdy.sharding = {sharding('[{x}]')}}}) {{\n"
    f"  %0 = stablehlo.iota dim = 1 {per_value('[{x}, {y}]')} : tensor<4x6xi32>\n"
    "  %1 = sdy.constant dense<0xFF800000> : tensor<f32>\n"
    "  %2 = sdy.constant dense<0> : tensor<i32>\n"
    "  %3:2 = stablehlo.reduce(%arg0 init: %1), (%0 init: %2) across dimensions = [1] "
    f"{per_value('[{x}]', '[{x}]')} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, "
    "tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)\n"
    "   reducer(%a: tensor<f32>, %b: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>) {\n"
    "    %4 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    %5 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    %6 = stablehlo.compare LT, %i, %j, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    %7 = stablehlo.and %5, %6 : tensor<i1>\n"
    "    %8 = stablehlo.or %4, %7 : tensor<i1>\n"
    "    %9 = stablehlo.select %4, %a, %b : tensor<i1>, tensor<f32>\n"
    "    %10 = stablehlo.select %8, %i, %j : tensor<i1>, tensor<i32>\n"
    "    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>\n"
    "  }\n"
    '  %11 = sdy.all_reduce {"y"} %3#1 out_sharding=<@mesh, [{"x"}]> : tensor<4xi32>\n'
    "  return %11 : tensor<4xi32>\n}"
)


def test_an_argmax_over_a_sharded_dim_reduces_the_pairs_of_every_shard() -> None:
    x = np.array([[1, 5, 2, 5, 0, 3], [7, 1, 1, 1, 1, 7], [0, 0, 0, 0, 0, 9], [4, 3, 2, 1, 0, -1]])
    local = assert_local_program_computes_the_same(ARGMAX, x.astype(np.float32))
    # The (value, index) pairs of the 4 shards are gathered and reduced again.
    assert ("stablehlo.all_gather", 4, 0) in collectives_in(local)
    assert not [c for c in collectives_in(local) if c[0] == "stablehlo.all_reduce"]


# -- data that moves between shards -----------------------------------------------------------

MOVING = {
    "partial slice of a sharded dim": single_op_program(
        [("tensor<8x16xf32>", '[{"x"}, {"y"}]')],
        f"  %r = stablehlo.slice %arg0 [0:8, 2:10] {per_value('[{x}, {y}]')} "
        ": (tensor<8x16xf32>) -> tensor<8x8xf32>",
        ("tensor<8x8xf32>", '[{"x"}, {"y"}]'),
    ),
    "strided slice of an uneven dim": single_op_program(
        [("tensor<6x4xf32>", '[{"y"}, {}]')],
        f"  %r = stablehlo.slice %arg0 [1:6:2, 0:4] {per_value('[{y}, {}]')} "
        ": (tensor<6x4xf32>) -> tensor<3x4xf32>",
        ("tensor<3x4xf32>", '[{"y"}, {}]'),
    ),
    "pad moving data between shards": single_op_program(
        [("tensor<8xf32>", '[{"x"}]')],
        "  %c = sdy.constant dense<0.0> : tensor<f32>\n"
        "  %r = stablehlo.pad %arg0, %c, low = [4], high = [0], interior = [0] "
        f"{per_value('[{x}]')} : (tensor<8xf32>, tensor<f32>) -> tensor<12xf32>",
        ("tensor<12xf32>", '[{"x"}]'),
    ),
    "pad keeping the size": single_op_program(
        [("tensor<8xf32>", '[{"y"}]')],
        "  %c = sdy.constant dense<1.0> : tensor<f32>\n"
        "  %r = stablehlo.pad %arg0, %c, low = [-1], high = [1], interior = [0] "
        f"{per_value('[{y}]')} : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>",
        ("tensor<8xf32>", '[{"y"}]'),
    ),
    "concatenate along a sharded dim": single_op_program(
        [("tensor<8xf32>", '[{"x"}]')],
        "  %r = stablehlo.concatenate %arg0, %arg0, dim = 0 "
        f"{per_value('[{x}]')} : (tensor<8xf32>, tensor<8xf32>) -> tensor<16xf32>",
        ("tensor<16xf32>", '[{"x"}]'),
    ),
    "reverse along a sharded dim": single_op_program(
        [("tensor<6x4xf32>", '[{"y"}, {"x"}]')],
        f"  %r = stablehlo.reverse %arg0, dims = [0] {per_value('[{y}, {x}]')} : tensor<6x4xf32>",
        ("tensor<6x4xf32>", '[{"y"}, {"x"}]'),
    ),
    "cumulative sum along a sharded dim": single_op_program(
        [("tensor<4x8xf32>", '[{"x"}, {"y"}]')],
        "  %c = sdy.constant dense<0.0> : tensor<f32>\n"
        '  %r = "stablehlo.reduce_window"(%arg0, %c) <{padding = dense<[[0, 0], [7, 0]]> : '
        "tensor<2x2xi64>, window_dimensions = array<i64: 1, 8>}> ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %s = stablehlo.add %a, %b : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>\n"
        f"  }}) {per_value('[{x}, {y}]')} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>",
        ("tensor<4x8xf32>", '[{"x"}, {"y"}]'),
    ),
    "operand and result shard a dim differently": single_op_program(
        [("tensor<8xf32>", '[{"x"}]')],
        f"  %r = stablehlo.negate %arg0 {per_value('[{y}]')} : tensor<8xf32>",
        ("tensor<8xf32>", '[{"y"}]'),
    ),
}


@pytest.mark.parametrize("name", list(MOVING))
def test_ops_moving_data_between_shards_compute_the_same(name: str) -> None:
    assert_local_program_computes_the_same(MOVING[name])


def test_only_the_dims_that_move_data_exchange_halos() -> None:
    local = assert_local_program_computes_the_same(MOVING["partial slice of a sharded dim"])
    assert collectives_in(local) == []  # nothing gathered
    permutes = [op for op in local.walk() if op.name == "stablehlo.collective_permute"]
    assert permutes
    for op in permutes:
        # on <["x"=2, "y"=4]> device d is at x = d // 4: dim 0 stays on "x"
        pairs = op.attributes["source_target_pairs"].to_numpy()
        assert all(s // 4 == t // 4 for s, t in pairs)
        rows, columns = op.operands[0].type.shape
        assert rows == 4 and columns < 4  # less than a shard of dim 1


def test_sorting_along_a_sharded_dim_sorts_the_whole_dim() -> None:
    text = single_op_program(
        [("tensor<4x6xf32>", '[{"x"}, {"y"}]')],
        '  %r = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({\n'
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %l = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    stablehlo.return %l : tensor<i1>\n"
        f"  }}) {per_value('[{x}, {y}]')} : (tensor<4x6xf32>) -> tensor<4x6xf32>",
        ("tensor<4x6xf32>", '[{"x"}, {"y"}]'),
    )
    assert_local_program_computes_the_same(text)


# -- end to end: a partitioner, convert_global_to_local, simulate ---------------------------------

# Why convert_global_to_local may reject a partitioned program (see its tests).
DOCUMENTED_REASONS: tuple[str, ...] = ()  # none: every program converts


def assert_computes_the_original(case) -> None:
    """`case`'s partitioned program, made local with poisoned padding and run on
    every device, computes what its original program computes."""
    local = convert_global_to_local(parse_module(case.partitioned), poison_padding=True)
    want = run(parse_module(case.text), *case.inputs)
    try:
        assert_close(simulate(local, *case.inputs), want)
    except AssertionError as e:
        raise AssertionError(f"{case.name}: {e}") from None


@pytest.mark.parametrize("index", range(17), ids=lambda i: f"corpus{i}")
def test_corpus_programs_partitioned_by_shardy_compute_what_the_original_computes(index) -> None:
    pytest.importorskip("jax")
    cases = corpus_cases()
    assert len(cases) == 17
    assert_computes_the_original(cases[index])


@pytest.mark.parametrize("index", range(17), ids=lambda i: f"corpus{i}")
def test_corpus_programs_partitioned_by_shardonnay_compute_what_the_original_computes(
    index,
) -> None:
    cases = own_corpus_cases()
    assert len(cases) == 17
    assert_computes_the_original(cases[index])


def _check_random(cases) -> int:
    """Checks every case that converts; returns how many did. The others must
    be rejected for a documented reason."""
    converted = 0
    for case in cases:
        try:
            convert_global_to_local(parse_module(case.partitioned))
        except PartitionError as e:
            assert any(reason in str(e) for reason in DOCUMENTED_REASONS), f"{case.name}: {e}"
            continue
        assert_computes_the_original(case)
        converted += 1
    return converted


def test_random_programs_partitioned_by_shardy_compute_what_the_original_computes() -> None:
    pytest.importorskip("jax")
    # of 100; `python benchmarks/partition_check.py --shardy` runs the long sweep
    assert _check_random(random_cases(RANDOM_PROGRAMS)) >= 93


def test_random_programs_partitioned_by_shardonnay_compute_what_the_original_computes() -> None:
    cases = [own_random_case(seed) for seed in range(OWN_RANDOM_PROGRAMS)]
    assert _check_random(cases) == OWN_RANDOM_PROGRAMS


# -- Shardy's own local programs, run by the simulator --------------------------------------------

# Shardy fails on these ops (region arguments of while loops keep their global
# types; chlo ops are not converted; the gather of rows of a sharded table crashes).
SHARDY_CANNOT = ("stablehlo.while", "stablehlo.case", "chlo.", "stablehlo.gather")


def _shardy_comparable(case) -> bool:
    """Programs on which Shardy's conversion is expected to work and be right:
    no ops it cannot convert, even shards, no sub-axes (see the xfails below),
    and every sdy.all_reduce a sum."""
    text = case.partitioned
    if any(name in text for name in SHARDY_CANNOT) or '":(' in text:
        return False
    module = parse_module(text)
    for op in module.walk():
        if op.name == "sdy.all_reduce" and op.operands[0].op is not None:
            producer = op.operands[0].op
            if producer.name in ("stablehlo.reduce", "stablehlo.scatter"):
                body = producer.regions[0].entry.ops
                if body[0].name != "stablehlo.add":
                    return False
    return not has_uneven_shards(module)


def test_shardy_local_programs_compute_what_the_original_computes() -> None:
    """Where Shardy's conversion succeeds (it fails where data moves between
    shards beyond the sdy collectives), its local programs are right too."""
    pytest.importorskip("jax")
    comparable = tuple(
        c for c in (*corpus_cases(), *random_cases(SHARDY_LOCAL_PROGRAMS)) if _shardy_comparable(c)
    )
    compared = 0
    for case, text in zip(comparable, shardy_local_of(comparable), strict=True):
        if text is None:
            continue
        got = simulate(parse_module(text), *case.inputs)
        want = run(parse_module(case.text), *case.inputs)
        try:
            assert_close(got, want)
        except AssertionError as e:
            raise AssertionError(f"{case.name}: {e}") from None
        compared += 1
    assert compared >= 60


SUB_AXIS_PROGRAM = """
sdy.mesh @mesh = <["w"=4]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.all_slice [{"w":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"w":(2)2}, {}]> : tensor<8x4xf32>
  %1 = stablehlo.cosine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"w":(2)2}, {}]>]>} : tensor<8x4xf32>
  %2 = sdy.all_gather [{"w":(2)2}, {}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
"""  # noqa: E501

MAX_PROGRAM = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = sdy.constant dense<0xFF800000> : tensor<f32>
  %1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = sdy.all_reduce {"x"} %1 out_sharding=<@mesh, [{}]> : tensor<4xf32>
  return %2 : tensor<4xf32>
}
"""  # noqa: E501


@pytest.mark.parametrize("program", [SUB_AXIS_PROGRAM, MAX_PROGRAM], ids=["sub_axis", "max"])
def test_ours_computes_what_the_global_program_computes(program: str) -> None:
    module = parse_module(program)
    x = np.random.default_rng(0).normal(size=module.function("main").type.inputs[0].shape)
    x = x.astype(np.float32)
    assert_close(simulate(convert_global_to_local(module), x), run(module, x))


def _shardy_numbers(program: str) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.partitioned_programs import shardy_local

    module = parse_module(program)
    x = np.random.default_rng(0).normal(size=module.function("main").type.inputs[0].shape)
    x = x.astype(np.float32)
    (text,) = shardy_local([program])
    assert text is not None
    assert_close(simulate(parse_module(text), x), run(module, x))


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, LayoutError),
    reason="Shardy's offset tables take a sub-axis coordinate from the wrong end of its axis "
    '("w":(2)2 on "w"=4 gets offsets [0, 0, 4, 4] instead of [0, 4, 0, 4]), so its '
    "all_slice and collective_permute put shards on the wrong devices",
)
def test_shardy_local_program_is_right_on_sub_axes() -> None:
    _shardy_numbers(SUB_AXIS_PROGRAM)


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="Shardy lowers every sdy.all_reduce to a sum, also one combining the partial "
    "results of a max reduction",
)
def test_shardy_local_program_is_right_on_all_reduce_of_a_max() -> None:
    _shardy_numbers(MAX_PROGRAM)


def test_devices_the_system_cannot_start_threads_for_are_a_typed_error(monkeypatch) -> None:
    """The devices already started are released from their meeting point, and the
    error says how many threads were needed."""
    import threading

    from shardonnay.errors import ShardonnayError
    from shardonnay.runtime.devices import Lockstep, run_lockstep

    lockstep = Lockstep(4)
    start = threading.Thread.start
    started: list[threading.Thread] = []

    def start_two(self: threading.Thread) -> None:
        if len(started) == 2:
            raise RuntimeError("can't start new thread")
        started.append(self)
        start(self)

    monkeypatch.setattr(threading.Thread, "start", start_two)
    programs = [lambda i=i: lockstep.meet(i, i, lambda d: d) for i in range(4)]
    with pytest.raises(ShardonnayError, match="4 devices at once needs a thread each; .* only 2"):
        run_lockstep(lockstep, programs)
    assert not any(t.is_alive() for t in started)
