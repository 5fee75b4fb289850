"""Shardy's collectives on global values, as StableHLO collectives on local ones.

Each `sdy.<collective>` of the global program becomes what Shardy's
`sdy-convert-global-to-local` emits for it, on the mesh's device ids
(`use_global_device_ids`, a fresh channel per collective):

- `sdy.all_gather [{}, {"x"}]`: `stablehlo.all_gather` along dim 1 among the
  devices that differ only along "x"; gathering along several dims at once is
  one all_gather of a new leading dim, then reshape/transpose/reshape (with
  `per_dim_all_gather`: one all_gather per dim, last dim first);
- `sdy.all_slice`: a `stablehlo.dynamic_slice` at offsets read from a table
  indexed by `partition_id`;
- `sdy.all_to_all [{"x"}: 0->1]`: `stablehlo.all_to_all` splitting dim 1 and
  concatenating dim 0 (several parameters: one all_to_all of a leading dim);
- `sdy.collective_permute`: `stablehlo.collective_permute` sending each
  device's shard to the device that holds it under the new sharding;
- `sdy.all_reduce {"x"}`: `stablehlo.all_reduce` with the reduction of the
  op whose partial results it combines (`LocalContext.partial`), over the
  axes along which its operand is partial (none: the operand is whole);
- `sdy.reduce_scatter`: `stablehlo.reduce_scatter` along one dim, or an
  all_reduce and a dynamic_slice for several (with
  `combine_multi_dimension_reduce_scatter`: reshape/transpose/reshape bringing
  the dims' shards to a leading dim, one reduce_scatter of it, a reshape).

With uneven shards, a gather, slice or all-to-all whose shards do not make up
whole buffers of the other side (e.g. gathering `{"y"}` of `[{"x", "y"}]` on a
dim of 6 over `"x"=2, "y"=4`: 8 slots per `"x"` group, 3 wanted) moves the
value with `halo.exchange.relayout_by_exchange` (each device fetches what it
lacks) or, where that moves no less, `local.layout.relayout`.

Replica groups list, per group, the devices in the order of their shard index
along the axes; groups come in the order of their first device, e.g. on
`<["x"=2, "y"=4]>` the axes `{"x"}` give `[[0, 4], [1, 5], [2, 6], [3, 7]]`
and `{"y", "x"}` give `[[0, 4, 1, 5, 2, 6, 3, 7]]`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.collectives.exchange import device_groups
from shardonnay.errors import PartitionError
from shardonnay.export.unreduced import axis_set_diff
from shardonnay.ir.attributes import UNIT, DenseElementsAttr
from shardonnay.ir.core import Op, Value
from shardonnay.ir.types import TensorType
from shardonnay.layout import device_slices
from shardonnay.mesh import Mesh
from shardonnay.partitioner.halo.exchange import relayout_by_exchange
from shardonnay.partitioner.local.context import (
    LocalContext,
    Partial,
    axes_index,
    axes_size,
    local_size,
    partition_error,
)
from shardonnay.partitioner.local.layout import (
    complete,
    relayout,
)
from shardonnay.sharding import TensorSharding

# -- device groups -----------------------------------------------------------------------------


def atomic_axes(axes: Sequence[AxisRef], mesh: Mesh) -> list[AxisRef]:
    """Every mesh axis cut at the sub-axis boundaries that `axes` use, in mesh
    order, major parts first (Shardy's `getOrderedAxisRefs`).

    >>> [str(a) for a in atomic_axes([AxisRef.sub("y", 1, 2)], Mesh({"x": 2, "y": 4}))]
    ['"x"', '"y":(1)2', '"y":(2)2']
    """
    out = []
    for name, size in mesh.axes:
        cuts = {1, size}
        for a in axes:
            if a.name == name and a.sub_axis is not None:
                cuts |= {a.pre_size, a.pre_size * a.sub_axis[1]}
        points = sorted(cuts)
        if len(points) == 2:
            out.append(AxisRef(name))
            continue
        out += [AxisRef.sub(name, lo, hi // lo) for lo, hi in pairwise(points)]
    return out


def permute_pairs(
    source: TensorSharding, target: TensorSharding, mesh: Mesh, target_mesh: Mesh | None = None
) -> list[tuple[int, int]]:
    """(source, target) device-id pairs moving every shard of `source` (on
    `mesh`) to the device that holds it under `target` (on `target_mesh`,
    `mesh` by default: a mesh of the same devices, possibly in another order).

    Shardy's pairing of replicas: each device is numbered by its shard index
    along the sharded axes, then its coordinates along the others (in mesh
    order), on its own mesh; the device with number `n` on `mesh` sends to the
    one with number `n` on `target_mesh`. Device ids come from each mesh's
    `device_ids`, e.g. from `<["x"=2]>` to `<["x"=2], device_ids=[1, 0]>`
    with `[{"x"}]` on both, device 0 holds shard 0, which device 1 holds after.

    >>> from shardonnay.sharding import DimSharding
    >>> src, dst = Mesh({"x": 2}), Mesh({"x": 2}, device_ids=[1, 0])
    >>> split = TensorSharding(src, (DimSharding((AxisRef("x"),)),))
    >>> permute_pairs(split, split, src, dst)
    [(0, 1), (1, 0)]
    """
    target_mesh = mesh if target_mesh is None else target_mesh
    if target_mesh.size != mesh.size:
        raise PartitionError(
            f"cannot permute between meshes of {mesh.size} and {target_mesh.size} devices"
        )
    used = [a for s in (source, target) for d in s.dims for a in d.axes]

    def ordered(sharding: TensorSharding, on: Mesh) -> list[AxisRef]:
        atoms = atomic_axes([a for a in used if on.has_axis(a.name)], on)
        axes: list[AxisRef] = []
        for dim in sharding.dims:
            for axis in dim.axes:
                axes += [a for a in atoms if axis.contains(a) and a not in axes]
        return axes + [a for a in atoms if a not in axes]

    source_axes, target_axes = ordered(source, mesh), ordered(target, target_mesh)
    holder = {axes_index(d, target_axes, target_mesh): d for d in target_mesh.device_list}
    return [(d, holder[axes_index(d, source_axes, mesh)]) for d in mesh.device_list]


def _check_pairs(
    op: Op,
    pairs: Sequence[tuple[int, int]],
    source: TensorSharding,
    target: TensorSharding,
    shape: Sequence[int],
) -> None:
    """Raises `PartitionError` unless every pair sends the region of the global
    value that its target holds under `target` (`shardonnay.layout`'s
    numbering, each sharding on its own mesh)."""
    held = device_slices(shape, source, source.resolve_mesh())
    wanted = device_slices(shape, target, target.resolve_mesh())

    def region(r: tuple[slice, ...]):
        return None if any(s.start == s.stop for s in r) else tuple((s.start, s.stop) for s in r)

    received = {t for _, t in pairs}
    if received != set(wanted):
        raise partition_error(op, "the collective permute does not reach every target device")
    for s, t in pairs:
        if region(held[s]) != region(wanted[t]):
            raise partition_error(
                op,
                f"device {s} holds {held[s]} of the value but device {t} needs {wanted[t]}",
            )


# -- lowering -----------------------------------------------------------------------------------


def _moved(ctx: LocalContext, op: Op, x: Value) -> Value:
    """`x` moved from its operand's sharding to the result's (any shards)."""
    source, result = op.operands[0], op.results[0]
    before, after, shape = ctx.sharded_axes(source), ctx.sharded_axes(result), source.type.shape
    try:
        with ctx.rollback_on(PartitionError):
            return relayout_by_exchange(ctx, x, before, after, shape, op)
    except PartitionError:
        return relayout(ctx, x, before, after, shape)


def all_gather(ctx: LocalContext, op: Op, x: Value) -> Value:
    """One all_gather per dim (or of a leading dim for several); where uneven
    shards do not concatenate into the result's shards, `relayout`."""
    if not _nests(ctx, op, op.attributes["gathering_axes"].lists, gathering=True):
        return _moved(ctx, op, x)
    lists = op.attributes["gathering_axes"].lists
    dims = [d for d, axes in enumerate(lists) if axes]
    if len(dims) <= 1 or ctx.per_dim_all_gather:
        for dim in reversed(dims):
            groups = device_groups(lists[dim], ctx.mesh)
            shape = list(x.type.shape)
            shape[dim] *= len(groups[0])
            x = ctx.value(
                "stablehlo.all_gather",
                [x],
                x.type.with_shape(tuple(shape)),
                {
                    "all_gather_dim": ctx.i64_attr(dim),
                    "channel_handle": ctx.channel_handle(),
                    "replica_groups": ctx.groups_attr(groups, along=lists[dim]),
                    "use_global_device_ids": UNIT,
                },
            )
        return _checked(ctx, op, x)
    local = x.type.shape
    factors = [axes_size(lists[d], ctx.mesh) for d in dims]
    along = [a for d in dims for a in lists[d]]
    groups = device_groups(along, ctx.mesh)
    x = ctx.reshape(x, (1, *local))
    x = ctx.value(
        "stablehlo.all_gather",
        [x],
        x.type.with_shape((len(groups[0]), *local)),
        {
            "all_gather_dim": ctx.i64_attr(0),
            "channel_handle": ctx.channel_handle(),
            "replica_groups": ctx.groups_attr(groups, along=along),
            "use_global_device_ids": UNIT,
        },
    )
    x = ctx.reshape(x, (*factors, *local))
    permutation: list[int] = []
    for i in range(len(local)):
        if i in dims:
            permutation.append(dims.index(i))
        permutation.append(i + len(dims))
    x = ctx.transpose(x, permutation)
    final = list(local)
    for d, f in zip(dims, factors, strict=True):
        final[d] *= f
    return _checked(ctx, op, ctx.reshape(x, final))


def _nests(ctx: LocalContext, op: Op, lists, *, gathering: bool) -> bool:
    """Whether the shards along the moved axes of every dim make up exactly
    the shards of the less sharded side (always true for even shards): the
    collective then moves whole buffers."""
    source, result = op.operands[0], op.results[0]
    for dim, moved in enumerate(lists):
        if not moved:
            continue
        size = source.type.shape[dim]
        outer = ctx.sharded_axes(result if gathering else source)[dim]
        inner = ctx.sharded_axes(source if gathering else result)[dim]
        if not outer and not gathering:
            continue  # slicing a whole dim pads it first
        whole = local_size(size, outer, ctx.mesh)
        if axes_size(moved, ctx.mesh) * local_size(size, inner, ctx.mesh) != whole:
            return False
    return True


def all_slice(ctx: LocalContext, op: Op, x: Value) -> Value:
    lists = op.attributes["slicing_axes"].lists
    if not _nests(ctx, op, lists, gathering=False):
        return _moved(ctx, op, x)
    local = ctx.local_type(op.results[0], op)
    return ctx.dynamic_slice_for_axes(x, lists, local)


def all_to_all(ctx: LocalContext, op: Op, x: Value) -> Value:
    """A `stablehlo.all_to_all` where the moved shards are whole buffers, else
    a gather along the source dims and a slice along the target dims."""
    params = op.attributes["params"].params
    if not _all_to_all_nests(ctx, op, params):
        return _moved(ctx, op, x)
    shape = list(x.type.shape)
    if len(params) == 1:
        (param,) = params
        groups = device_groups(param.axes, ctx.mesh)
        count = len(groups[0])
        shape[param.src_dim] *= count
        shape[param.tgt_dim] //= count
        result = ctx.value(
            "stablehlo.all_to_all",
            [x],
            x.type.with_shape(tuple(shape)),
            {
                "channel_handle": ctx.channel_handle(),
                "concat_dimension": ctx.i64_attr(param.src_dim),
                "replica_groups": ctx.groups_attr(groups, along=param.axes),
                "split_count": ctx.i64_attr(count),
                "split_dimension": ctx.i64_attr(param.tgt_dim),
            },
        )
        return _checked(ctx, op, result)
    return _checked(ctx, op, _all_to_all_params(ctx, op, x, params))


def _all_to_all_nests(ctx: LocalContext, op: Op, params) -> bool:
    """Each parameter's source dim concatenates into whole shards and its
    target dim splits into whole shards."""
    source, result = op.operands[0], op.results[0]
    before, after = ctx.sharded_axes(source), ctx.sharded_axes(result)
    shape = source.type.shape
    for param in params:
        n = axes_size(param.axes, ctx.mesh)
        src, tgt = param.src_dim, param.tgt_dim
        c_before = local_size(shape[src], before[src], ctx.mesh)
        if n * c_before != local_size(shape[src], after[src], ctx.mesh):
            return False
        c_after = local_size(shape[tgt], after[tgt], ctx.mesh)
        if n * c_after != local_size(shape[tgt], before[tgt], ctx.mesh):
            return False
    return True


def _all_to_all_params(ctx: LocalContext, op: Op, x: Value, params) -> Value:
    """Several parameters: split every target dim into (devices, rest), move
    the device factors to one leading dim, exchange it, and merge them into
    their source dims."""
    shape = x.type.shape
    rank = len(shape)
    by_target = sorted(params, key=lambda p: p.tgt_dim)
    counts = [axes_size(p.axes, ctx.mesh) for p in by_target]
    split_shape: list[int] = []
    front: list[int] = []
    for i in range(rank):
        k = next((k for k, p in enumerate(by_target) if p.tgt_dim == i), None)
        if k is None:
            split_shape.append(shape[i])
            continue
        if shape[i] % counts[k]:
            raise partition_error(
                op, "dynamic shape or dimension not divisible by num devices per param"
            )
        front.append(len(split_shape))
        split_shape += [counts[k], shape[i] // counts[k]]
    permutation = front + [i for i in range(len(split_shape)) if i not in front]
    split = ctx.transpose(ctx.reshape(x, split_shape), permutation)
    along = [a for p in by_target for a in p.axes]
    groups = device_groups(along, ctx.mesh)
    count = len(groups[0])
    leading = ctx.reshape(split, (count, *split.type.shape[len(params) :]))
    exchanged = ctx.value(
        "stablehlo.all_to_all",
        [leading],
        leading.type,
        {
            "channel_handle": ctx.channel_handle(),
            "concat_dimension": ctx.i64_attr(0),
            "replica_groups": ctx.groups_attr(groups, along=along),
            "split_count": ctx.i64_attr(count),
            "split_dimension": ctx.i64_attr(0),
        },
    )
    unsplit = ctx.reshape(exchanged, split.type.shape)
    back = [i + len(params) for i in range(rank)]
    for k, param in enumerate(by_target):
        back.insert(back.index(param.src_dim + len(params)), k)
    moved = ctx.transpose(unsplit, back)
    final: list[int] = []
    moved_shape = moved.type.shape
    i = 0
    while i < len(moved_shape):
        if back[i] < len(params):
            final.append(moved_shape[i] * moved_shape[i + 1])
            i += 2
        else:
            final.append(moved_shape[i])
            i += 1
    return ctx.reshape(moved, final)


def collective_permute(
    ctx: LocalContext, op: Op, x: Value, source: TensorSharding, target: TensorSharding
) -> Value:
    """`x`, split as `source`, sent to the devices that hold it as `target`
    (each sharding inlines its mesh: the target's may order the same devices
    differently)."""
    pairs = permute_pairs(source, target, source.resolve_mesh(), target.resolve_mesh())
    _check_pairs(op, pairs, source, target, op.operands[0].type.shape)
    attr = DenseElementsAttr.from_numpy(np.array(pairs), TensorType((len(pairs), 2), "i64"))
    result = ctx.value(
        "stablehlo.collective_permute",
        [x],
        x.type,
        {"channel_handle": ctx.channel_handle(), "source_target_pairs": attr},
    )
    return _checked(ctx, op, result)


def all_reduce(ctx: LocalContext, op: Op, x: Value) -> Value:
    """Combines the partial terms of `x` along the reduction axes it is partial
    along, with the reduction that left them; axes along which `x` is not
    partial (it is whole there, e.g. an argmax reduced in two steps) need nothing."""
    partial = ctx.partial.get(op.operands[0])
    if partial is None:
        return x
    axes = list(op.attributes["reduction_axes"].axes)
    reduced, left = _split(ctx, partial, axes)
    if left:
        ctx.partial[op.results[0]] = Partial(tuple(left), partial.kind, partial.mesh)
    if not reduced:
        return x
    if sorted(reduced) == sorted(axes):
        reduced = axes  # the op's own order (Shardy's groups)
    result_type = ctx.local_type(op.results[0], op)
    return complete(ctx, x, partial, reduced, result_type)


def _split(ctx: LocalContext, partial: Partial, axes) -> tuple[list, list]:
    """(the axes of `axes` that `partial` is partial along, its other partial axes)."""
    mesh = partial.mesh
    missing = axis_set_diff(axes, partial.axes, mesh)
    reduced = axis_set_diff(axes, missing, mesh)
    left = axis_set_diff(partial.axes, reduced, mesh)
    return reduced, left


def reduce_scatter(ctx: LocalContext, op: Op, x: Value) -> Value:
    """Reduces the partial terms along the axes and keeps this device's shard
    (`stablehlo.reduce_scatter` along one evenly sharded dim)."""
    lists = op.attributes["reduce_scatter_axes"].lists
    axes = [a for d in lists for a in d]
    partial = ctx.partial.get(op.operands[0])
    if partial is None:
        return _moved(ctx, op, x)
    reduced, left = _split(ctx, partial, axes)
    if left:
        ctx.partial[op.results[0]] = Partial(tuple(left), partial.kind, partial.mesh)
    dims = [d for d, d_axes in enumerate(lists) if d_axes]
    local = ctx.local_type(op.results[0], op)
    element = x.type.element_type
    if sorted(reduced) != sorted(axes) or not _nests(ctx, op, lists, gathering=False):
        return _moved(ctx, op, complete(ctx, x, partial, reduced))
    if len(dims) == 1 and x.type.shape[dims[0]] == local.shape[dims[0]] * axes_size(
        lists[dims[0]], ctx.mesh
    ):
        groups = device_groups(lists[dims[0]], ctx.mesh)
        attributes = {
            "channel_handle": ctx.channel_handle(),
            "replica_groups": ctx.groups_attr(groups, along=lists[dims[0]]),
            "scatter_dimension": ctx.i64_attr(dims[0]),
            "use_global_device_ids": UNIT,
        }
        region = ctx.binary_region(element, partial.kind)
        return ctx.op("stablehlo.reduce_scatter", [x], [local], attributes, [region]).results[0]
    factors = [axes_size(lists[d], ctx.mesh) for d in dims]
    if ctx.combine_multi_dimension_reduce_scatter and all(
        x.type.shape[d] == local.shape[d] * f for d, f in zip(dims, factors, strict=True)
    ):
        return _combined_reduce_scatter(ctx, x, lists, dims, factors, partial, local)
    groups = device_groups(axes, ctx.mesh)
    attributes = {
        "channel_handle": ctx.channel_handle(),
        "replica_groups": ctx.groups_attr(groups, along=axes),
        "use_global_device_ids": UNIT,
    }
    region = ctx.binary_region(element, partial.kind)
    reduced_x = ctx.op("stablehlo.all_reduce", [x], [x.type], attributes, [region]).results[0]
    return ctx.dynamic_slice_for_axes(reduced_x, lists, local)


def _combined_reduce_scatter(
    ctx: LocalContext,
    x: Value,
    lists,
    dims: list[int],
    factors: list[int],
    partial: Partial,
    local: TensorType,
) -> Value:
    """One `stablehlo.reduce_scatter` along several evenly sharded dims: each
    dim `d` split into (its shards, the local size), the shard dims moved to
    the front in dim order and flattened into one leading dim, whose slot `k`
    is the shard of the `k`-th device of the group, reduced and scattered.

    E.g. `tensor<8x8xf32>` over `[{"x"}, {"y"}]` on `<["x"=2, "y"=2]>`:
    reshape to 2x4x2x4, transpose to 2x2x4x4, reshape to 4x4x4,
    reduce_scatter along dim 0 to 1x4x4, reshape to 4x4."""
    split: list[int] = []
    shard_dims: list[int] = []  # where each dim's shard count lands in `split`
    for d, size in enumerate(local.shape):
        if d in dims:
            shard_dims.append(len(split))
            split.extend((factors[dims.index(d)], size))
        else:
            split.append(size)
    others = [i for i in range(len(split)) if i not in shard_dims]
    x = ctx.transpose(ctx.reshape(x, split), [*shard_dims, *others])
    x = ctx.reshape(x, (math.prod(factors), *local.shape))
    along = [a for d in dims for a in lists[d]]
    groups = device_groups(along, ctx.mesh)
    attributes = {
        "channel_handle": ctx.channel_handle(),
        "replica_groups": ctx.groups_attr(groups, along=along),
        "scatter_dimension": ctx.i64_attr(0),
        "use_global_device_ids": UNIT,
    }
    region = ctx.binary_region(x.type.element_type, partial.kind)
    scattered = x.type.with_shape((1, *local.shape))
    x = ctx.op("stablehlo.reduce_scatter", [x], [scattered], attributes, [region]).results[0]
    return ctx.reshape(x, local.shape)


def _checked(ctx: LocalContext, op: Op, result: Value) -> Value:
    expected = ctx.local_type(op.results[0], op)
    if result.type != expected:
        raise partition_error(
            op,
            f"the collective yields {result.type} per device but its result sharding "
            f"{op.attributes['out_sharding']} needs {expected}",
        )
    return result
