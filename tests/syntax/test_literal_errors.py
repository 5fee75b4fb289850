"""The first bad element of a big list literal is found by regexes, not
element by element: the error (message and offset) and the values must be
those of the element-by-element reader, which these tests run side by side
on seeded random literals, well-formed and not."""

from __future__ import annotations

import random

import numpy as np
import pytest

from shardonnay.ir.types import TensorType
from shardonnay.syntax import dense_literal
from shardonnay.syntax.dense_literal import DenseLiteralError, read_dense_literal

ELEMENTS = ("i1", "i8", "ui8", "i16", "i32", "ui32", "i64", "ui64", "f16", "f32", "f64")
TOKENS = (
    *("0", "1", "-1", "7", "+5", "-0", "007", "99", "100", "127", "128", "-128", "-129"),
    *("199", "200", "255", "256", "65535", "65536", "2147483647", "2147483648", "-2147483649"),
    *("4294967295", "4294967296", "9223372036854775807", "18446744073709551616"),
    *("0x1F", "-0x1", "0xFFFFFFFFFFFFFFFFF", "true", "false"),
    *("1.5", "1.", "-2.5e+03", "3.0E-2", "1e5", "1.0.0", "1.5q", "abc", "-", "+", "nan", "inf"),
)


def _read(body: str, type: TensorType):
    try:
        return ("value", read_dense_literal(body, type).tolist())
    except DenseLiteralError as e:
        return ("error", e.message, e.offset)


def _mutate(body: str, rng: random.Random) -> str:
    """`body` with one structural fault (or none, or odd white space)."""
    kind = rng.randrange(8)
    spots = [i for i, c in enumerate(body) if c in "[],"]
    at = rng.choice(spots)
    if kind == 0:
        return body[:at] + rng.choice([" ", "\n\t", "  "]) + body[at:]
    if kind == 1 and body[at] == ",":
        return body[:at] + " " + body[at + 1 :]  # two elements in a row
    if kind == 2:
        return body[:at] + "," + body[at:]  # an empty item
    if kind == 3 and body[at] == "]":
        return body[: at + 1] + rng.choice([" x", "1", "[", " ["]) + body[at + 1 :]
    if kind == 4:
        return rng.choice(["x", " 1 "]) + body
    if kind == 5:
        return body + rng.choice(["x", " 1", "]", ""])
    return body


def _literal(rng: random.Random) -> tuple[str, TensorType]:
    element = rng.choice(ELEMENTS)
    shape = tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 3)))
    good = ["1.5", "-2.0", "3.25e+01"] if element.startswith("f") else ["0", "1", "-1", "7"]
    if element.startswith("ui"):
        good = ["0", "1", "7", "+5"]

    def build(dims: tuple[int, ...]) -> str:
        if not dims:
            return rng.choice(TOKENS) if rng.random() < 0.15 else rng.choice(good)
        return "[" + ", ".join(build(dims[1:]) for _ in range(dims[0])) + "]"

    body = build(shape)
    if rng.random() < 0.4:
        body = _mutate(body, rng)
    return body, TensorType(shape, element)


def test_random_literals_read_as_element_by_element(monkeypatch: pytest.MonkeyPatch):
    found = []
    first_bad = dense_literal._first_bad_element

    def counting(body, type, dtype):
        error = first_bad(body, type, dtype)
        found.append(error is not None)
        return error

    rng = random.Random(0)
    for _ in range(3000):
        body, type = _literal(rng)
        monkeypatch.setattr(dense_literal, "_first_bad_element", counting)
        fast = _read(body, type)
        monkeypatch.setattr(dense_literal, "_first_bad_element", lambda *args: None)
        assert fast == _read(body, type), (body, str(type))
    assert sum(found) > 200  # the regexes found that many errors themselves


@pytest.mark.parametrize("element", ELEMENTS)
def test_elements_said_to_be_good_are_values_of_the_type(element: str):
    """`_certainly_good` may leave out good elements, never take a bad one."""
    good = dense_literal._certainly_good(element)
    type = TensorType((1,), element)
    scalar = dense_literal._scalar_reader(type, type.dtype)
    candidates = {*TOKENS, *(str(v) for b in range(66) for v in (2**b - 1, 2**b, -(2**b)))}
    for token in sorted(candidates):
        if dense_literal.re.fullmatch(good, token):
            scalar(token)  # raises for a bad one


def test_a_malformed_element_in_a_big_literal_is_found_where_it_is():
    elements = [f"{v:.6e}" for v in np.linspace(-1, 1, 20_000)]
    elements[12_345] = "1.5q"
    body = "[" + ", ".join(elements) + "]"
    with pytest.raises(DenseLiteralError) as e:
        read_dense_literal(body, TensorType((20_000,), "f32"))
    assert e.value.message == "expected a floating point literal, found '1.5q'"
    assert body[e.value.offset :].startswith("1.5q,")
