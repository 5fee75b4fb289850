"""`shardonnay.jax` converters against JAX itself.

On hundreds of random meshes (any device order, sizes 1..8, up to 8
devices) and shardings (sub-axes, replicated and unreduced axes, open dims),
the `NamedSharding` we build puts on every device the slices
`shardonnay.layout.device_slices` gives it (JAX's `devices_indices_map`), and
converting it back gives a sharding with the same layout. JAX's own lowering
of our `NamedSharding` (`jax.jit(...).lower`) writes the sharding we started
from. Shapes are multiples of the shard counts: JAX refuses uneven shardings.
"""

from __future__ import annotations

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

jax = pytest.importorskip("jax")

from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardonnay  # noqa: E402
from shardonnay import Mesh, ShardingError, TensorSharding  # noqa: E402
from shardonnay.jax import (  # noqa: E402
    jax_mesh,
    lower,
    mesh_of,
    named_sharding,
    partition_spec,
    sharding_of_spec,
    shardings,
    tensor_sharding,
)
from shardonnay.layout import device_slices  # noqa: E402
from shardonnay.testing.strategies import meshes  # noqa: E402
from shardonnay.testing.strategies import shardings as sharding_strategy  # noqa: E402

pytestmark = pytest.mark.oracle

NAMES = ("x", "y", "z", "data", "model")


@pytest.fixture(scope="module")
def devices() -> list:
    found = jax.devices("cpu")
    if len(found) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS was set after jax was first used)")
    return found[:8]


@st.composite
def cases(draw: st.DrawFn, *, unreduced: bool = True):
    """(mesh, sharding, shape): shardings without priorities, summed if unreduced, and a
    shape of multiples of each dim's shard count."""
    mesh = draw(meshes(3, 8, names=NAMES, min_axes=1))
    rank = draw(st.integers(0, 3))
    s = draw(sharding_strategy(mesh, rank, reductions=("sum",), priorities=False))
    if not unreduced:
        s = dataclasses.replace(s, unreduced=())
    shape = tuple(d.sharded_size(mesh) * draw(st.integers(1, 2)) for d in s.dims)
    return mesh, s, shape


def _regions(mapping, shape) -> dict:
    """Slices as (start, stop) pairs, whatever form they take."""
    return {
        key: tuple(sl.indices(n)[:2] for sl, n in zip(index, shape, strict=True))
        for key, index in mapping.items()
    }


def _without_unreduced(s: TensorSharding) -> TensorSharding:
    return dataclasses.replace(s, unreduced=())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_named_sharding_puts_our_slices_on_every_device(devices, case):
    mesh, s, shape = case
    named = named_sharding(s, mesh, devices)
    assert named.spec.unreduced == {a.name for a in s.unreduced if not a.is_sub_axis} or any(
        a.is_sub_axis for a in s.unreduced
    )
    ours = _regions(device_slices(shape, s, mesh), shape)
    theirs = _regions(
        named_sharding(_without_unreduced(s), mesh, devices).devices_indices_map(shape), shape
    )
    assert theirs == {devices[d]: region for d, region in ours.items()}
    back, back_mesh = tensor_sharding(named, len(shape), devices)
    assert _regions(device_slices(shape, back, back_mesh), shape) == ours
    assert len(back.unreduced) >= len(s.unreduced)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(unreduced=False))
def test_named_sharding_of_a_jax_sharding_has_its_layout(devices, case):
    """From JAX's side: a NamedSharding (on our meshes, so in any device order)
    converted to ours and back is the same NamedSharding."""
    mesh, s, shape = case
    named = named_sharding(s, mesh, devices)
    back, back_mesh = tensor_sharding(named, len(shape), devices)
    again = named_sharding(back, back_mesh, devices)
    assert again.mesh == named.mesh
    assert again.spec == named.spec
    assert again.is_equivalent_to(named, len(shape))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(unreduced=False))
def test_jax_lowers_our_named_sharding_to_our_layout(devices, case):
    """JAX's lowering of our NamedSharding (an sdy.mesh of iota ids, partition
    `d` running on `mesh.devices.flat[d]`) lays the data out as we do."""
    mesh, s, shape = case
    named = named_sharding(s, mesh, devices)
    arg = jax.ShapeDtypeStruct(shape, np.float32, sharding=named)
    module = lower(lambda a: a, arg)
    lowered = module.function("main").arg_attrs(0).get("sdy.sharding")
    if lowered is None:  # JAX leaves replicated and unconstrained arguments unannotated
        assert all(d.sharded_size(mesh) == 1 for d in s.dims)
        return
    partitions = list(named.mesh.devices.flat)
    theirs = device_slices(shape, lowered, module.meshes[lowered.mesh])
    ours = device_slices(shape, s, mesh)
    assert _regions({partitions[d]: r for d, r in theirs.items()}, shape) == _regions(
        {devices[d]: r for d, r in ours.items()}, shape
    )


