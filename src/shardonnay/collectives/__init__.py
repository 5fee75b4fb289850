"""Shardy's collectives, one definition each: the result-sharding rule, Shardy's verifier of the
op and its messages, the data each device exchanges, the bytes it moves and the algorithm the cost
model assumes.

Each collective is a value (`AllGather(dims, ...)`, `AllReduce(axes)`, ...):
`result_sharding(operand, mesh)` is the rule, `check(...)` Shardy's verifier
of the op (which `shardonnay.ops.sdy_collectives` runs for the IR verifier),
`exchange(...)` what each device sends and receives, `bytes_received(...)`
its bytes, `traffic(...)` what the cost model's algorithm moves (the
algorithms of all collective kinds are in `traffic`). `SHARDY_COLLECTIVES`
lists one class per `sdy.*` op; `from_attributes(op.attributes)` reads the
value an op performs. The reshard planner (`shardonnay.reshard_plan`)
composes them into plans.
"""

from shardonnay.collectives.base import Collective
from shardonnay.collectives.data_movement import (
    SHARDY_COLLECTIVES,
    AllGather,
    AllSlice,
    AllToAll,
    CollectivePermute,
    TileExchange,
    collective_of,
)
from shardonnay.collectives.reductions import (
    AllReduce,
    ReduceScatter,
    ReplicatedToUnreduced,
    ShardedToUnreduced,
)

__all__ = [
    "SHARDY_COLLECTIVES",
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
    "collective_of",
]
