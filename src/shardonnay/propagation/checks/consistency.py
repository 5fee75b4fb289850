"""Are a module's propagated shardings sound? A checker of propagation's output.

`check_propagated(module, original)` looks at a module that `propagate` (or
`propagation_pipeline`) produced and reports, as typed `Finding`s naming the
op and value:

(a) `INVALID_SHARDING`: a sharding (of a function argument or result, an
    op result, a constraint or reshard, a manual or named computation's
    in/out shardings) that `TensorSharding.validate` rejects for its value's
    shape, whose mesh is unknown, or that uses an axis a surrounding manual
    computation made manual;
(b) `NOT_FIXED_POINT`: propagating the module again, with the same
    strategy's factor propagation and the same driver, changes a sharding
    (each change is named with the op, data-flow edge or function result
    that made it). After the pipeline, whose export passes rewrite function
    argument and result shardings (keeping what divides their dims), changes
    that come from those are not errors (Shardy's output has them too);
(c) for every op with a sharding rule, on the projection of its shardings
    onto the rule's factors (`shard_by_shard`): where every factor is split
    alike on all its tensors, the op run shard by shard must give what it
    gives on whole tensors (`SHARD_MISMATCH` otherwise); where they conflict
    the op `NEEDS_RESHARD`, which is legal (the partitioner inserts the
    reshards); an op whose Shardy rule lets shardings through that still
    need communication, and that differs, `NEEDS_COMMUNICATION`
    (the op's `NeedsCommunication` trait); ops the run cannot judge are
    `NOT_RUN`, with the reason;
(d) `ANNOTATION_CHANGED`: with `original`, a user annotation that was lost,
    or altered beyond extending open dims (`annotations`).

`NEEDS_RESHARD`, `NEEDS_COMMUNICATION` and `NOT_RUN` findings are
information, the others errors.
`verify_propagated` raises `ConsistencyError` when there are errors.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> from shardonnay.propagation.driver import propagate
>>> m = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<8x4xf32> {
...   %0 = stablehlo.negate %a : tensor<8x4xf32>
...   return %0 : tensor<8x4xf32>
... }''')
>>> report = check_propagated(propagate(m), m)
>>> report.ok, report.ops_checked, report.ops_run
(True, 1, 1)
"""

from __future__ import annotations

import enum
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from shardonnay.errors import ShardingError, ShardonnayError
from shardonnay.ir.core import Block, Module, Op, Value
from shardonnay.ir.shardings import SHARDING, sharding_of
from shardonnay.ir.types import TensorType, Type
from shardonnay.mesh import Mesh
from shardonnay.ops.rules import rule_for
from shardonnay.propagation.checks.annotations import annotation_changes
from shardonnay.propagation.checks.shard_by_shard import Verdict, check_shard_by_shard
from shardonnay.propagation.driver import DataFlowEdge, Strategy, propagate
from shardonnay.propagation.importing.validation import PropagationWarning
from shardonnay.runtime.interpreter import Interpreter
from shardonnay.sharding import TensorSharding, TensorShardingPerValue, placement_sharding
from shardonnay.syntax.mlir_writer import OpPrinter

__all__ = [
    "ConsistencyError",
    "ConsistencyReport",
    "Finding",
    "FindingKind",
    "check_propagated",
    "verify_propagated",
]


class FindingKind(enum.Enum):
    INVALID_SHARDING = "invalid sharding"
    NOT_FIXED_POINT = "not at a fixed point"
    SHARD_MISMATCH = "shard-by-shard run differs"
    ANNOTATION_CHANGED = "annotation lost or altered"
    NEEDS_RESHARD = "needs reshard"
    NEEDS_COMMUNICATION = "needs communication"
    NOT_RUN = "not run shard by shard"

    @property
    def is_error(self) -> bool:
        return self not in _INFORMATION


_INFORMATION = (FindingKind.NEEDS_RESHARD, FindingKind.NEEDS_COMMUNICATION, FindingKind.NOT_RUN)


@dataclass(frozen=True)
class Finding:
    """One thing found about the op `op` (its name) at `where` (e.g. `%3 in
    @main`, `@main argument 0`)."""

    kind: FindingKind
    op: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where} ({self.op}): {self.kind.value}: {self.message}"


