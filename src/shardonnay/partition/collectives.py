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
devices) that keeps the unreduced axes. It is the direct algorithm the MLIR
resharding notes leave as a TODO, and the bytes it moves are the lower bound.

Deliberate differences from Shardy's verifier (which checks dimension axes
only): unreduced axes are part of the rule. Gathers, slices, all-to-alls and
permutes keep the operand's unreduced axes; `AllReduce` and `ReduceScatter`
may only reduce unreduced axes of the operand. Results drop the operand's
explicitly replicated axes (they mean the same as implicit replication).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.errors import PartitionError, ShardingError
from shardonnay.mesh import Mesh
from shardonnay.ops.sdy_collectives import (
    AllToAllParam,
    AllToAllParamList,
    AxisRefList,
    ListOfAxisRefLists,
)
from shardonnay.partition.axis_lists import (
    AxisListError,
    axes_text,
    cut,
    gather_suffix,
    mesh_ordered,
    remove_axes,
    slice_suffix,
)
from shardonnay.partition.exchange import (
    Exchange,
    Want,
    all_reduce_exchange,
    coordinates,
    gather_exchange,
    groups,
    intersect,
    regions,
    share_region,
    subtract,
)
from shardonnay.sharding import DimSharding, TensorSharding, verify_axis_ref_lists

AxesPerDim = tuple[tuple[AxisRef, ...], ...]


def _axis(a: str | AxisRef) -> AxisRef:
    return a if isinstance(a, AxisRef) else AxisRef(a)


def _axes(axes) -> tuple[AxisRef, ...]:
    return (_axis(axes),) if isinstance(axes, str | AxisRef) else tuple(_axis(a) for a in axes)


def _axes_per_dim(lists) -> AxesPerDim:
    return tuple(_axes(axes) for axes in lists)


class Collective:
    """Base of the collectives: subclasses define `_expected` and `_build`."""

    op_name: ClassVar[str]

    # -- the rule ---------------------------------------------------------------------

    def result_sharding(self, operand: TensorSharding, mesh: Mesh | None = None) -> TensorSharding:
        """The sharding of the result, or `PartitionError` (Shardy's message) if the
        collective cannot apply to `operand`."""
        mesh = operand.resolve_mesh(mesh)
        try:
            dims, unreduced, reduction = self._expected(operand, mesh)
            result = TensorSharding(
                self._result_mesh_ref(operand),
                tuple(DimSharding(tuple(axes)) for axes in dims),
                unreduced=tuple(unreduced),
                reduction=reduction,
            )
            result.validate(self.result_mesh(mesh))
        except (AxisListError, ShardingError) as e:
            raise self._error(str(e)) from None
        return result

    def result_mesh(self, mesh: Mesh) -> Mesh:
        """The mesh the result lives on (another one only for permutes)."""
        return mesh

    def _result_mesh_ref(self, operand: TensorSharding) -> str | Mesh:
        return operand.mesh

    def verify(
        self, operand: TensorSharding, result: TensorSharding, mesh: Mesh | None = None
    ) -> None:
        """Checks `result` as Shardy's verifier checks the op's `out_sharding`."""
        mesh = operand.resolve_mesh(mesh)
        try:
            result.validate(self.result_mesh(mesh))
        except ShardingError as e:
            raise self._error(str(e)) from None
        if result.mesh != operand.mesh and not isinstance(self, TileExchange):
            raise self._error("result mesh does not match operand mesh")
        if result.rank != operand.rank:
            raise self._error(
                f"result sharding has rank {result.rank} but operand sharding has rank "
                f"{operand.rank}"
            )
        expected = self._verified_expectation(operand, result, mesh)
        for dim in self._compared_dims(result.rank):
            want, got = expected.dims[dim], result.dims[dim]
            if want.axes != got.axes:
                raise self._error(
                    f"result sharding doesn't match expected sharding {axes_text(want.axes)} "
                    f"on dimension {dim}"
                )
        if (expected.unreduced, expected.reduction) != (result.unreduced, result.reduction):
            raise self._error(self._unreduced_message(expected))

    def _verified_expectation(self, operand, result, mesh) -> TensorSharding:
        """The result sharding this op must have (checks before the comparison)."""
        return self.result_sharding(operand, mesh)

    def _compared_dims(self, rank: int) -> list[int]:
        """The order in which Shardy compares the result's dims with the expected ones."""
        return list(range(rank))

    def _unreduced_message(self, expected: TensorSharding) -> str:
        return f"result unreduced axes should be {{{', '.join(map(str, expected.unreduced))}}}"

    def _error(self, message: str) -> PartitionError:
        return PartitionError(f"'{self.op_name}' op {message}")

    def _expected(self, operand: TensorSharding, mesh: Mesh):
        raise NotImplementedError

    # -- data -----------------------------------------------------------------------

    def exchange(
        self,
        operand: TensorSharding,
        mesh: Mesh | None,
        global_shape: Sequence[int],
        dtype=np.float32,
    ) -> Exchange:
        """The data movement of this collective on a tensor of `global_shape`."""
        mesh = operand.resolve_mesh(mesh)
        return _cached_exchange(self, operand, mesh, tuple(global_shape), np.dtype(dtype).itemsize)

    def apply(
        self,
        buffers: Mapping[int, np.ndarray],
        in_sharding: TensorSharding,
        mesh: Mesh | None,
        global_shape: Sequence[int],
    ) -> dict[int, np.ndarray]:
        """The result's per-device buffers, computed from `buffers` by exchange."""
        dtype = next(iter(buffers.values())).dtype if buffers else np.float32
        return self.exchange(in_sharding, mesh, global_shape, dtype).apply(buffers)

    def bytes_received(
        self, device: int, in_sharding: TensorSharding, mesh: Mesh | None, global_shape,
        dtype=np.float32,
    ) -> int:  # fmt: skip
        return self.exchange(in_sharding, mesh, global_shape, dtype).bytes_received(device)

    def bytes_sent(
        self, device: int, in_sharding: TensorSharding, mesh: Mesh | None, global_shape,
        dtype=np.float32,
    ) -> int:  # fmt: skip
        return self.exchange(in_sharding, mesh, global_shape, dtype).bytes_sent(device)

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize) -> Exchange:
        raise NotImplementedError

    # -- text -----------------------------------------------------------------------

    def axes_attribute(self):
        """The op's axes attribute (`ListOfAxisRefLists`, `AxisRefList`, ...), None if none."""
        return None

    def mlir(self, operand_name: str, operand: TensorSharding, mesh: Mesh | None = None) -> str:
        """The op in Shardy's syntax, e.g. `sdy.all_gather [{"y"}] %0 out_sharding=<...>`."""
        result = self.result_sharding(operand, mesh)
        attr = self.axes_attribute()
        axes = f"{attr.body()} " if attr is not None else ""
        return f"{self.op_name} {axes}{operand_name} out_sharding={result.body()}"


