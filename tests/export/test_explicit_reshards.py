"""`insert_explicit_reshards` against Shardy's `sdy-insert-explicit-reshards` (MLIR inside jaxlib).

The pass alone is compared on the modules Shardy's own propagation produces
(so that differences in propagation do not show here): the full version
(`enable-full-version=true`) on the output of `sdy-propagation-pipeline`, the
limited one on the module as the pipeline hands it to the pass. The whole
printed module must be identical. Then the two together end to end:
`sdy-propagation-pipeline` followed by the full version, each side with its
own propagation. Known differences are strict xfails with their reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shardonnay.errors import ShardingError
from shardonnay.export.explicit_reshards import insert_explicit_reshards
from shardonnay.passes import run_pipeline
from shardonnay.syntax.mlir_reader import parse_module

CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))
FULL = "func.func(sdy-insert-explicit-reshards{enable-full-version=true})"
LIMITED = "func.func(sdy-insert-explicit-reshards{enable-full-version=false})"
END_TO_END = f"builtin.module(sdy-propagation-pipeline, {FULL})"

KNOWN_FULL: dict[int, str] = {}
KNOWN_END_TO_END: dict[int, str] = {}


def _param(case, known: dict) -> pytest.param:
    marks = [pytest.mark.xfail(strict=True, reason=known[case])] if case in known else []
    return pytest.param(case, marks=marks)


def _propagated(text: str, *, full: bool) -> str:
    """Shardy's module right before its explicit reshards: after the whole
    propagation pipeline (full version), or after its steps that precede the
    limited version."""
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    if full:
        return run_pass_pipeline(text, "builtin.module(sdy-propagation-pipeline)")
    return run_pass_pipeline(text, f"builtin.module({_steps_before_explicit_reshards()})")


def _steps_before_explicit_reshards() -> str:
    from jaxlib.mlir import passmanager

    from shardonnay.testing.mlir_oracle import context

    with context():
        steps = str(passmanager.PassManager.parse("builtin.module(sdy-propagation-pipeline)"))
    steps = steps[len("builtin.module(") : -1]
    steps = steps[: steps.index("func.func(sdy-insert-explicit-reshards")].rstrip(",")
    return steps.replace("sdy-save-module,", "").replace(",sdy-save-module", "")


def _check(text: str, *, full: bool) -> None:
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    module_text = _propagated(text, full=full)
    theirs = run_pass_pipeline(module_text, f"builtin.module({FULL if full else LIMITED})")
    ours = insert_explicit_reshards(parse_module(module_text), full_version=full)
    assert ours.to_text() == theirs


@pytest.mark.parametrize("full", [True, False], ids=["full", "limited"])
@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_matches_shardy(path: Path, full: bool) -> None:
    pytest.importorskip("jax")
    _check(path.read_text(), full=full)


@pytest.mark.parametrize("seed", [_param(s, KNOWN_FULL) for s in range(300)])
def test_full_version_on_random_programs_matches_shardy(seed: int) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.program_generator import random_program

    _check(random_program(seed), full=True)


@pytest.mark.parametrize("seed", range(200))
def test_limited_version_on_random_programs_matches_shardy(seed: int) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.program_generator import random_program

    _check(random_program(seed), full=False)


def _end_to_end(text: str) -> None:
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    ours = run_pipeline(parse_module(text), END_TO_END)
    assert ours.to_text() == run_pass_pipeline(text, END_TO_END)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_end_to_end_matches_shardy(path: Path) -> None:
    pytest.importorskip("jax")
    _end_to_end(path.read_text())


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("seed", [_param(s, KNOWN_END_TO_END) for s in range(100)])
def test_random_programs_end_to_end_match_shardy(seed: int) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.program_generator import random_program

    _end_to_end(random_program(seed))


# -- cases random programs do not reach ------------------------------------------------------

_MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>'
_T = "tensor<8x8xf32>"


def _per_value(body: str) -> str:
    return f"{{sdy.sharding = #sdy.sharding_per_value<[<@mesh, {body}>]>}}"


def _arg(body: str) -> str:
    return f"{{sdy.sharding = #sdy.sharding<@mesh, {body}>}}"


CASES = {
    # unreduced axes: all-reduced where a user does not keep them; a reshard
    # that adds some becomes replicated_to_unreduced / sharded_to_unreduced
    "unreduced_axes": f"""module {{
  {_MESH}
  func.func @main(%arg0: tensor<8x16xf32> {_arg('[{}, {"x", "y"}]')},
                  %arg1: tensor<16x8xf32> {_arg('[{"x", "y"}, {}]')},
                  %arg2: {_T} {_arg('[{"y"}, {"x"}]')})
      -> ({_T} {_arg('[{}, {}], unreduced={"x"}')}, {_T}, {_T}, {_T}) {{
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
        {_per_value('[{}, {}], unreduced={"x"}')} : (tensor<8x16xf32>, tensor<16x8xf32>) -> {_T}
    %1 = stablehlo.negate %0 {_per_value("[{}, {}]")} : {_T}
    %2 = sdy.reshard %1 <@mesh, [{{}}, {{}}], unreduced={{"y"}}> : {_T}
    %3 = sdy.reshard %arg2 <@mesh, [{{}}, {{}}], unreduced={{"x", "y"}}> : {_T}
    %4 = sdy.reshard %arg2 <@mesh, [{{"y"}}, {{}}], unreduced={{"x"}}> : {_T}
    %5 = stablehlo.add %4, %4 {_per_value('[{"y"}, {}]')} : {_T}
    return %0, %2, %3, %5 : {_T}, {_T}, {_T}, {_T}
  }}
}}""",
    # a manual computation's operands go to its in_shardings, its body's
    # results to its out_shardings without the manual axes
    "manual_computation": f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T}) -> {_T} {{
    %0 = stablehlo.negate %arg0 {_per_value('[{}, {"y"}]')} : {_T}
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{{"x"}}, {{}}]>]
        out_shardings=[<@mesh, [{{"x"}}, {{}}]>] manual_axes={{"x"}} (%a: tensor<4x8xf32>) {{
      %2 = stablehlo.negate %a {_per_value('[{}, {"y"}]')} : tensor<4x8xf32>
      sdy.return %2 : tensor<4x8xf32>
    }} : ({_T}) -> {_T}
    %3 = stablehlo.negate %1 {_per_value('[{"x"}, {}]')} : {_T}
    return %3 : {_T}
  }}
}}""",
    # a reshape whose shardings overflow a factor (6 = 2x3 sharded along "y"=3)
    "reshape_with_overflow_axes": """module {
  sdy.mesh @mesh = <["x"=2, "y"=3]>
  func.func @main(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>})
      -> (tensor<2x3xf32>, tensor<2x3xf32>) {
    %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
        : (tensor<6xf32>) -> tensor<2x3xf32>
    %1 = stablehlo.add %arg0, %arg0
        {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}]>]>} : tensor<6xf32>
    %2 = stablehlo.reshape %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
        : (tensor<6xf32>) -> tensor<2x3xf32>
    return %0, %2 : tensor<2x3xf32>, tensor<2x3xf32>
  }
}""",
    # a dot whose result dim is sharded along the contracting axes: the
    # limited version reshards the result
    "dot_result_sharded_like_contracting_dim": f"""module {{
  {_MESH}
  func.func @main(%arg0: tensor<4x32xf32> {_arg('[{}, {"x"}]')},
                  %arg1: tensor<32x8xf32> {_arg('[{"x"}, {"y"}]')}) -> tensor<4x8xf32> {{
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
        {_per_value('[{}, {"x"}]')} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }}
}}""",
    # meshes with the same axes in another device order: tensors on the less
    # used one are resharded onto the other
    "device_orders": """module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  sdy.mesh @other = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {}]>},
                  %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> tensor<8x8xf32> {
    %0 = stablehlo.add %arg0, %arg1
        {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}""",
}


