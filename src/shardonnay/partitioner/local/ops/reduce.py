"""Local reductions over sharded dims: partial results, masks and inits.

A `stablehlo.reduce` or `stablehlo.dot_general` whose reduced (contracting)
dims are sharded runs on each device's shard and leaves a partial result:
one term per device of the reduction along the axes sharding those dims
(`LocalContext.partial`), which the `sdy.all_reduce` after it combines. What
makes that exact:

- padding slots of uneven shards along reduced dims are masked first: with
  zeros for a dot, and for a reduce with its init value when combining the
  init with itself gives the init again (max, min, a sum from 0, an argmax
  from `(-inf, 0)`), else with the identity of its reduction;
- a sum (or product) whose init is not the identity starts from the init on
  the first device of each group only and from the identity elsewhere, so
  the init counts once;
- a reduction with any other body (e.g. the `(value, index)` pairs of an
  argmax) reduces locally, gathers the per-device results along a new
  leading dim and reduces them again: the result is complete, and the
  `sdy.all_reduce` after it has nothing left to do. That takes a body whose
  init combined with itself is the init; otherwise the reduced dims are
  gathered and reduced whole;
- a cumulative `reduce_window` (a prefix sum, max, ...) along a sharded dim
  scans each shard and adds the totals of the shards before it
  (`prefix_scan`): one slot per device moves, not the dim.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shardonnay.ir.attributes import DenseArrayAttr, DenseElementsAttr
from shardonnay.ir.core import Op, Region, Value
from shardonnay.ir.types import TensorType
from shardonnay.ops.linalg import i64_list, padding_pairs
from shardonnay.ops.reduction import reduction_of
from shardonnay.partitioner.local.context import (
    I64,
    LocalContext,
    Partial,
    axes_index,
    is_uneven,
    partition_error,
)
from shardonnay.partitioner.local.factors import (
    FactorPlan,
    copy_region,
    lower_with_plan,
    plan_factors,
    rule_of,
)
from shardonnay.partitioner.local.layout import all_gather_dim, combiner
from shardonnay.partitioner.local.moves import move
from shardonnay.runtime.interpreter import Interpreter


def constant_value(value: Value) -> np.ndarray | None:
    """The literal of a value defined by a constant op (None otherwise)."""
    op = value.op
    if op is None or op.name not in ("stablehlo.constant", "sdy.constant"):
        return None
    return op.attributes["value"].to_numpy()


def _reduced_only(axes_per_dim, dims: Sequence[int]) -> list:
    return [a if d in dims else () for d, a in enumerate(axes_per_dim)]


def _mask_reduced(ctx: LocalContext, value: Value, x: Value, dims, fill) -> Value:
    """`x` with the padding of its reduced `dims` set to `fill()` (a scalar,
    made only when there is padding)."""
    axes = _reduced_only(ctx.sharded_axes(value), dims)
    if not any(
        a and is_uneven(n, a, ctx.mesh) for n, a in zip(value.type.shape, axes, strict=True)
    ):
        return x
    return ctx.masked(x, axes, value.type.shape, fill())


def dot_general(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    """A dot on local operands; sharded contracting dims leave partial sums."""
    plan = plan_factors(ctx, op, rule_of(op), local_reductions=True)
    operands = list(operands)
    if plan.reduction_axes:
        for i in range(2):
            if plan.reduced[i]:
                element = operands[i].type.element_type
                operands[i] = _mask_reduced(
                    ctx,
                    op.operands[i],
                    operands[i],
                    plan.reduced[i],
                    lambda element=element: ctx.scalar(0, element),
                )
    results = lower_with_plan(ctx, op, operands, regions, plan)
    if plan.reduction_axes:
        ctx.partial[op.results[0]] = Partial(plan.reduction_axes, "stablehlo.add", ctx.mesh)
    return results


def reduce(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    """`stablehlo.reduce` over local shards; see the module docstring."""
    count = len(op.results)
    rule = rule_of(op)
    plan = plan_factors(ctx, op, rule, local_reductions=True)
    if not plan.reduction_axes:
        return lower_with_plan(ctx, op, operands, regions, plan)
    kind = reduction_of(op.regions[0]) if count == 1 else None
    inputs, inits = list(operands[:count]), list(operands[count:])
    element = inputs[0].type.element_type
    found = combiner(kind) if kind is not None else None
    if found is not None:
        neutral = found.identity(op.operands[count].type.dtype)
        literal = constant_value(op.operands[count])
        if found.idempotent:
            init = inits[0]
            fill = lambda: init  # noqa: E731
        else:
            fill = lambda: ctx.scalar(neutral, element)  # noqa: E731
            if literal is None or not np.all(literal == neutral):
                first = ctx.is_first(plan.reduction_axes)
                inits[0] = ctx.value("stablehlo.select", [first, inits[0], fill()], inits[0].type)
        inputs[0] = _mask_reduced(ctx, op.operands[0], inputs[0], plan.reduced[0], fill)
        results = lower_with_plan(ctx, op, [*inputs, *inits], regions, plan)
        ctx.partial[op.results[0]] = Partial(plan.reduction_axes, kind, ctx.mesh)
        return results
    if not _init_is_idempotent(ctx, op):
        return lower_with_plan(ctx, op, operands, regions, plan_factors(ctx, op, rule))
    inputs = [
        _mask_reduced(ctx, v, x, plan.reduced[i], lambda init=init: init)
        for i, (v, x, init) in enumerate(zip(op.operands[:count], inputs, inits, strict=True))
    ]
    partials = lower_with_plan(ctx, op, [*inputs, *inits], regions, plan)
    return _combine(ctx, op, partials, inits, plan, copy_region(regions[0]))


def _combine(
    ctx: LocalContext,
    op: Op,
    partials: list[Value],
    inits: list[Value],
    plan: FactorPlan,
    body: Region,
) -> list[Value]:
    """Every device's partial results gathered along a new leading dim and reduced."""
    gathered = []
    for x in partials:
        leading = ctx.reshape(x, (1, *x.type.shape))
        gathered.append(all_gather_dim(ctx, leading, 0, plan.reduction_axes))
    types = [x.type for x in partials]
    new = ctx.op(
        "stablehlo.reduce",
        [*gathered, *inits],
        types,
        {"dimensions": DenseArrayAttr(I64, (0,))},
        [body],
        op.location,
    )
    return list(new.results)


