"""What the conversion to per-device programs knows and emits as it goes.

`LocalContext` holds the sharding of every value of the global program, the
one mesh the program lives on, the next free channel id, and a `Builder`
placing the local program's ops. Its helpers emit the small patterns every
local lowering needs, as Shardy's `sdy-convert-global-to-local` writes them:

- `dimension_offset(axes, size)`: where this device's shard of a dim sharded
  by `axes` starts, read from a table indexed by `partition_id`::

      %0 = stablehlo.partition_id : tensor<ui32>
      %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>
      %c = stablehlo.constant dense<[0, 0, 0, 0, 8, 8, 8, 8]> : tensor<8xi64>
      %2 = stablehlo.dynamic_slice %c, %1, sizes = [1] : (...) -> tensor<1xi64>
      %3 = stablehlo.reshape %2 : (tensor<1xi64>) -> tensor<i64>

- `dynamic_slice_for_axes(x, axes_per_dim, type)`: this device's slice of a
  tensor every device holds whole along the dims to slice.

Shard indices follow `shardonnay.layout`: the mixed-radix number of a
device's coordinates along the axes, the first axis most significant. A dim
that its shards do not divide holds `ceil(size / shards)` slots per device,
the slots past its end padding of undefined contents (`valid_mask`,
`masked` hide them where they would reach a result); a value whose devices
hold terms of a pending reduction is `Partial`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.errors import PartitionError
from shardonnay.ir.attributes import (
    DenseArrayAttr,
    DenseElementsAttr,
    EnumAttr,
    IntegerAttr,
    StructAttr,
)
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Block, Op, Region, Value
from shardonnay.ir.element_values import poison
from shardonnay.ir.types import TensorType, Type
from shardonnay.mesh import Mesh
from shardonnay.sharding import TensorSharding

I64 = "i64"
SCALAR_I64 = TensorType((), I64)


def partition_error(op: Op, why: str) -> PartitionError:
    """`PartitionError("stablehlo.slice at loc(...): why")`."""
    where = f" at {op.location}" if op.location else ""
    return PartitionError(f"{op.name}{where}: {why}")


def axes_index(device: int, axes: Sequence[AxisRef], mesh: Mesh) -> int:
    """Device `device`'s shard index along `axes` (mixed radix, first axis major).

    >>> mesh = Mesh({"x": 2, "y": 4})
    >>> [axes_index(d, [AxisRef("y"), AxisRef("x")], mesh) for d in (0, 4, 1)]
    [0, 1, 2]
    """
    coords = mesh.coords_of(device)
    index = 0
    for axis in axes:
        coordinate = axis.coordinate(coords[mesh.axis_index(axis.name)], mesh)
        index = index * axis.size(mesh) + coordinate
    return index


def axes_size(axes: Sequence[AxisRef], mesh: Mesh) -> int:
    """The number of shards along `axes`: the product of their sizes."""
    return math.prod(a.size(mesh) for a in axes)


def offset_table(
    axes: Sequence[AxisRef], mesh: Mesh, shard_size: int, num_devices: int | None = None
) -> list[int]:
    """Per device id, where its shard of a dim sharded by `axes` starts (0 for
    the devices of a larger program that are not in `mesh`)."""
    count = mesh.size if num_devices is None else max(num_devices, mesh.size)
    members = set(mesh.device_list)
    return [axes_index(d, axes, mesh) * shard_size if d in members else 0 for d in range(count)]


def local_size(size: int, axes: Sequence[AxisRef], mesh: Mesh) -> int:
    """The slots per device of a dim of `size` sharded by `axes`: `ceil(size / shards)`."""
    return -(-size // axes_size(axes, mesh))


def local_shape(
    shape: Sequence[int], axes_per_dim: Sequence[Sequence[AxisRef]], mesh: Mesh
) -> tuple[int, ...]:
    return tuple(local_size(n, a, mesh) for n, a in zip(shape, axes_per_dim, strict=True))


def is_uneven(size: int, axes: Sequence[AxisRef], mesh: Mesh) -> bool:
    """Whether the shards of a dim of `size` along `axes` end in padding.

    >>> is_uneven(6, [AxisRef("x")], Mesh({"x": 4})), is_uneven(8, [AxisRef("x")], Mesh({"x": 4}))
    (True, False)
    """
    return size % axes_size(axes, mesh) != 0


@dataclass(frozen=True)
class Partial:
    """A local value that holds, per device, one term of a pending reduction:
    combining (`kind`, e.g. `stablehlo.add`) the buffers of the devices that
    differ only along `axes` gives the value's shard."""

    axes: tuple[AxisRef, ...]
    kind: str
    mesh: Mesh


