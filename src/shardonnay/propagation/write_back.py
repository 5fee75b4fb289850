"""Propagated shardings written back to a module's attributes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.propagation.data_flow import add_free_axes
from shardonnay.sharding import TensorSharding, TensorShardingPerValue

__all__ = ["SHARDING", "open_sharding", "write_back"]

SHARDING = "sdy.sharding"


def open_sharding(mesh: str | Mesh, t: Any) -> TensorSharding:
    """A sharding of a value of type `t` on `mesh` with every dim open and empty.

    >>> from shardonnay.ir.types import TensorType
    >>> str(open_sharding("m", TensorType.parse("tensor<8x4xf32>")))
    '#sdy.sharding<@m, [{?}, {?}]>'
    """
    rank = len(t.shape) if isinstance(t, TensorType) else 0
    return TensorSharding.replicated_on(mesh, rank, is_closed=False)


def write_back(
    module: Module,
    shardings: Mapping[Value, TensorSharding | None],
    arg_of: Mapping[Value, tuple[Func, int]],
) -> None:
    """Writes, in place, the propagated `shardings` (by value: function
    arguments, `arg_of` giving the function and index of each, op results,
    region arguments of named and manual computations) to `module`'s
    attributes (see `shardonnay.propagation.driver` for where they live).
    A value of an op or computation whose other values got a sharding gets
    an open one on the same mesh; empty `arg_attrs`/`res_attrs` go."""
    for v, (func, i) in arg_of.items():
        s = shardings.get(v)
        if s is not None:
            func.arg_attrs(i)[SHARDING] = s
    for func in module.functions:
        if "res_attrs" in func.op.attributes and not any(func.op.attributes["res_attrs"]):
            del func.op.attributes["res_attrs"]
        if "arg_attrs" in func.op.attributes and not any(func.op.attributes["arg_attrs"]):
            del func.op.attributes["arg_attrs"]
    for op in module.walk():
        if op.name in ("sdy.sharding_constraint", "sdy.reshard"):
            op.attributes["sharding"] = shardings[op.results[0]]
            continue
        if op.name == "sdy.named_computation":
            _write_named_computation(op, shardings)
            continue
        if op.name == "sdy.manual_computation":
            _write_manual_computation(op, shardings)
            continue
        found = [shardings.get(r) for r in op.results]
        first = next((s for s in found if s is not None), None)
        if first is None:
            continue
        filled = [
            s if s is not None else open_sharding(first.mesh, r.type)
            for s, r in zip(found, op.results, strict=True)
        ]
        op.attributes[SHARDING] = TensorShardingPerValue(tuple(filled))


def _write_named_computation(op: Op, shardings: Mapping[Value, TensorSharding | None]) -> None:
    for key, values in (
        ("in_shardings", op.regions[0].entry.arguments),
        ("out_shardings", op.results),
    ):
        found = [shardings.get(v) for v in values]
        first = next((s for s in found if s is not None), None)
        if first is None:
            continue
        op.attributes[key] = TensorShardingPerValue(
            tuple(
                s if s is not None else open_sharding(first.mesh, v.type)
                for s, v in zip(found, values, strict=True)
            )
        )


def _write_manual_computation(op: Op, shardings: Mapping[Value, TensorSharding | None]) -> None:
    manual = op.attributes["manual_axes"].names
    ins = op.attributes["in_shardings"]
    args = op.regions[0].entry.arguments
    op.attributes["in_shardings"] = TensorShardingPerValue(
        tuple(
            add_free_axes(outer, s, manual) if (s := shardings.get(a)) else outer
            for outer, a in zip(ins, args, strict=True)
        )
    )
    outs = op.attributes["out_shardings"]
    op.attributes["out_shardings"] = TensorShardingPerValue(
        tuple(shardings.get(r) or outer for outer, r in zip(outs, op.results, strict=True))
    )
