"""`propagation_pipeline` against Shardy's `sdy-propagation-pipeline` (MLIR inside jaxlib).

The whole printed module must be identical, on the corpus and on random
programs (`shardonnay.testing.program_generator`). Known differences are strict xfails
with their reason, so fixing a cause flags its cases.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from shardonnay.errors import UnsupportedOpError
from shardonnay.mesh import Mesh
from shardonnay.passes import run_pipeline
from shardonnay.pipeline import (
    apply_sharding_constraints,
    constant_or_scalar_splitter,
    evenly_sharded,
    propagation_pipeline,
    sharding_group_import,
)
from shardonnay.propagation.driver import propagate
from shardonnay.sharding import TensorSharding
from shardonnay.syntax.mlir_reader import parse_module

PIPELINE = "builtin.module(sdy-propagation-pipeline)"
CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))
SEEDS = range(200)

KNOWN_SEEDS: dict[int, str] = {}


def _param(case, known: dict) -> pytest.param:
    marks = [pytest.mark.xfail(strict=True, reason=known[case])] if case in known else []
    return pytest.param(case, marks=marks)


def _check(text: str) -> None:
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    ours = propagation_pipeline(parse_module(text)).to_text()
    assert ours == run_pass_pipeline(text, PIPELINE)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_matches_shardy(path: Path) -> None:
    pytest.importorskip("jax")
    _check(path.read_text())


@pytest.mark.parametrize("seed", [_param(s, KNOWN_SEEDS) for s in SEEDS])
def test_random_programs_match_shardy(seed: int) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.program_generator import random_program

    _check(random_program(seed))


# -- dead ops ------------------------------------------------------------------------------

# Dead ops (results all unused) go while propagating, when the rewrite driver
# pops them: an op that only dead ops use (this reduce and this pad) still
# propagates until they go, and erasing an op makes its operands' defining
# ops propagate again. Seed 768 draws dead ops whose timing decides the
# sharding of the first transpose.
DEAD_OPS_SEED = 768

# Seed 768's program without its dead reduce and pad: the dead subtract of
# %arg0 keeps the first transpose from propagating in op-priority stage 0
# (a second use of its operand) only until it goes.
SECOND_USE_DIES = """
sdy.mesh @mesh = <["z"=4, "x"=4, "y"=4, "w"=1]>
sdy.mesh @mesh_1 = <["z"=1]>
func.func @main(
    %arg0: tensor<5x1x6xf32>
        {sdy.sharding = #sdy.sharding<@mesh, [{"y"}p0, {"z":(2)2, "x":(2)2, ?}, {"x":(1)2}]>})
    -> (tensor<5x6x1xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {}, {?}]>}) {
  %0 = stablehlo.transpose %arg0, dims = [1, 0, 2] : (tensor<5x1x6xf32>) -> tensor<1x5x6xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0]
      : (tensor<1x5x6xf32>, tensor<f32>) -> tensor<5x6xf32>
  %2 = stablehlo.concatenate %1, %1, dim = 0
      : (tensor<5x6xf32>, tensor<5x6xf32>) -> tensor<10x6xf32>
  %3 = stablehlo.subtract %arg0, %arg0 : tensor<5x1x6xf32>
  %4 = stablehlo.concatenate %0, %0, dim = 0
      : (tensor<1x5x6xf32>, tensor<1x5x6xf32>) -> tensor<2x5x6xf32>
  %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %7:2 = stablehlo.while(%iterArg = %c, %iterArg_2 = %0) : tensor<i32>, tensor<1x5x6xf32>
  cond {
    %c_3 = stablehlo.constant dense<2> : tensor<i32>
    %12 = stablehlo.compare LT, %iterArg, %c_3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %12 : tensor<i1>
  } do {
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %12 = stablehlo.add %iterArg, %c_3 : tensor<i32>
    %13 = stablehlo.tanh %iterArg_2 : tensor<1x5x6xf32>
    stablehlo.return %12, %13 : tensor<i32>, tensor<1x5x6xf32>
  }
  %8 = sdy.sharding_constraint %7#1 <@mesh, [{?}, {"z"}p0, {"x"}]> : tensor<1x5x6xf32>
  %9 = stablehlo.transpose %8, dims = [2, 0, 1] : (tensor<1x5x6xf32>) -> tensor<6x1x5xf32>
  %10 = stablehlo.transpose %9, dims = [2, 0, 1] : (tensor<6x1x5xf32>) -> tensor<5x6x1xf32>
  %11 = sdy.sharding_constraint %10 <@mesh, [{"y", ?}, {"z", "x":(1)2, ?}, {"x":(2)2}]>
      : tensor<5x6x1xf32>
  return %11 : tensor<5x6x1xf32>
}
"""


def test_ops_go_when_dead_as_in_shardy() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.program_generator import random_program

    text = random_program(DEAD_OPS_SEED)
    assert "stablehlo.pad" in text  # the program still has its dead ops
    _check(text)
    _check(SECOND_USE_DIES)


@pytest.mark.parametrize(
    "strategy, pass_name",
    [
        ("aggressive", "sdy-aggressive-propagate"),
        ("op-priority", "sdy-op-priority-propagate"),
        ("user-priority", "sdy-user-priority-propagate{run-op-priority-propagation=true}"),
    ],
)
def test_a_use_that_dies_stops_blocking_stage_zero(strategy: str, pass_name: str) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    expected = run_pass_pipeline(
        SECOND_USE_DIES,
        f"builtin.module(sdy-add-data-flow-edges,{pass_name},func.func(sdy-sink-data-flow-edges))",
    )
    ours = propagate(parse_module(SECOND_USE_DIES), strategy=strategy)
    assert ours.to_text() == parse_module(expected).to_text()


# -- sharding groups ------------------------------------------------------------------------

# Random programs whose sharding groups share a value (merged on import) and
# whose members' initial shardings differ; the merged group once kept that
# value twice, which gave it two open sharding constraints.
MERGED_GROUP_SEEDS = (96, 497, 583, 616, 820, 1129, 1374, 1392, 1950)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("seed", MERGED_GROUP_SEEDS)
def test_merged_sharding_groups_with_conflicting_members_match_shardy(seed: int) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.program_generator import random_program

    text = random_program(seed)
    assert text.count("sdy.sharding_group") > len(set(_grouped_values(text)))
    _check(text)


def _grouped_values(text: str) -> list[str]:
    return [line.split()[1] for line in text.splitlines() if "sdy.sharding_group" in line]


_V = "tensor<4xf32>"
_GROUP_IMPORT_CASES = {
    # %arg0 joins groups 5 and 9; a repeated op of %arg1 goes
    "merge_and_dedup": [(2, 7), (0, 5), (1, 2), (0, 9), (1, 2), (2, 3)],
    # {5, 1} keeps the representative 5, met first
    "representative_of_the_first_group": [(0, 5), (1, 3), (2, 5), (2, 1)],
    # {1, 2} takes the representative 2 of %arg3's first group, met after 3
    "representative_met_late": [(0, 1), (1, 3), (2, 2), (3, 2), (3, 1)],
}


@pytest.mark.parametrize("name", list(_GROUP_IMPORT_CASES))
def test_sharding_group_import_matches_shardy(name: str) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    ops = "\n".join(
        f"    sdy.sharding_group %arg{arg} group_id={group} : {_V}"
        for arg, group in _GROUP_IMPORT_CASES[name]
    )
    args = ", ".join(f"%arg{i}: {_V}" for i in range(4))
    text = f"""module {{
  sdy.mesh @mesh = <["x"=2]>
  func.func @main({args}) -> {_V} {{
{ops}
    return %arg0 : {_V}
  }}
}}"""
    module = parse_module(text)
    sharding_group_import(module)
    assert module.to_text() == run_pass_pipeline(text, "builtin.module(sdy-sharding-group-import)")


_GROUPED_TWICE = """module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32>,
                  %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
      -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
        : tensor<8x8xf32>
    sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
    sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
    sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
    return %0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
  }
}
"""


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("pass_name", ["sdy-aggressive-propagate", "sdy-propagation-pipeline"])
def test_a_value_grouped_twice_matches_shardy(pass_name: str) -> None:
    """The propagation passes alone constrain such a value once per op (two
    constraints here); the pipeline's import keeps one op, so one constraint."""
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    pipeline = f"builtin.module({pass_name})"
    ours = run_pipeline(parse_module(_GROUPED_TWICE), pipeline).to_text()
    assert ours == run_pass_pipeline(_GROUPED_TWICE, pipeline)


