"""Oracle: JAX's `NamedSharding` puts the same slices on the same devices as we do.

Hundreds of seeded cases over 8 host devices: meshes of shapes (8,), (2, 4),
(4, 2), (2, 2, 2), (1, 8), (2, 1, 4) in random device orders, random
PartitionSpecs (None, one axis, tuples of axes in any order) and random shapes.

JAX refuses uneven shardings (`IndivisibleError` from `devices_indices_map`,
`device_put` and `jit`), so the direct comparison uses shapes whose sharded
dims are multiples of their shard counts. Uneven shapes are compared against
JAX's map for the padded shape (each dim rounded up to a multiple of its
shard count) clipped to the real shape: XLA pads at the end, so every device
keeps its padded slice minus the padding.
"""

from __future__ import annotations

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

from shardonnay import Mesh, TensorSharding  # noqa: E402
from shardonnay.layout import device_slices, local_shape, shard, unshard  # noqa: E402

pytestmark = pytest.mark.oracle

MESH_SHAPES = [(8,), (2, 4), (4, 2), (2, 2, 2), (1, 8), (2, 1, 4)]
AXIS_NAMES = ("x", "y", "z")
NUM_CASES = 300

Regions = dict[int, tuple[tuple[int, int], ...]]


@pytest.fixture(scope="module")
def devices() -> np.ndarray:
    devs = np.array(jax.devices("cpu"))
    if len(devs) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS was set before jax was imported)")
    return devs[:8]


