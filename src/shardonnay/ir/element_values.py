"""The special values of every element type: the lowest and highest, the
identity of each reduction (`identity`) and the poison that marks padding.

numpy describes a dtype by its `kind` ('f' float, 'c' complex, 'i'/'u'
integers, 'b' bool), but `ml_dtypes.bfloat16`, which holds `bf16`, has kind
'V' (an opaque void), so `np.iinfo`/`np.finfo` and kind tests fail on it.
`value_kind` gives every element type the reader accepts its real kind, and
the functions below build on it.

>>> import ml_dtypes
>>> bf16 = np.dtype(ml_dtypes.bfloat16)
>>> bf16.kind, value_kind(bf16)
('V', 'f')
>>> lowest(bf16), highest(np.dtype(np.int8)), lowest(np.dtype(np.complex64))
(-inf, 127, (-inf-infj))
>>> poison(bf16), poison(np.dtype(np.uint8)), poison(np.dtype(np.bool_))
(nan, 85, True)
>>> identity("and", np.dtype(np.uint8)), identity("sum", np.dtype(np.float32))
(np.uint8(255), np.float32(-0.0))
"""

from __future__ import annotations

import numpy as np

__all__ = ["highest", "identity", "lowest", "poison", "value_kind"]


def value_kind(dtype: np.dtype) -> str:
    """'b', 'i', 'u', 'f' or 'c': the kind of the values `dtype` holds
    (`np.dtype.kind`, with ml_dtypes' floats such as bfloat16 as 'f')."""
    dtype = np.dtype(dtype)
    if dtype.kind != "V":
        return dtype.kind
    try:
        import ml_dtypes

        ml_dtypes.finfo(dtype)
    except (ImportError, TypeError, ValueError):
        return dtype.kind
    return "f"


def lowest(dtype: np.dtype):
    """The smallest value of `dtype`, the identity of `maximum`: -inf for
    floats, `-inf - inf j` for complex numbers (ordered lexicographically, as
    `stablehlo.maximum` orders them), the minimum integer, False."""
    kind = value_kind(dtype)
    if kind == "b":
        return False
    if kind == "f":
        return -np.inf
    if kind == "c":
        return complex(-np.inf, -np.inf)
    return int(np.iinfo(dtype).min)


def highest(dtype: np.dtype):
    """The largest value of `dtype`, the identity of `minimum` (see `lowest`)."""
    kind = value_kind(dtype)
    if kind == "b":
        return True
    if kind == "f":
        return np.inf
    if kind == "c":
        return complex(np.inf, np.inf)
    return int(np.iinfo(dtype).max)


def poison(dtype: np.dtype):
    """A value that shows wherever it reaches a result: NaN for floats and
    complex numbers, True for booleans, a third of the largest integer (large,
    yet far enough from overflow that sums of a few stay recognisable)."""
    kind = value_kind(dtype)
    if kind in "fc":
        return np.nan
    if kind == "b":
        return True
    return int(np.iinfo(dtype).max) // 3


def identity(reduction: str, dtype) -> np.generic:
    """The value `e` of `dtype` that reduction `reduction` ("sum", "product",
    "max", "min", "and", "or", "xor": the names of Shardy's reductions and of
    `shardonnay.ops.traits.Combiner`) leaves every `x` alone with: `combine(e, x) == x`, bit for
    bit. For a float sum it is `-0.0`, the one zero that keeps the sign of
    every `x` (`-0.0 + 0.0` is `0.0`, `-0.0 + -0.0` is `-0.0`); for `and` all
    bits set (`-1`, `255` for `ui8`, True); for a maximum (minimum) the lowest
    (highest) value. `ValueError` where there is none (`and` on floats).

    >>> import ml_dtypes
    >>> [float(identity(k, np.dtype(ml_dtypes.bfloat16))) for k in ("sum", "max", "product")]
    [-0.0, -inf, 1.0]
    >>> identity("and", np.dtype(np.int32)), identity("max", np.dtype(np.complex64))
    (np.int32(-1), np.complex64(-inf-infj))
    """
    dtype = np.dtype(dtype)
    kind = value_kind(dtype)
    if reduction == "sum":
        return _of(dtype, complex(-0.0, -0.0) if kind == "c" else -0.0 if kind == "f" else 0)
    if reduction in ("or", "xor"):
        return _of(dtype, 0)
    if reduction == "product":
        return _of(dtype, 1)
    if reduction == "and" and kind in "biu":
        return np.True_ if kind == "b" else ~dtype.type(0)
    if reduction == "max":
        return _of(dtype, lowest(dtype))
    if reduction == "min":
        return _of(dtype, highest(dtype))
    raise ValueError(f"a reduction of kind {reduction!r} has no identity on {dtype}")


def _of(dtype: np.dtype, value) -> np.generic:
    """`value` as a scalar of `dtype`."""
    return np.array(value).astype(dtype)[()]
