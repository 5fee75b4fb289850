"""`func.call` in Shardy's `sdy-propagation-pipeline`: calls become named
computations for propagation, and named computations become calls again.

Before propagation (`symbol_dce`, `propagate_sharding_from_func_to_call`,
`import_func_calls`), every call is replaced by an `sdy.named_computation`
holding its own copy of the callee's body (Shardy's `sdy-flatten-call-graph`
then `sdy-import-func-calls`), so that each call site is sharded on its own.
After propagation (`export_named_computations`, `propagate_to_func_results`,
`unflatten_call_graph`, `symbol_dce`, `insert_func_call_reshards`), every
named computation becomes a private function and a call to it; the callees
that came from one function and ended up with the same argument and result
shardings are merged into the first of them. (Call operands sharded unlike
the callee's arguments get their reshards with the other explicit reshards.)

A callee called twice with differently sharded arguments::

    %0 = call @f(%arg0)   // %arg0: [{"x"}, {}]
    %1 = call @f(%arg1)   // %arg1: [{}, {"y"}]

comes out as two functions, `@f` (`[{"x"}, {}]`) and `@f_0` (`[{}, {"y"}]`),
named as Shardy's symbol table names them: the original name, then
`name_N` with one counter over the whole module. Without propagation in
between, the functions come back one per call:

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
...   %0 = call @f(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
...   %1 = call @f(%0) : (tensor<4xf32>) -> tensor<4xf32>
...   return %1 : tensor<4xf32>
... }
... func.func private @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<4xf32>
...   return %0 : tensor<4xf32>
... }''')
>>> import_func_calls(module)
>>> [op.name for op in module.functions[0].body.ops]
['sdy.named_computation', 'sdy.named_computation', 'func.return']
>>> export_named_computations(module)
>>> [(f.name, f.visibility) for f in module.functions]
[('main', 'public'), ('f', 'private'), ('f_0', 'private')]
>>> unflatten_call_graph(module); symbol_dce(module)
>>> [f.name for f in module.functions]
['main', 'f']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from shardonnay.errors import IRError, ShardonnayError, UnsupportedOpError
from shardonnay.ir.attributes import SymbolRefAttr
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import (
    SHARDING,
    func_arg_sharding,
    func_result_sharding,
    is_equivalent,
    set_func_result_sharding,
    sharding_of,
)
from shardonnay.ir.types import TensorType, Type
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import mark_inherent
from shardonnay.sharding import TensorSharding, TensorShardingPerValue

__all__ = [
    "export_named_computations",
    "func_arg_shardings",
    "func_result_shardings",
    "import_func_calls",
    "insert_func_call_reshards",
    "main_func",
    "pre_order_funcs",
    "propagate_sharding_from_func_to_call",
    "propagate_to_func_results",
    "symbol_dce",
    "unflatten_call_graph",
]

ORIGINAL_NAME = "sdy.original_func_name"
FUNC_MANUAL_AXES = "sdy.manual_axes"
_NAMED_ATTRS = ("name", "in_shardings", "out_shardings")
_CALL_ATTRS = ("callee", "arg_attrs", "res_attrs", "no_inline")


# -- functions and their shardings ------------------------------------------------------


def _calls(root: Module | Op) -> list[Op]:
    return [op for op in root.walk() if op.name == "func.call"]


def _defined_funcs(module: Module) -> dict[str, Func]:
    return {f.name: f for f in module.functions if not f.is_declaration}


def _callee(call: Op, funcs: dict[str, Func]) -> Func | None:
    return funcs.get(call.attributes["callee"].name)


def _mesh_of(module: Module | None, sharding: TensorSharding) -> Mesh | None:
    if isinstance(sharding.mesh, Mesh):
        return sharding.mesh
    return module.meshes.get(sharding.mesh) if module is not None else None


def _is_maximal(module: Module | None, sharding: TensorSharding) -> bool:
    mesh = _mesh_of(module, sharding)
    return mesh is not None and mesh.is_maximal


def _filled(
    shardings: list[TensorSharding | None], types: Sequence[Type], module: Module | None
) -> tuple[TensorSharding, ...] | None:
    """Shardy's `getFuncArgShardings`/`getFuncResultShardings`: None when no
    sharding is on a non-maximal mesh, else the missing ones fully open on
    the first such mesh."""
    first = next((s for s in shardings if s is not None and not _is_maximal(module, s)), None)
    if first is None:
        return None
    return tuple(
        s if s is not None else TensorSharding.replicated_on(first.mesh, _rank(t), is_closed=False)
        for s, t in zip(shardings, types, strict=True)
    )


def _rank(t) -> int:
    return len(t.shape) if isinstance(t, TensorType) else 0


def func_arg_shardings(
    func: Func, module: Module | None = None
) -> tuple[TensorSharding, ...] | None:
    """The shardings of `func`'s arguments, missing ones fully open (None if
    none is sharded)."""
    inputs = func.type.inputs
    shardings = [func_arg_sharding(func, i) for i in range(len(inputs))]
    return _filled(shardings, inputs, module)


def func_result_shardings(
    func: Func, module: Module | None = None
) -> tuple[TensorSharding, ...] | None:
    """The shardings of `func`'s results, missing ones fully open (None if
    none is sharded)."""
    results = func.type.results
    shardings = [func_result_sharding(func, i) for i in range(len(results))]
    return _filled(shardings, results, module)


def main_func(module: Module) -> Func | None:
    """The entry function: `@main`, or the only function of the module."""
    funcs = module.functions
    if len(funcs) == 1:
        return funcs[0]
    return next((f for f in funcs if f.name == "main"), None)


def entry_functions(module: Module) -> list[Func]:
    """The defined entry function (`main_func`) as a list; all defined
    functions when there is none (several functions, none `@main`)."""
    entry = main_func(module)
    if entry is not None:
        return [] if entry.is_declaration else [entry]
    return [f for f in module.functions if not f.is_declaration]


def _fully_closed_like(sharding: TensorSharding) -> TensorSharding:
    return TensorSharding.replicated_on(sharding.mesh, sharding.rank)


# -- symbol-dce ---------------------------------------------------------------------------


def _symbol_refs(value) -> Iterator[str]:
    if isinstance(value, SymbolRefAttr):
        yield value.names[0]
    elif isinstance(value, dict):
        for v in value.values():
            yield from _symbol_refs(v)
    elif isinstance(value, tuple | list):
        for v in value:
            yield from _symbol_refs(v)


def symbol_dce(module: Module) -> None:
    """MLIR's `symbol-dce`: private top-level symbols (functions) that no live
    symbol refers to go; symbols that are not private are live."""
    symbols = {op.attributes["sym_name"]: op for op in module.ops if "sym_name" in op.attributes}
    live: set[str] = set()
    work = [n for n, op in symbols.items() if op.attributes.get("sym_visibility") != "private"]
    if len(work) == len(symbols):  # nothing is private: every symbol is live
        return
    while work:
        name = work.pop()
        if name in live or name not in symbols:
            continue
        live.add(name)
        for op in symbols[name].walk():
            for value in op.attributes.values():
                if isinstance(value, SymbolRefAttr):
                    work.append(value.names[0])
                elif isinstance(value, dict | tuple | list):  # (most hold no references)
                    work.extend(_symbol_refs(value))
    for name, op in symbols.items():
        if name not in live:
            module.ops.remove(op)
            op.parent = None


# -- import -------------------------------------------------------------------------------


def propagate_sharding_from_func_to_call(module: Module) -> None:
    """`sdy-propagate-sharding-from-func-to-call`: a call without shardings
    takes its callee's result shardings (missing ones fully open)."""
    funcs = _defined_funcs(module)
    for call in _calls(module):
        callee = _callee(call, funcs)
        if callee is None or SHARDING in call.attributes:
            continue
        shardings = func_result_shardings(callee, module)
        if shardings is not None:
            call.attributes[SHARDING] = TensorShardingPerValue(shardings)


