"""The MLIR `shard` dialect's grids, shardings and device queries (its collectives:
`shard_collectives`).

    shard.grid @grid(shape = 2x3)
    %s = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
    %h = shard.sharding @grid split_axes = [[0]] halo_sizes = [1, 2] : !shard.sharding
    %o = shard.sharding @grid split_axes = [[], [1]] sharded_dims_offsets = [0, 1, 3, 6]
        : !shard.sharding
    %0 = shard.shard %arg0 to %s : tensor<4x6xf32>
    %1 = shard.shard %0 to %s annotate_for_users : tensor<4x6xf32>
    %2:2 = shard.shard_shape dims = [4, 6] sharding = %s device = [1, 2] : index, index
    %i = shard.process_linear_index on @grid : index
    %m:2 = shard.process_multi_index on @grid axes = [1, 0] : index, index
    %g:2 = shard.grid_shape @grid : index, index
    %down, %up = shard.neighbors_linear_indices on @grid[%m#1, %m#0] split_axes = [1]
        : index, index
    %t = shard.get_sharding %0 : tensor<4x6xf32> -> !shard.sharding

A grid's axes have sizes (`?` for a size known only at run time) but no
names; `split_axes[d]` lists the grid axes that split tensor dim `d`, major
first; `halo_sizes` gives (low, high) per split dim; `sharded_dims_offsets`
gives, per split dim, where each shard starts plus the end of the last. The
device with grid coordinates `c` is device `ravel(c)` (row-major).

On the global program `shard.shard` is the identity; the device queries need a
device and are evaluated by `device_query` for one device.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... shard.grid @grid(shape = 2x3)
... func.func @f(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
...   %s = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
...   %0 = shard.shard %arg0 to %s : tensor<4x6xf32>
...   return %0 : tensor<4x6xf32>
... }''')
>>> print(m.function("f").body.ops[0].attributes["split_axes"])
[[0], [1]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from shardonnay.errors import IRError, ShardingError, UnsupportedOpError
from shardonnay.interop.shard_dialect import grid_mesh, read_split_axes, split_axes_to_sharding
from shardonnay.ir.attributes import UNIT, DenseArrayAttr, SymbolRefAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import OpaqueType, Type
from shardonnay.layout import device_slices
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.traits import GRID_ANNOTATION
from shardonnay.sharding import read_symbol_name
from shardonnay.syntax.cursor import Cursor

DYNAMIC = -(2**63)  # MLIR's ShapedType::kDynamic: a `?` size
SHARDING_TYPE = OpaqueType("!shard.sharding")
INDEX = OpaqueType("index")


@dataclass(frozen=True, slots=True)
class GridAxesArray:
    """`[[0], [1, 2]]`: per tensor dim, the grid axes splitting it (major first).

    >>> GridAxesArray.parse("[[0, 1], []]").axes
    ((0, 1), ())
    """

    axes: tuple[tuple[int, ...], ...]

    @classmethod
    def parse(cls, text: str) -> GridAxesArray:
        cursor = Cursor(text)
        value = cls.read(cursor)
        cursor.expect_end()
        return value

    @classmethod
    def read(cls, cursor: Cursor) -> GridAxesArray:
        return cls(read_split_axes(cursor))

    def __str__(self) -> str:
        return "[" + ", ".join("[" + ", ".join(map(str, d)) + "]" for d in self.axes) + "]"


# -- shared syntax pieces ----------------------------------------------------------------


def read_int_list(p, what: str = "an integer") -> tuple[int, ...]:
    """`[1, 2]` of integers (the dialect's static `DynamicIndexList`; `?` and SSA
    values, dynamic sizes, are refused)."""
    p.expect("[", f"'[' starting a list of {what}s")

    def item() -> int:
        p.skip_space()
        if p.peek("%") or p.peek("?"):
            raise p.error(f"dynamic values are not supported here; expected {what}")
        return p.integer(what)

    return tuple(p.comma_separated("]", item, what))


def int_list_str(values) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def read_grid_ref(p) -> SymbolRefAttr:
    p.expect("@", "'@' and the grid name")
    return SymbolRefAttr((read_symbol_name(p),))


def i64s(values) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(int(v) for v in values))


def i16s(values) -> DenseArrayAttr:
    return DenseArrayAttr("i16", tuple(int(v) for v in values))


def grid_of(op: Op) -> GridOp:
    """The `shard.grid` op that `op`'s `grid` attribute names (IRError if none)."""
    ref = op.attributes.get("grid")
    if not isinstance(ref, SymbolRefAttr):
        raise IRError(f"{op.name}: needs a grid symbol (@name)")
    parent = op
    while parent.parent is not None:
        block = parent.parent
        for other in block.ops:
            if other.name == "shard.grid" and other.attributes.get("sym_name") == ref.name:
                return other
        if block.parent_op is None:
            break
        parent = block.parent_op
    raise IRError(f"{op.name}: unknown grid @{ref.name}")


