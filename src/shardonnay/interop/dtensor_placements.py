"""DTensor's vocabulary, without torch: a `DeviceMesh`'s description, the placements and
DTensor's own rules for which rows each rank holds.

`DTensorSharding` is a mesh and one placement per mesh dim, with a text form
(`mesh=(2, 2) names=(dp, tp) placements=(Shard(0), Replicate())`), DTensor's
`shard_order` decoding of `_StridedShard`s, and the local tensors DTensor's
`distribute_tensor` makes: placements applied left to right, each chunking
(`torch.chunk`) what the previous ones left. `shardonnay.interop.dtensor`
converts these to and from `TensorSharding`.

>>> s = DTensorSharding.parse("mesh=(2, 2) placements=(Shard(0), Shard(0))")
>>> [s.local_shape_and_global_offset((5,), device=d) for d in range(4)]
[((2,), (0,)), ((1,), (2,)), ((1,), (3,)), ((1,), (4,))]
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.errors import ShardingError
from shardonnay.mesh import Mesh
from shardonnay.syntax.cursor import Cursor

__all__ = [
    "REDUCE_OPS",
    "DTensorSharding",
    "DeviceMeshSpec",
    "Partial",
    "Placement",
    "Replicate",
    "Shard",
    "StridedShard",
    "mesh_and_axes",
    "partial_avg_as_sum",
    "reason_without_equivalent",
]

REDUCE_OPS = ("sum", "avg", "min", "max", "product", "band", "bor", "bxor")
"""`Partial`'s reductions (those of `torch.distributed.ReduceOp`)."""

_SUB_AXIS_NAME = re.compile(r"(.+):\((\d+)\)(\d+)")
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# -- the device mesh ----------------------------------------------------------------------


@dataclass(frozen=True)
class DeviceMeshSpec:
    """What a `DeviceMesh` says about its devices: `DeviceMesh("cuda", mesh, mesh_dim_names=...)`
    has `shape == mesh.shape` and `devices == tuple(mesh.flatten().tolist())` (None: ranks
    `0..N-1` in order, which is what such a tuple becomes).

    >>> spec = DeviceMeshSpec((2, 3), ("dp", "tp"), devices=(0, 2, 4, 1, 3, 5))
    >>> spec.coords_of(4), str(spec.to_mesh())
    ((0, 2), '<["dp"=2, "tp"=3], device_ids=[0, 2, 4, 1, 3, 5]>')
    """

    shape: tuple[int, ...]
    mesh_dim_names: tuple[str, ...] | None = None
    devices: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(int(s) for s in self.shape))
        if self.mesh_dim_names is not None:
            object.__setattr__(self, "mesh_dim_names", tuple(map(str, self.mesh_dim_names)))
        if self.devices is not None:  # ranks 0..N-1 in order are no order to speak of
            devices = tuple(int(d) for d in self.devices)
            ordered = devices == tuple(range(len(devices)))
            object.__setattr__(self, "devices", None if ordered else devices)
        if not self.shape or any(s < 1 for s in self.shape):
            raise ShardingError(f"a DeviceMesh needs at least one dim, all of size >= 1: {self}")
        names = self.mesh_dim_names
        if names is not None and (len(names) != len(self.shape) or len(set(names)) < len(names)):
            raise ShardingError(
                f"mesh_dim_names {list(names)} must name each of the {len(self.shape)} mesh dims "
                "once"
            )
        devices = self.devices
        if devices is not None and (
            len(devices) != self.size or len(set(devices)) < len(devices) or min(devices) < 0
        ):
            raise ShardingError(
                f"a mesh of shape {self.shape} needs {self.size} distinct non-negative ranks, "
                f"got {list(devices)}"
            )

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def names(self) -> tuple[str, ...]:
        """The mesh dim names; `dim_0`, `dim_1`, ... for a mesh without names."""
        return self.mesh_dim_names or tuple(f"dim_{i}" for i in range(self.ndim))

    @property
    def device_list(self) -> tuple[int, ...]:
        return self.devices if self.devices is not None else tuple(range(self.size))

    def coords_of(self, device: int) -> tuple[int, ...]:
        """The mesh coordinate of rank `device` (`DeviceMesh.get_coordinate` on that rank)."""
        try:
            flat = self.device_list.index(device)
        except ValueError:
            raise ShardingError(f"rank {device} is not in the DeviceMesh {self}") from None
        return tuple(int(c) for c in np.unravel_index(flat, self.shape))

    @classmethod
    def from_mesh(cls, mesh: Mesh) -> DeviceMeshSpec:
        """The DeviceMesh of a mesh's axes (one dim of size 1 for a mesh without axes)."""
        if not mesh.axes:
            return cls((1,), None, mesh.device_ids)
        return cls(mesh.shape, mesh.axis_names, mesh.device_ids)

    def to_mesh(self) -> Mesh:
        """The mesh whose axes are these dims; dims named `x:(1)2`, `x:(2)4`, ... that cut
        one axis major to minor become that axis (`"x"=8`). One rank other than 0 is the
        maximal mesh `<[], device_ids=[r]>`.

        >>> str(DeviceMeshSpec((2, 4, 3), ("x:(1)2", "x:(2)4", "y")).to_mesh())
        '<["x"=8, "y"=3]>'
        """
        return mesh_and_axes(self)[0]

    def __str__(self) -> str:
        text = f"mesh={_tuple(self.shape)}"
        if self.mesh_dim_names is not None:
            text += f" names={_tuple(_name_text(n) for n in self.mesh_dim_names)}"
        if self.devices is not None:
            text += f" devices={_tuple(self.devices)}"
        return text


