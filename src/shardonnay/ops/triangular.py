"""`stablehlo.cholesky` and `stablehlo.triangular_solve`: batched factorizations.

`stablehlo.cholesky %a, lower = true : tensor<2x3x3xf32>` (`lower` is
omitted when false) factors each Hermitian positive definite matrix of the
last two dims: `L` with `a = L L^H` from the lower triangle, or `U` with
`a = U^H U` from the upper one. The spec leaves the other triangle
implementation-defined: here it is zero (as XLA's expansion writes it).
A matrix that is not positive definite gives NaNs.

`stablehlo.triangular_solve` (generic form only, as in MLIR) solves
`op(a) x = b` (`left_side = true`) or `x op(a) = b`, `a` the `lower` (else
upper) triangle of operand 0, with ones on its diagonal for
`unit_diagonal`; `op` is `transpose_a = #stablehlo<transpose NO_TRANSPOSE |
TRANSPOSE | ADJOINT>`.

Their sharding rules are Shardy's: the batch dims pass through, the matrix
dims need replication.

>>> import numpy as np
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> from shardonnay.runtime.interpreter import run
>>> m = parse_module('''func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
...   %0 = stablehlo.cholesky %a, lower = true : tensor<2x2xf32>
...   return %0 : tensor<2x2xf32>
... }''')
>>> run(m, np.array([[4.0, 2.0], [2.0, 5.0]]))[0].tolist()
[[2.0, 0.0], [1.0, 2.0]]
"""

from __future__ import annotations

import re

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import EnumAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops import lapack
from shardonnay.ops.linalg import finish_rule
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.shape import read_operand_type
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

_BOOL = re.compile(r"[a-z]+")
_TRANSPOSES = {"NO_TRANSPOSE": "N", "TRANSPOSE": "T", "ADJOINT": "C"}


def _flag(op: Op, key: str, default: bool | None = None) -> bool:
    value = op.attributes.get(key, default)
    if not isinstance(value, bool):
        raise IRError(f"{op.name}: needs a bool attribute '{key}'")
    return value


def _matrices(op: Op, t: Type, what: str) -> TensorType:
    if not isinstance(t, TensorType) or t.rank < 2:
        raise IRError(f"{op.name}: {what} must be a tensor of rank >= 2, not {t}")
    return t


