"""A value's sharding is read and written in one place (`shardonnay.ir.shardings`), where
Shardy's `getSharding`/`setSharding` keep it; the passes that used to read shardings their own
way (sharding constraints, sharding groups, function results, the consistency check, the cost
model, the local shardings of the partitioner, the propagation store) now see what Shardy sees.

Each program of `DIFFERED` is one place where an earlier reader had less coverage than Shardy:
the plain tests state what Shardy does there, the oracle test compares whole outputs with Shardy.
"""

from __future__ import annotations

import warnings

import pytest

import shardonnay
from shardonnay.ir.shardings import (
    IN_SHARDINGS,
    OUT_SHARDING,
    SHARDING,
    func_result_sharding,
    is_equivalent,
    set_func_result_sharding,
    set_sharding,
    sharding_of,
)
from shardonnay.ir.types import TensorType
from shardonnay.ops.traits import DATA_FLOW, has_trait
from shardonnay.passes import run_pipeline
from shardonnay.propagation.importing.validation import PropagationWarning
from shardonnay.sharding import TensorSharding
from shardonnay.syntax.mlir_reader import parse_module

EVERY_KIND = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>, <@mesh, [{?}, {?}]>]>} %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
  %1 = sdy.reshard %0#0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  %3 = sdy.all_gather [{"y"}, {}] %2 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %4 = sdy.named_computation<"f">(%3) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {"x"}]>] (%arg2: tensor<8x8xf32>) {
    sdy.return %arg2 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %5 = sdy.manual_computation(%4) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg3: tensor<4x8xf32>) {
    sdy.return %arg3 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %6:2 = stablehlo.while(%iterArg = %5, %iterArg_0 = %c) : tensor<8x8xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>, <@mesh, []>]>}
    cond {
    %8 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %8 : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %7 = stablehlo.reduce(%6#0 init: %cst) across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %9 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %9 : tensor<f32>
  }
  return %6#0 : tensor<8x8xf32>
}"""  # noqa: E501


def _ops(module):
    return {op.name: op for op in module.walk()}


def _text(s: TensorSharding | None) -> str | None:
    return None if s is None else str(s).removeprefix("#sdy.sharding")


def test_each_value_has_its_sharding_where_shardy_keeps_it():
    module = parse_module(EVERY_KIND)
    main = module.functions[0]
    ops = _ops(module)
    named, manual, loop = (
        ops["sdy.named_computation"],
        ops["sdy.manual_computation"],
        ops["stablehlo.while"],
    )
    reducer = ops["stablehlo.reduce"].regions[0].entry
    found = {
        "function argument": sharding_of(main.arguments[0]),
        "unsharded function argument": sharding_of(main.arguments[1]),
        "function result": func_result_sharding(main, 0),
        "op result (per value)": sharding_of(ops["stablehlo.optimization_barrier"].results[1]),
        "reshard": sharding_of(ops["sdy.reshard"].results[0]),
        "sharding constraint": sharding_of(ops["sdy.sharding_constraint"].results[0]),
        "collective (out_sharding)": sharding_of(ops["sdy.all_gather"].results[0]),
        "named computation body argument": sharding_of(named.regions[0].entry.arguments[0]),
        "named computation result": sharding_of(named.results[0]),
        "manual computation body argument": sharding_of(manual.regions[0].entry.arguments[0]),
        "manual computation result": sharding_of(manual.results[0]),
        "while cond argument": sharding_of(loop.regions[0].entry.arguments[0]),
        "while body argument": sharding_of(loop.regions[1].entry.arguments[0]),
        "reduction body argument": sharding_of(reducer.arguments[0]),
        "unsharded op result": sharding_of(ops["stablehlo.reduce"].results[0]),
    }
    assert {k: _text(v) for k, v in found.items()} == {
        "function argument": '<@mesh, [{"x"}, {}]>',
        "unsharded function argument": None,
        "function result": '<@mesh, [{}, {"y"}]>',
        "op result (per value)": "<@mesh, [{?}, {?}]>",
        "reshard": '<@mesh, [{}, {"y"}]>',
        "sharding constraint": '<@mesh, [{"y"}, {}]>',
        "collective (out_sharding)": "<@mesh, [{}, {}]>",
        "named computation body argument": '<@mesh, [{"x"}, {}]>',
        "named computation result": '<@mesh, [{}, {"x"}]>',
        # the body does not see the manual axis "x"
        "manual computation body argument": '<@mesh, [{"y"}, {}]>',
        "manual computation result": '<@mesh, [{"x"}, {}]>',
        # a while's region arguments and its results are one data-flow edge
        "while cond argument": '<@mesh, [{"y"}, {}]>',
        "while body argument": '<@mesh, [{"y"}, {}]>',
        "reduction body argument": None,
        "unsharded op result": None,
    }


def test_reading_shardings_leaves_the_module_as_it_was():
    module = parse_module(EVERY_KIND)
    before = str(module)
    for func in module.functions:
        for i in range(len(func.type.results)):
            func_result_sharding(func, i)
    for op in module.walk():
        for v in [*op.results, *(a for r in op.regions for b in r.blocks for a in b.arguments)]:
            sharding_of(v)
    for arg in module.functions[0].arguments:
        sharding_of(arg)
    assert str(module) == before


def _shardable_values(module):
    """Every tensor value that has a place for a sharding."""
    values = list(module.functions[0].arguments)
    for op in module.walk():
        values += op.results
        if op.name in ("sdy.named_computation", "sdy.manual_computation", "stablehlo.while"):
            values += [a for r in op.regions for a in r.entry.arguments]
    return [v for v in values if isinstance(v.type, TensorType) and v.type.rank > 0]


def test_a_written_sharding_is_read_back_and_the_module_reparses():
    """For every value, `set_sharding` then `sharding_of` give back what was written
    (a manual computation's body argument: as the body sees it), and the module prints as a
    valid program that reads back the same."""
    module = parse_module(EVERY_KIND)
    for k, v in enumerate(_shardable_values(module)):
        axis = ("x", "y")[k % 2]
        if v.type.shape[0] % 2:
            continue
        s = TensorSharding.parse(f'<@mesh, [{{"{axis}"}}{", {}" * (v.type.rank - 1)}]>')
        inside_manual = v.is_block_argument and v.defining.parent_op.name == (
            "sdy.manual_computation"
        )
        if inside_manual:
            s = TensorSharding.parse(f'<@mesh, [{{"y"}}{", {}" * (v.type.rank - 1)}]>')
        set_sharding(v, s)
        assert sharding_of(v) == s
    text = str(module)
    assert str(parse_module(text)) == text


def test_writing_a_body_argument_of_a_manual_computation_keeps_its_manual_axes():
    module = parse_module(EVERY_KIND)
    manual = _ops(module)["sdy.manual_computation"]
    set_sharding(manual.regions[0].entry.arguments[0], TensorSharding.parse("<@mesh, [{}, {}]>"))
    assert _text(manual.attributes[IN_SHARDINGS][0]) == '<@mesh, [{"x"}, {}]>'


def test_writing_one_result_gives_the_others_open_shardings_and_keeps_known_ones():
    module = parse_module("""sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
  return %0#0 : tensor<8xf32>
}""")
    barrier = _ops(module)["stablehlo.optimization_barrier"]
    set_sharding(barrier.results[1], TensorSharding.parse('<@mesh, [{"x"}]>'))
    assert str(barrier.attributes[SHARDING]) == (
        '#sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"x"}]>]>'
    )
    set_sharding(barrier.results[0], TensorSharding.parse("<@mesh, [{}]>"))
    assert str(barrier.attributes[SHARDING]) == (
        '#sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"x"}]>]>'
    )
    main = module.functions[0]
    set_func_result_sharding(main, 0, TensorSharding.parse('<@mesh, [{"x"}]>'))
    assert _text(func_result_sharding(main, 0)) == '<@mesh, [{"x"}]>'


def test_a_collective_keeps_its_result_sharding_in_out_sharding():
    module = parse_module(EVERY_KIND)
    gather = _ops(module)["sdy.all_gather"]
    set_sharding(gather.results[0], TensorSharding.parse('<@mesh, [{}, {"x"}]>'))
    assert _text(gather.attributes[OUT_SHARDING]) == '<@mesh, [{}, {"x"}]>'
    assert SHARDING not in gather.attributes


# -- where an earlier reader differed from Shardy ------------------------------------------------

IF = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<i1>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.if"(%arg0) ({
    stablehlo.return %arg1 : tensor<8x8xf32>
  }, {
    stablehlo.return %arg2 : tensor<8x8xf32>
  }) : (tensor<i1>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}"""  # noqa: E501

