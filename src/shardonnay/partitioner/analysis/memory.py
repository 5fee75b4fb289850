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

from shardonnay.ir.core import Block, Func, Module, Op, Region, Value
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
    return arguments + _block_peak(body, funcs, (func,))


def _bytes(value: Value) -> int:
    return type_bytes(value.type)


def _block_peak(block: Block, funcs: Mapping[str, Func], stack: tuple[str, ...]) -> int:
    """Peak bytes of the buffers `block`'s ops allocate (its arguments not counted)."""
    position = {id(op): i for i, op in enumerate(block.ops)}
    last_use: dict[Value, int] = {}
    for i, op in enumerate(block.ops):
        for inner in op.walk() if op.regions else (op,):  # (most ops have none: no walk)
            for v in inner.operands:
                if id(v.defining) in position:  # (a block argument's is its block)
                    last_use[v] = max(last_use.get(v, -1), i)
    returned = set(block.terminator.operands) if _returns(block) else set()
    buffers = _Buffers(last_use, returned)
    live = peak = 0
    for i, op in enumerate(block.ops):
        owned = [r for r in op.results if buffers.place(r, op, i)]
        results = sum(_bytes(r) for r in owned)
        peak = max(peak, live + results + _nested_peak(op, funcs, stack))
        live += results
        for v in buffers.freed_at(i):
            live -= _bytes(v)
    return peak


class _Buffers:
    """Which buffer holds each value of one block, placed in program order: its
    own, or (a view; an elementwise result written over an operand of its size
    read for the last time, as XLA's buffer assignment shares them) the buffer
    of an earlier value, its owner. A buffer is freed after the last use of any
    value it holds, unless one of them is returned."""

    def __init__(self, last_use: Mapping[Value, int], returned: set[Value]) -> None:
        self.last_use, self.returned = last_use, returned
        self.owner: dict[Value, Value] = {}
        self.until: dict[Value, int] = {}  # owner -> last use of any value it holds
        self.kept: set[Value] = set()  # owners holding a returned value
        self.frees: dict[int, list[Value]] = {}  # op index -> owners whose `until` it is

    def place(self, result: Value, op: Op, at: int) -> bool:
        """Assigns `result` (of `op`, the `at`-th op) a buffer; True when it
        is a new one."""
        shared = self._shared(result, op, at)
        owner = result if shared is None else shared
        self.owner[result] = owner
        before = self.until.get(owner)
        until = max(before if before is not None else at, self.last_use.get(result, at))
        if until != before:
            if before is not None:
                self.frees[before].remove(owner)
            self.frees.setdefault(until, []).append(owner)
            self.until[owner] = until
        if result in self.returned:
            self.kept.add(owner)
        return shared is None

    def _shared(self, result: Value, op: Op, at: int) -> Value | None:
        if _is_view(op):
            return self.owner.get(op.operands[0])  # None: an outer value (not freed here)
        if len(op.results) != 1 or not _writes_over_operand(op.name):
            return None
        for v in op.operands:
            owner = self.owner.get(v)
            if (
                owner is not None
                and owner not in self.kept
                and self.until[owner] == at
                and _bytes(owner) == _bytes(result)
            ):
                return owner
        return None

    def freed_at(self, at: int) -> list[Value]:
        """The buffers freed after the `at`-th op."""
        return [owner for owner in self.frees.pop(at, []) if owner not in self.kept]


def _writes_over_operand(name: str) -> bool:
    """Whether ops named `name` may write their result over an operand's
    buffer (elementwise ones)."""
    traits = all_traits(name)
    return ELEMENTWISE in traits or BROADCASTING_ELEMENTWISE in traits


def _is_view(op: Op) -> bool:
    """Whether `op`'s one result is a view of its one operand's buffer."""
    return op.name == "stablehlo.reshape" and len(op.operands) == 1 and not op.regions


def _returns(block: Block) -> bool:
    terminator = block.terminator
    return terminator is not None and terminator.name in ("func.return", "return")


_CALLS = ("func.call", "call")


def _nested_peak(op: Op, funcs: Mapping[str, Func], stack: tuple[str, ...]) -> int:
    """What `op` holds on top of its operands and results while it runs."""
    if not op.regions and op.name not in _CALLS:  # most ops: nothing
        return 0
    state_held = op.name == "stablehlo.while"  # its block arguments are its results' buffers
    total = sum(_region_peak(r, funcs, stack, state_held) for r in op.regions)
    if op.name in _CALLS:
        callee = op.attributes.get("callee")
        name = str(callee).lstrip("@") if callee is not None else None
        if name in funcs and name not in stack:
            total += _block_peak(funcs[name].body, funcs, (*stack, name))
    return total


def _region_peak(
    region: Region, funcs: Mapping[str, Func], stack: tuple[str, ...], state_held: bool
) -> int:
    arguments = 0 if state_held else 1
    return sum(
        arguments * sum(_bytes(a) for a in block.arguments) + _block_peak(block, funcs, stack)
        for block in region.blocks
    )
