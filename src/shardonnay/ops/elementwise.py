"""StableHLO's elementwise ops, with the numpy semantics of the StableHLO spec:

    %0 = stablehlo.add %a, %b : tensor<4xf32>
    %1 = stablehlo.exponential %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
        : tensor<4xf32>
    %2 = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xi1>
    %3 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
    %4 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %5 = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
    %6 = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %7 = stablehlo.complex %a, %b : tensor<4xcomplex<f32>>

Most ops print one type when all operand and result types are equal and a
function type otherwise. The transcendental ops carry an optional
`result_accuracy`, elided when it is the default. Integer division and
remainder truncate toward zero (division by zero gives -1 and remainder by zero
the dividend, as XLA does); half-precision floats compute in f32 and round.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from shardonnay.errors import IRError, UnsupportedOpError
from shardonnay.ir.attributes import EnumAttr
from shardonnay.ir.core import Op, Value
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.traits import (
    BROADCASTING_ELEMENTWISE,
    ELEMENTWISE,
    EXACT_RULE,
    VERIFIES_ALONE,
    Combiner,
)
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

DEFAULT_ACCURACY = "#stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>"
COMPARISON_DIRECTIONS = ("EQ", "NE", "GE", "GT", "LE", "LT")
COMPARISON_TYPES = ("FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")

# -- syntax shared by the ops ------------------------------------------------------------------


def _same_or_functional(
    p, operands: list[Value], operand_type: Callable[[TensorType], Type] | None = None
) -> tuple[list[Type], Type]:
    """`: t` (every operand and the result of type `t`, or of `operand_type(t)`)
    or `: (ts) -> r`."""
    p.expect(":", "':' and the type")
    p.skip_space()
    pos = p.pos
    if p.peek("("):
        ftype = p.functional_type()
        if len(ftype.results) != 1:
            raise p.error("expected one result type", pos)
        inputs, result = list(ftype.inputs), ftype.results[0]
    else:
        result = p.type()
        operand = result
        if operand_type is not None:
            if not isinstance(result, TensorType):
                raise p.error("expected a tensor type", pos)
            operand = operand_type(result)
        inputs = [operand] * len(operands)
    p.check_operand_types(operands, inputs, pos)
    return inputs, result


def _write_same_or_functional(
    op: Op, w, operand_type: Callable[[TensorType], Type] | None = None
) -> None:
    w.write(" : ")
    result = op.result_types[0]
    if operand_type is not None:
        expected = operand_type(result) if isinstance(result, TensorType) else None
    else:
        expected = result
    if all(v.type == expected for v in op.operands):
        w.type(result)
    else:
        w.functional_type(op)


def _accuracy_elided(op: Op) -> tuple[str, ...]:
    accuracy = op.attributes.get("result_accuracy")
    return (
        ("result_accuracy",) if accuracy is not None and str(accuracy) == DEFAULT_ACCURACY else ()
    )


# -- numerics helpers ----------------------------------------------------------------------------


def _compute_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype arithmetic runs in: f32 for the half-precision floats."""
    if (dtype.kind == "f" and dtype.itemsize < 4) or dtype.name == "bfloat16":
        return np.dtype(np.float32)
    return dtype


def _up(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x)
    return x.astype(_compute_dtype(x.dtype), copy=False)


def _is_float(x: np.ndarray) -> bool:
    return x.dtype.kind == "f" or x.dtype.name == "bfloat16"


def _bit_width(dtype: np.dtype) -> int:
    return 1 if dtype == np.bool_ else dtype.itemsize * 8


def _unsigned(x: np.ndarray) -> np.ndarray:
    """The bits of an integer array as the unsigned type of its width."""
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


