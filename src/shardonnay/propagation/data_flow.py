"""Data-flow edges: the values that control flow ties to one sharding.

A data-flow op (one with the `DATA_FLOW` trait of `shardonnay.ops.traits`,
as Shardy's `ShardableDataFlowOpInterface`: not `stablehlo.if`) gets one
`DataFlowEdge` per value it ties: for result `i` of `stablehlo.while`, the
result and the `i`-th argument of both regions are the edge's targets, the
`i`-th operand and the `i`-th value the body returns its sources;
`stablehlo.case` results have each branch's returned value as sources;
`stablehlo.optimization_barrier` results their operand;
`sdy.named_computation` and `sdy.manual_computation` arguments their operand
and their results the value returned by the body.

A manual computation's body sees its tensors without the manual axes
(`erase_manual_axes`), and the outside sees the body's shardings with them
put back (`add_free_axes`); both live with the sharding accessor,
`shardonnay.ir.shardings`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from shardonnay.ir.core import Op, Value
from shardonnay.ir.shardings import (
    IN_SHARDINGS,
    MANUAL_AXES,
    OUT_SHARDINGS,
    add_free_axes,
    erase_manual_axes,
)
from shardonnay.sharding import TensorSharding

__all__ = [
    "DataFlowEdge",
    "add_free_axes",
    "data_flow_edges_of",
    "erase_manual_axes",
]


@dataclass(eq=False)
class DataFlowEdge:
    """Values that share one sharding (`targets`, the first is the owner) and
    the values that flow into them (`sources`, the operands `source_uses` of
    the data-flow op or of its regions' terminators)."""

    sources: list[Value]
    targets: list[Value]
    source_uses: list[tuple[Op, int]] = field(repr=False)
    # The owner's sharding as its sources see it, and back (manual computations:
    # the body sees its arguments without the manual axes, the outside sees
    # the results with them).
    to_sources: Callable[[TensorSharding], TensorSharding] | None = field(default=None, repr=False)
    from_sources: Callable[[TensorSharding], TensorSharding] | None = field(
        default=None, repr=False
    )

    @property
    def owner(self) -> Value:
        return self.targets[0]


def data_flow_edges_of(op: Op) -> tuple[list[DataFlowEdge], list[DataFlowEdge]]:
    """The edges of a data-flow op: those owned by its block arguments (placed
    first in program order) and those owned by its results (placed after it)."""

    def edge(uses: list[tuple[Op, int]], targets: list[Value]) -> DataFlowEdge:
        return DataFlowEdge([user.operands[i] for user, i in uses], targets, uses)

    name = op.name
    if name == "stablehlo.while":
        cond, body = (r.entry for r in op.regions)
        ret = body.terminator
        return [], [
            edge([(op, i), (ret, i)], [r, body.arguments[i], cond.arguments[i]])
            for i, r in enumerate(op.results)
        ]
    if name == "stablehlo.case":
        rets = [r.entry.terminator for r in op.regions]
        return [], [edge([(t, i) for t in rets], [r]) for i, r in enumerate(op.results)]
    if name == "stablehlo.optimization_barrier":
        return [], [edge([(op, i)], [r]) for i, r in enumerate(op.results)]
    if name == "sdy.named_computation":
        body = op.regions[0].entry
        ret = body.terminator
        return (
            [edge([(op, i)], [a]) for i, a in enumerate(body.arguments)],
            [edge([(ret, i)], [r]) for i, r in enumerate(op.results)],
        )
    if name == "sdy.manual_computation":
        body = op.regions[0].entry
        ret = body.terminator
        manual = op.attributes[MANUAL_AXES].names
        ins, outs = op.attributes[IN_SHARDINGS], op.attributes[OUT_SHARDINGS]
        arg_edges, result_edges = [], []
        for i, a in enumerate(body.arguments):
            e = edge([(op, i)], [a])
            e.to_sources = functools.partial(add_free_axes, ins[i], manual_axes=manual)
            e.from_sources = functools.partial(erase_manual_axes, manual_axes=manual)
            arg_edges.append(e)
        for i, r in enumerate(op.results):
            e = edge([(ret, i)], [r])
            e.to_sources = functools.partial(erase_manual_axes, manual_axes=manual)
            e.from_sources = functools.partial(add_free_axes, outs[i], manual_axes=manual)
            result_edges.append(e)
        return arg_edges, result_edges
    return [], []
