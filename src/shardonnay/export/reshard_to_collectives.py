"""Shardy's `sdy-reshard-to-collectives`: each `sdy.reshard` as a chain of collectives.

A reshard from `in` to `out` becomes, in this order and as needed (up to two
rounds), an `sdy.all_slice` (shard along axes `out` has and `in` lacks), an
`sdy.collective_permute` (put axes in place when no slice, all-to-all or
gather can, or change the device order), `sdy.all_to_all`s (move the minor
axes of a dim to the dim where `out` wants them) and an `sdy.all_gather`
(unshard a dim whose minor-most axis `out` does not want: all its axes go,
as in Shardy, whose loop meant to keep those `out` wants stops early), each
stating the sharding it leaves. On `["x"=2, "y"=2]`:

    %1 = sdy.reshard %0 <@mesh, [{"y"}, {"x"}]>      %0 sharded [{"x"}, {}]
    ~>
    %1 = sdy.all_slice [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {"y"}]>
    %2 = sdy.collective_permute %1 out_sharding=<@mesh, [{"y"}, {"x"}]>

The algorithm works on the axes of each dim that follow the prefix `in` and
`out` share there (`in_axes` and `out_axes`; both empty means done), with
axes split into sub-axes wherever the other sharding cuts them (`"x"` against
`"x":(1)2` becomes `"x":(1)2, "x":(2)2`), so that axes either match or are
disjoint. `current` is the sharding so far; `capacity` how much more (slice)
or how much in all (permute) a dim may be sharded along.

A reshard to a fully replicated sharding from a fully replicated one goes;
one from a sharding on a mesh with other axes stays.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from shardonnay.axes import AxisRef
from shardonnay.collectives.attributes import AllToAllParam, AllToAllParamList, ListOfAxisRefLists
from shardonnay.collectives.axis_lists import append_or_merge
from shardonnay.errors import ShardingError
from shardonnay.export.common_axes import prefix_without_overlap
from shardonnay.export.insertion import insert_before
from shardonnay.ir.core import Module, Op, Value
from shardonnay.ir.shardings import is_equivalent, mesh_of, sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding

__all__ = ["lower_reshard", "reshard_stays", "reshard_to_collectives"]

AxisList = list[AxisRef]


def reshard_to_collectives(module: Module, *, keep_redundant: bool = False) -> Module:
    """Replaces, in place, every `sdy.reshard` of `module` by the collectives
    Shardy lowers it to (see the module docstring); returns `module`.

    Which reshards stay is decided on the module as given (a reshard whose
    input comes from a reshard onto another mesh stays even when that one
    goes); each is then lowered from the sharding of its input as lowered.
    With `keep_redundant` (Shardy's `keep-redundant-reshards=true`, for a
    module whose explicit reshards may not have been inserted), a reshard
    to a sharding equivalent to its input's (`is_equivalent`) stays too.
    """
    meshes = module.meshes
    reshards = [o for o in module.walk() if o.name == "sdy.reshard"]
    to_lower = [
        op
        for op in reshards
        if not (keep_redundant and _redundant(op)) and not reshard_stays(op, meshes)
    ]
    for op in to_lower:
        lower_reshard(op, meshes)
    return module


def _input(op: Op) -> Value:
    """The reshard's input, past any `sdy.propagation_barrier`."""
    source = op.operands[0]
    while source.op is not None and source.op.name == "sdy.propagation_barrier":
        source = source.op.operands[0]
    return source


def _redundant(op: Op) -> bool:
    """The reshard `op` goes to a sharding equivalent to its input's."""
    return is_equivalent(sharding_of(_input(op)), op.attributes["sharding"])


def _same_mesh(a: TensorSharding, b: TensorSharding, meshes: dict[str, Mesh]) -> bool:
    """The same mesh, or meshes whose axes agree (device orders may differ)."""
    return a.mesh == b.mesh or mesh_of(a, meshes).axes == mesh_of(b, meshes).axes


def reshard_stays(op: Op, meshes: dict[str, Mesh]) -> bool:
    """Whether the `sdy.reshard` `op` stays as it is rather than becoming collectives.

    It stays when it goes onto a mesh whose axes differ from those of its
    input's sharding (no collective moves data between meshes), unless its
    target is fully replicated (then it is lowered on the input's mesh).
    An input without a sharding is replicated: the reshard goes. A reshard
    onto or off a maximal mesh (one device) stays: the per-device program
    moves the value to or from that device (Shardy's pass fails on it).

    On `@a = <["x"=2]>` and `@b = <["y"=2]>`, a reshard of a value sharded
    `<@a, [{"x"}]>` to `<@b, [{"y"}]>` stays; one to `<@b, [{}]>` goes.
    """
    out: TensorSharding = op.attributes["sharding"]
    in_sharding = sharding_of(_input(op))
    if any(s is not None and mesh_of(s, meshes).is_maximal for s in (out, in_sharding)):
        return True
    if _fully_replicated(out):
        return False
    return in_sharding is not None and not _same_mesh(in_sharding, out, meshes)


