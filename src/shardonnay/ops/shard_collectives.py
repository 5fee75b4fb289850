"""The MLIR `shard` dialect's collectives: syntax, verifier and per-device numpy semantics.

    %1 = shard.all_gather %0 on @grid grid_axes = [1] gather_axis = 1
        : tensor<2x2xi8> -> tensor<2x4xi8>
    %2 = shard.all_reduce %0 on @grid grid_axes = [1, 0] reduction = <max>
        : tensor<3x4xf32> -> tensor<3x4xf64>
    %3 = shard.all_to_all %0 on @grid grid_axes = [0] split_axis = 0 concat_axis = 0
        : tensor<3x2xi8> -> tensor<3x2xi8>
    %4 = shard.broadcast %0 on @grid grid_axes = [0] root = [0]
        : (tensor<2xi8>) -> tensor<2xi8>
    %5 = shard.shift %0 on @grid grid_axes = [1] shift_axis = 1 offset = 2 rotate
        : tensor<2xi8> -> tensor<2xi8>

and `all_slice`, `gather`, `recv`, `reduce`, `reduce_scatter`, `scatter`,
`send` in the same style (`shard.update_halo` too). A collective runs within
*groups*: the devices whose grid coordinates agree outside `grid_axes` (all
axes when none are given). A device's *in-group index* is its coordinates
along `grid_axes`, read as one mixed-radix number in the order listed; `root`,
`source` and `destination` are in-group multi-indices.

`exchange(op, shape, buffers)` is the semantics: given every device's input
(keyed by grid coordinates) it returns every device's result, with `None`
where the dialect leaves a result undefined (non-root devices of `gather` and
`reduce`, devices a non-rotating `shift` sends nothing to). A whole
per-device program runs with `shardonnay.runtime.grid.run_grid`.

>>> import numpy as np
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... shard.grid @grid(shape = 2x2)
... func.func @f(%arg0: tensor<2x2xi8>) -> tensor<2x4xi8> {
...   %1 = shard.all_gather %arg0 on @grid grid_axes = [1] gather_axis = 1
...     : tensor<2x2xi8> -> tensor<2x4xi8>
...   return %1 : tensor<2x4xi8>
... }''')
>>> op = m.function("f").body.ops[0]
>>> buffers = {(0, 0): [[1, 2], [3, 4]], (0, 1): [[5, 6], [7, 8]],
...            (1, 0): [[9, 10], [11, 12]], (1, 1): [[13, 14], [15, 16]]}
>>> out = exchange(op, (2, 2), {c: np.array(b) for c, b in buffers.items()})
>>> out[(0, 1)].tolist()
[[1, 2, 5, 6], [3, 4, 7, 8]]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from shardonnay.errors import IRError, UnsupportedOpError
from shardonnay.ir.attributes import UNIT, EnumAttr, IntegerAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType, Type, numpy_dtype
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.shard_dialect import (
    check_grid_axes,
    grid_of,
    grid_shape,
    i16s,
    i64s,
    int_list_str,
    read_grid_ref,
    read_int_list,
    read_split_axes_and_halos,
    write_split_axes_and_halos,
)

Coords = tuple[int, ...]
REDUCTIONS = ("sum", "max", "min", "product", "average", "bitwise_and", "bitwise_or", "bitwise_xor")

# Per op: its fields after `grid_axes`, in order: (keyword, kind, optional); and whether the
# types print as `(input) -> result` (functional) or `input -> result`.
_FIELDS: dict[str, tuple[tuple[tuple[str, str, bool], ...], bool]] = {
    "all_gather": ((("gather_axis", "index", False),), False),
    "all_reduce": ((("reduction", "reduction", True),), False),
    "all_slice": ((("slice_axis", "index", False),), False),
    "all_to_all": ((("split_axis", "index", False), ("concat_axis", "index", False)), False),
    "broadcast": ((("root", "list", False),), True),
    "gather": ((("gather_axis", "index", False), ("root", "list", False)), True),
    "recv": ((("source", "list", True),), True),
    "reduce": ((("reduction", "reduction", True), ("root", "list", False)), True),
    "reduce_scatter": ((("reduction", "reduction", True), ("scatter_axis", "index", False)), False),
    "scatter": ((("scatter_axis", "index", False), ("root", "list", False)), True),
    "send": ((("destination", "list", False),), True),
    "shift": (
        (("shift_axis", "index", False), ("offset", "i64", False), ("rotate", "unit", True)),
        False,
    ),
}


class CollectiveOp(OpDef):
    """Facets of the dialect's collectives; see the module docstring."""

    def __init__(self, short: str):
        self.short = short
        self.fields, self.functional = _FIELDS[short]
        self.pure = short not in ("send", "recv")

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect("on", "'on' and the grid")
        attrs: dict[str, Any] = {"grid": read_grid_ref(p)}
        if p.accept("grid_axes"):
            p.expect("=", "'=' after 'grid_axes'")
            attrs["grid_axes"] = i16s(read_int_list(p, "a grid axis"))
        for key, kind, optional in self.fields:
            if not p.accept(key):
                if optional:
                    continue
                raise p.error(f"expected '{key}'")
            if kind == "unit":
                attrs[key] = UNIT
                continue
            p.expect("=", f"'=' after '{key}'")
            if kind == "index":
                attrs[key] = IntegerAttr(p.integer(f"a {key}"), "index")
            elif kind == "i64":
                p.skip_space()
                attrs[key] = IntegerAttr(p.integer(f"a {key}"), "i64")
            elif kind == "list":
                attrs[key] = i64s(read_int_list(p, "an in-group index"))
            else:
                p.expect("<", "'<' and a reduction kind")
                start = p.pos
                kind_name = p.identifier("a reduction kind")
                if kind_name not in REDUCTIONS:
                    raise p.error(f"unknown reduction '{kind_name}'", start)
                p.expect(">", "'>' after the reduction kind")
                attrs[key] = EnumAttr("shard", "partial", kind_name)
        attrs = p.merge_attr_dict(attrs)
        p.expect(":", "':' and the types")
        if self.functional:
            ftype = p.functional_type()
            p.check_operand_types([operand], ftype.inputs, p.pos)
            results = list(ftype.results)
        else:
            t = p.type()
            p.check_operand_types([operand], [t], p.pos)
            p.expect("->", "'->' and the result type")
            results = [p.type()]
        keys = ("grid", "grid_axes", *(k for k, _, _ in self.fields))
        return mark_inherent(p.make_op(name, [operand], results, attrs), keys)

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f" on {op.attributes['grid']}")
        axes = op.attributes.get("grid_axes")
        if axes is not None and axes.values:
            w.write(f" grid_axes = {int_list_str(axes.values)}")
        for key, kind, _ in self.fields:
            value = op.attributes.get(key)
            if value is None:
                continue
            if kind == "unit":
                w.write(f" {key}")
            elif kind in ("index", "i64"):
                w.write(f" {key} = {value.value}")
            elif kind == "list":
                w.write(f" {key} = {int_list_str(value.values)}")
            elif value.value != "sum":
                w.write(f" {key} = <{value.value}>")
        w.attr_dict(op, ("grid", "grid_axes", *(k for k, _, _ in self.fields)))
        w.write(" : ")
        if self.functional:
            w.functional_type(op)
        else:
            w.write(f"{op.operands[0].type} -> {op.result_types[0]}")

    def verify(self, op: Op) -> None:
        shape = grid_shape(grid_of(op))
        axes = group_axes(op, shape)
        check_grid_axes(op, axes, shape)
        t, r = op.operands[0].type, op.result_types[0]
        if not isinstance(t, TensorType) or not isinstance(r, TensorType):
            raise IRError(f"{op.name}: takes and returns ranked tensors")
        size = math.prod(shape[a] for a in axes)
        expected = self.infer_result_shape(op, t.shape, size, [shape[a] for a in axes])
        if expected is not None and tuple(r.shape) != expected:
            raise IRError(
                f"{op.name}: the result shape must be {'x'.join(map(str, expected))} for "
                f"input {t} over {size} devices, got {r}"
            )
        for key in ("root", "source", "destination"):
            value = op.attributes.get(key)
            if value is not None and len(value.values) != len(axes):
                raise IRError(f"{op.name}: {key} needs one in-group index per grid axis")
            if value is not None and any(
                not 0 <= v < shape[a] for v, a in zip(value.values, axes, strict=True)
            ):
                raise IRError(f"{op.name}: {key} {int_list_str(value.values)} is outside the group")
        if "shift_axis" in op.attributes and _int(op, "shift_axis") not in axes:
            raise IRError(f"{op.name}: shift_axis must be one of the grid_axes")

    def infer_result_shape(self, op: Op, shape, size: int, sizes) -> tuple[int, ...] | None:
        shape = list(shape)
        if self.short == "all_gather":
            shape[_int(op, "gather_axis")] *= size
        elif self.short in ("all_slice", "reduce_scatter", "scatter"):
            axis = _int(op, {"all_slice": "slice_axis"}.get(self.short, "scatter_axis"))
            if shape[axis] % size:
                raise IRError(f"{op.name}: dimension {axis} ({shape[axis]}) must divide by {size}")
            shape[axis] //= size
        elif self.short == "all_to_all":
            split, concat = _int(op, "split_axis"), _int(op, "concat_axis")
            if shape[split] % size:
                raise IRError(f"{op.name}: split dimension {split} must divide by {size}")
            shape[split] //= size
            shape[concat] *= size
        elif self.short == "gather":
            shape[_int(op, "gather_axis")] *= size
        return tuple(shape)

    def infer_types(self, op: Op) -> list[Type] | None:
        return None

    def result_names(self, op: Op) -> list[str | None] | None:
        return [self.short]  # as MLIR's printer names them

    def evaluate(self, op: Op, args: list, interp) -> list:
        """Only a device of the grid runs it (`shardonnay.runtime.grid.run_grid`)."""
        return interp.collective(op, args)


