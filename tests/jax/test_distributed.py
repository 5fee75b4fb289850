"""`shardonnay.jax.run` across processes: 2 local processes x 4 CPU devices.

The test starts two processes of this file (a coordinator on localhost,
`jax.distributed.initialize`); each sees 8 global devices, 4 of them its own.
Both run the same jitted function on a 2x4 mesh whose `data` axis spans the
processes: the contraction is split along `data`, so the partitioned program
sums across processes. One argument is a global numpy array, the other a
`jax.Array` spanning both processes. Each process checks the shards it holds
against numpy and prints one JSON line.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).parent.parent.parent
PROCESSES = 2
DEVICES_PER_PROCESS = 4


def _worker(process_id: int, port: int) -> dict:
    import jax
    import jax.numpy as jnp

    jax.distributed.initialize(
        coordinator_address=f"localhost:{port}",
        num_processes=PROCESSES,
        process_id=process_id,
        initialization_timeout=120,
    )
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    import shardonnay
    from shardonnay.jax import lower, run, shardings

    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)

    @jax.jit
    def f(x, w):
        return {"y": jnp.tanh(x @ w), "total": (x @ w).sum()}

    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 8)).astype(np.float32)
    w = rng.standard_normal((8, 32)).astype(np.float32)
    w_sharding = NamedSharding(mesh, P("data", "model"))
    w_global = jax.make_array_from_callback(w.shape, w_sharding, lambda index: w[index])
    x_spec = jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=NamedSharding(mesh, P(None, "data")))
    lowered = f.lower(x_spec, jax.ShapeDtypeStruct(w.shape, w.dtype, sharding=w_sharding))
    out = run(lowered, x, w_global, mesh=mesh)
    expected = {"y": np.tanh(x @ w), "total": (x @ w).sum()}
    errors = {}
    for key, value in out.items():
        errors[key] = [
            (
                shard.device.id,
                float(np.max(np.abs(np.asarray(shard.data) - expected[key][shard.index]))),
            )
            for shard in value.addressable_shards
        ]
    propagated = shardings(shardonnay.propagate(lower(lowered)), list(mesh.devices.flat))
    return {
        "process": process_id,
        "propagated": [  # total (a replicated scalar: no sharding), y
            str(propagated[f"result{i}"].spec) if f"result{i}" in propagated else "P()"
            for i in range(2)
        ],
        "specs": [str(out[k].sharding.spec) for k in ("total", "y")],
        "global_devices": len(jax.devices()),
        "local_devices": [d.id for d in jax.local_devices()],
        "errors": errors,
        "mesh_is_ours": out["y"].sharding.mesh == mesh,
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def test_two_processes_each_run_their_devices_part():
    pytest.importorskip("jax")
    port = _free_port()
    env = dict(
        os.environ,
        XLA_FLAGS=f"--xla_force_host_platform_device_count={DEVICES_PER_PROCESS}",
        JAX_PLATFORMS="cpu",
    )
    workers = [
        subprocess.Popen(
            [sys.executable, __file__, str(i), str(port)],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(PROCESSES)
    ]
    reports = []
    try:
        for w in workers:
            out, err = w.communicate(timeout=300)
            assert w.returncode == 0, err[-3000:]
            reports.append(json.loads(out.splitlines()[-1]))
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
    held = []
    for i, report in enumerate(reports):
        assert report["process"] == i
        assert report["global_devices"] == PROCESSES * DEVICES_PER_PROCESS
        assert report["mesh_is_ours"]
        assert report["specs"] == report["propagated"] == ["P()", "P(None, 'model')"]
        for key, shards in report["errors"].items():
            assert {d for d, _ in shards} == set(report["local_devices"]), key
            assert all(e < 1e-4 for _, e in shards), (key, shards)
        held += report["local_devices"]
    assert len(set(held)) == PROCESSES * DEVICES_PER_PROCESS


if __name__ == "__main__":
    print(json.dumps(_worker(int(sys.argv[1]), int(sys.argv[2]))))
