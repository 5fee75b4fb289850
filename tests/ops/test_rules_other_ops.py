"""Sharding rules of collectives, custom calls, sdy and control-flow ops
(compared with Shardy's), and the user-facing rule API."""

from __future__ import annotations

import pytest

from shardonnay.errors import ShardonnayError
from shardonnay.ops.rules import populate_rules, register_rule, rule_for, unregister_rule
from shardonnay.propagation.checks.rule_check import check_rule
from shardonnay.sharding_rule import RULE_ATTRIBUTE, OpShardingRule, RuleBuilder
from shardonnay.syntax.mlir_reader import parse_module

pytest.importorskip("jax")

from shardonnay.testing.mlir_oracle import run_pass_pipeline
from shardonnay.testing.shardy_rules import POPULATE, assert_rules_match_shardy, shardy_rules

G = "replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>"
G1 = "replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>"
ADD = """({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    })"""
X = "tensor<4x6x8xf32>"


def _func(
    body: str,
    args: str = f"%arg0: {X}, %arg1: tensor<8x8xf32>, %arg2: tensor<8xf32>, "
    "%arg3: tensor<f32>, %arg4: tensor<4x6x8xi32>, %arg5: tensor<i32>",
) -> str:
    return f"func.func @main({args}) {{\n  {body}\n  return\n}}"


COLLECTIVES = [
    f'%0 = "stablehlo.all_reduce"(%arg0) <{{{G}}}> {ADD} : ({X}) -> {X}',
    f'%0:2 = "stablehlo.all_reduce"(%arg0, %arg2) <{{{G}}}> {ADD} : ({X}, tensor<8xf32>) '
    f"-> ({X}, tensor<8xf32>)",
    f'%0 = "stablehlo.all_reduce"(%arg3) <{{{G}}}> {ADD} : (tensor<f32>) -> tensor<f32>',
    f'%0 = "stablehlo.all_gather"(%arg0) <{{all_gather_dim = 1 : i64, {G}}}> '
    f": ({X}) -> tensor<4x12x8xf32>",
    f'%0 = "stablehlo.all_gather"(%arg0) <{{all_gather_dim = 2 : i64, {G1}}}> : ({X}) -> {X}',
    # (operands of different ranks crash Shardy's rule builder, so both have rank 2)
    f'%0:2 = "stablehlo.all_gather"(%arg1, %arg1) <{{all_gather_dim = 0 : i64, {G}}}> '
    ": (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>)",
    f'%0 = "stablehlo.reduce_scatter"(%arg0) <{{{G}, scatter_dimension = 2 : i64}}> {ADD} '
    f": ({X}) -> tensor<4x6x4xf32>",
    f'%0 = "stablehlo.reduce_scatter"(%arg0) <{{{G}, scatter_dimension = 0 : i64}}> {ADD} '
    f": ({X}) -> tensor<2x6x8xf32>",
    f'%0 = "stablehlo.all_to_all"(%arg0) <{{concat_dimension = 1 : i64, {G}, split_count = '
    f"2 : i64, split_dimension = 2 : i64}}> : ({X}) -> tensor<4x12x4xf32>",
    f'%0 = "stablehlo.all_to_all"(%arg0) <{{concat_dimension = 2 : i64, {G}, split_count = '
    f"2 : i64, split_dimension = 2 : i64}}> : ({X}) -> {X}",
    f'%0:2 = "stablehlo.all_to_all"(%arg0, %arg0) <{{concat_dimension = 0 : i64, {G}, '
    f"split_count = 2 : i64, split_dimension = 1 : i64}}> : ({X}, {X}) -> "
    "(tensor<8x3x8xf32>, tensor<8x3x8xf32>)",
    '%0 = "stablehlo.collective_permute"(%arg1) <{source_target_pairs = dense<[[0, 1]]> : '
    "tensor<1x2xi64>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>",
    f'%0 = "stablehlo.collective_broadcast"(%arg4) <{{{G}}}> : (tensor<4x6x8xi32>) '
    "-> tensor<4x6x8xi32>",
    '%0 = "stablehlo.partition_id"() : () -> tensor<ui32>',
]

