"""Slices, pads, reverses and concatenations along sharded dims, moving only
the elements each device lacks.

These ops move elements along a dim: result position `g` takes operand
element `f(g)` (or the pad value). Where the operands and the result shard a
moved dim by the same axes, result shard `k` needs a few elements of a few
other shards (a halo). Each device fetches from each other device the
distinct slots it lacks as one window (`stablehlo.collective_permute`s in
the rounds of `halo_schedule.schedule`: a round holds windows of one width,
so every device receives exactly the slots it lacks along the dim), puts its
own shard, the windows it received and the fill values side by side, and
picks its result slots from them with a `stablehlo.gather` whose indices it
reads from a table indexed by `partition_id`. Dims the op moves but nobody
shards run the op locally; all this works for uneven shards too.

Several moved dims go one at a time, each exchange carrying the other dims
as they are then: first every dim drops the slots no result element reads
(`_compact`), then the dims move in the order that brings the busiest device
the fewest elements (`order_moves`). With one moved dim, a device receives
exactly what `halo_need.op_need` says it lacks (per slot of the other dims,
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

from shardonnay.axes import AxisRef
from shardonnay.ir.attributes import DenseArrayAttr, DenseElementsAttr, StructAttr
from shardonnay.ir.core import Op, Value
from shardonnay.ir.types import TensorType
from shardonnay.ops.linalg import i64_list
from shardonnay.partition.halo_schedule import (
    BoxSchedule,
    Exchange,
    IndexMap,
    box_schedule,
    schedule,
)
from shardonnay.partition.local_context import (
    I64,
    LocalContext,
    axes_index,
    axes_size,
    local_size,
    partition_error,
)
from shardonnay.partition.local_layout import relayout_received, replica_groups

HALO_OPS = ("stablehlo.slice", "stablehlo.pad", "stablehlo.reverse", "stablehlo.concatenate")


@dataclass(frozen=True)
class _Move:
    """How one dim of an op moves elements: result size and the index map."""

    size: int
    source: IndexMap


def halo(ctx: LocalContext, op: Op, operands: Sequence[Value], regions) -> list[Value]:
    """`op` (see `HALO_OPS`) on local values, exchanging only halos.

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
        parts.append(_slot(ctx, xs[0], dim, fill))
    return _pick(ctx, parts, dim, [rows])


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

        return _pick(ctx, [x], dim, [read]), _Move(move.size, source), {}
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
    return _pick(ctx, [x], dim, rows), move, slot_map


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
        lambda device: _positions(axes_index(device, axes, mesh), out_slots, move.size),
        move.source,
        _holder(axes, slots, mesh, slot_map),
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


def _positions(k: int, count: int, size: int) -> list[int]:
    """The global positions of the `count` slots of shard `k` (-1: padding)."""
    return [g if g < size else -1 for g in range(k * count, (k + 1) * count)]


def _holder(axes, slots: Sequence[int], mesh, slot_map: dict[int, dict[int, int]] | None = None):
    """(device, operand, position) -> the device among those differing from it
    only along `axes` that holds the position, and its slot there (shard
    `k`'s slot `s` moved to `slot_map[k][s]` where given)."""
    group_of = {d: g for g in replica_groups(axes, mesh) for d in g}

    def holder(device: int, j: int, i: int) -> tuple[int, int]:
        k, s = divmod(i, slots[j])
        return group_of[device][k], slot_map[k][s] if slot_map else s

    return holder


