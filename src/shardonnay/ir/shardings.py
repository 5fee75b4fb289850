"""Where the sharding of a value lives, as Shardy's `getSharding` finds it.

- a function argument: its `sdy.sharding` argument attribute;
- the result of `sdy.reshard` / `sdy.sharding_constraint`: their `sharding`;
  of a collective: its `out_sharding`;
- the result of a named or manual computation: its `out_shardings`; an
  argument of its body: its `in_shardings` (without the manual axes of a
  manual computation, which its body does not see);
- an argument of a `while` region: the sharding of the matching `while`
  result (they form one data-flow edge);
- any other op result: the op's `sdy.sharding` (one sharding per result).

Scalar block arguments (of reduction bodies, say) have none.

`edge_sources(op)` lists the data-flow edges of a data-flow op: the value that
owns each edge's sharding and the operands that flow into it.
"""

from __future__ import annotations

from shardonnay.ir.core import Block, Func, Op, Value
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.propagation.data_flow import erase_manual_axes
from shardonnay.sharding import DimSharding, TensorSharding, TensorShardingPerValue

__all__ = [
    "DATA_FLOW_OPS",
    "edge_sources",
    "is_equivalent",
    "mesh_of",
    "open_sharding",
    "set_sharding",
    "sharding_of",
]

SHARDING = "sdy.sharding"
DATA_FLOW_OPS = (
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.optimization_barrier",
    "sdy.named_computation",
    "sdy.manual_computation",
)
_COLLECTIVES = (
    "sdy.all_gather",
    "sdy.all_slice",
    "sdy.all_reduce",
    "sdy.all_to_all",
    "sdy.collective_permute",
    "sdy.reduce_scatter",
    "sdy.replicated_to_unreduced",
    "sdy.sharded_to_unreduced",
)


def mesh_of(sharding: TensorSharding, meshes: dict[str, Mesh]) -> Mesh:
    return sharding.mesh if isinstance(sharding.mesh, Mesh) else meshes[sharding.mesh]


def _parent_op(v: Value) -> Op | None:
    block = v.defining
    return block.parent_op if isinstance(block, Block) else None


def sharding_of(v: Value) -> TensorSharding | None:
    """The sharding of `v` (see the module docstring); None when it has none."""
    op = v.op
    if op is None:
        parent = _parent_op(v)
        if parent is None:
            return None
        if parent.name == "func.func":
            s = Func(parent).arg_attrs(v.index).get(SHARDING) if _has(parent, "arg_attrs") else None
            return s if isinstance(s, TensorSharding) else None
        if parent.name == "stablehlo.while":
            return sharding_of(parent.results[v.index])
        if parent.name == "sdy.named_computation":
            return _per_value_at(parent.attributes.get("in_shardings"), v.index)
        if parent.name == "sdy.manual_computation":
            s = _per_value_at(parent.attributes.get("in_shardings"), v.index)
            return None if s is None else erase_manual_axes(s, _manual_axes(parent))
        return None
    if op.name in ("sdy.reshard", "sdy.sharding_constraint", "sdy.data_flow_edge"):
        s = op.attributes.get("sharding")
        return s if isinstance(s, TensorSharding) else None
    if op.name in _COLLECTIVES:
        return op.attributes.get("out_sharding")
    if op.name in ("sdy.named_computation", "sdy.manual_computation"):
        return _per_value_at(op.attributes.get("out_shardings"), v.index)
    return _per_value_at(op.attributes.get(SHARDING), v.index)


def _manual_axes(op: Op) -> tuple[str, ...]:
    return op.attributes["manual_axes"].names


def _has(op: Op, key: str) -> bool:
    return key in op.attributes


def _per_value_at(per_value, index: int) -> TensorSharding | None:
    if isinstance(per_value, TensorShardingPerValue):
        return per_value[index]
    return None