def _int(op: Op, key: str) -> int:
    return int(op.attributes[key].value)


def group_axes(op: Op, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The op's `grid_axes` (all axes when empty)."""
    axes = op.attributes.get("grid_axes")
    if axes is None or not axes.values:
        return tuple(range(len(shape)))
    return tuple(axes.values)


def groups(shape: tuple[int, ...], axes: tuple[int, ...]) -> list[list[Coords]]:
    """Devices grouped by their coordinates outside `axes`, each group in in-group order.

    >>> groups((2, 3), (0,))
    [[(0, 0), (1, 0)], [(0, 1), (1, 1)], [(0, 2), (1, 2)]]
    """
    by_key: dict[Coords, list[Coords]] = {}
    for coords in np.ndindex(*shape):
        key = tuple(c for a, c in enumerate(coords) if a not in axes)
        by_key.setdefault(key, []).append(tuple(coords))
    return [sorted(members, key=lambda c: tuple(c[a] for a in axes)) for members in by_key.values()]


def _in_group(member: Coords, axes, shape) -> Coords:
    return tuple(member[a] for a in axes)


def _position(index, axes, shape) -> int:
    linear = 0
    for i, a in zip(index, axes, strict=True):
        linear = linear * shape[a] + i
    return linear


_COMBINE = {
    "sum": np.add,
    "max": np.maximum,
    "min": np.minimum,
    "product": np.multiply,
    "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
}


def _reduce(op: Op, arrays: list[np.ndarray], dtype) -> np.ndarray:
    kind = op.attributes.get("reduction")
    kind = "sum" if kind is None else kind.value
    values = [np.asarray(a).astype(dtype) for a in arrays]
    if kind == "average":
        return (sum(values[1:], values[0]) / len(values)).astype(dtype)
    out = values[0]
    for v in values[1:]:
        out = _COMBINE[kind](out, v)
    return out


def exchange(
    op: Op, shape: tuple[int, ...], buffers: Mapping[Coords, np.ndarray]
) -> dict[Coords, np.ndarray | None]:
    """Every device's result of collective `op` on a grid of `shape`, from every
    device's input (both keyed by grid coordinates); see the module docstring."""
    short = op.name.removeprefix("shard.")
    axes = group_axes(op, shape)
    result_type = op.result_types[0]
    dtype = numpy_dtype(result_type.element_type)
    out: dict[Coords, np.ndarray | None] = {}
    for members in groups(shape, axes):
        ins = [np.asarray(buffers[m]) for m in members]
        n = len(members)

        def root_position(key: str) -> int:
            return _position(op.attributes[key].values, axes, shape)

        if short == "all_gather":
            full = np.concatenate(ins, axis=_int(op, "gather_axis"))
            results: list = [full] * n
        elif short == "all_reduce":
            results = [_reduce(op, ins, dtype)] * n
        elif short == "all_slice":
            results = [np.split(x, n, axis=_int(op, "slice_axis"))[i] for i, x in enumerate(ins)]
        elif short == "all_to_all":
            split, concat = _int(op, "split_axis"), _int(op, "concat_axis")
            pieces = [np.split(x, n, axis=split) for x in ins]
            results = [np.concatenate([p[i] for p in pieces], axis=concat) for i in range(n)]
        elif short == "broadcast":
            results = [ins[root_position("root")]] * n
        elif short in ("gather", "reduce"):
            root = root_position("root")
            value = (
                np.concatenate(ins, axis=_int(op, "gather_axis"))
                if short == "gather"
                else _reduce(op, ins, dtype)
            )
            results = [value if i == root else None for i in range(n)]
        elif short == "reduce_scatter":
            total = _reduce(op, ins, dtype)
            results = np.split(total, n, axis=_int(op, "scatter_axis"))
        elif short == "scatter":
            results = np.split(ins[root_position("root")], n, axis=_int(op, "scatter_axis"))
        elif short == "shift":
            results = _shift(op, members, ins, axes, shape)
        else:  # send / recv pair up with each other; alone they have no defined result
            raise UnsupportedOpError(f"{op.name}: point-to-point ops are not simulated")
        for member, result in zip(members, results, strict=True):
            out[member] = None if result is None else np.asarray(result).astype(dtype)
    return out


def _shift(op: Op, members, ins, axes, shape) -> list:
    """Each device sends to the device `offset` further along `shift_axis`."""
    axis, offset = _int(op, "shift_axis"), _int(op, "offset")
    rotate = "rotate" in op.attributes
    by_coords = dict(zip(members, ins, strict=True))
    results = []
    for member in members:
        source = list(member)
        source[axis] = member[axis] - offset
        if rotate:
            source[axis] %= shape[axis]
        results.append(by_coords.get(tuple(source)) if 0 <= source[axis] < shape[axis] else None)
    return results


class UpdateHaloOp(OpDef):
    """`shard.update_halo %dest on @grid split_axes = [[0]] halo_sizes = [1, 1] : t`."""

    def parse(self, p, name: str) -> Op:
        dest = p.operand()
        p.expect("on", "'on' and the grid")
        attrs: dict[str, Any] = {"grid": read_grid_ref(p)}
        read_split_axes_and_halos(p, attrs)
        attrs = p.merge_attr_dict(attrs)
        p.expect(":", "':' and the type")
        t = p.type()
        p.check_operand_types([dest], [t], p.pos)
        keys = ("grid", "split_axes", "static_halo_sizes")
        return mark_inherent(p.make_op(name, [dest], [t], attrs), keys)

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f" on {op.attributes['grid']}")
        write_split_axes_and_halos(op, w)
        w.attr_dict(op, ("grid", "split_axes", "static_halo_sizes"))
        w.write(f" : {op.result_types[0]}")

    def verify(self, op: Op) -> None:
        shape = grid_shape(grid_of(op))
        split = op.attributes["split_axes"].axes
        check_grid_axes(op, [a for d in split for a in d], shape, "split axis")
        if op.result_types != [op.operands[0].type]:
            raise IRError(f"{op.name}: the result has the destination's type")

    def evaluate(self, op: Op, args: list, interp) -> list:
        raise UnsupportedOpError(f"{op.name}: halo exchange runs per device; it is not simulated")


for _short in _FIELDS:
    register(f"shard.{_short}", CollectiveOp(_short))
register("shard.update_halo", UpdateHaloOp())
