"""The collectives of pending reductions: all-reduce, reduce-scatter, and the
marks that make a replicated or sharded value unreduced (see `data_movement`).

Shardy's verifier checks the unreduced axes of the marks
(`sdy.replicated_to_unreduced`, `sdy.sharded_to_unreduced`), not those of
`sdy.all_reduce` and `sdy.reduce_scatter`: their `check` leaves them to the
rule (`result_sharding`, `verify`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, ClassVar

from shardonnay.axes import AxisRef
from shardonnay.collectives.attributes import AxisRefList
from shardonnay.collectives.axis_lists import (
    AxisListError,
    cut,
    gather_suffix,
    mesh_ordered,
    remove_axes,
    slice_suffix,
)
from shardonnay.collectives.base import (
    AxesPerDim,
    Collective,
    PerDimCollective,
    axis_tuple,
    check_reduction,
)
from shardonnay.collectives.exchange import (
    Want,
    all_reduce_exchange,
    coordinates,
    gather_exchange,
    groups,
    intersect,
    regions,
    subtract,
)
from shardonnay.sharding import TensorSharding, verify_axis_ref_lists


@dataclass(frozen=True)
class AllReduce(Collective):
    """Combines the addends along `reduction_axes` (unreduced axes of the
    operand): reduce-scatter then all-gather inside each group."""

    reduction_axes: tuple[AxisRef, ...]
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.all_reduce"
    axes_attr: ClassVar[str] = "reduction_axes"
    axes_kind: ClassVar[Any] = AxisRefList
    needs_operand_sharding: ClassVar[bool] = False

    @classmethod
    def _ring_chunk(cls, shape_in, shape_out, itemsize, group_size):
        return -(-math.prod(shape_in) // group_size) * itemsize  # an n-th of the input

    def __post_init__(self):
        object.__setattr__(self, "reduction_axes", axis_tuple(self.reduction_axes))

    def _check_axes(self, operand: TensorSharding, mesh) -> None:
        verify_axis_ref_lists([self.reduction_axes], mesh)
        used = operand.dim_axes() + operand.replicated
        for axis in self.reduction_axes:
            if any(axis.overlaps(a) for a in used):
                raise AxisListError(
                    f"reduction axis {axis} overlaps with operand dimension sharding or "
                    "replicated axes"
                )

    def _expected(self, operand, mesh):
        self._check_axes(operand, mesh)
        check_reduction(operand, self.reduction)
        unreduced = remove_axes(operand.unreduced, self.reduction_axes, mesh, "reduction")
        return [d.axes for d in operand.dims], unreduced, operand.reduction

    def _check(self, operand, result, operand_mesh, result_mesh):
        if [d.axes for d in operand.dims] != [d.axes for d in result.dims]:
            raise AxisListError("operand and result shardings are not equivalent")
        self._check_axes(operand, result_mesh)
        for axis in self.reduction_axes:
            if any(axis.overlaps(a) for a in result.unreduced):
                raise AxisListError(f"reduction axis {axis} overlaps with result unreduced axes")

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        return all_reduce_exchange(
            shape, operand, mesh, groups(mesh, self.reduction_axes), self.reduction, itemsize
        )


@dataclass(frozen=True)
class ReduceScatter(PerDimCollective):
    """Combines the addends along `reduce_scatter_axes[d]` (unreduced axes of
    the operand) and shards dim `d` along them: each device receives only
    the addends of its new shard."""

    reduce_scatter_axes: AxesPerDim
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.reduce_scatter"
    axes_attr: ClassVar[str] = "reduce_scatter_axes"
    needs_operand_sharding: ClassVar[bool] = False

    @classmethod
    def _ring_chunk(cls, shape_in, shape_out, itemsize, group_size):
        return math.prod(shape_out) * itemsize  # each device's output

    def _expected_dim(self, dim, axes, listed, mesh):
        return slice_suffix(axes, listed, mesh)

    def _expected(self, operand, mesh):
        dims = self._expected_dims(operand, mesh)
        check_reduction(operand, self.reduction)
        unreduced = remove_axes(operand.unreduced, self._all_axes(), mesh, "reduce-scatter")
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
            shape,
            (operand, mesh),
            (result, mesh),
            wants,
            groups(mesh, removed),
            term_axes,
            self.reduction,
            itemsize,
        )


@dataclass(frozen=True)
class ReplicatedToUnreduced(Collective):
    """Marks replicated `axes` unreduced: the device at coordinate 0 along
    them keeps the value, the others hold the reduction's identity."""

    axes: tuple[AxisRef, ...]
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.replicated_to_unreduced"
    axes_attr: ClassVar[str] = "axes"
    axes_kind: ClassVar[Any] = AxisRefList

    def __post_init__(self):
        object.__setattr__(self, "axes", axis_tuple(self.axes))

    def _check_axes(self, operand: TensorSharding, mesh) -> None:
        verify_axis_ref_lists([self.axes], mesh)
        keys = [a.mesh_sort_key(mesh) for a in self.axes]
        if keys != sorted(keys):
            raise AxisListError("r2u axes are not ordered w.r.t. mesh")
        for axis in self.axes:
            if any(axis.overlaps(a) for a in operand.unreduced):
                raise AxisListError(f"r2u axis {axis} overlaps with operand unreduced axes")

    def _expected(self, operand, mesh):
        self._check_axes(operand, mesh)
        check_reduction(operand, self.reduction)
        unreduced = mesh_ordered(operand.unreduced + self.axes, mesh)
        return [d.axes for d in operand.dims], unreduced, self.reduction

    def _unreduced_message(self, expected):
        return "out_unreduced_axes should be in_unreduced_axes + r2u_axes"

    def _check(self, operand, result, operand_mesh, result_mesh):
        if [d.axes for d in operand.dims] != [d.axes for d in result.dims]:
            raise AxisListError("input and output must share the same dimension shardings")
        self._check_axes(operand, result_mesh)
        if result.unreduced != tuple(mesh_ordered(operand.unreduced + self.axes, result_mesh)):
            raise AxisListError(self._unreduced_message(None))

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        held = regions(shape, operand, mesh)

        def wants(device):
            if any(coordinates(device, self.axes, mesh)):
                return []
            return [Want(held[device], (coordinates(device, operand.unreduced, mesh),))]

        return gather_exchange(
            shape,
            (operand, mesh),
            (result, mesh),
            wants,
            {},
            operand.unreduced,
            self.reduction,
            itemsize,
        )


