"""PyTorch DTensor placements <-> TensorSharding (shardonnay.interop.dtensor).

`shardonnay.layout` is the judge: every conversion is checked on data, comparing the
rows DTensor gives each rank (its `torch.chunk` rule, recorded from a real
`torch.distributed.tensor` in `tests/fixtures/dtensor/placements.json` by
`scripts/record_dtensor_fixtures.py`) with `layout.device_slices` / `layout.shard` of the
converted sharding, device by device.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shardonnay import Mesh, ParseError, ShardingError, TensorSharding, layout
from shardonnay.interop.dtensor import (
    DeviceMeshSpec,
    DTensorSharding,
    Partial,
    Replicate,
    Shard,
    StridedShard,
    from_tensor_sharding,
    partial_avg_as_sum,
    to_tensor_sharding,
)
from shardonnay.testing.strategies import meshes, shapes, shardings

FIXTURES = Path(__file__).parent.parent / "fixtures" / "dtensor" / "placements.json"


@cache
def recorded_cases() -> list[dict]:
    return json.loads(FIXTURES.read_text())["cases"]


def dtensor_regions(dtensor: DTensorSharding, shape) -> dict[int, tuple[np.ndarray, ...]]:
    return {d: dtensor.local_indices(shape, d) for d in dtensor.device_mesh.device_list}


def named(dtensor: DTensorSharding) -> DTensorSharding:
    """The same sharding with its mesh dims' names spelled out (`dim_0`, ... if it had none)."""
    mesh = dtensor.device_mesh
    return DTensorSharding(DeviceMeshSpec(mesh.shape, mesh.names, mesh.devices), dtensor.placements)


def assert_same_data(dtensor: DTensorSharding, sharding: TensorSharding, mesh: Mesh, shape):
    """Every device holds the same rows under both, and the same local values: DTensor's
    local tensors are the padded-layout buffers without their padding (for partial
    values: they reduce to the global array through `layout.unshard`)."""
    slices = layout.device_slices(shape, sharding, mesh)
    held = dtensor_regions(dtensor, shape)
    assert set(slices) == set(held)
    for device, region in slices.items():
        for indices, s in zip(held[device], region, strict=True):
            np.testing.assert_array_equal(indices, np.arange(s.start, s.stop))
    array = np.arange(math.prod(shape), dtype=np.float64).reshape(shape) + 1
    locals_ = dtensor.local_tensors(array)
    padded = layout.local_shape(shape, sharding, mesh)
    if sharding.unreduced:
        buffers = {}
        for device, local in locals_.items():
            buffer = np.zeros(padded)
            buffer[tuple(slice(0, n) for n in local.shape)] = local
            buffers[device] = buffer
        np.testing.assert_allclose(layout.unshard(buffers, sharding, mesh, shape), array)
    else:
        for device, buffer in layout.shard(array, sharding, mesh).items():
            local = locals_[device]
            np.testing.assert_array_equal(buffer[tuple(slice(0, n) for n in local.shape)], local)


# -- the fixtures recorded from torch.distributed.tensor ----------------------------------


def test_fixtures_cover_the_cases_that_matter():
    cases = recorded_cases()
    texts = [c["text"] for c in cases]
    assert len(cases) >= 300 and FIXTURES.stat().st_size < 1_000_000
    assert sum("_StridedShard" in t for t in texts) >= 40
    assert sum(c["order"] is None for c in cases) >= 20  # interleaved
    assert sum("devices=" in t for t in texts) >= 100
    for op in ("sum", "max", "min", "avg"):
        assert any(f"Partial({op})" in t for t in texts)
    uneven = [c for c in cases if len({tuple(r[0]) for r in c["ranks"].values()}) > 1]
    assert len(uneven) >= 100  # ranks holding shards of different sizes


