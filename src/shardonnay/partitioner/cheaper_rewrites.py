"""The partitioner's choices made by the per-device program they give.

After Shardy's explicit reshards and before they become collectives, each
pass of `PASSES` proposes rewrites of the global program, each judged on
its own fragment (`shardonnay.partitioner.fragments`): matmuls made from
gathered operands (`gathered_contractions`), ops computed at the sharding
their user wants (`computed_at_use`). A fragment judged alone cannot see
collectives that would have combined with others elsewhere, so rewrites are
kept only where the whole per-device program is better with them (all the
passes' where they are together, else each pass's on its own): no slower
and no more bytes, one of them strictly less (`better`), or faster and
receiving no more bytes than Shardy's partitioner's collectives would (the
global program with its reshards lowered as Shardy lowers them).
Within what Shardy's program moves, time decides:
`tests/corpus/mlp_train_step.mlir` gathers its first weight rather than
reducing the partial product, receiving 512 B more (5,000 B; Shardy's
program 5,512 B) in 50 us instead of 55.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from shardonnay.errors import ShardonnayError
from shardonnay.ir.core import Module, building
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.computed_at_use import cheaper_computations_at_use
from shardonnay.partitioner.fragments import Cost, FragmentCosts, better, program_cost
from shardonnay.partitioner.gathered_contractions import cheaper_contractions
from shardonnay.partitioner.reshard.planned import lower_reshards

__all__ = ["PASSES", "rewrite_where_cheaper"]

# A pass: the rewrites of a module it finds cheaper, each judged on the module
# as the caller leaves it after applying the one before.
Pass = Callable[[Module, FragmentCosts], Iterator[Callable[[], None]]]

PASSES: tuple[Pass, ...] = (cheaper_contractions, cheaper_computations_at_use)


def rewrite_where_cheaper(module: Module, passes: tuple[Pass, ...] = PASSES) -> int:
    """Rewrites `module` in place with the passes' rewrites where the whole
    per-device program is better with them; returns how many.

    The passes run in turn on a copy, and their rewrites are made on
    `module` where that copy is better. Where it is not, each pass is judged
    on its own, on top of the ones kept before it."""
    costs = FragmentCosts()
    trial: Module | None = None
    found: list[Pass] = []
    for find in passes:
        # Nothing changes before the first rewrite: where there is none, the
        # module need not be copied (programs seldom have one). The scan's
        # scratch programs are small: their cycles wait for the collector.
        with building():
            if next(find(module if trial is None else trial, costs), None) is None:
                continue
        if trial is None:
            trial = module.copy()
        _apply(find, trial, costs)
        found.append(find)
    if trial is None:
        return 0
    before = program_cost(module)
    if before is None:
        return 0
    shardys_bytes = _shardys_bytes(module)
    after = program_cost(trial)
    if after is not None and _accepted(after, before, shardys_bytes):
        # the same choices: their costs are known
        return sum(_apply(find, module, costs) for find in found)
    if len(found) == 1:
        return 0
    rewritten = 0
    for find in found:
        trial = module.copy()
        if _apply(find, trial, costs) == 0:
            continue
        after = program_cost(trial)
        if after is not None and _accepted(after, before, shardys_bytes):
            rewritten += _apply(find, module, costs)
            before = after
    return rewritten


def _accepted(after: Cost, before: Cost, shardys_bytes: int | None) -> bool:
    """`better`, or faster receiving no more bytes than Shardy's collectives do."""
    if better(after, before):
        return True
    if after[0] >= before[0] or shardys_bytes is None:
        return False
    return after[1] <= max(shardys_bytes, before[1])


def _apply(find: Pass, module: Module, costs: FragmentCosts) -> int:
    count = 0
    for rewrite in find(module, costs):
        rewrite()
        count += 1
    return count


def _shardys_bytes(module: Module) -> int | None:
    """Bytes the busiest device receives in the collectives of global program
    `module` with its reshards lowered as Shardy lowers them (None where it
    cannot be lowered). `module` is left as it is."""
    try:
        return collective_costs(lower_reshards(module.copy(), reshards="shardy")).bytes_received
    except ShardonnayError:
        return None
