"""One propagation step on given shardings, remembered by its inputs.

A step propagates through one op (or data-flow edge, barrier or function
result) with `propagate_op`: from the shardings of its operands and
results, its rule and the direction of each factor, it gives their new
shardings. The shardings must be on one mesh (by name, or equal meshes); a
step with a maximal mesh (a value pinned to one device) or with different
meshes does nothing.

A step is a function of its inputs, so `StepOutcomes.outcome` keeps its
outcome by the identities of the input objects (each entry keeps them
alive, so that an identity is never reused while its entry exists). Equal
shardings produced by steps are made one object (`distinct`), which makes
the same step on the same shardings hit the memo:

>>> from shardonnay.mesh import Mesh
>>> from shardonnay.propagation.factor_directions import FactorDirections
>>> from shardonnay.propagation.factor_propagation import AggressiveFactorPropagation
>>> kept = {}
>>> steps = StepOutcomes(
...     {"m": Mesh({"x": 2})}, AggressiveFactorPropagation(), lambda s: kept.setdefault(s, s)
... )
>>> rule = identity_rule(TensorType((8,), "f32"))
>>> both = FactorDirections().both_ways(rule.num_factors)
>>> operand = TensorSharding.from_axes("m", ["x"])
>>> outcome = steps.outcome([operand], [None], rule, both, False, False)
>>> print(outcome[1][0], outcome[3])
#sdy.sharding<@m, [{"x", ?}]> [True]
>>> steps.outcome([operand], [None], rule, both, False, False) is outcome
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from shardonnay.errors import ShardingError
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.propagation.factor_propagation import (
    FactorPropagation,
    OpPropagationResult,
    propagate_op,
)
from shardonnay.propagation.op_priority import Directions
from shardonnay.propagation.projection import Projections
from shardonnay.sharding import TensorSharding
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

__all__ = ["Outcome", "StepOutcomes", "identity_rule"]


@functools.lru_cache(maxsize=4096)
def _identity_rule_of_shape(shape: tuple[int, ...], operands: int) -> OpShardingRule:
    return RuleBuilder([shape] * operands, [shape]).add_pointwise(shape).build()


def identity_rule(t: TensorType, operands: int = 1) -> OpShardingRule:
    """The rule of `operands` tensors of type `t` into one of that type, dim by
    dim (for data-flow edges, barriers and function results)."""
    return _identity_rule_of_shape(tuple(t.shape), operands)


# (new operand and result shardings, which operands and results were
# updated, whether any was)
Outcome = tuple[
    list[TensorSharding | None], list[TensorSharding | None], list[bool], list[bool], bool
]


class StepOutcomes:
    """Propagation steps with the factor propagation `factor_propagation` on
    the meshes `meshes` (by name), remembered (see the module docstring);
    `distinct` gives the one object kept for shardings equal to one."""

    def __init__(
        self,
        meshes: dict[str, Mesh],
        factor_propagation: FactorPropagation,
        distinct: Callable[[TensorSharding], TensorSharding],
    ):
        self.meshes = meshes
        self.factor_propagation = factor_propagation
        self._distinct = distinct
        self._memo: dict[tuple, tuple] = {}
        self._projections = Projections()

    def common_mesh(
        self, shardings: Sequence[TensorSharding | None]
    ) -> tuple[str | Mesh, Mesh] | None:
        """(the mesh as the shardings refer to it, the mesh) of `shardings`;
        None when there is none, one is maximal or they differ. A sharding on
        the empty mesh `<[]>` has no axes and fits any mesh: propagation may
        replace it by one on the common mesh (its closed dims stay empty)."""
        ref: str | Mesh | None = None
        mesh: Mesh | None = None
        for s in shardings:
            if s is None:
                continue
            this = s.mesh if isinstance(s.mesh, Mesh) else self.meshes.get(s.mesh)
            if this is None:
                raise ShardingError(f"sharding {s} refers to an unknown mesh")
            if this.is_maximal:  # a value pinned to one device takes no part
                return None
            if not this.axes:  # the empty mesh goes with any mesh
                continue
            if ref is None:
                ref, mesh = s.mesh, this
            elif s.mesh != ref and this != mesh:
                return None
        if ref is None or mesh is None:
            return None
        return ref, mesh

    def run(
        self,
        old_operands: list[TensorSharding | None],
        old_results: list[TensorSharding | None],
        rule: OpShardingRule,
        directions: Directions,
        is_elementwise: bool,
        conservative: bool,
    ) -> tuple[Mesh, OpPropagationResult] | None:
        """(the common mesh, `propagate_op`'s step) on these shardings; None
        when they are on different meshes."""
        common = self.common_mesh([*old_operands, *old_results])
        if common is None:
            return None
        ref, mesh = common
        return mesh, propagate_op(
            old_operands,
            old_results,
            rule,
            mesh,
            ref,
            strategy=self.factor_propagation,
            direction=directions,
            is_elementwise=is_elementwise,
            conservative=conservative,
            projections=self._projections,
        )

    def outcome(
        self,
        old_operands: list[TensorSharding | None],
        old_results: list[TensorSharding | None],
        rule: OpShardingRule,
        directions: Directions,
        is_elementwise: bool,
        conservative: bool,
    ) -> Outcome | None:
        """`run` on these shardings, remembered: (new operand and result
        shardings, which operands and results were updated, whether any
        was); None when the shardings are on different meshes."""
        key = (
            id(rule),
            id(directions),
            is_elementwise,
            conservative,
            *map(id, old_operands),
            *map(id, old_results),
        )
        entry = self._memo.get(key)
        if entry is not None:
            return entry[0]
        meshed = self.run(old_operands, old_results, rule, directions, is_elementwise, conservative)
        outcome = None
        if meshed is not None:
            step = meshed[1]
            distinct = self._distinct
            outcome = (
                [
                    distinct(s) if did else s
                    for s, did in zip(step.operands, step.updated_operands, strict=True)
                ],
                [
                    distinct(s) if did else s
                    for s, did in zip(step.results, step.updated_results, strict=True)
                ],
                step.updated_operands,
                step.updated_results,
                step.any_updated,
            )
        self._memo[key] = (outcome, old_operands, old_results, rule, directions)
        return outcome
