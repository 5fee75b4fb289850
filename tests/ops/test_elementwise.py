"""StableHLO's elementwise ops, constants and iota: syntax against MLIR's own
printer, numerics against JAX and against the StableHLO spec."""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay.errors import IRError, ParseError
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType
from shardonnay.ops.registry import lookup
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module

SHARDING = '{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}'
ACCURACY = "#stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<{}>>"


def one_op_module(
    name: str,
    operand_types: list[str],
    result_type: str,
    props: str = "",
    attrs: str = "",
) -> str:
    """A module whose @main applies one op (generic form) to its arguments."""
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(operand_types))
    operands = ", ".join(f"%arg{i}" for i in range(len(operand_types)))
    props = f" <{{{props}}}>" if props else ""
    attrs = f" {attrs}" if attrs else ""
    return (
        'sdy.mesh @mesh = <["x"=2]>\n'
        f"func.func @main({args}) -> {result_type} {{\n"
        f'  %0 = "{name}"({operands}){props}{attrs} : ({", ".join(operand_types)}) -> '
        f"{result_type}\n"
        f"  return %0 : {result_type}\n}}"
    )


def check_syntax(text: str) -> str:
    """Our pretty and generic prints of `text` equal MLIR's; both read back."""
    from shardonnay.testing.mlir_oracle import jaxlib_asm

    pretty = jaxlib_asm(text)
    generic = jaxlib_asm(text, generic=True)
    from_generic = parse_module(generic)
    assert from_generic.to_text() == pretty
    assert from_generic.to_text(generic=True) == generic
    from_pretty = parse_module(pretty)
    assert from_pretty.to_text() == pretty
    assert from_pretty.to_text(generic=True) == jaxlib_asm(pretty, generic=True)
    return pretty


F32 = "tensor<4xf32>"
I32 = "tensor<2x3xi32>"
UNARY_FLOAT = [
    "negate",
    "abs",
    "sign",
    "exponential",
    "exponential_minus_one",
    "log",
    "log_plus_one",
    "logistic",
    "sqrt",
    "rsqrt",
    "cbrt",
    "tanh",
    "sine",
    "cosine",
    "tan",
    "floor",
    "ceil",
    "round_nearest_even",
    "round_nearest_afz",
]
BINARY_FLOAT = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "maximum",
    "minimum",
    "power",
    "atan2",
]
BINARY_INT = ["and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical"]
ACCURATE = UNARY_FLOAT[3:15]

SYNTAX_CASES = [
    *[one_op_module(f"stablehlo.{n}", [F32], F32) for n in UNARY_FLOAT],
    *[one_op_module(f"stablehlo.{n}", [F32, F32], F32) for n in BINARY_FLOAT],
    *[one_op_module(f"stablehlo.{n}", [I32, I32], I32) for n in BINARY_INT],
    *[
        one_op_module(f"stablehlo.{n}", [I32], I32)
        for n in ("not", "popcnt", "count_leading_zeros")
    ],
    one_op_module("stablehlo.is_finite", [F32], "tensor<4xi1>"),
    one_op_module("stablehlo.convert", [I32], "tensor<2x3xf32>"),
    one_op_module("stablehlo.convert", [F32], F32, attrs=SHARDING),
    one_op_module("stablehlo.bitcast_convert", [F32], "tensor<4xi32>"),
    one_op_module("stablehlo.bitcast_convert", [F32], "tensor<4x2xi16>"),
    one_op_module("stablehlo.bitcast_convert", ["tensor<4x2xbf16>"], "tensor<4xui32>"),
    one_op_module("stablehlo.real", ["tensor<4xcomplex<f32>>"], F32),
    one_op_module("stablehlo.imag", ["tensor<4xcomplex<f64>>"], "tensor<4xf64>"),
    one_op_module("stablehlo.abs", ["tensor<4xcomplex<f32>>"], F32),
    one_op_module("stablehlo.complex", [F32, F32], "tensor<4xcomplex<f32>>"),
    one_op_module("stablehlo.complex", [F32, F32], "tensor<4xcomplex<f32>>", attrs=SHARDING),
    one_op_module("stablehlo.add", [F32, F32], F32, attrs=SHARDING),
    one_op_module("stablehlo.and", ["tensor<i1>", "tensor<i1>"], "tensor<i1>", attrs="{foo}"),
    one_op_module(
        "stablehlo.exponential", [F32], F32, props="result_accuracy = " + ACCURACY.format("DEFAULT")
    ),
    one_op_module(
        "stablehlo.tanh",
        [F32],
        F32,
        props="result_accuracy = " + ACCURACY.format("HIGHEST"),
        attrs=SHARDING,
    ),
    one_op_module(
        "stablehlo.log",
        [F32],
        F32,
        props="result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 2, "
        "mode = #stablehlo.result_accuracy_mode<TOLERANCE>>",
        attrs="{bar = 1 : i64}",
    ),
    one_op_module(
        "stablehlo.compare",
        [F32, F32],
        "tensor<4xi1>",
        props="comparison_direction = #stablehlo<comparison_direction LT>",
        attrs=SHARDING,
    ),
    *[
        one_op_module(
            "stablehlo.compare",
            [t, t],
            "tensor<4xi1>",
            props=f"compare_type = #stablehlo<comparison_type {k}>, "
            f"comparison_direction = #stablehlo<comparison_direction {d}>",
        )
        for t, k, d in [
            ("tensor<4xi32>", "SIGNED", "GE"),
            ("tensor<4xui8>", "UNSIGNED", "NE"),
            (F32, "TOTALORDER", "EQ"),
            ("tensor<4xcomplex<f32>>", "FLOAT", "EQ"),
        ]
    ],
    one_op_module("stablehlo.select", ["tensor<4xi1>", F32, F32], F32),
    one_op_module(
        "stablehlo.select",
        ["tensor<i1>", I32, I32],
        I32,
        attrs=SHARDING.replace('{"x"}', '{"x"}, {}'),
    ),
    one_op_module("stablehlo.clamp", [F32, F32, F32], F32),
    one_op_module("stablehlo.clamp", ["tensor<f32>", F32, "tensor<f32>"], F32, attrs=SHARDING),
]


