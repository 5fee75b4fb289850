"""`reshard_to_collectives` against Shardy's `sdy-reshard-to-collectives` (MLIR inside jaxlib).

Inputs: the reshards Shardy's own partitioner leaves (after
`sdy-propagation-pipeline` and the full `sdy-insert-explicit-reshards`) in the
corpus and in random programs, and random single reshards between random
shardings (sub-axes, several dims, meshes with another device order). The
whole printed module must be identical.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shardonnay.export.reshard_to_collectives import reshard_to_collectives
from shardonnay.passes import run_pipeline
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.sharding_pairs import random_reshard

CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))
PARTITION = (
    "builtin.module(sdy-propagation-pipeline, "
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}))"
)
LOWER = "builtin.module(func.func(sdy-reshard-to-collectives))"


def _check(module_text: str) -> None:
    """Our lowering prints as Shardy's; where Shardy's verifier rejects the
    collectives it made, ours are rejected as well."""
    from jaxlib.mlir.ir import MLIRError

    from shardonnay.testing.mlir_oracle import jaxlib_accepts, run_pass_pipeline

    ours = reshard_to_collectives(parse_module(module_text)).to_text()
    try:
        theirs = run_pass_pipeline(module_text, LOWER)
    except MLIRError:
        assert not jaxlib_accepts(ours)
        return
    assert ours == theirs


def _partitioned(text: str) -> str:
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    return run_pass_pipeline(text, PARTITION)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_matches_shardy(path: Path) -> None:
    pytest.importorskip("jax")
    _check(_partitioned(path.read_text()))


@pytest.mark.parametrize("seed", range(200))
def test_random_programs_match_shardy(seed: int) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.program_generator import random_program

    _check(_partitioned(random_program(seed)))


# -- random reshards -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(300))
def test_random_reshards_match_shardy(seed: int) -> None:
    pytest.importorskip("jax")
    _check(random_reshard(seed, powers_of_two=True))


@pytest.mark.parametrize("seed", range(300))
def test_random_reshards_with_other_axis_sizes_match_shardy(seed: int) -> None:
    """Axes of size 3 among others: Shardy may give up before reaching the
    target (its result is then printed as it is) or make collectives its
    verifier rejects."""
    pytest.importorskip("jax")
    _check(random_reshard(seed, powers_of_two=False))


# -- properties that need no oracle ----------------------------------------------------------


@pytest.mark.parametrize("seed", range(0, 600, 7))
def test_on_powers_of_two_the_chain_ends_at_the_target(seed: int) -> None:
    module = parse_module(random_reshard(seed, powers_of_two=True))
    reshard = next(op for op in module.walk() if op.name == "sdy.reshard")
    target = reshard.attributes["sharding"]
    source = module.functions[0].arg_attrs(0)["sdy.sharding"]
    ret = reshard_to_collectives(module).functions[0].return_op
    last = ret.operands[0].op
    if last is None:  # no collective: the argument was sharded so already
        assert source.mesh == target.mesh
        assert [d.axes for d in source.dims] == [d.axes for d in target.dims]
    else:
        assert last.name.startswith("sdy.") and last.attributes["out_sharding"] == target


def test_first_example_of_the_module_docstring() -> None:
    text = """module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> tensor<8x8xf32> {
    %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}"""
    ops = reshard_to_collectives(parse_module(text)).functions[0].body.ops
    assert [op.name for op in ops] == ["sdy.all_slice", "sdy.collective_permute", "func.return"]
    assert str(ops[1].attributes["out_sharding"]) == '#sdy.sharding<@mesh, [{"y"}, {"x"}]>'


def test_reshards_that_stay_or_go() -> None:
    text = """module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  sdy.mesh @other = <["z"=4]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>},
                  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{"z"}]>})
      -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
    %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
    %1 = sdy.reshard %arg1 <@mesh, [{"x"}]> : tensor<8xf32>
    %2 = sdy.reshard %arg1 <@mesh, [{}]> : tensor<8xf32>
    return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }
}"""
    func = reshard_to_collectives(parse_module(text)).functions[0]
    # replicated to replicated goes; onto a mesh with other axes stays; to
    # replicated from a sharding on another mesh gathers on that mesh
    assert [op.name for op in func.body.ops] == ["sdy.reshard", "sdy.all_gather", "func.return"]
    assert func.return_op.operands[0] is func.arguments[0]
    assert str(func.body.ops[1].attributes["out_sharding"]) == "#sdy.sharding<@other, [{}]>"


def test_pass_is_registered() -> None:
    text = random_reshard(3, powers_of_two=True)
    assert (
        run_pipeline(parse_module(text), LOWER).to_text()
        == reshard_to_collectives(parse_module(text)).to_text()
    )


# -- keep-redundant-reshards=true ------------------------------------------------------------

KEEP = "builtin.module(func.func(sdy-reshard-to-collectives{keep-redundant-reshards=true}))"
# Inputs with and without explicit reshards: Shardy's partitioner steps, and
# propagation with the sharding constraints made reshards (redundant ones among them).
KEEP_INPUTS = (
    PARTITION,
    "builtin.module(sdy-propagation-pipeline,func.func(sdy-sharding-constraint-to-reshard))",
)


@pytest.mark.parametrize("seed", range(500))
def test_keeping_redundant_reshards_matches_shardy(seed: int) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline
    from shardonnay.testing.pass_programs import program

    text = program(seed, "plain")
    for before in KEEP_INPUTS:
        module_text = run_pass_pipeline(text, before)
        ours = run_pipeline(parse_module(module_text), KEEP).to_text()
        assert ours == run_pass_pipeline(module_text, KEEP)


REDUNDANT = """module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>})
      -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %1 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
    %2 = sdy.reshard %0 <@mesh, [{"x", ?}, {}], replicated={"y"}> : tensor<8x8xf32>
    return %0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
  }
}"""


def test_redundant_reshards_stay_only_when_kept() -> None:
    text = REDUNDANT
    kept = run_pipeline(parse_module(text), KEEP).functions[0].body.ops
    # equivalent to the input's sharding (open dims and replicated axes do not count): kept
    assert [op.name for op in kept] == [
        "sdy.reshard",
        "sdy.all_slice",
        "sdy.reshard",
        "func.return",
    ]
    lowered = reshard_to_collectives(parse_module(text)).functions[0].body.ops
    assert [op.name for op in lowered] == ["sdy.all_slice", "func.return"]


def test_redundant_reshards_by_hand_match_shardy() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    text = parse_module(REDUNDANT).to_text()
    assert run_pipeline(parse_module(text), KEEP).to_text() == run_pass_pipeline(text, KEEP)
