"""Reads the body of a `dense<...>` literal as MLIR does: what cannot be a
value of the tensor type is an error with MLIR's own message, and big
literals are read by numpy, not element by element.

`canonical_dense_body(body, type)` checks `body` against `type` and returns
the text MLIR prints for it (a splat as one element, at most 100 elements as
nested lists, more as the hex of their bytes). A splat is never expanded:
`dense<1.0> : tensor<65536x65536xf32>` costs one element.

>>> from shardonnay.ir.types import TensorType
>>> canonical_dense_body("[1, 2, 3]", TensorType((3,), "i8"))
'[1, 2, 3]'
>>> canonical_dense_body("1.0", TensorType((65536, 65536), "f32"))
'1.000000e+00'
>>> canonical_dense_body("[300, -129]", TensorType((2,), "i8"))
Traceback (most recent call last):
...
shardonnay.syntax.dense_literal.DenseLiteralError: integer constant out of range for type
>>> canonical_dense_body("[1.0, 2.0]", TensorType((3,), "f32"))
Traceback (most recent call last):
...
shardonnay.syntax.dense_literal.DenseLiteralError: inferred shape of elements literal ([2]) \
does not match type ([3])

Element types without a numpy dtype (`f8E4M3FN`, `i4`, ...) are kept as
written.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from shardonnay.errors import ShardonnayError
from shardonnay.ir.dense import HEX_THRESHOLD, dense_body
from shardonnay.ir.types import TensorType, is_complex, is_float, numpy_dtype

__all__ = ["DenseLiteralError", "canonical_dense_body", "read_dense_literal"]


class DenseLiteralError(ShardonnayError):
    """A literal that is no value of its type; `offset` is where, in the body."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.message = message
        self.offset = offset


_NOT_STRUCTURE = bytes(set(range(128)) - set(b"[],"))  # deleted to leave the structure
_EMPTY_LIST = re.compile(r"\[\s*\]")
_TOKEN = re.compile(r"\s*(\[|\]|,|\(|\)|[^\s\[\](),]+)")
_DECIMAL_INT = re.compile(r"[-+]?[0-9]+")
_HEX_INT = re.compile(r"-?0x[0-9A-Fa-f]+")
_FLOAT = re.compile(r"[-+]?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?")
_COMPLEX = re.compile(r"\(\s*([^\s,()]+)\s*,\s*([^\s,()]+)\s*\)")
_NEGATIVE_UNSIGNED = "expected unsigned integer elements, but parsed negative value"
_FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def canonical_dense_body(body: str, type: TensorType) -> str:
    """The text MLIR prints between `dense<` and `>` for `body` of `type`
    (`DenseLiteralError` where it is no value of `type`)."""
    try:
        dtype = numpy_dtype(type.element_type)
    except ShardonnayError:
        return body  # an element type shardonnay does not compute with: kept as written
    stripped = body.strip()
    if stripped.startswith('"'):
        return _hex_body(stripped, type, dtype, body.index('"'))
    if not stripped:
        if type.num_elements:
            raise DenseLiteralError(
                f"parsed zero elements, but type ('{type}') expected at least 1"
            )
        return ""
    if "[" not in stripped:  # a splat: one element, never expanded
        value = _elements(stripped, [stripped], [body.index(stripped[0])], type, dtype)
        return dense_body(value.reshape(()), type.element_type)  # kept for 0 elements too
    array = read_dense_literal(body, type)
    return dense_body(array, type.element_type)


def read_dense_literal(body: str, type: TensorType) -> np.ndarray:
    """The array of a list literal (`[[1, 2], [3, 4]]`) of `type`, checked."""
    dtype = numpy_dtype(type.element_type)
    if is_complex(type.element_type) or "(" in body or not body.isascii():
        return _read_slowly(body, type, dtype)
    skeleton = body.encode().translate(None, _NOT_STRUCTURE).decode()
    # Each element takes a character: a type of more elements cannot match (nor be spelled out).
    if type.num_elements > len(body) or skeleton != _skeleton(type.shape):
        inferred = _inferred_shape(skeleton)
        if inferred is None or _EMPTY_LIST.search(body) or _skeleton(inferred) != skeleton:
            return _read_slowly(body, type, dtype)  # names the first irregular place
        raise DenseLiteralError(
            f"inferred shape of elements literal ([{', '.join(map(str, inferred))}]) does not "
            f"match type ([{', '.join(map(str, type.shape))}])",
            len(body) - len(body.lstrip()),
        )
    values = _read_quickly(body, type, dtype)
    if values is None:  # something numpy's reader does not take: read it token by token
        error = _first_bad_element(body, type, dtype)
        if error is not None:
            raise error
        return _read_slowly(body, type, dtype)
    return values.reshape(type.shape)


