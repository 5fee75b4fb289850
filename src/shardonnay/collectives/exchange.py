"""Point-to-point exchanges of per-device buffers: what every collective does.

A collective changes a tensor's sharding; on devices that means each device
builds its new buffer from pieces of the old buffers. An `Exchange` spells
this out: one or more `Phase`s, each a list of `Transfer`s "device `src`
sends the block `src_index` of its buffer; device `dst` writes (or adds) it
at `dst_index` of its new buffer". A transfer with `src == dst` is a local
copy and costs nothing; all others are counted in `bytes_received` /
`bytes_sent`. Only data is sent, never the padding of uneven dims.

Regions are *boxes*: one `(start, stop)` pair per dim of the global array
(`layout.device_slices` as integers). `gather_exchange` builds the exchange
of every collective but `sdy.all_reduce`: each device states what it wants
(`Want`: a box of its new region and the addends to combine there), and
takes every piece from itself if it holds it, else from a device of its
collective group, else (only on uneven dims, where the groups' shards were
cut at other places than the new ones) from any device that holds it, the
way XLA's halo exchanges fix up padded shards.

Example: `tensor<4xf32>` sharded `[{"x"}]` on `<["x"=2]>` and gathered:
device 0 holds `[0, 2)` and wants `[0, 4)`, so it copies `[0, 2)` from
itself and receives `[2, 4)` (8 bytes) from device 1.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.errors import PartitionError
from shardonnay.ir.element_values import identity
from shardonnay.layout import device_slices, local_shape
from shardonnay.mesh import Mesh
from shardonnay.sharding import TensorSharding

Box = tuple[tuple[int, int], ...]
"""A region of the global array: `(start, stop)` per dim."""

Term = tuple[int, ...]
"""Which addend of a pending reduction: coordinates along the unreduced axes."""


# -- boxes -----------------------------------------------------------------------------


def volume(box: Box) -> int:
    return math.prod(max(0, stop - start) for start, stop in box)


def intersect(a: Box, b: Box) -> Box | None:
    """The common part of two boxes, None when it is empty."""
    out = tuple((max(a0, b0), min(a1, b1)) for (a0, a1), (b0, b1) in zip(a, b, strict=True))
    return out if all(start < stop for start, stop in out) else None


def subtract(a: Box, b: Box) -> list[Box]:
    """`a` without `b`, as disjoint boxes (at most two per dim)."""
    common = intersect(a, b)
    if common is None:
        return [a] if volume(a) else []
    pieces = []
    rest = list(a)
    for dim, ((start, stop), (cut_start, cut_stop)) in enumerate(zip(a, common, strict=True)):
        if start < cut_start:
            pieces.append((*rest[:dim], (start, cut_start), *rest[dim + 1 :]))
        if cut_stop < stop:
            pieces.append((*rest[:dim], (cut_stop, stop), *rest[dim + 1 :]))
        rest[dim] = (cut_start, cut_stop)
    return pieces


def regions(shape: Sequence[int], sharding: TensorSharding, mesh: Mesh) -> dict[int, Box]:
    """Each device's region under `sharding` (empty boxes for pure padding). Do not mutate."""
    return _regions(tuple(shape), sharding, mesh)


@functools.lru_cache(maxsize=8192)
def _regions(shape: tuple[int, ...], sharding: TensorSharding, mesh: Mesh) -> dict[int, Box]:
    return {
        device: tuple((s.start, s.stop) for s in region)
        for device, region in device_slices(shape, sharding, mesh).items()
    }