def grid_shape(grid: Op) -> tuple[int, ...]:
    return tuple(grid.attributes["shape"].values)


def check_grid_axes(op: Op, axes, shape: tuple[int, ...], what: str = "grid_axes") -> None:
    seen: set[int] = set()
    for a in axes:
        if not 0 <= a < len(shape):
            raise IRError(f"{op.name}: {what} {a} is out of range for a grid of rank {len(shape)}")
        if a in seen:
            raise IRError(f"{op.name}: {what} {a} appears twice")
        seen.add(a)


def read_split_axes_and_halos(p, attrs: dict[str, Any]) -> None:
    """`split_axes = [[0], []] [halo_sizes = [1, 1]]`, the sharding of a value
    in shard.sharding and shard.update_halo, into `attrs` (`split_axes`,
    `static_halo_sizes`)."""
    p.expect("split_axes", "'split_axes'")
    p.expect("=", "'=' after 'split_axes'")
    attrs["split_axes"] = GridAxesArray.read(p)
    if p.accept("halo_sizes"):
        p.expect("=", "'=' after 'halo_sizes'")
        attrs["static_halo_sizes"] = i64s(read_int_list(p, "a halo size"))


def write_split_axes_and_halos(op: Op, w) -> None:
    """Writes what `read_split_axes_and_halos` reads (no `halo_sizes` when empty)."""
    w.write(f" split_axes = {op.attributes['split_axes']}")
    halos = op.attributes.get("static_halo_sizes")
    if halos is not None and halos.values:
        w.write(f" halo_sizes = {int_list_str(halos.values)}")


# -- shard.grid --------------------------------------------------------------------------


class GridOp(OpDef):
    """`shard.grid @name(shape = 2x?x4)`."""

    traits = frozenset({GRID_ANNOTATION})
    pure = False

    def parse(self, p, name: str) -> Op:
        p.expect("@", "'@' and the grid name")
        sym = read_symbol_name(p)
        p.expect("(", "'(' before 'shape'")
        p.expect("shape", "'shape'")
        p.expect("=", "'=' after 'shape'")
        dims = []
        while True:
            p.skip_space()
            if p.accept("?"):
                dims.append(DYNAMIC)
            else:
                dims.append(p.integer("a grid axis size or '?'"))
            if not p.accept("x"):
                break
        p.expect(")", "')' after the grid shape")
        attrs = p.optional_attr_dict()
        attrs.update(sym_name=sym, shape=i64s(dims))
        return mark_inherent(p.make_op(name, attributes=attrs), ("sym_name", "shape"))

    def print(self, op: Op, w) -> None:
        shape = "x".join("?" if d == DYNAMIC else str(d) for d in grid_shape(op))
        w.write(f" @{op.attributes['sym_name']}(shape = {shape})")
        w.attr_dict(op, ("sym_name", "shape"))

    def verify(self, op: Op) -> None:
        shape = op.attributes.get("shape")
        if not isinstance(shape, DenseArrayAttr) or not shape.values:
            raise IRError("shard.grid: rank of grid is expected to be a positive integer")
        if any(d != DYNAMIC and d < 0 for d in shape.values):
            raise IRError("shard.grid: dimension size of a grid is expected to be non-negative")

    def evaluate(self, op: Op, args: list, interp) -> list:
        return []


# -- shard.sharding and shard.shard --------------------------------------------------------


