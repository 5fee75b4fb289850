"""Which devices hold, need and exchange which data when a layout changes.

Everything here follows from `shardonnay.layout.device_slices`: the region
of the global array each device holds under a sharding. A `Relayout` from a
source sharding to a target sharding of one tensor says what each device
lacks of its target region (the lower bound of any collective doing it) and
which device could send it each missing piece:

>>> from shardonnay.sharding import TensorSharding
>>> mesh = Mesh({"x": 2})
>>> move = Relayout((4, 2), TensorSharding.from_axes(mesh, ["x", None]),
...                 TensorSharding.from_axes(mesh, [None, None]), element_bytes=4)
>>> move.needed()  # each device lacks the other's 2x2 block
[16, 16]
>>> move.direct_moves()
([16, 16], [16, 16], [(1, 0), (0, 1)])

`axis_groups` and `spanned_axes` relate device groups to mesh axes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from shardonnay.axes import AxisRef
from shardonnay.errors import ShardingError
from shardonnay.layout import device_slices
from shardonnay.mesh import Mesh
from shardonnay.sharding import TensorSharding

Region = tuple[tuple[int, int], ...]  # (start, stop) per dim


def axis_groups(mesh: Mesh, axes: Sequence[AxisRef]) -> list[tuple[int, ...]]:
    """The device groups of a collective over `axes`: devices that differ only
    along them, each group ordered by its members' index along `axes`
    (the first axis major).

    >>> axis_groups(Mesh({"x": 2, "y": 4}), [AxisRef("y")])
    [(0, 1, 2, 3), (4, 5, 6, 7)]
    >>> axis_groups(Mesh({"x": 2, "y": 4}), [AxisRef.sub("y", 2, 2), AxisRef("x")])
    [(0, 4, 1, 5), (2, 6, 3, 7)]
    """
    groups: dict[tuple[int, ...], dict[int, int]] = {}
    for device in mesh.device_list:
        coords = mesh.coords_of(device)
        key = list(coords)
        index = 0
        for axis in axes:
            i = mesh.axis_index(axis.name)
            c = axis.coordinate(coords[i], mesh)
            key[i] -= c * (mesh.axis_size(axis.name) // axis.next_pre_size(mesh))
            index = index * axis.size(mesh) + c
        groups.setdefault(tuple(key), {})[index] = device
    return [tuple(g[i] for i in sorted(g)) for g in groups.values()]


def spanned_axes(mesh: Mesh | None, groups: Sequence[Sequence[int]]) -> tuple[str, ...]:
    """The names of the mesh axes along which members of some group differ.

    >>> spanned_axes(Mesh({"x": 2, "y": 4}), [(0, 4), (1, 5)])
    ('x',)
    """
    if mesh is None:
        return ()
    varying: set[int] = set()
    members = frozenset(mesh.device_list)
    for group in groups:
        coords = [mesh.coords_of(d) for d in group if d in members]
        for c in coords[1:]:
            varying.update(i for i, (a, b) in enumerate(zip(coords[0], c, strict=True)) if a != b)
    return tuple(mesh.axis_names[i] for i in sorted(varying))


@dataclass(frozen=True)
class Relayout:
    """One tensor of `shape` going from `source` to `target` sharding.

    `source_mesh` / `target_mesh` resolve shardings that name their mesh
    (both default to the inlined mesh of the sharding). Device ids index the
    per-device lists the methods return.
    """

    shape: tuple[int, ...]
    source: TensorSharding
    target: TensorSharding
    element_bytes: int
    source_mesh: Mesh | None = None
    target_mesh: Mesh | None = None

    @property
    def mesh(self) -> Mesh:
        return self.target.resolve_mesh(self.target_mesh)

    @property
    def num_devices(self) -> int:
        """One past the largest device id either layout names (a maximal mesh
        `<[], device_ids=[3]>` holds one region, on device 3)."""
        return 1 + max((*self.held, *self.wanted), default=-1)

    @property
    def held(self) -> dict[int, Region]:
        return _regions(self.shape, self.source, self.source.resolve_mesh(self.source_mesh))

    @property
    def wanted(self) -> dict[int, Region]:
        return _regions(self.shape, self.target, self.mesh)

    def needed(self) -> list[int]:
        """Per device: bytes of its target region it does not hold already."""
        held, needed = self.held, [0] * self.num_devices
        for d, region in self.wanted.items():
            lacking = _volume(region) - (_overlap(region, held[d]) if d in held else 0)
            needed[d] = lacking * self.element_bytes
        return needed

    def direct_moves(self) -> tuple[list[int], list[int], list[tuple[int, int]]]:
        """(sent, received, (sender, receiver) pairs) when every device fetches
        exactly the parts of its target region it lacks, each part from one
        device holding it (see `_Senders` for which)."""
        held = self.held
        holders = _holders(held)
        senders = _Senders(self.mesh, self.num_devices)
        received = [0] * self.num_devices
        pairs = []
        for d, region in sorted(self.wanted.items()):
            for key, devices in holders.items():
                if key == held.get(d):
                    continue
                piece = _overlap(region, key) * self.element_bytes
                if piece:
                    pairs.append((senders.pick(devices, d, piece), d))
                    received[d] += piece
        return senders.sent, received, pairs

    def is_permutation(self) -> bool:
        """Whether every device's target region is held whole by some device."""
        regions = set(self.held.values())
        return all(_volume(r) == 0 or r in regions for r in self.wanted.values())

    def permute_pairs(self) -> list[tuple[int, int]]:
        """(source, target) devices of a collective_permute: each device whose
        target region is not what it holds gets it whole from a holder.

        Raises `ShardingError` if some target region is held by no device
        (the two layouts are no permutation of each other).
        """
        held, holders = self.held, _holders(self.held)
        senders = _Senders(self.mesh, self.num_devices)
        pairs = []
        for d, region in sorted(self.wanted.items()):
            if _volume(region) == 0 or region == held[d]:
                continue
            candidates = holders.get(region)
            if not candidates:
                raise ShardingError(
                    f"no device holds the region {region} that device {d} needs under "
                    f"{self.target}: it is no permutation of {self.source}"
                )
            pairs.append((senders.pick(candidates, d, 1), d))
        return pairs


