"""Moving local values between layouts with StableHLO collectives.

The building blocks of every lowering that moves data between devices, for
even and uneven shards alike (`LocalContext.local_type_for`: a dim of size
`d` cut into `n` shards holds `c = ceil(d / n)` slots per device; shard `k`
holds the elements `[k*c, min(d, (k+1)*c))`, so in shard order the elements
of the dim come first and all padding last):

- `gather_dims(x, axes_per_dim, shape, dims)`: `x` whole along `dims`: one
  `stablehlo.all_gather` per dim among the devices that differ only along its
  axes, then a slice that drops the padding (`n*c - d` slots at the end);
- `slice_dims(x, axes_per_dim, shape, dims)`: the inverse: pad the whole dim
  to `n*c` and `dynamic_slice` this device's shard;
- `relayout(x, source, target, shape)`: from one sharding to another, per
  dim: gather the axes the target does not keep, then slice by the ones it
  adds, without a full gather where the common major axes nest both;
- `complete(x, partial)`: a partial value (one term per device of a pending
  reduction, `Partial`) reduced to its value with a `stablehlo.all_reduce`;
- `to_partial(x, axes, kind)`: a complete value made partial, kept on the
  first device of each group and the reduction's identity elsewhere;
- `spread(x, holders)`: a value whole on the first devices sent to all.

`local.moves` builds on these: moves between meshes and the cheapest exact
reshard on one mesh.

For example, `tensor<6xf32>` sharded `[{"x"}]` on `<["x"=4]>` holds 2 slots
per device (devices 0..2 hold elements 0..5, device 3 only padding); its
gather is an all_gather of 8 slots and a slice `[0:6]`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.collectives.exchange import device_groups
from shardonnay.ir.attributes import UNIT
from shardonnay.ir.core import Value
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.traits import Combiner, names_with, trait_of
from shardonnay.partitioner.local.context import (
    LocalContext,
    Partial,
    axes_size,
    local_size,
)
from shardonnay.sharding import DimSharding, TensorSharding

Axes = tuple[AxisRef, ...]


def combiner(kind: str) -> Combiner | None:
    """The `Combiner` trait of reduction op `kind` (`"stablehlo.add"`, ...):
    its identity per element type and whether it is idempotent; None for an
    op that combines nothing."""
    return trait_of(kind, Combiner)


@cache
def combining_op(reduction: str | None) -> str:
    """The op that combines partial values of Shardy's `reduction` (of an
    unreduced sharding: "sum", "max", "min"; a sum when it names none).

    >>> combining_op("max"), combining_op(None)
    ('stablehlo.maximum', 'stablehlo.add')
    """
    kind = reduction or "sum"
    found = [n for n in names_with(Combiner) if trait_of(n, Combiner).kind == kind]
    return found[0] if found else "stablehlo.add"


def identity(kind: str, element_type: str, ctx: LocalContext) -> Value | None:
    """The identity of reduction `kind` as a scalar constant (None if unknown)."""
    found = combiner(kind)
    if found is None:
        return None
    return ctx.scalar(found.identity(TensorType((), element_type).dtype), element_type)


# -- device groups ------------------------------------------------------------------------------


def groups_for(ctx: LocalContext, axes: Sequence[AxisRef], mesh: Mesh | None = None):
    """`replica_groups` on `mesh` (the current one by default), as an attribute."""
    mesh = mesh or ctx.mesh
    return ctx.groups_attr(device_groups(axes, mesh), along=axes, mesh=mesh)


# -- gathering and slicing ------------------------------------------------------------------------


def all_gather_dim(
    ctx: LocalContext, x: Value, dim: int, axes: Sequence[AxisRef], mesh: Mesh | None = None
) -> Value:
    """The shards of `x` along `axes`, concatenated along `dim` in shard order."""
    mesh = mesh or ctx.mesh
    shape = list(x.type.shape)
    shape[dim] *= axes_size(axes, mesh)
    return ctx.value(
        "stablehlo.all_gather",
        [x],
        x.type.with_shape(tuple(shape)),
        {
            "all_gather_dim": ctx.i64_attr(dim),
            "channel_handle": ctx.channel_handle(),
            "replica_groups": groups_for(ctx, axes, mesh),
            "use_global_device_ids": UNIT,
        },
    )


def gather_dims(
    ctx: LocalContext,
    x: Value,
    axes_per_dim: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    dims: Sequence[int] | None = None,
    mesh: Mesh | None = None,
) -> Value:
    """`x` (sharded by `axes_per_dim`, global `shape`) whole along `dims`
    (all sharded dims by default), without padding."""
    dims = range(len(shape)) if dims is None else dims
    for dim in dims:
        axes = axes_per_dim[dim]
        if not axes:
            continue
        x = all_gather_dim(ctx, x, dim, axes, mesh)
        if x.type.shape[dim] != shape[dim]:
            x = ctx.slice(x, dim, 0, shape[dim])
    return x


def slice_dims(
    ctx: LocalContext,
    x: Value,
    axes_per_dim: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    dims: Sequence[int] | None = None,
    mesh: Mesh | None = None,
) -> Value:
    """This device's shard of `x`, whole along `dims` (all by default), for a
    value of global `shape` sharded by `axes_per_dim`."""
    mesh = mesh or ctx.mesh
    dims = set(range(len(shape)) if dims is None else dims)
    cut = [axes_per_dim[d] if d in dims else () for d in range(len(shape))]
    if not any(cut):
        return x
    sizes = [
        local_size(shape[d], cut[d], mesh) if cut[d] else x.type.shape[d] for d in range(len(shape))
    ]
    return ctx.dynamic_slice_for_axes(x, cut, x.type.with_shape(tuple(sizes)), mesh)


def relayout(
    ctx: LocalContext,
    x: Value,
    source: Sequence[Sequence[AxisRef]],
    target: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    mesh: Mesh | None = None,
) -> Value:
    """`x`, sharded by `source`, sharded by `target` instead (same mesh).

    Per dim with common major axes `P` (source `P + S`, target `P + T`): the
    devices of one shard along `P` hold `c_P` slots; when `S` gathers exactly
    those (`n_S * c_source == c_P`) and `T` cuts them (`n_T * c_target ==
    c_P`), only `S` is gathered and `T` sliced; otherwise the whole dim is
    gathered and cut anew. All gathers come before all slices, so an axis
    moving between dims is free when it is sliced.
    """
    mesh = mesh or ctx.mesh
    moves = relayout_moves(source, target, shape, mesh)
    for dim, gathered, _, whole in moves:
        if gathered:
            x = all_gather_dim(ctx, x, dim, gathered, mesh)
            if x.type.shape[dim] > whole:
                x = ctx.slice(x, dim, 0, whole)
    for dim, _, added, whole in moves:
        if added:
            cut = [added if d == dim else () for d in range(len(shape))]
            sizes = list(x.type.shape)
            sizes[dim] = -(-whole // axes_size(added, mesh))
            x = ctx.dynamic_slice_for_axes(x, cut, x.type.with_shape(tuple(sizes)), mesh)
    return x


def relayout_moves(
    source: Sequence[Sequence[AxisRef]],
    target: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    mesh: Mesh,
) -> list[tuple[int, Axes, Axes, int]]:
    """Per dim that `relayout` changes: (dim, axes gathered, axes sliced, size
    of the whole between them)."""
    moves: list[tuple[int, Axes, Axes, int]] = []
    for dim, (src, dst) in enumerate(zip(source, target, strict=True)):
        src, dst = tuple(src), tuple(dst)
        if src == dst:
            continue
        common = 0
        while common < min(len(src), len(dst)) and src[common] == dst[common]:
            common += 1
        prefix, gathered, added = src[:common], src[common:], dst[common:]
        whole = local_size(shape[dim], prefix, mesh)
        c_src, c_dst = local_size(shape[dim], src, mesh), local_size(shape[dim], dst, mesh)
        nests = (
            axes_size(gathered, mesh) * c_src == whole and axes_size(added, mesh) * c_dst == whole
        )
        if prefix and not nests:
            gathered, added, whole = src, dst, shape[dim]
        moves.append((dim, gathered, added, whole))
    return moves


def relayout_received(
    local: Sequence[int],
    source: Sequence[Sequence[AxisRef]],
    target: Sequence[Sequence[AxisRef]],
    shape: Sequence[int],
    mesh: Mesh,
) -> int:
    """The elements each device receives in `relayout` of a value of local
    shape `local` (its all_gathers, in order)."""
    sizes = list(local)
    received = 0
    for dim, gathered, _, whole in relayout_moves(source, target, shape, mesh):
        if gathered:
            n = axes_size(gathered, mesh)
            received += (n - 1) * int(np.prod(sizes, dtype=np.int64))
            sizes[dim] = min(sizes[dim] * n, whole)
    return received


def spread(ctx: LocalContext, x: Value, holders: int) -> Value:
    """`x`, whole on devices `0..holders-1` only (a value gathered on a mesh of
    fewer devices than the program's), whole on every device: one
    `stablehlo.collective_broadcast` whose groups send device `s`'s buffer to
    the devices `s + k*holders`. Nothing when every device holds it already.

    For example, with 6 devices and `holders=4` the groups are
    `[[0, 4], [1, 5], [2, -1], [3, -1]]` (-1 pads the shorter groups).
    """
    count = ctx.num_devices
    if holders >= count:
        return x
    groups = [[s, *range(s + holders, count, holders)] for s in range(holders)]
    width = max(len(g) for g in groups)
    padded = [g + [-1] * (width - len(g)) for g in groups]
    return ctx.value(
        "stablehlo.collective_broadcast",
        [x],
        x.type,
        {"channel_handle": ctx.channel_handle(), "replica_groups": ctx.groups_attr(padded)},
    )


def sharding_on(axes_per_dim: Sequence[Sequence[AxisRef]], mesh: Mesh) -> TensorSharding:
    """The sharding of a value split along `axes_per_dim` on `mesh`."""
    return TensorSharding(mesh, tuple(DimSharding(tuple(a)) for a in axes_per_dim))


# -- partial values -------------------------------------------------------------------------------


def complete(
    ctx: LocalContext,
    x: Value,
    partial: Partial,
    axes: Sequence[AxisRef] | None = None,
    result_type=None,
) -> Value:
    """`x` reduced over `axes` (all its partial axes by default) with an all_reduce."""
    axes = partial.axes if axes is None else axes
    if not axes:
        return x
    attributes = {
        "channel_handle": ctx.channel_handle(),
        "replica_groups": groups_for(ctx, axes, partial.mesh),
        "use_global_device_ids": UNIT,
    }
    result_type = result_type or x.type
    region = ctx.binary_region(result_type.element_type, partial.kind)
    return ctx.op("stablehlo.all_reduce", [x], [result_type], attributes, [region]).results[0]


def to_partial(
    ctx: LocalContext, x: Value, axes: Sequence[AxisRef], kind: str, mesh: Mesh | None = None
) -> Value:
    """A complete `x` as partial terms of `kind` along `axes`: the first device of
    each group keeps it, the others hold the identity (idempotent kinds keep copies)."""
    found = combiner(kind)
    if not axes or (found is not None and found.idempotent):
        return x
    neutral = identity(kind, x.type.element_type, ctx)
    if neutral is None:
        raise ValueError(f"no identity for {kind}")
    first = ctx.broadcast(ctx.is_first(axes, mesh), x.type.with_element_type("i1"))
    return ctx.value("stablehlo.select", [first, x, ctx.broadcast(neutral, x.type)], x.type)
