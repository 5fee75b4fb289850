"""StableHLO's control flow and structural ops: loops, conditionals, calls of
external code, barriers, tokens and tuples.

    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8xf32>
    cond {
      %1 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      stablehlo.return %iterArg, %iterArg_0 : tensor<i32>, tensor<8xf32>
    }
    %2 = "stablehlo.case"(%index) ({
      stablehlo.return %arg0 : tensor<8xf32>
    }, {
      stablehlo.return %0#1 : tensor<8xf32>
    }) : (tensor<i32>) -> tensor<8xf32>
    %3:2 = stablehlo.optimization_barrier %2, %arg0 : tensor<8xf32>, tensor<8xf32>
    %4 = stablehlo.custom_call @Sharding(%3#0) {mhlo.sharding = "{replicated}"}
        : (tensor<8xf32>) -> tensor<8xf32>
    %5 = stablehlo.composite "my.op" %4 {decomposition = @my.op} : (tensor<8xf32>) -> tensor<8xf32>
    %6 = stablehlo.after_all %token : !stablehlo.token
    %7 = stablehlo.tuple %5, %6 : tuple<tensor<8xf32>, !stablehlo.token>
    %8 = stablehlo.get_tuple_element %7[0]
        : (tuple<tensor<8xf32>, !stablehlo.token>) -> tensor<8xf32>

`stablehlo.if` and `stablehlo.case` have no custom syntax: MLIR prints them in
the generic form (with pretty ops inside their regions). Regions see the values
defined above them; the interpreter runs them in the environment of the op.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from shardonnay.errors import IRError, UnsupportedOpError
from shardonnay.ir.attributes import IntegerAttr, SymbolRefAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import (
    TOKEN,
    FunctionType,
    OpaqueType,
    TensorType,
    TokenType,
    Type,
    TypeReader,
)
from shardonnay.ops.custom_calls import semantics
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.traits import CONTROL_FLOW, DATA_FLOW, RECURSIVE_EFFECTS, TERMINATOR
from shardonnay.sharding import read_symbol_name, symbol_ref
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder
from shardonnay.syntax.cursor import quote

_SSA_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+")
_I1 = TensorType((), "i1")


# -- helpers -----------------------------------------------------------------------------------


def _types_str(types) -> str:
    return "(" + ", ".join(map(str, types)) + ")"


def _make(p, name: str, operands, types, attrs, regions=(), inherent=()) -> Op:
    """The op read by a custom parser; only the `inherent` names among `attrs`
    are the op's own attributes (properties in the generic form)."""
    return mark_inherent(p.make_op(name, operands, types, attrs, regions), tuple(inherent))


def _check_operand_types(p, operands, types, pos: int) -> None:
    if len(operands) != len(types):
        raise p.error(f"{len(operands)} operands but {len(types)} types", pos)
    for v, t in zip(operands, types, strict=True):
        p._check_type(v, t, pos)


def _attrs_and_function_type(p, operands) -> tuple[dict, FunctionType, int]:
    """`{attrs} : (operand types) -> result types` after an op's own syntax:
    the attributes, the function type (checked against `operands`) and the
    position of the type, for errors about it."""
    attrs = p.optional_attr_dict()
    p.expect(":", "':' and the function type")
    p.skip_space()
    pos = p.pos
    ftype = p.functional_type()
    _check_operand_types(p, operands, ftype.inputs, pos)
    return attrs, ftype, pos


def _optional_operands(p) -> list:
    """`%a, %b, ...` if an operand comes next, else nothing."""
    if not p.peek("%"):
        return []
    values = [p.operand()]
    while p.accept(","):
        values.append(p.operand())
    return values


def _region_results(op: Op, index: int, what: str) -> list[Type]:
    """The operand types of the terminator of region `index` (a single block)."""
    if index >= len(op.regions):
        raise IRError(f"{op.name}: missing its {what} region")
    region = op.regions[index]
    if len(region.blocks) != 1:
        raise IRError(f"{op.name}: the {what} region must have exactly one block")
    terminator = region.entry.terminator
    if terminator is None or terminator.name != "stablehlo.return":
        raise IRError(f"{op.name}: the {what} region must end with stablehlo.return")
    return [v.type for v in terminator.operands]