def test_text_local_shapes_offsets_and_rows_are_dtensors():
    for case in recorded_cases():
        dtensor = DTensorSharding.parse(case["text"])
        shape = case["shape"]
        assert str(dtensor) == case["text"]
        # The recorder's global tensor: `distribute_tensor` divides by the Partial(sum) ranks.
        scale = math.prod(
            n
            for n, p in zip(dtensor.device_mesh.shape, dtensor.placements, strict=True)
            if isinstance(p, Partial) and p.reduce_op == "sum"
        )
        flat = np.arange(math.prod(shape), dtype=np.float64).reshape(shape)
        locals_ = dtensor.local_tensors(flat * scale)
        for rank, (local_shape, offset, runs) in case["ranks"].items():
            got = dtensor.local_shape_and_global_offset(shape, int(rank))
            assert got == (tuple(local_shape), tuple(offset)), (case["text"], shape, rank)
            if runs is not None:
                for indices, dim_runs in zip(
                    dtensor.local_indices(shape, int(rank)), runs, strict=True
                ):
                    expected = [i for start, stop in dim_runs for i in range(start, stop)]
                    assert indices.tolist() == expected, (case["text"], shape, rank)
                rows = [[i for a, b in dim_runs for i in range(a, b)] for dim_runs in runs]
                np.testing.assert_array_equal(locals_[int(rank)], flat[np.ix_(*rows)])


def test_shard_order_is_dtensors_decoding():
    for case in recorded_cases():
        dtensor = DTensorSharding.parse(case["text"])
        rank = len(case["shape"])
        if case["order"] is None:
            with pytest.raises(ShardingError, match="interleaved rows"):
                dtensor.shard_order(rank)
        else:
            got = [[d, list(o)] for d, o in enumerate(dtensor.shard_order(rank)) if o]
            assert got == case["order"], case["text"]
            # Encoding the order again gives DTensor's placements back.
            plain = [Shard(p.dim) if isinstance(p, StridedShard) else p for p in dtensor.placements]
            again = DTensorSharding(dtensor.device_mesh, plain).with_shard_order(dict(got))
            assert again == dtensor, case["text"]


def test_every_recorded_case_converts_or_says_why():
    """Converted cases hold DTensor's data on every device and convert back to the same
    placements; the others are interleaved, ragged (several mesh dims chunking a dim
    they do not divide) or avg partials, which convert as sums with a scale."""
    outcomes = {"converted": 0, "interleaved": 0, "ragged": 0, "avg": 0}
    for case in recorded_cases():
        dtensor = DTensorSharding.parse(case["text"])
        shape = case["shape"]
        rank = len(shape)
        if any(isinstance(p, Partial) and p.reduce_op == "avg" for p in dtensor.placements):
            with pytest.raises(ShardingError, match="partial_avg_as_sum"):
                to_tensor_sharding(dtensor, rank)
            averaged = [
                n
                for n, p in zip(dtensor.device_mesh.shape, dtensor.placements, strict=True)
                if isinstance(p, Partial) and p.reduce_op == "avg"
            ]
            dtensor, scale = partial_avg_as_sum(dtensor)
            assert scale == 1 / math.prod(averaged)
            outcomes["avg"] += 1
        if case["order"] is None:
            with pytest.raises(ShardingError, match="interleaved"):
                to_tensor_sharding(dtensor, rank, shape=shape)
            outcomes["interleaved"] += 1
            continue
        sharding, mesh = to_tensor_sharding(dtensor, rank)
        regions = layout.device_slices(shape, sharding, mesh)
        ragged = any(
            not np.array_equal(held, np.arange(s.start, s.stop))
            for device, indices in dtensor_regions(dtensor, shape).items()
            for held, s in zip(indices, regions[device], strict=True)
        )
        if ragged:
            with pytest.raises(ShardingError, match="ragged"):
                to_tensor_sharding(dtensor, rank, shape=shape)
            outcomes["ragged"] += 1
            continue
        assert to_tensor_sharding(dtensor, rank, shape=shape) == (sharding, mesh)
        assert_same_data(dtensor, sharding, mesh, shape)
        back = from_tensor_sharding(sharding, mesh, shape=shape)
        assert named(back) == named(dtensor.normalized(rank))
        outcomes["converted"] += 1
    assert outcomes["converted"] >= 200 and outcomes["ragged"] >= 20, outcomes
    assert outcomes["interleaved"] >= 20 and outcomes["avg"] >= 20, outcomes


