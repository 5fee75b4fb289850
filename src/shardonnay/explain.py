"""Why each propagated sharding is what it is.

`explain_propagation(module, **options)` propagates `module` as
`propagate(module, **options)` does (with the same result) while a
`Recorder` notes every step: which op, data-flow edge, function result or
sharding group changed which value, and the shardings of the step's tensors
just before. Following these "came from" links back from a value, axis by
axis, ends at the value whose sharding held the axis from the start: its
annotation is the origin. The returned `Explanation` tells, for any value
(named as in the propagated module, `%12` in `@main` or `func:%name`):

- `story(value)`: its sharding, then one line per axis: for an axis on a
  dim, the annotation it came from and the ops that carried it (a sub-axis
  cut by a reshape, a data-flow edge of a `while`/`case`, the body of a
  named or manual computation, a sharding group and a user-priority round
  are said so); for an axis in `replicated=`/`unreduced=`, the annotation
  that put it there; last, the origins Shardy's `debug-sharding-origins`
  gives the value (see `shardonnay.propagation.debugging.origins`);
- `origin(value, axis)`: the `Origin` of one axis;
- `why_not(value, axis)`: why an axis does not shard the value (its
  annotation replicates it or closes the dims, an op's rule has no place
  for it, or a neighbour conflicts).

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4, "y"=2]>
... func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<2x4x4xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
...   %1 = stablehlo.reshape %0 : (tensor<8x4xf32>) -> tensor<2x4x4xf32>
...   return %1 : tensor<2x4x4xf32>
... }''')
>>> explanation = explain_propagation(module)
>>> print(explanation.story("%1"))
%1 = stablehlo.reshape: #sdy.sharding<@mesh, [{"x":(1)2, ?}, {"x":(2)2, ?}, {?}]>
  "x":(1)2 on dim 0: from input 0 (%arg0) via stablehlo.negate (%0) -> stablehlo.reshape (%1); "x" split into "x":(1)2 by stablehlo.reshape (%1)
  "x":(2)2 on dim 1: from input 0 (%arg0) via stablehlo.negate (%0) -> stablehlo.reshape (%1); "x" split into "x":(2)2 by stablehlo.reshape (%1)
  Shardy's sharding origins: {"x:(1)2" = "input: 0", "x:(2)2" = "input: 0"}
>>> print(explanation.why_not("%1", "y"))
%1 is not sharded along "y": no tensor next to it ever was
"""  # noqa: E501

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shardonnay.axes import AxisRef
from shardonnay.errors import IRError, ShardonnayError
from shardonnay.ir.attributes import IntegerAttr, dict_str
from shardonnay.ir.core import Block, Module, Op, Value
from shardonnay.ir.naming import find_value, value_names
from shardonnay.ir.shardings import sharding_of
from shardonnay.ops.traits import SHARDING_ANNOTATION, has_trait
from shardonnay.pipeline import propagation_pipeline
from shardonnay.propagation.debugging.origins import sharding_origins
from shardonnay.propagation.debugging.recording import (
    ORIGIN_NAME,
    Change,
    Recorder,
    Ref,
    Step,
    name_origin_sources,
    ref_key,
)
from shardonnay.propagation.driver import DataFlowEdge, propagate
from shardonnay.propagation.projection import ShardingProjection
from shardonnay.sharding import TensorSharding

__all__ = ["AxisStory", "Explanation", "Origin", "Recorder", "Story", "explain_propagation"]


@dataclass(frozen=True)
class Origin:
    """Where an axis of a value's sharding came from: `origin` (e.g. `input 0
    (%arg0)`), the ops that carried it, oldest first, as `(op, value)`, and
    `notes` (a sub-axis split or merged on the way, a priority round).
    `holder`: the value (or `(func, result index)`) whose sharding held the
    axis from the start, None when an op made it (a manual computation's
    manual axes)."""

    origin: str
    chain: tuple[tuple[str, str], ...]
    notes: tuple[str, ...] = ()
    holder: Any = field(default=None, compare=False)

    def __str__(self) -> str:
        text = f"from {self.origin}"
        if self.chain:
            text += " via " + " -> ".join(f"{op} ({value})" for op, value in self.chain)
        return "; ".join((text, *self.notes))


