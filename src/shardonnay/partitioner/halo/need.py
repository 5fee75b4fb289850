"""What each device lacks to compute its shard of an op that only moves
elements: the least a halo exchange can bring it.

An op like `stablehlo.slice`, `pad`, `reverse` or `concatenate` (or any
relayout, which is the identity map) reads, for every result element, one
element of one operand or nothing (a pad value). Run on arrays of global ids
instead of data it says which element each result element reads; a device
then lacks the distinct ids its result shard reads that its operand shards
do not hold. Padding slots of uneven shards read nothing and hold nothing.
The lowerings do not call it: it is the measure `local.ops.halo` and
`halo.exchange` are held to (tests/partitioner/test_halo_need.py), and a user's.

For example, `stablehlo.slice %x [1:8]` of `tensor<8xf32>` sharded `[{"x"}]`
on `<["x"=4]>`, the result sharded alike (2 slots per device): shard 0 reads
`x[1], x[2]` and holds `x[0], x[1]`, so it lacks one element; so do shards 1
and 2; shard 3 reads only `x[7]`, which it holds:

>>> ids = np.arange(8)
>>> on_x = TensorSharding.from_axes("mesh", ["x"])
>>> missing_elements(ids[1:8], on_x, [ids], [on_x], Mesh({"x": 4}))
(1, 1, 1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shardonnay.ir.core import Op
from shardonnay.layout import device_slices
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import lookup
from shardonnay.sharding import TensorSharding

NOTHING = -1  # the id of a pad value: read from no operand


def missing_elements(
    reads: np.ndarray,
    result: TensorSharding,
    operand_ids: Sequence[np.ndarray],
    operands: Sequence[TensorSharding],
    mesh: Mesh,
) -> tuple[int, ...]:
    """Per device id of `mesh`, how many distinct ids (>= 0) its shard of
    `reads` (sharded by `result`) holds that its shards of `operand_ids`
    (sharded by `operands`) do not."""
    result_regions = device_slices(reads.shape, result, mesh)
    held_regions = [
        device_slices(ids.shape, sharding, mesh)
        for ids, sharding in zip(operand_ids, operands, strict=True)
    ]
    out = []
    for device in range(mesh.size):
        read = np.unique(reads[result_regions[device]])
        read = read[read != NOTHING]
        held = [
            ids[regions[device]].ravel()
            for ids, regions in zip(operand_ids, held_regions, strict=True)
        ]
        out.append(int(np.count_nonzero(~np.isin(read, np.concatenate([*held, read[:0]])))))
    return tuple(out)


def op_need(
    op: Op, operands: Sequence[TensorSharding], result: TensorSharding, mesh: Mesh
) -> tuple[int, ...]:
    """Per device, the elements of `op`'s operands (its data operands: a
    pad's value is not one) that the device's result shard reads and its
    operand shards lack; `op` runs on arrays of global ids to find them.
    Only for ops that copy elements of all their data operands (slice, pad,
    reverse, concatenate, transpose, ...): the ids replace every operand but a
    pad's value."""
    data = op.operands[:1] if op.name == "stablehlo.pad" else op.operands
    ids, start = [], 0
    for v in data:
        count = int(np.prod(v.type.shape, dtype=np.int64))
        ids.append(np.arange(start, start + count, dtype=np.int64).reshape(v.type.shape))
        start += count
    args = list(ids)
    if op.name == "stablehlo.pad":
        args.append(np.array(NOTHING, np.int64))
    (reads,) = lookup(op.name).evaluate(op, args, None)
    return missing_elements(np.asarray(reads), result, ids, operands, mesh)


def relayout_need(
    shape: Sequence[int], source: TensorSharding, target: TensorSharding, mesh: Mesh
) -> tuple[int, ...]:
    """Per device, the elements of a value of global `shape` its shard under
    `target` holds that its shard under `source` lacks."""
    ids = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(tuple(shape))
    return missing_elements(ids, target, [ids], [source], mesh)