def mesh_and_axes(spec: DeviceMeshSpec) -> tuple[Mesh, tuple[AxisRef | None, ...]]:
    """The mesh of `to_mesh` and, per mesh dim, its axis or sub-axis (None: none, size 1)."""
    ids = spec.device_list
    if spec.size == 1 and spec.devices is not None:
        return Mesh((), spec.devices), (None,) * spec.ndim
    if sorted(ids) != list(range(spec.size)):
        raise ShardingError(
            f"the DeviceMesh holds ranks {sorted(ids)}: a mesh numbers its devices 0..N-1, so "
            "renumber the ranks of a sub-mesh (keeping their order) before converting"
        )
    axes: list[tuple[str, int]] = []
    refs: list[AxisRef | None] = []
    names = spec.names
    i = 0
    while i < spec.ndim:
        run = _sub_axis_run(names[i:], spec.shape[i:])
        if run:
            name = _SUB_AXIS_NAME.fullmatch(names[i]).group(1)
            total = math.prod(spec.shape[i : i + run])
            axes.append((name, total))
            pre = 1
            for size in spec.shape[i : i + run]:
                refs.append(AxisRef(name, (pre, size)))
                pre *= size
            i += run
        else:
            axes.append((names[i], spec.shape[i]))
            refs.append(AxisRef(names[i]))
            i += 1
    device_ids = None if list(ids) == list(range(spec.size)) else ids
    try:
        mesh = Mesh(axes, device_ids)
    except ShardingError as e:  # e.g. `x:(1)2` beside a dim named `x`
        raise ShardingError(f"the dims of {spec} give no mesh: {e}") from None
    return mesh, tuple(refs)


def _sub_axis_run(names: Sequence[str], sizes: Sequence[int]) -> int:
    """How many leading dims are `x:(1)a`, `x:(a)b`, `x:(ab)c`, ... of one `x` (0: none)."""
    pre, base, count = 1, None, 0
    for name, size in zip(names, sizes, strict=False):
        m = _SUB_AXIS_NAME.fullmatch(name)
        if not m or (base is not None and m.group(1) != base) or int(m.group(2)) != pre:
            break
        if int(m.group(3)) != size or size < 2:
            break
        base, pre, count = m.group(1), pre * size, count + 1
    return count if count >= 2 else 0


