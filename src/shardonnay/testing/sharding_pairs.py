"""Shardings to reshard between: all of them on small meshes, or random ones.

`all_shardings(mesh, rank)` lists every valid sharding that uses whole axes
(each axis replicated, unreduced, or in one dim at any position);
`random_pair(rng)` draws a source and target with sub-axes, uneven dims,
other device orders and other meshes over the same devices; `check_plan`
runs a plan on data and compares with `layout`; `random_reshard(seed)` is a
module whose `main` reshards its argument between two random shardings.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.collectives.axis_lists import append_or_merge, axis_ref, mesh_ordered
from shardonnay.errors import ShardingError
from shardonnay.layout import shard, unshard
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding

SWEEP_MESHES = {
    "2x2": Mesh({"x": 2, "y": 2}),
    "2x3": Mesh({"x": 2, "y": 3}),
    "2x2x2": Mesh({"x": 2, "y": 2, "z": 2}),
    "4x2": Mesh({"x": 4, "y": 2}),
}

SWEEP_SHAPES = {0: (), 1: (6,), 2: (4, 5), 3: (4, 3, 5)}
"""One shape per rank for the sweep; 5 and 3 make most sharded dims uneven."""


def all_shardings(mesh: Mesh, rank: int, *, unreduced: bool = True) -> list[TensorSharding]:
    """Every valid sharding of a rank-`rank` tensor on `mesh` that uses whole axes."""
    names = mesh.axis_names
    slots = ["replicated"] + (["unreduced"] if unreduced else []) + list(range(rank))
    out = []
    for assignment in itertools.product(slots, repeat=len(names)):
        per_dim = [
            [n for n, s in zip(names, assignment, strict=True) if s == j] for j in range(rank)
        ]
        pending = tuple(n for n, s in zip(names, assignment, strict=True) if s == "unreduced")
        for orders in itertools.product(*(itertools.permutations(d) for d in per_dim)):
            out.append(TensorSharding.from_axes(mesh, list(orders), unreduced=pending))
    return out


def sweep_pairs(mesh: Mesh, rank: int, *, every: int = 1, unreduced: bool = True):
    """All (src, dst) pairs on `mesh` (every `every`-th one, deterministically)."""
    shardings = all_shardings(mesh, rank, unreduced=unreduced)
    pairs = itertools.product(shardings, shardings)
    return list(itertools.islice(pairs, 0, None, every))


RANDOM_MESH_AXES = (
    {"x": 4, "y": 2},
    {"x": 8},
    {"x": 2, "y": 4, "z": 2},
    {"x": 4, "y": 4},
    {"x": 6, "y": 2},
    {"x": 2, "y": 6},
    {"x": 12},
)
"""Meshes whose axes split into sub-axes (size 6 and 12 in incompatible ways)."""


def random_mesh(rng: random.Random, axes: dict[str, int] | None = None) -> Mesh:
    axes = axes if axes is not None else rng.choice(RANDOM_MESH_AXES)
    ids = None
    if rng.random() < 0.25:
        ids = list(range(math.prod(axes.values())))
        rng.shuffle(ids)
        if ids == sorted(ids):
            ids = None
    return Mesh(axes, ids)


def other_mesh(rng: random.Random, mesh: Mesh) -> Mesh:
    """Another mesh over the same devices: other axes, or another device order."""
    n = mesh.size
    choices = [axes for axes in RANDOM_MESH_AXES if math.prod(axes.values()) == n]
    renamed = [{f"m{k}": s for k, s in enumerate(a.values())} for a in choices]
    ids = list(range(n))
    rng.shuffle(ids)
    axes = rng.choice([*renamed, dict(mesh.axes)])
    return Mesh(axes, None if ids == sorted(ids) else ids)


def random_sharding(
    rng: random.Random, mesh: Mesh, rank: int, reduction: str = "sum"
) -> TensorSharding:
    """A valid sharding that cuts axes into random sub-axes."""
    while True:
        dims: list[list] = [[] for _ in range(rank)]
        unreduced = []
        for name, size in mesh.axes:
            for piece in _random_chain(rng, name, size, mesh):
                slot = rng.randrange(rank + 2)
                if slot < rank:
                    dims[slot].insert(rng.randrange(len(dims[slot]) + 1), piece)
                elif slot == rank and rng.random() < 0.6:
                    unreduced.append(piece)
        merged = []
        for axes in dims:
            out: list = []
            for a in axes:
                append_or_merge(out, a, mesh)
            merged.append(DimSharding(tuple(out)))
        sharding = TensorSharding(
            mesh,
            tuple(merged),
            unreduced=tuple(mesh_ordered(unreduced, mesh)),
            reduction=reduction,
        )
        try:
            sharding.validate(mesh)
        except ShardingError:
            continue
        return sharding


def _random_chain(rng: random.Random, name: str, size: int, mesh: Mesh):
    """`size` cut into consecutive sub-axes at random divisor boundaries."""
    bounds, lo = [1], 1
    while lo < size:
        options = [b for b in range(lo + 1, size + 1) if b % lo == 0 and size % b == 0]
        lo = rng.choice(options)
        bounds.append(lo)
    return [axis_ref(name, a, b, mesh) for a, b in itertools.pairwise(bounds)]


def random_shape(rng: random.Random, rank: int) -> tuple[int, ...]:
    return tuple(rng.randint(1, 9) for _ in range(rank))


def random_pair(rng: random.Random):
    """(src, dst, global shape): same mesh mostly, sometimes another one."""
    mesh = random_mesh(rng)
    rank = rng.randint(0, 3)
    reduction = "sum" if rng.random() < 0.85 else rng.choice(("max", "min"))
    src = random_sharding(rng, mesh, rank, reduction)
    target_mesh = other_mesh(rng, mesh) if rng.random() < 0.2 else mesh
    dst_reduction = reduction if rng.random() < 0.9 else rng.choice(("sum", "max", "min"))
    dst = random_sharding(rng, target_mesh, rank, dst_reduction)
    return src, dst, random_shape(rng, rank)


def sample_data(shape, dtype=np.float32) -> np.ndarray:
    """Small distinct integers: sums of their addends are exact in any order."""
    n = math.prod(shape)
    return (np.arange(n, dtype=np.int64) % 251 - 100).astype(dtype).reshape(shape)


def check_plan(plan, data: np.ndarray | None = None) -> None:
    """Runs `plan` on `layout.shard` buffers and asserts it ends at `layout.shard(x, dst)`
    (buffer for buffer; for unreduced targets, buffers that unshard to `x`)."""
    x = sample_data(plan.global_shape, plan.dtype) if data is None else data
    src_mesh = None if isinstance(plan.src.mesh, Mesh) else plan.src_mesh
    dst_mesh = None if isinstance(plan.dst.mesh, Mesh) else plan.dst_mesh
    out = plan.apply(shard(x, plan.src, src_mesh))
    expected = shard(x, plan.dst, dst_mesh)
    assert set(out) == set(expected), plan
    for device, buffer in expected.items():
        assert out[device].shape == buffer.shape, (device, plan)
    if plan.dst.unreduced:
        np.testing.assert_array_equal(
            unshard(out, plan.dst, dst_mesh, plan.global_shape), x, err_msg=str(plan)
        )
    else:
        for device, buffer in expected.items():
            np.testing.assert_array_equal(out[device], buffer, err_msg=f"{device}\n{plan}")
    assert plan.bytes_received >= plan.lower_bound, plan


# -- random reshards as programs ------------------------------------------------------------------


def _pieces(rng: random.Random, name: str, size: int) -> list[AxisRef]:
    """Axis `name` whole, or cut into consecutive sub-axes."""
    if size not in (4, 8) or rng.random() >= 0.4:
        return [AxisRef(name)]
    cuts = [1]
    while cuts[-1] < size:
        pre = cuts[-1]
        step = rng.choice([d for d in (2, 4) if pre * d <= size and (pre > 1 or d < size)])
        cuts.append(pre * step)
    return [AxisRef(name, (a, b // a)) for a, b in itertools.pairwise(cuts)]


def _sharding(rng: random.Random, mesh: Mesh, rank: int) -> str:
    dims: list[list[AxisRef]] = [[] for _ in range(rank)]
    for name, size in mesh.axes:
        for piece in _pieces(rng, name, size):
            if rng.random() < 0.6:
                append_or_merge(dims[rng.randrange(rank)], piece, mesh)
    return "[" + ", ".join("{" + ", ".join(map(str, d)) + "}" for d in dims) + "]"


def random_reshard(seed: int, *, powers_of_two: bool) -> str:
    """A module whose `main` reshards its argument from one random sharding to
    another; with `powers_of_two`, up to 4 axes of sizes 2, 4, 8, and a copy
    of the mesh in another device order that either side may use."""
    rng = random.Random(seed)
    sizes = [2, 4, 8] if powers_of_two else [2, 4, 8, 3]
    names = rng.sample(["x", "y", "z", "w"], rng.randint(1 if not powers_of_two else 2, 4))
    mesh = Mesh({n: rng.choice(sizes) for n in names})
    rank = rng.randint(1, 4 if powers_of_two else 3)
    dims = [8, 16, 32, 64] if powers_of_two else [8, 16, 32, 64, 12, 24, 6]
    t = "tensor<" + "".join(f"{rng.choice(dims)}x" for _ in range(rank)) + "f32>"
    axes = ", ".join(f'"{n}"={s}' for n, s in mesh.axes)
    other, in_mesh, out_mesh = "", "mesh", "mesh"
    if powers_of_two and mesh.size <= 64:
        ids = list(range(mesh.size))
        rng.shuffle(ids)
        if ids == sorted(ids):
            ids.reverse()
        other = f"sdy.mesh @other = <[{axes}], device_ids=[{', '.join(map(str, ids))}]>"
        in_mesh = "other" if rng.random() < 0.2 else "mesh"
        out_mesh = "other" if rng.random() < 0.2 else "mesh"
    source, target = _sharding(rng, mesh, rank), _sharding(rng, mesh, rank)
    return f"""module {{
  sdy.mesh @mesh = <[{axes}]>
  {other}
  func.func @main(%arg0: {t} {{sdy.sharding = #sdy.sharding<@{in_mesh}, {source}>}}) -> {t} {{
    %0 = sdy.reshard %arg0 <@{out_mesh}, {target}> : {t}
    return %0 : {t}
  }}
}}"""