def _init_is_idempotent(ctx: LocalContext, op: Op) -> bool:
    """Whether the body applied to (init, init) gives the init back."""
    count = len(op.results)
    literals = [constant_value(v) for v in op.operands[count:]]
    if any(v is None for v in literals):
        return False
    arrays = [
        np.asarray(v).astype(t.type.dtype)
        for v, t in zip(literals, op.operands[count:], strict=True)
    ]
    try:
        out = Interpreter(ctx.builder.module).run_region(op.regions[0], [*arrays, *arrays], {})
    except Exception:  # a body the interpreter cannot run proves nothing
        return False
    for got, want in zip(out, arrays, strict=True):
        got = np.asarray(got)
        same = (got == want) | ((got != got) & (want != want))
        if not np.all(same):
            return False
    return True


def _literal(value: Value) -> np.ndarray | None:
    """The literal of a constant, or of a scalar constant broadcast."""
    op = value.op
    if op is not None and op.name == "stablehlo.broadcast_in_dim" and not op.operands[0].type.shape:
        return constant_value(op.operands[0])
    return constant_value(value)


def _scan_dim(ctx: LocalContext, op: Op) -> tuple[int, str] | None:
    """(dim, reduction) of a `reduce_window` that is an inclusive prefix scan
    along one sharded dim (window the whole dim, padded by all but one in
    front, from the identity), pointwise along the others; else None."""
    if len(op.operands) != 2 or ctx.sharded_axes(op.operands[0]) != ctx.sharded_axes(op.results[0]):
        return None
    kind = reduction_of(op.regions[0])
    found = combiner(kind) if kind is not None else None
    if found is None:
        return None
    literal = _literal(op.operands[1])
    neutral = found.identity(op.operands[1].type.dtype)
    if literal is None or not np.all(literal == neutral):
        return None
    shape = op.operands[0].type.shape
    rank = len(shape)
    window = i64_list(op, "window_dimensions")
    ones = (1,) * rank
    if any(
        i64_list(op, key, ones) != ones
        for key in ("window_strides", "base_dilations", "window_dilations")
    ):
        return None
    padding = [tuple(p) for p in padding_pairs(op, rank)]
    axes = ctx.sharded_axes(op.operands[0])
    scans = [d for d in range(rank) if (window[d], padding[d]) != (1, (0, 0))]
    if len(scans) != 1:
        return None
    (d,) = scans
    if not axes[d] or window[d] != shape[d] or padding[d] != (shape[d] - 1, 0):
        return None
    return d, kind


