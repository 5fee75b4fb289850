"""`shardonnay.jax.run`: programs partitioned by shardonnay, run on 8 CPU devices.

Every corpus program (exported from JAX, with the outputs `jax.jit` computed)
runs to JAX's outputs, each result a `jax.Array` laid out by the sharding
shardonnay's propagation gives it. Functions run as `jax.jit(f)` runs them
(pytrees, keyword arguments, unused arguments, arrays already on a mesh in
any device order), 64-bit integers keep their 64 bits, and ops XLA cannot
compile are refused before compiling.
"""

from __future__ import annotations

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardonnay  # noqa: E402
from shardonnay.errors import UnsupportedOpError  # noqa: E402
from shardonnay.jax import lower, run, shardings  # noqa: E402
from shardonnay.jax.execution import run_partitioned  # noqa: E402
from shardonnay.runtime.numerics import compare_output  # noqa: E402

CORPUS = Path(__file__).parent.parent / "corpus"
CORPUS_NAMES = sorted(p.stem for p in CORPUS.glob("*.mlir"))

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def devices() -> list:
    found = jax.devices("cpu")
    if len(found) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS was set after jax was first used)")
    return found[:8]


@pytest.fixture(scope="module")
def mesh(devices):
    return jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_program_runs_to_jax_outputs_with_propagated_shardings(devices, name):
    module = shardonnay.parse_module((CORPUS / f"{name}.mlir").read_text())
    data = np.load(CORPUS / f"{name}.npz")
    main = module.function("main")
    inputs = [data[f"input{i}"] for i in range(len(main.type.inputs))]
    local = shardonnay.partition(module)  # what run(module, ...) does first
    outputs = run_partitioned(module, local, inputs, devices)
    assert len(outputs) == len(main.type.results)
    propagated = shardings(local, devices)  # the propagated shardings of @main's results
    for i, got in enumerate(outputs):
        assert isinstance(got, jax.Array)
        expected = data[f"output{i}"]
        assert got.shape == expected.shape and got.dtype == expected.dtype
        c = compare_output(i, expected, np.asarray(got), rtol=1e-5, atol=None)
        assert c.ok, c.detail
        if f"result{i}" in propagated:
            assert got.sharding.is_equivalent_to(propagated[f"result{i}"], got.ndim)
        else:  # no sharding: replicated
            assert got.sharding.is_fully_replicated


def test_a_function_runs_as_jax_jit_runs_it(mesh):
    def f(params, x, *, scale, unused):
        h = jnp.tanh(x @ params["w"] + params["b"])
        return {"h": h * scale, "norm": (h**2).sum()}

    rng = np.random.default_rng(0)
    params = {
        "w": jax.device_put(
            rng.standard_normal((16, 32), np.float32), NamedSharding(mesh, P(None, "model"))
        ),
        "b": jnp.zeros((32,), jnp.float32),
    }
    x = jax.device_put(rng.standard_normal((8, 16), np.float32), NamedSharding(mesh, P("data")))
    unused = np.ones(3, np.float32)  # jax.jit leaves it out of the program
    got = run(f, params, x, scale=2.0, unused=unused)
    expected = jax.jit(f)(params, x, scale=2.0, unused=unused)
    assert jax.tree.structure(got) == jax.tree.structure(expected)
    np.testing.assert_allclose(got["h"], expected["h"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["norm"], expected["norm"], rtol=1e-5)
    assert got["h"].sharding.mesh == mesh  # the arguments' mesh, by default
    assert got["h"].sharding.spec == P("data", "model")


def test_lowered_traced_and_jitted_give_the_same_results(mesh):
    f = jax.jit(lambda x: jnp.cumsum(x, axis=1) * 3)
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    x = jax.device_put(x, NamedSharding(mesh, P("data")))
    expected = np.cumsum(np.asarray(x), axis=1) * 3
    for form in (f, f.trace(x), f.lower(x)):
        np.testing.assert_array_equal(run(form, x), expected)


def test_partitions_run_in_the_order_of_the_mesh_devices(devices):
    reversed_mesh = jax.sharding.Mesh(np.array(devices[::-1]).reshape(2, 4), ("a", "b"))
    x = np.arange(32, dtype=np.float32).reshape(8, 4)
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=NamedSharding(reversed_mesh, P("a")))
    lowered = jax.jit(lambda x: x.sum(axis=0, keepdims=True) - x).lower(spec)
    got = run(lowered, x, mesh=reversed_mesh)
    np.testing.assert_array_equal(got, x.sum(axis=0, keepdims=True) - x)
    assert got.sharding.mesh == reversed_mesh
    expected = lowered.compile()(jax.device_put(x, spec.sharding))
    for s in got.addressable_shards:  # every device holds the rows JAX gives it
        (twin,) = [t for t in expected.addressable_shards if t.device == s.device]
        assert twin.index == s.index