def _divide(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "b":
        raise UnsupportedOpError("stablehlo.divide: booleans cannot be divided")
    if x.dtype.kind not in "iu":
        return _up(x) / _up(y)
    x, y = np.broadcast_arrays(x, y)
    zero = y == 0
    safe = np.where(zero, 1, y).astype(x.dtype)
    if x.dtype.kind == "u":
        return np.where(zero, np.array(-1).astype(x.dtype), x // safe)
    minus_one = safe == -1
    safe = np.where(minus_one, 1, safe).astype(x.dtype)
    floor = x // safe
    inexact = (x % safe != 0) & ((x < 0) != (safe < 0))
    quotient = floor + inexact.astype(x.dtype)
    quotient = np.where(minus_one, np.negative(x), quotient)
    return np.where(zero, np.array(-1, x.dtype), quotient)


def _remainder(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "b":
        raise UnsupportedOpError("stablehlo.remainder: booleans have no remainder")
    if x.dtype.kind == "c":
        raise UnsupportedOpError("stablehlo.remainder: complex operands are not supported")
    if x.dtype.kind not in "iu":
        return np.fmod(_up(x), _up(y))
    x, y = np.broadcast_arrays(x, y)
    zero = y == 0
    safe = np.where(zero, 1, y).astype(x.dtype)
    if x.dtype.kind == "i":
        safe = np.where(safe == -1, 1, safe).astype(x.dtype)
    # np.fmod on integers truncates toward zero (C semantics).
    return np.where(zero, x, np.fmod(x, safe))


def _integer_power(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    x, y = np.broadcast_arrays(x, y)
    result = np.ones_like(x)
    base = x.copy()
    exponent = _unsigned(np.abs(y) if y.dtype.kind == "i" else y.copy()).copy()
    for _ in range(_bit_width(x.dtype)):
        odd = (exponent & 1).astype(bool)
        result = np.where(odd, result * base, result)
        base = base * base
        exponent = exponent >> 1
    if x.dtype.kind == "i":
        negative = y < 0
        one = np.ones_like(x)
        odd = (y % 2) != 0
        inverse = np.where(x == 1, one, np.where(x == -1, np.where(odd, -one, one), 0))
        result = np.where(negative, inverse.astype(x.dtype), result)
    return result


def _power(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iu":
        return _integer_power(x, y)
    if x.dtype.kind == "b":
        raise UnsupportedOpError("stablehlo.power: booleans have no power")
    return np.power(_up(x), _up(y))


def _atan2(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    if y.dtype.kind == "c":
        return -1j * np.log((x + 1j * y) / np.sqrt(x * x + y * y))
    return np.arctan2(_up(y), _up(x))


def _shift_amount(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The shift as an unsigned count, and where it is at least the bit width."""
    width = _bit_width(x.dtype)
    count = _unsigned(np.asarray(y)).astype(np.uint64)
    too_big = count >= width
    return np.where(too_big, 0, count).astype(np.uint64), too_big


def _shift_left(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    count, too_big = _shift_amount(x, y)
    shifted = (_unsigned(x).astype(np.uint64) << count).astype(_unsigned(x).dtype)
    return np.where(too_big, 0, shifted.view(x.dtype)).astype(x.dtype)


def _shift_right_logical(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    count, too_big = _shift_amount(x, y)
    shifted = (_unsigned(x).astype(np.uint64) >> count).astype(_unsigned(x).dtype)
    return np.where(too_big, 0, shifted.view(x.dtype)).astype(x.dtype)


def _shift_right_arithmetic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "u":
        signed = x.view(np.dtype(f"i{x.dtype.itemsize}"))
        return _shift_right_arithmetic(signed, y).view(x.dtype)
    count, too_big = _shift_amount(x, y)
    shifted = x.astype(np.int64) >> count.astype(np.int64)
    fill = np.where(x < 0, -1, 0)
    return np.where(too_big, fill, shifted).astype(x.dtype)


def _sign(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":
        magnitude = np.abs(x)
        return np.where(magnitude == 0, 0, x / np.where(magnitude == 0, 1, magnitude))
    if x.dtype.kind == "b":
        raise UnsupportedOpError("stablehlo.sign: booleans have no sign")
    x = _up(x)
    return np.where(x == 0, x, np.sign(x)).astype(x.dtype)


def _round_afz(x: np.ndarray) -> np.ndarray:
    x = _up(x)
    whole = np.trunc(x)
    away = np.abs(x - whole) >= 0.5
    return np.where(away, whole + np.sign(x), whole)


def _not(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind not in "biu":
        raise UnsupportedOpError("stablehlo.not: needs boolean or integer operands")
    return np.logical_not(x) if x.dtype.kind == "b" else np.invert(x)


def _bitwise(fn: Callable, name: str) -> Callable:
    def apply(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        if x.dtype.kind not in "biu":
            raise UnsupportedOpError(f"stablehlo.{name}: needs boolean or integer operands")
        return fn(x, y)

    return apply


def _popcnt(x: np.ndarray) -> np.ndarray:
    bits = _unsigned(x)
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(bits).astype(x.dtype)
    ones = sum(((bits >> k) & 1).astype(np.int64) for k in range(_bit_width(x.dtype)))
    return np.asarray(ones).astype(x.dtype)


def _count_leading_zeros(x: np.ndarray) -> np.ndarray:
    bits = _unsigned(x)
    width = _bit_width(x.dtype)
    length = np.zeros(x.shape, np.int64)
    for k in range(width):
        length += (bits >> k) != 0
    return (width - length).astype(x.dtype)


def _logistic(x: np.ndarray) -> np.ndarray:
    x = _up(x)
    return 1 / (1 + np.exp(-x))


def _real_part(x: np.ndarray) -> np.ndarray:
    return np.real(x).copy()


def _imag_part(x: np.ndarray) -> np.ndarray:
    return np.imag(x).copy() if x.dtype.kind == "c" else np.zeros_like(x)


def _add(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.logical_or(x, y) if x.dtype.kind == "b" else _up(x) + _up(y)


def _multiply(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.logical_and(x, y) if x.dtype.kind == "b" else _up(x) * _up(y)


def _float_only(fn: Callable, name: str) -> Callable:
    def apply(*args: np.ndarray) -> np.ndarray:
        if not all(_is_float(a) or a.dtype.kind == "c" for a in args):
            raise UnsupportedOpError(f"stablehlo.{name}: needs float or complex operands")
        return fn(*(_up(a) for a in args))

    return apply


# -- type rules ---------------------------------------------------------------------------------


def _real_type(t: TensorType) -> TensorType:
    element = t.element_type
    if element.startswith("complex<"):
        return t.with_element_type(element[len("complex<") : -1])
    return t


def _complex_type(t: TensorType) -> TensorType:
    return t.with_element_type(f"complex<{t.element_type}>")


def _tensor(op: Op, value: Value | Type, what: str) -> TensorType:
    t = value.type if isinstance(value, Value) else value
    if not isinstance(t, TensorType):
        raise IRError(f"{op.name}: {what} must be a ranked tensor, not {t}")
    return t


# -- sharding rules --------------------------------------------------------------------------


def pointwise_rule(
    op: Op, shape: tuple[int, ...], kinds: dict[int, str] | None = None
) -> OpShardingRule:
    """One factor per dim of `shape`, mapped to that dim of every tensor of
    `op` except scalars (a scalar `select` predicate or `clamp` bound is
    broadcast). `kinds` gives some dims a factor kind other than pass-through.

    For `stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> ...`::

        #sdy.op_sharding_rule<([], [i, j], [])->([i, j]) {i=4, j=8}>
    """
    b = RuleBuilder.for_op(op)  # checks that every operand and result is a tensor
    return _pointwise_rule(
        tuple(b.operand_shapes),
        tuple(b.result_shapes),
        tuple(shape),
        tuple(sorted((kinds or {}).items())),
    )


@functools.lru_cache(maxsize=1024)
def _pointwise_rule(
    operand_shapes: tuple[tuple[int, ...], ...],
    result_shapes: tuple[tuple[int, ...], ...],
    shape: tuple[int, ...],
    kinds: tuple[tuple[int, str], ...],
) -> OpShardingRule:
    # Rules are immutable: ops of the same shapes share one.
    b = RuleBuilder(operand_shapes, result_shapes)
    kind_of = dict(kinds)

    def dims(shapes: list[tuple[int, ...]], d: int) -> list[int | None]:
        return [d if s else None for s in shapes]

    for d, size in enumerate(shape):
        b.add_factor(
            dims(b.operand_shapes, d),
            dims(b.result_shapes, d),
            size,
            kind=kind_of.get(d, "pass_through"),
        )
    return b.build()


def _bitcast_convert_rule(op: Op) -> OpShardingRule:
    """Pointwise on the shared dims; a change of bit width adds a minor dim
    (on the narrower side) that needs replication:
    `(tensor<4xf32>) -> tensor<4x4xi8>` is `([i])->([i, j]) {i=4, j=4} need_replication={j}`."""
    b = RuleBuilder.for_op(op)
    x, y = b.operand_shapes[0], b.result_shapes[0]
    b.add_pointwise(x if len(x) < len(y) else y)
    if len(x) < len(y):
        b.add_factor([None], [len(y) - 1], y[-1], kind="need_replication")
    elif len(x) > len(y):
        b.add_factor([len(x) - 1], [None], x[-1], kind="need_replication")
    return b.build()


# -- the op families ------------------------------------------------------------------------------


class ElementwiseOp(OpDef):
    """An op that applies `fn` to the elements of its operands (all of one shape).

    `result` says how the result type follows from operand 0: "same", "i1"
    (`is_finite`), "real" (`real`, `imag`, `abs`), "complex" (`complex`) or
    None when it is given by the op (`convert`, `bitcast_convert`).
    """

    traits = frozenset({VERIFIES_ALONE})

    def __init__(
        self,
        arity: int,
        fn: Callable[..., np.ndarray],
        result: str | None = "same",
        *,
        accuracy: bool = False,
    ):
        self.arity = arity
        self.fn = fn
        self.result = result
        self.accuracy = accuracy

    def parse(self, p, name: str) -> Op:
        operands = p.operands_until(":") if p.peek("%") else []
        attrs = p.merge_attr_dict({})
        operand_type = _real_type if self.result == "complex" else None
        _, result = _same_or_functional(p, operands, operand_type)
        own = ("result_accuracy",) if self.accuracy else ()
        return mark_inherent(p.make_op(name, operands, [result], attrs), own)

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.attr_dict(op, _accuracy_elided(op))
        operand_type = _real_type if self.result == "complex" else None
        _write_same_or_functional(op, w, operand_type)

    def infer_types(self, op: Op) -> list[Type] | None:
        if not op.operands or self.result is None:
            return None
        t = op.operands[0].type
        if not isinstance(t, TensorType):
            return None
        if self.result == "i1":
            return [t.with_element_type("i1")]
        if self.result == "real":
            return [_real_type(t)]
        if self.result == "complex":
            return [_complex_type(t)]
        return [t]

    def verify(self, op: Op) -> None:
        if len(op.operands) != self.arity or len(op.results) != 1:
            raise IRError(f"{op.name}: takes {self.arity} operand(s) and has one result")
        shapes = {_tensor(op, v, "an operand").shape for v in op.operands}
        shapes.add(_tensor(op, op.result_types[0], "the result").shape)
        if len({v.type.element_type for v in op.operands}) > 1:
            raise IRError(f"{op.name}: operands have different element types")
        if op.name == "stablehlo.bitcast_convert":
            return  # a change of bit width adds or removes the last dimension
        if len(shapes) != 1:
            raise IRError(f"{op.name}: operand and result shapes differ")
        inferred = self.infer_types(op)
        if inferred is not None and inferred[0].element_type != op.result_types[0].element_type:
            raise IRError(
                f"{op.name}: result type {op.result_types[0]} differs from {inferred[0]}, "
                "which the operands imply"
            )

    def evaluate(self, op: Op, args: list, interp) -> list:
        arrays = [np.asarray(a) for a in args]
        with np.errstate(all="ignore"):
            if self.result is None:
                result = self.fn(*arrays, op.result_types[0])
            else:
                result = self.fn(*arrays)
        return [np.asarray(result).astype(op.result_types[0].dtype)]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise: `([i, j], [i, j])->([i, j]) {i=4, j=8}` for an add of
        `tensor<4x8xf32>`; see `_bitcast_convert_rule` for a change of bit width."""
        if op.name == "stablehlo.bitcast_convert":
            return _bitcast_convert_rule(op)
        return pointwise_rule(op, _tensor(op, op.result_types[0], "the result").shape)


def _convert(x: np.ndarray, t: TensorType) -> np.ndarray:
    target = t.dtype
    if x.dtype.kind == "c" and target.kind != "c":
        x = np.real(x)
    if target.kind == "b":
        return x != 0
    if target.kind in "iu" and _is_float(x):
        # Truncation toward zero, saturating at the type's bounds; NaN gives 0.
        info = np.iinfo(target)
        wide = np.trunc(x.astype(np.float64))
        inside = (wide > info.min) & (wide < info.max)
        middle = np.where(inside, wide, 0).astype(target)
        low, high = np.array(info.min, target), np.array(info.max, target)
        bounded = np.where(wide <= info.min, low, np.where(wide >= info.max, high, middle))
        return np.where(np.isnan(wide), np.zeros((), target), bounded)
    return x.astype(target)


def _bitcast_convert(x: np.ndarray, t: TensorType) -> np.ndarray:
    target = t.dtype
    if (x.dtype == np.bool_) != (target == np.bool_):
        raise UnsupportedOpError("stablehlo.bitcast_convert: i1 converts only to i1")
    data = np.ascontiguousarray(x)
    if data.dtype.itemsize == target.itemsize:
        return data.view(target)
    if data.dtype.itemsize > target.itemsize:
        return data.reshape(*data.shape, 1).view(target).reshape(t.shape)
    return data.view(target).reshape(t.shape)


class CompareOp(OpDef):
    """`stablehlo.compare LT, %a, %b, SIGNED : (t, t) -> tensor<...xi1>`; the
    comparison type is optional (then it follows from the element type)."""

    def parse(self, p, name: str) -> Op:
        direction = p.identifier("a comparison direction")
        if direction not in COMPARISON_DIRECTIONS:
            raise p.error(f"unknown comparison direction {direction}")
        p.expect(",", "',' after the direction")
        operands = [p.operand()]
        p.expect(",", "',' between the operands")
        operands.append(p.operand())
        attrs: dict[str, Any] = {
            "comparison_direction": EnumAttr("stablehlo", "comparison_direction", direction)
        }
        if p.accept(","):
            p.skip_space()
            pos = p.pos
            kind = p.identifier("a comparison type")
            if kind not in COMPARISON_TYPES:
                raise p.error(f"unknown comparison type {kind}", pos)
            attrs["compare_type"] = EnumAttr("stablehlo", "comparison_type", kind)
        p.merge_attr_dict(attrs)
        p.expect(":", "':' and the function type")
        p.skip_space()
        pos = p.pos
        ftype = p.functional_type()
        p.check_operand_types(operands, ftype.inputs, pos)
        op = p.make_op(name, operands, ftype.results, attrs)
        return mark_inherent(op, ("comparison_direction", "compare_type"))

    def print(self, op: Op, w) -> None:
        w.write(f" {self._direction(op)}, ")
        w.operands(op.operands)
        kind = op.attributes.get("compare_type")
        if kind is not None:
            w.write(f", {kind.value}")
        w.attr_dict(op, ("comparison_direction", "compare_type"))
        w.write(" : ")
        w.functional_type(op)

    def _direction(self, op: Op) -> str:
        direction = op.attributes.get("comparison_direction")
        if not isinstance(direction, EnumAttr) or direction.value not in COMPARISON_DIRECTIONS:
            raise IRError(f"{op.name}: needs a comparison_direction")
        return direction.value

    def infer_types(self, op: Op) -> list[Type] | None:
        t = op.operands[0].type if op.operands else None
        return [t.with_element_type("i1")] if isinstance(t, TensorType) else None

    def verify(self, op: Op) -> None:
        if len(op.operands) != 2 or len(op.results) != 1:
            raise IRError(f"{op.name}: takes two operands and has one result")
        self._direction(op)
        lhs, rhs = (_tensor(op, v, "an operand") for v in op.operands)
        if lhs.shape != rhs.shape or lhs.element_type != rhs.element_type:
            raise IRError(f"{op.name}: operand types {lhs} and {rhs} differ")
        if op.result_types[0] != lhs.with_element_type("i1"):
            raise IRError(f"{op.name}: result must be {lhs.with_element_type('i1')}")

    def evaluate(self, op: Op, args: list, interp) -> list:
        x, y = (np.asarray(a) for a in args)
        direction = self._direction(op)
        kind_attr = op.attributes.get("compare_type")
        kind = kind_attr.value if kind_attr is not None else None
        if x.dtype.kind == "c":
            return [_compare_complex(direction, x, y)]
        if kind == "TOTALORDER" and _is_float(x):
            x, y = _total_order_key(x), _total_order_key(y)
        elif kind == "UNSIGNED" and x.dtype.kind == "i":
            x, y = _unsigned(x), _unsigned(y)
        elif kind == "SIGNED" and x.dtype.kind == "u":
            signed = np.dtype(f"i{x.dtype.itemsize}")
            x, y = x.view(signed), y.view(signed)
        else:
            x, y = _up(x), _up(y)
        return [_COMPARE[direction](x, y)]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise: `([i], [i])->([i]) {i=4}` for `tensor<4xf32>` operands."""
        return pointwise_rule(op, _tensor(op, op.result_types[0], "the result").shape)


_COMPARE = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "GE": np.greater_equal,
    "GT": np.greater,
    "LE": np.less_equal,
    "LT": np.less,
}


def _total_order_key(x: np.ndarray) -> np.ndarray:
    """Integers ordered as IEEE's totalOrder orders the floats `x`:
    -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN."""
    x = np.asarray(x)
    signed = np.ascontiguousarray(x).view(np.dtype(f"i{x.dtype.itemsize}")).reshape(x.shape)
    magnitude_mask = np.array(np.iinfo(signed.dtype).max, signed.dtype)
    return np.where(signed < 0, signed ^ magnitude_mask, signed)


def _compare_complex(direction: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if direction == "EQ":
        return x == y
    if direction == "NE":
        return x != y
    strict = direction in ("GT", "LT")
    first, second = (x, y) if direction in ("GT", "GE") else (y, x)
    real_ahead = first.real > second.real
    real_same = first.real == second.real
    imag = first.imag > second.imag if strict else first.imag >= second.imag
    return real_ahead | (real_same & imag)


class SelectOp(OpDef):
    """`stablehlo.select %pred, %on_true, %on_false : tensor<4xi1>, tensor<4xf32>`
    (the predicate may be a scalar `tensor<i1>`)."""

    def parse(self, p, name: str) -> Op:
        operands = p.operands_until(":")
        if len(operands) != 3:
            raise p.error(f"{name} takes three operands, got {len(operands)}")
        attrs = p.merge_attr_dict({})
        p.expect(":", "':' and the types")
        p.skip_space()
        pos = p.pos
        if p.peek("("):
            ftype = p.functional_type()
            inputs, results = list(ftype.inputs), list(ftype.results)
        else:
            pred_type = p.type()
            p.expect(",", "',' and the result type")
            result = p.type()
            inputs, results = [pred_type, result, result], [result]
        p.check_operand_types(operands, inputs, pos)
        return mark_inherent(p.make_op(name, operands, results, attrs), ())

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.attr_dict(op)
        w.write(" : ")
        _, on_true, on_false = (v.type for v in op.operands)
        result = op.result_types[0]
        if on_true == on_false == result:
            w.types([op.operands[0].type, result])
        else:
            w.functional_type(op)

    def infer_types(self, op: Op) -> list[Type] | None:
        return [op.operands[1].type] if len(op.operands) == 3 else None

    def verify(self, op: Op) -> None:
        if len(op.operands) != 3 or len(op.results) != 1:
            raise IRError(f"{op.name}: takes three operands and has one result")
        pred, on_true, on_false = (_tensor(op, v, "an operand") for v in op.operands)
        if pred.element_type != "i1":
            raise IRError(f"{op.name}: the predicate must have i1 elements, not {pred}")
        if pred.rank != 0 and pred.shape != on_true.shape:
            raise IRError(f"{op.name}: the predicate {pred} must be a scalar or of shape {on_true}")
        if on_true != on_false or op.result_types[0] != on_true:
            raise IRError(f"{op.name}: the branches and the result must have one type")

    def evaluate(self, op: Op, args: list, interp) -> list:
        pred, on_true, on_false = (np.asarray(a) for a in args)
        return [np.where(pred, on_true, on_false)]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise over the result; a scalar predicate maps to no factor:
        `([], [i], [i])->([i]) {i=4}`."""
        return pointwise_rule(op, _tensor(op, op.result_types[0], "the result").shape)


class ClampOp(OpDef):
    """`stablehlo.clamp %min, %x, %max : tensor<4xf32>`; min and max may be scalars
    (then a function type is printed)."""

    def parse(self, p, name: str) -> Op:
        operands = p.operands_until(":") if p.peek("%") else []
        if len(operands) != 3:
            raise p.error(f"{name} takes three operands, got {len(operands)}")
        attrs = p.merge_attr_dict({})
        _, result = _same_or_functional(p, operands)
        return mark_inherent(p.make_op(name, operands, [result], attrs), ())

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.attr_dict(op)
        _write_same_or_functional(op, w)

    def infer_types(self, op: Op) -> list[Type] | None:
        return [op.operands[1].type] if len(op.operands) == 3 else None

    def verify(self, op: Op) -> None:
        if len(op.operands) != 3 or len(op.results) != 1:
            raise IRError(f"{op.name}: takes three operands and has one result")
        low, x, high = (_tensor(op, v, "an operand") for v in op.operands)
        for bound in (low, high):
            if (
                bound.element_type != x.element_type
                or bound.rank not in (0, x.rank)
                or (bound.rank and bound.shape != x.shape)
            ):
                raise IRError(f"{op.name}: bound {bound} must be a scalar or of type {x}")
        if op.result_types[0] != x:
            raise IRError(f"{op.name}: the result type must be {x}")

    def evaluate(self, op: Op, args: list, interp) -> list:
        low, x, high = (np.asarray(a) for a in args)
        with np.errstate(all="ignore"):
            return [np.minimum(np.maximum(x, low), high)]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise over the operand; scalar bounds map to no factor:
        `([], [i], [])->([i]) {i=4}`."""
        return pointwise_rule(op, _tensor(op, op.operands[1], "the operand").shape)


# -- registration ---------------------------------------------------------------------------

_TRANSCENDENTAL = {
    "exponential": np.exp,
    "exponential_minus_one": np.expm1,
    "log": np.log,
    "log_plus_one": np.log1p,
    "logistic": _logistic,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "cbrt": np.cbrt,
    "tanh": np.tanh,
    "sine": np.sin,
    "cosine": np.cos,
    "tan": np.tan,
}
for _name, _fn in _TRANSCENDENTAL.items():
    register(
        f"stablehlo.{_name}",
        ElementwiseOp(1, _float_only(_fn, _name), accuracy=True),
        traits={ELEMENTWISE},
    )

_UNARY: dict[str, tuple[Callable, str | None]] = {
    "negate": (lambda x: np.negative(_up(x)), "same"),
    "abs": (lambda x: np.abs(_up(x)), "real"),
    "sign": (_sign, "same"),
    "floor": (_float_only(np.floor, "floor"), "same"),
    "ceil": (_float_only(np.ceil, "ceil"), "same"),
    "round_nearest_even": (_float_only(np.rint, "round_nearest_even"), "same"),
    "round_nearest_afz": (_float_only(_round_afz, "round_nearest_afz"), "same"),
    "not": (_not, "same"),
    "is_finite": (lambda x: np.isfinite(_up(x)), "i1"),
    "popcnt": (_popcnt, "same"),
    "count_leading_zeros": (_count_leading_zeros, "same"),
    "real": (_real_part, "real"),
    "imag": (_imag_part, "real"),
    "convert": (_convert, None),
    "bitcast_convert": (_bitcast_convert, None),
}
for _name, (_fn, _result) in _UNARY.items():
    # bitcast_convert between bit widths that differ changes the shape (not
    # elementwise then); its sharding rule says all that moves data either way
    _traits = {EXACT_RULE} if _name == "bitcast_convert" else {ELEMENTWISE}
    register(f"stablehlo.{_name}", ElementwiseOp(1, _fn, _result), traits=_traits)

_BINARY: dict[str, tuple[Callable, str]] = {
    "add": (_add, "same"),
    "subtract": (lambda x, y: _up(x) - _up(y), "same"),
    "multiply": (_multiply, "same"),
    "divide": (_divide, "same"),
    "remainder": (_remainder, "same"),
    "maximum": (lambda x, y: np.maximum(_up(x), _up(y)), "same"),
    "minimum": (lambda x, y: np.minimum(_up(x), _up(y)), "same"),
    "power": (_power, "same"),
    "atan2": (_atan2, "same"),
    "and": (_bitwise(np.bitwise_and, "and"), "same"),
    "or": (_bitwise(np.bitwise_or, "or"), "same"),
    "xor": (_bitwise(np.bitwise_xor, "xor"), "same"),
    "shift_left": (_shift_left, "same"),
    "shift_right_arithmetic": (_shift_right_arithmetic, "same"),
    "shift_right_logical": (_shift_right_logical, "same"),
    "complex": (lambda x, y: _up(x) + 1j * _up(y), "complex"),
}
# The binary ops that combine partial results (reduction bodies), by reduction kind.
_COMBINERS = {
    "add": Combiner("sum"),
    "multiply": Combiner("product"),
    "maximum": Combiner("max", idempotent=True),
    "minimum": Combiner("min", idempotent=True),
    "and": Combiner("and", idempotent=True),
    "or": Combiner("or", idempotent=True),
    "xor": Combiner("xor"),
}
for _name, (_fn, _result) in _BINARY.items():
    _traits = {ELEMENTWISE, *([_COMBINERS[_name]] if _name in _COMBINERS else [])}
    register(f"stablehlo.{_name}", ElementwiseOp(2, _fn, _result), traits=_traits)

register("stablehlo.compare", CompareOp(), traits={ELEMENTWISE, EXACT_RULE})
# A scalar predicate (bounds) applies to every element: StableHLO's BroadcastingElementwise.
register("stablehlo.select", SelectOp(), traits={BROADCASTING_ELEMENTWISE, EXACT_RULE})
register("stablehlo.clamp", ClampOp(), traits={BROADCASTING_ELEMENTWISE, EXACT_RULE})

__all__ = ["DEFAULT_ACCURACY", "ClampOp", "CompareOp", "ElementwiseOp", "SelectOp"]