@pytest.mark.parametrize("text", SYNTAX_CASES)
def test_syntax_matches_mlir(text: str) -> None:
    pytest.importorskip("jax")
    check_syntax(text)


def test_result_accuracy_default_is_elided_but_kept() -> None:
    pytest.importorskip("jax")
    props = "result_accuracy = " + ACCURACY.format("DEFAULT")
    text = one_op_module("stablehlo.sine", [F32], F32, props=props)
    pretty = check_syntax(text)
    assert "stablehlo.sine %arg0 : tensor<4xf32>" in pretty
    generic = parse_module(text).to_text(generic=True)
    assert "result_accuracy_mode<DEFAULT>" in generic


def test_constants_and_iota_match_mlir() -> None:
    pytest.importorskip("jax")
    body = [
        "%0 = stablehlo.constant dense<[1.500000e+00, 2.000000e+00]> : tensor<2xf32>",
        "%1 = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi8>",
        "%2 = stablehlo.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xbf16>",
        "%3 = stablehlo.constant dense<[true, false]> : tensor<2xi1>",
        "%4 = stablehlo.constant dense<[(1.000000e+00,2.000000e+00), (0.0,-3.0)]> "
        ": tensor<2xcomplex<f32>>",
        '%5 = stablehlo.constant dense<"0x0000803F0000803F0000803F00000040"> : tensor<4xf32>',
        "%6 = stablehlo.constant dense<[0x7FC00000, 1.0, -0.0, 0xFF800000]> : tensor<4xf32>",
        "%7 = stablehlo.constant dense<7> : tensor<ui32>",
        f"%8 = stablehlo.constant {SHARDING} dense<1.0> : tensor<4xf16>",
        "%9 = stablehlo.iota dim = 1 : tensor<2x3xf32>",
        f"%10 = stablehlo.iota dim = 0 {SHARDING} : tensor<4xi64>",
        "%11 = stablehlo.constant dense<2.0> : tensor<200xf64>",
        "%12 = stablehlo.constant dense<1> : tensor<120xi32>",
    ]
    values = ", ".join(f"%{i}" for i in range(len(body)))
    types = ", ".join(line.rsplit(": ", 1)[1] for line in body)
    text = (
        'sdy.mesh @mesh = <["x"=2]>\nfunc.func @main() -> ('
        + types
        + ") {\n  "
        + "\n  ".join(body)
        + f"\n  return {values} : {types}\n}}"
    )
    pretty = check_syntax(text)
    assert "%cst = stablehlo.constant" in pretty
    assert "%c = stablehlo.constant dense<[1, -2, 3]>" in pretty
    assert "%c_1 = stablehlo.constant dense<[true, false]>" in pretty
    results = run(parse_module(pretty))
    assert results[0].tolist() == [1.5, 2.0]
    assert results[1].dtype == np.int8 and results[1].tolist() == [1, -2, 3]
    assert results[2].astype(np.float32).tolist() == [1.0, 2.5]
    assert results[4].tolist() == [1 + 2j, -3j]
    assert results[5].tolist() == [1.0, 1.0, 1.0, 2.0]
    assert np.isnan(results[6][0]) and np.signbit(results[6][2]) and results[6][3] == -np.inf
    np.testing.assert_array_equal(results[9], [[0, 1, 2], [0, 1, 2]])
    np.testing.assert_array_equal(results[10], np.arange(4))
    assert results[11].shape == (200,) and (results[11] == 2).all()