SUM_I64 = """
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                %arg1: tensor<8xui64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<i64>, tensor<8xui64>) {
  %cst = stablehlo.constant dense<0> : tensor<i64>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0]
      : (tensor<8xi64>, tensor<i64>) -> tensor<i64>
  %1 = stablehlo.reverse %arg1, dims = [0] : tensor<8xui64>
  return %0, %1 : tensor<i64>, tensor<8xui64>
}
"""


def test_64_bit_values_keep_their_64_bits(devices):
    big = np.arange(8, dtype=np.int64) * 2**40 - 2**45
    unsigned = np.arange(8, dtype=np.uint64) + np.uint64(2**63)
    total, reversed_ = run(shardonnay.parse_module(SUM_I64), big, unsigned, mesh=devices)
    assert total.dtype == np.int64 and int(total) == int(big.sum())
    assert reversed_.dtype == np.uint64
    np.testing.assert_array_equal(np.asarray(reversed_), unsigned[::-1])
    from shardonnay.runtime.pjrt import run_on_devices

    local = shardonnay.partition(shardonnay.parse_module(SUM_I64))
    again, _ = run_on_devices(local, big, unsigned, devices=devices)
    assert int(again) == int(big.sum())
    assert not jax.config.jax_enable_x64  # the 64-bit mode was the run's only


UNSUPPORTED = {
    "custom_call": (
        "%0 = stablehlo.custom_call @my_fused_kernel(%arg0) : (tensor<8xf32>) -> tensor<8xf32>",
        r"custom call @my_fused_kernel has no implementation on cpu devices",
    ),
    "dialect": (
        '%0 = "mydialect.frobnicate"(%arg0) : (tensor<8xf32>) -> tensor<8xf32> loc("model.py":7:1)',
        r'mydialect.frobnicate at loc\("model.py":7:1\): .*not an op of a dialect XLA compiles',
    ),
}


@pytest.mark.filterwarnings("ignore:.*unknown to the sharding rule registry")
@pytest.mark.parametrize("kind", sorted(UNSUPPORTED))
def test_ops_xla_cannot_compile_are_refused_before_compiling(devices, kind):
    op, message = UNSUPPORTED[kind]
    text = f"""
    sdy.mesh @mesh = <["x"=2]>
    func.func @main(%arg0: tensor<8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{}}]>}})
        -> tensor<8xf32> {{
      {op}
      return %0 : tensor<8xf32>
    }}
    """
    with pytest.raises(UnsupportedOpError, match=message):
        run(shardonnay.parse_module(text), np.ones(8, np.float32), mesh=devices)


def test_lower_keeps_source_locations():
    def attention_scores(q, k):
        return jax.nn.softmax(q @ k.T)

    q = jax.ShapeDtypeStruct((4, 8), jnp.float32)
    module = lower(attention_scores, q, q)
    text = module.to_text(debug_info=True)
    assert "attention_scores" in text and Path(__file__).name in text
    assert shardonnay.parse_module(text).to_text() == module.to_text()


def test_too_few_devices_is_an_error_naming_the_flag(devices):
    from shardonnay.errors import DeviceUnavailableError

    x = np.ones((8, 4), np.float32)
    module = shardonnay.parse_module(
        """
        sdy.mesh @mesh = <["x"=8]>
        func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
            -> tensor<8x4xf32> {
          %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
          return %0 : tensor<8x4xf32>
        }
        """
    )
    with pytest.raises(DeviceUnavailableError, match="only 4.*device_count=8"):
        run(module, x, mesh=devices[:4])
    np.testing.assert_array_equal(run(module, x)[0], -x)  # by default, jax.devices()
