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
  gathered and reduced whole.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shardonnay.ir.attributes import DenseArrayAttr
from shardonnay.ir.core import Op, Region, Value
from shardonnay.partition.local_context import I64, LocalContext, Partial, is_uneven
from shardonnay.partition.local_factors import (
    FactorPlan,
    copy_region,
    lower_with_plan,
    plan_factors,
    rule_of,
)
from shardonnay.partition.local_layout import IDEMPOTENT, IDENTITIES, all_gather_dim

_SCALAR_BODIES = (
    "stablehlo.add",
    "stablehlo.multiply",
    "stablehlo.maximum",
    "stablehlo.minimum",
    "stablehlo.and",
    "stablehlo.or",
    "stablehlo.xor",
)


def reduction_of(region: Region) -> str | None:
    """The op name of a body `return op(%a, %b)`, or None for other bodies."""
    block = region.entry
    ops = block.ops
    if (
        len(ops) == 2
        and len(block.arguments) == 2
        and set(ops[0].operands) == set(block.arguments)
        and ops[1].operands == (ops[0].results[0],)
    ):
        return ops[0].name
    return None


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
    if kind in _SCALAR_BODIES and kind in IDENTITIES:
        neutral = IDENTITIES[kind](np.dtype(op.operands[count].type.dtype))
        literal = constant_value(op.operands[count])
        if kind in IDEMPOTENT:
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
    from shardonnay.runtime.interpreter import Interpreter

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