# -- numerics against JAX -----------------------------------------------------------------------


def jax_check(f, *args, rtol: float = 1e-5, exact: bool = False) -> None:
    """`f` lowered by JAX and run by the interpreter agrees with JAX."""
    jax = pytest.importorskip("jax")
    text = jax.jit(f).lower(*args).as_text()
    got = run(parse_module(text), *[np.asarray(a) for a in args])
    want = f(*args)
    want = want if isinstance(want, (tuple, list)) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        if exact or w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g.astype(w.dtype), w, rtol=rtol, atol=1e-6)


def _floats(shape, seed: int = 0, dtype=np.float32) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=shape).astype(dtype) * 3


def _ints(shape, seed: int = 0, dtype=np.int32, low: int = -50, high: int = 50) -> np.ndarray:
    return np.random.default_rng(seed).integers(low, high, size=shape).astype(dtype)


@pytest.mark.parametrize("shape", [(), (2, 3, 4)])
def test_float_unary_ops_match_jax(shape) -> None:
    pytest.importorskip("jax")
    from jax import lax

    x = _floats(shape)
    pos = np.abs(x) + 0.5
    jax_check(
        lambda x, p: [
            lax.neg(x),
            lax.abs(x),
            lax.sign(x),
            lax.exp(x),
            lax.expm1(x),
            lax.log(p),
            lax.log1p(p),
            lax.logistic(x),
            lax.sqrt(p),
            lax.rsqrt(p),
            lax.cbrt(x),
            lax.tanh(x),
            lax.sin(x),
            lax.cos(x),
            lax.tan(x),
            lax.floor(x),
            lax.ceil(x),
            lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN),
            lax.round(x),
            lax.is_finite(x),
        ],
        x,
        pos,
    )


def test_rounding_and_sign_edge_cases_match_jax() -> None:
    pytest.importorskip("jax")
    from jax import lax

    x = np.array(
        [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.0, np.nan, np.inf, -np.inf, 0.0],
        np.float32,
    )
    jax_check(
        lambda x: [
            lax.round(x),
            lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN),
            lax.sign(x),
            lax.is_finite(x),
        ],
        x,
        exact=True,
    )
    got = run(
        parse_module(one_op_module("stablehlo.sign", ["tensor<12xf32>"], "tensor<12xf32>")), x
    )
    assert np.signbit(got[0][7]) and not np.signbit(got[0][11])


@pytest.mark.parametrize("dtype", [np.float32, np.float16, "bfloat16"])
def test_float_binary_ops_match_jax(dtype) -> None:
    pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax import lax

    if dtype == "bfloat16":
        dtype = jnp.bfloat16
    x, y = _floats((3, 4), 1, dtype), _floats((3, 4), 2, dtype)
    y = np.where(np.abs(y.astype(np.float32)) < 0.1, 1, y).astype(dtype)
    rtol = 1e-5 if dtype == np.float32 else 1e-2
    jax_check(
        lambda x, y: [
            lax.add(x, y),
            lax.sub(x, y),
            lax.mul(x, y),
            lax.div(x, y),
            lax.rem(x, y),
            lax.max(x, y),
            lax.min(x, y),
            lax.pow(lax.abs(x), y),
            lax.atan2(x, y),
            lax.clamp(lax.min(x, y), x, lax.max(x, y)),
            lax.select(x < y, x, y),
        ],
        x,
        y,
        rtol=rtol,
    )


def test_nan_propagates_through_maximum_minimum_clamp() -> None:
    pytest.importorskip("jax")
    from jax import lax

    x = np.array([np.nan, 1.0, -np.inf, 2.0], np.float32)
    y = np.array([0.0, np.nan, 3.0, -1.0], np.float32)
    jax_check(
        lambda x, y: [lax.max(x, y), lax.min(x, y), lax.clamp(np.float32(0), x, np.float32(1))],
        x,
        y,
        exact=True,
    )


