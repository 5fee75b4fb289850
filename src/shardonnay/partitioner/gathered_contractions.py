"""A matmul whose partial sums are all-reduced, computed instead on operands
gathered along the contracted dims, where that is cheaper: XLA's choice where
Shardy's is not.

Where the operands of a `stablehlo.dot_general` disagree, Shardy's explicit
reshards keep the contracted dims sharded and all-reduce the partial
products (`sdy.all_reduce {axes}`), then reshard the sum to what its user
wants. The same result comes from operands whose contracted dims are whole:
each device multiplies its rows by whole columns, with no sum to reduce.
`cheaper_contractions` makes that choice per matmul by what the per-device
programs of the alternatives communicate: the product made directly with
the sharding the sum is resharded to, or with the sum's own sharding (then
resharded as before). It rewrites a matmul only where an alternative takes
no more alpha-beta time (`CostModel()`'s defaults) and makes the busiest
device receive no more bytes, one of them strictly less (the better of
the two where both are).

For example, in `tests/corpus/mlp_forward.mlir` the input `x: 16x32` is
sharded `[{"data"}, {}]` and the weight `w: 32x64` `[{"data"}, {"model"}]`.
Shardy reshards `x` to `[{}, {"data"}]` (an all-to-all, 512 B), all-reduces
the `16x64` partial product over `"data"` (1,024 B in two steps) and slices
it back to `[{"data"}, {"model"}]`. Gathering the weight's rows over
`"data"` (1,024 B in one step) gives each device its rows of the product
directly: 1,024 B in 5 us instead of 1,536 B in 15 us.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from shardonnay.axes import AxisRef
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

__all__ = ["cheaper_contractions"]


@dataclass(frozen=True)
class _Contraction:
    """A matmul and the collectives Shardy's reshards put around it: the
    reshards of its operands (None where an operand is used as it is), the
    all-reduce of its partial product and the reshard of the sum (or None)."""

    dot: Op
    operand_reshards: tuple[Op | None, Op | None]
    all_reduce: Op
    result_reshard: Op | None

    def sources(self) -> tuple[Value, Value]:
        """The operands as they were before Shardy's reshards."""
        a, b = (
            v if r is None else r.operands[0]
            for v, r in zip(self.dot.operands, self.operand_reshards, strict=True)
        )
        return a, b

    def reduced_axes(self) -> tuple[AxisRef, ...]:
        return self.all_reduce.attributes["reduction_axes"].axes


@dataclass(frozen=True)
class _Choice:
    """The matmul made from operands with `operands` shardings and its result
    sharded `result`: the sum's final sharding (`keeps_reshard` False: the
    reshard of the sum goes too) or the all-reduce's."""

    operands: tuple[TensorSharding, TensorSharding]
    result: TensorSharding
    keeps_reshard: bool


def cheaper_contractions(module: Module, costs: FragmentCosts) -> Iterator[Callable[[], None]]:
    """The rewrites of the matmuls of `module`, a global program with Shardy's
    explicit reshards (before they become collectives), whose products are
    cheaper made from gathered operands (see the module docstring), in
    program order. Each is judged on the module as the caller leaves it
    after applying the one before (a rewrite changes what the next matmul's
    operands come from)."""
    for block in list(module.function_blocks()):
        for op in list(block.ops):
            found = _contraction(op)
            if found is None:
                continue
            choices = _choices(found)
            if not choices:  # nothing to weigh Shardy's collectives against
                continue
            best = costs.cost(module, Fragment(_moves(found, None)))
            if best is None:  # no alternative can be better than an unknown cost
                continue
            chosen = None
            for choice in choices:
                cost = costs.cost(module, Fragment(_moves(found, choice)))
                if cost is not None and better(cost, best):
                    best, chosen = cost, choice
            if chosen is not None:
                yield functools.partial(_rewrite, found, chosen)


def _contraction(op: Op) -> _Contraction | None:
    """`op` with the collectives Shardy's reshards put around it, where it is
    a matmul of two operands whose one result only an `sdy.all_reduce` reads."""
    if op.name != "stablehlo.dot_general" or len(op.operands) != 2 or len(op.results) != 1:
        return None
    uses = op.results[0].uses
    if len(uses) != 1 or uses[0].owner.name != "sdy.all_reduce":
        return None
    all_reduce = uses[0].owner
    if all_reduce.parent is not op.parent or sharding_of(op.results[0]) is None:
        return None
    if inside_manual_computation(op):
        return None
    after = all_reduce.results[0].uses
    result_reshard = None
    if len(after) == 1 and after[0].owner.name == "sdy.reshard":
        result_reshard = after[0].owner
    a, b = own_reshards(op)
    return _Contraction(op, (a, b), all_reduce, result_reshard)


