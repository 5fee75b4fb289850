"""Propagation speed: text -> `sdy-propagation-pipeline` -> text, next to Shardy's own.

    python benchmarks/propagate.py                  # every row, best of 3
    python benchmarks/propagate.py --quick          # the small rows, best of 1
    python benchmarks/propagate.py --rows chain30k,transformer32-bwd --repeat 1
    python benchmarks/propagate.py --rows chain10k --profile 30
    python benchmarks/propagate.py --cpu            # CPU time (a busy machine)

Each row times the whole path from text to text on both sides:

* shardonnay: `parse_module(text)`, `run_pipeline(module,
  "builtin.module(sdy-propagation-pipeline)", in_place=True)` (the module
  just read is transformed, not copied, as `shardonnay opt` does),
  `.to_text()`;
* Shardy (the one inside jaxlib): `ir.Module.parse(text)`, the same pass
  pipeline through MLIR's `PassManager`, `get_asm()` (creating the MLIR
  context is not counted).

`ratio` is shardonnay's time over Shardy's, the best of `--repeat` runs of
each; `same` says whether the two printed modules are identical. `first` is
the ratio of the two sides' first runs on the row's text: what shardonnay
remembers across modules (types and attributes read, as MLIR's context
keeps them uniqued; op rules, verified op signatures, reshard choices, by
value) does not help it yet there.

Rows:

`chainN` (`chain10k`, `chain30k`, `chain100k`)
    a generated function of about N ops on `tensor<64x64xf32>` values, on
    the mesh `["x"=2, "y"=4]`, in groups of 10 ops: a `dot_general` with a
    weight argument sharded `[{}, {"y"}]`, then elementwise ops (`tanh`, an
    add of a bias argument, a multiply by a broadcast scalar constant, an add
    of the group's `dot_general` result, `negate`, `abs`, a subtract). The
    input is sharded `[{"x"}, {}]` and the result `[{"x"}, {"y"}]`.
`transformerL-fwd` / `transformerL-bwd` (L = 8, 32, 96)
    a stack of L pre-LN transformer blocks (2-head causal attention,
    layernorms, gelu MLP, residuals) lowered by JAX, forward, and `jax.grad`
    of a mean-square loss w.r.t. all parameters, on the mesh
    `["data"=2, "model"=4]` (batch on "data", heads and hidden on "model").
    The block is written with `lax` ops only, so that the lowered module has
    no `func.call` (`jnp.tril`/`jnp.where` would lower to private functions).
`corpus/NAME`
    every program of `tests/corpus/` as it is (some hold `call`s).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
PIPELINE = "builtin.module(sdy-propagation-pipeline)"

# -- the generated chain ------------------------------------------------------------

_T = "tensor<64x64xf32>"
_MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>'


def _sharding(dims: str) -> str:
    return f"{{sdy.sharding = #sdy.sharding<@mesh, [{dims}]>}}"


def chain_module(num_ops: int) -> str:
    """A function of about `num_ops` ops in groups of 10 (see the module docstring)."""
    groups = max(1, num_ops // 10)
    lines = [
        "module @chain attributes {mhlo.num_partitions = 8 : i32} {",
        f"  {_MESH}",
        f'  func.func public @main(%x: {_T} {_sharding("""{"x"}, {}""")}, '
        f'%w: {_T} {_sharding("""{}, {"y"}""")}, %b: {_T}) '
        f'-> ({_T} {_sharding("""{"x"}, {"y"}""")}) {{',
    ]
    x = "%x"
    for g in range(groups):
        v = f"%g{g}_"
        lines += [
            f"    {v}d = stablehlo.dot_general {x}, %w, contracting_dims = [1] x [0] "
            f": ({_T}, {_T}) -> {_T}",
            f"    {v}t = stablehlo.tanh {v}d : {_T}",
            f"    {v}a = stablehlo.add {v}t, %b : {_T}",
            f"    {v}c = stablehlo.constant dense<5.000000e-01> : tensor<f32>",
            f"    {v}s = stablehlo.broadcast_in_dim {v}c, dims = [] : (tensor<f32>) -> {_T}",
            f"    {v}m = stablehlo.multiply {v}a, {v}s : {_T}",
            f"    {v}r = stablehlo.add {v}m, {v}d : {_T}",
            f"    {v}n = stablehlo.negate {v}r : {_T}",
            f"    {v}e = stablehlo.abs {v}n : {_T}",
            f"    {v}o = stablehlo.subtract {v}e, %b : {_T}",
        ]
        x = f"{v}o"
    lines += [f"    return {x} : {_T}", "  }", "}"]
    return "\n".join(lines) + "\n"


# -- the transformer stacks (JAX) ---------------------------------------------------

_D, _HEADS, _HD, _FF, _BATCH, _SEQ = 32, 2, 16, 64, 2, 8
_BLOCK_SHAPES = {
    "ln1_g": (_D,),
    "ln1_b": (_D,),
    "wq": (_D, _D),
    "wk": (_D, _D),
    "wv": (_D, _D),
    "wo": (_D, _D),
    "ln2_g": (_D,),
    "ln2_b": (_D,),
    "w1": (_D, _FF),
    "w2": (_FF, _D),
}
_BLOCK_SPECS = {
    "ln1_g": (),
    "ln1_b": (),
    "wq": (None, "model"),
    "wk": (None, "model"),
    "wv": (None, "model"),
    "wo": ("model", None),
    "ln2_g": (),
    "ln2_b": (),
    "w1": (None, "model"),
    "w2": ("model", None),
}


def _jax():
    """jax, imported with 8 host CPU devices."""
    flag = "--xla_force_host_platform_device_count=8"
    if flag not in os.environ.get("XLA_FLAGS", ""):
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + flag).strip()
    import jax

    return jax


def transformer_module(layers: int, *, backward: bool) -> str:
    """A stack of `layers` transformer blocks lowered by JAX (see the module docstring)."""
    jitted, args = transformer_jitted(layers, backward=backward)
    return jitted.lower(*args).as_text()


def transformer_jitted(layers: int, *, backward: bool = False, train: bool = False):
    """The jitted stack of `transformer_module` and its abstract arguments:
    forward, `jax.grad` of the loss (`backward`), or a training step
    (`train`): the loss, its gradients and an Adam update of the parameters
    and of the optimizer's two moments, each sharded as its parameter."""
    jax = _jax()
    import jax.numpy as jnp
    import numpy as np
    from jax import lax
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)

    def layernorm(x, g, b):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
        return (x - mean) * lax.rsqrt(var + 1e-5) * g + b

    def block(p, x):
        h = layernorm(x, p["ln1_g"], p["ln1_b"])

        def heads(w):
            return (h @ w).reshape(_BATCH, _SEQ, _HEADS, _HD)

        q, k, v = heads(p["wq"]), heads(p["wk"]), heads(p["wv"])
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.float32(np.sqrt(_HD))
        rows = lax.broadcasted_iota(jnp.int32, scores.shape, 2)
        cols = lax.broadcasted_iota(jnp.int32, scores.shape, 3)
        scores = lax.select(rows >= cols, scores, jnp.full(scores.shape, -1e9, jnp.float32))
        attn = jax.nn.softmax(scores, axis=-1)
        o = jnp.einsum("bhqk,bkhd->bqhd", attn, v).reshape(_BATCH, _SEQ, _D)
        x = x + o @ p["wo"]
        h = layernorm(x, p["ln2_g"], p["ln2_b"])
        return x + jax.nn.gelu(h @ p["w1"]) @ p["w2"]

    def stack(params, x):
        for p in params:
            x = block(p, x)
        return x

    def grads(params, x):
        return jax.grad(lambda ps: jnp.mean(jnp.square(stack(ps, x))))(params)

    def train_step(params, moments, x):
        loss, g = jax.value_and_grad(lambda ps: jnp.mean(jnp.square(stack(ps, x))))(params)
        m, v = moments
        m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
        params = jax.tree.map(lambda p, m, v: p - 1e-3 * m / (jnp.sqrt(v) + 1e-8), params, m, v)
        return loss, params, (m, v)

    def named(spec):
        return NamedSharding(mesh, P(*spec))

    param_shardings = [{k: named(s) for k, s in _BLOCK_SPECS.items()} for _ in range(layers)]
    x_sharding = named(("data", None, None))
    params = [
        {k: jax.ShapeDtypeStruct(s, jnp.float32) for k, s in _BLOCK_SHAPES.items()}
        for _ in range(layers)
    ]
    x = jax.ShapeDtypeStruct((_BATCH, _SEQ, _D), jnp.float32)
    if train:
        moments = (param_shardings, param_shardings)
        jitted = jax.jit(
            train_step,
            in_shardings=(param_shardings, moments, x_sharding),
            out_shardings=(named(()), param_shardings, moments),
        )
        return jitted, (params, (params, params), x)
    out_shardings = param_shardings if backward else x_sharding
    jitted = jax.jit(
        grads if backward else stack,
        in_shardings=(param_shardings, x_sharding),
        out_shardings=out_shardings,
    )
    return jitted, (params, x)


