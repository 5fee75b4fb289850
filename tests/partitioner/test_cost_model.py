"""The communication cost model: bytes of collectives, alpha-beta time, peak memory.

Bytes are checked three ways: against the data movement the layout implies
(`shardonnay.layout.device_slices`: a device lacks its target region minus
what it holds), against small cases worked out by hand, and, with the `jax`
extra, against the real thing: Shardy's partitioner (global and per-device
programs cost the same) and XLA's per-device HLO (group sizes consistent
with the shapes XLA gives the collectives, groups equal to the mesh's).
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import sys
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import numpy as np
import pytest

from shardonnay.errors import ParseError
from shardonnay.interop.hlo_collectives import (
    hlo_collective_costs,
    parse_hlo_collectives,
    replica_groups,
)
from shardonnay.ir.shardings import sharding_of
from shardonnay.layout import device_slices
from shardonnay.mesh import Mesh
from shardonnay.partitioner.analysis.cost import (
    SDY_COLLECTIVES,
    CostModel,
    collective_costs,
)
from shardonnay.partitioner.analysis.memory import peak_memory
from shardonnay.sharding import TensorSharding
from shardonnay.syntax.mlir_reader import parse_module

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


def one_collective(mesh: str, type_: str, source: str, collective: str):
    """A module whose @main applies `collective` (on `%arg0`) to an argument laid out `source`."""
    return parse_module(f"""
