"""Contractions: `stablehlo.dot_general`, `stablehlo.dot` and `stablehlo.convolution`.

    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0],
        contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT]
        : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %1 = stablehlo.dot %arg0, %arg1, precision = [HIGH, DEFAULT]
        : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
    %2 = stablehlo.convolution(%arg0, %arg1)
        dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
        window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1],
        rhs_dilate = [1, 1], reverse = [false, false]}
        {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
        : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>

The attributes are those of the generic form: `dot_dimension_numbers`
(`#stablehlo.dot<...>`), `precision_config`, `algorithm`; for convolutions
`dimension_numbers` (`#stablehlo.conv<...>`, kept as its text and read by
`ConvDimensions.parse`), `window_strides`, `padding`, `lhs_dilation`,
`rhs_dilation`, `window_reversal`, `feature_group_count`, `batch_group_count`.
The element type of the result may differ from the operands' (a preferred
element type); products accumulate in 64-bit precision and round once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import (
    DenseArrayAttr,
    DenseElementsAttr,
    EnumAttr,
    StructAttr,
)
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.traits import CONTRACTION, EXACT_RULE, VERIFIES_ALONE
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

# -- shared helpers (also used by the reduction ops) --------------------------------------------


def tensor_type(op: Op, value_type: Type, what: str) -> TensorType:
    """`value_type` as a `TensorType`, or an `IRError` naming `what`."""
    if not isinstance(value_type, TensorType):
        raise IRError(f"{op.name}: {what} must be a ranked tensor, not {value_type}")
    return value_type


def i64_list(op: Op, key: str, default: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """The integers of `array<i64: ...>` attribute `key` (or `default` when absent)."""
    value = op.attributes.get(key)
    if value is None:
        if default is None:
            raise IRError(f"{op.name}: needs the attribute {key}")
        return default
    if isinstance(value, DenseArrayAttr):
        return tuple(int(v) for v in value.values)
    if isinstance(value, DenseElementsAttr):
        return tuple(int(v) for v in value.to_numpy().reshape(-1))
    raise IRError(f"{op.name}: {key} must be an array<i64: ...>, not {value}")


def bool_list(op: Op, key: str, default: tuple[bool, ...]) -> tuple[bool, ...]:
    value = op.attributes.get(key)
    if value is None:
        return default
    if isinstance(value, DenseArrayAttr):
        return tuple(bool(v) for v in value.values)
    raise IRError(f"{op.name}: {key} must be an array<i1: ...>, not {value}")


def padding_pairs(op: Op, rank: int) -> list[tuple[int, int]]:
    """`padding = dense<...> : tensor<Nx2xi64>` as (low, high) pairs (zeros when absent)."""
    value = op.attributes.get("padding")
    if value is None:
        return [(0, 0)] * rank
    if not isinstance(value, DenseElementsAttr):
        raise IRError(f"{op.name}: padding must be a dense<...> : tensor<Nx2xi64>")
    array = value.to_numpy()
    if array.shape != (rank, 2):
        raise IRError(f"{op.name}: padding has shape {array.shape}, expected ({rank}, 2)")
    return [(int(lo), int(hi)) for lo, hi in array]


def padding_attr(pairs: list[tuple[int, int]]) -> DenseElementsAttr:
    array = np.array(pairs, dtype=np.int64).reshape(len(pairs), 2)
    return DenseElementsAttr.from_numpy(array, TensorType((len(pairs), 2), "i64"))


def read_int_list(p) -> list[int]:
    """`[1, 2, 3]` (possibly empty)."""
    p.expect("[", "'[' starting a list of integers")
    return p.comma_separated("]", p.integer, "an integer")


def int_list_str(values) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def accumulator_dtype(*dtypes: np.dtype) -> np.dtype:
    """A wide type to accumulate products of `dtypes` in (rounded once at the end)."""
    kinds = {np.dtype(d).kind for d in dtypes}
    if "c" in kinds:
        return np.dtype(np.complex128)
    if "f" in kinds or any(np.dtype(d).name == "bfloat16" for d in dtypes):
        return np.dtype(np.float64)
    if kinds <= {"u", "b"}:
        return np.dtype(np.uint64)
    return np.dtype(np.int64)


# -- sharding-rule helpers (also used by the reduction, random and indexing ops) ----------------


def add_dim_factor(
    b: RuleBuilder, dim: int, size: int, kind: str = "pass_through", *, blocked: bool = False
) -> RuleBuilder:
    """A factor on dim `dim` of every operand and result that has dims
    (scalars, such as init values and start indices, get none)."""
    operands = [dim if shape else None for shape in b.operand_shapes]
    results = [dim if shape else None for shape in b.result_shapes]
    return b.add_factor(operands, results, size, kind=kind, blocked=blocked)


def finish_rule(b: RuleBuilder) -> OpShardingRule:
    """The rule, after giving every dim that got no factor a factor of its own
    of size 1 (operands first, then results), as Shardy's rule builder does.

    >>> b = RuleBuilder([(8,)], [(8,)])
    >>> str(finish_rule(b))
    '#sdy.op_sharding_rule<([i])->([j]) {i=1, j=1}>'
    """
    n_operands, n_results = len(b.operand_shapes), len(b.result_shapes)
    for t, tensor in enumerate(list(b.tensors)):
        for d, factors in enumerate(tensor):
            if not factors:
                dims: list[int | None] = [None] * (n_operands + n_results)
                dims[t] = d
                b.add_factor(dims[:n_operands], dims[n_operands:], 1)
    return b.build()


def round_to_result(array: np.ndarray, result_type: TensorType) -> np.ndarray:
    dtype = result_type.dtype
    if dtype == np.bool_:
        return array != 0
    if dtype.kind in "iu" and array.dtype.kind in "iu":
        return array.astype(dtype)  # wraps around, as two's complement arithmetic does
    return array.astype(dtype)


def _precision_config(p) -> tuple[EnumAttr, ...]:
    """`[DEFAULT, HIGHEST]` after `precision =`."""
    p.expect("[", "'[' starting the precision list")
    names = p.comma_separated("]", p.identifier, "a precision (DEFAULT, HIGH, HIGHEST)")
    return tuple(EnumAttr("stablehlo", "precision", n) for n in names)


def _precision_str(value: Any) -> str:
    if not isinstance(value, tuple):
        raise IRError(f"precision_config must be a list of #stablehlo<precision ...>: {value}")
    return "[" + ", ".join(v.value if isinstance(v, EnumAttr) else str(v) for v in value) + "]"


def parse_type_and_check(p, operands) -> Any:
    """`: (lhs, rhs) -> result` with the operand types checked."""
    p.expect(":", "':' and the op's function type")
    p.skip_space()
    pos = p.pos
    ftype = p.functional_type()
    if len(ftype.inputs) != len(operands) or len(ftype.results) != 1:
        raise p.error(f"expected a function type with {len(operands)} inputs and one result", pos)
    for v, t in zip(operands, ftype.inputs, strict=True):
        p._check_type(v, t, pos)
    return ftype


# -- dot_general -----------------------------------------------------------------------------

_DOT_FIELDS = (
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
)
_ALGORITHM = "#stablehlo.dot_algorithm"


def dot_dimension_numbers(
    lhs_batch=(), rhs_batch=(), lhs_contract=(), rhs_contract=()
) -> StructAttr:
    """`#stablehlo.dot<...>` (empty fields are left out, as MLIR prints them)."""
    values = (lhs_batch, rhs_batch, lhs_contract, rhs_contract)
    fields = tuple(
        (k, tuple(int(d) for d in v)) for k, v in zip(_DOT_FIELDS, values, strict=True) if v
    )
    return StructAttr("stablehlo.dot", fields)


def _dot_dims(op: Op) -> tuple[tuple[int, ...], ...]:
    """(lhs_batch, rhs_batch, lhs_contracting, rhs_contracting) of a dot_general."""
    numbers = op.attributes.get("dot_dimension_numbers")
    if not isinstance(numbers, StructAttr) or numbers.name != "stablehlo.dot":
        raise IRError(f"{op.name}: needs dot_dimension_numbers = #stablehlo.dot<...>")
    return tuple(tuple(numbers.get(k, ())) for k in _DOT_FIELDS)


def dot_general_shape(
    lhs: tuple[int, ...],
    rhs: tuple[int, ...],
    dims: tuple[tuple[int, ...], ...],
    where: str = "stablehlo.dot_general",
) -> tuple[int, ...]:
    """The result shape: batch dims, then lhs free dims, then rhs free dims."""
    lb, rb, lc, rc = dims
    if len(lb) != len(rb) or len(lc) != len(rc):
        raise IRError(f"{where}: lhs and rhs need as many batching and contracting dimensions")
    for side, shape, used in (("lhs", lhs, lb + lc), ("rhs", rhs, rb + rc)):
        if len(set(used)) != len(used) or any(not 0 <= d < len(shape) for d in used):
            raise IRError(f"{where}: {side} dimensions {list(used)} are repeated or out of range")
    for a, b, kind in [(x, y, "batching") for x, y in zip(lb, rb, strict=True)] + [
        (x, y, "contracting") for x, y in zip(lc, rc, strict=True)
    ]:
        if lhs[a] != rhs[b]:
            raise IRError(
                f"{where}: {kind} dimension {a} of lhs has size {lhs[a]} but dimension "
                f"{b} of rhs has size {rhs[b]}"
            )
    lhs_free = [lhs[d] for d in range(len(lhs)) if d not in lb + lc]
    rhs_free = [rhs[d] for d in range(len(rhs)) if d not in rb + rc]
    return tuple([lhs[d] for d in lb] + lhs_free + rhs_free)


def dot_general_numpy(
    lhs: np.ndarray, rhs: np.ndarray, dims: tuple[tuple[int, ...], ...]
) -> np.ndarray:
    """`dot_general` in a wide accumulator type (the caller rounds the result)."""
    lb, rb, lc, rc = (list(d) for d in dims)
    lhs_free = [d for d in range(lhs.ndim) if d not in lb + lc]
    rhs_free = [d for d in range(rhs.ndim) if d not in rb + rc]
    acc = accumulator_dtype(lhs.dtype, rhs.dtype)
    batch_shape = [lhs.shape[d] for d in lb]
    free_l = [lhs.shape[d] for d in lhs_free]
    free_r = [rhs.shape[d] for d in rhs_free]
    b = int(np.prod(batch_shape, dtype=np.int64))
    m = int(np.prod(free_l, dtype=np.int64))
    n = int(np.prod(free_r, dtype=np.int64))
    k = int(np.prod([lhs.shape[d] for d in lc], dtype=np.int64))
    a = lhs.astype(acc).transpose(lb + lhs_free + lc).reshape(b, m, k)
    c = rhs.astype(acc).transpose(rb + rc + rhs_free).reshape(b, k, n)
    return np.matmul(a, c).reshape(batch_shape + free_l + free_r)


class DotGeneralOp(OpDef):
    """`stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims =
    [2] x [1], precision = [DEFAULT, DEFAULT], algorithm = <...> {attrs} : (...) -> t`."""

    traits = frozenset({CONTRACTION, EXACT_RULE, VERIFIES_ALONE})

    _OWN = ("dot_dimension_numbers", "precision_config", "algorithm")

    def parse(self, p, name: str) -> Op:
        operands = [p.operand()]
        p.expect(",")
        operands.append(p.operand())
        p.expect(",")
        lb: list[int] = []
        rb: list[int] = []
        if p.accept("batching_dims"):
            p.expect("=")
            lb, rb = _dims_pair(p)
            p.expect(",")
        p.expect("contracting_dims", "'contracting_dims'")
        p.expect("=")
        lc, rc = _dims_pair(p)
        attrs: dict[str, Any] = {"dot_dimension_numbers": dot_dimension_numbers(lb, rb, lc, rc)}
        _precision_and_algorithm(p, attrs)
        for key, value in p.optional_attr_dict().items():
            attrs.setdefault(key, value)
        ftype = parse_type_and_check(p, operands)
        return mark_inherent(p.make_op(name, operands, ftype.results, attrs), self._OWN)

    def print(self, op: Op, w) -> None:
        lb, rb, lc, rc = _dot_dims(op)
        w.write(" ")
        w.operands(op.operands)
        if lb or rb:
            w.write(f", batching_dims = {int_list_str(lb)} x {int_list_str(rb)}")
        w.write(f", contracting_dims = {int_list_str(lc)} x {int_list_str(rc)}")
        _print_precision_and_algorithm(op, w)
        w.attr_dict(op, self._OWN)
        w.write(" : ")
        w.functional_type(op)

    def infer_types(self, op: Op) -> list[Type] | None:
        lhs = tensor_type(op, op.operands[0].type, "lhs")
        rhs = tensor_type(op, op.operands[1].type, "rhs")
        shape = dot_general_shape(lhs.shape, rhs.shape, _dot_dims(op), op.name)
        element = result_element_type(op, lhs)
        return [TensorType(shape, element)]

    def verify(self, op: Op) -> None:
        verify_contraction(op, self.infer_types)

    def evaluate(self, op: Op, args: list, interp) -> list:
        out = dot_general_numpy(np.asarray(args[0]), np.asarray(args[1]), _dot_dims(op))
        return [round_to_result(out, op.result_types[0])]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Batching dims, then lhs free dims, rhs free dims (all in the result
        in that order), then the contracting dims as reduction factors:
        `([i, j, l], [i, l, k])->([i, j, k]) {i=2, j=3, k=5, l=4} reduction={l}`."""
        lb, rb, lc, rc = _dot_dims(op)
        b = RuleBuilder.for_op(op)
        lhs, rhs = b.operand_shapes
        out = 0
        for dl, dr in zip(lb, rb, strict=True):
            b.add_factor([dl, dr], [out], lhs[dl])
            out += 1
        for d, size in enumerate(lhs):
            if d not in lc and d not in lb:
                b.add_factor([d, None], [out], size)
                out += 1
        for d, size in enumerate(rhs):
            if d not in rc and d not in rb:
                b.add_factor([None, d], [out], size)
                out += 1
        for dl, dr in zip(lc, rc, strict=True):
            b.add_factor([dl, dr], [None], lhs[dl], kind="reduction")
        return finish_rule(b)


