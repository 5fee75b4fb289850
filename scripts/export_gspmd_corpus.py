"""Export small JAX programs twice, GSPMD-annotated and Shardy-annotated, into tests/corpus_gspmd/.

Each program is lowered on 8 fake host CPU devices with
``jax.config.update("jax_use_shardy_partitioner", False)`` (``NAME.gspmd.mlir``:
``mhlo.sharding`` attributes, ``@Sharding`` custom calls, shard_map as
``@SPMDFullToShardShape``/``@SPMDShardToFullShape``) and with it on
(``NAME.sdy.mlir``: ``sdy.mesh``, ``sdy.sharding``, ``sdy.manual_computation``).
The tests check that the first, imported, propagates and partitions as the second.
The output is deterministic: running the script twice produces identical files.

Usage (needs the ``jax`` extra)::

    python scripts/export_gspmd_corpus.py

This script deliberately imports only jax, numpy and the standard library (not shardonnay).
"""

from __future__ import annotations

import os
import re

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus_gspmd"
AUTO = jax.sharding.AxisType.Auto


def make_mesh(shape, names) -> jax.sharding.Mesh:
    devices = np.array(jax.devices("cpu")[:8])
    return jax.sharding.Mesh(devices.reshape(shape), names, axis_types=(AUTO,) * len(shape))


XY = make_mesh((2, 4), ("x", "y"))
XYZ = make_mesh((2, 2, 2), ("x", "y", "z"))
YX = make_mesh((4, 2), ("y", "x"))


def ns(mesh, *spec) -> NamedSharding:
    return NamedSharding(mesh, P(*spec))


def mlp():
    def f(x, w1, w2):
        h = jnp.tanh(x @ w1)
        h = jax.lax.with_sharding_constraint(h, ns(XY, "x", "y"))
        return (h @ w2).sum(0)

    args = (jnp.ones((8, 16)), jnp.ones((16, 32)), jnp.ones((32, 8)))
    shardings = (ns(XY, "x", None), ns(XY, None, "y"), ns(XY, "y", None))
    return jax.jit(f, in_shardings=shardings, out_shardings=ns(XY, "y")), args


def unconstrained():
    def f(x):
        y = jax.lax.with_sharding_constraint(jnp.exp(x), ns(XY, "x", P.UNCONSTRAINED))
        return y * 2.0

    return jax.jit(f, in_shardings=ns(XY, None, "y")), (jnp.ones((8, 16)),)


def three_axes():
    def f(x, w):
        return jax.nn.relu(x @ w) + 1.0

    args = (jnp.ones((8, 16)), jnp.ones((16, 8)))
    shardings = (ns(XYZ, ("x", "z"), "y"), ns(XYZ, "y", None))
    return jax.jit(f, in_shardings=shardings, out_shardings=ns(XYZ, "x", "z")), args


def transposed_axes():
    def f(x, y):
        return jnp.sin(x) * y.T

    args = (jnp.ones((8, 16)), jnp.ones((16, 8)))
    shardings = (ns(YX, "y", "x"), ns(YX, ("x", "y"), None))
    return jax.jit(f, in_shardings=shardings, out_shardings=ns(YX, None, "y")), args


def partial_manual():
    def body(x):
        return jax.lax.psum(jnp.cos(x), "x")

    def f(x):
        out = jax.shard_map(body, mesh=XY, in_specs=P("x"), out_specs=P(), axis_names={"x"})(x)
        return out * 3.0

    return jax.jit(f, in_shardings=ns(XY, "x", "y")), (jnp.ones((8, 16)),)


def shard_map_psum():
    def body(x, w):
        return jax.lax.psum(x @ w, "y")

    def f(x, w):
        out = jax.shard_map(
            body, mesh=XY, in_specs=(P("x", "y"), P("y", None)), out_specs=P("x", None)
        )(x, w)
        return jnp.tanh(out)

    args = (jnp.ones((8, 16)), jnp.ones((16, 4)))
    return jax.jit(f, in_shardings=(ns(XY, "x", "y"), ns(XY, "y", None))), args


PROGRAMS = [mlp, unconstrained, three_axes, transposed_axes, shard_map_psum, partial_manual]


def lowered_text(make, use_shardy: bool) -> str:
    jax.config.update("jax_use_shardy_partitioner", use_shardy)
    jitted, args = make()
    text = jitted.lower(*args).as_text()
    text = re.sub(r"\s*loc\(#loc\d*\)", "", text)
    return "\n".join(line for line in text.splitlines() if not line.startswith("#loc")) + "\n"


def main() -> None:
    CORPUS.mkdir(exist_ok=True)
    for make in PROGRAMS:
        for suffix, use_shardy in (("gspmd", False), ("sdy", True)):
            path = CORPUS / f"{make.__name__}.{suffix}.mlir"
            path.write_text(lowered_text(make, use_shardy))
            print(f"wrote {path.relative_to(CORPUS.parent.parent)}")
    jax.config.update("jax_use_shardy_partitioner", True)


if __name__ == "__main__":
    main()
