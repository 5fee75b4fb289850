"""Global programs with explicit collectives, and their local programs, from the real Shardy.

`shardy_partition(text)` runs Shardy's partitioner up to explicit collectives
(`sdy-propagation-pipeline`, `sdy-insert-explicit-reshards{enable-full-version=true}`,
`sdy-reshard-to-collectives`); `own_partition(text)` runs shardonnay's
implementations of the same three passes. `shardy_local(texts)` runs Shardy's
`sdy-convert-global-to-local` on global programs; it aborts the whole
process on inputs it does not support (an `SDY_CHECK`), so it runs in a
child process, restarted past any input it dies on (`None` for those).
The corpus is read from `tests/corpus` of the checkout unless another
folder is given.

Programs with `func.call`s are inlined first (`shardonnay.ir.inline`):
Shardy's conversion does not convert calls.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from shardonnay.export.explicit_reshards import insert_explicit_reshards
from shardonnay.export.reshard_to_collectives import reshard_to_collectives
from shardonnay.ir.core import Module
from shardonnay.ir.inline import inline_calls
from shardonnay.ir.shardings import SHARDING
from shardonnay.mesh import Mesh
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.pipeline import propagation_pipeline
from shardonnay.runtime.interpreter import run
from shardonnay.runtime.simulator import simulate
from shardonnay.sharding import TensorShardingPerValue
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.checkout import checkout_folder
from shardonnay.testing.mlir_oracle import run_pass_pipeline, run_pass_pipelines_isolated
from shardonnay.testing.program_generator import random_program_with_inputs

PARTITIONER = (
    "builtin.module(sdy-propagation-pipeline, "
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}), "
    "func.func(sdy-reshard-to-collectives))"
)
TO_LOCAL = "builtin.module(sdy-convert-global-to-local)"


def shardy_partition(text: str) -> str:
    """`text` (inlined) partitioned by Shardy into a global program with sdy collectives."""
    return run_pass_pipeline(inline_calls(parse_module(text)).to_text(), PARTITIONER)


def own_partition(text: str) -> str:
    """`text` partitioned by shardonnay's own passes (the same three as Shardy's)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # propagation warnings about the random annotations
        module = propagation_pipeline(parse_module(text))
    return reshard_to_collectives(insert_explicit_reshards(module, full_version=True)).to_text()


def has_uneven_shards(module: Module) -> bool:
    """Whether some value of `module` has a dim its shards do not divide
    (its shards end in padding; Shardy's `sdy-convert-global-to-local` rejects them)."""
    meshes = module.meshes
    for value, sharding in _shardings(module):
        mesh = sharding.mesh if isinstance(sharding.mesh, Mesh) else meshes[sharding.mesh]
        for size, dim in zip(value.type.shape, sharding.dims, strict=False):
            if size % dim.sharded_size(mesh):
                return True
    return False


def _shardings(module: Module):
    for func in module.functions:
        for i, arg in enumerate(func.arguments):
            if SHARDING in func.arg_attrs(i):
                yield arg, func.arg_attrs(i)[SHARDING]
        for op in func.walk():
            if "out_sharding" in op.attributes:
                yield op.results[0], op.attributes["out_sharding"]
            per_value = op.attributes.get(SHARDING)
            if isinstance(per_value, TensorShardingPerValue):
                yield from zip(op.results, per_value.shardings, strict=True)


def shardy_local(texts: Sequence[str]) -> list[str | None]:
    """Shardy's local program of each global program (None where Shardy fails or aborts)."""
    return run_pass_pipelines_isolated([(text, TO_LOCAL) for text in texts])


def corpus_folder(corpus: Path | None = None) -> Path:
    """`corpus`, or the checkout's `tests/corpus` (FileNotFoundError outside a checkout)."""
    return corpus if corpus is not None else checkout_folder("tests", "corpus")


def corpus_names(corpus: Path | None = None) -> list[str]:
    """The names of the corpus programs (`NAME.mlir`, its inputs in `NAME.npz`)."""
    return sorted(p.stem for p in corpus_folder(corpus).glob("*.mlir"))


def corpus_inputs(name: str, corpus: Path | None = None) -> list[np.ndarray]:
    """The inputs of corpus program `name` (`input0`, `input1`, ... of its `.npz`)."""
    data = np.load(corpus_folder(corpus) / f"{name}.npz")
    count = sum(1 for k in data.files if k.startswith("input"))
    return [data[f"input{i}"] for i in range(count)]


@dataclass(frozen=True, eq=False)
class Case:
    """A program, inputs for it, and Shardy's global program with collectives."""

    name: str
    text: str
    inputs: tuple
    partitioned: str


def _partitioned_corpus(partition: Callable[[str], str], corpus: Path | None) -> tuple[Case, ...]:
    folder = corpus_folder(corpus)
    return tuple(
        Case(n, t, tuple(corpus_inputs(n, folder)), partition(t))
        for n in corpus_names(folder)
        for t in [(folder / f"{n}.mlir").read_text()]
    )