def _regions(shape, sharding: TensorSharding, mesh: Mesh) -> dict[int, Region]:
    return {
        d: tuple((s.start, s.stop) for s in region)
        for d, region in device_slices(shape, sharding, mesh).items()
    }


def _holders(held: dict[int, Region]) -> dict[Region, list[int]]:
    holders: dict[Region, list[int]] = {}
    for d, region in held.items():
        holders.setdefault(region, []).append(d)
    return holders


def _volume(region: Region) -> int:
    return math.prod(stop - start for start, stop in region)


def _overlap(a: Region, b: Region) -> int:
    return math.prod(max(0, min(x[1], y[1]) - max(x[0], y[0])) for x, y in zip(a, b, strict=True))


class _Senders:
    """Picks, among the devices holding a piece, the one to send it to a
    device: the fewest differing mesh coordinates, then the least bytes sent
    so far, then the lowest id."""

    def __init__(self, mesh: Mesh, num_devices: int):
        self.mesh = mesh
        self.members = frozenset(mesh.device_list)
        self.sent = [0] * num_devices

    def pick(self, holders: Sequence[int], receiver: int, num_bytes: int) -> int:
        coords = self.mesh.coords_of(receiver)

        def rank(s: int) -> tuple[int, int, int]:
            if s not in self.members:  # a device of another mesh: the farthest
                return len(coords) + 1, self.sent[s], s
            distance = sum(a != b for a, b in zip(self.mesh.coords_of(s), coords, strict=True))
            return distance, self.sent[s], s

        sender = min(holders, key=rank)
        self.sent[sender] += num_bytes
        return sender
