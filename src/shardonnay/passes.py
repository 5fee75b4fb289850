"""Shardy's passes by their names, so that `shardonnay opt` runs Shardy-style pipelines.

A pipeline is MLIR's textual form: `builtin.module(PASS, func.func(PASS{opt=value}))`.
Passes nested in `func.func(...)` are function passes; shardonnay runs them on
the whole module (each transforms every function the same way). `PASSES` is
the table of every pass: its Shardy name, the function that runs it
(`fn(module, options) -> module`, which may change `module` in place and
returns the result) and its options with their defaults, as Shardy
declares them; an option a pass does not
have, or a flag that is neither `true` nor `false`, is an error. A new pass
is a function in the module of its phase and a row in `PASSES`.

>>> parse_pipeline("builtin.module(func.func(sdy-populate-op-sharding-rules))")
[PassSpec(name='sdy-populate-op-sharding-rules', options={})]
>>> parse_pipeline("builtin.module(canonicalize{enable-patterns={sdy-collective} top-down})")
[PassSpec(name='canonicalize', options={'enable-patterns': '{sdy-collective}', 'top-down': 'true'})]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from shardonnay import pipeline
from shardonnay.errors import ShardonnayError
from shardonnay.export import passes as export_passes
from shardonnay.export.pad_for_divisibility import sdy_pad_for_divisibility
from shardonnay.ir.core import Module
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.per_instruction import sdy_per_instruction_partitioning
from shardonnay.propagation import passes as propagation_passes
from shardonnay.propagation.checks.unreduced_axes import verify_unreduced_axes
from shardonnay.propagation.importing import call_graph, constants, data_flow_edges, mesh_passes
from shardonnay.propagation.importing import sharding_constraints as constraints
from shardonnay.propagation.importing.flatten_call_graph import flatten_call_graph
from shardonnay.propagation.module_edits import drop_sharding_rules
from shardonnay.syntax.cursor import Cursor

# `fn(module, options) -> module` (a pipeline's also takes `verify_each=`).
PassFunction = Callable[..., Module]
Step = Callable[[Module], None]


@dataclass(frozen=True)
class RegisteredPass:
    """A pass by its Shardy name: `run(module, options)` and its options'
    defaults (`"false"` for a flag). `run` may change `module` in place; it
    returns the resulting module (`module` itself, or a new one).
    `verifies_each`: a pipeline of passes, whose `run` also takes
    `verify_each=True` (verify after each of its passes)."""

    name: str
    run: PassFunction
    defaults: Mapping[str, str] = field(default_factory=dict)
    verifies_each: bool = False


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_OPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
_PLAIN_VALUE = re.compile(r"[^\s{}]*")


@dataclass(frozen=True)
class PassSpec:
    name: str
    options: dict[str, str] = field(default_factory=dict)


def pass_options(name: str) -> dict[str, str]:
    """The options of the pass `name` and their defaults.

    >>> pass_options("sdy-insert-explicit-reshards")
    {'enable-full-version': 'false'}
    """
    return dict(_registered(name).defaults)


def known_passes() -> list[str]:
    """The names of every pass, sorted."""
    return sorted(PASSES)


def parse_pipeline(text: str) -> list[PassSpec]:
    """The passes of `builtin.module(...)`, flattened in order."""
    cursor = Cursor(text, "<pass-pipeline>")
    passes: list[PassSpec] = []

    def anchored() -> None:
        cursor.match(_NAME, "an op name like builtin.module or func.func")
        cursor.expect("(", "'(' after the op name")
        if cursor.accept(")"):
            return
        while True:
            item()
            if cursor.accept(")"):
                return
            cursor.expect(",", "',' or ')' between passes")

    def item() -> None:
        start = cursor.pos
        name = cursor.match(_NAME, "a pass name")
        if cursor.peek("("):
            cursor.pos = start
            anchored()
            return
        options: dict[str, str] = {}
        if cursor.accept("{"):
            while not cursor.accept("}"):
                key = cursor.match(_OPTION_NAME, "an option like name=value")
                value = "true"
                if cursor.accept("="):
                    value = _option_value(cursor)
                options[key] = value
                cursor.skip_space()
        passes.append(PassSpec(name, options))

    anchored()
    cursor.expect_end()
    return passes


def _option_value(cursor: Cursor) -> str:
    """A plain value (`true`, `aggressive`, empty), a braced one (`{a,b}`) or
    a quoted one (`'a, b'`, kept with its quotes, as MLIR hands it to the pass)."""
    quote = cursor.text[cursor.pos : cursor.pos + 1]
    if quote in ("'", '"'):
        end = cursor.text.find(quote, cursor.pos + 1)
        if end < 0:
            raise cursor.error("an option value's quote is never closed", cursor.pos)
        start, cursor.pos = cursor.pos, end + 1
        return cursor.text[start : cursor.pos]
    if not cursor.text.startswith("{", cursor.pos):  # (a value is never after a space)
        match = _PLAIN_VALUE.match(cursor.text, cursor.pos)
        assert match is not None  # (the pattern matches the empty string)
        cursor.pos = match.end()
        return match.group()
    start, depth = cursor.pos, 0
    while cursor.pos < len(cursor.text):
        ch = cursor.text[cursor.pos]
        cursor.pos += 1
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return cursor.text[start : cursor.pos]
    raise cursor.error("an option value's '{' is never closed", start)


def _registered(name: str) -> RegisteredPass:
    if name not in PASSES:
        raise ShardonnayError(
            f"unknown pass '{name}'; shardonnay implements: {', '.join(known_passes())}"
        )
    return PASSES[name]


def _with_defaults(spec: PassSpec) -> dict[str, str]:
    registered = _registered(spec.name)
    options = dict(registered.defaults)
    for key, value in spec.options.items():
        if key not in options:
            accepted = ", ".join(sorted(options)) or "none"
            raise ShardonnayError(
                f"pass '{spec.name}' has no option '{key}' (its options: {accepted})"
            )
        if options[key] in ("true", "false") and value not in ("true", "false", "1", "0"):
            raise ShardonnayError(
                f"pass '{spec.name}': option '{key}' is a flag, true or false, not {value!r}"
            )
        options[key] = {"1": "true", "0": "false"}.get(value, value)
    return options


def run_pipeline(
    module: Module, pipeline: str, *, verify_each: bool = False, in_place: bool = False
) -> Module:
    """Runs the passes of `pipeline` in order and returns the resulting module;
    `module` itself is not changed (it is copied once, and the passes work
    on the copy). `in_place`: the passes work on `module` itself, as MLIR's
    pass manager does (for a module no one else holds, like one just read
    from text: `shardonnay opt` reads and prints so); the module returned
    may still be another object (a pass may build a new one), and `module`
    is then left in no useful state. `verify_each`: verify the module after
    every pass, as `mlir-opt --verify-each` does (an `IRError` naming the
    pass that broke an invariant; the passes of the pipelines
    `sdy-propagation-pipeline`, `sdy-import-pipeline` and
    `sdy-export-pipeline` one by one)."""
    return _run_in_place(module if in_place else module.copy(), pipeline, verify_each=verify_each)


def _run_in_place(module: Module, pipeline_text: str, *, verify_each: bool) -> Module:
    """`run_pipeline` on `module` itself (the passes may change it)."""
    specs = [(spec, _with_defaults(spec)) for spec in parse_pipeline(pipeline_text)]
    for spec, options in specs:
        registered = PASSES[spec.name]
        if registered.verifies_each:
            module = registered.run(module, options, verify_each=verify_each)
            continue
        module = registered.run(module, options)
        if verify_each:
            pipeline.verify_after(module, spec.name)
    return module


# -- the passes --------------------------------------------------------------------------


def _in_place(step: Step) -> PassFunction:
    """The pass that runs `step` on its input, in place (it has no options)."""

    def run(module: Module, options: dict[str, str]) -> Module:
        step(module)
        return module

    return run


def _propagation_pipeline(
    module: Module, options: dict[str, str], *, verify_each: bool = False
) -> Module:
    pipeline.propagation_pipeline_in_place(
        module,
        strategy=options["propagation-strategy"],  # type: ignore[arg-type]
        conservative=options["conservative-propagation"] == "true",
        debug_origins=options["debug-sharding-origins"] == "true",
        debug_edges=options["debug-propagation-edge-sharding"] == "true",
        verify_each=verify_each,
    )
    return module


def _convert_global_to_local(module: Module, options: dict[str, str]) -> Module:
    return convert_global_to_local(
        module,
        per_dim_all_gather=options["per-dim-all-gather"] == "true",
        combine_multi_dimension_reduce_scatter=(
            options["combine-multi-dimension-reduce-scatter"] == "true"
        ),
        enable_rgv3=options["enable-rgv3"] == "true",
    )


IMPORT_PIPELINE = (
    "symbol-dce,sdy-lift-inlined-meshes,sdy-remove-size-one-axes,"
    "sdy-propagate-sharding-from-func-to-call,sdy-constant-or-scalar-splitter,symbol-dce,"
    "sdy-manual-axes-cleanup,sdy-add-data-flow-edges"
)
EXPORT_PIPELINE = (
    "func.func(sdy-constant-or-scalar-merger),func.func(sdy-sink-data-flow-edges),"
    "sdy-remove-sharding-groups,func.func(sdy-sharding-constraint-to-reshard),"
    "sdy-update-non-divisible-input-output-shardings,"
    "sdy-remove-sub-axes-in-input-output-shardings,sdy-close-shardings,"
    "func.func(sdy-insert-explicit-reshards),canonicalize,func.func(sdy-drop-sharding-rules)"
)


def _import_pipeline(
    module: Module, options: dict[str, str], *, verify_each: bool = False
) -> Module:
    return _run_in_place(module, f"builtin.module({IMPORT_PIPELINE})", verify_each=verify_each)


def _export_pipeline(
    module: Module, options: dict[str, str], *, verify_each: bool = False
) -> Module:
    return _run_in_place(module, f"builtin.module({EXPORT_PIPELINE})", verify_each=verify_each)


_FALSE = "false"
_DEBUG = {"debug-propagation-edge-sharding": _FALSE, "debug-sharding-origins": _FALSE}
_BASIC = {
    "conservative-propagation": _FALSE,
    **_DEBUG,
    "keep-sharding-rules": _FALSE,
    "module-dump-directory": "",
}
_AGGRESSIVE = {**_BASIC, "propagation-strategy": "aggressive"}
_OP_PRIORITY = {**_AGGRESSIVE, "run-op-priority-propagation": "true"}
_CANONICALIZE = {
    "cse-between-iterations": _FALSE,
    "enable-patterns": "{sdy-collective}",
    "max-iterations": "10",
    "max-num-rewrites": "-1",
    "region-simplify": "aggressive",
    "test-convergence": _FALSE,
    "top-down": _FALSE,
}

#: Every pass by its Shardy name, in the order of Shardy's phases.
PASSES: Mapping[str, RegisteredPass] = {
    p.name: p
    for p in (
        # -- import
        RegisteredPass("symbol-dce", _in_place(call_graph.symbol_dce)),
        RegisteredPass("sdy-lift-inlined-meshes", _in_place(mesh_passes.lift_inlined_meshes)),
        RegisteredPass("sdy-inline-meshes", _in_place(mesh_passes.inline_meshes)),
        RegisteredPass("sdy-remove-size-one-axes", _in_place(pipeline.remove_size_one_axes)),
        RegisteredPass(
            "sdy-propagate-sharding-from-func-to-call",
            _in_place(call_graph.propagate_sharding_from_func_to_call),
        ),
        RegisteredPass(
            "sdy-constant-or-scalar-splitter", _in_place(constants.constant_or_scalar_splitter)
        ),
        RegisteredPass("sdy-manual-axes-cleanup", _in_place(pipeline.manual_axes_cleanup)),
        RegisteredPass("sdy-add-data-flow-edges", _in_place(data_flow_edges.add_data_flow_edges)),
        RegisteredPass(
            "sdy-add-func-data-flow-edges", _in_place(data_flow_edges.add_func_data_flow_edges)
        ),
        RegisteredPass("sdy-flatten-call-graph", _in_place(flatten_call_graph)),
        RegisteredPass(
            "sdy-import-func-calls",
            propagation_passes.sdy_import_func_calls,
            {"add-data-flow-edges-on-named-computations": "true"},
        ),
        RegisteredPass(
            "sdy-apply-sharding-constraints",
            _in_place(
                functools.partial(
                    constraints.apply_sharding_constraints,
                    identity_rules=True,
                    explicit_edges=True,
                )
            ),
            _DEBUG,
        ),
        RegisteredPass("sdy-sharding-group-import", _in_place(pipeline.sharding_group_import)),
        RegisteredPass("sdy-pre-order-funcs", _in_place(call_graph.pre_order_funcs)),
        # -- propagation
        RegisteredPass(
            "sdy-populate-op-sharding-rules",
            propagation_passes.sdy_populate_op_sharding_rules,
            {"conservative-propagation": _FALSE},
        ),
        RegisteredPass("sdy-basic-propagate", propagation_passes.sdy_basic_propagate, _BASIC),
        RegisteredPass(
            "sdy-aggressive-propagate", propagation_passes.sdy_aggressive_propagate, _AGGRESSIVE
        ),
        RegisteredPass(
            "sdy-op-priority-propagate", propagation_passes.sdy_op_priority_propagate, _OP_PRIORITY
        ),
        RegisteredPass(
            "sdy-user-priority-propagate",
            propagation_passes.sdy_user_priority_propagate,
            _OP_PRIORITY,
        ),
        # -- export
        RegisteredPass(
            "sdy-export-named-computations", propagation_passes.sdy_export_named_computations
        ),
        RegisteredPass(
            "sdy-propagate-to-func-results", _in_place(call_graph.propagate_to_func_results)
        ),
        RegisteredPass(
            "sdy-unflatten-call-graph",
            propagation_passes.sdy_unflatten_call_graph,
            {"dedup-functions-fully": _FALSE},
        ),
        RegisteredPass(
            "sdy-insert-func-call-reshards", _in_place(call_graph.insert_func_call_reshards)
        ),
        RegisteredPass(
            "sdy-constant-or-scalar-merger", _in_place(constants.constant_or_scalar_merger)
        ),
        RegisteredPass(
            "sdy-sink-data-flow-edges",
            _in_place(data_flow_edges.sink_data_flow_edges),
            {
                "sink-debug-propagation-edge-sharding": _FALSE,
                "sink-debug-sharding-origins": _FALSE,
            },
        ),
        RegisteredPass(
            "sdy-sink-func-data-flow-edges", _in_place(data_flow_edges.sink_func_data_flow_edges)
        ),
        RegisteredPass("sdy-remove-sharding-groups", _in_place(pipeline.remove_sharding_groups)),
        RegisteredPass(
            "sdy-sharding-constraint-to-reshard",
            _in_place(constraints.sharding_constraint_to_reshard),
        ),
        RegisteredPass(
            "sdy-update-non-divisible-input-output-shardings",
            _in_place(pipeline.update_non_divisible_input_output_shardings),
        ),
        RegisteredPass(
            "sdy-remove-sub-axes-in-input-output-shardings",
            _in_place(pipeline.remove_sub_axes_in_input_output_shardings),
        ),
        RegisteredPass("sdy-close-shardings", _in_place(pipeline.close_shardings)),
        RegisteredPass(
            "sdy-insert-explicit-reshards",
            export_passes.sdy_insert_explicit_reshards,
            {"enable-full-version": _FALSE},
        ),
        RegisteredPass(
            "sdy-reshard-to-collectives",
            export_passes.sdy_reshard_to_collectives,
            {"keep-redundant-reshards": _FALSE},
        ),
        RegisteredPass(
            "sdy-resolve-permutation-factors",
            export_passes.sdy_resolve_permutation_factors,
            {"enable-halo-exchange": "true"},
        ),
        RegisteredPass("sdy-pad-for-divisibility", sdy_pad_for_divisibility),
        RegisteredPass(
            "sdy-convert-global-to-local",
            _convert_global_to_local,
            {
                "combine-multi-dimension-reduce-scatter": _FALSE,
                "enable-rgv3": _FALSE,
                "per-dim-all-gather": _FALSE,
            },
        ),
        RegisteredPass(
            "sdy-per-instruction-partitioning",
            sdy_per_instruction_partitioning,
            {"enable-halo-exchange": "true", "filter": ""},
        ),
        RegisteredPass("sdy-drop-sharding-rules", _in_place(drop_sharding_rules)),
        RegisteredPass("sdy-drop-sharding-and-mesh", _in_place(mesh_passes.drop_sharding_and_mesh)),
        RegisteredPass(
            "sdy-remove-propagation-debug-info", _in_place(pipeline.remove_propagation_debug_info)
        ),
        RegisteredPass("sdy-verify-unreduced-axes", _in_place(verify_unreduced_axes)),
        RegisteredPass("canonicalize", _in_place(pipeline.canonicalize), _CANONICALIZE),
        # -- the pipelines
        RegisteredPass("sdy-import-pipeline", _import_pipeline, verifies_each=True),
        RegisteredPass(
            "sdy-propagation-pipeline",
            _propagation_pipeline,
            {"propagation-strategy": "aggressive", "conservative-propagation": _FALSE, **_DEBUG},
            verifies_each=True,
        ),
        RegisteredPass("sdy-export-pipeline", _export_pipeline, verifies_each=True),
    )
}


__all__ = [
    "PASSES",
    "PassSpec",
    "RegisteredPass",
    "known_passes",
    "parse_pipeline",
    "pass_options",
    "run_pipeline",
]
