"""Shardy's collectives as values: result-sharding rule, data movement, bytes.

Each collective is a small immutable value naming its axes, as the
`sdy.*` op of the same name does. Given the sharding of its operand it
says which sharding its result has (Shardy's verifier rule, with Shardy's
error messages), and given the operand's per-device buffers it builds the
new buffers by a real exchange (`exchange.Exchange`): every device receives
only what it lacks, from the devices of its group.

    AllGather([("y",), ()])          [{"x", "y"}, {}] -> [{"x"}, {}]   gathers the minor "y"
    AllSlice([(), ("y",)])           [{"x"}, {}] -> [{"x"}, {"y"}]     no communication
    AllToAll([AllToAllParam(("x",), 0, 1)])  [{"x"}, {"y"}] -> [{}, {"y", "x"}]
    CollectivePermute(<@mesh, [{"y"}, {"x"}]>)  same sharded size per dim, other devices
    AllReduce(("z",))                unreduced={"z"} -> reduced
    ReduceScatter([("z",), ()])      [{"x"}, {}], unreduced={"z"} -> [{"x", "z"}, {}]
    ReplicatedToUnreduced(("z",))    [{"x"}, {}] -> [{"x"}, {}], unreduced={"z"}
    ShardedToUnreduced([("x",), ()]) [{"x"}, {}] -> [{}, {}], unreduced={"x"}

`TileExchange(target)` is not one of Shardy's ops: every device receives
the tiles of its new buffer it does not hold straight from devices that hold
them, for any change of dim shardings, device order or mesh (over the same
devices) that keeps the pending addends (it may add unreduced axes). It is
the direct algorithm the MLIR resharding notes leave as a TODO; without
unreduced axes the bytes it moves are the lower bound.

The reductions live in `reductions`, the shared machinery (rule check with
Shardy's messages, exchange cache, text) in `base`; all are importable from
the package, `shardonnay.collectives`. On uneven dims a group's shards may
not cover a new shard (the cuts fall elsewhere); the missing edge then comes from a device
outside the group, as XLA's halo exchanges do, and is counted.

Each is also the definition of its op (`from_attributes` reads the value
from the op's attributes): `check` is Shardy's verifier of the op, which the
IR verifier runs. Deliberate differences of the rule (`result_sharding`,
`verify`) from Shardy's verifier, which checks dimension axes only but for
the `*_to_unreduced` marks: unreduced axes are part of the rule. Gathers,
slices, all-to-alls and permutes keep the operand's unreduced axes;
`AllReduce` and `ReduceScatter` may only reduce unreduced axes of the
operand. Results drop the operand's explicitly replicated axes (they mean the
same as implicit replication).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from shardonnay.axes import AxisRef
from shardonnay.collectives.attributes import AllToAllParam, AllToAllParamList
from shardonnay.collectives.axis_lists import (
    AxisListError,
    gather_suffix,
    remove_axes,
    slice_suffix,
)
from shardonnay.collectives.base import (
    AxesPerDim,
    Collective,
    PerDimCollective,
    axis_tuple,
    mismatch,
    moving_exchange,
    pending_reduction,
)
from shardonnay.collectives.exchange import (
    Want,
    coordinates,
    gather_exchange,
    regions,
    share_region,
)
from shardonnay.collectives.reductions import (
    AllReduce,
    ReduceScatter,
    ReplicatedToUnreduced,
    ShardedToUnreduced,
)
from shardonnay.mesh import Mesh
from shardonnay.sharding import TensorSharding, verify_axis_ref_lists


@dataclass(frozen=True)
class AllGather(PerDimCollective):
    """Removes `gathering_axes[d]` from the minor end of dim `d`: devices that
    differ only along them exchange their shards."""

    gathering_axes: AxesPerDim
    op_name: ClassVar[str] = "sdy.all_gather"
    axes_attr: ClassVar[str] = "gathering_axes"

    @classmethod
    def _ring_chunk(cls, shape_in, shape_out, itemsize, group_size):
        return math.prod(shape_in) * itemsize  # each device's input

    def _expected_dim(self, dim, axes, listed, mesh):
        return gather_suffix(axes, listed, dim, mesh, "gathering")

    def _expected(self, operand, mesh):
        return self._expected_dims(operand, mesh), operand.unreduced, operand.reduction


@dataclass(frozen=True)
class AllSlice(PerDimCollective):
    """Appends `slicing_axes[d]` to dim `d`: each device keeps a part of its
    shard (no communication, but on uneven dims a new shard may stick out of
    the old one and its edge comes from a neighbour)."""

    slicing_axes: AxesPerDim
    op_name: ClassVar[str] = "sdy.all_slice"
    axes_attr: ClassVar[str] = "slicing_axes"
    needs_operand_sharding: ClassVar[bool] = False

    def _expected_dim(self, dim, axes, listed, mesh):
        return slice_suffix(axes, listed, mesh)

    def _expected(self, operand, mesh):
        return self._expected_dims(operand, mesh), operand.unreduced, operand.reduction


@dataclass(frozen=True)
class AllToAll(Collective):
    """For each param `{axes}: src->tgt`, moves `axes` from the minor end of
    dim `src` to the minor end of dim `tgt`."""

    params: tuple[AllToAllParam, ...]
    op_name: ClassVar[str] = "sdy.all_to_all"
    axes_attr: ClassVar[str] = "params"
    axes_kind: ClassVar[Any] = AllToAllParamList

    @classmethod
    def _ring_chunk(cls, shape_in, shape_out, itemsize, group_size):
        # the block a device keeps of its input and of its output
        return math.prod(min(a, b) for a, b in zip(shape_in, shape_out, strict=True)) * itemsize

    def __post_init__(self):
        object.__setattr__(self, "params", tuple(self.params))

    @classmethod
    def move(cls, axes, src_dim: int, tgt_dim: int) -> AllToAll:
        return cls((AllToAllParam(axis_tuple(axes), src_dim, tgt_dim),))

    def _compared_dims(self, rank: int) -> list[int]:
        moved = [d for p in self.params for d in (p.src_dim, p.tgt_dim)]
        return moved + [d for d in range(rank) if d not in moved]

    def _check_params(self, rank: int, mesh: Mesh) -> None:
        """Shardy's checks of the parameters against a tensor of `rank`."""
        if not self.params:
            raise AxisListError("parameter list is empty")
        seen: set[int] = set()
        previous = -1
        verify_axis_ref_lists([p.axes for p in self.params], mesh)
        for p in self.params:
            for kind, dim in (("source", p.src_dim), ("target", p.tgt_dim)):
                if not 0 <= dim < rank:
                    raise AxisListError(f"{kind} dimension {dim} is out of range [0, {rank})")
            for dim in (p.src_dim, p.tgt_dim):
                if dim in seen:
                    raise AxisListError(
                        f"overlapping source/target dimensions in all-to-all params: {dim}"
                    )
                seen.add(dim)
            if previous >= p.src_dim:
                raise AxisListError(
                    f"source dimensions are not sorted in ascending order: {p.src_dim} "
                    f"appears after {previous}"
                )
            previous = p.src_dim

    def _moved(self, operand: TensorSharding, mesh: Mesh):
        """Per param: its dims and their axes after the move, in Shardy's order."""
        for p in self.params:
            src = gather_suffix(operand.dims[p.src_dim].axes, p.axes, p.src_dim, mesh, "all-to-all")
            yield p.src_dim, src
            yield p.tgt_dim, slice_suffix(operand.dims[p.tgt_dim].axes, p.axes, mesh)

    def _expected(self, operand, mesh):
        self._check_params(operand.rank, mesh)
        dims = [list(d.axes) for d in operand.dims]
        for dim, axes in self._moved(operand, mesh):
            dims[dim] = axes
        return dims, operand.unreduced, operand.reduction

    def _check(self, operand, result, operand_mesh, result_mesh):
        """Shardy's order: each param's source then target dim, then the others unchanged."""
        self._check_params(result.rank, result_mesh)
        moved = set()
        for dim, axes in self._moved(operand, result_mesh):
            moved.add(dim)
            if tuple(axes) != result.dims[dim].axes:
                raise mismatch(axes, dim)
        for dim, d in enumerate(operand.dims):
            if dim not in moved and d.axes != result.dims[dim].axes:
                raise mismatch(d.axes, dim)

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        axes = tuple(a for p in self.params for a in p.axes)
        return moving_exchange(operand, result, mesh, result_mesh, shape, itemsize, axes)


