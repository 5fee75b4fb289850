"""ONNX sharding specs <-> TensorSharding: the conversion is checked against an
independent reading of the ONNX spec (written from the formalism's text, not
from shardonnay's code) and `layout.device_slices`."""

from __future__ import annotations

import itertools
import math
import re

import onnx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shardonnay import Mesh, TensorSharding, layout
from shardonnay.errors import ShardingError
from shardonnay.interop.onnx.specs import (
    ShardingSpec,
    mesh_for_specs,
    replicated_spec,
    sharding_to_spec,
    spec_to_sharding,
)
from shardonnay.testing.strategies import meshes, shapes, shardings


def onnx_reading(proto: onnx.ShardingSpecProto, shape) -> dict[int, tuple[slice, ...]]:
    """What each device holds under `proto`, read from the ONNX proposal:
    "device[i] holds shard i"; shards are numbered row-major over the
    `sharded_dim` entries in the order listed (first listed = outer loop); a
    `device` entry that is a key of `index_to_device_group_map` is that group
    of devices; a dim of size d in n shards is cut in blocks of ceil(d / n)."""
    groups = {entry.key: list(entry.value) for entry in proto.index_to_device_group_map}
    sharded = [(d.axis % len(shape), d.simple_sharding[0].num_shards) for d in proto.sharded_dim]
    held = {}
    shard_indices = itertools.product(*(range(n) for _, n in sharded))
    for entry, shard in zip(proto.device, shard_indices, strict=True):
        region = [slice(0, size) for size in shape]
        for (axis, n), i in zip(sharded, shard, strict=True):
            block = math.ceil(shape[axis] / n)
            region[axis] = slice(min(i * block, shape[axis]), min((i + 1) * block, shape[axis]))
        for device in groups.get(entry, [entry]):
            assert device not in held, f"device {device} holds two shards"
            held[device] = tuple(region)
    return held


def _without_unreduced(s: TensorSharding) -> TensorSharding:
    return TensorSharding(s.mesh, s.dims, s.replicated)


@st.composite
def cases(draw):
    mesh = draw(meshes(max_axes=3, max_devices=16))
    shape = draw(shapes(max_rank=3))
    sharding = _without_unreduced(draw(shardings(mesh, len(shape))))
    return mesh, sharding, shape


@settings(max_examples=150, deadline=None)
@given(cases())
def test_spec_written_from_a_sharding_puts_every_device_where_layout_does(case):
    mesh, sharding, shape = case
    proto = sharding_to_spec("T", sharding, mesh, shape).to_proto()
    proto = onnx.ShardingSpecProto.FromString(proto.SerializeToString())
    assert onnx_reading(proto, shape) == layout.device_slices(shape, sharding, mesh)


@settings(max_examples=150, deadline=None)
@given(cases())
def test_spec_read_back_is_the_same_layout_and_the_same_spec(case):
    mesh, sharding, shape = case
    spec = sharding_to_spec("T", sharding, mesh, shape)
    back = spec_to_sharding(ShardingSpec.from_proto(spec.to_proto()), shape, mesh)
    assert layout.equivalent(back, sharding, mesh, shape)
    assert sharding_to_spec("T", back, mesh, shape) == spec


@settings(max_examples=100, deadline=None)
@given(cases())
def test_a_mesh_built_from_the_spec_alone_holds_the_same_data(case):
    mesh, sharding, shape = case
    spec = sharding_to_spec("T", sharding, mesh, shape)
    built = mesh_for_specs([spec], mesh.size)
    on_built = spec_to_sharding(spec, shape, built)
    assert layout.device_slices(shape, on_built, built) == onnx_reading(spec.to_proto(), shape)


def test_the_proposals_input1_spec_is_a_replicated_row_split():
    # device = [-1, -2], device_map = {-1: [0, 1], -2: [2, 3]}, axis 0 in 2 shards
    spec = ShardingSpec("Input1", (-1, -2), ((-1, (0, 1)), (-2, (2, 3))), ((0, 2),))
    mesh = Mesh({"x": 2, "y": 2})
    sharding = spec_to_sharding(spec, (8, 1), mesh)
    assert str(sharding) == '#sdy.sharding<@mesh, [{"x"}, {}]>'
    assert layout.device_slices((8, 1), sharding, mesh) == onnx_reading(spec.to_proto(), (8, 1))


