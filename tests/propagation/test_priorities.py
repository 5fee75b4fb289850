"""Op-priority and user-priority propagation against Shardy's passes of the same
names (`sdy-op-priority-propagate`, `sdy-user-priority-propagate`), comparing
the whole printed module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shardonnay import parse_module
from shardonnay.passes import run_pipeline
from shardonnay.propagation.driver import propagate

pytest.importorskip("jax")

from shardonnay.testing.mlir_oracle import run_pass_pipeline
from shardonnay.testing.program_generator import random_program

PASSES = ("sdy-op-priority-propagate", "sdy-user-priority-propagate")
MESH = 'sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]>'


def _s(spec: str) -> str:
    return "{sdy.sharding = #sdy.sharding<@mesh, " + spec + ">}"


_PROGRAMS = {
    # p1 loses to the unprioritized (p0) "b" on the same dim of another operand.
    "p1_after_default": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a"}p1, {?}]>$,
                %arg1: tensor<8x16xf32> $S<[{"b"}, {?}]>$) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}""",
    # p0 beats an open p2 dim; the p2 dim then fills what is left.
    "p0_then_p2": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a", ?}p2, {"b", ?}p2]>$,
                %arg1: tensor<8x16xf32> $S<[{?}, {"a", ?}p0]>$) -> tensor<8x16xf32> {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x16xf32>
  %1 = stablehlo.tanh %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}""",
    # Priorities on a constraint and on a function result.
    "constraint_priorities": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"c", ?}, {?}]>$)
    -> (tensor<8x16xf32> $S<[{?}, {"b", ?}p1]>$) {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}p1, {"c", ?}p0]> : tensor<8x16xf32>
  %2 = stablehlo.negate %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}""",
    # Op priorities: the elementwise chain is sharded before the dot and the
    # broadcast can push its sharding back.
    "op_stages": """$MESH
func.func @main(%arg0: tensor<8x32xf32> $S<[{"a", ?}, {"b", ?}]>$,
                %arg1: tensor<32x16xf32> $S<[{"c", ?}, {?}]>$,
                %arg2: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] :
      (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
  %3 = stablehlo.tanh %2 : tensor<8x16xf32>
  %4 = sdy.sharding_constraint %3 <@mesh, [{?}, {"b", ?}]> : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}""",
    # A value used twice is left for the second stage (after single uses).
    "multi_use_operand": """$MESH
func.func @main(%arg0: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"b", "a"}, {}]> : tensor<16x4xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<16x4xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"b":(2)2}]> : tensor<16x4xf32>
  return %2 : tensor<16x4xf32>
}""",
}


def _expand(text: str) -> str:
    text = text.replace("$MESH", MESH)
    return re.sub(r"\$S<(.*?)>\$", lambda m: _s(m.group(1)), text)


PROGRAMS = {name: _expand(text) for name, text in _PROGRAMS.items()}


@pytest.mark.parametrize("pass_name", PASSES)
@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_what_shardy_prints(name: str, pass_name: str) -> None:
    text = PROGRAMS[name]
    pipeline = f"builtin.module({pass_name})"
    assert run_pipeline(parse_module(text), pipeline).to_text() == run_pass_pipeline(text, pipeline)


def test_user_priorities_change_the_outcome() -> None:
    """Without priorities the conflict leaves the add unsharded on dim 0."""
    text = PROGRAMS["p1_after_default"]
    plain = propagate(parse_module(text), strategy="aggressive", data_flow_edges=False)
    ranked = propagate(parse_module(text), strategy="user-priority", data_flow_edges=False)
    assert "p1" in plain.to_text() and "p1" not in ranked.to_text()
    assert '{"b", ?}' in str(ranked.functions[0].body.ops[0].attributes["sdy.sharding"])


SEEDS = range(200)


def _shardy_can_run(text: str) -> bool:
    """Shardy aborts the process on a value in two sharding groups."""
    members = re.findall(r"sdy.sharding_group (%[\w#]+)", text)
    return len(members) == len(set(members))


def test_random_programs_match_shardy() -> None:
    """Every pass on 200 random programs; the priority passes must match
    wherever aggressive propagation (which they are built on) does."""
    mismatches: dict[str, set[int]] = {}
    compared = 0
    for seed in SEEDS:
        text = random_program(seed)
        if not _shardy_can_run(text):
            continue
        compared += 1
        for pass_name in ("sdy-aggressive-propagate", *PASSES):
            pipeline = f"builtin.module({pass_name})"
            ours = run_pipeline(parse_module(text), pipeline).to_text()
            if ours != run_pass_pipeline(text, pipeline):
                mismatches.setdefault(pass_name, set()).add(seed)
    assert compared >= 190
    aggressive = mismatches.get("sdy-aggressive-propagate", set())
    for pass_name in PASSES:
        extra = mismatches.get(pass_name, set()) - aggressive
        assert not extra, f"{pass_name} differs from Shardy on seeds {sorted(extra)}"
        assert len(mismatches.get(pass_name, set())) <= compared // 5


CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))


@pytest.mark.parametrize("pass_name", PASSES)
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_prints_what_shardy_prints(path: Path, pass_name: str) -> None:
    pipeline = f"builtin.module({pass_name})"
    text = path.read_text()
    assert run_pipeline(parse_module(text), pipeline).to_text() == run_pass_pipeline(text, pipeline)


@pytest.mark.parametrize("path", CORPUS[-6:], ids=lambda p: p.stem)
def test_corpus_with_data_flow_edges(path: Path) -> None:
    pipeline = (
        "builtin.module(sdy-add-data-flow-edges,sdy-user-priority-propagate,"
        "func.func(sdy-sink-data-flow-edges))"
    )
    text = path.read_text()
    ours = propagate(parse_module(text), strategy="user-priority").to_text()
    assert ours == run_pass_pipeline(text, pipeline)
