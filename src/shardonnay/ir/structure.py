"""The shape of a program as a whole: how deep its regions nest and whether
its functions call each other in a cycle.

Every walk over a module here is iterative, so a program of any depth gets a
typed error, never Python's `RecursionError`. Shardonnay's passes (and
Shardy's call-graph passes) assume an acyclic call graph and regions nested
at most `MAX_REGION_DEPTH` deep; `check_structure` says where a module is
neither:

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
...   %0 = call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
...   return %0 : tensor<2xf32>
... }
... func.func private @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
...   %0 = call @main(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
...   return %0 : tensor<2xf32>
... }''')
>>> check_structure(m)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shardonnay.errors.IRError: recursive call graph: @main -> @f -> @main; ...
>>> region_depth(m)
1
"""

from __future__ import annotations

from collections.abc import Iterator

from shardonnay.errors import IRError
from shardonnay.ir.attributes import SymbolRefAttr
from shardonnay.ir.core import Module, Op

#: How deep regions may nest (a function body is depth 1, a `while` in it 2, ...).
#: Real programs stay far below; the limit keeps every recursive pass in bounds.
MAX_REGION_DEPTH = 64

__all__ = [
    "MAX_REGION_DEPTH",
    "callees",
    "check_call_graph",
    "check_nesting",
    "check_structure",
    "region_depth",
]


def check_structure(module: Module) -> None:
    """Raises `IRError` where regions nest too deep or functions call each other in a cycle."""
    check_nesting(module)
    check_call_graph(module)


def region_depth(module: Module) -> int:
    """The deepest nesting of regions in `module` (0 without any region)."""
    deepest = 0
    for _, depth in _ops_with_depth(module):
        deepest = max(deepest, depth)
    return deepest


def check_nesting(module: Module, limit: int = MAX_REGION_DEPTH) -> None:
    """Raises `IRError` naming the first op whose regions nest deeper than `limit`."""
    for op, depth in _ops_with_depth(module):
        if depth > limit:
            raise IRError(
                f"regions nested {depth} deep at {op.name}: shardonnay reads at most "
                f"{limit} levels of nested regions"
            )


def _ops_with_depth(module: Module) -> Iterator[tuple[Op, int]]:
    """Each op with regions and the depth of its innermost region, pre-order."""
    stack = [(op, 1) for op in reversed(module.ops) if op.regions]
    while stack:
        op, depth = stack.pop()
        yield op, depth
        for region in op.regions:
            for block in region.blocks:
                stack.extend((inner, depth + 1) for inner in block.ops if inner.regions)


def callees(op: Op) -> Iterator[str]:
    """The functions `op` calls: a `func.call`'s callee, a composite's
    decomposition, a custom call's called computations."""
    if op.name == "func.call":
        ref = op.attributes.get("callee")
        if isinstance(ref, SymbolRefAttr):
            yield ref.name
    elif op.name == "stablehlo.composite":
        ref = op.attributes.get("decomposition")
        if isinstance(ref, SymbolRefAttr):
            yield ref.name
    elif op.name == "stablehlo.custom_call":
        refs = op.attributes.get("called_computations", ())
        for ref in refs if isinstance(refs, tuple) else ():
            if isinstance(ref, SymbolRefAttr):
                yield ref.name


def check_call_graph(module: Module, limit: int = MAX_REGION_DEPTH) -> None:
    """Raises `IRError` naming a cycle of calls (`@f -> @g -> @f`), if there is
    one, or a chain of calls and regions nested deeper than `limit` (a call
    counts as deep as the regions around it plus its callee's depth)."""
    own: dict[str, int] = {}
    sites: dict[str, list[tuple[str, int]]] = {}
    for func in module.functions:
        own[func.name], found = _calls_with_depth(func.op)
        sites.setdefault(func.name, []).extend(found)
    total: dict[str, int] = {}
    for root in sites:
        if root in total:
            continue
        path: list[str] = [root]
        on_path = {root}
        stack = [iter(sites[root])]
        while stack:
            site = next(stack[-1], None)
            if site is None:
                stack.pop()
                finished = path.pop()
                on_path.discard(finished)
                total[finished] = max(
                    [own[finished]] + [d + total[c] for c, d in sites[finished] if c in total]
                )
                if total[finished] > limit:
                    raise IRError(
                        f"regions and calls nested {total[finished]} deep from @{finished}: "
                        f"shardonnay reads at most {limit} levels of nested regions and calls"
                    )
                continue
            callee = site[0]
            if callee in on_path:
                cycle = [*path[path.index(callee) :], callee]
                raise IRError(
                    "recursive call graph: "
                    + " -> ".join(f"@{name}" for name in cycle)
                    + "; functions may not call themselves, directly or through others"
                )
            if callee in total or callee not in sites:
                continue
            path.append(callee)
            on_path.add(callee)
            stack.append(iter(sites[callee]))


def _calls_with_depth(func: Op) -> tuple[int, list[tuple[str, int]]]:
    """The deepest region of function `func` (its body is 1) and each function
    it calls with the depth of the region holding the call."""
    deepest = 0
    found: list[tuple[str, int]] = []
    stack = [(region, 1) for region in func.regions]
    while stack:
        region, depth = stack.pop()
        deepest = max(deepest, depth)
        for block in region.blocks:
            for op in block.ops:
                found.extend((callee, depth) for callee in callees(op))
                if op.regions:
                    stack.extend((inner, depth + 1) for inner in op.regions)
    return deepest, found