@dataclass(frozen=True)
class ConsistencyReport:
    """What `check_propagated` found. `ops_checked`: the ops with a sharding
    rule looked at; `ops_run`: those run shard by shard (matching or not);
    `ops_unsharded`: those with nothing sharded (the same on every device).
    The others need a reshard or were not run (see `findings`)."""

    findings: tuple[Finding, ...]
    ops_checked: int
    ops_run: int
    ops_unsharded: int = 0

    def of_kind(self, kind: FindingKind) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.kind is kind)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.kind.is_error)

    @property
    def needs_reshard(self) -> tuple[Finding, ...]:
        return self.of_kind(FindingKind.NEEDS_RESHARD)

    @property
    def ok(self) -> bool:
        return not self.errors

    def __str__(self) -> str:
        head = (
            f"{self.ops_checked} ops checked, {self.ops_run} run shard by shard, "
            f"{self.ops_unsharded} unsharded, "
            f"{len(self.needs_reshard)} need reshard, {len(self.errors)} errors"
        )
        return "\n".join([head, *(f"  {f}" for f in self.findings)])


class ConsistencyError(ShardingError):
    """Propagated shardings that are unsound; `report` has every finding."""

    def __init__(self, report: ConsistencyReport):
        self.report = report
        lines = [f"{len(report.errors)} error(s) in the propagated shardings:"]
        lines += [f"  {f}" for f in report.errors]
        super().__init__("\n".join(lines))


def verify_propagated(module: Module, original: Module | None = None, **options: Any):
    """`check_propagated(module, original, **options)`, raising
    `ConsistencyError` if it found errors; returns the report otherwise."""
    report = check_propagated(module, original, **options)
    if not report.ok:
        raise ConsistencyError(report)
    return report


def check_propagated(
    module: Module,
    original: Module | None = None,
    *,
    strategy: Strategy = "aggressive",
    conservative: bool = False,
    pipeline: bool = False,
    seed: int = 0,
) -> ConsistencyReport:
    """Checks `module`, the output of `propagate(original, strategy=strategy,
    conservative=conservative)` or, with `pipeline`, of
    `propagation_pipeline(original, conservative=conservative)` (see the
    module docstring). `seed` draws the operands of the shard-by-shard runs.
    """
    names = _ValueNames(module)
    findings = list(_invalid_shardings(module, names))
    if not findings:
        findings.extend(_fixed_point_findings(module, strategy, conservative, pipeline))
    ops_checked = ops_run = ops_unsharded = 0
    interpreter = Interpreter(module)
    rng = np.random.default_rng(seed)
    for op in module.walk():
        finding = _shard_by_shard_finding(op, module, names, interpreter, rng)
        if finding is None:
            continue
        ops_checked += 1
        if isinstance(finding, bool):
            ops_run += finding
            ops_unsharded += not finding
        else:
            ops_run += finding.kind in (FindingKind.SHARD_MISMATCH, FindingKind.NEEDS_COMMUNICATION)
            findings.append(finding)
    if original is not None:
        for change in annotation_changes(
            original,
            module,
            exported=pipeline,
            names=names.name,
        ):
            findings.append(
                Finding(FindingKind.ANNOTATION_CHANGED, change.op, change.where, change.message)
            )
    return ConsistencyReport(tuple(findings), ops_checked, ops_run, ops_unsharded)


# -- naming -------------------------------------------------------------------------------


class _ValueNames:
    """Values named as the module prints them (`%3`, `%arg0`, `%2#1`)."""

    def __init__(self, module: Module):
        self.printer = OpPrinter()
        self.printer.names.number(module.body.ops)

    def name(self, v: Value) -> str:
        return self.printer.name(v)

    def where(self, op: Op) -> str:
        """`%3 in @main` (the op's first result, or the op's name), with its location."""
        func = _enclosing_function(op)
        value = self.name(op.results[0]) if op.results else op.name
        text = f"{value} in @{func}" if func else value
        return f"{text} at {op.location}" if op.location else text


def _enclosing_function(op: Op) -> str | None:
    parent = op.parent_op
    while parent is not None:
        if parent.name == "func.func":
            return parent.attributes.get("sym_name")
        parent = parent.parent_op
    return None


# -- shardings of values ------------------------------------------------------------------


# -- (a) valid shardings ------------------------------------------------------------------


def _shardings_of(module: Module) -> Iterator[tuple[Op, str, TensorSharding, Type | None]]:
    """(op, what, sharding, its value's type) of every sharding in `module`."""
    for func in module.functions:
        for key, types, what in (
            ("arg_attrs", func.type.inputs, "argument"),
            ("res_attrs", func.type.results, "result"),
        ):
            for i, attrs in enumerate(func.op.attributes.get(key) or ()):
                s = attrs.get(SHARDING) if isinstance(attrs, dict) else None
                if s is not None:
                    yield func.op, f"{what} {i}", s, types[i] if i < len(types) else None
    for op in module.walk():
        for key, value in op.attributes.items():
            if isinstance(value, TensorShardingPerValue):
                values = op.operands if key == "in_shardings" else op.results
                if op.name == "sdy.named_computation" and key == "in_shardings":
                    values = op.regions[0].entry.arguments
                for i, s in enumerate(value.shardings):
                    t = values[i].type if i < len(values) else None
                    yield op, f"sharding {i} of {key}", s, t
            elif isinstance(value, TensorSharding):
                t = op.results[0].type if len(op.results) == 1 else None
                yield op, f"its {key}", value, t