CONSTRAINED_RESHARD = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}"""

CONSTRAINED_COLLECTIVE = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}"""  # noqa: E501

CONSTRAINED_MANUAL_RESULT = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %3 = stablehlo.negate %arg1 : tensor<4x8xf32>
    sdy.return %3 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}"""  # noqa: E501

GROUPED_MANUAL_ARGUMENT = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<4x8xf32>
    sdy.sharding_group %arg1 group_id=0 : tensor<4x8xf32>
    sdy.sharding_group %1 group_id=0 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}"""  # noqa: E501

CONSTRAINT_CHAIN_ON_MANUAL_ARGUMENT = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {?}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"y"}]> : tensor<4x8xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"y"}]> : tensor<4x8xf32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x8xf32>
    sdy.return %3 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}"""  # noqa: E501

GROUPED_RESHARD = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg1 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}"""

DIFFERED = {
    "if": IF,
    "constrained_reshard": CONSTRAINED_RESHARD,
    "constrained_collective": CONSTRAINED_COLLECTIVE,
    "constrained_manual_result": CONSTRAINED_MANUAL_RESULT,
    "grouped_manual_argument": GROUPED_MANUAL_ARGUMENT,
    "constraint_chain_on_manual_argument": CONSTRAINT_CHAIN_ON_MANUAL_ARGUMENT,
    "grouped_reshard": GROUPED_RESHARD,
}
PASSES = (
    "sdy-add-data-flow-edges",
    "sdy-apply-sharding-constraints",
    "sdy-sharding-group-import",
    "sdy-aggressive-propagate",
    "sdy-propagation-pipeline",
)


