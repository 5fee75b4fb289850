"""The random program generator: valid for MLIR and Shardy, runnable, varied, fast.

Every program must be accepted by MLIR's verifier (and printed by our writer
exactly as MLIR prints it), must go through Shardy's propagation pipeline, and
must run in our interpreter; across seeds, every op kind and annotation kind
the generator promises must show up.
"""

from __future__ import annotations

import math
import re
import textwrap

import numpy as np
import pytest

from shardonnay import Module, TensorSharding, run
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing import program_generator
from shardonnay.testing.program_generator import (
    random_program,
    random_program_generic,
    random_program_with_inputs,
)

ORACLE_SEEDS = range(300)
RUN_SEEDS = range(120)


def _chunks(seeds: range, size: int) -> list[range]:
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


def test_deterministic_per_seed() -> None:
    for seed in range(20):
        assert random_program(seed) == random_program(seed)
        text, inputs = random_program_with_inputs(seed)
        again, inputs_again = random_program_with_inputs(seed)
        assert text == again == random_program(seed)
        assert all(np.array_equal(a, b) for a, b in zip(inputs, inputs_again, strict=True))
    assert len({random_program(seed) for seed in range(50)}) == 50


def test_max_ops_bounds_the_program() -> None:
    for max_ops in (1, 5):
        for seed in range(50):
            main = parse_module(random_program(seed, max_ops=max_ops)).function("main")
            count = sum(
                op.name.startswith("stablehlo.") and op.name != "stablehlo.constant"
                for op in main.body.ops
            )
            assert 1 <= count <= max_ops, f"seed {seed}"


def test_docstring_example_is_real_output() -> None:
    example = random_program(246, max_ops=4)
    assert textwrap.indent(example, "    ") in program_generator.__doc__


@pytest.mark.parametrize("seeds", _chunks(ORACLE_SEEDS, 50), ids=lambda r: f"{r[0]}-{r[-1]}")
def test_mlir_and_shardy_accept(seeds: range) -> None:
    """MLIR verifies each program and prints it as we do; Shardy propagates it."""
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_asm, run_pass_pipeline

    for seed in seeds:
        text = random_program(seed)
        assert jaxlib_asm(random_program_generic(seed)) == text, f"seed {seed}"
        assert parse_module(text).to_text() == text, f"seed {seed}"
        propagated = run_pass_pipeline(text, "builtin.module(sdy-propagation-pipeline)")
        assert "sdy.mesh @mesh" in propagated, f"seed {seed}"


@pytest.mark.parametrize("seeds", _chunks(RUN_SEEDS, 40), ids=lambda r: f"{r[0]}-{r[-1]}")
def test_interpreter_runs(seeds: range) -> None:
    for seed in seeds:
        text, inputs = random_program_with_inputs(seed)
        module = parse_module(text)
        main = module.function("main")
        assert [x.shape for x in inputs] == [t.shape for t in main.type.inputs]
        assert all(x.dtype == np.float32 for x in inputs)
        outputs = run(module, *inputs)
        assert [o.shape for o in outputs] == [t.shape for t in main.type.results], f"seed {seed}"
        assert all(np.isfinite(o).all() for o in outputs), f"seed {seed}"


def _meshes(module: Module) -> dict[str, Mesh]:
    return {
        op.attributes["sym_name"]: op.attributes["mesh"]
        for op in module.ops
        if op.name == "sdy.mesh"
    }


def _annotations(module: Module) -> list[tuple[TensorSharding, tuple[int, ...]]]:
    """Every sharding in `main` with the shape of the value it annotates."""
    main = module.function("main")
    found = []
    for values, attrs in (
        (main.type.inputs, main.arg_attrs),
        (main.type.results, main.result_attrs),
    ):
        for i, t in enumerate(values):
            if "sdy.sharding" in attrs(i):
                found.append((attrs(i)["sdy.sharding"], t.shape))
    for op in main.walk():
        if op.name == "sdy.sharding_constraint":
            t = op.results[0].type
            assert isinstance(t, TensorType)
            found.append((op.attributes["sharding"], t.shape))
    return found


