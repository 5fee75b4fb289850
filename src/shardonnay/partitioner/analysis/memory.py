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
* a `reshape` is a view of its operand's buffer, as XLA's bitcast is (a
  row-major reshape moves no element): it allocates nothing, and the buffer
  is freed after the last use of the operand or any view of it;
* an elementwise op writes its result over an operand it reads for the last
  time, when their sizes agree and the operand is not returned (as XLA's
  buffer assignment shares an elementwise op's buffer with its operand's);
* an op with regions (case, reduce, sort, a collective's reduction, manual
  computations, ...) adds, while it runs, the peaks of all its regions
  together, each region's block arguments counted as fresh buffers, except
  a `while`'s: its loop state is held in the buffers of its results (as
  XLA's buffer assignment aliases a while's operand, body parameter and
  result), counted once as the op's results. A `func.call` adds the peak of
  the callee, whose arguments are the caller's operands (live across the
  call: not counted again). This stays conservative: branches never share
  memory and nothing else is reused;
* ops are not fused: each other result is a buffer (XLA's
  `memory_analysis()` counts after fusion, where a broadcast or an
  elementwise chain feeding one consumer is never materialized).

The peak is the largest sum of live bytes at any op.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
...   %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
...   %1 = stablehlo.multiply %0, %0 : tensor<4xf32>
...   %2 = stablehlo.negate %1 : tensor<4xf32>
...   return %2 : tensor<4xf32>
... }''')
>>> peak_memory(module)  # %arg0 and one buffer of 16 B: %1 and %2 are written over %0
32
"""

from __future__ import annotations

from collections.abc import Mapping

from shardonnay.ir.core import Block, Func, Module, Op, Value
from shardonnay.ir.structure import check_structure
from shardonnay.ops.registry import all_traits
from shardonnay.ops.traits import BROADCASTING_ELEMENTWISE, ELEMENTWISE
from shardonnay.partitioner.analysis.cost_model import type_bytes


def peak_memory(module: Module, func: str = "main") -> int:
    """Peak live bytes on one device while `func` of local program `module` runs."""
    check_structure(module)  # the walk below recurses into regions and callees
    funcs = {f.name: f for f in module.functions}
    body = funcs[func].body if func in funcs else module.function(func).body
    arguments = sum(_bytes(a) for a in body.arguments)
    return arguments + _block_peak(body, _Program(funcs), (func,))


def _bytes(value: Value) -> int:
    return type_bytes(value.type)


class _Program:
    """The functions a sweep may call, and what one sweep of a module learns
    once: the peak of each callee's body (the same at every call: a call
    graph has no cycles once `check_structure` passed), which op names
    write over an operand, and the bytes of each type object (a program's
    values share a few: by identity, which holds while the program does)."""

    def __init__(self, funcs: Mapping[str, Func]) -> None:
        self.funcs = funcs
        self.callee_peaks: dict[str, int] = {}
        self.writes_over: dict[str, bool] = {}
        self.sizes: dict[int, int] = {}

    def bytes_of(self, value: Value) -> int:
        t = value.type
        found = self.sizes.get(id(t))
        if found is None:
            found = self.sizes[id(t)] = type_bytes(t)
        return found


def _block_peak(block: Block, program: _Program, stack: tuple[str, ...]) -> int:
    """Peak bytes of the buffers `block`'s ops allocate (its arguments not counted).

    Each value of the block is placed in a buffer in program order: its own,
    or (a view; an elementwise result written over an operand of its size
    read for the last time, as XLA's buffer assignment shares them) the
    buffer of an earlier value, its owner. A buffer is freed after the last
    use of any value it holds, unless one of them is returned. (One loop
    over the ops, its tables local: a program's sweep visits every op.)"""
    ops = block.ops
    position = {id(op) for op in ops}
    last_use: dict[Value, int] = {}  # (ops are visited in order: the last write is the last use)
    for i, op in enumerate(ops):
        for v in op.operands:
            if id(v.defining) in position:  # (a block argument's is its block)
                last_use[v] = i
        if op.regions:  # a use inside a nested region is a use by the op holding it
            for inner in op.walk():
                for v in inner.operands:
                    if id(v.defining) in position:
                        last_use[v] = i
    returned = set(ops[-1].operands) if _returns(block) else ()
    writes_over, sizes = program.writes_over, program.sizes
    owner_of: dict[Value, Value] = {}
    until: dict[Value, int] = {}  # owner -> last use of any value it holds
    size: dict[Value, int] = {}  # owner -> its bytes
    kept: set[Value] = set()  # owners holding a returned value
    frees: dict[int, list[Value]] = {}  # op index -> owners whose `until` it is
    live = peak = 0
    for i, op in enumerate(ops):
        results = op.results
        allocated = 0
        if results:
            name = op.name
            view = over = False
            if name == "stablehlo.reshape" and op.num_operands == 1 and not op.regions:
                view = True
                operands = op.operands
            elif len(results) == 1:
                over = writes_over.get(name)
                if over is None:
                    over = writes_over[name] = _writes_over_operand(name)
                if over:
                    operands = op.operands
            for r in results:
                shared = None
                if view:
                    shared = owner_of.get(operands[0])  # None: an outer value (not freed here)
                elif over:
                    nbytes = sizes.get(id(r.type))
                    if nbytes is None:
                        nbytes = program.bytes_of(r)
                    for v in operands:
                        owner = owner_of.get(v)
                        if (
                            owner is not None
                            and until[owner] == i
                            and owner not in kept
                            and size[owner] == nbytes
                        ):
                            shared = owner
                            break
                after = last_use.get(r, i)
                if shared is None:  # a buffer of its own, freed after its last use
                    owner = r
                    nbytes = sizes.get(id(r.type))
                    if nbytes is None:
                        nbytes = program.bytes_of(r)
                    size[r] = nbytes
                    allocated += nbytes
                    if i > after:
                        after = i
                else:  # the owner's buffer, now held until the later of their last uses
                    owner = shared
                    before = until[owner]
                    if before >= after:
                        after = -1  # (unchanged)
                    else:
                        frees[before].remove(owner)
                if after >= 0:
                    held = frees.get(after)
                    if held is None:
                        frees[after] = [owner]
                    else:
                        held.append(owner)
                    until[owner] = after
                owner_of[r] = owner
                if r in returned:
                    kept.add(owner)
        nested = _nested_peak(op, program, stack) if op.regions or op.name in _CALLS else 0
        if live + allocated + nested > peak:
            peak = live + allocated + nested
        live += allocated
        freed = frees.pop(i, None)
        if freed is not None:
            for owner in freed:
                if owner not in kept:
                    live -= size[owner]
    return peak


def _writes_over_operand(name: str) -> bool:
    """Whether ops named `name` may write their result over an operand's
    buffer (elementwise ones)."""
    traits = all_traits(name)
    return ELEMENTWISE in traits or BROADCASTING_ELEMENTWISE in traits


def _returns(block: Block) -> bool:
    terminator = block.terminator
    return terminator is not None and terminator.name in ("func.return", "return")


_CALLS = ("func.call", "call")


def _nested_peak(op: Op, program: _Program, stack: tuple[str, ...]) -> int:
    """What `op` holds on top of its operands and results while it runs."""
    if not op.regions and op.name not in _CALLS:  # most ops: nothing
        return 0
    state_held = op.name == "stablehlo.while"  # its block arguments are its results' buffers
    total = 0
    for region in op.regions:  # each region's blocks, their arguments fresh buffers
        for block in region.blocks:
            if not state_held:
                for a in block.arguments:
                    total += program.bytes_of(a)
            total += _block_peak(block, program, stack)
    if op.name in _CALLS:
        callee = op.attributes.get("callee")
        name = str(callee).lstrip("@") if callee is not None else None
        funcs = program.funcs
        if name in funcs and name not in stack:
            known = program.callee_peaks.get(name)
            if known is None:
                known = _block_peak(funcs[name].body, program, (*stack, name))
                program.callee_peaks[name] = known
            total += known
    return total
