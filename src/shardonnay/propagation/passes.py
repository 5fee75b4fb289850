"""Shardy's propagation passes and the import passes with options, as pass
functions: `fn(module, options) -> module`, `options` holding every option of
the pass by its Shardy name (the defaults filled in, see the table of
`shardonnay.passes`). The propagation passes return a propagated copy; the
others change their input in place and return it (`run_pipeline` copies
its input once). Given a `module-dump-directory`, `sdy-user-priority-propagate`
saves the module after each of its rounds but the last there, as
`00.propagation_after_user_priority_P.mlir` (P: the round's priority, 0 first;
its ops with their sharding rules), as the pass in jaxlib 0.10.2 does; the
other propagation passes save nothing, as there.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> tensor<8xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> options = {"conservative-propagation": "false", "debug-propagation-edge-sharding": "false",
...            "debug-sharding-origins": "false", "keep-sharding-rules": "false",
...            "module-dump-directory": ""}
>>> out = sdy_basic_propagate(module, options)
>>> print(out.functions[0].body.ops[0].attributes["sdy.sharding"])
#sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from shardonnay.ir.core import Module
from shardonnay.ops.rules import populate_rules
from shardonnay.propagation.debugging.origin_attributes import propagate_with_origins
from shardonnay.propagation.driver import drop_sharding_rules, propagate
from shardonnay.propagation.importing import call_graph, data_flow_edges
from shardonnay.propagation.sharding_store import EdgeChoice

__all__ = [
    "save_module",
    "sdy_aggressive_propagate",
    "sdy_basic_propagate",
    "sdy_export_named_computations",
    "sdy_import_func_calls",
    "sdy_op_priority_propagate",
    "sdy_populate_op_sharding_rules",
    "sdy_unflatten_call_graph",
    "sdy_user_priority_propagate",
]

PassFunction = Callable[[Module, dict[str, str]], Module]

#: The file (without `.mlir`) the user-priority pass saves the module to
#: after the round of priority P, in its `module-dump-directory`.
AFTER_USER_PRIORITY = "00.propagation_after_user_priority_{}"


def save_module(module: Module, directory: str, name: str) -> None:
    """Shardy's `saveModuleOp`: `module`'s text written to `directory/name.mlir`
    (an existing file overwritten); nothing when `directory` is empty. A file
    that cannot be written (a directory that does not exist, as in jaxlib
    0.10.2) is reported on standard error, as Shardy reports it, and the
    pass goes on."""
    if not directory:
        return
    path = Path(directory)
    try:
        (path / f"{name}.mlir").write_text(module.to_text())
    except OSError as e:
        print(f"error when writing file {path / (name + '.mlir')}: {e.strerror}", file=sys.stderr)


def _flag(options: dict[str, str], name: str) -> bool:
    return options[name] == "true"


def sdy_populate_op_sharding_rules(module: Module, options: dict[str, str]) -> Module:
    """`sdy-populate-op-sharding-rules{conservative-propagation}`."""
    return populate_rules(module, conservative=_flag(options, "conservative-propagation"))


def _propagation_pass(strategy: str) -> PassFunction:
    """The pass `sdy-{strategy}-propagate`: on the module's data-flow edges if
    it has them, else on the values that own them."""

    def run(module: Module, options: dict[str, str]) -> Module:
        default = "basic" if strategy == "basic" else "aggressive"
        factor = options.get("propagation-strategy", default)
        chosen = strategy
        stages = options.get("run-op-priority-propagation") != "false"
        if strategy == "op-priority" and not stages:
            chosen = "aggressive"  # op-priority propagation without its stages
        return data_flow_edges.propagate_through_edges(
            module, lambda m, edges: _propagate(m, chosen, factor, options, edges, stages)
        )

    run.__name__ = run.__qualname__ = "sdy_" + strategy.replace("-", "_") + "_propagate"
    run.__doc__ = f"`sdy-{strategy}-propagate` with Shardy's options."
    return run


def _propagate(
    module: Module,
    strategy: str,
    factor: str,
    options: dict[str, str],
    edges: EdgeChoice,
    stages: bool = True,
) -> Module:
    common = {
        "strategy": strategy,
        "factor_strategy": factor,
        "conservative": _flag(options, "conservative-propagation"),
        "data_flow_edges": edges,
    }
    if strategy == "user-priority":
        common["op_priority_stages"] = stages
        directory = options["module-dump-directory"]
        if directory:
            conservative = common["conservative"]

            def save_round(priority: int, module: Module) -> None:
                copy = populate_rules(module.copy(), conservative=conservative)
                save_module(copy, directory, AFTER_USER_PRIORITY.format(priority))

            common["after_round"] = save_round
    origins = _flag(options, "debug-sharding-origins")
    edge_steps = _flag(options, "debug-propagation-edge-sharding")
    if origins or edge_steps:
        return propagate_with_origins(module, origins=origins, edges=edge_steps, **common)
    keep = _flag(options, "keep-sharding-rules")
    result = propagate(module, keep_sharding_rules=keep, **common)  # type: ignore[arg-type]
    if not keep:
        drop_sharding_rules(result)
    return result


sdy_basic_propagate = _propagation_pass("basic")
sdy_aggressive_propagate = _propagation_pass("aggressive")
sdy_op_priority_propagate = _propagation_pass("op-priority")
sdy_user_priority_propagate = _propagation_pass("user-priority")


def sdy_import_func_calls(module: Module, options: dict[str, str]) -> Module:
    """`sdy-import-func-calls{add-data-flow-edges-on-named-computations}`."""
    call_graph.import_func_calls(module)
    if _flag(options, "add-data-flow-edges-on-named-computations"):
        data_flow_edges.add_data_flow_edges(
            module, only=lambda op: op.name == "sdy.named_computation"
        )
    return module


def sdy_export_named_computations(module: Module, options: dict[str, str]) -> Module:
    """`sdy-export-named-computations`: the edges of a named computation hold
    its propagated shardings, so they are sunk first."""
    data_flow_edges.sink_data_flow_edges(module, only=lambda op: op.name == "sdy.named_computation")
    call_graph.export_named_computations(module)
    return module


def sdy_unflatten_call_graph(module: Module, options: dict[str, str]) -> Module:
    """`sdy-unflatten-call-graph{dedup-functions-fully}`."""
    call_graph.unflatten_call_graph(module, fully=_flag(options, "dedup-functions-fully"))
    return module
