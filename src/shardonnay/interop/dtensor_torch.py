"""Between `DTensorSharding` and torch's own objects: a `DeviceMesh` and its placements.

`from_torch` reads them by their attributes, so it needs no torch import:
`from_torch(dtensor.device_mesh, dtensor.placements)`. `torch_placements`
makes torch's placement objects (torch imported there, when called).

>>> from types import SimpleNamespace
>>> import numpy as np
>>> mesh = SimpleNamespace(mesh=np.array([[0, 2], [1, 3]]), mesh_dim_names=("dp", "tp"))
>>> Shard = type("Shard", (), {"dim": 0})
>>> str(from_torch(mesh, [Shard(), Shard()]))
'mesh=(2, 2) names=(dp, tp) devices=(0, 2, 1, 3) placements=(Shard(0), Shard(0))'
"""

from __future__ import annotations

from collections.abc import Iterable

from shardonnay.errors import ShardingError
from shardonnay.interop.dtensor_placements import (
    DeviceMeshSpec,
    DTensorSharding,
    Partial,
    Placement,
    Replicate,
    Shard,
    StridedShard,
    reason_without_equivalent,
)

__all__ = ["from_torch", "torch_placements"]


def from_torch(device_mesh: object, placements: Iterable[object]) -> DTensorSharding:
    """The sharding of a DTensor on `device_mesh` (a `torch.distributed.DeviceMesh`: its
    `mesh` of ranks and `mesh_dim_names`) with `placements` (torch's `Shard`,
    `_StridedShard`, `Replicate`, `Partial`, read by class name and attributes)."""
    ranks = device_mesh.mesh
    spec = DeviceMeshSpec(
        tuple(ranks.shape), device_mesh.mesh_dim_names, tuple(ranks.flatten().tolist())
    )
    return DTensorSharding(spec, tuple(_placement(p) for p in placements))


def torch_placements(sharding: DTensorSharding) -> tuple:
    """torch's placement objects for `sharding.placements` (needs torch)."""
    from torch.distributed.tensor import Partial as TorchPartial
    from torch.distributed.tensor import Replicate as TorchReplicate
    from torch.distributed.tensor import Shard as TorchShard
    from torch.distributed.tensor.placement_types import _StridedShard

    def made(p: Placement):
        if isinstance(p, StridedShard):
            return _StridedShard(p.dim, split_factor=p.split_factor)
        if isinstance(p, Shard):
            return TorchShard(p.dim)
        if isinstance(p, Partial):
            return TorchPartial(p.reduce_op)
        return TorchReplicate()

    return tuple(made(p) for p in sharding.placements)


def _placement(p: object) -> Placement:
    kind = type(p).__name__
    reason = reason_without_equivalent(kind)
    if reason:
        raise ShardingError(f"{kind} has no equivalent: {reason}")
    if kind in ("_StridedShard", "StridedShard"):
        return StridedShard(int(p.dim), int(p.split_factor))
    if kind == "Shard":
        return Shard(int(p.dim))
    if kind == "Replicate":
        return Replicate()
    if kind == "Partial":
        return Partial(str(p.reduce_op))
    raise ShardingError(
        f"unknown placement {p!r} ({kind}); expected Shard, _StridedShard, Replicate or Partial"
    )
