"""Which lowering an op of the global program gets on local values.

`convert_global_to_local` walks the program and handles what concerns values
(their local types, pending reductions, pinned values, control flow, calls);
for each op it then asks this module how to compute it per device:

- `lower_collective`: an sdy collective becomes the StableHLO collective of
  `local_collectives` (or nothing, where it moves no data);
- `lower_op`: any other op, trying in turn
  1. a lowering for any shards (`_ALWAYS`: iota, constants, reductions and
     dots, which mask the padding of reduced dims);
  2. where every dim's shards are even and no two tensors shard a factor
     differently, Shardy's local form (`_WHERE_EVEN`);
  3. for ops whose attributes a factor plan cannot keep, the op computed
     whole (`_WHOLE_UNLESS_EVEN`);
  4. where the op's factor plan moves data, a lowering that moves less
     (`_CHEAPER_THAN_GATHERING`: halo exchanges, masked updates, prefix
     scans, merged top-k);
  5. the factor plan (`local_factors.lower_with_plan`): gather the dims that
     move data, run the op on them whole, slice the results back.
  A lowering of steps 2 and 4 that raises `PartitionError` leaves no op
  behind (`LocalContext.rollback_on`) and the next step runs. An op whose
  tensors are split on several meshes runs elementwise across them
  (`local_moves.elementwise_across_meshes`) or else whole.

For example, on `<["x"=4]>`, `stablehlo.slice %x [1:8]` of `tensor<8xf32>`
sharded `[{"x"}]`: the result's 7 elements do not split evenly over 4
devices, so step 2 is skipped; the slice's factor plan is not local (the
result's shard 0 reads element 2 from shard 1), and `local_halo.halo` moves
less than gathering: each device receives one element from its right
neighbour (see `local_exchange`). Had `halo` raised (say, the operand and
the result sharding the dim differently), the plan would gather the dim,
slice it whole and slice the result back to its shards.
"""

from __future__ import annotations

from shardonnay.errors import PartitionError
from shardonnay.ir.core import Op, Region, Value
from shardonnay.ir.types import TensorType
from shardonnay.layout import equivalent
from shardonnay.ops.rules import rule_for
from shardonnay.partitioner.local import collectives as local_collectives
from shardonnay.partitioner.local.context import LocalContext
from shardonnay.partitioner.local.factors import (
    is_even,
    lower_with_plan,
    merged,
    plan_factors,
    planned_attributes,
    pointwise_rule,
    rule_of,
    whole_plan,
)
from shardonnay.partitioner.local.layout import sharding_on
from shardonnay.partitioner.local.moves import elementwise_across_meshes
from shardonnay.partitioner.local.ops import indexing as local_indexing
from shardonnay.partitioner.local.ops import positional as local_ops
from shardonnay.partitioner.local.ops import reduce as local_reduce
from shardonnay.partitioner.local.ops.halo import HALO_OPS, halo, masked_update

# Lowerings for any shards.
_ALWAYS = {
    "stablehlo.iota": local_ops.iota,
    "sdy.constant": local_ops.constant,
    "stablehlo.constant": local_ops.constant,
    "stablehlo.reduce": local_reduce.reduce,
    "stablehlo.dot_general": local_reduce.dot_general,
}
# Lowerings that keep an op local where its shards are even (Shardy's forms);
# where they raise PartitionError, the op's factors are planned instead.
_WHERE_EVEN = {
    "stablehlo.slice": local_ops.slice_,
    "stablehlo.pad": local_ops.pad,
    "stablehlo.concatenate": local_ops.concatenate,
    "stablehlo.reverse": local_ops.reverse,
    "stablehlo.sort": local_ops.sort,
    "chlo.top_k": local_ops.top_k,
    "stablehlo.get_dimension_size": local_ops.get_dimension_size,
    "stablehlo.rng": local_ops.random,
    "stablehlo.rng_bit_generator": local_ops.random,
    "stablehlo.dynamic_slice": local_ops.dynamic_slice,
    "stablehlo.dynamic_update_slice": local_ops.dynamic_update_slice,
    "stablehlo.reduce_window": local_ops.windowed,
    "stablehlo.select_and_scatter": local_ops.windowed,
    "stablehlo.convolution": local_ops.convolution,
    "stablehlo.gather": local_indexing.gather,
    "stablehlo.scatter": local_indexing.scatter,
}
# Lowerings that move less than gathering the dims a factor plan gathers;
# where they raise PartitionError, the plan runs.
_CHEAPER_THAN_GATHERING = {
    **{name: halo for name in HALO_OPS},
    "stablehlo.dynamic_update_slice": masked_update,
    "stablehlo.reduce_window": local_reduce.prefix_scan,
    "chlo.top_k": local_reduce.merged_top_k,
}
# Ops whose attributes a factor plan cannot keep: unless even, computed whole.
_WHOLE_UNLESS_EVEN = (
    "stablehlo.convolution",
    "stablehlo.gather",
    "stablehlo.scatter",
    "stablehlo.rng",
    "stablehlo.rng_bit_generator",
    "stablehlo.get_dimension_size",
)