class CholeskyOp(OpDef):
    """`stablehlo.cholesky` (see the module docstring)."""

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        attrs = {}
        if p.accept(","):
            p.expect("lower", "'lower'")
            p.expect("=", "'=' after 'lower'")
            p.skip_space()
            pos = p.pos
            word = p.match(_BOOL, "true or false")
            if word not in ("true", "false"):
                raise p.error("expected true or false", pos)
            attrs["lower"] = word == "true"
        t = read_operand_type(p, operand, attrs)
        return mark_inherent(p.make_op(name, [operand], [t], attrs), ("lower",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        if op.attributes.get("lower") is True:
            w.write(", lower = true")
        w.attr_dict(op, ("lower",))
        w.write(f" : {op.result_types[0]}")

    def infer_types(self, op: Op) -> list[Type] | None:
        return [op.operands[0].type]

    def verify(self, op: Op) -> None:
        if len(op.operands) != 1 or len(op.results) != 1:
            raise IRError(f"{op.name}: takes one operand and has one result")
        a = _matrices(op, op.operands[0].type, "the operand")
        if a.shape[-1] != a.shape[-2]:
            raise IRError(f"{op.name}: the matrices must be square, got {a}")
        if op.result_types[0] != a:
            raise IRError(f"{op.name}: the result type must be the operand's, {a}")
        _flag(op, "lower", False)

    def evaluate(self, op: Op, args: list, interp) -> list:
        lower = _flag(op, "lower", False)
        a = np.asarray(args[0])
        factor, info = lapack.potrf(a, lower=lower)
        n = a.shape[-1]
        keep = np.tril(np.ones((n, n), bool)) if lower else np.triu(np.ones((n, n), bool))
        failed = (info != 0)[..., None, None]
        return [np.where(failed, np.nan, np.where(keep, factor, 0))]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """`tensor<2x3x3xf32>`: `([i, j, k])->([i, j, k]) {i=2, j=3, k=3}
        need_replication={j, k}`."""
        b = RuleBuilder.for_op(op)
        shape = b.operand_shapes[0]
        for d, size in enumerate(shape):
            kind = "need_replication" if d >= len(shape) - 2 else "pass_through"
            b.add_factor([d], [d], size, kind=kind)
        return finish_rule(b)


class TriangularSolveOp(OpDef):
    """`stablehlo.triangular_solve` (see the module docstring)."""

    def infer_types(self, op: Op) -> list[Type] | None:
        return [op.operands[1].type] if len(op.operands) == 2 else None

    def verify(self, op: Op) -> None:
        if len(op.operands) != 2 or len(op.results) != 1:
            raise IRError(f"{op.name}: takes two operands and has one result")
        a = _matrices(op, op.operands[0].type, "operand a")
        b = _matrices(op, op.operands[1].type, "operand b")
        if a.rank != b.rank or a.shape[:-2] != b.shape[:-2]:
            raise IRError(f"{op.name}: a {a} and b {b} must have the same batch dims")
        if a.shape[-1] != a.shape[-2]:
            raise IRError(f"{op.name}: a's matrices must be square, got {a}")
        left = _flag(op, "left_side")
        shared = b.shape[-2] if left else b.shape[-1]
        if shared != a.shape[-1]:
            side = "rows" if left else "columns"
            raise IRError(f"{op.name}: b's {side} ({shared}) must match a's size {a.shape[-1]}")
        if a.element_type != b.element_type or op.result_types[0] != b:
            raise IRError(f"{op.name}: a, b and the result must have b's type {b}")
        _flag(op, "lower")
        _flag(op, "unit_diagonal")
        _transpose(op)

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [
            lapack.trsm(
                np.asarray(args[0]),
                np.asarray(args[1]),
                left_side=_flag(op, "left_side"),
                lower=_flag(op, "lower"),
                transpose=_transpose(op),
                unit_diagonal=_flag(op, "unit_diagonal"),
            )
        ]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """`left_side`: `a [.., j, l], b [.., j, k] -> [.., l, k]`; otherwise
        `a [.., k, l], b [.., j, k] -> [.., j, l]`; the matrix factors need
        replication."""
        b = RuleBuilder.for_op(op)
        a_shape, b_shape = b.operand_shapes
        rank = len(a_shape)
        for d in range(rank - 2):
            b.add_factor([d, d], [d], a_shape[d])
        r, c = rank - 2, rank - 1
        kind = "need_replication"
        if _flag(op, "left_side"):
            b.add_factor([r, r], [None], b_shape[r], kind=kind)
            b.add_factor([None, c], [c], b_shape[c], kind=kind)
            b.add_factor([c, None], [r], a_shape[c], kind=kind)
        else:
            b.add_factor([None, r], [r], b_shape[r], kind=kind)
            b.add_factor([r, c], [None], a_shape[r], kind=kind)
            b.add_factor([c, None], [c], a_shape[c], kind=kind)
        return finish_rule(b)


def _transpose(op: Op) -> str:
    value = op.attributes.get("transpose_a")
    if isinstance(value, EnumAttr) and value.kind == "transpose" and value.value in _TRANSPOSES:
        return _TRANSPOSES[value.value]
    raise IRError(
        f"{op.name}: needs transpose_a = #stablehlo<transpose NO_TRANSPOSE|TRANSPOSE|ADJOINT>"
    )


register("stablehlo.cholesky", CholeskyOp())
register("stablehlo.triangular_solve", TriangularSolveOp())
