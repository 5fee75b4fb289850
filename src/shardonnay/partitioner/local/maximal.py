"""Values pinned to one device (maximal shardings) in the per-device program.

A maximal mesh `<[], device_ids=[k]>` and a sharding on it
(`#sdy.sharding<@maximal_mesh_k, []>`) pin a value to device `k`: the op
defining it runs on `k` (XLA's maximal sharding). Every device runs the same
program, so in the per-device program such a value has its global type on
every device; its buffer is meaningful on device `k` only (the other devices
compute the same ops on undefined data, harmlessly). `relocate` moves a
local value between places, each either a layout (axes per dim on a mesh,
as `local.moves.move` takes it) or a device that holds it whole:

- pinned to `k`, wanted pinned to `k`: nothing;
- pinned to `j`, wanted pinned to `k`: one `stablehlo.collective_permute`
  with the pair `[j, k]`;
- pinned to `j`, wanted in a layout: one `stablehlo.collective_broadcast`
  from `j` to every device (on two devices, a `collective_permute` to the
  other one), then this device's shard is sliced (`local.moves.move` from
  whole);
- in a layout, wanted pinned to `k`: the value is gathered whole on every
  device (`local.moves.move` to no axes), `k` among them.

For example, on 8 devices a `tensor<4xf32>` pinned to device 2, used where
it is sharded `[{"x"}]` on `<["x"=2, "y"=4]>`, becomes::

    %0 = "stablehlo.collective_broadcast"(%arg0) <{channel_handle = ...,
        replica_groups = dense<[[2, 0, 1, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>}>
        : (tensor<4xf32>) -> tensor<4xf32>
    %1 = ... dynamic_slice of %0 at this device's offset along "x" ... -> tensor<2xf32>
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.ir.attributes import DenseElementsAttr
from shardonnay.ir.core import Op, Region, Value
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.traits import is_elementwise
from shardonnay.partitioner.local.context import LocalContext, partition_error
from shardonnay.partitioner.local.moves import move
from shardonnay.partitioner.local.ops.positional import localize
from shardonnay.sharding import TensorSharding

Axes = Sequence[Sequence[AxisRef]]
Place = tuple[Axes, Mesh, int | None]  # a layout (axes per dim on a mesh), or a device
Mover = Callable[[Value, Value, Place], Value]


def maximal_device(sharding: TensorSharding | None, meshes: Mapping[str, Mesh]) -> int | None:
    """The device a maximal `sharding` pins its value to (None for other shardings).

    >>> maximal_device(TensorSharding(Mesh({}, device_ids=[3]), ()), {})
    3
    """
    if sharding is None:
        return None
    mesh = sharding.mesh if isinstance(sharding.mesh, Mesh) else meshes.get(sharding.mesh)
    if mesh is None or not mesh.is_maximal:
        return None
    return mesh.device_ids[0]


def broadcast_from(ctx: LocalContext, x: Value, device: int) -> Value:
    """`x`, whole on `device` only, whole on every device: one
    `stablehlo.collective_broadcast` whose one group starts with `device`."""
    if ctx.num_devices == 1:
        return x
    group = [device, *(d for d in range(ctx.num_devices) if d != device)]
    return ctx.value(
        "stablehlo.collective_broadcast",
        [x],
        x.type,
        {"channel_handle": ctx.channel_handle(), "replica_groups": ctx.groups_attr([group])},
    )


def send(ctx: LocalContext, x: Value, source: int, target: int) -> Value:
    """`x`, meaningful on `source`, sent to `target` (one `collective_permute`;
    the other devices receive zeros)."""
    if source == target:
        return x
    pairs = np.array([[source, target]], np.int64)
    attr = DenseElementsAttr.from_numpy(pairs, TensorType((1, 2), "i64"))
    return ctx.value(
        "stablehlo.collective_permute",
        [x],
        x.type,
        {"channel_handle": ctx.channel_handle(), "source_target_pairs": attr},
    )


def relocate(
    ctx: LocalContext,
    x: Value,
    shape: Sequence[int],
    source: Place,
    target: Place,
) -> Value:
    """Local `x` of a value of global `shape`, moved from `source` to `target`,
    each `(axes per dim, mesh, device)`: pinned to `device` when it is not
    None, else laid out by the axes on the mesh. See the module docstring."""
    source_axes, source_mesh, source_device = source
    target_axes, target_mesh, target_device = target
    whole = [()] * len(shape)
    if source_device is None:
        if target_device is None:
            return move(ctx, x, source_axes, source_mesh, target_axes, target_mesh, shape)
        return move(ctx, x, source_axes, source_mesh, whole, source_mesh, shape)
    if target_device is not None:
        return send(ctx, x, source_device, target_device)
    x = broadcast_from(ctx, x, source_device)
    return move(ctx, x, whole, target_mesh, target_axes, target_mesh, shape)


def place(ctx: LocalContext, value: Value, pinned: Mapping[Value, int]) -> Place:
    """Where the local value of global `value` is: its layout, or its device."""
    return ctx.sharded_axes(value), ctx.mesh_of(value), pinned.get(value)


def touches_pinned(op: Op, pinned: Mapping[Value, int]) -> bool:
    """Whether an operand or result of `op` is pinned to a device."""
    return any(v in pinned for v in (*op.operands, *op.results))


def results_device(op: Op, pinned: Mapping[Value, int]) -> int | None:
    """The device `op` runs on: the one its tensor results are pinned to (None
    when none is); `PartitionError` when some are pinned elsewhere or not at all."""
    devices = {pinned.get(r) for r in op.results if isinstance(r.type, TensorType)}
    if len(devices) > 1:
        raise partition_error(
            op,
            "its results are pinned to different devices "
            f"({', '.join('none' if d is None else str(d) for d in sorted(devices, key=str))})",
        )
    return devices.pop() if devices else None


def lower_whole(
    ctx: LocalContext,
    op: Op,
    operands: Sequence[Value],
    regions: Sequence[Region],
    pinned: Mapping[Value, int],
    moved: Mover,
) -> list[Value]:
    """`op`, one of whose operands or results is pinned to a device, computed
    on whole values: where its results are pinned to `k`, each operand is
    made whole on `k`; else each is made whole on every device and the
    results are cut to their layouts. An elementwise op whose results are
    not pinned instead takes each operand in its result's layout (a pinned
    one broadcast and sliced). Explicit reshards leave such ops alone (their
    tensors may disagree in any way), which this handles. `moved(value, x,
    place)` relocates local `x` of global `value` (once per place)."""
    device = results_device(op, pinned)
    if device is None and _same_shapes_elementwise(op) and _one_layout(ctx, op.results):
        target = place(ctx, op.results[0], pinned)
        operands = [moved(v, x, target) for v, x in zip(op.operands, operands, strict=True)]
        return localize(ctx, op, operands, regions)
    whole_operands = []
    for v, x in zip(op.operands, operands, strict=True):
        if isinstance(v.type, TensorType):
            x = moved(v, x, ([()] * len(v.type.shape), ctx.mesh, device))
        whole_operands.append(x)
    types = [r.type for r in op.results]
    new = ctx.op(op.name, whole_operands, types, dict(op.attributes), regions, op.location)
    new.inherent = op.inherent
    results = []
    for r, y in zip(op.results, new.results, strict=True):
        if isinstance(r.type, TensorType) and device is None:
            source = ([()] * len(r.type.shape), ctx.mesh, None)
            y = relocate(ctx, y, r.type.shape, source, place(ctx, r, pinned))
        results.append(y)
    return results


def _same_shapes_elementwise(op: Op) -> bool:
    values = (*op.operands, *op.results)
    return (
        is_elementwise(op)
        and bool(op.results)
        and all(isinstance(v.type, TensorType) for v in values)
        and len({v.type.shape for v in values}) == 1
    )


def _one_layout(ctx: LocalContext, results: Sequence[Value]) -> bool:
    """Whether `results` share one layout, none of them partial."""
    layouts = {(tuple(ctx.sharded_axes(r)), ctx.mesh_of(r)) for r in results}
    return len(layouts) == 1 and not any(
        (s := ctx.sharding(r)) is not None and s.unreduced for r in results
    )


__all__ = [
    "broadcast_from",
    "lower_whole",
    "maximal_device",
    "place",
    "relocate",
    "results_device",
    "send",
    "touches_pinned",
]
