"""The per-device program `partition` makes: calls inlined before the reshards,
a gather along several dims as one all-gather per dim, and the same numbers."""

from __future__ import annotations

import numpy as np

from shardonnay import parse_module
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.per_device import per_device_program
from shardonnay.partitioner.program import partition
from shardonnay.runtime.check import check
from shardonnay.runtime.simulator import simulate

GATHER_2D = """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""

# A helper whose signature shards its result along "y" where the caller
# wants it along "x": called twice, on values sharded alike.
CALLS = """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = call @scaled(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = call @scaled(%arg1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
func.func private @scaled(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""


def test_a_gather_along_two_dims_is_one_all_gather_per_dim_in_fewer_steps() -> None:
    module = parse_module(GATHER_2D)
    ours = collective_costs(per_device_program(module))
    shardys = collective_costs(convert_global_to_local(module))
    assert [c.op_name for c in ours.collectives] == ["stablehlo.all_gather"] * 2
    assert ours.bytes_received == shardys.bytes_received == 7 * 8 * 4  # 7 of 8 shards of 8 floats
    assert sum(c.steps for c in ours.collectives) == 1 + 3 < shardys.collectives[0].steps == 7
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    (got,) = simulate(per_device_program(module), x)
    np.testing.assert_array_equal(got, x)


def test_calls_are_inlined_and_compute_the_same_numbers() -> None:
    local = partition(parse_module(CALLS))
    assert [f.name for f in local.functions] == ["main"]
    assert not any(op.name == "func.call" for op in local.walk())
    assert check(parse_module(CALLS)).ok


def test_calls_that_would_inline_to_too_many_ops_stay_calls(monkeypatch) -> None:
    from shardonnay.partitioner import program

    monkeypatch.setattr(program, "_inline_budget", lambda op_count: 0)
    local = partition(parse_module(CALLS))
    assert "scaled" in [f.name for f in local.functions]
    assert any(op.name == "func.call" for op in local.walk())
    assert check(parse_module(CALLS)).ok
