"""Inputs for comparing each of Shardy's passes with shardonnay's, pass by pass.

`PASS_PIPELINES` names, for every pass shardonnay runs by its Shardy name,
the pipeline that exercises it (the pass alone, or after the passes that
make its input, e.g. `sdy-sink-data-flow-edges` after
`sdy-add-data-flow-edges` and a propagation) and the programs it runs on:
`"plain"` (`program_generator.random_program`) or a variant of them made
here: `"calls"` (the program becomes a private function `@f` that `@main`
calls twice), `"inline"` (every mesh written inline in its shardings, as
`sdy-inline-meshes` writes them), `"manual"` (the program's last value goes
through an `sdy.manual_computation` on the mesh's first axis when it
divides), `"size1"` (the mesh gains an axis of size 1 that shards the
first argument) and `"barrier"` (the results go through an
`stablehlo.optimization_barrier`).
"""

from __future__ import annotations

from dataclasses import dataclass

from shardonnay.ir.types import TensorType
from shardonnay.pipeline import sharding_group_import
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.program_generator import random_program

PROPAGATE = "sdy-aggressive-propagate"


@dataclass(frozen=True)
class PassCase:
    """The pipeline (inside `builtin.module(...)`) that exercises one pass,
    and the kind of program it runs on."""

    pipeline: str
    programs: str = "plain"


PASS_PIPELINES: dict[str, PassCase] = {
    # import
    "symbol-dce": PassCase("symbol-dce", "calls"),
    "sdy-lift-inlined-meshes": PassCase("sdy-lift-inlined-meshes", "inline"),
    "sdy-inline-meshes": PassCase("sdy-inline-meshes"),
    "sdy-remove-size-one-axes": PassCase("sdy-remove-size-one-axes", "size1"),
    "sdy-propagate-sharding-from-func-to-call": PassCase(
        "sdy-propagate-sharding-from-func-to-call", "calls"
    ),
    "sdy-constant-or-scalar-splitter": PassCase("sdy-constant-or-scalar-splitter"),
    "sdy-manual-axes-cleanup": PassCase("sdy-manual-axes-cleanup", "manual"),
    "sdy-add-data-flow-edges": PassCase("sdy-add-data-flow-edges", "manual"),
    "sdy-add-func-data-flow-edges": PassCase("sdy-add-func-data-flow-edges", "calls"),
    "sdy-flatten-call-graph": PassCase("sdy-flatten-call-graph", "calls"),
    "sdy-import-func-calls": PassCase("sdy-flatten-call-graph,sdy-import-func-calls", "calls"),
    "sdy-apply-sharding-constraints": PassCase("sdy-apply-sharding-constraints", "manual"),
    "sdy-sharding-group-import": PassCase("sdy-sharding-group-import"),
    "sdy-pre-order-funcs": PassCase("sdy-pre-order-funcs", "calls"),
    "sdy-import-pipeline": PassCase("sdy-import-pipeline", "manual"),
    # propagation
    "sdy-populate-op-sharding-rules": PassCase("func.func(sdy-populate-op-sharding-rules)"),
    "sdy-basic-propagate": PassCase("sdy-add-data-flow-edges,sdy-basic-propagate"),
    "sdy-aggressive-propagate": PassCase("sdy-add-data-flow-edges,sdy-aggressive-propagate"),
    "sdy-op-priority-propagate": PassCase("sdy-add-data-flow-edges,sdy-op-priority-propagate"),
    "sdy-user-priority-propagate": PassCase("sdy-add-data-flow-edges,sdy-user-priority-propagate"),
    "sdy-propagation-pipeline": PassCase("sdy-propagation-pipeline"),
    # export
    "sdy-constant-or-scalar-merger": PassCase(
        "sdy-constant-or-scalar-splitter,func.func(sdy-constant-or-scalar-merger)"
    ),
    "sdy-sink-data-flow-edges": PassCase(
        f"sdy-add-data-flow-edges,{PROPAGATE},func.func(sdy-sink-data-flow-edges)", "manual"
    ),
    "sdy-sink-func-data-flow-edges": PassCase(
        "sdy-add-func-data-flow-edges,func.func(sdy-sink-func-data-flow-edges)", "calls"
    ),
    "sdy-export-named-computations": PassCase(
        f"sdy-flatten-call-graph,sdy-import-func-calls,{PROPAGATE},sdy-export-named-computations",
        "calls",
    ),
    "sdy-propagate-to-func-results": PassCase("sdy-propagate-to-func-results", "calls"),
    "sdy-unflatten-call-graph": PassCase(
        "sdy-flatten-call-graph,sdy-unflatten-call-graph", "calls"
    ),
    "sdy-insert-func-call-reshards": PassCase("sdy-insert-func-call-reshards", "calls"),
    "sdy-remove-sharding-groups": PassCase("sdy-remove-sharding-groups"),
    "sdy-sharding-constraint-to-reshard": PassCase("func.func(sdy-sharding-constraint-to-reshard)"),
    "sdy-update-non-divisible-input-output-shardings": PassCase(
        f"{PROPAGATE},sdy-update-non-divisible-input-output-shardings"
    ),
    "sdy-remove-sub-axes-in-input-output-shardings": PassCase(
        f"{PROPAGATE},sdy-remove-sub-axes-in-input-output-shardings"
    ),
    "sdy-close-shardings": PassCase(f"{PROPAGATE},sdy-close-shardings"),
    "sdy-remove-propagation-debug-info": PassCase("sdy-remove-propagation-debug-info"),
    "sdy-drop-sharding-rules": PassCase(
        f"{PROPAGATE}{{keep-sharding-rules=true}},func.func(sdy-drop-sharding-rules)"
    ),
    "sdy-drop-sharding-and-mesh": PassCase(f"{PROPAGATE},sdy-drop-sharding-and-mesh"),
    "sdy-export-pipeline": PassCase(f"{PROPAGATE},sdy-export-pipeline"),
    "sdy-insert-explicit-reshards": PassCase(
        "sdy-propagation-pipeline,func.func(sdy-insert-explicit-reshards{enable-full-version=true})"
    ),
    "sdy-reshard-to-collectives": PassCase(
        "sdy-propagation-pipeline,func.func(sdy-insert-explicit-reshards"
        "{enable-full-version=true}),func.func(sdy-reshard-to-collectives)"
    ),
    "sdy-resolve-permutation-factors": PassCase(
        "sdy-propagation-pipeline,func.func(sdy-insert-explicit-reshards"
        "{enable-full-version=true}),sdy-resolve-permutation-factors"
    ),
    "sdy-convert-global-to-local": PassCase(
        "sdy-propagation-pipeline,sdy-update-non-divisible-input-output-shardings,"
        "func.func(sdy-insert-explicit-reshards{enable-full-version=true}),"
        "sdy-resolve-permutation-factors,func.func(sdy-reshard-to-collectives),"
        "sdy-convert-global-to-local"
    ),
    "sdy-pad-for-divisibility": PassCase(
        "sdy-propagation-pipeline,sdy-update-non-divisible-input-output-shardings,"
        "func.func(sdy-insert-explicit-reshards{enable-full-version=true}),"
        "sdy-resolve-permutation-factors,func.func(sdy-reshard-to-collectives),"
        "func.func(sdy-pad-for-divisibility)"
    ),
    "canonicalize": PassCase(f"{PROPAGATE},canonicalize"),
}


