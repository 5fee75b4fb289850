"""broadcast_in_dim, reshape, transpose, concatenate, reverse, pad, get_dimension_size:
text exactly as MLIR prints it, verification, and numerics against JAX."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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

RNG = np.random.default_rng(0)


def normal(*shape, dtype=np.float32):
    return RNG.normal(size=shape).astype(dtype)


# -- syntax ---------------------------------------------------------------------------------------

SYNTAX = {
    "broadcast_in_dim": """
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<f32>, %arg2: tensor<1x3xi32>) -> () {
  %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1>}>
      : (tensor<4xf32>) -> tensor<2x4xf32>
  %1 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> {foo = 1 : i64}
      : (tensor<f32>) -> tensor<2x3xf32>
  %2 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 2, 0>}>
      : (tensor<1x3xi32>) -> tensor<3x5x7xi32>
  return
}""",
    "reshape": """
func.func @main(%arg0: tensor<4x1xf32>, %arg1: tensor<f32>) -> () {
  %0 = "stablehlo.reshape"(%arg0) : (tensor<4x1xf32>) -> tensor<2x2xf32>
  %1 = "stablehlo.reshape"(%arg1) {foo = "a"} : (tensor<f32>) -> tensor<1x1xf32>
  return
}""",
    "transpose": """
func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<f32>) -> () {
  %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 2, 0, 1>}>
      : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = "stablehlo.transpose"(%arg1) <{permutation = array<i64>}> {foo = 1 : i64}
      : (tensor<f32>) -> tensor<f32>
  return
}""",
    "concatenate": """
func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x5xf32>) -> () {
  %0 = "stablehlo.concatenate"(%arg0, %arg1, %arg0) <{dimension = 1 : i64}>
      : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  %1 = "stablehlo.concatenate"(%arg0) <{dimension = 0 : i64}> {foo}
      : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}""",
    "reverse": """
func.func @main(%arg0: tensor<2x3xf32>) -> () {
  %0 = "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 1, 0>}>
      : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "stablehlo.reverse"(%arg0) <{dimensions = array<i64>}> {foo = 1 : i64}
      : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}""",
    "pad": """
func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<f32>) -> () {
  %0 = "stablehlo.pad"(%arg0, %arg1) <{edge_padding_high = array<i64: -2, 0>,
      edge_padding_low = array<i64: 1, 3>, interior_padding = array<i64: 1, 0>}>
      : (tensor<8x4xf32>, tensor<f32>) -> tensor<14x7xf32>
  %1 = "stablehlo.pad"(%arg1, %arg1) <{edge_padding_high = array<i64>,
      edge_padding_low = array<i64>, interior_padding = array<i64>}> {foo = 1 : i64}
      : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}""",
    "get_dimension_size": """
