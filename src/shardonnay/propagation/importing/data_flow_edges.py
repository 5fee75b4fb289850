"""Data-flow edges written into the program, as Shardy's passes write them.

`add_data_flow_edges` (`sdy-add-data-flow-edges`) puts an
`sdy.data_flow_edge` on every value a data-flow op (the `DATA_FLOW` trait) owns:
the results of `stablehlo.while`, `stablehlo.case`,
`stablehlo.optimization_barrier`, `sdy.named_computation` and
`sdy.manual_computation`, and the block arguments of the last two. The edge
carries the owner's sharding (a manual computation's body sees it without
the manual axes) and takes the owner's place in every use.
`sink_data_flow_edges` (`sdy-sink-data-flow-edges`) writes each edge's
sharding back to its owner and removes the edges; an owner whose edge has no
sharding, beside one that has, gets a fully open one.

`add_func_data_flow_edges` / `sink_func_data_flow_edges` do the same with
`sdy.func_data_flow_edge` for the arguments of every function but `main` and
for the results of `func.call` (`sdy-add-func-data-flow-edges`,
`sdy-sink-func-data-flow-edges`).

`propagate_through_edges(module, run)` runs a propagation `run` on a module
that holds explicit `sdy.data_flow_edge` ops, as Shardy's propagation passes
do: the edges tie their owner to the values flowing into it, and their
shardings (not the owners') are what propagation reads and updates.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
...   %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> add_data_flow_edges(module)
>>> [op.name for op in module.functions[0].body.ops]
['stablehlo.optimization_barrier', 'sdy.data_flow_edge', 'func.return']
>>> edge = module.functions[0].body.ops[1]
>>> edge.attributes["sharding"] = TensorSharding.parse('<@mesh, [{"x"}]>')
>>> sink_data_flow_edges(module)
>>> str(module.functions[0].body.ops[0].attributes["sdy.sharding"])
'#sdy.sharding_per_value<[<@mesh, [{"x"}]>]>'
"""

from __future__ import annotations

from collections.abc import Callable

from shardonnay.errors import IRError
from shardonnay.ir.core import Block, Module, Op, Value
from shardonnay.ir.shardings import SHARDING, func_arg_sharding, set_sharding, sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.ops.registry import mark_inherent
from shardonnay.ops.traits import COMPUTATION, DATA_FLOW, has_trait
from shardonnay.propagation.data_flow import add_free_axes
from shardonnay.propagation.sharding_store import EdgeChoice
from shardonnay.sharding import DimSharding, TensorSharding, TensorShardingPerValue

__all__ = [
    "EDGE",
    "FUNC_EDGE",
    "add_data_flow_edges",
    "add_func_data_flow_edges",
    "propagate_through_edges",
    "sink_data_flow_edges",
    "sink_func_data_flow_edges",
]

EDGE = "sdy.data_flow_edge"
FUNC_EDGE = "sdy.func_data_flow_edge"


# -- reading and writing an owner's sharding -----------------------------------------


def _result_key(op: Op) -> str:
    return "out_shardings" if has_trait(op, COMPUTATION) else SHARDING


def _per_value(op: Op, key: str) -> tuple[TensorSharding, ...] | None:
    value = op.attributes.get(key)
    return tuple(value) if isinstance(value, TensorShardingPerValue) else None


def _owner_shardings(op: Op) -> tuple[list[Value], list[TensorSharding | None]]:
    """The edge owners of `op` (a computation's block arguments first, then
    its results) and the sharding each edge starts with (`sharding_of`)."""
    owners: list[Value] = []
    if has_trait(op, COMPUTATION):
        owners += op.regions[0].entry.arguments
    owners += op.results
    return owners, [sharding_of(v) for v in owners]


def _edge_op(name: str, owner: Value, attributes: dict) -> Op:
    op = Op(name, [owner], [owner.type], attributes)
    return mark_inherent(op, ("sharding",) if name == EDGE else ())