def lower_reshard(op: Op, meshes: dict[str, Mesh]) -> Value:
    """Replaces, in place, the `sdy.reshard` `op` by the chain of collectives
    Shardy lowers it to (see the module docstring), inserted before it and
    starting from the sharding its input has now; `op` is erased. Returns
    what took the place of its result: the chain's last result (each op of
    the chain takes the one before it), or its input where there is none.

    A reshard between fully replicated shardings just goes (its uses take its
    operand). Call it only on a reshard that does not stay (`reshard_stays`):
    raises `ShardingError` for shardings of different ranks or on meshes with
    different axes.
    """
    out: TensorSharding = op.attributes["sharding"]
    source = _input(op)
    in_sharding = sharding_of(source)
    if in_sharding is None:
        in_sharding = TensorSharding(out.mesh, tuple(DimSharding((), False) for _ in out.dims))
    if in_sharding.rank != out.rank:
        raise ShardingError(f"sdy.reshard: incompatible shardings {in_sharding} and {out}")
    if _fully_replicated(out):
        if _fully_replicated(in_sharding):
            source = op.operands[0]
            op.results[0].replace_all_uses_with(source)
            op.erase()
            return source
        out = TensorSharding(in_sharding.mesh, tuple(DimSharding(()) for _ in out.dims))
    if not _same_mesh(in_sharding, out, meshes):
        raise ShardingError(
            f"sdy.reshard: from {in_sharding} to {out} needs meshes with the same axes"
        )
    result = _CollectiveInserter(in_sharding, out, source, op, mesh_of(in_sharding, meshes))
    replacement = result.insert()
    op.results[0].replace_all_uses_with(replacement)
    op.erase()
    return replacement


def _fully_replicated(sharding: TensorSharding) -> bool:
    return not sharding.dim_axes()


# -- axis arithmetic, as Shardy does it --------------------------------------------------------


def _size(axes: Sequence[AxisRef], mesh: Mesh) -> int:
    return math.prod(a.size(mesh) for a in axes)


def _divisible(a: int, b: int) -> bool:
    return a % b == 0 or b % a == 0


