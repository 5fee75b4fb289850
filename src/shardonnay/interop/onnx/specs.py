"""ONNX sharding specs (`ShardingSpecProto`) <-> `TensorSharding` on a `Mesh`.

An ONNX spec lists the sharded dims of one tensor (`sharded_dim`: an axis and
its `num_shards`) and, for every shard, the device that holds it (`device`).
Shards are numbered row-major over the sharded dims in the order they are
listed (the first listed dim is the outer loop). A `device` entry that is a
key of `index_to_device_group_map` stands for a group of devices that all
hold that shard.

`ShardingSpec` is that spec as an immutable value; `spec_to_sharding` finds
the axes of a given mesh that place every shard where the spec says (a
`ShardingError` says why when no axes can), `sharding_to_spec` writes a
sharding back, and `mesh_for_specs` builds one mesh on which every spec of a
model can be written:

>>> spec = ShardingSpec("A", devices=(-1, -2), groups=((-1, (0, 1)), (-2, (2, 3))), dims=((0, 2),))
>>> mesh = mesh_for_specs([spec], num_devices=4)
>>> print(mesh)
<["x"=2, "y"=2]>
>>> print(spec_to_sharding(spec, (8, 1), mesh))
#sdy.sharding<@mesh, [{"x"}, {}]>
>>> sharding_to_spec("A", spec_to_sharding(spec, (8, 1), mesh), mesh, (8, 1)) == spec
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from shardonnay.axes import AxisRef, merge_adjacent
from shardonnay.errors import ShardingError
from shardonnay.layout import shard_index
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding

__all__ = [
    "ShardingSpec",
    "mesh_for_specs",
    "replicated_spec",
    "sharding_to_spec",
    "spec_to_sharding",
]

_AXIS_NAMES = "xyzwuvabcdefghijklmnopqrst"


@dataclass(frozen=True)
class ShardingSpec:
    """One `ShardingSpecProto`: `dims` are `(axis, num_shards)` in listed order,
    `devices` one entry per shard (row-major), `groups` the
    `index_to_device_group_map` entries `(key, devices)`; `dim_sizes` keeps
    each listed dim's `dim_value` (int), `dim_param` (str) or None, for a
    lossless round trip (it does not take part in equality).

    >>> s = ShardingSpec("B", devices=(0, 1, 2, 3), dims=((0, 2), (1, 2)))
    >>> s.holders()
    (frozenset({0}), frozenset({1}), frozenset({2}), frozenset({3}))
    >>> s.shard_of(2)
    (1, 0)
    """

    tensor_name: str
    devices: tuple[int, ...]
    groups: tuple[tuple[int, tuple[int, ...]], ...] = ()
    dims: tuple[tuple[int, int], ...] = ()
    dim_sizes: tuple[int | str | None, ...] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "devices", tuple(int(d) for d in self.devices))
        object.__setattr__(
            self, "groups", tuple((int(k), tuple(int(d) for d in v)) for k, v in self.groups)
        )
        object.__setattr__(self, "dims", tuple((int(a), int(n)) for a, n in self.dims))
        if self.dim_sizes is not None:
            object.__setattr__(self, "dim_sizes", tuple(self.dim_sizes))

    @classmethod
    def from_holders(
        cls,
        tensor_name: str,
        dims: Sequence[tuple[int, int]],
        holders: Iterable[Iterable[int]],
        dim_sizes: Sequence[int | str | None] | None = None,
    ) -> ShardingSpec:
        """The spec that puts each shard (row-major over `dims`) on the devices
        `holders` lists for it: one device, else a group keyed -1, -2, ...
        (the inverse of `holders`).

        >>> s = ShardingSpec.from_holders("B", ((0, 2),), [{2, 0}, {1}])
        >>> s.devices, s.groups, s.holders()
        ((-1, 1), ((-1, (0, 2)),), (frozenset({0, 2}), frozenset({1})))
        """
        devices: list[int] = []
        groups: list[tuple[int, tuple[int, ...]]] = []
        for members in holders:
            ordered = sorted(members)
            if len(ordered) == 1:
                devices.append(ordered[0])
            else:
                key = -(len(groups) + 1)
                groups.append((key, tuple(ordered)))
                devices.append(key)
        return cls(tensor_name, tuple(devices), tuple(groups), tuple(dims), dim_sizes)

    # -- reading and writing protos ---------------------------------------------------

    @classmethod
    def from_proto(cls, proto: Any) -> ShardingSpec:
        """Reads an `onnx.ShardingSpecProto`; a dim with several `simple_sharding`
        entries (whose meaning the standard leaves open) raises `ShardingError`."""
        dims, sizes = [], []
        for dim in proto.sharded_dim:
            if len(dim.simple_sharding) != 1:
                raise ShardingError(
                    f"spec of {proto.tensor_name!r}: axis {dim.axis} has "
                    f"{len(dim.simple_sharding)} simple_sharding entries; only one is supported "
                    "(the meaning of several is unspecified)"
                )
            simple = dim.simple_sharding[0]
            dims.append((dim.axis, simple.num_shards))
            which = simple.WhichOneof("dim")
            sizes.append(None if which is None else getattr(simple, which))
        groups = tuple((e.key, tuple(e.value)) for e in proto.index_to_device_group_map)
        return cls(proto.tensor_name, tuple(proto.device), groups, tuple(dims), tuple(sizes))

    def to_proto(self) -> Any:
        """The `onnx.ShardingSpecProto` of this spec."""
        import onnx

        proto = onnx.ShardingSpecProto(tensor_name=self.tensor_name, device=list(self.devices))
        for key, members in self.groups:
            proto.index_to_device_group_map.add(key=key, value=list(members))
        for i, (axis, shards) in enumerate(self.dims):
            simple = proto.sharded_dim.add(axis=axis).simple_sharding.add(num_shards=shards)
            size = None if self.dim_sizes is None else self.dim_sizes[i]
            if isinstance(size, str):
                simple.dim_param = size
            elif size is not None:
                simple.dim_value = size
        return proto

    # -- meaning ------------------------------------------------------------------------

    @property
    def num_shards(self) -> int:
        return math.prod(n for _, n in self.dims)

    def normalized_dims(self, rank: int) -> tuple[tuple[int, int], ...]:
        """`dims` with axes in `[0, rank)`; `ShardingError` if out of range or repeated."""
        out, seen = [], set()
        for axis, shards in self.dims:
            if not -rank <= axis < rank:
                raise ShardingError(
                    f"spec of {self.tensor_name!r}: axis {axis} is out of range for rank {rank}"
                )
            axis %= rank
            if axis in seen:
                raise ShardingError(f"spec of {self.tensor_name!r}: axis {axis} is listed twice")
            if shards < 1:
                raise ShardingError(
                    f"spec of {self.tensor_name!r}: axis {axis} has num_shards {shards}"
                )
            seen.add(axis)
            out.append((axis, shards))
        return tuple(out)

    def normalized(self, rank: int) -> ShardingSpec:
        """This spec with its axes in `[0, rank)` (see `normalized_dims`)."""
        dims = self.normalized_dims(rank)
        return ShardingSpec(self.tensor_name, self.devices, self.groups, dims, self.dim_sizes)

    def holders(self) -> tuple[frozenset[int], ...]:
        """Per shard (row-major over `dims`), the devices holding it."""
        groups = dict(self.groups)
        if len(self.devices) != self.num_shards:
            raise ShardingError(
                f"spec of {self.tensor_name!r}: {len(self.devices)} device entries for "
                f"{self.num_shards} shards"
            )
        out = []
        for entry in self.devices:
            members = groups.get(entry, (entry,))
            if not members or any(d < 0 for d in members):
                raise ShardingError(
                    f"spec of {self.tensor_name!r}: device entry {entry} is neither a device id "
                    "nor a key of index_to_device_group_map with devices"
                )
            out.append(frozenset(members))
        return tuple(out)

    def shard_of(self, device: int) -> tuple[int, ...] | None:
        """The shard index (one per listed dim) `device` holds; None if none.
        `ShardingError` if it holds two."""
        found = [i for i, h in enumerate(self.holders()) if device in h]
        if len(found) > 1:
            raise ShardingError(
                f"spec of {self.tensor_name!r}: device {device} holds {len(found)} shards"
            )
        if not found:
            return None
        index, flat = [], found[0]
        for _, n in reversed(self.dims):
            index.append(flat % n)
            flat //= n
        return tuple(reversed(index))

    @property
    def device_set(self) -> frozenset[int]:
        return frozenset().union(*self.holders())

    def regions(self, shape: Sequence[int]) -> dict[int, tuple[tuple[int, int], ...]]:
        """For each device holding a shard, its `(start, stop)` per dim of
        `shape`: a dim of size `d` in `n` shards is cut in `ceil(d / n)`-sized
        pieces (the last ones shorter or empty), as `shardonnay.layout` cuts.

        >>> ShardingSpec("A", devices=(1, 0), dims=((0, 2),)).regions((5, 3))
        {1: ((0, 3), (0, 3)), 0: ((3, 5), (0, 3))}
        """
        rank = len(shape)
        dims = self.normalized_dims(rank)
        out = {}
        for shard, members in enumerate(self.holders()):
            index, flat = [0] * rank, shard
            for axis, n in reversed(dims):
                index[axis] = flat % n
                flat //= n
            pieces = dict(dims)
            region = []
            for axis, size in enumerate(shape):
                chunk = -(-size // pieces.get(axis, 1))
                region.append(
                    (min(index[axis] * chunk, size), min((index[axis] + 1) * chunk, size))
                )
            for device in members:
                out[device] = tuple(region)
        return out


def replicated_spec(tensor_name: str, devices: Iterable[int]) -> ShardingSpec:
    """The spec of a tensor held whole by every one of `devices`.

    >>> replicated_spec("X", [0, 1]).to_proto().index_to_device_group_map[0].value
    [0, 1]
    """
    devices = tuple(sorted(devices))
    if len(devices) == 1:
        return ShardingSpec(tensor_name, devices)
    return ShardingSpec(tensor_name, (-1,), ((-1, devices),))


# -- spec -> sharding ---------------------------------------------------------------------


def spec_to_sharding(
    spec: ShardingSpec, shape: Sequence[int], mesh: Mesh, mesh_name: str = "mesh"
) -> TensorSharding:
    """The closed sharding on `mesh` (referred to as `@mesh_name`) that puts
    every shard of `spec` on the devices the spec names; `ShardingError`
    saying why when none does (a device holding no shard or two, or shards
    laid out in an order no axes of `mesh` follow)."""
    rank = len(shape)
    dims = spec.normalized_dims(rank)
    holders = spec.holders()
    used = spec.device_set
    for device in sorted(used):
        if sum(device in h for h in holders) > 1:
            raise ShardingError(
                f"spec of {spec.tensor_name!r}: device {device} holds several shards"
            )
    missing = sorted(set(mesh.device_list) - used)
    if missing:
        raise ShardingError(
            f"spec of {spec.tensor_name!r} leaves device(s) {missing} of the {mesh.size}-device "
            "mesh without a shard; a sharding places every tensor on all devices of its mesh"
        )
    outside = sorted(used - set(mesh.device_list))
    if outside:
        raise ShardingError(f"spec of {spec.tensor_name!r} names device(s) {outside} not in {mesh}")
    index_of = {d: spec.shard_of(d) for d in mesh.device_list}
    taken: list[AxisRef] = []
    axes_per_dim: dict[int, tuple[AxisRef, ...]] = {}
    for position, (axis, shards) in enumerate(dims):
        chosen = _match_dim(
            {d: index[position] for d, index in index_of.items()}, shards, taken, mesh
        )
        if chosen is None:
            raise ShardingError(
                f"spec of {spec.tensor_name!r}: the devices holding the {shards} shards of axis "
                f"{axis} follow no order of the axes of {mesh} (their device order would need "
                "another mesh)"
            )
        taken += chosen
        axes_per_dim[axis] = merge_adjacent(chosen, mesh)
    return TensorSharding(
        mesh_name, tuple(DimSharding(axes_per_dim.get(i, ())) for i in range(rank))
    )


def _candidates(mesh: Mesh) -> list[AxisRef]:
    """Every axis and sub-axis of `mesh` of size > 1, bigger ones first."""
    out = []
    for name, size in mesh.axes:
        for pre in range(1, size + 1):
            for part in range(size // pre, 1, -1):
                if size % (pre * part) == 0:
                    whole = pre == 1 and part == size
                    out.append(AxisRef(name) if whole else AxisRef.sub(name, pre, part))
    return sorted(out, key=lambda a: -a.size(mesh))


def _match_dim(
    index: Mapping[int, int], shards: int, taken: list[AxisRef], mesh: Mesh
) -> list[AxisRef] | None:
    """Axes, major first, free of `taken`, whose mixed-radix coordinate is
    `index` on every device (the largest that fits at each step)."""
    chosen: list[AxisRef] = []
    remaining = shards
    rest = dict(index)
    coords = {d: mesh.coords_of(d) for d in rest}
    while remaining > 1:
        for ref in _candidates(mesh):
            size = ref.size(mesh)
            if remaining % size or any(ref.overlaps(t) for t in [*taken, *chosen]):
                continue
            stride = remaining // size
            position = mesh.axis_index(ref.name)
            if all(rest[d] // stride == ref.coordinate(coords[d][position], mesh) for d in rest):
                chosen.append(ref)
                rest = {d: i % stride for d, i in rest.items()}
                remaining = stride
                break
        else:
            return None
    return chosen


def _prime_factors(n: int) -> list[int]:
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


# -- sharding -> spec ---------------------------------------------------------------------


def sharding_to_spec(
    tensor_name: str, sharding: TensorSharding, mesh: Mesh, shape: Sequence[int]
) -> ShardingSpec:
    """The ONNX spec that places `shape`'s shards where `sharding` does:
    sharded dims in ascending order, one device entry per shard (a group key,
    -1, -2, ..., where several devices hold it). Unreduced axes (partial
    values) have no ONNX spelling: `ShardingError`."""
    if sharding.unreduced:
        raise ShardingError(
            f"{tensor_name!r} holds partial values along {', '.join(map(str, sharding.unreduced))}"
            "; an ONNX spec has no unreduced state (reduce it first)"
        )
    sharding.validate(mesh, tuple(shape))
    dims = tuple(
        (axis, dim.sharded_size(mesh))
        for axis, dim in enumerate(sharding.dims)
        if dim.sharded_size(mesh) > 1
    )
    holders: dict[tuple[int, ...], list[int]] = {}
    for device in mesh.device_list:
        index = shard_index(device, sharding, mesh)
        holders.setdefault(tuple(index[a] for a, _ in dims), []).append(device)
    shards = product(*(range(n) for _, n in dims))
    return ShardingSpec.from_holders(
        tensor_name, dims, (holders[index] for index in shards), tuple(shape[a] for a, _ in dims)
    )


# -- one mesh for many specs -------------------------------------------------------------


def mesh_for_specs(specs: Sequence[ShardingSpec], num_devices: int) -> Mesh:
    """A mesh of `num_devices` devices on which every spec can be written.

    Candidates, in order: the mesh of the spec with the most shards (one axis
    per sharded dim, then one for the replicas, named `x`, `y`, ...), then the
    same device order on prime-sized axes, then the default order on
    prime-sized axes. `ShardingError` naming a spec no candidate expresses."""
    candidates: list[Mesh] = []
    ranked = sorted(specs, key=lambda s: -s.num_shards)
    for spec in ranked[:1]:
        order = [d for h in spec.holders() for d in sorted(h)]
        if sorted(order) != list(range(num_devices)):
            continue
        replicas = num_devices // spec.num_shards
        sizes = [n for _, n in spec.dims if n > 1] + ([replicas] if replicas > 1 else [])
        candidates.append(_mesh(sizes, order))
        candidates.append(_mesh(_prime_factors(num_devices), order))
    candidates.append(_mesh(_prime_factors(num_devices), range(num_devices)))
    failure = None
    for mesh in candidates:
        try:
            for spec in specs:
                spec_to_sharding(spec, _shape_for(spec), mesh)
        except ShardingError as e:
            failure = e
            continue
        return mesh
    raise ShardingError(f"no {num_devices}-device mesh expresses every spec: {failure}")


def _mesh(sizes: Sequence[int], order: Iterable[int]) -> Mesh:
    order = list(order)
    ids = None if order == sorted(order) else order
    return Mesh(list(zip(_AXIS_NAMES, sizes, strict=False)), ids)


def _shape_for(spec: ShardingSpec) -> tuple[int, ...]:
    """A shape the spec's dims fit (for checking device placement alone)."""
    rank = max([a + 1 if a >= 0 else -a for a, _ in spec.dims], default=0)
    shape = [1] * rank
    for axis, shards in spec.dims:
        shape[axis] = shards
    return tuple(shape)