def set_sharding(v: Value, sharding: TensorSharding) -> None:
    """Gives `v` the sharding `sharding`, where `sharding_of` finds it; the
    other results of a multi-result op without shardings get open ones."""
    op = v.op
    if op is None:
        parent = _parent_op(v)
        assert parent is not None
        if parent.name == "func.func":
            Func(parent).arg_attrs(v.index)[SHARDING] = sharding
        elif parent.name == "stablehlo.while":
            set_sharding(parent.results[v.index], sharding)
        elif parent.name == "sdy.named_computation":
            arguments = parent.regions[0].entry.arguments
            _set_per_value(parent, "in_shardings", v.index, sharding, arguments)
        return
    if op.name in ("sdy.reshard", "sdy.sharding_constraint", "sdy.data_flow_edge"):
        op.attributes["sharding"] = sharding
    elif op.name in _COLLECTIVES:
        op.attributes["out_sharding"] = sharding
    elif op.name == "sdy.named_computation":
        _set_per_value(op, "out_shardings", v.index, sharding, op.results)
    else:
        _set_per_value(op, SHARDING, v.index, sharding, op.results)


def _set_per_value(op: Op, key: str, index: int, sharding: TensorSharding, values) -> None:
    per_value = op.attributes.get(key)
    if isinstance(per_value, TensorShardingPerValue):
        shardings = list(per_value)
    else:
        shardings = [open_sharding(sharding.mesh, v) for v in values]
    shardings[index] = sharding
    op.attributes[key] = TensorShardingPerValue(tuple(shardings))


def open_sharding(mesh: str | Mesh, v: Value) -> TensorSharding:
    """The fully open sharding of `v` on `mesh` (`[{?}, {?}]`: every dim open and empty)."""
    rank = len(v.type.shape) if isinstance(v.type, TensorType) else 0
    return TensorSharding(mesh, tuple(DimSharding((), False) for _ in range(rank)))


def is_equivalent(a: TensorSharding | None, b: TensorSharding | None) -> bool:
    """Shardy's `isEquivalent`: fully replicated shardings (a missing one
    among them) are equivalent whatever their mesh; others need the same
    mesh, dim axes and unreduced axes."""
    if a is None or a.is_fully_replicated():
        return b is None or b.is_fully_replicated()
    if b is None:
        return False
    if a.mesh != b.mesh or a.unreduced != b.unreduced:
        return False
    return all(x.axes == y.axes for x, y in zip(a.dims, b.dims, strict=True)) and (
        a.replicated == b.replicated
    )


def edge_sources(op: Op) -> list[tuple[TensorSharding | None, list[tuple[Op, int]]]]:
    """The data-flow edges of `op`, results' edges first: the sharding each
    edge has, as the values flowing into it see it, and the (op, operand
    index) pairs of those values. (The body of a manual computation sees its
    results without the manual axes; its operands flow into its arguments with
    them.)"""
    name = op.name
    if name == "stablehlo.while":
        body = op.regions[1].entry.terminator
        return [(sharding_of(r), [(op, i), (body, i)]) for i, r in enumerate(op.results)]
    if name == "stablehlo.case":
        terminators = [region.entry.terminator for region in op.regions]
        return [(sharding_of(r), [(t, i) for t in terminators]) for i, r in enumerate(op.results)]
    if name == "stablehlo.optimization_barrier":
        return [(sharding_of(r), [(op, i)]) for i, r in enumerate(op.results)]
    if name in ("sdy.named_computation", "sdy.manual_computation"):
        body = op.regions[0].entry
        ret = body.terminator
        ins = op.attributes.get("in_shardings")
        outs = [sharding_of(r) for r in op.results]
        if name == "sdy.manual_computation":
            manual = _manual_axes(op)
            outs = [None if s is None else erase_manual_axes(s, manual) for s in outs]
        return [(s, [(ret, i)]) for i, s in enumerate(outs)] + [
            (_per_value_at(ins, i), [(op, i)]) for i in range(len(body.arguments))
        ]
    return []
