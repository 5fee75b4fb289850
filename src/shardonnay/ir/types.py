"""Types of IR values: ranked static tensors, the StableHLO token, function
types, and anything else kept as its text; and their grammar (`TypeReader`,
`parse_type`), which the MLIR reader extends to attributes and ops.

>>> t = TensorType.parse("tensor<8x16xf32>")
>>> t.shape, t.element_type, t.rank, str(t)
((8, 16), 'f32', 2, 'tensor<8x16xf32>')
>>> TensorType((), "i1")
TensorType.parse('tensor<i1>')
>>> parse_type("(tensor<4xf32>, !stablehlo.token) -> tensor<i1>").results
(TensorType.parse('tensor<i1>'),)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from shardonnay.errors import ShardonnayError
from shardonnay.syntax.cursor import _SPACE, _SPACE_START, Cursor

FLOAT_TYPES = ("f16", "bf16", "f32", "f64")
SIGNED_TYPES = ("i8", "i16", "i32", "i64")
UNSIGNED_TYPES = ("ui8", "ui16", "ui32", "ui64")
COMPLEX_TYPES = ("complex<f32>", "complex<f64>")
ELEMENT_TYPES = ("i1", *SIGNED_TYPES, *UNSIGNED_TYPES, *FLOAT_TYPES, *COMPLEX_TYPES)

_NUMPY_DTYPES = {
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "ui8": np.uint8,
    "ui16": np.uint16,
    "ui32": np.uint32,
    "ui64": np.uint64,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "complex<f32>": np.complex64,
    "complex<f64>": np.complex128,
}


class Type:
    """Base class of value types. Types are immutable and compare by value."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class TensorType(Type):
    """`tensor<AxBxT>`: a ranked tensor with a static shape (`tensor<T>` for rank 0)."""

    shape: tuple[int, ...]
    element_type: str
    encoding: str | None = None  # an attribute after the element type, kept as text
    _text: str = field(default="", init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(self.shape))
        dims = "".join(f"{d}x" for d in self.shape)
        encoding = f", {self.encoding}" if self.encoding else ""
        object.__setattr__(self, "_text", f"tensor<{dims}{self.element_type}{encoding}>")

    @classmethod
    def parse(cls, text: str) -> TensorType:
        t = parse_type(text)
        if not isinstance(t, TensorType):
            raise ShardonnayError(f"not a tensor type: {text}")
        return t

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def num_elements(self) -> int:
        return math.prod(self.shape)

    @property
    def dtype(self) -> np.dtype:
        """The numpy dtype of the elements (bf16 needs `ml_dtypes`)."""
        return numpy_dtype(self.element_type)

    def with_shape(self, shape: tuple[int, ...]) -> TensorType:
        return TensorType(tuple(shape), self.element_type, self.encoding)

    def with_element_type(self, element_type: str) -> TensorType:
        return TensorType(self.shape, element_type, self.encoding)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"TensorType.parse('{self}')"

    # The text names the shape, element type and encoding, and nothing else:
    # equal texts are equal types. A type is a key of many tables (rules by
    # op signature, literals by type) and compared op after op; its text
    # hashes once (Python keeps a string's hash), the fields every time.
    def __eq__(self, other: object) -> bool:
        return self is other or (
            other.__class__ is TensorType and self._text == other._text  # type: ignore[attr-defined]
        )

    def __hash__(self) -> int:
        return hash(self._text)


@dataclass(frozen=True, slots=True)
class TokenType(Type):
    """`!stablehlo.token`, the type of side-effect ordering values."""

    def __str__(self) -> str:
        return "!stablehlo.token"


#: The runtime value of a `!stablehlo.token`: what the interpreters hold for one.
TOKEN = np.zeros((), dtype=np.bool_)


@dataclass(frozen=True, slots=True)
class FunctionType(Type):
    """`(inputs) -> results`; a single non-function result prints bare."""

    inputs: tuple[Type, ...]
    results: tuple[Type, ...]
    _text: str | None = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __str__(self) -> str:
        if self._text is None:
            object.__setattr__(self, "_text", self._write())
        return self._text

    def _write(self) -> str:
        inputs = ", ".join(map(str, self.inputs))
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"({inputs}) -> {self.results[0]}"
        return f"({inputs}) -> ({', '.join(map(str, self.results))})"


