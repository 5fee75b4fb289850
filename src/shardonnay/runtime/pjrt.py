"""Running a per-device program on real XLA devices, through JAX's PJRT client.

`run_on_devices(local_module, *global_inputs)` is `simulator.simulate` with
the hardware made real: the output of `shardonnay.partition(module)` (a
local SPMD program whose StableHLO collectives name their device groups
explicitly) is compiled by XLA for `n` partitions and executed on `n`
devices, one partition each, and its results are put back together.

The steps:

1. the collectives XLA's CPU runtime cannot run are rewritten into ones of
   the same results (`xla_compat.xla_compatible`:
   `collective_broadcast` becomes rounds of `collective_permute`, groups of
   different sizes padded with -1 are evened out); the program text loses
   its sharding annotations (`sdy.mesh` ops, every `sdy.*` attribute:
   jaxlib's `sdy-drop-sharding-and-mesh` pass); its `@main` becomes
   `@shardonnay_device_program`, called by a new `@main` inside an
   `sdy.manual_computation` over the axis `"p"` of a mesh of the `n`
   partitions (as `jax.shard_map` lowers: each partition's buffers are
   slices of dim 0 of `@main`'s, and XLA's partitioner leaves the body
   alone), and the module gets `mhlo.num_partitions = n`;
2. XLA compiles it with Shardy's partitioner, partition `d` on the `d`-th of
   the given devices (whose `stablehlo.partition_id` is then `d`, as in the
   simulator); ops XLA cannot compile are an `UnsupportedOpError` first
   (`check_compilable`), and executables are kept per program and devices
   (`compiled`);
3. every device is handed the buffers `simulator.device_inputs` gives it
   (`layout.shard` of each global input, padded where shards are uneven,
   poisoned padding and filler buffers off a smaller mesh, as in
   `simulate`), and the results are unsharded by `simulator.global_outputs`.

JAX is an optional dependency (`pip install shardonnay[jax]`), imported on
first use. On a machine without accelerators, XLA's CPU client can pretend to
have several devices: set ``XLA_FLAGS=--xla_force_host_platform_device_count=8``
in the environment before JAX is first imported (the flag is read once).

For example, with 8 CPU devices::

    local = shardonnay.partition(parse_module(text))
    outputs = run_on_devices(local, x, w)      # == simulate(local, x, w)
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from shardonnay.errors import DeviceUnavailableError, UnsupportedOpError
from shardonnay.ir.core import Module
from shardonnay.ir.types import TokenType
from shardonnay.ops.registry import is_registered
from shardonnay.partitioner.placement import device_count
from shardonnay.runtime.simulator import device_inputs, global_outputs
from shardonnay.runtime.xla_compat import xla_compatible

DEVICE_COUNT_FLAG = "--xla_force_host_platform_device_count"


def run_on_devices(
    local_module: Module,
    *global_inputs,
    devices: Sequence[Any] | None = None,
    poison: bool = True,
) -> tuple[np.ndarray, ...]:
    """Runs `@main` of per-device program `local_module` (XLA's entry
    function) on XLA devices and returns its global results (see the module
    docstring).

    `devices` are JAX devices, one per partition in partition order (default:
    the first ones of `jax.devices()`); `poison` fills the padding of uneven
    input shards, as in `simulator.simulate`.
    """
    func = "main"
    f = local_module.function(func)
    for kind, types in (("argument", f.type.inputs), ("result", f.type.results)):
        for i, t in enumerate(types):
            if isinstance(t, TokenType):
                raise UnsupportedOpError(
                    f"func.func @{func}: {kind} {i} is a token, which cannot be passed to or "
                    "from XLA devices"
                )
    jax = _import_jax()
    count, per_device = device_inputs(local_module, global_inputs, func=func, poison=poison)
    chosen = choose_devices(jax, devices, count)
    with jax.enable_x64(True):  # 64-bit inputs stay 64-bit on their way to the devices
        executable = compiled(local_module, chosen)
        arguments = [
            _device_array(jax, [per_device[d][i] for d in range(count)], chosen)
            for i in range(len(f.type.inputs))
        ]
        per_result = executable.execute_sharded(arguments).disassemble_into_single_device_arrays()
        results = [
            [np.asarray(per_result[r][d]) for r in range(len(per_result))] for d in range(count)
        ]
    return global_outputs(local_module, results, func=func)


def compiled_peak_memory(local_module: Module, devices: Sequence[Any] | None = None) -> int:
    """The peak memory of one device running per-device program `local_module`
    as XLA compiles it for `devices` (default: as `run_on_devices` chooses
    them): the executable's arguments + outputs - aliases + temporaries, the
    figure `jax.jit(...).lower(...).compile().memory_analysis()` gives for a
    jitted function, after XLA's fusion and buffer sharing.
    `shardonnay.partitioner.analysis.memory.peak_memory` counts the program
    run op by op, as the simulator runs it."""
    chosen = choose_devices(_import_jax(), devices, device_count(local_module))
    stats = compiled(local_module, chosen).get_compiled_memory_stats()
    return (
        stats.argument_size_in_bytes
        + stats.output_size_in_bytes
        - stats.alias_size_in_bytes
        + stats.temp_size_in_bytes
    )


# Targets XLA compiles itself, on every platform, besides those registered with
# its runtime (`xla_client.custom_call_targets`).
XLA_CUSTOM_CALLS = frozenset(
    {
        "Sharding",
        "SPMDFullToShardShape",
        "SPMDShardToFullShape",
        "annotate_device_placement",
        "MoveToHost",
        "MoveToDevice",
        "TopK",
        "ApproxTopK",
        "mhlo.topk",
    }
)


def check_compilable(local_module: Module, platform: str = "cpu") -> None:
    """Raises `UnsupportedOpError` for the first op XLA cannot compile: one
    outside the dialects shardonnay knows (an unregistered dialect), or a
    custom call whose target neither XLA nor its `platform` runtime knows."""
    known: set[str] | None = None
    for op in local_module.walk():
        if not is_registered(op.name):
            raise UnsupportedOpError(
                f"{_where(op)}: {op.name} is not an op of a dialect XLA compiles (StableHLO, "
                "CHLO, func, sdy)"
            )
        if op.name != "stablehlo.custom_call":
            continue
        target = op.attributes.get("call_target_name")
        if known is None:
            known = set(XLA_CUSTOM_CALLS) | _registered_targets(platform)
        if target not in known:
            raise UnsupportedOpError(
                f"{_where(op)}: custom call @{target} has no implementation on {platform} "
                "devices (XLA would fail to compile it)"
            )


def compiled(local_module: Module, devices: Sequence[Any]):
    """The XLA executable of per-device program `local_module` on `devices`
    (partition `d` on `devices[d]`), checked by `check_compilable` first.
    Executables are kept for the same program text and devices."""
    check_compilable(local_module, devices[0].platform)
    text = xla_text(local_module, len(devices))
    key = (text, tuple(d.id for d in devices), devices[0].client)
    executable = _EXECUTABLES.get(key)
    if executable is None:
        executable = _compile(_import_jax(), text, list(devices))
        if len(_EXECUTABLES) >= _KEPT_EXECUTABLES:
            _EXECUTABLES.pop(next(iter(_EXECUTABLES)))
        _EXECUTABLES[key] = executable
    return executable


_KEPT_EXECUTABLES = 64
_EXECUTABLES: dict[tuple, Any] = {}


def _registered_targets(platform: str) -> set[str]:
    from jax._src.lib import xla_client

    try:
        return set(xla_client.custom_call_targets(platform.upper())) | set(
            xla_client.custom_call_targets(platform)
        )
    except Exception:  # a platform the runtime does not name this way
        return set()


def _where(op) -> str:
    location = f" at {op.location}" if op.location else ""
    return f"{op.name}{location}"


def xla_text(local_module: Module, partitions: int) -> str:
    """The text of `local_module` as XLA compiles it for `partitions` devices
    (see the module docstring): its collectives the ones XLA runs
    (`xla_compat.xla_compatible`), its sdy meshes and shardings dropped, its
    `@main` renamed `@shardonnay_device_program` and called from a new
    `@main` inside an `sdy.manual_computation` over the partitions, and
    `mhlo.num_partitions` set. Parsed and printed by jaxlib's MLIR."""
    _import_jax()
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir, passmanager

    with jax_mlir.make_ir_context(), ir.Location.unknown():
        module = ir.Module.parse(xla_compatible(local_module, partitions).to_text())
        passmanager.PassManager.parse("builtin.module(sdy-drop-sharding-and-mesh)").run(
            module.operation
        )
        (device_program,) = [
            op.operation
            for op in module.body.operations
            if op.operation.name == "func.func"
            and ir.StringAttr(op.operation.attributes["sym_name"]).value == "main"
        ]
        signature = ir.FunctionType(ir.TypeAttr(device_program.attributes["function_type"]).value)
        device_program.attributes["sym_name"] = ir.StringAttr.get(DEVICE_PROGRAM)
        device_program.attributes["sym_visibility"] = ir.StringAttr.get("private")
        for name in ("arg_attrs", "res_attrs"):
            if name in device_program.attributes:
                del device_program.attributes[name]
        entry = ir.Module.parse(
            _entry_text(
                [ir.RankedTensorType(t) for t in signature.inputs],
                [ir.RankedTensorType(t) for t in signature.results],
                partitions,
            )
        )
        mesh, _, main = [op.operation for op in entry.body.operations]  # _: the declaration
        first = module.body.operations[0].operation
        mesh.move_before(first)
        main.move_after(device_program)
        i32 = ir.IntegerType.get_signless(32)
        module.operation.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(i32, partitions)
        module.operation.attributes["mhlo.num_replicas"] = ir.IntegerAttr.get(i32, 1)
        return module.operation.get_asm(enable_debug_info=False)