# -- round trips on random shardings -------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_sharding_to_dtensor_and_back(data):
    mesh = data.draw(meshes(max_axes=3, max_devices=32))
    shape = data.draw(shapes(max_rank=3))
    sharding = data.draw(shardings(mesh, len(shape), inline=False))
    dtensor = from_tensor_sharding(sharding, mesh, drop_hints=True)
    assert DTensorSharding.parse(str(dtensor)) == dtensor
    # The same sharding on the same mesh, less what changes no data.
    plain = TensorSharding(
        "mesh",
        tuple(type(d)(d.axes) for d in sharding.dims),
        unreduced=sharding.unreduced,
        reduction=sharding.reduction,
    )
    # A size-1 axis may sit anywhere in a dim's order: split factors of 1 cannot say where.
    ordered = all(a.size(mesh) > 1 for d in sharding.dims if len(d.axes) > 1 for a in d.axes)
    results = [to_tensor_sharding(dtensor, len(shape), mesh=mesh)]
    if mesh.axes:  # (a mesh without axes is one DTensor mesh dim of size 1)
        results.append(to_tensor_sharding(dtensor, len(shape)))
    for result, result_mesh in results:
        assert result_mesh == mesh
        assert result == plain if ordered else layout.equivalent(result, plain, mesh, shape)
    even = all(
        n % d.sharded_size(mesh) == 0 or len(d.axes) <= 1
        for n, d in zip(shape, sharding.dims, strict=True)
    )
    if even or mesh.is_maximal:
        assert from_tensor_sharding(sharding, mesh, shape=shape, drop_hints=True) == dtensor
        assert_same_data(dtensor, plain, mesh, shape)
    else:
        try:
            from_tensor_sharding(sharding, mesh, shape=shape, drop_hints=True)
        except ShardingError as e:
            assert "ragged" in str(e)
        else:  # several axes on an uneven dim that still chunk alike (e.g. 1 row)
            assert_same_data(dtensor, plain, mesh, shape)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_dtensor_to_sharding_and_back(data):
    """Random placements (any order of the mesh dims on a tensor dim, as `_StridedShard`s)."""
    sizes = data.draw(st.lists(st.sampled_from((1, 2, 2, 3, 4)), min_size=1, max_size=3))
    names = data.draw(st.none() | st.just(("a", "b", "c")[: len(sizes)]))
    devices = data.draw(st.none() | st.permutations(range(math.prod(sizes))).map(tuple))
    spec = DeviceMeshSpec(sizes, names, devices)
    rank = data.draw(st.integers(1, 3))
    where = data.draw(st.lists(st.integers(-3, rank - 1), min_size=len(sizes), max_size=len(sizes)))
    reduction = data.draw(st.sampled_from(("sum", "max", "min")))
    orders = {
        d: data.draw(st.permutations([m for m, w in enumerate(where) if w == d]))
        for d in range(rank)
    }
    placements = [
        Shard(w) if w >= 0 else Replicate() if w == -1 else Partial(reduction) for w in where
    ]
    dtensor = DTensorSharding(spec, placements).with_shard_order(orders)
    if 1 not in sizes:  # (a mesh dim of size 1 may sit anywhere in an order)
        assert [list(o) for o in dtensor.shard_order(rank)] == [orders[d] for d in range(rank)]
    sharding, mesh = to_tensor_sharding(dtensor, rank)
    assert [len(d.axes) for d in sharding.dims] == [len(orders[d]) for d in range(rank)]
    assert named(from_tensor_sharding(sharding, mesh)) == named(dtensor)
    shape = tuple(
        data.draw(st.integers(0, 9)) if len(orders[d]) <= 1 else 2 * math.prod(sizes)
        for d in range(rank)
    )
    assert_same_data(dtensor, sharding, mesh, shape)
    # Any shape: the same data, or a ragged dim where DTensor's step-by-step chunks differ.
    shape = tuple(data.draw(st.integers(0, 13)) for _ in range(rank))
    regions = layout.device_slices(shape, sharding, mesh)
    same = all(
        np.array_equal(indices, np.arange(s.start, s.stop))
        for device, held in dtensor_regions(dtensor, shape).items()
        for indices, s in zip(held, regions[device], strict=True)
    )
    if same:
        assert to_tensor_sharding(dtensor, rank, shape=shape) == (sharding, mesh)
        assert_same_data(dtensor, sharding, mesh, shape)
    else:
        assert any(
            len(o) > 1 and shape[d] % math.prod(sizes[m] for m in o) for d, o in orders.items()
        )
        with pytest.raises(ShardingError, match="ragged"):
            to_tensor_sharding(dtensor, rank, shape=shape)
        with pytest.raises(ShardingError, match="ragged"):
            from_tensor_sharding(sharding, mesh, shape=shape)


