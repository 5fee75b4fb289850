"""Judging an output of a partitioned program as a numerical analyst would.

A partitioned program adds and multiplies in another order than the
unpartitioned one (partial sums meet in an all-reduce), so its float outputs
differ by rounding. How much rounding is normal depends on the program: a
long reduction in bf16 loses most digits, a gradient that is mathematically
zero is pure rounding noise. A fixed relative tolerance cannot tell that from
a bug, so each float output is judged against the exact answer:

- the reference runs in float64 (`wide_reference`: every float type of the
  program widened to f64, complex to complex128): `exact`;
- the unpartitioned program's own error, in its dtypes, is
  `own = max |reference - exact|` (for an f64 output, which float64 cannot
  measure, the error of the program run in f32, scaled by
  `eps(f64) / eps(f32)`: rounding errors grow with the unit roundoff);
- the partitioned program passes where `|got - exact| <= budget + rtol * |exact|`,
  `budget = rounding * max(own, eps * scale) + atol`, `scale` being the
  output's largest finite magnitude: `rounding` (8) times the error the
  unpartitioned program makes itself, at least `rounding` units of the last
  place of the output's scale; and the root mean square of its errors is at
  most `rounding / 2` times that of the unpartitioned program's (at least
  `eps` times the RMS of the exact output), plus `atol`: a bug that spreads
  moderate errors over many elements shows there. NaNs and infinities must
  be where the reference has them.

A partitioning bug (a dropped all-reduce, a wrong collective, padding let into
a result) is wrong by about the size of the values, far beyond rounding. A
failure says whether it looks like rounding: errors within `sqrt(eps)` of the
scale (half the digits right) and no special values out of place.

Integer and boolean outputs must equal the reference's. With `rounding=0` the
comparison is `compare_output`'s, against the reference in the program's own
dtypes: `|got - expected| <= atol + rtol * |expected|`.

>>> exact = np.array([1.0, -2.0, 3.0])
>>> own = np.array([1.0000001, -2.0, 3.0000002], np.float32)  # rounded to f32
>>> got = np.array([1.0000002, -2.0000002, 3.0], np.float32)  # reordered sums
>>> c = judge_output(0, own, got, exact)
>>> c.ok, f"{c.own_error:.2g}", f"{c.max_abs_error:.2g}"
(True, '2.4e-07', '2.4e-07')
>>> judge_output(0, own, np.array([1.0, -2.0, 0.0], np.float32), exact).looks_like_rounding
False
"""

from __future__ import annotations

import math
import os
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from shardonnay.errors import ShardonnayError
from shardonnay.ir.core import Op
from shardonnay.ir.types import FunctionType, TensorType

__all__ = [
    "ROUNDING",
    "OutputComparison",
    "compare_output",
    "epsilon",
    "judge_output",
    "main_arguments",
    "read_npz",
    "scaled_inputs",
    "validate_tolerance",
    "wide_reference",
]

#: How many times the unpartitioned program's own rounding error an output may have.
ROUNDING = 8.0

# Ops whose semantics depends on the bits of a float type: a program with one
# on floats has no float64 reference.
_BIT_EXACT = ("stablehlo.bitcast_convert",)