@pytest.mark.parametrize("dtype", [np.int32, np.int8, np.uint32, np.uint16])
def test_integer_ops_match_jax(dtype) -> None:
    pytest.importorskip("jax")
    from jax import lax

    signed = np.dtype(dtype).kind == "i"
    low = -100 if signed else 0
    x = _ints((4, 5), 3, dtype, low, 100)
    y = _ints((4, 5), 4, dtype, low, 100)
    y[0, :3] = 0  # division and remainder by zero
    x[1, 0] = np.iinfo(dtype).min
    y[1, 0] = -1 if signed else 1
    bits = np.dtype(dtype).itemsize * 8
    shifts = _ints((4, 5), 5, dtype, 0, bits + 3)
    jax_check(
        lambda x, y, s: [
            lax.add(x, y),
            lax.sub(x, y),
            lax.mul(x, y),
            lax.div(x, y),
            lax.rem(x, y),
            lax.max(x, y),
            lax.min(x, y),
            lax.bitwise_and(x, y),
            lax.bitwise_or(x, y),
            lax.bitwise_xor(x, y),
            lax.bitwise_not(x),
            lax.shift_left(x, s),
            lax.shift_right_arithmetic(x, s),
            lax.shift_right_logical(x, s),
            lax.population_count(x),
            lax.clz(x),
            lax.neg(x),
            lax.abs(x) if signed else x,
            lax.sign(x),
            x < y,
            x >= y,
            x == y,
        ],
        x,
        y,
        shifts,
    )


