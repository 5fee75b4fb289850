"""Local `stablehlo.gather` and `stablehlo.scatter` on sharded operands.

A gather whose operand is sharded along a dim it takes single elements from
(a "trivial slice" dim, e.g. the vocabulary dim of an embedding lookup)
gathers on every device from its own shard: the indices become local
(`index - offset`), rows whose index falls in another shard are zeroed, and
the `sdy.all_reduce` that follows sums the one real row with the zeros::

    table [64, 32] sharded [{"model"}, {}]; ids [4, 8, 1] -> rows [4, 8, 32]
    device with offset 16: local ids = clamp(ids) - 16; keep rows with
    16 <= clamp(id) <= 31; then all_reduce {"model"}

A scatter into an operand sharded along indexed dims shifts the indices the
same way (an update aimed at another shard is out of bounds locally, and
scatter skips it). Updates sharded along batch dims that the operand is not
sharded by scatter partially on every device: one device of each group
keeps the operand, the others start from the combiner's identity, and the
`sdy.all_reduce` after the scatter combines them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.collectives.axis_lists import mesh_ordered
from shardonnay.ir.attributes import DenseArrayAttr, EnumAttr
from shardonnay.ir.core import Op, Value
from shardonnay.ir.types import TensorType
from shardonnay.ops.reduction import reduction_of
from shardonnay.partitioner.local.context import (
    I64,
    LocalContext,
    Partial,
    axes_index,
    partition_error,
)
from shardonnay.partitioner.local.layout import combiner
from shardonnay.partitioner.local.ops.positional import localize


def _numbers(op: Op, key: str) -> dict:
    attr = op.attributes[key]
    return {name: value for name, value in attr.fields}


def _compare(ctx: LocalContext, a: Value, b: Value, direction: str) -> Value:
    attrs = {"comparison_direction": EnumAttr("stablehlo", "comparison_direction", direction)}
    return ctx.value("stablehlo.compare", [a, b], a.type.with_element_type("i1"), attrs)


def _and(ctx: LocalContext, a: Value, b: Value) -> Value:
    return ctx.value("stablehlo.and", [a, b], a.type)


def _index_bounds(
    ctx: LocalContext,
    indices: TensorType,
    ivd: int,
    bounds: Sequence[Value],
) -> Value:
    """Per-index-dim scalars broadcast to the shape of the indices (along `ivd`)."""
    element = indices.element_type
    if ivd >= len(indices.shape) or indices.shape[ivd] == 1:
        return ctx.broadcast(bounds[0], indices)
    pieces = [ctx.reshape(b, (1,)) for b in bounds]
    vector_type = TensorType((len(bounds),), element)
    vector = ctx.value("stablehlo.concatenate", pieces, vector_type, {"dimension": ctx.i64_attr(0)})
    return ctx.broadcast(vector, indices, (ivd,))


def _clamped_indices(ctx, indices: Value, sizes: Sequence[int], ivd: int) -> Value:
    """Gather's clamping of start indices into the global operand, made explicit."""
    t = indices.type
    low = ctx.constant(np.zeros(t.shape, np.int64), t)
    if ivd < len(t.shape) and len(sizes) > 1:
        highs = ctx.constant(
            np.array([s - 1 for s in sizes]), TensorType((len(sizes),), t.element_type)
        )
        high = ctx.broadcast(highs, t, (ivd,))
    else:
        high = ctx.constant(np.full(t.shape, sizes[0] - 1), t)
    return ctx.value("stablehlo.clamp", [low, indices, high], t)


def _offset(ctx: LocalContext, axes, shard: int, element: str) -> Value:
    return ctx.convert(ctx.dimension_offset(axes, shard), element)


