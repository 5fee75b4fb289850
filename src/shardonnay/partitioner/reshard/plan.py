"""`reshard_plan`: the collectives that turn one sharding of a tensor into another.

    >>> from shardonnay import Mesh, TensorSharding
    >>> mesh = Mesh({"x": 2, "y": 3})
    >>> src = TensorSharding.parse('<@mesh, [{"x"}, {"y"}]>')
    >>> dst = TensorSharding.parse('<@mesh, [{"y"}, {"x"}]>')
    >>> plan = reshard_plan(src, dst, mesh, (6, 6))
    >>> plan.bytes_received, plan.lower_bound   # 6 floats: device 3 holds none of its target
    (24, 24)
    >>> plan = reshard_plan(src, dst, mesh, (6, 6), shardy_collectives_only=True)
    >>> [c.op_name for c in plan.collectives], plan.bytes_received
    (['sdy.all_to_all', 'sdy.all_to_all', 'sdy.all_to_all'], 44)

The plan minimizes the bytes the busiest device receives over the whole
plan. Candidates: the cheapest path the search finds (`reshard.search`),
the direct plan (all-reduce what must be reduced, then one `TileExchange`),
the decomposition of the MLIR resharding notes (gather, all-to-all, slice,
swap; `baseline_plan`) and the plain fallback (reduce and gather
everything, then slice); the cheapest by exact byte count wins, the first
to reach the lower bound ends the choice. Byte counts are those of each
step's `Exchange` (data only, never padding).

The last step's result has the target's dim and unreduced axes; it is
closed, without priorities or explicitly replicated axes (the same layout).

`lower_bound` is what no plan can beat: per device, the part of its target
buffer (`layout.device_slices`) it does not already hold. A device holding
an addend of a pending sum does not hold the value; a target with
unreduced axes lets any device hold the reduction's identity, so there the
bound only counts, per group of devices that share a target shard, the
elements none of them can produce, spread over the group.

By default plans may use `TileExchange` (every device fetches its missing
tiles directly), which reaches the bound whenever neither sharding has
unreduced axes; `shardy_collectives_only=True` restricts plans to ops
Shardy's verifier accepts, as a program that Shardy must read needs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from shardonnay.collectives import (
    AllGather,
    AllReduce,
    AllSlice,
    Collective,
    CollectivePermute,
    ReplicatedToUnreduced,
    TileExchange,
)
from shardonnay.collectives.exchange import Exchange, coordinates, groups, intersect, regions
from shardonnay.errors import PartitionError
from shardonnay.layout import equivalent
from shardonnay.mesh import Mesh
from shardonnay.partitioner.reshard.paths import basis_decomposition, merged, path_collectives
from shardonnay.partitioner.reshard.search import AtomSpace, MisalignedAxes, Search
from shardonnay.sharding import DimSharding, TensorSharding

MeshArg = Mesh | Mapping[str, Mesh] | None


@dataclass(frozen=True)
class ReshardStep:
    """One collective of a plan, with the shardings (and meshes) around it."""

    collective: Collective
    operand: TensorSharding
    operand_mesh: Mesh
    result: TensorSharding
    result_mesh: Mesh
    exchange: Exchange = field(repr=False, compare=False)

    @property
    def bytes_received(self) -> int:
        """The most bytes one device receives in this step."""
        return max(self.exchange.received_per_device().values(), default=0)


@dataclass(frozen=True)
class ReshardPlan:
    """Collectives from `src` to `dst` for a tensor of `global_shape`.

    `steps[i].collective` turns `steps[i].operand` into `steps[i].result`
    (the next step's operand); `lower_bound` is in bytes, as are
    `bytes_received` (the busiest device over the whole plan) and the
    per-device counts; `strategy` names the candidate that won ("search",
    "direct", "baseline", "fallback", or "identity" for no step at all).
    """

    src: TensorSharding
    dst: TensorSharding
    src_mesh: Mesh
    dst_mesh: Mesh
    global_shape: tuple[int, ...]
    dtype: np.dtype
    steps: tuple[ReshardStep, ...]
    lower_bound: int
    strategy: str

    @property
    def collectives(self) -> tuple[Collective, ...]:
        return tuple(s.collective for s in self.steps)

    def received_per_device(self) -> dict[int, int]:
        out = dict.fromkeys(self.dst_mesh.device_list, 0)
        for step in self.steps:
            for device, n in step.exchange.received_per_device().items():
                out[device] = out.get(device, 0) + n
        return out

    def sent_per_device(self) -> dict[int, int]:
        return {
            d: sum(s.exchange.bytes_sent(d) for s in self.steps) for d in self.src_mesh.device_list
        }

    @property
    def bytes_received(self) -> int:
        """The most bytes any one device receives over the whole plan."""
        return max(self.received_per_device().values(), default=0)

    @property
    def is_shardy_expressible(self) -> bool:
        """Every step is an op Shardy's verifier accepts."""
        return not any(type(c) is TileExchange for c in self.collectives)

    def apply(self, buffers: Mapping[int, np.ndarray]) -> dict[int, np.ndarray]:
        """Runs the plan on per-device buffers laid out as `src`."""
        current = dict(buffers)
        for step in self.steps:
            current = step.exchange.apply(current)
        return current

    def __str__(self) -> str:
        lines = [f"reshard {self.src} -> {self.dst} of {self.global_shape}:"]
        value = "%arg0"
        for i, step in enumerate(self.steps):
            text = step.collective.mlir(value, step.operand, step.operand_mesh)
            lines.append(f"  %{i} = {text}    // {step.bytes_received} bytes per device")
            value = f"%{i}"
        lines.append(f"  bytes received: {self.bytes_received} (lower bound {self.lower_bound})")
        return "\n".join(lines)


def reshard_plan(
    src: TensorSharding,
    dst: TensorSharding,
    mesh: MeshArg,
    global_shape: Sequence[int],
    dtype=np.float32,
    *,
    shardy_collectives_only: bool = False,
) -> ReshardPlan:
    """The cheapest plan found from `src` to `dst` (see the module doc).

    `mesh` is the mesh both shardings name (or a mapping from mesh name to
    mesh, or None when both inline theirs). Raises `PartitionError` when the
    meshes do not hold the same devices, or when `shardy_collectives_only`
    asks for a move between meshes with different axes, which no Shardy
    collective makes.
    """
    shape = tuple(int(d) for d in global_shape)
    src_mesh, dst_mesh = _mesh_of(src, mesh), _mesh_of(dst, mesh)
    # the same reshard is planned again and again while a program is costed
    # and converted: plans are values, kept per (shardings, meshes, shape, dtype)
    key = (src, dst, src_mesh, dst_mesh, shape, np.dtype(dtype).str, shardy_collectives_only)
    known = _PLANS.get(key)
    if known is None:
        known = _PLANS[key] = _plan(src, dst, mesh, src_mesh, dst_mesh, shape, dtype, key[-1])
        if len(_PLANS) > _PLANS_KEPT:
            del _PLANS[next(iter(_PLANS))]
    return known


_PLANS: dict[tuple, ReshardPlan] = {}
_PLANS_KEPT = 512


def _plan(
    src: TensorSharding,
    dst: TensorSharding,
    mesh: MeshArg,
    src_mesh: Mesh,
    dst_mesh: Mesh,
    shape: tuple[int, ...],
    dtype,
    shardy_collectives_only: bool,
) -> ReshardPlan:
    src.validate(src_mesh, shape if not src_mesh.is_maximal else None)
    dst.validate(dst_mesh, shape if not dst_mesh.is_maximal else None)
    if set(src_mesh.device_list) != set(dst_mesh.device_list):
        raise PartitionError(
            f"cannot reshard from mesh {src_mesh} to mesh {dst_mesh}: they hold different devices"
        )
    dtype = np.dtype(dtype)
    problem = _Problem(src, dst, src_mesh, dst_mesh, shape, dtype)
    bound = lower_bound(src, dst, mesh, shape, dtype)
    if src_mesh == dst_mesh and _same_layout(src, dst, src_mesh, shape):
        return ReshardPlan(src, dst, src_mesh, dst_mesh, shape, dtype, (), bound, "identity")
    if shardy_collectives_only and src_mesh.axes != dst_mesh.axes:
        raise PartitionError(
            f"no Shardy collective moves a tensor from mesh {src_mesh} to mesh {dst_mesh} "
            "(a collective_permute needs the same axes)"
        )
    candidates = (
        ("search", lambda: problem.searched(not shardy_collectives_only)),
        ("direct", None if shardy_collectives_only else problem.direct),
        ("baseline", problem.baseline),
        ("fallback", problem.fallback),
    )
    best = None
    for strategy, make in candidates:
        collectives = make() if make is not None else None
        if collectives is None:
            continue
        steps = problem.steps(collectives)
        plan = ReshardPlan(src, dst, src_mesh, dst_mesh, shape, dtype, steps, bound, strategy)
        key = (plan.bytes_received, sum(plan.received_per_device().values()), len(steps))
        if best is None or key < best[0]:
            best = (key, plan)
        if plan.bytes_received == bound:
            break
    return best[1]


def baseline_plan(
    src: TensorSharding, dst: TensorSharding, mesh: MeshArg, global_shape, dtype=np.float32
) -> ReshardPlan | None:
    """The decomposition of the MLIR resharding notes (None where it does not
    apply: between meshes, or sub-axes that do not align)."""
    shape = tuple(global_shape)
    src_mesh, dst_mesh = _mesh_of(src, mesh), _mesh_of(dst, mesh)
    problem = _Problem(src, dst, src_mesh, dst_mesh, shape, np.dtype(dtype))
    collectives = problem.baseline()
    if collectives is None:
        return None
    bound = lower_bound(src, dst, mesh, shape, dtype)
    steps = problem.steps(collectives)
    return ReshardPlan(
        src, dst, src_mesh, dst_mesh, shape, np.dtype(dtype), steps, bound, "baseline"
    )


# -- the lower bound ------------------------------------------------------------------


def lower_bound(
    src: TensorSharding, dst: TensorSharding, mesh: MeshArg, global_shape, dtype=np.float32
) -> int:
    """Bytes that the busiest device must receive in any plan (see the module doc)."""
    shape = tuple(global_shape)
    src_mesh, dst_mesh = _mesh_of(src, mesh), _mesh_of(dst, mesh)
    itemsize = np.dtype(dtype).itemsize
    held, wanted = regions(shape, src, src_mesh), regions(shape, dst, dst_mesh)
    src_sizes = [a.size(src_mesh) for a in src.unreduced]
    dst_addends = math.prod(a.size(dst_mesh) for a in dst.unreduced)
    if dst_addends == 1:
        need = 0
        for device, region in wanted.items():
            common = intersect(region, held[device]) if not src_sizes else None
            need = max(need, _volume(region) - _volume(common))
        return need * itemsize
    classes = math.prod(src_sizes)
    sum_like = not src_sizes or src.reduction == dst.reduction
    need = 0
    for members in set(groups(dst_mesh, dst.unreduced).values()):
        region = wanted[members[0]]
        if not _volume(region):
            continue
        boxes: dict[tuple, list] = {}
        for m in members:
            common = intersect(region, held[m])
            if common is not None and sum_like:
                boxes.setdefault(coordinates(m, src.unreduced, src_mesh), []).append(common)
        missing = _undetermined(region, boxes, classes)
        need = max(need, -(-missing // len(members)))
    return need * itemsize


def _undetermined(region, boxes: dict[tuple, list], classes: int) -> int:
    """Elements of `region` not covered by the boxes of every one of `classes` addends."""
    if len(boxes) < classes:
        return _volume(region)
    cuts = []
    for j, (lo, hi) in enumerate(region):
        points = {lo, hi}
        for box_list in boxes.values():
            for box in box_list:
                points |= {box[j][0], box[j][1]}
        cuts.append(sorted(points))
    covered = np.ones([len(c) - 1 for c in cuts], dtype=bool)
    for box_list in boxes.values():
        mask = np.zeros_like(covered)
        for box in box_list:
            index = tuple(
                slice(c.index(lo), c.index(hi)) for c, (lo, hi) in zip(cuts, box, strict=True)
            )
            mask[index] = True
        covered &= mask
    sizes = [np.diff(c) for c in cuts]
    volumes = np.ones(covered.shape, dtype=np.int64)
    for j, s in enumerate(sizes):
        volumes = volumes * s.reshape([-1 if k == j else 1 for k in range(len(sizes))])
    return int(_volume(region) - volumes[covered].sum())


def _volume(box) -> int:
    return math.prod(max(0, b - a) for a, b in box) if box is not None else 0


def _mesh_of(sharding: TensorSharding, mesh: MeshArg) -> Mesh:
    if isinstance(sharding.mesh, Mesh) or isinstance(mesh, Mesh) or mesh is None:
        return sharding.resolve_mesh(mesh if isinstance(mesh, Mesh) else None)
    if sharding.mesh not in mesh:
        raise PartitionError(f"no mesh named @{sharding.mesh}")
    return mesh[sharding.mesh]


# -- candidates -------------------------------------------------------------------------


@dataclass
class _Problem:
    src: TensorSharding
    dst: TensorSharding
    src_mesh: Mesh
    dst_mesh: Mesh
    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def same_axes(self) -> bool:
        return self.src_mesh.axes == self.dst_mesh.axes

    @property
    def reduction(self) -> str:
        return self.src.reduction if self.src.unreduced else self.dst.reduction

    def steps(self, collectives: Sequence[Collective]) -> tuple[ReshardStep, ...]:
        out = []
        operand, mesh = self.src, self.src_mesh
        for c in collectives:
            result = c.result_sharding(operand, mesh)
            result_mesh = c.result_mesh(mesh)
            out.append(
                ReshardStep(
                    c,
                    operand,
                    mesh,
                    result,
                    result_mesh,
                    c.exchange(operand, mesh, self.shape, self.dtype),
                )
            )
            operand, mesh = result, result_mesh
        if mesh != self.dst_mesh or not (
            _same_axes(operand, self.dst) or _same_layout(operand, self.dst, mesh, self.shape)
        ):
            raise PartitionError(f"internal error: plan ends at {operand}, not {self.dst}")
        return tuple(out)

    # -- atoms ----------------------------------------------------------------------

    def _spaces(self, src: TensorSharding, dst: TensorSharding) -> list[AtomSpace]:
        """The atom spaces of a reshard from `src` to `dst` (one per mesh)."""
        if self.src_mesh == self.dst_mesh:
            return [AtomSpace.build(self.src_mesh, src.all_axes() + dst.all_axes())]
        if self.same_axes:
            refs = src.all_axes() + dst.all_axes()
            return [AtomSpace.build(self.src_mesh, refs), AtomSpace.build(self.dst_mesh, refs)]
        return [
            AtomSpace.build(self.src_mesh, src.all_axes()),
            AtomSpace.build(self.dst_mesh, dst.all_axes()),
        ]

    def _stages(self) -> list[tuple[TensorSharding, TensorSharding, list[AtomSpace], list]]:
        """Reshards whose sub-axes align: the whole one, or two around a sharding
        without the axes that `src` and `dst` cut at incompatible places."""
        refs = [self.src.mesh, self.dst.mesh]
        try:
            spaces = self._spaces(self.src, self.dst)
            return [(self.src, self.dst, spaces, refs[: len(spaces)])]
        except MisalignedAxes:
            pass
        space = AtomSpace.build(self.src_mesh, self.src.all_axes())
        dims, unreduced = space.state(self.src)
        dst_names = {a.name for a in self.dst.all_axes()}
        keep = {i for i, a in enumerate(space.atoms) if a.name not in dst_names}
        mid_state = (
            tuple(tuple(a for a in d if a in keep) for d in dims),
            tuple(a for a in unreduced if a in keep),
        )
        mid = space.sharding(mid_state, self.src.mesh, self.src.reduction)
        rest = self._spaces(mid, self.dst)
        return [(self.src, mid, [space], refs[:1]), (mid, self.dst, rest, refs[: len(rest)])]

    def searched(self, tile_exchange: bool) -> list[Collective] | None:
        """The cheapest path of the search, stage by stage."""
        out: list[Collective] = []
        for src, dst, spaces, refs in self._stages():
            marks = []
            if src.unreduced and dst.unreduced and src.reduction != dst.reduction:
                marks = [ReplicatedToUnreduced(dst.unreduced, dst.reduction)]
                dst = TensorSharding(dst.mesh, dst.dims)
            start, goal = spaces[0].state(src), spaces[-1].state(dst)
            search = Search(
                spaces,
                self.shape,
                start,
                goal,
                tile_exchange=tile_exchange,
                same_axes=self.same_axes,
            )
            path = search.run()
            if path is None:
                return None
            reduction = src.reduction if src.unreduced else dst.reduction
            out += path_collectives(merged(path), spaces, refs, reduction) + marks
        return out

    def fallback(self) -> list[Collective]:
        """Reduce and gather everything, move to the target mesh, slice, mark unreduced."""
        out: list[Collective] = []
        src, dst = self.src, self.dst
        if src.unreduced:
            out.append(AllReduce(src.unreduced, src.reduction))
        if src.dim_axes():
            out.append(AllGather([d.axes for d in src.dims]))
        if self.src_mesh != self.dst_mesh:
            replicated = TensorSharding(dst.mesh, ((DimSharding(),) * dst.rank))
            kind = CollectivePermute if self.same_axes else TileExchange
            out.append(kind(replicated, self.dst_mesh))
        if dst.dim_axes():
            out.append(AllSlice([d.axes for d in dst.dims]))
        if dst.unreduced:
            out.append(ReplicatedToUnreduced(dst.unreduced, dst.reduction))
        return out

    def direct(self) -> list[Collective]:
        """All-reduce what the target does not keep unreduced, then one tile exchange."""
        exchange = TileExchange(self.dst, self.dst_mesh)
        if not self.src.unreduced:
            return [exchange]
        if not self.same_axes or self.src.reduction != self.dst.reduction:
            return [AllReduce(self.src.unreduced, self.src.reduction), exchange]
        try:
            spaces = self._spaces(self.src, self.dst)
        except MisalignedAxes:
            reduce = self.src.unreduced
        else:
            (_, pending), (_, goal) = spaces[0].state(self.src), spaces[-1].state(self.dst)
            reduce = spaces[0].unreduced_axes([a for a in pending if a not in goal])
        if not reduce:
            return [exchange]
        return [AllReduce(tuple(reduce), self.src.reduction), exchange]

    def baseline(self) -> list[Collective] | None:
        """The MLIR resharding notes' basis decomposition (same mesh, aligned axes)."""
        if self.src_mesh != self.dst_mesh:
            return None
        try:
            (space,) = self._spaces(self.src, self.dst)
        except MisalignedAxes:
            return None
        same = (
            not self.src.unreduced
            or not self.dst.unreduced
            or (self.src.reduction == self.dst.reduction)
        )
        path = basis_decomposition(space, space.state(self.src), space.state(self.dst), same)
        return path_collectives(path, [space], [self.src.mesh], self.reduction, self.dst.reduction)


def _same_layout(a: TensorSharding, b: TensorSharding, mesh: Mesh, shape) -> bool:
    """Same data on every device: `layout.equivalent`, with the same pending reduction
    (`layout` holds copies along max/min unreduced axes, real values need not)."""
    pending = (a.unreduced, a.reduction) if a.unreduced else ()
    return pending == ((b.unreduced, b.reduction) if b.unreduced else ()) and equivalent(
        a, b, mesh, shape
    )


def _same_axes(a: TensorSharding, b: TensorSharding) -> bool:
    """Same dim axes and the same pending reduction."""
    return [d.axes for d in a.dims] == [d.axes for d in b.dims] and (
        (a.unreduced, a.reduction) == (b.unreduced, b.reduction)
        or (not a.unreduced and not b.unreduced)
    )
