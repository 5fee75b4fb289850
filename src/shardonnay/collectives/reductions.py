"""The collectives of pending reductions: all-reduce, reduce-scatter, and the
marks that make a replicated or sharded value unreduced (see `collectives`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import ClassVar

from shardonnay.axes import AxisRef
from shardonnay.collectives.axis_lists import (
    AxisListError,
    cut,
    mesh_ordered,
    remove_axes,
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
from shardonnay.ops.sdy_collectives import (
    AxisRefList,
)
from shardonnay.sharding import TensorSharding, verify_axis_ref_lists


@dataclass(frozen=True)
class AllReduce(Collective):
    """Combines the addends along `reduction_axes` (unreduced axes of the
    operand): reduce-scatter then all-gather inside each group."""

    reduction_axes: tuple[AxisRef, ...]
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.all_reduce"

    def __post_init__(self):
        object.__setattr__(self, "reduction_axes", axis_tuple(self.reduction_axes))

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
        check_reduction(operand, self.reduction)
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
class ReduceScatter(PerDimCollective):
    """Combines the addends along `reduce_scatter_axes[d]` (unreduced axes of
    the operand) and shards dim `d` along them: each device receives only
    the addends of its new shard."""

    reduce_scatter_axes: AxesPerDim
    reduction: str = "sum"
    op_name: ClassVar[str] = "sdy.reduce_scatter"
    lists_field: ClassVar[str] = "reduce_scatter_axes"

    def _expected(self, operand, mesh):
        self._check_lists(operand, mesh)
        check_reduction(operand, self.reduction)
        unreduced = remove_axes(operand.unreduced, self._all_axes(), mesh, "reduce-scatter")
        return self._sliced_dims(operand, mesh), unreduced, operand.reduction

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

    def __post_init__(self):
        object.__setattr__(self, "axes", axis_tuple(self.axes))

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
        check_reduction(operand, self.reduction)
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
    lists_field: ClassVar[str] = "axes"

    def _expected(self, operand, mesh):
        self._check_lists(operand, mesh)
        check_reduction(operand, self.reduction)
        dims = self._gathered_dims(operand, mesh, "shard-to-unreduce")
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
            shape,
            (operand, mesh),
            (result, mesh),
            wants,
            peers,
            operand.unreduced,
            self.reduction,
            itemsize,
        )
