"""Values pinned to one device by maximal shardings, partitioned and run.

A maximal mesh `<[], device_ids=[k]>` pins a value to device `k`: the
per-device program holds it whole on every device, meaningful on `k` only.
Each program is partitioned, run on every device by the simulator (arguments
pinned to a device are handed to it alone, the other devices get NaN) and
compared with the reference interpreter on the unpartitioned program
(`shardonnay.check`); a few also run on XLA's CPU devices.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import shardonnay
from shardonnay.errors import IRError, PartitionError, ShardonnayError
from shardonnay.ir.verifier import verify
from shardonnay.layout import shard, unshard
from shardonnay.mesh import Mesh
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.pipeline import propagation_pipeline
from shardonnay.runtime.check import check
from shardonnay.runtime.simulator import device_count, device_inputs, global_outputs
from shardonnay.sharding import TensorSharding
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.pinned_programs import (
    DEVICE_TO_DEVICE,
    INTO_SHARDED,
    PAST_THE_MESH,
    PINNED_PROGRAMS,
    RESULTS_ON_TWO_DEVICES,
    pinned_program,
)

ROOT = Path(__file__).parent.parent.parent

# A case whose index is pinned (every device must take the same branch), a
# concatenate, dot and reduce of pinned and sharded values, and an
# optimization barrier of both.
BRANCHES = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<i32> {sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>},
                %arg2: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<16x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>},
        tensor<8x4xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_3, []>}) {
  %0 = "stablehlo.case"(%arg1) ({
    %a = stablehlo.negate %arg0 : tensor<8x6xf32>
    stablehlo.return %a : tensor<8x6xf32>
  }, {
    %b = stablehlo.abs %arg0 : tensor<8x6xf32>
    stablehlo.return %b : tensor<8x6xf32>
  }) : (tensor<i32>) -> tensor<8x6xf32>
  %1 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_3, []>]>}
      : tensor<8x6xf32>
  %2 = stablehlo.concatenate %1, %0, dim = 0
      {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>}
      : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<16x6xf32>
  %3 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0]
      {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>}
      : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %4 = stablehlo.reduce(%1 init: %cst) applies stablehlo.maximum across dimensions = [1]
      {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_3, []>]>}
      : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  %5:2 = stablehlo.optimization_barrier %0, %4 : tensor<8x6xf32>, tensor<8xf32>
  return %5#0, %2, %3, %5#1 : tensor<8x6xf32>, tensor<16x6xf32>, tensor<8x4xf32>, tensor<8xf32>
}
"""


@pytest.mark.parametrize("branch", [0, 1, 7])
def test_every_device_takes_the_branch_a_pinned_index_picks(branch):
    rng = np.random.default_rng(branch)
    x = rng.standard_normal((8, 6)).astype(np.float32)
    w = rng.standard_normal((6, 4)).astype(np.float32)
    assert check(parse_module(BRANCHES), inputs=[x, np.int32(branch), w]).ok


def _ops(local) -> list:
    return list(local.walk())


def _partitioned(text: str):
    return shardonnay.partition(parse_module(text))


@pytest.mark.parametrize("name", sorted(PINNED_PROGRAMS))
def test_partitioned_program_with_pinned_values_computes_the_unpartitioned_results(name):
    result = check(parse_module(PINNED_PROGRAMS[name]), seed=3)
    assert result.ok


def test_value_moves_from_device_2_to_device_5_by_one_permute():
    local = _partitioned(DEVICE_TO_DEVICE)
    permutes = [o for o in _ops(local) if o.name == "stablehlo.collective_permute"]
    pairs = [o.attributes["source_target_pairs"].to_numpy().tolist() for o in permutes]
    assert pairs == [[[2, 5]], [[5, 0]]]
    assert not [o for o in _ops(local) if o.name == "stablehlo.collective_broadcast"]
    f = local.function("main")
    assert [str(t) for t in f.type.inputs] == ["tensor<4x1xf32>", "tensor<8x4xf32>"]
    assert [str(t) for t in f.type.results] == ["tensor<8x4xf32>", "tensor<8x4xf32>"]


