"""slice, dynamic_slice, dynamic_update_slice, gather, scatter: text exactly as
MLIR prints it, verification, and numerics against JAX."""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay.errors import IRError
from shardonnay.ir.verifier import verify
from shardonnay.ops.registry import lookup
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
lax = jax.lax

from shardonnay.testing.jax_numerics import assert_interpreter_matches_jax  # noqa: E402
from shardonnay.testing.mlir_oracle import assert_text_as_jaxlib, jaxlib_asm  # noqa: E402

GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers
RNG = np.random.default_rng(0)


def normal(*shape, dtype=np.float32):
    return RNG.normal(size=shape).astype(dtype)


# -- syntax ---------------------------------------------------------------------------------------

SYNTAX = {
    "slice": """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<f32>) -> () {
  %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 8>,
      start_indices = array<i64: 0, 2>, strides = array<i64: 1, 2>}>
      : (tensor<8x16xf32>) -> tensor<4x3xf32>
  %1 = "stablehlo.slice"(%arg1) <{limit_indices = array<i64>, start_indices = array<i64>,
      strides = array<i64>}> {foo = 1 : i64} : (tensor<f32>) -> tensor<f32>
  %2 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 8, 16>,
      start_indices = array<i64: 8, 3>, strides = array<i64: 3, 5>}>
      : (tensor<8x16xf32>) -> tensor<0x3xf32>
  return
}""",
    "dynamic_slice": """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<i64>, %arg2: tensor<i64>,
    %arg3: tensor<f32>) -> () {
  %0 = "stablehlo.dynamic_slice"(%arg0, %arg1, %arg2) <{slice_sizes = array<i64: 2, 3>}>
      : (tensor<8x16xf32>, tensor<i64>, tensor<i64>) -> tensor<2x3xf32>
  %1 = "stablehlo.dynamic_slice"(%arg3) <{slice_sizes = array<i64>}> {foo}
      : (tensor<f32>) -> tensor<f32>
  return
}""",
    "dynamic_update_slice": """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<i32>,
    %arg3: tensor<f32>) -> () {
  %0 = "stablehlo.dynamic_update_slice"(%arg0, %arg1, %arg2, %arg2) {foo = 1 : i64}
      : (tensor<8x16xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  %1 = "stablehlo.dynamic_update_slice"(%arg3, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}""",
    "gather": """
func.func @main(%arg0: tensor<4x8x16xf32>, %arg1: tensor<4x3x1xi32>) -> () {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<
      offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0],
      start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
      slice_sizes = array<i64: 1, 1, 16>}> : (tensor<4x8x16xf32>, tensor<4x3x1xi32>)
      -> tensor<4x3x16xf32>
  %1 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<
      offset_dims = [2, 3, 4], start_index_map = [2], index_vector_dim = 2>,
      indices_are_sorted = true, slice_sizes = array<i64: 2, 3, 4>}> {foo}
      : (tensor<4x8x16xf32>, tensor<4x3x1xi32>) -> tensor<4x3x2x3x4xf32>
  return
}""",
    "scatter": """
func.func @main(%arg0: tensor<4x8x16xf32>, %arg1: tensor<4x3x1xi32>,
    %arg2: tensor<4x3x16xf32>) -> () {
  %0:2 = "stablehlo.scatter"(%arg0, %arg0, %arg1, %arg2, %arg2) <{scatter_dimension_numbers =
      #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1],
      input_batching_dims = [0], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
      "stablehlo.return"(%b, %d) : (tensor<f32>, tensor<f32>) -> ()
    }) : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<4x3x1xi32>, tensor<4x3x16xf32>,
      tensor<4x3x16xf32>) -> (tensor<4x8x16xf32>, tensor<4x8x16xf32>)
  %1 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = true,
      scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2],
      inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      "stablehlo.return"(%a) : (tensor<f32>) -> ()
    }) {foo} : (tensor<4x8x16xf32>, tensor<4x3x1xi32>, tensor<4x3x16xf32>)
      -> tensor<4x8x16xf32>
  return
}""",
}


@pytest.mark.parametrize("case", sorted(SYNTAX))
def test_text_round_trips_like_mlir(case: str) -> None:
    assert_text_as_jaxlib(SYNTAX[case])


def test_pretty_forms_are_the_ones_mlir_prints() -> None:
    text = jaxlib_asm(SYNTAX["slice"] + SYNTAX["dynamic_slice"].replace("@main", "@ds"))
    assert "stablehlo.slice %arg0 [0:4, 2:8:2] : " in text
    assert "stablehlo.dynamic_slice %arg3, , sizes = [] {foo}" in text
    assert parse_module(text).to_text() == text