class LocalContext:
    """The state of one conversion; see the module docstring."""

    def __init__(
        self,
        builder: Builder,
        meshes: dict[str, Mesh],
        mesh: Mesh,
        shardings: dict[Value, TensorSharding],
        next_channel: int,
    ):
        self.builder = builder
        self.meshes = meshes
        self.mesh = mesh  # the mesh of the op being converted
        self.shardings = shardings
        self.next_channel = next_channel
        self.num_devices = mesh.size  # the devices running the program (the largest mesh's)
        self.partial: dict[Value, Partial] = {}  # global values whose local ones are partial
        self.poison_padding = False  # fill padding slots with NaN / a sentinel, not 0
        # how collectives over several dims are written (`convert_global_to_local`'s options)
        self.per_dim_all_gather = False
        self.combine_multi_dimension_reduce_scatter = False
        # with enable-rgv3: the replica groups made along mesh axes, by the id of
        # their attribute -> (the attribute, its mesh, the axes); see `groups_attr`
        self.groups_along: dict[int, tuple[DenseElementsAttr, Mesh, tuple[AxisRef, ...]]] | None
        self.groups_along = None
        self.encoded: dict[tuple, DenseElementsAttr] = {}  # constants' attributes by content
        self._axes: dict[TensorSharding, tuple[tuple[AxisRef, ...], ...]] = {}  # see `axes_of`
        # the same by the sharding object (kept, so its id is not reused): values share
        # a few sharding objects, each looked up without hashing its fields
        self._axes_of_object: dict[int, tuple[TensorSharding, tuple]] = {}
        # `local_type_for` by the ids of the type and sharding objects (kept, so that
        # their ids are not reused): values share a few of each
        self._local_types: dict[tuple[int, int], tuple[TensorType, TensorSharding, Type]] = {}
        self._local_types_alike: dict[tuple[TensorType, TensorSharding], Type] = {}  # by equality
        # `split_mesh` by the id of the sharding object (kept, so its id is not reused)
        self.split_meshes: dict[int, tuple[TensorSharding, Mesh | None]] = {}
        # `local.factors.plan_factors`' plans by what they depend on
        self.plans: dict[tuple, Any] = {}

    # -- shardings and local types ------------------------------------------------------------

    def sharding(self, value: Value) -> TensorSharding | None:
        """The sharding of a value of the global program (None: replicated)."""
        return self.shardings.get(value)

    def sharded_axes(self, value: Value) -> list[tuple[AxisRef, ...]]:
        """Per dim, the axes (of size > 1) sharding `value` (all empty when replicated)."""
        rank = len(value.type.shape) if isinstance(value.type, TensorType) else 0
        return self.axes_of(self.sharding(value), rank)

    def axes_of(self, sharding: TensorSharding | None, rank: int) -> list[tuple[AxisRef, ...]]:
        """Per dim, the axes (of size > 1) of `sharding` (all empty for None):
        worked out once per sharding on a known mesh (a program repeats a few
        shardings on thousands of values)."""
        if sharding is None or not sharding.dims:
            return [()] * rank
        seen = self._axes_of_object.get(id(sharding))
        if seen is not None and seen[0] is sharding:
            return list(seen[1])
        known = isinstance(sharding.mesh, Mesh) or sharding.mesh in self.meshes
        axes = self._axes.get(sharding) if known else None
        if axes is None:
            mesh = self.mesh_of_sharding(sharding)
            axes = tuple(tuple(a for a in d.axes if a.size(mesh) > 1) for d in sharding.dims)
            if known:
                self._axes[sharding] = axes
        if known:
            self._axes_of_object[id(sharding)] = (sharding, axes)
        return list(axes)

    def mesh_of_sharding(self, sharding: TensorSharding | None) -> Mesh:
        if sharding is None:
            return self.mesh
        if isinstance(sharding.mesh, Mesh):
            return sharding.mesh
        return self.meshes.get(sharding.mesh, self.mesh)

    def mesh_of(self, value: Value) -> Mesh:
        """The mesh `value` is sharded on (the current one when it is replicated)."""
        sharding = self.shardings.get(value)
        if sharding is None:
            return self.mesh
        mesh = self.split_mesh(sharding)
        return self.mesh if mesh is None else mesh

    def split_mesh(self, sharding: TensorSharding) -> Mesh | None:
        """The mesh of `sharding` where it shards some dim (along axes of size
        > 1), else None; worked out once per sharding object on a known mesh."""
        seen = self.split_meshes.get(id(sharding))
        if seen is not None and seen[0] is sharding:
            return seen[1]
        mesh = None
        if any(self.axes_of(sharding, len(sharding.dims))):
            mesh = self.mesh_of_sharding(sharding)
        if isinstance(sharding.mesh, Mesh) or sharding.mesh in self.meshes:
            self.split_meshes[id(sharding)] = (sharding, mesh)
        return mesh

    def is_replicated(self, value: Value) -> bool:
        return not any(self.sharded_axes(value))

    def local_type(self, value: Value, where: Op) -> Type:
        """The per-device type of global value `value` (defined at `where`)."""
        return self.local_type_for(value.type, self.sharding(value), where)

    def local_type_for(self, t: Type, sharding: TensorSharding | None, where: Op) -> Type:
        """The per-device type of a global `t` sharded by `sharding`: every
        sharded dim holds `ceil(size / shards)` slots (`layout.local_shape`);
        slots past the end of the dim are padding, whose contents are not
        defined (ops that could read them mask them first)."""
        if not isinstance(t, TensorType) or sharding is None or not sharding.dims:
            return t
        seen = self._local_types.get((id(t), id(sharding)))
        if seen is not None and seen[0] is t and seen[1] is sharding:
            return seen[2]
        known = isinstance(sharding.mesh, Mesh) or sharding.mesh in self.meshes  # (else: `mesh`'s)
        local = self._local_types_alike.get((t, sharding)) if known else None
        if local is None:
            axes_per_dim = self.axes_of(sharding, len(t.shape))
            mesh = self.mesh_of_sharding(sharding)
            local = t.with_shape(local_shape(t.shape, axes_per_dim, mesh))
            if known:
                self._local_types_alike[(t, sharding)] = local
        if known:
            self._local_types[(id(t), id(sharding))] = (t, sharding, local)
        return local

    def local_shape_of(self, value: Value, where: Op) -> tuple[int, ...]:
        t = self.local_type(value, where)
        return t.shape if isinstance(t, TensorType) else ()

    # -- emitting ops ---------------------------------------------------------------------------

    def op(
        self,
        name: str,
        operands: Sequence[Value],
        result_types: Sequence[Type],
        attributes: dict[str, Any] | None = None,
        regions: Sequence[Region] = (),
        location: str | None = None,
    ) -> Op:
        return self.builder.create(
            name,
            operands,
            attributes=attributes,
            result_types=result_types,
            regions=regions,
            location=location,
        )

    def value(self, name: str, operands, result_type: Type, attributes=None) -> Value:
        return self.op(name, operands, [result_type], attributes).results[0]

    def channel_handle(self) -> StructAttr:
        handle = self.next_channel
        self.next_channel += 1
        return StructAttr("stablehlo.channel_handle", (("handle", handle), ("type", 1)))

    def constant(self, array, type: TensorType) -> Value:
        array = np.asarray(array)
        # the same tables (offsets per device) come again and again: their
        # attributes, which are values, are encoded once
        key = (type, array.dtype.str, array.shape, array.tobytes())
        attr = self.encoded.get(key)
        if attr is None:
            attr = self.encoded[key] = DenseElementsAttr.from_numpy(array, type)
        return self.value("stablehlo.constant", [], type, {"value": attr})

    def i64(self, value: int) -> Value:
        return self.constant(np.array(value, np.int64), SCALAR_I64)

    def reshape(self, x: Value, shape: Sequence[int]) -> Value:
        return self.value("stablehlo.reshape", [x], x.type.with_shape(tuple(shape)))

    def transpose(self, x: Value, permutation: Sequence[int]) -> Value:
        shape = tuple(x.type.shape[p] for p in permutation)
        return self.value(
            "stablehlo.transpose",
            [x],
            x.type.with_shape(shape),
            {"permutation": DenseArrayAttr(I64, tuple(permutation))},
        )

    def convert(self, x: Value, element_type: str) -> Value:
        return self.value("stablehlo.convert", [x], x.type.with_element_type(element_type))

    def broadcast(self, x: Value, type: TensorType, dims: Sequence[int] = ()) -> Value:
        return self.value(
            "stablehlo.broadcast_in_dim",
            [x],
            type,
            {"broadcast_dimensions": DenseArrayAttr(I64, tuple(dims))},
        )

    def dynamic_slice(self, x: Value, starts: Sequence[Value], sizes: Sequence[int]) -> Value:
        return self.value(
            "stablehlo.dynamic_slice",
            [x, *starts],
            x.type.with_shape(tuple(sizes)),
            {"slice_sizes": DenseArrayAttr(I64, tuple(sizes))},
        )

    def partition_id(self) -> Value:
        """This device's id as a `tensor<i64>`."""
        pid = self.value("stablehlo.partition_id", [], TensorType((), "ui32"))
        return self.convert(pid, I64)

    def table_entry(self, table: Sequence[int], partition_id: Value, element_type: str = I64):
        """`table[partition_id]` as a scalar (the table a constant). A table of
        the devices of a smaller mesh reads 0 on the program's other devices."""
        table = [*table, *[0] * (self.num_devices - len(table))]
        t = TensorType((len(table),), element_type)
        constant = self.constant(np.array(table), t)
        entry = self.dynamic_slice(constant, [partition_id], [1])
        return self.reshape(entry, ())

    def dimension_offset(
        self, axes: Sequence[AxisRef], shard_size: int, mesh: Mesh | None = None
    ) -> Value:
        """Where this device's shard of a dim sharded by `axes` starts (`tensor<i64>`)."""
        partition_id = self.partition_id()
        table = offset_table(axes, mesh or self.mesh, shard_size, self.num_devices)
        return self.table_entry(table, partition_id)

    def dynamic_slice_for_axes(
        self,
        x: Value,
        axes_per_dim: Sequence[Sequence[AxisRef]],
        local: TensorType,
        mesh: Mesh | None = None,
    ) -> Value:
        """This device's part of `x`, each dim cut by `axes_per_dim` into `local`'s
        sizes; `x` is first padded where the shards reach past its end."""
        mesh = mesh or self.mesh
        high = [
            max(0, axes_size(axes, mesh) * size - n) if axes else 0
            for axes, size, n in zip(axes_per_dim, local.shape, x.type.shape, strict=True)
        ]
        if any(high):
            x = self.pad(x, [0] * len(high), high, self.padding_value(x.type))
        starts = []
        for axes, size in zip(axes_per_dim, local.shape, strict=True):
            if axes:
                starts.append(self.dimension_offset(axes, size, mesh))
            else:
                starts.append(self.i64(0))
        return self.dynamic_slice(x, starts, local.shape)

    # -- padding and partial values ---------------------------------------------------------

    def scalar(self, value, element_type: str) -> Value:
        """A `tensor<element_type>` constant."""
        t = TensorType((), element_type)
        return self.constant(np.array(value).astype(t.dtype), t)

    def padding_value(self, t: TensorType):
        """What padding slots the program makes hold: 0, or with `poison_padding`
        a value that shows wherever it reaches a result (NaN, a large integer)."""
        if not self.poison_padding:
            return 0
        return poison(t.dtype)

    def pad(self, x: Value, low: Sequence[int], high: Sequence[int], value=0) -> Value:
        """`x` padded at both ends of each dim with `value`."""
        shape = tuple(n + lo + hi for n, lo, hi in zip(x.type.shape, low, high, strict=True))
        attrs = {
            "edge_padding_low": DenseArrayAttr(I64, tuple(low)),
            "edge_padding_high": DenseArrayAttr(I64, tuple(high)),
            "interior_padding": DenseArrayAttr(I64, (0,) * len(shape)),
        }
        filler = self.scalar(value, x.type.element_type)
        return self.value("stablehlo.pad", [x, filler], x.type.with_shape(shape), attrs)

    def slice(self, x: Value, dim: int, start: int, limit: int) -> Value:
        """`x[start:limit]` along `dim`."""
        shape = x.type.shape
        starts = [0] * len(shape)
        limits = list(shape)
        starts[dim], limits[dim] = start, limit
        attrs = {
            "start_indices": DenseArrayAttr(I64, tuple(starts)),
            "limit_indices": DenseArrayAttr(I64, tuple(limits)),
            "strides": DenseArrayAttr(I64, (1,) * len(shape)),
        }
        new = list(shape)
        new[dim] = limit - start
        return self.value("stablehlo.slice", [x], x.type.with_shape(tuple(new)), attrs)

    def valid_mask(
        self, local: TensorType, axes_per_dim: Sequence[Sequence[AxisRef]], shape: Sequence[int]
    ) -> Value | None:
        """An `i1` tensor of `local`'s shape, true where a slot holds an element
        of the global value (not padding); None when no dim has padding."""
        mask = None
        bools = local.with_element_type("i1")
        for dim, (axes, size) in enumerate(zip(axes_per_dim, shape, strict=True)):
            if not axes or not is_uneven(size, axes, self.mesh):
                continue
            positions = local.with_element_type(I64)
            iota = self.value(
                "stablehlo.iota", [], positions, {"iota_dimension": self.i64_attr(dim)}
            )
            offset = self.dimension_offset(axes, local.shape[dim])
            index = self.value(
                "stablehlo.add", [iota, self.broadcast(offset, positions)], positions
            )
            limit = self.broadcast(self.i64(size), positions)
            inside = self.compare(index, limit, "LT")
            mask = inside if mask is None else self.value("stablehlo.and", [mask, inside], bools)
        return mask

    def masked(
        self,
        x: Value,
        axes_per_dim: Sequence[Sequence[AxisRef]],
        shape: Sequence[int],
        fill: Value,
    ) -> Value:
        """`x` with its padding slots set to the scalar `fill`."""
        mask = self.valid_mask(x.type, axes_per_dim, shape)
        if mask is None:
            return x
        return self.value("stablehlo.select", [mask, x, self.broadcast(fill, x.type)], x.type)

    def compare(self, a: Value, b: Value, direction: str) -> Value:
        attrs = {"comparison_direction": EnumAttr("stablehlo", "comparison_direction", direction)}
        return self.value("stablehlo.compare", [a, b], a.type.with_element_type("i1"), attrs)

    def is_first(self, axes: Sequence[AxisRef], mesh: Mesh | None = None) -> Value:
        """`tensor<i1>`: whether this device has index 0 along `axes`."""
        mesh = mesh or self.mesh
        members = set(mesh.device_list)
        table = [
            int(d in members and axes_index(d, axes, mesh) == 0) for d in range(self.num_devices)
        ]
        return self.table_entry(table, self.partition_id(), "i1")

    @contextmanager
    def rollback_on(self, *errors: type[BaseException]) -> Iterator[None]:
        """Removes the ops emitted inside the block if it raises one of `errors`."""
        block = self.builder.insertion_block
        before = len(block.ops)
        channel = self.next_channel
        try:
            yield
        except errors:
            remove_ops_from(block, before)
            self.next_channel = channel
            raise

    def binary_region(self, element_type: str, op_name: str) -> Region:
        """`^bb0(%a: tensor<E>, %b: tensor<E>): return op(%a, %b)`."""
        scalar = TensorType((), element_type)
        with self.builder.region([scalar, scalar]) as r:
            a, b = r.arguments
            result = self.value(op_name, [a, b], scalar)
            r.returns(result)
        return r.region

    def i64_attr(self, value: int) -> IntegerAttr:
        return IntegerAttr(int(value), I64)

    def groups_attr(
        self,
        groups: Sequence[Sequence[int]],
        along: Sequence[AxisRef] | None = None,
        mesh: Mesh | None = None,
    ) -> DenseElementsAttr:
        """`groups` as a `replica_groups` attribute; `along`: the axes of `mesh`
        (the current one by default) that made them, kept for Shardy's
        `enable-rgv3`, which writes the axes instead (`convert_global_to_local`)."""
        array = np.array(groups, np.int64)
        attr = DenseElementsAttr.from_numpy(array, TensorType(array.shape, I64))
        if along is not None and self.groups_along is not None:
            self.groups_along[id(attr)] = (attr, mesh or self.mesh, tuple(along))
        return attr


def remove_ops_from(block: Block, start: int) -> None:
    """Removes the ops of `block` from index `start` on, and their uses of the
    values that stay."""
    drop_ops(block.ops[start:])
    del block.ops[start:]


def drop_ops(ops: Sequence[Op]) -> None:
    """Detaches `ops` (taken out of their block, or about to be) from the
    values they use and from their block."""
    for op in ops:
        for inner in op.walk():
            for v in inner.operands:
                v.uses[:] = [u for u in v.uses if u.owner is not inner]
        op.parent = None