_STEPS = """module {
  sdy.mesh @mesh = <["x"=2, "one"=1, "y"=4]>
  func.func @main(%arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "one"}, {?}]>},
                  %arg1: tensor<6x8xf32>) -> (tensor<6x8xf32>, tensor<6x8xf32>) {
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<6x8xf32>
    %0 = stablehlo.add %arg0, %b : tensor<6x8xf32>
    %1 = stablehlo.multiply %arg1, %b : tensor<6x8xf32>
    %2 = stablehlo.negate %1 : tensor<6x8xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"y"}]> : tensor<6x8xf32>
    return %0, %3 : tensor<6x8xf32>, tensor<6x8xf32>
  }
}
"""


def test_each_step_matches_shardy_on_a_small_module() -> None:
    pytest.importorskip("jax")
    _check(_STEPS)
    _check(_STEPS.replace('{"x", "one"}', '{"y", "x"}').replace("6x8", "4x6"))


_COLLECTIVE_WITH_OPEN_AND_SIZE_ONE_AXES = """module {
  sdy.mesh @mesh = <["x"=2, "one"=1, "y"=2]>
  func.func @main(
      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "one"}, {"y"}]>}
  ) -> tensor<8x8xf32> {
    %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x", "one", ?}, {?}]>
        : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}"""