def test_jax_mesh_keeps_device_order_and_axis_types(devices):
    mesh = Mesh({"x": 2, "y": 4}, device_ids=[7, 6, 5, 4, 3, 2, 1, 0])
    jm = jax_mesh(mesh, devices, axis_types=AxisType.Explicit)
    assert jm.axis_names == ("x", "y")
    assert jm.axis_types == (AxisType.Explicit, AxisType.Explicit)
    assert [d.id for d in jm.devices.flat] == [devices[i].id for i in mesh.device_ids]
    assert mesh_of(jm, devices) == mesh
    assert mesh_of(jax.make_mesh((2, 4), ("x", "y"))) == Mesh({"x": 2, "y": 4})


def test_a_maximal_mesh_is_one_device(devices):
    mesh = Mesh((), device_ids=[3])
    named = named_sharding(TensorSharding(mesh, ()), devices=devices)
    assert list(named.mesh.devices.flat) == [devices[3]]
    assert mesh_of(named.mesh, devices) == mesh


def test_unreduced_axes_are_explicit_in_jax(devices):
    mesh = Mesh({"x": 2, "y": 4})
    s = TensorSharding.parse('<@mesh, [{"x"}, {}], unreduced={"y"}>')
    named = named_sharding(s, mesh, devices)
    assert named.spec == P("x", None, unreduced={"y"})
    assert named.mesh.axis_types == (AxisType.Auto, AxisType.Explicit)
    with pytest.raises(ShardingError, match=r'only of type Explicit; axis "y"'):
        named_sharding(s, mesh, devices, axis_types=AxisType.Auto)
    assert tensor_sharding(named, 2, devices, mesh_name="mesh")[0] == s


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('<@mesh, [{"x"}p1, {}]>', "priority p1"),
        ('<@mesh, [{"x"}, {}], unreduced=max{"y"}>', "pending max"),
    ],
)
def test_what_jax_cannot_say_is_a_sharding_error(devices, text, why):
    with pytest.raises(ShardingError, match=why):
        named_sharding(TensorSharding.parse(text), Mesh({"x": 2, "y": 4}), devices)


def test_partition_spec_of_a_sub_axis_points_to_named_sharding():
    s = TensorSharding.parse('<@mesh, [{"x":(1)2}]>')
    with pytest.raises(ShardingError, match="use named_sharding"):
        partition_spec(s)


def test_open_dims_and_unconstrained():
    s = TensorSharding.parse('<@mesh, [{?}, {"x", ?}, {}]>')
    spec = partition_spec(s)
    assert spec == P(P.UNCONSTRAINED, "x", None)
    assert str(sharding_of_spec(spec, "mesh", 3)) == '#sdy.sharding<@mesh, [{?}, {"x"}, {}]>'


def test_shardings_names_every_value_of_a_lowered_function(devices):
    jm = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    x = jax.ShapeDtypeStruct((8, 16), np.float32, sharding=NamedSharding(jm, P("data")))
    w = jax.ShapeDtypeStruct((16, 32), np.float32, sharding=NamedSharding(jm, P(None, "model")))
    module = shardonnay.propagate(lower(lambda x, w: jax.numpy.tanh(x @ w), x, w))
    found = shardings(module, devices)
    assert found["%arg0"].spec == P("data", None)
    assert found["%arg1"].spec == P(None, "model")
    assert found["result0"].spec == P("data", "model")
    assert found["%0"].spec == P("data", "model")  # the dot, before the tanh
    assert all(isinstance(v, NamedSharding) for v in found.values())


def test_lower_takes_every_form_of_a_jax_function():
    def f(x):
        return jax.numpy.sin(x) + 1

    x = jax.ShapeDtypeStruct((4,), np.float32)
    texts = {
        kind: lower(form, *args).to_text()
        for kind, form, args in [
            ("function", f, (x,)),
            ("jitted", jax.jit(f), (x,)),
            ("traced", jax.jit(f).trace(x), ()),
            ("lowered", jax.jit(f).lower(x), ()),
        ]
    }
    assert len(set(texts.values())) == 1, texts
    with pytest.raises(shardonnay.ShardonnayError, match="already specialised"):
        lower(jax.jit(f).lower(x), x)
    with pytest.raises(shardonnay.ShardonnayError, match="got int"):
        lower(3)


def test_importing_shardonnay_and_its_jax_package_does_not_start_jax():
    import subprocess
    import sys

    code = "import sys, shardonnay, shardonnay.jax; print('jax' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stderr
