"""Shardy's `debug-propagation-edge-sharding`: per op, the propagation steps
that changed its tensors and, per axis, the tensor it came from.

It reads what a `Recorder` (see `shardonnay.propagation.debugging.recording`) noted
while propagating: every step that changed a sharding gets a number (over
those steps only, in order), and each axis a tensor of the op gained in it
is an edge from the tensor it came from (`new_axis_sources`) to that
tensor. `save_propagation_edges(recorder)` writes them where Shardy prints
them: `sdy.propagation_edges` on ops (on a function's result 0 for the
steps of its results), and, once sunk,
`sdy.block_arg_propagation_edges`/`sdy.result_propagation_edges` on
data-flow ops. `save_origins(recorder, edges=True)` and
`propagate_with_origins(module, edges=True)` of
`shardonnay.propagation.debugging.origin_attributes` call it.

>>> from shardonnay.propagation.debugging.origin_attributes import propagate_with_origins
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> tensor<8xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> out = propagate_with_origins(module, origins=False, edges=True)
>>> print(out.functions[0].body.ops[0].attributes[EDGES])
#sdy.propagation_edges<[{step-0 = [{"x" = operand-0 -> [result-0]}]}]>
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shardonnay.axes import AxisRef
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import SHARDING
from shardonnay.ops.traits import DATA_FLOW, has_trait
from shardonnay.propagation.debugging.origins import new_axis_sources
from shardonnay.propagation.debugging.recording import Recorder, Step
from shardonnay.propagation.debugging.sinking import sink_debug_entries
from shardonnay.propagation.projection import ShardingProjection
from shardonnay.sharding import TensorSharding, TensorShardingPerValue

__all__ = [
    "EDGES",
    "PropagationEdges",
    "note_applied_constraints",
    "propagation_edges",
    "save_propagation_edges",
]

EDGES = "sdy.propagation_edges"
BLOCK_ARG_EDGES = "sdy.block_arg_propagation_edges"
RESULT_EDGES = "sdy.result_propagation_edges"


@dataclass(frozen=True)
class PropagationEdges:
    """`#sdy.propagation_edges<[{step-N = [{"x" = operand-1 -> [result-0]}]}]>`:
    per propagation step (numbered over the steps that changed a sharding),
    per axis, the tensor of the op it came from and those it went to."""

    steps: tuple[tuple[int, tuple[tuple[AxisRef, str, tuple[str, ...]], ...]], ...]

    def __str__(self) -> str:
        steps = []
        for n, axes in self.steps:
            body = ", ".join(f"{{{a} = {src} -> [{', '.join(dst)}]}}" for a, src, dst in axes)
            steps.append(f"{{step-{n} = [{body}]}}")
        return f"#sdy.propagation_edges<[{', '.join(steps)}]>"


# One edge: step number, source tensor, target tensor (indices over operands then results).
_Edge = tuple[int, int, int]


def propagation_edges(recorder: Recorder) -> dict[Any, PropagationEdges]:
    """Shardy's `debug-propagation-edge-sharding`, per op (an `Op`, a
    `DataFlowEdge`, or a function's `func.func` op for its results): every
    axis each step gave a tensor and the tensor it came from.

    As in Shardy, an axis is noted only the first time it reaches a tensor
    of the op, and a function's result steps all count as steps of its
    result 0 (so an axis reaches a function result, or the value it
    returns, once)."""
    per_item: dict[Any, tuple[Step, dict[AxisRef, list[_Edge]]]] = {}
    number = recorder.first_step
    for step in recorder.steps:
        outcome = step.outcome
        if outcome is None or step.mesh is None or not outcome.any_updated:
            continue
        n = len(step.rule.operand_mappings)
        old = ShardingProjection.build(step.shardings[:n], step.shardings[n:], step.rule, step.mesh)
        item = step.item
        key = (item[0].op, 0) if isinstance(item, tuple) else item
        _, axes = per_item.setdefault(key, (step, {}))
        for t, gained in enumerate(new_axis_sources(old, outcome.projection, step.rule, step.mesh)):
            for axis, source in gained.items():
                axes.setdefault(axis, []).append((number, source, t))
        number += 1
    return {key: _edges_attr(recorder, step, axes) for key, (step, axes) in per_item.items()}


def _edges_attr(
    recorder: Recorder, step: Step, axes: dict[AxisRef, list[_Edge]]
) -> PropagationEdges:
    n = len(step.rule.operand_mappings)

    def node(t: int) -> str:
        return f"operand-{t}" if t < n else f"result-{t - n}"

    by_step: dict[int, dict[AxisRef, tuple[int, list[int]]]] = {}
    for axis, edges in axes.items():
        seen: set[int] = set()
        for number, source, target in edges:
            if target in seen:
                continue
            seen.add(target)
            _, targets = by_step.setdefault(number, {}).setdefault(axis, (source, []))
            targets.append(target)
    return PropagationEdges(
        tuple(
            (
                number,
                tuple(
                    (axis, node(source), tuple(node(t) for t in sorted(set(targets))))
                    for axis, (source, targets) in sorted(per_axis.items())
                ),
            )
            for number, per_axis in sorted(by_step.items())
        )
    )


def note_applied_constraints(module: Module, recorder: Recorder) -> None:
    """Notes on `module` (after `sdy-apply-sharding-constraints`, before
    propagation) what that pass did, as Shardy does with edges: each
    constraint that gave its sharding to its input is a step (numbered
    first, in post-order) whose edges bring its axes from `result-0` to
    `operand-0`; `recorder` numbers propagation's steps on from the last
    step that noted an edge."""
    number = 0
    for op in module.walk_post_order():
        if op.name != "sdy.sharding_constraint" or not _gave_its_sharding(op):
            continue
        axes = sorted(op.attributes["sharding"].dim_axes())
        if axes:
            entries = tuple((a, "result-0", ("operand-0",)) for a in axes)
            op.attributes[EDGES] = PropagationEdges(((number, entries),))
            # Propagation numbers its steps on from the last one noted.
            recorder.first_step = number + 1
        number += 1


def _gave_its_sharding(op: Op) -> bool:
    """Whether `sdy-apply-sharding-constraints` set the sharding of the input
    of the constraint `op` (fully closed, now the input's own sharding)."""
    sharding: TensorSharding = op.attributes["sharding"]
    if not all(d.is_closed for d in sharding.dims):
        return False
    v = op.operands[0]
    if v.op is not None:
        if has_trait(v.op, DATA_FLOW):
            return False
        per_value = v.op.attributes.get(SHARDING)
        return isinstance(per_value, TensorShardingPerValue) and per_value[v.index] == sharding
    parent = v.defining.parent_op if v.defining is not None else None
    if parent is None or parent.name != "func.func":
        return False
    attrs = parent.attributes.get("arg_attrs")
    return attrs is not None and attrs[v.index].get(SHARDING) == sharding


def save_propagation_edges(recorder: Recorder, *, sink: bool, named_computations: bool) -> None:
    """Writes `propagation_edges(recorder)` on the propagated module (see the
    module docstring). `sink`: put those of data-flow edges on their ops
    (Shardy's `sink-debug-propagation-edge-sharding=true`);
    `named_computations`: on `sdy.named_computation`s too."""
    module, driver = recorder.module, recorder.driver
    assert module is not None
    owned: dict[Value, PropagationEdges] = {}
    for key, edges in propagation_edges(recorder).items():
        if not edges.steps:
            continue
        if isinstance(key, tuple):
            Func(key[0]).result_attrs(0)[EDGES] = edges
        elif isinstance(key, Op):
            key.attributes[EDGES] = edges
        else:
            owned[key.owner] = edges
    if sink:
        keys = (BLOCK_ARG_EDGES, RESULT_EDGES)
        sink_debug_entries(module, driver, owned, named_computations, keys)
