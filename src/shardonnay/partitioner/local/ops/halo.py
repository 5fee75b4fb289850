"""Slices, pads, reverses and concatenations along sharded dims, moving only
the elements each device lacks.

These ops move elements along a dim: result position `g` takes operand
element `f(g)` (or the pad value). Where the operands and the result shard a
moved dim by the same axes, result shard `k` needs a few elements of a few
other shards (a halo). Each device fetches from each other device the
distinct slots it lacks as one window (`stablehlo.collective_permute`s in
the rounds of `halo.schedule.schedule`: a round holds windows of one width,
so every device receives exactly the slots it lacks along the dim), puts its
own shard, the windows it received and the fill values side by side, and
picks its result slots from them with a `stablehlo.gather` whose indices it
reads from a table indexed by `partition_id` (`halo.exchange.exchange`
emits this). Dims the op moves but nobody shards run the op locally; all
this works for uneven shards too.

Several moved dims go one at a time, each exchange carrying the other dims
as they are then: first every dim drops the slots no result element reads
(`_compact`), then the dims move in the order that brings the busiest device
the fewest elements (`order_moves`). With one moved dim, a device receives
exactly what `halo.need.op_need` says it lacks (per slot of the other dims,
padding included); the corners of several moved dims may travel twice.

For example, `stablehlo.slice %x [1:8]` of `tensor<8xf32>` sharded `[{"x"}]`
on `<["x"=4]>` (2 slots per device, result 7 elements in 2 slots): result
shard 0 takes `x[1], x[2]`, i.e. slot 1 of its own shard and slot 0 of shard
1; one collective_permute sends each device's slot 0 to its left neighbour,
and each device gathers its two slots from `[own 2 slots, received 1 slot]`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from shardonnay.ir.core import Op, Value
from shardonnay.ops.linalg import i64_list
from shardonnay.partitioner.halo.exchange import (
    exchange,
    filled_slot,
    pick_slots,
    shard_positions,
    slot_holder,
)
from shardonnay.partitioner.halo.schedule import Exchange, IndexMap, schedule
from shardonnay.partitioner.local.context import (
    I64,
    LocalContext,
    axes_index,
    axes_size,
    partition_error,
)


@dataclass(frozen=True)
class _Move:
    """How one dim of an op moves elements: result size and the index map."""

    size: int
    source: IndexMap


def halo(ctx: LocalContext, op: Op, operands: Sequence[Value], regions) -> list[Value]:
    """`op` (a slice, pad, reverse or concatenate) on local values, exchanging only halos.

    Raises PartitionError where a dim is sharded differently in the operands
    and the result (the caller falls back to computing it whole)."""
    data = op.operands[:1] if op.name == "stablehlo.pad" else op.operands
    xs = list(operands[: len(data)])
    result = op.results[0]
    rank = len(result.type.shape)
    result_axes = ctx.sharded_axes(result)
    moves = {d: m for d in range(rank) if (m := _move(op, d)) is not None}
    for d in range(rank):
        for v in data:
            if tuple(ctx.sharded_axes(v)[d]) != tuple(result_axes[d]):
                raise partition_error(op, f"dimension {d} is sharded unlike the result's")
        if d not in moves and any(v.type.shape[d] != result.type.shape[d] for v in data):
            raise partition_error(op, f"dimension {d} changes size but moves nothing")
    fill = operands[1] if op.name == "stablehlo.pad" else None
    if any(result_axes[d] for d in moves) and ctx.mesh.size != ctx.num_devices:
        raise partition_error(op, "an exchange runs on the program's devices only")
    slot_maps: dict[int, dict[int, dict[int, int]]] = {}
    slots = {d: [x.type.shape[d] for x in xs] for d in moves}
    if len(xs) == 1 and len(moves) > 1 and any(result_axes[d] for d in moves):
        for d in list(moves):
            xs[0], moves[d], slot_maps[d] = _compact(ctx, xs[0], d, moves[d], result_axes[d])
    plans = {
        d: _plan(ctx, op, [v.type.shape[d] for v in data], slots[d], d, m, a, slot_maps.get(d))
        for d, m in moves.items()
        if (a := result_axes[d])
    }
    devices = list(ctx.mesh.device_list)
    received = {d: schedule(plan, devices).received for d, plan in plans.items()}
    local_shape = list(xs[0].type.shape)
    for d in order_moves(op, moves, plans, received, local_shape):
        move = moves[d]
        if d in plans:
            x = exchange(ctx, xs, plans[d], fill, op)[0]
        else:
            x = _local(ctx, xs, d, move, fill)
        xs = [x]
    if len(xs) != 1:  # a concatenation along no dim is the identity of one operand
        raise partition_error(op, "several operands but no dim to join them along")
    expected = ctx.local_type(result, op)
    if xs[0].type != expected:
        raise partition_error(op, f"computed {xs[0].type} per device but needs {expected}")
    return xs


def _move(op: Op, dim: int) -> _Move | None:
    """How `op` moves elements along `dim` (None where it moves none)."""
    shape = op.operands[0].type.shape
    if op.name == "stablehlo.slice":
        start = i64_list(op, "start_indices")[dim]
        limit = i64_list(op, "limit_indices")[dim]
        stride = i64_list(op, "strides", (1,) * len(shape))[dim]
        if (start, limit, stride) == (0, shape[dim], 1):
            return None
        size = max(0, -(-(limit - start) // stride))
        return _Move(size, lambda g: (0, start + g * stride))
    if op.name == "stablehlo.pad":
        low = i64_list(op, "edge_padding_low")[dim]
        high = i64_list(op, "edge_padding_high")[dim]
        step = i64_list(op, "interior_padding")[dim] + 1
        n = shape[dim]
        if (low, high, step) == (0, 0, 1):
            return None
        size = low + high + (n - 1) * step + 1 if n else low + high

        def padded(g: int) -> tuple[int, int] | None:
            i, r = divmod(g - low, step)
            return (0, i) if g >= low and r == 0 and i < n else None

        return _Move(size, padded)
    if op.name == "stablehlo.reverse":
        if dim not in i64_list(op, "dimensions"):
            return None
        n = shape[dim]
        return _Move(n, lambda g: (0, n - 1 - g))
    if op.name == "stablehlo.concatenate":
        if dim != op.attributes["dimension"].value:
            return None
        bounds = np.cumsum([0, *(v.type.shape[dim] for v in op.operands)])

        def joined(g: int) -> tuple[int, int]:
            j = int(np.searchsorted(bounds, g, side="right")) - 1
            return (j, g - int(bounds[j]))

        return _Move(int(bounds[-1]), joined)
    return None


def _local(ctx: LocalContext, xs: Sequence[Value], dim: int, move: _Move, fill) -> Value:
    """The move along an unsharded `dim`: one local gather of the needed slots."""
    sizes = [x.type.shape[dim] for x in xs]
    bases = np.cumsum([0, *sizes])
    parts = list(xs)
    fill_slot = int(bases[-1])
    rows = []
    for g in range(move.size):
        found = move.source(g)
        rows.append(fill_slot if found is None else int(bases[found[0]]) + found[1])
    if fill_slot in rows:
        parts.append(filled_slot(ctx, xs[0], dim, fill))
    return pick_slots(ctx, parts, dim, [rows])


def _compact(
    ctx: LocalContext, x: Value, dim: int, move: _Move, axes
) -> tuple[Value, _Move, dict[int, dict[int, int]]]:
    """`x` keeping along `dim` only the slots some result element reads,
    before other dims exchange (they carry this dim as it is then).

    Unsharded, the dim keeps the read positions in order and the move reads
    those. Sharded by `axes`, shard `k` keeps its read slots `S(k)`, as many
    as the most any shard keeps (the rest repeat one), and the map says
    where each went: `{k: {old slot: new slot}}`. For example, a slice
    `[0:8:2]` of 8 over 2 shards (4 slots) keeps slots 0 and 2 of each
    shard, and an exchange along another dim carries 2 slots, not 4."""
    mesh = ctx.mesh
    slots = x.type.shape[dim]
    read = sorted({f[1] for f in map(move.source, range(move.size)) if f is not None})
    if not axes:
        if not read or len(read) == slots:
            return x, move, {}
        at = {i: t for t, i in enumerate(read)}

        def source(g: int) -> tuple[int, int] | None:
            found = move.source(g)
            return None if found is None else (0, at[found[1]])

        return pick_slots(ctx, [x], dim, [read]), _Move(move.size, source), {}
    kept: dict[int, list[int]] = {k: [] for k in range(axes_size(axes, mesh))}
    for i in read:
        kept[i // slots].append(i % slots)
    width = max(len(q) for q in kept.values())
    if not width or width == slots:
        return x, move, {}
    rows = [[0] * width for _ in range(ctx.num_devices)]
    for device in mesh.device_list:
        q = kept[axes_index(device, axes, mesh)]
        rows[device] = [*q, *[q[-1] if q else 0] * (width - len(q))]
    slot_map = {k: {i: t for t, i in enumerate(q)} for k, q in kept.items()}
    return pick_slots(ctx, [x], dim, rows), move, slot_map


def _plan(
    ctx: LocalContext,
    op: Op,
    global_sizes: Sequence[int],
    slots: Sequence[int],
    dim: int,
    move: _Move,
    axes,
    slot_map: dict[int, dict[int, int]] | None = None,
) -> Exchange:
    """The exchange of the move along `dim`, sharded by `axes` in the
    operands (`slots` per device, `global_sizes` in all) and the result;
    `slot_map` says where `_compact` put each shard's slots."""
    mesh = ctx.mesh
    out_slots = -(-move.size // axes_size(axes, mesh))
    if not out_slots or not all(slots):
        raise partition_error(op, f"dimension {dim} is empty")
    for j, size in enumerate(global_sizes):
        if any(
            found is not None and found[0] == j and not 0 <= found[1] < size
            for found in map(move.source, range(move.size))
        ):
            raise partition_error(op, f"dimension {dim} reads outside operand {j}")
    return Exchange(
        dim,
        out_slots,
        lambda device: shard_positions(axes_index(device, axes, mesh), out_slots, move.size),
        move.source,
        slot_holder(axes, slots, mesh, slot_map),
        (axes_size(axes, mesh) - 1) * max(slots),
    )


def order_moves(
    op: Op,
    moves: dict[int, _Move],
    plans: dict[int, Exchange],
    received: dict[int, dict[int, int]],
    local_shape: Sequence[int],
) -> list[int]:
    """The order to move dims in: the one whose exchanges bring the busiest
    device the fewest elements (a dim's slots travel with the other dims'
    sizes at that time, so a pad exchanges before its other dims grow and
    a slice after they shrink); ties keep local moves first where the op
    shrinks the value and last where it grows it.

    For example, `stablehlo.pad` of `tensor<8x16xf32>` on `[{"data"},
    {"model"}]` (4x4 per device) to 10x18 (5x5): dim 0 moves no element
    between devices but grows to 5 rows, so dim 1's 3 slots travel as 4x3
    before it rather than 5x3 after it."""
    local_dims = [d for d in moves if d not in plans]
    shrinks = op.name == "stablehlo.slice"
    base = (local_dims + list(plans)) if shrinks else (list(plans) + local_dims)
    if len(base) > 5:
        return base

    def cost(order: Sequence[int]) -> int:
        shape = list(local_shape)
        totals: dict[int, int] = {}
        for d in order:
            if d in plans:
                others = int(np.prod([n for e, n in enumerate(shape) if e != d], dtype=np.int64))
                for device, slots in received[d].items():
                    totals[device] = totals.get(device, 0) + slots * others
                shape[d] = plans[d].slots
            else:
                shape[d] = moves[d].size
        return max(totals.values(), default=0)

    return list(min(itertools.permutations(base), key=cost))


def masked_update(ctx: LocalContext, op: Op, operands: Sequence[Value], regions) -> list[Value]:
    """`stablehlo.dynamic_update_slice` of an operand sharded like its result
    with a replicated update: each device cuts the part of the update that
    lands in its shard out of the update padded by a shard on both sides and
    selects it where the update lands; no communication.

    Along a dim of `c` slots per device (all of it where unsharded), slot `t`
    of the device whose shard starts at `o` is global position `o + t`; it
    takes `update[o + t - s]` when `s <= o + t < s + u` (`s` the start,
    clamped to `[0, size - u]` as the op does)."""
    source, update, result = op.operands[0], op.operands[1], op.results[0]
    axes = ctx.sharded_axes(source)
    if any(ctx.sharded_axes(update)) or axes != ctx.sharded_axes(result):
        raise partition_error(op, "the update is sharded or the result is sharded differently")
    x, u, starts = operands[0], operands[1], operands[2:]
    local = x.type
    rank = len(local.shape)
    slots = local.shape
    padded = ctx.pad(u, slots, slots, ctx.padding_value(u.type))
    positions = local.with_element_type(I64)
    windows, mask = [], None
    for d in range(rank):
        size, length = source.type.shape[d], update.type.shape[d]
        start = ctx.convert(starts[d], I64) if starts[d].type.element_type != I64 else starts[d]
        bounds = [ctx.i64(0), start, ctx.i64(size - length)]
        start = ctx.value("stablehlo.clamp", bounds, start.type)
        offset = ctx.dimension_offset(axes[d], slots[d]) if axes[d] else ctx.i64(0)
        shift = ctx.value("stablehlo.subtract", [offset, start], start.type)
        windows.append(ctx.value("stablehlo.add", [shift, ctx.i64(slots[d])], start.type))
        iota = ctx.value("stablehlo.iota", [], positions, {"iota_dimension": ctx.i64_attr(d)})
        index = ctx.value("stablehlo.add", [iota, ctx.broadcast(offset, positions)], positions)
        low = ctx.compare(index, ctx.broadcast(start, positions), "GE")
        end = ctx.value("stablehlo.add", [start, ctx.i64(length)], start.type)
        high = ctx.compare(index, ctx.broadcast(end, positions), "LT")
        inside = ctx.value("stablehlo.and", [low, high], low.type)
        mask = inside if mask is None else ctx.value("stablehlo.and", [mask, inside], inside.type)
    placed = ctx.dynamic_slice(padded, windows, slots)
    return [ctx.value("stablehlo.select", [mask, placed, x], local)]
