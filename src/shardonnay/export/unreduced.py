"""Unreduced axes during explicit resharding: all-reduces and `*_to_unreduced`.

A value sharded with `unreduced={"x"}` holds partial sums along `"x"`.
Where it flows into a user whose sharding keeps fewer unreduced axes, the
missing ones are all-reduced first (`sdy.all_reduce`, its out sharding the
value's with the user's unreduced axes); an `sdy.reshard` that adds unreduced
axes becomes `sdy.replicated_to_unreduced` (axes that were replicated) and/or
`sdy.sharded_to_unreduced` (axes that sharded a dim):

    %1 = sdy.reshard %0 <@mesh, [{}, {}], unreduced={"y"}>
    ~>
    %1 = sdy.replicated_to_unreduced {"y"} %0 out_sharding=<@mesh, [{}, {}], unreduced={"y"}>
"""

from __future__ import annotations

from collections.abc import Sequence

from shardonnay.axes import AxisRef
from shardonnay.collectives.attributes import AxisRefList, ListOfAxisRefLists
from shardonnay.collectives.axis_lists import mesh_ordered
from shardonnay.errors import ShardingError
from shardonnay.export.common_axes import prefix_without_overlap
from shardonnay.export.insertion import (
    all_reduce,
    insert_before,
    insert_on_operand,
)
from shardonnay.ir.core import Op, Value
from shardonnay.ir.shardings import mesh_of, sharding_of
from shardonnay.mesh import Mesh
from shardonnay.propagation.projection import PrefixStatus, axis_list_prefix_status
from shardonnay.sharding import TensorSharding

__all__ = [
    "all_reduce_operands",
    "all_reduce_to_target",
    "axis_set_diff",
    "reshard_to_unreduced_collectives",
]


def axis_set_diff(axes: Sequence[AxisRef], remove: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """The parts of `axes`, in order, that no axis of `remove` covers (an axis
    partly covered leaves its prefix and/or suffix sub-axis)."""
    if not axes or list(axes) == list(remove):
        return []
    if not remove:
        return list(axes)
    others = sorted(remove)
    result: list[AxisRef] = []
    for axis in axes:
        piece: AxisRef | None = axis
        while piece is not None:
            other = next((b for b in others if b.overlaps(piece)), None)
            if other is None:
                result.append(piece)
                break
            prefix = prefix_without_overlap(piece, other)
            if prefix is not None:
                result.append(prefix)
            piece = piece.suffix_without_overlap(other, mesh)
    return result


def all_reduce_to_target(
    user: Op,
    index: int,
    source: TensorSharding | None,
    target: TensorSharding | None,
    meshes: dict[str, Mesh],
    *,
    after_operand: bool,
) -> TensorSharding | None:
    """All-reduces operand `index` of `user` over its unreduced axes that
    `target` does not keep; returns the operand's sharding then."""
    if source is None or not source.unreduced:
        return source
    mesh = mesh_of(source, meshes)
    target_unreduced = target.unreduced if target is not None else ()
    axes = axis_set_diff(source.unreduced, target_unreduced, mesh)
    if not axes:
        return source
    sharding = TensorSharding(source.mesh, source.dims, source.replicated, tuple(target_unreduced))
    insert_on_operand(
        user, index, all_reduce(user.operands[index], axes, sharding), after_operand=after_operand
    )
    return sharding


def all_reduce_operands(op: Op, meshes: dict[str, Mesh]) -> None:
    """Before `op`, all-reduces each operand over the unreduced axes that the
    first result of `op` does not keep."""
    if not op.results:
        if any(s is not None and s.unreduced for s in map(sharding_of, op.operands)):
            raise ShardingError(f"{op.name}: has operands with unreduced axes but no results")
        return
    target = sharding_of(op.results[0])
    for i, v in enumerate(op.operands):
        all_reduce_to_target(op, i, sharding_of(v), target, meshes, after_operand=False)


def reshard_to_unreduced_collectives(op: Op, meshes: dict[str, Mesh]) -> bool:
    """Replaces the `sdy.reshard` `op`, if it makes axes unreduced, by
    `sdy.replicated_to_unreduced` and/or `sdy.sharded_to_unreduced`."""
    source = op.operands[0]
    in_sharding = sharding_of(source)
    out_sharding: TensorSharding = op.attributes["sharding"]
    if in_sharding is None or not out_sharding.unreduced:
        return False
    mesh = mesh_of(in_sharding, meshes)
    added = axis_set_diff(out_sharding.unreduced, in_sharding.unreduced, mesh)
    if not added:
        return False
    sharded_axes: list[AxisRef] = []
    per_dim: list[tuple[AxisRef, ...]] = []
    for in_dim, out_dim in zip(in_sharding.dims, out_sharding.dims, strict=True):
        status = axis_list_prefix_status(out_dim.axes, in_dim.axes)
        if status is PrefixStatus.EQUAL:
            per_dim.append(())
            continue
        if status is not PrefixStatus.STRICT_PREFIX:
            raise ShardingError(
                f"sdy.reshard: going from {in_sharding} to {out_sharding} needs collectives "
                "besides making axes unreduced"
            )
        n = len(out_dim.axes)
        diff: list[AxisRef] = []
        if n and out_dim.axes[-1] != in_dim.axes[n - 1]:
            suffix = in_dim.axes[n - 1].suffix_without_overlap(out_dim.axes[-1], mesh)
            assert suffix is not None
            diff.append(suffix)
        diff.extend(in_dim.axes[n:])
        per_dim.append(tuple(diff))
        sharded_axes.extend(diff)
    result: Value = source
    block = op.parent
    assert block is not None
    replicated_axes = axis_set_diff(added, sharded_axes, mesh)
    if replicated_axes:
        unreduced = mesh_ordered([*in_sharding.unreduced, *replicated_axes], mesh)
        sharding = TensorSharding(
            in_sharding.mesh, in_sharding.dims, out_sharding.replicated, tuple(unreduced)
        )
        replicated = AxisRefList(tuple(replicated_axes))
        result = _collective_before(op, "sdy.replicated_to_unreduced", result, replicated, sharding)
    if sharded_axes:
        sharded = ListOfAxisRefLists(tuple(per_dim))
        result = _collective_before(op, "sdy.sharded_to_unreduced", result, sharded, out_sharding)
    op.results[0].replace_all_uses_with(result)
    op.erase()
    return True


def _collective_before(
    op: Op,
    name: str,
    value: Value,
    axes: AxisRefList | ListOfAxisRefLists,
    out_sharding: TensorSharding,
) -> Value:
    """The result of the collective `name {axes} %value out_sharding=<...>`,
    placed right before `op`."""
    collective = Op(name, [value], [value.type], {"axes": axes, "out_sharding": out_sharding})
    return insert_before(op, collective).results[0]