def test_sub_axes_are_mesh_dims_named_after_them():
    mesh = Mesh({"x": 8, "y": 3}, device_ids=np.random.default_rng(0).permutation(24))
    sharding = TensorSharding.parse('<@mesh, [{"x":(2)2, "y"}, {"x":(1)2}], unreduced={"x":(4)2}>')
    dtensor = from_tensor_sharding(sharding, mesh)
    assert str(dtensor).startswith('mesh=(2, 2, 2, 3) names=("x:(1)2", "x:(2)2", "x:(4)2", y)')
    assert dtensor.placements == (Shard(1), Shard(0), Partial("sum"), Shard(0))
    assert to_tensor_sharding(dtensor, 2) == (sharding, mesh)
    assert_same_data(dtensor, sharding, mesh, (12, 6))
    # Dims of another mesh over the same devices are found by how they order them.
    renamed = DeviceMeshSpec(dtensor.device_mesh.shape, ("p", "q", "r", "s"), mesh.device_ids)
    assert to_tensor_sharding(DTensorSharding(renamed, dtensor.placements), 2, mesh=mesh) == (
        sharding,
        mesh,
    )
    # Mesh dims of size 1 take distinct size-1 axes, of their own name first.
    ones = DTensorSharding.parse("mesh=(1, 1, 2) names=(b, a, c) placements=(S(0), S(0), S(0))")
    onto = Mesh({"a": 1, "b": 1, "z": 2})
    assert str(to_tensor_sharding(ones, 1, mesh=onto)[0]) == (
        '#sdy.sharding<@mesh, [{"b", "a", "z"}]>'
    )


# -- the essay's worked examples and DTensor's documented tables ---------------------------


def test_fsdp_and_tp_on_one_dim_is_a_strided_shard():
    """FSDP over TP on a weight's rows: TP must shard first (major) so that undoing FSDP
    leaves the TP shards; DTensor says so with `_StridedShard`, Shardy with the axis order.
    DTensor's table: rank (dp=0, tp=1) holds shard 2 (rows 4-5) of 8 rows."""
    dtensor = DTensorSharding.parse(
        "mesh=(2, 2) names=(dp, tp) placements=(_StridedShard(0, split_factor=2), Shard(0))"
    )
    sharding, mesh = to_tensor_sharding(dtensor, 2, shape=(8, 8))
    assert str(sharding) == '#sdy.sharding<@mesh, [{"tp", "dp"}, {}]>'
    rows = {d: dtensor.local_shape_and_global_offset((8, 8), d)[1][0] for d in range(4)}
    assert rows == {0: 0, 1: 4, 2: 2, 3: 6}
    assert_same_data(dtensor, sharding, mesh, (8, 8))
    default = DTensorSharding.parse("mesh=(2, 2) names=(dp, tp) placements=(Shard(0), Shard(0))")
    assert str(to_tensor_sharding(default, 2)[0]) == '#sdy.sharding<@mesh, [{"dp", "tp"}, {}]>'
    # DTensor's own example: mesh dims [4, 3, 2] sharding one dim in the order 2, 0, 1.
    three = DTensorSharding.parse(
        "mesh=(4, 3, 2) names=(a, b, c) placements=(_S(0, 2), _S(0, 2), S(0))"
    )
    assert str(to_tensor_sharding(three, 1)[0]) == '#sdy.sharding<@mesh, [{"c", "a", "b"}]>'


