"""Shardy's pass names, so that `shardonnay opt` runs Shardy-style pipelines.

A pipeline is MLIR's textual form: `builtin.module(PASS, func.func(PASS{opt=value}))`.
Passes nested in `func.func(...)` are function passes; shardonnay runs them on
the whole module (each transforms every function the same way). Each pass
declares its options with their defaults, as Shardy declares them; an option
it does not have, or a flag that is neither `true` nor `false`, is an error.

>>> parse_pipeline("builtin.module(func.func(sdy-populate-op-sharding-rules))")
[PassSpec(name='sdy-populate-op-sharding-rules', options={})]
>>> parse_pipeline("builtin.module(canonicalize{enable-patterns={sdy-collective} top-down})")
[PassSpec(name='canonicalize', options={'enable-patterns': '{sdy-collective}', 'top-down': 'true'})]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from shardonnay.errors import ShardonnayError
from shardonnay.ir.core import Module
from shardonnay.syntax.cursor import Cursor

PassFunction = Callable[[Module, dict[str, str]], Module]


@dataclass(frozen=True)
class RegisteredPass:
    """A pass by its Shardy name: `run(module, options)` and its options'
    defaults (`"false"` for a flag)."""

    name: str
    run: PassFunction
    defaults: Mapping[str, str]


_PASSES: dict[str, RegisteredPass] = {}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_OPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
_PLAIN_VALUE = re.compile(r"[^\s{}]*")


@dataclass(frozen=True)
class PassSpec:
    name: str
    options: dict[str, str] = field(default_factory=dict)


def register_pass(
    name: str, options: Mapping[str, str] | None = None
) -> Callable[[PassFunction], PassFunction]:
    """Registers `fn(module, options) -> module` under Shardy's pass `name`,
    with the options (name -> default value) the pass accepts. `fn` gets
    every option, the defaults filled in."""

    def decorate(fn: PassFunction) -> PassFunction:
        _PASSES[name] = RegisteredPass(name, fn, dict(options or {}))
        return fn

    return decorate


def pass_options(name: str) -> dict[str, str]:
    """The options of the pass `name` and their defaults.

    >>> pass_options("sdy-insert-explicit-reshards")
    {'enable-full-version': 'false'}
    """
    _load()
    return dict(_registered(name).defaults)


def known_passes() -> list[str]:
    _load()
    return sorted(_PASSES)


def parse_pipeline(text: str) -> list[PassSpec]:
    """The passes of `builtin.module(...)`, flattened in order."""
    cursor = Cursor(text, "<pass-pipeline>")
    passes: list[PassSpec] = []

    def anchored() -> None:
        cursor.match(_NAME, "an op name like builtin.module or func.func")
        cursor.expect("(", "'(' after the op name")
        if cursor.accept(")"):
            return
        while True:
            item()
            if cursor.accept(")"):
                return
            cursor.expect(",", "',' or ')' between passes")

    def item() -> None:
        start = cursor.pos
        name = cursor.match(_NAME, "a pass name")
        if cursor.peek("("):
            cursor.pos = start
            anchored()
            return
        options: dict[str, str] = {}
        if cursor.accept("{"):
            while not cursor.accept("}"):
                key = cursor.match(_OPTION_NAME, "an option like name=value")
                value = "true"
                if cursor.accept("="):
                    value = _option_value(cursor)
                options[key] = value
                cursor.skip_space()
        passes.append(PassSpec(name, options))

    anchored()
    cursor.expect_end()
    return passes


def _option_value(cursor: Cursor) -> str:
    """A plain value (`true`, `aggressive`, empty) or a braced one (`{a,b}`)."""
    if not cursor.text.startswith("{", cursor.pos):  # (a value is never after a space)
        match = _PLAIN_VALUE.match(cursor.text, cursor.pos)
        assert match is not None  # (the pattern matches the empty string)
        cursor.pos = match.end()
        return match.group()
    start, depth = cursor.pos, 0
    while cursor.pos < len(cursor.text):
        ch = cursor.text[cursor.pos]
        cursor.pos += 1
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return cursor.text[start : cursor.pos]
    raise cursor.error("an option value's '{' is never closed", start)


def _registered(name: str) -> RegisteredPass:
    if name not in _PASSES:
        raise ShardonnayError(
            f"unknown pass '{name}'; shardonnay implements: {', '.join(known_passes())}"
        )
    return _PASSES[name]


def _with_defaults(spec: PassSpec) -> dict[str, str]:
    registered = _registered(spec.name)
    options = dict(registered.defaults)
    for key, value in spec.options.items():
        if key not in options:
            accepted = ", ".join(sorted(options)) or "none"
            raise ShardonnayError(
                f"pass '{spec.name}' has no option '{key}' (its options: {accepted})"
            )
        if options[key] in ("true", "false") and value not in ("true", "false", "1", "0"):
            raise ShardonnayError(
                f"pass '{spec.name}': option '{key}' is a flag, true or false, not {value!r}"
            )
        options[key] = {"1": "true", "0": "false"}.get(value, value)
    return options


def run_pipeline(module: Module, pipeline: str) -> Module:
    """Runs the passes of `pipeline` in order and returns the resulting module."""
    _load()
    specs = [(spec, _with_defaults(spec)) for spec in parse_pipeline(pipeline)]
    for spec, options in specs:
        module = _PASSES[spec.name].run(module, options)
    return module


def _load() -> None:
    import shardonnay.export.passes  # (registers the partitioning passes)
    import shardonnay.propagation.passes  # noqa: F401  (registers the propagation passes)


__all__ = [
    "PassSpec",
    "RegisteredPass",
    "known_passes",
    "parse_pipeline",
    "pass_options",
    "register_pass",
    "run_pipeline",
]
