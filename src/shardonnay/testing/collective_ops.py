"""Modules of one Shardy collective op each, valid or not, for the verifier's tests.

`collective_module(op)` wraps an op such as `sdy.all_gather [{}, {"y"}] %arg0
out_sharding=<@mesh, [{"x"}, {}]>` in a module: `@mesh` and a function whose
argument `%arg0` has the given sharding (or none). `random_collective_modules`
draws such modules: a random mesh and operand sharding, a collective of a
random kind whose axes mostly fit the operand, and as the claimed result the
rule's (`Collective.result_sharding`), the same with other unreduced axes, or
a random sharding; one operand in ten has no sharding.

>>> print(collective_module('sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{}, {}]>', None))
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
<BLANKLINE>
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence

from shardonnay.axes import AxisRef
from shardonnay.collectives import (
    SHARDY_COLLECTIVES,
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    Collective,
    CollectivePermute,
    ReduceScatter,
    ReplicatedToUnreduced,
    ShardedToUnreduced,
)
from shardonnay.errors import PartitionError
from shardonnay.mesh import Mesh
from shardonnay.sharding import TensorSharding
from shardonnay.testing.sharding_pairs import RANDOM_MESH_AXES, random_sharding

COLLECTIVE_MESH = '<["x"=2, "y"=2, "z"=2]>'
COLLECTIVE_OPERAND = '<@mesh, [{"x"}, {"y"}]>'


def collective_module(
    op: str,
    operand: str | None = COLLECTIVE_OPERAND,
    meshes: str = "",
    rank: int = 2,
    mesh: str = COLLECTIVE_MESH,
) -> str:
    """`op` (no result type) applied to `%arg0` of shape 8x...x8, sharded
    `operand` (None: no sharding), on `@mesh` = `mesh` and the meshes
    `meshes` defines (`sdy.mesh` lines)."""
    t = "tensor<" + "8x" * rank + "f32>"
    attrs = f" {{sdy.sharding = #sdy.sharding{operand}}}" if operand is not None else ""
    return (
        f"sdy.mesh @mesh = {mesh}\n{meshes}"
        f"func.func @main(%arg0: {t}{attrs}) -> {t} {{\n"
        f"  %0 = {op} : {t}\n  return %0 : {t}\n}}\n"
    )


def on_mesh(sharding: TensorSharding) -> TensorSharding:
    """`sharding` on the mesh named `@mesh`."""
    return TensorSharding(
        "mesh", sharding.dims, sharding.replicated, sharding.unreduced, sharding.reduction
    )


def random_collective(rng: random.Random, operand: TensorSharding, mesh: Mesh) -> Collective:
    """A collective of a random kind whose axes mostly fit `operand`."""
    used = operand.all_axes()
    free = [AxisRef(n) for n in mesh.axis_names if not any(a.name == n for a in used)]
    dims = [d.axes for d in operand.dims]
    rank = len(dims)

    def suffix(axes: tuple[AxisRef, ...]) -> tuple[AxisRef, ...]:
        return axes[len(axes) - rng.randint(0, len(axes)) :]

    def spread(axes: Sequence[AxisRef]) -> list[list[AxisRef]]:
        lists: list[list[AxisRef]] = [[] for _ in range(rank)]
        for axis in rng.sample(list(axes), rng.randint(0, len(axes))):
            lists[rng.randrange(rank)].append(axis)
        return lists

    kind = rng.choice(SHARDY_COLLECTIVES)
    if kind in (AllGather, ShardedToUnreduced):
        return kind([suffix(d) for d in dims])
    if kind is AllSlice:
        return AllSlice(spread(free))
    if kind is ReduceScatter:
        return ReduceScatter(spread([*operand.unreduced, *free[:1]]))
    if kind is AllToAll:
        src = rng.randrange(rank)
        tgt = rng.choice([d for d in range(rank) if d != src] or [src])
        return AllToAll.move(suffix(dims[src]) or (AxisRef(mesh.axis_names[0]),), src, tgt)
    if kind is AllReduce:
        pool = [*operand.unreduced, *free]
        return AllReduce(rng.sample(pool, rng.randint(0, min(2, len(pool)))))
    if kind is ReplicatedToUnreduced:
        axes = rng.sample(free, rng.randint(1, len(free))) if free else [AxisRef("x")]
        if rng.random() < 0.8:
            axes.sort(key=lambda a: a.mesh_sort_key(mesh))
        return ReplicatedToUnreduced(axes)
    return CollectivePermute(random_sharding(rng, mesh, rank))


def random_collective_case(
    rng: random.Random,
) -> tuple[Mesh, TensorSharding | None, Collective, TensorSharding]:
    """(mesh, operand sharding or None, collective, claimed result), all on the mesh itself."""
    mesh = Mesh(rng.choice(RANDOM_MESH_AXES))
    rank = rng.randint(1, 3)
    operand = random_sharding(rng, mesh, rank)
    collective = random_collective(rng, operand, mesh)
    result = random_sharding(rng, mesh, rank)
    if isinstance(collective, CollectivePermute):
        result = collective.target
    elif rng.random() < 0.6:
        with contextlib.suppress(PartitionError):
            result = collective.result_sharding(operand, mesh)
    if rng.random() < 0.25:
        names = [AxisRef(n) for n in mesh.axis_names]
        free = [a for a in names if not any(a.overlaps(b) for b in result.dim_axes())]
        unreduced = tuple(a for a in free if rng.random() < 0.5)
        result = TensorSharding(mesh, result.dims, unreduced=unreduced)
    return mesh, None if rng.random() < 0.1 else operand, collective, result


def collective_op_text(collective: Collective, result: TensorSharding) -> str:
    """`sdy.<op> AXES %arg0 out_sharding=<@mesh, ...>`."""
    attr = collective.axes_attribute()
    axes = f"{attr.body()} " if attr is not None else ""
    return f"{collective.op_name} {axes}%arg0 out_sharding={on_mesh(result).body()}"


def random_collective_modules(seed: int, count: int) -> Iterator[str]:
    """`count` modules of `random_collective_case`s."""
    rng = random.Random(seed)
    for _ in range(count):
        mesh, operand, collective, result = random_collective_case(rng)
        given = None if operand is None else on_mesh(operand).body()
        op = collective_op_text(collective, result)
        yield collective_module(op, given, rank=result.rank, mesh=str(mesh))
