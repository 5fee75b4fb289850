"""`dense<...>` element literals <-> numpy arrays, in MLIR's canonical text.

MLIR writes a splat as one element (`dense<0.000000e+00>`), up to 100
elements as nested lists (`dense<[[1, 2], [3, 4]]>`), and more as the hex of
their little-endian bytes (`dense<"0x0000803F...">`, one byte per i1).

`DenseElementsAttr.to_numpy` and `DenseElementsAttr.from_numpy` use them.

>>> import numpy as np
>>> from shardonnay.ir.types import TensorType
>>> body = dense_body(np.array([[1, 2], [3, 4]], np.int32), "i32")
>>> body
'[[1, 2], [3, 4]]'
>>> decode_dense(body, TensorType((2, 2), "i32")).tolist()
[[1, 2], [3, 4]]
>>> dense_body(np.zeros((3, 3), np.float32), "f32")
'0.000000e+00'
"""

from __future__ import annotations

import json
import re

import numpy as np

from shardonnay.errors import ShardonnayError
from shardonnay.ir.floats import float_from_bits, format_float
from shardonnay.ir.types import TensorType, is_complex, is_float, numpy_dtype

HEX_THRESHOLD = 100  # more elements than this print as hex bytes

_TOKEN = re.compile(r"\s*(\[|\]|\(|\)|,|true|false|0x[0-9A-Fa-f]+|[-+]?[0-9.]+(?:[eE][-+]?\d+)?)")

_DECIMAL_LISTS = re.compile(r"[\[\]0-9.,eE+\-\s]*")


def decode_dense(body: str, type: TensorType) -> np.ndarray:
    """The array that `dense<body> : type` denotes."""
    dtype = numpy_dtype(type.element_type)
    body = body.strip()
    if body.startswith('"'):
        raw = bytes.fromhex(body.strip('"')[2:])
        flat = np.frombuffer(raw, dtype=np.uint8 if dtype == np.bool_ else dtype)
        if flat.size == 1 and type.num_elements != 1:  # a hex splat
            return np.full(type.shape, flat[0], dtype=dtype)
        return flat.astype(dtype).reshape(type.shape)
    if not body:
        return np.zeros(type.shape, dtype=dtype)
    try:  # the common case, nested lists of decimal numbers, is JSON
        if _DECIMAL_LISTS.fullmatch(body) is None:
            raise ValueError(body)
        # (integers of a float type read as floats: `-0` is -0.0)
        values = json.loads(body, parse_int=float if is_float(type.element_type) else int)
    except ValueError:
        values = _parse_nested(body, type.element_type)
    array = np.array(values, dtype=dtype)
    if array.shape != type.shape:
        if array.ndim == 0 or array.size == 1:
            return np.full(type.shape, array.reshape(()), dtype=dtype)
        raise ShardonnayError(f"dense literal of shape {array.shape} for {type}")
    return array


def dense_body(array: np.ndarray, element_type: str) -> str:
    """The canonical text of `array`'s elements (of `element_type`) between
    `dense<` and `>`: a splat, nested lists, or hex bytes past `HEX_THRESHOLD`."""
    if array.size == 0:
        return ""
    flat = array.reshape(-1)
    if np.all(_same_bits(flat, flat[0])):
        return _element(flat[0], element_type)
    if array.size > HEX_THRESHOLD:
        data = array.astype(np.uint8) if element_type == "i1" else array
        return '"0x' + np.ascontiguousarray(data).tobytes().hex().upper() + '"'
    return _nested(array, element_type)


def _same_bits(flat: np.ndarray, first) -> np.ndarray:
    if flat.dtype.kind in "fc":
        return (
            flat.view(np.uint8)
            .reshape(flat.size, -1)
            .__eq__(np.asarray(first).reshape(1).view(np.uint8).reshape(1, -1))
            .all(axis=1)
        )
    return flat == first


def _nested(array: np.ndarray, element_type: str) -> str:
    if array.dtype.kind in "iu":  # Python's list text is MLIR's for integers
        return str(array.tolist())
    if array.ndim == 0:
        return _element(array[()], element_type)
    return "[" + ", ".join(_nested(sub, element_type) for sub in array) + "]"


def _element(value, element_type: str) -> str:
    if element_type == "i1":
        return "true" if value else "false"
    if is_complex(element_type):
        part = "f32" if element_type == "complex<f32>" else "f64"
        return f"({format_float(value.real, part)},{format_float(value.imag, part)})"
    if is_float(element_type):
        return format_float(float(value), element_type)
    return str(int(value))


def _parse_nested(body: str, element_type: str):
    pos = 0
    tokens = []
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if m is None:
            if body[pos:].strip() == "":
                break
            raise ShardonnayError(f"bad dense literal near {body[pos : pos + 20]!r}")
        tokens.append(m.group(1))
        pos = m.end()
    it = iter(tokens)
    part = "f64" if element_type == "complex<f64>" else "f32"

    def scalar(tok: str, ty: str):
        if tok == "true":
            return True
        if tok == "false":
            return False
        if tok.startswith("0x"):
            return float_from_bits(int(tok, 16), ty) if is_float(ty) else int(tok, 16)
        return float(tok) if is_float(ty) or "." in tok or "e" in tok else int(tok)

    def value(tok: str):
        if tok == "[":
            items = []
            tok = next(it)
            while tok != "]":
                if tok != ",":
                    items.append(value(tok))
                tok = next(it)
            return items
        if tok == "(":
            re_, _, im, _ = next(it), next(it), next(it), next(it)
            return complex(scalar(re_, part), scalar(im, part))
        return scalar(tok, element_type)

    return value(next(it))


__all__ = ["decode_dense", "dense_body"]