def import_func_calls(module: Module) -> None:
    """`sdy-flatten-call-graph` then `sdy-import-func-calls`: every call of a
    defined function becomes an `sdy.named_computation` named after the
    callee (its `sdy.original_func_name`, if any), on a copy of the callee's
    body of its own (so nested calls are imported too), with the callee's
    argument shardings as `in_shardings` and the call's shardings as
    `out_shardings`; the call's other attributes go along. The called
    functions then go. A call of a declaration (no body) is an
    `UnsupportedOpError`, one of an unknown function an `IRError`."""
    funcs = _defined_funcs(module)
    called = {c.attributes["callee"].name for c in _calls(module)} & funcs.keys()
    for name, func in funcs.items():
        if name not in called:
            _import_calls_in(func.op, funcs, module)
    for name in called:
        op = funcs[name].op
        module.ops.remove(op)
        op.parent = None


def _import_calls_in(root: Op, funcs: dict[str, Func], module: Module) -> None:
    for call in _calls(root):
        callee = _callee(call, funcs)
        if callee is None:
            raise _undefined_callee(call, module)
        named = _named_computation(call, callee, module)
        block = call.parent
        assert block is not None
        block.insert_before(call, named)
        for old, new in zip(call.results, named.results, strict=True):
            old.replace_all_uses_with(new)
        call.erase()
        _import_calls_in(named, funcs, module)


