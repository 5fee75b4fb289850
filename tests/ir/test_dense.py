"""`dense<...>` bodies <-> numpy arrays (`shardonnay.ir.dense`): every array
prints and reads back bit for bit, and the fast paths (Python's list text for
integers, JSON for decimal lists) agree with the element-by-element ones."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from shardonnay.ir import dense
from shardonnay.ir.types import TensorType

DTYPES = {"i8": np.int8, "i32": np.int32, "i64": np.int64, "ui16": np.uint16, "f32": np.float32}


@pytest.mark.parametrize("element_type", sorted(DTYPES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_arrays_round_trip_bit_for_bit(element_type: str, data) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=5))
    array = data.draw(hnp.arrays(DTYPES[element_type], shape))
    body = dense.dense_body(array, element_type)
    back = dense.decode_dense(body, TensorType(shape, element_type))
    assert back.dtype == array.dtype
    assert back.tobytes() == array.tobytes(), body


@settings(max_examples=100, deadline=None)
@given(hnp.arrays(np.int64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4)))
def test_integer_lists_print_as_element_by_element(array: np.ndarray) -> None:
    def slow(a) -> str:
        if np.ndim(a) == 0:
            return dense._element(a[()], "i64")
        return "[" + ", ".join(slow(sub) for sub in a) + "]"

    assert dense._nested(array, "i64") == slow(array)


@pytest.mark.parametrize(
    ("body", "element_type"),
    [("[-0, 1]", "f32"), ("[1.5e0, -2]", "f64"), ("[[1, 2], [3, 4]]", "i32"), ("[7, -8]", "i8")],
)
def test_decimal_lists_read_as_element_by_element(body: str, element_type: str) -> None:
    values = np.array(dense._parse_nested(body, element_type), DTYPES.get(element_type, np.float64))
    type = TensorType(values.shape, element_type)
    assert dense.decode_dense(body, type).tobytes() == values.astype(type.dtype).tobytes()
