"""What every collective value shares: the rule, Shardy's verifier of the op
(with Shardy's messages), the exchange, bytes and text.

Two checks, one rule. `check(operand, result, ...)` is Shardy's verifier of
the op `sdy.<collective>`: the one `shardonnay.ir.verifier` runs on a module
(through the op definitions of `shardonnay.ops.sdy_collectives`), accepting
exactly what Shardy accepts. `verify(operand, result)` is that check plus the
pending reductions, which Shardy's verifier leaves out for most collectives
(see `data_movement`): what the reshard planner requires of its plans.
`result_sharding(operand)` computes the result from the same per-dimension
rules. The collectives themselves are in `data_movement` and `reductions`
(pending sums).
"""

from __future__ import annotations

import dataclasses
import functools
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.collectives.attributes import ListOfAxisRefLists
from shardonnay.collectives.axis_lists import (
    AxisListError,
    axes_text,
)
from shardonnay.collectives.exchange import (
    Exchange,
    Want,
    coordinates,
    gather_exchange,
    groups,
    regions,
)
from shardonnay.collectives.traffic import Traffic, ring_traffic
from shardonnay.errors import PartitionError, ShardingError
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding, verify_axis_ref_lists

AxesPerDim = tuple[tuple[AxisRef, ...], ...]


def _axis(a: str | AxisRef) -> AxisRef:
    return a if isinstance(a, AxisRef) else AxisRef(a)


def axis_tuple(axes) -> tuple[AxisRef, ...]:
    """`"x"`, `AxisRef("x")` or a list of either as a tuple of axis refs."""
    return (_axis(axes),) if isinstance(axes, str | AxisRef) else tuple(_axis(a) for a in axes)


def axes_per_dim(lists) -> AxesPerDim:
    """One tuple of axis refs per dim (`[("x",), ()]` -> `((AxisRef("x"),), ())`)."""
    return tuple(axis_tuple(axes) for axes in lists)