def split(box: Box, parts: int) -> list[Box]:
    """`box` cut into at most `parts` slabs along its longest dim."""
    if not box or not volume(box):
        return [box] if volume(box) else []
    dim = max(range(len(box)), key=lambda j: box[j][1] - box[j][0])
    start, stop = box[dim]
    step = -(-(stop - start) // parts)
    return [
        (*box[:dim], (lo, min(lo + step, stop)), *box[dim + 1 :]) for lo in range(start, stop, step)
    ]


def share_region(region: Box, roles: Sequence[Sequence[tuple[int, Box | None]]]) -> list[list[Box]]:
    """Splits `region` among `roles`, each a list of (device, what it holds or
    None) whose devices must end with the same data.

    The region is cut into cells at the edges of what the devices hold. A
    cell that all devices of a role hold goes to that role for free; any other
    cell is cut into one slab per role, each slab going to the role whose
    busiest device would then receive the least.
    """
    shares: list[list[Box]] = [[] for _ in roles]
    if not volume(region):
        return shares
    held = [b for role in roles for _, b in role if b is not None]
    cuts = []
    for j, (lo, hi) in enumerate(region):
        points = {lo, hi} | {p for b in held for p in b[j] if lo < p < hi}
        cuts.append(sorted(points))
    load = {d: 0 for role in roles for d, _ in role}

    def missing(role, box):
        return [d for d, b in role if b is None or intersect(box, b) != box]

    for cell in itertools.product(*(itertools.pairwise(c) for c in cuts)):
        free = next((k for k, role in enumerate(roles) if not missing(role, cell)), None)
        if free is not None:
            shares[free].append(cell)
            continue
        for slab in split(cell, len(roles)):
            n = volume(slab)
            _, k, lacking = min(
                ((max(load[d] + n for d in lack), len(lack), k), k, lack)
                for k, lack in ((k, missing(role, slab)) for k, role in enumerate(roles))
            )
            for d in lacking:
                load[d] += n
            shares[k].append(slab)
    return shares


def local_index(box: Box, region: Box) -> tuple[slice, ...]:
    """Where `box` (inside `region`) sits in the buffer of the device holding `region`."""
    return tuple(slice(b0 - r0, b1 - r0) for (b0, b1), (r0, _) in zip(box, region, strict=True))


# -- device coordinates along axis refs -----------------------------------------------


def coordinates(device: int, axes: Sequence[AxisRef], mesh: Mesh) -> Term:
    """`device`'s coordinate along each of `axes`."""
    coords = mesh.coords_of(device)
    return tuple(a.coordinate(coords[mesh.axis_index(a.name)], mesh) for a in axes)


def group_key(device: int, axes: Sequence[AxisRef], mesh: Mesh) -> tuple[int, ...]:
    """Equal for exactly the devices that differ only along `axes`.

    The device's mesh coordinates with the digits of `axes` zeroed: on
    `"x"=8`, the group key of `"x":(2)2` for coordinate 7 is `7 - 2 = 5`.
    """
    coords = list(mesh.coords_of(device))
    for axis in axes:
        i = mesh.axis_index(axis.name)
        stride = mesh.axis_size(axis.name) // axis.next_pre_size(mesh)
        coords[i] -= axis.coordinate(coords[i], mesh) * stride
    return tuple(coords)


def device_groups(axes: Sequence[AxisRef], mesh: Mesh) -> list[list[int]]:
    """The groups of device ids that differ only along `axes`, each in
    shard-index order (`axes` first major), the groups in the order of their
    first device in the mesh: the `replica_groups` of a collective along `axes`.

    >>> device_groups([AxisRef("x")], Mesh({"x": 2, "y": 2}))
    [[0, 2], [1, 3]]
    >>> device_groups([AxisRef("y"), AxisRef("x")], Mesh({"x": 2, "y": 2}))
    [[0, 2, 1, 3]]
    """
    members: dict[tuple[int, ...], dict[int, int]] = {}
    for device in mesh.device_list:
        index = 0
        for axis, coordinate in zip(axes, coordinates(device, axes, mesh), strict=True):
            index = index * axis.size(mesh) + coordinate
        members.setdefault(group_key(device, axes, mesh), {})[index] = device
    return [[group[i] for i in sorted(group)] for group in members.values()]


def groups(mesh: Mesh, axes: Sequence[AxisRef]) -> dict[int, tuple[int, ...]]:
    """For each device, the devices of its group along `axes` (itself included). Do not mutate."""
    return _groups(mesh, tuple(axes))


@functools.lru_cache(maxsize=4096)
def _groups(mesh: Mesh, axes: tuple[AxisRef, ...]) -> dict[int, tuple[int, ...]]:
    members: dict[tuple[int, ...], list[int]] = {}
    for device in mesh.device_list:
        members.setdefault(group_key(device, axes, mesh), []).append(device)
    return {d: tuple(members[group_key(d, axes, mesh)]) for d in mesh.device_list}


# -- exchanges ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Transfer:
    """`dst[dst_index] (+)= src[src_index]`, `elements` values."""

    dst: int
    src: int
    src_index: tuple[slice, ...]
    dst_index: tuple[slice, ...]
    accumulate: bool
    elements: int


@dataclass(frozen=True)
class Phase:
    """New buffers of `shapes` (zeros; `fills` set to the reduction's
    identity), then `transfers` from the previous buffers into them."""

    shapes: Mapping[int, tuple[int, ...]]
    fills: Mapping[int, tuple[slice, ...]]
    transfers: tuple[Transfer, ...]


@dataclass(frozen=True)
class Exchange:
    """The data movement of one collective on concrete buffers."""

    phases: tuple[Phase, ...]
    reduction: str
    itemsize: int

    def apply(self, buffers: Mapping[int, np.ndarray]) -> dict[int, np.ndarray]:
        """Runs the exchange: every device's new buffer, from the old ones only."""
        current = dict(buffers)
        for phase in self.phases:
            dtype = np.result_type(*(np.asarray(b).dtype for b in current.values()))
            new = {d: np.zeros(shape, dtype=dtype) for d, shape in phase.shapes.items()}
            neutral = identity(self.reduction, dtype)
            if neutral != 0:
                for d, index in phase.fills.items():
                    new[d][index] = neutral
            combine = _COMBINE[self.reduction]
            for t in phase.transfers:
                data = np.asarray(current[t.src])[t.src_index]
                if t.accumulate:
                    new[t.dst][t.dst_index] = combine(new[t.dst][t.dst_index], data)
                else:
                    new[t.dst][t.dst_index] = data
            current = new
        return current

    def bytes_received(self, device: int) -> int:
        return self.itemsize * sum(
            t.elements for p in self.phases for t in p.transfers if t.dst == device != t.src
        )

    def bytes_sent(self, device: int) -> int:
        return self.itemsize * sum(
            t.elements for p in self.phases for t in p.transfers if t.src == device != t.dst
        )

    def received_per_device(self) -> dict[int, int]:
        out = {d: 0 for d in self.phases[-1].shapes} if self.phases else {}
        for p in self.phases:
            for t in p.transfers:
                if t.src != t.dst:
                    out[t.dst] = out.get(t.dst, 0) + t.elements * self.itemsize
        return out


@dataclass(frozen=True, slots=True)
class Want:
    """Device wants on `box` the combination of the addends `terms` (none:
    the reduction's identity, e.g. zeros for a sum)."""

    box: Box
    terms: tuple[Term, ...]


def gather_exchange(
    shape: Sequence[int],
    source: tuple[TensorSharding, Mesh],
    target: tuple[TensorSharding, Mesh],
    wants: Callable[[int], Iterable[Want]],
    peers: Mapping[int, Sequence[int]],
    term_axes: Sequence[AxisRef],
    reduction: str,
    itemsize: int,
) -> Exchange:
    """The exchange in which every target device fetches what it `wants`.

    `term_axes` (axes of the source mesh) tell which addend each source
    device holds. Pieces come from the device itself, then from its `peers`,
    then from any device (the least loaded first); it is an error if nobody
    holds a piece.
    """
    (in_sharding, in_mesh), (out_sharding, out_mesh) = source, target
    held = regions(shape, in_sharding, in_mesh)
    new_regions = regions(shape, out_sharding, out_mesh)
    term_of = {d: coordinates(d, term_axes, in_mesh) for d in in_mesh.device_list}
    # per addend, the devices holding some of it, in `held`'s order
    holding: dict[tuple, list[int]] = {}
    for d, r in held.items():
        if volume(r):
            holding.setdefault(term_of[d], []).append(d)
    sent = dict.fromkeys(in_mesh.device_list, 0)
    transfers: list[Transfer] = []
    for device in out_mesh.device_list:
        region = new_regions[device]
        near = [device] if device in held else []
        near += [p for p in peers.get(device, ()) if p != device]
        for want in wants(device):
            accumulate = len(want.terms) > 1
            for term in want.terms:
                missing = [want.box] if volume(want.box) else []
                holders = [d for d in near if term_of[d] == term]
                far = _least_loaded(holding.get(term, ()), near, sent)
                for src in itertools.chain(holders, far):
                    if not missing:
                        break
                    src_region = held[src]
                    if not volume(src_region):
                        continue
                    still = []
                    for piece in missing:
                        common = intersect(piece, src_region)
                        if common is None:
                            still.append(piece)
                            continue
                        n = volume(common)
                        transfers.append(
                            Transfer(
                                device,
                                src,
                                local_index(common, src_region),
                                local_index(common, region),
                                accumulate,
                                n,
                            )
                        )
                        if src != device:
                            sent[src] += n
                        still.extend(subtract(piece, src_region))
                    missing = still
                if missing:
                    raise PartitionError(
                        f"no device holds addend {term} of {missing[0]} that device {device} needs"
                    )
    buffer_shape = local_shape(shape, out_sharding, out_mesh)
    shapes = dict.fromkeys(out_mesh.device_list, buffer_shape)
    fills = {d: local_index(r, r) for d, r in new_regions.items()}
    return Exchange((Phase(shapes, fills, tuple(transfers)),), reduction, itemsize)


def _least_loaded(
    holders: Sequence[int], near: Sequence[int], sent: Mapping[int, int]
) -> Iterator[int]:
    """`holders` but those `near`, the least loaded first (ties: in their
    order). Sorted when first asked for, after the near ones sent theirs:
    only their loads changed since, and they are not among these (most wants
    need no far device, and a mesh of many devices would sort them all for
    each)."""
    skip = set(near)
    yield from sorted((d for d in holders if d not in skip), key=sent.__getitem__)


def all_reduce_exchange(
    shape: Sequence[int],
    sharding: TensorSharding,
    mesh: Mesh,
    reduce_groups: Mapping[int, Sequence[int]],
    reduction: str,
    itemsize: int,
) -> Exchange:
    """Reduce-scatter then all-gather inside each group (bandwidth-optimal).

    Member `k` of a group of `g` owns the `k`-th of `g` slabs of the
    (common) region, cut along its longest dim: it first receives that slab
    from every other member and combines it, then sends the result to all.
    Each device receives about `2 (g-1)/g` of its buffer.
    """
    held = regions(shape, sharding, mesh)
    buffer_shape = local_shape(shape, sharding, mesh)
    shapes = dict.fromkeys(mesh.device_list, buffer_shape)
    reduce_transfers: list[Transfer] = []
    gather_transfers: list[Transfer] = []
    fills = {}
    for device, group in reduce_groups.items():
        region = held[device]
        extents = [stop - start for start, stop in region]
        fills[device] = tuple(slice(0, e) for e in extents)
        slabs = _slabs(extents, len(group))
        mine = group.index(device)
        for k, slab in enumerate(slabs):
            if slab is None:
                continue
            n = math.prod(s.stop - s.start for s in slab)
            if k == mine:
                for member in group:
                    reduce_transfers.append(Transfer(device, member, slab, slab, True, n))
            else:
                gather_transfers.append(Transfer(device, group[k], slab, slab, False, n))
            if k == mine:
                gather_transfers.append(Transfer(device, device, slab, slab, False, n))
    return Exchange(
        (
            Phase(shapes, fills, tuple(reduce_transfers)),
            Phase(shapes, {}, tuple(gather_transfers)),
        ),
        reduction,
        itemsize,
    )


def _slabs(extents: Sequence[int], parts: int) -> list[tuple[slice, ...] | None]:
    """`parts` slabs (None when empty) covering a box of `extents`, cut along its longest dim."""
    if not extents:  # a scalar: the first member owns it
        return [()] + [None] * (parts - 1)
    full = [slice(0, e) for e in extents]
    dim = max(range(len(extents)), key=lambda i: extents[i])
    step = -(-extents[dim] // parts)
    out: list[tuple[slice, ...] | None] = []
    for k in range(parts):
        lo, hi = min(k * step, extents[dim]), min((k + 1) * step, extents[dim])
        slab = tuple([*full[:dim], slice(lo, hi), *full[dim + 1 :]])
        out.append(slab if lo < hi and all(extents) else None)
    return out


_COMBINE = {"sum": np.add, "max": np.maximum, "min": np.minimum}
