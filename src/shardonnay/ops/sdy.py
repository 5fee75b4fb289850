"""Shardy's ops: meshes and the sharding annotations of the compiler API.

    sdy.mesh @mesh = <["x"=2, "y"=4]>
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
    %1 = sdy.reshard %0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    sdy.sharding_group %1 group_id=0 : tensor<8x16xf32>
    %2 = sdy.propagation_barrier %1 allowed_direction=BACKWARD : tensor<8x16xf32>
    %3 = sdy.data_flow_edge %x sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
    %4 = sdy.func_data_flow_edge %arg1 : tensor<8x16xf32>
    %5 = sdy.constant dense<1.000000e+00> : tensor<8x16xf32>
    %6 = sdy.named_computation<"foo">(%5) in_shardings=[<@mesh, [{"x"}, {}]>]
        out_shardings=[<@mesh, [{"x"}, {}]>] (%arg1: tensor<8x16xf32>) {
      sdy.return %arg1 : tensor<8x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>

On the global program all of them are the identity of their operands (the
named computation runs its body; the constant is its value). The collectives
are in `sdy_collectives`, `sdy.manual_computation` in `manual_computation`.
"""

from __future__ import annotations

from typing import Any

from shardonnay.errors import IRError
from shardonnay.ir.attributes import DenseElementsAttr, IntegerAttr
from shardonnay.ir.core import Op
from shardonnay.ir.shardings import SHARDING
from shardonnay.ir.types import Type
from shardonnay.mesh import Mesh, read_mesh
from shardonnay.ops.func import write_return
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.sdy_collectives import verify_same_type, verify_sharding_rank
from shardonnay.ops.shape import read_operand_type
from shardonnay.ops.traits import (
    COMPUTATION,
    DATA_FLOW,
    ELEMENTWISE,
    ISOLATED_FROM_ABOVE,
    PROPAGATION_MARKER,
    RECURSIVE_EFFECTS,
    SHARDING_ANNOTATION,
    TERMINATOR,
)
from shardonnay.sharding import (
    TensorSharding,
    TensorShardingPerValue,
    read_symbol_name,
    read_tensor_sharding,
    symbol_ref,
)
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder
from shardonnay.syntax.cursor import quote


class MeshOp(OpDef):
    """`sdy.mesh @name = <[...]>`: a named mesh, declared at module level."""

    pure = False

    def parse(self, p, name: str) -> Op:
        p.expect("@", "'@' and the mesh name")
        sym_name = read_symbol_name(p)
        p.expect("=", "'=' and the mesh")
        mesh = read_mesh(p)
        attrs = p.optional_attr_dict()
        attrs.update(sym_name=sym_name, mesh=mesh)
        return mark_inherent(p.make_op(name, attributes=attrs), ("sym_name", "mesh"))

    def print(self, op: Op, w) -> None:
        w.write(f" {symbol_ref(op.attributes['sym_name'])} = {op.attributes['mesh']}")
        w.attr_dict(op, ("sym_name", "mesh"))

    def verify(self, op: Op) -> None:
        if not isinstance(op.attributes.get("mesh"), Mesh):
            raise IRError("sdy.mesh needs a mesh attribute")


# -- helpers shared by the one-operand annotations ---------------------------------------------


def _sharding(op: Op, key: str) -> TensorSharding:
    value = op.attributes.get(key)
    if not isinstance(value, TensorSharding):
        raise IRError(f"{op.name}: needs a {key} attribute (#sdy.sharding<...>)")
    return value


class _Identity(OpDef):
    """One operand, one result of the same type; the identity on values."""

    def infer_types(self, op: Op) -> list[Type] | None:
        return [op.operands[0].type] if op.operands else None

    def verify(self, op: Op) -> None:
        verify_same_type(op)

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [args[0]]