def lower_op(
    ctx: LocalContext, op: Op, operands: list[Value], regions: list[Region]
) -> list[Value]:
    """An op of the program on local values: its own lowering where there is
    one, else as its factor plan says (computing whole what cannot stay local)."""
    name = op.name
    meshes = {ctx.mesh_of(v) for v in (*op.operands, *op.results) if ctx.sharding(v)}
    if len(meshes) > 1:
        lowered = elementwise_across_meshes(ctx, op, operands)
        if lowered is not None:
            return lowered
        return lower_with_plan(ctx, op, operands, regions, whole_plan(ctx, op))
    if name in _ALWAYS:
        return _ALWAYS[name](ctx, op, operands, regions)
    even = is_even(ctx, op)
    special = _WHERE_EVEN.get(name)
    if special is not None and even and _factors_agree(ctx, op):
        try:
            with ctx.rollback_on(PartitionError):
                return special(ctx, op, operands, regions)
        except PartitionError:
            pass
    if name in _WHOLE_UNLESS_EVEN:
        return lower_with_plan(ctx, op, operands, regions, whole_plan(ctx, op))
    plan = plan_factors(ctx, op, rule_of(op))
    cheaper = _CHEAPER_THAN_GATHERING.get(name)
    if cheaper is not None and not plan.is_local:
        try:
            with ctx.rollback_on(PartitionError):
                return cheaper(ctx, op, operands, regions)
        except PartitionError:
            pass
    return lower_with_plan(ctx, op, operands, regions, plan, planned_attributes(ctx, op, plan))


def _factors_agree(ctx: LocalContext, op: Op) -> bool:
    """Whether no two tensors of `op` shard one factor of its rule
    differently (checked where a dim is that factor alone)."""
    rule = rule_for(op) or pointwise_rule(op)
    if rule is None:
        return not any(
            any(ctx.sharded_axes(v))
            for v in (*op.operands, *op.results)
            if isinstance(v.type, TensorType)
        )
    seen: dict[int, tuple] = {}
    values = (*op.operands, *op.results)
    mappings = (*rule.operand_mappings, *rule.result_mappings)
    for value, mapping in zip(values, mappings, strict=True):
        if not isinstance(value.type, TensorType):
            continue
        axes = ctx.sharded_axes(value)
        for dim, factors in enumerate(mapping):
            if len(factors) != 1 or rule.factor_sizes[factors[0]] != value.type.shape[dim]:
                continue
            if seen.setdefault(factors[0], merged(axes[dim], ctx.mesh)) != merged(
                axes[dim], ctx.mesh
            ):
                return False
    return True


def lower_collective(ctx: LocalContext, op: Op, x: Value) -> Value:
    """An sdy collective (`cost.SDY_COLLECTIVES` other than the
    `*_to_unreduced` marks) on local `x`: a StableHLO collective
    (`local_collectives`), or `x` itself where it moves nothing."""
    name = op.name
    if name == "sdy.all_reduce":
        return local_collectives.all_reduce(ctx, op, x)
    if name == "sdy.reduce_scatter":
        return local_collectives.reduce_scatter(ctx, op, x)
    if ctx.sharding(op.results[0]) is None and ctx.sharding(op.operands[0]) is None:
        return x  # on a mesh of one device
    if name == "sdy.all_gather":
        return local_collectives.all_gather(ctx, op, x)
    if name == "sdy.all_slice":
        return local_collectives.all_slice(ctx, op, x)
    if name == "sdy.all_to_all":
        return local_collectives.all_to_all(ctx, op, x)
    # A collective_permute may move the value to a mesh of the same devices in
    # another order: each side on its own mesh, device ids from its device_ids.
    operand, result = op.operands[0], op.results[0]
    source = sharding_on(ctx.sharded_axes(operand), ctx.mesh_of(operand))
    target = sharding_on(ctx.sharded_axes(result), ctx.mesh_of(result))
    if equivalent(source, target, None, operand.type.shape):
        return x
    return local_collectives.collective_permute(ctx, op, x, source, target)
