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