def test_annotations_are_valid_and_varied() -> None:
    """Our own verifier accepts every sharding; all promised features occur."""
    seen: dict[str, int] = dict.fromkeys(
        [
            "open dim",
            "priority",
            "replicated",
            "sub-axis",
            "uneven",
            "size-1 axis",
            "two meshes",
            "sharding_group",
            "sharding_constraint",
            "result sharding",
        ],
        0,
    )
    op_kinds = [
        "add",
        "multiply",
        "maximum",
        "tanh",
        "negate",
        "dot_general",
        "reshape",
        "transpose",
        "broadcast_in_dim",
        "reduce",
        "concatenate",
        "slice",
        "pad",
        "while",
    ]
    ops_seen = dict.fromkeys(op_kinds, 0)
    batched_dots = 0
    for seed in ORACLE_SEEDS:
        text = random_program(seed)
        module = parse_module(text)
        meshes = _meshes(module)
        assert 1 <= len(meshes) <= 2
        for mesh in meshes.values():
            assert 1 <= len(mesh.axes) <= 4
            assert all(1 <= size <= 4 for _, size in mesh.axes)
        seen["two meshes"] += len(meshes) == 2
        seen["size-1 axis"] += any(s == 1 for m in meshes.values() for _, s in m.axes)
        for sharding, shape in _annotations(module):
            mesh = meshes[sharding.mesh_name]
            sharding.validate(mesh, shape)
            seen["open dim"] += any(not d.is_closed for d in sharding.dims)
            seen["priority"] += any(d.priority is not None for d in sharding.dims)
            seen["replicated"] += bool(sharding.replicated)
            seen["sub-axis"] += any(a.is_sub_axis for a in sharding.all_axes())
            seen["uneven"] += not sharding.is_divisible(mesh, shape)
        main = module.function("main")
        seen["result sharding"] += any(
            "sdy.sharding" in main.result_attrs(i) for i in range(len(main.type.results))
        )
        names = [op.name for op in main.walk()]
        seen["sharding_group"] += "sdy.sharding_group" in names
        seen["sharding_constraint"] += "sdy.sharding_constraint" in names
        for kind in op_kinds:
            ops_seen[kind] += f"stablehlo.{kind}" in names
        batched_dots += "batching_dims" in text
        for op in main.walk():
            if op.name == "sdy.sharding_group":
                group = [
                    g.operands[0].type
                    for g in main.walk()
                    if g.name == "sdy.sharding_group"
                    and g.attributes["group_id"] == op.attributes["group_id"]
                ]
                assert len(group) == 2 and group[0] == group[1]
            for r in op.results:
                if isinstance(r.type, TensorType) and r.type.element_type == "f32":
                    assert math.prod(r.type.shape) <= program_generator.MAX_ELEMENTS
    missing = [k for k, n in {**seen, **ops_seen}.items() if n < 10]
    assert not missing, f"rarely or never generated: {missing} ({seen}, {ops_seen})"
    assert batched_dots >= 10


def test_reshapes_split_dims_that_need_sub_axes() -> None:
    """Some reshape splits a dim of 16 or 8 into two factors (e.g. 16 -> 4x4, 2x8)."""
    pattern = re.compile(
        r"stablehlo\.reshape .*: \(tensor<([0-9x]+)xf32>\) -> tensor<([0-9x]+)xf32>"
    )
    splits = 0
    for seed in ORACLE_SEEDS:
        for before, after in pattern.findall(random_program(seed)):
            a = [int(d) for d in before.split("x")]
            b = [int(d) for d in after.split("x")]
            assert math.prod(a) == math.prod(b)
            splits += len(b) == len(a) + 1 and any(d in (8, 16) for d in a)
    assert splits >= 10
