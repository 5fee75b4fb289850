"""A collective the global program repeats (the same value resharded alike
for the forward and the backward matmul) runs once: fewer bytes than
Shardy's partitioner, which gathers twice; Shardy's lowering
(`reshards="shardy"`) still keeps Shardy's text."""

from __future__ import annotations

import warnings
from pathlib import Path

from shardonnay import parse_module
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.program import explicit_collectives
from shardonnay.partitioner.repeated_collectives import merge_repeated_collectives

MODELS = Path(__file__).parent.parent / "models"


def _gathers(module) -> list:
    return [op for op in module.walk() if op.name == "sdy.all_gather"]


def _model(name: str):
    return parse_module((MODELS / f"{name}.mlir").read_text())


def test_an_activation_gathered_for_forward_and_backward_is_gathered_once() -> None:
    # equinox MLP, tensor parallel: tanh(W1 x) is gathered along "model" for the second
    # layer's matmul and again for its weight gradient.
    module = _model("equinox_mlp_dp_tp_train")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shardys = explicit_collectives(module, reshards="shardy")
        ours = explicit_collectives(module)
    operands = [op.operands[0] for op in _gathers(shardys)]
    twice = {v for v in operands if operands.count(v) == 2}
    assert len(twice) == 1
    theirs = collective_costs(shardys)
    (first, again) = [c for c in theirs.communicating if c.op.operands[0] in twice]
    assert first.bytes_received == again.bytes_received == 3 * 512  # 16x64 f32 on 2x4
    assert len(_gathers(ours)) == len(_gathers(shardys)) - 1
    assert collective_costs(ours).bytes_received == theirs.bytes_received - 3 * 512
    # The numbers: tests/end_to_end/test_models_corpus.py checks this model's per-device program.


OTHERS = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>},
                %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>},
                %p: tensor<i1>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.all_gather [{"y"}] %a out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  %1 = sdy.all_gather [{"x", "y"}] %a out_sharding=<@mesh, [{}]> : tensor<8xf32>
  %2 = sdy.all_gather [{"x", "y"}] %b out_sharding=<@mesh, [{}]> : tensor<8xf32>
  %3 = "stablehlo.if"(%p) ({
    %4 = sdy.all_gather [{"x", "y"}] %a out_sharding=<@mesh, [{}]> : tensor<8xf32>
    stablehlo.return %4 : tensor<8xf32>
  }, {
    stablehlo.return %1 : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
"""


def test_other_collectives_values_or_blocks_stay() -> None:
    # Another target sharding, another value, a gather inside a region: nothing repeats.
    module = parse_module(OTHERS)
    assert merge_repeated_collectives(module) == 0
    assert len(_gathers(module)) == 4


def test_real_models_repeat_no_collective() -> None:
    module = _model("nnx_mlp_fsdp_tp_train")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shardys = explicit_collectives(module, reshards="shardy")
        ours = explicit_collectives(module)
    before = collective_costs(shardys).bytes_received
    assert merge_repeated_collectives(shardys) == 2  # an FSDP weight and an activation
    assert merge_repeated_collectives(ours) == 0
    assert collective_costs(shardys).bytes_received < before
