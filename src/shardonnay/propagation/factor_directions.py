"""The direction each factor of an item's rule may propagate in, per
op-priority stage, kept as one tuple object per distinct value.

Outside op-priority propagation every factor propagates both ways. In
op-priority stage `k`, the factors of an item propagate in the union of the
directions the heuristics of stages 0..k give them (`OP_PRIORITY_STAGES`).
Direction tuples are interned, so that a propagation step can be remembered
by their identity, and those in which no factor propagates (all NONE) are
listed in `inert`, so that such a step is skipped at once.

>>> directions = FactorDirections()
>>> both = directions.both_ways(2)
>>> both is directions.both_ways(2), [d.name for d in both]
(True, ['BOTH', 'BOTH'])
>>> none = directions.distinct((PropagationDirection.NONE,) * 2)
>>> none in directions.inert, both in directions.inert
(True, False)
"""

from __future__ import annotations

from collections.abc import Hashable

from shardonnay.propagation.factor_propagation import PropagationDirection
from shardonnay.propagation.op_priority import (
    OP_PRIORITY_STAGES,
    Directions,
    Item,
    stage_inputs,
    union,
)
from shardonnay.sharding_rule import OpShardingRule

__all__ = ["FactorDirections"]


# The directions in each op-priority stage by `stage_inputs` and the identity
# of the rule (each entry keeps its rule alive, so that the identity is not
# reused): ops of the same kinds come back program after program with the
# rule objects `rule_for` remembers. Cleared when full.
_STAGES: dict[tuple[Hashable, int], tuple[tuple[Directions, ...], OpShardingRule]] = {}
_STAGES_LIMIT = 4096


def _stages(item: Item, rule: OpShardingRule) -> tuple[Directions, ...]:
    """The directions of `item`'s factors in each op-priority stage."""
    per_stage = []
    directions = (PropagationDirection.NONE,) * rule.num_factors
    for heuristic in OP_PRIORITY_STAGES:
        directions = tuple(map(union, directions, heuristic(item, rule)))
        per_stage.append(directions)
    return tuple(per_stage)


class FactorDirections:
    """Interned factor directions of items (see the module docstring)."""

    def __init__(self) -> None:
        # Per item, the direction of each factor of its rule in each stage.
        self._per_item: dict[Item, list[Directions]] = {}
        # Per `stage_inputs` and rule identity, the directions in each stage.
        self._per_kind: dict[tuple[Hashable, int], tuple[list[Directions], OpShardingRule]] = {}
        self._by_value: dict[Directions, Directions] = {}
        self._both_ways_by_size: dict[int, Directions] = {}
        # Directions along which nothing propagates (every factor NONE).
        self.inert: set[Directions] = set()

    def of(self, item: Item, rule: OpShardingRule, stage: int | None) -> Directions:
        """The direction of each factor of `item`'s `rule` in `stage`:
        both ways outside op-priority propagation (`stage` None), else the
        union of the directions of stages 0..stage (see `OP_PRIORITY_STAGES`)."""
        if stage is None:
            return self.both_ways(rule.num_factors)
        per_stage = self._per_item.get(item)
        if per_stage is None:
            per_stage = self._per_item[item] = self.per_stage(item, rule)
        return per_stage[stage]

    def per_stage(self, item: Item, rule: OpShardingRule) -> list[Directions]:
        """The directions of `item`'s factors in each op-priority stage,
        worked out once per `stage_inputs` of the item and rule (see
        `_STAGES`), as the objects kept here (the entry keeps the rule
        alive, so that its identity is not reused)."""
        key = (stage_inputs(item), id(rule))
        entry = self._per_kind.get(key)
        if entry is None:
            known = _STAGES.get(key)
            if known is None:
                if len(_STAGES) >= _STAGES_LIMIT:
                    _STAGES.clear()
                known = _STAGES[key] = (_stages(item, rule), rule)
            entry = self._per_kind[key] = ([self.distinct(d) for d in known[0]], rule)
        return entry[0]

    def both_ways(self, num_factors: int) -> Directions:
        """`num_factors` factors, each propagating both ways."""
        both = self._both_ways_by_size.get(num_factors)
        if both is None:
            both = self.distinct((PropagationDirection.BOTH,) * num_factors)
            self._both_ways_by_size[num_factors] = both
        return both

    def distinct(self, directions: Directions) -> Directions:
        """The one object kept for tuples equal to `directions`."""
        distinct = self._by_value.setdefault(directions, directions)
        if distinct is directions and all(d is PropagationDirection.NONE for d in directions):
            self.inert.add(directions)
        return distinct
