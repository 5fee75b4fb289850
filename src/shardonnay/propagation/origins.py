"""What propagation did, and Shardy's `debug-sharding-origins` and
`debug-propagation-edge-sharding` from it.

A `Recorder`, given to `propagate(module, recorder=...)`, notes every step of
propagation (an op, a data-flow edge or a function result, with the
shardings of its tensors just before and the factor shardings just after)
and every sharding change. It does not alter the result.

`sharding_origins(recorder)` then computes, exactly as Shardy's
`debug-sharding-origins=true` does, where each axis of each propagated
sharding came from:

- at the start, the axes of a sharding constraint are from
  `constraint_N` (N counts the constraints of the module in order; the
  constraint's operand, when it has a sharding, gets that name for its own
  axes too), the in/out shardings of the K-th manual computation from
  `mc_K_input: i`/`mc_K_output: i` (its i-th operand too when it has a
  sharding), and those of function argument/result i from `input: i` /
  `output: i`; the first name given to an axis of a value stays;
- in every step that changed a sharding, each axis a tensor gains (per
  factor: the axes past the old ones, or the last old axis grown into a
  bigger sub-axis, with sub-axes of consecutive factors of one dim merged)
  takes the origin of the first operand (else result) that already had
  those axes for that factor; a value keeps the first origin of an axis.

`save_origins(recorder)` writes them where Shardy prints them:
`sdy.sharding_origins` (a dictionary per function argument/result and
sharding constraint, a list of dictionaries, one per result, on other ops),
`sdy.block_arg_sharding_origins`/`sdy.result_sharding_origins` on data-flow
ops (the dictionaries of the edges that have one), and
`sdy.sharding_origin_name` (`constraint_N`, `mc_K`) on constraints and manual
computations; a name that refers to the value itself becomes `"self"`.
`shardonnay.propagation.propagation_edges` gives, per op, the steps that
changed its tensors and which tensor each axis came from
(`sdy.propagation_edges`, `save_origins(recorder, edges=True)`).
`propagate_with_origins(module)` does it all for `propagate`,
`propagation_pipeline(module, debug_origins=True, debug_edges=True)` for
Shardy's pipeline (through `debug_recorder`).

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
>>> out.functions[0].result_attrs(0)["sdy.sharding_origins"]
{'x': 'input: 0', 'y': 'constraint_0'}
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shardonnay.axes import AxisRef
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.mesh import Mesh
from shardonnay.propagation.data_flow import DATA_FLOW_OPS
from shardonnay.propagation.factor_propagation import OpPropagationResult
from shardonnay.propagation.projection import (
    PrefixStatus,
    ShardingProjection,
    TensorFactorShardings,
    axis_list_prefix_status,
)
from shardonnay.sharding import TensorSharding
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "Change",
    "Recorder",
    "ShardingOrigins",
    "Step",
    "debug_recorder",
    "name_origin_sources",
    "propagate_with_origins",
    "save_origins",
    "sharding_origins",
    "with_debug_origins",
]

SHARDING = "sdy.sharding"
ORIGINS = "sdy.sharding_origins"
ORIGIN_NAME = "sdy.sharding_origin_name"
BLOCK_ARG_ORIGINS = "sdy.block_arg_sharding_origins"
RESULT_ORIGINS = "sdy.result_sharding_origins"

# Where a sharding is stored: a value (its storage owner) or a function result.
Ref = Value | tuple[Func, int]
# Per value (a storage owner), the origin of each axis of its sharding.
OriginMap = dict[Value, dict[AxisRef, str]]


# -- recording -----------------------------------------------------------------------


@dataclass(eq=False)
class Step:
    """One propagation step: what ran (`item`: an op, a data-flow edge or a
    function result), its tensors (operands then results) and their
    shardings just before it; `time`: the clock when it started; `mesh` and
    `outcome` (the factor shardings after it, which tensors changed)."""

    item: Any
    refs: list[Ref]
    shardings: list[TensorSharding | None]
    rule: OpShardingRule
    time: int
    mesh: Mesh | None = None
    outcome: OpPropagationResult | None = None


@dataclass(eq=False)
class Change:
    """`ref`'s sharding went from `old` to `new` at `time`, by `step` (or, for
    a sharding group, copied from the group member `source`)."""

    ref: Ref
    old: TensorSharding | None
    new: TensorSharding
    time: int
    step: Step | None = None
    source: Value | None = None


def ref_key(ref: Ref) -> Any:
    """A hashable key for `ref` (a function result: its `func.func` op and index)."""
    return ref if isinstance(ref, Value) else (ref[0].op, ref[1])


@dataclass
class Recorder:
    """Notes the steps and changes made by `propagate(..., recorder=...)`.

    `initial`: every stored sharding when propagation started (keys as
    `ref_key`), before user priorities held some dims back;
    `initial_origins`: the origins Shardy starts from (see the module
    docstring).
    """

    module: Module | None = None
    driver: Any = None
    clock: int = 0
    steps: list[Step] = field(default_factory=list)
    changes: dict[Any, list[Change]] = field(default_factory=dict)
    initial: dict[Any, TensorSharding | None] = field(default_factory=dict)
    initial_origins: OriginMap = field(default_factory=dict)
    group_copies: list[Change] = field(default_factory=list)
    rounds: list[tuple[int, int]] = field(default_factory=list)
    first_step: int = 0
    names: tuple[dict[Op, str], dict[Op, str]] = field(default_factory=lambda: ({}, {}))

    def start(self, module: Module, driver: Any) -> None:
        self.module, self.driver = module, driver
        self.initial = {ref_key(v): s for v, s in driver.shardings.items()}
        for func in module.functions:
            if func.is_declaration:
                continue
            for i in range(len(func.type.results)):
                self.initial[ref_key((func, i))] = func.result_attrs(i).get(SHARDING)
        self.names = origin_names(module)
        self.initial_origins = _initial_origins(module, driver, self.names)

    def priority_round(self, priority: int) -> None:
        """User-priority propagation restores the dims of `priority` now."""
        self.rounds.append((self.clock, priority))

    def round_at(self, time: int) -> int:
        """The user priority whose round was running at `time` (0 before any)."""
        current = 0
        for start, priority in self.rounds:
            if start < time:
                current = priority
        return current

    def step(
        self,
        item: Any,
        refs: Sequence[Ref],
        shardings: Sequence[TensorSharding | None],
        rule: OpShardingRule,
        *,
        mesh: Mesh | None = None,
        outcome: OpPropagationResult | None = None,
    ) -> Step:
        self.clock += 1
        step = Step(item, list(refs), list(shardings), rule, self.clock, mesh, outcome)
        self.steps.append(step)
        return step

    def changed(
        self, ref: Ref, old: TensorSharding | None, new: TensorSharding, by: Step | Value
    ) -> None:
        self.clock += 1
        step, source = (by, None) if isinstance(by, Step) else (None, by)
        change = Change(ref, old, new, self.clock, step, source)
        self.changes.setdefault(ref_key(ref), []).append(change)
        if source is not None:
            self.group_copies.append(change)


# -- the origins -----------------------------------------------------------------------


def origin_names(module: Module) -> tuple[dict[Op, str], dict[Op, str]]:
    """The origin names of the sharding constraints (`constraint_N`) and
    manual computations (`mc_K`) of `module`: their `sdy.sharding_origin_name`,
    or else their number in (post-)order."""
    ops = list(module.walk_post_order())
    tables: list[dict[Op, str]] = []
    kinds = (("sdy.sharding_constraint", "constraint_"), ("sdy.manual_computation", "mc_"))
    for kind, prefix in kinds:
        of_kind = [op for op in ops if op.name == kind]
        named = [op.attributes.get(ORIGIN_NAME) for op in of_kind]
        taken = {int(n[len(prefix) :]) for n in named if n and n[len(prefix) :].isdigit()}
        fresh = (k for k in itertools.count() if k not in taken)
        tables.append(
            {op: n or f"{prefix}{next(fresh)}" for op, n in zip(of_kind, named, strict=True)}
        )
    return tables[0], tables[1]


def name_origin_sources(module: Module) -> None:
    """Sets, in place, `sdy.sharding_origin_name` on every sharding constraint
    and manual computation of `module` (as Shardy numbers them before
    propagating, dead ones included)."""
    for table in origin_names(module):
        for op, name in table.items():
            op.attributes[ORIGIN_NAME] = name


def _save(origins: OriginMap, value: Value, sharding: TensorSharding | None, name: str) -> None:
    if sharding is None:
        return
    entry = origins.setdefault(value, {})
    for d in sharding.dims:
        for axis in d.axes:
            entry.setdefault(axis, name)
    if not entry:
        del origins[value]


def _initial_origins(
    module: Module, driver: Any, names: tuple[dict[Op, str], dict[Op, str]]
) -> OriginMap:
    """Shardy's starting origins: constraints, then manual computations,
    then function arguments and results (the first name of an axis stays)."""
    origins: OriginMap = {}
    key = driver._key
    constraints, manual = names
    for op, name in constraints.items():
        _save(origins, key(op.results[0]), driver.get(op.results[0]), name)
        _save(origins, key(op.operands[0]), driver.get(op.operands[0]), name)
    for op, name in manual.items():
        args = op.regions[0].entry.arguments
        for i, s in enumerate(op.attributes["in_shardings"]):
            _save(origins, key(args[i]), s, f"{name}_input: {i}")
            _save(origins, key(op.operands[i]), driver.get(op.operands[i]), f"{name}_input: {i}")
        for i, s in enumerate(op.attributes["out_shardings"]):
            _save(origins, key(op.results[i]), s, f"{name}_output: {i}")
    for func in module.functions:
        if func.is_declaration:
            continue
        for i, arg in enumerate(func.arguments):
            _save(origins, key(arg), driver.get(arg), f"input: {i}")
        for i, v in enumerate(func.return_op.operands):
            s = func.result_attrs(i).get(SHARDING)
            _save(origins, key(v), s if isinstance(s, TensorSharding) else None, f"output: {i}")
    return origins


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


# -- writing them -----------------------------------------------------------------------


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
    `shardonnay.propagation.propagation_edges`)."""
    module, driver = recorder.module, recorder.driver
    assert module is not None and driver is not None
    sinking = sink if sink is not None else bool(driver.edge_of_target)
    if edges:
        from shardonnay.propagation.propagation_edges import save_propagation_edges

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
        sink_debug_entries(module, driver, edge_entries, sink_named_computations)


