"""PyTorch DTensor's placements to and from `TensorSharding` (no torch needed).

DTensor is *mesh-dim oriented*: a `DeviceMesh` (a shape, optional
`mesh_dim_names` and the ranks laid out row-major) and one placement per mesh
dim, applied left to right, each splitting the local tensor the previous ones
left: `Shard(d)` chunks tensor dim `d` as `torch.chunk` does, `Replicate()`
copies, `Partial(op)` holds values whose reduction is the tensor, and
`_StridedShard(d, split_factor=k)` cuts dim `d` into `k` blocks, chunks every
block and keeps piece `i` of each (written `StridedShard` here). Shardy is
*tensor-dim oriented*: per tensor dim, the axes that split it, major to minor.

- Mesh dims are axes (named `dim_0`, ... when the mesh has no names) and the
  ranks are the mesh's `device_ids`.
- Several `Shard(d)` split dim `d` left to right: the first mesh dim is the
  major axis. Any other order is what `_StridedShard` encodes (DTensor's
  `shard_order`); `split_factor` is the product of the sizes of the mesh dims
  placed later that are more major. An encoding of no order holds strided,
  interleaved rows: no `TensorSharding` does, so that is a `ShardingError`. (A mesh
  dim of size 1 splits nothing, and a split factor cannot say where it sits.)
- `Partial("sum"|"max"|"min")` are unreduced axes with that reduction;
  `Partial("avg")` is a sum of local values scaled by `1/n`
  (`partial_avg_as_sum`); `product` and the bitwise reductions have no
  equivalent, nor do different reductions on one tensor.
- Sub-axes become mesh dims of their own: the axis `"x"=8` used as
  `"x":(1)2` and `"x":(2)4` is two mesh dims named `x:(1)2` and `x:(2)4`,
  read back as the sub-axes of one axis `"x"`.
- Open dims and priorities steer propagation and have no DTensor equivalent:
  a `ShardingError`, unless `drop_hints=True`.

`from_torch(dtensor.device_mesh, dtensor.placements)` reads torch's own objects and
`torch_placements` makes them.

A dim split by one mesh dim is cut alike: `torch.chunk` gives shard `i` the
rows `[i*c, min(n, (i+1)*c))` with `c = ceil(n/k)`, trailing shards short or
empty, which is the padded layout's region (`layout.device_slices`); only the
local shape differs (DTensor's is unpadded). A dim split by several mesh dims
is chunked step by step by DTensor, at once by the padded layout: the two
agree when the mesh dims' sizes divide the dim, and the conversions check it
when given a `shape`.

>>> fsdp_tp = DTensorSharding.parse(
...     "mesh=(2, 2) names=(dp, tp) placements=(_StridedShard(0, split_factor=2), Shard(0))")
>>> sharding, mesh = to_tensor_sharding(fsdp_tp, rank=2)
>>> str(mesh), str(sharding)
('<["dp"=2, "tp"=2]>', '#sdy.sharding<@mesh, [{"tp", "dp"}, {}]>')
>>> str(from_tensor_sharding(sharding, mesh)) == str(fsdp_tp)
True
>>> fsdp_tp.local_shape_and_global_offset((8, 8), device=1)   # (dp=0, tp=1): rows 4-5
((2, 8), (4, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from shardonnay.axes import AxisRef, merge_adjacent
from shardonnay.errors import ShardingError
from shardonnay.interop.dtensor_placements import (
    REDUCE_OPS,
    DeviceMeshSpec,
    DTensorSharding,
    Partial,
    Placement,
    Replicate,
    Shard,
    StridedShard,
    mesh_and_axes,
    partial_avg_as_sum,
)
from shardonnay.interop.dtensor_torch import from_torch, torch_placements
from shardonnay.layout import device_slices
from shardonnay.mesh import Mesh
from shardonnay.sharding import REDUCTIONS, DimSharding, TensorSharding

__all__ = [
    "REDUCE_OPS",
    "DTensorSharding",
    "DeviceMeshSpec",
    "Partial",
    "Placement",
    "Replicate",
    "Shard",
    "StridedShard",
    "from_tensor_sharding",
    "from_torch",
    "partial_avg_as_sum",
    "to_tensor_sharding",
    "torch_placements",
]

# -- conversions --------------------------------------------------------------------------


def to_tensor_sharding(
    sharding: DTensorSharding,
    rank: int,
    *,
    shape: Sequence[int] | None = None,
    mesh: Mesh | None = None,
    mesh_name: str | None = "mesh",
) -> tuple[TensorSharding, Mesh]:
    """The `TensorSharding` (bound to `@mesh_name`, or inlined if None) and its mesh.

    Without `mesh`, the mesh is `device_mesh.to_mesh()`; on a given `mesh` (over the
    same devices), each mesh dim becomes the axis or sub-axis that orders the devices as
    it does, and a `ShardingError` says which dim none does. With a `shape`, a dim split
    by several mesh dims that DTensor chunks otherwise than the padded layout (sizes that
    do not divide) raises `ShardingError`: those shards are ragged.

    >>> s = DTensorSharding.parse("mesh=(2, 4) names=(x, y) placements=(P(max), S(1))")
    >>> str(to_tensor_sharding(s, rank=2)[0])
    '#sdy.sharding<@mesh, [{}, {"y"}], unreduced=max{"x"}>'
    """
    spec = sharding.normalized(rank)
    ops = {p.reduce_op for p in spec.placements if isinstance(p, Partial)}
    if ops - set(REDUCTIONS):
        if "avg" in ops:
            raise ShardingError(
                "Partial(avg) has no unreduced equivalent: partial_avg_as_sum gives the "
                "Partial(sum) placements and the scale for the local tensors"
            )
        raise ShardingError(
            f"Partial({sorted(ops - set(REDUCTIONS))[0]}) has no equivalent: unreduced axes "
            f"reduce by {', '.join(REDUCTIONS)}"
        )
    order = spec.shard_order(rank)
    target, refs = _target_axes(spec.device_mesh, mesh)
    if target.is_maximal:
        if ops:
            raise ShardingError(f"{sharding} is partial on a one-device mesh {target}")
        result = TensorSharding(target if mesh_name is None else mesh_name, ())
    else:
        dims = [DimSharding(merge_adjacent([refs[m] for m in o if refs[m]], target)) for o in order]
        unreduced = sorted(
            (refs[m] for m, p in enumerate(spec.placements) if isinstance(p, Partial) and refs[m]),
            key=lambda a: a.mesh_sort_key(target),
        )
        result = TensorSharding(
            target if mesh_name is None else mesh_name,
            tuple(dims),
            unreduced=merge_adjacent(unreduced, target),
            reduction=next(iter(ops), "sum"),
        )
        result.validate(target)
    if shape is not None:
        _check_same_layout(spec, result, target, shape)
    return result, target


def from_tensor_sharding(
    sharding: TensorSharding,
    mesh: Mesh | None = None,
    *,
    shape: Sequence[int] | None = None,
    drop_hints: bool = False,
) -> DTensorSharding:
    """The DTensor sharding that puts the same data on the same devices.

    Axes are mesh dims (an axis split into sub-axes, one mesh dim per piece, named
    `x:(1)2`); dims with several axes become `Shard`s and `_StridedShard`s in DTensor's
    encoding of their order; unreduced axes `Partial`s; other axes `Replicate()`. Open
    dims and priorities raise `ShardingError` unless `drop_hints` (they guide propagation
    and change no data). With a `shape`, an uneven dim split by several mesh dims (which
    DTensor would chunk otherwise) raises `ShardingError`.

    >>> mesh = Mesh({"x": 2, "y": 4})
    >>> str(from_tensor_sharding(TensorSharding.from_axes("mesh", [("y", "x"), None]), mesh))
    'mesh=(2, 4) names=(x, y) placements=(_StridedShard(0, split_factor=4), Shard(0))'
    """
    mesh = sharding.resolve_mesh(mesh)
    sharding.validate(mesh, shape)
    if not drop_hints:
        for i, dim in enumerate(sharding.dims):
            if not dim.is_closed or dim.priority is not None:
                raise ShardingError(
                    f"dim {i} of {sharding} is {'open' if not dim.is_closed else 'prioritized'}"
                    ": DTensor placements have no open dims or priorities (they guide "
                    "propagation; drop_hints=True drops them)"
                )
    if not mesh.axes:  # the empty or a maximal mesh: one device
        result = DTensorSharding(DeviceMeshSpec.from_mesh(mesh), (Replicate(),))
    else:
        pieces = _pieces(sharding, mesh)
        spec = DeviceMeshSpec(
            tuple(p.size(mesh) for p in pieces),
            tuple(
                f"{p.name}:({p.pre_size}){p.size(mesh)}" if p.is_sub_axis else p.name
                for p in pieces
            ),
            mesh.device_ids,
        )
        placements: list[Placement] = [Replicate()] * len(pieces)
        orders = {j: [pieces.index(a) for a in dim.axes] for j, dim in enumerate(sharding.dims)}
        for j, order in orders.items():
            for m in order:
                placements[m] = Shard(j)
        for axis in sharding.unreduced:
            placements[pieces.index(axis)] = Partial(sharding.reduction)
        result = DTensorSharding(spec, tuple(placements)).with_shard_order(orders)
    if shape is not None:
        _check_same_layout(result, sharding, mesh, shape)
    return result


def _pieces(sharding: TensorSharding, mesh: Mesh) -> list[AxisRef]:
    """The mesh's axes, each cut where the sharding's sub-axes start and end."""
    cuts = {name: {1, size} for name, size in mesh.axes}
    for axis in sharding.all_axes():
        if axis.is_sub_axis:
            cuts[axis.name] |= {axis.pre_size, axis.next_pre_size(mesh)}
    pieces = []
    for name in mesh.axis_names:
        bounds = sorted(cuts[name])
        if len(bounds) <= 2:
            pieces.append(AxisRef(name))
            continue
        if any(hi % lo for lo, hi in pairwise(bounds)):
            raise ShardingError(f"{sharding} uses sub-axes of {name!r} that cut no grid")
        pieces.extend(AxisRef(name, (lo, hi // lo)) for lo, hi in pairwise(bounds))
    return pieces


def _target_axes(
    spec: DeviceMeshSpec, mesh: Mesh | None
) -> tuple[Mesh, tuple[AxisRef | None, ...]]:
    """The mesh and, per mesh dim, the (sub-)axis whose coordinate is the dim's."""
    if mesh is None:
        return mesh_and_axes(spec)
    if sorted(spec.device_list) != sorted(mesh.device_list):
        raise ShardingError(
            f"the DeviceMesh holds ranks {sorted(spec.device_list)}; mesh {mesh} has devices "
            f"{sorted(mesh.device_list)}"
        )
    if mesh.is_maximal:
        return mesh, (None,) * spec.ndim
    coords = np.array([mesh.coords_of(d) for d in spec.device_list]).reshape(spec.size, -1)
    dims = np.indices(spec.shape).reshape(spec.ndim, -1)
    refs: list[AxisRef | None] = []
    for m, size in enumerate(spec.shape):
        axes = sorted(enumerate(mesh.axes), key=lambda a: a[1][0] != spec.names[m])
        matching = (  # an axis of the dim's name first (size-1 axes all match)
            ref
            for i, (name, n) in axes
            for ref in _axis_refs_of_size(name, n, size)
            if ref not in refs and np.array_equal(ref.coordinate(coords[:, i], mesh), dims[m])
        )
        found = next(matching, None)
        if found is None and size > 1:
            raise ShardingError(
                f"mesh dim {m} ({spec.names[m]}) orders the devices as no axis or sub-axis of "
                f"mesh {mesh} does"
            )
        refs.append(found)
    return mesh, tuple(refs)


