"""StableHLO ops that make a tensor from attributes alone:

    %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
    %c = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
        dense<7> : tensor<4xi32>
    %0 = stablehlo.iota dim = 1 : tensor<2x3xf32>

`constant` keeps its value as the `value` attribute (a `DenseElementsAttr`),
`iota` its dimension as `iota_dimension` (`1 : i64`), as the generic form does.
MLIR names constants `%cst` (float and complex elements) or `%c` (integers and
booleans).
"""

from __future__ import annotations

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import DenseElementsAttr, IntegerAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType, Type, is_complex, is_float
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.shape import int_attr


class ConstantOp(OpDef):
    """`stablehlo.constant {attrs} dense<...> : tensor<...>`: the value of its `value`
    attribute; the type of the literal is the result type."""

    def parse(self, p, name: str) -> Op:
        attrs = p.optional_attr_dict()
        p.skip_space()
        pos = p.pos
        value = p.attribute()
        result_type = getattr(value, "type", None)
        if not isinstance(result_type, TensorType):
            raise p.error("expected a dense<...> : tensor<...> literal", pos)
        if "value" in attrs:
            raise p.error("attribute 'value' given twice", pos)
        attrs["value"] = value
        return mark_inherent(p.make_op(name, [], [result_type], attrs), ("value",))

    def print(self, op: Op, w) -> None:
        w.attr_dict(op, ("value",))
        w.write(" ")
        w.attr(op.attributes["value"])

    def infer_types(self, op: Op) -> list[Type] | None:
        value_type = getattr(op.attributes.get("value"), "type", None)
        return [value_type] if isinstance(value_type, TensorType) else None

    def verify(self, op: Op) -> None:
        if op.operands or len(op.results) != 1:
            raise IRError(f"{op.name}: takes no operands and has one result")
        inferred = self.infer_types(op)
        if inferred is None:
            raise IRError(f"{op.name}: needs a 'value' attribute of tensor type")
        if inferred[0] != op.result_types[0]:
            raise IRError(
                f"{op.name}: the value's type {inferred[0]} differs from the result type "
                f"{op.result_types[0]}"
            )

    def evaluate(self, op: Op, args: list, interp) -> list:
        value = op.attributes.get("value")
        if not isinstance(value, DenseElementsAttr):
            raise IRError(f"{op.name}: cannot evaluate the value {value}")
        return [value.to_numpy()]

    def result_names(self, op: Op) -> list[str | None] | None:
        t = op.result_types[0] if op.results else None
        if not isinstance(t, TensorType):
            return None
        element = t.element_type
        return ["cst" if is_float(element) or is_complex(element) else "c"]


class IotaOp(OpDef):
    """`stablehlo.iota dim = 0 : tensor<4xf32>`: 0, 1, 2, ... along `iota_dimension`."""

    def parse(self, p, name: str) -> Op:
        p.expect("dim", "'dim'")
        p.expect("=", "'=' after 'dim'")
        attrs = {"iota_dimension": IntegerAttr(p.integer("the iota dimension"), "i64")}
        for key, value in p.optional_attr_dict().items():
            if key in attrs:
                raise p.error(f"attribute '{key}' given twice")
            attrs[key] = value
        p.expect(":", "':' and the result type")
        result_type = p.type()
        return mark_inherent(p.make_op(name, [], [result_type], attrs), ("iota_dimension",))

    def print(self, op: Op, w) -> None:
        w.write(f" dim = {int_attr(op, 'iota_dimension')}")
        w.attr_dict(op, ("iota_dimension",))
        w.write(" : ")
        w.type(op.result_types[0])

    def verify(self, op: Op) -> None:
        if op.operands or len(op.results) != 1:
            raise IRError(f"{op.name}: takes no operands and has one result")
        t = op.result_types[0]
        if not isinstance(t, TensorType):
            raise IRError(f"{op.name}: the result must be a ranked tensor, not {t}")
        dim = int_attr(op, "iota_dimension")
        if not 0 <= dim < t.rank:
            raise IRError(f"{op.name}: iota dimension {dim} is out of range for {t}")

    def evaluate(self, op: Op, args: list, interp) -> list:
        t = op.result_types[0]
        dim = int_attr(op, "iota_dimension")
        shape = [1] * t.rank
        shape[dim] = t.shape[dim]
        ramp = np.arange(t.shape[dim]).reshape(shape)
        return [np.broadcast_to(ramp, t.shape).astype(t.dtype)]


register("stablehlo.constant", ConstantOp())
register("stablehlo.iota", IotaOp())