def gather(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    source = op.operands[0]
    if ctx.is_replicated(source):
        return localize(ctx, op, operands, regions)
    numbers = _numbers(op, "dimension_numbers")
    batching = set(numbers.get("operand_batching_dims", ()))
    index_map = list(numbers.get("start_index_map", ()))
    ivd = numbers.get("index_vector_dim", 0)
    sizes = list(op.attributes["slice_sizes"].values)
    shape, local = source.type.shape, operands[0].type.shape
    axes = ctx.sharded_axes(source)
    trivial: list[int] = []
    reduction_axes: list[AxisRef] = []
    for dim, dim_axes in enumerate(axes):
        if not dim_axes or dim in batching:
            continue
        if sizes[dim] == 1:
            trivial.append(dim)
            reduction_axes += dim_axes
        elif sizes[dim] == shape[dim]:
            sizes[dim] = local[dim]
        else:
            raise partition_error(
                op, f"operand dimension {dim} is sharded but the slices take {sizes[dim]} of it"
            )
    attrs = dict(op.attributes, slice_sizes=DenseArrayAttr(I64, tuple(sizes)))
    result_type = ctx.local_type(op.results[0], op)
    if not trivial:
        return [ctx.value("stablehlo.gather", operands, result_type, attrs)]
    _check_summed_after(ctx, op, reduction_axes)
    indices = operands[1]
    itype, element = indices.type, indices.type.element_type
    mask = None
    if any(d in index_map for d in trivial):
        clamped = _clamped_indices(ctx, indices, [shape[d] for d in index_map], ivd)
        lows, highs = [], []
        for dim in index_map:
            if dim in trivial:
                low = _offset(ctx, axes[dim], local[dim], element)
                last = ctx.constant(np.array(local[dim] - 1), TensorType((), element))
                lows.append(low)
                highs.append(ctx.value("stablehlo.add", [low, last], low.type))
            else:
                lows.append(ctx.constant(np.array(0), TensorType((), element)))
                highs.append(ctx.constant(np.array(shape[dim] - 1), TensorType((), element)))
        low_t = _index_bounds(ctx, itype, ivd, lows)
        high_t = _index_bounds(ctx, itype, ivd, highs)
        indices = ctx.value("stablehlo.subtract", [clamped, low_t], itype)
        mask = _and(ctx, _compare(ctx, clamped, low_t, "GE"), _compare(ctx, clamped, high_t, "LE"))
    unindexed = [d for d in trivial if d not in index_map]
    if unindexed:
        held = None
        for dim in unindexed:
            offset = ctx.dimension_offset(axes[dim], local[dim])
            first = _compare(ctx, offset, ctx.i64(0), "EQ")
            held = first if held is None else _and(ctx, held, first)
        if mask is not None:
            held = ctx.broadcast(held, mask.type)
            mask = _and(ctx, mask, held)
        else:
            mask = held
    result = ctx.value("stablehlo.gather", [operands[0], indices], result_type, attrs)
    axes = tuple(mesh_ordered(reduction_axes, ctx.mesh))
    ctx.partial[op.results[0]] = Partial(axes, "stablehlo.add", ctx.mesh)
    mask_type = mask.type
    if mask_type.shape and ivd < len(mask_type.shape):
        kept = tuple(n for d, n in enumerate(mask_type.shape) if d != ivd)
        true = ctx.constant(np.array(True), TensorType((), "i1"))
        region = ctx.binary_region("i1", "stablehlo.and")
        mask = ctx.op(
            "stablehlo.reduce",
            [mask, true],
            [TensorType(kept, "i1")],
            {"dimensions": DenseArrayAttr(I64, (ivd,))},
            [region],
        ).results[0]
    offset_dims = set(numbers.get("offset_dims", ()))
    batch_dims = [d for d in range(len(result_type.shape)) if d not in offset_dims]
    dims = batch_dims if mask.type.shape else []
    wide = ctx.broadcast(mask, result_type.with_element_type("i1"), dims)
    zero = ctx.constant(np.zeros(result_type.shape), result_type)
    return [ctx.value("stablehlo.select", [wide, result, zero], result_type)]


def _check_summed_after(ctx: LocalContext, op: Op, axes: list[AxisRef]) -> None:
    users = op.results[0].users
    if (
        len(users) != 1
        or users[0].name != "sdy.all_reduce"
        or list(users[0].attributes["reduction_axes"].axes) != list(axes)
    ):
        names = ", ".join(str(a) for a in axes)
        raise partition_error(
            op,
            f"gathering single elements of dims sharded by {names} leaves partial results; "
            f"its only user must be an sdy.all_reduce over {{{names}}}",
        )


def scatter(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    count = len(op.results)
    inputs, updates = op.operands[:count], op.operands[count + 1 :]
    input_axes = ctx.sharded_axes(inputs[0])
    update_axes = ctx.sharded_axes(updates[0])
    if not any(input_axes) and not any(update_axes):
        return localize(ctx, op, operands, regions)
    numbers = _numbers(op, "scatter_dimension_numbers")
    window_dims = list(numbers.get("update_window_dims", ()))
    inserted = set(numbers.get("inserted_window_dims", ()))
    batching = set(numbers.get("input_batching_dims", ()))
    index_map = list(numbers.get("scatter_dims_to_operand_dims", ()))
    ivd = numbers.get("index_vector_dim", 0)
    used = {a for axes in input_axes for a in axes}
    reduction_axes = [
        a
        for d, axes in enumerate(update_axes)
        if d not in window_dims
        for a in axes
        if a not in used
    ]
    local_inputs = list(operands[:count])
    if reduction_axes:
        found = combiner(reduction_of(op.regions[0]) or "")
        if count > 1 or found is None:
            raise partition_error(
                op, "updates sharded along batch dims need a combiner with an identity"
            )
        leader = [axes_index(d, reduction_axes, ctx.mesh) == 0 for d in range(ctx.mesh.size)]
        local_type = local_inputs[0].type
        is_leader = ctx.table_entry(leader, ctx.partition_id(), "i1")
        is_leader = ctx.broadcast(is_leader, local_type.with_element_type("i1"))
        neutral = found.identity(inputs[0].type.dtype)
        identity = ctx.broadcast(ctx.scalar(neutral, local_type.element_type), local_type)
        local_inputs = [
            ctx.value("stablehlo.select", [is_leader, x, identity], local_type)
            for x in local_inputs
        ]
    window_sizes = [n for d, n in enumerate(updates[0].type.shape) if d in window_dims]
    operand_window = [d for d in range(len(input_axes)) if d not in inserted and d not in batching]
    indexed = []
    for dim, axes in enumerate(input_axes):
        if not axes or dim in batching:
            continue
        if dim in index_map:
            if dim not in inserted:
                raise partition_error(
                    op, f"operand dimension {dim} is sharded and indexed by windows wider than 1"
                )
            indexed.append(dim)
        elif dim in inserted:
            raise partition_error(
                op, f"operand dimension {dim} is sharded, not indexed, but an inserted window dim"
            )
        elif window_sizes[operand_window.index(dim)] != inputs[0].type.shape[dim]:
            raise partition_error(
                op, f"operand dimension {dim} is sharded but the update windows cover a part"
            )
    indices = operands[count]
    if indexed:
        itype, element = indices.type, indices.type.element_type
        local = local_inputs[0].type.shape
        lows = [
            _offset(ctx, input_axes[d], local[d], element)
            if d in indexed
            else ctx.constant(np.array(0), TensorType((), element))
            for d in index_map
        ]
        bounds = _index_bounds(ctx, itype, ivd, lows)
        indices = ctx.value("stablehlo.subtract", [indices, bounds], itype)
    new_operands = [*local_inputs, indices, *operands[count + 1 :]]
    results = localize(ctx, op, new_operands, regions)
    if reduction_axes:
        axes = tuple(mesh_ordered(reduction_axes, ctx.mesh))
        ctx.partial[op.results[0]] = Partial(axes, reduction_of(op.regions[0]), ctx.mesh)
    return results