def _insert_edge(owner: Value, edge: Op) -> None:
    """`edge` right after `owner`'s definition, taking its place in every use."""
    uses = [u for u in owner.uses if u.owner is not edge]
    if owner.is_block_argument:
        block: Block = owner.defining  # type: ignore[assignment]
        index = 0
    else:
        defining = owner.op
        assert defining is not None and defining.parent is not None
        block = defining.parent
        index = block.ops.index(defining) + 1
    while index < len(block.ops) and block.ops[index].name in (EDGE, FUNC_EDGE):
        index += 1
    block.insert(index, edge)
    for use in uses:
        use.owner.set_operand(use.index, edge.results[0])


# -- sdy-add-data-flow-edges / sdy-sink-data-flow-edges ---------------------------------


def add_data_flow_edges(module: Module, only: Callable[[Op], bool] | None = None) -> None:
    """`sdy-add-data-flow-edges` (see the module docstring): tensors only (a
    token owns no edge), and a value that has an edge keeps it (Shardy would
    add a second one, which its verifier then rejects); `only`: on the
    data-flow ops it accepts only."""
    for op in [o for o in module.walk() if has_trait(o, DATA_FLOW) and (only is None or only(o))]:
        owners, shardings = _owner_shardings(op)
        for owner, sharding in zip(owners, shardings, strict=True):
            if not isinstance(owner.type, TensorType) or _edge_of(owner) is not None:
                continue
            attrs = {"sharding": sharding} if sharding is not None else {}
            _insert_edge(owner, _edge_op(EDGE, owner, attrs))


def _edge_of(owner: Value) -> Op | None:
    for user in owner.users:
        if user.name == EDGE:
            return user
    return None


def _open(value: Value, mesh: str | object) -> TensorSharding:
    rank = len(value.type.shape) if isinstance(value.type, TensorType) else 0
    return TensorSharding(mesh, tuple(DimSharding((), False) for _ in range(rank)))  # type: ignore[arg-type]


def sink_data_flow_edges(module: Module, only: Callable[[Op], bool] | None = None) -> None:
    """`sdy-sink-data-flow-edges` (see the module docstring): the block
    arguments' edges and the results' edges of an op are sunk apart (a
    fully open sharding fills in only beside a sharding of the same kind);
    `only`: the edges of the data-flow ops it accepts only."""
    for op in [o for o in module.walk() if has_trait(o, DATA_FLOW) and (only is None or only(o))]:
        owners, _ = _owner_shardings(op)
        arguments = len(op.regions[0].entry.arguments) if has_trait(op, COMPUTATION) else 0
        edges = [_edge_of(owner) for owner in owners]
        for part in (slice(0, arguments), slice(arguments, None)):
            shardings = _sunk(owners[part], edges[part])
            if shardings is not None:
                _write_owner_shardings(op, shardings, results=part.start == arguments)
        for edge in edges:
            if edge is not None:
                edge.results[0].replace_all_uses_with(edge.operands[0])
                edge.erase()


def _sunk(owners: list[Value], edges: list[Op | None]) -> list[TensorSharding] | None:
    """The edges' shardings, fully open where an edge has none; None when
    no edge has one."""
    found = [e.attributes["sharding"] for e in edges if e and "sharding" in e.attributes]
    if not found:
        return None
    mesh = found[0].mesh
    return [
        e.attributes["sharding"] if e and "sharding" in e.attributes else _open(o, mesh)
        for o, e in zip(owners, edges, strict=True)
    ]


def _write_owner_shardings(op: Op, shardings: list[TensorSharding], *, results: bool) -> None:
    if results:
        op.attributes[_result_key(op)] = TensorShardingPerValue(tuple(shardings))
        return
    if op.name == "sdy.manual_computation":
        manual = op.attributes["manual_axes"].names
        ins = _per_value(op, "in_shardings") or ()
        shardings = [add_free_axes(o, s, manual) for o, s in zip(ins, shardings, strict=True)]
    op.attributes["in_shardings"] = TensorShardingPerValue(tuple(shardings))


# -- sdy-add-func-data-flow-edges / sdy-sink-func-data-flow-edges -----------------------