def _undefined_callee(call: Op, module: Module) -> ShardonnayError:
    name = call.attributes["callee"].name
    where = f"func.call @{name}" + (f" at {call.location}" if call.location else "")
    if any(f.name == name for f in module.functions):
        return UnsupportedOpError(
            f"{where}: the callee is a declaration; propagation needs the body of "
            "every function a call refers to"
        )
    return IRError(f"{where}: no function @{name} in the module")


def _named_computation(call: Op, callee: Func, module: Module) -> Op:
    body = callee.op.clone().regions[0]
    terminator = body.entry.terminator
    assert terminator is not None
    terminator.name = "sdy.return"
    attrs: dict = {"name": callee.op.attributes.get(ORIGINAL_NAME, callee.name)}
    in_shardings = func_arg_shardings(callee, module)
    if in_shardings is not None:
        attrs["in_shardings"] = TensorShardingPerValue(in_shardings)
    if SHARDING in call.attributes:
        attrs["out_shardings"] = call.attributes[SHARDING]
    attrs.update(
        (k, v) for k, v in call.attributes.items() if k not in _CALL_ATTRS and k != SHARDING
    )
    named = Op(
        "sdy.named_computation",
        call.operands,
        [r.type for r in call.results],
        attrs,
        [body],
        location=call.location,
    )
    return mark_inherent(named, _NAMED_ATTRS)


def pre_order_funcs(module: Module) -> None:
    """`sdy-pre-order-funcs`: the defined functions move to the end of the
    module in the reverse post-order of MLIR's call graph (a depth-first
    walk from an external node that calls every function in module order,
    each function then calling its callees in program order), so callers
    come before their callees. After `import_func_calls` no function calls
    another, so this reverses the order of the functions."""
    funcs = _defined_funcs(module)
    post_order: list[Func] = []
    visited: set[str] = set()

    def visit(func: Func) -> None:
        visited.add(func.name)
        for call in _calls(func.op):
            callee = _callee(call, funcs)
            if callee is not None and callee.name not in visited:
                visit(callee)
        post_order.append(func)

    for func in funcs.values():
        if func.name not in visited:
            visit(func)
    for func in reversed(post_order):
        module.ops.remove(func.op)
        module.append(func)


# -- export -------------------------------------------------------------------------------


class _SymbolNames:
    """MLIR's `SymbolTable::insert` naming: a taken name gets `_N` appended,
    `N` from one counter, until it is free."""

    def __init__(self, module: Module):
        self.taken = {op.attributes["sym_name"] for op in module.ops if "sym_name" in op.attributes}
        self.counter = 0

    def insert(self, name: str) -> str:
        unique = name
        while unique in self.taken:
            unique = f"{name}_{self.counter}"
            self.counter += 1
        self.taken.add(unique)
        return unique


def export_named_computations(module: Module) -> None:
    """`sdy-export-named-computations`: innermost first, every
    `sdy.named_computation` becomes a private function at the end of the
    module (its name made unique, see `_SymbolNames`; its arguments sharded
    as the computation's `in_shardings`; `sdy.original_func_name` set) and a
    `func.call` to it with the computation's other attributes and its
    `out_shardings` as `sdy.sharding`."""
    names = _SymbolNames(module)
    for named in [op for op in module.walk_post_order() if op.name == "sdy.named_computation"]:
        region = named.regions.pop()
        block = region.entry
        terminator = block.terminator
        assert terminator is not None
        terminator.name = "func.return"
        name = names.insert(named.attributes["name"])
        func = Func.create(
            name,
            [a.type for a in block.arguments],
            [r.type for r in named.results],
            visibility="private",
        )
        func.op.regions[0] = region
        region.parent = func.op
        in_shardings = named.attributes.get("in_shardings")
        if in_shardings is not None:
            func.op.attributes["arg_attrs"] = tuple({SHARDING: s} for s in in_shardings)
        func.op.attributes[ORIGINAL_NAME] = named.attributes["name"]
        module.append(func)
        attrs: dict = {"callee": SymbolRefAttr((name,))}
        attrs.update((k, v) for k, v in named.attributes.items() if k not in _NAMED_ATTRS)
        if "out_shardings" in named.attributes:
            attrs[SHARDING] = named.attributes["out_shardings"]
        call = Op(
            "func.call",
            named.operands,
            [r.type for r in named.results],
            attrs,
            location=named.location,
        )
        mark_inherent(call, _CALL_ATTRS)
        parent = named.parent
        assert parent is not None
        parent.insert_before(named, call)
        for old, new in zip(named.results, call.results, strict=True):
            old.replace_all_uses_with(new)
        named.erase()


