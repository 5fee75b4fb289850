"""Independent all-reduces, all-gathers and reduce-scatters of the per-device
program are combined into one each (as XLA's combiners do): the same bytes in fewer, larger steps,
the ops reading an earlier result moved after the combined one, the numbers
unchanged (`check`, which partitions the same way, passes on the models in
tests/end_to_end/test_models_corpus.py; tests/runtime/test_pjrt.py runs partitioned programs on
XLA)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shardonnay import parse_module
from shardonnay.ir.verifier import verify
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.local.combined_collectives import (
    _function_blocks,
    combine_collectives,
)
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.program import explicit_collectives, partition
from shardonnay.runtime.check import check
from shardonnay.runtime.simulator import simulate

MODELS = Path(__file__).parent.parent / "models"


def _model(name: str):
    return parse_module((MODELS / f"{name}.mlir").read_text())


def _uncombined(module):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return convert_global_to_local(explicit_collectives(module))


def test_data_parallel_gradients_are_all_reduced_at_once_as_xla_does() -> None:
    module = _model("linen_mlp_dp_train")
    separate = collective_costs(_uncombined(module))
    local = partition(module)
    verify(local)
    combined = collective_costs(local)
    assert len(separate.communicating) == 7  # one per gradient leaf
    assert len(combined.communicating) == 1
    # One buffer of the 5,898 gradient floats and the loss, whose ring chunks round up once,
    # not once per gradient: a little less than the 7 separate ones (and XLA's tuple).
    (one,) = combined.communicating
    assert one.buffer_bytes == 5_899 * 4
    assert combined.bytes_received == 2 * 7 * 738 * 4 < separate.bytes_received  # ceil(5899 / 8)
    xla = json.loads((MODELS / "linen_mlp_dp_train.json").read_text())["xla"]
    assert xla["collectives"] == 1 and xla["bytes_received"] == separate.bytes_received
    assert combined.time_s <= xla["time_s"]
    assert combined.time_s < separate.time_s / 6


ALL_REDUCE = """
  %{out} = "stablehlo.all_reduce"(%{x}) <{{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}}> ({{
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.{op} %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }}) : (tensor<4xf32>) -> tensor<4xf32>"""


def _program(*lines: str, returned: str = "%r0, %r1") -> str:
    body = "\n".join(lines)
    return (
        "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {"
        f"{body}\n  return {returned} : tensor<4xf32>, tensor<4xf32>\n}}"
    )


def test_an_all_reduce_of_an_earlier_ones_result_is_not_combined() -> None:
    text = _program(
        ALL_REDUCE.format(out="r0", x="a", op="add"),
        "\n  %n = stablehlo.negate %r0 : tensor<4xf32>",
        ALL_REDUCE.format(out="r1", x="n", op="add"),
    )
    module = parse_module(text)
    assert combine_collectives(module) == 0


def test_other_reductions_are_not_combined() -> None:
    text = _program(
        ALL_REDUCE.format(out="r0", x="a", op="add"),
        ALL_REDUCE.format(out="r1", x="b", op="maximum"),
    )
    assert combine_collectives(parse_module(text)) == 0


def test_readers_of_the_earlier_result_move_after_the_combined_one() -> None:
    text = _program(
        ALL_REDUCE.format(out="r0", x="a", op="add"),
        "\n  %n = stablehlo.negate %r0 : tensor<4xf32>",
        "\n  %m = stablehlo.abs %b : tensor<4xf32>",
        ALL_REDUCE.format(out="r1", x="m", op="add"),
        returned="%n, %r1",
    )
    module = parse_module(text)
    assert combine_collectives(module) == 1
    verify(module)
    body = module.function("main").body
    names = [op.name.removeprefix("stablehlo.") for op in body.ops]
    assert names == [
        "abs",
        *("reshape", "reshape", "concatenate", "all_reduce"),  # %a and %m in one buffer
        *("slice", "reshape", "slice", "reshape"),  # the two results
        "negate",  # moved after the all-reduce whose result it reads
        "func.return",
    ]
    concatenate = body.ops[3]
    assert [v.defining.operands[0] for v in concatenate.operands] == [
        body.arguments[0],
        body.ops[0].results[0],
    ]
    assert body.ops[9].operands == (body.ops[6].results[0],)


def test_readers_placed_again_merge_after_merge_stay_in_order() -> None:
    """Sums and maxima of one chain, each sum read (negated) and every other
    max read with an earlier sum's reader: each merge places the readers of
    the sums again after the latest sum (a run of the log placed as one entry
    while none of its ops has moved since, `_Run`); a merge of the maxima
    moves an op of that run (it reads both), and the sums' next merge lays
    their readers out anew."""
    lines = []
    previous = "b"
    for k in range(6):
        lines.append(f"\n  %h{k} = stablehlo.abs %{previous} : tensor<4xf32>")
        lines.append(ALL_REDUCE.format(out=f"g{k}", x=f"h{k}", op="add"))
        lines.append(f"\n  %r{k} = stablehlo.negate %g{k} : tensor<4xf32>")
        lines.append(ALL_REDUCE.format(out=f"m{k}", x=f"h{k}", op="maximum"))
        if k % 2:
            lines.append(f"\n  %x{k} = stablehlo.add %r{k - 1}, %m{k} : tensor<4xf32>")
        previous = f"h{k}"
    results = [f"%r{k}" for k in range(6)] + [f"%x{k}" for k in range(1, 6, 2)]
    types = ", ".join(["tensor<4xf32>"] * len(results))
    module = parse_module(
        f"func.func @main(%b: tensor<4xf32>) -> ({types}) {{{''.join(lines)}"
        f"\n  return {', '.join(results)} : {types}\n}}"
    )
    assert combine_collectives(module) == 10
    verify(module)
    names = [op.name.removeprefix("stablehlo.") for op in module.function("main").body.ops]
    one_buffer = ["reshape"] * 6 + ["concatenate", "all_reduce"] + ["slice", "reshape"] * 6
    assert names == [
        *["abs"] * 6,
        *one_buffer,  # the sums
        *["negate"] * 6,
        *one_buffer,  # the maxima
        *["add"] * 3,
        "func.return",
    ]


def test_the_blocks_combined_are_those_of_the_functions_in_their_order() -> None:
    corpus = Path(__file__).parent.parent / "corpus"
    for name in ("control_flow", "scan_rnn", "reductions_and_sort"):
        module = parse_module((corpus / f"{name}.mlir").read_text())
        found = _function_blocks(module)
        assert len(found) > 1
        assert [id(b) for b in found] == [id(b) for b in module.function_blocks()]


def test_the_fsdp_model_combines_and_computes_the_same() -> None:
    module = _model("nnx_mlp_fsdp_tp_train")
    local = _uncombined(module)
    before = collective_costs(local)
    combine_collectives(local)
    after = collective_costs(local)
    assert len(after.communicating) < len(before.communicating)
    assert after.bytes_received == before.bytes_received
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(module)


# Weight shards gathered whole (one along dim 0, one along dim 1) and two partial sums each
# device keeps one shard of (cut along dim 0 and dim 1): one all-gather and one
# reduce-scatter each move both, and every device computes what the program does.
GATHERS_AND_SCATTERS = """
sdy.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %w: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %v: tensor<16x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %g: tensor<3x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
        tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
        tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
        tensor<3x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0]
      : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0]
      : (tensor<8x16xf32>, tensor<16x12xf32>) -> tensor<8x12xf32>
  %2 = stablehlo.negate %w : tensor<16x8xf32>
  %3 = stablehlo.abs %g : tensor<3x8xf32>
  return %0, %1, %2, %3 : tensor<8x8xf32>, tensor<8x12xf32>, tensor<16x8xf32>, tensor<3x8xf32>
}"""


def test_all_gathers_and_reduce_scatters_combine_along_their_own_dims() -> None:
    module = parse_module(GATHERS_AND_SCATTERS)
    local = partition(module)
    verify(local)
    kinds = [c.kind for c in collective_costs(local).communicating]
    assert sorted(kinds) == ["all_gather", "reduce_scatter"]
    gather, scatter = (
        next(op for op in local.function("main").body.ops if op.name == f"stablehlo.{kind}")
        for kind in ("all_gather", "reduce_scatter")
    )
    assert str(gather.operands[0].type) == "tensor<38xf32>"  # 4x8 and 3x2 shards, flat
    assert str(scatter.results[0].type) == "tensor<40xf32>"  # 2x8 and 8x3 shards, flat
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = check(module)
    assert all(o.mismatches == 0 for o in result.outputs)


def test_all_gathers_of_one_another_are_not_combined() -> None:
    text = """
    func.func @main(%a: tensor<2xf32>) -> tensor<8xf32> {
      %0 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64,
          replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<4xf32>
      %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64,
          replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<8xf32>
      return %1 : tensor<8xf32>
    }"""
    assert combine_collectives(parse_module(text)) == 0


def _permutes_program(pairs: list[list[tuple[int, int]]], widths: list[int]) -> str:
    """A per-device program on 4 devices: permute `i` sends the first
    `widths[i]` columns of each device's row of `%a` along `pairs[i]`."""
    lines, results, types = [], [], []
    for i, (p, w) in enumerate(zip(pairs, widths, strict=True)):
        flat = ", ".join(f"[{s}, {t}]" for s, t in p)
        lines.append(
            f"  %s{i} = stablehlo.slice %a [0:1, 0:{w}] : (tensor<1x4xf32>) -> tensor<1x{w}xf32>\n"
            f'  %p{i} = "stablehlo.collective_permute"(%s{i}) <{{channel_handle = '
            f"#stablehlo.channel_handle<handle = {i + 1}, type = 1>, source_target_pairs = "
            f"dense<[{flat}]> : tensor<{len(p)}x2xi64>}}> : (tensor<1x{w}xf32>) -> "
            f"tensor<1x{w}xf32>"
        )
        results.append(f"%p{i}")
        types.append(f"tensor<1x{w}xf32>")
    sharded = '{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}'
    signature = ", ".join(f"{t} {sharded}" for t in types)
    return (
        "module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {\n"
        'sdy.mesh @mesh = <["x"=4]>\n'
        f"func.func @main(%a: tensor<1x4xf32> {sharded}) -> ({signature}) {{\n"
        + "\n".join(lines)
        + f"\n  return {', '.join(results)} : {', '.join(types)}\n}}\n}}"
    )


