"""GSPMD's `shard_map`s as `sdy.manual_computation`s.

JAX without Shardy writes a `shard_map` as custom calls around the per-device
body: `@Sharding` + `@SPMDFullToShardShape` on each operand (global to local),
`@Sharding {manual}` + `@SPMDShardToFullShape` on each result (local to
global), and between them a call of the body (`call @shmap_body`) or the body's
ops themselves. Each becomes one `sdy.manual_computation`: in and out shardings
from the outer `@Sharding`s, manual axes from the `{manual}` shardings (all axes,
or the manual subgroup of `last_tile_dims={manual, ...}`).
"""

from __future__ import annotations

from shardonnay.errors import IRError, ShardingError
from shardonnay.interop.gspmd_annotations import (
    FULL_TO_SHARD,
    SHARD_TO_FULL,
    SHARDING,
    MeshImporter,
    is_custom_call,
    marked_annotation,
    single_annotation,
)
from shardonnay.ir.core import Block, Func, Op, Region, Value
from shardonnay.sharding import ManualAxes, TensorShardingPerValue

__all__ = ["import_inline_shard_map", "import_shard_map", "is_shard_map_call"]


def is_shard_map_call(op: Op) -> bool:
    return (
        op.name == "func.call"
        and bool(op.operands)
        and all(v.op is not None and is_custom_call(v.op, FULL_TO_SHARD) for v in op.operands)
    )


def import_shard_map(call: Op, functions: dict[str, Func], importer: MeshImporter) -> None:
    """`@Sharding`+`@SPMDFullToShardShape` → call → `@Sharding`+`@SPMDShardToFullShape`
    becomes one `sdy.manual_computation` whose body is the callee's."""
    where = f"shard_map calling @{call.attributes['callee'].names[-1]}"
    exits = []
    for result in call.results:
        exit = _exit(result)
        if exit is None:
            raise IRError(
                f"{where}: each result must go through one @{SHARDING} {{manual}} into "
                f"@{SHARD_TO_FULL}"
            )
        exits.append(exit)
    callee = functions[call.attributes["callee"].names[-1]]
    body = Block([v.type for v in call.operands])
    mapping = dict(zip(callee.arguments, body.arguments, strict=True))
    for op in callee.body.ops[:-1]:
        body.append(op.clone(mapping))
    body.append(Op("sdy.return", [mapping.get(v, v) for v in callee.return_op.operands]))
    _manual_computation([v.op for v in call.operands], exits, body, [call], importer, where)
    _drop_if_uncalled(callee, functions)


def _exit(value: Value) -> tuple[Op, Op] | None:
    """The `@Sharding {manual}` and `@SPMDShardToFullShape` that `value` alone flows into."""
    users = value.users
    if len(users) != 1 or not is_custom_call(users[0], SHARDING):
        return None
    return _exit_of_mark(users[0])


def import_inline_shard_map(entry: Op, importer: MeshImporter) -> None:
    """A shard_map whose body sits between its custom calls (no call): the ops that
    `entry`'s result reaches before `@Sharding {manual}` + `@SPMDShardToFullShape`,
    and the other `@SPMDFullToShardShape`s they use, form one manual computation."""
    where = f"shard_map at custom_call @{FULL_TO_SHARD}"
    block = entry.parent
    entries, body_ops, exits = [entry], [], []
    work = [entry.results[0]]
    while work:
        for user in work.pop().users:
            exit = _exit_of_mark(user) if is_custom_call(user, SHARDING) else None
            if exit is not None:
                if exit not in exits:
                    exits.append(exit)
                continue
            if user in body_ops:
                continue
            if user.parent is not block or user.name.endswith(".return"):
                raise IRError(
                    f"{where}: a value of the body escapes it without @{SHARDING} {{manual}} "
                    f"and @{SHARD_TO_FULL}"
                )
            body_ops.append(user)
            work += user.results
            for operand in user.operands:
                other = operand.op
                if (
                    other is not None
                    and is_custom_call(other, FULL_TO_SHARD)
                    and other not in entries
                ):
                    entries.append(other)
                    work.append(other.results[0])
    if not exits:
        raise IRError(f"{where}: no @{SHARDING} {{manual}} + @{SHARD_TO_FULL} ends the body")
    position = {op: i for i, op in enumerate(block.ops)}
    entries.sort(key=position.__getitem__)
    body_ops.sort(key=position.__getitem__)
    exits.sort(key=lambda e: position[e[1]])
    body = Block([e.result_types[0] for e in entries])
    mapping: dict[Value, Value] = dict(
        zip([e.results[0] for e in entries], body.arguments, strict=True)
    )
    inside = set(body_ops)
    for op in body_ops:
        for operand in op.operands:
            if operand in mapping:
                continue
            definition = operand.op
            if definition is not None and definition.name == "stablehlo.constant":
                body.append(definition.clone(mapping))
            elif definition not in inside:
                raise IRError(
                    f"{where}: {op.name} in the body uses a value from outside that does not "
                    f"come through @{FULL_TO_SHARD}"
                )
        body.append(op.clone(mapping))
    for op in body_ops:
        for result in op.results:
            if any(u not in inside and u not in [m for m, _ in exits] for u in result.users):
                raise IRError(f"{where}: a value of the body escapes it without @{SHARD_TO_FULL}")
    body.append(Op("sdy.return", [mapping[mark.operand(0)] for mark, _ in exits]))
    _manual_computation(entries, exits, body, list(reversed(body_ops)), importer, where)


