"""`stablehlo.fft`, `stablehlo.cholesky` and `stablehlo.triangular_solve`.

Their text is MLIR's (jaxlib prints what we print, pretty and generic),
their sharding rules Shardy's (`sdy-populate-op-sharding-rules`), their
semantics JAX's (`jnp.fft` exported and run against JAX's results), and a
program with them partitions and passes `check` wherever its dims are split.
"""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay.errors import IRError, ParseError
from shardonnay.ir.verifier import verify
from shardonnay.partitioner.program import partition
from shardonnay.runtime.check import check
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from shardonnay.testing.mlir_oracle import jaxlib_asm  # noqa: E402
from shardonnay.testing.shardy_rules import assert_rules_match_shardy  # noqa: E402

RNG = np.random.default_rng(1)

OPS = """func.func @main(%a: tensor<2x4x8xcomplex<f32>>, %r: tensor<2x4x8xf32>,
    %h: tensor<2x4x5xcomplex<f32>>, %s: tensor<2x3x3xf32>, %b: tensor<2x3x5xf32>,
    %c: tensor<2x5x3xf32>) -> (tensor<2x4x8xcomplex<f32>>, tensor<2x4x8xcomplex<f32>>,
    tensor<2x4x5xcomplex<f32>>, tensor<2x4x8xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>,
    tensor<2x3x5xf32>, tensor<2x5x3xf32>) {
  %0 = stablehlo.fft %a, type = FFT, length = [8] : (tensor<2x4x8xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>>
  %1 = stablehlo.fft %a, type = IFFT, length = [4, 8] : (tensor<2x4x8xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>>
  %2 = stablehlo.fft %r, type = RFFT, length = [4, 8] : (tensor<2x4x8xf32>) -> tensor<2x4x5xcomplex<f32>>
  %3 = stablehlo.fft %h, type = IRFFT, length = [8] : (tensor<2x4x5xcomplex<f32>>) -> tensor<2x4x8xf32>
  %4 = stablehlo.cholesky %s, lower = true : tensor<2x3x3xf32>
  %5 = stablehlo.cholesky %s : tensor<2x3x3xf32>
  %6 = "stablehlo.triangular_solve"(%s, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x3x3xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %7 = "stablehlo.triangular_solve"(%s, %c) <{left_side = false, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true}> : (tensor<2x3x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x4x8xcomplex<f32>>, tensor<2x4x8xcomplex<f32>>, tensor<2x4x5xcomplex<f32>>, tensor<2x4x8xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x5xf32>, tensor<2x5x3xf32>
}"""  # noqa: E501


@pytest.mark.parametrize("generic", [False, True])
def test_we_print_what_mlir_prints(generic):
    module = parse_module(OPS)
    verify(module)
    ours = module.to_text(generic=generic) if generic else module.to_text()
    assert ours.strip() == jaxlib_asm(OPS, generic=generic).strip()
    assert parse_module(ours).to_text() == module.to_text()


def test_sharding_rules_are_shardys():
    assert_rules_match_shardy(OPS)


FFTS = {
    "fft": (jnp.fft.fft, np.complex64, (3, 8)),
    "ifft": (jnp.fft.ifft, np.complex64, (8,)),
    "fft2": (jnp.fft.fft2, np.complex64, (2, 4, 6)),
    "fftn": (jnp.fft.fftn, np.complex128, (2, 3, 4)),
    "rfft": (jnp.fft.rfft, np.float32, (3, 8)),
    "rfft_odd": (jnp.fft.rfft, np.float32, (7,)),
    "irfft": (jnp.fft.irfft, np.complex64, (3, 5)),
    "rfft2": (jnp.fft.rfft2, np.float64, (4, 6)),
    "irfftn": (lambda x: jnp.fft.irfftn(x, s=(4, 6)), np.complex64, (2, 4, 4)),
    "fftfreq_filter": (lambda x: jnp.fft.irfft(jnp.fft.rfft(x) * 0.5, n=8), np.float32, (8,)),
}


