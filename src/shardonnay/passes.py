"""Shardy's pass names, so that `shardonnay opt` runs Shardy-style pipelines.

A pipeline is MLIR's textual form: `builtin.module(PASS, func.func(PASS{opt=value}))`.
Passes nested in `func.func(...)` are function passes; shardonnay runs them on
the whole module (each transforms every function the same way).

>>> parse_pipeline("builtin.module(func.func(sdy-populate-op-sharding-rules))")
[PassSpec(name='sdy-populate-op-sharding-rules', options={})]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from shardonnay.errors import ShardonnayError
from shardonnay.ir.core import Module
from shardonnay.syntax.cursor import Cursor

PassFunction = Callable[[Module, dict[str, str]], Module]

_PASSES: dict[str, PassFunction] = {}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_OPTION = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)(?:=([^\s{}]*))?")


@dataclass(frozen=True)
class PassSpec:
    name: str
    options: dict[str, str] = field(default_factory=dict)


def register_pass(name: str) -> Callable[[PassFunction], PassFunction]:
    """Registers `fn(module, options) -> module` under Shardy's pass `name`."""

    def decorate(fn: PassFunction) -> PassFunction:
        _PASSES[name] = fn
        return fn

    return decorate


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
                option = _OPTION.match(cursor.text, cursor.pos)
                if option is None:
                    raise cursor.error("expected an option like name=value")
                key, value = option.groups()
                cursor.pos += len(key) + (len(value) + 1 if value is not None else 0)
                options[key] = "true" if value is None else value
                cursor.skip_space()
        passes.append(PassSpec(name, options))

    anchored()
    cursor.expect_end()
    return passes


def run_pipeline(module: Module, pipeline: str) -> Module:
    """Runs the passes of `pipeline` in order and returns the resulting module."""
    _load()
    specs = parse_pipeline(pipeline)
    for spec in specs:
        if spec.name not in _PASSES:
            raise ShardonnayError(
                f"unknown pass '{spec.name}'; shardonnay implements: {', '.join(known_passes())}"
            )
    for spec in specs:
        module = _PASSES[spec.name](module, spec.options)
    return module


def _load() -> None:
    import shardonnay.partition.passes  # (registers the partitioning passes)
    import shardonnay.propagation.passes  # noqa: F401  (registers the propagation passes)


__all__ = ["PassSpec", "known_passes", "parse_pipeline", "register_pass", "run_pipeline"]
