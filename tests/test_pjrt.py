"""`runtime.pjrt.run_on_devices`: partitioned programs on real XLA (CPU) devices.

The per-device programs of `shardonnay.partition` are compiled by XLA and
run on host devices; their results must be the simulator's (which runs the
same program on numpy) and the reference interpreter's (which runs the
unpartitioned program), within `compare_output`'s tolerance.

XLA's CPU client has as many devices as `--xla_force_host_platform_device_count`
says when JAX is first imported, and other tests import JAX in this process
first, so the programs run in a fresh process: this file run as a script,
which prints one JSON object of comparisons.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import shardonnay
from shardonnay.partition.program import compare_output

ROOT = Path(__file__).parent.parent
CORPUS = ROOT / "tests" / "corpus"
MLP = ROOT / "examples" / "mlp.mlir"
CORPUS_NAMES = sorted(p.stem for p in CORPUS.glob("*.mlir"))
HOST_DEVICES = 64  # the random programs' meshes have up to 192 devices; most fit in 64
RANDOM_PROGRAMS = 20
RTOL = 1e-5

SMALL = """
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0]
      : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
"""


def _comparisons(expected, got) -> list[str]:
    """The mismatching outputs of `got`, described (empty when all match)."""
    if len(expected) != len(got):
        return [f"{len(got)} outputs, expected {len(expected)}"]
    found = []
    for i, (e, g) in enumerate(zip(expected, got, strict=True)):
        c = compare_output(i, np.asarray(e), np.asarray(g), rtol=RTOL, atol=None)
        if not c.ok:
            found.append(f"output {i}: max abs error {c.max_abs_error:.3g}; {c.detail}")
    return found


def _check(module, local, inputs) -> dict:
    """The comparisons of one program, or the error it raised (so that one
    program that fails does not hide the others)."""
    from shardonnay.runtime.pjrt import run_on_devices

    try:
        on_devices = run_on_devices(local, *inputs)
        return {
            "outputs": len(on_devices),
            "vs_simulate": _comparisons(shardonnay.simulate(local, *inputs), on_devices),
            "vs_run": _comparisons(shardonnay.run(module, *inputs), on_devices),
        }
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}


def _partition(module):
    try:
        return shardonnay.partition(module), None
    except Exception as e:
        return None, {"error": f"partition: {type(e).__name__}: {e}"}


def _run_all() -> dict:
    """Runs the corpus and the random programs on XLA devices (in a process
    whose JAX sees `HOST_DEVICES` devices)."""
    from program_generator import random_program_with_inputs
    from shardonnay.runtime.simulator import device_count

    corpus = {}
    for name in CORPUS_NAMES:
        module = shardonnay.parse_module((CORPUS / f"{name}.mlir").read_text())
        data = np.load(CORPUS / f"{name}.npz")
        inputs = [data[f"input{i}"] for i in range(len(module.function("main").type.inputs))]
        local, failed = _partition(module)
        corpus[name] = failed or _check(module, local, inputs)
    random, seed = {}, 0
    while len(random) < RANDOM_PROGRAMS:
        text, inputs = random_program_with_inputs(seed)
        module = shardonnay.parse_module(text)
        local, failed = _partition(module)
        if failed or device_count(local) <= HOST_DEVICES:
            random[seed] = failed or _check(module, local, inputs)
        seed += 1
    return {"corpus": corpus, "random": random, "cli": _run_cli()}


def _run_cli() -> dict:
    from shardonnay.cli import main

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = main(["partition", str(MLP), "--devices"])
    lines = printed.getvalue().splitlines()
    return {"status": status, "comments": [line for line in lines if line.startswith("// ")]}


@pytest.fixture(scope="module")
def on_xla() -> dict:
    pytest.importorskip("jax")
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={HOST_DEVICES}")
    done = subprocess.run(
        [sys.executable, __file__], env=env, capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_partitioned_corpus_program_runs_on_xla_devices_as_simulated(on_xla, name):
    result = on_xla["corpus"][name]
    assert "error" not in result, result["error"]
    assert result["outputs"] >= 1
    assert result["vs_simulate"] == []
    assert result["vs_run"] == []


def test_partitioned_random_programs_run_on_xla_devices_as_simulated(on_xla):
    results = on_xla["random"]
    assert len(results) == RANDOM_PROGRAMS
    bad = {
        seed: [r["error"]] if "error" in r else r["vs_simulate"] + r["vs_run"]
        for seed, r in results.items()
        if "error" in r or r["vs_simulate"] or r["vs_run"]
    }
    assert bad == {}


def test_cli_partition_devices_compares_the_xla_run(on_xla):
    from shardonnay.runtime.simulator import device_count

    module = shardonnay.parse_module(MLP.read_text())
    count = device_count(shardonnay.partition(module))
    outputs = len(module.function("main").type.results)
    assert on_xla["cli"]["status"] == 0
    assert on_xla["cli"]["comments"][-1] == (
        f"// on {count} XLA devices: {outputs} of {outputs} outputs match the unpartitioned program"
    )


def test_xla_text_has_no_shardings_and_manual_main():
    pytest.importorskip("jax")
    from mlir_oracle import jaxlib_asm
    from shardonnay.runtime.pjrt import xla_text

    local = shardonnay.partition(shardonnay.parse_module(SMALL))
    text = xla_text(local, 4)
    assert "sdy." not in text
    assert "mhlo.num_partitions = 4 : i32" in text
    assert text.count('mhlo.sharding = "{manual}"') == 2  # one argument, one result
    assert "stablehlo.all_reduce" in text
    assert jaxlib_asm(text) == text


def test_too_few_devices_is_an_error_naming_the_flag():
    jax = pytest.importorskip("jax")
    from shardonnay.errors import DeviceUnavailableError
    from shardonnay.runtime.pjrt import run_on_devices

    local = shardonnay.partition(shardonnay.parse_module(SMALL))
    with pytest.raises(DeviceUnavailableError, match="xla_force_host_platform_device_count=4"):
        run_on_devices(local, np.arange(6, dtype=np.float32), devices=jax.devices()[:1])


def test_missing_jax_is_an_error(monkeypatch):
    from shardonnay.errors import DeviceUnavailableError
    from shardonnay.runtime.pjrt import run_on_devices

    monkeypatch.setitem(sys.modules, "jax", None)
    local = shardonnay.partition(shardonnay.parse_module(SMALL))
    with pytest.raises(DeviceUnavailableError, match=r"shardonnay\[jax\]"):
        run_on_devices(local, np.arange(6, dtype=np.float32))


if __name__ == "__main__":
    print(json.dumps(_run_all()))
