"""Shardy's `sdy-constant-or-scalar-splitter` and `sdy-constant-or-scalar-merger`:
constant expressions get a copy per use before propagation (so that each
use may be sharded differently) and equal ones merge back after it.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
...   %c = stablehlo.constant dense<1.0> : tensor<4xf32>
...   %0 = stablehlo.add %arg0, %c : tensor<4xf32>
...   %1 = stablehlo.multiply %arg1, %c : tensor<4xf32>
...   return %0, %1 : tensor<4xf32>, tensor<4xf32>
... }''')
>>> constant_or_scalar_splitter(module)  # a copy of the constant per use, then none unused
>>> [op.name for op in module.functions[0].body.ops]
['sdy.constant', 'sdy.constant', 'stablehlo.add', 'stablehlo.multiply', 'func.return']
>>> constant_or_scalar_merger(module)
>>> [op.name for op in module.functions[0].body.ops]
['sdy.constant', 'stablehlo.add', 'stablehlo.multiply', 'func.return']
"""

from __future__ import annotations

from shardonnay.ir.attributes import SymbolRefAttr
from shardonnay.ir.core import Block, Func, Module, Op, Value
from shardonnay.ir.types import TensorType
from shardonnay.ops.registry import is_registered, lookup
from shardonnay.ops.traits import is_elementwise
from shardonnay.propagation.importing.flatten_call_graph import FunctionCopier

__all__ = ["constant_or_scalar_merger", "constant_or_scalar_splitter"]


def _is_scalar(v: Value) -> bool:
    return isinstance(v.type, TensorType) and len(v.type.shape) == 0


def _is_pure(op: Op) -> bool:
    return is_registered(op.name) and lookup(op.name).pure and not op.regions


def _is_constant_preserving(op: Op) -> bool:
    """A pure broadcast, reshape, slice or elementwise op: constant when its
    operands are."""
    preserving = op.name in (
        "stablehlo.broadcast_in_dim",
        "stablehlo.reshape",
        "stablehlo.slice",
    ) or is_elementwise(op)
    return preserving and _is_pure(op)


class _ConstantFunctions:
    """Which functions of a module compute a constant expression of their
    arguments: every op of their body is a constant, an iota, a constant-
    preserving op or a call of such a function, on arguments and results of
    such ops. A call of one on constant expressions is a constant expression
    (JAX outlines `jnp.where` or `clip` of constants into `_where`, `clip`)."""

    def __init__(self, module: Module):
        self.funcs = {f.name: f for f in module.functions}
        self.known: dict[str, bool] = {}

    def callee(self, call: Op) -> Func | None:
        ref = call.attributes.get("callee")
        func = self.funcs.get(ref.names[-1]) if isinstance(ref, SymbolRefAttr) else None
        return func if func is not None and not func.is_declaration else None

    def is_constant(self, func: Func) -> bool:
        if func.name not in self.known:
            self.known[func.name] = False  # a recursive call is not constant
            constant: set[Value] = set(func.arguments)
            result = True
            for op in func.body.ops:
                if op.name == "func.return":
                    continue
                if not self._is_constant_op(op, constant):
                    result = False
                    break
                constant.update(op.results)
            self.known[func.name] = result
        return self.known[func.name]

    def _is_constant_op(self, op: Op, constant: set[Value]) -> bool:
        """Whether `op` computes a constant expression of the values `constant`."""
        if op.name in ("sdy.constant", "stablehlo.constant", "stablehlo.iota"):
            return True
        # (the operands first: most ops have one that is not constant)
        if not constant.issuperset(op.operands):
            return False
        if op.name == "func.call":
            callee = self.callee(op)
            return callee is not None and self.is_constant(callee)
        return _is_constant_preserving(op)

    def is_constant_expression(self, op: Op, constants: set[Value]) -> bool:
        """Whether `op` is a constant expression, `constants` holding the
        results of the ops found to be."""
        if op.name in ("sdy.constant", "stablehlo.iota"):
            return True
        return self._is_constant_op(op, constants)


def _is_scalar_expansion(op: Op) -> bool:
    return op.name == "stablehlo.broadcast_in_dim" and _is_scalar(op.operands[0])


