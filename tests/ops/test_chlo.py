"""The `chlo` ops: syntax against MLIR's own printer, numerics against JAX."""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay.errors import IRError, ParseError
from shardonnay.ir.verifier import verify
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.mlir_oracle import assert_text_as_jaxlib

UNARY = [
    "square",
    "acos",
    "asin",
    "atan",
    "acosh",
    "asinh",
    "atanh",
    "sinh",
    "cosh",
    "tan",
    "erf",
    "erfc",
    "erf_inv",
    "lgamma",
    "digamma",
]


def generic_module(body: list[str], args: list[str], results: list[str]) -> str:
    """@main(args) -> results with `body` (generic-form ops; the last line returns)."""
    sig = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(args))
    lines = "\n".join(f"  {line}" for line in body)
    return f"func.func @main({sig}) -> ({', '.join(results)}) {{\n{lines}\n}}"


# -- syntax ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", [*UNARY, "next_after"])
@pytest.mark.parametrize("element", ["f32", "bf16", "f64"])
@pytest.mark.parametrize(
    "attrs", ["", " {foo = 1 : i32}", ' {mhlo.frontend_attributes = {a = "b"}}']
)
def test_elementwise_syntax(op: str, element: str, attrs: str) -> None:
    pytest.importorskip("jax")
    t = f"tensor<3x2x{element}>"
    operands, types = ("%arg0, %arg1", f"{t}, {t}") if op == "next_after" else ("%arg0", t)
    body = [f'%0 = "chlo.{op}"({operands}){attrs} : ({types}) -> {t}', f"return %0 : {t}"]
    assert_text_as_jaxlib(generic_module(body, [t, t] if op == "next_after" else [t], [t]))


@pytest.mark.parametrize("element", ["complex<f32>", "f16"])
def test_complex_and_scalar_syntax(element: str) -> None:
    pytest.importorskip("jax")
    t = f"tensor<{element}>"
    body = [
        f'%0 = "chlo.square"(%arg0) : ({t}) -> {t}',
        f'%1 = "chlo.sinh"(%0) : ({t}) -> {t}',
        f"return %1 : {t}",
    ]
    assert_text_as_jaxlib(generic_module(body, [t], [t]))


def tensor(shape: tuple[int, ...], element: str) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{element}>"


@pytest.mark.parametrize(
    "props_attrs",
    ["<{k = 2 : i64}>", "{k = 2 : i64, bar}", '<{k = 2 : i64}> {sdy.x = "y", zz = 1 : i64}'],
)
@pytest.mark.parametrize(("shape", "element"), [((5,), "f32"), ((3, 4, 5), "i32"), ((2, 5), "ui8")])
def test_top_k_syntax(props_attrs: str, shape: tuple[int, ...], element: str) -> None:
    pytest.importorskip("jax")
    t = tensor(shape, element)
    top2 = (tensor((*shape[:-1], 2), element), tensor((*shape[:-1], 2), "i32"))
    top1 = (tensor((*shape[:-1], 1), element), tensor((*shape[:-1], 1), "i32"))
    body = [
        f'%0:2 = "chlo.top_k"(%arg0) {props_attrs} : ({t}) -> ({", ".join(top2)})',
        f'%1:2 = "chlo.top_k"(%0#0) <{{k = 1 : i64}}> : ({top2[0]}) -> ({", ".join(top1)})',
        f"return %0#0, %0#1, %1#1 : {top2[0]}, {top2[1]}, {top1[1]}",
    ]
    assert_text_as_jaxlib(generic_module(body, [t], [*top2, top1[1]]))


def test_syntax_of_jax_lowering() -> None:
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    def f(x, y):
        return (
            jnp.square(x),
            jax.lax.top_k(x, 3),
            jax.lax.erf(x),
            jax.lax.lgamma(y),
            jnp.arcsinh(x),
            jax.lax.nextafter(x, y),
        )

    spec = jax.ShapeDtypeStruct((4, 6), jnp.float32)
    assert_text_as_jaxlib(jax.jit(f).lower(spec, spec).as_text())