@pytest.mark.parametrize("full", [True, False], ids=["full", "limited"])
@pytest.mark.parametrize("name", list(CASES))
def test_cases_match_shardy(name: str, full: bool) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    text = CASES[name]
    theirs = run_pass_pipeline(text, f"builtin.module({FULL if full else LIMITED})")
    ours = insert_explicit_reshards(parse_module(text), full_version=full)
    assert ours.to_text() == theirs


# -- properties that need no oracle ----------------------------------------------------------


def test_full_version_leaves_every_op_with_compatible_shardings() -> None:
    """After the full version, running it again changes nothing."""
    module = parse_module(CASES["manual_computation"])
    once = insert_explicit_reshards(module, full_version=True).to_text()
    again = insert_explicit_reshards(parse_module(once), full_version=True).to_text()
    assert again == once


def test_only_the_full_version_settles_a_transpose() -> None:
    """The operand of a transpose goes to the more sharded result's sharding
    (full version); the limited version leaves it alone."""
    text = f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_arg('[{"x"}, {}]')}) -> ({_T} {_arg('[{"y"}, {}]')}) {{
    %0 = stablehlo.transpose %arg0, dims = [1, 0] {_per_value('[{"y"}, {}]')} : ({_T}) -> {_T}
    return %0 : {_T}
  }}
}}"""
    module = parse_module(text)
    assert insert_explicit_reshards(module, full_version=False).to_text() == (
        parse_module(text).to_text()
    )
    body = parse_module(text)
    insert_explicit_reshards(body, full_version=True)
    names = [op.name for op in body.functions[0].body.ops]
    assert names == ["sdy.reshard", "stablehlo.transpose", "func.return"]
    assert str(body.functions[0].body.ops[0].attributes["sharding"]) == (
        '#sdy.sharding<@mesh, [{}, {"y"}]>'
    )


def test_operands_with_unreduced_axes_and_no_results_are_an_error() -> None:
    text = f"""module {{
  {_MESH}
  func.func @main(%arg0: {_T} {_arg('[{}, {}], unreduced={"x"}')}) -> {_T} {{
    "test.sink"(%arg0) : ({_T}) -> ()
    return %arg0 : {_T}
  }}
}}"""
    with pytest.raises(ShardingError, match="unreduced"):
        insert_explicit_reshards(parse_module(text), full_version=True)


def test_pass_is_registered_with_its_option() -> None:
    text = CASES["dot_result_sharded_like_contracting_dim"]

    def run(pipeline: str) -> str:
        return run_pipeline(parse_module(text), pipeline).to_text()

    limited = run(f"builtin.module({LIMITED})")
    assert limited == run("builtin.module(func.func(sdy-insert-explicit-reshards))")
    assert limited != run(f"builtin.module({FULL})")
    assert limited != parse_module(text).to_text()
