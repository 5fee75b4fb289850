"""Conservative propagation (`conservative-propagation=true`) against Shardy.

Conservative propagation never moves data between devices to follow a
sharding. Shardy (MLIR inside jaxlib) does it in two ways, and so must
shardonnay:

- the rules of `stablehlo.slice`, `pad`, `reduce_window` and
  `select_and_scatter` block their dims whose sizes differ between tensors,
  and those of `stablehlo.concatenate` (the concatenated dim) and
  `stablehlo.convolution` (the spatial dims) share no factor along them;
- propagating through an op never splits an axis into sub-axes; propagating
  between a function's results and the values it returns, or along a
  data-flow edge, may (Shardy leaves conservative propagation off there).

Checked on the corpus and on random programs (`shardonnay.testing.program_generator`):
the rules (`sdy-populate-op-sharding-rules{conservative-propagation=true}`),
the four propagation passes, the passes keeping their rules, and the whole
`sdy-propagation-pipeline`. Known differences are strict xfails with their
reason, so fixing a cause flags its cases.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shardonnay.ops.rules import populate_rules
from shardonnay.passes import run_pipeline
from shardonnay.propagation.driver import propagate
from shardonnay.syntax.mlir_reader import parse_module

CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))
SEEDS = range(100)
PASSES = (
    "sdy-basic-propagate",
    "sdy-aggressive-propagate",
    "sdy-op-priority-propagate",
    "sdy-user-priority-propagate",
)
CONSERVATIVE = "{conservative-propagation=true}"

KNOWN_PIPELINE: dict[int, str] = {}


def _param(case, known: dict, **kwargs) -> pytest.param:
    marks = [pytest.mark.xfail(strict=True, reason=known[case])] if case in known else []
    return pytest.param(case, marks=marks, **kwargs)


def _shardy(text: str, pipeline: str) -> str:
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    return run_pass_pipeline(text, pipeline)


def _conservative_pipeline() -> str:
    from shardonnay.testing.mlir_oracle import expanded_propagation_pipeline

    return expanded_propagation_pipeline(**{"conservative-propagation": "true"})


def _random(seed: int) -> str:
    """The seed's program, made a valid input for the propagation passes alone."""
    from shardonnay.testing.pass_programs import normalize
    from shardonnay.testing.program_generator import random_program

    return normalize(random_program(seed))


# -- rules -------------------------------------------------------------------------------

_RULE_CASES = """
func.func @concat(%arg0: tensor<4x3x256xf32>, %arg1: tensor<4x5x256xf32>) -> tensor<4x8x256xf32> {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 1
      : (tensor<4x3x256xf32>, tensor<4x5x256xf32>) -> tensor<4x8x256xf32>
  return %0 : tensor<4x8x256xf32>
}
func.func @conv(%arg0: tensor<2x224x224x192xf32>, %arg1: tensor<3x3x192x64xf32>)
    -> tensor<2x112x112x64xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1)
      dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [2, 2], pad = [[0, 1], [0, 1]]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<2x224x224x192xf32>, tensor<3x3x192x64xf32>) -> tensor<2x112x112x64xf32>
  return %0 : tensor<2x112x112x64xf32>
}
func.func @conv_1x1(%arg0: tensor<2x8x8x3xf32>, %arg1: tensor<1x1x3x1xf32>) -> tensor<2x8x8x1xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1)
      dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<2x8x8x3xf32>, tensor<1x1x3x1xf32>) -> tensor<2x8x8x1xf32>
  return %0 : tensor<2x8x8x1xf32>
}
func.func @pad(%arg0: tensor<28x28x16xf32>, %arg1: tensor<f32>) -> tensor<30x26x16xf32> {
  %0 = stablehlo.pad %arg0, %arg1, low = [1, -1, 0], high = [1, -1, 0], interior = [0, 0, 0]
      : (tensor<28x28x16xf32>, tensor<f32>) -> tensor<30x26x16xf32>
  return %0 : tensor<30x26x16xf32>
}
func.func @reduce_window(%arg0: tensor<48x48x3xf32>, %arg1: tensor<f32>) -> tensor<16x48x1xf32> {
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 3, 1, 3>, window_strides = array<i64: 3, 1, 3>,
      padding = dense<[[0, 0], [2, -2], [0, 0]]> : tensor<3x2xi64>}
      : (tensor<48x48x3xf32>, tensor<f32>) -> tensor<16x48x1xf32>
  return %0 : tensor<16x48x1xf32>
}
func.func @select_and_scatter(%arg0: tensor<10x24x24x64xf32>, %arg1: tensor<10x12x12x64xf32>,
                              %arg2: tensor<f32>) -> tensor<10x24x24x64xf32> {
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}
      : (tensor<10x24x24x64xf32>, tensor<10x12x12x64xf32>, tensor<f32>) -> tensor<10x24x24x64xf32>
  return %0 : tensor<10x24x24x64xf32>
}
func.func @slice(%arg0: tensor<32x4x8xf32>) -> tensor<32x1x2xf32> {
  %0 = stablehlo.slice %arg0 [0:32, 1:2, 4:8:2] : (tensor<32x4x8xf32>) -> tensor<32x1x2xf32>
  return %0 : tensor<32x1x2xf32>
}
func.func @unchanged(%arg0: tensor<32x4xf32>, %arg1: tensor<4x8xf32>, %i: tensor<i32>)
    -> tensor<32x2xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
      : (tensor<32x4xf32>, tensor<4x8xf32>) -> tensor<32x8xf32>
  %1 = stablehlo.dynamic_slice %0, %i, %i, sizes = [32, 2]
      : (tensor<32x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x2xf32>
  return %1 : tensor<32x2xf32>
}
"""