class Collective(ABC):
    """Base of the collectives: subclasses define `_expected` (the rule),
    `_check` (Shardy's verifier of the op) and `_build` (the exchange).

    Class facts: `op_name`; `axes_attr`, the op's attribute holding the
    collective's axes (also the value's field) and `axes_kind` its attribute
    class (None for `sdy.collective_permute`, which has none);
    `needs_operand_sharding`, whether Shardy rejects the op on an operand
    without a sharding; `may_change_mesh`.
    """

    op_name: ClassVar[str]
    axes_attr: ClassVar[str | None] = None
    axes_kind: ClassVar[Any] = None
    needs_operand_sharding: ClassVar[bool] = True
    may_change_mesh: ClassVar[bool] = False

    @classmethod
    def from_attributes(cls, attributes: Mapping[str, Any]) -> Collective:
        """The collective an op `sdy.<op_name>` with `attributes` performs."""
        attr = attributes[cls.axes_attr]
        (field,) = dataclasses.fields(attr)
        return cls(getattr(attr, field.name))

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

    def check(
        self,
        operand: TensorSharding | None,
        result: TensorSharding,
        operand_mesh: Mesh | None,
        result_mesh: Mesh,
    ) -> None:
        """Shardy's verifier of the op: `PartitionError` with Shardy's message
        where Shardy rejects this collective from `operand` (None: the operand
        has no sharding) on `operand_mesh` to `result` on `result_mesh`.

        >>> from shardonnay.collectives import AllGather
        >>> mesh, S = Mesh({"x": 2, "y": 2}), TensorSharding.parse
        >>> AllGather([(), ("y",)]).check(
        ...     S('<@m, [{"x"}, {"y"}]>'), S('<@m, [{"y"}, {"x"}]>'), mesh, mesh)
        Traceback (most recent call last):
        ...
        shardonnay.errors.PartitionError: 'sdy.all_gather' op result sharding doesn't \
match expected sharding ["x"] on dimension 0
        """
        if operand is None:
            if self.needs_operand_sharding:
                raise self._error("collective on operand without sharding")
            operand, operand_mesh = TensorSharding.replicated_on(result.mesh, result.rank), None
        operand_mesh = operand_mesh or result_mesh
        try:
            result.validate(result_mesh)
        except ShardingError as e:
            raise self._error(str(e)) from None
        if operand_mesh != result_mesh and not self.may_change_mesh:
            raise self._error("result mesh does not match operand mesh")
        if result.rank != operand.rank:
            raise self._error(
                f"result sharding has rank {result.rank} but operand sharding has rank "
                f"{operand.rank}"
            )
        try:
            self._check(operand, result, operand_mesh, result_mesh)
        except (AxisListError, ShardingError) as e:
            raise self._error(str(e)) from None

    @abstractmethod
    def _check(
        self, operand: TensorSharding, result: TensorSharding, operand_mesh: Mesh, result_mesh: Mesh
    ) -> None:
        """The op's own part of Shardy's verifier; raises `AxisListError`."""

    def verify(
        self, operand: TensorSharding, result: TensorSharding, mesh: Mesh | None = None
    ) -> None:
        """Checks `result` as Shardy's verifier checks the op's `out_sharding`
        (`check`), and that it keeps the pending reductions right."""
        mesh = operand.resolve_mesh(mesh)
        if result.mesh != operand.mesh and not self.may_change_mesh:
            raise self._error("result mesh does not match operand mesh")
        self.check(operand, result, mesh, self.result_mesh(mesh))
        expected = self._verified_expectation(operand, result, mesh)
        for dim in self._compared_dims(result.rank):
            want, got = expected.dims[dim], result.dims[dim]
            if want.axes != got.axes:
                raise self._error(str(mismatch(want.axes, dim)))
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

    @abstractmethod
    def _expected(self, operand: TensorSharding, mesh: Mesh) -> tuple[list, Sequence, str]:
        """(axes per dim, unreduced axes, reduction) of the result, or `AxisListError`."""

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
        self,
        device: int,
        in_sharding: TensorSharding,
        mesh: Mesh | None,
        global_shape,
        dtype=np.float32,
    ) -> int:
        return self.exchange(in_sharding, mesh, global_shape, dtype).bytes_received(device)

    def bytes_sent(
        self,
        device: int,
        in_sharding: TensorSharding,
        mesh: Mesh | None,
        global_shape,
        dtype=np.float32,
    ) -> int:
        return self.exchange(in_sharding, mesh, global_shape, dtype).bytes_sent(device)

    @abstractmethod
    def _build(self, operand, result, mesh, result_mesh, shape, itemsize) -> Exchange:
        """The exchange from `operand` on `mesh` to `result` on `result_mesh`."""

    # -- cost -----------------------------------------------------------------------

    @classmethod
    def traffic(
        cls,
        groups: Sequence[Sequence[int]],
        num_devices: int,
        buffers: tuple[Sequence[int], Sequence[int]],
        itemsize: int,
    ) -> Traffic:
        """(sent, received, steps) per device of the cost model's algorithm
        (`traffic.ALGORITHMS`) among `groups` of devices, each holding a buffer
        of shape `buffers[0]` before and `buffers[1]` after: a ring passes
        `_ring_chunk` on, a local collective moves nothing. (A permute's
        traffic follows the pairs of devices it connects: `pair_traffic`.)

        >>> from shardonnay.collectives import AllGather
        >>> AllGather([("x",)]).traffic([(0, 1)], 2, ((4,), (8,)), 4)
        ([16, 16], [16, 16], 1)
        """
        group_size = max((len(g) for g in groups), default=1)
        chunk = cls._ring_chunk(*buffers, itemsize, group_size)
        if chunk is None:
            return [0] * num_devices, [0] * num_devices, 0
        return ring_traffic(cls.op_name.removeprefix("sdy."), groups, num_devices, chunk)

    @classmethod
    def _ring_chunk(
        cls, shape_in: Sequence[int], shape_out: Sequence[int], itemsize: int, group_size: int
    ) -> int | None:
        """Bytes a member passes on per ring step; None: no communication."""
        return None

    # -- text -----------------------------------------------------------------------

    def axes_attribute(self):
        """The op's axes attribute (`ListOfAxisRefLists`, `AxisRefList`, ...), None if none."""
        if self.axes_kind is None:
            return None
        return self.axes_kind(getattr(self, self.axes_attr))

    def mlir(self, operand_name: str, operand: TensorSharding, mesh: Mesh | None = None) -> str:
        """The op in Shardy's syntax, e.g. `sdy.all_gather [{"y"}] %0 out_sharding=<...>`."""
        result = self.result_sharding(operand, mesh)
        attr = self.axes_attribute()
        axes = f"{attr.body()} " if attr is not None else ""
        return f"{self.op_name} {axes}{operand_name} out_sharding={result.body()}"