def _region_arg_types(op: Op, index: int) -> list[Type]:
    region = op.regions[index]
    return [a.type for a in region.entry.arguments] if region.blocks else []


def _verify_branches(op: Op, what: str) -> None:
    """Every region of `op` takes no arguments and returns the op's result types."""
    results = op.result_types
    for i, region in enumerate(op.regions):
        name = f"{what} {i}"
        if region.blocks and region.entry.arguments:
            raise IRError(f"{op.name}: {name} must not take arguments")
        returned = _region_results(op, i, name)
        if returned != results:
            raise IRError(
                f"{op.name}: {name} returns {_types_str(returned)} but the op's results "
                f"are {_types_str(results)}"
            )


def _scalar_operand(op: Op, element_types: tuple[str, ...], what: str) -> None:
    if len(op.operands) != 1:
        raise IRError(f"{op.name} takes one operand ({what}), got {len(op.operands)}")
    t = op.operands[0].type
    if not (isinstance(t, TensorType) and t.shape == () and t.element_type in element_types):
        raise IRError(f"{op.name}: {what} must be a tensor<{element_types[0]}>, got {t}")


def tuple_element_types(t: Type) -> list[Type]:
    """The element types of `tuple<a, b, ...>` (an `OpaqueType`).

    >>> [str(e) for e in tuple_element_types(OpaqueType("tuple<tensor<2xf32>, tuple<>>"))]
    ['tensor<2xf32>', 'tuple<>']
    """
    text = str(t)
    if not (text.startswith("tuple<") and text.endswith(">")):
        raise IRError(f"{text} is not a tuple type")
    p = TypeReader(text)
    p.pos = len("tuple<")
    if p.accept(">"):
        return []
    types = p.types()
    p.expect(">", "'>' closing the tuple type")
    p.expect_end()
    return types


def tuple_type(types) -> OpaqueType:
    """`tuple<a, b, ...>` of `types`."""
    return OpaqueType("tuple<" + ", ".join(map(str, types)) + ">")


# -- stablehlo.while ---------------------------------------------------------------------------


class WhileOp(OpDef):
    """`stablehlo.while(%iterArg = %init, ...) : types attributes {...} cond {...} do {...}`.

    Both regions take the loop-carried values; `cond` returns a `tensor<i1>`,
    `do` the next values. The loop's results are the final values.
    """

    traits = frozenset({DATA_FLOW, RECURSIVE_EFFECTS, CONTROL_FLOW})
    pure = False

    def parse(self, p, name: str) -> Op:
        p.expect("(", "'(' and the loop-carried values")
        names: list[str] = []
        operands = []
        if not p.accept(")"):
            while True:
                names.append(p.match(_SSA_NAME, "a block argument like %iterArg")[1:])
                p.expect("=", "'=' and the initial value")
                operands.append(p.operand())
                if p.accept(")"):
                    break
                p.expect(",", "',' or ')' after an initial value")
        p.skip_space()
        pos = p.pos
        types = p.types() if operands and p.accept(":") else []
        _check_operand_types(p, operands, types, pos)
        attrs = p.attr_dict() if p.accept("attributes") else {}
        arguments = list(zip(names, types, strict=True))
        p.expect("cond", "'cond' and the condition region")
        cond = p.region(arguments)
        p.expect("do", "'do' and the body region")
        body = p.region(arguments)
        return _make(p, name, operands, types, attrs, [cond, body])

    def print(self, op: Op, w) -> None:
        body = op.regions[1].entry if len(op.regions) > 1 and op.regions[1].blocks else None
        pairs = []
        for i, v in enumerate(op.operands):
            arg = w.name(body.arguments[i]) if body is not None else "%<<UNKNOWN>>"
            pairs.append(f"{arg} = {w.name(v)}")
        w.write("(" + ", ".join(pairs) + ")")
        if op.operands:
            w.write(" : ")
            w.types(v.type for v in op.operands)
        w.attr_dict(op, keyword=True)
        w.write("\n" + "  " * w.indent + "cond ")
        w.region(op.regions[0], print_entry_args=False)
        w.write(" do ")
        w.region(op.regions[1], print_entry_args=False)

    def block_arg_names(self, op: Op, region: int) -> list[str] | None:
        return ["iterArg"] * len(op.operands)

    def infer_types(self, op: Op) -> list[Type] | None:
        return [v.type for v in op.operands]

    def verify(self, op: Op) -> None:
        types = [v.type for v in op.operands]
        if len(op.regions) != 2:
            raise IRError(f"stablehlo.while needs 2 regions (cond, body), has {len(op.regions)}")
        if op.result_types != types:
            raise IRError(
                f"stablehlo.while: result types {_types_str(op.result_types)} differ from "
                f"the operand types {_types_str(types)}"
            )
        for index, what in ((0, "cond"), (1, "body")):
            returned = _region_results(op, index, what)
            arg_types = _region_arg_types(op, index)
            if arg_types != types:
                raise IRError(
                    f"stablehlo.while: the {what} region takes {_types_str(arg_types)} but "
                    f"the operands are {_types_str(types)}"
                )
            expected = [_I1] if index == 0 else types
            if returned != expected:
                raise IRError(
                    f"stablehlo.while: the {what} region returns {_types_str(returned)}, "
                    f"expected {_types_str(expected)}"
                )

    def evaluate(self, op: Op, args: list, interp) -> list:
        env = interp.current_env
        cond, body = op.regions
        state = list(args)
        while True:
            (keep_going,) = interp.run_region(cond, state, env)
            if not bool(np.asarray(keep_going)):
                return state
            state = interp.run_region(body, state, env)


