"""`convert_global_to_local` of programs on several meshes.

Values move between meshes of the same devices, live on the devices of a
smaller mesh inside a program that runs on the largest, and move between
meshes of the same axes whose devices come in another order. The per-device
programs, run on every device by the simulator, compute what the global
programs compute, and every collective names every device of the program.
"""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay import parse_module, run
from shardonnay.axes import AxisRef
from shardonnay.layout import device_slices
from shardonnay.mesh import Mesh
from shardonnay.partitioner.local.collectives import permute_pairs
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.runtime.check import check
from shardonnay.runtime.simulator import device_count, simulate
from shardonnay.sharding import DimSharding, TensorSharding
from shardonnay.testing.partitioned_programs import (
    ON_TWO_MESHES,
    TWO_SIZES_ANNOTATED,
    assert_local_program_computes_the_same,
    inputs_for,
    own_partition,
    single_op_program,
    two_mesh_program,
)

# -- meshes of the same devices -------------------------------------------------------------------

TWO_MESHES = 'sdy.mesh @other = <["z"=8]>\n' + single_op_program(
    [("tensor<8xf32>", '[{"x"}]')],
    '  %r = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@other, [{"z"}]>]>} '
    ": tensor<8xf32>",
    ("tensor<8xf32>", '[{"y"}]'),
)


def test_values_move_between_meshes_of_the_same_devices() -> None:
    assert_local_program_computes_the_same(TWO_MESHES)


@pytest.mark.parametrize(
    "op",
    [
        "stablehlo.compare GT, %arg0, %arg1",
        "stablehlo.select %arg2, %arg0, %arg1",
        "stablehlo.clamp %arg0, %arg1, %arg0",
    ],
)
def test_an_elementwise_op_on_another_mesh_of_the_same_devices_runs_on_local_values(op) -> None:
    """Compare, select and clamp are elementwise (Shardy's `isElementwise`):
    split alike on both meshes, each device computes its element, nothing moves."""
    result = "tensor<8xi1>" if "compare" in op else "tensor<8xf32>"
    text = 'sdy.mesh @other = <["z"=8]>\n' + single_op_program(
        [("tensor<8xf32>", '[{"x", "y"}]')] * 2 + [("tensor<8xi1>", '[{"x", "y"}]')],
        f'  %r = {op} {{sdy.sharding = #sdy.sharding_per_value<[<@other, [{{"z"}}]>]>}} : '
        f"({', '.join(['tensor<8xi1>'] * ('select' in op) + ['tensor<8xf32>'] * 2)}"
        f"{', tensor<8xf32>' * ('clamp' in op)}) -> {result}",
        (result, '[{"x", "y"}]'),
    )
    local = assert_local_program_computes_the_same(text)
    names = [o.name for o in local.function("main").body.ops]
    assert names == [op.split()[0], "func.return"], names


# -- meshes of different device counts: the program runs on the largest ---------------------


@pytest.mark.parametrize("name", list(ON_TWO_MESHES))
def test_values_on_a_smaller_mesh_live_on_its_devices(name: str) -> None:
    """On 8 devices, values split on a mesh of 6 (devices 0..5) move, gather,
    reduce and leave it; the devices compute what the global program does."""
    shape, small, body, result = ON_TWO_MESHES[name]
    text = two_mesh_program(shape, small, "[{x}, {}]", body, result)
    local = assert_local_program_computes_the_same(text)
    assert device_count(local) == 8


@pytest.mark.parametrize("name", list(ON_TWO_MESHES))
def test_every_device_takes_part_in_every_collective(name: str) -> None:
    """Each collective of the local program names every one of the 8 devices
    once (the devices off the small mesh in groups of their own)."""
    shape, small, body, result = ON_TWO_MESHES[name]
    local = convert_global_to_local(
        parse_module(two_mesh_program(shape, small, "[{x}, {}]", body, result))
    )
    for op in local.walk():
        if "replica_groups" in op.attributes:
            ids = [int(i) for i in op.attributes["replica_groups"].to_numpy().ravel() if i >= 0]
            assert sorted(ids) == list(range(8)), (op.name, ids)