def _dims_pair(p) -> tuple[list[int], list[int]]:
    """`[0, 1] x [2, 3]`."""
    lhs = read_int_list(p)
    p.expect("x", "'x' between the lhs and rhs dimensions")
    return lhs, read_int_list(p)


def _precision_and_algorithm(p, attrs: dict[str, Any]) -> None:
    """`, precision = [...]` and `, algorithm = <...>`, both optional."""
    while p.accept(","):
        if p.accept("precision"):
            p.expect("=")
            attrs["precision_config"] = _precision_config(p)
        elif p.accept("algorithm"):
            p.expect("=")
            p.skip_space()
            if not p.peek("<"):
                raise p.error("expected '<' starting the dot algorithm")
            end = p._balanced_end(p.pos)
            attrs["algorithm"] = p.attribute_of(_ALGORITHM + p.text[p.pos : end])
            p.pos = end
        else:
            raise p.error("expected 'precision' or 'algorithm'")


def _print_precision_and_algorithm(op: Op, w) -> None:
    if "precision_config" in op.attributes:
        w.write(f", precision = {_precision_str(op.attributes['precision_config'])}")
    if "algorithm" in op.attributes:
        text = str(op.attributes["algorithm"])
        w.write(f", algorithm = {text.removeprefix(_ALGORITHM)}")