CUSTOM_CALLS = [
    f"%0 = stablehlo.custom_call @{target}(%arg0) : ({X}) -> {X}"
    for target in (
        "mhlo.erf",
        "Sharding",
        "unknown_target",
        "MoveToHost",
        "MoveToDevice",
        "annotate_device_placement",
        "LayoutConstraint",
        "CompactWyHelper",
        "InvertDiagBlocksLowerTriangular",
        "InvertDiagBlocksUpperTriangular",
        "InspectSharding",
        "Cholesky",
        "SPMDFullToShardShape",
        "ApproxTopK",
    )
] + [
    f"%0 = stablehlo.custom_call @X64Combine(%arg0, %arg0) : ({X}, {X}) -> {X}",
    f"%0:2 = stablehlo.custom_call @X64SplitLow(%arg0) : ({X}) -> ({X}, {X})",
    f"%0:2 = stablehlo.custom_call @X64SplitHigh(%arg0) : ({X}) -> ({X}, {X})",
    f"%0 = stablehlo.custom_call @mhlo.erf(%arg1, %arg0) : (tensor<8x8xf32>, {X}) -> {X}",
    "%0 = stablehlo.custom_call @mhlo.erf(%arg3) : (tensor<f32>) -> tensor<f32>",
    f"%0:2 = stablehlo.custom_call @Eigh(%arg0) : ({X}) -> ({X}, tensor<4x8xf32>)",
    "%0:2 = stablehlo.custom_call @Eigh(%arg1) : (tensor<8x8xf32>) -> "
    "(tensor<8x8xf32>, tensor<8xf32>)",
    f"%0:2 = stablehlo.custom_call @Qr(%arg0) : ({X}) -> ({X}, tensor<4x6xf32>)",
    f"%0:2 = stablehlo.custom_call @QrDecompositionBlock(%arg0) : ({X}) -> ({X}, tensor<4x6xf32>)",
    "%0:2 = stablehlo.custom_call @Qr(%arg1) : (tensor<8x8xf32>) -> "
    "(tensor<8x8xf32>, tensor<8xf32>)",
    "%0 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%arg1, %arg2) : "
    "(tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>",
    f"%0:2 = stablehlo.custom_call @mhlo.topk(%arg0) : ({X}) -> "
    "(tensor<4x6x2xf32>, tensor<4x6x2xi32>)",
    "%0:2 = stablehlo.custom_call @mhlo.topk(%arg2) : (tensor<8xf32>) -> "
    "(tensor<8xf32>, tensor<8xi32>)",
    "%0:2 = stablehlo.custom_call @mhlo.topk(%arg2) {mhlo.attributes = {k = 3 : i64}} : "
    "(tensor<8xf32>) -> (tensor<3xf32>, tensor<3xi32>)",
    f"%0:2 = stablehlo.custom_call @ApproxTopK(%arg0, %arg4, %arg3, %arg5) : ({X}, "
    "tensor<4x6x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x6x2xf32>, tensor<4x6x2xi32>)",
    f"%0:2 = stablehlo.custom_call @PartialReduce(%arg0, %arg4, %arg3, %arg5) : ({X}, "
    "tensor<4x6x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x6x2xf32>, tensor<4x6x2xi32>)",
    f"%0 = stablehlo.custom_call @mhlo.erf(%arg0) {{has_side_effect = true}} : ({X}) -> {X}",
]


@pytest.mark.parametrize("body", COLLECTIVES + CUSTOM_CALLS)
def test_rules_match_shardy(body):
    assert_rules_match_shardy(_func(body))


CONTROL_FLOW = """func.func @main(%arg0: tensor<4x6xf32>, %arg1: tensor<i32>, %arg2: tensor<i1>)
    -> tensor<4x6xf32> {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<4x6xf32>, tensor<i32>
  %1 = "stablehlo.case"(%arg1) ({
    stablehlo.return %arg0 : tensor<4x6xf32>
  }, {
    stablehlo.return %0#0 : tensor<4x6xf32>
  }) : (tensor<i32>) -> tensor<4x6xf32>
  %2 = "stablehlo.if"(%arg2) ({
    stablehlo.return %arg0 : tensor<4x6xf32>
  }, {
    stablehlo.return %1 : tensor<4x6xf32>
  }) : (tensor<i1>) -> tensor<4x6xf32>
  %3:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<4x6xf32>, tensor<i32>
    cond {
    %c = stablehlo.compare  LT, %iterArg_0, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<4x6xf32>, tensor<i32>
  }
  %4 = func.call @f(%3#0) : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %5 = stablehlo.after_all : !stablehlo.token
  %6 = stablehlo.tuple %arg0, %arg1 : tuple<tensor<4x6xf32>, tensor<i32>>
  %7 = stablehlo.get_tuple_element %6[0] : (tuple<tensor<4x6xf32>, tensor<i32>>) -> tensor<4x6xf32>
  %8 = stablehlo.composite "my.op" %7 {decomposition = @f} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %8 : tensor<4x6xf32>
}
func.func @f(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
  return %arg0 : tensor<4x6xf32>
}"""

SDY = """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<4x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x"}, {}]> : tensor<4x8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<4x8xf32>
  %2 = sdy.propagation_barrier %1 allowed_direction=FORWARD : tensor<4x8xf32>
  %3 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
  %4 = sdy.all_slice [{"x"}, {}] %3 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x8xf32>
  %5 = sdy.all_reduce {"y"} %4 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x8xf32>
  %6 = sdy.collective_permute %5 out_sharding=<@mesh, [{"x"}, {}]> : tensor<4x8xf32>
  %7 = sdy.all_to_all [{"x"}: 0->1] %6 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x8xf32>
  %8 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %9 = sdy.constant dense<1.0> : tensor<4x8xf32>
  %10 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<2x8xf32>) {
    %11 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"y"}]> : tensor<2x8xf32>
    sdy.return %11 : tensor<2x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}"""