@dataclass(frozen=True)
class AxisStory:
    """One axis of a sharding: on `dim` (or `where` is `replicated` or
    `unreduced`), and its `origin`."""

    axis: AxisRef
    where: str
    origin: Origin
    dim: int | None = None

    def __str__(self) -> str:
        place = f"on dim {self.dim}" if self.dim is not None else self.where
        return f"  {self.axis} {place}: {self.origin}"


@dataclass(frozen=True)
class Story:
    """A value's final sharding and where each of its axes came from."""

    value: str
    op: str | None
    sharding: TensorSharding | None
    axes: tuple[AxisStory, ...]
    shardy_origins: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    location: str | None = None

    def __str__(self) -> str:
        head = f"{self.value} = {self.op}" if self.op is not None else self.value
        if self.location:
            head += f" ({self.location})"
        if self.sharding is None:
            return f"{head}: no sharding"
        lines = [f"{head}: {self.sharding}", *map(str, self.axes), *(f"  {n}" for n in self.notes)]
        if not any(a.dim is not None for a in self.axes) and not self.notes:
            lines.append("  no axis shards a dim")
        if self.shardy_origins:
            lines.append(f"  Shardy's sharding origins: {dict_str(dict(self.shardy_origins))}")
        return "\n".join(lines)


def _overlapping(s: TensorSharding | None, axis: AxisRef) -> tuple[int, AxisRef] | None:
    """The dim of `s` and its axis that overlaps `axis` (first found)."""
    if s is None:
        return None
    for k, d in enumerate(s.dims):
        for a in d.axes:
            if a.overlaps(axis):
                return k, a
    return None


def _has_containing(s: TensorSharding | None, axis: AxisRef) -> bool:
    return s is not None and any(a.contains(axis) for d in s.dims for a in d.axes)


def _as_axis(axis: str | AxisRef) -> AxisRef:
    """`"x"` or `x` is axis x, `"x":(1)2` a sub-axis."""
    if isinstance(axis, AxisRef):
        return axis
    return AxisRef.parse(axis) if axis.startswith('"') else AxisRef(axis)


def _defining_op(v: Value) -> Op | None:
    if v.op is not None:
        return v.op
    return v.defining.parent_op if isinstance(v.defining, Block) else None


