"""Device check: `shardonnay.jax` and the PJRT path on this machine's devices.

    PYTHONPATH=src python3 benchmarks/device_check.py --json device_check.json
    JAX_PLATFORMS=cpu python benchmarks/device_check.py
    JAX_PLATFORMS=cpu XLA_FLAGS=--xla_force_host_platform_device_count=8 \\
        python benchmarks/device_check.py --json /tmp/device_check.json

Runs on whatever `jax.devices()` holds (one GPU, several, or CPU devices) and
prints the versions, the backend and the devices, then one row per check, as
each finishes (a row that fails prints its error; the others still run):

1. `models`: the bundled real models (`tests/models/*.mlir`, JAX's lowering
   of flax, transformers and equinox train steps, read as text: the
   libraries that traced them are not needed) and a plain MLP train step
   written here, lowered by `shardonnay.jax.lower`; each propagated,
   partitioned and run on the devices by `shardonnay.jax`'s runner
   (`execution.run_partitioned`, what `shardonnay.jax.run` calls). A model
   whose mesh has more devices than the machine runs as its single-device
   program: every mesh axis set to size 1 (shardonnay does not re-mesh onto
   another device count), which still goes through propagation, the
   partitioner and XLA. Each output is judged as `shardonnay check` judges
   it (`runtime.numerics.judge_output` against the program run in float64 by
   the reference interpreter, allowing 8 times the error the unpartitioned
   program makes in its own dtypes there): column `check`, with `err/tol`
   the largest error over the error allowed (below 1 passes) and `rel err`
   the largest error relative to its output's largest magnitude. Column
   `vs XLA` judges the same outputs by the same rule with XLA's own compile
   of the global program, run on the same devices, as the unpartitioned
   program: the device's own rounding (NVIDIA GPUs run the f32 matmuls of
   JAX's DEFAULT precision in TF32) is allowed there, not under `check`.
2. `bf16`: the bf16 programs of `tests/corpus/bf16`, partitioned and run by
   `runtime.pjrt.run_on_devices`, judged the same way.
3. `jax.run`: `shardonnay.jax.run(f, *args, mesh=...)` against `jax.jit(f)(*args)`
   on the same devices, for the MLP train step in f32 and bf16: the outputs
   must agree to half the digits of their dtype (`compare_output`).
4. `timing`: the median time of one run (inputs already on the devices,
   `--repeats` runs after a warm-up) of the per-device program shardonnay
   made against XLA's own: for the largest model, XLA's compile of its global
   program (XLA's Shardy partitioner, as `jax.jit` compiles JAX's lowering);
   for the MLP, the `jax.jit` function itself.

`--json PATH` writes the header and the rows (rewritten after every row).
Rows that would start after `--budget` seconds are skipped (a row says so).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

import shardonnay
from shardonnay.ir.attributes import IntegerAttr
from shardonnay.ir.types import TensorType
from shardonnay.layout import shard, unshard
from shardonnay.mesh import Mesh
from shardonnay.runtime.interpreter import run as interpret
from shardonnay.runtime.numerics import (
    compare_output,
    judge_output,
    main_arguments,
    wide_reference,
)
from shardonnay.runtime.simulator import device_inputs
from shardonnay.sharding import TensorSharding

ROOT = Path(__file__).resolve().parent.parent

MODELS = ROOT / "tests" / "models"
BF16 = ROOT / "tests" / "corpus" / "bf16"
MLP_SIZES = (128, 512, 256)  # batch, hidden, features


@dataclass
class Row:
    """One check's outcome: `status` is ok, FAIL (a wrong number), error (an
    exception) or skipped; times in seconds."""

    section: str
    name: str
    status: str = "ok"
    devices: str = ""
    max_rel_error: float | None = None  # of the worst output, relative to its largest value
    error_to_tolerance: float | None = None  # the largest error over the error allowed
    vs_xla: str = "-"
    times: dict[str, float] = field(default_factory=dict)
    detail: str = ""


@dataclass
class Prepared:
    """A program on its devices: the global module they run, the per-device
    program, the devices and the arguments (kept for the timing rows)."""

    module: shardonnay.Module
    local: shardonnay.Module
    devices: list
    inputs: list
    label: str


# -- the machine ---------------------------------------------------------------------------


def header(jax) -> dict:
    info: dict = {"python": platform.python_version(), "cpus": os.cpu_count()}
    try:
        import jaxlib

        info["jaxlib"] = getattr(jaxlib, "__version__", None) or jaxlib.version.__version__
    except Exception as e:
        info["jaxlib"] = f"unknown ({type(e).__name__}: {e})"
    info["jax"] = jax.__version__
    info["numpy"] = np.__version__
    try:
        import ml_dtypes

        info["ml_dtypes"] = ml_dtypes.__version__
    except ImportError:
        info["ml_dtypes"] = "missing"
    info["backend"] = jax.default_backend()
    info["devices"] = [f"{d.platform}:{d.id} {d.device_kind}" for d in jax.devices()]
    for name in ("JAX_PLATFORMS", "XLA_FLAGS", "NVIDIA_TF32_OVERRIDE"):
        info[name] = os.environ.get(name, "")
    return info


def on_devices(module: shardonnay.Module, available: list) -> tuple[shardonnay.Module, list, str]:
    """`module` and the devices it runs on: its own mesh's count when the
    machine has them, else its single-device program (every mesh axis of
    size 1) on the first device."""
    size = max((m.size for m in module.meshes.values() if isinstance(m, Mesh)), default=1)
    if size <= len(available):
        return module, available[:size], str(size)
    single = module.copy()
    for op in single.ops:
        if op.name == "sdy.mesh":
            op.attributes["mesh"] = Mesh([(name, 1) for name, _ in op.attributes["mesh"].axes])
    partitions = single.attributes.get("mhlo.num_partitions")  # JAX writes the mesh's count
    if isinstance(partitions, IntegerAttr):
        single.attributes["mhlo.num_partitions"] = IntegerAttr(1, partitions.type)
    return single, available[:1], f"1 (mesh of {size} as 1)"


def model_inputs(module: shardonnay.Module, path: Path) -> list[np.ndarray]:
    """The stored arguments of `@main` (`input0`, ... of the `.npz` next to
    the program; bf16 kept as raw 2-byte values is viewed as bf16)."""
    types = module.function("main").type.inputs
    with np.load(path) as archive:
        stored = [archive[f"input{i}"] for i in range(len(types))]
    viewed = [
        a.view(t.dtype) if a.dtype.kind == "V" else a for a, t in zip(stored, types, strict=True)
    ]
    return main_arguments(module, viewed)


# -- judging -------------------------------------------------------------------------------


def references(module: shardonnay.Module, inputs: list) -> tuple[list, list | None]:
    """The program's outputs from the reference interpreter in its own dtypes
    and in float64 (None when it has no float64 form), as `check` has them."""
    with np.errstate(all="ignore"):
        expected = [np.asarray(y) for y in interpret(module, *inputs)]
        wide = wide_reference(module)
        exact = None if wide is None else [np.asarray(y) for y in interpret(wide, *inputs)]
    return expected, exact


def judged(module, got: list, expected: list, exact: list | None) -> list:
    results = module.function("main").type.results
    return [
        judge_output(i, expected[i], np.asarray(got[i]), None if exact is None else exact[i])
        for i, t in enumerate(results)
        if isinstance(t, TensorType)
    ]


def error_to_tolerance(comparisons: list) -> float:
    """The largest error of `comparisons` over the error each allows at 0 (an
    exact comparison allows none: 0 when equal, else infinity)."""

    def ratio(c) -> float:
        if c.abs_tolerance:
            return c.max_abs_error / c.abs_tolerance
        return 0.0 if c.max_abs_error == 0 else float("inf")

    return max((ratio(c) for c in comparisons), default=0.0)


def verdict(row: Row, comparisons: list, against_xla: list | None) -> Row:
    row.max_rel_error = max((c.max_rel_error for c in comparisons), default=0.0)
    row.error_to_tolerance = error_to_tolerance(comparisons)
    failed = [c for c in comparisons if not c.ok]
    row.status = "FAIL" if failed else "ok"
    if failed:
        first = failed[0]
        row.detail = (
            f"{len(failed)} of {len(comparisons)} outputs out of check's tolerance; output "
            f"{first.index} ({first.dtype}{list(first.shape)}): {first.detail}; "
            f"{first.verdict() or 'exact comparison'}"
        )
    if against_xla is not None:
        wrong = [c for c in against_xla if not c.ok]
        row.vs_xla = "ok" if not wrong else f"FAIL ({len(wrong)})"
        if wrong and not failed:
            row.detail = f"vs XLA's run: output {wrong[0].index}: {wrong[0].detail}"
    return row


# -- XLA's own compile of a global program -------------------------------------------------


def stacked(jax, buffers: list, devices: list):
    """One argument of an executable: device `d`'s buffer is `buffers[d]`."""
    from shardonnay.runtime.pjrt import _device_array

    return _device_array(jax, buffers, devices)