def test_uneven_fsdp_is_the_padded_layout_without_padding():
    """Parameters whose size the cluster does not divide: `torch.chunk` gives 5 rows to 4
    ranks as 2, 2, 1, 0, the rows the padded layout gives, which pads every shard to 2."""
    dtensor = DTensorSharding.parse("mesh=(4,) names=(fsdp,) placements=(Shard(0),)")
    sharding, mesh = to_tensor_sharding(dtensor, 1, shape=(5,))
    got = [dtensor.local_shape_and_global_offset((5,), d) for d in range(4)]
    assert got == [((2,), (0,)), ((2,), (2,)), ((1,), (4,)), ((0,), (5,))]
    assert layout.local_shape((5,), sharding, mesh) == (2,)
    assert_same_data(dtensor, sharding, mesh, (5,))
    six = [dtensor.local_shape_and_global_offset((6,), d)[0] for d in range(4)]
    assert six == [(2,), (2,), (2,), (0,)]


@pytest.mark.parametrize(
    ("n", "dtensor_shards", "padded_shards"),
    [
        (5, [(2, 0), (1, 2), (1, 3), (1, 4)], [(2, 0), (2, 2), (1, 4), (0, 5)]),
        (6, [(2, 0), (1, 2), (2, 3), (1, 5)], [(2, 0), (2, 2), (2, 4), (0, 6)]),
    ],
)
def test_nested_uneven_shards_are_ragged(n, dtensor_shards, padded_shards):
    """Two mesh dims on one dim they do not divide: DTensor chunks step by step, the padded
    layout at once; no TensorSharding holds DTensor's shards."""
    dtensor = DTensorSharding.parse("mesh=(2, 2) placements=(Shard(0), Shard(0))")
    got = [dtensor.local_shape_and_global_offset((n,), d) for d in range(4)]
    assert [(s[0], o[0]) for s, o in got] == dtensor_shards
    sharding, mesh = to_tensor_sharding(dtensor, 1)  # the placements alone: exact when even
    regions = layout.device_slices((n,), sharding, mesh)
    assert [(r[0].stop - r[0].start, r[0].start) for r in regions.values()] == padded_shards
    with pytest.raises(ShardingError, match=r"device 1 \[2, 3\).*ragged"):
        to_tensor_sharding(dtensor, 1, shape=(n,))
    with pytest.raises(ShardingError, match="ragged"):
        from_tensor_sharding(sharding, mesh, shape=(n,))
    seven = DTensorSharding.parse("mesh=(4,) placements=(Shard(0),)")
    assert_same_data(seven, *to_tensor_sharding(seven, 1, shape=(7,)), (7,))


def test_dtensor_docstring_table():
    """`compute_local_shape_and_global_offset`'s table: a 2x5 tensor, (Shard(1), Shard(1))
    on (DP=2, TP=2)."""
    dtensor = DTensorSharding.parse("mesh=(2, 2) names=(DP, TP) placements=(S(1), S(1))")
    got = [dtensor.local_shape_and_global_offset((2, 5), d) for d in range(4)]
    assert got == [((2, 2), (0, 0)), ((2, 1), (0, 2)), ((2, 1), (0, 3)), ((2, 1), (0, 4))]
    array = np.array([[0, 1, 2, 3, 4], [10, 11, 12, 13, 14]])
    assert dtensor.local_tensors(array)[1].tolist() == [[2], [12]]