def _invalid_shardings(module: Module, names: _ValueNames) -> Iterator[Finding]:
    meshes = module.meshes
    for op, what, sharding, t in _shardings_of(module):
        where = (
            f"@{op.attributes.get('sym_name')} {what}"
            if op.name == "func.func"
            else names.where(op)
        )

        def invalid(message: str, op: Op = op, where: str = where, what: str = what) -> Finding:
            return Finding(FindingKind.INVALID_SHARDING, op.name, where, f"{what}: {message}")

        if not isinstance(sharding, TensorSharding):
            yield invalid(f"{sharding!r} is not a #sdy.sharding")
            continue
        mesh = sharding.mesh if isinstance(sharding.mesh, Mesh) else meshes.get(sharding.mesh)
        if mesh is None:
            yield invalid(f"{sharding} refers to unknown mesh @{sharding.mesh}")
            continue
        try:
            sharding.validate(mesh, t.shape if isinstance(t, TensorType) else None)
        except ShardonnayError as e:
            yield invalid(f"{sharding} is invalid: {e}")
            continue
        manual = _manual_axes_around(op)
        used = sorted({a.name for a in sharding.all_axes() if a.name in manual})
        if used:
            axes = ", ".join(f'"{a}"' for a in used)
            yield invalid(
                f"{sharding} uses {axes}, made manual by a surrounding sdy.manual_computation"
            )
    for op in module.walk():
        per_value = op.attributes.get(SHARDING)
        if (
            isinstance(per_value, TensorShardingPerValue)
            and len(per_value) != len(op.results)
            and placement_sharding(per_value, len(op.results)) is None
        ):
            yield Finding(
                FindingKind.INVALID_SHARDING,
                op.name,
                names.where(op),
                f"{len(per_value)} shardings for {len(op.results)} results",
            )


def _manual_axes_around(op: Op) -> set[str]:
    """The manual axes of the manual computations `op` is nested in."""
    axes: set[str] = set()
    parent = op.parent_op
    while parent is not None:
        if parent.name == "sdy.manual_computation":
            axes.update(parent.attributes["manual_axes"].names)
        parent = parent.parent_op
    return axes


