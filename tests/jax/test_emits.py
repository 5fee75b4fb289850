"""What JAX emits for ordinary programs goes through: read, propagate, partition, check.

Programs are lowered by `jax.jit(...).lower(...).as_text()` with shardings on
a 2x4 mesh of CPU devices: `jax.debug.print` (a result-less host callback
placed on device 0), `jnp.linalg.svd` and `jnp.fft` on sharded inputs, and a
`jax.pure_callback`, which cannot run here and says so once.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from shardonnay.cli import main
from shardonnay.errors import UnsupportedOpError
from shardonnay.ir.verifier import verify
from shardonnay.partitioner.program import partition
from shardonnay.pipeline import propagation_pipeline
from shardonnay.runtime.check import check
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from shardonnay.testing.mlir_oracle import run_pass_pipeline  # noqa: E402

RNG = np.random.default_rng(2)


def _mesh():
    from jax.sharding import AxisType

    if len(jax.devices()) < 8:
        pytest.skip("needs 8 CPU devices (XLA_FLAGS set before jax is imported)")
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)


def _lowered(f, spec, *args) -> str:
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    sharding = NamedSharding(_mesh(), P(*spec))
    return jax.jit(f, in_shardings=sharding).lower(*args).as_text()


def _print_and_double(x):
    jax.debug.print("x = {x}", x=x)
    return x * 2


def test_debug_print_propagates_as_shardy_does():
    x = RNG.normal(size=(8, 4)).astype(np.float32)
    text = _lowered(_print_and_double, ("x", None), x)
    assert "xla_ffi_python_cpu_callback" in text and "maximal_mesh_0" in text
    module = parse_module(text)
    verify(module)
    ours = propagation_pipeline(module).to_text()
    theirs = run_pass_pipeline(text, "builtin.module(sdy-propagation-pipeline)")
    assert ours == parse_module(theirs).to_text()


def test_debug_print_partitions_and_its_callback_sees_the_whole_value():
    x = RNG.normal(size=(8, 4)).astype(np.float32)
    module = parse_module(_lowered(_print_and_double, ("x", None), x))
    main_ops = list(partition(module).function("main").walk())
    callback = next(op for op in main_ops if op.name == "stablehlo.custom_call")
    # Shardy's sdy-convert-global-to-local hands the callback each device's shard and leaves
    # the maximal sharding to XLA, which gathers the operand to device 0; here the per-device
    # program gathers it itself, so what is printed is the whole value, as JAX prints it.
    assert str(callback.operands[0].type) == "tensor<8x4xf32>"
    assert [str(v.type) for v in callback.results] == []
    result = check(module, inputs=[x])
    assert result.ok
    np.testing.assert_array_equal(run(module, x)[0], np.asarray(jax.jit(_print_and_double)(x)))


def test_svd_of_a_sharded_matrix_partitions_and_matches_jax():
    a = RNG.normal(size=(8, 4)).astype(np.float32)
    text = _lowered(jnp.linalg.svd, ("x", "y"), a)
    assert "lapack_sgesdd_ffi" in text
    module = parse_module(text)
    result = check(module, inputs=[a])
    assert result.ok  # the matrix is gathered whole for the SVD on every device:
    assert any(op.name == "stablehlo.all_gather" for op in result.local.walk())
    u, s, vh = run(module, a)
    theirs = [np.asarray(t) for t in jax.jit(jnp.linalg.svd)(a)]
    np.testing.assert_allclose(s, theirs[1], rtol=1e-5)
    # Singular vectors are unique up to sign, which LAPACK builds choose differently.
    np.testing.assert_allclose(np.abs(u), np.abs(theirs[0]), atol=1e-5)
    np.testing.assert_allclose(np.abs(vh), np.abs(theirs[2]), atol=1e-5)
    np.testing.assert_allclose((u[:, :4] * s) @ vh, a, atol=1e-5)


def test_fft_of_a_batch_sharded_signal_partitions_and_matches_jax():
    x = RNG.normal(size=(8, 16)).astype(np.float32)

    def spectrum(x):
        return jnp.abs(jnp.fft.rfft(x)) ** 2

    module = parse_module(_lowered(spectrum, ("x", "y"), x))
    assert check(module, inputs=[x]).ok
    np.testing.assert_allclose(run(module, x)[0], np.asarray(jax.jit(spectrum)(x)), rtol=1e-5)


def test_pure_callback_cannot_run_and_says_so_once(tmp_path, capsys):
    def f(x):
        y = jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        return jax.pure_callback(np.cos, jax.ShapeDtypeStruct(x.shape, x.dtype), y)

    x = np.zeros((8, 4), np.float32)
    text = _lowered(f, ("x", None), x)
    module = parse_module(text)
    partition(module)  # partitioning needs no semantics
    with pytest.raises(UnsupportedOpError, match="calls back into a Python function"):
        check(module)
    path = tmp_path / "callback.mlir"
    path.write_text(text)
    assert main(["partition", str(path), "--simulate"]) == 1
    err = capsys.readouterr().err
    assert err.count("error:") == 1 and err.count("Python function") == 1
    assert "Traceback" not in err