# -- placements ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Shard:
    """`Shard(dim)`: this mesh dim chunks tensor dim `dim` (negative counts from the end)."""

    dim: int

    def __str__(self) -> str:
        return f"Shard({self.dim})"


@dataclass(frozen=True)
class StridedShard:
    """DTensor's `_StridedShard(dim, split_factor=k)`: dim `dim` cut into `k` blocks, each
    chunked over this mesh dim, a rank keeping its piece of every block."""

    dim: int
    split_factor: int

    def __post_init__(self) -> None:
        if self.split_factor < 1:
            raise ShardingError(f"split_factor must be at least 1: {self}")

    def __str__(self) -> str:
        return f"_StridedShard({self.dim}, split_factor={self.split_factor})"


@dataclass(frozen=True)
class Replicate:
    """`Replicate()`: every rank along this mesh dim holds the same values."""

    def __str__(self) -> str:
        return "Replicate()"


@dataclass(frozen=True)
class Partial:
    """`Partial(reduce_op)`: the ranks along this mesh dim hold values whose reduction is
    the tensor's."""

    reduce_op: str = "sum"

    def __post_init__(self) -> None:
        if self.reduce_op not in REDUCE_OPS:
            raise ShardingError(
                f"unknown reduce_op {self.reduce_op!r}; DTensor has {', '.join(REDUCE_OPS)}"
            )

    def __str__(self) -> str:
        return f"Partial({self.reduce_op})"


Placement = Shard | StridedShard | Replicate | Partial


# -- a DTensor's sharding -----------------------------------------------------------------