def xla_layouts(shardings, ranks: list[int], count: int) -> list[tuple]:
    """`(sharding, mesh)` of each of an executable's parameters or results
    (`get_parameter_shardings()` / `get_output_shardings()`, GSPMD shardings
    read by `interop.gspmd`), its partitions numbered as the devices; a value
    XLA names no tiling for is replicated."""
    from jax._src.lib import xla_client

    from shardonnay.interop.gspmd import HloSharding, to_tensor_sharding

    everywhere = Mesh({"devices": count})
    out = []
    for i, rank in enumerate(ranks):
        op_sharding = shardings[i] if shardings else None
        hlo = None
        if op_sharding is not None:
            hlo = HloSharding.parse(str(xla_client.HloSharding.from_proto(op_sharding)))
        if hlo is None or hlo.kind != "tiled":
            out.append((TensorSharding.replicated_on(everywhere, rank), everywhere))
        else:
            out.append(to_tensor_sharding(hlo, rank))
    return out


def xla_arguments(jax, executable, module, inputs: list, devices: list) -> list:
    """The inputs cut as XLA's executable of the global program takes them,
    on the devices."""
    types = module.function("main").type.inputs
    layouts = xla_layouts(
        executable.get_parameter_shardings(), [t.rank for t in types], len(devices)
    )
    out = []
    for x, t, (sharding, mesh) in zip(inputs, types, layouts, strict=True):
        pieces = shard(np.asarray(x).astype(t.dtype, copy=False), sharding, mesh)
        out.append(stacked(jax, [pieces[d] for d in range(len(devices))], devices))
    return out