def constant_or_scalar_splitter(module: Module) -> None:
    """`sdy-constant-or-scalar-splitter`: `stablehlo.constant` becomes
    `sdy.constant` (which nothing folds); every use, by an op that is not
    itself a constant expression, of a constant expression (constants, iotas
    and broadcasts, reshapes, slices or elementwise ops of constant
    expressions, calls of functions that compute constant expressions of
    their arguments on constant expressions) or of a broadcast of a scalar
    gets its own copy of that sub-computation (scalars are shared), so that
    each use may be sharded differently. A copied call calls a copy of its
    function (named `_where_0`, `_where_1`, ... as MLIR makes names unique,
    with `sdy.original_func_name`). The originals then go (their sharding
    groups with them); functions no longer called stay for `symbol-dce`.
    """
    for op in list(module.walk()):
        if op.name == "stablehlo.constant":
            op.name = "sdy.constant"
    functions = _ConstantFunctions(module)
    copier = FunctionCopier(module)
    for func in module.functions:
        if func.is_declaration:
            continue
        constants: list[Op] = []
        constant_values: set[Value] = set()  # the results of `constants`
        expansions: list[Op] = []
        copied_values: set[Value] = set()  # those of `constants` and `expansions`
        edits = _BlockEdits()
        # (every edit waits for `edits.apply`: the walk sees the ops as they were)
        for op in func.walk():
            if op.name == "sdy.sharding_group":
                continue
            if functions.is_constant_expression(op, constant_values):
                constants.append(op)
                constant_values.update(op.results)
                copied_values.update(op.results)
                continue
            if _is_scalar_expansion(op):
                expansions.append(op)
                copied_values.update(op.results)
                continue
            operands = op.operands
            if copied_values.isdisjoint(operands):
                continue
            for i, v in enumerate(operands):
                if v in copied_values:
                    op.set_operand(i, _clone_sub_computation(v, edits, functions, copier))
        for op in [*expansions, *reversed(constants)]:
            users = [u for r in op.results for u in r.users]
            if all(u.name == "sdy.sharding_group" for u in users):
                for u in users:
                    edits.erase(u)
                edits.erase(op)
        edits.apply()


class _BlockEdits:
    """Insertions before ops and erasures of ops, written to the op lists of
    their blocks at once by `apply` (one pass per block: inserting or erasing
    one at a time scans the block's list each time, quadratic in its length).
    Until then, an inserted op already has its block as parent, and an erased
    op has no parent and no uses of its operands."""

    def __init__(self) -> None:
        self.before: dict[Op, list[Op]] = {}
        self.blocks: dict[int, Block] = {}

    def insert_before(self, anchor: Op, op: Op) -> None:
        block = anchor.parent
        assert block is not None
        op.parent = block
        self.before.setdefault(anchor, []).append(op)
        self.blocks[id(block)] = block

    def erase(self, op: Op) -> None:
        block = op.parent
        assert block is not None
        self.blocks[id(block)] = block
        op.parent = None  # `Op.erase` then leaves the block's list alone
        op.erase()

    def apply(self) -> None:
        for block in self.blocks.values():
            ops: list[Op] = []
            for op in block.ops:
                ops.extend(new for new in self.before.get(op, ()) if new.parent is block)
                if op.parent is block:
                    ops.append(op)
            block.ops[:] = ops
        self.before.clear()
        self.blocks.clear()


def _clone_sub_computation(
    value: Value, edits: _BlockEdits, functions: _ConstantFunctions, copier: FunctionCopier
) -> Value:
    if _is_scalar(value):
        return value
    mapping: dict[Value, Value] = {}

    def clone(v: Value) -> None:
        if _is_scalar(v) or v in mapping:
            return
        op = v.op
        assert op is not None and op.parent is not None
        for operand in op.operands:
            if operand.op is not None:
                clone(operand)
        copy = op.clone(mapping)
        if op.name == "func.call":
            callee = functions.callee(op)
            assert callee is not None
            copy.attributes["callee"] = SymbolRefAttr((copier.clone(callee).name,))
        edits.insert_before(op, copy)
        for user in v.users:
            if user.name == "sdy.sharding_group":
                edits.insert_before(op, user.clone(mapping))

    clone(value)
    return mapping[value]


def constant_or_scalar_merger(module: Module) -> None:
    """`sdy-constant-or-scalar-merger`: constants with equal attributes
    (sharding included) in one region become one; so do broadcasts of the
    same scalar to the same type with equal attributes."""
    constants: dict[tuple, Op] = {}
    broadcasts: dict[tuple, Op] = {}
    edits = _BlockEdits()
    texts = _AttributeTexts()
    for op in list(module.walk_post_order()):
        if op.name in ("sdy.constant", "stablehlo.constant"):
            key: tuple = (op.name, texts.key(op), id(op.parent))
            cache = constants
        elif _is_scalar_expansion(op):
            key = (texts.key(op), id(op.parent), str(op.results[0].type), op.operands[0])
            cache = broadcasts
        else:
            continue
        kept = cache.setdefault(key, op)
        if kept is not op:
            op.results[0].replace_all_uses_with(kept.results[0])
            edits.erase(op)
    edits.apply()


class _AttributeTexts:
    """The attributes of ops as the merger compares them: sorted (name, text)
    pairs. Copies of a constant share their attribute objects, so each
    object's text is made once (looked up by identity; the objects are kept,
    so that no identity is reused while the texts are)."""

    def __init__(self) -> None:
        self._texts: dict[int, tuple[object, str]] = {}

    def key(self, op: Op) -> tuple[tuple[str, str], ...]:
        return tuple(sorted((k, self._text(v)) for k, v in op.attributes.items()))

    def _text(self, value: object) -> str:
        known = self._texts.get(id(value))
        if known is None or known[0] is not value:
            known = self._texts[id(value)] = (value, str(value))
        return known[1]