def propagate_to_func_results(module: Module) -> None:
    """`sdy-propagate-to-func-results`: every function but the main one
    (see `main_func`) has its result shardings set to those of the values it
    returns (removed where those have none). Without a main function, only
    the called functions are updated."""
    main = main_func(module)
    called = {c.attributes["callee"].name for c in _calls(module)}
    for func in module.functions:
        if func.is_declaration or (func.op is main.op if main else func.name not in called):
            continue
        for i, v in enumerate(func.return_op.operands):
            sharding = sharding_of(v)
            if sharding is not None:
                set_func_result_sharding(func, i, sharding)
            elif "res_attrs" in func.op.attributes:
                func.result_attrs(i).pop(SHARDING, None)


def _computation_key(func: Func, module: Module, *, shardings: bool = True) -> tuple:
    args = func_arg_shardings(func, module) if shardings else None
    results = func_result_shardings(func, module) if shardings else None
    return (
        func.op.attributes.get(ORIGINAL_NAME, func.name),
        str(func.op.attributes.get(FUNC_MANUAL_AXES)),
        None if args is None else tuple(map(str, args)),
        None if results is None else tuple(map(str, results)),
    )


def unflatten_call_graph(module: Module, *, fully: bool = False) -> None:
    """`sdy-unflatten-call-graph`: calls of functions with the same original
    name and the same argument and result shardings all call the first such
    function a call refers to (in program order); `sdy.original_func_name`
    goes. The functions left uncalled go with the next `symbol_dce`.

    `fully` (`dedup-functions-fully=true`): the shardings do not count; all
    the calls of one original function call the copy with the most calls
    (counted in program order, the first to get ahead wins)."""
    funcs = _defined_funcs(module)
    calls = [c for c in _calls(module) if _callee(c, funcs) is not None]
    first: dict[tuple, Func] = {}
    for call in calls:
        callee = _callee(call, funcs)
        assert callee is not None
        first.setdefault(_computation_key(callee, module, shardings=not fully), callee)
    if fully:
        counts: dict[tuple, int] = {}
        for call in calls:
            callee = _callee(call, funcs)
            assert callee is not None
            own = _computation_key(callee, module)
            counts[own] = counts.get(own, 0) + 1
            group = _computation_key(callee, module, shardings=False)
            if counts[own] > counts.get(_computation_key(first[group], module), 0):
                first[group] = callee
    for call in calls:
        callee = _callee(call, funcs)
        assert callee is not None
        target = first[_computation_key(callee, module, shardings=not fully)]
        call.attributes["callee"] = SymbolRefAttr((target.name,))
    for func in module.functions:
        func.op.attributes.pop(ORIGINAL_NAME, None)
        func.op.attributes.pop(FUNC_MANUAL_AXES, None)


def _reshard(value: Value, sharding: TensorSharding) -> Op:
    return Op("sdy.reshard", [value], [value.type], {"sharding": sharding})


def insert_func_call_reshards(module: Module) -> None:
    """`sdy-insert-func-call-reshards`: a call takes its callee's result
    shardings; where its own sharding of a result is not equivalent (see
    `is_equivalent`), the result's users get an `sdy.reshard` to the call's
    former sharding instead (placed right after the call, the last result's
    first)."""
    funcs = _defined_funcs(module)
    for call in _calls(module):
        callee = _callee(call, funcs)
        if callee is None:
            continue
        func_shardings = func_result_shardings(callee, module)
        per_value = call.attributes.get(SHARDING)
        if func_shardings is None:
            if not isinstance(per_value, TensorShardingPerValue):
                continue
            # A callee without result shardings returns replicated values.
            func_shardings = tuple(_fully_closed_like(s) for s in per_value)
        block = call.parent
        assert block is not None
        for i, result in enumerate(call.results):
            old = per_value[i] if isinstance(per_value, TensorShardingPerValue) else None
            if is_equivalent(old, func_shardings[i]):
                continue
            target = old if old is not None else _fully_closed_like(func_shardings[i])
            reshard = _reshard(result, target)
            block.insert(block.ops.index(call) + 1, reshard)
            for use in list(result.uses):
                if use.owner is not reshard:
                    use.owner.set_operand(use.index, reshard.results[0])
        call.attributes[SHARDING] = TensorShardingPerValue(func_shardings)