# -- (b) fixed point ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    """One step of propagation: what ran (an op, a data-flow edge, a function
    result) and whether it reads the function boundary (see `_ChangeLog`)."""

    item: Any
    from_boundary: bool


class _ChangeLog:
    """A propagation recorder (as `propagate(..., recorder=...)` takes) that
    keeps the sharding changes: (stored at, old, new, made by a `_Step` or
    copied from a sharding group member, whether it comes from the function
    boundary). A step comes from the function boundary when one of its
    tensors is a function argument or result, or a value changed by such a
    step before."""

    def __init__(self) -> None:
        self.changes: list[tuple[Any, TensorSharding | None, TensorSharding, Any, bool]] = []
        self._from_boundary: set[Any] = set()

    def start(self, *args: Any, **kwargs: Any) -> None:
        pass

    def step(self, item: Any, refs: Any = (), *args: Any, **kwargs: Any) -> _Step:
        return _Step(item, any(self._boundary(r) for r in refs))

    def changed(
        self, ref: Any, old: TensorSharding | None, new: TensorSharding, by: Any, *args: Any
    ) -> None:
        from_boundary = by.from_boundary if isinstance(by, _Step) else self._boundary(by)
        if from_boundary:
            self._from_boundary.add(_key(ref))
        self.changes.append(
            (ref, old, new, by.item if isinstance(by, _Step) else by, from_boundary)
        )

    def _boundary(self, ref: Any) -> bool:
        if not isinstance(ref, Value):
            return True  # a function result
        if _key(ref) in self._from_boundary:
            return True
        block = ref.defining
        return isinstance(block, Block) and (
            block.parent_op is not None and block.parent_op.name == "func.func"
        )


def _key(ref: Any) -> Any:
    return ref if isinstance(ref, Value) else (id(ref[0]), ref[1])


def _fixed_point_findings(
    module: Module, strategy: Strategy, conservative: bool, pipeline: bool
) -> list[Finding]:
    """Propagates `module` again and reports every change (see the module
    docstring). The op- and user-priority strategies end with aggressive
    propagation through every op in both directions: that is their fixed
    point. After the pipeline, whose export passes rewrite the shardings of
    function arguments and results once propagation is done, changes that
    come from the function boundary are not reported."""
    log = _ChangeLog()
    again = "basic" if strategy == "basic" and not pipeline else "aggressive"
    if pipeline:
        module = _reshards_as_constraints(module)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PropagationWarning)  # told when it was propagated
            result = propagate(module, strategy=again, conservative=conservative, recorder=log)
    except ShardonnayError as e:
        return [
            Finding(
                FindingKind.NOT_FIXED_POINT,
                "module",
                "the module",
                f"propagating again raised: {e}",
            )
        ]
    names = _ValueNames(result)
    findings = []
    for ref, old, new, by, from_boundary in log.changes:
        if pipeline and from_boundary:
            continue
        if isinstance(ref, Value):
            changed = names.name(ref)
        else:
            func, i = ref
            changed = f"result {i} of @{func.name}"
        if isinstance(by, Op):
            op_name, where = by.name, names.where(by)
        elif isinstance(by, DataFlowEdge):
            owner = by.owner
            defining = owner.op or owner.defining.parent_op  # type: ignore[union-attr]
            op_name = f"{defining.name} (data-flow edge)" if defining else "data-flow edge"
            where = f"{names.name(owner)} in @{_enclosing_function(defining) or '?'}"
        elif isinstance(by, Value):
            op_name, where = "sdy.sharding_group", names.name(by)
        else:
            func, i = by
            op_name, where = "func.return", f"@{func.name} result {i}"
        findings.append(
            Finding(
                FindingKind.NOT_FIXED_POINT,
                op_name,
                where,
                f"propagating again changes {changed} from {old} to {new}",
            )
        )
    return findings


def _reshards_as_constraints(module: Module) -> Module:
    """A copy of `module` whose `sdy.reshard`s are `sdy.sharding_constraint`s:
    for propagation, both fix their result's sharding to theirs."""
    copy = module.copy()
    for op in copy.walk():
        if op.name == "sdy.reshard":
            op.name = "sdy.sharding_constraint"
    return copy


# -- (c) shard by shard -------------------------------------------------------------------


def _shard_by_shard_finding(
    op: Op,
    module: Module,
    names: _ValueNames,
    interpreter: Interpreter,
    rng: np.random.Generator,
) -> Finding | bool | None:
    """None: `op` has no rule (not checked); True: it ran shard by shard and
    matched; False: nothing of it is sharded; else the finding."""
    if not all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
        return None
    try:
        rule = rule_for(op)
    except (ShardonnayError, KeyError):
        return None
    if rule is None:
        return None
    operands = [sharding_of(v) for v in op.operands]
    results = [sharding_of(r) for r in op.results]
    where = names.where(op)
    meshes = {_resolve(s, module) for s in (*operands, *results) if s is not None}
    if not meshes:
        return False
    if len(meshes) > 1 or None in meshes:
        return Finding(
            FindingKind.NEEDS_RESHARD, op.name, where, "its tensors are on different meshes"
        )
    (mesh,) = meshes
    assert mesh is not None
    try:
        verdict = check_shard_by_shard(
            op, operands, results, mesh, rule=rule, interpreter=interpreter, rng=rng
        )
    except ShardonnayError as e:
        return Finding(FindingKind.NOT_RUN, op.name, where, f"cannot run: {e}")
    if verdict.status in (Verdict.MATCHES, Verdict.UNSHARDED):
        return verdict.status is Verdict.MATCHES
    shardings = ", ".join(str(s) for s in operands) + " -> " + ", ".join(str(s) for s in results)
    if verdict.status is Verdict.NEEDS_RESHARD:
        return Finding(FindingKind.NEEDS_RESHARD, op.name, where, verdict.reason)
    if verdict.status is Verdict.NOT_RUN:
        return Finding(FindingKind.NOT_RUN, op.name, where, verdict.reason)
    if verdict.status is Verdict.NEEDS_COMMUNICATION:
        return Finding(FindingKind.NEEDS_COMMUNICATION, op.name, where, verdict.reason)
    return Finding(
        FindingKind.SHARD_MISMATCH, op.name, where, f"with {shardings}: {verdict.reason}"
    )


def _resolve(s: TensorSharding, module: Module) -> Mesh | None:
    return s.mesh if isinstance(s.mesh, Mesh) else module.meshes.get(s.mesh)