def xla_global(jax, module, devices: list):
    """XLA's executable of the global program (XLA's own partitioning, the
    shardings as written)."""
    from shardonnay.runtime.pjrt import _compile

    return _compile(jax, module.to_text(), list(devices))


def xla_outputs(executable, module, per_result: list, count: int) -> list[np.ndarray]:
    """The global results of XLA's executable from each device's buffers."""
    types = module.function("main").type.results
    layouts = xla_layouts(executable.get_output_shardings(), [t.rank for t in types], count)
    return [
        unshard({d: np.asarray(per_result[r][d]) for d in range(count)}, *where, tuple(t.shape))
        for r, (t, where) in enumerate(zip(types, layouts, strict=True))
    ]


def local_arguments(jax, prepared: Prepared) -> list:
    """The inputs of the per-device program, on its devices (as `run_on_devices` feeds them)."""
    count, per_device = device_inputs(prepared.local, prepared.inputs, poison=False)
    return [
        stacked(jax, [per_device[d][i] for d in range(count)], prepared.devices)
        for i in range(len(prepared.inputs))
    ]


def execute(jax, executable, arguments: list) -> list:
    results = executable.execute_sharded(arguments).disassemble_into_single_device_arrays()
    return jax.block_until_ready(results)


def median_time(fn: Callable[[], object], repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# -- the checks ----------------------------------------------------------------------------


class Checks:
    def __init__(self, jax, args: argparse.Namespace):
        self.jax, self.args = jax, args
        self.devices = list(jax.devices())
        self.prepared: dict[str, Prepared] = {}
        self.mlp_cache: dict[str, tuple] = {}
        self.xla_executables: dict[int, object] = {}

    def xla_executable(self, prepared: Prepared):
        """XLA's executable of `prepared`'s global program, compiled once."""
        key = id(prepared.module)
        if key not in self.xla_executables:
            self.xla_executables[key] = xla_global(self.jax, prepared.module, prepared.devices)
        return self.xla_executables[key]

    def _xla_judged(self, prepared: Prepared, got, expected, exact, row: Row) -> list | None:
        """The outputs judged with XLA's own run as the unpartitioned program."""
        jax = self.jax
        with jax.enable_x64(True):
            start = time.perf_counter()
            executable = self.xla_executable(prepared)
            row.times["xla_compile"] = time.perf_counter() - start
            arguments = xla_arguments(
                jax, executable, prepared.module, prepared.inputs, prepared.devices
            )
            start = time.perf_counter()
            per_result = execute(jax, executable, arguments)
            row.times["xla_run"] = time.perf_counter() - start
        ours = xla_outputs(executable, prepared.module, per_result, len(prepared.devices))
        return judged(prepared.module, got, ours, exact)

    def model(self, name: str, module: shardonnay.Module, inputs: list, row: Row) -> Row:
        from shardonnay.jax.execution import run_partitioned
        from shardonnay.partitioner.program import partition, propagated_program
        from shardonnay.runtime.pjrt import compiled

        module_d, devices, row.devices = on_devices(module, self.devices)
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # notes about ops without sharding rules
            propagated = propagated_program(module_d)
            row.times["propagate"] = time.perf_counter() - start
            start = time.perf_counter()
            local = partition(propagated, propagate=False)
        row.times["partition"] = time.perf_counter() - start
        prepared = Prepared(module_d, local, devices, inputs, row.devices)
        self.prepared[name] = prepared
        with self.jax.enable_x64(True):
            start = time.perf_counter()
            compiled(local, devices)
            row.times["compile"] = time.perf_counter() - start
        start = time.perf_counter()
        got = [np.asarray(y) for y in run_partitioned(module_d, local, inputs, devices)]
        row.times["run"] = time.perf_counter() - start
        start = time.perf_counter()
        expected, exact = references(module, inputs)
        row.times["reference"] = time.perf_counter() - start
        comparisons = judged(module, got, expected, exact)
        try:
            against_xla = self._xla_judged(prepared, got, expected, exact, row)
        except Exception as e:
            against_xla = None
            row.vs_xla = "error"
            row.detail = f"XLA's own run: {type(e).__name__}: {first_line(e)}"
        return verdict(row, comparisons, against_xla)

    def bundled_model(self, path: Path, row: Row) -> Row:
        start = time.perf_counter()
        module = shardonnay.parse_module(path.read_text(), str(path.relative_to(ROOT)))
        row.times["read"] = time.perf_counter() - start
        return self.model(path.stem, module, model_inputs(module, path.with_suffix(".npz")), row)

    def mlp(self, dtype: str):
        """The MLP train step, jitted with its arguments on a mesh of the
        devices (data x model), and its arguments."""
        if dtype in self.mlp_cache:
            return self.mlp_cache[dtype]
        jax = self.jax
        import jax.numpy as jnp
        from jax.sharding import AxisType, NamedSharding
        from jax.sharding import PartitionSpec as P

        n = len(self.devices)
        model = max(m for m in (1, 2, 4) if n % m == 0)
        mesh = jax.make_mesh(
            (n // model, model),
            ("data", "model"),
            axis_types=(AxisType.Auto,) * 2,
            devices=self.devices,
        )
        batch, hidden, features = MLP_SIZES

        def loss(params, x, y):
            h = jax.nn.gelu(x @ params["w1"] + params["b1"])
            return jnp.mean((h @ params["w2"] - y).astype(jnp.float32) ** 2)

        def train_step(params, x, y):
            value, grads = jax.value_and_grad(loss)(params, x, y)
            return jax.tree.map(lambda p, g: p - 0.1 * g.astype(p.dtype), params, grads), value

        rng = np.random.default_rng(0)

        def put(shape, *spec, scale=1.0):
            array = (rng.standard_normal(shape) * scale).astype(jnp.dtype(dtype))
            return jax.device_put(array, NamedSharding(mesh, P(*spec)))

        params = {
            "w1": put((features, hidden), None, "model", scale=features**-0.5),
            "b1": put((hidden,), "model", scale=0.1),
            "w2": put((hidden, features), "model", None, scale=hidden**-0.5),
        }
        x, y = put((batch, features), "data", None), put((batch, features), "data", None)
        jitted = jax.jit(train_step)
        self.mlp_cache[dtype] = (jitted, (params, x, y), mesh)
        return self.mlp_cache[dtype]

    def mlp_model(self, row: Row) -> Row:
        from shardonnay.jax import lower

        jitted, args, _ = self.mlp("float32")
        start = time.perf_counter()
        module = lower(jitted, *args)
        row.times["lower"] = time.perf_counter() - start
        inputs = [np.asarray(x) for x in self.jax.tree.leaves(args)]
        return self.model("mlp_train_step", module, inputs, row)

    def bf16_program(self, path: Path, row: Row) -> Row:
        from shardonnay.runtime.pjrt import compiled, run_on_devices

        module = shardonnay.parse_module(path.read_text(), str(path.relative_to(ROOT)))
        inputs = model_inputs(module, path.with_suffix(".npz"))
        module_d, devices, row.devices = on_devices(module, self.devices)
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            local = shardonnay.partition(module_d)
        row.times["partition"] = time.perf_counter() - start
        with self.jax.enable_x64(True):
            start = time.perf_counter()
            compiled(local, devices)
            row.times["compile"] = time.perf_counter() - start
        start = time.perf_counter()
        got = run_on_devices(local, *inputs, devices=devices)
        row.times["run"] = time.perf_counter() - start
        expected, exact = references(module, inputs)
        comparisons = judged(module, list(got), expected, exact)
        prepared = Prepared(module_d, local, devices, inputs, row.devices)
        try:
            against_xla = self._xla_judged(prepared, list(got), expected, exact, row)
        except Exception as e:
            against_xla = None
            row.vs_xla = "error"
            row.detail = f"XLA's own run: {type(e).__name__}: {first_line(e)}"
        return verdict(row, comparisons, against_xla)

    def jax_run(self, dtype: str, row: Row) -> Row:
        import shardonnay.jax

        jax = self.jax
        jitted, args, mesh = self.mlp(dtype)
        row.devices = str(mesh.devices.size)
        theirs = jax.block_until_ready(jitted(*args))
        ours = jax.block_until_ready(shardonnay.jax.run(jitted, *args, mesh=mesh))
        pairs = list(zip(jax.tree.leaves(ours), jax.tree.leaves(theirs), strict=True))
        comparisons = [
            compare_output(i, np.asarray(b), np.asarray(a), rtol=0.0, atol=None)
            for i, (a, b) in enumerate(pairs)
        ]
        same_devices = all(a.sharding.device_set == b.sharding.device_set for a, b in pairs)
        bitwise = sum(np.array_equal(np.asarray(a), np.asarray(b)) for a, b in pairs)
        row.max_rel_error = max(c.max_rel_error for c in comparisons)
        row.error_to_tolerance = error_to_tolerance(comparisons)
        failed = [c for c in comparisons if not c.ok]
        row.status = "FAIL" if failed or not same_devices else "ok"
        row.detail = f"{bitwise} of {len(pairs)} outputs equal to the bit"
        if failed:
            row.detail += f"; output {failed[0].index}: {failed[0].detail}"
        if not same_devices:
            row.detail += "; results on other devices than jax.jit's"
        return row

    def timing_model(self, name: str, row: Row) -> Row:
        from shardonnay.runtime.pjrt import compiled

        jax = self.jax
        if name not in self.prepared:
            path = MODELS / f"{name}.mlir"
            self.bundled_model(path, Row("models", name))
        prepared = self.prepared[name]
        row.devices = prepared.label
        repeats = self.args.repeats
        with jax.enable_x64(True):
            ours = compiled(prepared.local, prepared.devices)
            our_arguments = local_arguments(jax, prepared)
            theirs = self.xla_executable(prepared)
            their_arguments = xla_arguments(
                jax, theirs, prepared.module, prepared.inputs, prepared.devices
            )
            row.times["shardonnay"] = median_time(
                lambda: execute(jax, ours, our_arguments), repeats
            )
            row.times["xla"] = median_time(lambda: execute(jax, theirs, their_arguments), repeats)
        row.detail = (
            f"median of {repeats} runs: per-device program {row.times['shardonnay'] * 1e3:.3f} ms, "
            f"XLA's compile of the global program {row.times['xla'] * 1e3:.3f} ms "
            f"({row.times['shardonnay'] / row.times['xla']:.2f}x)"
        )
        return row

    def timing_mlp(self, row: Row) -> Row:
        from shardonnay.runtime.pjrt import compiled

        jax = self.jax
        if "mlp_train_step" not in self.prepared:
            self.mlp_model(Row("models", "mlp_train_step"))
        prepared = self.prepared["mlp_train_step"]
        jitted, args, _ = self.mlp("float32")
        row.devices = prepared.label
        repeats = self.args.repeats
        with jax.enable_x64(True):
            ours = compiled(prepared.local, prepared.devices)
            arguments = local_arguments(jax, prepared)
            row.times["shardonnay"] = median_time(lambda: execute(jax, ours, arguments), repeats)
        row.times["jax.jit"] = median_time(lambda: jax.block_until_ready(jitted(*args)), repeats)
        row.detail = (
            f"median of {repeats} runs: per-device program {row.times['shardonnay'] * 1e3:.3f} ms, "
            f"jax.jit {row.times['jax.jit'] * 1e3:.3f} ms "
            f"({row.times['shardonnay'] / row.times['jax.jit']:.2f}x)"
        )
        return row


# -- the table -----------------------------------------------------------------------------


def first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0][:300] if text else ""


COLUMNS = (
    f"{'section':<8} {'name':<34} {'devices':<18} {'check':<7} {'err/tol':>7} {'rel err':>8} "
    f"{'vs XLA':<8}"
)


def printed(row: Row) -> str:
    error = "-" if row.max_rel_error is None else f"{row.max_rel_error:.1e}"
    ratio = "-" if row.error_to_tolerance is None else f"{row.error_to_tolerance:.2f}"
    times = " ".join(f"{k}={v:.3g}" for k, v in row.times.items() if k != "reference")
    line = (
        f"{row.section:<8} {row.name:<34} {row.devices:<18} {row.status:<7} {ratio:>7} "
        f"{error:>8} {row.vs_xla:<8} {times}"
    )
    return line + (f"\n{'':<8} {row.detail}" if row.detail else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the results to this JSON file")
    parser.add_argument("--models", help="comma-separated model names (default: all)")
    parser.add_argument("--repeats", type=int, default=10, help="timed runs per timing (10)")
    parser.add_argument(
        "--budget", type=float, default=150.0, help="start no row after this many seconds (150)"
    )
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        import jax
    except ImportError as e:
        print(f"error: JAX is missing ({e})", file=sys.stderr)
        return 1
    try:
        info = header(jax)
    except Exception as e:  # no devices: nothing else can run
        print(f"error: JAX has no devices: {type(e).__name__}: {first_line(e)}", file=sys.stderr)
        if args.json:
            args.json.write_text(json.dumps({"header": {"error": str(e)}, "rows": []}) + "\n")
        return 1
    for key, value in info.items():
        print(f"{key}: {value}")
    wanted = set(args.models.split(",")) if args.models else None
    by_size = sorted(MODELS.glob("*.mlir"), key=lambda p: p.stat().st_size)
    models = [p for p in by_size if not wanted or p.stem in wanted]
    checks = Checks(jax, args)
    # Each kind of row early (the MLP's, then the largest model's with its timing), then the
    # other programs from the smallest: rows past the budget are skipped.
    plan: list[tuple[str, str, Callable[[Row], Row]]] = [
        ("models", "mlp_train_step (jax.lower)", checks.mlp_model)
    ]
    plan += [
        ("jax.run", f"mlp_train_step {d}", lambda row, d=d: checks.jax_run(d, row))
        for d in ("float32", "bfloat16")
    ]
    plan.append(("timing", "mlp_train_step vs jax.jit", checks.timing_mlp))
    if models:
        largest = models[-1]
        plan.append(("models", largest.stem, lambda row: checks.bundled_model(largest, row)))
        plan.append(("timing", largest.stem, lambda row: checks.timing_model(largest.stem, row)))
    plan += [
        ("bf16", p.stem, lambda row, p=p: checks.bf16_program(p, row))
        for p in sorted(BF16.glob("*.mlir"), key=lambda p: p.stat().st_size)
    ]
    plan += [("models", p.stem, lambda row, p=p: checks.bundled_model(p, row)) for p in models[:-1]]
    rows: list[Row] = []
    print()
    print(COLUMNS + " seconds")
    print("-" * (len(COLUMNS) + 40))
    for section, name, check in plan:
        row = Row(section, name)
        if time.perf_counter() - began > args.budget:
            row.status, row.detail = "skipped", f"past the budget of {args.budget:.0f} s"
        else:
            try:
                row = check(row)
            except Exception as e:
                row.status = "error"
                row.detail = f"{type(e).__name__}: {first_line(e)}"
                if os.environ.get("DEVICE_CHECK_TRACEBACK"):
                    traceback.print_exc()
        rows.append(row)
        print(printed(row), flush=True)
        if args.json:
            report = {"header": info, "rows": [asdict(r) for r in rows]}
            args.json.write_text(json.dumps(report, indent=1) + "\n")
    counts = {s: sum(r.status == s for r in rows) for s in ("ok", "FAIL", "error", "skipped")}
    total = time.perf_counter() - began
    print("-" * (len(COLUMNS) + 40))
    print(", ".join(f"{v} {k}" for k, v in counts.items()) + f"; {total:.1f} s in all")
    return 0 if counts["FAIL"] == counts["error"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