# -- numerics: slices -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "limit", "strides"),
    [
        ((0, 2), (4, 8), (1, 2)),
        ((1, 0), (8, 16), (3, 5)),
        ((2, 5), (2, 9), None),
        ((0, 0), (8, 1), (7, 1)),
    ],
)
def test_slice_with_strides(start, limit, strides) -> None:
    assert_interpreter_matches_jax(lambda x: lax.slice(x, start, limit, strides), normal(8, 16))


# Start indices in and out of range: both ops clamp them into the operand.
STARTS = [(0, 0), (3, 5), (7, 15), (-4, 2), (100, -100)]


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_dynamic_slice_clamps_start_indices(start, dtype) -> None:
    x = normal(8, 16)
    i, j = (np.asarray(s).astype(dtype) for s in start)
    if dtype == np.uint32 and min(start) < 0:
        pytest.skip("negative unsigned index")
    f = lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 3), allow_negative_indices=False)  # noqa: E731
    assert_interpreter_matches_jax(f, x, i, j)


@pytest.mark.parametrize("start", STARTS)
def test_dynamic_update_slice_clamps_start_indices(start) -> None:
    x, u = normal(8, 16), normal(3, 4)
    i, j = (np.int32(s) for s in start)
    f = lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j), allow_negative_indices=False)  # noqa: E731
    assert_interpreter_matches_jax(f, x, u, i, j)


@pytest.mark.parametrize("start", [(1, 2), (-3, 4)])
def test_dynamic_slices_with_traced_negative_indices(start) -> None:
    x, u = normal(8, 16), normal(3, 4)
    i, j = (np.int32(s) for s in start)
    assert_interpreter_matches_jax(
        lambda x, u, i, j: (
            lax.dynamic_slice(x, (i, j), (2, 3)),
            lax.dynamic_update_slice(x, u, (i, j)),
        ),
        x,
        u,
        i,
        j,
    )


# -- numerics: gather -----------------------------------------------------------------------------

GATHERS = {
    # x[idx] on rows
    "rows": ((8, 16), (5, 1), GDN((1,), (0,), (0,)), (1, 16)),
    # jnp.take(x, idx, axis=1)
    "take_axis_1": ((8, 16), (5, 1), GDN((0,), (1,), (1,)), (8, 1)),
    # x[i, j] with index vectors of two
    "points": ((8, 16), (6, 2), GDN((), (0, 1), (0, 1)), (1, 1)),
    # windows 2x3 at 2-D starts, index vector not last
    "windows": ((8, 16), (3, 4, 2), GDN((0, 3), (), (1, 0), operand_batching_dims=()), (2, 3)),
    # batched (as jax.vmap writes): per batch row its own index
    "batched": (
        (4, 8, 16),
        (4, 3, 1),
        GDN((2,), (1,), (1,), operand_batching_dims=(0,), start_indices_batching_dims=(0,)),
        (1, 1, 16),
    ),
    # batching dims not leading
    "batched_middle": (
        (8, 4, 16),
        (3, 4, 1),
        GDN((2,), (0,), (0,), operand_batching_dims=(1,), start_indices_batching_dims=(1,)),
        (1, 1, 5),
    ),
}


@pytest.mark.parametrize("case", sorted(GATHERS))
@pytest.mark.parametrize("mode", ["clip", "promise_in_bounds"])
def test_gather(case: str, mode: str) -> None:
    operand, indices, dn, sizes = GATHERS[case]
    x = normal(*operand)
    rng = np.random.default_rng(len(case))
    # Out-of-range starts too: the op clamps them (as mode="clip" relies on).
    idx = rng.integers(-3, 20, size=indices).astype(np.int32)
    if mode == "promise_in_bounds":
        idx = np.clip(idx, 0, 3)
    assert_interpreter_matches_jax(lambda x, i: lax.gather(x, i, dn, sizes, mode=mode), x, idx)


def test_gather_with_scalar_indices() -> None:
    """index_vector_dim = rank of the indices: each index is a scalar."""
    text = """
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<5xi32>) -> tensor<5x16xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<
      offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<5xi32>) -> tensor<5x16xf32>
  return %0 : tensor<5x16xf32>
}"""
    module = parse_module(jaxlib_asm(text))
    verify(module)
    x, idx = normal(8, 16), np.array([0, 7, 9, -1, 3], np.int32)
    (got,) = run(module, x, idx)
    dn = GDN((1,), (0,), (0,))
    want = lax.gather(x, idx[:, None], dn, (1, 16), mode="clip")
    np.testing.assert_array_equal(got, np.asarray(want))