def test_boolean_ops_match_jax() -> None:
    pytest.importorskip("jax")
    from jax import lax

    rng = np.random.default_rng(7)
    p, q = rng.integers(0, 2, (2, 6)).astype(bool)
    jax_check(
        lambda p, q: [p & q, p | q, p ^ q, ~p, lax.max(p, q), lax.min(p, q), p < q, p != q],
        p,
        q,
    )


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        (np.float32, np.int32),
        (np.float32, np.uint8),
        (np.float32, np.int16),
        (np.float32, np.float16),
        (np.int32, np.float32),
        (np.int32, np.int8),
        (np.int32, np.bool_),
        (np.float32, np.bool_),
        (np.bool_, np.float32),
        (np.bool_, np.int32),
        (np.uint8, np.int32),
        (np.complex64, np.float32),
        (np.float32, np.complex64),
    ],
)
def test_convert_matches_jax(src, dst) -> None:
    pytest.importorskip("jax")
    import warnings

    from jax import lax

    if np.dtype(src) == np.bool_:
        x = np.array([True, False, True, True, False, False])
    elif np.dtype(src).kind == "c":
        x = (_floats((6,), 8) + 1j * _floats((6,), 9)).astype(src)
    elif np.dtype(src).kind == "f":
        x = np.array([np.nan, 1e10, -1e10, -2.7, 2.7, 300.5], src)
    else:
        x = _ints((6,), 10, src, 0 if np.dtype(src).kind == "u" else -300, 300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # JAX warns about dropping imaginary parts
        jax_check(lambda x: lax.convert_element_type(x, dst), x, exact=True)


@pytest.mark.parametrize(
    ("src", "dst"),
    [(np.float32, np.int32), (np.int32, np.uint32), (np.float32, np.int16), (np.int16, np.float32)],
)
def test_bitcast_convert_matches_jax(src, dst) -> None:
    pytest.importorskip("jax")
    from jax import lax

    x = _floats((3, 2), 11).astype(src) if np.dtype(src).kind == "f" else _ints((3, 2), 12, src)
    jax_check(lambda x: lax.bitcast_convert_type(x, dst), x, exact=True)


def test_complex_ops_match_jax() -> None:
    pytest.importorskip("jax")
    from jax import lax

    re, im = _floats((5,), 13), _floats((5,), 14)
    jax_check(
        lambda re, im: [
            lax.complex(re, im),
            lax.real(lax.complex(re, im)),
            lax.imag(lax.complex(re, im)),
            lax.abs(lax.complex(re, im)),
            lax.exp(lax.complex(re, im)),
            lax.mul(lax.complex(re, im), lax.complex(im, re)),
            lax.complex(re, im) == lax.complex(re, re),
        ],
        re,
        im,
    )


# -- semantics the spec fixes and JAX cannot show directly ------------------------------------


def _run_one(name, operand_types, result_type, *inputs, props: str = ""):
    return run(parse_module(one_op_module(name, operand_types, result_type, props)), *inputs)[0]


def test_integer_power_follows_the_spec() -> None:
    x = np.array([2, -3, 1, -1, -1, 2, 0, 7, 3], np.int32)
    y = np.array([10, 3, -5, -3, -4, -1, 0, 20, 0], np.int32)
    got = _run_one("stablehlo.power", ["tensor<9xi32>"] * 2, "tensor<9xi32>", x, y)
    want = [
        (int(b) ** int(e) if e >= 0 else (1 if b == 1 else (-1) ** abs(int(e)) if b == -1 else 0))
        for b, e in zip(x, y, strict=True)
    ]
    want = [((w + 2**31) % 2**32) - 2**31 for w in want]  # wraps around like i32
    assert got.tolist() == want


def test_total_order_compare() -> None:
    ordered = np.array([-np.nan, -np.inf, -1.0, -0.0, 0.0, 1e-30, np.inf, np.nan], np.float32)
    ordered[0] = -np.abs(ordered[0])  # -NaN
    assert np.signbit(ordered[0])
    n = len(ordered)
    t = f"tensor<{n}x{n}xf32>"
    x = np.repeat(ordered[:, None], n, axis=1)
    y = np.repeat(ordered[None, :], n, axis=0)
    props = (
        "compare_type = #stablehlo<comparison_type TOTALORDER>, "
        "comparison_direction = #stablehlo<comparison_direction LT>"
    )
    less = _run_one("stablehlo.compare", [t, t], f"tensor<{n}x{n}xi1>", x, y, props=props)
    np.testing.assert_array_equal(less, np.triu(np.ones((n, n), bool), 1))
    float_props = props.replace("TOTALORDER", "FLOAT").replace("LT", "EQ")
    equal = _run_one("stablehlo.compare", [t, t], f"tensor<{n}x{n}xi1>", x, y, props=float_props)
    assert equal[3, 4] and not equal[7, 7]  # -0 == +0, NaN != NaN


def test_compare_type_defaults_from_element_type() -> None:
    props = "comparison_direction = #stablehlo<comparison_direction LT>"
    x = np.array([-1, 1], np.int8)
    y = np.array([1, -1], np.int8)
    t = "tensor<2xi8>"
    assert _run_one("stablehlo.compare", [t, t], "tensor<2xi1>", x, y, props=props).tolist() == [
        True,
        False,
    ]
    unsigned = props + ", compare_type = #stablehlo<comparison_type UNSIGNED>"
    got = _run_one("stablehlo.compare", [t, t], "tensor<2xi1>", x, y, props=unsigned)
    assert got.tolist() == [False, True]  # 255 > 1


def test_bitcast_convert_between_widths() -> None:
    x = np.array([1.0, -2.0], np.float32)
    halves = _run_one("stablehlo.bitcast_convert", ["tensor<2xf32>"], "tensor<2x2xi16>", x)
    np.testing.assert_array_equal(halves, x.view(np.int16).reshape(2, 2))
    back = _run_one("stablehlo.bitcast_convert", ["tensor<2x2xi16>"], "tensor<2xf32>", halves)
    np.testing.assert_array_equal(back, x)


def test_count_leading_zeros_and_popcnt_for_i64() -> None:
    x = np.array([0, 1, -1, 2**40, np.iinfo(np.int64).max], np.int64)
    t = "tensor<5xi64>"
    assert _run_one("stablehlo.count_leading_zeros", [t], t, x).tolist() == [64, 63, 0, 23, 1]
    assert _run_one("stablehlo.popcnt", [t], t, x).tolist() == [0, 1, 64, 1, 63]


# -- types, verification, errors ------------------------------------------------------------------


def test_infer_types() -> None:
    m = parse_module(
        "func.func @main(%a: tensor<4xf32>, %p: tensor<i1>, %c: tensor<4xcomplex<f64>>) "
        "-> tensor<4xf32> {\n"
        "  %0 = stablehlo.add %a, %a : tensor<4xf32>\n"
        "  %1 = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xi1>\n"
        "  %2 = stablehlo.compare LT, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
        "  %3 = stablehlo.select %p, %a, %a : tensor<i1>, tensor<4xf32>\n"
        "  %4 = stablehlo.complex %a, %a : tensor<4xcomplex<f32>>\n"
        "  %5 = stablehlo.abs %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>\n"
        "  %6 = stablehlo.constant dense<1> : tensor<2xui8>\n"
        "  %7 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
        "  return %0 : tensor<4xf32>\n}"
    )
    ops = [op for op in m.walk() if op.name.startswith("stablehlo.")]
    for op in ops:
        lookup(op.name).verify(op)
    inferred = [lookup(op.name).infer_types(op) for op in ops]
    assert inferred[:-1] == [op.result_types for op in ops[:-1]]
    assert inferred[-1] is None  # convert's target type is the op's own


def test_verify_rejects_bad_ops() -> None:
    f32 = TensorType((4,), "f32")
    i1 = TensorType((4,), "i1")
    a = Op("stablehlo.constant", [], [f32], {"value": None})
    with pytest.raises(IRError, match="value"):
        lookup("stablehlo.constant").verify(a)
    m = parse_module(
        "func.func @main(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {\n"
        "  return %a : tensor<4xf32>\n}"
    )
    a, b = m.function("main").op.regions[0].entry.arguments
    with pytest.raises(IRError, match="shapes"):
        lookup("stablehlo.add").verify(Op("stablehlo.add", [a, b], [f32]))
    with pytest.raises(IRError, match="differs"):
        lookup("stablehlo.negate").verify(Op("stablehlo.negate", [a], [i1]))
    with pytest.raises(IRError, match="i1"):
        lookup("stablehlo.select").verify(Op("stablehlo.select", [a, a, a], [f32]))
    with pytest.raises(IRError, match="out of range"):
        iota = Op("stablehlo.iota", [], [f32], {"iota_dimension": _i64(1)})
        lookup("stablehlo.iota").verify(iota)


def _i64(value: int):
    from shardonnay.ir.attributes import IntegerAttr

    return IntegerAttr(value, "i64")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("%0 = stablehlo.add %arg0, %arg0 : tensor<4xi32>", "use of a value of type"),
        ("%0 = stablehlo.compare XX, %arg0, %arg0 : (t) -> t", "comparison direction"),
        (
            "%0 = stablehlo.compare LT, %arg0, %arg0, WRONG : "
            "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>",
            "comparison type",
        ),
        ("%0 = stablehlo.constant 1.0 : f32", "dense"),
        ("%0 = stablehlo.iota 0 : tensor<4xf32>", "'dim'"),
        ("%0 = stablehlo.select %arg0, %arg0 : tensor<4xf32>", "three operands"),
        ("%0 = stablehlo.convert %arg0 : (tensor<4xf32>) -> ()", "one result"),
    ],
)
def test_parse_errors(line: str, message: str) -> None:
    text = (
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        f"  {line}\n  return %arg0 : tensor<4xf32>\n}}"
    )
    with pytest.raises(ParseError, match=message):
        parse_module(text)


