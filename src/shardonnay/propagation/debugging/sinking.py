"""Debug entries of data-flow edges moved onto the ops that own the edges.

Shardy's `sdy-sink-data-flow-edges` with `sink-debug-sharding-origins=true`
(or `sink-debug-propagation-edge-sharding=true`) puts what it noted on each
edge of a data-flow op (`stablehlo.while`, `stablehlo.case`, an
`sdy.named_computation`, ...) on the op itself, as two lists in order: the
entries of its block arguments and those of its results.
`shardonnay.propagation.debugging.origin_attributes` sinks the origins of
edges and `shardonnay.propagation.debugging.propagation_edges` their steps.

>>> from shardonnay.propagation.debugging.origin_attributes import propagate_with_origins
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> tensor<8xf32> {
...   %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> out = propagate_with_origins(module, data_flow_edges=True)
>>> out.functions[0].body.ops[0].attributes["sdy.result_sharding_origins"]
({'x': 'input: 0'},)
"""

from __future__ import annotations

from typing import Any

from shardonnay.ir.core import Module, Value
from shardonnay.ops.traits import DATA_FLOW, has_trait

__all__ = ["sink_debug_entries"]


def sink_debug_entries(
    module: Module,
    driver: Any,
    edge_entries: dict[Value, Any],
    named_computations: bool,
    keys: tuple[str, str],
) -> None:
    """Puts the `edge_entries` of the edges each data-flow op owns, in order,
    on the op under `keys` (block arguments, results); an op that owns no
    edge with an entry gets two empty lists. `driver` is the propagation
    driver (its `edge_of_target`); `named_computations`: sink onto
    `sdy.named_computation`s too."""
    owners = {id(edge.owner) for edge in driver.edge_of_target.values()}
    for op in module.walk():
        if op.name == "sdy.named_computation" and not named_computations:
            continue
        block_args = [
            a for r in op.regions for b in r.blocks for a in b.arguments if id(a) in owners
        ]
        results = [r for r in op.results if id(r) in owners]
        if not block_args and not results and not has_trait(op, DATA_FLOW):
            continue
        op.attributes[keys[0]] = tuple(edge_entries[a] for a in block_args if a in edge_entries)
        op.attributes[keys[1]] = tuple(edge_entries[r] for r in results if r in edge_entries)
