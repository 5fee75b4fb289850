"""The special values of every element type: the lowest and highest (the
identities of `maximum` and `minimum`) and the poison that marks padding.

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
"""

from __future__ import annotations

import numpy as np

__all__ = ["highest", "lowest", "poison", "value_kind"]


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