@dataclass(frozen=True)
class DTensorSharding:
    """A DeviceMesh and one placement per mesh dim.

    Text: `mesh=(2, 4) names=(dp, tp) devices=(...) placements=(Shard(0), Replicate())`;
    `names` and `devices` are optional, names that are not identifiers are quoted, and
    placements may be written as DTensor prints them (`S(0)`, `R`, `P(sum)`, `_S(0, 2)`,
    `Shard(dim=0)`, `_StridedShard(dim=0, sf=2)`, `Partial("max")`).

    >>> s = DTensorSharding.parse("mesh=(4,) placements=(S(0),)")
    >>> str(s), s.local_shape_and_global_offset((6,), device=3)
    ('mesh=(4,) placements=(Shard(0),)', ((0,), (6,)))
    """

    device_mesh: DeviceMeshSpec
    placements: tuple[Placement, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", tuple(self.placements))
        if len(self.placements) != self.device_mesh.ndim:
            raise ShardingError(
                f"{len(self.placements)} placements for a DeviceMesh of {self.device_mesh.ndim} "
                "dims: DTensor needs one per mesh dim"
            )
        ops = {p.reduce_op for p in self.placements if isinstance(p, Partial)}
        if len(ops) > 1 and ops != {"sum", "avg"}:
            raise ShardingError(
                f"mixed Partial reductions {sorted(ops)}: DTensor mixes only sum with avg"
            )

    @classmethod
    def parse(cls, text: str) -> DTensorSharding:
        """Reads the text form; `ParseError` with a caret where it does not fit."""
        cursor = Cursor(text)
        start = cursor.pos
        cursor.expect("mesh", "'mesh='")
        cursor.expect("=")
        shape = _read_tuple(cursor, lambda: cursor.integer("a mesh dim size"))
        names = devices = None
        if cursor.accept("names"):
            cursor.expect("=")
            names = _read_tuple(cursor, lambda: _read_name(cursor))
        if cursor.accept("devices"):
            cursor.expect("=")
            devices = _read_tuple(cursor, lambda: cursor.integer("a rank"))
        cursor.expect("placements", "'placements='")
        cursor.expect("=")
        placements = _read_tuple(cursor, lambda: _read_placement(cursor))
        cursor.expect_end()
        try:
            return cls(DeviceMeshSpec(shape, names, devices), placements)
        except ShardingError as e:
            raise cursor.invalid(str(e), start) from None

    def __str__(self) -> str:
        return f"{self.device_mesh} placements={_tuple(self.placements)}"

    # -- DTensor's own rules -----------------------------------------------------------

    def normalized(self, rank: int) -> DTensorSharding:
        """Negative `dim`s counted from the end, every `dim` checked against `rank`."""
        placements = []
        for i, p in enumerate(self.placements):
            if isinstance(p, Shard | StridedShard):
                if not -rank <= p.dim < rank:
                    raise ShardingError(
                        f"{p} on mesh dim {i} shards dim {p.dim} of a rank-{rank} tensor"
                    )
                p = replace(p, dim=p.dim % rank)
            placements.append(p)
        return DTensorSharding(self.device_mesh, tuple(placements))

    def with_shard_order(self, shard_order: Mapping[int, Sequence[int]]) -> DTensorSharding:
        """These placements with tensor dim `d` split by the mesh dims `shard_order[d]` in
        that order, major first: `Shard`s and `_StridedShard`s as DTensor encodes a
        `shard_order` (the split factor of a mesh dim is the product of the sizes of the
        mesh dims before it in the order and after it in the placements).

        >>> s = DTensorSharding.parse("mesh=(4, 3, 2) placements=(S(0), S(0), S(0))")
        >>> str(s.with_shard_order({0: [2, 0, 1]}))
        'mesh=(4, 3, 2) placements=(_StridedShard(0, split_factor=2), \
_StridedShard(0, split_factor=2), Shard(0))'
        """
        placements = list(self.placements)
        for dim, order in shard_order.items():
            splitting = [
                m
                for m, p in enumerate(placements)
                if isinstance(p, Shard | StridedShard) and p.dim == dim
            ]
            if sorted(order) != splitting:
                raise ShardingError(
                    f"shard order {list(order)} of dim {dim}: the mesh dims splitting it are "
                    f"{splitting}"
                )
            for k, m in enumerate(order):
                factor = math.prod(self.device_mesh.shape[e] for e in order[:k] if e > m)
                placements[m] = Shard(dim) if factor == 1 else StridedShard(dim, factor)
        return DTensorSharding(self.device_mesh, tuple(placements))

    def shard_order(self, rank: int) -> tuple[tuple[int, ...], ...]:
        """Per tensor dim, the mesh dims that split it, major first (DTensor's `shard_order`).

        Decoded from the split factors right to left as DTensor does; a `_StridedShard`
        that encodes no order (interleaved shards) raises `ShardingError`.

        >>> s = DTensorSharding.parse("mesh=(4, 3, 2) placements=(_S(0, 2), _S(0, 2), S(0))")
        >>> s.shard_order(rank=1)
        ((2, 0, 1),)
        """
        spec = self.normalized(rank)
        orders: list[list[int]] = [[] for _ in range(rank)]
        for m in reversed(range(spec.device_mesh.ndim)):
            p = spec.placements[m]
            if not isinstance(p, Shard | StridedShard):
                continue
            factor = p.split_factor if isinstance(p, StridedShard) else 1
            order, before = orders[p.dim], 1
            for k in range(len(order) + 1):
                if before == factor:
                    order.insert(k, m)
                    break
                if k < len(order):
                    before *= spec.device_mesh.shape[order[k]]
            else:
                raise ShardingError(
                    f"{p} on mesh dim {m} encodes no order of the mesh dims splitting dim "
                    f"{p.dim}: its ranks hold interleaved rows, which no TensorSharding can "
                    "hold (a device's shard of a dim is one contiguous block)"
                )
        return tuple(tuple(o) for o in orders)

    def local_indices(self, global_shape: Sequence[int], device: int) -> tuple[np.ndarray, ...]:
        """Per dim, the global indices of the local tensor of rank `device`, in order: the
        placements applied left to right, each on what the previous ones left."""
        spec = self.normalized(len(global_shape))
        coords = spec.device_mesh.coords_of(device)
        indices = [np.arange(n) for n in global_shape]
        for m, p in enumerate(spec.placements):
            if isinstance(p, Shard | StridedShard):
                count, rank = spec.device_mesh.shape[m], coords[m]
                factor = p.split_factor if isinstance(p, StridedShard) else 1
                held = indices[p.dim]
                indices[p.dim] = np.concatenate(
                    [_chunk(block, count)[rank] for block in _chunk(held, factor)]
                )
        return tuple(indices)

    def local_shape_and_global_offset(
        self, global_shape: Sequence[int], device: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """DTensor's `compute_local_shape_and_global_offset` on rank `device`: the unpadded
        local shape and where it starts (an empty shard of a sharded dim starts at the
        dim's size)."""
        indices = self.local_indices(global_shape, device)
        shape = tuple(len(i) for i in indices)
        offset = tuple(
            int(i[0]) if len(i) else n for i, n in zip(indices, global_shape, strict=True)
        )
        return shape, offset

    def local_tensors(self, array: np.ndarray) -> dict[int, np.ndarray]:
        """Each rank's local tensor as `distribute_tensor(array, mesh, placements)` makes it:
        its indices of `array`, divided by `n` per `Partial("sum")` mesh dim of size `n`
        (the other reductions keep the value on every rank)."""
        array = np.asarray(array)
        divisor = math.prod(
            n
            for n, p in zip(self.device_mesh.shape, self.placements, strict=True)
            if isinstance(p, Partial) and p.reduce_op == "sum"
        )
        out = {}
        for device in self.device_mesh.device_list:
            local = array[np.ix_(*self.local_indices(array.shape, device))]
            out[device] = local / divisor if divisor > 1 else local
        return out


def partial_avg_as_sum(sharding: DTensorSharding) -> tuple[DTensorSharding, float]:
    """`Partial("avg")` as `Partial("sum")`: the placements with every avg made a sum, and the
    scale to multiply the local tensors by (`1/n` over the avg mesh dims' `n` ranks).

    >>> s, scale = partial_avg_as_sum(DTensorSharding.parse("mesh=(4,) placements=(P(avg),)"))
    >>> str(s), scale
    ('mesh=(4,) placements=(Partial(sum),)', 0.25)
    """
    count = math.prod(
        n
        for n, p in zip(sharding.device_mesh.shape, sharding.placements, strict=True)
        if isinstance(p, Partial) and p.reduce_op == "avg"
    )
    placements = tuple(
        Partial("sum") if isinstance(p, Partial) and p.reduce_op == "avg" else p
        for p in sharding.placements
    )
    return DTensorSharding(sharding.device_mesh, placements), 1 / count


def _chunk(indices: np.ndarray, count: int) -> list[np.ndarray]:
    """`torch.chunk` into `count` pieces of `ceil(n/count)`, missing pieces empty."""
    size = -(-len(indices) // count)
    return [indices[min(i * size, len(indices)) : (i + 1) * size] for i in range(count)]


# -- text ---------------------------------------------------------------------------------


def _tuple(items: Iterable[object]) -> str:
    parts = [str(i) for i in items]
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def _name_text(name: str) -> str:
    return name if _PLAIN_NAME.fullmatch(name) else '"' + name.replace('"', '\\"') + '"'


def _read_tuple(cursor: Cursor, item) -> list:
    """`(a, b)`, `(a,)` or `[a, b]`."""
    close = "]" if cursor.accept("[") else ")"
    if close == ")":
        cursor.expect("(", "'(' or '['")
    items = []
    if cursor.accept(close):
        return items
    while True:
        items.append(item())
        if cursor.accept(close):
            return items
        if not cursor.accept(","):
            raise cursor.error(f"expected ',' or {close!r}")
        if cursor.accept(close):
            return items


def _read_name(cursor: Cursor) -> str:
    return cursor.string() if cursor.peek('"') else cursor.match(_PLAIN_NAME, "a mesh dim name")


_KINDS = {  # spelling -> (placement, the keywords its arguments may have, in order)
    "Shard": (Shard, ("dim",)),
    "S": (Shard, ("dim",)),
    "_StridedShard": (StridedShard, ("dim", "split_factor")),
    "StridedShard": (StridedShard, ("dim", "split_factor")),
    "_S": (StridedShard, ("dim", "split_factor")),
    "Replicate": (Replicate, ()),
    "R": (Replicate, ()),
    "Partial": (Partial, ("reduce_op",)),
    "P": (Partial, ("reduce_op",)),
}
_WITHOUT_EQUIVALENT = {  # placements of DTensor's extensions that no TensorSharding holds
    "RaggedShard": "shards of any size per rank; a TensorSharding's are ceil(n/k)-sized blocks",
    "InterleavedShard": "interleaved rows; a device's shard of a dim is one contiguous block",
    "_MaskPartial": "partial values masked by a buffer of indices",
    "NormPartial": "a pending norm; unreduced axes reduce by sum, max or min",
}


def reason_without_equivalent(placement_name: str) -> str | None:
    """Why a placement of a DTensor extension has no equivalent (None for the others)."""
    return _WITHOUT_EQUIVALENT.get(placement_name)


_KEYWORD = re.compile(r"([A-Za-z_]+)\s*=(?!=)")
_INT = re.compile(r"-?\d+")


def _read_placement(cursor: Cursor) -> Placement:
    """`Shard(0)`, `S(0)`, `Shard(dim=0)`, `_StridedShard(0, split_factor=2)`, `_S(0, 2)`,
    `Replicate()`, `R`, `Partial()`, `P(sum)`, `Partial(reduce_op="max")`."""
    cursor.skip_space()
    start = cursor.pos
    word = cursor.match(_PLAIN_NAME, "a placement")
    if reason_without_equivalent(word):
        raise cursor.invalid(f"{word} has no equivalent: {reason_without_equivalent(word)}", start)
    if word not in _KINDS:
        raise cursor.error(
            f"unknown placement {word!r}; expected Shard, Replicate, Partial or _StridedShard",
            start,
        )
    kind, keywords = _KINDS[word]
    values: list[int | str] = []
    if cursor.accept("("):

        def argument() -> None:
            values.append(_read_arg(cursor, keywords, len(values)))

        cursor.comma_separated(")", argument, "an argument")
    if len(values) != len(keywords) and not (kind is Partial and not values):
        raise cursor.error(f"{word} takes {len(keywords)} argument(s): {', '.join(keywords)}")
    if kind is not Partial and not all(isinstance(v, int) for v in values):
        raise cursor.error(f"{word} takes integers", start)
    try:
        return kind(*values)
    except ShardingError as e:
        raise cursor.invalid(str(e), start) from None


def _read_arg(cursor: Cursor, keywords: Sequence[str], position: int) -> int | str:
    """One argument: an integer, a name or a quoted string, maybe after `keyword=`."""
    cursor.skip_space()
    keyword = _KEYWORD.match(cursor.text, cursor.pos)
    if keyword:
        name = {"sf": "split_factor"}.get(keyword.group(1), keyword.group(1))
        if name not in keywords[position : position + 1]:
            raise cursor.error(f"unexpected keyword {keyword.group(1)!r}")
        cursor.pos = keyword.end()
        cursor.skip_space()
    if cursor.peek('"'):
        return cursor.string()
    if _INT.match(cursor.text, cursor.pos):
        return cursor.integer()
    return cursor.match(_PLAIN_NAME, "an argument")
