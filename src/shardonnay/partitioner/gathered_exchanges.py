"""An all-to-all done as an all-gather and a local slice, so that it can join
other all-gathers: fewer, larger steps for more bytes.

`stablehlo.all_to_all` along `split_dimension` s and `concat_dimension` c
(s != c) among a group of `n` devices gives device `k` the `k`-th part along
s of every device's buffer, concatenated along c in the group's order. An
all-gather along c of the whole buffers followed by each device's slice of
part `k` along s computes the same, receiving `n` times the bytes (`(n - 1)`
buffers instead of `(n - 1) / n` of one) in as many ring steps. Alone it is
never cheaper; combined with an independent all-gather of the same groups
(`shardonnay.partitioner.local.combined_collectives`) it saves the
all-to-all's `n - 1` steps of latency. `shardonnay.partitioner.scattered_reductions.
improve_collectives` rewrites one only where the cost model says the combined
program is faster.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... module attributes {mhlo.num_partitions = 2 : i32} {
... func.func @main(%a: tensor<2x4xf32>) -> tensor<4x2xf32> {
...   %0 = "stablehlo.all_to_all"(%a) <{
...       channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
...       concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
...       split_count = 2 : i64, split_dimension = 1 : i64, use_global_device_ids}>
...       : (tensor<2x4xf32>) -> tensor<4x2xf32>
...   return %0 : tensor<4x2xf32>
... }
... }''')
>>> (op,) = [op for op in m.function("main").body.ops if op.name == "stablehlo.all_to_all"]
>>> exchange = exchange_of(op)
>>> exchange
Exchange(split=1, concat=0, groups=((0, 1),))
>>> _ = to_all_gather(op, exchange)
>>> [op.name.removeprefix("stablehlo.") for op in m.function("main").body.ops][:2]
['all_gather', 'constant']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shardonnay.ir.attributes import UNIT, DenseArrayAttr, DenseElementsAttr, IntegerAttr
from shardonnay.ir.core import Block, Op, Value
from shardonnay.ir.types import TensorType

__all__ = ["Exchange", "exchange_of", "to_all_gather"]

I64 = "i64"


@dataclass(frozen=True)
class Exchange:
    """An all-to-all that can be an all-gather along `concat` and a slice
    along `split`, among `groups` of device ids."""

    split: int
    concat: int
    groups: tuple[tuple[int, ...], ...]


def exchange_of(op: Op, *, single_replica: bool = True) -> Exchange | None:
    """How all-to-all `op` can become an all-gather and a slice, or None
    (several operands, split and concat on one dim, groups that are not
    device ids: an all-to-all's `replica_groups` are partition ids when it has
    a channel, which are the device ids of a program of `single_replica`)."""
    if op.name != "stablehlo.all_to_all" or len(op.operands) != 1 or len(op.results) != 1:
        return None
    if "use_global_device_ids" not in op.attributes and not (
        single_replica and "channel_handle" in op.attributes
    ):
        return None
    groups_attr = op.attributes.get("replica_groups")
    if not isinstance(groups_attr, DenseElementsAttr):
        return None
    groups = groups_attr.to_numpy()
    if groups.ndim != 2 or groups.shape[1] < 2 or (groups < 0).any():
        return None
    x, result = op.operands[0].type, op.results[0].type
    if not isinstance(x, TensorType) or not isinstance(result, TensorType):
        return None
    split, concat = _int(op, "split_dimension"), _int(op, "concat_dimension")
    n = groups.shape[1]
    if split is None or concat is None or split == concat or _int(op, "split_count") != n:
        return None
    if x.shape[split] % n:
        return None
    return Exchange(split, concat, tuple(tuple(int(d) for d in g) for g in groups))


def _int(op: Op, name: str) -> int | None:
    value = op.attributes.get(name)
    return value.value if isinstance(value, IntegerAttr) else None


def to_all_gather(op: Op, exchange: Exchange) -> Value:
    """Replaces all-to-all `op` by an all-gather along `exchange.concat` at its
    place and this device's part along `exchange.split` of the gathered
    buffer (a `dynamic_slice` at the offset a per-device table holds)."""
    block = op.parent
    assert isinstance(block, Block)
    x, result = op.operands[0], op.results[0]
    n = len(exchange.groups[0])
    gathered_shape = list(x.type.shape)
    gathered_shape[exchange.concat] *= n
    attributes = {
        "all_gather_dim": IntegerAttr(exchange.concat, I64),
        "channel_handle": op.attributes["channel_handle"],
        "replica_groups": op.attributes["replica_groups"],
        "use_global_device_ids": UNIT,  # the groups are device ids (`exchange_of`)
    }

    def add(name: str, operands: list[Value], t: TensorType, attrs=None) -> Value:
        new = Op(name, operands, [t], attrs or {}, location=op.location)
        block.insert_before(op, new)
        return new.results[0]

    gathered = add(
        "stablehlo.all_gather", [x], x.type.with_shape(tuple(gathered_shape)), attributes
    )
    part = x.type.shape[exchange.split] // n
    table = np.zeros(max(d for g in exchange.groups for d in g) + 1, np.int64)
    for group in exchange.groups:
        for k, device in enumerate(group):
            table[device] = k * part
    table_type = TensorType((len(table),), I64)
    entries = add("stablehlo.constant", [], table_type,
                  {"value": DenseElementsAttr.from_numpy(table, table_type)})  # fmt: skip
    pid = add("stablehlo.partition_id", [], TensorType((), "ui32"))
    index = add("stablehlo.convert", [pid], TensorType((), I64))
    sizes = {"slice_sizes": DenseArrayAttr(I64, (1,))}
    entry = add("stablehlo.dynamic_slice", [entries, index], TensorType((1,), I64), sizes)
    offset = add("stablehlo.reshape", [entry], TensorType((), I64))
    zero_type = TensorType((), I64)
    zero_value = DenseElementsAttr.from_numpy(np.array(0, np.int64), zero_type)
    zero = add("stablehlo.constant", [], zero_type, {"value": zero_value})
    starts = [offset if d == exchange.split else zero for d in range(len(gathered_shape))]
    sliced = add(
        "stablehlo.dynamic_slice",
        [gathered, *starts],
        result.type,
        {"slice_sizes": DenseArrayAttr(I64, tuple(result.type.shape))},
    )
    result.replace_all_uses_with(sliced)
    op.erase()
    return sliced
