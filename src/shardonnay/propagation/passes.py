"""Shardy's import, propagation and export passes, by their Shardy names (see
`shardonnay.passes`), with Shardy's options and defaults.

Each pass runs on a copy of its input (`shardonnay.passes.run_pipeline`
hands the result to the next). The import and export pipelines are the
passes `sdy-propagation-pipeline` runs before and after propagation.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from shardonnay.errors import ShardonnayError
from shardonnay.ir.core import Module
from shardonnay.ops.rules import populate_rules
from shardonnay.passes import register_pass, run_pipeline
from shardonnay.propagation.sharding_store import EdgeChoice

Step = Callable[[Module], None]

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


def _flag(options: dict[str, str], name: str) -> bool:
    return options[name] == "true"


def _in_place(step: Step) -> Callable[[Module, dict[str, str]], Module]:
    def run(module: Module, options: dict[str, str]) -> Module:
        module = module.copy()
        step(module)
        return module

    return run


@register_pass("sdy-populate-op-sharding-rules", {"conservative-propagation": _FALSE})
def _populate_op_sharding_rules(module: Module, options: dict[str, str]) -> Module:
    return populate_rules(module, conservative=_flag(options, "conservative-propagation"))


def _propagation_pass(strategy: str):
    def run(module: Module, options: dict[str, str]) -> Module:
        from shardonnay.propagation.importing.data_flow_edges import propagate_through_edges

        default = "basic" if strategy == "basic" else "aggressive"
        factor = options.get("propagation-strategy", default)
        if options["module-dump-directory"]:
            raise ShardonnayError(
                f"sdy-{strategy}-propagate: shardonnay dumps no modules "
                "(module-dump-directory must stay empty)"
            )
        chosen = strategy
        stages = options.get("run-op-priority-propagation") != _FALSE
        if strategy == "op-priority" and not stages:
            chosen = "aggressive"  # op-priority propagation without its stages
        return propagate_through_edges(
            module, lambda m, edges: _propagate(m, chosen, factor, options, edges, stages)
        )

    return run


def _propagate(
    module: Module,
    strategy: str,
    factor: str,
    options: dict[str, str],
    edges: EdgeChoice,
    stages: bool = True,
) -> Module:
    from shardonnay.propagation.driver import drop_sharding_rules, propagate

    common = {
        "strategy": strategy,
        "factor_strategy": factor,
        "conservative": _flag(options, "conservative-propagation"),
        "data_flow_edges": edges,
    }
    if strategy == "user-priority":
        common["op_priority_stages"] = stages
    origins = _flag(options, "debug-sharding-origins")
    edge_steps = _flag(options, "debug-propagation-edge-sharding")
    if origins or edge_steps:
        from shardonnay.propagation.debugging.origin_attributes import propagate_with_origins

        return propagate_with_origins(module, origins=origins, edges=edge_steps, **common)
    keep = _flag(options, "keep-sharding-rules")
    result = propagate(module, keep_sharding_rules=keep, **common)  # type: ignore[arg-type]
    if not keep:
        drop_sharding_rules(result)
    return result


register_pass("sdy-basic-propagate", _BASIC)(_propagation_pass("basic"))
register_pass("sdy-aggressive-propagate", _AGGRESSIVE)(_propagation_pass("aggressive"))
register_pass("sdy-op-priority-propagate", _OP_PRIORITY)(_propagation_pass("op-priority"))
register_pass("sdy-user-priority-propagate", _OP_PRIORITY)(_propagation_pass("user-priority"))


@register_pass(
    "sdy-propagation-pipeline",
    {"propagation-strategy": "aggressive", "conservative-propagation": _FALSE, **_DEBUG},
)
def _pipeline_pass(module: Module, options: dict[str, str]) -> Module:
    from shardonnay.pipeline import propagation_pipeline

    return propagation_pipeline(
        module,
        strategy=options["propagation-strategy"],  # type: ignore[arg-type]
        conservative=_flag(options, "conservative-propagation"),
        debug_origins=_flag(options, "debug-sharding-origins"),
        debug_edges=_flag(options, "debug-propagation-edge-sharding"),
    )


# -- import -----------------------------------------------------------------------------


def _register_steps() -> None:
    from shardonnay import pipeline
    from shardonnay.propagation.checks.unreduced_axes import verify_unreduced_axes
    from shardonnay.propagation.importing import call_graph, constants, data_flow_edges, mesh_passes
    from shardonnay.propagation.importing import sharding_constraints as constraints
    from shardonnay.propagation.importing.flatten_call_graph import flatten_call_graph
    from shardonnay.propagation.module_edits import drop_sharding_rules

    steps: dict[str, tuple[Step, dict[str, str]]] = {
        "symbol-dce": (call_graph.symbol_dce, {}),
        "sdy-lift-inlined-meshes": (mesh_passes.lift_inlined_meshes, {}),
        "sdy-inline-meshes": (mesh_passes.inline_meshes, {}),
        "sdy-remove-size-one-axes": (pipeline.remove_size_one_axes, {}),
        "sdy-propagate-sharding-from-func-to-call": (
            call_graph.propagate_sharding_from_func_to_call,
            {},
        ),
        "sdy-constant-or-scalar-splitter": (constants.constant_or_scalar_splitter, {}),
        "sdy-manual-axes-cleanup": (pipeline.manual_axes_cleanup, {}),
        "sdy-add-data-flow-edges": (data_flow_edges.add_data_flow_edges, {}),
        "sdy-add-func-data-flow-edges": (data_flow_edges.add_func_data_flow_edges, {}),
        "sdy-flatten-call-graph": (flatten_call_graph, {}),
        "sdy-apply-sharding-constraints": (
            functools.partial(
                constraints.apply_sharding_constraints, identity_rules=True, explicit_edges=True
            ),
            dict(_DEBUG),
        ),
        "sdy-sharding-group-import": (pipeline.sharding_group_import, {}),
        "sdy-pre-order-funcs": (call_graph.pre_order_funcs, {}),
        # export
        "sdy-propagate-to-func-results": (call_graph.propagate_to_func_results, {}),
        "sdy-insert-func-call-reshards": (call_graph.insert_func_call_reshards, {}),
        "sdy-constant-or-scalar-merger": (constants.constant_or_scalar_merger, {}),
        "sdy-sink-data-flow-edges": (
            data_flow_edges.sink_data_flow_edges,
            {
                "sink-debug-propagation-edge-sharding": _FALSE,
                "sink-debug-sharding-origins": _FALSE,
            },
        ),
        "sdy-sink-func-data-flow-edges": (data_flow_edges.sink_func_data_flow_edges, {}),
        "sdy-remove-sharding-groups": (pipeline.remove_sharding_groups, {}),
        "sdy-sharding-constraint-to-reshard": (constraints.sharding_constraint_to_reshard, {}),
        "sdy-update-non-divisible-input-output-shardings": (
            pipeline.update_non_divisible_input_output_shardings,
            {},
        ),
        "sdy-remove-sub-axes-in-input-output-shardings": (
            pipeline.remove_sub_axes_in_input_output_shardings,
            {},
        ),
        "sdy-close-shardings": (pipeline.close_shardings, {}),
        "sdy-drop-sharding-rules": (drop_sharding_rules, {}),
        "sdy-drop-sharding-and-mesh": (mesh_passes.drop_sharding_and_mesh, {}),
        "sdy-remove-propagation-debug-info": (pipeline.remove_propagation_debug_info, {}),
        "canonicalize": (pipeline.canonicalize, dict(_CANONICALIZE)),
        "sdy-verify-unreduced-axes": (verify_unreduced_axes, {}),
    }
    for name, (step, options) in steps.items():
        register_pass(name, options)(_in_place(step))

    @register_pass("sdy-import-func-calls", {"add-data-flow-edges-on-named-computations": "true"})
    def _import_func_calls(module: Module, options: dict[str, str]) -> Module:
        module = module.copy()
        call_graph.import_func_calls(module)
        if _flag(options, "add-data-flow-edges-on-named-computations"):
            data_flow_edges.add_data_flow_edges(
                module, only=lambda op: op.name == "sdy.named_computation"
            )
        return module

    @register_pass("sdy-export-named-computations")
    def _export_named_computations(module: Module, options: dict[str, str]) -> Module:
        # The edges of a named computation hold its propagated shardings.
        module = module.copy()
        data_flow_edges.sink_data_flow_edges(
            module, only=lambda op: op.name == "sdy.named_computation"
        )
        call_graph.export_named_computations(module)
        return module

    @register_pass("sdy-unflatten-call-graph", {"dedup-functions-fully": _FALSE})
    def _unflatten_call_graph(module: Module, options: dict[str, str]) -> Module:
        module = module.copy()
        call_graph.unflatten_call_graph(module, fully=_flag(options, "dedup-functions-fully"))
        return module


_CANONICALIZE = {
    "cse-between-iterations": _FALSE,
    "enable-patterns": "{sdy-collective}",
    "max-iterations": "10",
    "max-num-rewrites": "-1",
    "region-simplify": "aggressive",
    "test-convergence": _FALSE,
    "top-down": _FALSE,
}

_register_steps()

# -- the import and export pipelines --------------------------------------------------

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


@register_pass("sdy-import-pipeline")
def _import_pipeline(module: Module, options: dict[str, str]) -> Module:
    return run_pipeline(module, f"builtin.module({IMPORT_PIPELINE})")


@register_pass("sdy-export-pipeline")
def _export_pipeline(module: Module, options: dict[str, str]) -> Module:
    return run_pipeline(module, f"builtin.module({EXPORT_PIPELINE})")
