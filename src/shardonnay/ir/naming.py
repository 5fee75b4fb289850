"""One name for every value: its name in the printed program and where it came from.

Every command that talks about a value (`explain`, `show`, the report of
`partition`, a failed `--simulate`) names it the same way: as the printed
module names it (`%12` in `@main`, `relu:%1` in `@relu`; the writer's
numbering, see `shardonnay.syntax.mlir_writer`) and, where the text has
debug locations (`jax.jit(f).lower(...).as_text(debug_info=True)`), by the
source line of the op defining it: `model.py:42 in attention`.

`value_names(module)` gives the `ValueName` of every value of every
defined function; `find_value(module, spec)` is the value a user typed;
`source_location(op, module)` reads an op's `loc(...)` (aliases
`#loc12 = loc(...)` resolved, call sites followed to the innermost frame).
`shardonnay.partitioner.analysis.correspondence` maps the values of a partitioned
program back to these names.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8xf32> loc(#loc2)
...   %1 = func.call @relu(%0) : (tensor<8xf32>) -> tensor<8xf32>
...   return %1 : tensor<8xf32>
... }
... func.func private @relu(%arg0: tensor<8xf32>) -> tensor<8xf32> {
...   %0 = stablehlo.abs %arg0 : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }
... #loc1 = loc("model.py":42:3)
... #loc2 = loc("jit(f)/neg"(callsite("attention"(#loc1) at "<module>"("run.py":7:1))))
... ''')
>>> names = value_names(module)
>>> [str(n) for n in names.values()]
['%arg0', '%0 (model.py:42 in attention)', '%1', 'relu:%arg0', 'relu:%0']
>>> find_value(module, "relu:%0").op.name
'stablehlo.abs'
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

from shardonnay.errors import IRError
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.syntax.mlir_writer import OpPrinter

__all__ = [
    "ValueName",
    "defined_functions",
    "find_value",
    "output_names",
    "source_location",
    "value_names",
]


@dataclass(frozen=True)
class ValueName:
    """How a value is named: `func` (its function), `name` (`%12`, `%arg0`,
    `%0#1` as printed), the op defining it (None for a block argument) and
    its `location` (`model.py:42 in attention`; None without debug info).

    `spec` is what `explain` and `show` take (`%12` in `@main`, `relu:%1`
    elsewhere); `str()` adds the location."""

    func: str
    name: str
    op: str | None = None
    location: str | None = None

    @property
    def spec(self) -> str:
        return self.name if self.func == "main" else f"{self.func}:{self.name}"

    def __str__(self) -> str:
        return f"{self.spec} ({self.location})" if self.location else self.spec


def defined_functions(module: Module) -> Iterator[Func]:
    """The functions of `module` that have a body."""
    for func in module.functions:
        if not func.is_declaration:
            yield func


def _values_of(func: Func) -> Iterator[Value]:
    """The values of `func` in program order: arguments, then per op its
    results and the arguments of its regions' blocks."""
    yield from func.arguments
    for op in func.walk():
        if op is func.op:
            continue
        yield from op.results
        for region in op.regions:
            for block in region.blocks:
                yield from block.arguments


def value_names(module: Module, values: Collection[Value] | None = None) -> dict[Value, ValueName]:
    """The `ValueName` of every value of every defined function of `module`,
    in program order, named as `module.to_text()` prints them; with `values`,
    of those of them only (the whole program is numbered all the same: a
    value's name depends on all before it)."""
    printer = OpPrinter()
    printer.names.number(module.body.ops)
    locations = _LocationReader(module.aliases)
    names: dict[Value, ValueName] = {}
    wanted = None if values is None else set(values)
    for func in defined_functions(module):
        for v in _values_of(func):
            if wanted is not None and v not in wanted:
                continue
            op = v.op
            if op is not None:
                where = locations.read(op.location) if op.location else None
            else:  # an argument: JAX names a function's arguments (`params['w1']`)
                where = locations.argument(v.location) if v.location else None
            names[v] = ValueName(func.name, printer.name(v), op.name if op else None, where)
    return names


def find_value(module: Module, spec: str, names: dict[Value, ValueName] | None = None) -> Value:
    """The value `spec` names in `module`: `%12` (in `@main`), `relu:%1` or
    `@relu:%1`, or an argument by the name its location gives it (JAX's
    `params['w1']`); an `IRError` saying which names exist otherwise."""
    names = value_names(module) if names is None else names
    text = spec.strip().lstrip("@")
    given = [v for v, n in names.items() if n.op is None and n.location == text]
    if len(given) == 1 and not text.startswith("%"):  # an argument by the name JAX gives it
        return given[0]
    func, _, name = text.rpartition(":") if ":%" in text else ("main", "", text)
    if not name.startswith("%"):
        name = "%" + name
    for v, n in names.items():
        if n.func == func and n.name == name:
            return v
    known = [n.spec for n in names.values() if n.func == func]
    if not known:
        funcs = sorted({n.func for n in names.values()})
        raise IRError(f"no function @{func} in the program (functions: {', '.join(funcs)})")
    shown = ", ".join(known[:8]) + (", ..." if len(known) > 8 else "")
    raise IRError(f"no value named {spec!r} in the program (values of @{func}: {shown})")


