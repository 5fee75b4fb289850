"""The values of a program with communication added, traced back to the program it came from.

Partitioning inserts `sdy.reshard`s and Shardy's collectives into a copy of
the propagated program; everything else keeps its place. The reports name a
value of the partitioned program by the value of the propagated program it
is (`shardonnay.ir.naming`), found by matching ops in program order with
the communication skipped on both sides.
"""

from __future__ import annotations

from collections.abc import Iterator

from shardonnay.ir.core import Module, Op, Value
from shardonnay.ir.naming import defined_functions
from shardonnay.ops.sdy_collectives import SDY_COLLECTIVES

__all__ = ["COMMUNICATION_OPS", "corresponding_values"]

#: Ops that partitioning inserts to move data; they have no counterpart in
#: the propagated program.
COMMUNICATION_OPS = frozenset((*SDY_COLLECTIVES, "sdy.reshard"))


def _op_keys(module: Module) -> Iterator[tuple[tuple[str, int], Op]]:
    """(function, index) of every op that is not communication, in program order."""
    for func in defined_functions(module):
        index = 0
        for op in func.walk():
            if op is func.op or op.name in COMMUNICATION_OPS:
                continue
            yield (func.name, index), op
            index += 1


def corresponding_values(source: Module, target: Module) -> dict[Value, Value]:
    """For each value of `target` (a program made from `source` by inserting
    communication ops, `COMMUNICATION_OPS`), the value of `source` it is:
    function arguments by position, results and block arguments of the ops
    matched in program order (communication ops skipped on both sides).
    Where the op names stop matching, the rest of that function is left out.
    """
    mapping: dict[Value, Value] = {}
    source_funcs = {f.name: f for f in defined_functions(source)}
    for func in defined_functions(target):
        other = source_funcs.get(func.name)
        if other is not None and len(other.arguments) == len(func.arguments):
            mapping.update(zip(func.arguments, other.arguments, strict=True))
    source_ops = dict(_op_keys(source))
    broken: set[str] = set()
    for key, op in _op_keys(target):
        theirs = source_ops.get(key)
        if key[0] in broken or theirs is None or theirs.name != op.name:
            broken.add(key[0])
            continue
        if len(theirs.results) == len(op.results):
            mapping.update(zip(op.results, theirs.results, strict=True))
        for mine, their in zip(op.regions, theirs.regions, strict=False):
            for b1, b2 in zip(mine.blocks, their.blocks, strict=False):
                if len(b1.arguments) == len(b2.arguments):
                    mapping.update(zip(b1.arguments, b2.arguments, strict=True))
    return mapping