def _within_capacity(
    axis: AxisRef, capacity: int, mesh: Mesh
) -> tuple[AxisRef | None, AxisRef | None, int]:
    """The part of `axis` that fits in `capacity`, the remainder and the
    capacity left (nothing fits unless the sizes divide one another)."""
    size = axis.size(mesh)
    if capacity <= 1 or not _divisible(size, capacity):
        return None, None, capacity
    if capacity >= size:
        return axis, None, capacity // size
    within = AxisRef(axis.name, (axis.pre_size, capacity))
    remainder = AxisRef(axis.name, (axis.pre_size * capacity, size // capacity))
    return within, remainder, 1


def _first_overlapping(axis: AxisRef, ordered: Sequence[AxisRef]) -> int:
    for i, other in enumerate(ordered):
        if other.overlaps(axis):
            return i
    return len(ordered)


def _align(axes: AxisList, ordered_others: Sequence[AxisRef], mesh: Mesh) -> None:
    """Splits, in place, each axis of `axes` where an axis of `ordered_others`
    (sorted) that it can coexist with starts or ends inside it."""
    i = 0
    while i < len(axes):
        axis = axes[i]
        k = _first_overlapping(axis, ordered_others)
        advanced = False
        while k < len(ordered_others):
            other = ordered_others[k]
            if not (other.can_coexist(axis) and not other.contains(axis) and other.overlaps(axis)):
                break
            del axes[i]
            prefix = prefix_without_overlap(axis, other)
            if prefix is not None:
                axes.insert(i, prefix)
                i += 1
            overlap = axis.overlap(other)
            assert overlap is not None
            axes.insert(i, overlap)
            i += 1
            suffix = axis.suffix_without_overlap(other, mesh)
            if suffix is None:
                advanced = True
                break
            axes.insert(i, suffix)
            axis = suffix
            k += 1
        if not advanced:
            i += 1


def _align_all(per_dim: list[AxisList], ordered_others: Sequence[AxisRef], mesh: Mesh) -> None:
    if ordered_others:
        for axes in per_dim:
            _align(axes, ordered_others, mesh)


def _pop_back(current: list[AxisRef], popped: Sequence[AxisRef]) -> None:
    """Removes `popped` (possibly finer sub-axes) from the end of `current`."""
    for axis in reversed(popped):
        prefix = prefix_without_overlap(current[-1], axis)
        if prefix is None:
            current.pop()
        else:
            current[-1] = prefix


class _CollectiveInserter:
    """Shardy's `CollectiveInserter` (see the module docstring)."""

    def __init__(
        self,
        in_sharding: TensorSharding,
        out_sharding: TensorSharding,
        source: Value,
        op: Op,
        mesh: Mesh,
    ):
        self.op = op
        self.result = source
        self.mesh = mesh
        self.shape = source.type.shape if isinstance(source.type, TensorType) else ()
        self.cur_mesh = in_sharding.mesh
        self.out_mesh = out_sharding.mesh
        self.unreduced = out_sharding.unreduced
        self.in_axes: list[AxisList] = [list(d.axes) for d in in_sharding.dims]
        self.out_axes: list[AxisList] = [list(d.axes) for d in out_sharding.dims]
        self.current: list[list[AxisRef]] = [list(d.axes) for d in in_sharding.dims]
        self.capacity = [1] * in_sharding.rank
        ordered_in = sorted(a for axes in self.in_axes for a in axes)
        ordered_out = sorted(a for axes in self.out_axes for a in axes)
        _align_all(self.in_axes, ordered_out, mesh)
        _align_all(self.out_axes, ordered_in, mesh)
        for ins, outs in zip(self.in_axes, self.out_axes, strict=True):
            while ins and outs and ins[0] == outs[0]:
                ins.pop(0)
                outs.pop(0)
        self.in_set = {a for axes in self.in_axes for a in axes}
        self._index_out_axes()

    def _index_out_axes(self) -> None:
        self.out_index: dict[AxisRef, tuple[int, int]] = {}
        for dim, axes in enumerate(self.out_axes):
            for i, axis in enumerate(axes):
                self.out_index.setdefault(axis, (dim, i))

    @property
    def rank(self) -> int:
        return len(self.in_axes)

    def done(self) -> bool:
        return self.cur_mesh == self.out_mesh and not any(self.in_axes) and not any(self.out_axes)

    def current_sharding(self) -> TensorSharding:
        dims = tuple(DimSharding(tuple(axes)) for axes in self.current)
        return TensorSharding(self.cur_mesh, dims, (), self.unreduced)

    def _emit(self, name: str, attrs: dict) -> None:
        op = Op(
            name,
            [self.result],
            [self.result.type],
            {**attrs, "out_sharding": self.current_sharding()},
        )
        insert_before(self.op, op)
        self.result = op.results[0]

    def insert(self) -> Value:
        for _ in range(2):
            if self.done():
                break
            self.try_all_slice()
            self.try_collective_permute()
            self.try_all_to_alls(out_of_order_target=False)
            self.try_all_to_alls(out_of_order_target=True)
            self.try_all_gather()
        return self.result

    # -- all-gather -------------------------------------------------------------------------

    def _gathering_axes(self, dim: int) -> list[AxisRef]:
        """The axes to gather from `dim`: all of its axes when its minor-most
        one is not wanted by `out`, none otherwise. (Shardy means to gather
        the suffix of unwanted axes, but its loop ends after the first step,
        with the whole dim; only that minor-most axis leaves `in_set`.)"""
        ins = self.in_axes[dim]
        if not ins or ins[-1] in self.out_index:
            return []
        self.in_set.discard(ins[-1])
        start = 0
        _pop_back(self.current[dim], ins[start:])
        gathering: list[AxisRef] = []
        for axis in ins[start:]:
            append_or_merge(gathering, axis, self.mesh)
        del ins[start:]
        return gathering

    def try_all_gather(self) -> None:
        per_dim = [self._gathering_axes(d) for d in range(self.rank)]
        if any(per_dim):
            axes = ListOfAxisRefLists(tuple(tuple(a) for a in per_dim))
            self._emit("sdy.all_gather", {"gathering_axes": axes})

    # -- all-slice --------------------------------------------------------------------------

    def _distribute_within_capacity(
        self,
        add_to_front: bool,
        available_for: Callable[[int], AxisList],
        consume: Callable[[AxisRef, int], None] = lambda axis, dim: None,
    ) -> None:
        split_added: list[AxisRef] = []
        for dim in range(self.rank):
            ins = self.in_axes[dim]
            insert_at = 0 if add_to_front else None
            available = available_for(dim)
            k = 0
            while k < len(available) and self.capacity[dim] > 1:
                within, remainder, self.capacity[dim] = _within_capacity(
                    available[k], self.capacity[dim], self.mesh
                )
                if within is None:
                    k += 1
                    continue
                del available[k]
                if insert_at is None:
                    ins.append(within)
                else:
                    ins.insert(insert_at, within)
                    insert_at += 1
                self.in_set.add(within)
                consume(within, dim)
                if remainder is not None:
                    split_added.append(within)
                    available.insert(0, remainder)
                    k = 0
        _align_all(self.out_axes, sorted(split_added), self.mesh)

    def _slice_for_all_to_all(self, src: int) -> list[AxisRef] | None:
        src_in = self.in_axes[src]
        if not src_in or self.out_axes[src]:
            return None
        entry = self.out_index.get(src_in[-1])
        if entry is None:
            return None
        tgt = entry[0]
        if self.in_axes[tgt]:
            return None
        tgt_out = self.out_axes[tgt]
        start = tgt_out.index(src_in[-1]) + 1
        if start == len(tgt_out) or tgt_out[start] in self.in_set:
            return None
        i, j, common = len(src_in) - 1, start - 1, 1
        while i >= 0 and j >= 0 and src_in[i] == tgt_out[j]:
            common *= src_in[i].size(self.mesh)
            i -= 1
            j -= 1
        for axis in src_in[: i + 1]:
            entry = self.out_index.get(axis)
            if entry is not None and entry[0] == tgt:
                return None
        end = start
        while end < len(tgt_out) and tgt_out[end] not in self.in_set:
            end += 1
        added = _size(tgt_out[start:end], self.mesh)
        if self.shape[src] % (_size(self.current[src], self.mesh) * added):
            return None
        self.capacity[tgt] //= common * added
        return tgt_out[start:end]

    def _slicing_axes(self) -> list[list[AxisRef]] | None:
        slicing: list[list[AxisRef]] = [[] for _ in range(self.rank)]
        found = False
        for dim, (ins, outs) in enumerate(zip(self.in_axes, self.out_axes, strict=True)):
            in_size, out_size = _size(ins, self.mesh), _size(outs, self.mesh)
            self.capacity[dim] = out_size // math.gcd(in_size, out_size)
        for src in range(self.rank):
            axes = self._slice_for_all_to_all(src)
            if axes is None:
                continue
            found = True
            for axis in axes:
                self.in_axes[src].append(axis)
                self.in_set.add(axis)
                append_or_merge(slicing[src], axis, self.mesh)
                append_or_merge(self.current[src], axis, self.mesh)
        available: AxisList = []
        for dim in range(self.rank):
            ins, outs = self.in_axes[dim], self.out_axes[dim]
            k = 0
            while k < len(outs):
                axis = outs[k]
                if axis in self.in_set:
                    k += 1
                    continue
                within, remainder, self.capacity[dim] = _within_capacity(
                    axis, self.capacity[dim], self.mesh
                )
                if within is None:
                    available.append(axis)
                    k += 1
                    continue
                found = True
                append_or_merge(slicing[dim], within, self.mesh)
                append_or_merge(self.current[dim], within, self.mesh)
                if not ins and k == 0:
                    del outs[k]
                else:
                    self.in_set.add(within)
                    ins.append(within)
                    outs[k] = within
                    k += 1
                if remainder is not None:
                    outs.insert(k, remainder)
                    available.append(remainder)
                    k += 1

        def consume(axis: AxisRef, dim: int) -> None:
            nonlocal found
            found = True
            append_or_merge(slicing[dim], axis, self.mesh)
            append_or_merge(self.current[dim], axis, self.mesh)

        self._distribute_within_capacity(False, lambda dim: available, consume)
        self._index_out_axes()
        return slicing if found else None

    def try_all_slice(self) -> None:
        slicing = self._slicing_axes()
        if slicing is not None:
            axes = ListOfAxisRefLists(tuple(tuple(a) for a in slicing))
            self._emit("sdy.all_slice", {"slicing_axes": axes})

    # -- collective permute -------------------------------------------------------------------

    def _should_permute(self) -> bool:
        available_in: AxisRef | None = None
        available_out: AxisRef | None = None
        for dim, (ins, outs) in enumerate(zip(self.in_axes, self.out_axes, strict=True)):
            if ins and outs and _divisible(ins[0].size(self.mesh), outs[0].size(self.mesh)):
                return True
            for axis in outs:
                if axis not in self.in_set:
                    available_out = axis
            last_dim: int | None = None
            last_index = 0
            seen: set[int] = set()
            for axis in ins:
                entry = self.out_index.get(axis)
                cur_dim: int | None = None
                if entry is not None:
                    cur_dim, cur_index = entry
                    if (cur_dim == dim or cur_dim in seen) and (
                        last_dim != cur_dim or cur_index != last_index + 1
                    ):
                        return True
                    seen.add(cur_dim)
                    last_index = cur_index
                elif last_dim is not None and not outs:
                    return True
                else:
                    available_in = axis
                last_dim = cur_dim
        return (
            available_out is not None
            and available_in is not None
            and _divisible(available_out.size(self.mesh), available_in.size(self.mesh))
        )

    def _permute(self) -> None:
        available_out: AxisList = []
        available_in_per_dim: list[AxisList] = [[] for _ in range(self.rank)]
        self.in_set = set()
        for dim in range(self.rank):
            ins, outs, current = self.in_axes[dim], self.out_axes[dim], self.current[dim]
            self.capacity[dim] = _size(ins, self.mesh)
            used = self.capacity[dim]
            _pop_back(current, ins)
            while self.capacity[dim] > 1 and outs:
                within, remainder, self.capacity[dim] = _within_capacity(
                    outs[0], self.capacity[dim], self.mesh
                )
                if within is None:
                    break
                outs.pop(0)
                append_or_merge(current, within, self.mesh)
                if remainder is not None:
                    outs.insert(0, remainder)
            available_out.extend(outs)
            used //= self.capacity[dim]
            ins[:] = [a for a in ins if a not in self.out_index]
            available_in = available_in_per_dim[dim]
            while used > 1 and ins:
                within, remainder, used = _within_capacity(ins[0], used, self.mesh)
                if within is None:
                    break
                ins.pop(0)
                available_in.append(within)
                if remainder is not None:
                    ins.insert(0, remainder)
            available_in[:0] = ins
            ins.clear()
        self._distribute_within_capacity(False, lambda dim: available_out)
        self._distribute_within_capacity(True, lambda dim: available_in_per_dim[dim])
        remaining_in = [a for axes in available_in_per_dim for a in axes]
        self._distribute_within_capacity(True, lambda dim: remaining_in)
        self._index_out_axes()
        for ins, current in zip(self.in_axes, self.current, strict=True):
            for axis in ins:
                append_or_merge(current, axis, self.mesh)

    def try_collective_permute(self) -> None:
        if self._should_permute():
            self._permute()
        elif self.cur_mesh == self.out_mesh:
            return
        self.cur_mesh = self.out_mesh
        self._emit("sdy.collective_permute", {})

    # -- all-to-all ---------------------------------------------------------------------------

    def _all_to_all(self, src: int, out_of_order_target: bool) -> tuple[list[AxisRef], int] | None:
        src_in = self.in_axes[src]
        start = len(src_in)
        tgt: int | None = None
        while start > 0:
            entry = self.out_index.get(src_in[start - 1])
            if entry is None or entry[0] == src or (tgt is not None and entry[0] != tgt):
                break
            tgt = entry[0]
            start -= 1
        if tgt is None:
            return None
        tgt_out = self.out_axes[tgt]
        moved = src_in[start:]
        if not out_of_order_target and tgt_out[: len(moved)] != moved:
            return None
        _pop_back(self.current[src], moved)
        tgt_in = self.in_axes[tgt]
        axes: list[AxisRef] = []
        for axis in moved:
            append_or_merge(axes, axis, self.mesh)
            append_or_merge(self.current[tgt], axis, self.mesh)
            self.in_set.discard(axis)
            if not tgt_in and tgt_out and tgt_out[0] == axis:
                tgt_out.pop(0)
            else:
                tgt_in.append(axis)
                self.in_set.add(axis)
        del src_in[start:]
        return axes, tgt

    def try_all_to_alls(self, *, out_of_order_target: bool) -> None:
        for src in range(self.rank):
            while (info := self._all_to_all(src, out_of_order_target)) is not None:
                axes, tgt = info
                params = AllToAllParamList((AllToAllParam(tuple(axes), src, tgt),))
                self._emit("sdy.all_to_all", {"params": params})
