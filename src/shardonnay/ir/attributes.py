"""Attribute values of ops, as MLIR writes them.

Plain Python values stand for the simple attributes: `bool` (`true`), `str`
(`"text"`), `tuple` (an array `[a, b]`), `dict` (a dictionary `{a = 1 : i64}`),
and a `Type` for a type attribute. The sharding attributes are the
representation's own classes (`TensorSharding`, `TensorShardingPerValue`,
`Mesh`, `ManualAxes`, `OpShardingRule`). The rest are the small classes below;
`OpaqueAttr` keeps anything else as text that prints back unchanged.

>>> attr_str(IntegerAttr(1))
'1 : i64'
>>> attr_str({"b": UNIT, "a": (True, "s")})
'{a = [true, "s"], b}'
>>> attr_str(DenseArrayAttr("i64", (1, 16)))
'array<i64: 1, 16>'
>>> StructAttr("stablehlo.gather", (("offset_dims", (1,)), ("index_vector_dim", 1)))["offset_dims"]
(1,)
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.dense import decode_dense, dense_body
from shardonnay.ir.floats import format_float
from shardonnay.ir.types import MAX_NESTING, TensorType, Type, element_type_of, numpy_dtype
from shardonnay.mesh import Mesh
from shardonnay.sharding import ManualAxes, TensorSharding, TensorShardingPerValue, symbol_ref
from shardonnay.sharding_rule import OpShardingRule
from shardonnay.syntax.cursor import quote


class _Unit:
    """The unit attribute: a name with no value (`{sdy.keep}`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNIT"


UNIT = _Unit()


@dataclass(frozen=True, slots=True)
class IntegerAttr:
    """`5 : i64`; `type` is the integer type's name."""

    value: int
    type: str = "i64"

    def __str__(self) -> str:
        return f"{self.value} : {self.type}"


@dataclass(frozen=True, slots=True)
class FloatAttr:
    """`1.000000e+00 : f32`. `text` keeps a hex literal as written (a NaN's payload)."""

    value: float
    type: str = "f32"
    text: str | None = None

    @property
    def literal(self) -> str:
        if self.text is not None and self.text.lstrip("-").startswith("0x"):
            return self.text
        return format_float(self.value, self.type)

    def __str__(self) -> str:
        return f"{self.literal} : {self.type}"


@dataclass(frozen=True, slots=True)
class SymbolRefAttr:
    """`@name`, or a nested reference `@outer::@inner`."""

    names: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.names[-1]

    def __str__(self) -> str:
        return "::".join(symbol_ref(n) for n in self.names)


@dataclass(frozen=True, slots=True)
class DenseArrayAttr:
    """`array<i64: 1, 2>`: a dense array of scalars (`array<i64>` when empty)."""

    element_type: str
    values: tuple

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.element_type}>"
        if self.element_type == "i1":
            items = ", ".join("true" if v else "false" for v in self.values)
        elif self.element_type.startswith("f") or self.element_type == "bf16":
            items = ", ".join(format_float(v, self.element_type) for v in self.values)
        else:
            items = ", ".join(str(v) for v in self.values)
        return f"array<{self.element_type}: {items}>"


@dataclass(frozen=True, slots=True)
class DenseElementsAttr:
    """`dense<...> : tensor<...>`. `body` is the text between `dense<` and `>`.

    `to_numpy()` decodes it; `from_numpy` writes MLIR's canonical text.
    """

    body: str
    type: TensorType

    def to_numpy(self) -> np.ndarray:
        return decode_dense(self.body, self.type)

    @classmethod
    def from_numpy(cls, array, type: TensorType | None = None) -> DenseElementsAttr:
        """The attribute of `array` (of `type`, or the array's own)."""
        array = np.asarray(array)
        if type is None:
            type = TensorType(array.shape, element_type_of(array.dtype))
        array = array.astype(numpy_dtype(type.element_type)).reshape(type.shape)
        return cls(dense_body(array, type.element_type), type)

    def __str__(self) -> str:
        return f"dense<{self.body}> : {self.type}"


@dataclass(frozen=True, slots=True)
class EnumAttr:
    """`#stablehlo<comparison_direction LT>`: a dialect enum case."""

    dialect: str
    kind: str
    value: str

    def __str__(self) -> str:
        return f"#{self.dialect}<{self.kind} {self.value}>"


