"""Propagated shardings written back to a module's attributes."""

from __future__ import annotations

from collections.abc import Mapping

from shardonnay.ir.core import Func, Module, Value
from shardonnay.ir.shardings import SHARDING, set_sharding
from shardonnay.ops.traits import COMPUTATION, has_trait
from shardonnay.sharding import TensorSharding, TensorShardingPerValue

__all__ = ["write_back"]


def write_back(
    module: Module,
    shardings: Mapping[Value, TensorSharding | None],
    arg_of: Mapping[Value, tuple[Func, int]],
) -> None:
    """Writes, in place, the propagated `shardings` (by value: function
    arguments, `arg_of` giving the function and index of each, op results,
    region arguments of named and manual computations) to `module`'s
    attributes, where `shardonnay.ir.shardings.set_sharding` puts them (a
    manual computation's body arguments: with the manual axes put back). A
    value of an op or computation whose other values got a sharding gets an
    open one on the same mesh; empty `arg_attrs`/`res_attrs` go.

    Ops whose results got the same sharding objects share one
    `#sdy.sharding_per_value` object: what is worked out once per attribute
    object (the printer's text, `transform_shardings`) is then worked out
    once per distinct one, not once per op."""
    for v in arg_of:
        s = shardings.get(v)
        if s is not None:
            set_sharding(v, s)
    for func in module.functions:
        if "res_attrs" in func.op.attributes and not any(func.op.attributes["res_attrs"]):
            del func.op.attributes["res_attrs"]
        if "arg_attrs" in func.op.attributes and not any(func.op.attributes["arg_attrs"]):
            del func.op.attributes["arg_attrs"]
    kept: dict[tuple[int, ...], TensorShardingPerValue] = {}
    for op in module.walk():
        values = list(op.results)
        if has_trait(op, COMPUTATION):
            values = [*op.regions[0].entry.arguments, *values]
        for v in values:
            s = shardings.get(v)
            if s is not None:
                set_sharding(v, s)
        per_value = op.attributes.get(SHARDING)
        if isinstance(per_value, TensorShardingPerValue):
            # (each kept object keeps its shardings alive: their ids stay theirs)
            key = tuple(map(id, per_value.shardings))
            op.attributes[SHARDING] = kept.setdefault(key, per_value)