class ShardingOp(OpDef):
    """`shard.sharding @grid split_axes = [[0]] [halo_sizes = [..]]
    [sharded_dims_offsets = [..]] : !shard.sharding`."""

    traits = frozenset({GRID_ANNOTATION})

    def parse(self, p, name: str) -> Op:
        attrs: dict[str, Any] = {"grid": read_grid_ref(p)}
        read_split_axes_and_halos(p, attrs)
        if p.accept("sharded_dims_offsets"):
            p.expect("=", "'=' after 'sharded_dims_offsets'")
            attrs["static_sharded_dims_offsets"] = i64s(read_int_list(p, "an offset"))
        attrs = p.merge_attr_dict(attrs)
        p.expect(":", "':' and !shard.sharding")
        t = p.type()
        return mark_inherent(p.make_op(name, [], [t], attrs), _SHARDING_ATTRS)

    def print(self, op: Op, w) -> None:
        w.write(f" {op.attributes['grid']}")
        write_split_axes_and_halos(op, w)
        offsets = op.attributes.get("static_sharded_dims_offsets")
        if offsets is not None and offsets.values:
            w.write(f" sharded_dims_offsets = {int_list_str(offsets.values)}")
        w.attr_dict(op, _SHARDING_ATTRS)
        w.write(f" : {op.result_types[0]}")

    def infer_types(self, op: Op) -> list[Type] | None:
        return [SHARDING_TYPE]

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["sharding"]

    def verify(self, op: Op) -> None:
        shape = grid_shape(grid_of(op))
        split = op.attributes.get("split_axes")
        if not isinstance(split, GridAxesArray):
            raise IRError(f"{op.name}: needs split_axes")
        check_grid_axes(op, [a for d in split.axes for a in d], shape, "split axis")
        halos = static_values(op, "static_halo_sizes")
        offsets = static_values(op, "static_sharded_dims_offsets")
        if halos and offsets:
            raise IRError(f"{op.name}: halo sizes and shard offsets are mutually exclusive")
        split_dims = [d for d in split.axes if d]
        if halos and len(halos) != 2 * len(split_dims):
            raise IRError(
                f"{op.name}: halo sizes must be specified for all split dimensions "
                f"(2 values each: {2 * len(split_dims)}), got {len(halos)}"
            )
        if any(h < 0 for h in halos):
            raise IRError(f"{op.name}: halo sizes must be non-negative")
        if offsets:
            if any(shape[a] == DYNAMIC for d in split_dims for a in d):
                raise IRError(f"{op.name}: shard offsets need static grid axis sizes")
            need = sum(math.prod(shape[a] for a in d) + 1 for d in split_dims)
            if len(offsets) != need:
                raise IRError(
                    f"{op.name}: sharded_dims_offsets needs {need} values (the shard starts of "
                    f"each split dimension plus its end), got {len(offsets)}"
                )
            for dim_offsets in split_offsets(split.axes, offsets, shape):
                if any(b < a for a, b in pairwise(dim_offsets)):
                    raise IRError(f"{op.name}: sharded_dims_offsets must be non-decreasing")

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [None]


_SHARDING_ATTRS = ("grid", "split_axes", "static_halo_sizes", "static_sharded_dims_offsets")


def static_values(op: Op, key: str) -> tuple[int, ...]:
    """The integers of `op`'s dense array attribute `key` (none when absent)."""
    value = op.attributes.get(key)
    return tuple(value.values) if isinstance(value, DenseArrayAttr) else ()


def split_offsets(split_axes, offsets, shape) -> list[tuple[int, ...]]:
    """The flat `sharded_dims_offsets` cut into one tuple per split dim."""
    out, i = [], 0
    for dim in (d for d in split_axes if d):
        n = math.prod(shape[a] for a in dim) + 1
        out.append(tuple(offsets[i : i + n]))
        i += n
    return out


