"""`TensorType` compares and hashes by its text: the same answers as comparing
its fields (shape, element type, encoding), on types that differ in each."""

from __future__ import annotations

import itertools

from shardonnay.ir.types import TensorType, parse_type

_SHAPES = [(), (1,), (2,), (12,), (1, 2), (2, 1), (21,), (2, 12), (12, 2)]
_ELEMENTS = ["f32", "bf16", "i1", "i32", "complex<f32>"]
_ENCODINGS = [None, '#sdy<"x">', "#enc"]


def test_equal_and_hash_as_the_fields() -> None:
    types = [TensorType(s, e, c) for s, e, c in itertools.product(_SHAPES, _ELEMENTS, _ENCODINGS)]
    for a, b in itertools.product(types, repeat=2):
        same = (a.shape, a.element_type, a.encoding) == (b.shape, b.element_type, b.encoding)
        assert (a == b) is same
        assert (a != b) is not same
        if same:
            assert hash(a) == hash(b)


def test_a_parsed_type_equals_a_built_one() -> None:
    built = TensorType((2, 12), "f32")
    assert parse_type("tensor<2x12xf32>") == built
    assert {built: 1}[parse_type("tensor<2x12xf32>")] == 1
    assert built != "tensor<2x12xf32>"  # (its text, but not a type)