class Explanation:
    """The propagated module with the record of how it got its shardings
    (see the module docstring)."""

    def __init__(
        self,
        module: Module,
        recorder: Recorder,
        recorded: dict[Value, Value] | None = None,
        *,
        pipeline: bool = False,
    ):
        self.module = module
        # After the pipeline, values show the shardings the module prints
        # (closed, trimmed by its export steps), not propagation's own.
        self.pipeline = pipeline
        self.recorder = recorder
        self.driver = recorder.driver
        # Values of `module` that propagation knew as other values (the results
        # of a call were those of the named computation it was exported from).
        self.recorded = recorded or {}
        self.value_names = value_names(module)
        self.names: dict[Value, str] = {}
        self.by_name: dict[str, Value] = {}
        self.group_of: dict[Value, int] = {}
        for v, n in self.value_names.items():
            self.names[v] = n.spec
            self.by_name[f"{n.func}:{n.name}"] = v
        # propagation's values -> the module's (the inverse of `recorded`)
        self.printed: dict[Value, Value] = {r: v for v, r in self.recorded.items()}
        for v, r in self.recorded.items():
            if v in self.names:
                self.names.setdefault(r, self.names[v])
                self.names[r] = self.names[v]
        self.group_of.update(getattr(recorder, "groups", {}))
        for op in module.walk():
            if op.name == "sdy.sharding_group":
                self.group_of[op.operands[0]] = op.attributes["group_id"].value
        self._origins: Any = None

    # -- looking up values ---------------------------------------------------------------

    def value(self, spec: str | Value) -> Value:
        """The value named `spec`: `%12` (in @main) or `func:%name`, as the
        propagated module prints it (propagation's own value for a value it
        knew under another, see `recorded`)."""
        if isinstance(spec, Value):
            return self.recorded.get(spec, spec)
        return self.recorded.get(v := self._printed(spec), v)

    def _printed(self, spec: str) -> Value:
        try:
            return find_value(self.module, spec, self.value_names)
        except IRError as e:
            message = str(e).replace("in the program", "in the propagated program")
            raise ShardonnayError(message) from None

    def sharding(self, v: Value) -> TensorSharding | None:
        return self.driver.get(v)

    def name(self, v: Value) -> str:
        return self.names.get(v, "%?")

    # -- the public questions ------------------------------------------------------------

    def story(self, spec: str | Value) -> Story:
        """`spec`'s final sharding (as the propagated module has it) and the
        origin of each of its axes."""
        printed = self._printed(spec) if isinstance(spec, str) else spec
        v = self.value(printed)
        s = self.sharding(v)
        op = printed.op.name if printed.op is not None else None
        naming = self.value_names.get(printed)
        location = naming.location if naming is not None else None
        final = sharding_of(printed) if self.pipeline else s
        if s is None and final is not None and op == "sdy.reshard":
            source = self.name(printed.op.operands[0])
            note = f"an sdy.reshard of {source} that the propagation pipeline inserted"
            return Story(self.name(v), op, final, (), notes=(note,), location=location)
        if s is None or final is None:
            return Story(self.name(v), op, final, (), location=location)
        axes: list[AxisStory] = []
        for k, d in enumerate(final.dims):
            for a in d.axes:
                axes.append(AxisStory(a, "dim", self._origin_or_export(v, a), k))
        for where in ("replicated", "unreduced"):
            for a in getattr(final, where):
                axes.append(AxisStory(a, where, self._listed_origin(v, a, where)))
        origins = self.shardy_origins(v)
        return Story(self.name(v), op, final, tuple(axes), origins, location=location)

    def _origin_or_export(self, v: Value, axis: AxisRef) -> Origin:
        if _overlapping(self.sharding(v), axis) is None:
            return Origin("the propagation pipeline's export steps", ())
        return self.origin(v, axis)

    def explain(self, spec: str | Value) -> str:
        """`str(self.story(spec))`: readable lines."""
        return str(self.story(spec))

    def origin(self, spec: str | Value, axis: str | AxisRef) -> Origin:
        """Where `axis` (an axis of the value's final sharding, or a mesh axis
        name: its first axis of that name) in `spec`'s sharding came from."""
        v = self.value(spec)
        found = _overlapping(self.sharding(v), _as_axis(axis))
        if found is None:
            raise ShardonnayError(f"{self.name(v)} is not sharded along {axis}")
        origin, chain, notes, holder = self._trace(
            self.driver._key(v), found[1], self.recorder.clock + 1
        )
        return Origin(origin, tuple(chain), tuple(dict.fromkeys(notes)), holder)

    def shardy_origins(self, spec: str | Value) -> tuple[tuple[str, str], ...]:
        """The origins Shardy's `debug-sharding-origins` gives the value, as
        `(axis, origin)` pairs sorted by axis."""
        if self._origins is None:
            self._origins = sharding_origins(self.recorder).axes
        entry = self._origins.get(self.driver._key(self.value(spec)), {})
        return tuple(sorted((str(a).replace('"', ""), n) for a, n in entry.items()))

    # -- tracing -------------------------------------------------------------------------

    def _trace(
        self, ref: Ref, axis: AxisRef, before: int
    ) -> tuple[str, list[tuple[str, str]], list[str], Ref | None]:
        """(origin, chain, notes, holder) of `axis` in the sharding `ref` had
        at `before`."""
        change = None
        for c in reversed(self.recorder.changes.get(ref_key(ref), ())):
            found = _overlapping(c.new, axis) if c.time < before else None
            if found is not None and not _has_containing(c.old, found[1]):
                change, axis = c, found[1]
                break
        if change is None:
            notes = [*self._priority_notes(ref, axis), *self._manual_notes(ref, axis)]
            return self._annotation(ref), [], notes, ref
        hop = (self._label(change), self._ref_name(ref))
        if change.source is not None:
            origin, chain, notes, holder = self._trace(
                self.driver._key(change.source), axis, change.time
            )
            return origin, [*chain, hop], notes, holder
        step = change.step
        assert step is not None
        source = self._source(step, ref, change.new, axis)
        if source is None:
            notes = [*self._round_notes(step), *self._manual_notes(ref, axis)]
            return self._unsourced(step, ref, axis), [], notes, None
        source_ref, source_axis = source
        origin, chain, notes, holder = self._trace(source_ref, source_axis, step.time)
        notes = [*notes, *self._round_notes(step)]
        if source_axis != axis:
            verb = "split into" if source_axis.contains(axis) else "became"
            notes.append(f"{source_axis} {verb} {axis} by {hop[0]} ({hop[1]})")
        return origin, [*chain, hop], notes, holder

    def _source(
        self, step: Step, ref: Ref, new: TensorSharding, axis: AxisRef
    ) -> tuple[Ref, AxisRef] | None:
        """The tensor of `step` that gave `axis` to `ref`, and its axis: one
        whose sharding had an overlapping axis just before, on a dim of the
        same factor if there is one."""
        key = ref_key(ref)
        mappings = step.rule.tensor_mappings()
        targets = [i for i, r in enumerate(step.refs) if ref_key(r) == key]
        dims = [k for k, d in enumerate(new.dims) if any(a.overlaps(axis) for a in d.axes)]
        factors = {f for i in targets for d in dims for f in mappings[i][d]}
        fallback = None
        for j, (r, s) in enumerate(zip(step.refs, step.shardings, strict=True)):
            if ref_key(r) == key or s is None:
                continue
            for k, d in enumerate(s.dims):
                for a in d.axes:
                    if not a.overlaps(axis):
                        continue
                    if any(f in factors for f in mappings[j][k]):
                        return r, a
                    fallback = fallback or (r, a)
        return fallback

    def _round_notes(self, step: Step) -> list[str]:
        priority = self.recorder.round_at(step.time)
        if not priority:
            return []
        return [f"carried in the round of priority p{priority}"]

    def _priority_notes(self, ref: Ref, axis: AxisRef) -> list[str]:
        initial = self.recorder.initial.get(ref_key(ref))
        found = _overlapping(initial, axis)
        if found is None or not initial.dims[found[0]].priority:
            return []
        p = initial.dims[found[0]].priority
        return [
            f"dim {found[0]} of that annotation has priority p{p}: it stayed closed, its axes "
            f"replicated, until the round of p{p}"
        ]

    def _manual_notes(self, ref: Ref, axis: AxisRef) -> list[str]:
        op = _defining_op(ref) if isinstance(ref, Value) else None
        if op is None or op.name != "sdy.manual_computation" or ref.op is None:
            return []
        if axis.name not in op.attributes["manual_axes"].names:
            return []
        return [f"a manual axis of {self._op_label(op)}: its body sees the tensor without it"]

    def _listed_origin(self, v: Value, axis: AxisRef, where: str) -> Origin:
        """Where `axis` in `v`'s `replicated` (or `unreduced`) axes came from."""
        ref: Ref = self.driver._key(v)
        chain: list[tuple[str, str]] = []
        before = self.recorder.clock + 1
        while True:
            change = None
            for c in reversed(self.recorder.changes.get(ref_key(ref), ())):
                old = getattr(c.old, where) if c.old is not None else ()
                if c.time < before and axis in getattr(c.new, where) and axis not in old:
                    change = c
                    break
            if change is None or (change.step is not None and not self._is_manual_edge(change)):
                note = f"its annotation lists it in {where}="
                return Origin(self._annotation(ref), tuple(reversed(chain)), (note,), ref)
            chain.append((self._label(change), self._ref_name(ref)))
            if change.source is None:
                assert change.step is not None
                owner = change.step.item.owner
                return Origin(self._manual_annotation(owner), tuple(reversed(chain)), (), owner)
            ref, before = self.driver._key(change.source), change.time

    # -- why not -------------------------------------------------------------------------

    def why_not(self, spec: str | Value, axis: str) -> str:
        """Why mesh axis `axis` does not shard the value `spec` (or how it does)."""
        v = self.value(spec)
        name = self.name(v)
        s = self.sharding(v)
        head = f'{name} is not sharded along "{axis}"'
        probe = _as_axis(axis)
        if s is None and v.op is not None and v.op.name == "sdy.reshard" and self.pipeline:
            source = self.name(v.op.operands[0])
            found = _overlapping(v.op.attributes["sharding"], probe)
            verb = f"is sharded along {found[1]} on dim {found[0]}" if found else head[len(name) :]
            return f"{name} {verb.strip()}: an sdy.reshard of {source} the pipeline inserted"
        found = _overlapping(s, probe)
        if found is not None:
            return f"{name} is sharded along {found[1]} on dim {found[0]}: {self.origin(v, probe)}"
        for where in ("replicated", "unreduced"):
            listed = [a for a in (getattr(s, where) if s is not None else ()) if a.overlaps(probe)]
            if listed:
                return f"{head}: it is {where}, {self._listed_origin(v, listed[0], where)}"
        ref = self.driver._key(v)
        initial = self.recorder.initial.get(ref_key(ref))
        reasons: list[str] = []
        if initial is not None and all(d.is_closed for d in initial.dims) and initial.dims:
            reasons.append(f"its annotation closes every dim ({initial})")
        blocker = self._blocking_step(ref, probe)
        if blocker is not None:
            reasons.append(blocker)
        if not reasons:
            neighbour = self._replicating_neighbour(ref, probe)
            reasons.append(f"no tensor next to it ever was{neighbour}")
        return f"{head}: " + "; ".join(reasons)

    def _blocking_step(self, ref: Ref, axis: AxisRef) -> str | None:
        """The last step next to `ref` where another tensor had `axis`, and
        why it did not reach `ref`."""
        key = ref_key(ref)
        for step in reversed(self.recorder.steps):
            targets = [i for i, r in enumerate(step.refs) if ref_key(r) == key]
            if not targets or step.mesh is None:
                continue
            holders = [
                (j, found)
                for j, s in enumerate(step.shardings)
                if j not in targets and (found := _overlapping(s, axis)) is not None
            ]
            if holders:
                return self._why_blocked(step, targets[0], holders[0][0], holders[0][1])
        return None

    def _replicating_neighbour(self, ref: Ref, axis: AxisRef) -> str:
        """`" (... replicates it)"` for the last neighbour of `ref` that lists
        `axis` in its replicated or unreduced axes."""
        key = ref_key(ref)
        for step in reversed(self.recorder.steps):
            if not any(ref_key(r) == key for r in step.refs):
                continue
            for r, s in zip(step.refs, step.shardings, strict=True):
                if ref_key(r) == key or s is None:
                    continue
                for where in ("replicated", "unreduced"):
                    if any(a.overlaps(axis) for a in getattr(s, where)):
                        verb = "replicates" if where == "replicated" else "has it unreduced"
                        return f" ({self._ref_name(r)}, at {self._step_label(step)}, {verb} it)"
        return ""

    def _why_blocked(self, step: Step, t: int, j: int, held: tuple[int, AxisRef]) -> str:
        n = len(step.rule.operand_mappings)
        where = self._step_label(step)

        def tensor(i: int) -> str:
            kind = f"operand {i}" if i < n else f"result {i - n}"
            return f"{kind} ({self._ref_name(step.refs[i])})"

        dim, axis = held
        factors = step.rule.tensor_mappings()[j][dim]
        text = f"at {where}, {tensor(j)} has {axis} on dim {dim}"
        mine = {f: k for k, fs in enumerate(step.rule.tensor_mappings()[t]) for f in fs}
        placed = [f for f in factors if f in mine]
        if not placed:
            return f"{text}, a dim with no counterpart in {tensor(t)}"
        f = placed[0]
        own = step.shardings[t]
        if own is not None and own.dims[mine[f]].is_closed:
            return f"{text}, but dim {mine[f]} of {tensor(t)} is closed"
        if own is not None and any(a.overlaps(axis) for a in (*own.replicated, *own.unreduced)):
            return f"{text}, but {tensor(t)} replicates it"
        if step.rule.is_blocked(f) or step.rule.factor_kind(f) == "need_replication":
            return f"{text}, but the rule of that op does not propagate that dim"
        old = ShardingProjection.build(step.shardings[:n], step.shardings[n:], step.rule, step.mesh)
        for i, t_factors in enumerate(old.tensors):
            other = t_factors.factors.get(f)
            if i in (j, t) or other is None or not other.axes:
                continue
            if not any(a.overlaps(axis) for a in other.axes):
                return f"{text}, but {tensor(i)} shards that dim along {other.axes[0]}: a conflict"
            blocked = [a for a in t_factors.blocked_axes() if a.overlaps(axis)]
            if blocked:
                return f"{text}, but {tensor(i)} replicates it"
        if any(a.overlaps(axis) for d in (own.dims if own else ()) for a in d.axes):
            return f"{text}, but {tensor(t)} already uses it on another dim"
        return f"{text}, but it was not propagated in that direction (op priorities or a barrier)"

    # -- words ---------------------------------------------------------------------------

    def _ref_name(self, ref: Ref) -> str:
        if isinstance(ref, Value):
            return self.name(ref)
        return f"output {ref[1]}"

    def _step_label(self, step: Step) -> str:
        item = step.item
        if isinstance(item, tuple):
            return f"func.return (output {item[1]})"
        if isinstance(item, DataFlowEdge):
            return f"{self._edge_label(item)} ({self.name(item.owner)})"
        if isinstance(item, Op):
            names = [self.name(r) for r in item.results]
            return f"{item.name} ({', '.join(names)})" if names else item.name
        return "propagation"

    def _label(self, change: Change) -> str:
        if change.source is not None:
            group = self.group_of.get(change.source, self.group_of.get(change.ref, "?"))
            return f"sharding group {group}, shared with {self.name(change.source)}"
        item = change.step.item if change.step is not None else None
        if isinstance(item, tuple):
            return "func.return"
        if isinstance(item, DataFlowEdge):
            return self._edge_label(item)
        if isinstance(item, Op):
            return item.name
        return "propagation"

    def _edge_label(self, edge: DataFlowEdge) -> str:
        owner = edge.owner
        op = _defining_op(owner)
        if op is None:
            return "data flow"
        if owner.op is None and op.name == "func.func":
            return f"argument {owner.index} of @{op.attributes['sym_name']} (data flow)"
        if owner.op is None:
            return f"{self._op_label(op)} body argument {owner.index} (data flow)"
        return f"{self._op_label(op)} result {owner.index} (data flow)"

    def _op_label(self, op: Op) -> str:
        if op.name == "sdy.manual_computation":
            return f"sdy.manual_computation {self.recorder.names[1].get(op, '')}".rstrip()
        if op.name == "sdy.named_computation":
            return f'sdy.named_computation "{op.attributes.get("name", "")}"'
        return op.name

    def _is_manual_edge(self, change: Change) -> bool:
        item = change.step.item if change.step is not None else None
        return isinstance(item, DataFlowEdge) and item.from_sources is not None

    def _unsourced(self, step: Step, ref: Ref, axis: AxisRef) -> str:
        """The origin of an axis that no other tensor of `step` had."""
        item = step.item
        if isinstance(item, DataFlowEdge) and item.from_sources is not None:
            return self._manual_annotation(item.owner)
        return f"{self._step_label(step)}"

    def _manual_annotation(self, owner: Value) -> str:
        op = _defining_op(owner)
        assert op is not None
        kind = "out_shardings" if owner.op is not None else "in_shardings"
        return f"{kind}[{owner.index}] of {self._op_label(op)} ({self._op_results(op)})"

    def _op_results(self, op: Op) -> str:
        return ", ".join(self.name(r) for r in op.results) or op.name

    def _annotation(self, ref: Ref) -> str:
        """The annotation that gave `ref` its initial sharding."""
        if not isinstance(ref, Value):
            func, i = ref
            return f"output {i}" + ("" if func.name == "main" else f" of @{func.name}")
        if ref in self.driver.arg_of:
            func, i = self.driver.arg_of[ref]
            where = "" if func.name == "main" else f" of @{func.name}"
            printed = self.printed.get(ref, ref)
            naming = self.value_names.get(printed)
            known = f", {naming.location}" if naming is not None and naming.location else ""
            return f"input {i}{where} ({self.name(ref)}{known})"
        op = _defining_op(ref)
        name = self.name(ref)
        if op is not None and has_trait(op, SHARDING_ANNOTATION):
            label = self.recorder.names[0].get(op, "")
            if label or op.name == "sdy.sharding_constraint":
                return f"sharding constraint {label} ({name})".replace("  ", " ")
        # the pipeline moves a constraint's sharding onto the value it constrains
        given = self.recorder.initial_origins.get(ref, {})
        constraint = next((n for n in given.values() if n.startswith("constraint_")), None)
        if constraint is not None:
            return f"sharding constraint {constraint} (on {name})"
        if op is not None and op.name == "sdy.manual_computation":
            return self._manual_annotation(ref)
        if op is not None and op.name == "sdy.named_computation":
            return f"{self._op_label(op)} ({name})"
        if ref in self.group_of:
            return f"sharding group {self.group_of[ref]} ({name})"
        if op is not None:
            return f"the sharding of {op.name} ({name})"
        return f"an annotation ({name})"


