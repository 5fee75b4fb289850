"""Per-device programs rewritten into the collectives XLA's CPU runtime runs.

`shardonnay.partition` writes two things that XLA cannot compile for its CPU
devices, though the simulator runs them:

- `stablehlo.collective_broadcast` (XLA:CPU does not implement it);
- `replica_groups` of unequal sizes, padded with -1 (`local.cover`'s groups
  of the devices a collective of a smaller mesh leaves out, `spread`'s
  groups): jaxlib rejects -1, and XLA wants every device in exactly one
  group, all groups of one size.

(Groups written as mesh axes, as `enable-rgv3` writes them, become device ids.)

`xla_compatible(local_module, devices)` returns a copy of the program with
every such op replaced by ops of the same results on every device (data only
moves or is selected; the only arithmetic added combines values with their
reduction's identity, which changes no value; a float sum over a group
filled up to a larger size may still be added in another order by XLA):

- a `collective_broadcast` becomes rounds of `collective_permute` in which
  every device already holding the value sends it to one that does not (the
  holders double each round: a group of `g` takes `ceil(log2 g)` rounds; the
  sources of a round are distinct, and so are its targets), each round
  followed by a `select` on a `partition_id` table that keeps what the
  round's targets received. A device in no group gets zeros, as
  `collective_broadcast` gives it. For example, one group `[5, 0, 1, 2]`
  takes the rounds `[[5, 0]]` and `[[5, 1], [0, 2]]`;
- an `all_reduce` whose groups differ in size: a device alone in its group
  keeps its operand, the result of a group of one (a `select` afterwards),
  so it may sit in any group of the all_reduce that computes the others'
  results. When the groups of several devices all have one size `w` and the
  devices alone are a multiple of `w`, they are simply grouped `w` at a time
  (`[[0, 1], [2, 3], [4, -1], [5, -1]]` becomes `[[0, 1], [2, 3], [4, 5]]`).
  Otherwise every group becomes part of a group of `w'` devices, the least
  divisor of the device count that holds the largest group, filled up by
  devices that contribute the reduction's identity (-0.0 to a float sum,
  -inf to a maximum, ...): on 6 devices `[[0, 1, 2, 3], [4, -1, -1, -1],
  [5, -1, -1, -1]]` becomes one group of all 6 where devices 4 and 5 add
  -0.0. When there are more groups than groups of `w'` fit, several such
  all_reduces run, each computing some groups' results.

Other collectives with -1 in their groups are an `UnsupportedOpError`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shardonnay.errors import UnsupportedOpError
from shardonnay.ir.attributes import StructAttr
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Module, Op, Value
from shardonnay.mesh import Mesh
from shardonnay.ops.collectives import replica_groups
from shardonnay.ops.traits import GROUPED_DEVICES, TERMINATOR, Combiner, has_trait, trait_of
from shardonnay.partitioner.local.context import LocalContext
from shardonnay.partitioner.local.factors import copy_region
from shardonnay.partitioner.local.shardings import next_channel


def xla_compatible(local_module: Module, devices: int) -> Module:
    """A copy of per-device program `local_module`, run on `devices` devices,
    without collective_broadcasts or groups padded with -1 (see the module
    docstring). `local_module` is left as it is."""
    module = local_module.copy()
    ctx = LocalContext(Builder(module), {}, Mesh({"devices": 1}), {}, next_channel(module))
    ctx.num_devices = devices
    for op in [op for op in module.walk() if has_trait(op, GROUPED_DEVICES)]:
        if isinstance(op.attributes.get("replica_groups"), StructAttr):  # as mesh axes
            op.attributes["replica_groups"] = ctx.groups_attr(replica_groups(op))
        if op.name == "stablehlo.collective_broadcast":
            with ctx.builder.before(op):
                _replace(op, _broadcast(ctx, op))
        elif _padded(op):
            if op.name != "stablehlo.all_reduce":
                raise UnsupportedOpError(
                    f"{_where(op)}: replica_groups padded with -1 (groups of different sizes) "
                    "cannot run on XLA devices"
                )
            with ctx.builder.before(op):
                _replace(op, _regrouped_all_reduce(ctx, op))
    return module


def broadcast_rounds(groups: Sequence[Sequence[int]]) -> list[list[tuple[int, int]]]:
    """The `(source, target)` pairs of each round of permutes that send every
    group's first member's value to the others, the holders doubling each round.

    >>> broadcast_rounds([[5, 0, 1, 2], [3, 4]])
    [[(5, 0), (3, 4)], [(5, 1), (0, 2)]]
    """
    rounds: list[list[tuple[int, int]]] = []
    for group in groups:
        holders, waiting = [group[0]], list(group[1:])
        r = 0
        while waiting:
            pairs = [(h, waiting.pop(0)) for h in list(holders) if waiting]
            holders += [t for _, t in pairs]
            if r == len(rounds):
                rounds.append([])
            rounds[r] += pairs
            r += 1
    return rounds


def regrouping(groups: Sequence[Sequence[int]], devices: int) -> list[list[list[int]]] | None:
    """The groups of the all_reduces that compute the results of `groups`'
    members of groups of two or more, each all_reduce's groups of one size
    and covering all `devices`; None when that needs identity fillers (then
    see `filled_groups`). The devices alone keep their operands.

    >>> regrouping([[0, 1], [2, 3], [4], [5]], 6)
    [[[0, 1], [2, 3], [4, 5]]]
    >>> regrouping([[0, 1, 2, 3], [4], [5]], 6) is None
    True
    """
    several = [list(g) for g in groups if len(g) > 1]
    if not several:
        return []
    alone = _alone(several, devices)
    width = len(several[0])
    if any(len(g) != width for g in several) or len(alone) % width:
        return None
    return [several + [alone[i : i + width] for i in range(0, len(alone), width)]]


def filled_groups(
    groups: Sequence[Sequence[int]], devices: int
) -> list[tuple[list[list[int]], list[int]]]:
    """Per all_reduce, its groups (of the least size dividing `devices` that
    holds the largest of `groups`) and the devices whose group's result it
    computes (the others contribute the reduction's identity).

    >>> filled_groups([[0, 1, 2, 3], [4], [5]], 6)
    [([[0, 1, 2, 3, 4, 5]], [0, 1, 2, 3])]
    >>> filled_groups([[0, 1], [2, 3], [4]], 5)
    [([[0, 1, 2, 3, 4]], [0, 1]), ([[2, 3, 0, 1, 4]], [2, 3])]
    """
    several = [list(g) for g in groups if len(g) > 1]
    largest = max(len(g) for g in several)
    width = next(w for w in range(largest, devices + 1) if devices % w == 0)
    per_round = devices // width
    out = []
    for start in range(0, len(several), per_round):
        active = several[start : start + per_round]
        members = {d for g in active for d in g}
        fillers = [d for d in range(devices) if d not in members]
        rows = []
        for g in active:
            take = width - len(g)
            rows.append(g + fillers[:take])
            fillers = fillers[take:]
        rows += [fillers[i : i + width] for i in range(0, len(fillers), width)]
        out.append((rows, sorted(members)))
    return out


# -- collective_broadcast ----------------------------------------------------------------------


def _broadcast(ctx: LocalContext, op: Op) -> list[Value]:
    groups = replica_groups(op)
    rounds = broadcast_rounds(groups)
    covered = {d for g in groups for d in g}
    results = []
    for x in op.operands:
        current = x
        for pairs in rounds:
            received = _permute(ctx, current, pairs)
            targets = {t for _, t in pairs}
            got = [d in targets for d in range(ctx.num_devices)]
            current = _select(ctx, got, received, current)
        if len(covered) < ctx.num_devices:
            zeros = ctx.broadcast(ctx.scalar(0, x.type.element_type), x.type)
            current = _select(ctx, [d in covered for d in range(ctx.num_devices)], current, zeros)
        results.append(current)
    return results


def _permute(ctx: LocalContext, x: Value, pairs: Sequence[tuple[int, int]]) -> Value:
    return ctx.value(
        "stablehlo.collective_permute",
        [x],
        x.type,
        {
            "channel_handle": ctx.channel_handle(),
            "source_target_pairs": ctx.groups_attr([list(p) for p in pairs]),
        },
    )


# -- all_reduce with groups of different sizes -------------------------------------------------


def _regrouped_all_reduce(ctx: LocalContext, op: Op) -> list[Value]:
    groups = replica_groups(op)
    operands = list(op.operands)
    plan = regrouping(groups, ctx.num_devices)
    if plan is not None:
        several = {d for g in groups if len(g) > 1 for d in g}
        reduced = [_all_reduce(ctx, op, operands, rows) for rows in plan]
        computed = [several] * len(plan)
    else:
        identities = _identities(ctx, op)
        reduced, computed = [], []
        for rows, members in filled_groups(groups, ctx.num_devices):
            mask = [d in members for d in range(ctx.num_devices)]
            contributed = [
                _select(ctx, mask, x, ctx.broadcast(e, x.type))
                for x, e in zip(operands, identities, strict=True)
            ]
            reduced.append(_all_reduce(ctx, op, contributed, rows))
            computed.append(set(members))
    results = operands
    for values, members in zip(reduced, computed, strict=True):
        if len(members) == ctx.num_devices:
            results = values
            continue
        mask = [d in members for d in range(ctx.num_devices)]
        results = [_select(ctx, mask, v, r) for v, r in zip(values, results, strict=True)]
    return results


def _all_reduce(ctx: LocalContext, op: Op, operands: list[Value], rows) -> list[Value]:
    attributes = dict(op.attributes)
    attributes["channel_handle"] = ctx.channel_handle()
    attributes["replica_groups"] = ctx.groups_attr(rows)
    new = ctx.op(
        op.name,
        operands,
        [x.type for x in operands],
        attributes,
        [copy_region(op.regions[0])],
    )
    return list(new.results)


def _identities(ctx: LocalContext, op: Op) -> list[Value]:
    """The identity of `op`'s reduction (a region applying a `Combiner` op to
    its two arguments) as a scalar of its operand's element type."""
    block = op.regions[0].blocks[0]
    body = [o for o in block.ops if not has_trait(o, TERMINATOR)]
    combiner = trait_of(body[0], Combiner) if len(body) == 1 else None
    simple = (
        len(op.operands) == 1
        and combiner is not None
        and list(body[0].operands) == list(block.arguments)
    )
    if not simple:
        raise UnsupportedOpError(
            f"{_where(op)}: its groups differ in size in a way only identity fillers even out, "
            "and its reduction has no known identity"
        )
    x = op.operands[0]
    try:
        value = combiner.identity(x.type.dtype)
    except ValueError:
        raise UnsupportedOpError(
            f"{_where(op)}: no identity of {body[0].name} on {x.type}"
        ) from None
    return [ctx.scalar(value, x.type.element_type)]


# -- helpers -----------------------------------------------------------------------------------


def _select(ctx: LocalContext, table: Sequence[bool], yes: Value, no: Value) -> Value:
    """`yes` on the devices where `table` is true, else `no`."""
    entry = ctx.table_entry([int(t) for t in table], ctx.partition_id(), "i1")
    mask = ctx.broadcast(entry, yes.type.with_element_type("i1"))
    return ctx.value("stablehlo.select", [mask, yes, no], yes.type)


def _alone(several: Sequence[Sequence[int]], devices: int) -> list[int]:
    members = {d for g in several for d in g}
    return [d for d in range(devices) if d not in members]


def _padded(op: Op) -> bool:
    array = np.asarray(op.attributes["replica_groups"].to_numpy())
    return bool((array == -1).any())


def _replace(op: Op, values: Sequence[Value]) -> None:
    for old, new in zip(op.results, values, strict=True):
        old.replace_all_uses_with(new)
    op.erase()


def _where(op: Op) -> str:
    return f"{op.name} at {op.location}" if op.location else op.name


__all__ = ["broadcast_rounds", "filled_groups", "regrouping", "xla_compatible"]
