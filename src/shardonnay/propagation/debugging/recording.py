"""What propagation did: the `Recorder` that `propagate(module, recorder=...)`
tells about every step and every sharding change.

A step is one propagation through an op, a data-flow edge or a function
result: its tensors (operands then results), their shardings just before
it, the rule, and the factor shardings just after it. A change is one
sharding going from an old value to a new one, made by a step or copied
from another member of a sharding group. Every step and change gets the
next tick of one clock, so that they can be put in order. Recording does
not alter the result.

When propagation starts, the recorder also notes every stored sharding
(`Recorder.initial`) and the origins Shardy starts `debug-sharding-origins`
from (`Recorder.initial_origins`): the axes of a sharding constraint are
from `constraint_N` (N counts the constraints of the module in order; the
constraint's operand, when it has a sharding, gets that name for its own
axes too), the in/out shardings of the K-th manual computation from
`mc_K_input: i`/`mc_K_output: i` (its i-th operand too when it has a
sharding), and those of function argument/result i from `input: i` /
`output: i`; the first name given to an axis of a value stays.

What is computed from a recording: the origin of every axis
(`shardonnay.propagation.debugging.origins`), the attributes Shardy prints for them
(`shardonnay.propagation.debugging.origin_attributes`), the propagation edges
(`shardonnay.propagation.debugging.propagation_edges`) and the story of a sharding
(`shardonnay.explain`).

>>> from shardonnay.propagation.driver import propagate
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> tensor<8xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> recorder = Recorder()
>>> _ = propagate(module, recorder=recorder)

The negate is step 1 and gives its result a sharding (change 2); the
function result is step 3 and takes that sharding (change 4):

>>> [(step.time, getattr(step.item, "name", "result of @main")) for step in recorder.steps]
[(1, 'stablehlo.negate'), (3, 'result of @main')]
>>> [(c.time, c.step.time, str(c.new)) for cs in recorder.changes.values() for c in cs]
[(2, 1, '#sdy.sharding<@mesh, [{"x", ?}]>'), (4, 3, '#sdy.sharding<@mesh, [{"x", ?}]>')]
>>> list(recorder.initial_origins.values())
[{AxisRef("x"): 'input: 0'}]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shardonnay.axes import AxisRef
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import func_result_sharding
from shardonnay.mesh import Mesh
from shardonnay.propagation.factor_propagation import OpPropagationResult
from shardonnay.sharding import TensorSharding
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "ORIGIN_NAME",
    "Change",
    "OriginMap",
    "Recorder",
    "Ref",
    "Step",
    "name_origin_sources",
    "origin_names",
    "ref_key",
]

ORIGIN_NAME = "sdy.sharding_origin_name"

# Where a sharding is stored: a value (its storage owner) or a function result.
Ref = Value | tuple[Func, int]
# Per value (a storage owner), the origin of each axis of its sharding.
OriginMap = dict[Value, dict[AxisRef, str]]


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
                self.initial[ref_key((func, i))] = func_result_sharding(func, i)
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


# -- where origins start -------------------------------------------------------------


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
            _save(origins, key(v), func_result_sharding(func, i), f"output: {i}")
    return origins