func.func @main(%arg0: tensor<8x4xf32>) -> () {
  %0 = "stablehlo.get_dimension_size"(%arg0) <{dimension = 1 : i64}>
      : (tensor<8x4xf32>) -> tensor<i32>
  %1 = "stablehlo.get_dimension_size"(%arg0) <{dimension = 0 : i64}> {foo = 1 : i64}
      : (tensor<8x4xf32>) -> tensor<i32>
  return
}""",
}


@pytest.mark.parametrize("case", sorted(SYNTAX))
def test_text_round_trips_like_mlir(case: str) -> None:
    assert_text_as_jaxlib(SYNTAX[case])


def test_pretty_forms_are_the_ones_mlir_prints() -> None:
    text = jaxlib_asm(SYNTAX["pad"] + SYNTAX["reverse"].replace("@main", "@rev"))
    assert "low = [1, 3], high = [-2, 0], interior = [1, 0] :" in text
    assert "stablehlo.reverse %arg0, dims = [1, 0] : tensor<2x3xf32>" in text
    assert parse_module(text).to_text() == text


def test_discardable_attributes_stay_outside_the_properties() -> None:
    module = parse_module(jaxlib_asm(SYNTAX["reshape"]))
    op = next(op for op in module.walk() if "foo" in op.attributes)
    assert not op.is_inherent("foo")


# -- numerics -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("operand", "shape", "dims"),
    [
        ((4,), (3, 4), (1,)),
        ((), (2, 3), ()),
        ((1,), (5,), (0,)),  # a dimension of size 1 broadcast to 5
        ((3, 1), (3, 2, 6), (0, 1)),
        ((1, 3), (3, 4, 5), (2, 0)),  # unsorted dims: also transposes
        ((2, 1, 3), (3, 2, 4), (1, 2, 0)),
    ],
)
def test_broadcast_in_dim(operand, shape, dims) -> None:
    x = normal(*operand)
    assert_interpreter_matches_jax(lambda x: lax.broadcast_in_dim(x, shape, dims), x)


@pytest.mark.parametrize(
    ("operand", "shape"),
    [((4, 1), (4,)), ((1, 1), ()), ((), (1, 1, 1)), ((2, 3, 4), (4, 1, 6)), ((6,), (1, 2, 1, 3))],
)
def test_reshape(operand, shape) -> None:
    x = normal(*operand)
    assert_interpreter_matches_jax(lambda x: lax.reshape(x, shape), x)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
@pytest.mark.parametrize("perm", [(0, 1, 2), (2, 0, 1), (1, 2, 0), (2, 1, 0)])
def test_transpose(perm, dtype) -> None:
    x = (normal(2, 3, 4) * 4).astype(dtype)
    assert_interpreter_matches_jax(lambda x: lax.transpose(x, perm), x)


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_concatenate(dim: int) -> None:
    shapes = [[2, 3, 4] for _ in range(3)]
    for i, s in enumerate(shapes):
        s[dim] = i + 1
    xs = [normal(*s) for s in shapes]
    assert_interpreter_matches_jax(lambda a, b, c: lax.concatenate([a, b, c], dim), *xs)


@pytest.mark.parametrize("dims", [(), (0,), (1,), (0, 2), (2, 1, 0)])
def test_reverse(dims) -> None:
    x = normal(2, 3, 4)
    assert_interpreter_matches_jax(lambda x: lax.rev(x, dims), x)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(-3, 3), st.integers(-3, 3), st.integers(0, 2)),
        min_size=1,
        max_size=3,
    )
)
def test_pad_with_interior_and_negative_edges(dims) -> None:
    shape = tuple(n for n, *_ in dims)
    config = []
    for n, lo, hi, interior in dims:
        inner = n + max(n - 1, 0) * interior
        lo = max(lo, -inner)  # keep each size non-negative
        hi = max(hi, -(inner + lo))
        config.append((lo, hi, interior))
    x = normal(*shape)
    assert_interpreter_matches_jax(lambda x, v: lax.pad(x, v, config), x, np.float32(7.5))


def test_pad_of_integers_and_dynamic_dimension_size() -> None:
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert_interpreter_matches_jax(lambda x: lax.pad(x, np.int32(-1), [(2, -1, 2), (-1, 2, 0)]), x)
    text = """
func.func @main(%arg0: tensor<8x4xf32>) -> (tensor<i32>, tensor<i32>) {
  %0 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<8x4xf32>) -> tensor<i32>
  %1 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<8x4xf32>) -> tensor<i32>
  return %0, %1 : tensor<i32>, tensor<i32>
}"""
    got = run(parse_module(text), np.zeros((8, 4), np.float32))
    assert [int(g) for g in got] == [4, 8]
    assert got[0].dtype == np.int32


def test_ops_from_numpy_style_code() -> None:
    x = normal(8, 16)
    assert_interpreter_matches_jax(
        lambda x: (x[None, :, 3], x.T.reshape(4, 32), jnp.concatenate([x, x[::-1]], 1)), x
    )


# -- verification ---------------------------------------------------------------------------------


def _op(text: str):
    module = parse_module(text)
    return next(op for op in module.walk() if op.name.startswith("stablehlo."))


@pytest.mark.parametrize(
    "text",
    [
        # pad: the attributes imply tensor<14x4xf32>
        """func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<f32>) -> () {
  %0 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [-2, 0], interior = [1, 0]
      : (tensor<8x4xf32>, tensor<f32>) -> tensor<15x4xf32>
  return
}""",
        # pad: too few entries
        """func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<f32>) -> () {
  %0 = stablehlo.pad %arg0, %arg1, low = [1], high = [0], interior = [0]
      : (tensor<8x4xf32>, tensor<f32>) -> tensor<9x4xf32>
  return
}""",
        # pad: negative interior padding
        """func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<f32>) -> () {
  %0 = stablehlo.pad %arg0, %arg1, low = [0], high = [0], interior = [-1]
      : (tensor<8xf32>, tensor<f32>) -> tensor<1xf32>
  return
}""",
        """func.func @main(%arg0: tensor<8x4xf32>) -> () {
  %0 = stablehlo.transpose %arg0, dims = [1, 1] : (tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}""",
        """func.func @main(%arg0: tensor<8x4xf32>) -> () {
  %0 = stablehlo.reshape %arg0 : (tensor<8x4xf32>) -> tensor<33xf32>
  return
}""",
        """func.func @main(%arg0: tensor<3xf32>) -> () {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<3xf32>) -> tensor<4xf32>
  return
}""",
        """func.func @main(%arg0: tensor<3xf32>) -> () {
  %0 = stablehlo.concatenate %arg0, %arg0, dim = 0
      : (tensor<3xf32>, tensor<3xf32>) -> tensor<7xf32>
  return
}""",
        """func.func @main(%arg0: tensor<3xf32>) -> () {
  %0 = stablehlo.reverse %arg0, dims = [1] : tensor<3xf32>
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