@functools.lru_cache(maxsize=4096)
def _cached_exchange(collective: Collective, operand, mesh, shape, itemsize) -> Exchange:
    result = collective.result_sharding(operand, mesh)
    result_mesh = collective.result_mesh(mesh)
    return collective._build(operand, result, mesh, result_mesh, shape, itemsize)


def _reduction(operand: TensorSharding, result: TensorSharding) -> str:
    return operand.reduction if operand.unreduced else result.reduction


def _moving_exchange(operand, result, mesh, result_mesh, shape, itemsize, axes) -> Exchange:
    """Each device takes its new region (same addend) from itself, then its group along `axes`."""
    peers = groups(mesh, axes) if result_mesh is mesh else {}
    new_regions = regions(shape, result, result_mesh)

    def wants(device):
        return [Want(new_regions[device], (coordinates(device, result.unreduced, result_mesh),))]

    return gather_exchange(
        shape, (operand, mesh), (result, result_mesh), wants, peers, operand.unreduced,
        _reduction(operand, result), itemsize,
    )  # fmt: skip


class _PerDimCollective(Collective):
    """A collective with one axis list per dimension (`[{"x"}, {}]`)."""

    def _lists(self) -> AxesPerDim:
        raise NotImplementedError

    def axes_attribute(self) -> ListOfAxisRefLists:
        return ListOfAxisRefLists(self._lists())

    def _all_axes(self) -> tuple[AxisRef, ...]:
        return tuple(a for axes in self._lists() for a in axes)

    def _check_lists(self, operand: TensorSharding, mesh: Mesh) -> None:
        verify_axis_ref_lists(self._lists(), mesh)
        if len(self._lists()) != operand.rank:  # the result has the operand's rank
            raise AxisListError(
                f"result sharding has rank {operand.rank} but collective axes has rank "
                f"{len(self._lists())}"
            )