def result_element_type(op: Op, lhs: TensorType) -> str:
    """The result's own element type when the op has one (a preferred element
    type), else the lhs element type."""
    if op.results and isinstance(op.result_types[0], TensorType):
        return op.result_types[0].element_type
    return lhs.element_type


def _verify_binary(op: Op) -> None:
    if len(op.operands) != 2 or len(op.results) != 1:
        raise IRError(f"{op.name}: takes two operands and has one result")
    tensor_type(op, op.operands[0].type, "lhs")
    tensor_type(op, op.operands[1].type, "rhs")
    tensor_type(op, op.result_types[0], "the result")


def _verify_precision(op: Op) -> None:
    config = op.attributes.get("precision_config")
    if config is None:
        return
    if not isinstance(config, tuple) or len(config) not in (0, 2):
        raise IRError(f"{op.name}: precision_config must list 0 or 2 precisions")
    for value in config:
        if not (isinstance(value, EnumAttr) and value.kind == "precision"):
            raise IRError(f"{op.name}: {value} is not a #stablehlo<precision ...>")
        if value.value not in ("DEFAULT", "HIGH", "HIGHEST"):
            raise IRError(f"{op.name}: unknown precision {value.value}")


def verify_contraction(op: Op, infer_types: Callable[[Op], list[Type] | None]) -> None:
    """The checks of dot, dot_general and convolution: two tensor operands, one
    tensor result of the shape `infer_types` implies (its element type may be
    a preferred one), and a valid `precision_config`."""
    _verify_binary(op)
    (inferred,) = infer_types(op)
    if op.result_types[0].shape != inferred.shape:
        raise IRError(f"{op.name}: result type {op.result_types[0]}, expected shape {inferred}")
    _verify_precision(op)


