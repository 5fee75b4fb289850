"""dot_general, dot and convolution: text exactly as MLIR prints it, numerics as JAX computes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shardonnay.errors import IRError, ParseError
from shardonnay.ir.attributes import EnumAttr, StructAttr
from shardonnay.ir.types import TensorType
from shardonnay.ops.convolution import ConvDimensions
from shardonnay.ops.registry import lookup
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

from shardonnay.testing.mlir_oracle import jaxlib_asm  # noqa: E402


def _module(op: str, inputs: list[str], result: str) -> str:
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(inputs))
    return f"func.func @main({args}) -> {result} {{\n  %0 = {op}\n  return %0 : {result}\n}}"


def _check_syntax(text: str) -> None:
    """The three text properties: generic -> pretty, pretty round trip, generic print."""
    pretty, generic = jaxlib_asm(text), jaxlib_asm(text, generic=True)
    module = parse_module(generic)
    assert module.to_text() == pretty
    assert parse_module(pretty).to_text() == pretty
    assert module.to_text(generic=True) == generic
    assert parse_module(pretty).to_text(generic=True) == generic


def _check_jax(f, *args, rtol: float = 1e-5, atol: float = 1e-5) -> str:
    text = jax.jit(f).lower(*args).as_text()
    _check_syntax(text)
    module = parse_module(jaxlib_asm(text, generic=True))
    (got,) = run(module, *args)
    want = np.asarray(f(*args))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
    return jaxlib_asm(text)


A, B, R = "tensor<3x4xf32>", "tensor<4x5xf32>", "tensor<3x5xf32>"
DOT = "#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>"
ALGORITHM = (
    "#stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, "
    "accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, "
    "num_primitive_operations = 3, allow_imprecise_accumulation = false>"
)
DEFAULTS = "[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]"

DOT_CASES = [
    (f'"stablehlo.dot_general"(%arg0, %arg1) {{dot_dimension_numbers = {DOT}}}', [A, B], R),
    (
        f'"stablehlo.dot_general"(%arg0, %arg1) {{dot_dimension_numbers = {DOT}, '
        f"precision_config = {DEFAULTS}, algorithm = {ALGORITHM}}}",
        [A, B],
        R,
    ),
    (
        f'"stablehlo.dot_general"(%arg0, %arg1) {{dot_dimension_numbers = {DOT}, foo = 1 : i32, '
        "precision_config = [#stablehlo<precision HIGH>, #stablehlo<precision HIGHEST>]}",
        [A, B],
        "tensor<3x5xf64>",
    ),
    (
        '"stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<>, '
        "precision_config = []}",
        [A, B],
        "tensor<3x4x4x5xf32>",
    ),
    (
        '"stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<'
        "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]>}",
        ["tensor<2x3xf32>", "tensor<2x4xf32>"],
        "tensor<2x3x4xf32>",
    ),
    (
        '"stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<'
        "lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], "
        "lhs_contracting_dimensions = [1, 2], rhs_contracting_dimensions = [0, 2]>}",
        ["tensor<2x3x4xf32>", "tensor<3x2x4x6xf32>"],
        "tensor<2x6xf32>",
    ),
    ('"stablehlo.dot"(%arg0, %arg1)', [A, B], R),
    (f'"stablehlo.dot"(%arg0, %arg1) {{precision_config = {DEFAULTS}, bar}}', [A, B], R),
    (
        '"stablehlo.dot"(%arg0, %arg1) {precision_config = []}',
        [A, "tensor<4xf32>"],
        "tensor<3xf32>",
    ),
    ('"stablehlo.dot"(%arg0, %arg1)', ["tensor<4xi32>", "tensor<4xi32>"], "tensor<i32>"),
]


@pytest.mark.parametrize("case", DOT_CASES, ids=lambda c: c[0][:40])
def test_dot_syntax_and_numerics(case):
    op, inputs, result = case
    types = ", ".join(inputs)
    text = _module(f"{op} : ({types}) -> {result}", inputs, result)
    _check_syntax(text)
    module = parse_module(text)
    args = [np.random.default_rng(1).normal(size=_shape(t)).astype(_dtype(t)) for t in inputs]
    (got,) = run(module, *args)
    dot = module.functions[0].body.ops[0]
    numbers = dot.attributes.get("dot_dimension_numbers", StructAttr("stablehlo.dot", ()))
    lc = numbers.get("lhs_contracting_dimensions", (args[0].ndim - 1,) if 'dot"' in op else ())
    rc = numbers.get("rhs_contracting_dimensions", (0,) if 'dot"' in op else ())
    lb = numbers.get("lhs_batching_dimensions", ())
    rb = numbers.get("rhs_batching_dimensions", ())
    want = lax.dot_general(args[0], args[1], ((lc, rc), (lb, rb)), precision="highest")
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=1e-5)
    assert got.dtype == _dtype(result)


def _shape(t: str) -> tuple[int, ...]:
    return TensorType.parse(t).shape


def _dtype(t: str) -> np.dtype:
    return TensorType.parse(t).dtype


def test_dot_general_attributes_match_generic_form():
    pretty = (
        "func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>)"
        " -> tensor<2x3x5xf32> {\n"
        "  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = "
        "[2] x [1], precision = [DEFAULT, HIGH] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> "
        "tensor<2x3x5xf32>\n  return %0 : tensor<2x3x5xf32>\n}"
    )
    op = parse_module(pretty).functions[0].body.ops[0]
    numbers = op.attributes["dot_dimension_numbers"]
    assert numbers["lhs_batching_dimensions"] == (0,)
    assert numbers["rhs_contracting_dimensions"] == (1,)
    assert op.attributes["precision_config"][1] == EnumAttr("stablehlo", "precision", "HIGH")
    generic = parse_module(jaxlib_asm(pretty, generic=True)).functions[0].body.ops[0]
    assert generic.attributes == op.attributes


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    batch=st.integers(0, 2),
    contract=st.integers(1, 2),
    free=st.tuples(st.integers(0, 1), st.integers(0, 1)),
    dtype=st.sampled_from(["float32", "int32"]),
    seed=st.integers(0, 2**16),
)
def test_dot_general_matches_jax(batch, contract, free, dtype, seed):
    rng = np.random.default_rng(seed)
    lhs_shape = [2] * batch + [3] * free[0] + [4] * contract
    rhs_shape = [2] * batch + [4] * contract + [5] * free[1]
    lhs_perm = list(rng.permutation(len(lhs_shape)))
    rhs_perm = list(rng.permutation(len(rhs_shape)))
    lhs = rng.normal(size=[lhs_shape[i] for i in lhs_perm]) * 3
    rhs = rng.normal(size=[rhs_shape[i] for i in rhs_perm]) * 3
    lhs, rhs = lhs.astype(dtype), rhs.astype(dtype)

    def where(perm, logical):
        return tuple(perm.index(i) for i in logical)

    lb = where(lhs_perm, range(batch))
    rb = where(rhs_perm, range(batch))
    lc = where(lhs_perm, range(batch + free[0], batch + free[0] + contract))
    rc = where(rhs_perm, range(batch, batch + contract))
    _check_jax(
        lambda a, b: lax.dot_general(a, b, ((lc, rc), (lb, rb)), precision="highest"), lhs, rhs
    )


def test_dot_preferred_element_type_and_legacy_dot():
    rng = np.random.default_rng(0)
    a = rng.integers(-100, 100, size=(3, 4)).astype(np.int8)
    b = rng.integers(-100, 100, size=(4, 2)).astype(np.int8)
    text = _check_jax(
        lambda x, y: lax.dot_general(
            x, y, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32
        ),
        a,
        b,
    )
    assert "-> tensor<3x2xi32>" in text  # int8 products accumulate without wrapping
    x = rng.normal(size=(3, 4)).astype(np.float32)
    _check_jax(lambda u, v: jnp.dot(u, v), x, rng.normal(size=(4,)).astype(np.float32))


CONV_X, CONV_W = "tensor<1x8x8x3xf32>", "tensor<3x3x3x4xf32>"
CONV_D = "dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"
CONV_CASES = [
    ("", "tensor<1x6x6x4xf32>"),
    (", window_strides = array<i64: 2, 1>", "tensor<1x3x6x4xf32>"),
    (", padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>", "tensor<1x7x6x4xf32>"),
    (", window_reversal = array<i1: true, false>", "tensor<1x6x6x4xf32>"),
    (", lhs_dilation = array<i64: 2, 1>, rhs_dilation = array<i64: 1, 2>", "tensor<1x13x4x4xf32>"),
    (", precision_config = [], baz = 2 : i32", "tensor<1x6x6x4xf32>"),
    (
        ", window_strides = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, "
        "lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, "
        "window_reversal = array<i1: false, false>",
        "tensor<1x8x8x4xf32>",
    ),
]


@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: c[0][:30] or "bare")
def test_convolution_syntax(case):
    extra, result = case
    op = (
        f'"stablehlo.convolution"(%arg0, %arg1) {{{CONV_D}, batch_group_count = 1 : i64, '
        f"feature_group_count = 1 : i64{extra}}} : ({CONV_X}, {CONV_W}) -> {result}"
    )
    text = _module(op, [CONV_X, CONV_W], result)
    _check_syntax(text)
    module = parse_module(text)
    conv = module.functions[0].body.ops[0]
    assert lookup(conv.name).infer_types(conv) == conv.result_types


def test_convolution_reversal_flips_the_kernel():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(1, 8, 8, 3)).astype(np.float32)
    w = rng.normal(size=(3, 3, 3, 4)).astype(np.float32)
    op = (
        f'"stablehlo.convolution"(%arg0, %arg1) {{{CONV_D}, batch_group_count = 1 : i64, '
        "feature_group_count = 1 : i64, window_reversal = array<i1: true, false>} : "
        f"({CONV_X}, {CONV_W}) -> tensor<1x6x6x4xf32>"
    )
    (got,) = run(parse_module(_module(op, [CONV_X, CONV_W], "tensor<1x6x6x4xf32>")), x, w)
    want = lax.conv_general_dilated(
        x, w[::-1], (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"), precision="highest"
    )
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=1e-5)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    layout=st.sampled_from(
        [("NHWC", "HWIO", "NHWC"), ("NCHW", "OIHW", "NCHW"), ("NCHW", "HWIO", "NHWC")]
    ),
    strides=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    padding=st.sampled_from(["SAME", "VALID", ((1, 2), (0, 1)), ((-1, 1), (2, 0))]),
    lhs_dilation=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    rhs_dilation=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    groups=st.sampled_from([(1, 1), (3, 1), (1, 2)]),
    seed=st.integers(0, 2**16),
)
def test_convolution_2d_matches_jax(
    layout, strides, padding, lhs_dilation, rhs_dilation, groups, seed
):
    feature_groups, batch_groups = groups
    if isinstance(padding, str) and lhs_dilation != (1, 1):
        lhs_dilation = (1, 1)  # JAX's SAME/VALID are for undilated inputs
    rng = np.random.default_rng(seed)
    n, c, o = 2 * batch_groups, 3, 6
    x = rng.normal(size=(n, 7, 6, c)).astype(np.float32)  # NHWC
    w = rng.normal(size=(3, 2, c // feature_groups, o)).astype(np.float32)  # HWIO
    x = np.transpose(x, ["NHWC".index(a) for a in layout[0]])
    w = np.transpose(w, ["HWIO".index(a) for a in layout[1]])

    def f(a, b):
        return lax.conv_general_dilated(
            a,
            b,
            strides,
            padding,
            lhs_dilation=lhs_dilation,
            rhs_dilation=rhs_dilation,
            dimension_numbers=layout,
            feature_group_count=feature_groups,
            batch_group_count=batch_groups,
            precision="highest",
        )

    text = _check_jax(f, x, w, rtol=1e-4, atol=1e-4)
    assert "stablehlo.convolution(" in text


@pytest.mark.parametrize("spatial", [1, 3])
def test_convolution_other_ranks_match_jax(spatial):
    rng = np.random.default_rng(spatial)
    x = rng.normal(size=(2, 3, *(5,) * spatial)).astype(np.float32)
    w = rng.normal(size=(4, 3, *(2,) * spatial)).astype(np.float32)
    _check_jax(
        lambda a, b: lax.conv_general_dilated(a, b, (1,) * spatial, "SAME", precision="highest"),
        x,
        w,
    )


def test_conv_dimensions_text():
    d = ConvDimensions.parse("[f, 0, b]x[o, 0, i]->[0, b, f]")
    assert (d.input_batch, d.input_feature, d.output_spatial) == (2, 0, (0,))
    assert str(d) == "[f, 0, b]x[o, 0, i]->[0, b, f]"
    raw = ConvDimensions.parse(
        "#stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 2, "
        "input_spatial_dimensions = [1], kernel_input_feature_dimension = 1, "
        "kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0], "
        "output_batch_dimension = 0, output_feature_dimension = 2, output_spatial_dimensions = [1]>"
    )
    assert str(raw) == "[b, 0, f]x[0, i, o]->[b, 0, f]"
    with pytest.raises(ValueError):
        ConvDimensions.parse("[b, 0, 0]x[0, i, o]->[b, 0, f]")


def test_bad_input_is_reported():
    bad_dims = _module(
        f"stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] y [0] : ({A}, {B}) -> {R}",
        [A, B],
        R,
    )
    with pytest.raises(ParseError, match="'x'"):
        parse_module(bad_dims)
    bad_window = _module(
        "stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"
        f", window = {{strides = [1, 1]}} : ({CONV_X}, {CONV_W}) -> tensor<1x6x6x4xf32>",
        [CONV_X, CONV_W],
        "tensor<1x6x6x4xf32>",
    )
    with pytest.raises(ParseError, match="window attribute 'strides'"):
        parse_module(bad_window)
    wrong_shape = parse_module(
        _module(
            f'"stablehlo.dot_general"(%arg0, %arg1) {{dot_dimension_numbers = {DOT}}} : '
            f"({A}, {B}) -> tensor<3x6xf32>",
            [A, B],
            "tensor<3x6xf32>",
        )
    )
    op = wrong_shape.functions[0].body.ops[0]
    with pytest.raises(IRError, match="expected shape"):
        lookup(op.name).verify(op)
    mismatch = parse_module(
        _module(
            '"stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<'
            "lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>} : "
            f"({A}, {B}) -> tensor<4x5xf32>",
            [A, B],
            "tensor<4x5xf32>",
        )
    )
    op = mismatch.functions[0].body.ops[0]
    with pytest.raises(IRError, match="has size 3 but dimension 0 of rhs has size 4"):
        lookup(op.name).verify(op)