def test_delayed_reduction_is_unreduced():
    """A matmul whose operands are sharded on the contraction dim leaves partial sums:
    `Partial()` on the mesh dim, `unreduced` in Shardy; the local products reduce to the
    product through `layout.unshard`."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((4, 8)), rng.standard_normal((8, 3))
    cols = DTensorSharding.parse("mesh=(2, 2) names=(dp, tp) placements=(S(0), S(1))")
    rows = DTensorSharding.parse("mesh=(2, 2) names=(dp, tp) placements=(R, S(0))")
    out = DTensorSharding.parse("mesh=(2, 2) names=(dp, tp) placements=(S(0), P)")
    sharding, mesh = to_tensor_sharding(out, 2, shape=(4, 3))
    assert str(sharding) == '#sdy.sharding<@mesh, [{"dp"}, {}], unreduced={"tp"}>'
    la, lb = cols.local_tensors(a), rows.local_tensors(b)
    partial = {d: la[d] @ lb[d] for d in range(4)}
    np.testing.assert_allclose(layout.unshard(partial, sharding, mesh, (4, 3)), a @ b)
    assert from_tensor_sharding(sharding, mesh) == out
    maxed = DTensorSharding.parse("mesh=(2, 2) names=(dp, tp) placements=(P(max), P(max))")
    assert str(to_tensor_sharding(maxed, 1)[0]) == (
        '#sdy.sharding<@mesh, [{}], unreduced=max{"dp", "tp"}>'
    )


def test_flattened_replicate_shard_is_interleaved():
    """Flattening (batch, sequence) with the sequence sharded gives each rank stripes of
    the flat dim: `_StridedShard(0, split_factor=batch)`, which DTensor lays out and no
    TensorSharding holds."""
    batch, seq = 3, 4
    spec = DTensorSharding.parse("mesh=(2,) names=(sp,) placements=(S(1),)")
    flat = DTensorSharding.parse(f"mesh=(2,) names=(sp,) placements=(_S(0, {batch}),)")
    array = np.arange(batch * seq).reshape(batch, seq)
    for device, local in spec.local_tensors(array).items():
        np.testing.assert_array_equal(flat.local_tensors(array.reshape(-1))[device], local.ravel())
    with pytest.raises(ShardingError, match="interleaved rows"):
        to_tensor_sharding(flat, 1)


def test_partial_avg_is_a_scaled_sum():
    """Partial(avg) over dp and Partial(sum) over tp: the value is the sum over all ranks of
    the local values over 2; scaled by 1/2, the locals are Partial(sum) everywhere."""
    dtensor = DTensorSharding.parse("mesh=(2, 3) placements=(P(avg), P(sum))")
    summed, scale = partial_avg_as_sum(dtensor)
    assert summed.placements == (Partial("sum"), Partial("sum")) and scale == 0.5
    sharding, mesh = to_tensor_sharding(summed, 1)
    locals_ = {d: np.random.default_rng(d).standard_normal(4) for d in range(6)}
    value = sum(locals_.values()) / 2
    scaled = {d: local * scale for d, local in locals_.items()}
    np.testing.assert_allclose(layout.unshard(scaled, sharding, mesh, (4,)), value)


# -- what has no equivalent ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mesh=(2,) placements=(Partial(product),)", r"Partial\(product\) has no equivalent"),
        ("mesh=(2,) placements=(Partial(bxor),)", r"Partial\(bxor\) has no equivalent"),
        ("mesh=(2,) placements=(_S(0, 2),)", "interleaved rows"),
        ("mesh=(2,) placements=(S(2),)", "shards dim 2 of a rank-2 tensor"),
        ("mesh=(2,) devices=(4, 5) placements=(S(0),)", "renumber the ranks"),
    ],
)
def test_dtensor_without_equivalent(text, message):
    with pytest.raises(ShardingError, match=message):
        to_tensor_sharding(DTensorSharding.parse(text), 2)


def test_shard_order_must_name_the_mesh_dims_splitting_the_dim():
    dtensor = DTensorSharding.parse("mesh=(2, 2) placements=(S(0), R)")
    with pytest.raises(ShardingError, match=r"shard order \[1, 0\] of dim 0: .* are \[0\]"):
        dtensor.with_shard_order({0: [1, 0]})


@pytest.mark.parametrize("placement", ["RaggedShard(0, (1, 3))", "InterleavedShard(0, 2)"])
def test_placements_of_extensions_have_no_equivalent(placement):
    with pytest.raises(ShardingError, match=r"has no equivalent: .*(any size|contiguous block)"):
        DTensorSharding.parse(f"mesh=(2,) placements=({placement},)")


def test_torch_objects_are_read_by_their_attributes():
    """(`scripts/record_dtensor_fixtures.py` reads every recorded case with `from_torch` from
    torch's real objects and checks `torch_placements` gives them back.)"""
    from types import SimpleNamespace

    from shardonnay.interop.dtensor import from_torch

    def placement(name: str, **attributes):
        return type(name, (), attributes)()

    mesh = SimpleNamespace(mesh=np.array([[3, 1], [2, 0]]), mesh_dim_names=None)
    got = from_torch(
        mesh,
        [placement("_StridedShard", dim=1, split_factor=2), placement("Partial", reduce_op="max")],
    )
    assert str(got) == (
        "mesh=(2, 2) devices=(3, 1, 2, 0) placements=(_StridedShard(1, split_factor=2), "
        "Partial(max))"
    )
    with pytest.raises(ShardingError, match="_MaskPartial has no equivalent: partial values"):
        from_torch(mesh, [placement("_MaskPartial"), placement("Replicate")])
    with pytest.raises(ShardingError, match="unknown placement .* expected Shard"):
        from_torch(mesh, [placement("Sharded", dim=0), placement("Replicate")])


def test_sharding_without_equivalent():
    mesh = Mesh({"x": 2, "y": 2})
    for text, what in [('<@mesh, [{"x", ?}]>', "open"), ('<@mesh, [{"x"}p1]>', "prioritized")]:
        sharding = TensorSharding.parse(text)
        with pytest.raises(ShardingError, match=f"dim 0 of .* is {what}.*drop_hints=True"):
            from_tensor_sharding(sharding, mesh)
        assert from_tensor_sharding(sharding, mesh, drop_hints=True).placements == (
            Shard(0),
            Replicate(),
        )
    other = DeviceMeshSpec((4,), ("z",))
    with pytest.raises(ShardingError, match=r"mesh dim 0 \(z\) orders the devices as no axis"):
        to_tensor_sharding(DTensorSharding(other, (Shard(0),)), 1, mesh=Mesh({"x": 2, "y": 2}))
    with pytest.raises(ShardingError, match="mixed Partial reductions"):
        DTensorSharding(DeviceMeshSpec((2, 2)), (Partial("sum"), Partial("max")))


def test_negative_dims_and_inlined_meshes():
    dtensor = DTensorSharding.parse("mesh=(2, 3) names=(a, b) placements=(Shard(-1), Shard(0))")
    assert dtensor.normalized(2).placements == (Shard(1), Shard(0))
    sharding, mesh = to_tensor_sharding(dtensor, 2, mesh_name=None)
    assert sharding.mesh == mesh
    assert str(sharding) == '#sdy.sharding<mesh<["a"=2, "b"=3]>, [{"b"}, {"a"}]>'
    assert from_tensor_sharding(sharding) == dtensor.normalized(2)
    assert_same_data(dtensor.normalized(2), sharding, None, (3, 5))


def test_one_device_meshes():
    pinned = Mesh((), device_ids=[3])
    dtensor = from_tensor_sharding(TensorSharding("mesh", ()), pinned)
    assert str(dtensor) == "mesh=(1,) devices=(3,) placements=(Replicate(),)"
    assert to_tensor_sharding(dtensor, 2) == (TensorSharding("mesh", ()), pinned)
    assert_same_data(dtensor, TensorSharding("mesh", ()), pinned, (2, 3))


# -- text ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("mesh=(8) placements=(Shard(dim=-1))", "mesh=(8,) placements=(Shard(-1),)"),
        (
            'mesh=[2, 2] names=["dp", tp] placements=[_StridedShard(dim=0, sf=2), S(0)]',
            "mesh=(2, 2) names=(dp, tp) placements=(_StridedShard(0, split_factor=2), Shard(0))",
        ),
        (
            'mesh=(2, 3) devices=(5, 4, 3, 2, 1, 0) placements=(R, Partial(reduce_op="max"))',
            "mesh=(2, 3) devices=(5, 4, 3, 2, 1, 0) placements=(Replicate(), Partial(max))",
        ),
        ("mesh=(2,) placements=(P(),)", "mesh=(2,) placements=(Partial(sum),)"),
        (
            'mesh=(4,) names=("x:(1)4",) placements=(P,)',
            'mesh=(4,) names=("x:(1)4",) placements=(Partial(sum),)',
        ),
    ],
)
def test_text_forms(text, canonical):
    parsed = DTensorSharding.parse(text)
    assert str(parsed) == canonical
    assert DTensorSharding.parse(canonical) == parsed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mesh=(2,) placements=(Foo(0),)", "unknown placement 'Foo'"),
        ("mesh=(2,) placements=(Shard(0, 1),)", r"Shard takes 1 argument\(s\): dim"),
        ("mesh=(2,) placements=(Shard(sf=1),)", "unexpected keyword 'sf'"),
        ("mesh=(2,) placements=(Shard(x),)", "Shard takes integers"),
        ("mesh=(2,) placements=(Partial(mean),)", "unknown reduce_op 'mean'"),
        ("mesh=(2,) placements=(_S(0, 0),)", "split_factor must be at least 1"),
        ("mesh=(2, 2) placements=(S(0),)", "1 placements for a DeviceMesh of 2 dims"),
        ("mesh=(2,) names=(a, b) placements=(S(0),)", "must name each of the 1 mesh dims"),
        ("mesh=(2,) devices=(0, 0) placements=(S(0),)", "distinct non-negative ranks"),
        ("mesh=(2,) placements=(S(0),) extra", "unexpected text after the end"),
        ("placements=(S(0),)", "expected 'mesh='"),
    ],
)
def test_bad_text(text, message):
    with pytest.raises(ParseError, match=message):
        DTensorSharding.parse(text)


