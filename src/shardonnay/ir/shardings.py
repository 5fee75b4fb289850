"""Where the sharding of a value lives: Shardy's `getSharding` / `setSharding`.

Every pass reads and writes a value's sharding through `sharding_of` and
`set_sharding`, and the attribute names are defined here only:

- a function argument: its `sdy.sharding` argument attribute (a function
  result: `func_result_sharding`);
- the result of `sdy.reshard`, `sdy.sharding_constraint` or
  `sdy.data_flow_edge`: their `sharding`; of a collective (an `sdy` op with an
  `out_sharding`, Shardy's `CollectiveOpInterface`): its `out_sharding`;
- the result of a named or manual computation: its `out_shardings`; an
  argument of its body: its `in_shardings` (without the manual axes of a
  manual computation, which its body does not see: `erase_manual_axes`;
  writing one puts them back, `add_free_axes`);
- an argument of a `stablehlo.while` region: the sharding of the matching
  `while` result (they form one data-flow edge);
- any other op result: the op's `sdy.sharding`, a
  `#sdy.sharding_per_value<[...]>` with one sharding per result; writing one
  result's sharding gives the others without one a fully open sharding.

Scalar block arguments (of reduction bodies, say) and the arguments of other
regions have none.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2, "y"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> tensor<8xf32> {
...   %0:2 = stablehlo.optimization_barrier %arg0, %arg0 : tensor<8xf32>, tensor<8xf32>
...   %1 = sdy.manual_computation(%0#0) in_shardings=[<@mesh, [{"x", "y"}]>]
...       out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
...     sdy.return %arg1 : tensor<4xf32>
...   } : (tensor<8xf32>) -> tensor<8xf32>
...   return %1 : tensor<8xf32>
... }''')
>>> main = module.functions[0]
>>> str(sharding_of(main.arguments[0]))
'#sdy.sharding<@mesh, [{"x"}]>'
>>> manual = main.body.ops[1]
>>> body_arg = manual.regions[0].entry.arguments[0]
>>> str(sharding_of(body_arg))               # the body sees no manual axis
'#sdy.sharding<@mesh, [{"y"}]>'
>>> set_sharding(body_arg, TensorSharding.parse('<@mesh, [{}]>'))
>>> str(manual.attributes[IN_SHARDINGS])     # the manual axes are put back
'#sdy.sharding_per_value<[<@mesh, [{"x"}]>]>'
>>> barrier = main.body.ops[0]
>>> set_sharding(barrier.results[1], TensorSharding.parse('<@mesh, [{"y"}]>'))
>>> str(barrier.attributes[SHARDING])        # the other result gets an open one
'#sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"y"}]>]>'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from shardonnay.ir.core import Block, Func, Op, Value
from shardonnay.ir.types import TensorType, Type
from shardonnay.mesh import Mesh
from shardonnay.ops.traits import COMPUTATION, SHARDING_ANNOTATION, has_trait, traits_of
from shardonnay.sharding import DimSharding, TensorSharding, TensorShardingPerValue

__all__ = [
    "IN_SHARDINGS",
    "MANUAL_AXES",
    "OUT_SHARDING",
    "OUT_SHARDINGS",
    "SHARDING",
    "add_free_axes",
    "edge_sources",
    "erase_manual_axes",
    "func_arg_sharding",
    "func_result_sharding",
    "is_equivalent",
    "mesh_of",
    "module_meshes",
    "open_sharding",
    "set_func_result_sharding",
    "set_sharding",
    "sharding_of",
]

# A function argument's or result's sharding (argument/result attribute), and an
# op's shardings, one per result (`#sdy.sharding_per_value<[...]>`).
SHARDING = "sdy.sharding"
# A named or manual computation's shardings of its operands (as its body's
# arguments) and of its results; a manual computation's manual axes.
IN_SHARDINGS = "in_shardings"
OUT_SHARDINGS = "out_shardings"
MANUAL_AXES = "manual_axes"
# A collective's result sharding.
OUT_SHARDING = "out_sharding"
# The one sharding of `sdy.reshard`, `sdy.sharding_constraint`, `sdy.data_flow_edge`.
_OWN_SHARDING = "sharding"


def mesh_of(
    sharding: TensorSharding,
    meshes: Mapping[str, Mesh],
    error: Callable[[str], Exception] | None = None,
) -> Mesh:
    """The mesh `sharding` is on: its inlined mesh, or the one of `meshes` it
    names. A name `meshes` lacks raises `error("unknown mesh @name")` (a
    `KeyError` of the name without `error`).

    >>> meshes = {"mesh": Mesh.parse('<["x"=2]>')}
    >>> print(mesh_of(TensorSharding.parse('<@mesh, [{"x"}]>'), meshes))
    <["x"=2]>
    >>> mesh_of(TensorSharding.parse('<@other, [{}]>'), meshes, ValueError)
    Traceback (most recent call last):
    ValueError: unknown mesh @other
    """
    if isinstance(sharding.mesh, Mesh):
        return sharding.mesh
    mesh = meshes.get(sharding.mesh)
    if mesh is None:
        if error is None:
            raise KeyError(sharding.mesh)
        raise error(f"unknown mesh @{sharding.mesh}")
    return mesh


def module_meshes(op: Op) -> dict[str, Mesh] | None:
    """The meshes of the top-level block holding `op` (its module's `sdy.mesh`
    symbols, where Shardy looks a sharding's mesh name up); None when `op` is
    in no block."""
    block = op.parent
    while block is not None and block.parent_op is not None:
        block = block.parent_op.parent
    if block is None:
        return None
    return {
        o.attributes["sym_name"]: o.attributes["mesh"] for o in block.ops if o.name == "sdy.mesh"
    }


def _parent_op(v: Value) -> Op | None:
    block = v.defining
    return block.parent_op if isinstance(block, Block) else None


def _sharding_place(op: Op) -> str:
    """The attribute holding the shardings of `op`'s results: `_OWN_SHARDING`
    (its one sharding), `OUT_SHARDING` (a collective's), `OUT_SHARDINGS` (a
    computation's, one per result) or `SHARDING` (any other op's, one per
    result). Every pass asks for the shardings of the values it meets, so the
    op's traits are looked up once."""
    traits = traits_of(op.name)
    if SHARDING_ANNOTATION in traits or op.name == "sdy.data_flow_edge":
        return _OWN_SHARDING
    if op.name.startswith("sdy.") and OUT_SHARDING in op.attributes:
        return OUT_SHARDING
    return OUT_SHARDINGS if COMPUTATION in traits else SHARDING


def sharding_of(v: Value) -> TensorSharding | None:
    """The sharding of `v` (see the module docstring); None when it has none."""
    op = v.defining
    if not isinstance(op, Op):
        parent = _parent_op(v)
        if parent is None:
            return None
        if parent.name == "func.func":
            return _signature_sharding(parent, "arg_attrs", v.index)
        if parent.name == "stablehlo.while":
            return sharding_of(parent.results[v.index])
        if parent.name == "sdy.named_computation":
            return _per_value_at(parent.attributes.get(IN_SHARDINGS), v.index)
        if parent.name == "sdy.manual_computation":
            s = _per_value_at(parent.attributes.get(IN_SHARDINGS), v.index)
            return None if s is None else erase_manual_axes(s, _manual_axes(parent))
        return None
    place = _sharding_place(op)
    s = op.attributes.get(place)
    if place is _OWN_SHARDING or place is OUT_SHARDING:
        return s if isinstance(s, TensorSharding) else None
    return _per_value_at(s, v.index)


def set_sharding(v: Value, sharding: TensorSharding) -> None:
    """Gives `v` the sharding `sharding`, where `sharding_of` finds it (a
    manual computation's body argument: with the manual axes of its
    in-sharding put back); the other values of an op or computation without
    shardings get fully open ones. A value that has no place for a sharding
    (an argument of a reduction body, say) is left alone."""
    op = v.op
    if op is None:
        parent = _parent_op(v)
        if parent is None:
            return
        if parent.name == "func.func":
            Func(parent).arg_attrs(v.index)[SHARDING] = sharding
        elif parent.name == "stablehlo.while":
            set_sharding(parent.results[v.index], sharding)
        elif parent.name == "sdy.named_computation":
            arguments = parent.regions[0].entry.arguments
            _set_per_value(parent, IN_SHARDINGS, v.index, sharding, arguments)
        elif parent.name == "sdy.manual_computation":
            ins = list(parent.attributes[IN_SHARDINGS])
            ins[v.index] = add_free_axes(ins[v.index], sharding, _manual_axes(parent))
            parent.attributes[IN_SHARDINGS] = TensorShardingPerValue(tuple(ins))
        return
    place = _sharding_place(op)
    if place is _OWN_SHARDING or place is OUT_SHARDING:
        op.attributes[place] = sharding
    else:
        _set_per_value(op, place, v.index, sharding, op.results)


def func_arg_sharding(func: Func, index: int) -> TensorSharding | None:
    """The sharding of argument `index` of `func`, a declaration's too."""
    return _signature_sharding(func.op, "arg_attrs", index)


def func_result_sharding(func: Func, index: int) -> TensorSharding | None:
    """The sharding of result `index` of `func` (its `sdy.sharding` result attribute)."""
    return _signature_sharding(func.op, "res_attrs", index)


def set_func_result_sharding(func: Func, index: int, sharding: TensorSharding) -> None:
    """Gives result `index` of `func` the sharding `sharding`."""
    func.result_attrs(index)[SHARDING] = sharding


def _manual_axes(op: Op) -> tuple[str, ...]:
    return op.attributes[MANUAL_AXES].names


def _signature_sharding(func: Op, key: str, index: int) -> TensorSharding | None:
    """The `sdy.sharding` of a function's argument or result (`key`:
    `arg_attrs`, `res_attrs`), read without creating its attribute dicts."""
    dicts = func.attributes.get(key)
    if not dicts or index >= len(dicts) or not isinstance(dicts[index], dict):
        return None
    s = dicts[index].get(SHARDING)
    return s if isinstance(s, TensorSharding) else None


def _per_value_at(per_value, index: int) -> TensorSharding | None:
    if isinstance(per_value, TensorShardingPerValue):
        return per_value[index]
    return None


def _set_per_value(op: Op, key: str, index: int, sharding: TensorSharding, values) -> None:
    per_value = op.attributes.get(key)
    if isinstance(per_value, TensorShardingPerValue):
        shardings = list(per_value)
        shardings[index] = sharding
    else:
        shardings = [
            sharding if i == index else open_sharding(sharding.mesh, v.type)
            for i, v in enumerate(values)
        ]
    op.attributes[key] = TensorShardingPerValue(tuple(shardings))


def open_sharding(mesh: str | Mesh, t: Type) -> TensorSharding:
    """The fully open sharding of a value of type `t` on `mesh` (every dim open and empty).

    >>> str(open_sharding("m", TensorType.parse("tensor<8x4xf32>")))
    '#sdy.sharding<@m, [{?}, {?}]>'
    """
    rank = len(t.shape) if isinstance(t, TensorType) else 0
    return TensorSharding.replicated_on(mesh, rank, is_closed=False)


def erase_manual_axes(sharding: TensorSharding, manual_axes: Sequence[str]) -> TensorSharding:
    """`sharding` (of a manual computation's operand or result) as its body sees
    it: without the manual axes, which lead every dim.

    >>> s = TensorSharding.parse('<@m, [{"x", "y", ?}, {"x"}], replicated={"x", "z"}>')
    >>> str(erase_manual_axes(s, ["x"]))
    '#sdy.sharding<@m, [{"y", ?}, {}], replicated={"z"}>'
    """
    if not manual_axes:
        return sharding
    dims = []
    for d in sharding.dims:
        k = 0
        while k < len(d.axes) and d.axes[k].name in manual_axes:
            k += 1
        dims.append(DimSharding(d.axes[k:], d.is_closed, d.priority))
    return TensorSharding(
        sharding.mesh,
        tuple(dims),
        tuple(a for a in sharding.replicated if a.name not in manual_axes),
        tuple(a for a in sharding.unreduced if a.name not in manual_axes),
        sharding.reduction,
    )


def add_free_axes(
    outer: TensorSharding, sharding: TensorSharding, manual_axes: Sequence[str]
) -> TensorSharding:
    """A body's view `sharding` seen from outside a manual computation whose
    operand or result has the sharding `outer`: every dim gets the manual axes
    of `outer` (major) then the axes of `sharding`; `replicated`/`unreduced`
    are those of `outer`.

    >>> outer = TensorSharding.parse('<@m, [{"x", ?}, {}], replicated={"z"}>')
    >>> str(add_free_axes(outer, TensorSharding.parse('<@m, [{"y"}, {?}]>'), ["x"]))
    '#sdy.sharding<@m, [{"x", "y"}, {?}], replicated={"z"}>'
    """
    dims = []
    for o, d in zip(outer.dims, sharding.dims, strict=True):
        k = 0
        while k < len(o.axes) and o.axes[k].name in manual_axes:
            k += 1
        dims.append(DimSharding((*o.axes[:k], *d.axes), d.is_closed, d.priority))
    return TensorSharding(
        sharding.mesh, tuple(dims), outer.replicated, outer.unreduced, outer.reduction
    )


def is_equivalent(a: TensorSharding | None, b: TensorSharding | None) -> bool:
    """Shardy's `isEquivalent`: the same mesh, dim axes and unreduced axes;
    open or closed dims, priorities and replicated axes do not count. Fully
    replicated shardings, on any meshes, and no sharding are all equivalent.

    >>> s = TensorSharding.parse
    >>> is_equivalent(s('<@m, [{"x"}, {?}], replicated={"y"}>'), s('<@m, [{"x"}, {}]>'))
    True
    >>> is_equivalent(s('<@m, [{"x"}, {}]>'), s('<@m, [{}, {"x"}]>'))
    False
    >>> is_equivalent(None, s('<@other, [{}, {}], replicated={"y"}>'))
    True
    """
    if a is None or a.is_fully_replicated():
        return b is None or b.is_fully_replicated()
    if b is None:
        return False
    return (
        a.mesh == b.mesh
        and a.unreduced == b.unreduced
        and all(x.axes == y.axes for x, y in zip(a.dims, b.dims, strict=True))
    )


def edge_sources(op: Op) -> list[tuple[TensorSharding | None, list[tuple[Op, int]]]]:
    """The data-flow edges of `op`, results' edges first: the sharding each
    edge has, as the values flowing into it see it, and the (op, operand
    index) pairs of those values. (The body of a manual computation sees its
    results without the manual axes; its operands flow into its arguments with
    them.) A `stablehlo.if` ties no values while propagating, but its branches
    return its results as a `case`'s do: they must have the results' shardings."""
    name = op.name
    if name == "stablehlo.while":
        body = op.regions[1].entry.terminator
        return [(sharding_of(r), [(op, i), (body, i)]) for i, r in enumerate(op.results)]
    if name in ("stablehlo.case", "stablehlo.if"):
        terminators = [region.entry.terminator for region in op.regions]
        return [(sharding_of(r), [(t, i) for t in terminators]) for i, r in enumerate(op.results)]
    if name == "stablehlo.optimization_barrier":
        return [(sharding_of(r), [(op, i)]) for i, r in enumerate(op.results)]
    if has_trait(op, COMPUTATION):
        body = op.regions[0].entry
        ret = body.terminator
        ins = op.attributes.get(IN_SHARDINGS)
        outs = [sharding_of(r) for r in op.results]
        if name == "sdy.manual_computation":
            manual = _manual_axes(op)
            outs = [None if s is None else erase_manual_axes(s, manual) for s in outs]
        return [(s, [(ret, i)]) for i, s in enumerate(outs)] + [
            (_per_value_at(ins, i), [(op, i)]) for i in range(len(body.arguments))
        ]
    return []