@dataclass(frozen=True)
class Case:
    seed: int
    mesh_shape: tuple[int, ...]
    perm: tuple[int, ...]
    spec: tuple[str | tuple[str, ...] | None, ...]
    shape: tuple[int, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return AXIS_NAMES[: len(self.mesh_shape)]

    def ours(self) -> tuple[Mesh, TensorSharding]:
        ids = None if list(self.perm) == list(range(8)) else self.perm
        mesh = Mesh(zip(self.names, self.mesh_shape, strict=True), ids)
        dims = list(self.spec) + [None] * (len(self.shape) - len(self.spec))
        return mesh, TensorSharding.from_axes("mesh", dims)

    def jax_sharding(self, devices: np.ndarray) -> NamedSharding:
        mesh = jax.sharding.Mesh(devices[list(self.perm)].reshape(self.mesh_shape), self.names)
        return NamedSharding(mesh, P(*self.spec))

    def shard_counts(self) -> tuple[int, ...]:
        return shard_counts(self.mesh_shape, self.spec, len(self.shape))


def shard_counts(
    mesh_shape: tuple[int, ...], spec: tuple[str | tuple[str, ...] | None, ...], rank: int
) -> tuple[int, ...]:
    """Per dim, how many shards `spec` cuts it into."""
    sizes = dict(zip(AXIS_NAMES, mesh_shape, strict=False))
    out = []
    for d in range(rank):
        entry = spec[d] if d < len(spec) else None
        axes = () if entry is None else (entry,) if isinstance(entry, str) else entry
        out.append(math.prod(sizes[a] for a in axes))
    return tuple(out)


def random_case(seed: int, *, even: bool) -> Case:
    rng = np.random.default_rng(seed)
    mesh_shape = MESH_SHAPES[seed % len(MESH_SHAPES)]
    perm = tuple(int(i) for i in rng.permutation(8)) if rng.random() < 0.8 else tuple(range(8))
    names = AXIS_NAMES[: len(mesh_shape)]
    rank = int(rng.integers(1, 4))
    # Each mesh axis shards at most one dim; within a dim, in random order.
    per_dim: list[list[str]] = [[] for _ in range(rank)]
    for name in rng.permutation(names):
        d = int(rng.integers(-1, rank))
        if d >= 0:
            per_dim[d].append(str(name))
    spec: list[str | tuple[str, ...] | None] = []
    for axes in per_dim:
        if not axes:
            spec.append(None)
        elif len(axes) == 1 and rng.random() < 0.5:
            spec.append(axes[0])
        else:
            spec.append(tuple(axes))
    while spec and spec[-1] is None and rng.random() < 0.5:
        spec.pop()  # PartitionSpec may be shorter than the rank
    counts = shard_counts(mesh_shape, tuple(spec), rank)
    if even:
        shape = tuple(0 if rng.random() < 0.03 else c * int(rng.integers(1, 4)) for c in counts)
    else:
        shape = tuple(int(rng.integers(0, 10)) for _ in counts)
    return Case(seed, mesh_shape, perm, tuple(spec), shape)


def cases(even: bool) -> Iterator[Case]:
    for seed in range(NUM_CASES):
        yield random_case(seed, even=even)


def ours_regions(case: Case) -> Regions:
    mesh, sharding = case.ours()
    return {
        d: tuple((s.start, s.stop) for s in region)
        for d, region in device_slices(case.shape, sharding, mesh).items()
    }


def jax_regions(case: Case, devices: np.ndarray, shape: tuple[int, ...]) -> Regions:
    """JAX's `devices_indices_map(shape)`, slice(None) spelled `(0, dim)`, keyed by id."""
    out = {}
    for device, index in case.jax_sharding(devices).devices_indices_map(shape).items():
        out[device.id] = tuple(
            (s.start or 0, dim if s.stop is None else s.stop)
            for s, dim in zip(index, shape, strict=True)
        )
    return out


def describe(case: Case) -> str:
    return (
        f"seed={case.seed} mesh={dict(zip(case.names, case.mesh_shape, strict=True))} "
        f"perm={case.perm} spec=P{case.spec} shape={case.shape}"
    )


def test_even_shapes_put_the_same_slices_on_the_same_devices(devices: np.ndarray) -> None:
    for case in cases(even=True):
        assert ours_regions(case) == jax_regions(case, devices, case.shape), describe(case)


def test_jax_rejects_uneven_shapes(devices: np.ndarray) -> None:
    """Why uneven shapes go through the padded comparison below."""
    case = Case(0, (2, 4), tuple(range(8)), ("x", "y"), (5, 3))
    with pytest.raises(ValueError, match="divide"):
        case.jax_sharding(devices).devices_indices_map(case.shape)


def test_uneven_shapes_are_the_padded_layout_clipped(devices: np.ndarray) -> None:
    uneven = 0
    for case in cases(even=False):
        counts = case.shard_counts()
        padded = tuple(-(-d // c) * c for d, c in zip(case.shape, counts, strict=True))
        uneven += padded != case.shape
        expected = {
            device: tuple(
                (min(lo, d), min(hi, d)) for (lo, hi), d in zip(region, case.shape, strict=True)
            )
            for device, region in jax_regions(case, devices, padded).items()
        }
        assert ours_regions(case) == expected, describe(case)
        mesh, sharding = case.ours()
        assert local_shape(case.shape, sharding, mesh) == tuple(
            p // c for p, c in zip(padded, counts, strict=True)
        ), describe(case)
    assert uneven > NUM_CASES // 2  # the loop did exercise uneven shapes


def test_shard_matches_device_put_buffers(devices: np.ndarray) -> None:
    for case in list(cases(even=True))[:100]:
        mesh, sharding = case.ours()
        x = np.arange(math.prod(case.shape), dtype=np.float32).reshape(case.shape)
        ours = shard(x, sharding, mesh)
        placed = jax.device_put(x, case.jax_sharding(devices))
        for piece in placed.addressable_shards:
            np.testing.assert_array_equal(
                ours[piece.device.id], np.asarray(piece.data), err_msg=describe(case)
            )


@pytest.mark.parametrize("even", [True, False], ids=["even", "uneven"])
def test_shard_then_unshard_round_trips(even: bool) -> None:
    for case in cases(even=even):
        mesh, sharding = case.ours()
        x = np.random.default_rng(case.seed).normal(size=case.shape).astype(np.float32)
        buffers = shard(x, sharding, mesh)
        assert set(buffers) == set(range(8)), describe(case)
        np.testing.assert_array_equal(
            unshard(buffers, sharding, mesh, case.shape), x, err_msg=describe(case)
        )
