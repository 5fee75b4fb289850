"""The identity of a reduction, declared once and used by every lowering.

A partitioned program fills places that must not change a reduction with
the identity of its combiner: the devices that do not keep an operand of a
scatter whose updates are split along batch dims, the padding of uneven
shards before a local reduce, the devices that only fill up a group of an
all_reduce for XLA (`runtime.xla_compat`). A wrong identity shows in the
numbers: `and` on integers needs all bits set (`-1`, or `255` for `ui8`),
not `1`, or the combined result collapses to 0/1; a float sum needs `-0.0`
(not `+0.0`), or a result that is `-0.0` comes back as `+0.0`.

Each test runs a real program on every device with the simulator and
compares bit for bit with the reference interpreter on the global program.
"""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay import check, parse_module, run, simulate
from shardonnay.ir.types import numpy_dtype
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.runtime.xla_compat import xla_compatible

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
TYPES = ("i32", "ui8", "i1", "f32", "bf16")
COMBINERS = ("and", "or", "xor", "minimum", "maximum", "add", "multiply")
BITWISE = ("and", "or", "xor")


def same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal bit for bit (so `-0.0` is not `+0.0`)."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    width = np.dtype(f"u{got.dtype.itemsize}")
    return bool(np.array_equal(got.view(width), want.view(width)))


