"""The search behind `reshard_plan`: cheapest collectives from one sharding to another.

Both shardings are cut into *atoms*: the pieces of each mesh axis between
all boundaries either sharding uses (`"x"=4` used as `"x"` and `"x":(2)2`
gives atoms `"x":(1)2`, `"x":(2)2`). A *state* is where every atom is: in
which dim at which position, unreduced, or replicated. Each collective is
an edge between states (gather a suffix of a dim, slice an atom on, move a
suffix with an all-to-all, permute with the same sharded size per dim,
reduce, reduce-scatter, mark unreduced, or exchange tiles directly), with
the bytes one device receives as its cost, computed from the shards'
intervals (exact for permutes and tile exchanges, `ceil`-padded sizes for
the rest). Dijkstra's algorithm finds the cheapest path, expanding at most
`MAX_EXPANDED` states. Axes that both
shardings share as the major-most axes of a dim are left alone.

A reshard between two meshes adds a second copy of the states for the
target mesh, reachable by a permute (same axes, other device order) or a
tile exchange (any mesh over the same devices).
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.collectives.axis_lists import append_or_merge, axis_ref, mesh_ordered
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding

State = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]
"""(atoms of each dim major to minor, unreduced atoms sorted)."""


MAX_EXPANDED = 500
"""States one search expands at most. The states grow with the number of
atoms (every order of every placement), so a reshard of many atoms on a large
mesh could take minutes; past this bound the search gives up and the plan is
the cheapest of the direct tile exchange, the baseline decomposition and the
gather-move-slice fallback."""


class MisalignedAxes(Exception):
    """Two shardings cut one axis at boundaries that do not divide each other."""


@functools.lru_cache(maxsize=256)
def _build_space(mesh: Mesh, bounds: tuple) -> AtomSpace:
    return AtomSpace._build(mesh, dict(bounds))


@dataclass
class AtomSpace:
    """The atoms of one mesh for a set of axis refs, and states over them."""

    mesh: Mesh
    atoms: list[AxisRef]
    sizes: list[int]
    coords: np.ndarray  # [device id, atom] coordinate
    _intervals: dict = field(default_factory=dict)
    costs: dict = field(default_factory=dict)  # exchange costs from states of this space

    @classmethod
    def build(cls, mesh: Mesh, refs: Sequence[AxisRef]) -> AtomSpace:
        """The atoms of `mesh` cut at every boundary of `refs` (shared between calls)."""
        bounds = {
            name: frozenset(
                {1, size}
                | {b for r in refs if r.name == name for b in (r.pre_size, r.next_pre_size(mesh))}
            )
            for name, size in mesh.axes
        }
        return _build_space(mesh, tuple(sorted(bounds.items())))

    @classmethod
    def _build(cls, mesh: Mesh, bounds: dict) -> AtomSpace:
        atoms: list[AxisRef] = []
        for name, _ in mesh.axes:
            ordered = sorted(bounds[name])
            if any(b % a for a, b in itertools.pairwise(ordered)):
                raise MisalignedAxes(name)
            atoms += [axis_ref(name, a, b, mesh) for a, b in itertools.pairwise(ordered)]
        ids = sorted(mesh.device_list)
        coords = np.zeros((len(ids), len(atoms)), dtype=np.int64)
        for row, device in enumerate(ids):
            c = mesh.coords_of(device)
            for col, atom in enumerate(atoms):
                coords[row, col] = atom.coordinate(c[mesh.axis_index(atom.name)], mesh)
        return cls(mesh, atoms, [a.size(mesh) for a in atoms], coords)

    def _ids(self, ref: AxisRef) -> list[int]:
        lo, hi = ref.pre_size, ref.next_pre_size(self.mesh)
        out = [
            i
            for i, a in enumerate(self.atoms)
            if a.name == ref.name and lo <= a.pre_size and a.next_pre_size(self.mesh) <= hi
        ]
        if math.prod(self.sizes[i] for i in out) != ref.size(self.mesh):
            raise MisalignedAxes(ref.name)
        return out

    def state(self, sharding: TensorSharding) -> State:
        dims = tuple(tuple(i for a in d.axes for i in self._ids(a)) for d in sharding.dims)
        unreduced = tuple(sorted(i for a in sharding.unreduced for i in self._ids(a)))
        return dims, unreduced

    def axes(self, ids: Sequence[int]) -> tuple[AxisRef, ...]:
        out: list[AxisRef] = []
        for i in ids:
            append_or_merge(out, self.atoms[i], self.mesh)
        return tuple(out)

    def unreduced_axes(self, ids: Sequence[int]) -> tuple[AxisRef, ...]:
        return tuple(mesh_ordered([self.atoms[i] for i in ids], self.mesh))

    def sharding(self, state: State, mesh_ref, reduction: str) -> TensorSharding:
        dims, unreduced = state
        return TensorSharding(
            mesh_ref,
            tuple(DimSharding(self.axes(d)) for d in dims),
            unreduced=self.unreduced_axes(unreduced),
            reduction=reduction,
        )

    def intervals(self, dims, shape) -> tuple[np.ndarray, np.ndarray]:
        """Per device (by id) and dim, the `[lo, hi)` of its shard."""
        key = (dims, shape)
        found = self._intervals.get(key)
        if found is None:
            n = len(self.coords)
            lo = np.zeros((n, len(shape)), dtype=np.int64)
            hi = np.zeros((n, len(shape)), dtype=np.int64)
            for j, (atoms, d) in enumerate(zip(dims, shape, strict=True)):
                index = np.zeros(n, dtype=np.int64)
                count = 1
                for a in atoms:
                    index = index * self.sizes[a] + self.coords[:, a]
                    count *= self.sizes[a]
                chunk = -(-d // count)
                lo[:, j] = np.minimum(index * chunk, d)
                hi[:, j] = np.minimum(lo[:, j] + chunk, d)
            found = self._intervals[key] = (lo, hi)
        return found

    def local_size(self, dims, shape) -> int:
        return math.prod(
            -(-d // math.prod(self.sizes[a] for a in atoms))
            for atoms, d in zip(dims, shape, strict=True)
        )


@dataclass(frozen=True)
class Edge:
    """One collective of a path: `kind` with `args`, from state to state."""

    kind: str
    args: tuple
    before: tuple[int, State]
    after: tuple[int, State]


def exchange_cost(spaces, a, b, shape) -> float:
    """Most elements any device lacks of its shard in `b` (mesh, state) given `a`."""
    (ma, (dims_a, ua)), (mb, (dims_b, ub)) = a, b
    key = (id(spaces[mb]), dims_a, ua, dims_b, ub, shape)
    cached = spaces[ma].costs.get(key)
    if cached is None:
        cached = spaces[ma].costs[key] = _exchange_cost(spaces[ma], spaces[mb], a, b, shape)
    return cached


def _exchange_cost(space_a, space_b, a, b, shape) -> float:
    (_, (dims_a, ua)), (_, (dims_b, ub)) = a, b
    lo_a, hi_a = space_a.intervals(dims_a, shape)
    lo_b, hi_b = space_b.intervals(dims_b, shape)
    want = (hi_b - lo_b).prod(axis=1)
    held = np.maximum(np.minimum(hi_a, hi_b) - np.maximum(lo_a, lo_b), 0).prod(axis=1)
    if ua or ub:
        same = np.all(space_a.coords[:, list(ua)] == space_b.coords[:, list(ub)], axis=1)
        held = np.where(same, held, 0)
    return float(np.max(want - held)) if len(want) else 0.0


class Search:
    """Dijkstra over states from `start` (on space 0) to `goal` (on the last space)."""

    def __init__(
        self,
        spaces: list[AtomSpace],
        shape,
        start: State,
        goal: State,
        *,
        tile_exchange: bool,
        same_axes: bool,
    ):
        self.spaces = spaces
        self.shape = tuple(shape)
        self.start = (0, start)
        self.goal = (len(spaces) - 1, goal)
        self.tile_exchange = tile_exchange
        self.same_axes = same_axes
        self.goal_dims, self.goal_unreduced = goal
        self.goal_dim_of = {a: j for j, atoms in enumerate(self.goal_dims) for a in atoms}

    def run(self) -> list[Edge] | None:
        """The cheapest path (fewest steps among the cheapest), or None when
        the goal cannot be reached or more than `MAX_EXPANDED` states would
        have to be expanded to find it (the planner's other candidates are
        then used)."""
        best = {self.start: (0.0, 0)}
        back: dict = {}
        heap = [(0.0, 0, 0, self.start)]
        counter = itertools.count(1)
        expanded = 0
        while heap:
            cost, steps, _, node = heapq.heappop(heap)
            if node == self.goal:
                path = []
                while node in back:
                    path.append(back[node])
                    node = back[node].before
                return path[::-1]
            if best[node] < (cost, steps):
                continue
            expanded += 1
            if expanded > MAX_EXPANDED:
                return None
            for edge, c in self.moves(node):
                key = (round(cost + c, 6), steps + 1)
                if edge.after not in best or key < best[edge.after]:
                    best[edge.after] = key
                    back[edge.after] = edge
                    heapq.heappush(heap, (*key, next(counter), edge.after))
        return None

    # -- edges --------------------------------------------------------------------------

    def moves(self, node):
        m, (dims, unreduced) = node
        space = self.spaces[m]
        on_goal_mesh = m == self.goal[0]
        guided = on_goal_mesh or self.same_axes
        size = self.spaces[m].local_size(dims, self.shape)
        used = {a for d in dims for a in d} | set(unreduced)
        frozen = [self._frozen(d, j) if guided else 0 for j, d in enumerate(dims)]

        def edge(kind, args, new_dims, new_unreduced, cost, mesh=m):
            after = (mesh, (tuple(new_dims), tuple(sorted(new_unreduced))))
            return Edge(kind, args, node, after), cost

        def replaced(j, atoms):
            return (*dims[:j], tuple(atoms), *dims[j + 1 :])

        pending = [a for a in unreduced if not (guided and a in self.goal_unreduced)]
        free = [a for a in range(len(space.atoms)) if a not in used]
        # all_slice: a replicated atom onto the dim that holds it in the goal
        for a in free:
            if guided and a in self.goal_dim_of:
                j = self.goal_dim_of[a]
                yield edge("slice", (j, a), replaced(j, dims[j] + (a,)), unreduced, 0.0)
        # replicated_to_unreduced
        if guided:
            marks = [a for a in free if a in self.goal_unreduced]
            if marks:
                yield edge("r2u", tuple(marks), dims, unreduced + tuple(marks), 0.0)
        for j, atoms in enumerate(dims):
            for count in range(1, len(atoms) - frozen[j] + 1):
                suffix, rest = atoms[-count:], atoms[:-count]
                group = math.prod(space.sizes[a] for a in suffix)
                new_dims = replaced(j, rest)
                if guided and all(a in self.goal_unreduced for a in suffix):
                    yield edge("s2u", (j, count), new_dims, unreduced + suffix, 0.0)
                if not guided:
                    continue
                grown = space.local_size(new_dims, self.shape)
                yield edge("gather", (j, count), new_dims, unreduced, float(grown - size))
                for k in range(len(dims)):
                    if k != j:
                        moved = list(new_dims)
                        moved[k] = dims[k] + suffix
                        yield edge(
                            "a2a", ((j, count, k),), moved, unreduced, size * (group - 1) / group
                        )
        # reductions
        if pending:
            subsets = [tuple(pending)] + ([(a,) for a in pending] if len(pending) > 1 else [])
            for atoms in subsets:
                group = math.prod(space.sizes[a] for a in atoms)
                rest = [a for a in unreduced if a not in atoms]
                yield edge("reduce", atoms, dims, rest, 2 * size * (group - 1) / group)
            for a in pending:
                targets = [self.goal_dim_of[a]] if guided and a in self.goal_dim_of else []
                if not guided:
                    targets = range(len(dims))
                rest = [u for u in unreduced if u != a]
                for j in targets:
                    new_dims = replaced(j, dims[j] + (a,))
                    grown = space.local_size(new_dims, self.shape)
                    yield edge("rs", (j, a), new_dims, rest, float(grown * (space.sizes[a] - 1)))
        if guided:
            yield from self._permutes(node, frozen, free, edge)
        yield from self._exchanges(node, edge)

    def _frozen(self, atoms, j) -> int:
        goal = self.goal_dims[j]
        n = 0
        while n < len(atoms) and n < len(goal) and atoms[n] == goal[n]:
            n += 1
        return n

    def _permutes(self, node, frozen, free, edge):
        m, (dims, unreduced) = node
        space = self.spaces[m]
        targets = set()
        for j, atoms in enumerate(dims):
            tail = atoms[frozen[j] :]
            if 1 < len(tail) <= 4:
                for order in itertools.permutations(tail):
                    if order != tail:
                        targets.add((*dims[:j], atoms[: frozen[j]] + order, *dims[j + 1 :]))
        slots = [(j, i) for j, atoms in enumerate(dims) for i in range(frozen[j], len(atoms))]
        for (j1, i1), (j2, i2) in itertools.combinations(slots, 2):
            a, b = dims[j1][i1], dims[j2][i2]
            if j1 != j2 and space.sizes[a] == space.sizes[b]:
                new = [list(d) for d in dims]
                new[j1][i1], new[j2][i2] = b, a
                targets.add(tuple(tuple(d) for d in new))
        for j, i in slots:
            for b in free:
                if space.sizes[b] == space.sizes[dims[j][i]]:
                    new = [list(d) for d in dims]
                    new[j][i] = b
                    targets.add(tuple(tuple(d) for d in new))
        goal_sizes = [math.prod(space.sizes[a] for a in d) for d in self.goal_dims]
        sizes = [math.prod(space.sizes[a] for a in d) for d in dims]
        if sizes == goal_sizes and m == self.goal[0]:
            targets.add(self.goal_dims)
        pending = set(unreduced)
        targets = {t for t in targets if not pending & {a for d in t for a in d}}
        for target in targets:
            if target != dims:
                after = (m, (target, unreduced))
                yield edge(
                    "permute",
                    (),
                    target,
                    unreduced,
                    exchange_cost(self.spaces, node, after, self.shape),
                )
        if m != self.goal[0] and self.same_axes:
            # the same atoms on the target mesh: a permute to the other device order
            crossing = {dims, self.goal_dims} if sizes == goal_sizes else {dims}
            for target in {t for t in crossing if not pending & {a for d in t for a in d}}:
                after = (self.goal[0], (target, unreduced))
                yield edge(
                    "permute",
                    (),
                    target,
                    unreduced,
                    exchange_cost(self.spaces, node, after, self.shape),
                    mesh=self.goal[0],
                )

    def _exchanges(self, node, edge):
        m, (dims, unreduced) = node
        if not self.tile_exchange:
            return
        g = self.goal[0]
        if m == g or self.same_axes:
            if not set(unreduced) <= set(self.goal_unreduced) or (
                dims == self.goal_dims and m == g
            ):
                return
        elif unreduced:
            return
        after = (g, (self.goal_dims, unreduced))
        yield edge(
            "exchange",
            (),
            self.goal_dims,
            unreduced,
            exchange_cost(self.spaces, node, after, self.shape),
            mesh=g,
        )
