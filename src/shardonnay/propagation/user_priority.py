"""User priorities: the rounds of Shardy's `sdy-user-priority-propagate`.

A dim sharding may carry a priority (`{"x"}p1`). The first round propagates
with only the dims of priority 0 (or none) as written, the others closed and
empty (`initial_for_priorities`); each later round puts back the dims of the
next priority (`restore_priority`) and propagates again.

>>> from shardonnay.mesh import Mesh
>>> meshes = {"m": Mesh.parse('<["x"=2, "y"=2]>')}
>>> s = TensorSharding.parse('<@m, [{"y"}p1, {"x"}p0]>')
>>> first = initial_for_priorities(s, meshes)
>>> str(first)
'#sdy.sharding<@m, [{}, {"x"}], replicated={"y"}>'
>>> str(restore_priority(first, s, 1))
'#sdy.sharding<@m, [{"y"}, {"x"}]>'
"""

from __future__ import annotations

from collections.abc import Mapping

from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding

__all__ = ["initial_for_priorities", "restore_priority"]


def initial_for_priorities(sharding: TensorSharding, meshes: Mapping[str, Mesh]) -> TensorSharding:
    """`sharding` for the first round: dims of priority 0 (or none) lose
    their priority; the others become closed and empty, their axes moving
    to `replicated` (in mesh order). `meshes`: the module's meshes by name."""
    dims: list[DimSharding] = []
    replicated = list(sharding.replicated)
    for d in sharding.dims:
        if not d.priority:
            dims.append(DimSharding(d.axes, d.is_closed))
        else:
            replicated.extend(d.axes)
            dims.append(DimSharding((), True))
    mesh = sharding.mesh if isinstance(sharding.mesh, Mesh) else meshes[sharding.mesh]
    replicated.sort(key=lambda a: a.mesh_sort_key(mesh))
    return TensorSharding(
        sharding.mesh, tuple(dims), tuple(replicated), sharding.unreduced, sharding.reduction
    )


def restore_priority(
    current: TensorSharding, original: TensorSharding, priority: int
) -> TensorSharding:
    """`current` with the dims of `original` that have `priority` put back
    (without the priority), their axes leaving `replicated`."""
    dims = list(current.dims)
    restored: set = set()
    for k, d in enumerate(original.dims):
        if d.priority == priority:
            dims[k] = DimSharding(d.axes, d.is_closed)
            restored.update(d.axes)
    return TensorSharding(
        current.mesh,
        tuple(dims),
        tuple(a for a in current.replicated if a not in restored),
        current.unreduced,
        current.reduction,
    )