def test_groups_in_another_order_become_the_minor_axis():
    spec = ShardingSpec("Input2", (-1, -2), ((-1, (0, 2)), (-2, (1, 3))), ((1, 2),))
    sharding = spec_to_sharding(spec, (1, 6), Mesh({"x": 2, "y": 2}))
    assert str(sharding) == '#sdy.sharding<@mesh, [{}, {"y"}]>'


def test_a_transposed_device_order_uses_both_axes_minor_first():
    spec = ShardingSpec("T", (0, 2, 1, 3), (), ((0, 4),))
    sharding = spec_to_sharding(spec, (8,), Mesh({"x": 2, "y": 2}))
    assert str(sharding) == '#sdy.sharding<@mesh, [{"y", "x"}]>'


def test_sub_axes_where_a_dim_takes_part_of_an_axis():
    spec = ShardingSpec("T", (-1, -2), ((-1, (0, 1, 2, 3)), (-2, (4, 5, 6, 7))), ((1, 2),))
    sharding = spec_to_sharding(spec, (3, 8), Mesh({"x": 8}))
    assert str(sharding) == '#sdy.sharding<@mesh, [{}, {"x":(1)2}]>'
    assert sharding_to_spec("T", sharding, Mesh({"x": 8}), (3, 8)) == spec


def test_proto_round_trip_keeps_dim_value_and_dim_param():
    proto = onnx.ShardingSpecProto(tensor_name="T", device=[0, 1])
    dim = proto.sharded_dim.add(axis=-1)
    dim.simple_sharding.add(num_shards=2, dim_param="N")
    spec = ShardingSpec.from_proto(proto)
    assert spec.dim_sizes == ("N",) and spec.dims == ((-1, 2),)
    assert spec.to_proto() == proto


def test_replicated_spec_is_one_group_of_all_devices():
    spec = replicated_spec("W", range(4))
    mesh = Mesh({"x": 4})
    assert spec_to_sharding(spec, (5,), mesh) == TensorSharding.from_axes("mesh", [None])


@pytest.mark.parametrize(
    "spec, message",
    [
        (ShardingSpec("T", (0, 3, 1, 2), (), ((0, 4),)), "follow no order"),
        (ShardingSpec("T", (0, 1), (), ((0, 2),)), "leaves device(s) [2, 3]"),
        (ShardingSpec("T", (0, 0, 1, 2), (), ((0, 4),)), "holds several shards"),
        (ShardingSpec("T", (0, 1, 2), (), ((0, 4),)), "3 device entries for 4 shards"),
        (ShardingSpec("T", (0, 1, 2, 3), (), ((2, 4),)), "out of range for rank 1"),
        (ShardingSpec("T", (-1,), ((-2, (0, 1)),), ()), "neither a device id"),
    ],
)
def test_specs_no_sharding_expresses(spec, message):
    with pytest.raises(ShardingError, match=re.escape(message)):
        spec_to_sharding(spec, (8,), Mesh({"x": 2, "y": 2}))


def test_specs_that_need_two_device_orders_have_no_common_mesh():
    a = ShardingSpec("A", (0, 1, 2, 3), (), ((0, 4),))
    b = ShardingSpec("B", (0, 3, 1, 2), (), ((0, 4),))
    mesh_for_specs([b], 4)  # each alone has a mesh
    with pytest.raises(ShardingError, match="no 4-device mesh expresses every spec"):
        mesh_for_specs([a, b], 4)


def test_partial_values_have_no_spec():
    mesh = Mesh({"x": 2})
    s = TensorSharding.from_axes("mesh", [None], unreduced=["x"])
    with pytest.raises(ShardingError, match="no unreduced state"):
        sharding_to_spec("P", s, mesh, (4,))


def test_several_simple_shardings_per_dim_are_refused():
    proto = onnx.ShardingSpecProto(tensor_name="T", device=[0, 1, 2, 3])
    dim = proto.sharded_dim.add(axis=0)
    dim.simple_sharding.add(num_shards=2)
    dim.simple_sharding.add(num_shards=2)
    with pytest.raises(ShardingError, match="2 simple_sharding entries"):
        ShardingSpec.from_proto(proto)
