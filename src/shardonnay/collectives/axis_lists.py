"""Axis-list arithmetic shared by the collectives and the reshard planner.

Shardy's collectives edit the axes of a sharding in three ways, all on
the minor end of a dimension: *gather* removes a suffix (`[{"x", "y"}]`
gathered along `"y"` is `[{"x"}]`; on `"y"=4`, gathering `"y":(2)2` from
`{"x", "y"}` leaves `{"x", "y":(1)2}`), *slice* appends (merging
`"y":(1)2` + `"y":(2)2` into `"y"`), and unreduced axes are added or
removed as sets kept in mesh order.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from shardonnay.axes import AxisRef
from shardonnay.mesh import Mesh


class AxisListError(ValueError):
    """An edit that the axes do not allow; the message is Shardy's wording."""


def axis_ref(name: str, lo: int, hi: int, mesh: Mesh) -> AxisRef:
    """The axis ref covering `[lo, hi)` of axis `name` (the whole axis if it is all of it)."""
    if lo == 1 and hi == mesh.axis_size(name):
        return AxisRef(name)
    return AxisRef(name, (lo, hi // lo))


def gather_suffix(
    axes: Sequence[AxisRef], gathering: Sequence[AxisRef], dim: int, mesh: Mesh, kind: str
) -> list[AxisRef]:
    """`axes` without `gathering`, which must be (sub-axes of) their minor end."""
    out = list(axes)
    for axis in reversed(gathering):
        if not out or not axis.suffix_of(out[-1], mesh):
            raise AxisListError(
                f"can't apply {kind} axis {axis} to operand sharding on dimension {dim}"
            )
        last = out.pop()
        prefix = last.prefix_without_overlap(axis)
        if prefix is not None:
            out.append(prefix)
    return out


def append_or_merge(axes: list[AxisRef], axis: AxisRef, mesh: Mesh) -> None:
    """Appends `axis`, merging it into the last axis when they are consecutive."""
    if axes and axes[-1].can_merge(axis):
        axes[-1] = axes[-1].merge(axis, mesh)
    else:
        axes.append(axis)


def slice_suffix(axes: Sequence[AxisRef], slicing: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    out = list(axes)
    for axis in slicing:
        append_or_merge(out, axis, mesh)
    return out


def mesh_ordered(axes: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """`axes` sorted in mesh order with consecutive sub-axes merged."""
    out: list[AxisRef] = []
    for axis in sorted(axes, key=lambda a: a.mesh_sort_key(mesh)):
        append_or_merge(out, axis, mesh)
    return out


def cut(axis: AxisRef, cuts: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """`axis` split at the boundaries of `cuts` (axes of the same name) that fall inside it.

    On `"x"=8`: `"x"` cut by `"x":(2)2` is `["x":(1)2, "x":(2)2, "x":(4)2]`.
    """
    lo, hi = axis.pre_size, axis.next_pre_size(mesh)
    points = {lo, hi}
    for other in cuts:
        if other.name != axis.name:
            continue
        if not axis.can_coexist(other):
            raise AxisListError(f'axes {axis} and {other} cut axis "{axis.name}" apart')
        for p in (other.pre_size, other.next_pre_size(mesh)):
            if lo < p < hi:
                points.add(p)
    bounds = sorted(points)
    return [axis_ref(axis.name, a, b, mesh) for a, b in itertools.pairwise(bounds)]


def remove_axes(
    axes: Sequence[AxisRef],
    removed: Sequence[AxisRef],
    mesh: Mesh,
    what: str,
    of: str = "the operand",
) -> list[AxisRef]:
    """`axes` (a set in mesh order) without `removed`, each of which must lie inside `axes`."""
    pieces = [p for a in axes for p in cut(a, removed, mesh)]
    for axis in removed:
        inside = [p for p in pieces if axis.contains(p)]
        size = 1
        for p in inside:
            size *= p.size(mesh)
        if size != axis.size(mesh):
            raise AxisListError(f"{what} axis {axis} is not an unreduced axis of {of}")
    kept = [p for p in pieces if not any(r.contains(p) for r in removed)]
    return mesh_ordered(kept, mesh)


def axes_text(axes: Sequence[AxisRef]) -> str:
    """Shardy's `["x", "y":(1)2]` rendering of an axis list in messages."""
    return "[" + ", ".join(str(a) for a in axes) + "]"