@pytest.mark.parametrize(
    "dtype", ["float32", "float16", "bfloat16", "float64", "int8", "uint16", "bool", "complex64"]
)
@pytest.mark.parametrize("size", [3, 150])
def test_constants_from_numpy_print_as_mlir_does(dtype: str, size: int) -> None:
    """Values written by `DenseElementsAttr.from_numpy` read back bit for bit,
    in MLIR's text (nested lists up to 100 elements, hex beyond)."""
    pytest.importorskip("jax")
    from shardonnay.ir.attributes import DenseElementsAttr
    from shardonnay.ir.types import numpy_dtype

    element = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64"}.get(
        dtype,
        {"int8": "i8", "uint16": "ui16", "bool": "i1", "complex64": "complex<f32>"}.get(dtype),
    )
    rng = np.random.default_rng(size)
    raw = rng.normal(size=(size, 2)) * 100
    if dtype == "complex64":
        array = (raw[:, 0] + 1j * raw[:, 1]).astype(np.complex64)
    elif dtype == "bool":
        array = raw[:, 0] > 0
    else:
        array = raw[:, 0].astype(numpy_dtype(element))
    value = DenseElementsAttr.from_numpy(array, TensorType((size,), element))
    text = (
        f"func.func @main() -> {value.type} {{\n"
        f"  %0 = stablehlo.constant {value}\n  return %0 : {value.type}\n}}"
    )
    pretty = check_syntax(text)
    assert str(value) in pretty
    got = run(parse_module(pretty))[0]
    assert got.dtype == array.dtype
    np.testing.assert_array_equal(got.view(np.uint8), array.view(np.uint8))