def _exit_of_mark(mark: Op) -> tuple[Op, Op] | None:
    users = mark.results[0].users
    if len(users) == 1 and is_custom_call(users[0], SHARD_TO_FULL):
        return (mark, users[0])
    return None


def _manual_computation(
    entries: list[Op],
    exits: list[tuple[Op, Op]],
    body: Block,
    replaced: list[Op],
    importer: MeshImporter,
    where: str,
) -> None:
    """Puts an `sdy.manual_computation` of `body` in place of a shard_map: operands from
    the `@Sharding`s before `entries` (`@SPMDFullToShardShape`), results for `exits`
    (`@Sharding {manual}`, `@SPMDShardToFullShape`); `replaced` are erased (users first)."""
    operands, in_shardings, manual = [], [], None
    for to_shard in entries:
        mark = to_shard.operand(0).op
        if mark is None or not is_custom_call(mark, SHARDING):
            raise IRError(f"{where}: @{FULL_TO_SHARD}'s operand is not a @{SHARDING} custom call")
        operands.append(mark.operand(0))
        in_shardings.append(marked_annotation(mark, importer, where).sharding)
        axes = single_annotation(to_shard, importer, where).manual
        if manual is not None and axes != manual:
            raise ShardingError(f"{where}: operands are manual on different axes")
        manual = axes
    out_shardings = [marked_annotation(full, importer, where).sharding for _, full in exits]
    computation = Op(
        "sdy.manual_computation",
        operands,
        [full.result_types[0] for _, full in exits],
        {
            "in_shardings": TensorShardingPerValue(in_shardings),
            "out_shardings": TensorShardingPerValue(out_shardings),
            "manual_axes": ManualAxes(_new_axes(manual or (), exits[0][1])),
        },
        [Region([body])],
    )
    block = exits[0][1].parent
    block.insert_before(min((full for _, full in exits), key=block.ops.index), computation)
    for (mark, full), result in zip(exits, computation.results, strict=True):
        full.results[0].replace_all_uses_with(result)
        full.erase()
        mark.erase()
    for op in replaced:
        op.erase()
    for to_shard in entries:
        mark = to_shard.operand(0).op
        to_shard.erase()
        if not mark.results[0].users:
            mark.erase()


def _drop_if_uncalled(callee: Func, functions: dict[str, Func]) -> None:
    if callee.visibility != "private":
        return
    for f in functions.values():
        for op in f.walk():
            if op.name == "func.call" and op.attributes["callee"].names[-1] == callee.name:
                return
    callee.op.erase()
    del functions[callee.name]


def _new_axes(manual: tuple[str, ...], anchor: Op) -> tuple[str, ...]:
    """`manual` without the axes of the manual computations around `anchor` (GSPMD's
    `{manual}` inside a shard_map names those too)."""
    outer: set[str] = set()
    parent = anchor.parent_op
    while parent is not None:
        if parent.name == "sdy.manual_computation":
            outer |= set(parent.attributes["manual_axes"].names)
        parent = parent.parent_op
    return tuple(a for a in manual if a not in outer)
