"""Moving a local value to another sharding, on one mesh or between meshes,
by the cheapest exact lowering.

- `move(x, source, source_mesh, target, target_mesh, shape)`: between
  meshes; where both shardings can be spelled on one mesh
  (`mesh_translation`), `reshard` there; else gathered on the source mesh and
  sliced on the target one;
- `reshard(x, source, target, shape, mesh)`: the cheapest exact lowering by
  measured bytes among `local.layout.relayout`,
  `halo.exchange.relayout_by_exchange`, the Shardy collectives `reshard_plan`
  chooses (lowered by `local.collectives`) and `fetch_tiles` (each device
  receives exactly the tiles of its target buffer it lacks, in rounds of
  collective_permutes);
- `elementwise_across_meshes(op, operands)`: an elementwise op whose
  operands are on other meshes than its result, each operand moved to the
  result's layout.

For example, on `<["data"=2, "model"=4]>` and `<["x"=4, "y"=2]>` over the same
8 devices, `"x"` is `("data", "model":(1)2)` and `"y"` is `"model":(2)2`: a
value sharded `[{"data"}, {"model"}]` moved to `[{"x"}, {"y"}]` is resharded
on the first mesh, and each device receives exactly the 64 B of its 2x8 f32
target block it lacks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.errors import PartitionError, ShardonnayError
from shardonnay.ir.attributes import DenseElementsAttr, IntegerAttr
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.types import TensorType, numpy_dtype
from shardonnay.layout import equivalent
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import lookup
from shardonnay.ops.traits import DEVICE_COLLECTIVE, has_trait, is_elementwise
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.halo.exchange import relayout_by_exchange
from shardonnay.partitioner.local import collectives as local_collectives
from shardonnay.partitioner.local.context import (
    LocalContext,
    drop_ops,
    local_size,
    offset_table,
    remove_ops_from,
)
from shardonnay.partitioner.local.layout import (
    gather_dims,
    relayout,
    sharding_on,
    slice_dims,
    spread,
)
from shardonnay.partitioner.reshard.mesh_translation import translate_axes
from shardonnay.partitioner.reshard.plan import reshard_plan

Axes = tuple[AxisRef, ...]


def move(
    ctx: LocalContext,
    x: Value,
    source: Sequence[Sequence[AxisRef]],
    source_mesh: Mesh,
    target: Sequence[Sequence[AxisRef]],
    target_mesh: Mesh,
    shape: Sequence[int],
) -> Value:
    """`x`, sharded by `source` on `source_mesh`, sharded by `target` on
    `target_mesh`: nothing when both put the same data on every device, else
    `reshard` on one mesh where the two shardings can be spelled on one
    (either side replicated, the same mesh, or meshes of the same devices in
    the same order whose axes translate, `mesh_translation`), else the
    cheaper of gathering it on the source mesh and slicing it on the target
    one, and `fetch_tiles` between the meshes. A value split on a mesh of
    fewer devices than the program's that leaves them (replicated, or split
    on a larger mesh) is gathered on its devices and `spread` to all before
    it is sliced, unless fetching the tiles is cheaper.

    For example, `[{"data"}, {"model"}]` on `<["data"=2, "model"=4]>` to
    `[{"x"}, {"y"}]` on `<["x"=4, "y"=2]>` is `[{"data", "model":(1)2},
    {"model":(2)2}]` on the first mesh: of `tensor<8x16xf32>`, each device
    receives the two 2x4 tiles of its target buffer it lacks (`fetch_tiles`,
    64 B, `reshard.lower_bound`), not the 448 B of gathering the value.
    """

    def fetched() -> Value:
        return fetch_tiles(ctx, x, source, target, shape, source_mesh, target_mesh)

    if (
        any(source)
        and source_mesh.size < ctx.num_devices
        and not _stays_on(target, target_mesh, source_mesh)
    ):

        def spread_whole() -> Value:
            whole = gather_dims(ctx, x, source, shape, mesh=source_mesh)
            whole = spread(ctx, whole, source_mesh.size)
            return slice_dims(ctx, whole, target, shape, mesh=target_mesh)

        return _cheapest(ctx, [[spread_whole, fetched] if any(target) else [spread_whole]])
    if not any(source) or not any(target) or source_mesh == target_mesh:
        mesh = source_mesh if any(source) else target_mesh
        return reshard(ctx, x, source, target, shape, mesh)
    spellings = _on_one_mesh(source, source_mesh, target, target_mesh)
    if spellings:
        before = sharding_on(source, source_mesh)
        if equivalent(before, sharding_on(target, target_mesh), None, shape):
            return x
        return _cheapest(
            ctx, [_reshard_candidates(ctx, x, s, t, shape, mesh) for s, t, mesh in spellings]
        )

    def gathered() -> Value:
        whole = gather_dims(ctx, x, source, shape, mesh=source_mesh)
        return slice_dims(ctx, whole, target, shape, mesh=target_mesh)

    return _cheapest(ctx, [[gathered, fetched]])


def elementwise_across_meshes(
    ctx: LocalContext, op: Op, operands: Sequence[Value]
) -> list[Value] | None:
    """An elementwise `op` whose tensors are split on several meshes of one
    device count, on local values: every operand (local `operands`, complete)
    `move`d to its result's sharding, then the op itself. None for other ops
    or meshes of different device counts (they run on gathered values).

    For example, `stablehlo.add` of `[{"data"}, {"model"}]` on
    `<["data"=2, "model"=4]>` and `[{"x"}, {"y"}]` on `<["x"=4, "y"=2]>`
    into `[{"x"}, {"y"}]` moves its first operand (see `move`) and adds
    locally.
    """

    if not is_elementwise(op) or len(op.results) != 1 or op.regions:
        return None
    result = op.results[0]
    values = [v for v in (*op.operands, result) if ctx.sharding(v) is not None]
    if len({ctx.mesh_of(v).size for v in values}) > 1:
        return None
    target, target_mesh = ctx.sharded_axes(result), ctx.mesh_of(result)
    moved = [
        move(ctx, x, ctx.sharded_axes(v), ctx.mesh_of(v), target, target_mesh, v.type.shape)
        if isinstance(v.type, TensorType) and v.type.shape == result.type.shape
        else x
        for v, x in zip(op.operands, operands, strict=True)
    ]
    new = ctx.op(op.name, moved, [ctx.local_type(result, op)], dict(op.attributes))
    new.location, new.inherent = op.location, op.inherent
    return list(new.results)


def _on_one_mesh(
    source: Sequence[Sequence[AxisRef]],
    source_mesh: Mesh,
    target: Sequence[Sequence[AxisRef]],
    target_mesh: Mesh,
) -> list[tuple[list[Axes], list[Axes], Mesh]]:
    """(source, target, mesh): the move spelled on the source mesh (the target
    translated) and on the target mesh (the source translated), where possible."""
    out = []
    onto_source = _translated(target, target_mesh, source_mesh)
    if onto_source is not None:
        out.append(([tuple(a) for a in source], onto_source, source_mesh))
    onto_target = _translated(source, source_mesh, target_mesh)
    if onto_target is not None:
        out.append((onto_target, [tuple(a) for a in target], target_mesh))
    return out


def _translated(
    axes_per_dim: Sequence[Sequence[AxisRef]], mesh: Mesh, onto: Mesh
) -> list[Axes] | None:
    if mesh.size != onto.size:
        return None
    out = []
    for axes in axes_per_dim:
        translated = translate_axes(axes, mesh, onto)
        if translated is None:
            return None
        out.append(translated)
    return out


# -- the cheapest exact reshard on one mesh ------------------------------------------------------


def reshard(
    ctx: LocalContext,
    x: Value,
    source: Sequence[Sequence[AxisRef]],
    target: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    mesh: Mesh,
) -> Value:
    """`x`, sharded by `source`, sharded by `target` instead (both on `mesh`):
    nothing when they put the same data on every device, else the candidate
    lowering whose collectives make the busiest device receive the fewest
    bytes (`shardonnay.partitioner.analysis.cost.collective_costs` of the ops each
    emits): `relayout`'s gathers and slices, `halo.exchange.relayout_by_exchange`
    (each device fetches what it lacks), or the chain of Shardy collectives
    `reshard_plan(..., shardy_collectives_only=True)` finds, each lowered as
    `local.collectives` lowers it."""
    if equivalent(sharding_on(source, mesh), sharding_on(target, mesh), None, shape):
        return x
    candidates = _reshard_candidates(ctx, x, source, target, shape, mesh)
    # What the choice depends on: the candidates emit ops from these alone.
    key = (
        tuple(map(tuple, source)),
        tuple(map(tuple, target)),
        tuple(shape),
        mesh,
        x.type,
        ctx.mesh,
        ctx.num_devices,
    )
    chosen = _CHOSEN.get(key)
    if chosen is not None:
        return candidates[chosen]()
    result, chosen = _cheapest_of(ctx, [candidates])
    if len(_CHOSEN) >= _CHOSEN_LIMIT:
        _CHOSEN.clear()
    _CHOSEN[key] = chosen
    return result


# The candidate `reshard` chose, by what the choice depends on: a program
# repeats its moves, and the partitioner costs a move in scratch programs
# (`reshard.planned`) before the program itself makes it.
_CHOSEN: dict[tuple, int] = {}
_CHOSEN_LIMIT = 4096


Candidate = Callable[[], Value]


def _reshard_candidates(
    ctx: LocalContext,
    x: Value,
    source: Sequence[Sequence[AxisRef]],
    target: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    mesh: Mesh,
) -> list[Candidate]:
    """Ways to emit the reshard, in the order that wins ties; each may raise
    PartitionError (it does not apply)."""

    anchor = Op("sdy.reshard")  # names the move in errors

    def exchanged() -> Value:
        with _on_mesh(ctx, mesh):
            return relayout_by_exchange(ctx, x, source, target, shape, anchor)

    return [
        lambda: relayout(ctx, x, source, target, shape, mesh),
        lambda: _planned(ctx, x, source, target, shape, mesh),
        exchanged,
        lambda: fetch_tiles(ctx, x, source, target, shape, mesh),
    ]


def _cheapest(ctx: LocalContext, candidates: Sequence[Sequence[Candidate]]) -> Value:
    """The value of the cheapest candidate (`_cheapest_of`), its ops emitted."""
    return _cheapest_of(ctx, candidates)[0]


def _cheapest_of(ctx: LocalContext, candidates: Sequence[Sequence[Candidate]]) -> tuple[Value, int]:
    """Emits each candidate and measures the bytes its collectives make the
    busiest device receive; keeps the ops of the cheapest (ties: the first)
    and drops the others'. Returns its value and its index in the candidates
    (all groups in a row). The kept ops wait outside the block while later
    candidates are emitted at the same place, from the same channel id."""
    best: tuple[tuple[int, int, int], Value, list[Op], int, int] | None = None
    block = ctx.builder.insertion_block
    before, channel = len(block.ops), ctx.next_channel
    for index, make in enumerate(make for group in candidates for make in group):
        try:
            result = make()
        except PartitionError:
            remove_ops_from(block, before)
        else:
            ops = block.ops[before:]
            cost = _received(ctx, ops)
            if best is None or cost < best[0]:
                if best is not None:
                    drop_ops(best[2])
                best = (cost, result, ops, ctx.next_channel, index)
                del block.ops[before:]
            else:
                remove_ops_from(block, before)
        ctx.next_channel = channel
    if best is None:
        raise PartitionError("no lowering of the move applies")
    _, result, ops, ctx.next_channel, index = best
    block.ops.extend(ops)
    return result, index


def _received(ctx: LocalContext, ops: Sequence[Op]) -> tuple[int, int, int]:
    """(bytes the busiest device receives, bytes all devices receive, ops) in
    the collectives of `ops` (costed on copies of them in a scratch module)."""

    func = Func.create("main", [], [])
    for op in ops:
        if has_trait(op, DEVICE_COLLECTIVE):
            func.body.append(op.clone())
    attributes = {
        "mhlo.num_partitions": IntegerAttr(ctx.num_devices, "i32"),
        "mhlo.num_replicas": IntegerAttr(1, "i32"),
    }
    report = collective_costs(Module([func.op], attributes=attributes))
    remove_ops_from(func.body, 0)
    return report.bytes_received, sum(report.received_per_device), len(ops)


def _planned(
    ctx: LocalContext,
    x: Value,
    source: Sequence[Sequence[AxisRef]],
    target: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    mesh: Mesh,
) -> Value:
    """The reshard as `reshard_plan`'s chain of Shardy collectives, each lowered
    by `local.collectives` on global values that stand for the chain's."""

    try:
        dtype = numpy_dtype(x.type.element_type)
    except ShardonnayError:  # only the byte counts scale with the dtype
        dtype = np.dtype(np.float32)
    plan = reshard_plan(
        sharding_on(source, mesh),
        sharding_on(target, mesh),
        mesh,
        shape,
        dtype,
        shardy_collectives_only=True,
    )
    if not plan.is_shardy_expressible:
        raise PartitionError("the planned reshard needs ops Shardy does not have")
    lowerings = {
        "sdy.all_gather": local_collectives.all_gather,
        "sdy.all_slice": local_collectives.all_slice,
        "sdy.all_to_all": local_collectives.all_to_all,
    }
    global_type = TensorType(tuple(shape), x.type.element_type)
    value = Value(global_type)
    standing = [value]
    ctx.shardings[value] = plan.src
    try:
        with _on_mesh(ctx, mesh):
            for step in plan.steps:
                c = step.collective
                attributes = {"out_sharding": step.result}
                axes_attribute = getattr(lookup(c.op_name), "axes_attr", None)
                if axes_attribute is not None:
                    attributes[axes_attribute] = c.axes_attribute()
                op = Op(c.op_name, [value], [global_type], attributes)
                value = op.results[0]
                standing.append(value)
                ctx.shardings[value] = step.result
                if c.op_name == "sdy.collective_permute":
                    before = sharding_on(ctx.sharded_axes(op.operands[0]), mesh)
                    after = sharding_on(ctx.sharded_axes(value), mesh)
                    x = local_collectives.collective_permute(ctx, op, x, before, after)
                elif c.op_name in lowerings:
                    x = lowerings[c.op_name](ctx, op, x)
                else:
                    raise PartitionError(f"no local lowering of {c.op_name} in a reshard")
    finally:
        for v in standing:
            ctx.shardings.pop(v, None)
    return x


