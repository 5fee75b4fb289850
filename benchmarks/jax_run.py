"""`shardonnay.jax.run` against `jax.jit`: end to end, compile and first run.

    python benchmarks/jax_run.py                    # the corpus and a 30-layer transformer
    python benchmarks/jax_run.py --layers 12 --programs mlp_forward,scan_rnn
    python benchmarks/jax_run.py --no-corpus        # the transformer alone

Every program runs on 8 CPU devices (a 2x4 mesh), from a cold start of its
own: `jax.jit(f)(*inputs)` after `jax.clear_caches()` (trace, lower, Shardy
propagation, XLA's SPMD partitioner, compile, run), then
`shardonnay.jax.run(f, *inputs)` (JAX lowers the function; shardonnay reads
the text, propagates and partitions it; XLA compiles the per-device program;
it runs), each until its results are ready (after a warm-up run of a
one-layer step that is not reported: imports and first uses). shardonnay's time is split into
its parts: lowering by JAX and reading the text, propagation and
partitioning, XLA's compile and the run. The last column is the largest
difference between the two results, relative to the largest magnitude of
JAX's.

The corpus programs are the functions `scripts/export_corpus.py` exports
(with the inputs of `tests/corpus/NAME.npz`); the transformer is `--layers`
pre-norm blocks (4 heads, Megatron-style tensor parallelism on `model`,
batch on `data`), one SGD train step: loss, gradients and updated
parameters.
"""

from __future__ import annotations

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

import shardonnay
from shardonnay.jax.execution import program_and_inputs, run_partitioned

ROOT = Path(__file__).resolve().parent.parent