def _types(types) -> str:
    return ", ".join(str(t) for t in types)


def called_twice(text: str) -> str:
    """`text`'s `@main` made a private `@f` that a new `@main` calls twice
    with its own arguments, returning both calls' results."""
    module = parse_module(text)
    func = module.function("main")
    inputs, results = func.type.inputs, func.type.results
    n = len(results)
    args = ", ".join(f"%arg{i}" for i in range(len(inputs)))
    signature = f"({_types(inputs)}) -> ({_types(results)})"
    head = "" if n == 1 else f":{n}"

    def returned(name: str) -> list[str]:
        return [name] if n == 1 else [f"{name}#{k}" for k in range(n)]

    main = (
        f"  func.func @main({', '.join(f'%arg{i}: {t}' for i, t in enumerate(inputs))})"
        f" -> ({_types([*results, *results])}) {{\n"
        f"    %0{head} = call @f({args}) : {signature}\n"
        f"    %1{head} = call @f({args}) : {signature}\n"
        f"    return {', '.join([*returned('%0'), *returned('%1')])} : "
        f"{_types([*results, *results])}\n  }}\n"
    )
    body = text.replace("func.func @main(", "func.func private @f(", 1)
    cut = body.rstrip().rfind("}")
    return parse_module(body[:cut] + main + "}\n").to_text()


def meshes_inline(text: str) -> str:
    """`text` with every `@mesh` reference of a sharding written inline."""
    module = parse_module(text)
    for name, mesh in module.meshes.items():
        inline = str(mesh).replace("#sdy.mesh", "mesh", 1)
        if not inline.startswith("mesh"):
            inline = "mesh" + inline
        text = text.replace(f"<@{name}, [", f"<{inline}, [")
    return text