@dataclass(frozen=True, slots=True)
class OpaqueType(Type):
    """Any other type (`i32`, `index`, `tuple<...>`, `!dialect.x`), kept as text."""

    text: str

    def __str__(self) -> str:
        return self.text


def numpy_dtype(element_type: str) -> np.dtype:
    if element_type == "bf16":
        try:
            import ml_dtypes
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ShardonnayError("bf16 needs the ml_dtypes package") from e
        return np.dtype(ml_dtypes.bfloat16)
    try:
        return np.dtype(_NUMPY_DTYPES[element_type])
    except KeyError:
        raise ShardonnayError(f"no numpy dtype for element type {element_type}") from None


def element_type_of(dtype: np.dtype) -> str:
    """The MLIR element type of a numpy dtype: `float32` -> `f32`."""
    dtype = np.dtype(dtype)
    if dtype.name == "bfloat16":
        return "bf16"
    for name, np_type in _NUMPY_DTYPES.items():
        if np.dtype(np_type) == dtype:
            return name
    raise ShardonnayError(f"no element type for numpy dtype {dtype}")


def is_float(element_type: str) -> bool:
    return element_type in FLOAT_TYPES


def is_integer(element_type: str) -> bool:
    return element_type in SIGNED_TYPES or element_type in UNSIGNED_TYPES or element_type == "i1"


def is_unsigned(element_type: str) -> bool:
    return element_type in UNSIGNED_TYPES


def is_complex(element_type: str) -> bool:
    return element_type.startswith("complex<")


# -- the type grammar ------------------------------------------------------------------

#: How deep attributes (arrays, dictionaries, dialect attributes) and function types may nest.
MAX_NESTING = 64

_TENSOR = re.compile(
    r"tensor<((?:\d+x)*)([a-z][a-z0-9]*|complex<[a-z0-9]+>)(, [^<>]+(?:<[^<>]*>)?)?>"
)
_TENSOR_TEXT = r"tensor<(?:\d+x)*[a-z][a-z0-9]*>"
_SIMPLE_FUNCTION_TYPE = re.compile(
    rf"\((?:{_TENSOR_TEXT}(?:, {_TENSOR_TEXT})*)?\) -> "
    rf"(?:{_TENSOR_TEXT}|\((?:{_TENSOR_TEXT}(?:, {_TENSOR_TEXT})*)?\))(?![\w<])"
)
_SCALAR_TYPE = re.compile(r"(?:[su]?i[0-9]+|ui[0-9]+|bf16|f[0-9]+|tf32|index|none)\b")
_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|->|[<>\[\]{}()]')
_OPEN = {"<": ">", "[": "]", "{": "}", "(": ")"}
#: The largest rank of a tensor type: numpy's limit on an array's dims.
MAX_RANK = 64

_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")

# Types by their text, shared by every reader (MLIR uniques types too).
_TYPE_CACHE: dict[str, Type] = {}