def _axis_refs_of_size(name: str, n: int, size: int) -> list[AxisRef]:
    """Axis `name` of size `n` if `n == size`, else its sub-axes of that size."""
    if n == size:
        return [AxisRef(name)]
    if size == 1:
        return []
    return [AxisRef(name, (pre, size)) for pre in range(1, n) if n % (pre * size) == 0]


def _check_same_layout(
    dtensor: DTensorSharding, sharding: TensorSharding, mesh: Mesh, shape: Sequence[int]
) -> None:
    """Raises `ShardingError` where a device's DTensor shard is not its padded-layout one."""
    regions = device_slices(shape, sharding, mesh)
    for device in dtensor.device_mesh.device_list:
        held = dtensor.local_indices(shape, device)
        for j, (indices, region) in enumerate(zip(held, regions[device], strict=True)):
            if not np.array_equal(indices, np.arange(region.start, region.stop)):
                got = _ranges(indices)
                raise ShardingError(
                    f"dim {j} (size {shape[j]}) is split by several mesh dims whose sizes do "
                    f"not divide it: DTensor chunks it step by step and gives device {device} "
                    f"{got}, the padded layout of {sharding} [{region.start}, {region.stop}); "
                    "such ragged shards have no equivalent"
                )


def _ranges(indices: np.ndarray) -> str:
    if len(indices) and np.array_equal(indices, np.arange(indices[0], indices[-1] + 1)):
        return f"[{indices[0]}, {indices[-1] + 1})"
    return f"rows {indices.tolist()}"
