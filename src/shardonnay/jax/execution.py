"""Running a program partitioned by shardonnay on JAX's devices.

`run(module_or_f, *args, mesh=...)` is `jax.jit(f)(*args)` with shardonnay
doing the partitioning: the program (a `Module`, or what `lower` makes of a
function) is propagated and partitioned by `shardonnay.partition`, the
per-device program is compiled by XLA (`runtime.pjrt.compiled`: checked for
ops XLA cannot compile first) and executed with partition `d` on device
`d` of the mesh (`mesh.devices.flat[d]`, JAX's own order; by default the
mesh of the first argument that has one, else `jax.devices()`), and the
results come back as `jax.Array`s laid out by their propagated shardings
(`conversion.named_sharding`), in the pytree of `f`'s output.

Arguments are numpy or JAX arrays (Python scalars too). A JAX array is moved
to its argument's sharding by `jax.device_put` (which reshards across
processes); a numpy array is cut by `shardonnay.layout` where its argument's
sharding is uneven (JAX holds no uneven arrays). 64-bit values of the
program stay 64-bit: the run enables JAX's x64 mode for its own duration (a
function is lowered as `jax.jit` lowers it: without x64 mode, its int64
inputs become int32 there too).

Across processes (`jax.distributed.initialize`), every process calls `run`
with the same program and arguments (global numpy arrays, or JAX arrays
spanning all processes); each feeds and runs its own devices, and gets back
arrays whose addressable shards are its devices' results.

A result whose sharding JAX cannot hold (uneven, or unreduced) comes back
replicated on its mesh's devices (one process only).

>>> import numpy as np, shardonnay
>>> m = shardonnay.parse_module('''sdy.mesh @mesh = <["x"=1]>
... func.func @main(%arg0: tensor<4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> tensor<4xi64> {
...   %0 = stablehlo.add %arg0, %arg0 : tensor<4xi64>
...   return %0 : tensor<4xi64>
... }''')
>>> (y,) = run(m, np.arange(4) << 40)
>>> y.dtype, np.asarray(y)[3]
(dtype('int64'), np.int64(6597069766656))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shardonnay.errors import ShardingError, ShardonnayError
from shardonnay.ir.core import Module
from shardonnay.ir.shardings import func_arg_sharding, func_result_sharding
from shardonnay.ir.types import TensorType
from shardonnay.jax.conversion import named_sharding
from shardonnay.jax.lowering import lowered_of
from shardonnay.layout import shard, unshard
from shardonnay.mesh import Mesh
from shardonnay.partitioner.placement import device_count, placement
from shardonnay.partitioner.program import partition
from shardonnay.runtime.pjrt import choose_devices, compiled
from shardonnay.sharding import TensorSharding
from shardonnay.syntax.mlir_reader import parse_module


def run(
    module_or_f: Any,
    *args: Any,
    mesh: Any = None,
    propagate: bool = True,
    **kwargs: Any,
) -> Any:
    """Partitions and runs `module_or_f` on `args` (see the module docstring).

    `module_or_f` is a `Module` (its `@main` runs; results as a tuple) or
    anything `lower` takes (results in `f`'s output pytree); `kwargs` go to
    `f`. `mesh` is the `jax.sharding.Mesh` whose devices run the partitions,
    or a sequence of devices; `propagate=False` partitions the shardings as
    written.
    """
    import jax

    global_module, leaves, out_tree = program_and_inputs(module_or_f, args, kwargs)
    local = partition(global_module, propagate=propagate)
    results = run_partitioned(global_module, local, leaves, _devices(jax, mesh, leaves))
    return tuple(results) if out_tree is None else jax.tree_util.tree_unflatten(out_tree, results)


def run_partitioned(
    global_module: Module,
    local: Module,
    inputs: Sequence[Any],
    devices: Sequence[Any] | None = None,
) -> list[Any]:
    """Runs `local`, the per-device program of `global_module`, on `inputs`
    with partition `d` on `devices[d]` (default: `jax.devices()`, or the CPU
    devices where the accelerators are too few); its results as `jax.Array`s."""
    import jax

    count = device_count(local)
    partitions = choose_devices(jax, devices, count)
    main, local_main = global_module.function("main"), local.function("main")
    if len(inputs) != len(main.type.inputs):
        raise ShardonnayError(f"@main takes {len(main.type.inputs)} inputs, got {len(inputs)}")
    mine = [d for d, device in enumerate(partitions) if device.process_index == jax.process_index()]
    if not mine:
        raise ShardonnayError(
            f"none of the program's {count} devices belongs to process {jax.process_index()}"
        )
    with jax.enable_x64(True):  # 64-bit values stay 64-bit on their way to the devices
        executable = compiled(local, partitions)
        arguments = []
        for i, (x, t) in enumerate(zip(inputs, main.type.inputs, strict=True)):
            if not isinstance(t, TensorType):
                raise ShardonnayError(f"argument {i} of @main is a {t}, which JAX cannot pass")
            sharding = func_arg_sharding(local_main, i)
            where = placement(local, sharding, len(t.shape), count)
            buffers = _buffers(jax, x, t, where, partitions, mine, local_main.type.inputs[i])
            arguments.append(_stacked(jax, buffers, partitions, mine))
        per_result = executable.execute_sharded(arguments).disassemble_into_single_device_arrays()
        out = []
        for r, t in enumerate(main.type.results):
            if not isinstance(t, TensorType):
                raise ShardonnayError(f"result {r} of @main is a {t}, which JAX cannot hold")
            on_device = {next(iter(a.devices())): a for a in per_result[r]}
            sharding = func_result_sharding(local_main, r)
            where = placement(local, sharding, len(t.shape), count)
            out.append(_result(jax, on_device, t, where, partitions, mine))
    return out


# -- the program and its devices ------------------------------------------------------------


def program_and_inputs(module_or_f: Any, args: tuple, kwargs: dict):
    """The global module `run` partitions, the inputs of its `@main` (the
    leaves of `args` and `kwargs` that JAX kept) and the output pytree (None
    for a module)."""
    import jax

    if isinstance(module_or_f, Module):
        if kwargs:
            raise ShardonnayError("a Module takes positional inputs only")
        return module_or_f, list(args), None
    from jax import stages

    specialised = isinstance(module_or_f, stages.Lowered | stages.Traced)
    lowered = lowered_of(module_or_f) if specialised else lowered_of(module_or_f, *args, **kwargs)
    module = parse_module(lowered.as_text(debug_info=True), "<lowered by jax>")
    leaves = jax.tree_util.tree_leaves((args, kwargs))
    kept = getattr(getattr(lowered, "_lowering", None), "compile_args", {}).get("kept_var_idx")
    if kept is not None and len(kept) != len(leaves):
        leaves = [x for i, x in enumerate(leaves) if i in kept]
    return module, leaves, lowered.out_tree


def _devices(jax, mesh: Any, inputs: Sequence[Any]) -> list[Any] | None:
    """The devices of `mesh`, else of the first input's mesh, else None."""
    if mesh is None:
        for x in inputs:
            sharding = getattr(x, "sharding", None)
            if isinstance(sharding, jax.sharding.NamedSharding):
                mesh = sharding.mesh
                break
    if mesh is None:
        return None
    if isinstance(mesh, jax.sharding.Mesh):
        return list(mesh.devices.flat)
    return list(mesh)


# -- arguments ------------------------------------------------------------------------------


def _buffers(
    jax,
    x: Any,
    global_type: TensorType,
    where: tuple[TensorSharding, Mesh],
    partitions: list[Any],
    mine: list[int],
    local_type: TensorType,
) -> dict[int, Any]:
    """`{d: the buffer of partition d}` for this process's partitions `mine`."""
    sharding, mesh = where
    shape, dtype = tuple(global_type.shape), np.dtype(global_type.dtype)
    target = _even_named(sharding, mesh, shape, partitions)
    filler = np.zeros(local_type.shape, dtype)  # for devices outside the value's smaller mesh
    if isinstance(x, jax.Array) and target is not None:
        placed = jax.device_put(x.astype(dtype) if x.dtype != dtype else x, target)
        held = {shard.device: shard.data for shard in placed.addressable_shards}
        return {
            d: _on_device(jax, held[partitions[d]], partitions[d])
            if partitions[d] in held
            else jax.device_put(filler, partitions[d])
            for d in mine
        }
    if isinstance(x, jax.Array) and not x.is_fully_addressable:
        raise ShardingError(
            f"an input of shape {shape} is split across processes, but its argument's sharding "
            f"{sharding} is uneven: pass the whole value (a numpy array) in every process"
        )
    array = np.asarray(x).astype(dtype, copy=False)
    if array.shape != shape:
        raise ShardonnayError(f"an input of shape {array.shape} where @main takes {global_type}")
    pieces = shard(array, sharding, mesh)
    return {d: jax.device_put(pieces.get(d, filler), partitions[d]) for d in mine}


def _on_device(jax, data: Any, device: Any) -> Any:
    return data if data.devices() == {device} else jax.device_put(data, device)


def _stacked(jax, buffers: dict[int, Any], partitions: list[Any], mine: list[int]):
    """One argument of the executable: the partitions' buffers stacked along
    dim 0 (a scalar's claim to be replicas of one value; only shards are read)."""
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    stack = Mesh(np.array(partitions), ("partitions",))
    local = buffers[mine[0]]
    if local.ndim == 0:
        shape, spec = (), PartitionSpec()
    else:
        shape = (len(partitions) * local.shape[0], *local.shape[1:])
        spec = PartitionSpec("partitions")
    return jax.make_array_from_single_device_arrays(
        shape, NamedSharding(stack, spec), [buffers[d] for d in mine]
    )


# -- results --------------------------------------------------------------------------------


def _result(
    jax,
    on_device: dict[Any, Any],
    global_type: TensorType,
    where: tuple[TensorSharding, Mesh],
    partitions: list[Any],
    mine: list[int],
):
    sharding, mesh = where
    shape = tuple(global_type.shape)
    target = _even_named(sharding, mesh, shape, partitions)
    if target is not None:
        shards = [on_device[device] for device in target.addressable_devices_indices_map(shape)]
        return jax.make_array_from_single_device_arrays(shape, target, shards)
    if len(mine) != len(partitions):
        raise ShardingError(
            f"a result of type {global_type} has sharding {sharding}, which JAX cannot hold, "
            "and its pieces are spread over several processes"
        )
    pieces = {d: np.asarray(on_device[partitions[d]]) for d in mesh.device_list}
    value = unshard(pieces, sharding, mesh, shape)
    replicated = TensorSharding.replicated_on(mesh, len(shape))
    return jax.device_put(value, named_sharding(replicated, mesh, partitions))


def _even_named(
    sharding: TensorSharding, mesh: Mesh, shape: tuple[int, ...], partitions: list[Any]
):
    """The NamedSharding of `sharding` when JAX can hold an array laid out by
    it (every dim divisible, no unreduced axes), else None."""
    if sharding.unreduced or not sharding.is_divisible(mesh, shape):
        return None
    plain = TensorSharding(mesh, tuple(type(d)(d.axes) for d in sharding.dims))
    try:
        return named_sharding(plain, mesh, partitions)
    except ShardingError:
        return None


__all__ = ["program_and_inputs", "run", "run_partitioned"]
