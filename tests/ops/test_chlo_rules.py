"""The elementwise chlo ops partition like what they compute (a deliberate
difference from Shardy, which has no rule for them).

`chlo.square` is `multiply(x, x)`: its rule is the multiply's. Shardy's
propagation stops at it and its partitioner leaves the operand gathered
(the square of a layer-norm's centred input, Adam's second moment);
shardonnay's partitioner writes the rule on the op as a custom
`sdy.sharding_rule`, which Shardy itself then follows alike, and the
per-device program receives fewer bytes, with `check` passing. The passes
named after Shardy's still leave chlo ops without a rule, as Shardy does.
"""

from __future__ import annotations

import warnings

import pytest

from shardonnay import parse_module
from shardonnay.ops.chlo import RULE_ATTRIBUTE, computed_rule, write_computed_rules
from shardonnay.ops.rules import rule_for
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.program import explicit_collectives, partition
from shardonnay.passes import run_pipeline
from shardonnay.runtime.check import check

UNARY = ("square", "erf", "erfc", "lgamma", "tan", "atanh", "cosh")

# The variance of a layer norm: the sum of squares along the sharded dim 1.
VARIANCE = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8xf32> {
  %0 = chlo.square %a : tensor<8x16xf32> -> tensor<8x16xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [1]
      : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
"""
SHARDY_PARTITIONER = (
    "builtin.module(sdy-propagation-pipeline, "
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}), "
    "func.func(sdy-reshard-to-collectives))"
)


def _op(line: str, types: str):
    signature = f"func.func @main(%a: {types}, %b: {types}) -> {types}"
    text = f"{signature} {{\n  {line}\n  return %0 : {types}\n}}"
    return parse_module(text).function("main").body.ops[0]


@pytest.mark.parametrize("name", UNARY)
def test_unary_chlo_ops_get_the_rule_of_an_elementwise_op(name: str) -> None:
    t = "tensor<4x6x2xf32>"
    chlo = _op(f"%0 = chlo.{name} %a : {t} -> {t}", t)
    negate = _op(f"%0 = stablehlo.negate %a : {t}", t)
    assert computed_rule(chlo) == rule_for(negate)
    assert rule_for(chlo) is None  # what Shardy's passes see


def test_square_has_the_rule_of_multiply_x_x_and_next_after_of_a_binary_op() -> None:
    t = "tensor<3x5xf32>"
    square = _op(f"%0 = chlo.square %a : {t} -> {t}", t)
    assert str(computed_rule(square)) == "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=3, j=5}>"
    next_after = _op(f"%0 = chlo.next_after %a, %b : {t}, {t} -> {t}", t)
    assert computed_rule(next_after) == rule_for(_op(f"%0 = stablehlo.add %a, %b : {t}", t))
    top_k = "%0:2 = chlo.top_k(%a, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)"
    body = f"{{\n  {top_k}\n  return %0#0 : tensor<3x2xf32>\n}}"
    text = f"func.func @main(%a: {t}) -> tensor<3x2xf32> {body}"
    module = write_computed_rules(parse_module(text))
    assert RULE_ATTRIBUTE not in module.function("main").body.ops[0].attributes


def test_a_written_rule_is_kept_and_the_input_module_is_unchanged() -> None:
    module = parse_module(VARIANCE)
    before = module.to_text()
    explicit = explicit_collectives(module)
    assert module.to_text() == before
    square = next(op for op in explicit.walk() if op.name == "chlo.square")
    assert str(square.attributes[RULE_ATTRIBUTE]).startswith("#sdy.op_sharding_rule<([i, j])")


def test_shardys_named_passes_still_stop_at_chlo_ops() -> None:
    propagated = run_pipeline(parse_module(VARIANCE), "builtin.module(sdy-propagation-pipeline)")
    square = next(op for op in propagated.walk() if op.name == "chlo.square")
    assert "sdy.sharding" not in square.attributes and RULE_ATTRIBUTE not in square.attributes


def test_shardy_follows_the_written_rule_as_shardonnay_does() -> None:
    pytest.importorskip("jax")
    from shardonnay.pipeline import propagation_pipeline
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    ruled = write_computed_rules(parse_module(VARIANCE))
    pipeline = "builtin.module(sdy-propagation-pipeline)"
    theirs = run_pass_pipeline(ruled.to_text(), pipeline)
    assert propagation_pipeline(ruled).to_text() == theirs
    assert (
        '%0 = chlo.square %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>'
        in theirs
    )


def test_the_per_device_program_moves_fewer_bytes_than_shardys_and_computes_the_same() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    shardy = parse_module(run_pass_pipeline(VARIANCE, SHARDY_PARTITIONER))
    square = next(op for op in shardy.walk() if op.name == "chlo.square")
    assert "sdy.sharding" not in square.attributes  # Shardy leaves the square replicated
    assert collective_costs(shardy).bytes_received == 0  # and counts nothing for it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shardys_devices = collective_costs(convert_global_to_local(shardy)).bytes_received
    # Each device gathers the 7 shards of 16 B of %a it lacks: 448 B.
    assert shardys_devices == 7 * 4 * 4 * 4
    module = parse_module(VARIANCE)
    ours = collective_costs(partition(module))
    # The square and the partial sums stay local: one ring all-reduce of 4 floats (16 B)
    # among the 4 devices along "y", 2 * 3/4 * 16 B.
    assert ours.bytes_received == 24
    assert [c.kind for c in ours.communicating] == ["all_reduce"]
    check(module)