@pytest.mark.parametrize("pass_name", ["sdy-close-shardings", "sdy-remove-size-one-axes"])
def test_passes_over_every_sharding_reach_a_collectives_out_sharding(pass_name: str) -> None:
    """Shardy's passes that rewrite every sharding of a module rewrite the
    out_sharding of a collective too (one walk over the shardings,
    `transform_shardings`, serves them and the mesh passes)."""
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    text = _COLLECTIVE_WITH_OPEN_AND_SIZE_ONE_AXES
    pipeline = f"builtin.module({pass_name})"
    theirs = run_pass_pipeline(text, pipeline)
    assert 'out_sharding=<@mesh, [{"x", "one", ?}, {?}]>' not in theirs
    assert run_pipeline(parse_module(text), pipeline).to_text() == theirs


def test_steps_split_constants_and_apply_constraints() -> None:
    module = parse_module(_STEPS)
    constant_or_scalar_splitter(module)
    names = [op.name for op in module.functions[0].body.ops]
    # one broadcast per user, the scalar constant shared
    assert names.count("stablehlo.broadcast_in_dim") == 2 and names[0] == "sdy.constant"
    apply_sharding_constraints(module)
    negate = next(op for op in module.walk() if op.name == "stablehlo.negate")
    assert str(negate.attributes["sdy.sharding"]) == (
        '#sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>'
    )


def test_evenly_sharded_keeps_the_dividing_prefix() -> None:
    mesh = Mesh({"x": 4, "y": 2})
    cases = {
        ("x",): ((8,), '[{"x"}]'),
        ("x", "y"): ((4,), '[{"x"}]'),
        ("y", "x"): ((4,), '[{"y", "x":(1)2}]'),
        ("y",): ((3,), "[{}]"),
    }
    for axes, (shape, expected) in cases.items():
        s = evenly_sharded(TensorSharding.from_axes("mesh", [axes]), shape, mesh)
        assert str(s) == f"#sdy.sharding<@mesh, {expected}>"


def test_pipeline_is_a_registered_pass_and_leaves_its_input_alone() -> None:
    module = parse_module(_STEPS)
    before = module.to_text()
    out = run_pipeline(module, PIPELINE)
    assert module.to_text() == before
    assert "sdy.reshard" in out.to_text() and "sdy.sharding_constraint" not in out.to_text()


# -- func.call: imported as named computations, exported back as calls -------------------

_MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>'
_T = "tensor<8x16xf32>"


