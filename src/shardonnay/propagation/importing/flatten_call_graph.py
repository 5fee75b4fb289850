"""Shardy's `sdy-flatten-call-graph`: each function is called from one place.

Calls are visited from the module's public functions down, in program
order; the first call of a function keeps it (and its own calls are visited
in turn), every later call gets a copy of the function of its own, copied
recursively (the functions it calls are copied too, before it). A copy is
named as MLIR's symbol table makes a name unique (`f_0`, `g_1`: one counter
for the whole pass), placed at the end of the module, and remembers the
function it was copied from in `sdy.original_func_name`.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
...   %0 = call @f(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
...   %1 = call @f(%0) : (tensor<4xf32>) -> tensor<4xf32>
...   return %1 : tensor<4xf32>
... }
... func.func private @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
...   return %arg0 : tensor<4xf32>
... }''')
>>> flatten_call_graph(module)
>>> [(f.name, f.op.attributes.get("sdy.original_func_name")) for f in module.functions]
[('main', None), ('f', None), ('f_0', 'f')]
"""

from __future__ import annotations

from shardonnay.ir.attributes import SymbolRefAttr
from shardonnay.ir.core import Func, Module, Op

__all__ = ["ORIGINAL_NAME", "FunctionCopier", "flatten_call_graph"]

ORIGINAL_NAME = "sdy.original_func_name"


class FunctionCopier:
    """Copies functions of `module` (`clone`) and visits its call graph
    (`visit`); the copies' names are unique as MLIR's symbol table makes
    them, with one counter for the copier's lifetime (one pass)."""

    def __init__(self, module: Module):
        self.module = module
        self.funcs = {f.name: f for f in module.functions}
        self.counter = 0
        self.called: set[str] = set()

    def _unique(self, base: str) -> str:
        name = base
        while name in self.funcs:
            name = f"{base}_{self.counter}"
            self.counter += 1
        return name

    def _calls(self, func: Func) -> list[Op]:
        return [op for op in func.walk() if op.name == "func.call"]

    def _callee(self, call: Op) -> Func | None:
        callee = self.funcs.get(call.attributes["callee"].names[-1])
        return callee if callee is not None and not callee.is_declaration else None

    def visit(self, func: Func) -> None:
        for call in self._calls(func):
            callee = self._callee(call)
            if callee is None:
                continue
            if callee.name not in self.called:
                self.called.add(callee.name)
                self.visit(callee)
            else:
                call.attributes["callee"] = SymbolRefAttr((self.clone(callee).name,))

    def clone(self, func: Func) -> Func:
        """A copy of `func` whose calls call copies of their callees, added at
        the end of the module."""
        copy = Func(func.op.clone())
        for attrs_key in ("arg_attrs", "res_attrs"):
            dicts = func.op.attributes.get(attrs_key)
            if dicts is not None:
                copy.op.attributes[attrs_key] = tuple(dict(d) for d in dicts)
        for call in self._calls(copy):
            callee = self._callee(call)
            if callee is not None:
                call.attributes["callee"] = SymbolRefAttr((self.clone(callee).name,))
        base = func.name
        name = self._unique(base)
        copy.op.attributes["sym_name"] = name
        copy.op.attributes.setdefault(ORIGINAL_NAME, func.op.attributes.get(ORIGINAL_NAME, base))
        self.funcs[name] = copy
        self.module.append(copy)
        return copy


def flatten_call_graph(module: Module) -> None:
    """`sdy-flatten-call-graph` (see the module docstring)."""
    flattener = FunctionCopier(module)
    for func in list(module.functions):
        if func.visibility != "private" and not func.is_declaration:
            flattener.visit(func)
