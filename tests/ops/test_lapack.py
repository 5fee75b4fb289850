"""The linear algebra JAX exports runs in the reference interpreter.

`jnp.linalg` lowers to LAPACK custom calls on CPU (`@lapack_sgesdd_ffi`, ...),
to cuSOLVER / hipSOLVER ones on GPUs and to XLA's own (`@Qr`, `@Eigh`,
`@LuDecomposition`, `stablehlo.cholesky`, `stablehlo.triangular_solve`) on
TPUs. Each program here is exported by `jax.jit(...).lower(...)` and run by
the interpreter; its outputs are compared with what JAX computes on the CPU.
The kernels themselves are checked against numpy's LAPACK-backed routines
and their defining properties.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from shardonnay.errors import UnsupportedOpError
from shardonnay.ir.verifier import verify
from shardonnay.ops import lapack
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

RNG = np.random.default_rng(0)


def _general(*shape, dtype=np.float32):
    a = RNG.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * RNG.normal(size=shape)
    return a.astype(dtype)


def _spd(n, batch=(), dtype=np.float32):
    a = _general(*batch, n, n, dtype=dtype)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def _lowered(f, *args, platform: str | None = None) -> str:
    if platform is None:
        return jax.jit(f).lower(*args).as_text()
    from jax import export

    shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
    return export.export(jax.jit(f), platforms=[platform])(*shapes).mlir_module()


def _ours(f, *args, platform: str | None = None):
    module = parse_module(_lowered(f, *args, platform=platform))
    verify(module)
    return run(module, *args)


def _assert_close(ours, theirs, *, rtol=2e-4):
    theirs = jax.tree_util.tree_leaves(theirs)
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs, strict=True):
        t = np.asarray(t)
        assert o.shape == t.shape and o.dtype == t.dtype
        scale = max(float(np.max(np.abs(t), initial=0.0)), 1.0)
        np.testing.assert_allclose(o, t, rtol=0, atol=rtol * scale)


# -- programs JAX lowers for the CPU -----------------------------------------------------------


def _solve(a, b):
    return jnp.linalg.solve(a, b)


def _lower_triangular(a, b):
    return jax.scipy.linalg.solve_triangular(a, b, lower=True)


def _upper_transposed(a, b):
    return jax.scipy.linalg.solve_triangular(a, b, lower=False, trans=1)


def _unit_lower(a, b):
    return jax.scipy.linalg.solve_triangular(a, b, lower=True, unit_diagonal=True)


CPU_CASES = {
    "svd": (jnp.linalg.svd, lambda: [_general(6, 4)]),
    "svd_reduced": (lambda a: jnp.linalg.svd(a, full_matrices=False), lambda: [_general(3, 5)]),
    "svd_values": (lambda a: jnp.linalg.svd(a, compute_uv=False), lambda: [_general(6, 4)]),
    "svd_f64": (jnp.linalg.svd, lambda: [_general(4, 4, dtype=np.float64)]),
    "svd_complex": (jnp.linalg.svd, lambda: [_general(5, 3, dtype=np.complex64)]),
    "eigh": (jnp.linalg.eigh, lambda: [_spd(5)]),
    "eigh_upper": (lambda a: jnp.linalg.eigh(a, UPLO="U"), lambda: [_spd(4)]),
    "eigvalsh": (jnp.linalg.eigvalsh, lambda: [_spd(5)]),
    "eigh_complex": (jnp.linalg.eigh, lambda: [_spd(4, dtype=np.complex64)]),
    "cholesky": (jnp.linalg.cholesky, lambda: [_spd(5)]),
    "cholesky_batched": (jnp.linalg.cholesky, lambda: [_spd(3, batch=(2, 2))]),
    "qr": (jnp.linalg.qr, lambda: [_general(6, 4)]),
    "qr_complete": (lambda a: jnp.linalg.qr(a, mode="complete"), lambda: [_general(5, 3)]),
    "qr_wide": (jnp.linalg.qr, lambda: [_general(3, 5)]),
    "qr_complex": (jnp.linalg.qr, lambda: [_general(4, 3, dtype=np.complex64)]),
    "lu": (jax.scipy.linalg.lu, lambda: [_general(5, 5)]),
    "lu_factor": (jax.scipy.linalg.lu_factor, lambda: [_general(4, 4)]),
    "solve": (_solve, lambda: [_general(4, 4), _general(4)]),
    "inv_batched": (jnp.linalg.inv, lambda: [_general(3, 4, 4)]),
    "det": (jnp.linalg.det, lambda: [_general(4, 4)]),
    "slogdet": (jnp.linalg.slogdet, lambda: [_general(5, 5)]),
    "solve_triangular": (
        _lower_triangular,
        lambda: [_general(4, 4) + 4 * np.eye(4), _general(4, 2)],
    ),
    "solve_triangular_upper_t": (
        _upper_transposed,
        lambda: [(_general(4, 4) + 4 * np.eye(4)).astype(np.float32), _general(4, 3)],
    ),
    "solve_triangular_unit": (_unit_lower, lambda: [_general(4, 4), _general(4, 1)]),
    "eig": (jnp.linalg.eig, lambda: [_general(4, 4)]),
    "eigvals": (jnp.linalg.eigvals, lambda: [_general(5, 5)]),
    "pinv": (jnp.linalg.pinv, lambda: [_general(5, 3)]),
    "qr_pivoting": (lambda a: jax.scipy.linalg.qr(a, pivoting=True), lambda: [_general(5, 4)]),
    "qr_pivoting_wide": (
        lambda a: jax.scipy.linalg.qr(a, pivoting=True, mode="economic"),
        lambda: [_general(3, 5, dtype=np.complex64)],
    ),
    "hessenberg": (
        lambda a: jax.scipy.linalg.hessenberg(a, calc_q=True),
        lambda: [_general(5, 5)],
    ),
    "hessenberg_complex": (
        jax.scipy.linalg.hessenberg,
        lambda: [_general(4, 4, dtype=np.complex64)],
    ),
    "lstsq": (lambda a, b: jnp.linalg.lstsq(a, b)[0], lambda: [_general(6, 3), _general(6)]),
    "tridiagonal_solve": (
        jax.lax.linalg.tridiagonal_solve,
        lambda: [_general(2, 6), _general(2, 6), _general(2, 6), _general(2, 6, 3)],
    ),
}


@pytest.mark.parametrize("name", sorted(CPU_CASES))
def test_cpu_lowering_runs_as_jax_computes_it(name):
    f, make = CPU_CASES[name]
    args = [np.asarray(a) for a in make()]
    text = _lowered(f, *args)
    assert "lapack_" in text or name.startswith("eig")
    ours = _ours(f, *args)
    theirs = jax.jit(f)(*args)
    if name in ("eig", "eigvals"):  # the order of a general eigenproblem's values is LAPACK's
        w_ours = ours[0]
        w_theirs = np.asarray(jax.tree_util.tree_leaves(theirs)[0])
        np.testing.assert_allclose(np.sort_complex(w_ours), np.sort_complex(w_theirs), atol=1e-4)
        if name == "eig":
            a, v = args[0].astype(np.complex128), ours[1].astype(np.complex128)
            np.testing.assert_allclose(a @ v, v * w_ours, atol=1e-4)
            np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1, atol=1e-5)
        return
    if name.startswith(("svd", "eigh")):  # vectors are unique up to sign (phase)
        ours = [np.abs(o) for o in ours]
        theirs = [np.abs(np.asarray(t)) for t in jax.tree_util.tree_leaves(theirs)]
    _assert_close(ours, theirs)


def test_the_lapack_targets_of_the_cases_are_known():
    from shardonnay.ops.custom_calls import semantics

    targets = set()
    for f, make in CPU_CASES.values():
        module = parse_module(_lowered(f, *make()))
        targets |= {
            op.attributes["call_target_name"]
            for op in module.walk()
            if op.name == "stablehlo.custom_call"
        }
    assert {"lapack_sgesdd_ffi", "lapack_ssyevd_ffi", "lapack_spotrf_ffi", "lapack_sgeqrf_ffi",
            "lapack_sorgqr_ffi", "lapack_sgetrf_ffi", "lapack_strsm_ffi", "lapack_sgeev_ffi",
            "lapack_cgesdd_ffi", "lapack_cheevd_ffi", "lapack_cungqr_ffi"} <= targets  # fmt: skip
    assert all(semantics(t) is not None for t in targets)


# -- programs JAX lowers for GPUs and TPUs -----------------------------------------------------


ACCELERATOR_CASES = {  # full U's last columns span a null space, in no one basis: reduced SVD
    "svd": (lambda a: jnp.linalg.svd(a, full_matrices=False), lambda: [_general(6, 4)]),
    "eigh": (jnp.linalg.eigh, lambda: [_spd(4)]),
    "cholesky": (jnp.linalg.cholesky, lambda: [_spd(4)]),
    "qr": (jnp.linalg.qr, lambda: [_general(6, 4)]),
    "lu": (jax.scipy.linalg.lu, lambda: [_general(4, 4)]),
    "solve": (_solve, lambda: [_general(4, 4), _general(4)]),
    "solve_triangular": (
        _lower_triangular,
        lambda: [_general(4, 4) + 4 * np.eye(4), _general(4, 2)],
    ),
}


@pytest.mark.parametrize("platform", ["cuda", "rocm", "tpu"])
@pytest.mark.parametrize("name", sorted(ACCELERATOR_CASES))
def test_accelerator_lowerings_compute_what_the_cpu_computes(platform, name):
    f, make = ACCELERATOR_CASES[name]
    args = [np.asarray(a, np.float32) for a in make()]
    ours = _ours(f, *args, platform=platform)
    theirs = jax.tree_util.tree_leaves(jax.jit(f)(*args))
    if name in ("svd", "eigh"):  # vectors are unique up to sign: compare |v| and the values
        ours = [np.abs(o) for o in ours]
        theirs = [np.abs(np.asarray(t)) for t in theirs]
    _assert_close(ours, theirs)


# -- the kernels -------------------------------------------------------------------------------


def test_getrf_pivots_and_factors():
    a = _general(3, 5, 5, dtype=np.float64)
    lu, ipiv, info = lapack.getrf(a)
    assert ipiv.min() >= 1 and not info.any()
    for b in range(3):
        lower = np.tril(lu[b], -1) + np.eye(5)
        upper = np.triu(lu[b])
        perm = lapack.pivots_to_permutation(ipiv[b] - 1, 5)
        np.testing.assert_allclose(a[b][perm], lower @ upper, atol=1e-12)
    singular = np.array([[0.0, 0.0], [0.0, 1.0]])
    assert int(lapack.getrf(singular)[2]) == 1


def test_potrf_reports_the_first_minor_that_is_not_positive():
    a = _spd(4, dtype=np.float64)
    factor, info = lapack.potrf(a, lower=False)
    assert int(info) == 0
    upper = np.triu(factor)
    np.testing.assert_allclose(upper.T @ upper, a, atol=1e-10)
    np.testing.assert_array_equal(np.tril(factor, -1), np.tril(a, -1))  # left as it was
    bad = a.copy()
    bad[2, 2] = -100
    assert int(lapack.potrf(bad, lower=True)[1]) == 3


@pytest.mark.parametrize("left_side", [True, False])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("transpose", ["N", "T", "C"])
def test_trsm_solves_each_form(left_side, lower, transpose):
    a = _general(2, 4, 4, dtype=np.complex128) + 4 * np.eye(4)
    b = (
        _general(2, 4, 3, dtype=np.complex128)
        if left_side
        else _general(2, 3, 4, dtype=np.complex128)
    )
    x = lapack.trsm(a, b, left_side=left_side, lower=lower, transpose=transpose)
    t = np.tril(a) if lower else np.triu(a)
    op = {"N": t, "T": np.swapaxes(t, -1, -2), "C": np.conj(np.swapaxes(t, -1, -2))}[transpose]
    np.testing.assert_allclose(op @ x if left_side else x @ op, b, atol=1e-12)


def test_orgqr_rebuilds_q_from_the_reflectors():
    a = _general(7, 4, dtype=np.complex128)
    packed, taus = lapack.geqrf(a)
    q = lapack.orgqr(packed, taus)
    np.testing.assert_allclose(np.conj(q.T) @ q, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(q @ np.triu(packed[:4]), a, atol=1e-12)


def test_geqp3_pivots_by_norm_and_keeps_fixed_columns_first():
    a = _general(6, 5, dtype=np.float64)
    packed, jpvt, taus = lapack.geqp3(a, np.array([0, 0, 0, 1, 0], np.int32))
    assert jpvt[0] == 4 and sorted(jpvt.tolist()) == [1, 2, 3, 4, 5]
    r = np.triu(packed[:5])
    q = lapack.orgqr(packed, taus)
    np.testing.assert_allclose(q @ r, a[:, jpvt - 1], atol=1e-12)
    assert np.all(np.diff(np.abs(np.diag(r))[1:]) <= 1e-12)  # free columns: largest first


def test_gehrd_is_a_similarity_to_hessenberg_form():
    a = _general(2, 5, 5, dtype=np.complex128)
    packed, taus = lapack.gehrd(a)
    h = np.triu(packed, -1)
    reflectors = np.zeros_like(packed)
    reflectors[:, 1:, :4] = np.tril(packed[:, 1:, :4], -1)
    q = np.tile(np.eye(5, dtype=complex), (2, 1, 1))
    q[:, 1:, 1:] = lapack.orgqr(reflectors[:, 1:, :4], taus)
    np.testing.assert_allclose(q @ h @ np.conj(np.swapaxes(q, -1, -2)), a, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_gtsv_solves_with_lapacks_pivoting(dtype):
    n = 7
    dl, d, du = (_general(3, n, dtype=dtype) for _ in range(3))
    d[:, 2] = 0  # forces row interchanges
    b = _general(3, n, 2, dtype=dtype)
    *_, x, info = lapack.gtsv(dl, d, du, b)
    a = np.zeros((3, n, n), dtype)
    for k in range(n):
        a[:, k, k] = d[:, k]
        if k:
            a[:, k, k - 1], a[:, k - 1, k] = dl[:, k], du[:, k - 1]
    assert not info.any()
    np.testing.assert_allclose(a @ x, b, atol=1e-10)
    zero = np.zeros(n)
    assert int(lapack.gtsv(zero, zero, zero, np.ones((n, 1)))[4]) == 1


def test_geev_left_vectors():
    a = _general(5, 5, dtype=np.float64)
    w, vl, vr, info = lapack.eig(a, left=True, right=True)
    assert int(info) == 0
    np.testing.assert_allclose(a @ vr, vr * w, atol=1e-10)
    np.testing.assert_allclose(np.conj(vl.T) @ a, w[:, None] * np.conj(vl.T), atol=1e-10)
    np.testing.assert_allclose(np.linalg.norm(vl, axis=0), 1, atol=1e-12)
    largest = vl[np.argmax(np.abs(vl), axis=0), np.arange(5)]
    np.testing.assert_allclose(largest.imag, 0, atol=1e-12)


# -- what cannot run ---------------------------------------------------------------------------


def test_pure_callback_says_it_cannot_run():
    def f(x):
        return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    module = parse_module(_lowered(f, np.zeros(4, np.float32)))
    with pytest.raises(UnsupportedOpError, match="calls back into a Python function") as info:
        run(module, np.zeros(4, np.float32))
    assert str(info.value).count("Python") == 1


# -- careless input: typed errors that say what is wrong -----------------------------------------

CALLS = {
    "square": ("%0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%r) : (tensor<4x8xf32>) -> "
               "(tensor<4x8xf32>, tensor<i32>)", "operand 0 must hold square matrices"),
    "solve": ("%0 = stablehlo.custom_call @lapack_strsm_ffi(%s, %r) : (tensor<3x3xf32>, "
              "tensor<4x8xf32>) -> tensor<4x8xf32>", "cannot solve for b of shape"),
    "pivots": ("%0 = stablehlo.custom_call @cu_lu_pivots_to_permutation(%v) : (tensor<3xf32>) -> "
               "tensor<3xi32>", "pivots must be integers"),
    "result": ("%0:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%r) {mhlo.backend_config = "
               "{mode = 83 : ui8}} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, "
               "tensor<4x4xf32>, tensor<5x8xf32>, tensor<i32>)", r"computed shape \(4, 8\)"),
    "count": ("%0 = stablehlo.custom_call @lapack_sgesdd_ffi(%s) : (tensor<3x3xf32>) -> "
              "tensor<3x3xf32>", "takes 1 operand.* and has 5 result"),
    "uplo": ("%0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%s) {mhlo.backend_config = "
             "{uplo = 3000 : i32}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)",
             "uplo must be a character code"),
    "unknown": ("%0 = stablehlo.custom_call @my_kernel(%s) : (tensor<3x3xf32>) -> "
                "tensor<3x3xf32>", "no semantics for this call target"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_call_that_cannot_be_computed_says_why(name):
    from shardonnay.errors import ShardonnayError

    line, message = CALLS[name]
    module = parse_module(f"""func.func @main(%r: tensor<4x8xf32>, %s: tensor<3x3xf32>,
        %v: tensor<3xf32>) -> () {{
      {line}
      return
    }}""")
    verify(module)
    args = [np.ones((4, 8), np.float32), np.eye(3, dtype=np.float32), np.ones(3, np.float32)]
    with pytest.raises(ShardonnayError, match=message):
        run(module, *args)


def test_empty_batches_run():
    module = parse_module("""func.func @main(%z: tensor<0x3x3xf32>) -> (tensor<0x3x3xf32>,
        tensor<0x3xf32>, tensor<0x3x3xf32>) {
      %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%z) {mhlo.backend_config = {uplo = 76 : ui8}}
          : (tensor<0x3x3xf32>) -> (tensor<0x3x3xf32>, tensor<0xi32>)
      %1:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%z)
          : (tensor<0x3x3xf32>) -> (tensor<0x3x3xf32>, tensor<0x3xf32>, tensor<0xi32>)
      %2 = stablehlo.cholesky %z, lower = true : tensor<0x3x3xf32>
      return %0#0, %1#1, %2 : tensor<0x3x3xf32>, tensor<0x3xf32>, tensor<0x3x3xf32>
    }""")
    outputs = run(module, np.zeros((0, 3, 3), np.float32))
    assert [o.shape for o in outputs] == [(0, 3, 3), (0, 3), (0, 3, 3)]
