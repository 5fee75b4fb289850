"""Where each axis of each propagated sharding came from, as Shardy's
`debug-sharding-origins=true` computes it.

`sharding_origins(recorder)` reads what a `Recorder`
(`shardonnay.propagation.debugging.recording`) noted while propagating. It starts from
the origins Shardy starts from (`Recorder.initial_origins`: `constraint_N`,
`mc_K_input: i`/`mc_K_output: i`, `input: i`, `output: i`), then replays
the steps:

- in every step that changed a sharding, each axis a tensor gains (per
  factor: the axes past the old ones, or the last old axis grown into a
  bigger sub-axis, with sub-axes of consecutive factors of one dim merged)
  takes the origin of the first operand (else result) that already had
  those axes for that factor; a value keeps the first origin of an axis.

`shardonnay.propagation.debugging.origin_attributes` writes the origins where Shardy
prints them (`propagate_with_origins`).

The negate's result gains "x" from its operand, the function argument
(`input: 0`), and then "y" from the constraint it feeds (`constraint_0`):

>>> from shardonnay.propagation.driver import propagate
>>> from shardonnay.propagation.debugging.recording import Recorder
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2, "y"=4]>
... func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<8x16xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
...   %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"y", ?}]> : tensor<8x16xf32>
...   return %1 : tensor<8x16xf32>
... }''')
>>> recorder = Recorder()
>>> out = propagate(module, recorder=recorder)
>>> negate = out.functions[0].body.ops[0]
>>> sharding_origins(recorder).axes[negate.results[0]]
{AxisRef("x"): 'input: 0', AxisRef("y"): 'constraint_0'}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shardonnay.axes import AxisRef
from shardonnay.ir.core import Value
from shardonnay.mesh import Mesh
from shardonnay.propagation.debugging.recording import Change, OriginMap, Recorder, Step
from shardonnay.propagation.projection import (
    PrefixStatus,
    ShardingProjection,
    TensorFactorShardings,
    axis_list_prefix_status,
)
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "ShardingOrigins",
    "new_axis_sources",
    "sharding_origins",
    "step_values",
]


def _source_tensor(
    axes: Sequence[AxisRef], factor: int, tensors: Sequence[TensorFactorShardings]
) -> int | None:
    """The first tensor whose sharding of `factor` starts with `axes`."""
    for i, t in enumerate(tensors):
        sharding = t.factors.get(factor)
        if sharding is not None and (
            axis_list_prefix_status(axes, sharding.axes) is not PrefixStatus.NOT_A_PREFIX
        ):
            return i
    return None


def new_axis_sources(
    old: ShardingProjection, new: ShardingProjection, rule: OpShardingRule, mesh: Mesh
) -> list[dict[AxisRef, int]]:
    """Per tensor of a step (operands then results), each axis it gained and
    the tensor it came from (see the module docstring)."""
    n = old.num_operands
    mappings = rule.tensor_mappings()
    out: list[dict[AxisRef, int]] = []
    for t, (before, after) in enumerate(zip(old.tensors, new.tensors, strict=True)):
        gained: dict[AxisRef, int] = {}
        for dim_factors in mappings[t]:
            previous: AxisRef | None = None
            for f in dim_factors:
                old_axes = before.factors[f].axes
                new_axes = after.factors[f].axes
                if old_axes == new_axes or not new_axes:
                    continue
                last = new_axes[-1]
                if previous is not None and previous.can_merge(last):
                    gained.pop(previous, None)
                    last = previous.merge(last, mesh)
                previous = new_axes[-1]
                introduced = [*new_axes[:-1], last]
                source = _source_tensor(new_axes, f, old.operands)
                if source is None:
                    source = _source_tensor(new_axes, f, old.results)
                    if source is None:
                        continue
                    source += n
                k = len(old_axes)
                if old_axes and old_axes[-1] != introduced[k - 1]:
                    gained.setdefault(introduced[k - 1], source)
                for axis in introduced[k:]:
                    gained.setdefault(axis, source)
        out.append(gained)
    return out


def _lookup(origins: OriginMap, value: Value, axis: AxisRef) -> tuple[str | None, AxisRef | None]:
    """The origin of `axis` in `value` (or of the first recorded axis it
    splits from or merges into) and the axis it was read from."""
    entry = origins.get(value)
    if entry is None:
        return None, None
    if axis in entry:
        return entry[axis], axis
    for other, name in entry.items():
        if other.contains(axis) or axis.contains(other):
            return name, other
    return None, None


def _alternatives(origins: OriginMap, value: Value, axis: AxisRef) -> frozenset[str]:
    """Every origin `_lookup` could give when `axis` is not recorded itself."""
    entry = origins.get(value, {})
    return frozenset(n for o, n in entry.items() if o.contains(axis) or axis.contains(o))


def step_values(recorder: Recorder, step: Step) -> list[Value]:
    """The storage owners of a step's tensors (a function result: the value
    its function returns there)."""
    values = []
    for ref in step.refs:
        if not isinstance(ref, Value):
            func, i = ref
            ref = recorder.driver._key(func.return_op.operands[i])
        values.append(ref)
    return values


@dataclass
class ShardingOrigins:
    """Where each axis of each sharding came from (`axes`, per storage owner).

    `ties`: sets of origins between which Shardy picks in hash order, so
    either may be printed: when an axis merges sub-axes of different origins
    (`"x":(1)2` from input 0 and `"x":(2)2` from input 1 becoming `"x"`),
    shardonnay takes the origin of the major one.
    """

    axes: OriginMap
    ties: set[frozenset[str]]


def sharding_origins(recorder: Recorder) -> ShardingOrigins:
    """The origin of every axis of every sharding after the recorded
    propagation, as Shardy's `debug-sharding-origins` computes it.

    One addition: a sharding-group member given the sharding of another
    member takes that member's origins for the axes it gains (Shardy reads
    an origin that was never recorded there, which is undefined behaviour)."""
    origins = {v: dict(entry) for v, entry in recorder.initial_origins.items()}
    ties: set[frozenset[str]] = set()
    copies = iter(recorder.group_copies)
    copy = next(copies, None)
    for step in recorder.steps:
        while copy is not None and copy.time < step.time:
            _copy_origins(origins, copy)
            copy = next(copies, None)
        outcome = step.outcome
        if outcome is None or step.mesh is None or not outcome.any_updated:
            continue
        n = len(step.rule.operand_mappings)
        old = ShardingProjection.build(step.shardings[:n], step.shardings[n:], step.rule, step.mesh)
        values = step_values(recorder, step)
        for value, gained in zip(
            values, new_axis_sources(old, outcome.projection, step.rule, step.mesh), strict=True
        ):
            for axis, source in gained.items():
                entry = origins.get(value, {})
                if axis in entry:
                    continue
                name, found = _lookup(origins, values[source], axis)
                if name is None:
                    continue
                origins.setdefault(value, entry)[axis] = name
                if found != axis:
                    names = _alternatives(origins, values[source], axis)
                    if len(names) > 1:
                        ties.add(names)
    while copy is not None:
        _copy_origins(origins, copy)
        copy = next(copies, None)
    return ShardingOrigins(origins, ties)


def _copy_origins(origins: OriginMap, copy: Change) -> None:
    """A sharding-group member took the sharding of `copy.source`."""
    assert isinstance(copy.ref, Value) and copy.source is not None
    old = set(copy.old.dim_axes()) if copy.old is not None else set()
    entry = origins.get(copy.ref, {})
    for axis in copy.new.dim_axes():
        if axis in old or axis in entry:
            continue
        name, _ = _lookup(origins, copy.source, axis)
        if name is not None:
            origins.setdefault(copy.ref, entry)[axis] = name
