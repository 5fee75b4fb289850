"""The values of a program with communication added, traced back to the program it came from.

Partitioning inserts `sdy.reshard`s and Shardy's collectives into a copy of
the propagated program; everything else keeps its place, but for calls,
which it inlines (their callees' ops in their place). The reports name a
value of the partitioned program by the value of the propagated program it
is (`shardonnay.ir.naming`), found by matching ops in program order with
the communication skipped on both sides.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.naming import defined_functions
from shardonnay.ops.sdy_collectives import SDY_COLLECTIVES

__all__ = ["COMMUNICATION_OPS", "corresponding_values"]

#: Ops that partitioning inserts to move data; they have no counterpart in
#: the propagated program.
COMMUNICATION_OPS = frozenset((*SDY_COLLECTIVES, "sdy.reshard"))


def _function_ops(module: Module, inlined: frozenset[str] = frozenset()) -> dict[str, list[Op]]:
    """Per function (but those in `inlined`), its ops that are not
    communication, in program order; a call of a function in `inlined`
    stands for its callee's ops, as `shardonnay.ir.inline` puts them in its
    place."""
    functions = {f.name: f for f in defined_functions(module)}

    def ops(func: Func) -> Iterator[Op]:
        skipped = func.return_op if func.name in inlined else None  # its callers' ops follow
        for op in func.walk():
            name = op.name
            if name in COMMUNICATION_OPS or op is skipped:
                continue
            callee = op.attributes.get("callee") if name == "func.call" else None
            if callee is not None and callee.name in inlined and callee.name in functions:
                yield from ops(functions[callee.name])
            else:
                yield op

    return {name: list(ops(func)) for name, func in functions.items() if name not in inlined}


def corresponding_values(
    source: Module, target: Module, values: Iterable[Value] | None = None
) -> dict[Value, Value]:
    """For each value of `target` (a program made from `source` by inserting
    communication ops, `COMMUNICATION_OPS`), the value of `source` it is:
    function arguments by position, results and block arguments of the ops
    matched in program order (communication ops skipped on both sides; a
    function `target` no longer has was inlined, its calls matched as its ops).
    Where the op names stop matching, the rest of that function is left out.
    `values`: where given, only the results and block arguments of the ops
    defining these (or holding them in their regions) are mapped, the rest
    being of no interest to the caller (the ops are matched all the same).
    """
    mapping: dict[Value, Value] = {}
    source_funcs = {f.name: f for f in defined_functions(source)}
    for func in defined_functions(target):
        other = source_funcs.get(func.name)
        if other is not None and len(other.arguments) == len(func.arguments):
            mapping.update(zip(func.arguments, other.arguments, strict=True))
    # Functions the target no longer has were inlined into their callers.
    inlined = frozenset(source_funcs) - {f.name for f in defined_functions(target)}
    source_ops = _function_ops(source, inlined)
    wanted = None if values is None else _defining_ops(values)
    for name, ops in _function_ops(target).items():
        # (past the end of the source's ops, the rest is left out: zip stops)
        for op, theirs in zip(ops, source_ops.get(name, ()), strict=False):
            if theirs.name != op.name:
                break
            if wanted is not None and id(op) not in wanted:
                continue
            if len(theirs.results) == len(op.results):
                mapping.update(zip(op.results, theirs.results, strict=True))
            if op.regions:
                for mine, their in zip(op.regions, theirs.regions, strict=False):
                    for b1, b2 in zip(mine.blocks, their.blocks, strict=False):
                        if len(b1.arguments) == len(b2.arguments):
                            mapping.update(zip(b1.arguments, b2.arguments, strict=True))
    return mapping


def _defining_ops(values: Iterable[Value]) -> set[int]:
    """The ids of the ops that define `values` or hold them as block
    arguments of their regions."""
    ops = set()
    for v in values:
        defining = v.defining
        if isinstance(defining, Op):
            ops.add(id(defining))
        elif defining is not None and defining.parent is not None:  # a block's region's op
            holder = defining.parent.parent
            if holder is not None:
                ops.add(id(holder))
    return ops
