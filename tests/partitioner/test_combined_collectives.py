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

from shardonnay import parse_module
from shardonnay.ir.verifier import verify
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.local.combined_collectives import combine_collectives
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.program import explicit_collectives, partition
from shardonnay.runtime.check import check

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