def test_gather_from_numpy_style_indexing() -> None:
    x = normal(8, 16)
    rows = np.array([1, 7, -2, 0], np.int32)
    assert_interpreter_matches_jax(lambda x, i: x[i], x, rows)
    assert_interpreter_matches_jax(
        lambda x, i: jnp.take(x, i, axis=1), x, np.array([3, 15, 0], np.int32)
    )
    assert_interpreter_matches_jax(
        lambda x, i, j: x[i, j], x, rows, np.array([0, 5, 15, 9], np.int32)
    )
    assert_interpreter_matches_jax(jax.vmap(lambda r, i: r[i]), x, np.arange(8, dtype=np.int32) % 5)
    assert_interpreter_matches_jax(jax.vmap(lambda r, i: r[i], in_axes=(1, None)), x, rows)


# -- numerics: scatter ----------------------------------------------------------------------------

SCATTERS = {
    # x.at[idx].op(u) on rows
    "rows": ((8, 16), (5, 1), (5, 16), SDN((1,), (0,), (0,))),
    # points x.at[i, j]
    "points": ((8, 16), (6, 2), (6,), SDN((), (0, 1), (0, 1))),
    # 2x3 windows at 2-D starts, index vector first
    "windows": ((8, 16), (2, 4), (4, 2, 3), SDN((1, 2), (), (0, 1), operand_batching_dims=())),
    "batched": (
        (4, 8, 16),
        (4, 3, 1),
        (4, 3, 16),
        SDN((2,), (1,), (1,), operand_batching_dims=(0,), scatter_indices_batching_dims=(0,)),
    ),
}
SCATTER_OPS = {
    "add": lax.scatter_add,
    "max": lax.scatter_max,
    "min": lax.scatter_min,
    "mul": lax.scatter_mul,
    "set": lax.scatter,
}


@pytest.mark.parametrize("case", sorted(SCATTERS))
@pytest.mark.parametrize("kind", sorted(SCATTER_OPS))
def test_scatter_skips_out_of_bounds_updates(case: str, kind: str) -> None:
    operand, indices, updates, dn = SCATTERS[case]
    rng = np.random.default_rng(len(case) + len(kind))
    x, u = normal(*operand), normal(*updates)
    if case == "windows":  # index vector on axis 0
        dn = SDN(dn.update_window_dims, (), (0, 1))
        idx = rng.integers(-2, 16, size=indices).astype(np.int32)
        f = lambda x, i, u: SCATTER_OPS[kind](x, jnp.moveaxis(i, 0, -1), u, dn, mode="drop")  # noqa: E731
        assert_interpreter_matches_jax(f, x, idx, u)
        return
    # Distinct in-range indices (a repeated "set" picks an arbitrary update).
    idx = rng.choice(np.arange(-2, 20), size=indices, replace=True).astype(np.int32)
    if kind == "set":
        idx = np.reshape(
            rng.permutation(np.arange(-2, 20))[: int(np.prod(indices))], indices
        ).astype(np.int32)
        if case == "batched":
            idx = np.stack([rng.permutation(np.arange(-2, 9))[:3] for _ in range(4)])[..., None]
            idx = idx.astype(np.int32)
    f = lambda x, i, u: SCATTER_OPS[kind](x, i, u, dn, mode="drop")  # noqa: E731
    assert_interpreter_matches_jax(f, x, idx, u)


def test_scatter_of_integers_and_bools() -> None:
    x = np.arange(16, dtype=np.int32).reshape(8, 2)
    idx = np.array([[1], [1], [9], [0]], np.int32)
    u = np.full((4, 2), 3, np.int32)
    dn = SDN((1,), (0,), (0,))
    assert_interpreter_matches_jax(
        lambda x, i, u: lax.scatter_add(x, i, u, dn, mode="drop"), x, idx, u
    )
    assert_interpreter_matches_jax(
        lambda x, i, u: lax.scatter_max(x, i, u, dn, mode="drop"), x, idx, u
    )
    b = np.zeros((8, 2), bool)
    assert_interpreter_matches_jax(
        lambda x, i, u: lax.scatter(x, i, u, dn, mode="drop"), b, idx[2:], np.ones((2, 2), bool)
    )


def test_scatter_from_numpy_style_updates() -> None:
    x = normal(8, 16)
    rows = np.array([1, 6, -2], np.int32)
    cols = np.array([0, 5, 15], np.int32)
    u = normal(3, 16)
    assert_interpreter_matches_jax(lambda x, i, u: x.at[i].set(u), x, rows, u)
    assert_interpreter_matches_jax(
        lambda x, i, u: x.at[i].add(u), x, np.array([1, 1, 3], np.int32), u
    )
    assert_interpreter_matches_jax(
        lambda x, i, u: x.at[i].max(u), x, np.array([2, 2, 0], np.int32), u
    )
    assert_interpreter_matches_jax(lambda x, i, j: x.at[i, j].add(1.0), x, rows, cols)


