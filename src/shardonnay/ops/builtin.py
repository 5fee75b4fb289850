"""`builtin.unrealized_conversion_cast`: a value seen as another type, which
MLIR's dialect conversion inserts where a converted value meets a use that
expects the type it had.

    %1 = builtin.unrealized_conversion_cast %0 : tensor<8xf32> to tensor<7xf32>

Shardy's `sdy-pad-for-divisibility` casts between a tensor and its padded
form (the same element type, each dim at least as large): the interpreter
runs such a cast as the first elements of each dim when the result is
smaller (the padding cut off) and as padding with zeros at the high end
when it is larger. Other casts have no semantics here.
"""

from __future__ import annotations

import numpy as np

from shardonnay.errors import IRError, UnsupportedOpError
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType
from shardonnay.ops.registry import OpDef, register


class UnrealizedConversionCast(OpDef):
    def parse(self, p, name: str) -> Op:
        operands = p.operands_until(":") if not p.peek("to") else []
        attrs = p.optional_attr_dict()
        in_types = []
        p.skip_space()
        pos = p.pos
        if p.accept(":") and not p.peek("to"):
            in_types.append(p.type())
            while p.accept(","):
                in_types.append(p.type())
        p.expect("to", "'to' and the result types")
        out_types = [p.type()]
        while p.accept(","):
            out_types.append(p.type())
        p.check_operand_types(operands, in_types, pos)
        return p.make_op(name, operands, out_types, attrs)

    def print(self, op: Op, w) -> None:
        if op.operands:
            w.write(" ")
            w.operands(op.operands)
        w.attr_dict(op)
        if op.operands:
            w.write(" : ")
            w.types([v.type for v in op.operands])
        w.write(" to ")
        w.types(op.result_types)

    def verify(self, op: Op) -> None:
        if not op.results:
            raise IRError(f"{op.name} needs at least one result")

    def evaluate(self, op: Op, args: list, interp) -> list:
        if len(args) != 1 or len(op.results) != 1:
            raise UnsupportedOpError(f"{op.name}: only one-to-one casts run")
        source, target = op.operands[0].type, op.result_types[0]
        if not (
            isinstance(source, TensorType)
            and isinstance(target, TensorType)
            and source.element_type == target.element_type
            and len(source.shape) == len(target.shape)
        ):
            raise UnsupportedOpError(
                f"{op.name}: only casts between tensors of one element type and rank run"
            )
        x = np.asarray(args[0])
        x = x[tuple(slice(0, n) for n in target.shape)]
        pad = [(0, n - m) for n, m in zip(target.shape, x.shape, strict=True)]
        return [np.pad(x, pad) if any(high for _, high in pad) else x]


register("builtin.unrealized_conversion_cast", UnrealizedConversionCast())