@functools.cache
def corpus_cases(corpus: Path | None = None) -> tuple[Case, ...]:
    """The corpus, partitioned by Shardy."""
    return _partitioned_corpus(shardy_partition, corpus)


@functools.cache
def random_cases(count: int) -> tuple[Case, ...]:
    """Random programs `0..count-1` of `program_generator`, partitioned by Shardy."""
    cases = []
    for seed in range(count):
        text, inputs = random_program_with_inputs(seed)
        cases.append(Case(f"seed{seed}", text, tuple(inputs), shardy_partition(text)))
    return tuple(cases)


@functools.cache
def own_corpus_cases(corpus: Path | None = None) -> tuple[Case, ...]:
    """The corpus, partitioned by shardonnay's own passes."""
    return _partitioned_corpus(own_partition, corpus)


def own_random_case(seed: int) -> Case:
    """Random program `seed` of `program_generator`, partitioned by shardonnay's passes."""
    text, inputs = random_program_with_inputs(seed)
    return Case(f"seed{seed}", text, tuple(inputs), own_partition(text))


@functools.cache
def shardy_local_of(cases: tuple[Case, ...]) -> tuple[str | None, ...]:
    """Shardy's local program of each case (None where it fails)."""
    return tuple(shardy_local([c.partitioned for c in cases]))


# -- hand-written global programs on <["x"=2, "y"=4]> ---------------------------------------------

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'


def quoted(dims: str) -> str:
    """`[{x}, {y:(2)2}]` as `[{"x"}, {"y":(2)2}]` (names may also come quoted)."""
    return re.sub(r'(?<![\w"])([a-z]\w*)(?=[,}:])', r'"\1"', dims)


def sharding(dims: str) -> str:
    return f"#sdy.sharding<@mesh, {quoted(dims)}>"


def per_value(*dims: str) -> str:
    body = ", ".join(f"<@mesh, {quoted(d)}>" for d in dims)
    return "{sdy.sharding = #sdy.sharding_per_value<[" + body + "]>}"