def values_of(element_type: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Random values of `element_type`, the extremes and (floats) -0.0 included
    (not +0.0 beside it: which of the two a maximum keeps depends on the order)."""
    dtype = numpy_dtype(element_type)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if element_type in ("f32", "bf16"):
        pool = np.array([-0.0, -1.5, 2.0, -3.0, 0.5], np.float32)
        return rng.choice(pool, shape).astype(dtype)
    info = np.iinfo(dtype)
    pool = np.array([info.min, info.max, 0, 1, 2, 5, 6, info.max - 1], np.int64)
    return rng.choice(pool, shape).astype(dtype)


def scatter_program(element_type: str, combiner: str) -> str:
    """A scatter of `tensor<6x4xT>` updates into `tensor<16x4xT>`, the indices
    and updates split along their batch dim on "x", then `sdy.all_reduce`."""
    t, u, s = f"tensor<16x4x{element_type}>", f"tensor<6x4x{element_type}>", "tensor<6x1xi32>"
    split, whole = '#sdy.sharding<@mesh, [{"x"}, {}]>', "#sdy.sharding<@mesh, [{}, {}]>"
    return MESH + (
        f"func.func @main(%arg0: {t} {{sdy.sharding = {whole}}}, "
        f"%arg1: {s} {{sdy.sharding = {split}}}, %arg2: {u} {{sdy.sharding = {split}}})"
        f" -> ({t} {{sdy.sharding = {whole}}}) {{\n"
        '  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, '
        "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
        "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, "
        "unique_indices = false}> ({\n"
        f"  ^bb0(%a: tensor<{element_type}>, %b: tensor<{element_type}>):\n"
        f"    %c = stablehlo.{combiner} %a, %b : tensor<{element_type}>\n"
        f"    stablehlo.return %c : tensor<{element_type}>\n"
        "  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} "
        f": ({t}, {s}, {u}) -> {t}\n"
        f'  %1 = sdy.all_reduce {{"x"}} %0 out_sharding=<@mesh, [{{}}, {{}}]> : {t}\n'
        f"  return %1 : {t}\n}}"
    )


CASES = [
    (t, c)
    for t in TYPES
    for c in COMBINERS
    if not (c in BITWISE and t in ("f32", "bf16"))  # bitwise ops take integers and booleans
]


@pytest.mark.parametrize(("element_type", "combiner"), CASES, ids=[f"{t}-{c}" for t, c in CASES])
def test_scatter_with_updates_split_along_batch_dims(element_type: str, combiner: str) -> None:
    module = parse_module(scatter_program(element_type, combiner))
    rng = np.random.default_rng(len(element_type) * 7 + COMBINERS.index(combiner))
    operand = values_of(element_type, (16, 4), rng)
    indices = np.array([[3], [15], [3], [0], [7], [8]], np.int32)  # rows 1, 2, ... untouched
    updates = values_of(element_type, (6, 4), rng)
    local = convert_global_to_local(module, poison_padding=True)
    (got,) = simulate(local, operand, indices, updates)
    (want,) = run(module, operand, indices, updates)
    assert same_bits(got, want)
    check(module, inputs=[operand, indices, updates], propagate=False)


def test_and_on_integers_keeps_every_bit() -> None:
    """The case that once collapsed to 0/1: the devices that do not keep the
    operand start from all bits set."""
    module = parse_module(scatter_program("i32", "and"))
    operand = np.full((16, 4), 0x5A5A5A5A, np.int32)
    indices = np.array([[3], [15], [3], [0], [7], [8]], np.int32)
    updates = np.full((6, 4), 0x0F0F0F0F, np.int32)
    local = convert_global_to_local(module)
    (got,) = simulate(local, operand, indices, updates)
    (want,) = run(module, operand, indices, updates)
    assert set(np.unique(want)) == {0x5A5A5A5A, 0x5A5A5A5A & 0x0F0F0F0F}
    assert same_bits(got, want)


def reduce_program(element_type: str, combiner: str, init: str) -> str:
    """A reduce over dim 0 of `tensor<6x3xT>` split on "y" (4 shards of 2 slots:
    the last holds only padding), the result summed over "y" after."""
    t, r = f"tensor<6x3x{element_type}>", f"tensor<3x{element_type}>"
    return MESH + (
        f'func.func @main(%arg0: {t} {{sdy.sharding = #sdy.sharding<@mesh, [{{"y"}}, {{}}]>}})'
        f" -> ({r} {{sdy.sharding = #sdy.sharding<@mesh, [{{}}]>}}) {{\n"
        f"  %i = stablehlo.constant dense<{init}> : tensor<{element_type}>\n"
        f"  %0 = stablehlo.reduce(%arg0 init: %i) applies stablehlo.{combiner} across "
        "dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} "
        f": ({t}, tensor<{element_type}>) -> {r}\n"
        f'  %1 = sdy.all_reduce {{"y"}} %0 out_sharding=<@mesh, [{{}}]> : {r}\n'
        f"  return %1 : {r}\n}}"
    )


@pytest.mark.parametrize("element_type", ["f32", "bf16"])
def test_a_sum_of_negative_zeros_over_uneven_shards_is_negative_zero(element_type: str) -> None:
    """The padding of the reduced dim is filled with the identity of the sum,
    which is -0.0: a shard of negative zeros sums to -0.0, not +0.0."""
    module = parse_module(reduce_program(element_type, "add", "-0.0"))
    x = np.full((6, 3), -0.0, numpy_dtype(element_type))
    x[1, 2] = 1.5
    local = convert_global_to_local(module)
    (got,) = simulate(local, x)
    (want,) = run(module, x)
    assert list(np.signbit(want.astype(np.float32))) == [True, True, False]
    assert same_bits(got, want)


@pytest.mark.parametrize(
    ("element_type", "combiner", "init"),
    [("i32", "and", "-1"), ("ui8", "and", "255"), ("i1", "and", "true"),
     ("ui8", "minimum", "255"), ("bf16", "maximum", "0xFF80"), ("f32", "multiply", "1.0"),
     ("i32", "xor", "0")],
)  # fmt: skip
def test_uneven_reductions_pad_with_the_identity(element_type, combiner, init) -> None:
    module = parse_module(reduce_program(element_type, combiner, init))
    x = values_of(element_type, (6, 3), np.random.default_rng(3))
    local = convert_global_to_local(module, poison_padding=True)
    (got,) = simulate(local, x)
    (want,) = run(module, x)
    assert same_bits(got, want)


def all_reduce_program(element_type: str, combiner: str) -> str:
    """A per-device program on 6 devices whose all_reduce has groups of 4, 1
    and 1: XLA wants groups of one size, so `xla_compatible` makes one group
    of all 6 where the two lone devices contribute the combiner's identity."""
    t = f"tensor<1x2x{element_type}>"
    on_mesh = ' {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}'
    return (
        'sdy.mesh @mesh = <["d"=6]>\n'
        f"func.func @main(%arg0: {t}{on_mesh}) -> ({t}{on_mesh}) {{\n"
        '  %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<'
        "handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, -1, -1, -1], "
        "[5, -1, -1, -1]]> : tensor<3x4xi64>, use_global_device_ids}> ({\n"
        f"  ^bb0(%a: tensor<{element_type}>, %b: tensor<{element_type}>):\n"
        f"    %c = stablehlo.{combiner} %a, %b : tensor<{element_type}>\n"
        f"    stablehlo.return %c : tensor<{element_type}>\n"
        f"  }}) : ({t}) -> {t}\n"
        f"  return %0 : {t}\n}}"
    )


@pytest.mark.parametrize(("element_type", "combiner"), CASES, ids=[f"{t}-{c}" for t, c in CASES])
def test_all_reduce_regrouped_for_xla_fills_with_the_identity(element_type, combiner) -> None:
    local = parse_module(all_reduce_program(element_type, combiner))
    x = values_of(element_type, (6, 2), np.random.default_rng(5))
    if element_type in ("f32", "bf16"):
        x[:, 0] = -0.0  # a sum of negative zeros is -0.0
    regrouped = xla_compatible(local, 6)
    groups = [op.attributes["replica_groups"].to_numpy() for op in regrouped.walk()
              if op.name == "stablehlo.all_reduce"]  # fmt: skip
    assert groups and all((g != -1).all() for g in groups)
    (want,) = simulate(local, x)
    (got,) = simulate(regrouped, x)
    assert same_bits(got, want)
