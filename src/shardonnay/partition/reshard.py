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
plan. Candidates: the cheapest path the search finds (`reshard_search`),
the decomposition of the MLIR resharding notes (gather, all-to-all, slice,
swap; `baseline_collectives`) and the plain fallback (reduce and gather
everything, then slice); the cheapest by exact byte count wins. Byte counts
are those of each step's `Exchange` (data only, never padding).

`lower_bound` is what no plan can beat: per device, the part of its target
buffer (`layout.device_slices`) it does not already hold. A device holding
an addend of a pending sum does not hold the value; a target with
unreduced axes lets any device hold the reduction's identity, so there the
bound only counts, per group of devices that share a target shard, the
elements none of them can produce, spread over the group.

By default plans may use `TileExchange` (every device fetches its missing
tiles directly), which reaches the bound whenever nothing must be reduced;
`shardy_collectives_only=True` restricts plans to ops Shardy's verifier
accepts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from shardonnay.errors import PartitionError
from shardonnay.layout import equivalent
from shardonnay.mesh import Mesh
from shardonnay.ops.sdy_collectives import AllToAllParam
from shardonnay.partition.collectives import (
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    Collective,
    CollectivePermute,
    ReduceScatter,
    ReplicatedToUnreduced,
    ShardedToUnreduced,
    TileExchange,
)
from shardonnay.partition.exchange import Exchange, coordinates, groups, intersect, regions
from shardonnay.partition.reshard_search import AtomSpace, Edge, MisalignedAxes, Search, State
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
    """Collectives from `src` to `dst` for a tensor of `global_shape`."""

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
        return not any(isinstance(c, TileExchange) for c in self.collectives)

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
    return ReshardPlan(src, dst, src_mesh, dst_mesh, shape, np.dtype(dtype), steps, bound,
                       "baseline")  # fmt: skip


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
                ReshardStep(c, operand, mesh, result, result_mesh,
                            c.exchange(operand, mesh, self.shape, self.dtype))
            )  # fmt: skip
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
        return [AtomSpace.build(self.src_mesh, src.all_axes()),
                AtomSpace.build(self.dst_mesh, dst.all_axes())]  # fmt: skip

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
            search = Search(spaces, self.shape, start, goal, tile_exchange=tile_exchange,
                            same_axes=self.same_axes)  # fmt: skip
            path = search.run()
            if path is None:
                return None
            reduction = src.reduction if src.unreduced else dst.reduction
            out += _collectives(_merged(path), spaces, refs, reduction) + marks
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

    def direct(self) -> list[Collective] | None:
        """All-reduce what the target does not keep unreduced, then one tile exchange."""
        try:
            spaces = self._spaces(self.src, self.dst)
        except MisalignedAxes:
            return None
        (_, pending), (_, goal) = spaces[0].state(self.src), spaces[-1].state(self.dst)
        keeps = self.same_axes and self.src.reduction == self.dst.reduction
        reduce = [a for a in pending if not (keeps and a in goal)]
        out: list[Collective] = []
        if reduce:
            out.append(AllReduce(spaces[0].unreduced_axes(reduce), self.src.reduction))
        return out + [TileExchange(self.dst, self.dst_mesh)]

    def baseline(self) -> list[Collective] | None:
        """The MLIR resharding notes' basis decomposition (same mesh, aligned axes)."""
        if self.src_mesh != self.dst_mesh:
            return None
        try:
            (space,) = self._spaces(self.src, self.dst)
        except MisalignedAxes:
            return None
        same = not self.src.unreduced or not self.dst.unreduced or (
            self.src.reduction == self.dst.reduction
        )
        path = basis_decomposition(space, space.state(self.src), space.state(self.dst), same)
        return _collectives(path, [space], [self.src.mesh], self.reduction, self.dst.reduction)


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
        or not a.unreduced and not b.unreduced
    )