def _run(text: str, name: str):
    return run_pipeline(parse_module(text), f"builtin.module({name})")


def test_if_is_no_data_flow_op_its_result_gets_no_sharding_from_its_branches():
    assert not has_trait("stablehlo.if", DATA_FLOW)
    assert all(has_trait(n, DATA_FLOW) for n in ("stablehlo.case", "stablehlo.while"))
    edges = _run(IF, "sdy-add-data-flow-edges")
    assert "sdy.data_flow_edge" not in {op.name for op in edges.walk()}
    propagated = _run(IF, "sdy-propagation-pipeline")
    ops = _ops(propagated)
    assert sharding_of(ops["stablehlo.if"].results[0]) is None
    assert sharding_of(propagated.functions[0].arguments[2]) is None


@pytest.mark.parametrize(
    "text", [CONSTRAINED_RESHARD, CONSTRAINED_COLLECTIVE, CONSTRAINED_MANUAL_RESULT]
)
def test_a_constraint_leaves_an_input_that_has_a_sharding_alone(text):
    """The input of the constraint (a reshard, a collective, a manual computation) has a
    sharding of its own: the constraint does not give it one."""
    after = _run(text, "sdy-apply-sharding-constraints")
    constraint = _ops(after)["sdy.sharding_constraint"]
    assert SHARDING not in constraint.operands[0].op.attributes
    assert "sdy.sharding_rule" not in constraint.attributes  # (it gave nothing away)


def test_propagation_does_not_write_over_a_collectives_out_sharding():
    after = _run(CONSTRAINED_COLLECTIVE, "sdy-aggressive-propagate")
    gather = _ops(after)["sdy.all_gather"]
    assert SHARDING not in gather.attributes
    assert _text(gather.attributes[OUT_SHARDING]) == "<@mesh, [{}, {}]>"


def test_a_grouped_manual_argument_is_seen_without_the_manual_axes():
    """The body sees `%arg1` as `[{"y"}, {}]`, which is what its group's other member has:
    the group agrees (no warning, no constraint)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", PropagationWarning)
        after = _run(GROUPED_MANUAL_ARGUMENT, "sdy-sharding-group-import")
    assert "sdy.sharding_constraint" not in {op.name for op in after.walk()}


def test_a_constraint_chain_on_a_manual_argument_keeps_the_arguments_other_uses():
    after = _run(CONSTRAINT_CHAIN_ON_MANUAL_ARGUMENT, "sdy-apply-sharding-constraints")
    add = _ops(after)["stablehlo.add"]
    assert add.operands[0].is_block_argument


def test_a_grouped_reshard_gives_the_group_its_sharding():
    after = _run(GROUPED_RESHARD, "sdy-aggressive-propagate")
    main = after.functions[0]
    assert _text(sharding_of(main.arguments[1])) == '<@mesh, [{"x"}, {}]>'
    assert _text(_ops(after)["sdy.reshard"].attributes["sharding"]) == '<@mesh, [{"x"}, {}]>'


UNREDUCED_INTO_MANUAL = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}], unreduced={"y"}>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %1 = sdy.all_reduce {"y"} %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<4x8xf32>
    sdy.return %2 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}"""  # noqa: E501


