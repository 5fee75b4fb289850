"""Shardy's `debug-sharding-origins` attributes, written from a recording.

`save_origins(recorder)` writes the origins of `sharding_origins(recorder)`
(`shardonnay.propagation.debugging.origins`) where Shardy prints them:
`sdy.sharding_origins` (a dictionary per function argument/result and
sharding constraint, a list of dictionaries, one per result, on other ops),
`sdy.block_arg_sharding_origins`/`sdy.result_sharding_origins` on data-flow
ops (the dictionaries of the edges that have one), and
`sdy.sharding_origin_name` (`constraint_N`, `mc_K`) on constraints and manual
computations; a name that refers to the value itself becomes `"self"`.
`shardonnay.propagation.debugging.propagation_edges` gives, per op, the steps that
changed its tensors and which tensor each axis came from
(`sdy.propagation_edges`, `save_origins(recorder, edges=True)`).
`propagate_with_origins(module)` does it all for `propagate`,
`propagation_pipeline(module, debug_origins=True, debug_edges=True)` for
Shardy's pipeline (through `debug_recorder`).

The constraint's own axis "y" is `"self"` on it, and the function result
shows where both of its axes came from:

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2, "y"=4]>
... func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<8x16xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
...   %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"y", ?}]> : tensor<8x16xf32>
...   return %1 : tensor<8x16xf32>
... }''')
>>> out = propagate_with_origins(module)
>>> out.functions[0].body.ops[0].attributes["sdy.sharding_origins"]
({'x': 'input: 0', 'y': 'constraint_0'},)
>>> out.functions[0].body.ops[1].attributes["sdy.sharding_origins"]
{'x': 'input: 0', 'y': 'self'}
>>> out.functions[0].result_attrs(0)["sdy.sharding_origins"]
{'x': 'input: 0', 'y': 'constraint_0'}
"""

from __future__ import annotations

import re
from typing import Any

from shardonnay.axes import AxisRef
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.propagation.debugging.origins import sharding_origins
from shardonnay.propagation.debugging.propagation_edges import (
    note_applied_constraints,
    save_propagation_edges,
)
from shardonnay.propagation.debugging.recording import ORIGIN_NAME, Recorder, name_origin_sources
from shardonnay.propagation.debugging.sinking import sink_debug_entries
from shardonnay.propagation.driver import propagate

__all__ = [
    "debug_recorder",
    "propagate_with_origins",
    "save_origins",
    "with_debug_origins",
]

ORIGINS = "sdy.sharding_origins"
BLOCK_ARG_ORIGINS = "sdy.block_arg_sharding_origins"
RESULT_ORIGINS = "sdy.result_sharding_origins"


def _entries(origins: dict[AxisRef, str]) -> dict[str, str]:
    """A dictionary attribute: axis names without quotes, sorted as MLIR does."""
    return dict(sorted((str(axis).replace('"', ""), name) for axis, name in origins.items()))


def _self(entries: dict[str, str], name: str) -> dict[str, str]:
    return {axis: ("self" if origin == name else origin) for axis, origin in entries.items()}


