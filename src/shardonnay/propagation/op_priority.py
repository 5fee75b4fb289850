"""Op-priority propagation: the stages of Shardy's `sdy-op-priority-propagate`.

Each stage is a heuristic giving the direction of every factor of the rule
of an op or data-flow edge (`Item`). In stage `k` a factor propagates along
the union of its directions in stages 0..k, so each stage lets through at
least what the one before did (`OP_PRIORITY_STAGES`):

0. elementwise ops, reshapes, transposes and data-flow edges both ways,
   dynamic slices (and their updates) forward only, when no operand has
   other uses;
1. the same ops, whatever the uses of their operands;
2. the pass-through factors of every op (broadcasts: backward only);
3. everything, but broadcasts only backward;
4. everything.

>>> from shardonnay.propagation.factor_propagation import PropagationDirection as D
>>> union(D.FORWARD, D.BACKWARD).name, union(D.NONE, D.FORWARD).name
('BOTH', 'FORWARD')
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType
from shardonnay.ops.traits import DYNAMIC_SLICING, PASS_THROUGH, has_trait, is_elementwise
from shardonnay.propagation.data_flow import DataFlowEdge
from shardonnay.propagation.factor_propagation import PropagationDirection
from shardonnay.sharding_rule import OpShardingRule

__all__ = ["OP_PRIORITY_STAGES", "Directions", "Item", "is_elementwise", "stage_inputs", "union"]

# What propagation goes through: an op with a rule (or a propagation barrier)
# or a data-flow edge.
Item = Op | DataFlowEdge

# The direction of each factor of a rule.
Directions = tuple[PropagationDirection, ...]


# The ways each direction lets shardings go, as bits (forward 1, backward 2):
# intersections and unions of directions are those of their bits.
_WAYS = {
    PropagationDirection.NONE: 0,
    PropagationDirection.FORWARD: 1,
    PropagationDirection.BACKWARD: 2,
    PropagationDirection.BOTH: 3,
}
_DIRECTION_OF_WAYS = {ways: direction for direction, ways in _WAYS.items()}


def _intersection(a: PropagationDirection, b: PropagationDirection) -> PropagationDirection:
    """The directions both `a` and `b` allow."""
    return _DIRECTION_OF_WAYS[_WAYS[a] & _WAYS[b]]


def union(a: PropagationDirection, b: PropagationDirection) -> PropagationDirection:
    """The directions `a` or `b` allows.

    >>> union(PropagationDirection.FORWARD, PropagationDirection.BACKWARD).name
    'BOTH'
    >>> _intersection(PropagationDirection.FORWARD, PropagationDirection.BOTH).name
    'FORWARD'
    """
    return _DIRECTION_OF_WAYS[_WAYS[a] | _WAYS[b]]


def _single_use_operands(op: Op) -> bool:
    """Whether every operand of `op` (but scalars) has `op` as its only use."""
    for v in op.operands:
        if len(v.uses) != 1 and not (isinstance(v.type, TensorType) and not v.type.shape):
            return False
    return True


def _uses_direction(item: Item, allow_multi_use: bool) -> PropagationDirection:
    """NONE when an operand (not a scalar) of `item` has more than one use: a
    conflict could come from (or go to) another use."""
    if allow_multi_use or isinstance(item, DataFlowEdge) or _single_use_operands(item):
        return PropagationDirection.BOTH
    return PropagationDirection.NONE


def stage_inputs(item: Item) -> Hashable:
    """All that the heuristics of `OP_PRIORITY_STAGES` read of `item` besides
    its rule: items with equal `stage_inputs` and the same rule get the same
    directions in every stage (so that they are worked out once per kind of
    op, not once per op). A data-flow edge is None; an op is its name (which
    gives its traits), whether it is elementwise (a `bitcast_convert` is when
    it keeps the shape), the target of a custom call and whether its
    operands are used by it alone."""
    if isinstance(item, DataFlowEdge):
        return None
    name = item.name
    target = item.attributes.get("call_target_name") if name == "stablehlo.custom_call" else None
    return (name, is_elementwise(item), target, _single_use_operands(item))


def _pass_through_op(item: Item, allow_multi_use: bool) -> PropagationDirection:
    if isinstance(item, DataFlowEdge) or is_elementwise(item) or has_trait(item, PASS_THROUGH):
        return _uses_direction(item, allow_multi_use)
    if item.name == "stablehlo.custom_call" and item.attributes.get("call_target_name") in (
        "MoveToDevice",
        "MoveToHost",
    ):
        return _uses_direction(item, allow_multi_use)
    if has_trait(item, DYNAMIC_SLICING):
        return _intersection(_uses_direction(item, allow_multi_use), PropagationDirection.FORWARD)
    return PropagationDirection.NONE


def _pass_through_ops_single_use(item: Item, rule: OpShardingRule) -> Directions:
    """Stage 0: elementwise ops, reshapes, transposes and data-flow edges both
    ways, dynamic slices (and their updates) forward only, when no operand
    has other uses."""
    return (_pass_through_op(item, allow_multi_use=False),) * rule.num_factors


def _pass_through_ops(item: Item, rule: OpShardingRule) -> Directions:
    """Stage 1: the same ops, whatever the uses of their operands."""
    return (_pass_through_op(item, allow_multi_use=True),) * rule.num_factors


def _pass_through_factors(item: Item, rule: OpShardingRule) -> Directions:
    """Stage 2: the pass-through factors of every op (broadcasts: backward only)."""
    if isinstance(item, DataFlowEdge):
        return (PropagationDirection.BOTH,) * rule.num_factors
    direction = (
        PropagationDirection.BACKWARD
        if item.name == "stablehlo.broadcast_in_dim"
        else PropagationDirection.BOTH
    )
    special = {
        *rule.reduction_factors,
        *rule.need_replication_factors,
        *rule.permutation_factors,
    }  # the factors whose kind is not pass-through
    return tuple(
        PropagationDirection.NONE if f in special else direction for f in range(rule.num_factors)
    )


def _any_but_broadcast_forward(item: Item, rule: OpShardingRule) -> Directions:
    """Stage 3: everything, but broadcasts only backward."""
    if not isinstance(item, DataFlowEdge) and item.name == "stablehlo.broadcast_in_dim":
        return (PropagationDirection.BACKWARD,) * rule.num_factors
    return (PropagationDirection.BOTH,) * rule.num_factors


def _any(item: Item, rule: OpShardingRule) -> Directions:
    """Stage 4: everything."""
    return (PropagationDirection.BOTH,) * rule.num_factors


OP_PRIORITY_STAGES: tuple[Callable[[Item, OpShardingRule], Directions], ...] = (
    _pass_through_ops_single_use,
    _pass_through_ops,
    _pass_through_factors,
    _any_but_broadcast_forward,
    _any,
)