def _first_bad_element(body: str, type: TensorType, dtype: np.dtype) -> DenseLiteralError | None:
    """The error `_read_slowly` gives for a literal of the structure of
    `type` (the caller checked its brackets and commas) whose first bad
    element is no value of the type, found by regexes rather than element by
    element; None where every element is good or a token is out of place
    (`_read_slowly` reads those, and names the first structural error).

    Runs of elements that `_certainly_good` matches are skipped at the speed
    of the regex engine; each other element is checked as `_read_slowly`
    checks it."""
    if ")" in body or _shape_of(body) != _skeleton(type.shape, "a"):
        return None
    scalar = _scalar_reader(type, dtype)
    good_run = _good_run(type.element_type)
    pos = good_run.match(body).end()
    while pos < len(body):
        token = _TOKEN.match(body, pos)
        try:
            scalar(token.group(1))
        except _BadToken as e:
            return DenseLiteralError(str(e), token.start(1))
        pos = good_run.match(body, token.end()).end()
    return None


def _shape_of(body: str) -> str:
    """`body` (an ASCII list literal without parentheses) with each element
    token an `a` and no white space: `[a,a]` for `[1.0, 2.5]`, `[aa,a]` for
    `[1.0 2.0, 3.0]`. It is `_skeleton(shape, "a")` exactly where every item
    of the literal is one element or one list, as in a literal of `shape`."""
    marks = np.frombuffer(body.encode().translate(_SHAPE_OF), dtype=np.uint8)
    token = marks == ord("a")
    keep = marks != ord(" ")
    keep[1:] &= ~(token[1:] & token[:-1])  # a token's first character stands for it
    return marks[keep].tobytes().decode()


_SHAPE_OF = bytes(
    c if chr(c) in "[]," else ord(" ") if chr(c).isspace() else ord("a") for c in range(256)
)


@functools.cache
def _good_run(element: str) -> re.Pattern[str]:
    """The longest run of brackets, commas, white space and whole elements
    that `_certainly_good(element)` matches."""
    good = _certainly_good(element)
    return re.compile(rf"(?:[\s\[\],]|(?:{good})(?=[\s\],]))*+")


def _certainly_good(element: str) -> str:
    """A regex of elements that are surely values of `element` (a float
    literal; an integer of few enough digits to fit), not of all of them."""
    if element == "i1":
        return r"true|false|[-+]?[01]"
    if is_float(element):
        return _FLOAT.pattern
    width = int(element.lstrip("sui"))
    if element.startswith("ui"):
        return rf"\+?(?:{_at_most(2**width - 1)})"
    high = 2 ** (width - 1) - 1 if element.startswith("si") else 2**width - 1
    return rf"\+?(?:{_at_most(high)})|-(?:{_at_most(2 ** (width - 1))})"


def _at_most(bound: int) -> str:
    """A regex of decimal numbers surely at most `bound`: those of fewer
    digits, and those of as many whose first digit is smaller."""
    digits = str(bound)
    shorter = f"[0-9]{{1,{len(digits) - 1}}}" if len(digits) > 1 else "(?!)"
    if digits[0] == "1":
        return shorter
    return f"[1-{int(digits[0]) - 1}][0-9]{{{len(digits) - 1}}}|{shorter}"


def _read_quickly(body: str, type: TensorType, dtype: np.dtype) -> np.ndarray | None:
    """The elements of a literal of the right structure, read by numpy, or
    None where the text needs the careful reader (hex, booleans, anything odd)."""
    element, n = type.element_type, type.num_elements
    if not n or "x" in body or element == "i1" or _EMPTY_LIST.search(body):
        return None
    flat = body.replace("[", " ").replace("]", " ")
    if is_float(element):
        if body.count(".") != n:  # MLIR's float literals have exactly one '.'
            return None
        values = _numbers(flat, np.float64, n)
        if values is None:
            return None
        with np.errstate(over="ignore"):
            return values.astype(dtype)
    if "." in body or "e" in body or "E" in body:
        return None
    values = _numbers(flat, np.int64, n)
    if values is None:
        return None
    bounds = np.iinfo(np.int64)
    if values.max() == bounds.max or values.min() == bounds.min:
        return None  # numpy saturates what does not fit an int64: read those exactly
    width = int(element.lstrip("sui"))
    if element.startswith("ui"):
        low, high = 0, (1 << width) - 1
    else:
        low, high = -(1 << (width - 1)), (1 << width) - 1
    if n and (values.min() < low or (width < 64 and values.max() > high)):
        return None  # the careful reader says which element and why
    return values.astype(dtype)


def _numbers(flat: str, dtype: type, n: int) -> np.ndarray | None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            values = np.fromstring(flat, dtype=dtype, sep=",")
        except (ValueError, DeprecationWarning):
            return None
    return values if values.size == n else None