def inputs_for(module, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for t in module.function("main").type.inputs:
        if np.dtype(t.dtype).kind == "f":
            out.append(rng.normal(size=t.shape).astype(t.dtype))
        else:
            out.append(rng.integers(-3, 20, size=t.shape).astype(t.dtype))
    return out


def assert_local_program_computes_the_same(text: str, *inputs):
    """Converts `text`, runs it on every device and compares with the global
    program; returns the local program."""
    module = parse_module(text)
    inputs = inputs or inputs_for(module)
    local = convert_global_to_local(module, poison_padding=True)
    got = simulate(local, *inputs)
    want = run(module, *inputs)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    return local


def collectives_in(module) -> list[tuple[str, int, int]]:
    """(name, group size, gathered dim or -1) of each StableHLO collective of `module`."""
    out = []
    for op in module.walk():
        if op.name in ("stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.all_to_all"):
            groups = op.attributes["replica_groups"].to_numpy()
            dim = op.attributes["all_gather_dim"].value if "all_gather_dim" in op.attributes else -1
            out.append((op.name, groups.shape[1], dim))
    return out


def collective_program(shape: str, source: str, op: str, target: str) -> str:
    t = f"tensor<{shape}xf32>"
    return MESH + (
        f"func.func @main(%arg0: {t} {{sdy.sharding = {sharding(source)}}}) -> "
        f"({t} {{sdy.sharding = {sharding(target)}}}) {{\n"
        f"  %0 = {op} %arg0 out_sharding=<@mesh, {target}> : {t}\n"
        f"  return %0 : {t}\n}}"
    )


def single_op_program(args: list[tuple[str, str]], body: str, result: tuple[str, str]) -> str:
    params = ", ".join(
        f"%arg{i}: {t} {{sdy.sharding = {sharding(s)}}}" for i, (t, s) in enumerate(args)
    )
    t, s = result
    return MESH + (
        f"func.func @main({params}) -> ({t} {{sdy.sharding = {sharding(s)}}}) {{\n"
        f"{body}\n  return %r : {t}\n}}"
    )


SMALL_MESH = 'sdy.mesh @small = <["z"=3, "w"=2]>\n'  # devices 0..5 of MESH's 8


def two_mesh_program(shape: str, small: str, large: str, body: str, result: str) -> str:
    """A program on the 8 devices of `MESH` and the 6 of `SMALL_MESH`: `%arg0`
    (`tensor<shape>`) split on `@small` by `small`, `%arg1` (same type) on
    `@mesh` by `large`; `body` computes `%r`, returned as `result`, a type and
    a sharding (`tensor<6xf32> <@small, [{"z"}]>`)."""
    t = f"tensor<{shape}xf32>"
    result_type, result_sharding = result.split(" ", 1)
    return (
        MESH
        + SMALL_MESH
        + f"func.func @main(%arg0: {t} {{sdy.sharding = #sdy.sharding<@small, {quoted(small)}>}},\n"
        f"    %arg1: {t} {{sdy.sharding = {sharding(large)}}})\n"
        f"    -> ({result_type} {{sdy.sharding = #sdy.sharding{result_sharding}}}) {{\n"
        f"{body}\n  return %r : {result_type}\n}}"
    )


# Global programs on MESH and SMALL_MESH: (shape, %arg0's sharding on @small, body, result).
S_ = "  %r = "  # each body below defines %r
ON_TWO_MESHES = {
    "all_gather_in_groups_of_2": (
        "6x4",
        "[{z}, {w}]",
        S_
        + 'sdy.all_gather [{}, {"w"}] %arg0 out_sharding=<@small, [{"z"}, {}]> : tensor<6x4xf32>',
        'tensor<6x4xf32> <@small, [{"z"}, {}]>',
    ),
    "all_gather_in_groups_of_3": (
        "6x4",
        "[{z}, {w}]",
        S_
        + 'sdy.all_gather [{"z"}, {}] %arg0 out_sharding=<@small, [{}, {"w"}]> : tensor<6x4xf32>',
        'tensor<6x4xf32> <@small, [{}, {"w"}]>',
    ),
    "all_to_all": (
        "6x6",
        "[{z}, {}]",
        S_
        + 'sdy.all_to_all [{"z"}: 0->1] %arg0 out_sharding=<@small, [{}, {"z"}]> : tensor<6x6xf32>',
        'tensor<6x6xf32> <@small, [{}, {"z"}]>',
    ),
    "collective_permute": (
        "6x4",
        "[{z, w}, {}]",
        S_
        + 'sdy.collective_permute %arg0 out_sharding=<@small, [{"w", "z"}, {}]> : tensor<6x4xf32>',
        'tensor<6x4xf32> <@small, [{"w", "z"}, {}]>',
    ),
    "replicated_on_the_small_mesh": (
        "6x4",
        "[{z}, {w}]",
        S_
        + 'sdy.all_gather [{"z"}, {"w"}] %arg0 out_sharding=<@small, [{}, {}]> : tensor<6x4xf32>',
        "tensor<6x4xf32> <@mesh, [{}, {}]>",
    ),
    "reshard_to_the_larger_mesh": (
        "6x4",
        "[{z}, {w}]",
        S_ + 'sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<6x4xf32>',
        'tensor<6x4xf32> <@mesh, [{"x"}, {"y"}]>',
    ),
    "reshard_to_the_smaller_mesh": (
        "6x4",
        "[{z}, {}]",
        S_ + 'sdy.reshard %arg1 <@small, [{"w"}, {"z"}]> : tensor<6x4xf32>',
        'tensor<6x4xf32> <@small, [{"w"}, {"z"}]>',
    ),
    "an_op_on_both_meshes": (
        "6x4",
        "[{z}, {w}]",
        S_ + "stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
        '[{"y"}, {}]>]>} : tensor<6x4xf32>',
        'tensor<6x4xf32> <@mesh, [{"y"}, {}]>',
    ),
    "partial_sums_reduced_on_the_small_mesh": (
        "6x6",
        "[{}, {z}]",
        "  %0 = sdy.constant dense<0.0> : tensor<f32>\n"
        "  %1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.add across dimensions = [1] "
        "{sdy.sharding = #sdy.sharding_per_value<[<@small, [{}]>]>} "
        ": (tensor<6x6xf32>, tensor<f32>) -> tensor<6xf32>\n"
        + S_
        + 'sdy.all_reduce {"z"} %1 out_sharding=<@small, [{}]> : tensor<6xf32>',
        "tensor<6xf32> <@mesh, [{}]>",
    ),
    "partial_sums_scattered_on_the_small_mesh": (
        "6x6",
        "[{}, {z}]",
        "  %1 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [1] x [1] "
        "{sdy.sharding = #sdy.sharding_per_value<[<@small, [{}, {}]>]>} "
        ": (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>\n"
        + S_
        + 'sdy.reduce_scatter [{"z"}, {}] %1 out_sharding=<@small, [{"z"}, {}]> : tensor<6x6xf32>',
        'tensor<6x6xf32> <@small, [{"z"}, {}]>',
    ),
}


TWO_SIZES_ANNOTATED = (
    MESH
    + 'sdy.mesh @three = <["w"=3]>\n'
    + "func.func @main(%arg0: tensor<6x8xf32> "
    + '{sdy.sharding = #sdy.sharding<@three, [{"w"}, {}]>},\n'
    + f"    %arg1: tensor<8x4xf32> {{sdy.sharding = {sharding('[{}, {y}]')}}})\n"
    + "    -> (tensor<6x4xf32>, "
    + "tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@three, [{}, {}]>}) {\n"
    + "  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] "
    + ": (tensor<6x8xf32>, tensor<8x4xf32>) -> tensor<6x4xf32>\n"
    + "  %1 = stablehlo.tanh %0 : tensor<6x4xf32>\n"
    + "  %2 = stablehlo.exponential %arg0 : tensor<6x8xf32>\n"
    + "  return %1, %2 : tensor<6x4xf32>, tensor<6x8xf32>\n}"
)
