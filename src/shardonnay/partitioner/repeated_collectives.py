"""One collective where a global program repeats it: the same sdy collective
(or `sdy.reshard`) of the same value to the same sharding, later in the same block, reuses the
first one's result (as XLA's common-subexpression elimination does).

Explicit reshards are inserted use by use, so a value two ops need in one
layout is resharded twice: a training step gathers an activation or an FSDP
weight for the forward matmul and again for the backward one. A collective
computes the same buffers each time, so the later one is dropped and its
uses read the earlier result (kept live that long: less traffic, as XLA
trades it).

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> (tensor<8xf32>, tensor<8xf32>) {
...   %0 = sdy.all_gather [{"x"}] %a out_sharding=<@mesh, [{}]> : tensor<8xf32>
...   %1 = stablehlo.negate %0 : tensor<8xf32>
...   %2 = sdy.all_gather [{"x"}] %a out_sharding=<@mesh, [{}]> : tensor<8xf32>
...   %3 = stablehlo.abs %2 : tensor<8xf32>
...   return %1, %3 : tensor<8xf32>, tensor<8xf32>
... }''')
>>> merged = merge_repeated_collectives(m)
>>> [op.name for op in m.function("main").body.ops]
['sdy.all_gather', 'stablehlo.negate', 'stablehlo.abs', 'func.return']
>>> merged
1
"""

from __future__ import annotations

from shardonnay.ir.core import Module, Op
from shardonnay.partitioner.analysis.cost import SDY_COLLECTIVES

MERGED = (*SDY_COLLECTIVES, "sdy.reshard")


def merge_repeated_collectives(module: Module) -> int:
    """Drops every sdy collective that repeats an earlier one of its block (in
    place); returns how many were dropped."""
    dropped = 0
    for block in module.function_blocks():
        seen: dict[tuple, Op] = {}
        for op in list(block.ops):
            if op.name not in MERGED or op.regions:
                continue
            key = _key(op)
            first = seen.setdefault(key, op)
            if first is op:
                continue
            for mine, theirs in zip(op.results, first.results, strict=True):
                mine.replace_all_uses_with(theirs)
            op.erase()
            dropped += 1
    return dropped


def _key(op: Op) -> tuple:
    """What the collective computes from: its name, operands, attributes and types."""
    attributes = tuple(sorted((name, str(value)) for name, value in op.attributes.items()))
    return (
        op.name,
        tuple(id(v) for v in op.operands),
        attributes,
        tuple(str(r.type) for r in op.results),
    )