def save_origins(
    recorder: Recorder,
    *,
    sink: bool | None = None,
    sink_named_computations: bool = True,
    origins: bool = True,
    edges: bool = False,
) -> None:
    """Writes `sharding_origins(recorder)` on the propagated module (see the
    module docstring). `sink`: put the origins of data-flow edges on their
    ops (default: when propagation had data-flow edges);
    `sink_named_computations`: on `sdy.named_computation`s too (Shardy's
    pipeline turns them into calls first, which drops them); `origins`:
    write the origins; `edges`: write the propagation edges first (Shardy's
    `debug-propagation-edge-sharding`, see
    `shardonnay.propagation.debugging.propagation_edges`)."""
    module, driver = recorder.module, recorder.driver
    assert module is not None and driver is not None
    sinking = sink if sink is not None else bool(driver.edge_of_target)
    if edges:
        save_propagation_edges(recorder, sink=sinking, named_computations=sink_named_computations)
    if not origins:
        return
    origins = sharding_origins(recorder).axes
    constraints, manual = recorder.names
    for op, name in (*constraints.items(), *manual.items()):
        op.attributes[ORIGIN_NAME] = name
    edge_owner_of: dict[Value, Op] = {}
    for v, edge in driver.edge_of_target.items():
        if edge.owner is v:
            edge_owner_of[v] = v.op if v.op is not None else v.defining.parent_op
    edge_entries: dict[Value, dict[str, str]] = {}
    for value, axes in origins.items():
        if not axes:
            continue
        entries = _entries(axes)
        func_and_index = driver.arg_of.get(value)
        # MLIR lists the uses of a value newest first: a value returned twice
        # gives its origins to the later result.
        returned = [use for use in value.uses if use.owner.name == "func.return"]
        if returned:
            use = max(returned, key=lambda u: u.index)
            _func_of_return(module, use.owner).result_attrs(use.index)[ORIGINS] = entries
        op = value.op
        if func_and_index is not None:
            func_and_index[0].arg_attrs(func_and_index[1])[ORIGINS] = entries
        elif value in edge_owner_of:
            edge_entries[value] = entries
        elif op is not None and op.name == "sdy.sharding_constraint":
            op.attributes[ORIGINS] = _self(entries, constraints[op])
        elif op is not None:
            per_result = list(op.attributes.get(ORIGINS) or [{} for _ in op.results])
            per_result[value.index] = entries
            op.attributes[ORIGINS] = tuple(per_result)
    for func in module.functions:
        if func.is_declaration:
            continue
        for i in range(len(func.type.inputs)):
            attrs = func.arg_attrs(i)
            if ORIGINS in attrs:
                attrs[ORIGINS] = _self(attrs[ORIGINS], f"input: {i}")
        for i in range(len(func.type.results)):
            attrs = func.result_attrs(i)
            if ORIGINS in attrs:
                attrs[ORIGINS] = _self(attrs[ORIGINS], f"output: {i}")
        for key in ("arg_attrs", "res_attrs"):
            if key in func.op.attributes and not any(func.op.attributes[key]):
                del func.op.attributes[key]
    for op, name in manual.items():
        for i, arg in enumerate(op.regions[0].entry.arguments):
            if arg in edge_entries:
                edge_entries[arg] = _self(edge_entries[arg], f"{name}_input: {i}")
        for i, r in enumerate(op.results):
            if r in edge_entries:
                edge_entries[r] = _self(edge_entries[r], f"{name}_output: {i}")
    if sinking:
        keys = (BLOCK_ARG_ORIGINS, RESULT_ORIGINS)
        sink_debug_entries(module, driver, edge_entries, sink_named_computations, keys)


def _func_of_return(module: Module, return_op: Op) -> Func:
    for func in module.functions:
        if not func.is_declaration and func.return_op is return_op:
            return func
    raise AssertionError("a func.return outside of its function")


def debug_recorder(module: Module, *, origins: bool, edges: bool) -> Recorder:
    """A `Recorder` for Shardy's pipeline with `debug-sharding-origins` and/or
    `debug-propagation-edge-sharding`, on `module` after
    `sdy-apply-sharding-constraints` and before propagation: it names the
    constraints and manual computations (`name_origin_sources`) and, for
    edges, notes what `sdy-apply-sharding-constraints` did as Shardy does
    (`shardonnay.propagation.debugging.propagation_edges.note_applied_constraints`)."""
    if origins:
        name_origin_sources(module)
    recorder = Recorder()
    if edges:
        note_applied_constraints(module, recorder)
    return recorder


def propagate_with_origins(
    module: Module, *, origins: bool = True, edges: bool = False, **options: Any
) -> Module:
    """`propagate(module, **options)` with Shardy's `debug-sharding-origins`
    attributes on the result (see the module docstring); `edges`: and those
    of `debug-propagation-edge-sharding` (see
    `shardonnay.propagation.debugging.propagation_edges`);
    `origins=False`: those only."""
    named = module.copy()
    recorder = debug_recorder(named, origins=origins, edges=False)
    result = propagate(named, recorder=recorder, **options)
    save_origins(recorder, origins=origins, edges=edges)
    return result


_PROPAGATION_PASS = re.compile(
    r"(sdy-(?:basic|aggressive|op-priority|user-priority)-propagate|sdy-propagation-pipeline)"
    r"(?:\{([^}]*)\})?"
)


def with_debug_origins(pipeline: str) -> str:
    """`pipeline` (MLIR's textual form) with `debug-sharding-origins=true` on
    every propagation pass.

    >>> with_debug_origins("builtin.module(sdy-basic-propagate{conservative-propagation=true})")
    'builtin.module(sdy-basic-propagate{conservative-propagation=true debug-sharding-origins=true})'
    """

    def add(match: re.Match[str]) -> str:
        options = [
            o for o in (match.group(2) or "").split() if not o.startswith("debug-sharding-origins")
        ]
        return match.group(1) + "{" + " ".join([*options, "debug-sharding-origins=true"]) + "}"

    return _PROPAGATION_PASS.sub(add, pipeline)
