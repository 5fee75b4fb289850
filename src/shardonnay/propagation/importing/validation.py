"""What propagation requires of its input, checked before it starts.

`validate_for_propagation(module)` raises a typed error, saying where (the
function, the op's position in it and its name, its location when known) and
why, for what Shardy's verifier or propagation passes reject, so that bad
input never surfaces as a Python exception from deep inside the driver:

- `IRError` from `ir.verifier.verify`: malformed IR, and shardings that
  refer to an unknown mesh or axis, do not fit their value's rank, use an
  axis twice, number other than the values, or use an axis a surrounding
  `sdy.manual_computation` made manual; manual computations whose in/out
  shardings put manual axes after free ones, split a manual axis, or whose
  body types are not the local shapes; `sdy.sharding_rule`s that do not fit
  their op;
- `ShardingError`: a value in two sharding groups (Shardy's propagation
  passes abort on it; its pipeline merges such groups first, see
  `pipeline.sharding_group_import`, so `groups_merged=False` skips this).

It also warns (`PropagationWarning`) where Shardy warns and goes on:

- for a `stablehlo.custom_call` whose target has no sharding rule, or an op
  of an unknown dialect: propagation does not go through it;
- for a sharding group whose members' shardings differ before propagating:
  they get open sharding constraints (see `sharding_groups`).

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> validate_for_propagation(parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>})
...     -> tensor<8xf32> {
...   return %a : tensor<8xf32>
... }'''))
Traceback (most recent call last):
...
shardonnay.errors.IRError: in @main: the sharding of argument 0 #sdy.sharding<@mesh, [{"y"}]> \
is invalid: unknown axis name: "y"
"""

from __future__ import annotations

import warnings

from shardonnay.errors import ShardingError
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import sharding_of
from shardonnay.ir.verifier import verify
from shardonnay.ops.registry import is_registered
from shardonnay.ops.rules import rule_for
from shardonnay.sharding import TensorSharding

__all__ = ["PropagationWarning", "validate_for_propagation"]


class PropagationWarning(UserWarning):
    """Something propagation tolerates but cannot do well (Shardy warns too)."""


def validate_for_propagation(
    module: Module, *, groups_merged: bool = True, warn: bool = True, verify_ir: bool = True
) -> None:
    """Raises where `module` is no valid input to propagation; warns where
    Shardy does (see the module docstring). `groups_merged`: sharding groups
    must not share values; `warn`: issue the warnings; `verify_ir=False`:
    leave out `ir.verifier.verify`, for a module built from one it accepted
    by passes that keep its invariants (the propagation pipeline verifies
    its input once, then checks only the groups and warns before
    propagating)."""
    if verify_ir:
        verify(module)
    groups, unknown = _walk(module, groups_merged)
    if not warn:
        return
    for op in unknown:
        message = _no_rule_message(op)
        if message is not None:
            warnings.warn(f"{_where(op)}: {message}", PropagationWarning, stacklevel=3)
    for group_id, members in sorted(groups.items()):
        if _shardings_differ(members):
            warnings.warn(
                f"the initial shardings of the members of sharding group {group_id} do not "
                "match; every member gets an open sharding constraint (values grouped, e.g. by "
                "jax.shard_alike, with inconsistent shardings of their own)",
                PropagationWarning,
                stacklevel=3,
            )


def _walk(module: Module, groups_merged: bool) -> tuple[dict[int, list[Value]], list[Op]]:
    """One walk of `module`: the members of every sharding group, and the ops
    that may lack a sharding rule (unregistered ones and custom calls, in
    order; `_no_rule_message` says which do). Raises `ShardingError` for a
    value in two groups when `groups_merged`."""
    groups: dict[int, list[Value]] = {}
    group_of: dict[Value, tuple[int, Op]] = {}
    unknown: list[Op] = []
    kinds: dict[str, int] = {}  # per op name: _GROUP, _MAY_LACK_RULE or _OTHER
    for op in module.walk():
        kind = kinds.get(op.name)
        if kind is None:
            kind = kinds[op.name] = _kind(op.name)
        if kind == _MAY_LACK_RULE:
            unknown.append(op)
        elif kind == _GROUP:
            group = op.attributes["group_id"].value
            value = op.operands[0]
            first, first_op = group_of.setdefault(value, (group, op))
            if groups_merged and first != group:
                raise ShardingError(
                    f"{_where(op)}: the value is already in sharding group {first} "
                    f"({_where(first_op)}); a value can only be in one sharding group "
                    "(merge the groups first, as the propagation pipeline does)"
                )
            groups.setdefault(group, []).append(value)
    return groups, unknown


_OTHER, _GROUP, _MAY_LACK_RULE = range(3)


def _kind(name: str) -> int:
    if name == "sdy.sharding_group":
        return _GROUP
    if not is_registered(name) or name == "stablehlo.custom_call":
        return _MAY_LACK_RULE
    return _OTHER


def _no_rule_message(op: Op) -> str | None:
    """Shardy's warning for an op that propagation cannot go through, if any."""
    if not is_registered(op.name):
        if op.name in ("builtin.module", "func.func") or "." not in op.name:
            return None
        return f"op '{op.name}' is unknown to the sharding rule registry"
    if op.name != "stablehlo.custom_call":
        return None
    try:
        rule = rule_for(op)
    except ShardingError:
        rule = None
    if rule is not None:
        return None
    target = op.attributes.get("call_target_name")
    return f"custom call @{target} is unknown to the sharding rule registry"


def _shardings_differ(members: list[Value]) -> bool:
    """Whether two members have different shardings that say something
    (members without one, or fully open and empty, do not count)."""
    telling: list[TensorSharding] = []
    for v in members:
        s = sharding_of(v)
        if s is None or all(not d.is_closed and not d.axes for d in s.dims):
            continue
        telling.append(s)
    return any(s != telling[0] for s in telling[1:])


def _where(op: Op) -> str:
    """`in @main, op 3 (stablehlo.custom_call)`, as `ir.verifier` says where:
    ops numbered from 0 in pre-order in their function (with the op's
    location when known)."""
    parent = op.parent_op
    while parent is not None and parent.name != "func.func":
        parent = parent.parent_op
    loc = f" at {op.location}" if op.location else ""
    if parent is None:
        return f"in the module, op {op.name}{loc}"
    func = Func(parent)
    index = next(i for i, o in enumerate(func.walk()) if o is op)
    return f"in @{func.name}, op {index} ({op.name}){loc}"