def _func_of_return(module: Module, return_op: Op) -> Func:
    for func in module.functions:
        if not func.is_declaration and func.return_op is return_op:
            return func
    raise AssertionError("a func.return outside of its function")


def sink_debug_entries(
    module: Module,
    driver: Any,
    edge_entries: dict[Value, Any],
    named_computations: bool,
    keys: tuple[str, str] = (BLOCK_ARG_ORIGINS, RESULT_ORIGINS),
) -> None:
    """`sdy-sink-data-flow-edges` with `sink-debug-sharding-origins=true` (or,
    with `keys` for edges, `sink-debug-propagation-edge-sharding=true`): the
    entries of the edges a data-flow op owns, in order, on the op."""
    owners = {id(edge.owner) for edge in driver.edge_of_target.values()}
    for op in module.walk():
        if op.name == "sdy.named_computation" and not named_computations:
            continue
        block_args = [
            a for r in op.regions for b in r.blocks for a in b.arguments if id(a) in owners
        ]
        results = [r for r in op.results if id(r) in owners]
        if not block_args and not results and not _is_data_flow_op(op):
            continue
        op.attributes[keys[0]] = tuple(edge_entries[a] for a in block_args if a in edge_entries)
        op.attributes[keys[1]] = tuple(edge_entries[r] for r in results if r in edge_entries)


