"""Local versions of the ops whose attributes depend on shapes or positions.

Most ops of a global program with compatible shardings run unchanged on every
device, on local types (`localize`). The ops here need more:

- `stablehlo.iota` sharded along its iota dim adds this shard's offset;
- constants (`sdy.constant`, sharded `stablehlo.constant`) become a local
  splat, or the global literal cut by a `dynamic_slice`;
- `stablehlo.slice` keeps its bounds along unsharded dims and takes whole
  local dims along sharded ones (a partial slice of a sharded dim is a
  `PartitionError`);
- `stablehlo.pad` pads each shard by its own amounts (a pad that moves data
  between shards is a `PartitionError`);
- `dynamic_slice`, `dynamic_update_slice`, `convolution`, `reduce_window`,
  `select_and_scatter`, `sort`, `concatenate`, `reverse` and the random ops
  get local attributes or are checked to act within every shard.

These are the forms Shardy's conversion emits for even shards; where one
raises `PartitionError` (data would move between devices), the conversion
plans the op's factors instead (`local.factors`).

Every function takes the context, the global op, its local operands and its
converted regions, and returns the local results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shardonnay.ir.attributes import DenseArrayAttr, DenseElementsAttr, IntegerAttr
from shardonnay.ir.core import Op, Region, Value
from shardonnay.ir.shardings import SHARDING
from shardonnay.ir.types import TensorType
from shardonnay.ops.convolution import conv_dimensions
from shardonnay.ops.linalg import i64_list
from shardonnay.ops.rules import rule_for
from shardonnay.partitioner.local.context import (
    I64,
    LocalContext,
    Partial,
    axes_index,
    axes_size,
    partition_error,
)
from shardonnay.partitioner.local.factors import moving_dims, plan_factors


def localize(
    ctx: LocalContext,
    op: Op,
    operands: Sequence[Value],
    regions: Sequence[Region],
    attributes: dict[str, Any] | None = None,
) -> list[Value]:
    """`op` on local operands, with local result types and the same attributes."""
    types = [ctx.local_type(r, op) for r in op.results]
    attrs = dict(op.attributes) if attributes is None else attributes
    new = ctx.op(op.name, operands, types, attrs, regions, op.location)
    new.inherent = op.inherent
    return list(new.results)


def _without_sharding(op: Op, **changes: Any) -> dict[str, Any]:
    attrs = {k: v for k, v in op.attributes.items() if k != SHARDING}
    attrs.update(changes)
    return attrs


# -- iota and constants --------------------------------------------------------------------------


def iota(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    result = op.results[0]
    if ctx.is_replicated(result):
        return localize(ctx, op, operands, regions)
    local = ctx.local_type(result, op)
    dim = op.attributes["iota_dimension"].value
    attrs = _without_sharding(op)
    local_iota = ctx.value("stablehlo.iota", [], local, attrs)
    axes = ctx.sharded_axes(result)[dim]
    if not axes:
        return [local_iota]
    offset = ctx.convert(ctx.dimension_offset(axes, local.shape[dim]), local.element_type)
    return [ctx.value("stablehlo.add", [local_iota, ctx.broadcast(offset, local)], local)]


def constant(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    """`sdy.constant` (always) and `stablehlo.constant` (when sharded)."""
    result = op.results[0]
    if op.name == "stablehlo.constant" and ctx.is_replicated(result):
        return localize(ctx, op, operands, regions)
    value: DenseElementsAttr = op.attributes["value"]
    local = ctx.local_type(result, op)
    if local == result.type:
        return [ctx.value("stablehlo.constant", [], local, {"value": value})]
    array = value.to_numpy()
    first = array.reshape(-1)[0]
    same = (array == first) | (array != array)  # NaN payloads count as one value
    if array.size and bool(np.all(same)):
        body = value.body
        if body.lstrip().startswith("["):
            body = DenseElementsAttr.from_numpy(np.full(local.shape, first), local).body
        splat = DenseElementsAttr(body, local)
        return [ctx.value("stablehlo.constant", [], local, {"value": splat})]
    whole = ctx.value("stablehlo.constant", [], result.type, {"value": value})
    return [ctx.dynamic_slice_for_axes(whole, ctx.sharded_axes(result), local)]


# -- slices and pads -----------------------------------------------------------------------------


def slice_(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    source, result = op.operands[0], op.results[0]
    if ctx.is_replicated(source) and ctx.is_replicated(result):
        return localize(ctx, op, operands, regions)
    starts = i64_list(op, "start_indices")
    limits = i64_list(op, "limit_indices")
    strides = i64_list(op, "strides", (1,) * len(starts))
    local_in = operands[0].type.shape
    new_starts, new_limits = [], []
    for dim, (a, b) in enumerate(
        zip(ctx.sharded_axes(source), ctx.sharded_axes(result), strict=True)
    ):
        _same_axes(op, dim, a, b)
        if not a:
            new_starts.append(starts[dim])
            new_limits.append(limits[dim])
            continue
        if (starts[dim], limits[dim], strides[dim]) != (0, source.type.shape[dim], 1):
            raise partition_error(
                op,
                f"dimension {dim} is sharded but the slice is not a full slice and requires "
                "device communication",
            )
        new_starts.append(0)
        new_limits.append(local_in[dim])
    attrs = _without_sharding(
        op,
        start_indices=DenseArrayAttr(I64, tuple(new_starts)),
        limit_indices=DenseArrayAttr(I64, tuple(new_limits)),
        strides=DenseArrayAttr(I64, tuple(strides)),
    )
    return [ctx.value("stablehlo.slice", operands[:1], ctx.local_type(result, op), attrs)]


def _same_axes(op: Op, dim: int, a, b) -> None:
    if tuple(a) != tuple(b):
        names = ", ".join(str(x) for x in a) or "none", ", ".join(str(x) for x in b) or "none"
        raise partition_error(
            op,
            f"dimension {dim} has mismatched sharding axes ({names[0]} vs {names[1]}); "
            "this needs a reshard first",
        )


def pad(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    """Each device pads its shard so that its part of the result comes out.

    Along a dim of size `d` cut into shards of `s` (result shards `t`), the
    input shard `k` starts at output position `k*s*(interior+1) + low`, which
    is `offset(k) = k*s*(interior+1) + low - k*t` into the result shard: the
    local pad's low padding. Devices with different offsets pad enough for
    all, then take their part with a `dynamic_slice`.
    """
    source, result = op.operands[0], op.results[0]
    if ctx.is_replicated(source):
        if not ctx.is_replicated(result):
            raise partition_error(op, "a replicated operand needs a replicated result")
        return localize(ctx, op, operands, regions)
    lows = i64_list(op, "edge_padding_low")
    interiors = i64_list(op, "interior_padding")
    local_in, local_out = operands[0].type, ctx.local_type(result, op)
    devices = range(ctx.mesh.size)
    offsets: list[list[int]] = []
    for dim, (a, b) in enumerate(
        zip(ctx.sharded_axes(source), ctx.sharded_axes(result), strict=True)
    ):
        _same_axes(op, dim, a, b)
        s, t, step = local_in.shape[dim], local_out.shape[dim], interiors[dim] + 1
        row = []
        for device in devices:
            k = axes_index(device, a, ctx.mesh)
            row.append(k * s * step + lows[dim] - k * t)
            _check_pad_stays_in_shard(op, dim, k, s, t, step, lows[dim], source.type.shape[dim])
        offsets.append(row)
    expanded = [
        (n - 1) * (i + 1) + 1 if n else 0 for n, i in zip(local_in.shape, interiors, strict=True)
    ]
    if all(len(set(row)) == 1 for row in offsets):
        low = [row[0] for row in offsets]
        high = [t - (e + lo) for t, e, lo in zip(local_out.shape, expanded, low, strict=True)]
        attrs = _pad_attrs(low, high, interiors)
        return [ctx.value("stablehlo.pad", operands, local_out, attrs)]
    low = [max(0, max(row)) for row in offsets]
    high = [
        max(0, t - min(row) - e)
        for t, row, e in zip(local_out.shape, offsets, expanded, strict=True)
    ]
    safe_shape = tuple(lo + e + hi for lo, e, hi in zip(low, expanded, high, strict=True))
    padded = ctx.value(
        "stablehlo.pad", operands, local_in.with_shape(safe_shape), _pad_attrs(low, high, interiors)
    )
    partition_id = ctx.partition_id()
    starts = []
    for lo, row in zip(low, offsets, strict=True):
        if len(set(row)) == 1:
            starts.append(ctx.i64(lo - row[0]))
        else:
            starts.append(ctx.table_entry([lo - o for o in row], partition_id))
    return [ctx.dynamic_slice(padded, starts, local_out.shape)]


def _pad_attrs(low, high, interior) -> dict[str, Any]:
    return {
        "edge_padding_low": DenseArrayAttr(I64, tuple(low)),
        "edge_padding_high": DenseArrayAttr(I64, tuple(high)),
        "interior_padding": DenseArrayAttr(I64, tuple(interior)),
    }


def _check_pad_stays_in_shard(op, dim, k, s, t, step, low, size) -> None:
    """Every input element that lands in result shard `k` must come from input shard `k`."""
    first, last = k * t, (k + 1) * t - 1  # the result shard's global positions
    lo = max(0, -(-(first - low) // step))
    hi = min(size - 1, (last - low) // step)
    if lo <= hi and (lo < k * s or hi >= (k + 1) * s):
        raise partition_error(
            op,
            f"dimension {dim} is sharded, but result shard {k} needs input elements "
            f"{lo}..{hi} outside input shard {k}; the pad moves data between devices",
        )


# -- checks of ops that must act within each shard -------------------------------------------------


def along_unsharded(dims_of, what: str):
    """A handler checking that the dims `dims_of(op)` of every operand and result
    are unsharded before localizing the op."""

    def handler(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
        for value in (*op.operands, *op.results):
            if not isinstance(value.type, TensorType):
                continue
            axes = ctx.sharded_axes(value)
            for dim in dims_of(op, value):
                if 0 <= dim < len(axes) and axes[dim]:
                    raise partition_error(op, f"dimension {dim} is sharded but {what}")
        return localize(ctx, op, operands, regions)

    return handler


concatenate = along_unsharded(
    lambda op, v: [op.attributes["dimension"].value], "the op concatenates along it"
)
reverse = along_unsharded(lambda op, v: i64_list(op, "dimensions"), "the op reverses it")
sort = along_unsharded(
    lambda op, v: [op.attributes["dimension"].value % len(v.type.shape)], "the op sorts along it"
)
top_k = along_unsharded(lambda op, v: [len(v.type.shape) - 1], "top_k works along it")
get_dimension_size = along_unsharded(
    lambda op, v: [op.attributes["dimension"].value] if v is op.operands[0] else [],
    "its size is the global one",
)
random = along_unsharded(
    lambda op, v: range(len(v.type.shape)) if v in op.results else [],
    "the random numbers depend on the global shape",
)


def dynamic_slice(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    source, result = op.operands[0], op.results[0]
    sizes = list(i64_list(op, "slice_sizes"))
    local_in = operands[0].type.shape
    for dim, (a, b) in enumerate(
        zip(ctx.sharded_axes(source), ctx.sharded_axes(result), strict=True)
    ):
        if not a and not b:
            continue
        _same_axes(op, dim, a, b)
        if sizes[dim] != source.type.shape[dim]:
            raise partition_error(
                op, f"dimension {dim} is sharded but the op takes a part of it (size {sizes[dim]})"
            )
        sizes[dim] = local_in[dim]
    attrs = dict(op.attributes, slice_sizes=DenseArrayAttr(I64, tuple(sizes)))
    return localize(ctx, op, operands, regions, attrs)


def dynamic_update_slice(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    source, update = op.operands[0], op.operands[1]
    pairs = zip(
        ctx.sharded_axes(source),
        ctx.sharded_axes(update),
        ctx.sharded_axes(op.results[0]),
        strict=True,
    )
    for dim, (a, b, c) in enumerate(pairs):
        if not (a or b or c):
            continue
        _same_axes(op, dim, a, c)
        _same_axes(op, dim, a, b)
        if update.type.shape[dim] != source.type.shape[dim]:
            raise partition_error(op, f"dimension {dim} is sharded but the update covers a part")
    return localize(ctx, op, operands, regions)


def windowed(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    """`reduce_window` / `select_and_scatter`: sharded dims must be pass-through
    (not among the dims their windows move elements along, `moving_dims`)."""
    moving = moving_dims(op)
    for dim, axes in enumerate(ctx.sharded_axes(op.operands[0])):
        if axes and dim in moving:
            raise partition_error(
                op, f"dimension {dim} is sharded but is not a pass-through dimension"
            )
    return localize(ctx, op, operands, regions)


def convolution(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    """Spatial dims must be unsharded; group counts shrink with the sharding of
    the dims they split (as Shardy's `getLocalGroupCount`)."""
    dims = conv_dimensions(op)
    lhs, rhs = (ctx.sharded_axes(v) for v in op.operands[:2])
    out = ctx.sharded_axes(op.results[0])
    for name, axes, spatial in (
        ("input", lhs, dims.input_spatial),
        ("kernel", rhs, dims.kernel_spatial),
        ("result", out, dims.output_spatial),
    ):
        for dim in spatial:
            if axes[dim]:
                raise partition_error(
                    op, f"spatial dimension {dim} of the {name} is sharded (needs halo exchange)"
                )
    if not any((*lhs, *rhs, *out)):
        return localize(ctx, op, operands, regions)
    attrs = _without_sharding(op)
    for key, axes in (
        ("feature_group_count", rhs[dims.kernel_output_feature]),
        ("batch_group_count", lhs[dims.input_batch]),
    ):
        count = attrs.get(key, IntegerAttr(1)).value
        if count > 1 and axes:
            divisor = min(count, axes_size(axes, ctx.mesh))
            if count % divisor:
                raise partition_error(op, f"{key} {count} does not divide by the sharding")
            attrs[key] = IntegerAttr(count // divisor, I64)
    results = localize(ctx, op, operands, regions, attrs)
    plan = plan_factors(ctx, op, rule_for(op), local_reductions=True)
    if plan.reduction_axes:
        ctx.partial[op.results[0]] = Partial(plan.reduction_axes, "stablehlo.add", ctx.mesh)
    return results