def exchange(
    ctx: LocalContext, xs: Sequence[Value], plan: Exchange, fill: Value | None, op: Op
) -> tuple[Value, int]:
    """Each device's result slots along `plan.dim`, built from its own operands
    and windows of other devices' (`stablehlo.collective_permute`s, in the
    rounds of `schedule`), and the most slots a device receives. Raises
    PartitionError where that is more than `plan.budget`."""
    dim, mesh = plan.dim, ctx.mesh
    if mesh.size != ctx.num_devices:
        raise partition_error(op, "an exchange runs on the program's devices only")
    slots = [x.type.shape[dim] for x in xs]
    plan_of = schedule(plan, list(mesh.device_list))
    most = max(plan_of.received.values(), default=0)
    if most > plan.budget:
        raise partition_error(op, f"dimension {dim} moves more than a gather would")
    parts = list(xs)
    bases = list(np.cumsum([0, *slots])[:-1])
    place: dict[tuple[int, int, int], tuple[int, dict[int, int]]] = {}  # -> (base, slot -> at)
    offset = int(sum(slots))
    for r in plan_of.rounds:
        j, width, x = r.operand, r.width, xs[r.operand]
        at: dict[tuple[int, int], dict[int, int]] = {}
        if all(q[-1] - q[0] < width for _, _, q in r.windows):
            # each window is a run of `width` slots: a dynamic_slice cuts it
            table = [0] * ctx.num_devices
            for receiver, sender, q in r.windows:
                lo = min(q[0], slots[j] - width)
                table[sender] = lo
                at[(receiver, sender)] = {s: s - lo for s in q}
            starts = [ctx.i64(0) for _ in x.type.shape]
            starts[dim] = ctx.table_entry(table, ctx.partition_id())
            sizes = list(x.type.shape)
            sizes[dim] = width
            window = ctx.dynamic_slice(x, starts, sizes)
        else:  # scattered slots: each sender gathers just those
            picks = [list(range(width)) for _ in range(ctx.num_devices)]
            for receiver, sender, q in r.windows:
                extra = [s for s in range(slots[j]) if s not in q][: width - len(q)]
                picks[sender] = [*q, *extra]
                at[(receiver, sender)] = {s: t for t, s in enumerate(q)}
            window = _pick(ctx, [x], dim, picks)
        pairs = [(sender, receiver) for receiver, sender, _ in r.windows]
        attr = DenseElementsAttr.from_numpy(np.array(pairs), TensorType((len(pairs), 2), I64))
        parts.append(
            ctx.value(
                "stablehlo.collective_permute",
                [window],
                window.type,
                {"channel_handle": ctx.channel_handle(), "source_target_pairs": attr},
            )
        )
        for (receiver, sender), slot_at in at.items():
            place[(receiver, sender, j)] = (offset, slot_at)
        offset += width
    fill_slot = offset
    padding_slot = offset + (1 if fill is not None else 0)
    rows = [[0] * plan.slots for _ in range(ctx.num_devices)]
    for device, row in plan_of.rows.items():
        picks = []
        for entry in row:
            if entry == -1:
                picks.append(padding_slot)
            elif entry is None:
                picks.append(fill_slot)
            else:
                holder, j, q = entry
                if holder == device:
                    picks.append(int(bases[j]) + q)
                else:
                    base, slot_at = place[(device, holder, j)]
                    picks.append(base + slot_at[q])
        rows[device] = picks
    if fill is not None:
        parts.append(_slot(ctx, xs[0], dim, fill))
    if any(-1 in row for row in plan_of.rows.values()):
        padding = ctx.scalar(ctx.padding_value(xs[0].type), xs[0].type.element_type)
        parts.append(_slot(ctx, xs[0], dim, padding))
    return _pick(ctx, parts, dim, rows), most


def _slot(ctx: LocalContext, like: Value, dim: int, scalar: Value) -> Value:
    """A one-slot-thick block along `dim` of `like`'s other sizes, all `scalar`."""
    shape = list(like.type.shape)
    shape[dim] = 1
    return ctx.broadcast(scalar, like.type.with_shape(tuple(shape)))


