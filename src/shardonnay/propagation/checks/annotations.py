"""Were the user's annotations kept through propagation?

Propagation may only *extend* what the user wrote: every sharding of a
function argument or result, of an `sdy.sharding_constraint` and the in/out
shardings of an `sdy.manual_computation` stay on the same mesh, a closed dim
keeps exactly its axes, an open dim keeps its axes as a prefix (it may get
more, or a sub-axis it ends with may grow to the whole axis), replicated and
unreduced axes are kept, and so are priorities, unless all of a sharding's
priorities are gone (as Shardy does, propagation drops them whenever it
rewrites a sharding, and user-priority propagation drops them all). One
exception: a value in a sharding group whose annotation is fully open and
empty (`[{?}, {?}]`) takes the sharding of the group's other members, as is.
`annotation_changes(original, propagated)` lists every annotation that broke
this rule.

With `exported`, the propagated module is the output of
`propagation_pipeline`, whose import and export passes change annotations in
known ways. They are applied to the original before comparing (with the
pipeline's own functions): axes of size 1 go, function argument and result
shardings keep only what divides their dims
(`update_non_divisible_input_output_shardings`) and, in the main function,
open dims stop at their first sub-axis; then every dim is closed (an open
dim may become closed) and replicated axes are dropped. Constraints became
`sdy.reshard`s, and those whose results are unused are gone.

Constraints and manual computations are paired between the two modules in
program order per function (a longest common subsequence of the pairs that
fit, then the leftovers), since propagation adds constraints (sharding
groups whose members differ) and the pipeline moves some.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import SHARDING
from shardonnay.ir.types import Type
from shardonnay.pipeline import (
    remove_sharding_groups,
    remove_size_one_axes,
    remove_sub_axes_in_input_output_shardings,
    update_non_divisible_input_output_shardings,
)
from shardonnay.propagation.module_edits import erase_dead_ops
from shardonnay.propagation.projection import PrefixStatus, axis_list_prefix_status
from shardonnay.sharding import TensorSharding, TensorShardingPerValue

__all__ = ["AnnotationChange", "annotation_changes", "compare_annotation"]


@dataclass(frozen=True)
class AnnotationChange:
    """An annotation of the original that the propagated module lost or
    altered: `op` (the op that holds it), `where` (e.g. `@main argument 0`
    or `%3 in @main`) and what happened."""

    op: str
    where: str
    message: str


def compare_annotation(
    expected: TensorSharding,
    got: TensorSharding | None,
    *,
    exported: bool = False,
    grouped: bool = False,
) -> str | None:
    """Why `got` is not `expected` extended along its open dims (None: it is).

    >>> s = TensorSharding.parse
    >>> compare_annotation(s('<@m, [{"x"}, {?}]>'), s('<@m, [{"x"}, {"y", ?}]>')) is None
    True
    >>> compare_annotation(s('<@m, [{"x"}, {?}]>'), s('<@m, [{"y"}, {?}]>'))
    'closed dim 0 {"x"} became {"y"}'
    """
    if got is None:
        return "its sharding is gone"
    if grouped and all(not d.is_closed and not d.axes for d in expected.dims):
        return None
    if got.mesh != expected.mesh:
        return f"its mesh changed from {_mesh_text(expected)} to {_mesh_text(got)}"
    if got.rank != expected.rank:
        return f"its rank changed from {expected.rank} to {got.rank}"
    dropped = all(g.priority is None for g in got.dims)
    for k, (e, g) in enumerate(zip(expected.dims, got.dims, strict=True)):
        same_priority = g.priority == e.priority or dropped
        if e.is_closed:
            if g.axes != e.axes or not g.is_closed or not same_priority:
                return f"closed dim {k} {e} became {g}"
            continue
        if axis_list_prefix_status(e.axes, g.axes) is PrefixStatus.NOT_A_PREFIX:
            return f"open dim {k} {e} became {g}, which does not extend it"
        if g.is_closed and not exported:
            return f"open dim {k} {e} became closed: {g}"
        if not same_priority:
            return f"open dim {k} {e} became {g}: its priority changed"
    if not exported and got.replicated != expected.replicated:
        return f"its replicated axes changed: {expected} became {got}"
    if got.unreduced != expected.unreduced or got.reduction != expected.reduction:
        return f"its unreduced axes changed: {expected} became {got}"
    return None


def _mesh_text(s: TensorSharding) -> str:
    return f"@{s.mesh}" if isinstance(s.mesh, str) else str(s.mesh)


def annotation_changes(
    original: Module,
    propagated: Module,
    *,
    exported: bool = False,
    names: Callable[[Value], str] | None = None,
) -> list[AnnotationChange]:
    """Every annotation of `original` that `propagated` lost or altered (see
    the module docstring). `names` names a value of `propagated` (for the
    messages; default: its position)."""
    expected, grouped = _expected(original, exported)
    compare = _comparer(exported)
    name = names or (lambda v: f"result {v.index} of {v.op.name if v.op else 'a block'}")
    changes: list[AnnotationChange] = []
    functions = {f.name: f for f in propagated.functions}
    for func in expected.functions:
        got_func = functions.get(func.name)
        if got_func is None:
            changes.append(AnnotationChange("func.func", f"@{func.name}", "the function is gone"))
            continue
        changes.extend(_function_changes(func, got_func, compare, grouped))
        if func.is_declaration or got_func.is_declaration:
            continue
        constraint = "sdy.reshard" if exported else "sdy.sharding_constraint"
        changes.extend(
            _paired_changes(
                _ops(func, constraint),
                _ops(got_func, constraint),
                lambda op: [(op.results[0].type, op.attributes.get("sharding"))],
                lambda op: op.results[0] in grouped,
                compare,
                func.name,
                name,
            )
        )
        changes.extend(
            _paired_changes(
                _ops(func, "sdy.manual_computation"),
                _ops(got_func, "sdy.manual_computation"),
                _manual_shardings,
                lambda op: False,
                compare,
                func.name,
                name,
            )
        )
    return changes


# (expected, got, whether the annotated value is in a sharding group) -> why not
Comparer = Callable[[TensorSharding, "TensorSharding | None", bool], "str | None"]


def _comparer(exported: bool) -> Comparer:
    def compare(expected: TensorSharding, got: TensorSharding | None, grouped: bool) -> str | None:
        return compare_annotation(expected, got, exported=exported, grouped=grouped)

    return compare


def _expected(original: Module, exported: bool) -> tuple[Module, set[Value]]:
    """`original`'s annotations as the propagated module should still show
    them (see the module docstring), in a copy; and the copy's values that
    are in sharding groups."""
    copy = original.copy()
    grouped = {op.operands[0] for op in copy.walk() if op.name == "sdy.sharding_group"}
    if exported:
        remove_size_one_axes(copy)
        update_non_divisible_input_output_shardings(copy)
        remove_sub_axes_in_input_output_shardings(copy)
        remove_sharding_groups(copy)
        for op in copy.walk():
            if op.name == "sdy.sharding_constraint":
                op.name = "sdy.reshard"
        erase_dead_ops(copy)
    return copy, grouped


def _function_changes(
    func: Func, got: Func, compare: Comparer, grouped: set[Value]
) -> list[AnnotationChange]:
    changes = []
    for key, what in (("arg_attrs", "argument"), ("res_attrs", "result")):
        for i, attrs in enumerate(func.op.attributes.get(key) or ()):
            expected = attrs.get(SHARDING)
            if not isinstance(expected, TensorSharding):
                continue
            got_attrs = got.op.attributes.get(key) or ()
            sharding = got_attrs[i].get(SHARDING) if i < len(got_attrs) else None
            in_group = key == "arg_attrs" and func.arguments[i] in grouped
            why = compare(expected, sharding, in_group)
            if why is not None:
                changes.append(AnnotationChange("func.func", f"@{func.name} {what} {i}", why))
    return changes


def _ops(func: Func, name: str) -> list[Op]:
    return [op for op in func.walk() if op.name == name]


def _manual_shardings(op: Op) -> list[tuple[Type, TensorSharding | None]]:
    """(type, sharding) of each operand, then each result, of a manual computation."""
    out: list[tuple[Type, TensorSharding | None]] = []
    for key, values in (("in_shardings", op.operands), ("out_shardings", op.results)):
        per_value = op.attributes.get(key)
        for i, v in enumerate(values):
            s = per_value[i] if isinstance(per_value, TensorShardingPerValue) else None
            out.append((v.type, s))
    return out


def _paired_changes(
    originals: Sequence[Op],
    outputs: Sequence[Op],
    shardings: Callable[[Op], list[tuple[Type, TensorSharding | None]]],
    is_grouped: Callable[[Op], bool],
    compare: Comparer,
    func_name: str,
    name: Callable[[Value], str],
) -> list[AnnotationChange]:
    """Pairs `originals` with `outputs` (see the module docstring) and
    reports the originals without a fitting partner."""

    def why(a: Op, b: Op) -> str | None:
        want, got = shardings(a), shardings(b)
        if len(want) != len(got):
            return f"it has {len(got)} shardings, not {len(want)}"
        for k, ((t1, s1), (t2, s2)) in enumerate(zip(want, got, strict=True)):
            if t1 != t2:
                return f"type {k} changed from {t1} to {t2}"
            if s1 is None:
                continue
            reason = compare(s1, s2, is_grouped(a))
            if reason is not None:
                return reason if len(want) == 1 else f"sharding {k}: {reason}"
        return None

    fits = [[why(a, b) is None for b in outputs] for a in originals]
    pairs = _pair(fits)
    taken = set(pairs.values())
    changes = []
    for i, a in enumerate(originals):
        if i in pairs:
            continue
        kind = "manual computation" if a.name == "sdy.manual_computation" else "constraint"
        types = [t for t, _ in shardings(a)]
        candidates = [
            b
            for j, b in enumerate(outputs)
            if j not in taken and [t for t, _ in shardings(b)] == types
        ]
        where = f"{kind} {i} of @{func_name} (in program order)"
        if not candidates:
            written = ", ".join(str(s) for _, s in shardings(a) if s is not None)
            message = f"{written} is gone (no {a.name} of its types is left)"
            changes.append(AnnotationChange(a.name, where, message))
            continue
        b = candidates[0]
        taken.add(outputs.index(b))
        if b.results:
            where = f"{name(b.results[0])} in @{func_name}"
        changes.append(AnnotationChange(a.name, where, why(a, b) or "no partner"))
    return changes


def _pair(fits: list[list[bool]]) -> dict[int, int]:
    """A pairing of rows with columns along `True` entries: a longest common
    subsequence first (order kept), then any leftovers, greedily."""
    n = len(fits)
    m = len(fits[0]) if fits else 0
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in reversed(range(n)):
        for j in reversed(range(m)):
            if fits[i][j]:
                best[i][j] = 1 + best[i + 1][j + 1]
            else:
                best[i][j] = max(best[i + 1][j], best[i][j + 1])
    pairs: dict[int, int] = {}
    i = j = 0
    while i < n and j < m:
        if fits[i][j] and best[i][j] == 1 + best[i + 1][j + 1]:
            pairs[i] = j
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    taken = set(pairs.values())
    for i in range(n):
        if i in pairs:
            continue
        for j in range(m):
            if fits[i][j] and j not in taken:
                pairs[i] = j
                taken.add(j)
                break
    return pairs