@dataclass(frozen=True, slots=True)
class StructAttr:
    """`#stablehlo.gather<offset_dims = [1], index_vector_dim = 1>`: a dialect
    attribute made of named fields (integers, integer lists, attributes)."""

    name: str
    fields: tuple[tuple[str, Any], ...]

    def __getitem__(self, key: str) -> Any:
        for k, v in self.fields:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __str__(self) -> str:
        body = ", ".join(f"{k} = {_field_str(v)}" for k, v in self.fields)
        return f"#{self.name}<{body}>"


@dataclass(frozen=True, slots=True)
class OpaqueAttr:
    """Any attribute shardonnay does not model, kept as its exact text."""

    text: str

    def __str__(self) -> str:
        return self.text


def _field_str(value: Any) -> str:
    if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return attr_str(value)


def attr_str(value: Any, _depth: int = 0) -> str:
    """The MLIR text of an attribute value (`IRError` for arrays and
    dictionaries nested more than `MAX_NESTING` deep)."""
    if _depth > MAX_NESTING:
        raise IRError(f"an attribute nested more than {MAX_NESTING} levels deep")
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_element_str(v, _depth + 1) for v in value) + "]"
    if isinstance(value, dict):
        return dict_str(value, _depth + 1)
    if isinstance(value, Mesh):
        return f"#sdy.mesh{value}"
    if isinstance(value, TensorSharding | TensorShardingPerValue | OpShardingRule | ManualAxes):
        return str(value)
    if isinstance(value, int):  # a bare integer is an i64
        return f"{value} : i64"
    if value is UNIT:
        return "unit"
    if isinstance(value, Type):
        return str(value)
    return str(value)


def _element_str(value: Any, depth: int) -> str:
    """An array element: MLIR elides the types i64 and f64 there."""
    if isinstance(value, IntegerAttr) and value.type == "i64":
        return str(value.value)
    if isinstance(value, FloatAttr) and value.type == "f64":
        return value.literal
    return attr_str(value, depth)


def dict_str(attrs: dict[str, Any], _depth: int = 0) -> str:
    """`{a = 1 : i64, flag}`: entries sorted by name, unit values bare."""
    return "{" + ", ".join(entry_str(k, attrs[k], _depth) for k in sorted(attrs)) + "}"


def entry_str(name: str, value: Any, _depth: int = 0) -> str:
    key = name if _is_bare_key(name) else quote(name)
    return key if value is UNIT else f"{key} = {attr_str(value, _depth)}"


def _is_bare_key(name: str) -> bool:
    return _BARE_KEY.fullmatch(name) is not None


_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


# -- exact keys -----------------------------------------------------------------------


class NoExactKey(Exception):
    """An attribute value of a class `exact_key` does not know."""


# Attribute values whose equality is equality of their text: no numbers in them
# that compare equal while printing differently (`1 == True == 1.0`, `0.0 == -0.0`).
_EXACT_CLASSES: frozenset[type] = frozenset(
    {
        str,
        type(None),
        _Unit,
        DenseElementsAttr,
        EnumAttr,
        SymbolRefAttr,
        OpaqueAttr,
        TensorType,
        TensorSharding,
        TensorShardingPerValue,
        OpShardingRule,
    }
)


def exact_key(value: Any) -> Hashable:
    """A key of attribute value `value` for caches of what is computed from
    it: equal keys print alike (numbers keep their class, floats their
    `repr`), where plain equality would take `1`, `True` and `1.0` for one
    value. Raises `NoExactKey` for a value of a class it does not know.

    >>> exact_key(1) == exact_key(True), exact_key((1, 2)) == exact_key((1, 2))
    (False, True)
    """
    cls = value.__class__
    if cls in _EXACT_CLASSES:
        return value
    if cls is int or cls is bool:
        return (cls, value)
    if cls is float:
        return (cls, repr(value))
    if cls is tuple:
        return tuple(map(exact_key, value))
    if cls is dict:
        return (cls, tuple((k, exact_key(v)) for k, v in value.items()))
    if cls is DenseArrayAttr:
        return (cls, value.element_type, exact_key(value.values))
    if cls is IntegerAttr:
        return (cls, exact_key(value.value), value.type)
    if cls is FloatAttr:
        return (cls, exact_key(value.value), value.type, value.text)
    if cls is StructAttr:
        return (cls, value.name, exact_key(value.fields))
    raise NoExactKey(cls.__name__)