# -- stablehlo.if / stablehlo.case ---------------------------------------------------------------


class IfOp(OpDef):
    """`"stablehlo.if"(%pred) ({ true branch }, { false branch }) : (tensor<i1>) -> t`.

    No data-flow op: Shardy ties none of its values (its data-flow ops are
    `while`, `case`, `optimization_barrier` and the computations), so its
    results get no sharding from its branches (JAX lowers `cond` to `case`).
    """

    traits = frozenset({RECURSIVE_EFFECTS, CONTROL_FLOW})
    pure = False

    def verify(self, op: Op) -> None:
        _scalar_operand(op, ("i1",), "the predicate")
        if len(op.regions) != 2:
            raise IRError(f"stablehlo.if needs 2 regions (true, false), has {len(op.regions)}")
        _verify_branches(op, "branch")

    def evaluate(self, op: Op, args: list, interp) -> list:
        env = interp.current_env
        branch = op.regions[0] if bool(np.asarray(args[0])) else op.regions[1]
        return interp.run_region(branch, [], env)


class CaseOp(OpDef):
    """`"stablehlo.case"(%index) ({ branch 0 }, { branch 1 }, ...) : (tensor<i32>) -> t`.

    An index outside `[0, number of branches)` selects the last branch.
    """

    traits = frozenset({DATA_FLOW, RECURSIVE_EFFECTS, CONTROL_FLOW})
    pure = False

    def verify(self, op: Op) -> None:
        _scalar_operand(op, ("i32",), "the branch index")
        if not op.regions:
            raise IRError("stablehlo.case needs at least one branch")
        _verify_branches(op, "branch")

    def evaluate(self, op: Op, args: list, interp) -> list:
        env = interp.current_env
        index = int(np.asarray(args[0]))
        n = len(op.regions)
        if not 0 <= index < n:
            index = n - 1
        return interp.run_region(op.regions[index], [], env)


# -- stablehlo.optimization_barrier and stablehlo.return -------------------------------------


class OptimizationBarrierOp(OpDef):
    """`stablehlo.optimization_barrier {attrs} %a, %b : ta, tb` (`()` without operands);
    the identity of its operands."""

    traits = frozenset({DATA_FLOW, CONTROL_FLOW})
    pure = False

    def parse(self, p, name: str) -> Op:
        attrs = p.optional_attr_dict()
        if p.accept("("):
            p.expect(")", "')' (a barrier without operands)")
            return _make(p, name, [], [], attrs)
        operands = _optional_operands(p)
        if not operands:
            raise p.error("expected operands or '()'")
        p.expect(":", "':' and the operand types")
        p.skip_space()
        pos = p.pos
        types = p.types()
        _check_operand_types(p, operands, types, pos)
        return _make(p, name, operands, types, attrs)

    def print(self, op: Op, w) -> None:
        w.attr_dict(op)
        if not op.operands:
            w.write("()")
            return
        w.write(" ")
        w.operands(op.operands)
        w.write(" : ")
        w.types(v.type for v in op.operands)

    def infer_types(self, op: Op) -> list[Type] | None:
        return [v.type for v in op.operands]

    def verify(self, op: Op) -> None:
        types = [v.type for v in op.operands]
        if op.result_types != types:
            raise IRError(
                f"stablehlo.optimization_barrier: result types {_types_str(op.result_types)} "
                f"differ from the operand types {_types_str(types)}"
            )

    def evaluate(self, op: Op, args: list, interp) -> list:
        return list(args)