def prefix_scan(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    """A cumulative `reduce_window` (sum, max, ...) along a sharded dim: each
    device scans its shard, the shards' totals are gathered (one slot per
    device), and each device combines the totals of the shards before its own
    into its scan. Raises PartitionError for other windows."""
    found = _scan_dim(ctx, op)
    if found is None:
        raise partition_error(op, "not a prefix scan along a sharded dim")
    d, kind = found
    source = op.operands[0]
    axes = ctx.sharded_axes(source)[d]
    x, init = operands
    local = x.type
    c = local.shape[d]
    element = local.element_type
    neutral = ctx.scalar(combiner(kind).identity(local.dtype), element)
    x = _mask_reduced(ctx, source, x, [d], lambda: neutral)
    window = list(i64_list(op, "window_dimensions"))
    window[d] = c
    pairs = np.array([(c - 1, 0) if e == d else (0, 0) for e in range(len(window))], np.int64)
    attrs = dict(
        op.attributes,
        window_dimensions=DenseArrayAttr(I64, tuple(window)),
        padding=DenseElementsAttr.from_numpy(pairs, TensorType(pairs.shape, I64)),
    )
    scanned = ctx.op(op.name, [x, init], [local], attrs, regions, op.location).results[0]
    total = ctx.slice(scanned, d, c - 1, c)
    totals = all_gather_dim(ctx, total, d, axes)
    positions = totals.type.with_element_type(I64)
    iota = ctx.value("stablehlo.iota", [], positions, {"iota_dimension": ctx.i64_attr(d)})
    mine = ctx.table_entry(
        [axes_index(dev, axes, ctx.mesh) for dev in range(ctx.num_devices)], ctx.partition_id()
    )
    before = ctx.compare(iota, ctx.broadcast(mine, positions), "LT")
    kept = ctx.value(
        "stablehlo.select", [before, totals, ctx.broadcast(neutral, totals.type)], totals.type
    )
    summed_shape = tuple(n for e, n in enumerate(totals.type.shape) if e != d)
    summed = ctx.op(
        "stablehlo.reduce",
        [kept, neutral],
        [totals.type.with_shape(summed_shape)],
        {"dimensions": DenseArrayAttr(I64, (d,))},
        [ctx.binary_region(element, kind)],
    ).results[0]
    offset = ctx.broadcast(summed, local, [e for e in range(len(local.shape)) if e != d])
    return [ctx.value(kind, [offset, scanned], local)]


def merged_top_k(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
    """`chlo.top_k` along an evenly sharded last dim: each device takes the
    top `k` of its shard (indices made global), the candidates of the shards
    are gathered (`k` per device, not the dim), and the top `k` of those is
    the result; the indices follow the values they came with. Exact because
    top_k orders by a total order and, among equal elements, prefers the
    lower index, which is also the earlier candidate. Raises PartitionError
    for uneven shards or shards holding fewer than `k` elements."""
    source = op.operands[0]
    axes = ctx.sharded_axes(source)
    rank = len(source.type.shape)
    last = rank - 1
    x = operands[0]
    local = x.type
    k = op.attributes["k"].value
    cut = axes[last]
    if not cut or is_uneven(source.type.shape[last], cut, ctx.mesh) or local.shape[last] < k:
        raise partition_error(op, "the sharded dim has uneven shards or fewer than k per shard")
    index_type = op.results[1].type.element_type
    chosen = (*local.shape[:last], k)
    attrs = dict(op.attributes)
    values, indices = ctx.op(
        op.name,
        [x],
        [local.with_shape(chosen), local.with_shape(chosen).with_element_type(index_type)],
        attrs,
    ).results
    offset = ctx.dimension_offset(cut, local.shape[last])
    if index_type != I64:
        offset = ctx.convert(offset, index_type)
    indices = ctx.value(
        "stablehlo.add", [indices, ctx.broadcast(offset, indices.type)], indices.type
    )
    values = all_gather_dim(ctx, values, last, cut)
    indices = all_gather_dim(ctx, indices, last, cut)
    count = values.type.shape[last]
    best, position = ctx.op(
        op.name,
        [values],
        [
            values.type.with_shape(chosen),
            values.type.with_shape(chosen).with_element_type(index_type),
        ],
        attrs,
    ).results
    # the index of each chosen candidate: sum over candidates j of (position == j) * index[j]
    grid = TensorType((*chosen, count), index_type)
    lead = list(range(last))
    picked = ctx.broadcast(position, grid, [*lead, last])
    iota = ctx.value("stablehlo.iota", [], grid, {"iota_dimension": ctx.i64_attr(rank)})
    hit = ctx.compare(picked, iota, "EQ")
    candidates = ctx.broadcast(indices, grid, [*lead, rank])
    zero = ctx.scalar(0, index_type)
    kept = ctx.value("stablehlo.select", [hit, candidates, ctx.broadcast(zero, grid)], grid)
    best_index = ctx.op(
        "stablehlo.reduce",
        [kept, zero],
        [best.type.with_element_type(index_type)],
        {"dimensions": DenseArrayAttr(I64, (rank,))},
        [ctx.binary_region(index_type, "stablehlo.add")],
    ).results[0]
    held = [*axes[:last], ()]
    results = []
    for result, value in zip(op.results, (best, best_index), strict=True):
        target = ctx.sharded_axes(result)
        results.append(move(ctx, value, held, ctx.mesh, target, ctx.mesh, result.type.shape))
    return results
