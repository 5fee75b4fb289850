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

from shardonnay.ir.core import Block, Module, Op, building
from shardonnay.partitioner.analysis.cost import SDY_COLLECTIVES

MERGED = (*SDY_COLLECTIVES, "sdy.reshard")


def merge_repeated_collectives(module: Module) -> int:
    """Drops every sdy collective that repeats an earlier one of its block (in
    place); returns how many were dropped."""
    dropped = 0
    # (Its keys are small tracked tuples, and the collectives it drops the only
    # cycles it leaves: nothing for the collector while it runs.)
    with building():
        for block in module.function_blocks():
            dropped += _merge_in(block)
    return dropped


def _merge_in(block: Block) -> int:
    """`merge_repeated_collectives` in one block."""
    dropped = 0
    # Collectives of the same name, operands and result types, each with
    # attributes unlike the ones before it; the attributes are written out
    # only where two meet (most collectives move a value of their own).
    seen: dict[tuple, list[Op]] = {}
    attributes: dict[Op, tuple] = {}
    for op in list(block.ops):
        if op.name not in MERGED or op.regions:
            continue
        firsts = seen.setdefault(_operation(op), [])
        first = None
        if firsts:
            mine = _attributes(op)
            for candidate in firsts:
                theirs = attributes.get(candidate)
                if theirs is None:
                    theirs = attributes[candidate] = _attributes(candidate)
                if theirs == mine:
                    first = candidate
                    break
        if first is None:
            firsts.append(op)
            continue
        for repeated, earlier in zip(op.results, first.results, strict=True):
            repeated.replace_all_uses_with(earlier)
        op.erase()
        dropped += 1
    return dropped


def _operation(op: Op) -> tuple:
    """What the collective computes from but its attributes: its name,
    operands and result types."""
    return (op.name, tuple(id(v) for v in op.operands), tuple(str(r.type) for r in op.results))


def _attributes(op: Op) -> tuple:
    """The collective's attributes, as written."""
    return tuple(sorted((name, str(value)) for name, value in op.attributes.items()))