class ReturnOp(OpDef):
    """`stablehlo.return %a, %b {attrs} : ta, tb`: the terminator of a region of
    a StableHLO op; its operands are the region's results."""

    traits = frozenset({TERMINATOR})
    pure = False

    def parse(self, p, name: str) -> Op:
        operands = _optional_operands(p)
        attrs = p.optional_attr_dict()
        if operands:
            p.expect(":", "':' and the operand types")
            p.skip_space()
            pos = p.pos
            _check_operand_types(p, operands, p.types(), pos)
        return _make(p, name, operands, [], attrs)

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.attr_dict(op)
        if op.operands:
            w.write(" : ")
            w.types(v.type for v in op.operands)

    def evaluate(self, op: Op, args: list, interp) -> list:
        return list(args)


# -- stablehlo.custom_call -------------------------------------------------------------------


_CUSTOM_CALL_ATTRS = (
    "api_version",
    "backend_config",
    "call_target_name",
    "called_computations",
    "has_side_effect",
    "operand_layouts",
    "output_operand_aliases",
    "result_layouts",
)


class CustomCallOp(OpDef):
    """`stablehlo.custom_call @target(%a, ...) {attrs} : (ta, ...) -> r`.

    `call_target_name` is the `@target`; `api_version = 1 : i32`,
    `has_side_effect = false` and empty `called_computations` and
    `output_operand_aliases` are not printed. What the interpreter runs for
    each target is in `shardonnay.ops.custom_calls` (the partitioner's
    annotations, LAPACK and GPU solver kernels, host callbacks); any other
    target raises `UnsupportedOpError`.
    """

    pure = False

    def parse(self, p, name: str) -> Op:
        p.expect("@", "'@' and the call target")
        target = read_symbol_name(p)
        p.expect("(", "'(' and the operands")
        operands = p.operands_until(")")
        p.expect(")", "')' after the operands")
        attrs, ftype, pos = _attrs_and_function_type(p, operands)
        if "call_target_name" in attrs:
            raise p.error("call_target_name is given as @target, not as an attribute", pos)
        attrs["call_target_name"] = target
        return _make(p, name, operands, ftype.results, attrs, inherent=_CUSTOM_CALL_ATTRS)

    def print(self, op: Op, w) -> None:
        w.write(f" {symbol_ref(_target(op))}(")
        w.operands(op.operands)
        w.write(")")
        w.attr_dict(op, _elided_defaults(op))
        w.write(" : ")
        w.functional_type(op)

    def verify(self, op: Op) -> None:
        _target(op)
        version = op.attributes.get("api_version", IntegerAttr(1, "i32"))
        if not isinstance(version, IntegerAttr) or not 0 <= version.value <= 4:
            raise IRError(f"stablehlo.custom_call: api_version must be 0..4, got {version}")
        for ref in op.attributes.get("called_computations", ()):
            if not isinstance(ref, SymbolRefAttr):
                raise IRError(f"stablehlo.custom_call: {ref} in called_computations is no @symbol")

    def sharding_rule(self, op: Op) -> OpShardingRule | None:
        """Only the targets whose semantics the partitioner knows have a rule:
        element-wise ones (`@mhlo.erf`, `@MoveToHost`, ...) are pointwise,
        decompositions (`@Eigh`, `@Qr`, ...) keep their batch dims and
        `@mhlo.topk` / `@ApproxTopK` replicate the dim they select along.
        `@Sharding` and unknown targets have none.
        """
        rule = _CUSTOM_CALL_RULES.get(_target(op))
        return None if rule is None else rule(op)

    def evaluate(self, op: Op, args: list, interp) -> list:
        target = _target(op)
        run = semantics(target)
        if run is None:
            raise UnsupportedOpError(
                f"stablehlo.custom_call @{target}: the interpreter has no semantics for this "
                "call target"
            )
        return run(op, args)