class ShardOp(OpDef):
    """`shard.shard %x to %sharding [annotate_for_users] : tensor<...>`."""

    traits = frozenset({GRID_ANNOTATION})

    def parse(self, p, name: str) -> Op:
        src = p.operand()
        p.expect("to", "'to' and the sharding")
        sharding = p.operand()
        attrs: dict[str, Any] = {}
        if p.accept("annotate_for_users"):
            attrs["annotate_for_users"] = UNIT
        attrs = p.merge_attr_dict(attrs)
        p.expect(":", "':' and the tensor type")
        t = p.type()
        p.check_operand_types([src], [t], p.pos)
        return mark_inherent(p.make_op(name, [src, sharding], [t], attrs), ("annotate_for_users",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(" to ")
        w.operand(op.operands[1])
        if "annotate_for_users" in op.attributes:
            w.write(" annotate_for_users")
        w.attr_dict(op, ("annotate_for_users",))
        w.write(f" : {op.result_types[0]}")

    def infer_types(self, op: Op) -> list[Type] | None:
        return [op.operands[0].type] if op.operands else None

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["sharding_annotated"]

    def verify(self, op: Op) -> None:
        if len(op.operands) != 2 or op.result_types != [op.operands[0].type]:
            raise IRError(f"{op.name}: takes a tensor and a sharding; returns the tensor's type")
        sharding = op.operands[1].op
        if sharding is None or sharding.name != "shard.sharding":
            raise IRError(f"{op.name}: the sharding must come from a shard.sharding op")
        rank = len(op.result_types[0].shape)
        if len(sharding.attributes["split_axes"].axes) > rank:
            raise IRError(
                f"{op.name}: split_axes {sharding.attributes['split_axes']} split more "
                f"dimensions than the tensor's {rank}"
            )

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [args[0]]


# -- device queries ----------------------------------------------------------------------


class ShardShapeOp(OpDef):
    """`shard.shard_shape dims = [4, 6] sharding = %s device = [0, 1] : index, index`:
    the shape of that device's shard (uneven shards: the dialect's offsets, else
    `ceil(dim / shards)` trimmed at the end, as `shardonnay.layout` cuts them)."""

    def parse(self, p, name: str) -> Op:
        p.expect("dims", "'dims'")
        p.expect("=", "'=' after 'dims'")
        dims = read_int_list(p, "a dimension size")
        p.expect("sharding", "'sharding'")
        p.expect("=", "'=' after 'sharding'")
        sharding = p.operand()
        p.expect("device", "'device'")
        p.expect("=", "'=' after 'device'")
        device = read_int_list(p, "a grid coordinate")
        attrs = p.merge_attr_dict({"dims": i64s(dims), "device": i64s(device)})
        p.expect(":", "':' and the result types")
        types = p.types()
        return mark_inherent(p.make_op(name, [sharding], types, attrs), ("dims", "device"))

    def print(self, op: Op, w) -> None:
        w.write(f" dims = {int_list_str(op.attributes['dims'].values)} sharding = ")
        w.operand(op.operands[0])
        w.write(f" device = {int_list_str(op.attributes['device'].values)}")
        w.attr_dict(op, ("dims", "device"))
        w.write(" : ")
        w.types(op.result_types)

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["shard_shape"]

    def verify(self, op: Op) -> None:
        if len(op.result_types) != len(op.attributes["dims"].values):
            raise IRError(f"{op.name}: one result per dimension")

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [_index(n) for n in shard_shape(op)]


def shard_shape(op: Op) -> tuple[int, ...]:
    """The shape of the shard that `shard.shard_shape` asks about."""
    sharding = op.operands[0].op
    if sharding is None or sharding.name != "shard.sharding":
        raise IRError(f"{op.name}: the sharding must come from a shard.sharding op")
    dims = tuple(op.attributes["dims"].values)
    return local_shape_of(sharding, dims, tuple(op.attributes["device"].values))


def local_shape_of(sharding_op: Op, dims: Sequence[int], coords: Sequence[int]) -> tuple[int, ...]:
    """The shape of the shard of the device at grid `coords` (`shard.shard_shape`):
    its part of each dim (explicit offsets, else `shardonnay.layout`'s cut) plus halos.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> m = parse_module('''
    ... shard.grid @g(shape = 4)
    ... func.func @f() -> () {
    ...   %s = shard.sharding @g split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14]
    ...       : !shard.sharding
    ...   %h = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 2] : !shard.sharding
    ...   return
    ... }''')
    >>> offsets, halos = m.function("f").body.ops[:2]
    >>> [local_shape_of(offsets, (4, 14), (d,)) for d in range(4)]
    [(4, 2), (4, 3), (4, 4), (4, 5)]
    >>> local_shape_of(halos, (8, 3), (1,))
    (5, 3)
    """
    shape = grid_shape(grid_of(sharding_op))
    if DYNAMIC in shape:
        raise ShardingError("shard shapes on grids with '?' sizes are not static")
    mesh = grid_mesh(shape)
    split = sharding_op.attributes["split_axes"].axes
    offsets = static_values(sharding_op, "static_sharded_dims_offsets")
    halos = static_values(sharding_op, "static_halo_sizes")
    plain = split_axes_to_sharding(split, mesh, rank=len(dims))
    device = mesh.device_at(coords)
    out = [s.stop - s.start for s in device_slices(tuple(dims), plain, mesh)[device]]
    split_dims = [d for d, axes in enumerate(split) if axes]
    for k, dim in enumerate(split_dims):
        if offsets:
            index = 0
            for a in split[dim]:
                index = index * shape[a] + coords[a]
            given = split_offsets(split, offsets, shape)[k]
            out[dim] = given[index + 1] - given[index]
        if halos:
            out[dim] += halos[2 * k] + halos[2 * k + 1]
    return tuple(out)


class ProcessIndexOp(OpDef):
    """`shard.process_linear_index on @grid : index`,
    `shard.process_multi_index on @grid [axes = [..]] : index, ...` and
    `shard.grid_shape @grid [axes = [..]] : index, ...`."""

    pure = False

    def parse(self, p, name: str) -> Op:
        if name != "shard.grid_shape":
            p.expect("on", "'on' and the grid")
        attrs: dict[str, Any] = {"grid": read_grid_ref(p)}
        if name != "shard.process_linear_index" and p.accept("axes"):
            p.expect("=", "'=' after 'axes'")
            attrs["axes"] = i16s(read_int_list(p, "a grid axis"))
        attrs = p.merge_attr_dict(attrs)
        p.expect(":", "':' and the result types")
        types = p.types()
        return mark_inherent(p.make_op(name, [], types, attrs), ("grid", "axes"))

    def print(self, op: Op, w) -> None:
        w.write(" on " if op.name != "shard.grid_shape" else " ")
        w.write(str(op.attributes["grid"]))
        if op.attributes.get("axes") is not None and op.attributes["axes"].values:
            w.write(f" axes = {int_list_str(op.attributes['axes'].values)}")
        w.attr_dict(op, ("grid", "axes"))
        w.write(" : ")
        w.types(op.result_types)

    def result_names(self, op: Op) -> list[str | None] | None:
        return None if op.name == "shard.grid_shape" else ["proc_linear_idx"]

    def verify(self, op: Op) -> None:
        shape = grid_shape(grid_of(op))
        axes = query_axes(op, shape)
        check_grid_axes(op, axes, shape, "axis")
        count = 1 if op.name == "shard.process_linear_index" else len(axes)
        if len(op.result_types) != count or any(t != INDEX for t in op.result_types):
            raise IRError(f"{op.name}: returns {count} index value(s)")

    def evaluate(self, op: Op, args: list, interp) -> list:
        if op.name == "shard.grid_shape":
            shape = grid_shape(grid_of(op))
            return [_index(shape[a]) for a in query_axes(op, shape)]
        device = getattr(interp, "grid_coords", None)
        if device is None:
            raise UnsupportedOpError(
                f"{op.name}: the global program runs on no device (shardonnay.runtime.grid "
                "runs a program on every device of its grid)"
            )
        if len(device) != len(grid_shape(grid_of(op))):
            raise IRError(f"{op.name}: asks about a grid other than the one the program runs on")
        return [_index(v) for v in device_query(op, device)]


def query_axes(op: Op, shape: tuple[int, ...]) -> tuple[int, ...]:
    axes = op.attributes.get("axes")
    if axes is None or not axes.values:
        return tuple(range(len(shape)))
    return tuple(axes.values)


def device_query(op: Op, coords: tuple[int, ...]) -> tuple[int, ...]:
    """What `process_linear_index` / `process_multi_index` give on the device at
    grid coordinates `coords`.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> m = parse_module('''
    ... shard.grid @g(shape = 10x20x30)
    ... func.func @f() -> index {
    ...   %i = shard.process_linear_index on @g : index
    ...   %m:2 = shard.process_multi_index on @g axes = [2, 0] : index, index
    ...   return %i : index
    ... }''')
    >>> linear, multi = m.function("f").body.ops[:2]
    >>> device_query(linear, (1, 2, 3)), device_query(multi, (1, 2, 3))
    ((663,), (3, 1))
    """
    shape = grid_shape(grid_of(op))
    if op.name == "shard.process_linear_index":
        linear = 0
        for c, n in zip(coords, shape, strict=True):
            linear = linear * n + c
        return (linear,)
    return tuple(coords[a] for a in query_axes(op, shape))


class NeighborsOp(OpDef):
    """`%down, %up = shard.neighbors_linear_indices on @grid[%i, %j] split_axes = [1]
    : index, index`: the linear indices of the devices just before and after the given
    device along `split_axes` (read as one mixed-radix axis), -1 where there is none."""

    def parse(self, p, name: str) -> Op:
        p.expect("on", "'on' and the grid")
        attrs: dict[str, Any] = {"grid": read_grid_ref(p)}
        p.expect("[", "'[' and the device's grid coordinates")
        device = p.operands_until("]")
        p.expect("]", "']' after the device's grid coordinates")
        p.expect("split_axes", "'split_axes'")
        p.expect("=", "'=' after 'split_axes'")
        attrs["split_axes"] = i16s(read_int_list(p, "a grid axis"))
        attrs = p.merge_attr_dict(attrs)
        p.expect(":", "':' and the result types")
        types = p.types()
        return mark_inherent(p.make_op(name, device, types, attrs), ("grid", "split_axes"))

    def print(self, op: Op, w) -> None:
        w.write(f" on {op.attributes['grid']}[")
        w.operands(op.operands)
        w.write(f"] split_axes = {int_list_str(op.attributes['split_axes'].values)}")
        w.attr_dict(op, ("grid", "split_axes"))
        w.write(" : ")
        w.types(op.result_types)

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["down_linear_idx", "up_linear_idx"]

    def verify(self, op: Op) -> None:
        shape = grid_shape(grid_of(op))
        check_grid_axes(op, op.attributes["split_axes"].values, shape, "split axis")
        if len(op.operands) != len(shape) or len(op.result_types) != 2:
            raise IRError(f"{op.name}: takes one index per grid axis and returns two")

    def evaluate(self, op: Op, args: list, interp) -> list:
        coords = tuple(int(a) for a in args)
        return [_index(v) for v in neighbors(grid_shape(grid_of(op)), coords, self._axes(op))]

    @staticmethod
    def _axes(op: Op) -> tuple[int, ...]:
        return tuple(op.attributes["split_axes"].values)


def neighbors(shape, coords, axes) -> tuple[int, int]:
    """The linear indices of the neighbors of the device at `coords` along `axes`.

    >>> neighbors((10, 20, 30), (1, 2, 3), (1,))
    (633, 693)
    >>> neighbors((10, 20, 30), (1, 19, 3), (1,))
    (1143, -1)
    """
    sizes = [shape[a] for a in axes]
    position = 0
    for a, n in zip(axes, sizes, strict=True):
        position = position * n + coords[a]
    out = []
    for step in (-1, 1):
        target = position + step
        if not 0 <= target < math.prod(sizes):
            out.append(-1)
            continue
        moved = list(coords)
        for a, n in reversed(list(zip(axes, sizes, strict=True))):
            moved[a], target = target % n, target // n
        linear = 0
        for c, n in zip(moved, shape, strict=True):
            linear = linear * n + c
        out.append(linear)
    return out[0], out[1]


class GetShardingOp(OpDef):
    """`%s = shard.get_sharding %t : tensor<4x8xf32> -> !shard.sharding`: the sharding a
    tensor has, known only once shardings are decided (no value on its own)."""

    def parse(self, p, name: str) -> Op:
        source = p.operand()
        attrs = p.optional_attr_dict()
        p.expect(":", "':' and the types")
        t = p.type()
        p.check_operand_types([source], [t], p.pos)
        p.expect("->", "'->' and !shard.sharding")
        return p.make_op(name, [source], [p.type()], attrs)

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.attr_dict(op)
        w.write(f" : {op.operands[0].type} -> {op.result_types[0]}")

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["sharding"]

    def infer_types(self, op: Op) -> list[Type] | None:
        return [SHARDING_TYPE]

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [None]  # a sharding, which only shard.shard and shard_shape read


def _index(value: int):
    return np.array(value, np.int64)


register("shard.grid", GridOp())
register("shard.sharding", ShardingOp())
register("shard.shard", ShardOp())
register("shard.shard_shape", ShardShapeOp())
register("shard.process_linear_index", ProcessIndexOp())
register("shard.process_multi_index", ProcessIndexOp())
register("shard.grid_shape", ProcessIndexOp())
register("shard.neighbors_linear_indices", NeighborsOp())
register("shard.get_sharding", GetShardingOp())