DEVICE_PROGRAM = "shardonnay_device_program"
PARTITIONS_MESH = "shardonnay_partitions"


def _entry_text(inputs: list, results: list, partitions: int) -> str:
    """`@main` of the stacked buffers (each partition's buffer one slice of
    dim 0; a scalar's the same on every partition as far as the partitioner
    is concerned), calling the device program in a manual computation over
    the axis `"p"` of the partitions, next to the mesh and a declaration of
    the device program (which lets the text verify on its own)."""

    def stacked(t) -> tuple[str, str]:
        if t.rank == 0:
            return str(t), f"<@{PARTITIONS_MESH}, []>"
        shape = "x".join(str(n) for n in [t.shape[0] * partitions, *t.shape[1:]])
        dims = ", ".join(['{"p"}'] + ["{}"] * (t.rank - 1))
        return f"tensor<{shape}x{t.element_type}>", f"<@{PARTITIONS_MESH}, [{dims}]>"

    def joined(items) -> str:
        return ", ".join(items)

    ins, outs = [stacked(t) for t in inputs], [stacked(t) for t in results]
    local_in, local_out = joined(str(t) for t in inputs), joined(str(t) for t in results)
    arguments = joined(
        f"%arg{i}: {t} {{sdy.sharding = #sdy.sharding{s}}}" for i, (t, s) in enumerate(ins)
    )
    returned = joined(f"{t} {{sdy.sharding = #sdy.sharding{s}}}" for t, s in outs)
    n = len(results)
    group = "" if n == 0 else ("%r = " if n == 1 else f"%r:{n} = ")
    call = "" if n == 0 else ("%c = " if n == 1 else f"%c:{n} = ")
    values = ["%r"] if n == 1 else [f"%r#{i}" for i in range(n)]
    calls = ["%c"] if n == 1 else [f"%c#{i}" for i in range(n)]
    locals_ = joined(f"%l{i}: {t}" for i, t in enumerate(inputs))
    sdy_return = f"sdy.return {joined(calls)} : {local_out}" if n else "sdy.return"
    func_return = f"return {joined(values)} : {joined(t for t, _ in outs)}" if n else "return"
    return f"""
sdy.mesh @{PARTITIONS_MESH} = <["p"={partitions}]>
func.func private @{DEVICE_PROGRAM}({local_in}) -> ({local_out})
func.func public @main({arguments}) -> ({returned}) {{
  {group}sdy.manual_computation({joined(f"%arg{i}" for i in range(len(inputs)))})
      in_shardings=[{joined(s for _, s in ins)}] out_shardings=[{joined(s for _, s in outs)}]
      manual_axes={{"p"}} ({locals_}) {{
    {call}func.call @{DEVICE_PROGRAM}({joined(f"%l{i}" for i in range(len(inputs)))})
        : ({local_in}) -> ({local_out})
    {sdy_return}
  }} : ({joined(t for t, _ in ins)}) -> ({joined(t for t, _ in outs)})
  {func_return}
}}
"""


