"""reduce, reduce_window, select_and_scatter, sort, reduce_precision and the rng ops:
text exactly as MLIR prints it, numerics as JAX computes them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shardonnay.errors import IRError, ParseError
from shardonnay.ir.attributes import DenseArrayAttr, EnumAttr, IntegerAttr
from shardonnay.ops.reduction import RegionRunner, reduce_precision, tree_reduce
from shardonnay.ops.registry import OpDef, lookup
from shardonnay.runtime.interpreter import Interpreter, run
from shardonnay.syntax.mlir_reader import parse_module

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

from shardonnay.testing.mlir_oracle import jaxlib_asm  # noqa: E402

# The bodies JAX emits use elementwise ops defined elsewhere in the package.
ELEMENTWISE = ("stablehlo.add", "stablehlo.maximum", "stablehlo.compare", "stablehlo.select")


def _require(*names: str) -> None:
    for name in names:
        definition = lookup(name)
        if definition.print is None or type(definition).evaluate is OpDef.evaluate:
            pytest.skip(f"{name} has no custom syntax or semantics in this build")


def _check_syntax(text: str) -> None:
    pretty, generic = jaxlib_asm(text), jaxlib_asm(text, generic=True)
    module = parse_module(generic)
    assert module.to_text() == pretty
    assert parse_module(pretty).to_text() == pretty
    assert module.to_text(generic=True) == generic
    assert parse_module(pretty).to_text(generic=True) == generic


def _check_jax(f, *args, rtol: float = 1e-5, atol: float = 1e-6) -> str:
    text = jax.jit(f).lower(*args).as_text()
    _check_syntax(text)
    module = parse_module(jaxlib_asm(text, generic=True))
    got = run(module, *args)
    want = f(*args)
    want = want if isinstance(want, tuple | list) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        w = np.asarray(w)
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
    return jaxlib_asm(text)


def _rand(seed: int, shape, dtype="float32") -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.normal(size=shape).astype(dtype)
    return rng.integers(-20, 20, size=shape).astype(dtype)


# -- reduce ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reduce", "dtype"),
    [(jnp.sum, "float32"), (jnp.max, "float32"), (jnp.min, "int32"), (jnp.prod, "int32")],
)
@pytest.mark.parametrize("axis", [0, 1, (0, 2), None])
def test_compact_reduce_matches_jax(reduce, dtype, axis):
    x = _rand(3, (3, 4, 5), dtype)
    text = _check_jax(lambda a: reduce(a, axis=axis), x)
    assert " applies stablehlo." in text


def test_compact_reduce_of_booleans_and_extra_attributes():
    x = _rand(4, (3, 4)) > 0
    _check_jax(lambda a: jnp.all(a, axis=0), x)
    _check_jax(lambda a: jnp.any(a, axis=1), x)
    text = (
        "func.func @main(%arg0: tensor<3x4xi32>, %arg1: tensor<i32>) -> tensor<3xi32> {\n"
        '  %0 = "stablehlo.reduce"(%arg0, %arg1) ({\n'
        "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
        '    %1 = "stablehlo.multiply"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n'
        '    "stablehlo.return"(%1) : (tensor<i32>) -> ()\n'
        "  }) {dimensions = array<i64: 1>, foo = 2 : i32} : (tensor<3x4xi32>, tensor<i32>) -> "
        "tensor<3xi32>\n  return %0 : tensor<3xi32>\n}"
    )
    _check_syntax(text)
    (got,) = run(parse_module(text), np.arange(12, dtype=np.int32).reshape(3, 4) + 1, 2)
    np.testing.assert_array_equal(got, [48, 3360, 23760])


def test_full_reduce_syntax_when_body_is_not_a_single_op():
    _require("stablehlo.add", "stablehlo.subtract")
    text = (
        "func.func @main(%arg0: tensor<3x4xf32>, %arg1: tensor<f32>) -> tensor<3xf32> {\n"
        '  %0 = "stablehlo.reduce"(%arg0, %arg1) ({\n'
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        '    %1 = "stablehlo.subtract"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
        '    "stablehlo.return"(%1) : (tensor<f32>) -> ()\n'
        "  }) {dimensions = array<i64: 1>} : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>\n"
        "  return %0 : tensor<3xf32>\n}"
    )
    _check_syntax(text)
    assert " reducer(" in jaxlib_asm(text)


@pytest.mark.parametrize("which", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [0, 1])
def test_variadic_reduce_argmax(which, axis):
    _require(*ELEMENTWISE, "stablehlo.or", "stablehlo.and", "stablehlo.iota")
    x = _rand(5, (5, 6))
    x[1, :] = 7.0  # ties: the first index wins
    x[:, 2] = 7.0
    f = getattr(jnp, which)
    text = _check_jax(lambda a: f(a, axis=axis), x)
    assert "reducer(" in text


def test_vectorized_body_equals_the_known_op_path():
    """The ufunc path and the generic path run the same tree: identical bits."""
    _require("stablehlo.add")
    x = _rand(6, (7, 33)) * 1e3
    text = jax.jit(lambda a: jnp.sum(a, axis=1)).lower(x).as_text()
    module = parse_module(text)
    reduce = next(op for op in module.walk() if op.name == "stablehlo.reduce")
    interp = Interpreter(module)
    fast = RegionRunner(reduce, reduce.regions[0], interp)
    slow = RegionRunner(reduce, reduce.regions[0], interp)
    assert fast.ufunc is np.add
    slow.ufunc = None
    init = np.zeros((), np.float32)
    (a,) = tree_reduce(fast, [x], [init])
    (b,) = tree_reduce(slow, [x], [init])
    assert a.tobytes() == b.tobytes()
    np.testing.assert_allclose(a, x.sum(axis=1), rtol=1e-5)


# -- reduce_window ----------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    window=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    strides=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    padding=st.sampled_from(["SAME", "VALID", ((1, 0), (2, 1))]),
    base=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    dilation=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    kind=st.sampled_from(["max", "add"]),
    seed=st.integers(0, 2**16),
)
def test_reduce_window_matches_jax(window, strides, padding, base, dilation, kind, seed):
    _require("stablehlo.add", "stablehlo.maximum")
    if isinstance(padding, str):
        base = (1, 1)
    x = _rand(seed, (5, 6))
    init, op = (-np.inf, lax.max) if kind == "max" else (0.0, lax.add)

    def f(a):
        return lax.reduce_window(a, init, op, window, strides, padding, base, dilation)

    text = _check_jax(f, x)
    assert '"stablehlo.reduce_window"' in text


@pytest.mark.parametrize("cumulative", ["cumsum", "cummax", "cumprod"])
def test_cumulative_ops_lower_to_reduce_window(cumulative):
    _require("stablehlo.add", "stablehlo.maximum", "stablehlo.multiply")
    x = _rand(7, (4, 5))
    f = getattr(jnp, cumulative) if cumulative != "cummax" else lax.cummax
    _check_jax(lambda a: f(a, axis=1), x, rtol=1e-5)


# -- select_and_scatter ------------------------------------------------------------------------


@pytest.mark.parametrize("stride", [1, 2])
def test_max_pool_gradient_is_select_and_scatter(stride):
    _require(*ELEMENTWISE, "stablehlo.pad", "stablehlo.slice", "stablehlo.broadcast_in_dim")

    def pool(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, stride, stride, 1), "SAME")

    x = _rand(8, (2, 5, 5, 3))
    x[0, 0, :2, 0] = 1.5  # a tie inside a window: the first element gets the gradient
    g = jax.grad(lambda x: (pool(x) * jnp.arange(pool(x).size).reshape(pool(x).shape)).sum())
    text = _check_jax(g, x)
    assert '"stablehlo.select_and_scatter"' in text


# -- sort -----------------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_matches_jax(axis, descending):
    _require(*ELEMENTWISE)
    x = _rand(9, (6, 7))
    x[2, :3] = 0.5  # ties
    x[0, 0], x[1, 1] = -0.0, 0.0
    _check_jax(lambda a: jnp.sort(a, axis=axis, descending=descending), x)
    _check_jax(lambda a: jnp.argsort(a, axis=axis, descending=descending), x)


def test_sort_multiple_operands_and_keys():
    _require(*ELEMENTWISE, "stablehlo.and", "stablehlo.or")
    keys = _rand(10, (4, 9), "int32") % 3
    values = _rand(11, (4, 9))
    ints = _rand(12, (4, 9), "int32")
    _check_jax(lambda k, v: lax.sort((k, v), dimension=1, num_keys=1), keys, values)
    _check_jax(lambda k, i, v: lax.sort((k, i, v), dimension=0, num_keys=2), keys, ints, values)


def test_long_rows_sort_row_by_row(monkeypatch):
    _require(*ELEMENTWISE)
    import shardonnay.ops.reduction as reduction

    monkeypatch.setattr(reduction, "_PAIRWISE_LIMIT", 4)
    x = _rand(13, (2, 9))
    x[0, :4] = 0.25
    _check_jax(lambda a: jnp.argsort(a, axis=1), x)


def test_top_k_is_not_a_stablehlo_sort():
    text = jax.jit(lambda a: lax.top_k(a, 2)).lower(_rand(0, (3, 4))).as_text()
    assert "chlo.top_k" in text and "stablehlo.sort" not in text


# -- reduce_precision ------------------------------------------------------------------------


@pytest.mark.parametrize(("exponent", "mantissa"), [(5, 10), (8, 7), (4, 3), (8, 0), (6, 23)])
def test_reduce_precision_matches_jax(exponent, mantissa):
    x = (_rand(14, (64,)) * np.logspace(-12, 12, 64)).astype(np.float32)
    x[:4] = [np.inf, -np.inf, 0.0, 65519.0]
    text = _check_jax(lambda a: lax.reduce_precision(a, exponent, mantissa), x, rtol=0, atol=0)
    assert f"format = e{exponent}m{mantissa}" in text
    # f64 values that are f32 values round the same way in either width.
    want = np.asarray(lax.reduce_precision(x, exponent, mantissa))
    np.testing.assert_array_equal(reduce_precision(x.astype(np.float64), exponent, mantissa), want)
    nan = reduce_precision(np.array([np.nan, -np.nan], np.float32), exponent, mantissa)
    assert np.isnan(nan).all() if mantissa else np.isinf(nan).all()


def test_reduce_precision_syntax_with_attributes():
    text = (
        "func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {\n"
        '  %0 = "stablehlo.reduce_precision"(%arg0) {exponent_bits = 8 : i32, '
        "mantissa_bits = 0 : i32, bar} : (tensor<3xf32>) -> tensor<3xf32>\n"
        "  return %0 : tensor<3xf32>\n}"
    )
    _check_syntax(text)
    op = parse_module(jaxlib_asm(text)).functions[0].body.ops[0]
    assert op.attributes["exponent_bits"] == IntegerAttr(8, "i32")
    with pytest.raises(ParseError, match="format like e5m10"):
        parse_module(jaxlib_asm(text).replace("e8m0", "e8"))


# -- rng ---------------------------------------------------------------------------------------

RNG = """func.func @main(%arg0: tensor<2xui64>, %arg1: tensor<f32>, %arg2: tensor<f32>,
    %arg3: tensor<2xi64>) -> (tensor<2xui64>, tensor<3x4xf32>, tensor<5xui8>, tensor<3x4xf32>) {
  %0:2 = "stablehlo.rng_bit_generator"(%arg0) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>,
    foo = 1 : i32} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x4xf32>)
  %1:2 = "stablehlo.rng_bit_generator"(%0#0) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}
    : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui8>)
  %2 = "stablehlo.rng"(%arg1, %arg2, %arg3)
    {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
    : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %1#0, %0#1, %1#1, %2 : tensor<2xui64>, tensor<3x4xf32>, tensor<5xui8>, tensor<3x4xf32>
}"""


def test_rng_syntax_shapes_and_determinism():
    _check_syntax(RNG)
    pretty = jaxlib_asm(RNG)
    assert "%output_state_0, %output_1 = stablehlo.rng_bit_generator" in pretty
    module = parse_module(pretty)
    args = (np.array([7, 9], np.uint64), np.float32(-2), np.float32(3), np.array([3, 4]))
    first = run(module, *args)
    again = run(module, *args)
    for a, b in zip(first, again, strict=True):
        assert a.tobytes() == b.tobytes()
    state, bits, small, uniform = first
    assert state.dtype == np.uint64 and state.shape == (2,) and state.tolist() != [7, 9]
    assert bits.shape == (3, 4) and small.dtype == np.uint8
    assert ((uniform >= -2) & (uniform < 3)).all() and uniform.std() > 0
    other = run(module, np.array([7, 10], np.uint64), *args[1:])
    assert other[1].tobytes() != bits.tobytes()


def test_rng_bit_generator_attributes_and_errors():
    op = parse_module(jaxlib_asm(RNG)).functions[0].body.ops[0]
    assert op.attributes["rng_algorithm"] == EnumAttr("stablehlo", "rng_algorithm", "THREE_FRY")
    bad = jaxlib_asm(RNG).replace("algorithm = DEFAULT", "algorithm = FANCY")
    with pytest.raises(ParseError, match="unknown rng algorithm"):
        parse_module(bad)


def test_reduce_verifier_reports_bad_dimensions():
    text = jax.jit(lambda a: jnp.sum(a, axis=1)).lower(_rand(0, (3, 4))).as_text()
    module = parse_module(text)
    reduce = next(op for op in module.walk() if op.name == "stablehlo.reduce")
    reduce.attributes["dimensions"] = DenseArrayAttr("i64", (1, 1))
    with pytest.raises(IRError, match="repeated or out of range"):
        lookup(reduce.name).verify(reduce)
