"""GSPMD's `HloSharding` text (XLA's `sharding={...}`) to and from `TensorSharding`.

A tiled HloSharding lists *tile dims* (shards per tensor dim, then trailing
subgroup dims) and a *tile assignment*: the device ids in row-major order over
the tile dims, written out (`{devices=[4,2]0,2,4,6,1,3,5,7}`) or as a reshaped,
transposed iota (`{devices=[4,2]<=[4,2]T(1,0)}`, the same list). A trailing
`last_tile_dim_replicate` dim holds the replicas of each tile.

>>> hlo = HloSharding.parse("{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}")
>>> sharding, mesh = to_tensor_sharding(hlo, rank=2)
>>> str(mesh), str(sharding)
('<["_axis_0"=2, "_axis_1"=4]>', '#sdy.sharding<@mesh, [{"_axis_1"}, {}]>')
>>> str(from_tensor_sharding(sharding, mesh))
'{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}'

Like XLA, `HloSharding.tiled` canonicalizes: subgroup dims of size 1 are
dropped, subgroups of one type merged and ordered (manual, unreduced,
replicated), replicas sorted by device id, and trivial tilings become
`{replicated}` / `{manual}`. Printing differs from XLA in one way: a device
list that is a (transposed) iota always prints in XLA's canonical iota form,
whereas XLA keeps an explicit list it was given (both denote the same sharding).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.errors import ShardingError
from shardonnay.layout import shard_index
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding
from shardonnay.syntax.cursor import Cursor

__all__ = ["HloSharding", "from_tensor_sharding", "to_tensor_sharding"]

SUBGROUP_TYPES = ("manual", "unreduced", "replicated")  # XLA's canonical order
KINDS = ("replicated", "manual", "unknown", "unreduced")  # the kinds without parameters
_SUBGROUP = re.compile(r"(?:manual|unreduced|replicated)\b")


@dataclass(frozen=True)
class HloSharding:
    """One (non-tuple) GSPMD sharding; build tiled ones with `HloSharding.tiled`.

    `kind` is replicated, maximal, manual, unknown, unreduced or tiled.
    `tile_dims` includes the trailing subgroup dims, whose types are
    `subgroups`; `devices` is the tile assignment, flat and row-major over
    `tile_dims` (for `maximal`, the one device).

    >>> h = HloSharding.parse("{devices=[2,2,2]<=[8] last_tile_dims={replicated, manual}}")
    >>> str(h)
    '{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated}}'
    >>> h.data_dims, h.devices
    ((2,), (0, 2, 1, 3, 4, 6, 5, 7))
    """

    kind: str
    tile_dims: tuple[int, ...] = ()
    devices: tuple[int, ...] = ()
    subgroups: tuple[str, ...] = ()

    @classmethod
    def maximal(cls, device: int) -> HloSharding:
        return cls("maximal", (), (int(device),))

    @classmethod
    def tiled(
        cls, tile_dims: Sequence[int], devices: Sequence[int], subgroups: Sequence[str] = ()
    ) -> HloSharding:
        """The canonical sharding for a tile assignment (what XLA's `Subgroup` makes)."""
        dims, subgroups = tuple(int(t) for t in tile_dims), tuple(subgroups)
        devices = tuple(int(d) for d in devices)
        if any(t < 1 for t in dims):
            raise ShardingError(f"tile dims must be positive, got: {list(dims)}")
        if len(devices) != math.prod(dims):
            raise ShardingError(
                f"tile dims {list(dims)} need {math.prod(dims)} devices, got {len(devices)}"
            )
        if not devices or min(devices) < 0 or len(set(devices)) != len(devices):
            raise ShardingError(f"device ids must be distinct and non-negative: {list(devices)}")
        if len(subgroups) > len(dims) or not set(subgroups) <= set(SUBGROUP_TYPES):
            raise ShardingError(f"bad subgroup types {list(subgroups)} for tile dims {list(dims)}")
        data = dims[: len(dims) - len(subgroups)]
        if len(set(subgroups)) == 1 and math.prod(data) == 1:
            return cls(subgroups[0])
        rank = len(data)
        present = {s for i, s in enumerate(subgroups) if dims[rank + i] > 1}
        types = [t for t in SUBGROUP_TYPES if t in present]
        groups = [[rank + i for i, s in enumerate(subgroups) if s == t] for t in types]
        order = list(range(rank)) + [i for g in groups for i in g if dims[i] > 1]
        order += [i for i in range(len(dims)) if i not in order]  # size-1 dims, dropped below
        shape = list(data) + [math.prod(dims[i] for i in g) for g in groups]
        array = np.asarray(devices).reshape(dims).transpose(order).reshape(shape)
        if not types and len(devices) == 1:
            raise ShardingError("a tiled sharding needs more than one device")
        if types in (["manual"], ["replicated"]) and shape[-1] == len(devices):
            return cls(types[0])  # (XLA leaves a lone unreduced subgroup dim tiled here)
        if types and types[-1] == "replicated":
            array = np.sort(array, axis=-1)
        return cls("tiled", tuple(shape), tuple(int(d) for d in array.ravel()), tuple(types))

    @classmethod
    def parse(cls, text: str) -> HloSharding:
        """Reads `{replicated}`, `{maximal device=3}`, `{devices=[2,2]<=[4]}`, ...

        Malformed text raises `ParseError`; well-formed text that breaks an
        invariant (a device count that does not fit the tile dims, a bad
        transpose) raises `InvalidAttributeError`. `metadata={...}` is skipped.
        """
        cursor = Cursor(text)
        cursor.skip_space()
        start = cursor.pos
        cursor.expect("{", "'{' starting a sharding")
        kind = next((k for k in KINDS if cursor.accept(k)), None)
        if kind is not None:
            hlo = cls(kind)
        elif cursor.accept("maximal"):
            cursor.expect("device", "'device='")
            cursor.expect("=")
            hlo = cls.maximal(_natural(cursor, "a device id"))
        elif cursor.accept("devices"):
            hlo = _read_tiled(cursor, start)
        else:
            raise cursor.error(f"expected {', '.join(KINDS)}, maximal or devices=")
        if cursor.accept("metadata"):
            cursor.expect("=")
            _skip_braces(cursor)
        cursor.expect("}", "'}' closing the sharding")
        cursor.expect_end()
        return hlo

    # -- queries ------------------------------------------------------------------------

    @property
    def data_dims(self) -> tuple[int, ...]:
        """Shards per tensor dim (the tile dims before the subgroup dims)."""
        return self.tile_dims[: len(self.tile_dims) - len(self.subgroups)]

    @property
    def replicate_on_last_tile_dim(self) -> bool:
        return self.subgroups == ("replicated",)

    def iota(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """`(reshape_dims, perm)` with `devices == iota.reshape(dims).transpose(perm)`, in
        XLA's canonical form (no size-1 dims, no mergeable neighbours), or None."""
        return _iota_form(self.devices) if self.kind == "tiled" else None

    def tile_index(self) -> dict[int, tuple[int, ...]]:
        """For each device, which tile (per data dim) it holds; `()` if not tiled."""
        if self.kind != "tiled":
            return {d: () for d in self.devices}
        coords = np.indices(self.tile_dims).reshape(len(self.tile_dims), -1).T
        rank = len(self.data_dims)
        return {d: tuple(int(c) for c in coords[p, :rank]) for p, d in enumerate(self.devices)}

    def relabel(self, device_ids: Sequence[int]) -> HloSharding:
        """Device `k` becomes `device_ids[k]`: JAX/XLA number devices by their position in
        the computation's device assignment, so this gives the physical ids."""
        if self.kind == "maximal":
            return HloSharding.maximal(device_ids[self.devices[0]])
        if self.kind != "tiled":
            return self
        return HloSharding.tiled(
            self.tile_dims, [device_ids[d] for d in self.devices], self.subgroups
        )

    def __str__(self) -> str:
        if self.kind == "maximal":
            return f"{{maximal device={self.devices[0]}}}"
        if self.kind != "tiled":
            return "{" + self.kind + "}"
        iota = self.iota()
        if iota is None:
            assignment = ",".join(map(str, self.devices))
        else:
            dims, perm = iota
            assignment = f"<=[{_ints(dims)}]" + (f"T({_ints(perm)})" if len(perm) > 1 else "")
        text = f"{{devices=[{_ints(self.tile_dims)}]{assignment}"
        if self.replicate_on_last_tile_dim:
            text += " last_tile_dim_replicate"
        elif self.subgroups:
            text += " last_tile_dims={" + ", ".join(self.subgroups) + "}"
        return text + "}"


def _ints(values: Sequence[int]) -> str:
    return ",".join(map(str, values))


def _natural(cursor: Cursor, what: str, low: int = 0) -> int:
    cursor.skip_space()
    start = cursor.pos
    value = cursor.integer(what)
    if value < low:
        raise cursor.invalid(f"expected {what} of at least {low}, got: {value}", start)
    return value


def _int_list(cursor: Cursor, what: str, close: str = "]", low: int = 1) -> list[int]:
    return cursor.comma_separated(close, lambda: _natural(cursor, what, low), what)


def _read_tiled(cursor: Cursor, start: int) -> HloSharding:
    """After `devices`: `=[dims]` then `<=[dims]T(perm)` or an explicit list, subgroups."""
    cursor.expect("=", "'=' after 'devices'")
    cursor.expect("[", "'[' starting the tile dims")
    dims = _int_list(cursor, "a tile dim")
    count = math.prod(dims)
    if cursor.accept("<="):
        cursor.expect("[", "'[' starting the iota reshape dims")
        at = cursor.pos
        reshape = _int_list(cursor, "an iota reshape dim")
        perm = list(range(len(reshape)))
        if cursor.accept("T"):
            cursor.expect("(", "'(' starting the transpose permutation")
            perm = _int_list(cursor, "a transpose dim", ")", low=0)
            if sorted(perm) != list(range(len(reshape))):
                raise cursor.invalid(
                    f"T({_ints(perm)}) is not a permutation of the {len(reshape)} reshape dims", at
                )
        if math.prod(reshape) != count:
            raise cursor.invalid(
                f"iota of {math.prod(reshape)} devices for tile dims {dims} ({count} tiles)", at
            )
        devices = np.arange(count).reshape(reshape).transpose(perm).ravel().tolist()
    else:
        devices = [_natural(cursor, "a device id")]
        while cursor.accept(","):
            devices.append(_natural(cursor, "a device id"))
    subgroups: list[str] = []
    if cursor.accept("last_tile_dim_replicate"):
        subgroups = ["replicated"]
    elif cursor.accept("last_tile_dims"):
        cursor.expect("=")
        cursor.expect("{", "'{' starting the subgroup types")
        what = "manual, unreduced or replicated"
        subgroups = cursor.comma_separated("}", lambda: cursor.match(_SUBGROUP, what), what)
    try:
        return HloSharding.tiled(dims, devices, subgroups)
    except ShardingError as e:
        raise cursor.invalid(str(e), start) from None


def _skip_braces(cursor: Cursor) -> None:
    cursor.expect("{", "'{'")
    depth = 1
    while depth:
        if cursor.pos >= len(cursor.text):
            raise cursor.error("unterminated '{'")
        depth += {"{": 1, "}": -1}.get(cursor.text[cursor.pos], 0)
        cursor.pos += 1


def _iota_form(devices: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Reads the list as maximal runs of constant stride, inner to outer, and checks."""
    values, n = np.asarray(devices), len(devices)
    runs: list[tuple[int, int]] = []  # (size, stride), innermost first
    step = 1
    while step < n:
        stride = int(values[step])
        size = 2
        while size * step < n and values[size * step] == size * stride:
            size += 1
        runs.append((size, stride))
        step *= size
    if step != n or (n and values[0] != 0) or any(s < 1 for _, s in runs):
        return None
    by_stride = sorted(range(len(runs)), key=lambda i: -runs[i][1])
    dims = tuple(runs[i][0] for i in by_stride) or (1,)
    perm = tuple(by_stride.index(i) for i in reversed(range(len(runs)))) or (0,)
    iota = np.arange(n).reshape(dims).transpose(perm).ravel()
    return (dims, perm) if np.array_equal(iota, values) else None


# -- conversions ------------------------------------------------------------------------


def to_tensor_sharding(
    hlo: str | HloSharding, rank: int, mesh: Mesh | None = None, *, mesh_name: str | None = "mesh"
) -> tuple[TensorSharding, Mesh]:
    """The `TensorSharding` (bound to `@mesh_name`, or inlined if None) and its mesh.

    On a given `mesh`, each tile dim becomes the (sub-)axes whose mixed-radix
    coordinate is the tile index of every device; a `ShardingError` says
    which tile dim no axes fit. Without one, a mesh is built as Shardy's
    importer does: for a (transposed) iota, axes `"_axis_k"` refine the reshape
    dims (iota device ids); otherwise one axis per tile dim with the device list
    as `device_ids`. `{maximal device=n}` gives `<[], device_ids=[n]>` and rank-0
    dims; `{unknown}` open dims. Manual and unreduced parts raise `ShardingError`.

    >>> mesh = Mesh({"x": 8})
    >>> str(to_tensor_sharding("{devices=[2,4]<=[8]}", 2, mesh)[0])
    '#sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)4}]>'
    """
    hlo = HloSharding.parse(hlo) if isinstance(hlo, str) else hlo
    for kind in ("manual", "unreduced"):
        if hlo.kind == kind or kind in hlo.subgroups:
            raise ShardingError(
                f"{hlo} is {kind} along some devices; a TensorSharding has no {kind} "
                "subgroups (Shardy expresses manual axes with sdy.manual_computation)"
            )
    if hlo.kind == "maximal":
        target = Mesh((), hlo.devices)
        if mesh is not None and mesh != target:
            raise ShardingError(
                f"{hlo} puts the tensor on one device; mesh {mesh} is not the maximal mesh {target}"
            )
        return TensorSharding(target if mesh_name is None else mesh_name, ()), target
    if hlo.kind != "tiled":
        target = Mesh() if mesh is None else mesh
        bound = target if mesh_name is None else mesh_name
        if target.is_maximal:
            return TensorSharding(bound, ()), target
        return TensorSharding.replicated_on(bound, rank, is_closed=hlo.kind != "unknown"), target
    if len(hlo.data_dims) != rank:
        raise ShardingError(f"{hlo} tiles {len(hlo.data_dims)} dims, the tensor has {rank}")
    if mesh is None:
        mesh, dims = _build_mesh(hlo)
    else:
        dims = _match_axes(hlo, mesh)
    sharding = TensorSharding(
        mesh if mesh_name is None else mesh_name, tuple(DimSharding(tuple(d)) for d in dims)
    )
    sharding.validate(mesh)
    tiles = hlo.tile_index()
    if any(shard_index(d, sharding, mesh) != tiles[d] for d in mesh.device_list):
        raise ShardingError(f"internal error: {sharding} on {mesh} does not lay out as {hlo}")
    return sharding, mesh


def _build_mesh(hlo: HloSharding) -> tuple[Mesh, list[list[AxisRef]]]:
    """Shardy's import: axes refine the iota reshape dims at tile-dim boundaries."""
    iota = hlo.iota()
    pieces = (
        refine_factorizations([(iota[0][p], p) for p in iota[1]], hlo.tile_dims) if iota else None
    )
    if pieces is None:  # one axis per tile dim, the device list as the mesh's order
        if sorted(hlo.devices) != list(range(len(hlo.devices))):
            raise ShardingError(
                f"{hlo} uses devices {sorted(hlo.devices)}, not 0..N-1; "
                "pass a mesh over exactly these devices"
            )
        names = [f"_axis_{i}" for i in range(len(hlo.tile_dims))]
        axes = [(n, t) for n, t in zip(names, hlo.tile_dims, strict=True) if t > 1]
        dims = [[AxisRef(n)] if t > 1 else [] for n, t in zip(names, hlo.data_dims, strict=False)]
        return Mesh(axes, hlo.devices), dims
    in_mesh_order = sorted(range(len(pieces)), key=lambda i: (pieces[i][1], i))
    names = {p: f"_axis_{k}" for k, p in enumerate(in_mesh_order)}
    mesh = Mesh([(names[p], pieces[p][0]) for p in in_mesh_order])
    dims = [
        [AxisRef(names[p]) for p in range(len(pieces)) if pieces[p][2] == j]
        for j in range(len(hlo.data_dims))
    ]
    return mesh, dims


def refine_factorizations(outer: list[tuple[int, int]], tile_dims: Sequence[int]):
    """Common refinement of two factorizations of the device positions, outer to inner:
    `[(size, reshape dim, tile dim)]`, or None when their boundaries don't nest."""
    pieces, a, b = [], list(outer), list(tile_dims)
    while a and b:
        if a[0][0] == 1 or b[0] == 1:
            a, b = (a[1:], b) if a[0][0] == 1 else (a, b[1:])
            continue
        g = math.gcd(a[0][0], b[0])
        if g == 1:
            return None
        pieces.append((g, a[0][1], len(tile_dims) - len(b)))
        a[0], b[0] = (a[0][0] // g, a[0][1]), b[0] // g
    return pieces


def _match_axes(hlo: HloSharding, mesh: Mesh) -> list[list[AxisRef]]:
    """Per tile dim, major to minor, the (sub-)axes whose coordinates are the tile index."""
    if sorted(hlo.devices) != sorted(mesh.device_list):
        raise ShardingError(
            f"{hlo} uses devices {sorted(hlo.devices)}; mesh {mesh} has {sorted(mesh.device_list)}"
        )
    coords = np.array([mesh.coords_of(d) for d in hlo.devices]).reshape(len(hlo.devices), -1)
    tiles = np.indices(hlo.tile_dims).reshape(len(hlo.tile_dims), -1).T
    candidates = []  # (size, ref, coordinate per position), largest first
    for i, (name, n) in enumerate(mesh.axes):
        for pre in (p for p in range(1, n) if n % p == 0):
            for size in (s for s in range(2, n // pre + 1) if (n // pre) % s == 0):
                ref = AxisRef(name) if size == n else AxisRef(name, (pre, size))
                candidates.append((size, ref, ref.coordinate(coords[:, i], mesh)))
    candidates.sort(key=lambda c: -c[0])
    used: list[AxisRef] = []
    dims = []
    for j, k in enumerate(hlo.data_dims):
        index, axes = tiles[:, j], []
        while k > 1:
            for size, ref, coordinate in candidates:
                if k % size or any(ref.overlaps(u) for u in used):
                    continue
                if np.array_equal(coordinate, index // (k // size)):
                    axes.append(ref)
                    used.append(ref)
                    index, k = index % (k // size), k // size
                    break
            else:
                raise ShardingError(
                    f"cannot express tile dim {j} of {hlo} on mesh {mesh}: after "
                    f"[{', '.join(map(str, axes))}] no unused axis or sub-axis of a size "
                    f"dividing {k} orders the devices as the tile assignment does"
                )
        dims.append(axes)
    return dims


def from_tensor_sharding(sharding: TensorSharding, mesh: Mesh | None = None) -> HloSharding:
    """The GSPMD sharding that puts the same data on the same devices.

    Tile dims are the shards per dim, plus a replicated last tile dim for the
    axes no dim uses; the device list is read off the mesh. Raises
    `ShardingError` for unreduced axes (no GSPMD tiling holds partial sums).

    >>> mesh = Mesh({"x": 2, "y": 4})
    >>> str(from_tensor_sharding(TensorSharding.from_axes("mesh", ["y", None]), mesh))
    '{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}'
    """
    mesh = sharding.resolve_mesh(mesh)
    if mesh.is_maximal:
        return HloSharding.maximal(mesh.device_ids[0])
    if sharding.unreduced:
        raise ShardingError(
            f"{sharding} has unreduced axes {', '.join(map(str, sharding.unreduced))}: GSPMD "
            "tilings hold no partial sums (XLA's newer 'unreduced' subgroups aren't supported)"
        )
    sharding.validate(mesh)
    cuts = {name: {1, size} for name, size in mesh.axes}
    for axis in sharding.dim_axes():
        cuts[axis.name] |= {axis.pre_size, axis.next_pre_size(mesh)}
    pieces = [(name, lo, hi) for name, _ in mesh.axes for lo, hi in pairwise(sorted(cuts[name]))]
    if any(hi % lo for _, lo, hi in pieces):  # Shardy's verifier lets these through
        raise ShardingError(f"{sharding} uses sub-axes that cannot coexist (no device grid)")
    order = [
        i
        for axis in sharding.dim_axes()
        for i, (name, lo, hi) in enumerate(pieces)
        if name == axis.name and axis.pre_size <= lo and hi <= axis.next_pre_size(mesh)
    ]
    order += [i for i in range(len(pieces)) if i not in order]
    tile_dims = [d.sharded_size(mesh) for d in sharding.dims]
    tile_dims.append(mesh.size // math.prod(tile_dims))
    array = np.asarray(mesh.device_list).reshape([hi // lo for _, lo, hi in pieces])
    return HloSharding.tiled(tile_dims, array.transpose(order).ravel(), ["replicated"])