def basis_decomposition(space: AtomSpace, start: State, goal: State, keep_ok: bool) -> list[Edge]:
    """The greedy of the resharding notes: all-to-all an axis to its target dim
    when it is minor-most and the target dim is ready, gather axes that no
    dim keeps, slice new axes, swap axis order within a dim, and gather an
    axis that blocks; reductions first, unreduced marks last."""
    (dims, unreduced), (goal_dims, goal_unreduced) = start, goal
    keep = tuple(a for a in unreduced if a in goal_unreduced and keep_ok)
    goal_dim = {a: (j, i) for j, atoms in enumerate(goal_dims) for i, a in enumerate(atoms)}
    path: list[Edge] = []
    node = (0, start)

    def step(kind, args, new_dims, new_unreduced):
        nonlocal node, dims
        after = (0, (tuple(new_dims), tuple(sorted(new_unreduced))))
        path.append(Edge(kind, args, node, after))
        node, dims = after, tuple(new_dims)

    if set(unreduced) - set(keep):
        step("reduce", (), dims, keep)
    for _ in range(4 * (len(space.atoms) + 1) * (len(dims) + 1)):
        if dims == goal_dims:
            break
        frozen = [_common_prefix(d, g) for d, g in zip(dims, goal_dims, strict=True)]
        tails = [(j, d[-1]) for j, d in enumerate(dims) if len(d) > frozen[j]]
        used = {a for d in dims for a in d} | set(keep)
        move = next(
            ((j, a) for j, a in tails if a in goal_dim and goal_dim[a][0] != j
             and dims[goal_dim[a][0]] == goal_dims[goal_dim[a][0]][: goal_dim[a][1]]),
            None,
        )  # fmt: skip
        if move is not None:
            j, a = move
            k = goal_dim[a][0]
            new = list(dims)
            new[j], new[k] = dims[j][:-1], dims[k] + (a,)
            step("a2a", ((j, 1, k),), new, keep)
            continue
        drop = next(((j, a) for j, a in tails if a not in goal_dim), None)
        if drop is not None:
            j, _ = drop
            step("gather", (), dims[:j] + (dims[j][:-1],) + dims[j + 1 :], keep)
            continue
        grow = next(
            (k for k, d in enumerate(dims) if d == goal_dims[k][: len(d)] and len(d) < len(
                goal_dims[k]) and goal_dims[k][len(d)] not in used), None)  # fmt: skip
        if grow is not None:
            new = list(dims)
            new[grow] = dims[grow] + (goal_dims[grow][len(dims[grow])],)
            step("slice", (), new, keep)
            continue
        swap = next(((j, a) for j, a in tails if goal_dim.get(a, (None,))[0] == j), None)
        if swap is not None:
            j, _ = swap
            tail = dims[j][frozen[j] :]
            ordered = tuple(sorted((a for a in tail if goal_dim.get(a, (None,))[0] == j),
                                   key=lambda a: goal_dim[a][1]))  # fmt: skip
            ordered += tuple(a for a in tail if a not in ordered)
            if ordered != tail:
                step("permute", (), dims[:j] + (dims[j][: frozen[j]] + ordered,) + dims[j + 1 :],
                     keep)  # fmt: skip
                continue
        j, _ = tails[-1]
        step("gather", (), dims[:j] + (dims[j][:-1],) + dims[j + 1 :], keep)
    else:  # pragma: no cover - the loop always converges
        raise PartitionError("basis decomposition did not converge")
    if set(goal_unreduced) - set(keep):
        step("r2u", (), dims, goal_unreduced)
    return _merged(path)


def _common_prefix(a, b) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


# -- from paths to collectives -------------------------------------------------------------

_MERGEABLE = {"slice", "gather", "r2u", "reduce", "s2u", "rs", "permute", "exchange"}


def _merged(path: list[Edge]) -> list[Edge]:
    """Consecutive edges of one kind as one collective (all-to-alls on disjoint dims too)."""
    out: list[Edge] = []
    for edge in path:
        prev = out[-1] if out else None
        kinds = {prev.kind, edge.kind} if prev else set()
        if prev and (prev.kind == edge.kind in _MERGEABLE or kinds == {"permute", "exchange"}):
            kind = "exchange" if "exchange" in kinds else edge.kind
            out[-1] = Edge(kind, (), prev.before, edge.after)
        elif prev and prev.kind == edge.kind == "a2a" and _disjoint(prev.args + edge.args):
            out[-1] = Edge("a2a", prev.args + edge.args, prev.before, edge.after)
        else:
            out.append(edge)
    return out


def _disjoint(params) -> bool:
    dims = [d for j, _, k in params for d in (j, k)]
    return len(dims) == len(set(dims))


def _collectives(
    path: list[Edge], spaces, mesh_refs, reduction: str, mark_reduction: str | None = None
) -> list[Collective]:
    """The collectives of `path`; `mark_reduction` is that of newly unreduced axes."""
    mark_reduction = mark_reduction or reduction
    out: list[Collective] = []
    for edge in path:
        (m0, (dims0, u0)), (m1, (dims1, u1)) = edge.before, edge.after
        space = spaces[m0]
        rank = len(dims0)
        if edge.kind in ("slice", "rs"):
            lists = [space.axes(dims1[j][len(dims0[j]) :]) for j in range(rank)]
            if edge.kind == "slice":
                out.append(AllSlice(lists))
            else:
                out.append(ReduceScatter(lists, reduction))
        elif edge.kind in ("gather", "s2u"):
            lists = [space.axes(dims0[j][len(dims1[j]) :]) for j in range(rank)]
            out.append(AllGather(lists) if edge.kind == "gather" else
                       ShardedToUnreduced(lists, mark_reduction))  # fmt: skip
        elif edge.kind == "a2a":
            out.append(AllToAll(tuple(
                AllToAllParam(space.axes(dims0[j][-count:]), j, k)
                for j, count, k in sorted(edge.args))))  # fmt: skip
        elif edge.kind == "reduce":
            out.append(AllReduce(space.unreduced_axes([a for a in u0 if a not in u1]), reduction))
        elif edge.kind == "r2u":
            out.append(ReplicatedToUnreduced(
                space.unreduced_axes([a for a in u1 if a not in u0]), mark_reduction))  # fmt: skip
        elif edge.kind in ("permute", "exchange"):
            target_space = spaces[m1]
            target = target_space.sharding((dims1, u1), mesh_refs[m1], reduction)
            kind = CollectivePermute if edge.kind == "permute" else TileExchange
            out.append(kind(target, target_space.mesh))
        else:  # pragma: no cover
            raise PartitionError(f"internal error: unknown move {edge.kind}")
    return out
