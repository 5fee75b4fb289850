"""All-reduces whose results each device only slices become reduce-scatters,
where the cost model says the program is faster so; then collectives combine.

A global program often all-reduces a partial sum and then keeps one shard of
it (`sdy.all_reduce` followed by `sdy.all_slice`, or a partial dot whose
result is sharded along the reduced axes): the per-device program all-reduces
the whole buffer (a ring of `2 (n - 1)` steps moving `2 (n - 1) / n` of it)
and each device then `dynamic_slice`s its part. A reduce-scatter gives each
device exactly that part in `n - 1` steps moving half the bytes, as XLA's
SPMD partitioner emits. The rewrite applies where every use of the
all-reduce's result is such a slice: one dim cut into the group's `n`
shards, device `k` of each group taking shard `k` (the offsets read from
the per-device tables the slices index by `partition_id`), every other dim
whole.

A reduce-scatter is not always the better program once collectives combine
(`shardonnay.partitioner.local.combined_collectives`): an all-reduce that
would join a larger combined all-reduce costs no extra steps there, while a
lone reduce-scatter adds its own. `improve_collectives` therefore decides
each such all-reduce with the cost model: it keeps the reduce-scatter where
the combined program's alpha-beta time (`CostModel()`; ties: bytes
received by the busiest device) is lower with it, one all-reduce at a time
in program order, and leaves the program combined. It decides the other way
round for an all-to-all that can be an all-gather and a slice
(`shardonnay.partitioner.gathered_exchanges`): more bytes, kept only where
it joins another all-gather and saves its steps.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... module attributes {mhlo.num_partitions = 4 : i32} {
... func.func @main(%a: tensor<8xf32>) -> tensor<2xf32> {
...   %0 = "stablehlo.all_reduce"(%a) <{
...       channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
...       replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
...   ^bb0(%x: tensor<f32>, %y: tensor<f32>):
...     %s = stablehlo.add %x, %y : tensor<f32>
...     stablehlo.return %s : tensor<f32>
...   }) : (tensor<8xf32>) -> tensor<8xf32>
...   %p = stablehlo.partition_id : tensor<ui32>
...   %i = stablehlo.convert %p : (tensor<ui32>) -> tensor<i64>
...   %t = stablehlo.constant dense<[0, 2, 4, 6]> : tensor<4xi64>
...   %e = stablehlo.dynamic_slice %t, %i, sizes = [1]
...       : (tensor<4xi64>, tensor<i64>) -> tensor<1xi64>
...   %o = stablehlo.reshape %e : (tensor<1xi64>) -> tensor<i64>
...   %1 = stablehlo.dynamic_slice %0, %o, sizes = [2]
...       : (tensor<8xf32>, tensor<i64>) -> tensor<2xf32>
...   return %1 : tensor<2xf32>
... }
... }''')
>>> improve_collectives(m)
1
>>> [op.name for op in m.function("main").body.ops]
['stablehlo.reduce_scatter', 'func.return']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shardonnay.errors import ShardonnayError
from shardonnay.ir.attributes import DenseElementsAttr, IntegerAttr
from shardonnay.ir.core import Block, Module, Op, Value, building
from shardonnay.ir.types import TensorType
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.gathered_exchanges import Exchange, exchange_of, to_all_gather
from shardonnay.partitioner.local.combined_collectives import combine_collectives, copied_region

__all__ = ["Scatter", "improve_collectives", "scatter_of"]


@dataclass(frozen=True)
class Scatter:
    """An all-reduce each device only slices: the dim its slices cut and
    the shard type they keep."""

    dim: int
    shard: TensorType


def improve_collectives(module: Module) -> int:
    """Rewrites each all-reduce of `module` that `scatter_of` accepts as a
    reduce-scatter, and each all-to-all that `exchange_of` accepts as an
    all-gather and a slice (`shardonnay.partitioner.gathered_exchanges`),
    where that lowers the combined program's cost, then combines collectives
    (in place); returns how many were rewritten.

    The choice starts from the cheaper of none and all of them rewritten
    (collectives that combine pay their steps once), then flips each one
    in program order where that is cheaper still."""
    candidates = _candidates(module)
    count = len(candidates)
    costs: dict[frozenset[int], tuple[float, int] | None] = {}

    def cost_of(indices: frozenset[int]) -> tuple[float, int] | None:
        if indices not in costs:  # each choice is tried once
            costs[indices] = _cost(_trial(module, indices))
        return costs[indices]

    chosen: frozenset[int] = frozenset()
    best = cost_of(chosen) if count else None
    if best is not None:
        for index in (None, *range(count)):
            trial = frozenset(range(count)) if index is None else chosen ^ {index}
            cost = cost_of(trial)
            if cost is not None and cost < best:
                chosen, best = trial, cost
    with building():  # (not around the trials: each copy is garbage once costed)
        for op, plan in _picked(candidates, chosen):
            _rewrite(op, plan)
        combine_collectives(module)
    return len(chosen)


def _candidates(module: Module) -> list[tuple[Op, Scatter | Exchange]]:
    """The all-reduces that can be reduce-scatters and the all-to-alls that can
    be all-gathers, in program order."""
    replicas = module.attributes.get("mhlo.num_replicas")
    single = not isinstance(replicas, IntegerAttr) or replicas.value == 1
    found: list[tuple[Op, Scatter | Exchange]] = []
    for block in module.function_blocks():
        for op in block.ops:
            plan = scatter_of(op) or exchange_of(op, single_replica=single)
            if plan is not None:
                found.append((op, plan))
    return found


def _rewrite(op: Op, plan: Scatter | Exchange) -> None:
    if isinstance(plan, Scatter):
        to_reduce_scatter(op, plan)
    else:
        to_all_gather(op, plan)


def _picked(
    candidates: list[tuple[Op, Scatter | Exchange]], indices: frozenset[int]
) -> list[tuple[Op, Scatter | Exchange]]:
    return [candidates[i] for i in sorted(indices)]


def _trial(module: Module, indices: frozenset[int]) -> Module:
    """A copy of `module` with the candidates `indices` rewritten, combined."""
    trial = module.copy()
    with building():
        for op, plan in _picked(_candidates(trial), indices):
            _rewrite(op, plan)
        combine_collectives(trial)
    return trial


def _cost(module: Module) -> tuple[float, int] | None:
    """(alpha-beta time, bytes the busiest device receives) of `module`'s
    collectives; None where they cannot be costed (groups that name devices
    the module does not declare): then nothing is rewritten."""
    try:
        report = collective_costs(module)
    except ShardonnayError:
        return None
    return (round(report.time_s, 12), report.bytes_received)


def scatter_of(op: Op) -> Scatter | None:
    """How all-reduce `op` can become a reduce-scatter, or None: every use of
    its one result is a `dynamic_slice` of it cutting the same one dim into
    the group's shards, device `k` of each group (`replica_groups` of device
    ids) keeping shard `k`."""
    if op.name != "stablehlo.all_reduce" or len(op.operands) != 1:
        return None
    if "use_global_device_ids" not in op.attributes:  # groups of replica ids
        return None
    result = op.results[0]
    if not isinstance(result.type, TensorType) or not result.uses:
        return None
    if any(u.owner.name != "stablehlo.dynamic_slice" or u.index != 0 for u in result.uses):
        return None  # (looked at before the groups: most all-reduces are read otherwise)
    groups = _groups(op)
    if groups is None:
        return None
    n = len(groups[0])
    scatter = None
    for use in result.uses:
        found = _sliced_shard(use.owner, groups, n)
        if found is None or (scatter is not None and found != scatter):
            return None
        scatter = found
    return scatter


def _groups(op: Op) -> list[list[int]] | None:
    attr = op.attributes.get("replica_groups")
    if not isinstance(attr, DenseElementsAttr):
        return None
    groups = attr.to_numpy()
    if groups.ndim != 2 or groups.shape[1] < 2 or (groups < 0).any():
        return None
    return [[int(d) for d in g] for g in groups]


def _sliced_shard(user: Op, groups: list[list[int]], n: int) -> Scatter | None:
    """The `Scatter` that `dynamic_slice` `user` takes of its operand on every
    device of `groups`, or None when some device takes anything else."""
    shape = user.operands[0].type.shape
    sizes = user.results[0].type.shape
    cut = [d for d, (a, b) in enumerate(zip(shape, sizes, strict=True)) if a != b]
    if len(cut) != 1 or shape[cut[0]] != n * sizes[cut[0]]:
        return None
    dim = cut[0]
    for d, index in enumerate(user.operands[1:]):
        for group in groups:
            for k, device in enumerate(group):
                offset = _on_device(index, device)
                if offset != (k * sizes[dim] if d == dim else 0):
                    return None
    return Scatter(dim, user.results[0].type)


def _on_device(value: Value, device: int) -> int | None:
    """The integer scalar `value` holds on `device`, where it is a constant or
    an entry of a constant table read at `partition_id` (None: not known)."""
    op = value.op
    if op is None:
        return None
    if op.name == "stablehlo.constant":
        array = op.attributes["value"].to_numpy()
        return int(array.reshape(-1)[0]) if array.size == 1 else None
    if op.name == "stablehlo.partition_id":
        return device
    if op.name in ("stablehlo.convert", "stablehlo.reshape"):
        if not isinstance(op.operands[0].type, TensorType) or op.operands[0].type.num_elements != 1:
            return None
        return _on_device(op.operands[0], device)
    if op.name == "stablehlo.dynamic_slice" and len(op.operands) == 2:
        table = op.operands[0].op
        if table is None or table.name != "stablehlo.constant" or op.results[0].type.shape != (1,):
            return None
        entries = np.asarray(table.attributes["value"].to_numpy()).reshape(-1)
        at = _on_device(op.operands[1], device)
        if at is None or entries.size != table.results[0].type.num_elements:
            return None
        return int(entries[min(max(at, 0), entries.size - 1)])  # dynamic_slice clamps
    return None


def to_reduce_scatter(op: Op, scatter: Scatter) -> Op:
    """Replaces all-reduce `op` and the slices of its result by one
    reduce-scatter along `scatter.dim` (at `op`'s place); the index
    computations left unused are removed."""
    block = op.parent
    assert isinstance(block, Block)
    attributes = dict(op.attributes)
    attributes["scatter_dimension"] = IntegerAttr(scatter.dim, "i64")
    new = Op(
        "stablehlo.reduce_scatter",
        list(op.operands),
        [scatter.shard],
        attributes,
        location=op.location,
    )
    new.add_region(copied_region(op))
    block.insert_before(op, new)
    slices = [use.owner for use in list(op.results[0].uses)]
    indices = [v for s in slices for v in s.operands[1:]]
    for s in slices:
        s.results[0].replace_all_uses_with(new.results[0])
        s.erase()
    op.erase()
    _erase_unused(indices)
    return new


def _erase_unused(values: list[Value]) -> None:
    """Erases the region-free ops defining `values` (and then their operands'
    ops) that nothing uses any more: the offset tables of removed slices."""
    pending = list(values)
    while pending:
        op = pending.pop().op
        if op is None or op.regions or op.parent is None:
            continue
        if any(r.uses for r in op.results):
            continue
        operands = list(op.operands)
        op.erase()
        pending.extend(operands)