def test_top_k_result_names_are_made_unique() -> None:
    text = parse_module(
        generic_module(
            [
                '%0:2 = "chlo.top_k"(%arg0) <{k = 1 : i64}> : (tensor<3xf32>) -> '
                "(tensor<1xf32>, tensor<1xi32>)",
                '%1:2 = "chlo.top_k"(%arg0) <{k = 2 : i64}> : (tensor<3xf32>) -> '
                "(tensor<2xf32>, tensor<2xi32>)",
                "return %1#1 : tensor<2xi32>",
            ],
            ["tensor<3xf32>"],
            ["tensor<2xi32>"],
        )
    ).to_text()
    assert "%values, %indices = chlo.top_k(%arg0, k = 1)" in text
    assert "%values_0, %indices_1 = chlo.top_k(%arg0, k = 2)" in text


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("%0 = chlo.square %arg0 : tensor<4xf32>", "'->'"),
        ("%0 = chlo.square %arg0 : tensor<4xf64> -> tensor<4xf64>", "use of a value of type"),
        (
            "%0, %1 = chlo.top_k(%arg0, j = 2) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi32>)",
            "k",
        ),
        ("%0, %1 = chlo.top_k(%arg0, k = 2) : tensor<4xf32> -> (tensor<2xf32>)", "two results"),
        ("%0, %1 = chlo.top_k(%arg0, k = x) : tensor<4xf32> -> (tensor<2xf32>)", "integer"),
    ],
)
def test_parse_errors(line: str, message: str) -> None:
    source = f"func.func @main(%arg0: tensor<4xf32>) {{\n  {line}\n  return\n}}"
    with pytest.raises(ParseError, match=message):
        parse_module(source)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('%0 = "chlo.square"(%arg1) : (tensor<4xi32>) -> tensor<4xi32>', "float or complex"),
        ('%0 = "chlo.erf"(%arg2) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>', "float"),
        ('%0 = "chlo.erf"(%arg0) : (tensor<4xf32>) -> tensor<5xf32>', "differs"),
        ('%0 = "chlo.square"(%arg0) : (tensor<4xf32>) -> tensor<4xf64>', "differs"),
        (
            '%0:2 = "chlo.top_k"(%arg0) <{k = 5 : i64}> : (tensor<4xf32>) -> '
            "(tensor<5xf32>, tensor<5xi32>)",
            "at least 5",
        ),
        (
            '%0:2 = "chlo.top_k"(%arg3) <{k = 1 : i64}> : (tensor<f32>) -> '
            "(tensor<f32>, tensor<i32>)",
            "rank",
        ),
        (
            '%0:2 = "chlo.top_k"(%arg0) <{k = 2 : i64}> : (tensor<4xf32>) -> '
            "(tensor<2xf32>, tensor<2xi64>)",
            "inferred",
        ),
    ],
)
def test_verify_errors(line: str, message: str) -> None:
    source = (
        "func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>, "
        "%arg2: tensor<4xcomplex<f32>>, %arg3: tensor<f32>) {\n"
        f"  {line}\n  return\n}}"
    )
    try:
        from shardonnay.testing.mlir_oracle import jaxlib_accepts

        assert not jaxlib_accepts(source)
    except ImportError:
        pass
    with pytest.raises(IRError, match=message):
        verify(parse_module(source))


# -- numerics ------------------------------------------------------------------------------------

# Inputs in each function's domain (and away from the zeros of lgamma and digamma, where
# the relative error of any float32 implementation is large).
DOMAINS = {
    "acos": (-0.99, 0.99),
    "asin": (-0.99, 0.99),
    "atanh": (-0.99, 0.99),
    "erf_inv": (-0.999, 0.999),
    "acosh": (1.01, 6.0),
    "lgamma": (2.2, 9.0),
    "digamma": (1.6, 9.0),
}


def jax_function(op: str):
    import jax
    import jax.numpy as jnp

    return {
        "square": jnp.square,
        "acos": jnp.arccos,
        "asin": jnp.arcsin,
        "atan": jnp.arctan,
        "acosh": jnp.arccosh,
        "asinh": jnp.arcsinh,
        "atanh": jnp.arctanh,
        "sinh": jnp.sinh,
        "cosh": jnp.cosh,
        "tan": jnp.tan,
        "erf": jax.lax.erf,
        "erfc": jax.lax.erfc,
        "erf_inv": jax.lax.erf_inv,
        "lgamma": jax.lax.lgamma,
        "digamma": jax.lax.digamma,
    }[op]


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("shape", [(), (7,), (3, 5)])
def test_unary_numerics_against_jax(op: str, shape: tuple[int, ...]) -> None:
    jax = pytest.importorskip("jax")
    rng = np.random.default_rng(len(shape) * 100 + UNARY.index(op))
    low, high = DOMAINS.get(op, (-3.0, 3.0))
    x = rng.uniform(low, high, shape).astype(np.float32)
    if op == "lgamma":  # the reflection branch too, away from the poles
        negative = rng.uniform(-0.9, -0.1, shape)
        x = np.where(rng.uniform(size=shape) < 0.3, negative, x).astype(np.float32)
    f = jax_function(op)
    if op == "tan":  # JAX lowers tan to stablehlo.tan: write the chlo op by hand
        t = tensor(shape, "f32")
        body = [f'%0 = "chlo.tan"(%arg0) : ({t}) -> {t}', f"return %0 : {t}"]
        text = generic_module(body, [t], [t])
    else:
        text = jax.jit(f).lower(x).as_text()
        assert f"chlo.{op}" in text
    (got,) = run(parse_module(text), x)
    want = np.asarray(f(x))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op", ["erf", "lgamma", "digamma", "erf_inv", "atanh"])