def _load_script(path: Path) -> ModuleType:
    """The script at `path` loaded as a module (its `main` not run)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


export_corpus = _load_script(ROOT / "scripts" / "export_corpus.py")

D, HEADS, FF, BATCH, SEQ = 64, 4, 256, 8, 32


def transformer_step(layers: int):
    """A jitted train step of `layers` blocks, and its inputs (params, x)."""
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    column, row, replicated = P(None, "model"), P("model", None), P()
    shapes = {
        "ln1": ((D,), replicated),
        "wq": ((D, D), column),
        "wk": ((D, D), column),
        "wv": ((D, D), column),
        "wo": ((D, D), row),
        "ln2": ((D,), replicated),
        "w1": ((D, FF), column),
        "w2": ((FF, D), row),
    }
    rng = np.random.default_rng(0)
    params = [
        {
            k: (rng.standard_normal(s) * (1.0 if len(s) == 1 else s[0] ** -0.5)).astype(np.float32)
            for k, (s, _) in shapes.items()
        }
        for _ in range(layers)
    ]
    x = rng.standard_normal((BATCH, SEQ, D)).astype(np.float32)
    param_shardings = [{k: NamedSharding(mesh, p) for k, (_, p) in shapes.items()}] * layers

    def norm(h, g):
        return h * jax.lax.rsqrt(jnp.mean(h * h, axis=-1, keepdims=True) + 1e-6) * g

    def block(p, h):
        a = norm(h, p["ln1"])

        def heads(w):
            return (a @ w).reshape(BATCH, SEQ, HEADS, D // HEADS)

        scores = jnp.einsum("bqhd,bkhd->bhqk", heads(p["wq"]), heads(p["wk"])) / 4.0
        mask = jnp.tril(jnp.ones((SEQ, SEQ), dtype=bool))
        attn = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
        o = jnp.einsum("bhqk,bkhd->bqhd", attn, heads(p["wv"])).reshape(BATCH, SEQ, D)
        h = h + o @ p["wo"]
        return h + jax.nn.gelu(norm(h, p["ln2"]) @ p["w1"]) @ p["w2"]

    def loss(params, x):
        h = x
        for p in params:
            h = block(p, h)
        return jnp.mean(h * h)

    def step(params, x):
        value, grads = jax.value_and_grad(loss)(params, x)
        return jax.tree.map(lambda w, g: w - 0.01 * g, params, grads), value

    jitted = jax.jit(
        step,
        in_shardings=(param_shardings, NamedSharding(mesh, P("data"))),
        out_shardings=(param_shardings, NamedSharding(mesh, P())),
    )
    return jitted, (params, x)


def corpus_programs(names: list[str] | None):
    """(name, jitted, inputs as the function takes them) of the corpus."""
    for name, build in export_corpus.PROGRAMS.items():
        if names and name not in names:
            continue
        lowered = build()
        data = np.load(ROOT / "tests" / "corpus" / f"{name}.npz")
        flat = [data[f"input{i}"] for i in range(len(jax.tree.leaves(lowered.args)))]
        yield name, lowered.jitted, jax.tree.structure(lowered.args).unflatten(flat)


def _ready(tree):
    return jax.block_until_ready(tree)


def measure(jitted, args) -> dict:
    jax.clear_caches()
    start = time.perf_counter()
    expected = _ready(jitted(*args))
    jit_time = time.perf_counter() - start

    jax.clear_caches()
    start = time.perf_counter()
    module, leaves, _ = program_and_inputs(jitted, args, {})
    lowered_at = time.perf_counter()
    local = shardonnay.partition(module)
    partitioned_at = time.perf_counter()
    results = _ready(run_partitioned(module, local, leaves, jax.devices()))
    done = time.perf_counter()
    theirs = [np.asarray(y) for y in jax.tree.leaves(expected)]
    scale = max((float(np.max(np.abs(y))) for y in theirs if y.size), default=1.0) or 1.0
    diff = max(
        (
            float(np.max(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64))))
            for a, b in zip(results, theirs, strict=True)
            if b.size
        ),
        default=0.0,
    )
    return {
        "jit": jit_time,
        "ours": done - start,
        "lower": lowered_at - start,
        "partition": partitioned_at - lowered_at,
        "compile_run": done - partitioned_at,
        "diff": diff / scale,
        "ops": sum(1 for _ in module.walk()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", help="comma-separated corpus programs (default: all)")
    parser.add_argument("--layers", type=int, default=30, help="transformer layers (30)")
    parser.add_argument("--no-corpus", action="store_true", help="the transformer alone")
    args = parser.parse_args(argv)
    if len(jax.devices()) < 8:
        print("needs 8 devices: run with a fresh XLA_FLAGS", file=sys.stderr)
        return 1
    cases = []
    if not args.no_corpus:
        names = args.programs.split(",") if args.programs else None
        cases += list(corpus_programs(names))
    if args.layers:
        jitted, inputs = transformer_step(args.layers)
        cases.append((f"transformer_{args.layers}_layers_train_step", jitted, inputs))
    header = (
        f"{'program':<36} {'ops':>6} {'jax.jit':>8} {'shardonnay':>10} {'ratio':>6} "
        f"{'lower':>7} {'partition':>9} {'compile+run':>11} {'rel diff':>9}"
    )
    warm_up, inputs = transformer_step(1)  # imports and first-use costs, not reported
    measure(warm_up, inputs)
    print("seconds, compile and first run, 8 CPU devices")
    print(header)
    print("-" * len(header))
    totals = {"jit": 0.0, "ours": 0.0}
    for name, jitted, inputs in cases:
        r = measure(jitted, inputs)
        totals["jit"] += r["jit"]
        totals["ours"] += r["ours"]
        print(
            f"{name:<36} {r['ops']:>6} {r['jit']:>8.2f} {r['ours']:>10.2f} "
            f"{r['ours'] / r['jit']:>5.1f}x {r['lower']:>7.2f} {r['partition']:>9.2f} "
            f"{r['compile_run']:>11.2f} {r['diff']:>9.1e}",
            flush=True,
        )
    print("-" * len(header))
    print(
        f"{'total':<36} {'':>6} {totals['jit']:>8.2f} {totals['ours']:>10.2f} "
        f"{totals['ours'] / totals['jit']:>5.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