@dataclass(frozen=True)
class OutputComparison:
    """One output of the partitioned program against the reference.

    `max_abs_error` is `|got - reference|` at most (`reference`: the float64
    one, or the program's own dtypes for `compare_output`); `max_rel_error`
    is relative to the output's largest finite magnitude (`scale`): an error
    of reordered sums is relative to the size of what is summed, not to each
    element, which may be close to 0 by cancellation. `abs_tolerance` is the
    error allowed at 0 (`budget` in the module docstring); `own_error` the
    unpartitioned program's own error (None where not measured: integers, or
    the comparison in the program's dtypes).
    """

    index: int
    shape: tuple[int, ...]
    dtype: str
    max_abs_error: float
    max_rel_error: float
    abs_tolerance: float
    mismatches: int  # elements out of tolerance (all of them when the shapes differ)
    detail: str = ""  # where the first mismatch is and its values, or how the shapes differ
    own_error: float | None = None
    looks_like_rounding: bool = False  # for a failure: small errors, specials in place
    rms_error: float | None = None  # root mean square of the errors (judged outputs)
    own_rms_error: float | None = None  # the same of the unpartitioned program's own
    rms_tolerance: float | None = None  # the RMS error allowed

    @property
    def ok(self) -> bool:
        return self.mismatches == 0

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def verdict(self) -> str:
        """Why this output failed, in words (empty when it passed)."""
        if self.ok:
            return ""
        if self.own_error is None:
            return ""
        if self.looks_like_rounding:
            return (
                "this looks like rounding (the error is within sqrt(eps) of the output's scale): "
                "allow more with rounding=/--rounding or rtol=/--rtol, or check on real inputs "
                "(inputs=/--inputs)"
            )
        return (
            "this does not look like rounding: the error is beyond what reordered sums can "
            "cause (a partitioning bug)"
        )


def validate_tolerance(name: str, value: float | None) -> None:
    """Raises `ShardonnayError` unless `value` is a finite non-negative number
    (or None, where the caller has a default).

    >>> validate_tolerance("rtol", float("nan"))
    Traceback (most recent call last):
    ...
    shardonnay.errors.ShardonnayError: rtol must be a finite number >= 0, got nan
    """
    if value is None:
        return
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ShardonnayError(f"{name} must be a finite number >= 0, got {value!r}") from None
    if not math.isfinite(number) or number < 0:
        raise ShardonnayError(f"{name} must be a finite number >= 0, got {value}")


def epsilon(dtype: np.dtype) -> float | None:
    """The machine epsilon of a floating-point dtype (numpy's or ml_dtypes',
    like bfloat16), None for other dtypes.

    >>> epsilon(np.dtype(np.float32)) == 2.0**-23, epsilon(np.dtype(np.int32))
    (True, None)
    """
    if dtype.kind in "fc":
        return float(np.finfo(dtype).eps)
    if dtype.kind == "V":
        try:
            import ml_dtypes

            return float(ml_dtypes.finfo(dtype).eps)
        except (ImportError, TypeError, ValueError):
            return None
    return None