@dataclass(frozen=True)
class ShardedToUnreduced(PerDimCollective):
    """Moves `axes[d]` from the minor end of dim `d` to the unreduced axes:
    each device keeps its shard in its larger new buffer, identity elsewhere."""

    axes: AxesPerDim
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.sharded_to_unreduced"
    axes_attr: ClassVar[str] = "axes"

    def _expected_dim(self, dim, axes, listed, mesh):
        return gather_suffix(axes, listed, dim, mesh, "shard-to-unreduce")

    def _expected(self, operand, mesh):
        dims = self._expected_dims(operand, mesh)
        check_reduction(operand, self.reduction)
        unreduced = mesh_ordered(operand.unreduced + self._all_axes(), mesh)
        return dims, unreduced, self.reduction

    def _unreduced_message(self, expected):
        return "out_unreduced_axes should be in_unreduced_axes + sharded_to_unreduced_axes"

    def _check(self, operand, result, operand_mesh, result_mesh):
        super()._check(operand, result, operand_mesh, result_mesh)
        if result.unreduced != tuple(
            mesh_ordered(operand.unreduced + self._all_axes(), result_mesh)
        ):
            raise AxisListError(self._unreduced_message(None))

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
            shape,
            (operand, mesh),
            (result, mesh),
            wants,
            peers,
            operand.unreduced,
            self.reduction,
            itemsize,
        )
