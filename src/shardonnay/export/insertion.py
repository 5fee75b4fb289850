"""Creating the ops resharding inserts, and placing them as MLIR's rewriter does.

An op is placed right before another (an operand's reshard), right after
another (a result's reshard; several in a row keep their order when each goes
after the previous one), or right after the definition of a value (at the
start of its block for a block argument).
"""

from __future__ import annotations

from collections.abc import Sequence

from shardonnay.axes import AxisRef
from shardonnay.collectives.attributes import AxisRefList
from shardonnay.ir.core import Block, Op, Value
from shardonnay.sharding import TensorSharding

__all__ = [
    "all_reduce",
    "insert_after",
    "insert_after_value",
    "insert_before",
    "insert_on_operand",
    "replace_uses_except",
    "reshard",
]


def reshard(value: Value, sharding: TensorSharding) -> Op:
    """`sdy.reshard %value <sharding>` (not placed yet)."""
    return Op("sdy.reshard", [value], [value.type], {"sharding": sharding})


def all_reduce(value: Value, axes: Sequence[AxisRef], out_sharding: TensorSharding) -> Op:
    """`sdy.all_reduce {axes} %value out_sharding=<...>` (not placed yet)."""
    return Op(
        "sdy.all_reduce",
        [value],
        [value.type],
        {"reduction_axes": AxisRefList(tuple(axes)), "out_sharding": out_sharding},
    )


def insert_before(anchor: Op, op: Op) -> Op:
    assert anchor.parent is not None
    return anchor.parent.insert_before(anchor, op)


def insert_after(anchor: Op, op: Op) -> Op:
    block = anchor.parent
    assert block is not None
    return block.insert(block.ops.index(anchor) + 1, op)


def insert_after_value(value: Value, op: Op) -> Op:
    if value.op is not None:
        return insert_after(value.op, op)
    block = value.defining
    assert isinstance(block, Block)
    return block.insert(0, op)


def insert_on_operand(user: Op, index: int, op: Op, *, after_operand: bool) -> Op:
    """Places the one-operand `op`, made on operand `index` of `user`, between
    that value and `user` (right after the value's definition, or right
    before `user`): `user` now uses the result of `op`."""
    if after_operand:
        insert_after_value(user.operands[index], op)
    else:
        insert_before(user, op)
    user.set_operand(index, op.results[0])
    return op


def replace_uses_except(value: Value, replacement: Value, keep: Op) -> None:
    """Every use of `value` but those by `keep` now uses `replacement`."""
    for use in list(value.uses):
        if use.owner is not keep:
            use.owner.set_operand(use.index, replacement)
