"""Partitioning: explicit reshards and their lowering to collectives.

`reshard_plan(src, dst, mesh, global_shape)` returns the `ReshardPlan` (a
list of `ReshardStep`s, each one collective) that turns one sharding of a
tensor into another; the collectives are values in
`shardonnay.partition.collectives`.
"""

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