def _skeleton(shape: tuple[int, ...], element: str = "") -> str:
    """The brackets and commas of a list literal of `shape`, each element
    written `element`: `[[,],[,]]` for (2, 2), `[[a,a],[a,a]]` with `a`."""
    text = element
    for d in reversed(shape):
        text = "[" + ",".join([text] * d) + "]"
    return text


def _inferred_shape(skeleton: str) -> tuple[int, ...] | None:
    """The shape of `skeleton` if it is regular, read from its first lists
    (a list `[]` is taken to hold one element)."""
    rank = len(skeleton) - len(skeleton.lstrip("["))
    if rank == 0:
        return None
    shape: list[int] = []
    brackets = 1  # '[' in one list of the level below
    for level in range(rank):
        end = skeleton.find("]" * (level + 1))
        if end < 0:
            return None
        if level == 0:
            d = end - rank + 1
        else:
            d = (skeleton.count("[", rank - level - 1, end) - 1) // brackets
            brackets = 1 + d * brackets
        shape.append(d)
    return tuple(reversed(shape))


def _read_slowly(body: str, type: TensorType, dtype: np.dtype) -> np.ndarray:
    """Token by token, with the position of the first error."""
    frames: list[list] = []  # per open '[': [number of items, shape of the first item]
    tokens: list[str] = []
    offsets: list[int] = []
    top: tuple[int, ...] | None = None
    expect_item = True
    pos = 0

    def add_item(shape: tuple[int, ...], at: int) -> None:
        frame = frames[-1]
        if frame[0] and frame[1] != shape:
            raise DenseLiteralError(
                "tensor literal is invalid; ranks are not consistent between elements", at
            )
        frame[0] += 1
        frame[1] = shape

    while True:
        m = _TOKEN.match(body, pos)
        if m is None:
            break
        tok, start = m.group(1), m.start(1)
        pos = m.end()
        if top is not None or (not frames and tokens):
            raise DenseLiteralError("unexpected text after the literal", start)
        if tok == "]":
            if not frames or (expect_item and frames[-1][0]):
                message = "expected an element" if frames else "unbalanced ']'"
                raise DenseLiteralError(message, start)
            count, inner = frames.pop()
            shape = (count, *(inner or ()))
            if frames:
                add_item(shape, start)
            else:
                top = shape
            expect_item = False
            continue
        if tok == ",":
            if expect_item or not frames:
                raise DenseLiteralError("expected an element", start)
            expect_item = True
            continue
        if not expect_item:
            raise DenseLiteralError("expected ',' or ']'", start)
        if tok == "[":
            frames.append([0, None])
            continue
        if tok == "(":
            complex_match = _COMPLEX.match(body, start)
            if complex_match is None:
                raise DenseLiteralError("expected '(real, imaginary)'", start)
            tok, pos = complex_match.group(), complex_match.end()
        tokens.append(tok)
        offsets.append(start)
        if frames:
            add_item((), start)
        expect_item = False
    if frames:
        raise DenseLiteralError("unclosed '['", len(body))
    if body[pos:].strip():
        raise DenseLiteralError("unexpected text in the literal", pos)
    if top is None:
        raise DenseLiteralError("expected a list of elements", 0)
    if top != type.shape:
        raise DenseLiteralError(
            f"inferred shape of elements literal ([{', '.join(map(str, top))}]) does not "
            f"match type ([{', '.join(map(str, type.shape))}])",
            len(body) - len(body.lstrip()),
        )
    return _elements(body, tokens, offsets, type, dtype).reshape(type.shape)


def _elements(
    body: str, tokens: list[str], offsets: list[int] | None, type: TensorType, dtype: np.dtype
) -> np.ndarray:
    """The values of `tokens` as a flat array of `dtype`, each checked against
    the element type in order (MLIR's messages); `offsets` (None: found on
    demand) say where each token is."""
    element = type.element_type
    scalar = _scalar_reader(type, dtype)
    values = []
    for i, tok in enumerate(tokens):
        try:
            values.append(scalar(tok))
        except _BadToken as e:
            if offsets is not None:
                raise DenseLiteralError(str(e), offsets[i]) from None
            found = re.search(rf"(?<![\w.+-]){re.escape(tok)}(?![\w.])", body)
            raise DenseLiteralError(str(e), found.start() if found else 0) from None
    if element == "i1" or is_complex(element) or is_float(element):
        return np.array(values, dtype=dtype).reshape(len(values))
    return np.array(values, dtype=np.uint64).astype(dtype)


def _scalar_reader(type: TensorType, dtype: np.dtype) -> Callable[[str], Any]:
    """The function from an element's text to its value (`_BadToken` where
    it is no value of the element type)."""
    element = type.element_type
    if is_complex(element):
        return _complex_scalar("f64" if element == "complex<f64>" else "f32")
    if element == "i1":
        return _bool_scalar
    if is_float(element):
        return _float_scalar(element, dtype)
    return _int_scalar(element)