@dataclass(frozen=True)
class AllGather(_PerDimCollective):
    """Removes `gathering_axes[d]` from the minor end of dim `d`: devices that
    differ only along them exchange their shards."""

    gathering_axes: AxesPerDim
    op_name: ClassVar[str] = "sdy.all_gather"

    def __post_init__(self):
        object.__setattr__(self, "gathering_axes", _axes_per_dim(self.gathering_axes))

    def _lists(self):
        return self.gathering_axes

    def _expected(self, operand, mesh):
        self._check_lists(operand, mesh)
        dims = [
            gather_suffix(d.axes, g, i, mesh, "gathering")
            for i, (d, g) in enumerate(zip(operand.dims, self.gathering_axes, strict=True))
        ]
        return dims, operand.unreduced, operand.reduction

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        return _moving_exchange(
            operand, result, mesh, result_mesh, shape, itemsize, self._all_axes()
        )


@dataclass(frozen=True)
class AllSlice(_PerDimCollective):
    """Appends `slicing_axes[d]` to dim `d`: each device keeps a part of its
    shard (no communication, but on uneven dims a new shard may stick out of
    the old one and its edge comes from a neighbour)."""

    slicing_axes: AxesPerDim
    op_name: ClassVar[str] = "sdy.all_slice"

    def __post_init__(self):
        object.__setattr__(self, "slicing_axes", _axes_per_dim(self.slicing_axes))

    def _lists(self):
        return self.slicing_axes

    def _expected(self, operand, mesh):
        self._check_lists(operand, mesh)
        dims = [
            slice_suffix(d.axes, s, mesh)
            for d, s in zip(operand.dims, self.slicing_axes, strict=True)
        ]
        return dims, operand.unreduced, operand.reduction

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        return _moving_exchange(
            operand, result, mesh, result_mesh, shape, itemsize, self._all_axes()
        )


@dataclass(frozen=True)
class AllToAll(Collective):
    """For each param `{axes}: src->tgt`, moves `axes` from the minor end of
    dim `src` to the minor end of dim `tgt`."""

    params: tuple[AllToAllParam, ...]
    op_name: ClassVar[str] = "sdy.all_to_all"

    def __post_init__(self):
        object.__setattr__(self, "params", tuple(self.params))

    @classmethod
    def move(cls, axes, src_dim: int, tgt_dim: int) -> AllToAll:
        return cls((AllToAllParam(_axes(axes), src_dim, tgt_dim),))

    def axes_attribute(self) -> AllToAllParamList:
        return AllToAllParamList(self.params)

    def _compared_dims(self, rank: int) -> list[int]:
        moved = [d for p in self.params for d in (p.src_dim, p.tgt_dim)]
        return moved + [d for d in range(rank) if d not in moved]

    def _expected(self, operand, mesh):
        if not self.params:
            raise AxisListError("parameter list is empty")
        rank = operand.rank
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
        dims = [list(d.axes) for d in operand.dims]
        for p in self.params:
            dims[p.src_dim] = gather_suffix(
                operand.dims[p.src_dim].axes, p.axes, p.src_dim, mesh, "all-to-all"
            )
            dims[p.tgt_dim] = slice_suffix(operand.dims[p.tgt_dim].axes, p.axes, mesh)
        return dims, operand.unreduced, operand.reduction

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        axes = tuple(a for p in self.params for a in p.axes)
        return _moving_exchange(operand, result, mesh, result_mesh, shape, itemsize, axes)


@dataclass(frozen=True)
class TileExchange(Collective):
    """Any change of dim shardings, device order or mesh (over the same
    devices) that keeps the pending addends: every device receives the tiles
    of its new region it does not hold from devices that hold them.

    The target may add unreduced axes (`[{"x"}]` -> `[{}], unreduced={"x"}`):
    then the devices that differ only along the new axes share the work, each
    element coming from one of them (one that holds it if any, else the
    least loaded) while the others hold the reduction's identity.

    Not one of Shardy's ops (its `mlir` is a `sdy.collective_permute` that
    Shardy accepts only when that op's rule holds).
    """

    target: TensorSharding
    target_mesh: Mesh | None = None
    op_name: ClassVar[str] = "sdy.collective_permute"

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
        return remove_axes(target.unreduced, operand.unreduced, mesh, "operand unreduced")

    def _result_mesh_ref(self, operand):
        return self.target.mesh

    def _verified_expectation(self, operand, result, mesh) -> TensorSharding:
        # The op is its out_sharding: check the rule for a permute to `result`.
        return type(self)(result, self.target_mesh).result_sharding(operand, mesh)

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        new_axes = self._new_unreduced(operand, mesh)
        if not new_axes:
            return _moving_exchange(operand, result, mesh, result_mesh, shape, itemsize, ())
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
                [(d, held[d] if coordinates(d, operand.unreduced, mesh) == term else None)
                 for d in members]
                for members in by_role.values()
            ]  # fmt: skip
            for members, boxes in zip(by_role.values(), share_region(region, roles), strict=True):
                for d in members:
                    wanted[d] = [Want(box, (term,)) for box in boxes]
        return gather_exchange(
            shape, (operand, mesh), (result, result_mesh), lambda d: wanted[d], {},
            operand.unreduced, _reduction(operand, result), itemsize,
        )  # fmt: skip


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
        for dim, (a, b) in enumerate(zip(operand.dims, self.target.dims, strict=True)):
            if a.axes != b.axes and a.sharded_size(mesh) != b.sharded_size(target_mesh):
                raise AxisListError(
                    f"sharded size of result doesn't match operand on dimension {dim}: "
                    f"{b.sharded_size(target_mesh)} != {a.sharded_size(mesh)}"
                )
        if (operand.unreduced, operand.reduction) != (self.target.unreduced,
                                                      self.target.reduction):  # fmt: skip
            raise AxisListError(
                "result unreduced axes should be the operand's "
                f"{{{', '.join(map(str, operand.unreduced))}}}"
            )
        return super()._expected(operand, mesh)


