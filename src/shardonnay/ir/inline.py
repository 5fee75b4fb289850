"""Inlining `func.call`s: each call replaced by a copy of its callee's body.

JAX emits helpers as private functions called from `main` (`call @relu`).
The partitioner inlines them after propagation, as XLA's call inliner does
before its SPMD partitioner: a function's signature fixes the shardings of
its arguments and results, which would cost reshards at every boundary, and
collectives in different functions could not be combined. (Shardy's
`sdy-convert-global-to-local` cannot convert calls either.) Private
functions that no call reaches any more are dropped (as MLIR's `symbol-dce`
does after inlining)::

    func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
      %0 = call @relu(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    func.func private @relu(%arg0: tensor<4xf32>) -> tensor<4xf32> {...}

becomes `@main` with the body of `@relu` in place of the call.
"""

from __future__ import annotations

from shardonnay.errors import IRError
from shardonnay.ir.core import Func, Module, Op

MAX_DEPTH = 64  # calls inside inlined bodies are inlined again, up to this depth


def inline_calls(module: Module) -> Module:
    """A copy of `module` without calls to functions it defines."""
    out = module.copy()
    functions = {f.name: f for f in out.functions}
    for _ in range(MAX_DEPTH):
        calls = [
            op
            for f in out.functions
            for op in f.walk()
            if op.name == "func.call" and not _callee(op, functions).is_declaration
        ]
        if not calls:
            break
        for call in calls:
            _inline(call, _callee(call, functions))
    else:
        raise IRError(f"calls nest deeper than {MAX_DEPTH} levels (a recursive function?)")
    called = {
        op.attributes["callee"].name
        for f in out.functions
        for op in f.walk()
        if op.name == "func.call"
    }
    for f in out.functions:
        if f.visibility == "private" and f.name not in called:
            out.body.ops.remove(f.op)
            f.op.parent = None
    return out


def _callee(call: Op, functions: dict[str, Func]) -> Func:
    name = call.attributes["callee"].name
    if name not in functions:
        raise IRError(f"call of unknown function @{name}")
    return functions[name]


def _inline(call: Op, callee: Func) -> None:
    block = call.parent
    mapping = dict(zip(callee.arguments, call.operands, strict=True))
    for op in callee.body.ops[:-1]:
        block.insert_before(call, op.clone(mapping))
    returned = [mapping.get(v, v) for v in callee.return_op.operands]
    for result, value in zip(call.results, returned, strict=True):
        result.replace_all_uses_with(value)
    call.erase()


def inlined_op_count(module: Module) -> int | None:
    """How many ops `inline_calls(module)` would hold in its public functions,
    computed without inlining (each function's ops plus, per call, its
    callee's count); None where calls are recursive or nest deeper than
    `MAX_DEPTH`. A function called from several places is copied to each,
    so the count can grow as fast as the product of the calls per level:
    callers check it before they inline.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> m = parse_module('''
    ... func.func @main(%x: tensor<f32>) -> tensor<f32> {
    ...   %0 = call @twice(%x) : (tensor<f32>) -> tensor<f32>
    ...   %1 = call @twice(%0) : (tensor<f32>) -> tensor<f32>
    ...   return %1 : tensor<f32>
    ... }
    ... func.func private @twice(%x: tensor<f32>) -> tensor<f32> {
    ...   %0 = stablehlo.add %x, %x : tensor<f32>
    ...   return %0 : tensor<f32>
    ... }''')
    >>> inlined_op_count(m)  # main's return and twice's add, twice
    3
    """
    functions = {f.name: f for f in module.functions}
    counts: dict[str, int | None] = {}
    visiting: set[str] = set()

    def count(name: str, depth: int) -> int | None:
        if name in counts:
            return counts[name]
        if name in visiting or depth > MAX_DEPTH:
            return None
        visiting.add(name)
        total = 0
        for op in functions[name].walk():
            callee = op.attributes.get("callee") if op.name == "func.call" else None
            if callee is None or callee.name not in functions:
                total += 1
                continue
            if functions[callee.name].is_declaration:
                total += 1
                continue
            inner = count(callee.name, depth + 1)
            if inner is None:
                return None
            total += inner - 1  # the callee's ops, without its return
        visiting.discard(name)
        counts[name] = total
        return total

    total = 0
    for f in module.functions:
        if f.visibility != "private":
            n = count(f.name, 0)
            if n is None:
                return None
            total += n
    return total