def test_a_program_on_meshes_of_3_and_8_devices_partitioned_end_to_end() -> None:
    """Propagation, explicit reshards and collectives, then the local program:
    what the 8 devices compute is what the annotated program computes."""
    partitioned = own_partition(TWO_SIZES_ANNOTATED)
    module = parse_module(TWO_SIZES_ANNOTATED)
    inputs = inputs_for(module)
    local = convert_global_to_local(parse_module(partitioned), poison_padding=True)
    assert device_count(local) == 8
    for got, want in zip(simulate(local, *inputs), run(module, *inputs), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


# -- meshes of the same axes in another device order --------------------------------------------


def _reordered_program(axes: str, src_ids, dst_ids, shape, src: str, dst: str) -> str:
    """`%arg0 + %arg1` split as `src` on `@src`, moved to `dst` on `@dst` (same
    `axes`, devices in the order `dst_ids`), then squared there."""

    def ids(order) -> str:
        order = list(order) if order is not None else []
        return "" if order == sorted(order) else f", device_ids={order}"

    t = f"tensor<{'x'.join(map(str, shape))}xf32>"
    return (
        f"sdy.mesh @src = <[{axes}]{ids(src_ids)}>\n"
        f"sdy.mesh @dst = <[{axes}]{ids(dst_ids)}>\n"
        f"func.func @main(%arg0: {t}, %arg1: {t}) -> {t} {{\n"
        f"  %0 = stablehlo.add %arg0, %arg1 "
        f"{{sdy.sharding = #sdy.sharding_per_value<[<@src, {src}>]>}} : {t}\n"
        f"  %1 = sdy.sharding_constraint %0 <@dst, {dst}> : {t}\n"
        f"  %2 = stablehlo.multiply %1, %1 : {t}\n"
        f"  return %2 : {t}\n"
        "}"
    )


@pytest.mark.parametrize("reshards", ["shardy", "shardonnay"])
@pytest.mark.parametrize("shape", [(24,), (12,), (9,), (12, 5)], ids=str)
def test_a_value_moves_to_a_mesh_of_its_devices_in_another_order(shape, reshards) -> None:
    dims = '[{"y", "x"}' + ", {}" * (len(shape) - 1) + "]"
    text = _reordered_program(
        '"x"=2, "y"=6', None, [10, 2, 5, 9, 6, 11, 7, 8, 4, 1, 3, 0], shape, dims, dims
    )
    result = check(parse_module(text), propagate=False, reshards=reshards)
    assert "stablehlo.collective_permute" in {op.name for op in result.local.walk()}


def _split_dims(axes: list[str], rank: int, rng: np.random.Generator) -> str:
    """A random sharding of `rank` dims over some of `axes`, each used once."""
    order = [str(a) for a in rng.permutation(axes)][: int(rng.integers(0, len(axes) + 1))]
    per_dim: list[list[str]] = [[] for _ in range(rank)]
    for axis in order:
        per_dim[int(rng.integers(rank))].append(axis)
    return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in per_dim) + "]"


def _reordered_cases(count: int):
    rng = np.random.default_rng(2024)
    for _ in range(count):
        sizes = {"x": 2, "y": int(rng.choice([2, 3]))}
        devices = sizes["x"] * sizes["y"]
        src_ids = None if rng.random() < 0.3 else rng.permutation(devices).tolist()
        dst_ids = rng.permutation(devices).tolist()
        shape = (int(rng.choice([3, 4, 5, 6, 12])), int(rng.choice([2, 3, 7])))
        src = _split_dims(list(sizes), 2, rng)
        dst = src if rng.random() < 0.5 else _split_dims(list(sizes), 2, rng)
        axes = ", ".join(f'"{n}"={k}' for n, k in sizes.items())
        yield _reordered_program(axes, src_ids, dst_ids, shape, src, dst)


@pytest.mark.parametrize("reshards", ["shardy", "shardonnay"])
def test_values_move_between_meshes_in_random_device_orders(reshards) -> None:
    """2x2 and 2x3 meshes in random device orders, values moved between two of
    them with the same or other dims split: every device's numbers are right."""
    for seed, text in enumerate(_reordered_cases(40)):
        check(parse_module(text), seed, propagate=False, reshards=reshards)


def _shuffled(devices: int, rng: np.random.Generator) -> list[int] | None:
    order = rng.permutation(devices).tolist()
    return None if order == sorted(order) else order  # a mesh spells iota by omission


@pytest.mark.parametrize("seed", range(6))
def test_permute_pairs_send_each_shard_to_the_device_that_holds_it_after(seed) -> None:
    rng = np.random.default_rng(seed)
    sizes = {"x": 2, "y": 3 if seed % 2 else 2}
    devices = sizes["x"] * sizes["y"]
    mesh, other = (Mesh(sizes, device_ids=_shuffled(devices, rng)) for _ in range(2))
    shape = (2 * sizes["y"], 6)
    for dims in [[("x",), ("y",)], [("y", "x"), ()], [(), ("y",)], [(), ()]]:
        sharding = TensorSharding(mesh, tuple(DimSharding(tuple(map(AxisRef, d))) for d in dims))
        moved = TensorSharding(other, sharding.dims)
        pairs = permute_pairs(sharding, moved, mesh, other)
        assert sorted(t for _, t in pairs) == sorted(s for s, _ in pairs) == list(range(devices))
        held, wanted = device_slices(shape, sharding, mesh), device_slices(shape, moved, other)
        assert all(held[s] == wanted[t] for s, t in pairs)