def _is_data_flow_op(op: Op) -> bool:
    return op.name in DATA_FLOW_OPS


def debug_recorder(module: Module, *, origins: bool, edges: bool) -> Recorder:
    """A `Recorder` for Shardy's pipeline with `debug-sharding-origins` and/or
    `debug-propagation-edge-sharding`, on `module` after
    `sdy-apply-sharding-constraints` and before propagation: it names the
    constraints and manual computations (`name_origin_sources`) and, for
    edges, notes what `sdy-apply-sharding-constraints` did as Shardy does
    (`shardonnay.propagation.propagation_edges.note_applied_constraints`)."""
    if origins:
        name_origin_sources(module)
    recorder = Recorder()
    if edges:
        from shardonnay.propagation.propagation_edges import note_applied_constraints

        note_applied_constraints(module, recorder)
    return recorder


def propagate_with_origins(
    module: Module, *, origins: bool = True, edges: bool = False, **options: Any
) -> Module:
    """`propagate(module, **options)` with Shardy's `debug-sharding-origins`
    attributes on the result (see the module docstring); `edges`: and those
    of `debug-propagation-edge-sharding` (see
    `shardonnay.propagation.propagation_edges`);
    `origins=False`: those only."""
    from shardonnay.propagation.driver import propagate

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