def add_func_data_flow_edges(module: Module) -> None:
    """`sdy-add-func-data-flow-edges`: an `sdy.func_data_flow_edge` on every
    argument of every function but `main` and on every `func.call` result,
    carrying its sharding as a one-value `sdy.sharding_per_value`."""
    for func in module.functions:
        if func.is_declaration:
            continue
        if func.name != "main":
            for i, arg in enumerate(func.arguments):
                s = func_arg_sharding(func, i)
                attrs = {SHARDING: TensorShardingPerValue((s,))} if s is not None else {}
                _insert_edge(arg, _edge_op(FUNC_EDGE, arg, attrs))
        for call in [o for o in func.walk() if o.name == "func.call"]:
            per_value = _per_value(call, SHARDING)
            for i, result in enumerate(call.results):
                attrs = {}
                if per_value is not None:
                    attrs[SHARDING] = TensorShardingPerValue((per_value[i],))
                _insert_edge(result, _edge_op(FUNC_EDGE, result, attrs))


def sink_func_data_flow_edges(module: Module) -> None:
    """`sdy-sink-func-data-flow-edges`: each `sdy.func_data_flow_edge`'s
    sharding goes back to the function argument or call result it stands
    for, and the edge goes."""
    for func in module.functions:
        for edge in [o for o in func.walk() if o.name == FUNC_EDGE]:
            source = edge.operands[0]
            per_value = _per_value(edge, SHARDING)
            if per_value is not None:
                set_sharding(source, per_value[0])
            edge.results[0].replace_all_uses_with(source)
            edge.erase()


# -- propagation through explicit edges ----------------------------------------------


def propagate_through_edges(module: Module, run: Callable[[Module, EdgeChoice], Module]) -> Module:
    """`run(module, data_flow_edges)` on a module that may hold explicit
    `sdy.data_flow_edge` ops, returning what Shardy's propagation passes
    return on it.

    Without edges, `run(module, False)`. With edges, the edges' shardings
    are moved onto their owners, `run` propagates along the data flow of
    each op that had edges (`data_flow_edges` accepts those ops only; see
    `shardonnay.propagation.data_flow`), and the edges come back, carrying
    the propagated shardings, while the owners keep the attributes they had
    (propagation reads and writes the edges only).
    """
    if not any(op.name == EDGE for op in module.walk()):
        return run(module, False)
    work = module.copy()
    owners = [
        op
        for op in work.walk()
        if has_trait(op, DATA_FLOW) and any(_edge_of(o) for o in _owner_shardings(op)[0])
    ]
    saved = [{k: op.attributes.get(k) for k in _OWNER_KEYS} for op in owners]
    unsharded = [
        [not (e is not None and "sharding" in e.attributes) for e in map(_edge_of, owned)]
        for owned in (_owner_shardings(op)[0] for op in owners)
    ]
    sink_data_flow_edges(work)
    for op in owners:
        op.attributes[_TIED] = True
    result = run(work, lambda op: _TIED in op.attributes)
    after = [op for op in result.walk() if _TIED in op.attributes]
    if len(after) != len(owners):
        raise IRError("propagation removed a data-flow op that owns edges")
    for op, attributes in zip(after, saved, strict=True):
        del op.attributes[_TIED]
        add_data_flow_edges(result, only=lambda o, op=op: o is op)
        for key, value in attributes.items():
            if value is None:
                op.attributes.pop(key, None)
            else:
                op.attributes[key] = value
    for op, without in zip(after, unsharded, strict=True):
        # An edge that had no sharding and got no axes keeps having none (the
        # open sharding the sink wrote in its place was no change).
        for owner, had_none in zip(_owner_shardings(op)[0], without, strict=True):
            edge = _edge_of(owner)
            if had_none and edge is not None and _is_empty_open(edge.attributes.get("sharding")):
                del edge.attributes["sharding"]
    for op in work.walk():
        op.attributes.pop(_TIED, None)
    return result


# Marks, while propagating, the data-flow ops whose edges were explicit.
_TIED = "shardonnay.tied_by_edges"
_OWNER_KEYS = (SHARDING, "in_shardings", "out_shardings")


def _is_empty_open(sharding: TensorSharding | None) -> bool:
    return (
        sharding is not None
        and not sharding.replicated
        and not sharding.unreduced
        and all(not d.axes and not d.is_closed and d.priority is None for d in sharding.dims)
    )
