"""`func.func`, `func.return` and `func.call`.

func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32> {jax.result_info = "result[0]"}) {
  %0 = call @helper(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""

from __future__ import annotations

from typing import Any

from shardonnay.errors import IRError
from shardonnay.ir.attributes import SymbolRefAttr, entry_str
from shardonnay.ir.core import Op, Region
from shardonnay.ir.types import FunctionType
from shardonnay.ops.registry import OpDef, register
from shardonnay.ops.traits import CALL, ISOLATED_FROM_ABOVE, TERMINATOR
from shardonnay.sharding import read_symbol_name, symbol_ref

_SIGNATURE_ATTRS = ("sym_name", "function_type", "arg_attrs", "res_attrs", "sym_visibility")


class FuncOp(OpDef):
    default_dialect = "func"
    traits = frozenset({ISOLATED_FROM_ABOVE})
    pure = False

    def parse(self, p, name: str) -> Op:
        visibility = None
        for keyword in ("public", "private", "nested"):
            if p.accept(keyword):
                visibility = keyword
                break
        p.expect("@", "'@' and the function name")
        sym_name = read_symbol_name(p)
        args = _signature_arguments(p)
        results: list[tuple[Any, dict]] = []
        if p.accept("->"):
            if p.peek("("):
                p.expect("(")
                if not p.accept(")"):
                    while True:
                        t = p.type()
                        results.append((t, p.optional_attr_dict()))
                        if p.accept(")"):
                            break
                        p.expect(",", "',' or ')' after a result type")
            else:
                results.append((p.type(), {}))
        attrs: dict[str, Any] = {}
        if p.accept("attributes"):
            attrs.update(p.attr_dict())
        attrs["sym_name"] = sym_name
        attrs["function_type"] = FunctionType(
            tuple(t for _, t, _, _ in args), tuple(t for t, _ in results)
        )
        if visibility:
            attrs["sym_visibility"] = visibility
        if any(a for _, _, a, _ in args):
            attrs["arg_attrs"] = tuple(a for _, _, a, _ in args)
        if any(a for _, a in results):
            attrs["res_attrs"] = tuple(a for _, a in results)
        op = Op("func.func", attributes=attrs)
        if p.peek("{"):
            p.default_dialects.append("func")
            region = p.region([(n, t) for n, t, _, _ in args], isolated=True)
            p.default_dialects.pop()
            for value, (_, _, _, location) in zip(region.entry.arguments, args, strict=True):
                value.location = location
            op.add_region(region)
        else:  # a declaration: an empty body region
            op.add_region(Region())
        return op

    def print(self, op: Op, w) -> None:
        attrs = op.attributes
        ftype: FunctionType = attrs["function_type"]
        if "sym_visibility" in attrs:
            w.write(f" {attrs['sym_visibility']}")
        w.write(f" {symbol_ref(attrs['sym_name'])}(")
        arg_attrs = attrs.get("arg_attrs") or ({},) * len(ftype.inputs)
        body = op.regions[0].entry if op.regions and op.regions[0].blocks else None
        parts = []
        for i, t in enumerate(ftype.inputs):
            name = f"{w.name(body.arguments[i])}: " if body is not None else ""
            location = body.arguments[i].location if body is not None and w.debug_info else None
            loc = f" {location}" if location else ""
            parts.append(f"{name}{t}{_dict_suffix(arg_attrs[i])}{loc}")
        w.write(", ".join(parts) + ")")
        res_attrs = attrs.get("res_attrs") or ({},) * len(ftype.results)
        if ftype.results:
            w.write(" -> ")
            if len(ftype.results) == 1 and not res_attrs[0]:
                w.write(str(ftype.results[0]))
            else:
                w.write(
                    "("
                    + ", ".join(
                        f"{t}{_dict_suffix(a)}"
                        for t, a in zip(ftype.results, res_attrs, strict=True)
                    )
                    + ")"
                )
        w.attr_dict(op, _SIGNATURE_ATTRS, keyword=True)
        if body is not None:
            w.write(" ")
            w.region(op.regions[0], print_entry_args=False, default_dialect="func")

    def verify(self, op: Op) -> None:
        ftype = op.attributes.get("function_type")
        if not isinstance(ftype, FunctionType):
            raise IRError("func.func needs a function_type")
        if op.regions and op.regions[0].blocks:
            body = op.regions[0].entry
            types = tuple(a.type for a in body.arguments)
            if types != ftype.inputs:
                raise IRError(
                    f"@{op.attributes.get('sym_name')}: entry block argument types "
                    f"({', '.join(map(str, types))}) differ from the signature {ftype}"
                )


def _signature_arguments(p) -> list[tuple[str, Any, dict, str | None]]:
    """`(%arg0: t {attrs}, ...)` of a definition, or `(t {attrs}, ...)` of a declaration."""
    p.skip_space()
    if p.text.startswith("(", p.pos) and not p.text[p.pos + 1 :].lstrip().startswith(("%", ")")):
        p.expect("(")
        args = []
        while True:
            t = p.type()
            args.append(("", t, p.optional_attr_dict(), None))
            if p.accept(")"):
                return args
            p.expect(",", "',' or ')' after an argument type")
    return p.block_argument_list()


def _dict_suffix(attrs: dict[str, Any]) -> str:
    if not attrs:
        return ""
    return " {" + ", ".join(entry_str(k, attrs[k]) for k in sorted(attrs)) + "}"


class ReturnOp(OpDef):
    """`return %a, %b : t1, t2` (the terminator of a function body)."""

    traits = frozenset({TERMINATOR})
    pure = False

    def parse(self, p, name: str) -> Op:
        attrs = p.optional_attr_dict()  # `attr-dict ($operands^ : type($operands))?`
        operands = p.operands_until(":") if p.peek("%") else []
        if operands:
            p.expect(":")
            types = p.types()
            _check_types(p, operands, types)
        return p.make_op(name, operands, [], attrs)

    def print(self, op: Op, w) -> None:
        write_return(op, w)

    def evaluate(self, op: Op, args: list, interp) -> list:
        return list(args)


def write_return(op: Op, w) -> None:
    """Writes ` {attrs} %a, %b : ta, tb` (only the attributes when there are no
    operands), the form of func.return and sdy.return."""
    w.attr_dict(op)
    if op.operands:
        w.write(" ")
        w.operands(op.operands)
        w.write(" : ")
        w.types(v.type for v in op.operands)


def _check_types(p, values, types) -> None:
    if len(values) != len(types):
        raise p.error(f"{len(values)} values but {len(types)} types")
    for v, t in zip(values, types, strict=True):
        p._check_type(v, t, p.pos)


class CallOp(OpDef):
    """`call @f(%a) : (t) -> r`."""

    traits = frozenset({CALL})
    pure = False

    def parse(self, p, name: str) -> Op:
        p.expect("@", "'@' and the callee")
        callee = read_symbol_name(p)
        p.expect("(")
        operands = p.operands_until(")")
        p.expect(")")
        attrs = p.optional_attr_dict()
        p.expect(":")
        ftype = p.functional_type()
        _check_types(p, operands, ftype.inputs)
        attrs["callee"] = SymbolRefAttr((callee,))
        return p.make_op(name, operands, ftype.results, attrs)

    def print(self, op: Op, w) -> None:
        w.write(f" {op.attributes['callee']}(")
        w.operands(op.operands)
        w.write(")")
        w.attr_dict(op, ("callee",))
        w.write(" : ")
        w.functional_type(op)

    def evaluate(self, op: Op, args: list, interp) -> list:
        return interp.call(op.attributes["callee"].name, args)


register("func.func", FuncOp())
register("func.return", ReturnOp())
register("func.call", CallOp())