@pytest.mark.parametrize("name", sorted(FFTS))
def test_jnp_fft_runs_as_jax_computes_it(name):
    f, dtype, shape = FFTS[name]
    x = RNG.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=shape)
    x = x.astype(dtype)
    if name in ("fftn", "rfft2"):
        jax.config.update("jax_enable_x64", True)
    try:
        text = jax.jit(f).lower(x).as_text()
        expected = np.asarray(jax.jit(f)(x))
    finally:
        jax.config.update("jax_enable_x64", False)
    assert "stablehlo.fft" in text
    module = parse_module(text)
    verify(module)
    (got,) = run(module, x)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    eps = np.finfo(expected.dtype).eps
    scale = np.max(np.abs(expected))
    np.testing.assert_allclose(got, expected, rtol=0, atol=64 * eps * scale)


C, R = "tensor<4x8xcomplex<f32>>", "tensor<4x8xf32>"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (f"stablehlo.fft %r, type = RFFT, length = [8] : ({R}) -> {C}",
         f"result type {C} differs from tensor<4x5xcomplex<f32>>"),
        (f"stablehlo.fft %a, type = RFFT, length = [8] : ({C}) -> tensor<4x5xcomplex<f32>>",
         "RFFT takes a real operand"),
        (f"stablehlo.fft %a, type = FFT, length = [4] : ({C}) -> {C}",
         r"trailing dims \[8\] must be \[4\]"),
        (f"stablehlo.fft %a, type = FFT, length = [2, 2, 2, 2] : ({C}) -> {C}",
         "fft_length must have 1 to 3 entries"),
        (f"stablehlo.fft %a, type = FFT, length = [-8] : ({C}) -> {C}", "negative length"),
        (f"stablehlo.cholesky %s : {R}", "must be square"),
    ],
)  # fmt: skip
def test_the_verifier_says_what_is_wrong(line, message):
    text = f"""func.func @main(%a: tensor<4x8xcomplex<f32>>, %r: tensor<4x8xf32>,
        %s: tensor<4x8xf32>) -> () {{
      %0 = {line}
      return
    }}"""
    with pytest.raises(IRError, match=message):
        verify(parse_module(text))


def test_an_unknown_fft_type_is_a_parse_error():
    text = """func.func @main(%a: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
      %0 = stablehlo.fft %a, type = DCT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
      return %0 : tensor<8xcomplex<f32>>
    }"""  # noqa: E501
    with pytest.raises(ParseError, match="unknown FFT type 'DCT'"):
        parse_module(text)


SHARDED = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%r: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
    %s: tensor<4x3x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>},
    %b: tensor<4x3x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>})
    -> (tensor<4x5xcomplex<f32>>, tensor<4x3x3xf32>, tensor<4x3x2xf32>) {
  %0 = stablehlo.fft %r, type = RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
  %1 = stablehlo.dot_general %s, %s, batching_dims = [0] x [0], contracting_dims = [2] x [2]
      : (tensor<4x3x3xf32>, tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
  %2 = stablehlo.cholesky %1, lower = true : tensor<4x3x3xf32>
  %3 = "stablehlo.triangular_solve"(%2, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x3x3xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  return %0, %2, %3 : tensor<4x5xcomplex<f32>>, tensor<4x3x3xf32>, tensor<4x3x2xf32>
}"""  # noqa: E501


def test_split_transform_and_matrix_dims_are_gathered_for_the_op():
    module = parse_module(SHARDED)
    local = partition(module)
    main = local.function("main")
    # The batch stays on "x"; the solve's right-hand sides keep "y" on its way out.
    assert [str(t) for t in main.type.results] == [
        "tensor<2x5xcomplex<f32>>", "tensor<2x3x3xf32>", "tensor<2x3x1xf32>"
    ]  # fmt: skip
    assert any(op.name == "stablehlo.all_gather" for op in main.walk())
    s = RNG.normal(size=(4, 3, 3)).astype(np.float32)
    inputs = [RNG.normal(size=(4, 8)).astype(np.float32), s + 3 * np.eye(3, dtype=np.float32),
              RNG.normal(size=(4, 3, 2)).astype(np.float32)]  # fmt: skip
    result = check(module, inputs=inputs)
    assert result.ok and not np.isnan(run(module, *inputs)[1]).any()