# -- the command ---------------------------------------------------------------------------


def test_convert_command_reads_and_writes_dtensor(capsys):
    from shardonnay.cli import main

    fsdp_tp = "mesh=(2, 2) names=(dp, tp) placements=(_StridedShard(0, split_factor=2), Shard(0))"
    args = ["convert", "--sharding", fsdp_tp, "--from", "dtensor", "--shape", "8x8"]
    assert main(args) == 0
    assert capsys.readouterr().out == (
        'sdy.mesh @mesh = <["dp"=2, "tp"=2]>\n#sdy.sharding<@mesh, [{"tp", "dp"}, {}]>\n'
    )
    sdy = '<@mesh, [{"y", "x"}, {}], unreduced=max{"z"}>'
    args = ["convert", "--sharding", sdy, "--mesh", '<["x"=2, "y"=4, "z"=2]>', "--from", "sdy"]
    assert main([*args, "--to", "dtensor", "--shape", "16x3"]) == 0
    assert capsys.readouterr().out == (
        "mesh=(2, 4, 2) names=(x, y, z) "
        "placements=(_StridedShard(0, split_factor=4), Shard(0), Partial(max))\n"
    )
    # Onto a given mesh: the DeviceMesh's dims found among its (sub-)axes.
    args = ["convert", "--sharding", "mesh=(2, 2) placements=(S(0), R)", "--from", "dtensor"]
    assert main([*args, "--mesh", '<["x"=4]>', "--shape", "8"]) == 0
    assert capsys.readouterr().out.endswith('#sdy.sharding<@mesh, [{"x":(1)2}]>\n')


def test_convert_command_says_why_not(capsys):
    from shardonnay.cli import main

    args = ["convert", "--sharding", "mesh=(2, 2) placements=(S(0), S(0))", "--from", "dtensor"]
    assert main([*args, "--to", "gspmd", "--shape", "5"]) == 1
    assert "error: dim 0 (size 5) is split by several mesh dims" in capsys.readouterr().err
    assert main([*args[:2], "mesh=(2,) placements=(Shard(0)", *args[3:], "--shape", "4"]) == 1
    assert "error: <string>:1:" in capsys.readouterr().err