def _same_named(target: TensorSharding, mesh: Mesh) -> Mesh | None:
    """The operand's mesh stands for a target given by name (no target mesh)."""
    return None if isinstance(target.mesh, Mesh) else mesh


@dataclass(frozen=True)
class AllReduce(Collective):
    """Combines the addends along `reduction_axes` (unreduced axes of the
    operand): reduce-scatter then all-gather inside each group."""

    reduction_axes: tuple[AxisRef, ...]
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.all_reduce"

    def __post_init__(self):
        object.__setattr__(self, "reduction_axes", _axes(self.reduction_axes))

    def axes_attribute(self) -> AxisRefList:
        return AxisRefList(self.reduction_axes)

    def _expected(self, operand, mesh):
        verify_axis_ref_lists([self.reduction_axes], mesh)
        used = operand.dim_axes() + operand.replicated
        for axis in self.reduction_axes:
            if any(axis.overlaps(a) for a in used):
                raise AxisListError(
                    f"reduction axis {axis} overlaps with operand dimension sharding or "
                    "replicated axes"
                )
        _check_reduction(operand, self.reduction)
        unreduced = remove_axes(operand.unreduced, self.reduction_axes, mesh, "reduction")
        return [d.axes for d in operand.dims], unreduced, operand.reduction

    def _verified_expectation(self, operand, result, mesh) -> TensorSharding:
        if [d.axes for d in operand.dims] != [d.axes for d in result.dims]:
            raise self._error("operand and result shardings are not equivalent")
        expected = self.result_sharding(operand, mesh)
        for axis in self.reduction_axes:
            if any(axis.overlaps(a) for a in result.unreduced):
                raise self._error(f"reduction axis {axis} overlaps with result unreduced axes")
        return expected

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        return all_reduce_exchange(
            shape, operand, mesh, groups(mesh, self.reduction_axes), self.reduction, itemsize
        )


@dataclass(frozen=True)
class ReduceScatter(_PerDimCollective):
    """Combines the addends along `reduce_scatter_axes[d]` (unreduced axes of
    the operand) and shards dim `d` along them: each device receives only
    the addends of its new shard."""

    reduce_scatter_axes: AxesPerDim
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.reduce_scatter"

    def __post_init__(self):
        object.__setattr__(self, "reduce_scatter_axes", _axes_per_dim(self.reduce_scatter_axes))

    def _lists(self):
        return self.reduce_scatter_axes

    def _expected(self, operand, mesh):
        self._check_lists(operand, mesh)
        _check_reduction(operand, self.reduction)
        unreduced = remove_axes(operand.unreduced, self._all_axes(), mesh, "reduce-scatter")
        dims = [
            slice_suffix(d.axes, s, mesh)
            for d, s in zip(operand.dims, self.reduce_scatter_axes, strict=True)
        ]
        return dims, unreduced, operand.reduction

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        removed = self._all_axes()
        term_axes = [p for a in operand.unreduced for p in cut(a, removed, mesh)]
        new_regions = regions(shape, result, mesh)
        choices = [
            range(a.size(mesh)) if any(r.contains(a) for r in removed) else None for a in term_axes
        ]

        def wants(device):
            mine = coordinates(device, term_axes, mesh)
            options = [c if c is not None else (m,) for c, m in zip(choices, mine, strict=True)]
            return [Want(new_regions[device], tuple(itertools.product(*options)))]

        return gather_exchange(
            shape, (operand, mesh), (result, mesh), wants, groups(mesh, removed), term_axes,
            self.reduction, itemsize,
        )  # fmt: skip