def output_names(module: Module, func: str = "main") -> list[ValueName]:
    """The name of the value `func` returns as each of its outputs (a function
    argument returned as is keeps its name)."""
    names = value_names(module)
    returned = module.function(func).return_op.operands
    return [names.get(v, ValueName(func, "%?")) for v in returned]


# -- locations ----------------------------------------------------------------------------------

_TOKEN = re.compile(
    r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*")|(?P<alias>#[\w.$-]+)|(?P<word>[A-Za-z_][\w.]*)'
    r"|(?P<number>\d+)|(?P<punct>[()\[\],:<>]))"
)


@dataclass(frozen=True)
class _Frame:
    function: str | None
    file: str
    line: int


class _LocationReader:
    """Reads `loc(...)` text into `file:line in function` (see `source_location`)."""

    def __init__(self, aliases: dict[str, str]):
        self.aliases = aliases
        self.cache: dict[str, _Frame | None] = {}

    def read(self, text: str) -> str | None:
        frame = self.frame(text)
        if frame is None:
            return None
        where = f"{PurePosixPath(frame.file).name}:{frame.line}"
        return f"{where} in {frame.function}" if frame.function else where

    def argument(self, text: str) -> str | None:
        """An argument's location: its file line, else the name it is given."""
        where = self.read(text)
        if where is not None:
            return where
        m = re.fullmatch(r'loc\((#[\w.$-]+|"((?:[^"\\]|\\.)*)")\)', text.strip())
        if m is None:
            return None
        if m.group(2) is not None:
            return m.group(2) or None
        alias = self.aliases.get(m.group(1)[1:])
        return self.argument(alias) if alias and alias != text else None

    def frame(self, text: str) -> _Frame | None:
        if text not in self.cache:
            self.cache[text] = None  # an alias cycle reads as unknown
            try:
                tokens = [m for m in _TOKEN.finditer(text) if m.group().strip()]
                self.cache[text] = self._loc(tokens, 0)[0] if tokens else None
            except (IndexError, ValueError):
                self.cache[text] = None
        return self.cache[text]

    def _loc(self, tokens: list[re.Match], i: int) -> tuple[_Frame | None, int]:
        """`loc(inner)` or a bare inner location starting at token `i`."""
        if tokens[i].group("word") == "loc":
            frame, i = self._inner(tokens, i + 2)  # skip `loc(`
            return frame, i + 1  # `)`
        return self._inner(tokens, i)

    def _inner(self, tokens: list[re.Match], i: int) -> tuple[_Frame | None, int]:
        token = tokens[i]
        if token.group("alias"):
            alias = self.aliases.get(token.group("alias")[1:])
            return (self.frame(alias) if alias else None), i + 1
        if token.group("word") == "unknown":
            return None, i + 1
        if token.group("word") == "callsite":
            callee, i = self._loc(tokens, i + 2)
            caller, i = self._loc(tokens, i + 1)  # skip `at`
            return callee or caller, i + 1
        if token.group("word") == "fused":
            i += 1
            if tokens[i].group() == "<":  # fused<#attr>
                while tokens[i].group() != ">":
                    i += 1
                i += 1
            i += 1  # `[`
            found = None
            while tokens[i].group() != "]":
                frame, i = self._loc(tokens, i)
                found = found or frame
                if tokens[i].group() == ",":
                    i += 1
            return found, i + 1
        if token.group("string"):
            text = token.group("string")[1:-1]
            i += 1
            if i < len(tokens) and tokens[i].group() == ":":  # "file":line:col [to ...]
                line = int(tokens[i + 1].group())
                i += 2
                while i < len(tokens) and tokens[i].group() not in (")", ",", "]"):
                    i += 1
                return _Frame(None, text, line), i
            if i < len(tokens) and tokens[i].group() == "(":  # "name"(child)
                child, i = self._loc(tokens, i + 1)
                if child is not None and child.function is None and "/" not in text:
                    child = _Frame(text, child.file, child.line)
                return child, i + 1
            return None, i
        raise ValueError(f"unexpected {token.group()!r} in a location")


def source_location(op: Op, module: Module) -> str | None:
    """Where `op` came from, `file:line in function`, from its `loc(...)`:
    aliases resolved, the innermost frame of a call site, the function a
    named location wraps (JAX's `"attention"("model.py":42:3)`); None when
    the op has no file location.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> m = parse_module('''
    ... func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    ...   %0 = stablehlo.negate %arg0 : tensor<f32> loc("jit(f)/neg"("/src/model.py":7:2))
    ...   return %0 : tensor<f32>
    ... }''')
    >>> source_location(m.function("main").body.ops[0], m)
    'model.py:7'
    """
    if not op.location:
        return None
    return _LocationReader(module.aliases).read(op.location)
