"""`shardonnay partition --devices` in a fresh process, as a user runs it.

Without `XLA_FLAGS`, the command gives XLA's CPU client the devices the
program needs and says so on stderr; XLA's own log noise (the GSPMD
deprecation warning) stays off the output; 64-bit integer inputs keep their
64 bits on the devices (they were cut to 32, which XLA refused).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SUM_I64 = """
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                %arg1: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<i64>, tensor<2xf32>) {
  %cst = stablehlo.constant dense<0> : tensor<i64>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0]
      : (tensor<8xi64>, tensor<i64>) -> tensor<i64>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%arg1 init: %zero) applies stablehlo.add across dimensions = [0]
      : (tensor<8x2xf32>, tensor<f32>) -> tensor<2xf32>
  return %0, %1 : tensor<i64>, tensor<2xf32>
}
"""


def test_partition_devices_sets_up_cpu_devices_quietly_and_runs_64_bit_inputs(tmp_path):
    pytest.importorskip("jax")
    program = tmp_path / "sum_i64.mlir"
    program.write_text(SUM_I64)
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    env["JAX_PLATFORMS"] = "cpu"
    done = subprocess.run(
        [sys.executable, "-m", "shardonnay.cli", "partition", str(program), "--devices"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr.splitlines() == [
        "note: XLA's CPU client gets 4 devices (--xla_force_host_platform_device_count=4)"
    ]
    lines = done.stdout.splitlines()
    assert lines[-1] == "// on 4 XLA devices: 2 of 2 outputs match the unpartitioned program"
    assert "GSPMD" not in done.stdout + done.stderr