def _import_jax():
    try:
        import jax
        import jax.extend
    except ImportError as e:
        raise DeviceUnavailableError(
            "running on XLA devices needs JAX: pip install 'shardonnay[jax]'"
        ) from e
    return jax


def host_devices_for(count: int) -> str | None:
    """Makes XLA's CPU client have at least `count` devices, when JAX has not
    started yet (the flag is read once, on first use): sets
    `--xla_force_host_platform_device_count` in `XLA_FLAGS` and returns a
    line saying so; None when nothing was changed."""
    flags = os.environ.get("XLA_FLAGS", "")
    found = re.search(rf"{DEVICE_COUNT_FLAG}=(\d+)", flags)
    if "jax" in sys.modules or (found and int(found.group(1)) >= count) or count <= 1:
        return None
    flag = f"{DEVICE_COUNT_FLAG}={count}"
    flags = flags.replace(found.group(0), flag) if found else f"{flags} {flag}".strip()
    os.environ["XLA_FLAGS"] = flags
    return f"XLA's CPU client gets {count} devices ({flag})"


def choose_devices(jax, devices: Sequence[Any] | None, count: int) -> list[Any]:
    """The first `count` of `devices`, by default of `jax.devices()` (of the
    CPU devices when the accelerators are too few); `DeviceUnavailableError`
    naming the flag that gives XLA's CPU client more when they are too few."""
    available = list(jax.devices()) if devices is None else list(devices)
    if devices is None and len(available) < count and jax.default_backend() != "cpu":
        available = list(jax.devices("cpu"))  # fewer accelerators than partitions
    if len(available) < count:
        where = "jax.devices() has" if devices is None else "the devices given are"
        raise DeviceUnavailableError(
            f"the program runs on {count} devices, but {where} only {len(available)}; on a CPU, "
            f"set XLA_FLAGS={DEVICE_COUNT_FLAG}={count} in the environment before JAX is first "
            "imported"
        )
    chosen = available[:count]
    if len({d.client for d in chosen}) != 1:
        raise DeviceUnavailableError("the devices given belong to different XLA clients")
    return chosen