def _target(op: Op) -> str:
    target = op.attributes.get("call_target_name")
    if not isinstance(target, str):
        raise IRError("stablehlo.custom_call needs a call_target_name string")
    return target


def _elided_defaults(op: Op) -> list[str]:
    attrs = op.attributes
    elide = ["call_target_name"]
    if attrs.get("api_version") == IntegerAttr(1, "i32"):
        elide.append("api_version")
    if attrs.get("has_side_effect") is False:
        elide.append("has_side_effect")
    for key in ("called_computations", "output_operand_aliases"):
        if attrs.get(key) == ():
            elide.append(key)
    return elide


def prefix_pointwise_rule(op: Op, shape: Sequence[int] | None = None) -> OpShardingRule:
    """One factor per dim `d` of `shape` (default: result 0's), mapped to dim
    `d` of every tensor of rank > `d` (scalars get none).

    `(tensor<4x6xf32>, tensor<4xf32>) -> (tensor<4x6xf32>, tensor<4xf32>)` is
    `([i, j], [i])->([i, j], [i]) {i=4, j=6}`.
    """
    b = RuleBuilder.for_op(op)
    if shape is None:
        shape = (b.result_shapes or b.operand_shapes)[0]

    def dims(shapes: list[tuple[int, ...]], d: int) -> list[int | None]:
        return [d if d < len(s) else None for s in shapes]

    for d, size in enumerate(shape):
        b.add_factor(dims(b.operand_shapes, d), dims(b.result_shapes, d), size)
    return b.build()


def _decomposition_rule(op: Op) -> OpShardingRule:
    """`@Eigh`, `@Qr`, `@QrDecompositionBlock`, `@ProductOfElementaryHouseholderReflectors`:
    all but the last two dims of operand 0 are batch dims (shared by every
    tensor); the last two follow operand 0 into result 0.

    `@Eigh` `(tensor<4x6x8xf32>) -> (tensor<4x6x8xf32>, tensor<4x8xf32>)` is
    `([i, j, k])->([i, j, k], [i, k]) {i=4, j=6, k=8}` (the eigenvalues follow
    the last dim); `@Qr` maps the taus' dim to a factor of its own and marks
    the matrix dims need_replication, and so does the Householder product for
    its taus operand.
    """
    target = _target(op)
    b = RuleBuilder.for_op(op)
    shape = b.operand_shapes[0]
    rank = len(shape)
    n_ops, n_res = len(b.operand_shapes), len(b.result_shapes)
    for d in range(rank - 2):
        b.add_factor([d] * n_ops, [d] * n_res, shape[d])
    dim1, dim2 = rank - 2, rank - 1
    if target == "Eigh":
        b.add_factor([dim1], [dim1, None], shape[dim1])
        b.add_factor([dim2], [dim2, dim1], shape[dim2])
    elif target in ("Qr", "QrDecompositionBlock"):
        kind = "need_replication"
        b.add_factor([dim1], [dim1, None], shape[dim1], kind=kind)
        b.add_factor([dim2], [dim2, None], shape[dim2], kind=kind)
        taus = b.result_shapes[1]
        b.add_factor([None], [None, len(taus) - 1], taus[-1], kind=kind)
    else:
        kind = "need_replication"
        b.add_factor([dim1, None], [dim1], shape[dim1], kind=kind)
        b.add_factor([dim2, None], [dim2], shape[dim2], kind=kind)
        taus = b.operand_shapes[1]
        b.add_factor([None, len(taus) - 1], [None], taus[-1], kind=kind)
    return b.build()


