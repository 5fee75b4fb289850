"""The semantics of a sharding: which part of the global array each device holds."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shardonnay import LayoutError, Mesh, ShardingError, TensorSharding
from shardonnay.layout import device_slices, equivalent, local_shape, shard, unshard
from shardonnay.testing.strategies import meshes, shapes, shardings

MESH = Mesh({"x": 2, "y": 4})


def S(text: str) -> TensorSharding:
    return TensorSharding.parse(text)


def regions(shape, sharding, mesh):
    return {
        d: tuple((s.start, s.stop) for s in r)
        for d, r in device_slices(shape, sharding, mesh).items()
    }


# -- worked examples ----------------------------------------------------------------


def test_two_dims_sharded_on_a_2x4_mesh():
    s = S('<@mesh, [{"x"}, {"y"}]>')
    assert local_shape((8, 8), s, MESH) == (4, 2)
    r = regions((8, 8), s, MESH)
    assert r[0] == ((0, 4), (0, 2)) and r[3] == ((0, 4), (6, 8)) and r[5] == ((4, 8), (2, 4))


def test_axes_in_one_dim_are_major_to_minor():
    # {"y", "x"}: y is major, so devices along x hold neighbouring shards.
    r = regions((16,), S('<@mesh, [{"y", "x"}]>'), MESH)
    # device 1 is at (x=0, y=1): shard index y*2 + x = 2
    assert r[1] == ((4, 6),) and r[4] == ((2, 4),) and r[0] == ((0, 2),)


def test_uneven_dim_is_split_with_padding_at_the_end():
    s = S('<@mesh, [{"y"}]>')
    assert local_shape((5,), s, MESH) == (2,)
    r = regions((5,), s, MESH)
    assert [r[d] for d in range(4)] == [((0, 2),), ((2, 4),), ((4, 5),), ((5, 5),)]
    buffers = shard(np.arange(5.0), s, MESH)
    assert buffers[2].tolist() == [4.0, 0.0] and buffers[3].tolist() == [0.0, 0.0]


def test_sub_axis_shards_by_its_part_of_the_axis():
    # "y":(2)2 on y=4 is the minor factor: coordinate y % 2.
    r = regions((4,), S('<@mesh, [{"y":(2)2}]>'), MESH)
    assert [r[d][0] for d in range(4)] == [(0, 2), (2, 4), (0, 2), (2, 4)]
    r = regions((4,), S('<@mesh, [{"y":(1)2}]>'), MESH)
    assert [r[d][0] for d in range(4)] == [(0, 2), (0, 2), (2, 4), (2, 4)]


def test_sub_axes_in_two_dims_tile_like_the_whole_axis_split_in_two():
    whole = shard(np.arange(16).reshape(4, 4), S('<@mesh, [{"y":(1)2}, {"y":(2)2}]>'), MESH)
    assert whole[0].tolist() == [[0, 1], [4, 5]] and whole[3].tolist() == [[10, 11], [14, 15]]


def test_non_iota_device_ids_move_data_between_devices():
    mesh = Mesh.parse('<["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>')
    r = regions((6,), S('<@m, [{"a", "b"}]>'), mesh)
    assert [r[d][0][0] for d in (0, 2, 4, 1, 3, 5)] == [0, 1, 2, 3, 4, 5]


def test_replicated_and_implicit_axes_hold_the_same_data():
    x = np.arange(8.0)
    for text in ['<@mesh, [{"x"}], replicated={"y"}>', '<@mesh, [{"x"}]>']:
        buffers = shard(x, S(text), MESH)
        assert all(np.array_equal(buffers[d], buffers[0]) for d in range(4))


def test_rank_zero_tensor_is_on_every_device():
    buffers = shard(np.float32(3.5), S("<@mesh, []>"), MESH)
    assert set(buffers) == set(range(8)) and all(
        b.shape == () and b == 3.5 for b in buffers.values()
    )
    assert unshard(buffers, S("<@mesh, []>"), MESH, ()) == np.float32(3.5)


def test_maximal_mesh_puts_the_whole_tensor_on_one_device():
    mesh = Mesh.parse("<[], device_ids=[5]>")
    x = np.arange(6).reshape(2, 3)
    buffers = shard(x, S("<@m, []>"), mesh)
    assert list(buffers) == [5] and np.array_equal(buffers[5], x)
    assert np.array_equal(unshard(buffers, S("<@m, []>"), mesh, x.shape), x)


def test_size_one_axis_changes_nothing():
    mesh = Mesh({"one": 1, "x": 2})
    x = np.arange(6)
    assert regions((6,), S('<@m, [{"one", "x"}]>'), mesh) == regions((6,), S('<@m, [{"x"}]>'), mesh)
    assert np.array_equal(
        unshard(shard(x, S('<@m, [{"one"}]>'), mesh), S('<@m, [{"one"}]>'), mesh, (6,)), x
    )


def test_dim_of_size_zero():
    s = S('<@mesh, [{"x"}, {}]>')
    assert local_shape((0, 3), s, MESH) == (0, 3)
    assert unshard(shard(np.zeros((0, 3)), s, MESH), s, MESH, (0, 3)).shape == (0, 3)


def test_unreduced_sum_splits_values_into_addends():
    s = S('<@mesh, [{"x"}], unreduced={"y"}>')
    x = np.random.default_rng(0).normal(size=6).astype(np.float32)
    buffers = shard(x, s, MESH)
    assert not np.array_equal(buffers[0], x[:3])  # devices hold addends, not copies
    assert np.array_equal(sum(buffers[d] for d in range(4)), x[:3])
    assert np.array_equal(unshard(buffers, s, MESH, x.shape), x)


def test_unreduced_integers_and_bools_sum_exactly():
    s = S('<@mesh, [{}], unreduced={"x", "y"}>')
    for x in (np.array([-128, 127, 5], dtype=np.int8), np.array([True, False, True])):
        assert np.array_equal(unshard(shard(x, s, MESH), s, MESH, x.shape), x)


def test_unreduced_max_holds_copies():
    mesh = Mesh({"y": 2})
    s = S('<@mesh, [{}], unreduced=max{"y"}>')
    x = np.array([1.0, -2.0])
    buffers = shard(x, s, mesh)
    assert all(np.array_equal(b, x) for b in buffers.values())
    buffers[1] = np.array([0.5, 7.0])  # a smaller addend and a larger one
    assert unshard(buffers, s, mesh, (2,)).tolist() == [1.0, 7.0]


def test_unshard_names_devices_that_disagree():
    s = S('<@mesh, [{"x"}, {}]>')
    buffers = shard(np.arange(8.0).reshape(4, 2), s, MESH)
    buffers[3] = buffers[3].copy()
    buffers[3][1, 1] = -1
    with pytest.raises(LayoutError, match=r"devices 0 and 3 .* global index \(1, 1\)"):
        unshard(buffers, s, MESH, (4, 2))


def test_unshard_ignores_padding_and_checks_shapes_and_devices():
    s = S('<@mesh, [{"y"}]>')
    buffers = shard(np.arange(5.0), s, MESH)
    buffers[3] = np.array([9.0, 9.0])  # all padding
    assert unshard(buffers, s, MESH, (5,)).tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(LayoutError, match="device 0 holds a buffer of shape"):
        unshard({**buffers, 0: np.zeros(3)}, s, MESH, (5,))
    with pytest.raises(LayoutError, match="no buffer for device"):
        unshard({d: b for d, b in buffers.items() if d != 6}, s, MESH, (5,))
    with pytest.raises(LayoutError, match="not in mesh"):
        unshard({**buffers, 99: buffers[0]}, s, MESH, (5,))


def test_invalid_sharding_or_rank_is_rejected():
    with pytest.raises(ShardingError, match="rank"):
        local_shape((4, 4), S('<@mesh, [{"x"}]>'), MESH)
    with pytest.raises(ShardingError, match="duplicate"):
        shard(np.zeros(4), S('<@mesh, [{"x", "x"}]>'), MESH)


def test_equivalent_spellings():
    mesh = Mesh({"x": 4, "y": 2})
    split = S('<@m, [{"x":(1)2}], replicated={"x":(2)2}>')
    assert equivalent(split, S('<@m, [{"x":(1)2}]>'), mesh, (8,)) is True
    assert not equivalent(split, S('<@m, [{"x":(2)2}]>'), mesh, (8,))
    assert equivalent(S('<@m, [{"x", ?}p2]>'), S('<@m, [{"x"}], replicated={"y"}>'), mesh, (8,))
    assert not equivalent(S('<@m, [{"x", "y"}]>'), S('<@m, [{"y", "x"}]>'), mesh, (8,))
    assert not equivalent(S('<@m, [{}], unreduced={"y"}>'), S("<@m, [{}]>"), mesh, (8,))
    # On a dim of size 1 sharding still matters: other devices hold padding.
    assert not equivalent(S('<@m, [{"y"}]>'), S("<@m, [{}]>"), mesh, (1,))
    # Across two meshes over the same devices.
    other = Mesh({"y": 2, "x": 4}, device_ids=[0, 2, 4, 6, 1, 3, 5, 7])
    on_other = TensorSharding(other, S('<@m, [{"x"}]>').dims)
    assert equivalent(on_other, TensorSharding(mesh, S('<@m, [{"x"}]>').dims), None, (8,))


# -- properties ---------------------------------------------------------------------


@st.composite
def sharded_arrays(draw):
    mesh = draw(meshes())
    shape = draw(shapes())
    sharding = draw(shardings(mesh, len(shape)))
    dtype = draw(st.sampled_from([np.float32, np.int32, np.float64]))
    seed = draw(st.integers(0, 2**32 - 1))
    x = np.random.default_rng(seed).normal(scale=100, size=shape).astype(dtype)
    return mesh, sharding, x


@settings(max_examples=300, deadline=None)
@given(sharded_arrays())
def test_unshard_inverts_shard(case):
    mesh, sharding, x = case
    buffers = shard(x, sharding, mesh)
    assert set(buffers) == set(mesh.device_list)
    expected = local_shape(x.shape, sharding, mesh)
    assert all(b.shape == expected for b in buffers.values())
    assert np.array_equal(unshard(buffers, sharding, mesh, x.shape), x)


@settings(max_examples=300, deadline=None)
@given(sharded_arrays())
def test_regions_cover_the_array_once_per_replica_group(case):
    mesh, sharding, x = case
    count = np.zeros(x.shape, dtype=int)
    for region in device_slices(x.shape, sharding, mesh).values():
        count[region] += 1
    dim_axes_size = np.prod([a.size(mesh) for a in sharding.dim_axes()], dtype=int)
    assert np.all(count == mesh.size // dim_axes_size)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_equivalent_agrees_with_comparing_buffers(data):
    mesh = data.draw(meshes(max_devices=16))
    shape = data.draw(shapes())
    a = data.draw(shardings(mesh, len(shape)))
    b = data.draw(st.one_of(shardings(mesh, len(shape)), st.just(a)))
    x = np.random.default_rng(0).normal(size=shape)
    same_buffers = all(
        np.array_equal(p, q)
        for p, q in zip(shard(x, a, mesh).values(), shard(x, b, mesh).values(), strict=True)
    ) and local_shape(shape, a, mesh) == local_shape(shape, b, mesh)
    assert equivalent(a, b, mesh, shape) == same_buffers
