"""The checker of propagated shardings (`shardonnay.propagation.checks.consistency`).

Propagation's output must pass it, on the corpus and on random programs,
after `propagation_pipeline` and after each strategy; propagations corrupted
on purpose (a wrong axis on a dot's result, a closed dim altered, a sharding
taken away, an invalid sharding, an unsound rule) must be caught, each with
the finding that says what is wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shardonnay.ir.shardings import sharding_of
from shardonnay.mesh import Mesh
from shardonnay.pipeline import propagation_pipeline, sharding_group_import
from shardonnay.propagation.checks.consistency import (
    ConsistencyError,
    FindingKind,
    check_propagated,
    verify_propagated,
)
from shardonnay.propagation.checks.shard_by_shard import LocalCheck, Verdict, check_shard_by_shard
from shardonnay.propagation.driver import propagate
from shardonnay.sharding import TensorSharding, TensorShardingPerValue
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.program_generator import random_program

CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))
STRATEGIES = ("basic", "aggressive", "op-priority", "user-priority")
PASSES = ("pipeline", *STRATEGIES)


def propagated(text: str, how: str):
    """(the input, its propagation by `how`, the checker's options)."""
    if how == "pipeline":
        original = parse_module(text)
        return original, propagation_pipeline(original), {"pipeline": True}
    original = parse_module(text)
    sharding_group_import(original)  # the propagation passes alone need merged groups
    return original, propagate(original, strategy=how), {"strategy": how}


def check(text: str, how: str):
    original, out, options = propagated(text, how)
    return check_propagated(out, original, **options)


@pytest.mark.parametrize("how", PASSES)
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_propagations_are_consistent(path: Path, how: str) -> None:
    report = check(path.read_text(), how)
    assert report.ok, str(report)
    assert report.ops_checked > 0


@pytest.mark.parametrize("chunk", range(10))
def test_random_program_propagations_are_consistent(chunk: int) -> None:
    for seed in range(chunk * 10, chunk * 10 + 10):
        text = random_program(seed)
        for how in PASSES:
            report = check(text, how)
            assert report.ok, f"seed {seed}, {how}:\n{report}"


def test_function_boundaries_rewritten_by_the_export_are_no_fixed_point_error() -> None:
    # The pipeline's export keeps only what divides an argument's dims: here
    # that lifts a conflict of a dot with a size-1 batching dim, through
    # which propagating again would now shard the dot's result (as it would
    # after Shardy's pipeline, whose output is the same).
    original, out, options = propagated(random_program(1181), "pipeline")
    assert check_propagated(out, original, **options).ok
    again = parse_module(out.to_text().replace("sdy.reshard", "sdy.sharding_constraint"))
    dots = [op for op in out.functions[0].body.ops if op.name == "stablehlo.dot_general"]
    dots_again = [op for op in propagate(again).walk() if op.name == "stablehlo.dot_general"]
    assert "sdy.sharding" not in dots[1].attributes
    assert str(dots_again[1].attributes["sdy.sharding"]) == (
        '#sdy.sharding_per_value<[<@mesh, [{"w", ?}, {?}]>]>'
    )


def test_most_ops_of_a_real_program_run_shard_by_shard() -> None:
    report = check(
        (Path(__file__).parent.parent / "corpus" / "mlp_train_step.mlir").read_text(), "aggressive"
    )
    assert report.ok
    assert report.ops_run >= report.ops_checked // 2


# -- what the checker says about single ops ----------------------------------------------

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>'

DOT = f"""
{MESH}
func.func @main(%a: tensor<8x16xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x", ?}}, {{?}}]>}},
                %b: tensor<16x4xf32>) -> tensor<8x4xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.negate %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}}"""


def test_a_sharded_contracting_dim_is_reduced_after_the_shard_by_shard_run() -> None:
    m = parse_module(f"""
{MESH}
func.func @main(%a: tensor<8x16xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"x"}}]>}},
                %b: tensor<16x4xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}})
    -> tensor<8x4xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}}""")
    report = check_propagated(propagate(m), m)
    assert report.ok and (report.ops_checked, report.ops_run) == (1, 1), str(report)
    assert not report.findings


def test_reduction_factors_split_by_sub_axes_of_one_axis_are_reduced_together() -> None:
    m = parse_module("""
func.func @main(%a: tensor<2x6xf32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [0, 1]
      : (tensor<2x6xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}""")
    reduce = m.functions[0].body.ops[0]
    sharded = TensorSharding.parse('<@m, [{"y":(1)2}, {"y":(2)2}]>')
    verdict = check_shard_by_shard(reduce, [sharded, None], [None], Mesh({"y": 4}))
    assert verdict == LocalCheck(Verdict.MATCHES)


def test_conflicting_factors_need_a_reshard_which_is_no_error() -> None:
    path = Path(__file__).parent.parent / "corpus" / "sharding_constraints.mlir"
    report = check(path.read_text(), "aggressive")
    assert report.ok and report.needs_reshard
    finding = report.needs_reshard[0]
    assert finding.where.endswith("in @main") and "sharded" in finding.message


def test_a_pad_that_shifts_a_sharded_dim_needs_communication() -> None:
    m = parse_module(f"""
{MESH}
func.func @main(%a: tensor<8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}]>}},
                %v: tensor<f32>) -> tensor<8xf32> {{
  %0 = stablehlo.pad %a, %v, low = [-1], high = [1], interior = [0]
      : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}}""")
    out = propagate(m)
    pad = out.functions[0].body.ops[0]
    verdict = check_shard_by_shard(
        pad,
        [sharding_of(v) for v in pad.operands],
        [sharding_of(pad.results[0])],
        out.meshes["mesh"],
    )
    assert verdict.status is Verdict.NEEDS_COMMUNICATION and "differs" in verdict.reason
    report = check_propagated(out, m)
    assert report.ok and report.of_kind(FindingKind.NEEDS_COMMUNICATION)


# -- corrupted propagations are caught ----------------------------------------------------


def _set_result_sharding(op, text: str) -> None:
    op.attributes["sdy.sharding"] = TensorShardingPerValue((TensorSharding.parse(text),))


def _only(report, kind: FindingKind):
    found = report.of_kind(kind)
    assert found, str(report)
    return found


def test_a_wrong_axis_on_a_dot_result_is_not_a_fixed_point() -> None:
    m = parse_module(DOT)
    out = propagate(m)
    assert check_propagated(out, m).ok
    dot = out.functions[0].body.ops[0]
    _set_result_sharding(dot, '<@mesh, [{"x", ?}, {"y", ?}]>')
    report = check_propagated(out, m)
    assert not report.ok
    (finding,) = (f for f in _only(report, FindingKind.NOT_FIXED_POINT) if f.where.startswith("%0"))
    assert finding.op == "stablehlo.dot_general" and finding.where == "%0 in @main"
    assert "%arg1" in finding.message and '"y"' in finding.message
    # and the dot's factor j now differs between its result and its operand
    assert any(f.where == "%0 in @main" for f in report.needs_reshard)


def test_a_sharding_taken_away_is_not_a_fixed_point() -> None:
    m = parse_module(DOT)
    out = propagate(m)
    negate = out.functions[0].body.ops[1]
    _set_result_sharding(negate, "<@mesh, [{?}, {?}]>")
    report = check_propagated(out, m)
    finding = _only(report, FindingKind.NOT_FIXED_POINT)[0]
    assert finding.op in ("stablehlo.negate", "func.return", "stablehlo.dot_general")
    assert "%1" in finding.message and "from #sdy.sharding<@mesh, [{?}, {?}]>" in finding.message


def test_an_altered_closed_dim_of_an_argument_is_a_changed_annotation() -> None:
    m = parse_module(DOT.replace('[{"x", ?}, {?}]', '[{"x"}, {}]'))
    out = propagate(m)
    out.functions[0].arg_attrs(0)["sdy.sharding"] = TensorSharding.parse('<@mesh, [{"y"}, {}]>')
    (finding,) = _only(check_propagated(out, m), FindingKind.ANNOTATION_CHANGED)
    assert finding.where == "@main argument 0" and finding.op == "func.func"
    assert finding.message == 'closed dim 0 {"x"} became {"y"}'


CONSTRAINED = f"""
{MESH}
func.func @main(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {{
  %0 = stablehlo.negate %a : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{{"x"}}, {{?}}]> : tensor<8x8xf32>
  %2 = stablehlo.tanh %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}}"""


@pytest.mark.parametrize("how", PASSES)
def test_an_altered_constraint_is_a_changed_annotation(how: str) -> None:
    original, out, options = propagated(CONSTRAINED, how)
    assert check_propagated(out, original, **options).ok
    name = "sdy.reshard" if how == "pipeline" else "sdy.sharding_constraint"
    (constraint,) = (op for op in out.walk() if op.name == name)
    constraint.attributes["sharding"] = TensorSharding.parse('<@mesh, [{"y"}, {?}]>')
    findings = _only(check_propagated(out, original, **options), FindingKind.ANNOTATION_CHANGED)
    assert [(f.op, f.message) for f in findings] == [(name, 'closed dim 0 {"x"} became {"y"}')]


def test_an_open_dim_losing_its_axes_is_a_changed_annotation() -> None:
    m = parse_module(CONSTRAINED.replace('[{"x"}, {?}]', '[{"x", ?}, {?}]'))
    out = propagate(m)
    (constraint,) = (op for op in out.walk() if op.name == "sdy.sharding_constraint")
    constraint.attributes["sharding"] = TensorSharding.parse('<@mesh, [{"y", ?}, {?}]>')
    findings = _only(check_propagated(out, m), FindingKind.ANNOTATION_CHANGED)
    assert "does not extend it" in findings[0].message


def test_a_removed_constraint_is_a_lost_annotation() -> None:
    m = parse_module(CONSTRAINED)
    out = propagate(m)
    (constraint,) = (op for op in out.walk() if op.name == "sdy.sharding_constraint")
    constraint.results[0].replace_all_uses_with(constraint.operands[0])
    constraint.erase()
    (finding,) = _only(check_propagated(out, m), FindingKind.ANNOTATION_CHANGED)
    assert finding.op == "sdy.sharding_constraint" and "is gone" in finding.message


def test_an_invalid_sharding_is_reported_where_it_is() -> None:
    m = parse_module(DOT)
    out = propagate(m)
    _set_result_sharding(out.functions[0].body.ops[1], '<@mesh, [{"x", "x"}, {}]>')
    report = check_propagated(out, m)
    (finding,) = _only(report, FindingKind.INVALID_SHARDING)
    assert (finding.op, finding.where) == ("stablehlo.negate", "%1 in @main")
    assert "duplicate axis ref" in finding.message
    with pytest.raises(ConsistencyError, match="duplicate axis ref") as error:
        verify_propagated(out, m)
    assert error.value.report == report


def test_an_unsound_rule_is_caught_shard_by_shard() -> None:
    # A dot whose (wrong) rule says its result is transposed: propagation
    # follows the rule, and running the dot shard by shard shows the rule lies.
    m = parse_module(f"""
{MESH}
func.func @main(%a: tensor<8x16xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}},
                %b: tensor<16x8xf32>) -> tensor<8x8xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {{sdy.sharding_rule =
      #sdy.op_sharding_rule<([i, k], [k, j])->([j, i]) {{i=8, j=8, k=16}} reduction={{k}}>}}
      : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}}""")
    report = check_propagated(propagate(m), m)
    (finding,) = _only(report, FindingKind.SHARD_MISMATCH)
    assert (finding.op, finding.where) == ("stablehlo.dot_general", "%0 in @main")
    assert '[{?}, {"x", ?}]' in finding.message
