"""Sharding groups: values that must end up with one sharding.

`sdy.sharding_group %v group_id=N : t` puts `%v` in group `N`. Before
propagating, Shardy's propagation passes make the members of every group
agree (`sync_group_members`), then give every member the sharding any of
them receives while propagating.

Syncing a group looks at its members' shardings in the order of their
`sdy.sharding_group` ops, skipping members without one and those whose dims
are all open and empty (`[{?}, {?}]`, whatever their replicated or
unreduced axes):

* none left: the group is left alone;
* all equal: every member gets that sharding (members without one too);
* two differ: every member `%v` is replaced, in all its uses, by
  `sdy.sharding_constraint %v <@mesh, [{?}, {?}]>` (fully open, on the mesh
  of the first sharding), inserted right after `%v` is defined (at the start
  of its block for a block argument), and the constraint becomes the member.
  Propagation then merges the members' shardings through the constraints:

      func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
        sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
        sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>

  becomes (before propagating)

        %0 = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
        %1 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
        sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
        sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>

  and both constraints end up `<@mesh, [{"x", ?}, {"y", ?}]>`.

Groups are visited by increasing `group_id`; a value in two groups is an
error (Shardy's import merges such groups first).
"""

from __future__ import annotations

from shardonnay.errors import ShardingError
from shardonnay.ir.core import Block, Module, Op, Value
from shardonnay.ir.shardings import set_sharding, sharding_of
from shardonnay.sharding import TensorSharding

__all__ = ["group_members", "sync_group_members"]


def group_members(module: Module) -> list[list[Value]]:
    """The members of every sharding group, indexed by group id, each in the
    order of its `sdy.sharding_group` ops (a value grouped twice appears twice).

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> m = parse_module('''
    ... func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    ...   sdy.sharding_group %arg1 group_id=1 : tensor<4xf32>
    ...   sdy.sharding_group %arg0 group_id=1 : tensor<4xf32>
    ...   return %arg0 : tensor<4xf32>
    ... }''')
    >>> [[v.index for v in g] for g in group_members(m)]
    [[], [1, 0]]
    """
    groups: list[list[Value]] = []
    group_of: dict[Value, int] = {}
    for op in module.walk():
        if op.name != "sdy.sharding_group":
            continue
        group = op.attributes["group_id"].value
        value = op.operands[0]
        if group_of.setdefault(value, group) != group:
            raise ShardingError(
                f"a value is in sharding groups {group_of[value]} and {group}; "
                "merge them first (a value can only map to one sharding group)"
            )
        while len(groups) <= group:
            groups.append([])
        groups[group].append(value)
    return groups


def sync_group_members(module: Module) -> list[list[Value]]:
    """Makes the members of every sharding group of `module` agree, in place
    (see the module docstring); returns the groups' members afterwards."""
    groups = group_members(module)
    for members in groups:
        sharding, conflict = _common_sharding(members)
        if sharding is None:
            continue
        if not conflict:
            for v in members:
                set_sharding(v, sharding)
            continue
        open_like = TensorSharding.replicated_on(sharding.mesh, sharding.rank, is_closed=False)
        for k, v in enumerate(members):
            members[k] = _constrain(v, open_like)
    return groups


def _common_sharding(members: list[Value]) -> tuple[TensorSharding | None, bool]:
    """The first telling sharding of the group and whether another one differs."""
    if len(members) == 1:
        return sharding_of(members[0]), False
    first: TensorSharding | None = None
    for v in members:
        s = sharding_of(v)
        if s is None or all(d.is_closed is False and not d.axes for d in s.dims):
            continue
        if first is None:
            first = s
        elif s != first:
            return first, True
    return first, False


def _constrain(value: Value, sharding: TensorSharding) -> Value:
    """Puts `sdy.sharding_constraint value <sharding>` right after `value`'s
    definition and makes every other use of `value` use it instead."""
    constraint = Op("sdy.sharding_constraint", [value], [value.type], {"sharding": sharding})
    if isinstance(value.defining, Block):
        value.defining.insert(0, constraint)
    else:
        defining = value.op
        assert defining is not None and defining.parent is not None
        block = defining.parent
        block.insert(block.ops.index(defining) + 1, constraint)
    result = constraint.results[0]
    # MLIR walks a use list from its newest use and puts each moved use first:
    # moving the newest use first keeps `reversed(result.uses)` in MLIR's order.
    for use in reversed(list(value.uses)):
        if use.owner is not constraint:
            use.owner.set_operand(use.index, result)
    return result