@st.composite
def _partial_permutations(draw) -> list[tuple[int, int]]:
    sources = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    targets = draw(st.permutations(range(4)))
    return [(s, t) for s, t in zip(sources, targets, strict=False) if s != t] or [(0, 1)]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(_partial_permutations(), st.integers(1, 4)), min_size=2, max_size=4))
def test_collective_permutes_overlaid_compute_what_they_did(permutes) -> None:
    """Permutes of buffers of any sizes merge where no device sends in both and
    none receives in both; every device's results are unchanged (zeros where
    it receives nothing)."""
    text = _permutes_program([p for p, _ in permutes], [w for _, w in permutes])
    x = np.arange(16, dtype=np.float32).reshape(4, 4) + 1
    separate = simulate(parse_module(text), x)
    module = parse_module(text)
    merged = combine_collectives(module)
    verify(module)
    kinds = [op.name for op in module.function("main").body.ops]
    assert kinds.count("stablehlo.collective_permute") == len(permutes) - merged
    for before, after in zip(separate, simulate(module, x), strict=True):
        np.testing.assert_array_equal(before, after)


def test_permutes_of_disjoint_devices_take_one_step() -> None:
    """Shifts of different widths to the left neighbour (a halo exchange's
    rounds) and one to the right: one step in all, as wide as the widest."""
    pairs = [[(3, 2)], [(2, 1)], [(1, 0)], [(0, 1), (2, 3)]]
    module = parse_module(_permutes_program(pairs, [3, 2, 1, 4]))
    before = collective_costs(module)
    assert combine_collectives(module) == 2
    after = collective_costs(module)
    assert [len(r.communicating) for r in (before, after)] == [4, 2]
    assert after.time_s < before.time_s
    (three_shifts,) = [
        op
        for op in module.function("main").body.ops
        if op.name == "stablehlo.collective_permute" and op.operands[0].type.shape == (3,)
    ]
    assert three_shifts is not None