def _sharded(axes: str) -> str:
    return f"{{sdy.sharding = #sdy.sharding<@mesh, [{axes}]>}}"


_NEGATE = f"""func.func private @f(%arg0: {_T}) -> {_T} {{
    %0 = stablehlo.negate %arg0 : {_T}
    return %0 : {_T}
  }}"""

CALL_CASES = {
    # one callee, three call sites sharded three ways: one function per sharding
    "callee_called_with_different_shardings": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}, %arg1: {_T} {_sharded('{}, {"y"}')},
                  %arg2: {_T}) -> ({_T}, {_T}, {_T}) {{
    %0 = call @f(%arg0) : ({_T}) -> {_T}
    %1 = call @f(%arg1) : ({_T}) -> {_T}
    %2 = call @f(%arg2) : ({_T}) -> {_T}
    return %0, %1, %2 : {_T}, {_T}, {_T}
  }}
  {_NEGATE}
}}""",
    # call sites that end up sharded alike share the first of their functions
    "call_sites_sharded_alike_share_a_callee": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}, %arg1: {_T} {_sharded('{"x"}, {}')},
                  %arg2: {_T}, %arg3: {_T}) -> ({_T}, {_T}, {_T}, {_T}) {{
    %0 = call @f(%arg2) : ({_T}) -> {_T}
    %1 = call @f(%arg0) : ({_T}) -> {_T}
    %2 = call @f(%arg1) : ({_T}) -> {_T}
    %3 = call @f(%arg3) : ({_T}) -> {_T}
    return %0, %1, %2, %3 : {_T}, {_T}, {_T}, {_T}
  }}
  {_NEGATE}
}}""",
    "nested_calls": f"""module {{
  {_MESH}
  func.func private @g(%arg0: {_T}) -> {_T} {{
    %0 = stablehlo.abs %arg0 : {_T}
    return %0 : {_T}
  }}
  func.func private @f(%arg0: {_T}, %arg1: {_T}) -> ({_T}, {_T}) {{
    %0 = call @g(%arg0) : ({_T}) -> {_T}
    %1 = call @g(%arg1) : ({_T}) -> {_T}
    %2 = stablehlo.add %0, %1 : {_T}
    return %2, %0 : {_T}, {_T}
  }}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}, %arg1: {_T} {_sharded('{}, {"y"}')})
      -> ({_T}, {_T}) {{
    %0:2 = call @f(%arg0, %arg1) : ({_T}, {_T}) -> ({_T}, {_T})
    %1:2 = call @f(%arg1, %arg1) : ({_T}, {_T}) -> ({_T}, {_T})
    %2 = call @g(%0#0) : ({_T}) -> {_T}
    return %2, %1#1 : {_T}, {_T}
  }}
}}""",
    "call_in_while_body": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}) -> {_T} {{
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %c5 = stablehlo.constant dense<5> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : {_T}, tensor<i32>
     cond {{
      %1 = stablehlo.compare LT, %iterArg_0, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }} do {{
      %1 = func.call @body(%iterArg) : ({_T}) -> {_T}
      %2 = stablehlo.add %iterArg_0, %c1 : tensor<i32>
      stablehlo.return %1, %2 : {_T}, tensor<i32>
    }}
    %3 = call @body(%0#0) : ({_T}) -> {_T}
    return %3 : {_T}
  }}
  func.func private @body(%arg0: {_T}) -> {_T} {{
    %0 = stablehlo.sine %arg0 : {_T}
    %1 = sdy.sharding_constraint %0 <@mesh, [{{?}}, {{"y", ?}}]> : {_T}
    return %1 : {_T}
  }}
}}""",
    "calls_without_shardings": f"""module {{
  func.func @main(%arg0: {_T}) -> ({_T}, {_T}) {{
    %0 = call @f(%arg0) : ({_T}) -> {_T}
    %1 = call @f(%0) : ({_T}) -> {_T}
    return %0, %1 : {_T}, {_T}
  }}
  {_NEGATE}
}}""",
    # the callee's result sharding goes to its calls; where the callee's body
    # ends up sharded further, the call result is resharded back
    "callee_result_shardings_reshard_call_results": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {"y"}')}, %arg1: {_T} {_sharded('{"x"}, {"y"}')})
      -> ({_T}, {_T}, {_T}) {{
    %0:2 = call @f(%arg0, %arg1) : ({_T}, {_T}) -> ({_T}, {_T})
    %1 = stablehlo.add %0#0, %0#1 : {_T}
    %2 = call @g(%arg0) : ({_T}) -> {_T}
    %3 = sdy.sharding_constraint %2 <@mesh, [{{}}, {{"y"}}]> : {_T}
    return %1, %0#1, %3 : {_T}, {_T}, {_T}
  }}
  func.func private @f(%arg0: {_T}, %arg1: {_T})
      -> ({_T} {_sharded('{"x"}, {}')}, {_T} {_sharded("{}, {}")}) {{
    %0 = stablehlo.negate %arg0 : {_T}
    %1 = stablehlo.negate %arg1 : {_T}
    return %0, %1 : {_T}, {_T}
  }}
  func.func private @g(%arg0: {_T}) -> ({_T} {_sharded('{"x"}, {}')}) {{
    %0 = stablehlo.abs %arg0 : {_T}
    return %0 : {_T}
  }}
}}""",
    # constraints on a callee's arguments and on call results stay apart
    # from the values they constrain (those are tied by data-flow edges)
    "constraints_on_call_arguments_and_results": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T}, %arg1: {_T}) -> ({_T}, {_T}, {_T}) {{
    %0:2 = call @f(%arg0, %arg1) : ({_T}, {_T}) -> ({_T}, {_T})
    %1 = stablehlo.abs %0#0 : {_T}
    %2 = stablehlo.abs %0#1 : {_T}
    %3 = sdy.sharding_constraint %0#0 <@mesh, [{{}}, {{"y"}}]> : {_T}
    %4 = sdy.sharding_constraint %0#1 <@mesh, [{{"x"}}, {{}}]> : {_T}
    %5 = stablehlo.add %1, %2 : {_T}
    %6 = stablehlo.add %3, %4 : {_T}
    return %5, %6, %0#0 : {_T}, {_T}, {_T}
  }}
  func.func private @f(%arg0: {_T}, %arg1: {_T}) -> ({_T}, {_T}) {{
    %0 = stablehlo.negate %arg0 : {_T}
    %1 = stablehlo.negate %arg1 : {_T}
    %2 = sdy.sharding_constraint %arg0 <@mesh, [{{"x"}}, {{}}]> : {_T}
    %3 = sdy.sharding_constraint %arg1 <@mesh, [{{"x"}}, {{}}]> : {_T}
    %4 = stablehlo.add %2, %3 : {_T}
    return %0, %4 : {_T}, {_T}
  }}
}}""",
    # exported functions are named `f`, `f_0`, ... past the names in use;
    # the uncalled public function moves before @main (callers first)
    "callee_names_avoid_existing_symbols": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}, %arg1: {_T} {_sharded('{}, {"y"}')})
      -> ({_T}, {_T}, {_T}) {{
    %0 = call @f(%arg0) : ({_T}) -> {_T}
    %1 = call @f(%arg1) : ({_T}) -> {_T}
    %2 = call @f_1(%arg1) : ({_T}) -> {_T}
    %3 = call @f(%2) : ({_T}) -> {_T}
    return %0, %1, %3 : {_T}, {_T}, {_T}
  }}
  func.func @f_0(%arg0: {_T}) -> {_T} {{
    return %arg0 : {_T}
  }}
  {_NEGATE}
  func.func private @f_1(%arg0: {_T}) -> {_T} {{
    %0 = stablehlo.abs %arg0 : {_T}
    %1 = sdy.sharding_constraint %0 <@mesh, [{{"x"}}, {{"y"}}]> : {_T}
    return %1 : {_T}
  }}
}}""",
    # a public callee becomes private; an unused private function goes; call
    # attributes stay; operands are resharded to the callee's argument sharding
    "public_callee_and_call_attributes": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}) -> {_T} {{
    %0 = call @f(%arg0) {{mhlo.frontend_attributes = {{a = "b"}}}} : ({_T}) -> {_T}
    %1 = call @unused_result(%0) : ({_T}) -> {_T}
    return %0 : {_T}
  }}
  func.func @f(%arg0: {_T} {_sharded('{}, {"y"}')}) -> {_T} {{
    %0 = stablehlo.negate %arg0 : {_T}
    return %0 : {_T}
  }}
  func.func private @unused_result(%arg0: {_T}) -> {_T} {{
    %0 = stablehlo.abs %arg0 : {_T}
    return %0 : {_T}
  }}
  func.func private @never_called(%arg0: {_T}) -> {_T} {{
    return %arg0 : {_T}
  }}
}}""",
    "call_in_manual_computation": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}) -> {_T} {{
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{{"x"}}, {{}}]>]
        out_shardings=[<@mesh, [{{"x"}}, {{}}]>] manual_axes={{"x"}}
        (%arg1: tensor<4x16xf32>) {{
      %1 = func.call @g(%arg1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %1 : tensor<4x16xf32>
    }} : ({_T}) -> {_T}
    %2 = call @f(%0) : ({_T}) -> {_T}
    return %2 : {_T}
  }}
  func.func private @g(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> {{
    %0 = stablehlo.negate %arg0 : tensor<4x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{{}}, {{"y"}}]> : tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }}
  {_NEGATE}
}}""",
    # results that are arguments, partly sharded signatures, a 1-d tensor
    "callee_returning_its_arguments": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}, %arg1: {_T}, %arg2: tensor<4xf32>)
      -> ({_T}, {_T}, {_T}, tensor<4xf32>) {{
    %0:4 = call @f(%arg0, %arg1, %arg2)
        : ({_T}, {_T}, tensor<4xf32>) -> ({_T}, {_T}, {_T}, tensor<4xf32>)
    return %0#0, %0#1, %0#2, %0#3 : {_T}, {_T}, {_T}, tensor<4xf32>
  }}
  func.func private @f(%arg0: {_T}, %arg1: {_T} {_sharded('{}, {"y"}')}, %arg2: tensor<4xf32>)
      -> ({_T}, {_T}, {_T}, tensor<4xf32>) {{
    %0 = stablehlo.add %arg0, %arg1 : {_T}
    %1 = stablehlo.negate %arg2 : tensor<4xf32>
    return %arg0, %0, %arg0, %1 : {_T}, {_T}, {_T}, tensor<4xf32>
  }}
}}""",
    # sharding groups and priorities inside a callee called twice
    "callee_with_sharding_group_and_priorities": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}, %arg1: {_T}) -> ({_T}, {_T}) {{
    %0 = call @f(%arg0) : ({_T}) -> {_T}
    %1 = call @f(%arg1) : ({_T}) -> {_T}
    return %0, %1 : {_T}, {_T}
  }}
  func.func private @f(%arg0: {_T} {_sharded('{?}, {"y"}p1')}) -> {_T} {{
    %0 = stablehlo.negate %arg0 : {_T}
    sdy.sharding_group %0 group_id=3 : {_T}
    %cst = stablehlo.constant dense<0.0> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1]
        : ({_T}, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<8xf32>) -> {_T}
    return %2 : {_T}
  }}
}}""",
    # the sharding of a callee's result that does not divide it is cut for
    # the function and its calls alike; the call operand is resharded
    "non_divisible_callee_shardings": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {"y"}')}) -> tensor<10x18xf32> {{
    %cst = stablehlo.constant dense<0.0> : tensor<f32>
    %0 = call @pad(%arg0, %cst) : ({_T}, tensor<f32>) -> tensor<10x18xf32>
    %1 = call @flip(%0) : (tensor<10x18xf32>) -> tensor<10x18xf32>
    return %1 : tensor<10x18xf32>
  }}
  func.func private @pad(%arg0: {_T}, %arg1: tensor<f32>) -> tensor<10x18xf32> {{
    %0 = stablehlo.pad %arg0, %arg1, low = [1, 1], high = [1, 1], interior = [0, 0]
        : ({_T}, tensor<f32>) -> tensor<10x18xf32>
    return %0 : tensor<10x18xf32>
  }}
  func.func private @flip(%arg0: tensor<10x18xf32>) -> tensor<10x18xf32> {{
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<10x18xf32>
    return %0 : tensor<10x18xf32>
  }}
}}""",
    # an unused declaration goes; the public functions come out in reverse
    # (Shardy orders functions callers first, and none calls another then)
    "declaration_and_several_public_functions": f"""module {{
  {_MESH}
  func.func private @ext({_T}) -> {_T}
  func.func @other(%arg0: {_T}) -> {_T} {{
    %0 = call @h(%arg0) : ({_T}) -> {_T}
    return %0 : {_T}
  }}
  func.func @main(%arg0: {_T} {_sharded('{"x"}, {}')}) -> {_T} {{
    %0 = call @h(%arg0) : ({_T}) -> {_T}
    return %0 : {_T}
  }}
  func.func @third(%arg0: {_T}) -> {_T} {{
    return %arg0 : {_T}
  }}
  func.func private @h(%arg0: {_T}) -> {_T} {{
    %0 = stablehlo.abs %arg0 : {_T}
    return %0 : {_T}
  }}
}}""",
}


@pytest.mark.parametrize("name", list(CALL_CASES))
def test_calls_match_shardy(name: str) -> None:
    pytest.importorskip("jax")
    _check(CALL_CASES[name])


@pytest.mark.parametrize("name", [n for n in CALL_CASES if "manual" not in n])
def test_calls_compute_what_the_program_computes(name: str) -> None:
    from shardonnay.runtime.interpreter import random_inputs, run

    module = parse_module(CALL_CASES[name])
    inputs = random_inputs(module)
    expected = run(module, *inputs)
    got = run(propagation_pipeline(module), *inputs)
    assert len(got) == len(expected)
    for ours, reference in zip(got, expected, strict=True):
        np.testing.assert_array_equal(ours, reference)


def test_a_call_of_a_declaration_is_unsupported() -> None:
    text = f"""module {{
  func.func private @ext({_T}) -> {_T}
  func.func @main(%arg0: {_T}) -> {_T} {{
    %0 = call @ext(%arg0) : ({_T}) -> {_T}
    return %0 : {_T}
  }}
}}"""
    with pytest.raises(UnsupportedOpError, match=r"func\.call @ext: the callee is a declaration"):
        propagation_pipeline(parse_module(text))


@pytest.mark.parametrize(
    "case", [*(p.stem for p in CORPUS), *range(60)], ids=str
)  # fmt: skip
def test_basic_strategy_matches_shardys_propagation_strategy_option(case) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import expanded_propagation_pipeline, run_pass_pipeline
    from shardonnay.testing.program_generator import random_program

    corpus = Path(__file__).parent.parent / "corpus" / f"{case}.mlir"
    text = corpus.read_text() if isinstance(case, str) else random_program(case)
    pipeline = expanded_propagation_pipeline(**{"propagation-strategy": "basic"})
    ours = propagation_pipeline(parse_module(text), strategy="basic").to_text()
    assert ours == run_pass_pipeline(text, pipeline)


def test_the_front_door_runs_the_pipeline_or_the_pass_alone() -> None:
    import shardonnay
    from shardonnay.propagation.driver import propagate as propagate_pass

    module = parse_module(_STEPS)
    before = module.to_text()
    assert shardonnay.propagate(module).to_text() == propagation_pipeline(module).to_text()
    for strategy in ("basic", "aggressive", "op-priority", "user-priority"):
        bare = shardonnay.propagate(module, strategy=strategy, pipeline=False)
        assert bare.to_text() == propagate_pass(module, strategy=strategy).to_text()
    explained = shardonnay.propagate(module, explain=True).to_text()
    assert "sdy.sharding_origins" in explained and "sdy.propagation_edges" in explained
    assert module.to_text() == before
    with pytest.raises(ValueError, match="pipeline=False"):
        shardonnay.propagate(module, strategy="op-priority")
    with pytest.raises(ValueError, match="unknown propagation strategy"):
        shardonnay.propagate(module, strategy="greedy")