@dataclass(frozen=True)
class TileExchange(Collective):
    """Any change of dim shardings, device order or mesh (over the same
    devices) that keeps the pending addends: every device receives the tiles
    of its new region it does not hold from devices that hold them.

    The target may add unreduced axes (`[{"x"}]` -> `[{}], unreduced={"x"}`):
    then the devices that differ only along the new axes share the work, each
    element coming from one of them (one that holds it if any, else the
    least loaded) while the others hold the reduction's identity.

    Not one of Shardy's ops: it prints (`mlir`) as the `sdy.reshard` it
    realizes, which Shardy accepts for any pair of shardings (a
    `sdy.collective_permute` would be rejected unless every dim keeps its
    shard size).
    """

    target: TensorSharding
    target_mesh: Mesh | None = None
    op_name: ClassVar[str] = "sdy.collective_permute"
    may_change_mesh: ClassVar[bool] = True

    @classmethod
    def from_attributes(cls, attributes):
        """The op is its `out_sharding`."""
        return cls(attributes["out_sharding"])

    def result_mesh(self, mesh: Mesh) -> Mesh:
        return self.target.resolve_mesh(self.target_mesh or _same_named(self.target, mesh))

    def _expected(self, operand, mesh):
        target_mesh = self.result_mesh(mesh)
        if set(target_mesh.device_list) != set(mesh.device_list):
            raise AxisListError("result mesh has other devices than operand mesh")
        if self.target.rank != operand.rank:
            raise AxisListError(
                f"result sharding has rank {self.target.rank} but operand sharding has rank "
                f"{operand.rank}"
            )
        self._new_unreduced(operand, mesh)
        return [d.axes for d in self.target.dims], self.target.unreduced, self.target.reduction

    def _new_unreduced(self, operand, mesh) -> list[AxisRef]:
        """The target's unreduced axes that the operand does not have."""
        target, target_mesh = self.target, self.result_mesh(mesh)
        if not operand.unreduced:
            return list(target.unreduced)
        if target_mesh.axes != mesh.axes:
            raise AxisListError("cannot move unreduced values to a mesh with other axes")
        if operand.reduction != target.reduction:
            raise AxisListError(
                f"reduction {target.reduction} differs from the operand's pending "
                f"{operand.reduction}"
            )
        return remove_axes(target.unreduced, operand.unreduced, mesh, "pending", "the result")

    def _result_mesh_ref(self, operand):
        return self.target.mesh

    def mlir(self, operand_name: str, operand: TensorSharding, mesh: Mesh | None = None) -> str:
        """`sdy.reshard %x <@mesh, [...]>`: the reshard this exchange realizes."""
        return f"sdy.reshard {operand_name} {self.result_sharding(operand, mesh).body()}"

    def _verified_expectation(self, operand, result, mesh) -> TensorSharding:
        # The op is its out_sharding: check the rule for a permute to `result`.
        return type(self)(result, self.target_mesh).result_sharding(operand, mesh)

    def _check(self, operand, result, operand_mesh, result_mesh):
        """Not one of Shardy's ops: the rule of an exchange to `result`."""
        TileExchange(result, result_mesh)._expected(operand, operand_mesh)

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        new_axes = self._new_unreduced(operand, mesh)
        if not new_axes:
            return moving_exchange(operand, result, mesh, result_mesh, shape, itemsize, ())
        held = regions(shape, operand, mesh)
        new_regions = regions(shape, result, result_mesh)
        # Devices with the same target shard and pending addend share the work;
        # those with the same coordinates along the new axes must agree.
        shared: dict[tuple, dict[tuple, list[int]]] = {}
        for d in result_mesh.device_list:
            key = (new_regions[d], coordinates(d, operand.unreduced, result_mesh))
            role = coordinates(d, new_axes, result_mesh)
            shared.setdefault(key, {}).setdefault(role, []).append(d)
        wanted: dict[int, list[Want]] = {}
        for (region, term), by_role in shared.items():
            roles = [
                [
                    (d, held[d] if coordinates(d, operand.unreduced, mesh) == term else None)
                    for d in members
                ]
                for members in by_role.values()
            ]
            for members, boxes in zip(by_role.values(), share_region(region, roles), strict=True):
                for d in members:
                    wanted[d] = [Want(box, (term,)) for box in boxes]
        return gather_exchange(
            shape,
            (operand, mesh),
            (result, result_mesh),
            lambda d: wanted[d],
            {},
            operand.unreduced,
            pending_reduction(operand, result),
            itemsize,
        )


