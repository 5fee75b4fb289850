"""From paths of states to collectives, and the MLIR notes' basis decomposition.

A path (`reshard.search.Edge`s) says how atoms move; `path_collectives`
turns it into collective values, merging consecutive edges of one kind into
one op (slices, gathers, marks, reductions, permutes; all-to-alls on
disjoint dims). `basis_decomposition` is the greedy of the resharding
notes: all-to-all, gather, slice, swap.
"""

from __future__ import annotations

from shardonnay.collectives import (
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
from shardonnay.collectives.attributes import AllToAllParam
from shardonnay.errors import PartitionError
from shardonnay.partitioner.reshard.search import AtomSpace, Edge, State


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
            (
                (j, a)
                for j, a in tails
                if a in goal_dim
                and goal_dim[a][0] != j
                and dims[goal_dim[a][0]] == goal_dims[goal_dim[a][0]][: goal_dim[a][1]]
            ),
            None,
        )
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
            step("gather", (), (*dims[:j], dims[j][:-1], *dims[j + 1 :]), keep)
            continue
        grow = next(
            (
                k
                for k, d in enumerate(dims)
                if d == goal_dims[k][: len(d)]
                and len(d) < len(goal_dims[k])
                and goal_dims[k][len(d)] not in used
            ),
            None,
        )
        if grow is not None:
            new = list(dims)
            new[grow] = dims[grow] + (goal_dims[grow][len(dims[grow])],)
            step("slice", (), new, keep)
            continue
        swap = next(((j, a) for j, a in tails if goal_dim.get(a, (None,))[0] == j), None)
        if swap is not None:
            j, _ = swap
            tail = dims[j][frozen[j] :]
            ordered = tuple(
                sorted(
                    (a for a in tail if goal_dim.get(a, (None,))[0] == j),
                    key=lambda a: goal_dim[a][1],
                )
            )
            ordered += tuple(a for a in tail if a not in ordered)
            if ordered != tail:
                step(
                    "permute",
                    (),
                    (*dims[:j], dims[j][: frozen[j]] + ordered, *dims[j + 1 :]),
                    keep,
                )
                continue
        j, _ = tails[-1]
        step("gather", (), (*dims[:j], dims[j][:-1], *dims[j + 1 :]), keep)
    else:  # pragma: no cover - the loop always converges
        raise PartitionError("basis decomposition did not converge")
    if set(goal_unreduced) - set(keep):
        step("r2u", (), dims, goal_unreduced)
    return merged(path)


def _common_prefix(a, b) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


# -- from paths to collectives -------------------------------------------------------------

_MERGEABLE = {"slice", "gather", "r2u", "reduce", "s2u", "rs", "permute", "exchange"}


def merged(path: list[Edge]) -> list[Edge]:
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


def path_collectives(
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
            out.append(
                AllGather(lists)
                if edge.kind == "gather"
                else ShardedToUnreduced(lists, mark_reduction)
            )
        elif edge.kind == "a2a":
            out.append(
                AllToAll(
                    tuple(
                        AllToAllParam(space.axes(dims0[j][-count:]), j, k)
                        for j, count, k in sorted(edge.args)
                    )
                )
            )
        elif edge.kind == "reduce":
            out.append(AllReduce(space.unreduced_axes([a for a in u0 if a not in u1]), reduction))
        elif edge.kind == "r2u":
            out.append(
                ReplicatedToUnreduced(
                    space.unreduced_axes([a for a in u1 if a not in u0]), mark_reduction
                )
            )
        elif edge.kind in ("permute", "exchange"):
            target_space = spaces[m1]
            target = target_space.sharding((dims1, u1), mesh_refs[m1], reduction)
            kind = CollectivePermute if edge.kind == "permute" else TileExchange
            out.append(kind(target, target_space.mesh))
        else:  # pragma: no cover
            raise PartitionError(f"internal error: unknown move {edge.kind}")
    return out