def _special(expected: np.ndarray, got: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(finite in `expected`, the specials of `expected` that `got` does not repeat)."""
    finite = np.isfinite(expected)
    with np.errstate(invalid="ignore"):
        same = (np.isnan(expected) & np.isnan(got)) | (expected == got)
    return finite, ~finite & ~same


def _first(bad: np.ndarray, expected: np.ndarray, got: np.ndarray) -> str:
    where = tuple(int(i) for i in np.argwhere(bad)[0])
    return f"first at {where}: expected {expected[where]!s}, got {got[where]!s}"


def _wrong_shape(index: int, expected: np.ndarray, got: np.ndarray) -> OutputComparison | None:
    if got.shape == expected.shape and got.dtype == expected.dtype:
        return None
    return OutputComparison(
        index,
        tuple(expected.shape),
        str(expected.dtype),
        math.inf,
        math.inf,
        0.0,
        max(expected.size, 1),
        f"the partitioned program returns {got.shape} {got.dtype}",
    )


def compare_output(
    index: int, expected: np.ndarray, got: np.ndarray, *, rtol: float, atol: float | None
) -> OutputComparison:
    """Compares output `index` with `expected` in the program's own dtypes:
    floats pass where `|got - expected| <= atol + rtol * |expected|` and
    specials are in place; `atol=None` is `sqrt(eps) * scale`: half the
    digits of the dtype, relative to the output's largest finite magnitude.

    >>> expected, got = np.array([0.001, 100.0]), np.array([0.001001, 100.0])
    >>> c = compare_output(0, expected, got, rtol=0, atol=None)  # 1e-3 off, relative to 0.001
    >>> c.ok, f"{c.abs_tolerance:.3g}", f"{c.max_rel_error:.3g}"  # but 1e-8 of the scale
    (True, '1.49e-06', '1e-08')
    >>> compare_output(0, np.array([1, 2]), np.array([1, 3]), rtol=0, atol=None).detail
    'first at (1,): expected 2, got 3'
    """
    validate_tolerance("rtol", rtol)
    validate_tolerance("atol", atol)
    expected, got = np.asarray(expected), np.asarray(got)
    wrong = _wrong_shape(index, expected, got)
    if wrong is not None:
        return wrong
    eps = epsilon(expected.dtype)
    if eps is None:
        return _compare_exactly(index, expected, got)
    e, g = _wide(expected), _wide(got)
    finite, misplaced = _special(e, g)
    scale = _scale(e)
    tolerance = math.sqrt(eps) * scale if atol is None else float(atol)
    diff = _differences(e, g, finite, misplaced)
    with np.errstate(invalid="ignore"):
        bad = (diff > tolerance + rtol * np.abs(np.where(finite, e, 0))) | misplaced
    return _comparison(index, expected, got, diff, bad, scale, tolerance)


def judge_output(
    index: int,
    expected: np.ndarray,
    got: np.ndarray,
    exact: np.ndarray | None,
    *,
    own_errors: np.ndarray | None = None,
    rounding: float = ROUNDING,
    rtol: float = 0.0,
    atol: float | None = None,
) -> OutputComparison:
    """Judges output `index` of the partitioned program (`got`) against the
    exact answer `exact` (the float64 reference) and the unpartitioned
    program's own result `expected` (see the module docstring).

    `own_errors` overrides `|expected - exact|`, element by element (for f64
    outputs); `exact` None (no float64 reference) or `rounding=0` compares
    with `expected` (`compare_output`; without a float64 reference,
    `atol=None` allows half the digits).
    """
    for name, value in (("rounding", rounding), ("rtol", rtol), ("atol", atol)):
        validate_tolerance(name, value)
    expected, got = np.asarray(expected), np.asarray(got)
    wrong = _wrong_shape(index, expected, got)
    if wrong is not None:
        return wrong
    eps = epsilon(expected.dtype)
    if eps is None:
        return _compare_exactly(index, expected, got)
    if exact is None or rounding == 0:
        return compare_output(index, expected, got, rtol=rtol, atol=atol)
    atol = atol or 0.0
    e, g, x = _wide(expected), _wide(got), _wide(np.asarray(exact))
    if x.shape != e.shape:
        raise ShardonnayError(f"output {index}: the float64 reference has shape {x.shape}")
    reference_finite, misplaced = _special(e, g)
    finite = reference_finite & np.isfinite(x)
    x_finite = np.where(finite, x, 0)
    scale = _scale(x_finite)
    with np.errstate(invalid="ignore", over="ignore"):
        own_each = np.abs(e - x) if own_errors is None else np.asarray(own_errors, np.float64)
        own_each = np.where(finite & np.isfinite(own_each), own_each, 0.0)
    own = float(np.max(own_each, initial=0.0))
    budget = rounding * max(own, eps * scale) + atol
    # Where the reference overflows or the exact value is special, specials must agree.
    diff = _differences(np.where(finite, x, e), g, finite | ~reference_finite, misplaced)
    with np.errstate(invalid="ignore"):
        bad = (diff > budget + rtol * np.abs(x_finite)) | misplaced
    # Errors spread over many elements: the RMS may grow half as much as the maximum.
    count = max(int(np.count_nonzero(finite)), 1)
    rms_budget = rounding / 2 * max(_rms(own_each, count), eps * _rms(np.abs(x_finite), count))
    rms = _rms(np.where(finite, diff, 0.0), count)
    if rms > rms_budget + atol:
        with np.errstate(invalid="ignore"):
            bad |= diff > rms_budget + atol + rtol * np.abs(x_finite)
    result = _comparison(index, expected, got, diff, bad, scale, budget, own)
    result = replace(
        result,
        rms_error=rms,
        own_rms_error=_rms(own_each, count),
        rms_tolerance=rms_budget + atol,
    )
    if result.ok:
        return result
    rounding_like = not misplaced.any() and result.max_abs_error <= math.sqrt(eps) * scale
    return replace(result, looks_like_rounding=bool(rounding_like))


def _rms(values: np.ndarray, count: int) -> float:
    with np.errstate(over="ignore", invalid="ignore"):
        return float(np.sqrt(np.sum(np.abs(values) ** 2) / count))


def _wide(array: np.ndarray) -> np.ndarray:
    return array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)


def _scale(array: np.ndarray) -> float:
    finite = np.isfinite(array)
    return float(np.max(np.abs(array[finite]), initial=0.0))


def _differences(
    reference: np.ndarray, got: np.ndarray, finite: np.ndarray, misplaced: np.ndarray
) -> np.ndarray:
    with np.errstate(invalid="ignore", over="ignore"):
        # Equal specials (an empty max's -inf on both sides) are no difference.
        differ = finite & (reference != got)
        diff = np.where(differ, np.abs(reference - got), 0.0).astype(np.float64)
    diff[~np.isfinite(diff)] = np.inf
    diff[misplaced] = np.inf
    return diff


def _compare_exactly(index: int, expected: np.ndarray, got: np.ndarray) -> OutputComparison:
    wide_e, wide_g = expected.astype(np.float64), got.astype(np.float64)
    diff = np.abs(wide_e - wide_g)
    return _comparison(index, expected, got, diff, expected != got, _scale(wide_e), 0.0)


def _comparison(
    index: int,
    expected: np.ndarray,
    got: np.ndarray,
    diff: np.ndarray,
    bad: np.ndarray,
    scale: float,
    tolerance: float,
    own: float | None = None,
) -> OutputComparison:
    max_abs = float(np.max(diff, initial=0.0))
    max_rel = max_abs / scale if scale else (0.0 if max_abs == 0 else math.inf)
    mismatches = int(np.count_nonzero(bad))
    detail = _first(bad, expected, got) if mismatches else ""
    return OutputComparison(
        index,
        tuple(expected.shape),
        str(expected.dtype),
        max_abs,
        max_rel,
        tolerance,
        mismatches,
        detail,
        own,
    )


# -- the float64 reference ---------------------------------------------------------------------


def wide_reference(module, element_type: str = "f64"):
    """A copy of `module` whose float types are `element_type` (complex ones
    `complex<element_type>`), or None when the program depends on the bits of
    a float (`stablehlo.bitcast_convert` of a float). Constants keep their
    written values; conversions between float types round no more.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> m = parse_module('''func.func @main(%a: tensor<2xbf16>) -> tensor<2xbf16> {
    ...   %0 = stablehlo.add %a, %a : tensor<2xbf16>
    ...   return %0 : tensor<2xbf16>
    ... }''')
    >>> print(wide_reference(m).function("main").type)
    (tensor<2xf64>) -> tensor<2xf64>
    """

    def widen(t):
        if not isinstance(t, TensorType):
            return t
        kind = t.dtype.kind
        if kind == "c":
            return t.with_element_type(f"complex<{element_type}>")
        if epsilon(t.dtype) is not None:
            return t.with_element_type(element_type)
        return t

    copy = module.copy()
    ops: list[Op] = [op for f in copy.functions for op in f.op.walk()]
    for op in ops:
        if op.name in _BIT_EXACT and any(
            epsilon(v.type.dtype) is not None
            for v in (*op.operands, *op.results)
            if isinstance(v.type, TensorType)
        ):
            return None
    for f in copy.functions:
        t = f.type
        f.type = FunctionType(tuple(map(widen, t.inputs)), tuple(map(widen, t.results)))
    for op in ops:
        for value in op.results:
            value.type = widen(value.type)
        for region in op.regions:
            for block in region.blocks:
                for value in block.arguments:
                    value.type = widen(value.type)
        function_type = op.attributes.get("function_type")
        if isinstance(function_type, FunctionType) and op.name != "func.func":
            op.attributes["function_type"] = FunctionType(
                tuple(map(widen, function_type.inputs)), tuple(map(widen, function_type.results))
            )
    return copy


def read_npz(path) -> dict[str, np.ndarray]:
    """The arrays of the `.npz` file at `path` (`np.savez` writes one), by name;
    `ShardonnayError` when it cannot be read as one."""
    try:
        data = np.load(path, allow_pickle=False)
    except (ValueError, zipfile.BadZipFile, EOFError) as e:
        raise ShardonnayError(f"{path}: cannot read the inputs: {e}") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ShardonnayError(f"{path}: not an .npz file (np.savez writes one)")
    with data:
        return {name: data[name] for name in data.files}


def main_arguments(module, inputs, *, func: str = "main") -> list:
    """The arguments of `func` from `inputs`: a sequence in argument order, a
    mapping (a loaded `.npz` file) whose keys number the arguments from 0 as
    `np.savez` does (`arr_0`, ...), or as `arg0`, `input0`, ..., or the path
    of such an `.npz` file. Raises `ShardonnayError` naming what is missing
    or left over.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> m = parse_module('''func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
    ...   return %a : tensor<2xf32>
    ... }''')
    >>> main_arguments(m, {"arg0": [1.0, 2.0]})
    [array([1., 2.], dtype=float32)]
    """
    types = module.function(func).type.inputs
    if isinstance(inputs, (str, os.PathLike)):
        inputs = read_npz(inputs)
    if not isinstance(inputs, Mapping):
        values = list(inputs)
        if len(values) != len(types):
            raise ShardonnayError(f"@{func} takes {len(types)} inputs, got {len(values)}")
    else:
        keys = list(inputs.keys())
        values = []
        for prefix in ("arr_", "arg", "input"):
            if f"{prefix}0" in keys or not keys:
                wanted = [f"{prefix}{i}" for i in range(len(types))]
                missing = [k for k in wanted if k not in keys]
                extra = sorted(set(keys) - set(wanted))
                if missing or extra:
                    raise ShardonnayError(
                        f"@{func} takes {len(types)} inputs ({', '.join(wanted)}): "
                        + (f"missing {', '.join(missing)}" if missing else "")
                        + ("; " if missing and extra else "")
                        + (f"unexpected {', '.join(extra)}" if extra else "")
                    )
                values = [inputs[k] for k in wanted]
                break
        else:
            raise ShardonnayError(
                f"the inputs of @{func} are named arr_0, arr_1, ... (as np.savez names "
                f"positional arrays), arg0, ... or input0, ...; got {', '.join(keys) or 'none'}"
            )
    out = []
    for i, (value, t) in enumerate(zip(values, types, strict=True)):
        if not isinstance(t, TensorType):
            out.append(value)
            continue
        array = np.asarray(value)
        if array.shape != t.shape:
            raise ShardonnayError(
                f"input {i} of @{func} has shape {array.shape}, but the argument type is {t}"
            )
        if array.dtype != t.dtype:
            if array.dtype.kind in "fcV" and np.dtype(t.dtype).kind in "iub":
                raise ShardonnayError(
                    f"input {i} of @{func} holds {array.dtype} values for an argument of type {t}"
                )
            array = array.astype(t.dtype)
        out.append(array)
    return out


def scaled_inputs(arguments: Sequence, scale: float) -> list:
    """`arguments` with every float array multiplied by `scale` (in float64,
    then rounded to the array's dtype); others unchanged.

    >>> scaled_inputs([np.array([1.0, -2.0], np.float32), np.array([3])], 0.5)
    [array([ 0.5, -1. ], dtype=float32), array([3])]
    """
    validate_tolerance("input scale", scale)
    out = []
    for a in arguments:
        array = np.asarray(a)
        if epsilon(array.dtype) is None:
            out.append(a)
            continue
        out.append((_wide(array) * scale).astype(array.dtype))
    return out
