"""Partitioning: explicit reshards and their lowering to collectives.

The package is callable: `shardonnay.partition(module)` runs
`shardonnay.partition.program.partition(module)` (the SPMD partitioner end
to end), while `shardonnay.partition.cost`, `import
shardonnay.partition.cost as cost` and `from shardonnay.partition.cost
import collective_costs` name the submodules as usual.

`reshard_plan(src, dst, mesh, global_shape)` returns the `ReshardPlan` (a
list of `ReshardStep`s, each one collective) that turns one sharding of a
tensor into another; the collectives are values in
`shardonnay.partition.collectives`.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

from shardonnay.partition.collectives import (
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    Collective,
    CollectivePermute,
    ReduceScatter,
    ReplicatedToUnreduced,
    ShardedToUnreduced,
    TileExchange,
)
from shardonnay.partition.reshard import ReshardPlan, ReshardStep, lower_bound, reshard_plan

if TYPE_CHECKING:
    from shardonnay.ir.core import Module

__all__ = [
    "AllGather",
    "AllReduce",
    "AllSlice",
    "AllToAll",
    "Collective",
    "CollectivePermute",
    "ReduceScatter",
    "ReplicatedToUnreduced",
    "ReshardPlan",
    "ReshardStep",
    "ShardedToUnreduced",
    "TileExchange",
    "lower_bound",
    "reshard_plan",
]


class _PartitionPackage(types.ModuleType):
    """The `shardonnay.partition` package, which partitions when called."""

    def __call__(
        self, module: Module, *, propagate: bool = True, max_devices: int | None = None
    ) -> Module:
        """`shardonnay.partition.program.partition(module, propagate=..., max_devices=...)`."""
        from shardonnay.partition.program import partition

        return partition(module, propagate=propagate, max_devices=max_devices)


sys.modules[__name__].__class__ = _PartitionPackage