@dataclass(frozen=True)
class CollectivePermute(TileExchange):
    """Sends each device's buffer to the devices whose new shard it is: the
    result has the same sharded size in every dim (`[{"x", "y"}]` ->
    `[{"y", "x"}]`, `[{"x"}]` -> `[{"y"}]` for equal sizes) and the same
    unreduced axes, possibly on a mesh with the same axes and another device
    order (`target_mesh`)."""

    def _expected(self, operand, mesh):
        target_mesh = self.result_mesh(mesh)
        if target_mesh.axes != mesh.axes:
            raise AxisListError("result mesh has different axes than operand mesh")
        if self.target.rank != operand.rank:
            return super()._expected(operand, mesh)  # raises Shardy's rank error
        _check_sizes(operand, self.target, mesh, target_mesh)
        if (operand.unreduced, operand.reduction) != (self.target.unreduced, self.target.reduction):
            raise AxisListError(
                "result unreduced axes should be the operand's "
                f"{{{', '.join(map(str, operand.unreduced))}}}"
            )
        return super()._expected(operand, mesh)

    def _check(self, operand, result, operand_mesh, result_mesh):
        """Shardy's: same mesh axes, another name only with other device ids, the
        same sharded size in every dim whose axes change."""
        if result_mesh.axes != operand_mesh.axes:
            raise AxisListError("result mesh has different axes than operand mesh")
        renamed = isinstance(result.mesh, str) and isinstance(operand.mesh, str)
        renamed = renamed and result.mesh != operand.mesh
        if renamed and result_mesh.device_list == operand_mesh.device_list:
            raise AxisListError("result mesh name is different but same device ids as operand")
        _check_sizes(operand, result, operand_mesh, result_mesh)