sdy.mesh @mesh = {mesh}
func.func @main(%arg0: {type_} {{sdy.sharding = #sdy.sharding<@mesh, {source}>}}) -> {type_} {{
  %0 = {collective} : {type_}
  return %0 : {type_}
}}""")


def lacking(shape, source: TensorSharding, target: TensorSharding, mesh: Mesh, eb: int):
    """Per device: bytes of its target region outside the region it holds."""
    held = device_slices(shape, source, mesh)
    out = []
    for d, region in sorted(device_slices(shape, target, mesh).items()):
        volume = math.prod(s.stop - s.start for s in region)
        kept = math.prod(
            max(0, min(a.stop, b.stop) - max(a.start, b.start))
            for a, b in zip(region, held[d], strict=True)
        )
        out.append((volume - kept) * eb)
    return out


# (mesh, type, source sharding, collective) of collectives that move data.
MOVES = {
    "all_gather": ('<["x"=4]>', "tensor<8x8xf32>", '[{"x"}, {}]',
                   'sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>'),
    "all_gather_one_of_two_dims": (
        '<["x"=2, "y"=4]>', "tensor<8x16xf32>", '[{"x"}, {"y"}]',
        'sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]>'),
    "all_gather_two_axes": (
        '<["x"=2, "y"=4]>', "tensor<8x16xf32>", '[{"x", "y"}, {}]',
        'sdy.all_gather [{"x", "y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>'),
    "all_gather_sub_axis": (
        '<["x"=2, "y"=4]>', "tensor<8x8xbf16>", '[{"y":(1)2}, {"x"}]',
        'sdy.all_gather [{"y":(1)2}, {}] %arg0 out_sharding=<@mesh, [{}, {"x"}]>'),
    "all_to_all": ('<["x"=2, "y"=4]>', "tensor<8x16xf32>", '[{"y"}, {}]',
                   'sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"y"}]>'),
    "all_to_all_keeping_an_axis": (
        '<["x"=2, "y"=4]>', "tensor<16x16xi32>", '[{"x", "y"}, {}]',
        'sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]>'),
    "collective_permute": (
        '<["x"=2, "y"=2]>', "tensor<8x8xf32>", '[{"x"}, {"y"}]',
        'sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>'),
    "all_slice": ('<["x"=2, "y"=4]>', "tensor<8x16xf32>", "[{}, {}]",
                  'sdy.all_slice [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]>'),
    "uneven_all_gather": ('<["x"=4]>', "tensor<6x8xf32>", '[{"x"}, {}]',
                          'sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>'),
    "uneven_all_slice": (
        '<["data"=2, "model"=4]>', "tensor<10x18xf32>", '[{"data"}, {"model":(1)2}]',
        'sdy.all_slice [{}, {"model":(2)2}] %arg0 out_sharding=<@mesh, [{"data"}, {"model"}]>'),
    "uneven_all_to_all": (
        '<["x"=4, "y"=2]>', "tensor<6x5xf32>", '[{"y", "x":(2)2}, {"x":(1)2}]',
        'sdy.all_to_all [{"x":(2)2}: 0->1] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>'),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(MOVES))
def test_data_moving_collectives_receive_what_the_layout_lacks(name):
    mesh_text, type_, source_text, collective = MOVES[name]
    module = one_collective(mesh_text, type_, source_text, collective)
    (cost,) = collective_costs(module).collectives
    op = module.function("main").body.ops[0]
    mesh = module.meshes["mesh"]
    source = TensorSharding.parse(f"<@mesh, {source_text}>")
    target = op.attributes["out_sharding"]
    t = op.result_types[0]
    eb = t.dtype.itemsize
    need = lacking(t.shape, source, target, mesh, eb)
    assert list(cost.needed) == need
    assert all(r >= n for r, n in zip(cost.received, need, strict=True))
    if source.is_divisible(mesh, t.shape) and target.is_divisible(mesh, t.shape):
        assert list(cost.received) == need  # even: padding-free, nothing moves twice
    assert sum(cost.sent) == sum(cost.received)


def test_uneven_all_gather_moves_padded_shards():
    module = one_collective(*MOVES["uneven_all_gather"])
    (cost,) = collective_costs(module).collectives
    # Shards of ceil(6/4) = 2 rows of 8 f32 (64 B); the last one is all padding.
    assert cost.buffer_bytes == 64
    assert cost.received == (192, 192, 192, 192)
    assert cost.needed == (128, 128, 128, 192)


def test_uneven_all_to_all_whose_pieces_do_not_line_up_fetches_what_is_lacking():
    module = one_collective(*MOVES["uneven_all_to_all"])
    (cost,) = collective_costs(module).collectives
    assert cost.received == cost.needed
    assert cost.algorithm.startswith("direct")


def test_uneven_all_slice_that_needs_data_fetches_it():
    module = one_collective(*MOVES["uneven_all_slice"])
    (cost,) = collective_costs(module).collectives
    # 18 columns: the halves [0:9], [9:18] vs the quarters [0:5], [5:10], [10:15], [15:18];
    # the devices with model=1 lack column 9 of their 5 rows.
    assert cost.received == cost.needed == (0, 20, 0, 0, 0, 20, 0, 0)
    assert cost.algorithm.startswith("direct")


def test_hand_computed_bytes_and_steps():
    mesh = '<["x"=2, "y"=4]>'
    cases = [  # collective on tensor<8x8xf32> sharded [{"x"}, {}]: 4x8 f32 = 128 B each
        # ring all-reduce over y: 2 * 3 steps of ceil(32/4) = 8 elements
        ('sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"x"}, {}]>', 4, 192, 6),
        # ring reduce-scatter over y: 3 steps of the 4x2 result (32 B)
        ('sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]>', 4, 96, 3),
        # ring all-gather over x: 1 step of the 128 B shard
        ('sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>', 2, 128, 1),
        # all-to-all over x: the other of the 2 pieces of 4x4 elements leaves
        ('sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]>', 2, 64, 1),
        ('sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]>', 4, 0, 0),
    ]
    for collective, n, per_device, steps in cases:
        module = one_collective(mesh, "tensor<8x8xf32>", '[{"x"}, {}]', collective)
        (cost,) = collective_costs(module).collectives
        assert cost.buffer_bytes == 128, collective
        assert (cost.group_size, cost.steps) == (n, steps), collective
        assert cost.received == (per_device,) * 8, collective
        assert cost.sent == (per_device,) * 8, collective


def test_collective_permute_counts_only_the_devices_whose_data_moves():
    module = one_collective(*MOVES["collective_permute"])
    (cost,) = collective_costs(module).collectives
    # [{"x"}, {"y"}] -> [{"y"}, {"x"}]: devices (0, 1) and (1, 0) swap their 4x4 blocks.
    assert cost.received == (0, 64, 64, 0)
    assert cost.sent == (0, 64, 64, 0)
    assert (cost.group_size, cost.steps, cost.axes) == (2, 1, ("x", "y"))


def test_alpha_beta_time_uses_the_slowest_axis_of_the_group():
    model = CostModel(
        axis_bandwidth={"x": 1e9, "y": 4e9}, axis_latency={"x": 1e-6, "y": 3e-6},
        default_bandwidth=1e12, default_latency=0.0,
    )  # fmt: skip
    module = one_collective(*MOVES["all_gather_two_axes"])
    (cost,) = collective_costs(module, model).collectives
    # 7 ring steps of the 1x16 f32 shard: 7 * 64 B, at x's bandwidth and y's latency
    assert cost.bytes_received == 448
    assert cost.time_s == pytest.approx(7 * 3e-6 + 448 / 1e9)
    module = one_collective(
        '<["z"=4]>',
        "tensor<8x8xf32>",
        '[{"z"}, {}]',
        'sdy.all_gather [{"z"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>',
    )
    (cost,) = collective_costs(module, model).collectives
    assert cost.time_s == pytest.approx(192 / 1e12)  # z is not in the model: the defaults


def test_input_sharding_comes_from_the_operand():
    module = parse_module("""
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  %1 = sdy.all_slice [{"y"}, {}] %0 out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<8x16xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<8x16xf32>
  %3 = sdy.all_to_all [{"y"}: 0->1] %2 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x16xf32>
  %4 = sdy.reshard %arg1 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
  %5 = sdy.all_gather [{}, {"y"}] %4 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
  %6 = sdy.all_slice [{"x"}, {}] %arg1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  return %3, %5, %6 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}""")  # noqa: E501
    report = collective_costs(module)
    # f32 buffers: arg 4x4; previous out_sharding 4x16; op sharding 1x16; the unsharded
    # argument (replicated) 8x16 before the reshard; the reshard's 8x4; unsharded 8x16.
    assert [c.op_name for c in report.collectives] == [
        "sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.reshard", "sdy.all_gather",
        "sdy.all_slice",
    ]  # fmt: skip
    assert [c.buffer_bytes for c in report.collectives] == [64, 256, 64, 512, 128, 512]
    reshard = report.collectives[3]
    assert reshard.received == (0,) * 8  # replicated -> sharded: every device has its part


def test_unlowered_reshard_fetches_what_each_device_lacks():
    module = one_collective('<["x"=2]>', "tensor<4x4xf32>", '[{"x"}, {}]',
                            'sdy.reshard %arg0 <@mesh, [{}, {"x"}]>')  # fmt: skip
    (cost,) = collective_costs(module).collectives
    # Device 0 holds rows 0:2, wants columns 0:2: it lacks rows 2:4 of them (4 f32).
    assert cost.received == cost.sent == cost.needed == (16, 16)


def test_report_totals_and_table():
    module = parse_module("""
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
  %1 = sdy.all_gather [{"y"}, {"x"}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}""")
    report = collective_costs(module)
    assert report.received_per_device == (192, 256, 256, 192)  # + 3 shards of 64 B each
    assert (report.bytes_received, report.total_bytes) == (256, 896)
    assert report.time_s == pytest.approx(sum(c.time_s for c in report.collectives))
    table = report.table()
    assert "sdy.collective_permute" in table and "sdy.all_gather" in table
    assert "receives 256 B" in table and "all devices receive 896 B" in table


TWO_MESHES = """
sdy.mesh @big = <["x"=4, "y"=3]>
sdy.mesh @small = <["w"=2]>
func.func @main(%arg0: tensor<12x6xf32> {sdy.sharding = #sdy.sharding<@big, [{"x"}, {"y"}]>},
                %arg1: tensor<7xf32> {sdy.sharding = #sdy.sharding<@small, [{"w"}]>})
    -> (tensor<12x6xf32>, tensor<7xf32>) {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@big, [{}, {"y"}]> : tensor<12x6xf32>
  %1 = sdy.all_gather [{"w"}] %arg1 out_sharding=<@small, [{}]> : tensor<7xf32>
  return %0, %1 : tensor<12x6xf32>, tensor<7xf32>
}"""


def test_collectives_on_meshes_of_different_sizes_cost_per_device_of_their_own_mesh():
    module = parse_module(TWO_MESHES)
    report = collective_costs(module)
    big, small = report.collectives
    assert report.num_devices == 12
    for cost, mesh_name in ((big, "big"), (small, "small")):
        op = cost.op
        mesh = module.meshes[mesh_name]
        t = op.result_types[0]
        source = sharding_of(op.operands[0])
        need = lacking(t.shape, source, op.attributes["out_sharding"], mesh, 4)
        assert list(cost.needed) == need and len(cost.received) == mesh.size
        assert all(r >= n for r, n in zip(cost.received, need, strict=True))
    # 7 elements on 2 devices: padded shards of 4, one to the other (ring of 2).
    assert small.received == small.sent == (16, 16) and small.group_size == 2
    # Each device gathers the 3 other rows of 3x2 f32 blocks.
    assert big.received == (72,) * 12 and big.group_size == 4
    assert report.received_per_device == (88, 88) + (72,) * 10
    assert report.total_bytes == sum(big.received) + sum(small.received)
    assert "on 12 devices" in report.table()


@pytest.mark.parametrize("source_mesh, target_mesh", [("small", "big"), ("big", "small")])
def test_unlowered_reshard_between_meshes_fetches_what_each_device_lacks(source_mesh, target_mesh):
    axis = {"big": "x", "small": "w"}
    module = parse_module(f"""
sdy.mesh @big = <["x"=4]>
sdy.mesh @small = <["w"=2]>
func.func @main(%arg0: tensor<8xf32> {{sdy.sharding = #sdy.sharding<@{source_mesh}, [{{"{axis[source_mesh]}"}}]>}})
    -> tensor<8xf32> {{
  %0 = sdy.reshard %arg0 <@{target_mesh}, [{{"{axis[target_mesh]}"}}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}}""")  # noqa: E501
    (cost,) = collective_costs(module).collectives
    op = cost.op
    held = device_slices((8,), sharding_of(op.operands[0]), module.meshes[source_mesh])
    wanted = device_slices((8,), op.attributes["sharding"], module.meshes[target_mesh])
    need = [0] * 4  # a device outside the source mesh holds nothing
    for d, (region,) in wanted.items():
        kept = (
            max(0, min(region.stop, held[d][0].stop) - max(region.start, held[d][0].start))
            if d in held
            else 0
        )
        need[d] = (region.stop - region.start - kept) * 4
    assert list(cost.needed) == list(cost.received) == need and any(need)
    assert sum(cost.sent) == sum(cost.received)
    # Each receiver fetches from the device holding its piece: a source-mesh device.
    assert all(s == 0 for d, s in enumerate(cost.sent) if d >= module.meshes[source_mesh].size)


LOCAL = """
module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%arg0: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<1x16xf32>, tensor<4x1xf32>) {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<4x16xf32>
    %1 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 0], [1, 2], [2, 1], [3, 3]]> : tensor<4x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x4xf32>) -> tensor<1x16xf32>
    %4 = "stablehlo.reduce_scatter"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x1xf32>
    return %0, %1, %2, %3, %4 : tensor<4x16xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<1x16xf32>, tensor<4x1xf32>
  }
}"""  # noqa: E501


def test_local_program_collectives_by_hand():
    report = collective_costs(parse_module(LOCAL))
    got = {c.kind: c for c in report.collectives}
    # 4x4 f32 buffers (64 B) on every device.
    assert got["all_gather"].received == (192,) * 8  # 3 shards
    assert got["all_gather"].axes == ("y",)
    assert got["all_reduce"].received == (64,) * 8  # 2 * 1 step of 8 elements
    assert got["all_reduce"].axes == ("x",)
    # Pairs with equal source and target move nothing; devices 4..7 are in no pair.
    assert got["collective_permute"].received == (0, 64, 64, 0, 0, 0, 0, 0)
    assert got["all_to_all"].received == (48,) * 8  # 3 of 4 pieces of 16 B
    assert got["reduce_scatter"].received == (48,) * 8  # 3 steps of the 16 B result
    assert report.num_devices == 8


def test_peak_memory_by_hand():
    def peak(body: str, args: str = "%arg0: tensor<4xf32>") -> int:
        return peak_memory(parse_module(f"func.func @main({args}) -> tensor<4xf32> {{{body}}}"))

    # The argument (16 B) is live throughout; an unused result dies at once.
    unused = """
      %0 = stablehlo.negate %arg0 : tensor<4xf32>
      %1 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
      return %1 : tensor<4xf32>"""
    assert peak(unused) == 32
    # %0 stays live until %2, which is written over it (an elementwise op over an
    # operand of its size read for the last time): two buffers at %1.
    chain = """
      %0 = stablehlo.negate %arg0 : tensor<4xf32>
      %1 = stablehlo.abs %0 : tensor<4xf32>
      %2 = stablehlo.add %0, %1 : tensor<4xf32>
      return %2 : tensor<4xf32>"""
    assert peak(chain) == 16 + 32
    # A reduce: its init (4 B) and result (16 B) plus its region: 2 scalar arguments
    # and the add (12 B), over the 4x8 argument (128 B).
    reduce = """
      %cst = stablehlo.constant dense<0.0> : tensor<f32>
      %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1]
          : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>"""
    assert peak(reduce, "%arg0: tensor<4x8xf32>") == 128 + 4 + 16 + 12


def test_peak_memory_counts_a_callee_conservatively() -> None:
    module = parse_module("""
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @f(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  %1 = stablehlo.abs %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}""")
    # main's argument and the call's result, plus the callee's one buffer (%1 is written
    # over %0; its argument is main's, live across the call).
    assert peak_memory(module) == 16 + 16 + 16


# -- XLA's HLO text ---------------------------------------------------------------------------


def test_replica_group_spellings_agree():
    mesh_form = "replica_groups=mesh['a'=2,'b'=4], device_ids=([4,2]T(1,0)) {'a'}"
    iota = np.arange(8).reshape(4, 2).T.reshape(-1)  # device at mesh position (a, b)
    expected = {tuple(int(iota[a * 4 + b]) for a in range(2)) for b in range(4)}
    assert set(replica_groups(mesh_form, 8)[0]) == expected
    explicit = "replica_groups={" + ",".join(f"{{{a},{b}}}" for a, b in sorted(expected)) + "}"
    assert set(replica_groups(explicit, 8)[0]) == expected
    assert replica_groups("replica_groups=[2,4]<=[8]", 8)[0] == ((0, 1, 2, 3), (4, 5, 6, 7))
    assert replica_groups("replica_groups={}", 4)[0] == ((0, 1, 2, 3),)
    sub = replica_groups("replica_groups=mesh['a'=4,'b'=2] {'a':(2)2}", 8)
    assert sub == (((0, 2), (1, 3), (4, 6), (5, 7)), ("a:(2)2",))
    with pytest.raises(ParseError, match="cannot read its replica_groups"):
        replica_groups(", channel_id=1, replica_groups=<unknown>", 8)


@pytest.fixture(scope="module")
def jax():
    jax = pytest.importorskip("jax")
    if len(jax.devices("cpu")) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS was set after jax was imported)")
    return jax


def _check_shapes_match_groups(hlo: str) -> int:
    """Every collective's groups split the devices evenly, and its shapes grow or
    shrink by its group size as its kind says. Returns how many were checked."""
    collectives = parse_hlo_collectives(hlo)
    for c in collectives:
        if c.kind == "collective_permute":
            assert all(0 <= d < 8 for p in c.pairs for d in p), c
            continue
        members = sorted(d for g in c.groups for d in g)
        n = len(c.groups[0])
        assert members == list(range(8)) and all(len(g) == n for g in c.groups), c
        if c.kind == "all_gather":
            assert c.result_bytes == n * c.operand_bytes, c
        elif c.kind == "reduce_scatter":
            assert c.operand_bytes == n * c.result_bytes, c
        else:
            assert c.result_bytes == c.operand_bytes, c
    return len(collectives)


def test_hlo_of_shard_map_collectives(jax):
    from jax import lax
    from jax.sharding import PartitionSpec as P

    mesh = jax.sharding.Mesh(np.array(jax.devices("cpu")[:8]).reshape(2, 4), ("x", "y"))

    def body(a):
        return (
            lax.all_gather(a, "y", axis=1, tiled=True),
            lax.psum(a, "x"),
            lax.psum_scatter(a, "y", scatter_dimension=1, tiled=True),
            lax.all_to_all(a, "y", 0, 1, tiled=True),
            lax.ppermute(a, "x", [(0, 1), (1, 0)]),
        )

    f = jax.shard_map(body, mesh=mesh, in_specs=P("x", "y"),
                      out_specs=(P("x"), P("x", "y"), P("x", "y"), P("x", "y"), P("x", "y")),
                      check_vma=False)  # fmt: skip
    arg = jax.ShapeDtypeStruct((8, 16), np.float32)  # 4x4 f32 (64 B) on each device
    hlo = jax.jit(f).lower(arg).compile().as_text()
    assert _check_shapes_match_groups(hlo) == 5
    report = hlo_collective_costs(hlo, mesh=Mesh({"x": 2, "y": 4}))
    got = {c.kind: c for c in report.collectives}
    rows, columns = {(0, 1, 2, 3), (4, 5, 6, 7)}, {(0, 4), (1, 5), (2, 6), (3, 7)}
    by_kind = {c.kind: c for c in parse_hlo_collectives(hlo)}
    assert {tuple(sorted(g)) for g in by_kind["all_gather"].groups} == rows
    assert {tuple(sorted(g)) for g in by_kind["all_reduce"].groups} == columns
    assert set(by_kind["collective_permute"].pairs) == {(i, i + 4) for i in range(4)} | {
        (i + 4, i) for i in range(4)
    }
    assert got["all_gather"].received == (192,) * 8 and got["all_gather"].axes == ("y",)
    assert got["all_reduce"].received == (64,) * 8 and got["all_reduce"].axes == ("x",)
    assert got["reduce_scatter"].received == (48,) * 8
    assert got["all_to_all"].received == (48,) * 8
    assert got["collective_permute"].received == (64,) * 8


def test_hlo_of_corpus_programs_parses_consistently(jax):
    path = ROOT.parent / "benchmarks" / "partition.py"
    spec = importlib.util.spec_from_file_location("partition_benchmark", path)
    benchmark = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = benchmark  # its dataclasses look their module up
    spec.loader.exec_module(benchmark)
    xla_hlo = benchmark.xla_hlo
    checked = 0
    spellings = {"mesh[": 0, "device_ids=(": 0, "<=[": 0, "replica_groups={{": 0,
                 "source_target_pairs": 0}  # fmt: skip
    for name in ("uneven_shapes", "sharding_constraints", "mlp_train_step", "conv_net"):
        hlo = xla_hlo((CORPUS / f"{name}.mlir").read_text())
        checked += _check_shapes_match_groups(hlo)
        for spelling in spellings:
            spellings[spelling] += hlo.count(spelling)
        assert hlo_collective_costs(hlo).bytes_received > 0
    assert checked >= 15
    assert all(spellings.values()), spellings  # every spelling of the groups was read


# -- Shardy's partitioner ---------------------------------------------------------------------

PARTITION = (
    "builtin.module(sdy-propagation-pipeline, "
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}), "
    "func.func(sdy-reshard-to-collectives))"
)


@pytest.fixture(scope="module")
def oracle():
    pytest.importorskip("jax")
    from shardonnay.testing import mlir_oracle

    return mlir_oracle


def test_shardy_collectives_on_the_corpus_move_what_the_layout_lacks(oracle):
    kinds = set()
    for path in sorted(CORPUS.glob("*.mlir")):
        text = oracle.run_pass_pipeline(path.read_text(), PARTITION)
        module = parse_module(text)
        report = collective_costs(module)
        names = "|".join(n.removeprefix("sdy.") for n in SDY_COLLECTIVES)
        written = len(re.findall(rf"= sdy\.(?:{names}) ", text))
        assert sum(c.op_name.startswith("sdy.") for c in report.collectives) == written
        for c in report.collectives:
            if c.needed is None:
                continue
            op = c.op
            mesh = module.meshes[op.attributes["out_sharding"].mesh]
            t = op.result_types[0]
            source = sharding_of(op.operands[0]) or TensorSharding.replicated_on("mesh", t.rank)
            need = lacking(t.shape, source, op.attributes["out_sharding"], mesh, t.dtype.itemsize)
            assert list(c.needed) == need, (path.stem, c.where)
            assert all(r >= n for r, n in zip(c.received, need, strict=True)), (path.stem, c)
            kinds.add(c.kind)
    assert kinds >= {"all_gather", "all_to_all", "collective_permute", "all_slice"}


def test_global_and_local_programs_cost_the_same(oracle):
    text = (CORPUS / "sharding_constraints.mlir").read_text()
    global_ = collective_costs(parse_module(oracle.run_pass_pipeline(text, PARTITION)))
    local_pipeline = PARTITION.removesuffix(")") + ", sdy-convert-global-to-local)"
    local = collective_costs(parse_module(oracle.run_pass_pipeline(text, local_pipeline)))
    assert all(c.op_name.startswith("stablehlo.") for c in local.collectives)
    summary = [(c.kind, c.group_size, c.bytes_received, sum(c.received), c.steps)
               for c in global_.communicating]  # fmt: skip
    assert summary == [(c.kind, c.group_size, c.bytes_received, sum(c.received), c.steps)
                       for c in local.communicating]  # fmt: skip
    assert sorted(global_.received_per_device) == sorted(local.received_per_device)
    assert global_.total_bytes == local.total_bytes > 0


def test_a_move_to_a_maximal_mesh_costs_the_device_it_pins_the_value_to():
    from shardonnay.partitioner.reshard.layout_moves import Relayout

    mesh = Mesh({"x": 4})
    pinned = Mesh({}, device_ids=(3,))
    source = TensorSharding.from_axes(mesh, ["x", None])
    target = TensorSharding(pinned, ())
    move = Relayout((8, 2), source, target, 4)
    # device 3 holds rows 6..7 and lacks the other 6 rows of 2 f32
    assert move.needed() == [0, 0, 0, 6 * 2 * 4]


def test_peak_memory_counts_a_reshape_as_a_view_and_a_loop_state_once() -> None:
    def peak(body: str) -> int:
        text = f"func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {{{body}}}"
        return peak_memory(parse_module(text))

    # The reshapes allocate nothing: %0's buffer lives until %4, the last use of a view of
    # it, which is written over it: two buffers at %2 (without views, three at %3).
    views = """
      %0 = stablehlo.negate %arg0 : tensor<4xf32>
      %1 = stablehlo.reshape %0 : (tensor<4xf32>) -> tensor<2x2xf32>
      %2 = stablehlo.abs %arg0 : tensor<4xf32>
      %3 = stablehlo.reshape %1 : (tensor<2x2xf32>) -> tensor<4xf32>
      %4 = stablehlo.add %3, %2 : tensor<4xf32>
      return %4 : tensor<4xf32>"""
    assert peak(views) == 16 + 32
    # The loop state (16 B) is the while's result buffer, its body's arguments alias it:
    # at the while, the argument, the result and the body's add.
    loop = """
      %0 = stablehlo.while(%x = %arg0) : tensor<4xf32>
       cond {
        %c = stablehlo.constant dense<true> : tensor<i1>
        stablehlo.return %c : tensor<i1>
      } do {
        %y = stablehlo.add %x, %x : tensor<4xf32>
        stablehlo.return %y : tensor<4xf32>
      }
      return %0 : tensor<4xf32>"""
    assert peak(loop) == 16 + 16 + 1 + 16