# -- the rows ------------------------------------------------------------------------


def _rows() -> dict[str, Callable[[], str]]:
    rows: dict[str, Callable[[], str]] = {}
    for n in (10_000, 30_000, 100_000):
        rows[f"chain{n // 1000}k"] = lambda n=n: chain_module(n)
    for layers in (8, 32, 96):
        for backward in (False, True):
            name = f"transformer{layers}-{'bwd' if backward else 'fwd'}"
            rows[name] = lambda layers=layers, backward=backward: transformer_module(
                layers, backward=backward
            )
    for path in sorted(CORPUS.glob("*.mlir")):
        rows[f"corpus/{path.stem}"] = lambda path=path: path.read_text()
    return rows


QUICK_ROWS = ("chain10k", "transformer8-fwd", "transformer8-bwd", "corpus/")

# -- timing --------------------------------------------------------------------------


# The clock rows are timed with: wall time, or with `--cpu` the CPU time of
# the process (all its threads: MLIR's pass manager may run some), steadier
# on a machine busy with other work.
_clock = time.perf_counter


def _best(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = _clock()
        fn()
        best = min(best, _clock() - start)
    return best


def ours(text: str) -> str:
    from shardonnay.passes import run_pipeline
    from shardonnay.syntax.mlir_reader import parse_module

    return run_pipeline(parse_module(text), PIPELINE, in_place=True).to_text()


class Shardy:
    """Shardy's pipeline through jaxlib's MLIR, in one MLIR context made once."""

    def __init__(self) -> None:
        _jax()
        from jax._src.interpreters import mlir as jmlir
        from jaxlib.mlir import ir, passmanager

        self._ir, self._passmanager = ir, passmanager
        self._context = jmlir.make_ir_context()

    def __call__(self, text: str) -> str:
        with self._context:
            module = self._ir.Module.parse(text)
            self._passmanager.PassManager.parse(PIPELINE).run(module.operation)
            return module.operation.get_asm(enable_debug_info=False)


@dataclass
class Row:
    name: str
    ops: int
    parse_s: float
    pipeline_s: float
    print_s: float
    shardy_s: float
    same: bool
    # The first run of each side on this text (see `measure`).
    first_ours_s: float = float("nan")
    first_shardy_s: float = float("nan")

    @property
    def ours_s(self) -> float:
        return self.parse_s + self.pipeline_s + self.print_s

    @property
    def ratio(self) -> float:
        return self.ours_s / self.shardy_s

    @property
    def first_ratio(self) -> float:
        return self.first_ours_s / self.first_shardy_s


def measure(name: str, text: str, shardy: Shardy, repeat: int) -> Row:
    from shardonnay.passes import run_pipeline
    from shardonnay.syntax.mlir_reader import parse_module

    start = _clock()
    expected = shardy(text)
    first_shardy_s = _clock() - start
    shardy_s = _best(lambda: shardy(text), repeat)
    first_ours_s = _best(lambda: ours(text), 1)
    module = parse_module(text)
    ops = sum(1 for op in module.walk() if op.name not in ("func.func", "sdy.mesh"))
    parse_s = pipeline_s = print_s = float("inf")
    actual = ""
    for _ in range(repeat):
        t0 = _clock()
        module = parse_module(text)
        t1 = _clock()
        out = run_pipeline(module, PIPELINE, in_place=True)
        t2 = _clock()
        actual = out.to_text()
        t3 = _clock()
        # The best total, with its parts.
        if t3 - t0 < parse_s + pipeline_s + print_s:
            parse_s, pipeline_s, print_s = t1 - t0, t2 - t1, t3 - t2
    return Row(
        name,
        ops,
        parse_s,
        pipeline_s,
        print_s,
        shardy_s,
        actual == expected,
        first_ours_s,
        first_shardy_s,
    )


def profile(text: str, top: int) -> str:
    """cProfile of one text -> text run of shardonnay, by internal time."""
    profiler = cProfile.Profile()
    profiler.enable()
    ours(text)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def _selected(all_rows: dict[str, Callable[[], str]], patterns: list[str]) -> list[str]:
    """Rows named in `patterns` (a name, or a prefix like `corpus/`), in table order."""
    unknown = [p for p in patterns if not any(n == p or n.startswith(p) for n in all_rows)]
    if unknown:
        raise SystemExit(f"unknown rows {', '.join(unknown)}; known: {', '.join(all_rows)}")
    return [n for n in all_rows if any(n == p or n.startswith(p) for p in patterns)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="", help="comma-separated row names or prefixes")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (the best counts)")
    parser.add_argument("--quick", action="store_true", help="the small rows, one run each")
    parser.add_argument(
        "--profile", type=int, default=0, metavar="N", help="profile the last row, top N"
    )
    parser.add_argument(
        "--cpu", action="store_true", help="time with the process's CPU time, not wall time"
    )
    args = parser.parse_args(argv)
    global _clock
    _clock = time.process_time if args.cpu else time.perf_counter
    all_rows = _rows()
    if args.rows:
        patterns = [p.strip() for p in args.rows.split(",") if p.strip()]
    elif args.quick:
        patterns = list(QUICK_ROWS)
    else:
        patterns = list(all_rows)
    repeat = 1 if args.quick and args.repeat == 3 else args.repeat
    names = _selected(all_rows, patterns)
    shardy = Shardy()
    ours(chain_module(20))  # imports and first-use caches are not timed
    header = (
        f"{'row':<36} {'ops':>7} {'parse s':>8} {'pipeline s':>10} {'print s':>8} "
        f"{'ours s':>8} {'shardy s':>9} {'ratio':>6} {'same':>5} {'first':>6}"
    )
    clock = "CPU time" if args.cpu else "wall time"
    print(f"best of {repeat} ({clock}); ours = parse + pipeline + print")
    print(header)
    print("-" * len(header))
    worst = worst_first = 0.0
    text = ""
    for name in names:
        text = all_rows[name]()
        r = measure(name, text, shardy, repeat)
        worst, worst_first = max(worst, r.ratio), max(worst_first, r.first_ratio)
        print(
            f"{r.name:<36} {r.ops:>7} {r.parse_s:>8.3f} {r.pipeline_s:>10.3f} "
            f"{r.print_s:>8.3f} {r.ours_s:>8.3f} {r.shardy_s:>9.4f} {r.ratio:>5.1f}x "
            f"{'yes' if r.same else 'no':>5} {r.first_ratio:>5.1f}x",
            flush=True,
        )
    print(f"\nworst ratio {worst:.1f}x (first runs: {worst_first:.1f}x)")
    if args.profile and names:
        print(f"\nprofile of one run of {names[-1]}:\n")
        print(profile(text, args.profile))
    return 0


if __name__ == "__main__":
    sys.exit(main())