def _choices(found: _Contraction) -> list[_Choice]:
    """The alternatives to Shardy's collectives around the matmul."""
    results = [(sharding_of(found.all_reduce.results[0]), True)]
    if found.result_reshard is not None:
        results.insert(0, (sharding_of(found.result_reshard.results[0]), False))
    choices = []
    for result, keeps in results:
        operands = _operand_shardings(found, result)
        if operands is not None:
            choices.append(_Choice(operands, result, keeps))
    return choices


def _operand_shardings(
    found: _Contraction, result: TensorSharding | None
) -> tuple[TensorSharding, TensorSharding] | None:
    """The operand shardings that give the matmul `result` with whole
    contracted dims, or None where there are none: each factor of the
    result takes the axes of its dim there, each contracted factor none."""
    dot = found.dot
    rule = rule_for(dot)
    if rule is None or result is None or result.unreduced or rule.is_custom:
        return None
    if any(len(dim) != 1 for m in (*rule.operand_mappings, *rule.result_mappings) for dim in m):
        return None
    axes: dict[int, tuple[AxisRef, ...]] = {}
    for (factor,), dim in zip(rule.result_mappings[0], result.dims, strict=True):
        axes[factor] = dim.axes
    reduced = set(found.reduced_axes())
    for v, mapping in zip(dot.operands, rule.operand_mappings, strict=True):
        sharding = sharding_of(v)
        if sharding is None or sharding.mesh != result.mesh:
            return None
        for (factor,), dim in zip(mapping, sharding.dims, strict=True):
            if factor in axes:
                continue
            if set(dim.axes) != reduced:  # only the all-reduced axes split the contraction
                return None
            axes[factor] = ()
    wanted = []
    for source, mapping in zip(found.sources(), rule.operand_mappings, strict=True):
        before = sharding_of(source)
        if before is not None and before.mesh != result.mesh:
            return None
        wanted.append(TensorSharding(result.mesh, tuple(DimSharding(axes[f]) for (f,) in mapping)))
    return wanted[0], wanted[1]


def _moves(found: _Contraction, choice: _Choice | None) -> tuple[Move, ...]:
    """The collectives around the matmul: Shardy's (`choice` None) or those of `choice`."""
    moves: list[Move] = []
    result = found.dot.results[0]
    if choice is None:
        for source, op in zip(found.sources(), found.operand_reshards, strict=True):
            if op is not None:
                moves.append(Move(source.type, sharding_of(source), (Step.of(op),)))
        steps = [Step.of(found.all_reduce)]
        if found.result_reshard is not None:
            steps.append(Step.of(found.result_reshard))
        # the product holds partial sums over the all-reduced axes: unreduced ones
        partial = replace(sharding_of(result), unreduced=found.reduced_axes())
        moves.append(Move(result.type, partial, tuple(steps)))
        return tuple(moves)
    for source, sharding in zip(found.sources(), choice.operands, strict=True):
        if sharding_of(source) != sharding:
            moves.append(Move(source.type, sharding_of(source), (Step.reshard(sharding),)))
    if choice.keeps_reshard and found.result_reshard is not None:
        moves.append(Move(result.type, choice.result, (Step.of(found.result_reshard),)))
    return tuple(moves)


def _rewrite(found: _Contraction, choice: _Choice) -> None:
    """The matmul on its operands resharded as `choice` says, its result
    sharded `choice.result`; the all-reduce (and the reshard of the sum,
    unless kept) gone."""
    dot = found.dot
    for i, (source, sharding, old) in enumerate(
        zip(found.sources(), choice.operands, found.operand_reshards, strict=True)
    ):
        value = source
        if sharding_of(source) != sharding:
            value = insert_before(dot, reshard(source, sharding)).results[0]
        dot.set_operand(i, value)
        if old is not None:
            old.erase()
    set_sharding(dot.results[0], choice.result)
    gone = [found.all_reduce]
    if found.result_reshard is not None and not choice.keeps_reshard:
        gone.insert(0, found.result_reshard)
    gone[0].results[0].replace_all_uses_with(dot.results[0])
    for op in gone:
        op.erase()