def explain_propagation(module: Module, *, pipeline: bool = False, **options: Any) -> Explanation:
    """Propagates `module` (`options` as for `propagate`: `strategy`,
    `conservative`, `data_flow_edges`), recording why; `module` is unchanged
    and `Explanation.module` is what `propagate` returns.

    `pipeline=True`: Shardy's whole `sdy-propagation-pipeline`
    (`shardonnay.pipeline`, `options`: `strategy` `aggressive`
    or `basic`, `conservative`): values are named, and their shardings are,
    as `shardonnay propagate` prints them, and values of called functions
    (propagated as named computations, then exported back) are explained."""
    # Constraints and manual computations are named as Shardy numbers them
    # (dead ones included), unless the module names them already.
    named = module.copy()
    naming = not any(ORIGIN_NAME in op.attributes for op in named.walk())
    if naming:
        name_origin_sources(named)
    recorded: dict[Value, Value] = {}
    if pipeline:
        recorder: Recorder = _PipelineRecorder()
        result = propagation_pipeline(named, recorder=recorder, **options)
        recorded = recorder.exported(result)
    else:
        recorder = Recorder()
        result = propagate(named, recorder=recorder, **options)
    if naming:
        for op in result.walk():
            op.attributes.pop(ORIGIN_NAME, None)
    return Explanation(result, recorder, recorded, pipeline=pipeline)


_COMPUTATION = "sdy.explained_computation"


class _PipelineRecorder(Recorder):
    """A `Recorder` that also remembers the named computations propagation
    sees, so that the calls exported from them can be traced back."""

    def start(self, module: Module, driver: Any) -> None:
        super().start(module, driver)
        self.computations: list[Op] = []
        self.groups: dict[Value, int] = {}
        for op in module.walk():
            if op.name == "sdy.sharding_group":
                self.groups[op.operands[0]] = op.attributes["group_id"].value
            if op.name == "sdy.named_computation":
                op.attributes[_COMPUTATION] = IntegerAttr(len(self.computations), "i64")
                self.computations.append(op)

    def exported(self, result: Module) -> dict[Value, Value]:
        """The results of `result`'s calls -> those of the named computations
        they were exported from (the marks are removed)."""
        recorded: dict[Value, Value] = {}
        for op in result.walk():
            mark = op.attributes.pop(_COMPUTATION, None)
            if mark is not None and op.name == "func.call":
                named = self.computations[mark.value]
                recorded.update(zip(op.results, named.results, strict=True))
        return recorded