def _pick(ctx: LocalContext, parts: Sequence[Value], dim: int, rows: Sequence[Sequence[int]]):
    """The slots `rows[device]` (one row for all when there is one) of `parts`
    joined along `dim`."""
    joined = parts[0]
    if len(parts) > 1:
        shape = list(parts[0].type.shape)
        shape[dim] = sum(p.type.shape[dim] for p in parts)
        joined = ctx.value(
            "stablehlo.concatenate",
            list(parts),
            parts[0].type.with_shape(tuple(shape)),
            {"dimension": ctx.i64_attr(dim)},
        )
    count = len(rows[0])
    if len(rows) == 1 or all(list(r) == list(rows[0]) for r in rows):
        row = list(rows[0])
        if row == list(range(joined.type.shape[dim])):
            return joined
        table = np.array(row, np.int64).reshape(count, 1)
        indices = ctx.constant(table, TensorType((count, 1), I64))
    else:
        table = np.array(rows, np.int64)
        constant = ctx.constant(table, TensorType(table.shape, I64))
        row = ctx.dynamic_slice(constant, [ctx.partition_id(), ctx.i64(0)], [1, count])
        indices = ctx.reshape(row, (count, 1))
    rank = len(joined.type.shape)
    numbers = StructAttr(
        "stablehlo.gather",
        (
            ("offset_dims", tuple(d for d in range(rank) if d != dim)),
            ("collapsed_slice_dims", (dim,)),
            ("start_index_map", (dim,)),
            ("index_vector_dim", 1),
        ),
    )
    sizes = list(joined.type.shape)
    sizes[dim] = 1
    shape = list(joined.type.shape)
    shape[dim] = count
    return ctx.value(
        "stablehlo.gather",
        [joined, indices],
        joined.type.with_shape(tuple(shape)),
        {
            "dimension_numbers": numbers,
            "slice_sizes": DenseArrayAttr(I64, tuple(sizes)),
        },
    )


def relayout_by_exchange(
    ctx: LocalContext,
    x: Value,
    source: Sequence[Sequence[AxisRef]],
    target: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    op: Op,
) -> Value:
    """`x`, sharded by `source` (global `shape`), sharded by `target` instead,
    each device fetching only the elements it lacks: one dim at a time, or
    all dims at once in boxes (`halo_schedule.box_schedule`), whichever
    brings the busiest device fewer elements (one dim at a time on a tie).

    A dim moves from axes `S` to axes `T` with the devices that differ from
    the receiver only along `S` (they hold what it holds along the other
    dims), so a dim takes its new axes only once no other dim holds them.
    For example, gathering `{"y":(2)2}` of `[{"y"}]` on a dim of 18 over
    `"y"=4` (5 slots per device, 9 wanted): device 2 (slots 10..14) needs
    element 9 of device 1 and 15..17 of device 3, not the whole dim.
    Along each dim a device receives exactly the slots it lacks (see
    `halo_schedule.schedule`); with one dim to move, that is
    `halo_need.relayout_need` per slot of the other dims. Moving dims one at
    a time, the corners of several dims may travel twice; in boxes, every
    device receives exactly `relayout_need`.
    Raises PartitionError where a device would receive as much as
    `relayout`'s gathers bring it."""
    mesh = ctx.mesh
    if mesh.size != ctx.num_devices:
        raise partition_error(op, "an exchange runs on the program's devices only")
    budget = relayout_received(x.type.shape, source, target, shape, mesh)
    devices = list(mesh.device_list)
    steps = _dim_steps(x, source, target, shape, mesh)
    boxes = box_schedule(
        shape,
        lambda d, e: (axes_index(d, source[e], mesh), x.type.shape[e]),
        lambda d, e: (axes_index(d, target[e], mesh), local_size(shape[e], target[e], mesh)),
        devices,
    )
    by_boxes = max(boxes.received.values(), default=0)
    by_dims = None if steps is None else max(steps[1].values(), default=0)
    if by_dims is None or by_boxes < by_dims:
        if by_boxes >= budget:
            raise partition_error(op, "gathering moves no more")
        return _exchange_boxes(
            ctx, x, boxes, [local_size(n, t, mesh) for n, t in zip(shape, target, strict=True)]
        )
    plans, _, spent = steps
    if spent >= budget:
        raise partition_error(op, "gathering moves no more")
    for plan in plans:
        x = exchange(ctx, [x], plan, None, op)[0]
    return x