@pytest.mark.parametrize("text", [CONTROL_FLOW, SDY], ids=["control_flow", "sdy"])
def test_structural_ops_match_shardy(text):
    assert_rules_match_shardy(text)


def test_only_the_sharding_constraint_and_compare_have_rules():
    assert [name for name, _ in shardy_rules(CONTROL_FLOW)] == ["stablehlo.compare"]
    assert [name for name, _ in shardy_rules(SDY)] == ["sdy.sharding_constraint"] * 2


# -- soundness of the rules that can run on one device -----------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        f"%0 = stablehlo.custom_call @annotate_device_placement(%arg0) : ({X}) -> {X}",
        f"%0 = stablehlo.custom_call @Sharding(%arg0) : ({X}) -> {X}",
    ],
)
def test_custom_call_rules_are_sound(body):
    module = parse_module(_func(body))
    op = next(op for op in module.walk() if op.name == "stablehlo.custom_call")
    if rule_for(op) is None:
        with pytest.raises(ShardonnayError, match="no sharding rule"):
            check_rule(op)
    else:
        check_rule(op, trials=10)


def test_sharding_constraint_rule_is_sound():
    module = parse_module(SDY)
    for op in module.walk():
        if op.name == "sdy.sharding_constraint":
            check_rule(op, trials=10)


# -- the user-facing API -----------------------------------------------------------------------


FUSED = """func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = "mylib.fused_matmul"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}"""


def test_register_rule_for_an_unknown_op():
    module = parse_module(FUSED)
    op = next(op for op in module.walk() if op.name == "mylib.fused_matmul")
    assert rule_for(op) is None

    @register_rule("mylib.fused_matmul")
    def fused(op):
        b = RuleBuilder.for_op(op)
        b.add_factor([0, None], [0], 4).add_factor([None, 1], [1], 2)
        return b.add_factor([1, 0], [None], 8, kind="reduction").build()

    try:
        assert str(rule_for(op)) == (
            "#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=4, j=2, k=8} reduction={k}>"
        )
        populate_rules(module)
        assert isinstance(op.attributes[RULE_ATTRIBUTE], OpShardingRule)
        assert "sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])" in module.to_text()
    finally:
        unregister_rule("mylib.fused_matmul")
    assert rule_for(parse_module(FUSED).ops[0].regions[0].entry.ops[0]) is None


def test_rule_written_on_the_op_takes_precedence():
    text = _func(
        f"%0 = stablehlo.custom_call @mhlo.erf(%arg0) {{sdy.sharding_rule = "
        "#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=6, k=8} "
        f"need_replication={{k}}, custom>}} : ({X}) -> {X}"
    )
    op = next(op for op in parse_module(text).walk() if op.name == "stablehlo.custom_call")
    rule = rule_for(op)
    assert rule.is_custom and rule.need_replication_factors == (2,)

    @register_rule("stablehlo.custom_call")
    def pointwise(op):
        return RuleBuilder.for_op(op).add_pointwise((4, 6, 8)).build()

    try:
        assert rule_for(op) is rule  # the op's own rule beats a registered one
    finally:
        unregister_rule("stablehlo.custom_call")
    assert_rules_match_shardy(text)


def test_populate_rules_prints_like_shardy():
    text = _func("\n  ".join(COLLECTIVES[:4] + CUSTOM_CALLS[:6]).replace("%0", "%r"))
    text = _unique_names(text)
    ours = populate_rules(parse_module(text)).to_text()
    theirs = parse_module(run_pass_pipeline(text, POPULATE)).to_text()
    assert ours == theirs
    assert ours.count("sdy.sharding_rule") >= 8


def _unique_names(text: str) -> str:
    out, n = [], 0
    for line in text.split("\n"):
        if "%r" in line:
            line = line.replace("%r", f"%r{n}")
            n += 1
        out.append(line)
    return "\n".join(out)


def test_a_builder_for_an_op_takes_the_shapes_of_its_tensors():
    """`RuleBuilder.for_op` reads the static shapes of an IR op's operands and
    results (sharding_rule sits below the IR: it asks each type for its shape)
    and refuses a value of another type, naming the op."""
    from shardonnay.errors import ShardingError

    m = parse_module(
        """func.func @main(%a: tensor<4x6xf32>, %t: !stablehlo.token) -> tensor<6x4xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.after_all %t : !stablehlo.token
  return %0 : tensor<6x4xf32>
}"""
    )
    transpose, after_all = m.function("main").body.ops[:2]
    b = RuleBuilder.for_op(transpose)
    assert (b.operand_shapes, b.result_shapes) == ([(4, 6)], [(6, 4)])
    rule = b.add_factor([1], [0], 6).add_factor([0], [1], 4).build()  # in result order
    assert rule == rule_for(transpose)
    with pytest.raises(ShardingError, match="stablehlo.after_all: sharding rules need tensor"):
        RuleBuilder.for_op(after_all)
