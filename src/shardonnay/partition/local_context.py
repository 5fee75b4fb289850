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
device's coordinates along the axes, the first axis most significant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.errors import PartitionError
from shardonnay.ir.attributes import DenseArrayAttr, DenseElementsAttr, IntegerAttr, StructAttr
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Op, Region, Value
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
    return int(np.prod([a.size(mesh) for a in axes], dtype=np.int64))


def offset_table(axes: Sequence[AxisRef], mesh: Mesh, shard_size: int) -> list[int]:
    """Per device id, where its shard of a dim sharded by `axes` starts."""
    return [axes_index(d, axes, mesh) * shard_size for d in range(mesh.size)]


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
        self.mesh = mesh
        self.shardings = shardings
        self.next_channel = next_channel

    # -- shardings and local types ------------------------------------------------------------

    def sharding(self, value: Value) -> TensorSharding | None:
        """The sharding of a value of the global program (None: replicated)."""
        return self.shardings.get(value)

    def sharded_axes(self, value: Value) -> list[tuple[AxisRef, ...]]:
        """Per dim, the axes (of size > 1) sharding `value` (all empty when replicated)."""
        rank = len(value.type.shape) if isinstance(value.type, TensorType) else 0
        return self.axes_of(self.sharding(value), rank)

    def axes_of(self, sharding: TensorSharding | None, rank: int) -> list[tuple[AxisRef, ...]]:
        if sharding is None or not sharding.dims:
            return [()] * rank
        return [tuple(a for a in d.axes if a.size(self.mesh) > 1) for d in sharding.dims]

    def is_replicated(self, value: Value) -> bool:
        return not any(self.sharded_axes(value))

    def local_type(self, value: Value, where: Op) -> Type:
        """The per-device type of global value `value` (defined at `where`)."""
        return self.local_type_for(value.type, self.sharding(value), where)

    def local_type_for(self, t: Type, sharding: TensorSharding | None, where: Op) -> Type:
        """The per-device type of a global `t` sharded by `sharding`."""
        if not isinstance(t, TensorType) or sharding is None or not sharding.dims:
            return t
        shape = []
        axes_per_dim = self.axes_of(sharding, len(t.shape))
        for dim, (size, axes) in enumerate(zip(t.shape, axes_per_dim, strict=True)):
            shards = axes_size(axes, self.mesh)
            if size % shards:
                raise partition_error(
                    where,
                    f"dimension {dim} of size {size} is not divisible by the {shards} shards "
                    f"of {sharding.dims[dim]}; uneven shards would need masking",
                )
            shape.append(size // shards)
        return t.with_shape(tuple(shape))

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
        attr = DenseElementsAttr.from_numpy(np.asarray(array), type)
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
        """`table[partition_id]` as a scalar (the table a constant)."""
        t = TensorType((len(table),), element_type)
        constant = self.constant(np.array(table), t)
        entry = self.dynamic_slice(constant, [partition_id], [1])
        return self.reshape(entry, ())

    def dimension_offset(self, axes: Sequence[AxisRef], shard_size: int) -> Value:
        """Where this device's shard of a dim sharded by `axes` starts (`tensor<i64>`)."""
        partition_id = self.partition_id()
        return self.table_entry(offset_table(axes, self.mesh, shard_size), partition_id)

    def dynamic_slice_for_axes(
        self, x: Value, axes_per_dim: Sequence[Sequence[AxisRef]], local: TensorType
    ) -> Value:
        """This device's part of `x`, each dim cut by `axes_per_dim` into `local`'s sizes."""
        starts = []
        for axes, size in zip(axes_per_dim, local.shape, strict=True):
            if axes:
                starts.append(self.dimension_offset(axes, size))
            else:
                starts.append(self.i64(0))
        return self.dynamic_slice(x, starts, local.shape)

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

    def groups_attr(self, groups: Sequence[Sequence[int]]) -> DenseElementsAttr:
        array = np.array(groups, np.int64)
        return DenseElementsAttr.from_numpy(array, TensorType(array.shape, I64))