def test_permutes_sharing_a_sender_are_not_combined() -> None:
    module = parse_module(_permutes_program([[(0, 1)], [(0, 2)]], [2, 2]))
    assert combine_collectives(module) == 0


def test_all_gathers_of_different_elements_of_one_width_combine_bit_for_bit() -> None:
    """An argmax gathers its values (f32) and indices (i32): one all-gather
    carries both, the indices as the bits of f32 elements."""
    text = """
    module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%v: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                    %i: tensor<2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
        -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>},
            tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
      %0 = "stablehlo.all_gather"(%v) <{all_gather_dim = 0 : i64,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
          replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}>
          : (tensor<2xf32>) -> tensor<4xf32>
      %1 = "stablehlo.all_gather"(%i) <{all_gather_dim = 0 : i64,
          channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>,
          replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}>
          : (tensor<2xi32>) -> tensor<4xi32>
      return %0, %1 : tensor<4xf32>, tensor<4xi32>
    }
    }"""
    module = parse_module(text)
    assert combine_collectives(module) == 1
    verify(module)
    names = [op.name for op in module.function("main").body.ops]
    assert names.count("stablehlo.all_gather") == 1
    values = np.array([1.5, -0.0, np.nan, 3.0], np.float32)
    indices = np.array([7, -1, 2**31 - 1, 0], np.int32)
    got = simulate(module, values, indices)
    np.testing.assert_array_equal(got[0].view(np.int32), values.view(np.int32))
    np.testing.assert_array_equal(got[1], indices)


