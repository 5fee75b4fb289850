"""Factor propagation: which axes each factor of an op gets, across its tensors.

Given a `ShardingProjection` (every operand and result seen per factor of the
op's rule), a strategy finds for each factor the axes it can be sharded along
in all tensors and expands, in place, the tensors whose sharding of that
factor is a strict prefix of them. Two strategies, as in Shardy:

`BasicFactorPropagation`: per factor, the *compatible major axes* are the
longest axis list that every tensor's axes for the factor agree with (a tensor
whose list is a prefix of another's may be extended: `["a"]` and `["a", "b"]`
give `["a", "b"]`; `["a", "b"]` and `["a", "c"]` give `["a"]`). The list is then
cut at the first axis that, in some tensor, overlaps an axis (or overflow axis)
of another factor, or a replicated/unreduced axis, or would be added to a
closed factor, a factor with overflow axes, or a non-minor-most factor whose
size it would not divide (an axis that only partly fits is cut to the
sub-axis that does). Every tensor gets the same axes for the factor.

`AggressiveFactorPropagation` (Shardy's default): the same compatible axes, but
the conflicts are resolved per tensor, so different tensors may get different
prefixes; and an axis only conflicts with the other factors *of the tensor it
is propagated to*. Competing factors are handled in order: the factor whose
source tensor (the largest tensor whose sharding already extends the
compatible axes) is larger goes first; then, for elementwise ops, the factor
whose compatible axes shard it more; then the smaller source tensor index;
then the smaller factor index.

Directions: `PropagationDirection.FORWARD` lets only operands contribute new
axes and only results change (results still count for conflicts);
`BACKWARD` the converse; `NONE` propagates nothing. A direction can be given
per factor with a callable or a sequence.

`propagate_op` does the whole step for one op: project, propagate, unproject,
and report which tensors got a new sharding (Shardy's `propagateTensorShardings`).

>>> from shardonnay.mesh import Mesh
>>> from shardonnay.sharding import TensorSharding
>>> from shardonnay.sharding_rule import RuleBuilder
>>> rule = RuleBuilder([(8,)], [(2, 4)]).add_factor([0], [0], 2).add_factor([0], [1], 4).build()
>>> step = propagate_op([TensorSharding.from_axes("m", ["x"])], [None], rule, Mesh({"x": 4}), "m")
>>> print(step.results[0], step.updated_results)
#sdy.sharding<@m, [{"x":(1)2, ?}, {"x":(2)2, ?}]> [True]
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shardonnay.axes import AxisRef
from shardonnay.mesh import Mesh
from shardonnay.propagation.projection import (
    FactorSharding,
    PrefixStatus,
    Projections,
    ShardingProjection,
    TensorFactorShardings,
    axis_list_prefix_status,
    is_strict_prefix,
)
from shardonnay.sharding import TensorSharding
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "AggressiveFactorPropagation",
    "BasicFactorPropagation",
    "DirectionAlongFactor",
    "FactorPropagation",
    "OpPropagationResult",
    "PropagationDirection",
    "compatible_major_axes",
    "propagate_op",
]


class PropagationDirection(enum.Enum):
    NONE = "none"
    FORWARD = "forward"
    BACKWARD = "backward"
    BOTH = "both"

    # Members are singletons: hashing by identity is right, and faster than
    # Enum's hash of the name (directions key the driver's memo).
    __hash__ = object.__hash__


# The direction of each factor: a function of the factor, or a sequence.
DirectionAlongFactor = Callable[[int], PropagationDirection] | Sequence[PropagationDirection]


def _direction_fn(
    direction: PropagationDirection | DirectionAlongFactor,
) -> Callable[[int], PropagationDirection]:
    if type(direction) is tuple:  # (what `propagate_op` hands its strategy)
        return direction.__getitem__
    if isinstance(direction, PropagationDirection):
        return lambda _factor: direction
    if isinstance(direction, Sequence):
        return direction.__getitem__
    return direction


# -- the compatible major axes of a factor, ignoring conflicts --------------------


def _merge_compatible(
    old: Sequence[AxisRef], new: Sequence[AxisRef], can_expand: bool
) -> tuple[list[AxisRef], bool]:
    """The longest list compatible with `old` and `new`, and whether it may
    still be expanded by later lists.

    With `can_expand` False the result is at most `old`. `["a"]`, `["a", "b"]`
    give `["a", "b"]`; `["a":(1)2]`, `["a":(1)4]` give `["a":(1)4]`;
    `["a", "b"]`, `["a", "c"]` give `["a"]` (no more expansion).
    """
    result: list[AxisRef] = []
    i = 0
    while i < len(old) and i < len(new):
        o, n = old[i], new[i]
        i += 1
        if o.name != n.name:
            return result, False
        if o.sub_axis == n.sub_axis:
            result.append(n)
        elif n.prefix_of(o):
            if i < len(new):  # more new axes after a shorter sub-axis: conflicting
                result.append(n)
                return result, False
            result.append(o)
        elif o.prefix_of(n):
            if not can_expand or i < len(old):
                result.append(o)
                return result, False
            result.append(n)
        else:
            return result, False
    result.extend(old[i:])
    if can_expand:
        result.extend(new[i:])
    return result, can_expand


def compatible_major_axes(
    projection: ShardingProjection, factor: int, direction: PropagationDirection
) -> list[AxisRef]:
    """The axes all tensors' shardings of `factor` agree with (see the module
    docstring), before removing conflicts. Only the tensors on the source side
    of `direction` may extend the list."""
    if direction is PropagationDirection.NONE:
        return []
    if direction is PropagationDirection.BACKWARD:
        first, second = projection.results, projection.operands
    else:
        first, second = projection.operands, projection.results
    axes: list[AxisRef] = []
    can_expand = True
    for group_index, group in enumerate((first, second)):
        if group_index == 1 and direction is not PropagationDirection.BOTH:
            can_expand = False
        for tensor in group:
            sharding = tensor.factors.get(factor)
            if sharding is not None:
                axes, can_expand = _merge_compatible(axes, sharding.axes, can_expand)
    return axes


# -- conflicts ---------------------------------------------------------------------


def _prefix_without_overlap(axis: AxisRef, others: Sequence[AxisRef]) -> AxisRef | None:
    result: AxisRef | None = axis
    for other in others:
        result = result.prefix_without_overlap(other)
        if result is None:
            return None
    return result


def _no_conflict_across_factors(
    axis: AxisRef, factors: dict[int, FactorSharding], factor: int
) -> AxisRef | None:
    """The largest prefix of `axis` overlapping no axis (or overflow axis) of
    another factor in `factors`."""
    result: AxisRef | None = axis
    for other_factor, sharding in factors.items():
        if other_factor == factor:
            continue
        result = _prefix_without_overlap(result, sharding.overflow_axes)
        if result is None:
            return None
        result = _prefix_without_overlap(result, sharding.axes)
        if result is None:
            return None
    return result


def _no_conflict_within_factor(
    axis: AxisRef,
    blocked: Sequence[AxisRef],
    sharding: FactorSharding,
    prev_sharded_size: int,
    factor_size: int,
    mesh: Mesh,
) -> AxisRef | None:
    """The largest prefix of `axis` that this tensor's `factor` can take after
    axes of total size `prev_sharded_size`: not replicated/unreduced, and
    either already there, or addable to the factor (open, no overflow, and
    minor-most or dividing the factor's size; an axis that only partly fits is
    cut to the sub-axis that does)."""
    result = _prefix_without_overlap(axis, blocked)
    if result is None:
        return None
    if any(a.contains(result) for a in sharding.axes):
        return result
    if not sharding.is_closed and not sharding.overflow_axes:
        if sharding.is_minor_most:
            return result
        if factor_size % prev_sharded_size == 0:
            size = result.size(mesh)
            gcd = math.gcd(factor_size // prev_sharded_size, size)
            if gcd == size:
                return result
            if gcd != 1:
                return AxisRef(result.name, (result.pre_size, gcd))
    if sharding.axes and sharding.axes[-1].prefix_of(result):
        return sharding.axes[-1]
    return None


def _truncate(
    axes: list[AxisRef],
    remove_conflicts: Callable[[AxisRef, int], AxisRef | None],
    mesh: Mesh,
    conservative: bool,
) -> list[AxisRef]:
    """Cuts `axes` at the first axis `remove_conflicts(axis, prev_sharded_size)`
    shrinks (keeping the shrunk axis) or rejects. With `conservative`, a
    sub-axis result is rejected too."""
    prev = 1
    for i, axis in enumerate(axes):
        new = remove_conflicts(axis, prev)
        if new is None or (conservative and new.is_sub_axis):
            return axes[:i]
        if new != axis:
            return [*axes[:i], new]
        prev *= new.size(mesh)
    return axes


# -- strategies --------------------------------------------------------------------


class FactorPropagation:
    """A strategy: `propagate` expands `projection` in place and returns, per
    tensor (operands then results), whether it changed."""

    def propagate(
        self,
        projection: ShardingProjection,
        factor_sizes: Sequence[int],
        mesh: Mesh,
        direction: PropagationDirection | DirectionAlongFactor = PropagationDirection.BOTH,
        *,
        is_elementwise: bool = False,
        conservative: bool = False,
    ) -> list[bool]:
        raise NotImplementedError


class BasicFactorPropagation(FactorPropagation):
    """Every tensor gets the same axes per factor; factors are propagated one
    after another (a factor sees the axes given to the factors before it)."""

    def compatible_prefix(
        self,
        axis: AxisRef,
        projection: ShardingProjection,
        factor: int,
        prev_sharded_size: int,
        factor_size: int,
        mesh: Mesh,
    ) -> AxisRef | None:
        result: AxisRef | None = axis
        for tensor in projection.tensors:
            result = _no_conflict_across_factors(result, tensor.factors, factor)
            if result is None:
                return None
            sharding = tensor.factors.get(factor)
            if sharding is None:
                continue
            result = _no_conflict_within_factor(
                result, tensor.blocked_axes(), sharding, prev_sharded_size, factor_size, mesh
            )
            if result is None:
                return None
        return result

    def axes_for_factor(
        self,
        projection: ShardingProjection,
        factor: int,
        direction: PropagationDirection,
        factor_size: int,
        mesh: Mesh,
        *,
        conservative: bool = False,
    ) -> list[AxisRef]:
        """The axes `factor` can be sharded along in every tensor."""
        axes = compatible_major_axes(projection, factor, direction)
        return _truncate(
            axes,
            lambda a, prev: self.compatible_prefix(a, projection, factor, prev, factor_size, mesh),
            mesh,
            conservative,
        )

    def propagate(
        self,
        projection: ShardingProjection,
        factor_sizes: Sequence[int],
        mesh: Mesh,
        direction: PropagationDirection | DirectionAlongFactor = PropagationDirection.BOTH,
        *,
        is_elementwise: bool = False,
        conservative: bool = False,
    ) -> list[bool]:
        direction_of = _direction_fn(direction)
        changed = [False] * len(projection.tensors)
        for factor, size in enumerate(factor_sizes):
            axes = self.axes_for_factor(
                projection, factor, direction_of(factor), size, mesh, conservative=conservative
            )
            for t, did in enumerate(projection.expand(factor, axes)):
                changed[t] |= did
        return changed


class AggressiveFactorPropagation(BasicFactorPropagation):
    """Conflicts are resolved per tensor; competing factors are ordered by the
    size of their source tensor (see the module docstring)."""

    def _source_order(
        self,
        projection: ShardingProjection,
        factor_sizes: Sequence[int],
        axes_per_factor: Sequence[Sequence[AxisRef]],
        mesh: Mesh,
        is_elementwise: bool,
        factors: Sequence[int],
    ) -> list[int]:
        """`factors` in the order they propagate (see the module docstring):
        the order of all factors, restricted to these (a factor's place in
        it is a function of that factor alone)."""
        sources = [(-1, -1)] * len(factor_sizes)  # (size, tensor index) per factor
        for t, tensor in enumerate(projection.tensors):
            size = math.prod(factor_sizes[f] for f in tensor.factors)
            for f, sharding in tensor.factors.items():
                axes = axes_per_factor[f]
                is_source = bool(axes) and (
                    axis_list_prefix_status(axes, sharding.axes) is not PrefixStatus.NOT_A_PREFIX
                )
                if is_source and size > sources[f][0]:
                    sources[f] = (size, t)

        def sharded_size(f: int) -> int:
            if not is_elementwise:
                return 0
            return math.prod(a.size(mesh) for a in axes_per_factor[f])

        if len(factors) == 1:
            return list(factors)
        return sorted(factors, key=lambda f: (-sources[f][0], -sharded_size(f), sources[f][1], f))

    def _axes_for_tensor(
        self,
        factor: int,
        tensor: TensorFactorShardings,
        axes_per_factor: Sequence[Sequence[AxisRef]],
        factor_sizes: Sequence[int],
        mesh: Mesh,
        conservative: bool,
    ) -> list[AxisRef]:
        sharding = tensor.factors.get(factor)
        if sharding is None:
            return []
        compatible = axes_per_factor[factor]
        if axis_list_prefix_status(sharding.axes, compatible) is not PrefixStatus.STRICT_PREFIX:
            # The tensor has all of them (or others): what the conflicts leave of
            # them cannot extend its axes.
            return []
        blocked = tensor.blocked_axes()
        axes = _truncate(
            list(compatible),
            lambda a, prev: _no_conflict_within_factor(
                a, blocked, sharding, prev, factor_sizes[factor], mesh
            ),
            mesh,
            conservative,
        )
        if not is_strict_prefix(sharding.axes, axes):
            return []
        return _truncate(
            axes,
            lambda a, _prev: _no_conflict_across_factors(a, tensor.factors, factor),
            mesh,
            conservative,
        )

    def propagate(
        self,
        projection: ShardingProjection,
        factor_sizes: Sequence[int],
        mesh: Mesh,
        direction: PropagationDirection | DirectionAlongFactor = PropagationDirection.BOTH,
        *,
        is_elementwise: bool = False,
        conservative: bool = False,
    ) -> list[bool]:
        direction_of = _direction_fn(direction)
        changed = [False] * len(projection.tensors)
        axes_per_factor = [
            compatible_major_axes(projection, f, direction_of(f)) for f in range(len(factor_sizes))
        ]
        if not any(axes_per_factor):
            return changed
        n = projection.num_operands
        expandable = _expandable_factors(projection, axes_per_factor, direction_of)
        if not expandable:
            return changed
        order = self._source_order(
            projection, factor_sizes, axes_per_factor, mesh, is_elementwise, expandable
        )
        for factor in order:
            direction = direction_of(factor)
            if direction is not PropagationDirection.BACKWARD:
                for r, tensor in enumerate(projection.results):
                    axes = self._axes_for_tensor(
                        factor, tensor, axes_per_factor, factor_sizes, mesh, conservative
                    )
                    if axes and projection.expand_tensor(n + r, factor, axes):
                        changed[n + r] = True
            if direction is not PropagationDirection.FORWARD:
                for o, tensor in enumerate(projection.operands):
                    axes = self._axes_for_tensor(
                        factor, tensor, axes_per_factor, factor_sizes, mesh, conservative
                    )
                    if not axes:
                        continue
                    if is_elementwise:
                        axes = _cancel_sideways(projection, factor, axes)
                    if projection.expand_tensor(o, factor, axes):
                        changed[o] = True
        return changed


def _expandable_factors(
    projection: ShardingProjection,
    axes_per_factor: Sequence[Sequence[AxisRef]],
    direction_of: Callable[[int], PropagationDirection],
) -> list[int]:
    """The factors that may expand some tensor, in increasing order: those
    with compatible axes of which a tensor on a side their direction
    propagates to has a strict prefix. A tensor's axes for a factor change
    only when that factor expands them, and `_axes_for_tensor` gives a
    tensor no axes unless they are a strict prefix of the compatible ones:
    the other factors expand no tensor, wherever they come in the order."""
    expandable = []
    for factor, compatible in enumerate(axes_per_factor):
        if not compatible:
            continue
        direction = direction_of(factor)
        sides = (
            projection.results
            if direction is PropagationDirection.FORWARD
            else projection.operands
            if direction is PropagationDirection.BACKWARD
            else projection.tensors
        )
        for tensor in sides:
            sharding = tensor.factors.get(factor)
            if sharding is not None and (
                axis_list_prefix_status(sharding.axes, compatible) is PrefixStatus.STRICT_PREFIX
            ):
                expandable.append(factor)
                break
    return expandable


def _cancel_sideways(
    projection: ShardingProjection, factor: int, axes: list[AxisRef]
) -> list[AxisRef]:
    """For elementwise ops, an operand gets no more axes than a result already
    has when that result's axes are a strict prefix of `axes` (no sideways
    propagation from one operand to another past the result)."""
    for result in projection.results:
        sharding = result.factors.get(factor)
        if sharding is not None and is_strict_prefix(sharding.axes, axes):
            axes = list(sharding.axes)
    return axes


# -- one op ------------------------------------------------------------------------


@dataclass
class OpPropagationResult:
    """The outcome of propagating through one op.

    `operands`/`results`: the new sharding of every tensor (the old one, or
    None, where nothing changed); `updated_*`: which tensors got a new sharding.
    """

    operands: list[TensorSharding | None]
    results: list[TensorSharding | None]
    updated_operands: list[bool]
    updated_results: list[bool]
    projection: ShardingProjection

    @property
    def any_updated(self) -> bool:
        return any(self.updated_operands) or any(self.updated_results)


def propagate_op(
    operand_shardings: Sequence[TensorSharding | None],
    result_shardings: Sequence[TensorSharding | None],
    rule: OpShardingRule,
    mesh: Mesh,
    mesh_ref: str | Mesh,
    *,
    strategy: FactorPropagation | None = None,
    direction: PropagationDirection | DirectionAlongFactor = PropagationDirection.BOTH,
    is_elementwise: bool = False,
    conservative: bool = False,
    projections: Projections | None = None,
) -> OpPropagationResult:
    """Propagates shardings through one op with `rule` (default strategy:
    aggressive). Factors marked `blocked_propagation` in the rule do not
    propagate (need-replication and permutation factors do). A tensor counts
    as updated when the factor propagation changed it and its unprojected
    sharding differs from the old one (a missing old sharding: when the new
    one shards something). `projections`: those remembered by the
    propagation this step is part of (see `ShardingProjection.build`)."""
    strategy = strategy if strategy is not None else AggressiveFactorPropagation()
    blocked = rule.blocked_propagation_factors
    if blocked or type(direction) is not tuple or len(direction) != rule.num_factors:
        along = _direction_fn(direction)
        direction_of = tuple(
            PropagationDirection.NONE if f in blocked else along(f) for f in range(rule.num_factors)
        )
    else:  # (the directions of the driver's steps, one per factor)
        direction_of = direction
    projection = ShardingProjection.build(
        operand_shardings, result_shardings, rule, mesh, remembered=projections
    )
    changed = strategy.propagate(
        projection,
        rule.factor_sizes,
        mesh,
        direction_of,
        is_elementwise=is_elementwise,
        conservative=conservative,
    )
    old = [*operand_shardings, *result_shardings]
    out: list[TensorSharding | None] = list(old)
    updated = [False] * len(old)
    n = len(operand_shardings)
    mappings = rule.operand_mappings + rule.result_mappings
    for t, did in enumerate(changed):
        if not did:
            continue
        tensor = projection.tensor(t)
        new = tensor.to_tensor_sharding(mappings[t], rule.factor_sizes, mesh_ref, mesh)
        if (old[t] is None and not new.dim_axes()) or new == old[t]:
            continue
        out[t], updated[t] = new, True
    return OpPropagationResult(out[:n], out[n:], updated[:n], updated[n:], projection)
