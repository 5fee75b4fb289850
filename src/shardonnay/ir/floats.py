"""Floating-point literals exactly as MLIR prints them.

MLIR writes a float in exponential form with six decimals when that text
reads back to the same value (`1.000000e-01`), else with the type's natural
number of significant digits (`0.333333343`, `9.99999997E-7`), and as the hex
of its bits when neither works (NaN, infinities, `0x4996B438` for 1234567.0
in f32, whose natural form has no '.').

>>> format_float(0.1, "f32"), format_float(1 / 3, "f32"), format_float(1e-6, "f32")
('1.000000e-01', '0.333333343', '9.99999997E-7')
>>> format_float(float("-inf"), "f32"), format_float(1234567.0, "f32")
('0xFF800000', '0x4996B438')
"""

from __future__ import annotations

import math

import numpy as np

# Significand bits (with the implicit one) and total bits of each float type.
_FORMATS = {"f16": (11, 16), "bf16": (8, 16), "f32": (24, 32), "f64": (53, 64)}
# The numpy float type and the unsigned type of its bits (bf16, which numpy
# lacks, is the top half of an f32).
_FLOAT_AND_BITS_DTYPES = {
    "f16": (np.float16, np.uint16),
    "f32": (np.float32, np.uint32),
    "f64": (np.float64, np.uint64),
}


def format_float(value: float, element_type: str = "f32") -> str:
    precision, _width = _FORMATS[element_type]
    value = round_to_type(value, element_type)
    if np.isfinite(value):
        text = _to_string(value, 6, 0, truncate_zero=False)
        if round_to_type(float(text), element_type) == value and _same_sign(text, value):
            return text
        text = _to_string(value, 2 + precision * 59 // 196, 3, truncate_zero=True)
        if "." in text:
            return text
    return "0x" + format(float_bits(value, element_type), "X")


def round_to_type(value: float, element_type: str) -> float:
    """`value` rounded to the nearest number of `element_type`."""
    if element_type == "f64":
        return float(value)
    if element_type == "bf16":
        import ml_dtypes

        return float(np.array(value, dtype=ml_dtypes.bfloat16))
    return float(np.array(value, dtype={"f16": np.float16, "f32": np.float32}[element_type]))


def float_bits(value: float, element_type: str) -> int:
    """The IEEE bit pattern of `value` in `element_type`."""
    if element_type == "bf16":
        return int(np.array(value, dtype=np.float32).view(np.uint32)) >> 16
    dtype, int_type = _FLOAT_AND_BITS_DTYPES[element_type]
    return int(np.array(value, dtype=dtype).view(int_type))


def float_from_bits(bits: int, element_type: str) -> float:
    if element_type == "bf16":
        return float(np.array(bits << 16, dtype=np.uint32).view(np.float32))
    dtype, int_type = _FLOAT_AND_BITS_DTYPES[element_type]
    return float(np.array(bits, dtype=int_type).view(dtype))


def _same_sign(text: str, value: float) -> bool:
    return text.startswith("-") == bool(np.signbit(value))


def _to_string(value: float, digits: int, max_padding: int, *, truncate_zero: bool) -> str:
    """LLVM's `APFloat::toString(FormatPrecision=digits, FormatMaxPadding=max_padding)`,
    step by step: the exact decimal value, digits removed by truncating
    division, then one round-half-up to `digits` significant digits."""
    negative = bool(np.signbit(value))
    sign = "-" if negative else ""
    if value == 0:
        if truncate_zero:
            return sign + "0.0E+0"
        return sign + "0.0" + "0" * (digits - 1) + "e+00"
    mantissa, exp2 = math.frexp(abs(value))
    significand, exp = int(mantissa * (1 << 64)), exp2 - 64
    while significand % 2 == 0:
        significand //= 2
        exp += 1
    if exp > 0:
        significand <<= exp
        exp = 0
    elif exp < 0:
        significand *= 5 ** (-exp)
    # Truncate the digits that are certainly beyond the precision.
    bits_required = (digits * 196 + 58) // 59
    bits = significand.bit_length()
    if bits > bits_required:
        removable = (bits - bits_required) * 59 // 196
        if removable:
            exp += removable
            significand //= 10**removable
    text = str(significand)
    stripped = text.rstrip("0")
    exp += len(text) - len(stripped)
    text = stripped
    # Round half up to `digits` digits.
    if len(text) > digits:
        first_dropped = text[digits]
        exp += len(text) - digits
        text = text[:digits]
        if first_dropped >= "5":
            rounded = str(int(text) + 1)
            if len(rounded) > len(text):
                exp += 1
                rounded = rounded[:-1]
            text = rounded
        stripped = text.rstrip("0")
        exp += len(text) - len(stripped)
        text = stripped
    n = len(text)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or n + exp > digits
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        exp += n - 1
        body = text[0] + "." + ("0" if n == 1 and truncate_zero else text[1:])
        if not truncate_zero and digits > n - 1:
            body += "0" * (digits - n + 1)
        exponent = str(abs(exp))
        if not truncate_zero:
            exponent = exponent.rjust(2, "0")
        return f"{sign}{body}{'E' if truncate_zero else 'e'}{'+' if exp >= 0 else '-'}{exponent}"
    if exp >= 0:
        return sign + text + "0" * exp
    whole = exp + n
    if whole > 0:
        return sign + text[:whole] + "." + text[whole:]
    return sign + "0." + "0" * (-whole) + text
