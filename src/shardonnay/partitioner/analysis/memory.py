"""How much memory one device needs at most to run a local (per-device) program.

`peak_memory(module)` sweeps the ops of `main` in program order and keeps
the live buffers, whose sizes are the value types (a local program's types
are the per-device buffers):

* the arguments are the caller's buffers: live from start to end (nothing is
  donated);
* an op's results are allocated when it runs, while its operands are still
  live; a value is freed after its last use (a use inside a nested region
  counts as a use by the op holding the region); a result nobody uses is
  freed right after its op; what `return` returns stays live to the end;
* an op with regions (while, case, reduce, sort, a collective's reduction,
  manual computations, ...) adds, while it runs, the peaks of all its
  regions together, each region's block arguments counted as fresh buffers;
  a `func.call` adds the peak of the callee counted the same way. This is
  conservative: loop-carried values, branches and callee arguments are
  never assumed to share memory with anything else;
* no buffer is reused in place or aliased (a reshape is a copy).

The peak is the largest sum of live bytes at any op.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
...   %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
...   %1 = stablehlo.multiply %0, %0 : tensor<4xf32>
...   %2 = stablehlo.negate %1 : tensor<4xf32>
...   return %2 : tensor<4xf32>
... }''')
>>> peak_memory(module)  # %arg0 + two buffers of 16 B live at each op
48
"""

from __future__ import annotations

from collections.abc import Mapping

from shardonnay.ir.core import Block, Func, Module, Op, Region, Value
from shardonnay.ir.structure import check_structure
from shardonnay.partitioner.analysis.cost_model import type_bytes


def peak_memory(module: Module, func: str = "main") -> int:
    """Peak live bytes on one device while `func` of local program `module` runs."""
    check_structure(module)  # the walk below recurses into regions and callees
    funcs = {f.name: f for f in module.functions}
    body = funcs[func].body if func in funcs else module.function(func).body
    arguments = sum(_bytes(a) for a in body.arguments)
    return arguments + _block_peak(body, funcs, (func,))


def _bytes(value: Value) -> int:
    return type_bytes(value.type)


def _block_peak(block: Block, funcs: Mapping[str, Func], stack: tuple[str, ...]) -> int:
    """Peak bytes of the values `block`'s ops define (its arguments not counted)."""
    position = {id(op): i for i, op in enumerate(block.ops)}
    last_use: dict[Value, int] = {}
    for i, op in enumerate(block.ops):
        for inner in op.walk():
            for v in inner.operands:
                if v.op is not None and id(v.op) in position:
                    last_use[v] = max(last_use.get(v, -1), i)
    frees: dict[int, list[Value]] = {}
    for v, i in last_use.items():
        frees.setdefault(i, []).append(v)
    live = peak = 0
    for i, op in enumerate(block.ops):
        results = sum(_bytes(r) for r in op.results)
        peak = max(peak, live + results + _nested_peak(op, funcs, stack))
        live += results
        dead = [r for r in op.results if r not in last_use]
        for v in frees.get(i, []) + dead:
            if not _returned(v, block):
                live -= _bytes(v)
    return peak


def _returned(value: Value, block: Block) -> bool:
    terminator = block.terminator
    return (
        terminator is not None
        and terminator.name in ("func.return", "return")
        and (value in terminator.operands)
    )


def _nested_peak(op: Op, funcs: Mapping[str, Func], stack: tuple[str, ...]) -> int:
    """What `op` holds on top of its operands and results while it runs."""
    total = sum(_region_peak(r, funcs, stack) for r in op.regions)
    if op.name in ("func.call", "call"):
        callee = op.attributes.get("callee")
        name = str(callee).lstrip("@") if callee is not None else None
        if name in funcs and name not in stack:
            body = funcs[name].body
            total += sum(_bytes(a) for a in body.arguments)
            total += _block_peak(body, funcs, (*stack, name))
    return total


def _region_peak(region: Region, funcs: Mapping[str, Func], stack: tuple[str, ...]) -> int:
    return sum(
        sum(_bytes(a) for a in block.arguments) + _block_peak(block, funcs, stack)
        for block in region.blocks
    )