def _check_sizes(operand, result, mesh: Mesh, result_mesh: Mesh) -> None:
    """Each dim whose axes change keeps its sharded size (Shardy's permute check)."""
    for dim, (a, b) in enumerate(zip(operand.dims, result.dims, strict=True)):
        if a.axes != b.axes and a.sharded_size(mesh) != b.sharded_size(result_mesh):
            raise AxisListError(
                f"sharded size of result doesn't match operand on dimension {dim}: "
                f"{b.sharded_size(result_mesh)} != {a.sharded_size(mesh)}"
            )


def _same_named(target: TensorSharding, mesh: Mesh) -> Mesh | None:
    """The operand's mesh stands for a target given by name (no target mesh)."""
    return None if isinstance(target.mesh, Mesh) else mesh


#: Shardy's collectives, one per `sdy.*` op (a `TileExchange` is none of them).
SHARDY_COLLECTIVES = (
    AllGather,
    AllSlice,
    AllToAll,
    CollectivePermute,
    AllReduce,
    ReduceScatter,
    ShardedToUnreduced,
    ReplicatedToUnreduced,
)
COLLECTIVES = (*SHARDY_COLLECTIVES, TileExchange)
_BY_OP_NAME = {c.op_name: c for c in SHARDY_COLLECTIVES}


def collective_of(op_name: str) -> type[Collective] | None:
    """The collective whose op is `op_name` (None for other ops).

    >>> collective_of("sdy.all_gather").__name__, collective_of("sdy.reshard")
    ('AllGather', None)
    """
    return _BY_OP_NAME.get(op_name)


__all__ = [
    "COLLECTIVES",
    "SHARDY_COLLECTIVES",
    "AllGather",
    "AllSlice",
    "AllToAll",
    "CollectivePermute",
    "TileExchange",
    "collective_of",
]
