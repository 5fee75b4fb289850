"""Shardy's sharding-constraint passes of the propagation pipeline:
`sdy-apply-sharding-constraints` (before propagation: a closed constraint
gives its sharding to an input that has none) and
`sdy-sharding-constraint-to-reshard` (after it: constraints become reshards).

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
...   %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> apply_sharding_constraints(module)
>>> str(module.functions[0].arg_attrs(0)["sdy.sharding"])
'#sdy.sharding<@mesh, [{"x"}]>'
>>> sharding_constraint_to_reshard(module)
>>> module.functions[0].body.ops[0].name
'sdy.reshard'
"""

from __future__ import annotations

from shardonnay.ir.core import Block, Module, Op, Value
from shardonnay.ir.shardings import set_sharding, sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.ops.traits import DATA_FLOW, has_trait
from shardonnay.sharding import TensorSharding
from shardonnay.sharding_rule import OpShardingRule

__all__ = ["apply_sharding_constraints", "sharding_constraint_to_reshard"]


def _argument_of(v: Value, op_name: str) -> Op | None:
    """The op named `op_name` whose region has `v` as a block argument."""
    block = v.defining
    if isinstance(block, Block):
        parent = block.parent_op
        if parent is not None and parent.name == op_name:
            return parent
    return None


def _is_data_flow_target(v: Value, explicit_edges: bool = False) -> bool:
    if explicit_edges:  # an edge op's result, or the value an edge op takes
        return (v.op is not None and v.op.name == "sdy.data_flow_edge") or any(
            user.name == "sdy.data_flow_edge" for user in v.users
        )
    if v.op is not None:  # (a manual computation's results always have a sharding)
        return has_trait(v.op, DATA_FLOW)
    return (
        _argument_of(v, "stablehlo.while") is not None
        or _argument_of(v, "sdy.named_computation") is not None
    )


def _is_shardable(v: Value) -> bool:
    if not isinstance(v.type, TensorType):
        return False
    return v.op is not None or _argument_of(v, "func.func") is not None or _is_data_flow_target(v)


def _is_constraint_like(op: Op) -> bool:
    return op.name in ("sdy.sharding_constraint", "sdy.manual_computation")


def _chain_tail(head: Op) -> Op | None:
    """The last sharding constraint of a chain starting at `head`, if the
    chain's uses may be redirected to it (see `apply_sharding_constraints`)."""
    source = head.operands[0]
    if source.op is not None and source.op.name == "sdy.sharding_constraint":
        return None
    if sharding_of(source) is not None:
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


def apply_sharding_constraints(
    module: Module, *, identity_rules: bool = False, explicit_edges: bool = False
) -> None:
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

    `identity_rules`: a constraint whose sharding went to its input gets the
    identity `sdy.sharding_rule` (`([i, j])->([i, j])`), as the pass
    `sdy-apply-sharding-constraints` run alone writes it. `explicit_edges`:
    the values tied by data-flow edges are those of `sdy.data_flow_edge` ops
    (as in Shardy's pass, which runs after `sdy-add-data-flow-edges`), not
    every value of a data-flow op.
    """
    moved: set[Op] = set()
    for op in [o for o in module.walk() if _is_constraint_like(o)]:
        if op.name == "sdy.manual_computation":
            _apply_in_shardings(op, moved, explicit_edges)
            continue
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
        if _is_data_flow_target(source, explicit_edges):
            _move_after_value(op, source, moved)
            moved.add(op)
            for use in list(source.uses):
                if use.owner is not op:
                    use.owner.set_operand(use.index, op.results[0])
        else:
            set_sharding(source, sharding)
            if identity_rules:
                shape = op.result_types[0].shape
                dims = [(k,) for k in range(len(shape))]
                op.attributes["sdy.sharding_rule"] = OpShardingRule(tuple(shape), [dims], [dims])


def _apply_in_shardings(op: Op, moved: set[Op], explicit_edges: bool) -> None:
    """A manual computation's in-shardings, applied to its operands as a
    sharding constraint's sharding is (an operand tied by a data-flow edge
    gets a new `sdy.sharding_constraint` right after it instead)."""
    shardings = op.attributes.get("in_shardings") or ()
    for operand, sharding in zip(op.operands, shardings, strict=True):
        if not _should_apply(operand, sharding):
            continue
        if not _is_data_flow_target(operand, explicit_edges):
            set_sharding(operand, sharding)
            continue
        constraint = Op(
            "sdy.sharding_constraint", [operand], [operand.type], {"sharding": sharding}
        )
        assert op.parent is not None
        op.parent.insert_before(op, constraint)
        _move_after_value(constraint, operand, moved)
        moved.add(constraint)
        for use in list(operand.uses):
            if use.owner is not constraint:
                use.owner.set_operand(use.index, constraint.results[0])


def _should_apply(v: Value, sharding: TensorSharding) -> bool:
    if not _is_shardable(v) or sharding_of(v) is not None:
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
        siblings = target.arguments if _argument_of(v, "sdy.named_computation") is not None else []
    while position < len(target.ops):
        other = target.ops[position]
        source = other.operands[0] if other in moved else None
        if source is None or source not in siblings or source.index >= v.index:
            break
        position += 1
    target.insert(position, op)


def sharding_constraint_to_reshard(module: Module) -> None:
    """`sdy-sharding-constraint-to-reshard`: every `sdy.sharding_constraint`
    becomes an `sdy.reshard` with the same operand, sharding and attributes."""
    for op in module.walk():
        if op.name == "sdy.sharding_constraint":
            op.name = "sdy.reshard"
