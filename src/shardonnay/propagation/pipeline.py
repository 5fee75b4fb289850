"""Shardy's `sdy-propagation-pipeline`: import passes, propagation, export passes.

`propagation_pipeline(module)` returns a copy of `module` transformed as
`builtin.module(sdy-propagation-pipeline)` transforms it: each step below is
a function named after the Shardy pass it stands for, run in the pipeline's
order (passes that change nothing shardonnay prints are left out):

import
    `symbol_dce`, `remove_size_one_axes`,
    `propagate_sharding_from_func_to_call`, `constant_or_scalar_splitter`,
    `import_func_calls` (every `func.call` becomes an
    `sdy.named_computation` on its own copy of the callee),
    `apply_sharding_constraints`, `sharding_group_import`,
    `pre_order_funcs`;
propagation
    user-priority propagation (op-priority stages, aggressive factor
    propagation) with data-flow edges (`shardonnay.propagation.driver`);
export
    `export_named_computations` (back to calls of private functions),
    `propagate_to_func_results`, `unflatten_call_graph`, `symbol_dce`,
    `insert_func_call_reshards`, `constant_or_scalar_merger`,
    `remove_sharding_groups`, `sharding_constraint_to_reshard`,
    `update_non_divisible_input_output_shardings`,
    `remove_sub_axes_in_input_output_shardings`, `close_shardings`,
    explicit reshards.

The call steps live in `shardonnay.propagation.call_graph`.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4]>
... func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<8x4xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
...   %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"x"}]> : tensor<8x4xf32>
...   return %1 : tensor<8x4xf32>
... }''')
>>> out = propagation_pipeline(module)
>>> [str(op.attributes.get("sdy.sharding") or op.attributes.get("sharding"))
...  for op in out.functions[0].body.ops[:2]]
['#sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>', '#sdy.sharding<@mesh, [{}, {"x"}]>']
>>> out.functions[0].body.ops[1].name
'sdy.reshard'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.ir.attributes import DenseElementsAttr, IntegerAttr
from shardonnay.ir.core import Block, Func, Module, Op, Value
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.elementwise import ElementwiseOp
from shardonnay.ops.registry import is_registered, lookup
from shardonnay.propagation.call_graph import (
    export_named_computations,
    import_func_calls,
    insert_func_call_reshards,
    pre_order_funcs,
    propagate_sharding_from_func_to_call,
    propagate_to_func_results,
    symbol_dce,
    unflatten_call_graph,
)
from shardonnay.propagation.driver import erase_dead_ops, pausing_cyclic_gc, propagate
from shardonnay.propagation.validation import validate_for_propagation
from shardonnay.sharding import DimSharding, TensorSharding, TensorShardingPerValue

__all__ = [
    "apply_sharding_constraints",
    "close_shardings",
    "constant_or_scalar_merger",
    "constant_or_scalar_splitter",
    "propagation_pipeline",
    "remove_sharding_groups",
    "remove_size_one_axes",
    "remove_sub_axes_in_input_output_shardings",
    "sharding_constraint_to_reshard",
    "sharding_group_import",
    "update_non_divisible_input_output_shardings",
]

SHARDING = "sdy.sharding"
Transform = Callable[[TensorSharding], TensorSharding]


@pausing_cyclic_gc
def propagation_pipeline(
    module: Module,
    *,
    conservative: bool = False,
    debug_origins: bool = False,
    debug_edges: bool = False,
) -> Module:
    """A copy of `module` after Shardy's `sdy-propagation-pipeline` (see the
    module docstring). `conservative`: never split an axis into sub-axes
    while propagating (`conservative-propagation=true`). `debug_origins`:
    note where each axis came from (`debug-sharding-origins=true`, see
    `shardonnay.propagation.origins`); `debug_edges`: note the steps that
    carried each axis (`debug-propagation-edge-sharding=true`)."""
    validate_for_propagation(module, groups_merged=False, warn=False)
    module = _copy(module)
    symbol_dce(module)
    lift_inlined_meshes(module)
    remove_size_one_axes(module)
    propagate_sharding_from_func_to_call(module)
    constant_or_scalar_splitter(module)
    import_func_calls(module)
    apply_sharding_constraints(module)
    sharding_group_import(module)
    pre_order_funcs(module)
    recorder = None
    if debug_origins or debug_edges:
        from shardonnay.propagation.origins import debug_recorder

        recorder = debug_recorder(module, origins=debug_origins, edges=debug_edges)
    module = propagate(
        module,
        strategy="user-priority",
        conservative=conservative,
        data_flow_edges=True,
        recorder=recorder,
    )
    if recorder is not None:
        from shardonnay.propagation.origins import save_origins

        save_origins(
            recorder, sink_named_computations=False, origins=debug_origins, edges=debug_edges
        )
    export_named_computations(module)
    propagate_to_func_results(module)
    unflatten_call_graph(module)
    symbol_dce(module)
    insert_func_call_reshards(module)
    constant_or_scalar_merger(module)
    remove_sharding_groups(module)
    sharding_constraint_to_reshard(module)
    update_non_divisible_input_output_shardings(module)
    remove_sub_axes_in_input_output_shardings(module)
    close_shardings(module)
    from shardonnay.partition.explicit_reshards import insert_explicit_reshards

    insert_explicit_reshards(module, full_version=False)
    canonicalize(module)
    return module


def _copy(module: Module) -> Module:
    copy = Module(name=module.name, attributes=dict(module.attributes))
    copy.aliases = dict(module.aliases)
    copy.trailer = module.trailer
    mapping: dict[Value, Value] = {}
    for op in module.ops:
        clone = op.clone(mapping)
        for key in ("arg_attrs", "res_attrs"):
            if key in op.attributes:
                clone.attributes[key] = tuple(dict(d) for d in op.attributes[key])
        copy.append(clone)
    return copy


# -- every sharding of a module ---------------------------------------------------------


def transform_shardings(module: Module, fn: Transform) -> None:
    """Replaces, in place, every sharding of `module` (function arguments and
    results, op results, sharding constraints and reshards, the in/out
    shardings of named and manual computations) by `fn(sharding)`."""
    for func in module.functions:
        for key in ("arg_attrs", "res_attrs"):
            for attrs in func.op.attributes.get(key, ()):
                if isinstance(attrs.get(SHARDING), TensorSharding):
                    attrs[SHARDING] = fn(attrs[SHARDING])
    for op in module.walk():
        for key in (SHARDING, "sharding", "in_shardings", "out_shardings"):
            value = op.attributes.get(key)
            if isinstance(value, TensorSharding):
                op.attributes[key] = fn(value)
            elif isinstance(value, TensorShardingPerValue):
                op.attributes[key] = TensorShardingPerValue(tuple(fn(s) for s in value))


def _mesh(module: Module, sharding: TensorSharding) -> Mesh:
    return sharding.mesh if isinstance(sharding.mesh, Mesh) else module.meshes[sharding.mesh]


def _with_dims(
    sharding: TensorSharding,
    dims: tuple[DimSharding, ...],
    replicated: tuple[AxisRef, ...] | None = None,
    unreduced: tuple[AxisRef, ...] | None = None,
) -> TensorSharding:
    return TensorSharding(
        sharding.mesh,
        dims,
        sharding.replicated if replicated is None else replicated,
        sharding.unreduced if unreduced is None else unreduced,
        sharding.reduction,
    )


# -- import -------------------------------------------------------------------------


def lift_inlined_meshes(module: Module) -> None:
    """`sdy-lift-inlined-meshes`: every `sdy.mesh` also gets its StableHLO
    form, `{stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}],
    device_ids = dense<...> : tensor<Nxi64>}}` (device ids only when given)."""
    for op in module.ops:
        if op.name != "sdy.mesh":
            continue
        mesh: Mesh = op.attributes["mesh"]
        value: dict = {
            "axes": tuple(
                {"name": name, "size": IntegerAttr(size, "i64")} for name, size in mesh.axes
            )
        }
        if mesh.device_ids is not None:
            ids = np.array(mesh.device_ids, dtype=np.int64)
            value["device_ids"] = DenseElementsAttr.from_numpy(ids, TensorType((len(ids),), "i64"))
        op.attributes["stablehlo.mesh"] = value


def remove_size_one_axes(module: Module) -> None:
    """`sdy-remove-size-one-axes`: axes of size 1 leave every sharding (a dim
    left closed and empty loses its priority); the meshes keep them.

    `[{"x", "one"}p1, {"one"}p0]` on `<["x"=2, "one"=1]>` becomes `[{"x"}p1, {}]`.
    """
    if not any(size == 1 for mesh in module.meshes.values() for _, size in mesh.axes):
        return

    def remove(sharding: TensorSharding) -> TensorSharding:
        mesh = _mesh(module, sharding)

        def big(axes: tuple[AxisRef, ...]) -> tuple[AxisRef, ...]:
            return tuple(a for a in axes if a.size(mesh) != 1)

        dims = []
        for d in sharding.dims:
            axes = big(d.axes)
            priority = None if not axes and d.is_closed else d.priority
            dims.append(DimSharding(axes, d.is_closed, priority))
        return _with_dims(sharding, tuple(dims), big(sharding.replicated), big(sharding.unreduced))

    transform_shardings(module, remove)


def _is_scalar(v: Value) -> bool:
    return isinstance(v.type, TensorType) and len(v.type.shape) == 0


def _is_pure(op: Op) -> bool:
    return is_registered(op.name) and lookup(op.name).pure and not op.regions


def _is_elementwise(op: Op) -> bool:
    if op.name in ("stablehlo.compare", "stablehlo.select", "stablehlo.clamp"):
        return True
    return is_registered(op.name) and isinstance(lookup(op.name), ElementwiseOp)


def _is_constant_expression(op: Op, constants: set[Op]) -> bool:
    if op.name in ("sdy.constant", "stablehlo.iota"):
        return True
    preserving = op.name in (
        "stablehlo.broadcast_in_dim",
        "stablehlo.reshape",
        "stablehlo.slice",
    ) or _is_elementwise(op)
    return (
        preserving
        and _is_pure(op)
        and all(v.op is not None and v.op in constants for v in op.operands)
    )


def _is_scalar_expansion(op: Op) -> bool:
    return op.name == "stablehlo.broadcast_in_dim" and _is_scalar(op.operands[0])


def _walk_func(func: Func) -> Iterator[Op]:
    for op in list(func.body.ops):
        yield from op.walk()


def constant_or_scalar_splitter(module: Module) -> None:
    """`sdy-constant-or-scalar-splitter`: `stablehlo.constant` becomes
    `sdy.constant` (which nothing folds); every use, by an op that is not
    itself a constant expression, of a constant expression (constants, iotas
    and broadcasts, reshapes, slices or elementwise ops of constant
    expressions) or of a broadcast of a scalar gets its own copy of that
    sub-computation (scalars are shared), so that each use may be sharded
    differently. The originals then go (their sharding groups with them).
    """
    for op in list(module.walk()):
        if op.name == "stablehlo.constant":
            op.name = "sdy.constant"
    for func in module.functions:
        if func.is_declaration:
            continue
        constants: list[Op] = []
        constant_set: set[Op] = set()
        expansions: list[Op] = []
        expansion_set: set[Op] = set()
        edits = _BlockEdits()
        for op in _walk_func(func):
            if op.name == "sdy.sharding_group":
                continue
            if _is_constant_expression(op, constant_set):
                constants.append(op)
                constant_set.add(op)
                continue
            if _is_scalar_expansion(op):
                expansions.append(op)
                expansion_set.add(op)
                continue
            for i, v in enumerate(op.operands):
                if v.op is not None and (v.op in constant_set or v.op in expansion_set):
                    op.set_operand(i, _clone_sub_computation(v, edits))
        for op in [*expansions, *reversed(constants)]:
            users = [u for r in op.results for u in r.users]
            if all(u.name == "sdy.sharding_group" for u in users):
                for u in users:
                    edits.erase(u)
                edits.erase(op)
        edits.apply()


class _BlockEdits:
    """Insertions before ops and erasures of ops, written to the op lists of
    their blocks at once by `apply` (one pass per block: inserting or erasing
    one at a time scans the block's list each time, quadratic in its length).
    Until then, an inserted op already has its block as parent, and an erased
    op has no parent and no uses of its operands."""

    def __init__(self) -> None:
        self.before: dict[Op, list[Op]] = {}
        self.blocks: dict[int, Block] = {}

    def insert_before(self, anchor: Op, op: Op) -> None:
        block = anchor.parent
        assert block is not None
        op.parent = block
        self.before.setdefault(anchor, []).append(op)
        self.blocks[id(block)] = block

    def erase(self, op: Op) -> None:
        block = op.parent
        assert block is not None
        self.blocks[id(block)] = block
        op.parent = None  # `Op.erase` then leaves the block's list alone
        op.erase()

    def apply(self) -> None:
        for block in self.blocks.values():
            ops: list[Op] = []
            for op in block.ops:
                ops.extend(new for new in self.before.get(op, ()) if new.parent is block)
                if op.parent is block:
                    ops.append(op)
            block.ops[:] = ops
        self.before.clear()
        self.blocks.clear()


def _clone_sub_computation(value: Value, edits: _BlockEdits) -> Value:
    if _is_scalar(value):
        return value
    mapping: dict[Value, Value] = {}

    def clone(v: Value) -> None:
        if _is_scalar(v) or v in mapping:
            return
        op = v.op
        assert op is not None and op.parent is not None
        for operand in op.operands:
            if operand.op is not None:
                clone(operand)
        edits.insert_before(op, op.clone(mapping))
        for user in v.users:
            if user.name == "sdy.sharding_group":
                edits.insert_before(op, user.clone(mapping))

    clone(value)
    return mapping[value]


def _sharding_of(v: Value) -> TensorSharding | None:
    if v.op is not None:
        if v.op.name == "sdy.sharding_constraint":
            return v.op.attributes["sharding"]
        key = "out_shardings" if v.op.name == "sdy.named_computation" else SHARDING
        per_value = v.op.attributes.get(key)
        return per_value[v.index] if isinstance(per_value, TensorShardingPerValue) else None
    func = _func_of_argument(v)
    if func is not None:
        s = func.arg_attrs(v.index).get(SHARDING)
        return s if isinstance(s, TensorSharding) else None
    named = _named_computation_of_argument(v)
    if named is not None:
        in_shardings = named.attributes.get("in_shardings")
        return in_shardings[v.index] if in_shardings is not None else None
    owner = _edge_owner_of_block_argument(v)
    return _sharding_of(owner) if owner is not None else None


def _func_of_argument(v: Value) -> Func | None:
    block = v.defining
    if isinstance(block, Block):
        parent = block.parent_op
        if parent is not None and parent.name == "func.func":
            return Func(parent)
    return None


_DATA_FLOW_RESULT_OPS = (
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.if",
    "stablehlo.optimization_barrier",
    "sdy.named_computation",
)


def _named_computation_of_argument(v: Value) -> Op | None:
    block = v.defining
    if isinstance(block, Block):
        parent = block.parent_op
        if parent is not None and parent.name == "sdy.named_computation":
            return parent
    return None


def _edge_owner_of_block_argument(v: Value) -> Value | None:
    block = v.defining
    if isinstance(block, Block):
        parent = block.parent_op
        if parent is not None and parent.name == "stablehlo.while":
            return parent.results[v.index]
    return None


def _is_data_flow_target(v: Value) -> bool:
    if v.op is not None:
        return v.op.name in _DATA_FLOW_RESULT_OPS
    return (
        _edge_owner_of_block_argument(v) is not None
        or _named_computation_of_argument(v) is not None
    )


def _is_shardable(v: Value) -> bool:
    if not isinstance(v.type, TensorType):
        return False
    return v.op is not None or _func_of_argument(v) is not None or _is_data_flow_target(v)


def _set_sharding(v: Value, sharding: TensorSharding) -> None:
    func = _func_of_argument(v)
    if func is not None:
        func.arg_attrs(v.index)[SHARDING] = sharding
        return
    op = v.op
    assert op is not None
    per_value = op.attributes.get(SHARDING)
    shardings = [
        per_value[i]
        if isinstance(per_value, TensorShardingPerValue)
        else TensorSharding.replicated_on(
            sharding.mesh,
            len(r.type.shape) if isinstance(r.type, TensorType) else 0,
            is_closed=False,
        )
        for i, r in enumerate(op.results)
    ]
    shardings[v.index] = sharding
    op.attributes[SHARDING] = TensorShardingPerValue(tuple(shardings))


def _is_constraint_like(op: Op) -> bool:
    return op.name in ("sdy.sharding_constraint", "sdy.manual_computation")


def _chain_tail(head: Op) -> Op | None:
    """The last sharding constraint of a chain starting at `head`, if the
    chain's uses may be redirected to it (see `apply_sharding_constraints`)."""
    source = head.operands[0]
    if source.op is not None and source.op.name == "sdy.sharding_constraint":
        return None
    if _sharding_of(source) is not None:
        return None
    if any(_is_constraint_like(u) for u in source.users if u is not head):
        return None
    tail = head
    while len(tail.results[0].uses) == 1 and tail.results[0].users[0].name == (
        "sdy.sharding_constraint"
    ):
        tail = tail.results[0].users[0]
    if tail is head or any(_is_constraint_like(u) for u in tail.results[0].users):
        return None
    return tail


def _before_in_block(a: Op, b: Op) -> bool:
    ops = a.parent.ops  # type: ignore[union-attr]
    return ops.index(a) < ops.index(b)


def apply_sharding_constraints(module: Module) -> None:
    """`sdy-apply-sharding-constraints`: a fully closed sharding constraint
    gives its sharding to its input, when the input has none and no other
    sharding constraint (or manual computation) with a different sharding
    uses it. An input tied to others by a data-flow edge (results of
    control-flow ops and named computations, arguments of a while's regions
    and of a named computation) keeps its own sharding: the constraint moves
    right after it (after those moved there for the values of the same op
    with lower indices) and takes all its uses instead.

    A chain of constraints `y = c1(x); z = c2(y)` whose head's input `x` has
    no sharding and no other constraint, and whose members but the tail have
    one use, first gets the later uses of `x` (in the tail's block, other
    than `return`) redirected to the tail `z`.
    """
    moved: set[Op] = set()
    for op in [o for o in module.walk() if o.name == "sdy.sharding_constraint"]:
        tail = _chain_tail(op)
        source = op.operands[0]
        if tail is not None:
            for use in list(source.uses):
                user = use.owner
                if (
                    user is not op
                    and user.name != "func.return"
                    and user.parent is tail.parent
                    and _before_in_block(tail, user)
                ):
                    user.set_operand(use.index, tail.results[0])
        sharding: TensorSharding = op.attributes["sharding"]
        if not _should_apply(source, sharding):
            continue
        if _is_data_flow_target(source):
            _move_after_value(op, source, moved)
            moved.add(op)
            for use in list(source.uses):
                if use.owner is not op:
                    use.owner.set_operand(use.index, op.results[0])
        else:
            _set_sharding(source, sharding)


def _should_apply(v: Value, sharding: TensorSharding) -> bool:
    if not _is_shardable(v) or _sharding_of(v) is not None:
        return False
    if not all(d.is_closed for d in sharding.dims):
        return False
    for user in v.users:
        if user.name == "sdy.sharding_constraint" and user.attributes["sharding"] != sharding:
            return False
        if user.name == "sdy.manual_computation":
            index = next(u.index for u in v.uses if u.owner is user)
            if user.attributes["in_shardings"][index] != sharding:
                return False
    return True


def _move_after_value(op: Op, v: Value, moved: set[Op]) -> None:
    """Moves `op` right after `v`'s definition (the start of the block for a
    block argument), past the constraints in `moved` on the same op's values
    of lower index (Shardy puts each after the data-flow edge op of its value;
    a while's region arguments have none)."""
    block = op.parent
    assert block is not None
    block.ops.remove(op)
    if v.op is not None:
        target = v.op.parent
        assert target is not None
        position = target.ops.index(v.op) + 1
        siblings = v.op.results
    else:
        target = v.defining
        assert isinstance(target, Block)
        position = 0
        siblings = target.arguments if _named_computation_of_argument(v) is not None else []
    while position < len(target.ops):
        other = target.ops[position]
        source = other.operands[0] if other in moved else None
        if source is None or source not in siblings or source.index >= v.index:
            break
        position += 1
    target.insert(position, op)


def sharding_group_import(module: Module) -> None:
    """`sdy-sharding-group-import`: sharding groups that share a value become
    one group; groups are renumbered from 0 in order of first appearance."""
    groups = [op for op in module.walk() if op.name == "sdy.sharding_group"]
    parent: dict[int, int] = {}

    def find(g: int) -> int:
        while parent.setdefault(g, g) != g:
            g = parent[g]
        return g

    first: dict[Value, int] = {}
    for op in groups:
        g = op.attributes["group_id"].value
        other = first.setdefault(op.operands[0], g)
        parent[find(g)] = find(other)
    numbering: dict[int, int] = {}
    for op in groups:
        root = find(op.attributes["group_id"].value)
        op.attributes["group_id"] = IntegerAttr(numbering.setdefault(root, len(numbering)), "i64")


# -- export -------------------------------------------------------------------------


def constant_or_scalar_merger(module: Module) -> None:
    """`sdy-constant-or-scalar-merger`: constants with equal attributes
    (sharding included) in one region become one; so do broadcasts of the
    same scalar to the same type with equal attributes."""
    constants: dict[tuple, Op] = {}
    broadcasts: dict[tuple, Op] = {}
    edits = _BlockEdits()
    for op in list(_post_order(module)):
        if op.name in ("sdy.constant", "stablehlo.constant"):
            key: tuple = (op.name, _attr_key(op), id(op.parent))
            cache = constants
        elif _is_scalar_expansion(op):
            key = (_attr_key(op), id(op.parent), str(op.results[0].type), op.operands[0])
            cache = broadcasts
        else:
            continue
        kept = cache.setdefault(key, op)
        if kept is not op:
            op.results[0].replace_all_uses_with(kept.results[0])
            edits.erase(op)
    edits.apply()


def _attr_key(op: Op) -> str:
    return repr(sorted((k, str(v)) for k, v in op.attributes.items()))


def _post_order(module: Module) -> Iterator[Op]:
    def visit(op: Op) -> Iterator[Op]:
        for region in op.regions:
            for block in region.blocks:
                for inner in list(block.ops):
                    yield from visit(inner)
        yield op

    for op in list(module.ops):
        yield from visit(op)


def remove_sharding_groups(module: Module) -> None:
    """`sdy-remove-sharding-groups`: `sdy.sharding_group` ops go."""
    for op in [o for o in module.walk() if o.name == "sdy.sharding_group"]:
        op.erase()


def sharding_constraint_to_reshard(module: Module) -> None:
    """`sdy-sharding-constraint-to-reshard`: every `sdy.sharding_constraint`
    becomes an `sdy.reshard` with the same operand, sharding and attributes."""
    for op in module.walk():
        if op.name == "sdy.sharding_constraint":
            op.name = "sdy.reshard"


def evenly_sharded(sharding: TensorSharding, shape: tuple[int, ...], mesh: Mesh) -> TensorSharding:
    """The longest prefix of each dim's axes that divides the dim's size (the
    last axis possibly cut to a sub-axis), as Shardy's
    `sdy-update-non-divisible-input-output-shardings` keeps.

    >>> mesh = Mesh({"x": 4, "y": 2})
    >>> s = TensorSharding.from_axes("mesh", [("y", "x")])
    >>> str(evenly_sharded(s, (4,), mesh))
    '#sdy.sharding<@mesh, [{"y", "x":(1)2}]>'
    """
    dims = []
    for d, size in zip(sharding.dims, shape, strict=True):
        if size % d.sharded_size(mesh) == 0:
            dims.append(d)
            continue
        remaining = size
        axes: list[AxisRef] = []
        for axis in d.axes:
            axis_size = axis.size(mesh)
            gcd = math.gcd(axis_size, remaining)
            if gcd == 1:
                break
            if gcd == axis_size:
                axes.append(axis)
                remaining //= gcd
                continue
            axes.append(AxisRef(axis.name, (axis.pre_size, gcd)))
            break
        dims.append(DimSharding(tuple(axes), d.is_closed))
    return _with_dims(sharding, tuple(dims), unreduced=())


def update_non_divisible_input_output_shardings(module: Module) -> None:
    """`sdy-update-non-divisible-input-output-shardings`: the shardings of
    function arguments and results, and of `func.call` results, keep only
    what divides their dims evenly (see `evenly_sharded`)."""

    def even(s: TensorSharding, t) -> TensorSharding:
        return evenly_sharded(s, t.shape, _mesh(module, s)) if isinstance(t, TensorType) else s

    for func in module.functions:
        for key, types in (("arg_attrs", func.type.inputs), ("res_attrs", func.type.results)):
            attrs_list = func.op.attributes.get(key) or [{}] * len(types)
            for attrs, t in zip(attrs_list, types, strict=True):
                s = attrs.get(SHARDING)
                if isinstance(s, TensorSharding):
                    attrs[SHARDING] = even(s, t)
    for call in module.walk():
        per_value = call.attributes.get(SHARDING) if call.name == "func.call" else None
        if isinstance(per_value, TensorShardingPerValue):
            call.attributes[SHARDING] = TensorShardingPerValue(
                tuple(even(s, r.type) for s, r in zip(per_value, call.results, strict=True))
            )


def remove_sub_axes_in_input_output_shardings(module: Module) -> None:
    """`sdy-remove-sub-axes-in-input-output-shardings`: in the shardings of
    the main function's arguments and results, an open dim keeps its axes up
    to its first sub-axis."""
    funcs = [f for f in module.functions if not f.is_declaration]
    main = funcs[0] if len(funcs) == 1 else next((f for f in funcs if f.name == "main"), None)
    if main is None:
        return

    def remove(sharding: TensorSharding) -> TensorSharding:
        dims = []
        for d in sharding.dims:
            if d.is_closed:
                dims.append(d)
                continue
            axes: list[AxisRef] = []
            for a in d.axes:
                if a.is_sub_axis:
                    break
                axes.append(a)
            dims.append(DimSharding(tuple(axes), d.is_closed, d.priority))
        return _with_dims(sharding, tuple(dims))

    for key in ("arg_attrs", "res_attrs"):
        for attrs in main.op.attributes.get(key, ()):
            if isinstance(attrs.get(SHARDING), TensorSharding):
                attrs[SHARDING] = remove(attrs[SHARDING])


def close_shardings(module: Module) -> None:
    """`sdy-close-shardings`: every dim of every sharding becomes closed, and
    the replicated axes are dropped (closed dims say it already)."""

    def close(sharding: TensorSharding) -> TensorSharding:
        return _with_dims(
            sharding,
            tuple(DimSharding(d.axes, True, d.priority) for d in sharding.dims),
            replicated=(),
        )

    transform_shardings(module, close)


def canonicalize(module: Module) -> None:
    """`canonicalize` (with only Shardy's collective patterns enabled): ops
    without effects whose results are all unused go (an `sdy.reshard` among
    them, and then what only it used)."""
    erase_dead_ops(module)