@dataclass(frozen=True)
class ReplicatedToUnreduced(Collective):
    """Marks replicated `axes` unreduced: the device at coordinate 0 along
    them keeps the value, the others hold the reduction's identity."""

    axes: tuple[AxisRef, ...]
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.replicated_to_unreduced"

    def __post_init__(self):
        object.__setattr__(self, "axes", _axes(self.axes))

    def axes_attribute(self) -> AxisRefList:
        return AxisRefList(self.axes)

    def _expected(self, operand, mesh):
        verify_axis_ref_lists([self.axes], mesh)
        keys = [a.mesh_sort_key(mesh) for a in self.axes]
        if keys != sorted(keys):
            raise AxisListError("r2u axes are not ordered w.r.t. mesh")
        for axis in self.axes:
            if any(axis.overlaps(a) for a in operand.unreduced):
                raise AxisListError(f"r2u axis {axis} overlaps with operand unreduced axes")
        _check_reduction(operand, self.reduction)
        unreduced = mesh_ordered(operand.unreduced + self.axes, mesh)
        return [d.axes for d in operand.dims], unreduced, self.reduction

    def _unreduced_message(self, expected):
        return "out_unreduced_axes should be in_unreduced_axes + r2u_axes"

    def _verified_expectation(self, operand, result, mesh) -> TensorSharding:
        if [d.axes for d in operand.dims] != [d.axes for d in result.dims]:
            raise self._error("input and output must share the same dimension shardings")
        return self.result_sharding(operand, mesh)

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        held = regions(shape, operand, mesh)

        def wants(device):
            if any(coordinates(device, self.axes, mesh)):
                return []
            return [Want(held[device], (coordinates(device, operand.unreduced, mesh),))]

        return gather_exchange(
            shape, (operand, mesh), (result, mesh), wants, {}, operand.unreduced,
            self.reduction, itemsize,
        )  # fmt: skip


@dataclass(frozen=True)
class ShardedToUnreduced(_PerDimCollective):
    """Moves `axes[d]` from the minor end of dim `d` to the unreduced axes:
    each device keeps its shard in its larger new buffer, identity elsewhere."""

    axes: AxesPerDim
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.sharded_to_unreduced"

    def __post_init__(self):
        object.__setattr__(self, "axes", _axes_per_dim(self.axes))

    def _lists(self):
        return self.axes

    def _expected(self, operand, mesh):
        self._check_lists(operand, mesh)
        _check_reduction(operand, self.reduction)
        dims = [
            gather_suffix(d.axes, g, i, mesh, "shard-to-unreduce")
            for i, (d, g) in enumerate(zip(operand.dims, self.axes, strict=True))
        ]
        unreduced = mesh_ordered(operand.unreduced + self._all_axes(), mesh)
        return dims, unreduced, self.reduction

    def _unreduced_message(self, expected):
        return "out_unreduced_axes should be in_unreduced_axes + sharded_to_unreduced_axes"

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        moved = self._all_axes()
        held = regions(shape, operand, mesh)
        new_regions = regions(shape, result, mesh)
        peers = groups(mesh, moved)

        def wants(device):
            term = (coordinates(device, operand.unreduced, mesh),)
            region = new_regions[device]
            own = intersect(region, held[device])
            out = [Want(own, term)] if own is not None else []
            if not any(coordinates(device, moved, mesh)):
                uncovered = [region]
                for member in peers[device]:
                    uncovered = [p for u in uncovered for p in subtract(u, held[member])]
                out += [Want(box, term) for box in uncovered]
            return out

        return gather_exchange(
            shape, (operand, mesh), (result, mesh), wants, peers, operand.unreduced,
            self.reduction, itemsize,
        )  # fmt: skip


def _check_reduction(operand: TensorSharding, reduction: str) -> None:
    if operand.unreduced and operand.reduction != reduction:
        raise AxisListError(
            f"reduction {reduction} differs from the operand's pending {operand.reduction}"
        )


COLLECTIVES = (
    AllGather,
    AllSlice,
    AllToAll,
    CollectivePermute,
    AllReduce,
    ReduceScatter,
    ReplicatedToUnreduced,
    ShardedToUnreduced,
    TileExchange,
)