def _dim_steps(x: Value, source, target, shape: Sequence[int], mesh):
    """The exchanges moving one dim at a time (None where the axes move
    between dims in a cycle or a dim moves more than a gather would), the
    elements each device receives in all, and the sum of the most each
    exchange brings a device."""
    local = list(x.type.shape)
    current = [tuple(a) for a in source]
    pending = [d for d in range(len(shape)) if current[d] != tuple(target[d])]
    plans, totals, spent = [], dict.fromkeys(mesh.device_list, 0), 0
    while pending:
        free = [
            d
            for d in pending
            if not any(
                a.overlaps(b)
                for e, axes in enumerate(current)
                if e != d
                for a in axes
                for b in target[d]
            )
        ]
        if not free:
            return None
        d = free[0]
        wanted = tuple(target[d])
        plan = _relayout_plan(local, d, current[d], wanted, shape[d], mesh)
        received = schedule(plan, list(mesh.device_list)).received
        if max(received.values(), default=0) > plan.budget:
            return None
        other = int(np.prod([n for e, n in enumerate(local) if e != d], dtype=np.int64))
        for device, slots in received.items():
            totals[device] += slots * other
        spent += max(received.values(), default=0) * other
        plans.append(plan)
        local[d] = plan.slots
        current[d] = wanted
        pending.remove(d)
    return plans, totals, spent


def _exchange_boxes(ctx: LocalContext, x: Value, plan: BoxSchedule, slots: Sequence[int]):
    """`x` relaid out by `plan`: each device picks the slots it holds (padding
    elsewhere), then each round's boxes travel by one
    `stablehlo.collective_permute` and land by a `dynamic_update_slice` on
    the devices that receive one."""
    padding = ctx.scalar(ctx.padding_value(x.type), x.type.element_type)
    out = x
    for e, own in enumerate(plan.own):
        edge = out.type.shape[e]
        rows = [[edge] * slots[e] for _ in range(ctx.num_devices)]
        for device, row in own.items():
            rows[device] = [edge if s == -1 else s for s in row]
        parts = [out]
        if any(edge in row for row in rows):
            parts.append(_slot(ctx, out, e, padding))
        out = _pick(ctx, parts, e, rows)
    pid = ctx.partition_id()
    for boxes in plan.rounds:
        box_shape = boxes[0].shape
        sent_at = [[0] * ctx.num_devices for _ in box_shape]
        put_at = [[0] * ctx.num_devices for _ in box_shape]
        receives = [0] * ctx.num_devices
        for box in boxes:
            receives[box.receiver] = 1
            for e in range(len(box_shape)):
                sent_at[e][box.sender] = box.sent_at[e]
                put_at[e][box.receiver] = box.put_at[e]
        window = ctx.dynamic_slice(x, [ctx.table_entry(t, pid) for t in sent_at], box_shape)
        pairs = [(box.sender, box.receiver) for box in boxes]
        attr = DenseElementsAttr.from_numpy(np.array(pairs), TensorType((len(pairs), 2), I64))
        window = ctx.value(
            "stablehlo.collective_permute",
            [window],
            window.type,
            {"channel_handle": ctx.channel_handle(), "source_target_pairs": attr},
        )
        starts = [ctx.table_entry(t, pid) for t in put_at]
        updated = ctx.value("stablehlo.dynamic_update_slice", [out, window, *starts], out.type)
        if all(receives):
            out = updated
            continue
        flag = ctx.compare(ctx.table_entry(receives, pid), ctx.i64(1), "EQ")
        mask = ctx.broadcast(flag, out.type.with_element_type("i1"))
        out = ctx.value("stablehlo.select", [mask, updated, out], out.type)
    return out


def _relayout_plan(local: Sequence[int], d: int, held, wanted, size: int, mesh) -> Exchange:
    """The exchange moving dim `d` (global `size`) of a value of local shape
    `local` from axes `held` to axes `wanted`."""
    count = -(-size // axes_size(wanted, mesh))
    return Exchange(
        d,
        count,
        lambda device: _positions(axes_index(device, wanted, mesh), count, size),
        lambda g: (0, g),
        _holder(held, [local[d]], mesh),
        (axes_size(held, mesh) - 1) * local[d],
    )


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