MAX_TILES = 64  # tiles per target buffer beyond which `fetch_tiles` does not apply


def fetch_tiles(
    ctx: LocalContext,
    x: Value,
    source: Sequence[Sequence[AxisRef]],
    target: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    mesh: Mesh,
    target_mesh: Mesh | None = None,
) -> Value:
    """`x`, sharded by `source` on `mesh`, sharded by `target` (on
    `target_mesh`, by default `mesh`: tiles go by device id, so the meshes
    may order or count their devices differently), each device receiving
    exactly the part of its target buffer it does not hold.

    The value is cut into tiles of `gcd(source shard, target shard)` elements
    per dim, so every target buffer is a grid of tiles, each whole in some
    source buffer. Each device copies the tiles it holds and receives the
    others in rounds of `stablehlo.collective_permute` (in a round a device
    sends and receives at most one tile); a round cuts the tile each sender
    sends and writes the tile each receiver gets where its buffer wants it,
    at offsets read from tables by `partition_id`.

    For example, `[{"data"}, {"model"}]` to `[{"data", "model":(1)2},
    {"model":(2)2}]` of `tensor<8x16xf32>` on `<["data"=2, "model"=4]>`
    cuts 2x4 tiles; device 1 (rows 0..3, columns 4..7) wants rows 0..1 and
    columns 8..15, two tiles that devices 2 and 3 hold: two rounds of 32 B.
    With uneven shards, tiles of padding only are not fetched.
    Raises PartitionError for more than `MAX_TILES` tiles per buffer.
    """
    if 0 in shape:
        raise PartitionError("no tiles of an empty value")
    target_mesh = target_mesh or mesh
    held_size = [local_size(n, a, mesh) for n, a in zip(shape, source, strict=True)]
    want_size = [local_size(n, a, target_mesh) for n, a in zip(shape, target, strict=True)]
    tile = [math.gcd(h, w) for h, w in zip(held_size, want_size, strict=True)]
    grid = [w // t for w, t in zip(want_size, tile, strict=True)]
    if math.prod(grid) > MAX_TILES:
        raise PartitionError("too many tiles")
    held = _slot_starts(source, held_size, mesh)
    wanted = _slot_starts(target, want_size, target_mesh)
    # source buffers start at multiples of their size: the one holding a
    # position starts at the position rounded down (devices by that start)
    holding: dict[tuple[int, ...], list[int]] = {}
    for device, lo in held.items():
        holding.setdefault(tuple(lo), []).append(device)
    copies: list[dict[int, tuple[list[int], list[int]]]] = []  # device -> (from, to)
    rounds: list[dict[int, tuple[int, list[int], list[int]]]] = []  # sender -> (receiver, ...)
    busy: list[set[int]] = []  # the receivers of each round
    # per device, a round before which it sends (or receives) in every round:
    # the search for a free round starts there (rounds only fill up)
    sending: dict[int, int] = {}
    receiving: dict[int, int] = {}
    for receiver, start in wanted.items():
        for slot in np.ndindex(*grid):
            to = [i * t for i, t in zip(slot, tile, strict=True)]
            at = [b + o for b, o in zip(start, to, strict=True)]
            if any(a >= n for a, n in zip(at, shape, strict=True)):
                continue  # padding
            if receiver in held and _holds(held[receiver], held_size, at):
                k = next((k for k, c in enumerate(copies) if receiver not in c), len(copies))
                if k == len(copies):
                    copies.append({})
                copies[k][receiver] = (_offsets(at, held[receiver]), to)
                continue
            holders = holding[tuple(a - a % n for a, n in zip(at, held_size, strict=True))]
            after = receiving.get(receiver, 0)  # the receiver's first free round
            # the first round where a holder is free too (ties: the least device)
            senders = rounds[after] if after < len(rounds) else {}
            k, sender = after, min((h for h in holders if h not in senders), default=None)
            if sender is None:
                k, sender = min(
                    (
                        next(
                            k
                            for k in range(max(after, sending.get(h, 0)), len(rounds) + 1)
                            if _free(rounds, busy, k, h, receiver)
                        ),
                        h,
                    )
                    for h in holders
                )
            if k == len(rounds):
                rounds.append({})
                busy.append(set())
            rounds[k][sender] = (receiver, _offsets(at, held[sender]), to)
            busy[k].add(receiver)
            sending[sender] = _first_free(rounds, sending.get(sender, 0), sender)
            receiving[receiver] = _first_free(busy, after, receiver)
    tile_type = x.type.with_shape(tuple(tile))
    out = ctx.broadcast(ctx.scalar(0, x.type.element_type), x.type.with_shape(tuple(want_size)))
    for copy in copies:
        piece = _sliced(ctx, x, {d: frm for d, (frm, _) in copy.items()}, tile_type)
        out = _placed(ctx, out, piece, {d: to for d, (_, to) in copy.items()})
    for moves in rounds:
        sent = _sliced(ctx, x, {h: frm for h, (_, frm, _) in moves.items()}, tile_type)
        pairs = np.array([(h, r) for h, (r, _, _) in moves.items()], np.int64)
        received = ctx.value(
            "stablehlo.collective_permute",
            [sent],
            tile_type,
            {
                "channel_handle": ctx.channel_handle(),
                "source_target_pairs": DenseElementsAttr.from_numpy(
                    pairs, TensorType(pairs.shape, "i64")
                ),
            },
        )
        out = _placed(ctx, out, received, {r: to for r, _, to in moves.values()})
    return out


def _slot_starts(
    axes_per_dim: Sequence[Sequence[AxisRef]], sizes: Sequence[int], mesh: Mesh
) -> dict[int, list[int]]:
    """Per device, where its buffer's slots start in the value (past its end
    for shards of padding only)."""
    tables = [offset_table(a, mesh, n) for a, n in zip(axes_per_dim, sizes, strict=True)]
    return {d: [table[d] for table in tables] for d in mesh.device_list}


def _first_free(rounds: Sequence[Container[int]], start: int, device: int) -> int:
    """The first round from `start` on that `device` is not in (every round
    before `start` has it)."""
    while start < len(rounds) and device in rounds[start]:
        start += 1
    return start


def _free(rounds, busy, k: int, sender: int, receiver: int) -> bool:
    """Whether round `k` (a new one past the last) has `sender` and `receiver` free."""
    return k == len(rounds) or (sender not in rounds[k] and receiver not in busy[k])


def _offsets(at: Sequence[int], start: Sequence[int]) -> list[int]:
    return [a - b for a, b in zip(at, start, strict=True)]


def _holds(start: Sequence[int], size: Sequence[int], at: Sequence[int]) -> bool:
    return all(lo <= a < lo + n for lo, n, a in zip(start, size, at, strict=True))


def _starts(ctx: LocalContext, offsets: dict[int, list[int]], rank: int) -> list[Value]:
    """Per dim, this device's entry of `offsets` (0 for devices not in it)."""
    starts = []
    for d in range(rank):
        table = [0] * ctx.num_devices
        for device, offset in offsets.items():
            table[device] = offset[d]
        starts.append(ctx.table_entry(table, ctx.partition_id()) if any(table) else ctx.i64(0))
    return starts


def _sliced(ctx: LocalContext, x: Value, offsets: dict[int, list[int]], tile: TensorType) -> Value:
    """The tile of `x` at each device's offsets (devices not in `offsets`: at 0)."""
    return ctx.dynamic_slice(x, _starts(ctx, offsets, len(tile.shape)), tile.shape)


def _placed(ctx: LocalContext, buffer: Value, piece: Value, offsets: dict[int, list[int]]):
    """`buffer` with `piece` written at the offsets of the devices in `offsets`
    (the others keep their buffer)."""
    starts = _starts(ctx, offsets, len(piece.type.shape))
    if len(offsets) < ctx.num_devices:
        table = [int(d in offsets) for d in range(ctx.num_devices)]
        flag = ctx.table_entry(table, ctx.partition_id(), "i1")
        mask = ctx.broadcast(flag, piece.type.with_element_type("i1"))
        kept = ctx.dynamic_slice(buffer, starts, piece.type.shape)
        piece = ctx.value("stablehlo.select", [mask, piece, kept], piece.type)
    return ctx.value("stablehlo.dynamic_update_slice", [buffer, piece, *starts], buffer.type)


@contextmanager
def _on_mesh(ctx: LocalContext, mesh: Mesh) -> Iterator[None]:
    """`ctx.mesh` is `mesh` inside the block."""
    previous = ctx.mesh
    ctx.mesh = mesh
    try:
        yield
    finally:
        ctx.mesh = previous


def _stays_on(target: Sequence[Sequence[AxisRef]], target_mesh: Mesh, source_mesh: Mesh) -> bool:
    """Whether a value moved to `target` on `target_mesh` needs only the devices
    of `source_mesh` (it is split there, on no more devices)."""
    return any(target) and target_mesh.size <= source_mesh.size