class _BadToken(Exception):
    """An element that cannot be a value of the element type (the message is MLIR's)."""


def _check_not_bool(tok: str) -> None:
    if tok in ("true", "false"):
        raise _BadToken("expected i1 type for 'true' or 'false' values")


def _bool_scalar(tok: str) -> bool:
    """`true`, `false`, or an integer that fits one bit (signless: -1, 0, 1)."""
    if tok in ("true", "false"):
        return tok == "true"
    if _HEX_INT.fullmatch(tok) or _DECIMAL_INT.fullmatch(tok):
        value = int(tok, 16) if "x" in tok else int(tok)
        if not -1 <= value <= 1:
            raise _BadToken("integer constant out of range for type")
        return value != 0
    raise _BadToken("expected integer elements, but parsed floating-point")


def _int_scalar(element: str):
    width = int(element.lstrip("sui"))
    unsigned = element.startswith("ui")
    low = 0 if unsigned else -(1 << (width - 1))
    high = (1 << (width - 1)) - 1 if element.startswith("si") else (1 << width) - 1
    mask = (1 << width) - 1

    def scalar(tok: str) -> int:
        _check_not_bool(tok)
        if unsigned and tok.startswith("-"):
            raise _BadToken(_NEGATIVE_UNSIGNED)
        if _HEX_INT.fullmatch(tok):
            value = int(tok, 16)
        elif _DECIMAL_INT.fullmatch(tok):
            value = int(tok)
        elif _FLOAT.fullmatch(tok):
            raise _BadToken("expected integer elements, but parsed floating-point")
        else:
            raise _BadToken(f"expected an integer element, found '{tok[:20]}'")
        if unsigned and value < 0:
            raise _BadToken(_NEGATIVE_UNSIGNED)
        if not low <= value <= high:
            raise _BadToken("integer constant out of range for type")
        return value & mask  # the bits; the array's dtype reads them signed or not

    return scalar


def _float_scalar(element: str, dtype: np.dtype):
    width = _FLOAT_BITS[element]
    bits_dtype = np.dtype(f"uint{width}")

    def scalar(tok: str):
        if tok in ("true", "false"):
            raise _BadToken("expected floating point literal")
        if _FLOAT.fullmatch(tok):
            with np.errstate(over="ignore"):
                return dtype.type(float(tok))
        if _HEX_INT.fullmatch(tok):
            if tok.startswith("-"):
                raise _BadToken("hexadecimal float literal should not have a leading minus")
            bits = int(tok, 16)
            if bits.bit_length() > width:
                raise _BadToken("hexadecimal float constant out of range for type")
            return np.array(bits, dtype=bits_dtype).view(dtype)[()]  # keeps a NaN's payload
        if _DECIMAL_INT.fullmatch(tok):
            raise _BadToken(
                "unexpected decimal integer literal for a floating point value "
                "(add a trailing dot to make the literal a float)"
            )
        raise _BadToken(f"expected a floating point literal, found '{tok[:20]}'")

    return scalar


def _complex_scalar(part: str):
    real = _float_scalar(part, numpy_dtype(part))

    def scalar(tok: str) -> complex:
        m = _COMPLEX.fullmatch(tok)
        if m is None:
            raise _BadToken("expected '(real, imaginary)' for a complex element")
        return complex(float(real(m.group(1))), float(real(m.group(2))))

    return scalar


def _hex_body(body: str, type: TensorType, dtype: np.dtype, offset: int) -> str:
    """`"0x..."`: the bytes of every element, or of one (a splat)."""
    if not re.fullmatch(r'"0x(?:[0-9A-Fa-f]{2})*"', body):
        raise DenseLiteralError('expected a hex string of whole bytes: "0x..."', offset)
    size = 1 if type.element_type == "i1" else dtype.itemsize
    nbytes = (len(body) - 4) // 2
    if nbytes == size * type.num_elements:
        if type.num_elements > HEX_THRESHOLD:
            return body  # already canonical; a splat written out in full stays as written
        raw = bytes.fromhex(body[3:-1])
        flat = np.frombuffer(raw, dtype=np.uint8 if dtype == np.bool_ else dtype)
        return dense_body(flat.astype(dtype).reshape(type.shape), type.element_type)
    if nbytes == size:  # a splat
        raw = bytes.fromhex(body[3:-1])
        value = np.frombuffer(raw, dtype=np.uint8 if dtype == np.bool_ else dtype).astype(dtype)
        return dense_body(value.reshape(()), type.element_type)
    raise DenseLiteralError(
        f"elements hex data size is invalid for provided type: '{type}'", offset
    )
