"""Emitting exchanges: each device fetches from the others only the slots it lacks.

`halo.schedule` works out on device ids and slot numbers who sends which
slots to whom; this module emits the per-device program that does it:

- `exchange` moves one dim (a `halo.schedule.Exchange`): each round of
  `halo.schedule.schedule` is one `stablehlo.collective_permute` of a window
  of `width` slots per sender (cut by a `dynamic_slice` where the slots a
  receiver needs are a run, else picked by a gather); then every device puts
  its own operands, the windows it received, the fill value and a padding
  slot side by side and picks its result slots from them (`pick_slots`: a
  `stablehlo.gather` whose indices it reads from a table indexed by
  `partition_id`);
- `relayout_by_exchange` gives a value another sharding, moving one dim at a
  time (an `exchange` each) or all dims at once in boxes
  (`halo.schedule.box_schedule`: each round's boxes travel by one
  `stablehlo.collective_permute` and land by a `dynamic_update_slice`),
  whichever brings the busiest device fewer elements.

`local.ops.halo` lowers slices, pads, reverses and concatenations with
`exchange`; `local.collectives` and `local.moves` reshard with
`relayout_by_exchange`.

For example, `stablehlo.slice %x [1:8]` of `tensor<8xf32>` sharded `[{"x"}]`
on `<["x"=4]>` (2 slots per device; the result's 7 elements in 2 slots per
device) is one round of 1-slot windows: each device cuts its slot 0 and
`source_target_pairs = [[1, 0], [2, 1], [3, 2]]` sends it to its left
neighbour. Each device then joins `[own slot 0, own slot 1, received slot,
padding slot]` and gathers the slots of its row of the table
`[[1, 2], [1, 2], [1, 2], [1, 3]]`: device 3, whose second result slot is
padding, takes slot 3.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.collectives.exchange import device_groups
from shardonnay.ir.attributes import DenseArrayAttr, DenseElementsAttr, StructAttr
from shardonnay.ir.core import Op, Value
from shardonnay.ir.types import TensorType
from shardonnay.partitioner.halo.schedule import BoxSchedule, Exchange, box_schedule, schedule
from shardonnay.partitioner.local.context import (
    I64,
    LocalContext,
    axes_index,
    axes_size,
    local_size,
    partition_error,
)
from shardonnay.partitioner.local.layout import relayout_received


def shard_positions(k: int, count: int, size: int) -> list[int]:
    """The global positions of the `count` slots of shard `k` (-1: padding)."""
    return [g if g < size else -1 for g in range(k * count, (k + 1) * count)]


def slot_holder(
    axes, slots: Sequence[int], mesh, slot_map: dict[int, dict[int, int]] | None = None
):
    """(device, operand, position) -> the device among those differing from it
    only along `axes` that holds the position, and its slot there (shard
    `k`'s slot `s` moved to `slot_map[k][s]` where given)."""
    group_of = {d: g for g in device_groups(axes, mesh) for d in g}

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
                picks[sender] = list(q)  # a round's windows all have `width` slots
                at[(receiver, sender)] = {s: t for t, s in enumerate(q)}
            window = pick_slots(ctx, [x], dim, picks)
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
        parts.append(filled_slot(ctx, xs[0], dim, fill))
    if any(-1 in row for row in plan_of.rows.values()):
        padding = ctx.scalar(ctx.padding_value(xs[0].type), xs[0].type.element_type)
        parts.append(filled_slot(ctx, xs[0], dim, padding))
    return pick_slots(ctx, parts, dim, rows), most


def filled_slot(ctx: LocalContext, like: Value, dim: int, scalar: Value) -> Value:
    """A one-slot-thick block along `dim` of `like`'s other sizes, all `scalar`."""
    shape = list(like.type.shape)
    shape[dim] = 1
    return ctx.broadcast(scalar, like.type.with_shape(tuple(shape)))


def pick_slots(ctx: LocalContext, parts: Sequence[Value], dim: int, rows: Sequence[Sequence[int]]):
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
    all dims at once in boxes (`halo.schedule.box_schedule`), whichever
    brings the busiest device fewer elements (one dim at a time on a tie).

    A dim moves from axes `S` to axes `T` with the devices that differ from
    the receiver only along `S` (they hold what it holds along the other
    dims), so a dim takes its new axes only once no other dim holds them.
    For example, gathering `{"y":(2)2}` of `[{"y"}]` on a dim of 18 over
    `"y"=4` (5 slots per device, 9 wanted): device 2 (slots 10..14) needs
    element 9 of device 1 and 15..17 of device 3, not the whole dim.
    Along each dim a device receives exactly the slots it lacks (see
    `halo.schedule.schedule`); with one dim to move, that is
    `halo.need.relayout_need` per slot of the other dims. Moving dims one at
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
            parts.append(filled_slot(ctx, out, e, padding))
        out = pick_slots(ctx, parts, e, rows)
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
        lambda device: shard_positions(axes_index(device, wanted, mesh), count, size),
        lambda g: (0, g),
        slot_holder(held, [local[d]], mesh),
        (axes_size(held, mesh) - 1) * local[d],
    )