@pytest.mark.parametrize(
    ("text", "propagate"),
    [(UNREDUCED_INTO_MANUAL, False), (IF, True), (CONSTRAINED_MANUAL_RESULT, True)],
    ids=["unreduced_into_manual", "if", "constrained_manual_result"],
)
def test_partitioned_programs_compute_what_the_program_does(text, propagate):
    """The per-device program, run on the devices' buffers (`shardonnay.layout` splits the
    inputs and assembles the outputs), gives the unpartitioned program's outputs: a manual
    computation's body sees its unreduced free axes, an `if` result keeps no sharding."""
    result = shardonnay.check(parse_module(text), propagate=propagate)
    assert [o.mismatches for o in result.outputs] == [0]


@pytest.fixture(scope="module")
def shardy():
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    return run_pass_pipeline


@pytest.mark.oracle
@pytest.mark.parametrize("name", PASSES)
@pytest.mark.parametrize("program", DIFFERED)
def test_what_shardy_prints(shardy, program, name):
    text = DIFFERED[program]
    expected = str(parse_module(shardy(text, f"builtin.module({name})")))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PropagationWarning)
        assert str(_run(text, name)) == expected


# -- is_equivalent: one definition, as Shardy's `isEquivalent` --------------------------------

_EQUIVALENT_MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>'
_X = '<@mesh, [{"x"}]>'
_X_REPLICATED_Y = '<@mesh, [{"x"}], replicated={"y"}>'

# Shardings that differ only in their replicated axes, where each pass asks
# `is_equivalent` (a `func.call`'s result against its callee's; a returned
# value against the function's result): Shardy inserts no `sdy.reshard`.
EQUIVALENT_ASKED = {
    "call_result": (
        "sdy-insert-func-call-reshards",
        f"""module {{
  {_EQUIVALENT_MESH}
  func.func @main(%arg0: tensor<8xf32> {{sdy.sharding = #sdy.sharding{_X}}}) -> tensor<8xf32> {{
    %0 = call @f(%arg0) {{sdy.sharding = #sdy.sharding_per_value<[{_X_REPLICATED_Y}]>}}
        : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.negate %0 : tensor<8xf32>
    return %1 : tensor<8xf32>
  }}
  func.func private @f(%arg0: tensor<8xf32>)
      -> (tensor<8xf32> {{sdy.sharding = #sdy.sharding{_X}}}) {{
    return %arg0 : tensor<8xf32>
  }}
}}""",
    ),
    "returned_value": (
        "func.func(sdy-insert-explicit-reshards{enable-full-version=true})",
        f"""module {{
  {_EQUIVALENT_MESH}
  func.func @main(%arg0: tensor<8xf32> {{sdy.sharding = #sdy.sharding{_X}}})
      -> (tensor<8xf32> {{sdy.sharding = #sdy.sharding{_X}}},
          tensor<8xf32> {{sdy.sharding = #sdy.sharding{_X_REPLICATED_Y}}}) {{
    %0 = stablehlo.negate %arg0 {{sdy.sharding = #sdy.sharding_per_value<[{_X_REPLICATED_Y}]>}}
        : tensor<8xf32>
    %1 = stablehlo.negate %arg0 {{sdy.sharding = #sdy.sharding_per_value<[{_X}]>}}
        : tensor<8xf32>
    return %0, %1 : tensor<8xf32>, tensor<8xf32>
  }}
}}""",
    ),
}


def test_replicated_axes_do_not_count_for_equivalence():
    x, x_replicated_y = TensorSharding.parse(_X), TensorSharding.parse(_X_REPLICATED_Y)
    assert x != x_replicated_y
    assert is_equivalent(x, x_replicated_y) and is_equivalent(x_replicated_y, x)
    y = TensorSharding.parse('<@mesh, [{"y"}], replicated={"x"}>')
    assert not is_equivalent(x_replicated_y, y)


@pytest.mark.parametrize("name", sorted(EQUIVALENT_ASKED))
def test_passes_that_ask_equivalence_add_no_reshard_for_replicated_axes_as_shardy(name):
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    passes, text = EQUIVALENT_ASKED[name]
    theirs = run_pass_pipeline(text, f"builtin.module({passes})")
    ours = run_pipeline(parse_module(text), f"builtin.module({passes})").to_text()
    assert "sdy.reshard" not in theirs
    assert ours == theirs