class ShardingAnnotationOp(_Identity):
    """`sdy.sharding_constraint %x <@mesh, [...]> : t` and `sdy.reshard` (same syntax)."""

    traits = frozenset({SHARDING_ANNOTATION, ELEMENTWISE})

    def __init__(self, *, pure: bool):
        self.pure = pure

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        attrs: dict[str, Any] = {"sharding": read_tensor_sharding(p)}
        t = read_operand_type(p, operand, attrs)
        return mark_inherent(p.make_op(name, [operand], [t], attrs), ("sharding",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f" {_sharding(op, 'sharding').body()}")
        w.attr_dict(op, ("sharding",))
        w.write(f" : {op.result_types[0]}")

    def verify(self, op: Op) -> None:
        verify_same_type(op)
        verify_sharding_rank(op, _sharding(op, "sharding"), op.result_types[0])

    def sharding_rule(self, op: Op) -> OpShardingRule | None:
        """`sdy.sharding_constraint` is pointwise (`([i, j])->([i, j]) {i=4, j=6}`);
        `sdy.reshard` has no rule (propagation treats it separately)."""
        if op.name != "sdy.sharding_constraint":
            return None
        return RuleBuilder.for_op(op).add_pointwise(op.result_types[0].shape).build()


class ShardingGroupOp(OpDef):
    """`sdy.sharding_group %x group_id=0 : t`: no results; tensors of one
    group get the same sharding."""

    traits = frozenset({PROPAGATION_MARKER})
    pure = False

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect("group_id", "'group_id'")
        p.expect("=", "'=' after 'group_id'")
        attrs: dict[str, Any] = {"group_id": IntegerAttr(p.integer("a group id"), "i64")}
        read_operand_type(p, operand, attrs)
        return mark_inherent(p.make_op(name, [operand], [], attrs), ("group_id",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f" group_id={_group_id(op)}")
        w.attr_dict(op, ("group_id",))
        w.write(f" : {op.operands[0].type}")

    def infer_types(self, op: Op) -> list[Type] | None:
        return []

    def verify(self, op: Op) -> None:
        if len(op.operands) != 1 or op.results:
            raise IRError(f"{op.name}: takes one operand and has no results")
        _group_id(op)

    def evaluate(self, op: Op, args: list, interp) -> list:
        return []


def _group_id(op: Op) -> int:
    value = op.attributes.get("group_id")
    if not isinstance(value, IntegerAttr) or value.type != "i64":
        raise IRError(f"{op.name}: needs an i64 group_id attribute")
    return value.value


# The enum `Sdy_PropagationDirection`, stored as an i32.
DIRECTIONS = ("NONE", "FORWARD", "BACKWARD", "BOTH")


class PropagationBarrierOp(_Identity):
    """`sdy.propagation_barrier %x allowed_direction=FORWARD : t`."""

    traits = frozenset({PROPAGATION_MARKER, ELEMENTWISE})

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect("allowed_direction", "'allowed_direction'")
        p.expect("=", "'=' after 'allowed_direction'")
        p.skip_space()
        start = p.pos
        keyword = p.identifier("a direction (NONE, FORWARD, BACKWARD)")
        if keyword not in DIRECTIONS:
            raise p.error(
                f"unknown direction '{keyword}'; expected one of {', '.join(DIRECTIONS)}", start
            )
        attrs: dict[str, Any] = {"allowed_direction": IntegerAttr(DIRECTIONS.index(keyword), "i32")}
        t = read_operand_type(p, operand, attrs)
        return mark_inherent(p.make_op(name, [operand], [t], attrs), ("allowed_direction",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f" allowed_direction={_direction(op)}")
        w.attr_dict(op, ("allowed_direction",))
        w.write(f" : {op.operands[0].type}")

    def verify(self, op: Op) -> None:
        verify_same_type(op)
        if _direction(op) == "BOTH":
            raise IRError(
                f"{op.name}: cannot specify `BOTH` as the direction. Not blocking propagation "
                "direction makes the op redundant."
            )


def _direction(op: Op) -> str:
    value = op.attributes.get("allowed_direction")
    if not isinstance(value, IntegerAttr) or not 0 <= value.value < len(DIRECTIONS):
        raise IRError(f"{op.name}: allowed_direction must be an i32 in [0, {len(DIRECTIONS)})")
    return DIRECTIONS[value.value]


class DataFlowEdgeOp(_Identity):
    """`sdy.data_flow_edge %x sharding=<...> : t` (the sharding is optional)."""

    traits = frozenset({PROPAGATION_MARKER})
    pure = False

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        attrs: dict[str, Any] = {}
        if p.accept("sharding"):
            p.expect("=", "'=' after 'sharding'")
            attrs["sharding"] = read_tensor_sharding(p)
        t = read_operand_type(p, operand, attrs)
        return mark_inherent(p.make_op(name, [operand], [t], attrs), ("sharding",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        if "sharding" in op.attributes:
            w.write(f" sharding={_sharding(op, 'sharding').body()}")
        w.attr_dict(op, ("sharding",))
        w.write(f" : {op.result_types[0]}")

    def verify(self, op: Op) -> None:
        verify_same_type(op)
        if "sharding" in op.attributes:
            verify_sharding_rank(op, _sharding(op, "sharding"), op.result_types[0])
        source = op.operands[0]
        if len(source.uses) != 1:
            raise IRError(f"{op.name}: expected input of {op.name} to have a single user")
        defining = source.op
        if (
            defining is not None
            and defining.dialect == "sdy"
            and defining.name not in ("sdy.named_computation", "sdy.manual_computation")
        ):
            raise IRError(
                f"{op.name}: expected input of {op.name} to not be defined by an SdyDialect op "
                f"(other than an sdy.named_computation); it is defined by {defining.name}"
            )


class FuncDataFlowEdgeOp(_Identity):
    """`sdy.func_data_flow_edge %arg0 : t`: an edge for a function argument or call result."""

    pure = False

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        attrs: dict[str, Any] = {}
        t = read_operand_type(p, operand, attrs)
        return mark_inherent(p.make_op(name, [operand], [t], attrs), ())

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.attr_dict(op)
        w.write(f" : {op.result_types[0]}")

    def verify(self, op: Op) -> None:
        verify_same_type(op)
        source = op.operands[0]
        if len(source.uses) != 1:
            raise IRError(f"{op.name}: expected operand of {op.name} to have a single user")
        if source.op is not None and source.op.name != "func.call":
            raise IRError(
                f"{op.name}: expected operand of {op.name} to be a result of call op "
                f"or a function argument; it is defined by {source.op.name}"
            )
        sharding = op.attributes.get(SHARDING)
        if sharding is not None:
            if not isinstance(sharding, TensorShardingPerValue) or len(sharding) != 1:
                raise IRError(f"{op.name}: sdy.sharding must be a one-value sharding_per_value")
            verify_sharding_rank(op, sharding.shardings[0], op.result_types[0])


class ConstantOp(OpDef):
    """`sdy.constant {attrs} dense<...> : t`; its result is unnamed (`%0`)."""

    def parse(self, p, name: str) -> Op:
        attrs = p.optional_attr_dict()
        p.skip_space()
        start = p.pos
        value = p.attribute()
        if not isinstance(value, DenseElementsAttr):
            raise p.error("expected a dense<...> : tensor<...> literal", start)
        attrs["value"] = value
        return mark_inherent(p.make_op(name, [], [value.type], attrs), ("value",))

    def print(self, op: Op, w) -> None:
        w.attr_dict(op, ("value",))
        w.write(f" {_value(op)}")

    def infer_types(self, op: Op) -> list[Type] | None:
        value = op.attributes.get("value")
        return [value.type] if isinstance(value, DenseElementsAttr) else None

    def verify(self, op: Op) -> None:
        value = _value(op)
        if op.operands or len(op.results) != 1:
            raise IRError(f"{op.name}: takes no operands and has one result")
        if op.result_types[0] != value.type:
            raise IRError(
                f"{op.name}: inferred type(s) '{value.type}' are incompatible with return "
                f"type(s) of operation '{op.result_types[0]}'"
            )

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [_value(op).to_numpy()]


def _value(op: Op) -> DenseElementsAttr:
    value = op.attributes.get("value")
    if not isinstance(value, DenseElementsAttr):
        raise IRError(f"{op.name}: needs a dense elements 'value' attribute")
    return value


class ReturnOp(OpDef):
    """`sdy.return %a, %b : t1, t2`: the terminator of sdy regions."""

    traits = frozenset({TERMINATOR})

    def parse(self, p, name: str) -> Op:
        attrs = p.optional_attr_dict()
        operands = p.operands_until(":") if p.peek("%") else []
        if operands:
            p.expect(":", "':' and the types")
            p.skip_space()
            pos = p.pos
            types = p.types()
            if len(types) != len(operands):
                raise p.error(f"{len(operands)} values but {len(types)} types", pos)
            for v, t in zip(operands, types, strict=True):
                p._check_type(v, t, pos)
        return mark_inherent(p.make_op(name, operands, [], attrs), ())

    def print(self, op: Op, w) -> None:
        write_return(op, w)

    def infer_types(self, op: Op) -> list[Type] | None:
        return []

    def evaluate(self, op: Op, args: list, interp) -> list:
        return list(args)


_NAMED_ATTRS = ("name", "in_shardings", "out_shardings")


class NamedComputationOp(OpDef):
    """A named, isolated block run in place::

    %1 = sdy.named_computation<"foo">(%0) in_shardings=[<@mesh, [{"x"}]>]
        out_shardings=[<@mesh, [{}]>] (%arg1: tensor<8xf32>) {
      sdy.return %arg1 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    """

    traits = frozenset({ISOLATED_FROM_ABOVE, DATA_FLOW, COMPUTATION, RECURSIVE_EFFECTS})
    pure = False

    def parse(self, p, name: str) -> Op:
        p.expect("<", "'<' and the computation's name")
        attrs: dict[str, Any] = {"name": p.string("the computation's name")}
        p.expect(">", "'>' after the name")
        p.expect("(", "'(' and the operands")
        operands = p.operands_until(")")
        p.expect(")", "')' after the operands")
        for key in ("in_shardings", "out_shardings"):
            if p.accept(key):
                p.expect("=", f"'=' after '{key}'")
                attrs[key] = read_stripped_per_value(p)
        p.skip_space()
        args_pos = p.pos
        arguments = p.block_argument_list()
        region = p.region([(n, t) for n, t, _, _ in arguments], isolated=True)
        ftype = p.signature(operands, attrs)
        if [t for _, t, _, _ in arguments] != list(ftype.inputs):
            raise p.error("the block arguments' types differ from the operand types", args_pos)
        op = p.make_op(name, operands, ftype.results, attrs, [region])
        return mark_inherent(op, _NAMED_ATTRS)

    def print(self, op: Op, w) -> None:
        w.write(f"<{quote(op.attributes['name'])}>(")
        w.operands(op.operands)
        w.write(")")
        for key in ("in_shardings", "out_shardings"):
            if key in op.attributes:
                shardings = op.attributes[key]
                if not isinstance(shardings, TensorShardingPerValue):
                    raise IRError(f"{op.name}: {key} must be a #sdy.sharding_per_value")
                write_stripped_per_value(w, key, shardings)
        write_body_and_signature(op, w, _NAMED_ATTRS)

    def infer_types(self, op: Op) -> list[Type] | None:
        if not op.regions or not op.regions[0].blocks:
            return None
        terminator = op.regions[0].entry.terminator
        return [v.type for v in terminator.operands] if terminator is not None else None

    def verify(self, op: Op) -> None:
        if not isinstance(op.attributes.get("name"), str):
            raise IRError(f"{op.name}: needs a string name")
        if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
            raise IRError(f"{op.name}: needs a body of one block")
        body = op.regions[0].entry
        operand_types = [v.type for v in op.operands]
        if [a.type for a in body.arguments] != operand_types:
            raise IRError(
                f"{op.name}: expected the block argument types to match the operand types"
            )
        terminator = body.terminator
        if terminator is None or terminator.name != "sdy.return":
            raise IRError(f"{op.name}: the body must end with sdy.return")
        returned = [v.type for v in terminator.operands]
        if returned != list(op.result_types):
            raise IRError(
                f"{op.name}: inferred type(s) '{', '.join(map(str, returned))}' are "
                "incompatible with return type(s) of operation "
                f"'{', '.join(map(str, op.result_types))}'"
            )
        for key, types in (("in_shardings", operand_types), ("out_shardings", returned)):
            shardings = op.attributes.get(key)
            if shardings is None:
                continue
            if not isinstance(shardings, TensorShardingPerValue):
                raise IRError(f"{op.name}: {key} must be a #sdy.sharding_per_value")
            if len(shardings) != len(types):
                raise IRError(
                    f"{op.name}: {key} shardings don't match number of values: "
                    f"{len(shardings)} shardings vs {len(types)} values"
                )
            for sharding, t in zip(shardings.shardings, types, strict=True):
                verify_sharding_rank(op, sharding, t, key)

    def evaluate(self, op: Op, args: list, interp) -> list:
        return interp.run_region(op.regions[0], args, {})


def read_stripped_per_value(p) -> TensorShardingPerValue:
    """`[<@mesh, [...]>, ...]`: a per-value sharding without its keyword."""
    p.expect("[", "'[' starting the shardings")
    shardings = p.comma_separated("]", lambda: read_tensor_sharding(p), "a sharding")
    return TensorShardingPerValue(tuple(shardings))


def write_stripped_per_value(w, key: str, shardings: TensorShardingPerValue) -> None:
    """Writes ` key=[<@mesh, [...]>, ...]`, the syntax of `key` that
    `read_stripped_per_value` reads after `key=`."""
    w.write(f" {key}=[" + ", ".join(s.body() for s in shardings.shardings) + "]")


def write_body_and_signature(op: Op, w, inherent: tuple[str, ...]) -> None:
    """Writes ` (%arg0: type, ...) {body} {attrs} : (types) -> types`, the end
    of named_computation and manual_computation: the body with its arguments
    named, the attributes other than `inherent`, the function type."""
    body = op.regions[0].entry
    args = ", ".join(f"{w.name(a)}: {a.type}" for a in body.arguments)
    w.write(f" ({args}) ")
    w.region(op.regions[0], print_entry_args=False)
    w.attr_dict(op, inherent)
    w.write(" : ")
    w.functional_type(op)


register("sdy.mesh", MeshOp())
register("sdy.sharding_constraint", ShardingAnnotationOp(pure=False))
register("sdy.reshard", ShardingAnnotationOp(pure=True))
register("sdy.sharding_group", ShardingGroupOp())
register("sdy.propagation_barrier", PropagationBarrierOp())
register("sdy.data_flow_edge", DataFlowEdgeOp())
register("sdy.func_data_flow_edge", FuncDataFlowEdgeOp())
register("sdy.constant", ConstantOp())
register("sdy.return", ReturnOp())
register("sdy.named_computation", NamedComputationOp())