def _rules(module) -> list[tuple[str, str | None]]:
    """The name and `sdy.sharding_rule` of every op of a function's body, in
    program order (the ops nested in other ops' regions are left out: which of
    them get rules is not a matter of conservative propagation)."""
    return [
        (op.name, str(op.attributes.get("sdy.sharding_rule")))
        for func in module.functions
        for op in func.body.ops
    ]


def _shardy_rules(text: str, conservative: bool = True) -> list[tuple[str, str | None]]:
    options = CONSERVATIVE if conservative else ""
    pipeline = f"builtin.module(func.func(sdy-populate-op-sharding-rules{options}))"
    return _rules(parse_module(_shardy(text, pipeline)))


def test_conservative_rules_match_shardy() -> None:
    pytest.importorskip("jax")
    expected = _shardy_rules(_RULE_CASES)
    assert _rules(populate_rules(parse_module(_RULE_CASES), conservative=True)) == expected
    # The regular rules of the same ops differ: conservative propagation changes them.
    regular = _rules(populate_rules(parse_module(_RULE_CASES)))
    assert regular == _shardy_rules(_RULE_CASES, conservative=False)
    assert regular != expected


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_conservative_rules_of_the_corpus_match_shardy(path: Path) -> None:
    pytest.importorskip("jax")
    text = path.read_text()
    ours = populate_rules(parse_module(text), conservative=True)
    assert _rules(ours) == _shardy_rules(text)


# -- the propagation passes ----------------------------------------------------------------


def _check_pass(text: str, pass_name: str) -> None:
    pipeline = f"builtin.module({pass_name}{CONSERVATIVE})"
    assert run_pipeline(parse_module(text), pipeline).to_text() == _shardy(text, pipeline)


@pytest.mark.parametrize("pass_name", PASSES)
@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_passes_on_the_corpus_match_shardy(path: Path, pass_name: str) -> None:
    pytest.importorskip("jax")
    _check_pass(path.read_text(), pass_name)


@pytest.mark.parametrize("pass_name", PASSES)
@pytest.mark.parametrize("seed", SEEDS)
def test_passes_on_random_programs_match_shardy(seed: int, pass_name: str) -> None:
    pytest.importorskip("jax")
    _check_pass(_random(seed), pass_name)


@pytest.mark.parametrize("seed", range(40))
def test_kept_rules_are_the_conservative_ones(seed: int) -> None:
    """With `keep-sharding-rules=true`, every op keeps the (conservative) rule it
    was propagated with."""
    pytest.importorskip("jax")
    text = _random(seed)
    expected = _shardy(
        text,
        "builtin.module(sdy-aggressive-propagate{keep-sharding-rules=true "
        "conservative-propagation=true})",
    )
    ours = propagate(
        parse_module(text),
        strategy="aggressive",
        conservative=True,
        data_flow_edges=False,
        keep_sharding_rules=True,
    )
    assert ours.to_text() == expected


# -- minimized: where conservative propagation differs from the regular one -------------------

_SLICE = """module {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
      -> tensor<8x8xf32> {
    %0 = stablehlo.slice %arg0 [0:8, 0:16:2] : (tensor<8x16xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.negate %0 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
"""

# The returned value gets the sub-axis "x":(1)2 of the function's result (propagation
# between a function's results and its returned values is never conservative), the
# operand of the op returning it does not.
_RESULT_SUB_AXIS = """module {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32>)
      -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}]>}) {
    %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
    %1 = stablehlo.abs %0 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
"""

# A reshape that would split "x" (size 4) between dims of sizes 2 and 8.
_RESHAPE_SPLIT = """module {
  sdy.mesh @mesh = <["x"=4]>
  func.func @main(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
      -> tensor<2x8xf32> {
    %0 = stablehlo.reshape %arg0 : (tensor<16xf32>) -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}
"""


@pytest.mark.parametrize(
    "text", [_SLICE, _RESULT_SUB_AXIS, _RESHAPE_SPLIT], ids=["slice", "result", "reshape"]
)
def test_minimized_cases_match_shardy_and_differ_from_regular_propagation(text: str) -> None:
    pytest.importorskip("jax")
    _check_pass(text, "sdy-aggressive-propagate")
    regular = run_pipeline(parse_module(text), "builtin.module(sdy-aggressive-propagate)")
    conservative = propagate(parse_module(text), conservative=True, data_flow_edges=False)
    assert regular.to_text() != conservative.to_text()


# -- the pipeline ----------------------------------------------------------------------------


def _check_pipeline(text: str) -> None:
    pipeline = f"builtin.module(sdy-propagation-pipeline{CONSERVATIVE})"
    ours = run_pipeline(parse_module(text), pipeline).to_text()
    assert ours == _shardy(text, _conservative_pipeline())


@pytest.mark.parametrize(
    "path", [_param(p.stem, KNOWN_PIPELINE) for p in CORPUS], ids=[p.stem for p in CORPUS]
)
def test_pipeline_on_the_corpus_matches_shardy(path: str) -> None:
    pytest.importorskip("jax")
    _check_pipeline((Path(__file__).parent.parent / "corpus" / f"{path}.mlir").read_text())


@pytest.mark.parametrize("seed", [_param(s, KNOWN_PIPELINE) for s in SEEDS])
def test_pipeline_on_random_programs_matches_shardy(seed: int) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.program_generator import random_program

    _check_pipeline(random_program(seed))