def test_all_reduces_of_different_elements_are_not_combined() -> None:
    """A sum of bits is not the sum of the numbers: only data movement packs
    elements of another type."""
    text = _program(
        ALL_REDUCE.format(out="r0", x="a", op="add"),
        ALL_REDUCE.format(out="r1", x="b", op="add").replace("f32", "i32"),
    ).replace("%b: tensor<4xf32>", "%b: tensor<4xi32>")
    text = text.replace("-> (tensor<4xf32>, tensor<4xf32>)", "-> (tensor<4xf32>, tensor<4xi32>)")
    text = text.replace(": tensor<4xf32>, tensor<4xf32>\n}", ": tensor<4xf32>, tensor<4xi32>\n}")
    assert combine_collectives(parse_module(text)) == 0


def test_all_to_alls_of_different_dims_combine_and_move_the_same_blocks() -> None:
    """Two independent all-to-alls of one group, one moving dim 0 to dim 1 of
    a 4x4 f32, the other dim 1 to dim 0 of a 2x8 i32: one all-to-all of one
    buffer, each operand's blocks back where its own would put them."""
    text = """
    module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
    sdy.mesh @mesh = <["x"=4]>
    func.func @main(%a: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                    %b: tensor<2x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
        -> (tensor<1x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
            tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
      %0 = "stablehlo.all_to_all"(%a) <{
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
          concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>,
          split_count = 4 : i64, split_dimension = 0 : i64}>
          : (tensor<4x4xf32>) -> tensor<1x16xf32>
      %1 = "stablehlo.all_to_all"(%b) <{
          channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>,
          concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>,
          split_count = 4 : i64, split_dimension = 1 : i64}>
          : (tensor<2x8xi32>) -> tensor<8x2xi32>
      return %0, %1 : tensor<1x16xf32>, tensor<8x2xi32>
    }
    }"""
    a = np.arange(64, dtype=np.float32).reshape(16, 4) - 7.5
    b = np.arange(64, dtype=np.int32).reshape(8, 8) * -3
    separate = simulate(parse_module(text), a, b)
    module = parse_module(text)
    assert combine_collectives(module) == 1
    verify(module)
    names = [op.name for op in module.function("main").body.ops]
    assert names.count("stablehlo.all_to_all") == 1
    for before, after in zip(separate, simulate(module, a, b), strict=True):
        np.testing.assert_array_equal(before, after)