def _compile(jax, text: str, devices: list[Any]):
    from jax._src.lib import xla_client

    options = xla_client.CompileOptions()
    build = options.executable_build_options
    build.num_partitions = len(devices)
    build.num_replicas = 1
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = True
    build.device_assignment = xla_client.DeviceAssignment.create(
        np.array([d.id for d in devices]).reshape(1, len(devices))
    )
    return devices[0].client.compile_and_load(text, xla_client.DeviceList(tuple(devices)), options)


def _device_array(jax, buffers: list[np.ndarray], devices: list[Any]):
    """One argument as a JAX array whose shard on `devices[d]` is `buffers[d]`:
    the buffers stacked along dim 0 (a scalar's buffers, which cannot be
    stacked, claim to be replicas of one value; only the shards are read)."""
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(np.array(devices), ("partitions",))
    local = np.asarray(buffers[0])
    if local.ndim == 0:
        shape, spec = (), PartitionSpec()
    else:
        shape, spec = (len(devices) * local.shape[0], *local.shape[1:]), PartitionSpec("partitions")
    shards = [jax.device_put(np.asarray(b), d) for b, d in zip(buffers, devices, strict=True)]
    return jax.make_array_from_single_device_arrays(shape, NamedSharding(mesh, spec), shards)


__all__ = [
    "XLA_CUSTOM_CALLS",
    "check_compilable",
    "choose_devices",
    "compiled",
    "compiled_peak_memory",
    "host_devices_for",
    "run_on_devices",
    "xla_text",
]