def _scatter_module(region_returns: str) -> str:
    """Two inputs scattered at once with the update computation `return <region_returns>`."""
    return f"""
func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xi32>, %arg2: tensor<3x1xi32>,
    %arg3: tensor<3x4xf32>, %arg4: tensor<3x4xi32>) -> (tensor<8x4xf32>, tensor<8x4xi32>) {{
  %0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) <{{scatter_dimension_numbers =
      #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> ({{
    ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
      "stablehlo.return"({region_returns}) : (tensor<f32>, tensor<i32>) -> ()
    }}) : (tensor<8x4xf32>, tensor<8x4xi32>, tensor<3x1xi32>, tensor<3x4xf32>, tensor<3x4xi32>)
      -> (tensor<8x4xf32>, tensor<8x4xi32>)
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xi32>
}}"""


@pytest.mark.parametrize("returns", ["%c, %d", "%a, %d", "%c, %b"])
def test_scatter_of_several_inputs_runs_the_region(returns: str) -> None:
    module = parse_module(jaxlib_asm(_scatter_module(returns), generic=True))
    verify(module)
    x, y = normal(8, 4), np.arange(32, dtype=np.int32).reshape(8, 4)
    idx = np.array([[5], [-1], [2]], np.int32)
    u, v = normal(3, 4), -np.arange(12, dtype=np.int32).reshape(3, 4)
    got = run(module, x, y, idx, u, v)
    dn = SDN((1,), (0,), (0,))
    want_x = lax.scatter(x, idx, u, dn, mode="drop") if "%c" in returns else x
    want_y = lax.scatter(y, idx, v, dn, mode="drop") if "%d" in returns else y
    np.testing.assert_array_equal(got[0], np.asarray(want_x))
    np.testing.assert_array_equal(got[1], np.asarray(want_y))


# -- verification ---------------------------------------------------------------------------------


def _op(text: str):
    module = parse_module(text)
    return next(op for op in module.walk() if op.name.startswith("stablehlo."))


@pytest.mark.parametrize(
    "text",
    [
        # slice: the attributes imply tensor<4x3xf32>
        """func.func @main(%arg0: tensor<8x16xf32>) -> () {
  %0 = stablehlo.slice %arg0 [0:4, 2:8:2] : (tensor<8x16xf32>) -> tensor<4x4xf32>
  return
}""",
        # slice: limit beyond the dimension
        """func.func @main(%arg0: tensor<8x16xf32>) -> () {
  %0 = stablehlo.slice %arg0 [0:9, 0:16] : (tensor<8x16xf32>) -> tensor<9x16xf32>
  return
}""",
        # slice: a missing range
        """func.func @main(%arg0: tensor<8x16xf32>) -> () {
  %0 = stablehlo.slice %arg0 [0:8] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}""",
        """func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<i32>) -> () {
  %0 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, sizes = [2, 17]
      : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x17xf32>
  return
}""",
        """func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<i32>) -> () {
  %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [2, 2]
      : (tensor<8x16xf32>, tensor<i32>) -> tensor<2x2xf32>
  return
}""",
        """func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<i32>,
    %arg2: tensor<9x1xf32>) -> () {
  %0 = stablehlo.dynamic_update_slice %arg0, %arg2, %arg1, %arg1
      : (tensor<8x16xf32>, tensor<9x1xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return
}""",
        # gather: result shape differs from the implied tensor<2x16xf32>
        """func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<2x1xi32>) -> () {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<
      offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<2x1xi32>) -> tensor<2x8xf32>
  return
}""",
        # gather: a collapsed dimension with slice size 2
        """func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<2x1xi32>) -> () {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<
      offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 2, 16>}> : (tensor<8x16xf32>, tensor<2x1xi32>) -> tensor<2x16xf32>
  return
}""",
        # scatter: updates do not match the index batch shape
        """func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<2x1xi32>,
    %arg2: tensor<3x16xf32>) -> () {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      "stablehlo.return"(%b) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<2x1xi32>, tensor<3x16xf32>) -> tensor<8x16xf32>
  return
}""",
    ],
)
def test_inconsistent_ops_raise_irerror(text: str) -> None:
    op = _op(text)
    with pytest.raises(IRError):
        lookup(op.name).verify(op)
    with pytest.raises(IRError):
        verify(parse_module(text))
    with pytest.raises(Exception):  # noqa: B017  MLIR rejects them as well
        jaxlib_asm(text)
