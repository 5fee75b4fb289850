"""The partitioner's choices made by the per-device program they give.

After Shardy's explicit reshards and before they become collectives, each
pass of `PASSES` proposes rewrites of the global program, each judged on
its own fragment (`shardonnay.partitioner.fragments`): matmuls made from
gathered operands (`gathered_contractions`), ops computed at the sharding
their user wants (`computed_at_use`). A fragment judged alone cannot see
collectives that would have combined with others elsewhere, so a pass's
rewrites are kept only where the whole per-device program is better with
them: no slower and no more bytes, one of them strictly less (`better`), or
faster and receiving no more bytes than Shardy's partitioner's collectives
would (the global program with its reshards lowered as Shardy lowers them).
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
    """Rewrites `module` in place with each pass's rewrites in turn where the
    whole per-device program is better with them; returns how many."""
    costs = FragmentCosts()
    rewritten = 0
    before: Cost | None = None
    shardys_bytes: int | None = None  # of the program as Shardy's reshards leave it
    for find in passes:
        # Nothing changes before the first rewrite: where there is none, the
        # module need not be copied (programs seldom have one). The scan's
        # scratch programs are small: their cycles wait for the collector.
        with building():
            first = next(find(module, costs), None)
        if first is None:
            continue
        trial = module.copy()
        _apply(find, trial, costs)
        if before is None:
            before, shardys_bytes = program_cost(module), _shardys_bytes(module)
        after = program_cost(trial)
        if before is None or after is None or not _accepted(after, before, shardys_bytes):
            continue
        rewritten += _apply(find, module, costs)  # the same choices: their costs are known
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
