"""Which factors of an op stay sharded on local values, and the lowering that
computes the others whole.

An op runs on local values unchanged when every factor of its sharding rule
that is sharded somewhere is sharded alike in every tensor it appears in, is
a pass-through factor (or a reduction factor the caller combines), appears in
an operand and a result, and either divides evenly by its shards or is the
only factor of its dims (then every tensor pads it alike). `plan_factors`
finds the factors that break one of these (`replicated`); `lower_with_plan`
gathers the operand dims holding them, runs the op on the values whole along
those dims (and local along the others), and slices the results back to
their shardings. With no rule at all, every dim is whole: the op runs on the
gathered global values.

For example, `stablehlo.slice %x [2:7, 0:16]` on `tensor<8x16xf32>` sharded
`[{"x"}, {"y"}]` has the rule `([i, j])->([i, j]) permutation={i}`: dim 0 is
gathered along `"x"`, the slice runs on local `tensor<8x4xf32>` (limits
`[7, 4]`), and the result is cut along `"x"` again; `"y"` never moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shardonnay.axes import AxisRef, merge_adjacent
from shardonnay.collectives.axis_lists import mesh_ordered
from shardonnay.ir.attributes import DenseArrayAttr
from shardonnay.ir.core import Block, Op, Region, Value
from shardonnay.ir.types import TensorType, Type
from shardonnay.mesh import Mesh
from shardonnay.ops.linalg import i64_list
from shardonnay.ops.rules import rule_for
from shardonnay.ops.traits import EXACT_RULE, MovesElements, has_trait, is_elementwise, trait_of
from shardonnay.partitioner.local.context import I64, LocalContext, axes_size, partition_error
from shardonnay.partitioner.local.layout import gather_dims, slice_dims, spread
from shardonnay.propagation.projection import project_tensor
from shardonnay.sharding import DimSharding, TensorSharding
from shardonnay.sharding_rule import OpShardingRule

# Ops whose results do not depend on where along a result-only factor they are.
_POSITION_FREE = ("stablehlo.broadcast_in_dim",)


def moving_dims(op: Op) -> set[int]:
    """The dims of operand 0 along which `op` moves elements to other positions
    (whatever its sharding rule says about them): its `MovesElements` trait."""
    moves = trait_of(op, MovesElements)
    return moves.dims_of(op) if moves is not None else set()


@dataclass(frozen=True)
class FactorPlan:
    """How to run an op on local values: per operand the dims to gather, per
    result the dims computed whole (then sliced), the axes sharding the
    reduction factors kept local (the results are partial along them), and
    per operand the dims holding those reduction factors."""

    gather: tuple[tuple[int, ...], ...]
    whole: tuple[tuple[int, ...], ...]
    reduction_axes: tuple[AxisRef, ...] = ()
    reduced: tuple[tuple[int, ...], ...] = ()

    @property
    def is_local(self) -> bool:
        return not any(self.gather) and not any(self.whole)


def _rank(value: Value) -> int:
    return len(value.type.shape) if isinstance(value.type, TensorType) else 0


def pointwise_rule(op: Op) -> OpShardingRule | None:
    """For an op without a rule whose tensors all have one shape: one factor
    per dim (its regions, such as the scalar body of a `stablehlo.map`, are
    not tensors of the op)."""
    shapes = {v.type.shape for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}
    if len(shapes) != 1:
        return None
    (shape,) = shapes
    mapping = tuple((d,) for d in range(len(shape)))
    return OpShardingRule(
        shape,
        tuple(mapping if isinstance(v.type, TensorType) else () for v in op.operands),
        tuple(mapping if isinstance(v.type, TensorType) else () for v in op.results),
    )


def rule_of(op: Op) -> OpShardingRule | None:
    """The rule to plan `op` by: its sharding rule if the rule tells all that
    moves data (elementwise ops, ops with the `EXACT_RULE` trait; None for
    other ops: they run on whole values)."""
    if is_elementwise(op):
        return rule_for(op) or pointwise_rule(op)
    if has_trait(op, EXACT_RULE):
        return rule_for(op)
    return None


def merged(axes: Sequence[AxisRef], mesh: Mesh) -> tuple[AxisRef, ...]:
    """`axes` with adjacent sub-axes of one axis merged (`"x":(1)2, "x":(2)2` is `"x"`)."""
    return tuple(
        AxisRef(a.name) if a.size(mesh) == mesh.axis_size(a.name) else a
        for a in merge_adjacent(axes, mesh)
    )


def whole_plan(ctx: LocalContext, op: Op) -> FactorPlan:
    """Every dim of every tensor whole: the op runs on global values."""
    gather = tuple(
        tuple(d for d, a in enumerate(ctx.sharded_axes(v)) if a)
        if isinstance(v.type, TensorType)
        else ()
        for v in op.operands
    )
    whole = tuple(tuple(range(_rank(v))) for v in op.results)
    return FactorPlan(gather, whole)


def plan_factors(
    ctx: LocalContext,
    op: Op,
    rule: OpShardingRule | None,
    *,
    local_reductions: bool = False,
) -> FactorPlan:
    """The plan running `op` with as many factors local as its rule allows;
    reduction factors stay local (partial results) only with `local_reductions`.

    The plan depends only on the op's name, rule, types, the axes sharding
    its tensors, the mesh and the dims it moves: a program repeating one op
    with the same shardings (a layer stack) plans it once (`ctx.plans`)."""
    if rule is None:
        return whole_plan(ctx, op)
    values = [*op.operands, *op.results]
    types = tuple(v.type for v in values)
    axes = [ctx.sharded_axes(v) if isinstance(v.type, TensorType) else [] for v in values]
    moved = ()
    if op.operands and isinstance(op.operands[0].type, TensorType):
        moved = tuple(sorted(moving_dims(op)))
    key = (
        op.name,
        rule,
        local_reductions,
        ctx.mesh,
        len(op.operands),
        types,
        tuple(map(tuple, axes)),
        moved,
    )
    plan = ctx.plans.get(key)
    if plan is None:
        plan = _plan(
            op.name, types, len(op.operands), axes, moved, rule, ctx.mesh, local_reductions
        )
        ctx.plans[key] = plan
    return plan


def _plan(
    name: str,
    types: Sequence[Type],
    operand_count: int,
    axes: Sequence[Sequence[tuple[AxisRef, ...]]],
    moved: Sequence[int],
    rule: OpShardingRule,
    mesh: Mesh,
    local_reductions: bool,
) -> FactorPlan:
    """`plan_factors` for an op named `name` whose values have `types` (its
    `operand_count` operands, then its results), sharded by `axes`, and
    which moves elements along dims `moved` of operand 0."""
    mappings = [*rule.operand_mappings, *rule.result_mappings]
    in_dim: dict[int, list[tuple[int, int]]] = {}  # factor -> (tensor, dim) holding it
    factor_axes: dict[int, dict[int, tuple[AxisRef, ...]]] = {}  # factor -> tensor -> axes
    replicated: set[int] = set()
    bad: set[tuple[int, int]] = set()  # sharded (tensor, dim) without factors
    for t, (type_, mapping) in enumerate(zip(types, mappings, strict=True)):
        if not isinstance(type_, TensorType):
            continue
        sharding = TensorSharding(mesh, tuple(DimSharding(a) for a in axes[t]))
        projected = project_tensor(
            sharding, mapping, rule.factor_sizes, mesh, closed_if_missing=True
        )
        for d, factors in enumerate(mapping):
            for f in factors:
                in_dim.setdefault(f, []).append((t, d))
            if axes[t][d] and not factors:
                bad.add((t, d))
        for f, fs in projected.factors.items():
            factor_axes.setdefault(f, {})[t] = merged(fs.axes, mesh)
            if fs.overflow_axes:
                replicated.update(mapping[next(d for d, m in enumerate(mapping) if f in m)])
    for d in moved:
        replicated.update(rule.operand_mappings[0][d])
    reductions = set(rule.reduction_factors)
    for f, per_tensor in factor_axes.items():
        distinct = set(per_tensor.values())
        sharded = any(per_tensor.values())
        if not sharded:
            continue
        kind_ok = f not in rule.need_replication_factors and f not in rule.permutation_factors
        kind_ok = kind_ok and f not in rule.blocked_propagation_factors
        in_operands = any(t < operand_count for t in per_tensor)
        in_results = any(t >= operand_count for t in per_tensor)
        if f in reductions:
            alone = all(mappings[t][d] == (f,) for t, d in in_dim[f])
            kind_ok = kind_ok and local_reductions and not in_results and alone
        elif not in_results or (not in_operands and name not in _POSITION_FREE):
            kind_ok = False
        (shard_axes,) = distinct if len(distinct) == 1 else (None,)
        if len(distinct) != 1 or not kind_ok:
            replicated.add(f)
            continue
        if rule.factor_sizes[f] % axes_size(shard_axes, mesh):
            for t, d in in_dim[f]:
                if mappings[t][d] != (f,) or types[t].shape[d] != rule.factor_sizes[f]:
                    replicated.add(f)
    # Gathering a dim makes all of its factors whole: they must be whole everywhere.
    changed = True
    while changed:
        changed = False
        for t, mapping in enumerate(mappings):
            for d, factors in enumerate(mapping):
                if not replicated.intersection(factors) and (t, d) not in bad:
                    continue
                for g in factors:
                    if g not in replicated and any(factor_axes.get(g, {}).values()):
                        replicated.add(g)
                        changed = True
    gather, whole, reduced = [], [], []
    reduction_axes: list[AxisRef] = []
    for t, (type_, mapping) in enumerate(zip(types, mappings, strict=True)):
        if not isinstance(type_, TensorType):
            (gather if t < operand_count else whole).append(())
            if t < operand_count:
                reduced.append(())
            continue
        dims = tuple(
            d
            for d, factors in enumerate(mapping)
            if (t, d) in bad or replicated.intersection(factors)
        )
        if t < operand_count:
            gather.append(tuple(d for d in dims if axes[t][d]))
            local = [
                d
                for d, factors in enumerate(mapping)
                if d not in dims and reductions.intersection(factors) and axes[t][d]
            ]
            reduced.append(tuple(local))
            for d in local:  # a reduction factor is its dim alone
                reduction_axes += [a for a in axes[t][d] if a not in reduction_axes]
        else:
            whole.append(dims)
    return FactorPlan(
        tuple(gather),
        tuple(whole),
        tuple(mesh_ordered(reduction_axes, mesh)) if reduction_axes else (),
        tuple(reduced),
    )


def lower_with_plan(
    ctx: LocalContext,
    op: Op,
    operands: Sequence[Value],
    regions: Sequence[Region],
    plan: FactorPlan,
    attributes: dict | None = None,
) -> list[Value]:
    """`op` on local values following `plan` (see the module docstring)."""
    new_operands = []
    for value, x, dims in zip(op.operands, operands, plan.gather, strict=True):
        if dims:
            axes, shape, mesh = ctx.sharded_axes(value), value.type.shape, ctx.mesh_of(value)
            x = gather_dims(ctx, x, axes, shape, dims, mesh)
            if _leaves_its_devices(ctx, op, axes, dims, mesh):
                x = spread(ctx, x, mesh.size)
        new_operands.append(x)
    types = []
    for result, dims in zip(op.results, plan.whole, strict=True):
        local = ctx.local_type(result, op)
        if dims:
            shape = [
                n if d in dims else m
                for d, (n, m) in enumerate(zip(result.type.shape, local.shape, strict=True))
            ]
            local = local.with_shape(tuple(shape))
        types.append(local)
    attrs = dict(op.attributes) if attributes is None else attributes
    new = ctx.op(op.name, new_operands, types, attrs, regions, op.location)
    new.inherent = op.inherent
    results = []
    for result, x, dims in zip(op.results, new.results, plan.whole, strict=True):
        if dims:
            axes, shape = ctx.sharded_axes(result), result.type.shape
            x = slice_dims(ctx, x, axes, shape, dims, ctx.mesh_of(result))
        results.append(x)
    return results


def _leaves_its_devices(
    ctx: LocalContext, op: Op, axes: Sequence[Sequence[AxisRef]], dims: Sequence[int], mesh: Mesh
) -> bool:
    """Whether an operand split on `mesh`, a mesh of fewer devices than the
    program's, gathered whole along `dims`, feeds results that other devices
    hold too (replicated ones, or ones split on a larger mesh)."""
    if mesh.size >= ctx.num_devices or any(a and d not in dims for d, a in enumerate(axes)):
        return False
    return any(
        ctx.sharding(r) is None or ctx.mesh_of(r).size > mesh.size
        for r in op.results
        if isinstance(r.type, TensorType)
    )


def copy_region(region: Region) -> Region:
    """A deep copy of a (converted) region."""
    mapping: dict[Value, Value] = {}
    copy = Region()
    for block in region.blocks:
        new = copy.append(Block([a.type for a in block.arguments]))
        mapping.update(zip(block.arguments, new.arguments, strict=True))
    for block, new in zip(region.blocks, copy.blocks, strict=True):
        for op in block.ops:
            new.append(op.clone(mapping))
    return copy


def is_even(ctx: LocalContext, op: Op) -> bool:
    """Whether every sharded dim of every tensor of `op` divides into its shards."""
    for value in (*op.operands, *op.results):
        if not isinstance(value.type, TensorType):
            continue
        for size, axes in zip(value.type.shape, ctx.sharded_axes(value), strict=True):
            if axes and size % axes_size(axes, ctx.mesh_of(value)):
                return False
    return True


def planned_attributes(ctx: LocalContext, op: Op, plan: FactorPlan) -> dict | None:
    """The attributes of a slice or dynamic_slice run as `plan` says: along
    sharded dims kept local (whole slices), the sizes are the local ones."""
    if op.name not in ("stablehlo.slice", "stablehlo.dynamic_slice"):
        return None
    source = op.operands[0]
    axes = ctx.sharded_axes(source)
    local = ctx.local_type(source, op).shape
    kept = [d for d, a in enumerate(axes) if a and d not in plan.gather[0]]
    if not kept:
        return None
    key = "limit_indices" if op.name == "stablehlo.slice" else "slice_sizes"
    values = list(i64_list(op, key))
    for d in kept:
        if values[d] != source.type.shape[d]:
            raise partition_error(op, f"dimension {d} is kept sharded but only partly taken")
        values[d] = local[d]
    return dict(op.attributes, **{key: DenseArrayAttr(I64, tuple(values))})
