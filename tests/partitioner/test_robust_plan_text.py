"""A printed reshard plan is text Shardy accepts: each step is an sdy op with
Shardy's syntax and rule (a direct tile exchange prints as the `sdy.reshard`
it realizes, not as a `sdy.collective_permute` Shardy's verifier rejects)."""

from __future__ import annotations

import random
import re

import pytest

from shardonnay import Mesh, TensorSharding, reshard_plan
from shardonnay.collectives.data_movement import TileExchange
from shardonnay.ir.verifier import verify
from shardonnay.syntax.mlir_reader import parse_module

MESH = Mesh({"x": 2, "y": 3})
DIMS = ["{}", '{"x"}', '{"y"}', '{"x", "y"}', '{"y", "x"}']


def plan_module(src: str, dst: str, shape: tuple[int, ...], mesh: Mesh = MESH):
    """The module of `src -> dst`'s printed plan (its steps typed), and the plan."""
    plan = reshard_plan(
        TensorSharding.parse(f"<@mesh, {src}>"),
        TensorSharding.parse(f"<@mesh, {dst}>"),
        {"mesh": mesh},
        shape,
    )
    type = "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"
    lines = str(plan).splitlines()[1:-1]
    steps = [re.sub(r"\s*//.*$", "", line) + f" : {type}" for line in lines]
    last = f"%{len(steps) - 1}" if steps else "%arg0"
    text = (
        f"sdy.mesh @mesh = {mesh}\n"
        f"func.func @main(%arg0: {type} {{sdy.sharding = #sdy.sharding<@mesh, {src}>}}) "
        f"-> {type} {{\n" + "".join(f"{s}\n" for s in steps) + f"  return {last} : {type}\n}}\n"
    )
    return text, plan


def _valid(dims: str) -> bool:
    names = re.findall(r'"(\w)"', dims)
    return len(names) == len(set(names))


def _pairs(count: int) -> list[tuple[str, str]]:
    """`count` (source, target) pairs of rank-2 shardings on `MESH`, seeded."""
    rng = random.Random(0)
    pairs = {('[{"x"}, {"y"}]', '[{"y"}, {"x"}]')}
    while len(pairs) < count:
        src, dst = ("[" + ", ".join(rng.sample(DIMS, 2)) + "]" for _ in range(2))
        if _valid(src) and _valid(dst):
            pairs.add((src, dst))
    return sorted(pairs)


PAIRS = _pairs(30)


def test_the_transpose_plan_prints_a_reshard_step():
    text, plan = plan_module('[{"x"}, {"y"}]', '[{"y"}, {"x"}]', (6, 6))
    assert any(isinstance(c, TileExchange) for c in plan.collectives)
    assert '%0 = sdy.reshard %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<6x6xf32>' in text
    assert "collective_permute" not in text


@pytest.mark.parametrize(("src", "dst"), PAIRS)
def test_printed_plans_read_and_verify(src, dst):
    text, _ = plan_module(src, dst, (6, 6))
    verify(parse_module(text))


def test_printed_plans_are_accepted_by_shardy():
    pytest.importorskip("jax")
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir

    context = jax_mlir.make_ir_context()
    exchanges = 0
    for src, dst in PAIRS:
        text, plan = plan_module(src, dst, (6, 6))
        exchanges += any(isinstance(c, TileExchange) for c in plan.collectives)
        with context:
            module = ir.Module.parse(text)
            assert module.operation.verify(), text
    assert exchanges >= 3