def mismatch(want: Sequence[AxisRef], dim: int) -> AxisListError:
    """Shardy's message for a result dim other than the rule's."""
    return AxisListError(
        f"result sharding doesn't match expected sharding {axes_text(want)} on dimension {dim}"
    )


@functools.lru_cache(maxsize=4096)
def _cached_exchange(collective: Collective, operand, mesh, shape, itemsize) -> Exchange:
    result = collective.result_sharding(operand, mesh)
    result_mesh = collective.result_mesh(mesh)
    return collective._build(operand, result, mesh, result_mesh, shape, itemsize)


def pending_reduction(operand: TensorSharding, result: TensorSharding) -> str:
    """How the addends combine: the operand's pending reduction, else the result's."""
    return operand.reduction if operand.unreduced else result.reduction


def moving_exchange(operand, result, mesh, result_mesh, shape, itemsize, axes) -> Exchange:
    """Each device takes its new region (same addend) from itself, then its group along `axes`."""
    peers = groups(mesh, axes) if result_mesh is mesh else {}
    new_regions = regions(shape, result, result_mesh)

    def wants(device):
        return [Want(new_regions[device], (coordinates(device, result.unreduced, result_mesh),))]

    return gather_exchange(
        shape,
        (operand, mesh),
        (result, result_mesh),
        wants,
        peers,
        operand.unreduced,
        pending_reduction(operand, result),
        itemsize,
    )


class PerDimCollective(Collective):
    """A collective with one axis list per dimension (`[{"x"}, {}]`), held in
    the dataclass field named `axes_attr`. Each result dim follows from the
    operand's by `_expected_dim`. By default its data moves as a gather's or a
    slice's does: each device takes its new region from its group along the
    listed axes."""

    axes_kind: ClassVar[Any] = ListOfAxisRefLists

    def __post_init__(self):
        object.__setattr__(self, self.axes_attr, axes_per_dim(getattr(self, self.axes_attr)))

    def _lists(self) -> AxesPerDim:
        """The op's axis list per dim."""
        return getattr(self, self.axes_attr)

    @abstractmethod
    def _expected_dim(
        self, dim: int, axes: Sequence[AxisRef], listed: Sequence[AxisRef], mesh: Mesh
    ) -> list[AxisRef]:
        """The result's axes of `dim`, whose operand axes are `axes` and whose
        collective axes are `listed`; `AxisListError` if they do not apply."""

    def _expected_dims(self, operand: TensorSharding, mesh: Mesh) -> list[list[AxisRef]]:
        self._check_lists(operand.rank, mesh)
        return [
            self._expected_dim(dim, d.axes, listed, mesh)
            for dim, (d, listed) in enumerate(zip(operand.dims, self._lists(), strict=True))
        ]

    def _check(self, operand, result, operand_mesh, result_mesh):
        """Shardy's `verifyCollectiveWithAxesPerDim`: dim by dim, in order."""
        self._check_lists(result.rank, result_mesh)
        for dim, (d, listed) in enumerate(zip(operand.dims, self._lists(), strict=True)):
            want = self._expected_dim(dim, d.axes, listed, result_mesh)
            if tuple(want) != result.dims[dim].axes:
                raise mismatch(want, dim)

    def _build(self, operand, result, mesh, result_mesh, shape, itemsize):
        return moving_exchange(
            operand, result, mesh, result_mesh, shape, itemsize, self._all_axes()
        )

    def _all_axes(self) -> tuple[AxisRef, ...]:
        return tuple(a for axes in self._lists() for a in axes)

    def _check_lists(self, rank: int, mesh: Mesh) -> None:
        """The axis lists are valid on `mesh`, one per dim of a result of `rank`."""
        verify_axis_ref_lists(self._lists(), mesh)
        if len(self._lists()) != rank:
            raise AxisListError(
                f"result sharding has rank {rank} but collective axes has rank {len(self._lists())}"
            )


def check_reduction(operand: TensorSharding, reduction: str) -> None:
    """An op combining with `reduction` must match the operand's pending one."""
    if operand.unreduced and operand.reduction != reduction:
        raise AxisListError(
            f"reduction {reduction} differs from the operand's pending {operand.reduction}"
        )