def test_special_values(op: str) -> None:
    jax = pytest.importorskip("jax")
    x = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, np.inf, -np.inf, np.nan, 0.5], np.float32)
    f = jax_function(op)
    (got,) = run(parse_module(jax.jit(f).lower(x).as_text()), x)
    np.testing.assert_allclose(got, np.asarray(f(x)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float64, "bfloat16", np.float16])
def test_unary_other_float_types(dtype) -> None:
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    x = np.linspace(-2.5, 2.5, 11).astype(jnp.dtype(dtype))

    def f(x):
        return jnp.square(x), jax.lax.erf(x), jnp.sinh(x)

    with jax.enable_x64(dtype == np.float64):
        text = jax.jit(f).lower(x).as_text()
        want = [np.asarray(w) for w in f(x)]
    got = run(parse_module(text), x)
    rtol = 1e-12 if dtype == np.float64 else 1e-2
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol)


def test_square_of_complex() -> None:
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    rng = np.random.default_rng(3)
    x = (rng.standard_normal(6) + 1j * rng.standard_normal(6)).astype(np.complex64)
    text = jax.jit(jnp.square).lower(x).as_text()
    assert "chlo.square" in text
    (got,) = run(parse_module(text), x)
    np.testing.assert_allclose(got, np.asarray(jnp.square(x)), rtol=1e-6)


def test_next_after_against_jax() -> None:
    jax = pytest.importorskip("jax")
    x = np.array([0.0, -0.0, 1.0, 1.0, -1.0, np.inf, 3.0, np.nan, 2.0, 0.0], np.float32)
    y = np.array([1.0, -1.0, 2.0, 0.0, -1.0, 0.0, np.nan, 1.0, np.inf, -0.0], np.float32)
    f = jax.jit(jax.lax.nextafter)
    (got,) = run(parse_module(f.lower(x, y).as_text()), x, y)
    want = np.asarray(f(x, y))
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got.view(np.int32)[~nan], want.view(np.int32)[~nan])


@pytest.mark.parametrize(
    ("shape", "k", "dtype"),
    [
        ((11,), 11, np.float32),
        ((11,), 4, np.float32),
        ((3, 2, 11), 5, np.float32),
        ((4, 11), 3, np.int32),
        ((2, 11), 6, np.uint8),
        ((11,), 7, "bfloat16"),
        ((5, 11), 11, np.float16),
    ],
)
def test_top_k_against_jax(shape: tuple[int, ...], k: int, dtype) -> None:
    """Ties keep index order; the order is total: NaN > inf, -0.0 < 0.0, -NaN < -inf."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    dtype = jnp.dtype(dtype)
    rng = np.random.default_rng(k)
    if dtype.kind == "f" or dtype.name == "bfloat16":
        pool = np.array([1.0, 3.0, -0.0, 0.0, np.inf, -np.inf, np.nan, -2.5, 7.0], np.float32)
        x = rng.choice(pool, shape)
        x.reshape(-1)[::7] = np.copysign(np.nan, -1.0)
        x = x.astype(dtype)
    else:
        x = rng.integers(0 if dtype.kind == "u" else -5, 6, shape).astype(dtype)
    f = jax.jit(lambda x: jax.lax.top_k(x, k))
    text = f.lower(x).as_text()
    values, indices = run(parse_module(text), x)
    want_values, want_indices = (np.asarray(w) for w in f(x))
    assert values.dtype == want_values.dtype and indices.dtype == np.int32
    np.testing.assert_array_equal(indices, want_indices)
    bits = np.dtype(f"u{dtype.itemsize}")
    np.testing.assert_array_equal(values.view(bits), want_values.view(bits))