# -- dot -------------------------------------------------------------------------------------


class DotOp(OpDef):
    """`stablehlo.dot %a, %b, precision = [HIGH, DEFAULT] : (...) -> t`: a vector or
    matrix product (rank 1 or 2 operands, contracting lhs's last with rhs's first)."""

    traits = frozenset({CONTRACTION, EXACT_RULE})

    def parse(self, p, name: str) -> Op:
        operands = [p.operand()]
        p.expect(",")
        operands.append(p.operand())
        attrs: dict[str, Any] = {}
        if p.accept(","):
            p.expect("precision", "'precision'")
            p.expect("=")
            attrs["precision_config"] = _precision_config(p)
        for key, value in p.optional_attr_dict().items():
            attrs.setdefault(key, value)
        ftype = parse_type_and_check(p, operands)
        return mark_inherent(p.make_op(name, operands, ftype.results, attrs), ("precision_config",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        if "precision_config" in op.attributes:
            w.write(f", precision = {_precision_str(op.attributes['precision_config'])}")
        w.attr_dict(op, ("precision_config",))
        w.write(" : ")
        w.functional_type(op)

    @staticmethod
    def _dims(op: Op) -> tuple[tuple[int, ...], ...]:
        lhs = tensor_type(op, op.operands[0].type, "lhs")
        rhs = tensor_type(op, op.operands[1].type, "rhs")
        if lhs.rank not in (1, 2) or rhs.rank not in (1, 2):
            raise IRError(f"{op.name}: operands must have rank 1 or 2, not {lhs} and {rhs}")
        return ((), (), (lhs.rank - 1,), (0,))

    def infer_types(self, op: Op) -> list[Type] | None:
        lhs = tensor_type(op, op.operands[0].type, "lhs")
        rhs = tensor_type(op, op.operands[1].type, "rhs")
        shape = dot_general_shape(lhs.shape, rhs.shape, self._dims(op), op.name)
        return [TensorType(shape, result_element_type(op, lhs))]

    def verify(self, op: Op) -> None:
        verify_contraction(op, self.infer_types)

    def evaluate(self, op: Op, args: list, interp) -> list:
        out = dot_general_numpy(np.asarray(args[0]), np.asarray(args[1]), self._dims(op))
        return [round_to_result(out, op.result_types[0])]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Lhs rows (if a matrix), rhs columns (if a matrix), then the
        contracted dim: `([i, k], [k, j])->([i, j]) {i=3, j=5, k=4} reduction={k}`."""
        self._dims(op)
        b = RuleBuilder.for_op(op)
        lhs, rhs = b.operand_shapes
        lhs_matrix, rhs_matrix = len(lhs) == 2, len(rhs) == 2
        if lhs_matrix:
            b.add_factor([0, None], [0], lhs[0])
        if rhs_matrix:
            b.add_factor([None, 1], [1 if lhs_matrix else 0], rhs[1])
        b.add_factor([1 if lhs_matrix else 0, 0], [None], rhs[0], kind="reduction")
        return finish_rule(b)


# -- convolution -----------------------------------------------------------------------------

register("stablehlo.dot_general", DotGeneralOp())
register("stablehlo.dot", DotOp())
