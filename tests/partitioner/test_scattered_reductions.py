"""All-reduces whose results each device only slices become reduce-scatters
where the cost model finds the combined program faster
(`shardonnay.partitioner.scattered_reductions`)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np

from shardonnay import parse_module
from shardonnay.ir.verifier import verify
from shardonnay.mesh import Mesh
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.gathered_exchanges import exchange_of, to_all_gather
from shardonnay.partitioner.local.combined_collectives import combine_collectives
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.program import explicit_collectives
from shardonnay.partitioner.scattered_reductions import improve_collectives, scatter_of
from shardonnay.runtime.devices import ManualDevices
from shardonnay.runtime.interpreter import run_devices

MODELS = Path(__file__).parent.parent / "models"


def _local(module):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return convert_global_to_local(explicit_collectives(module))


def run_local(module, inputs: list) -> list:
    """What each device of per-device program `module` returns, device `d` given `inputs[d]`."""
    devices = ManualDevices(Mesh({"devices": len(inputs)}), {}, ("devices",))
    region = module.function("main").op.regions[0]
    return [list(r) for r in run_devices(module, devices, region, [[x] for x in inputs])]


def _program(offsets: str) -> str:
    return f"""
    module attributes {{mhlo.num_partitions = 4 : i32}} {{
    func.func @main(%a: tensor<8x3xf32>) -> tensor<2x3xf32> {{
      %0 = "stablehlo.all_reduce"(%a) <{{
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
          replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}}> ({{
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = stablehlo.add %x, %y : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }}) : (tensor<8x3xf32>) -> tensor<8x3xf32>
      %p = stablehlo.partition_id : tensor<ui32>
      %i = stablehlo.convert %p : (tensor<ui32>) -> tensor<i64>
      %t = stablehlo.constant dense<{offsets}> : tensor<4xi64>
      %e = stablehlo.dynamic_slice %t, %i, sizes = [1]
          : (tensor<4xi64>, tensor<i64>) -> tensor<1xi64>
      %o = stablehlo.reshape %e : (tensor<1xi64>) -> tensor<i64>
      %z = stablehlo.constant dense<0> : tensor<i64>
      %1 = stablehlo.dynamic_slice %0, %o, %z, sizes = [4, 3]
          : (tensor<8x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x3xf32>
      %2 = stablehlo.slice %1 [0:2, 0:3] : (tensor<4x3xf32>) -> tensor<2x3xf32>
      return %2 : tensor<2x3xf32>
    }}
    }}"""


def test_each_device_keeping_its_groups_shard_is_a_reduce_scatter() -> None:
    module = parse_module(_program("[0, 4, 0, 4]"))  # groups [0, 1] and [2, 3]
    (op,) = [op for op in module.function("main").body.ops if op.name == "stablehlo.all_reduce"]
    scatter = scatter_of(op)
    assert scatter is not None and scatter.dim == 0 and str(scatter.shard) == "tensor<4x3xf32>"
    assert improve_collectives(module) == 1
    verify(module)
    names = [op.name.removeprefix("stablehlo.") for op in module.function("main").body.ops]
    assert names == ["reduce_scatter", "slice", "func.return"]  # the offset tables are gone


def test_other_slices_stay_an_all_reduce() -> None:
    for offsets in ("[4, 0, 4, 0]", "[0, 4, 4, 0]", "[0, 2, 0, 2]"):
        module = parse_module(_program(offsets))
        (op,) = [op for op in module.function("main").body.ops if op.name == "stablehlo.all_reduce"]
        assert scatter_of(op) is None, offsets
        assert improve_collectives(module) == 0


def test_the_cost_model_keeps_an_all_reduce_that_combines_with_others() -> None:
    # nnx's FSDP step: the forward partial sum becomes a reduce-scatter (3 steps instead
    # of 6); the weight gradient's stays in the gradients' combined all-reduce, which
    # costs no steps more, where a reduce-scatter of its own would add 3. The input's
    # all-to-all becomes an all-gather that joins the weight's: more bytes, 3 steps fewer.
    module = parse_module((MODELS / "nnx_mlp_fsdp_tp_train.mlir").read_text())
    combined = _local(module)
    combine_collectives(combined)
    improved = _local(module)
    assert improve_collectives(improved) == 2
    verify(improved)
    before, after = collective_costs(combined), collective_costs(improved)
    kinds = [c.kind for c in after.communicating]
    assert kinds == ["all_gather", "reduce_scatter", "all_reduce", "all_reduce", "all_gather"]
    assert after.communicating[0].buffer_bytes == 2 * 512  # the input's and the weight's shards
    assert after.time_s < before.time_s
    xla = json.loads((MODELS / "nnx_mlp_fsdp_tp_train.json").read_text())["xla"]
    assert after.time_s <= xla["time_s"] and after.bytes_received < xla["bytes_received"]


def test_an_all_to_all_is_an_all_gather_and_a_slice() -> None:
    # Device k of each group keeps part k along dim 1 of every device's rows: the same
    # as gathering the rows and slicing part k.
    text = """
    module attributes {mhlo.num_partitions = 4 : i32} {
    func.func @main(%a: tensor<2x4xf32>) -> tensor<4x2xf32> {
      %0 = "stablehlo.all_to_all"(%a) <{
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
          concat_dimension = 0 : i64, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>,
          split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
      return %0 : tensor<4x2xf32>
    }
    }"""
    inputs = [np.arange(8, dtype=np.float32).reshape(2, 4) + 10 * d for d in range(4)]
    want = run_local(parse_module(text), inputs)
    module = parse_module(text)
    (op,) = [op for op in module.function("main").body.ops if op.name == "stablehlo.all_to_all"]
    exchange = exchange_of(op)
    assert exchange is not None and (exchange.split, exchange.concat) == (1, 0)
    assert exchange_of(op, single_replica=False) is None  # partition ids are not device ids
    to_all_gather(op, exchange)
    verify(module)
    got = run_local(module, inputs)
    for w, g in zip(want, got, strict=True):
        np.testing.assert_array_equal(w[0], g[0])
    assert want[0][0].shape == (4, 2) and want[0][0][2, 0] == 20  # device 0: 2's row 0, part 0