def through_manual_computation(text: str) -> str:
    """`text` whose first result goes through an `sdy.manual_computation`
    manual on the first axis of the first mesh that divides its first dim
    (sharding that dim); `text` as it is when none does."""
    module = parse_module(text)
    meshes = module.meshes
    func = module.function("main")
    result = func.type.results[0]
    if not meshes or not isinstance(result, TensorType) or not result.shape:
        return text
    name, mesh = next(iter(meshes.items()))
    fitting = [(a, s) for a, s in mesh.axes if s > 1 and result.shape[0] % s == 0]
    if not fitting:
        return text
    axis, size = fitting[0]
    local = TensorType((result.shape[0] // size, *result.shape[1:]), result.element_type)
    dims = ", ".join(['{"' + axis + '"}'] + ["{}"] * (len(result.shape) - 1))
    sharding = f"<@{name}, [{dims}]>"
    lines = text.splitlines()
    at = max(k for k, line in enumerate(lines) if line.strip().startswith("return "))
    old = lines[at].strip()[len("return ") :].split(" : ")[0].split(", ")
    manual = (
        f"    %manual = sdy.manual_computation({old[0]}) in_shardings=[{sharding}] "
        f'out_shardings=[{sharding}] manual_axes={{"{axis}"}} (%local: {local}) {{\n'
        f"      %abs = stablehlo.abs %local : {local}\n"
        f"      sdy.return %abs : {local}\n"
        f"    }} : ({result}) -> {result}"
    )
    lines[at] = lines[at].replace(f"return {old[0]}", "return %manual", 1)
    lines.insert(at, manual)
    return parse_module("\n".join(lines)).to_text()


def with_size_one_axis(text: str) -> str:
    """`text` whose first mesh gains an axis `one` of size 1, which also
    shards the first dim of the first argument when that has no sharding."""
    module = parse_module(text)
    if not module.meshes:
        return text
    name, mesh = next(iter(module.meshes.items()))
    old = str(mesh)
    axes = ", ".join([f'"{a}"={s}' for a, s in mesh.axes] + ['"one"=1'])
    text = text.replace(f"sdy.mesh @{name} = {old.removeprefix('#sdy.mesh')}", "", 1)
    text = text.replace("module {\n", f"module {{\n  sdy.mesh @{name} = <[{axes}]>\n", 1)
    func = parse_module(text).function("main")
    first = func.type.inputs[0] if func.type.inputs else None
    if isinstance(first, TensorType) and first.shape and not func.arg_attrs(0):
        dims = ", ".join(['{"one"}'] + ["{}"] * (len(first.shape) - 1))
        sharding = f"#sdy.sharding<@{name}, [{dims}]>"
        text = text.replace(f"%arg0: {first}", f"%arg0: {first} {{sdy.sharding = {sharding}}}", 1)
    return parse_module(text).to_text()


def through_barrier(text: str) -> str:
    """`text` whose results all go through one `stablehlo.optimization_barrier`."""
    results = parse_module(text).function("main").type.results
    lines = text.splitlines()
    at = max(k for k, line in enumerate(lines) if line.strip().startswith("return "))
    values = lines[at].strip()[len("return ") :].split(" : ")[0]
    types = ", ".join(str(t) for t in results)
    n = len(results)
    outs = ["%barrier"] if n == 1 else [f"%barrier#{k}" for k in range(n)]
    head = "" if n == 1 else f":{n}"
    lines[at : at + 1] = [
        f"    %barrier{head} = stablehlo.optimization_barrier {values} : {types}",
        f"    return {', '.join(outs)} : {types}",
    ]
    return parse_module("\n".join(lines)).to_text()


VARIANTS = {
    "plain": lambda text: text,
    "calls": called_twice,
    "inline": meshes_inline,
    "manual": through_manual_computation,
    "size1": with_size_one_axis,
    "barrier": through_barrier,
}


def normalize(text: str) -> str:
    """`text` made a valid, stable input for Shardy's propagation passes alone.

    Dead ops (results all unused; MLIR's rewrite driver, which runs Shardy's
    propagation, erases them) are removed, and sharding groups that share a
    value are merged into one group (Shardy's import pipeline does that; its
    propagation passes expect each value in at most one group), numbered in
    order of first appearance.
    """
    module = parse_module(text)
    changed = True
    while changed:
        changed = False
        for op in reversed(list(module.walk())):
            unused = op.results and not any(r.uses for r in op.results)
            if unused and op.parent is not None and op.name not in ("func.func", "sdy.mesh"):
                op.erase()
                changed = True
    sharding_group_import(module)
    return module.to_text()


def program(seed: int, kind: str, *, max_ops: int = 10) -> str:
    """The random program of `seed` as the pass case `kind` wants it."""
    return VARIANTS[kind](normalize(random_program(seed, max_ops=max_ops)))
