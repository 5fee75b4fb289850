"""Shardy's collectives, one definition each: the result-sharding rule, its messages, the data each
device exchanges and the bytes it moves.

Each collective is a value (`AllGather(dims, ...)`, `AllReduce(axes)`, ...):
`result_sharding(operand, mesh)` is Shardy's rule, `exchange(...)` what each
device sends and receives, `bytes(...)` the traffic. The reshard planner
(`shardonnay.reshard_plan`) composes them into plans.
"""

from shardonnay.collectives.base import Collective
from shardonnay.collectives.data_movement import (
    AllGather,
    AllSlice,
    AllToAll,
    CollectivePermute,
    TileExchange,
)
from shardonnay.collectives.reductions import (
    AllReduce,
    ReduceScatter,
    ReplicatedToUnreduced,
    ShardedToUnreduced,
)

__all__ = [
    "AllGather",
    "AllReduce",
    "AllSlice",
    "AllToAll",
    "Collective",
    "CollectivePermute",
    "ReduceScatter",
    "ReplicatedToUnreduced",
    "ShardedToUnreduced",
    "TileExchange",
]
