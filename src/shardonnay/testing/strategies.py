"""Hypothesis strategies for meshes, tensor shardings, shapes and sharding rules.

Everything generated here is *valid*: every sharding drawn from
`shardings(mesh, rank)` passes `sharding.validate(mesh, shape)` for any shape
of that rank (tests/testing/test_fuzz.py checks this), and every rule drawn from
`op_sharding_rules()` passes `rule.validate()`.

How sub-axes are drawn: an axis of size `n` is cut along a random chain of
divisors `1 = b0 | b1 | ... | bk = n` (k >= 2) into the pieces
`"x":(b_i)(b_{i+1}/b_i)`. Pieces are pairwise non-overlapping and can always
be used together; a piece is never the whole axis, and an axis is either used
whole or split, never both. Pieces that are neighbours on the axis (mergeable)
are never placed next to each other in one axis list.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from hypothesis import strategies as st

from shardonnay import AxisRef, DimSharding, Mesh, OpShardingRule, TensorSharding
from shardonnay.sharding import TensorShardingPerValue

# Plain axis names: what the oracle comparisons use.
AXIS_NAMES: tuple[str, ...] = ("x", "y", "z", "a", "b", "data", "model", "x.1", "_t")
# Names that need quoting or escaping in MLIR text (space, quote, backslash, UTF-8).
ODD_AXIS_NAMES: tuple[str, ...] = ("with space", 'q"t', "back\\slash", "é", "tab\tbed", "")

REDUCTIONS: tuple[str, ...] = ("sum", "max", "min")


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@st.composite
def meshes(
    draw: st.DrawFn,
    max_axes: int = 4,
    max_devices: int = 64,
    *,
    names: Sequence[str] = AXIS_NAMES,
    min_axes: int = 0,
    allow_maximal: bool = False,
    device_ids: bool = True,
) -> Mesh:
    """A valid mesh: up to `max_axes` axes of size 1..8 over at most `max_devices`.

    `device_ids` (when True) is either None or a random permutation that is
    not iota (Mesh rejects a spelled-out iota). With `allow_maximal`, may also
    draw a maximal mesh `<[], device_ids=[k]>`.
    """
    if allow_maximal and draw(st.integers(0, 9)) == 0:
        return Mesh((), [draw(st.integers(0, 64))])
    count = draw(st.integers(min(min_axes, max_axes), max_axes))
    axis_names = draw(st.lists(st.sampled_from(names), min_size=count, max_size=count, unique=True))
    axes = []
    total = 1
    for name in axis_names:
        bound = max(1, min(8, max_devices // total))
        # Biased towards sizes that can be split into sub-axes (4, 6, 8).
        size = draw(st.sampled_from([s for s in (1, 2, 3, 4, 4, 5, 6, 7, 8, 8) if s <= bound]))
        axes.append((name, size))
        total *= size
    ids = None
    if device_ids and axes and total > 1 and draw(st.booleans()):
        perm = draw(st.permutations(range(total)))
        ids = None if list(perm) == list(range(total)) else perm
    return Mesh(axes, ids)


def _divisor_chain(draw: st.DrawFn, n: int) -> list[int] | None:
    """A random chain 1 | b1 | ... | n with at least one proper divisor, or None."""
    if not [d for d in divisors(n) if 1 < d < n]:
        return None
    chain = [1]
    while chain[-1] < n:
        options = [d for d in divisors(n) if d > chain[-1] and d % chain[-1] == 0]
        if len(chain) == 1:
            options.remove(n)  # the first cut must be a proper divisor
        chain.append(draw(st.sampled_from(options)))
    return chain


def _fix_mergeable_neighbours(axes: list[AxisRef]) -> list[AxisRef]:
    """Swaps consecutive mergeable sub-axes (`"x":(1)2, "x":(2)2` -> reversed).

    A swap never makes a new mergeable pair: pieces don't overlap.
    """
    axes = list(axes)
    changed = True
    while changed:
        changed = False
        for j in range(1, len(axes)):
            if axes[j - 1].can_merge(axes[j]):
                axes[j - 1], axes[j] = axes[j], axes[j - 1]
                changed = True
    return axes


def _drop_mergeable_neighbours(axes: list[AxisRef]) -> list[AxisRef]:
    """Drops the minor one of each mergeable pair (keeps a sorted list sorted)."""
    out: list[AxisRef] = []
    for axis in axes:
        if out and out[-1].can_merge(axis):
            continue
        out.append(axis)
    return out


@st.composite
def axis_refs_to_place(draw: st.DrawFn, mesh: Mesh) -> list[AxisRef]:
    """For each axis: nothing, the whole axis, or some pieces of a random split."""
    refs: list[AxisRef] = []
    for name, size in mesh.axes:
        chain = _divisor_chain(draw, size)
        how = draw(
            st.sampled_from(("skip", "full", "split", "split") if chain else ("skip", "full"))
        )
        if how == "full":
            refs.append(AxisRef(name))
        elif how == "split":
            pieces = [AxisRef(name, (lo, hi // lo)) for lo, hi in itertools.pairwise(chain)]
            keep = draw(st.lists(st.booleans(), min_size=len(pieces), max_size=len(pieces)))
            refs.extend(p for p, k in zip(pieces, keep, strict=True) if k)
    return refs


@st.composite
def shardings(
    draw: st.DrawFn,
    mesh: Mesh,
    rank: int,
    *,
    reductions: Sequence[str] = REDUCTIONS,
    inline: bool | None = None,
    mesh_name: str = "mesh",
    priorities: bool = True,
) -> TensorSharding:
    """A valid sharding of a rank-`rank` tensor on `mesh`.

    The mesh is referred to as `@mesh_name` or inlined (`inline`: None draws).
    """
    if inline is None:
        inline = draw(st.integers(0, 4)) == 0
    bound: str | Mesh = mesh if inline else mesh_name
    if mesh.is_maximal:
        return TensorSharding(bound, ())
    refs = draw(axis_refs_to_place(mesh))
    # Destination per axis ref: a dim, replicated (-1), unreduced (-2) or nowhere (-3).
    lists: dict[int, list[AxisRef]] = {d: [] for d in range(-3, rank)}
    for ref in refs:
        lists[draw(st.integers(-3, rank - 1))].append(ref)
    dims = []
    for d in range(rank):
        order = draw(st.permutations(lists[d])) if lists[d] else []
        axes = _fix_mergeable_neighbours(list(order))
        is_closed = draw(st.booleans())
        priority = None
        if priorities and (axes or not is_closed) and draw(st.booleans()):
            priority = draw(st.integers(0, 5))
        dims.append(DimSharding(tuple(axes), is_closed, priority))

    def sorted_list(axes: list[AxisRef]) -> tuple[AxisRef, ...]:
        return tuple(_drop_mergeable_neighbours(sorted(axes, key=lambda a: a.mesh_sort_key(mesh))))

    replicated = sorted_list(lists[-1])
    unreduced = sorted_list(lists[-2])
    reduction = draw(st.sampled_from(tuple(reductions))) if unreduced else "sum"
    return TensorSharding(bound, tuple(dims), replicated, unreduced, reduction)


def shapes(rank: int | None = None, *, max_rank: int = 3, max_size: int = 9) -> st.SearchStrategy:
    """Tensor shapes with uneven sizes 1..`max_size` and, rarely, 0."""
    size = st.integers(0, 40).map(lambda v: 0 if v == 23 else v % max_size + 1)
    if rank is None:
        ranks = [r for r in (2, 1, 3, 2, 0, 3, 1, 2) if r <= max_rank] or [max_rank]
        return st.sampled_from(ranks).flatmap(lambda r: shapes(r, max_size=max_size))
    return st.tuples(*(size for _ in range(rank)))


@st.composite
def sharding_cases(
    draw: st.DrawFn,
    *,
    max_axes: int = 4,
    max_devices: int = 64,
    names: Sequence[str] = AXIS_NAMES,
    reductions: Sequence[str] = REDUCTIONS,
    allow_maximal: bool = False,
) -> tuple[Mesh, TensorSharding, tuple[int, ...]]:
    """`(mesh, sharding, shape)` with the sharding valid for mesh and shape."""
    mesh = draw(meshes(max_axes, max_devices, names=names, allow_maximal=allow_maximal))
    shape = draw(shapes(0 if mesh.is_maximal else None))
    sharding = draw(shardings(mesh, len(shape), reductions=reductions))
    return mesh, sharding, shape


@st.composite
def shardings_per_value(
    draw: st.DrawFn,
    mesh: Mesh,
    *,
    max_values: int = 3,
    reductions: Sequence[str] = REDUCTIONS,
) -> TensorShardingPerValue:
    ranks = draw(st.lists(st.integers(0, 3), max_size=max_values))
    return TensorShardingPerValue(
        tuple(draw(shardings(mesh, r, reductions=reductions)) for r in ranks)
    )


@st.composite
def op_sharding_rules(
    draw: st.DrawFn,
    *,
    max_factors: int = 22,
    max_tensors: int = 3,
    allow_empty_tensor_lists: bool = False,
) -> OpShardingRule:
    """A valid rule: every factor used, no factor twice in one tensor, no size-1
    factor in a compound dim, disjoint special sets, no reduction factor in a
    result. Up to 22 factors, so `z_1`... symbols appear."""
    num_factors = draw(st.integers(1, max_factors))
    sizes = [draw(st.sampled_from((1, 2, 3, 4, 6, 8, 16, 32))) for _ in range(num_factors)]
    low = 0 if allow_empty_tensor_lists else 1
    num_operands = draw(st.integers(low, max_tensors))
    num_results = draw(st.integers(low, max_tensors))
    if num_operands + num_results == 0:
        num_operands = 1
    mappings: list[list[list[int]]] = []
    for _ in range(num_operands + num_results):
        chosen = draw(st.permutations(range(num_factors)))
        chosen = list(chosen[: draw(st.integers(0, min(num_factors, 4)))])
        dims: list[list[int]] = []
        for f in chosen:
            compound = dims and sizes[f] > 1 and all(sizes[g] > 1 for g in dims[-1])
            if compound and draw(st.integers(0, 3)) == 0:
                dims[-1].append(f)
            else:
                dims.append([f])
        mappings.append(dims)
    used = {f for m in mappings for dim in m for f in dim}
    for f in range(num_factors):
        if f not in used:
            t = draw(st.integers(0, len(mappings) - 1))
            mappings[t].insert(draw(st.integers(0, len(mappings[t]))), [f])
    operands, results = mappings[:num_operands], mappings[num_operands:]
    in_results = {f for m in results for dim in m for f in dim}
    kinds: dict[str, list[int]] = {
        "reduction": [],
        "need_replication": [],
        "permutation": [],
        "blocked_propagation": [],
    }
    for f in range(num_factors):
        kind = draw(st.sampled_from(("", "", "", "reduction", "need_replication", "permutation")))
        if kind == "reduction" and f in in_results:
            kind = ""
        if kind:
            kinds[kind].append(f)
        if draw(st.integers(0, 5)) == 0:
            kinds["blocked_propagation"].append(f)
    return OpShardingRule(
        tuple(sizes),
        tuple(tuple(tuple(d) for d in m) for m in operands),
        tuple(tuple(tuple(d) for d in m) for m in results),
        reduction_factors=tuple(kinds["reduction"]),
        need_replication_factors=tuple(kinds["need_replication"]),
        permutation_factors=tuple(kinds["permutation"]),
        blocked_propagation_factors=tuple(kinds["blocked_propagation"]),
        is_custom=draw(st.booleans()),
    )


def tensor_type(shape: Sequence[int], element: str = "f32") -> str:
    """`tensor<4x8xf32>` (`tensor<f32>` for rank 0)."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def num_elements(shape: Sequence[int]) -> int:
    return math.prod(shape)