class TypeReader(Cursor):
    """A cursor over MLIR text that reads types: `tensor<...>` (memoized by its
    text), `!stablehlo.token`, function types, and any other type kept as text
    (`OpaqueType`); `!name` resolves through `aliases` (`!name = type` lines).

    The MLIR reader (`shardonnay.syntax.mlir_reader.Parser`) extends it to
    attributes and ops; nesting of function types (and attributes) is counted
    in `_nesting`, bounded by `MAX_NESTING`.

    >>> r = TypeReader("tensor<2x3xf32>, tuple<i32, f32>")
    >>> r.types()
    [TensorType.parse('tensor<2x3xf32>'), OpaqueType(text='tuple<i32, f32>')]
    """

    __slots__ = ("_nesting", "aliases")

    def __init__(self, text: str, source: str = "<string>"):
        super().__init__(text, source)
        self.aliases: dict[str, str] = {}
        self._nesting = 0  # arrays, dictionaries and function types being read

    def type(self) -> Type:
        text, pos = self.text, self.pos
        if pos < len(text) and text[pos] in _SPACE_START:
            pos = self.pos = _SPACE.match(text, pos).end()
        m = _TENSOR.match(text, pos)
        if m is not None:
            key = m.group()
            t = _TYPE_CACHE.get(key)
            if t is None:
                dims = m.group(1)
                shape = tuple(int(d) for d in dims.split("x")[:-1]) if dims else ()
                if len(shape) > MAX_RANK:
                    raise self.error(
                        f"a tensor of rank {len(shape)}: shardonnay holds tensors of rank at "
                        f"most {MAX_RANK} (numpy's limit)"
                    )
                encoding = m.group(3)[2:] if m.group(3) else None
                t = _TYPE_CACHE[key] = TensorType(shape, m.group(2), encoding)
            self.pos = m.end()
            return t
        if text.startswith("!stablehlo.token", pos):
            self.pos += len("!stablehlo.token")
            return TokenType()
        if text.startswith("(", pos):
            return self.functional_type()
        if text.startswith("!", pos):
            m = _BARE_ID.match(text, pos + 1)
            if m is None:
                raise self.error("expected a type")
            end = m.end()
            if text.startswith("<", end):
                end = self._balanced_end(end)
            self.pos = end
            name = text[pos:end]
            if name[1:] in self.aliases:
                return parse_type(self.aliases[name[1:]])
            return OpaqueType(name)
        m = _SCALAR_TYPE.match(text, pos)
        if m is not None:
            self.pos = m.end()
            return OpaqueType(m.group())
        for prefix in ("tensor<", "complex<", "tuple<", "vector<", "memref<"):
            if text.startswith(prefix, pos):
                end = self._balanced_end(pos + len(prefix) - 1)
                self.pos = end
                return OpaqueType(text[pos:end])
        raise self.error("expected a type")

    def types(self) -> list[Type]:
        """`t1, t2, ...` (at least one)."""
        types = [self.type()]
        while self.accept(","):
            types.append(self.type())
        return types

    def type_list_parens(self) -> list[Type]:
        """`(t1, t2)`, possibly empty."""
        self.expect("(")
        if self.accept(")"):
            return []
        types = self.types()
        self.expect(")", "')' closing the type list")
        return types

    def functional_type(self) -> FunctionType:
        """`(inputs) -> result` or `(inputs) -> (results)`."""
        self.skip_space()
        m = _SIMPLE_FUNCTION_TYPE.match(self.text, self.pos)
        if m is not None:  # the frequent all-tensor case, memoized by its text
            key = m.group()
            cached = _TYPE_CACHE.get(key)
            if cached is None:
                cached = _TYPE_CACHE[key] = TypeReader(key)._read_functional_type()
            self.pos = m.end()
            return cached
        return self._read_functional_type()

    def _read_functional_type(self) -> FunctionType:
        self._enter()
        inputs = self.type_list_parens()
        self.expect("->", "'->' in a function type")
        results = self.type_list_parens() if self.peek("(") else [self.type()]
        self._nesting -= 1
        return FunctionType(tuple(inputs), tuple(results))

    def _enter(self) -> None:
        """One more level of nested attributes or types; a `ParseError` past `MAX_NESTING`."""
        self._nesting += 1
        if self._nesting > MAX_NESTING:
            raise self.error(
                f"attributes or types nested more than {MAX_NESTING} levels deep "
                "(the most shardonnay reads)"
            )

    def _balanced_end(self, pos: int) -> int:
        """The offset after the bracket that closes the one at `pos`."""
        text = self.text
        stack = [_OPEN[text[pos]]]
        for m in _BRACKETS.finditer(text, pos + 1):
            tok = m.group()
            if tok in _OPEN:
                stack.append(_OPEN[tok])
            elif tok == stack[-1]:
                stack.pop()
                if not stack:
                    return m.end()
            elif tok in ">]})" and tok != "->":
                raise self.error(f"unbalanced '{tok}'", m.start())
        raise self.error(f"unclosed '{text[pos]}'", pos)


def parse_type(text: str) -> Type:
    """The type `text` spells (a `ParseError` where it spells none)."""
    cached = _TYPE_CACHE.get(text)
    if cached is not None:
        return cached
    parser = TypeReader(text)
    t = parser.type()
    parser.expect_end()
    return t
