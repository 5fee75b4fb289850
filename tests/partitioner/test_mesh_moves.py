"""Moving values between meshes of the same devices: `mesh_translation` and
`local_moves.move`.

A sharding on one mesh translated onto another mesh of the same devices in
the same order puts identical data on every device (`layout.equivalent`),
and a translation exists exactly where some list of the other mesh's
(sub-)axes reads the same device coordinate. A value moved between two such
meshes is resharded on one of them: the per-device program computes exactly
what the global one does, and its busiest device receives no more than
gathering the value whole on the source mesh (the lowering before meshes
were translated), down to `reshard.lower_bound` on the moves of the corpus
program `two_meshes`.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shardonnay import AxisRef, DimSharding, Mesh, TensorSharding, parse_module, run, simulate
from shardonnay.layout import device_slices, equivalent, local_shape, shard_index
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.local.layout import relayout_received
from shardonnay.partitioner.local.moves import MAX_TILES
from shardonnay.partitioner.program import partition
from shardonnay.partitioner.reshard.mesh_translation import translate_axes, translate_sharding
from shardonnay.partitioner.reshard.plan import lower_bound
from shardonnay.testing.strategies import divisors, shapes, shardings

NAMES = ("p", "q", "r", "s")


def _factorizations(n: int) -> list[tuple[int, ...]]:
    """Ordered factorizations of `n` into factors > 1 (at most 3 of them)."""
    out = [(n,)]
    for d in divisors(n):
        if 1 < d < n:
            out += [(d, *rest) for rest in _factorizations(n // d) if len(rest) < 3]
    return out


@st.composite
def mesh_pairs(draw: st.DrawFn, counts=(4, 6, 8, 12)) -> tuple[Mesh, Mesh]:
    """Two meshes of the same devices: both iota, both one order, or two orders."""
    count = draw(st.sampled_from(counts))
    a_sizes = draw(st.sampled_from(_factorizations(count)))
    b_sizes = draw(st.sampled_from(_factorizations(count)))
    order = draw(st.sampled_from(("iota", "same", "different")))
    a_ids = b_ids = None
    if order != "iota":
        a_ids = draw(st.permutations(range(count)))
        b_ids = a_ids if order == "same" else draw(st.permutations(range(count)))
    iota = list(range(count))
    a_ids = None if a_ids is not None and list(a_ids) == iota else a_ids
    b_ids = None if b_ids is not None and list(b_ids) == iota else b_ids
    a = Mesh(zip(NAMES, a_sizes, strict=False), a_ids)
    b = Mesh(zip(("u", "v", "w"), b_sizes, strict=False), b_ids)
    return a, b


# -- translation -----------------------------------------------------------------------------


def test_translates_the_axes_of_two_meshes_program():
    a = Mesh({"data": 2, "model": 4})
    b, c = Mesh({"x": 4, "y": 2}), Mesh({"i": 8})
    assert translate_axes([AxisRef("x")], b, a) == (AxisRef("data"), AxisRef.sub("model", 1, 2))
    assert translate_axes([AxisRef("y")], b, a) == (AxisRef.sub("model", 2, 2),)
    assert translate_axes([AxisRef("i")], c, a) == (AxisRef("data"), AxisRef("model"))
    assert translate_axes([AxisRef("data")], a, b) == (AxisRef.sub("x", 1, 2),)
    assert translate_axes([AxisRef("model")], a, c) == (AxisRef.sub("i", 2, 4),)


def test_no_translation_where_an_axis_would_be_cut_off_its_divisors():
    a, b = Mesh({"a": 2, "b": 3}), Mesh({"c": 3, "d": 2})
    assert translate_axes([AxisRef("c")], b, a) is None
    assert translate_axes([AxisRef("d")], b, a) is None
    assert translate_axes([AxisRef("a")], a, b) is None
    assert translate_axes([], b, a) == ()


def test_no_translation_between_device_orders():
    a = Mesh({"x": 4}, device_ids=[1, 0, 3, 2])
    assert translate_axes([AxisRef("x")], a, Mesh({"y": 4})) is None
    same = Mesh({"y": 2, "z": 2}, device_ids=[1, 0, 3, 2])
    assert translate_axes([AxisRef("x")], a, same) == (AxisRef("y"), AxisRef("z"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_translated_sharding_puts_the_same_data_on_every_device(data):
    a, b = data.draw(mesh_pairs())
    shape = data.draw(shapes(max_rank=3, max_size=13))
    sharding = data.draw(shardings(b, len(shape), inline=True, reductions=("sum",)))
    translated = translate_sharding(sharding, a)
    if a.device_list != b.device_list:
        assert translated is None or not any(d.axes for d in sharding.dims)
        return
    if translated is None:
        return
    translated.validate(a, shape)
    assert equivalent(sharding, translated, None, shape)
    assert device_slices(shape, sharding, b) == device_slices(shape, translated, a)


def _atoms(mesh: Mesh) -> list[AxisRef]:
    """Every axis and sub-axis of `mesh`."""
    out = []
    for name, size in mesh.axes:
        if size > 1:
            out.append(AxisRef(name))
        for pre in divisors(size):
            out += [
                AxisRef.sub(name, pre, k)
                for k in divisors(size // pre)
                if 1 < k < size and size % (pre * k) == 0
            ]
    return out


def _coordinates(axes, mesh: Mesh) -> list[int]:
    sharding = TensorSharding(mesh, (DimSharding(tuple(axes)),))
    return [shard_index(d, sharding, mesh)[0] for d in sorted(mesh.device_list)]


@pytest.mark.parametrize(
    "a_axes, b_axes",
    [((2, 3), (3, 2)), ((2, 4), (4, 2)), ((2, 2, 2), (8,)), ((6,), (2, 3)), ((4, 3), (2, 6))],
)
def test_an_axis_translates_exactly_where_some_axes_read_its_coordinate(a_axes, b_axes):
    a = Mesh(zip("abc", a_axes, strict=False))
    b = Mesh(zip("xyz", b_axes, strict=False))
    candidates = [
        axes
        for length in range(1, len(a.axes) + 1)
        for axes in itertools.permutations(_atoms(a), length)
        if len({x.name for x in axes}) == length or all(x.is_sub_axis for x in axes)
    ]
    for axis in _atoms(b):
        wanted = _coordinates([axis], b)
        readers = [axes for axes in candidates if _coordinates(axes, a) == wanted]
        translated = translate_axes([axis], b, a)
        assert (translated is not None) == bool(readers), axis
        if translated is not None:
            assert _coordinates(translated, a) == wanted


# -- moves between meshes ----------------------------------------------------------------------


def _mesh_text(name: str, mesh: Mesh) -> str:
    return f"sdy.mesh @{name} = {mesh}\n"


def move_program(shape, a: Mesh, source: TensorSharding, b: Mesh, target: TensorSharding) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}xf32>" if shape else "tensor<f32>"
    src = TensorSharding("a", source.dims)
    dst = TensorSharding("b", target.dims)
    return (
        _mesh_text("a", a)
        + _mesh_text("b", b)
        + f"func.func @main(%arg0: {t} {{sdy.sharding = {src}}})\n"
        f"    -> ({t} {{sdy.sharding = {dst}}}) {{\n"
        f"  return %arg0 : {t}\n}}"
    )


def gathered_bytes(shape, sharding: TensorSharding, mesh: Mesh) -> int:
    """Bytes the busiest device receives gathering a f32 value whole, dim by dim."""
    local = list(local_shape(shape, sharding, mesh))
    received = 0
    for d, dim in enumerate(sharding.dims):
        n = dim.sharded_size(mesh)
        if n > 1:
            received += (n - 1) * math.prod(local) * 4
            local[d] = min(local[d] * n, shape[d])
    return received


def moved(shape, a: Mesh, source: TensorSharding, b: Mesh, target: TensorSharding):
    """(local program, bytes its busiest device receives) of the move, checked exact."""
    module = parse_module(move_program(shape, a, source, b, target))
    local = convert_global_to_local(module, poison_padding=True)
    x = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    (got,), (want,) = simulate(local, x), run(module, x)
    np.testing.assert_array_equal(got, want)
    return local, collective_costs(local).bytes_received


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_moves_between_meshes_are_exact_and_receive_no_more_than_gathering(data):
    a, b = data.draw(mesh_pairs(counts=(4, 8)))
    shape = data.draw(
        shapes(data.draw(st.integers(1, 3)), max_size=12).filter(lambda s: 0 not in s)
    )
    source = data.draw(shardings(a, len(shape), inline=True, reductions=("sum",)))
    target = data.draw(shardings(b, len(shape), inline=True, reductions=("sum",)))
    source = TensorSharding(a, source.dims)
    target = TensorSharding(b, target.dims)
    _, received = moved(shape, a, source, b, target)
    assert received <= gathered_bytes(shape, source, a)
    assert received >= lower_bound(source, target, None, shape)


TWO_MESHES = {
    "mesh": Mesh({"data": 2, "model": 4}),
    "mesh_0": Mesh({"x": 4, "y": 2}),
    "mesh_1": Mesh({"i": 8}),
}


@pytest.mark.parametrize(
    "source, target",
    [
        (("mesh", ["data", "model"]), ("mesh_0", ["x", "y"])),
        (("mesh_0", ["x", "y"]), ("mesh_1", [None, "i"])),
        (("mesh", ["data", "model"]), ("mesh_1", [None, "i"])),
        (("mesh_1", ["i", None]), ("mesh_0", ["y", "x"])),
    ],
)
def test_two_meshes_moves_reach_the_lower_bound(source, target):
    a, b = TWO_MESHES[source[0]], TWO_MESHES[target[0]]
    src = TensorSharding.from_axes(a, source[1])
    dst = TensorSharding.from_axes(b, target[1])
    _, received = moved((8, 16), a, src, b, dst)
    assert received == lower_bound(src, dst, None, (8, 16))
    assert received < gathered_bytes((8, 16), src, a)


def test_meshes_that_do_not_translate_fetch_the_tiles_each_device_lacks():
    # 2x3 and 3x2 cut the devices differently: no axis of one is a run of the
    # other's, but each device still fetches just what it lacks, by device id.
    a, b = Mesh({"a": 2, "b": 3}), Mesh({"c": 3, "d": 2})
    src = TensorSharding.from_axes(a, ["a", "b"])
    dst = TensorSharding.from_axes(b, ["c", "d"])
    local, received = moved((6, 6), a, src, b, dst)
    assert not any(op.name == "stablehlo.all_gather" for op in local.walk())
    assert received == lower_bound(src, dst, None, (6, 6)) < gathered_bytes((6, 6), src, a)


def _tiles_per_buffer(shape, source: TensorSharding, target: TensorSharding, mesh: Mesh) -> int:
    held, wanted = local_shape(shape, source, mesh), local_shape(shape, target, mesh)
    return math.prod(w // math.gcd(h, w) for h, w in zip(held, wanted, strict=True))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_moves_on_one_mesh_receive_no_more_than_relayout_and_even_ones_reach_the_bound(data):
    a, _ = data.draw(mesh_pairs(counts=(4, 8)))
    rank = data.draw(st.integers(1, 3))
    shape = data.draw(shapes(rank, max_size=12).filter(lambda s: 0 not in s))
    source = TensorSharding(a, data.draw(shardings(a, rank, inline=True)).dims)
    target = TensorSharding(a, data.draw(shardings(a, rank, inline=True)).dims)
    _, received = moved(shape, a, source, a, target)
    axes = [[x for x in d.axes if x.size(a) > 1] for d in (source, target) for d in d.dims]
    local = local_shape(shape, source, a)
    assert received <= 4 * relayout_received(local, axes[:rank], axes[rank:], shape, a)
    even = source.is_divisible(a, shape) and target.is_divisible(a, shape)
    if even and _tiles_per_buffer(shape, source, target, a) <= MAX_TILES:
        assert received == lower_bound(source, target, None, shape)


def test_the_two_meshes_corpus_program_moves_exactly_what_its_devices_lack():
    """Both moves between meshes of tests/corpus/two_meshes.mlir receive their
    lower bound (Shardy's partitioner counts nothing for them, XLA 208 B)."""
    module = parse_module((Path(__file__).parent.parent / "corpus" / "two_meshes.mlir").read_text())
    meshes, parse = dict(module.meshes), TensorSharding.parse
    first = lower_bound(
        parse('<@mesh, [{"data"}, {"model"}]>'), parse('<@mesh_0, [{"x"}, {"y"}]>'), meshes, (8, 16)
    )
    second = lower_bound(
        parse('<@mesh_0, [{"x"}, {"y"}]>'), parse('<@mesh_1, [{}, {"i"}]>'), meshes, (8, 16)
    )
    assert collective_costs(partition(module)).bytes_received == first + second == 128
