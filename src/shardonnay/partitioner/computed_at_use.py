"""An op whose one user reshards its result, computed at that sharding
instead, where that is cheaper: its operands are resharded, not its result.

Shardy's explicit reshards give each op the sharding propagation chose and
reshard its result to what the user wants. Where the op moves data along a
sharded dim (a `pad`, a `reverse`, a `slice`), that costs a halo exchange
and then the reshard of the larger result; where the result is larger than
the operands, gathering it moves more than gathering them.
`cheaper_computations_at_use` makes each such op compute at its user's
sharding where the per-device program of that fragment (the operands'
reshards, the op) takes no more alpha-beta time and receives no more bytes,
one of them strictly less (`shardonnay.partitioner.fragments`).

For example, in `tests/corpus/elementwise_zoo.mlir` a `pad` makes `10x18`
out of an `8x16` value sharded `[{"data"}, {"model"}]`, and an interior
`pad` of that makes `10x35`, which its user reads resharded to
`[{"data"}, {}]`. Shardy's reshards pad both sharded (halos between the
model shards) and gather the `10x35` result over `"model"` (540 B). Visited users
first, the interior pad is computed whole along dim 1, which moves the
gather to its operand (300 B), and then the first pad too, which moves it to
the `8x16` value: 192 B, and no halo.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from shardonnay.export.insertion import insert_before, reshard
from shardonnay.ir.core import Module, Op, Value
from shardonnay.ir.shardings import set_sharding, sharding_of
from shardonnay.ops.manual_computation import inside_manual_computation
from shardonnay.ops.rules import rule_for
from shardonnay.partitioner.fragments import (
    Fragment,
    FragmentCosts,
    Move,
    Step,
    better,
    own_reshards,
)
from shardonnay.sharding import DimSharding, TensorSharding

__all__ = ["cheaper_computations_at_use"]


@dataclass(frozen=True)
class _ResultReshard:
    """`op`, the reshard of its result for its one user, and per operand the
    value before the operand's own reshard (the reshard, or None where the
    operand is used as it is)."""

    op: Op
    result_reshard: Op
    sources: tuple[Value, ...]
    operand_reshards: tuple[Op | None, ...]

    def as_is(self) -> Fragment:
        """The fragment as Shardy's reshards make it."""
        moves = tuple(
            Move(v.type, sharding_of(v), () if r is None else (Step.of(r),))
            for v, r in zip(self.sources, self.operand_reshards, strict=True)
        )
        current = sharding_of(self.op.results[0])
        return Fragment(moves, self.op, current, (Step.of(self.result_reshard),))

    def at_use(self, operands: tuple[TensorSharding, ...]) -> Fragment:
        """The fragment with the op computed at its user's sharding."""
        moves = tuple(
            Move(v.type, sharding_of(v), () if _holds(v, s) else (Step.reshard(s),))
            for v, s in zip(self.sources, operands, strict=True)
        )
        return Fragment(moves, self.op, sharding_of(self.result_reshard.results[0]))


def cheaper_computations_at_use(
    module: Module, costs: FragmentCosts
) -> Iterator[Callable[[], None]]:
    """The rewrites of the ops of `module`, a global program with explicit
    reshards (before they become collectives), that are cheaper computed at
    the sharding their one user wants (see the module docstring), users
    before the ops they read: a rewrite reshards an op's operands, which may
    make the op that defines one the next candidate. Each is judged on the
    module as the caller leaves it after applying the one before."""
    for block in list(module.function_blocks()):
        for op in reversed(list(block.ops)):
            if op.parent is not block:  # an operand's reshard a rewrite erased
                continue
            found = _result_reshard(op)
            if found is None:
                continue
            operands = _operand_shardings(found)
            if operands is None:
                continue
            before = costs.cost(module, found.as_is())
            if before is None:
                continue
            after = costs.cost(module, found.at_use(operands))
            if after is not None and better(after, before):
                yield functools.partial(_rewrite, found, operands)


def _result_reshard(op: Op) -> _ResultReshard | None:
    """`op` with its reshards, where it is an op of one result (and no
    regions) that only an `sdy.reshard` on its mesh reads."""
    if len(op.results) != 1 or op.regions:
        return None
    uses = op.results[0].uses  # (most ops: not read by a reshard alone)
    if len(uses) != 1 or uses[0].owner.name != "sdy.reshard" or op.dialect == "sdy":
        return None
    result_reshard = uses[0].owner
    current, wanted = sharding_of(op.results[0]), sharding_of(result_reshard.results[0])
    if current is None or wanted is None or current.mesh != wanted.mesh:
        return None
    if current.unreduced or wanted.unreduced or result_reshard.parent is not op.parent:
        return None
    if inside_manual_computation(op):
        return None
    operand_reshards = own_reshards(op)
    sources = [
        v if r is None else r.operands[0]
        for v, r in zip(op.operands, operand_reshards, strict=True)
    ]
    return _ResultReshard(op, result_reshard, tuple(sources), operand_reshards)


def _operand_shardings(found: _ResultReshard) -> tuple[TensorSharding, ...] | None:
    """The operand shardings that make the op's result sharded as its user
    wants, or None where its rule cannot: each factor of the result takes
    the axes of its dim there, every other factor (a contracted or reduced
    one) none; a factor that needs replication must get none."""
    rule = rule_for(found.op)
    wanted = sharding_of(found.result_reshard.results[0])
    if rule is None or wanted is None:
        return None
    if any(len(dim) != 1 for m in rule.tensor_mappings() for dim in m):
        return None  # compound dims (reshapes): the axes of a dim split among factors
    axes = {}
    for (factor,), dim in zip(rule.result_mappings[0], wanted.dims, strict=True):
        if dim.axes and rule.factor_kind(factor) == "need_replication":
            return None
        axes[factor] = dim.axes
    shardings = []
    for source, mapping in zip(found.sources, rule.operand_mappings, strict=True):
        before = sharding_of(source)
        if before is not None and before.mesh != wanted.mesh:
            return None
        dims = tuple(DimSharding(axes.get(factor, ())) for (factor,) in mapping)
        shardings.append(TensorSharding(wanted.mesh, dims))
    return tuple(shardings)


def _holds(value: Value, sharding: TensorSharding) -> bool:
    """Whether `value` is already sharded as `sharding` (no sharding: replicated)."""
    current = sharding_of(value)
    if current is None:
        return not any(d.axes for d in sharding.dims)
    return current.mesh == sharding.mesh and [d.axes for d in current.dims] == [
        d.axes for d in sharding.dims
    ]


def _rewrite(found: _ResultReshard, operands: tuple[TensorSharding, ...]) -> None:
    """The op on its operands resharded to `operands`, computed at its
    user's sharding; the result's reshard gone."""
    op = found.op
    for i, (source, sharding, old) in enumerate(
        zip(found.sources, operands, found.operand_reshards, strict=True)
    ):
        value = source
        if not _holds(source, sharding):
            value = insert_before(op, reshard(source, sharding)).results[0]
        op.set_operand(i, value)
        if old is not None:
            old.erase()
    set_sharding(op.results[0], sharding_of(found.result_reshard.results[0]))
    found.result_reshard.results[0].replace_all_uses_with(op.results[0])
    found.result_reshard.erase()