def _top_k_rule(op: Op) -> OpShardingRule:
    """`@mhlo.topk`: pointwise on the operand's shape; if the selected (last)
    dim shrinks, its factor needs replication and blocks propagation:
    `(tensor<8xf32>) -> (tensor<2xf32>, tensor<2xi32>)` is
    `([i])->([i], [i]) {i=8} need_replication={i} blocked_propagation={i}`."""
    b = RuleBuilder.for_op(op)
    shape, out = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(shape):
        if size == out[d]:
            b.add_factor([d], [d] * len(b.result_shapes), size)
        else:
            b.add_factor(
                [d], [d] * len(b.result_shapes), size, kind="need_replication", blocked=True
            )
    return b.build()


def _approx_top_k_rule(op: Op) -> OpShardingRule:
    """`@ApproxTopK` / `@PartialReduce` `(operand, iota, init_val, init_arg)`:
    pointwise where operand and results agree; a reduced dim gets a factor
    for the operands and a need_replication, blocked one for the results:
    `([i, j], [i, j], [], [])->([i, k], [i, k]) {i=4, j=8, k=2}
    need_replication={k} blocked_propagation={k}`."""
    b = RuleBuilder.for_op(op)
    shape, out = b.operand_shapes[0], b.result_shapes[0]

    def dims(shapes: list[tuple[int, ...]], d: int) -> list[int | None]:
        return [d if d < len(s) else None for s in shapes]

    for d, size in enumerate(shape):
        operands, results = dims(b.operand_shapes, d), dims(b.result_shapes, d)
        if size == out[d]:
            b.add_factor(operands, results, size)
        else:
            b.add_factor(operands, [None] * len(results), size)
            b.add_factor(
                [None] * len(operands), results, out[d], kind="need_replication", blocked=True
            )
    return b.build()


_POINTWISE_TARGETS = (
    "annotate_device_placement",
    "Cholesky",
    "CompactWyHelper",
    "InspectSharding",
    "InvertDiagBlocksLowerTriangular",
    "InvertDiagBlocksUpperTriangular",
    "LayoutConstraint",
    "MoveToDevice",
    "MoveToHost",
    "mhlo.erf",
    "X64Combine",
    "X64SplitHigh",
    "X64SplitLow",
)

_CUSTOM_CALL_RULES: dict[str, Callable[[Op], OpShardingRule]] = {
    **{t: prefix_pointwise_rule for t in _POINTWISE_TARGETS},
    "ApproxTopK": _approx_top_k_rule,
    "PartialReduce": _approx_top_k_rule,
    "Eigh": _decomposition_rule,
    "Qr": _decomposition_rule,
    "QrDecompositionBlock": _decomposition_rule,
    "ProductOfElementaryHouseholderReflectors": _decomposition_rule,
    "mhlo.topk": _top_k_rule,
}


# -- stablehlo.composite -----------------------------------------------------------------------


_COMPOSITE_ATTRS = ("composite_attributes", "decomposition", "name", "version")


class CompositeOp(OpDef):
    """`stablehlo.composite "name" %a, ... {decomposition = @f, ...} : (ta, ...) -> r`.

    `version = 0 : i32` and empty `composite_attributes` are not printed. Its
    semantics is the call of its decomposition function.
    """

    pure = False

    def parse(self, p, name: str) -> Op:
        composite_name = p.string("the quoted name of the composite")
        operands = _optional_operands(p)
        attrs, ftype, pos = _attrs_and_function_type(p, operands)
        if "name" in attrs:
            raise p.error("the composite's name is given before the operands", pos)
        attrs["name"] = composite_name
        return _make(p, name, operands, ftype.results, attrs, inherent=_COMPOSITE_ATTRS)

    def print(self, op: Op, w) -> None:
        w.write(f" {quote(str(op.attributes.get('name', '')))} ")
        w.operands(op.operands)
        attrs = op.attributes
        elide = ["name"]
        if attrs.get("version") == IntegerAttr(0, "i32"):
            elide.append("version")
        if attrs.get("composite_attributes") == {}:
            elide.append("composite_attributes")
        w.attr_dict(op, elide)
        w.write(" : ")
        w.functional_type(op)

    def verify(self, op: Op) -> None:
        if not isinstance(op.attributes.get("name"), str):
            raise IRError("stablehlo.composite needs a name string")
        if not isinstance(op.attributes.get("decomposition"), SymbolRefAttr):
            raise IRError("stablehlo.composite needs a decomposition = @function")

    def evaluate(self, op: Op, args: list, interp) -> list:
        decomposition = op.attributes.get("decomposition")
        if not isinstance(decomposition, SymbolRefAttr):
            raise IRError("stablehlo.composite needs a decomposition = @function")
        return interp.call(decomposition.name, args)