def test_pinned_value_used_everywhere_is_broadcast_once_from_its_device():
    local = _partitioned(INTO_SHARDED)
    broadcasts = [o for o in _ops(local) if o.name == "stablehlo.collective_broadcast"]
    groups = [o.attributes["replica_groups"].to_numpy().tolist() for o in broadcasts]
    # one for the sharded add, one for the replicated result
    assert groups == [[[5, 0, 1, 2, 3, 4, 6, 7]]] * 2


def test_broadcast_from_one_device_costs_its_bytes():
    local = _partitioned(INTO_SHARDED)
    costs = [c for c in collective_costs(local).collectives if c.kind == "collective_broadcast"]
    assert costs
    for cost in costs:
        assert cost.buffer_bytes == 8 * 4 * 4
        assert cost.sent[5] == 7 * cost.buffer_bytes
        assert cost.received[5] == 0
        assert [cost.received[d] for d in range(8) if d != 5] == [cost.buffer_bytes] * 7


def test_program_runs_on_devices_up_to_the_largest_pinned_one():
    local = _partitioned(PAST_THE_MESH)
    assert device_count(local) == 6


def test_simulator_hands_a_pinned_argument_to_its_device_only():
    local = _partitioned(DEVICE_TO_DEVICE)
    x = np.arange(32, dtype=np.float32).reshape(8, 4)
    count, per_device = device_inputs(local, [x, x + 1])
    assert count == 8
    np.testing.assert_array_equal(per_device[2][1], x + 1)
    for d in set(range(8)) - {2}:
        assert per_device[d][1].shape == (8, 4) and np.isnan(per_device[d][1]).all()
    _, plain = device_inputs(local, [x, x + 1], poison=False)
    assert not plain[3][1].any()


def test_simulator_reads_a_pinned_result_from_its_device_only():
    local = _partitioned(DEVICE_TO_DEVICE)
    rng = np.random.default_rng(0)
    want = rng.standard_normal((2, 8, 4)).astype(np.float32)
    results = [[np.full((8, 4), np.nan, np.float32)] * 2 for _ in range(8)]
    results[0][0], results[5][1] = want[0], want[1]
    out = global_outputs(local, results)
    np.testing.assert_array_equal(out[0], want[0])
    np.testing.assert_array_equal(out[1], want[1])


def test_layout_of_a_maximal_sharding_is_the_whole_array_on_its_device():
    mesh = Mesh({}, device_ids=[3])
    sharding = TensorSharding(mesh, ())
    x = np.arange(6.0).reshape(2, 3)
    buffers = shard(x, sharding, mesh)
    assert list(buffers) == [3]
    np.testing.assert_array_equal(buffers[3], x)
    np.testing.assert_array_equal(unshard(buffers, sharding, mesh, x.shape), x)


def test_results_of_one_op_on_different_devices_are_a_partition_error():
    with pytest.raises(PartitionError, match=r"stablehlo.sort.*pinned to different devices"):
        _partitioned(RESULTS_ON_TWO_DEVICES)


def test_sharding_constraint_to_a_maximal_sharding_is_valid():
    text = """
    sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
    func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
      %0 = sdy.sharding_constraint %arg0 <@maximal_mesh_1, []> : tensor<8xf32>
      return %0 : tensor<8xf32>
    }
    """
    propagation_pipeline(parse_module(text))
    with pytest.raises(IRError, match="sharding doesn't match tensor rank: 0 != 1"):
        verify(parse_module(text.replace("<[], device_ids=[1]>", '<["x"=2]>')))


# -- random programs with pinned values --------------------------------------------------------


def _accepted(seed: int):
    text = pinned_program(seed)
    if text is None:
        return None
    module = parse_module(text)
    try:
        propagation_pipeline(module)
    except ShardonnayError:
        return None
    return module


def test_random_programs_with_pinned_values_compute_the_unpartitioned_results():
    checked = 0
    for seed in range(40):
        module = _accepted(seed)
        if module is None:
            continue
        assert check(module, seed=seed).ok, seed
        checked += 1
    assert checked >= 20