# -- tokens and tuples ---------------------------------------------------------------------------


def read_token_result(p, name: str) -> tuple[dict, TokenType, int]:
    """`{attrs} : !stablehlo.token` ending after_all and create_token: the
    attributes, the token type and its position."""
    attrs = p.optional_attr_dict()
    p.expect(":", "':' and the result type")
    p.skip_space()
    pos = p.pos
    t = p.type()
    if not isinstance(t, TokenType):
        raise p.error(f"{name} returns a !stablehlo.token, not {t}", pos)
    return attrs, t, pos


class AfterAllOp(OpDef):
    """`stablehlo.after_all %t1, %t2 {attrs} : !stablehlo.token`: a token that
    orders side effects after those of its operands."""

    def parse(self, p, name: str) -> Op:
        operands = _optional_operands(p)
        attrs, t, pos = read_token_result(p, name)
        _check_operand_types(p, operands, [TokenType()] * len(operands), pos)
        return _make(p, name, operands, [t], attrs)

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.attr_dict(op)
        w.write(f" : {op.result_types[0]}")

    def infer_types(self, op: Op) -> list[Type] | None:
        return [TokenType()]

    def verify(self, op: Op) -> None:
        for v in op.operands:
            if not isinstance(v.type, TokenType):
                raise IRError(f"stablehlo.after_all takes tokens, got {v.type}")

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [TOKEN]


class TupleOp(OpDef):
    """`stablehlo.tuple %a, %b {attrs} : tuple<ta, tb>`."""

    def parse(self, p, name: str) -> Op:
        operands = _optional_operands(p)
        attrs = p.optional_attr_dict()
        p.expect(":", "':' and the tuple type")
        p.skip_space()
        pos = p.pos
        t = p.type()
        try:
            elements = tuple_element_types(t)
        except IRError as e:
            raise p.error(str(e), pos) from None
        _check_operand_types(p, operands, elements, pos)
        return _make(p, name, operands, [t], attrs)

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.attr_dict(op)
        w.write(f" : {op.result_types[0]}")

    def infer_types(self, op: Op) -> list[Type] | None:
        return [tuple_type(v.type for v in op.operands)]

    def evaluate(self, op: Op, args: list, interp) -> list:
        value = np.empty((), dtype=object)
        value[()] = tuple(args)
        return [value]


class GetTupleElementOp(OpDef):
    """`stablehlo.get_tuple_element %t[1] {attrs} : (tuple<ta, tb>) -> tb`."""

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect("[", "'[' and the index")
        index = p.integer("the element index")
        p.expect("]", "']' after the index")
        attrs, ftype, _ = _attrs_and_function_type(p, [operand])
        attrs["index"] = IntegerAttr(index, "i32")
        return _make(p, name, [operand], ftype.results, attrs, inherent=("index",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f"[{_index(op)}]")
        w.attr_dict(op, ("index",))
        w.write(" : ")
        w.functional_type(op)

    def infer_types(self, op: Op) -> list[Type] | None:
        elements = tuple_element_types(op.operands[0].type)
        index = _index(op)
        if not 0 <= index < len(elements):
            raise IRError(
                f"stablehlo.get_tuple_element: index {index} out of range for {op.operands[0].type}"
            )
        return [elements[index]]

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [np.asarray(args[0])[()][_index(op)]]


def _index(op: Op) -> int:
    index = op.attributes.get("index")
    if not isinstance(index, IntegerAttr):
        raise IRError(f"{op.name} needs an integer index attribute")
    return index.value


register("stablehlo.while", WhileOp())
register("stablehlo.if", IfOp())
register("stablehlo.case", CaseOp())
register("stablehlo.optimization_barrier", OptimizationBarrierOp())
register("stablehlo.return", ReturnOp())
register("stablehlo.custom_call", CustomCallOp())
register("stablehlo.composite", CompositeOp())
register("stablehlo.after_all", AfterAllOp())
register("stablehlo.tuple", TupleOp())
register("stablehlo.get_tuple_element", GetTupleElementOp())
