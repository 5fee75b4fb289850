"""Running a per-device program on every device of its mesh, in lockstep.

`simulate(local_module, *global_inputs)` plays the part of the hardware for
the output of `convert_global_to_local` (or of Shardy's
`sdy-convert-global-to-local`): it cuts each global input into the buffers
the devices hold (`layout.shard`, per the argument shardings of `main`), runs
`main` on every device at once (`runtime.devices`: StableHLO collectives meet
and exchange buffers, `partition_id` is the device id), and puts the results
back together (`layout.unshard`, per the result shardings, checking that
replicas agree).

The program runs on the devices of the largest mesh its values are split on
(`device_count`, `shardonnay.partitioner.placement`); a mesh of `n` devices
names the ids `0..n-1`. An argument or result split on a mesh of fewer
devices lives on that mesh's devices only: the other devices are handed a
buffer of its local type with undefined contents (poison, or zeros without
`poison`), and their results are not read. Replicated arguments and results,
whichever mesh they name, are on every device. An argument or result with a
maximal sharding (`<@maximal_mesh_3, []>` on `<[], device_ids=[3]>`) is
pinned to that device: it is handed whole to device 3 only (the others get
an undefined buffer of its type) and read from device 3 only; the program
runs on at least the devices up to the largest one named.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
...   %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64,
...       channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
...       replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}>
...       : (tensor<2xf32>) -> tensor<4xf32>
...   return %0 : tensor<4xf32>
... }''')
>>> simulate(m, np.arange(4, dtype=np.float32))
(array([0., 1., 2., 3.], dtype=float32),)
"""

from __future__ import annotations

import numpy as np

from shardonnay.errors import ShardonnayError
from shardonnay.ir import element_values
from shardonnay.ir.core import Module
from shardonnay.ir.shardings import func_arg_sharding, func_result_sharding
from shardonnay.ir.types import TensorType, TokenType
from shardonnay.layout import device_slices, shard, unshard
from shardonnay.mesh import Mesh
from shardonnay.partitioner.device_limit import check_devices
from shardonnay.partitioner.placement import device_count, placement
from shardonnay.runtime.devices import ManualDevices
from shardonnay.runtime.interpreter import TOKEN, run_devices
from shardonnay.runtime.value_limit import check_value_sizes
from shardonnay.sharding import TensorSharding


def simulate(
    local_module: Module,
    *global_inputs,
    func: str = "main",
    poison: bool = True,
    max_devices: int | None = None,
) -> tuple[np.ndarray, ...]:
    """Runs `func` of per-device program `local_module` on all devices; see the
    module docstring. With `poison`, the padding slots of uneven input shards
    hold NaN (floats) or a large sentinel (integers) instead of zeros, so that a
    program which lets padding into its results shows it. More devices than
    `max_devices` (`shardonnay.partitioner.device_limit`) raise `PartitionError`,
    a per-device value too big to hold `ShardonnayError` (`shardonnay.runtime.value_limit`)."""
    check_devices(device_count(local_module, func), "the per-device program", max_devices)
    check_value_sizes(local_module)
    count, per_device = device_inputs(local_module, global_inputs, func=func, poison=poison)
    devices = ManualDevices(Mesh({"devices": count}), {}, ("devices",))
    f = local_module.function(func)
    results = run_devices(local_module, devices, f.op.regions[0], per_device)
    return global_outputs(local_module, results, func=func)


def device_inputs(
    local_module: Module, global_inputs, *, func: str = "main", poison: bool = True
) -> tuple[int, list[list[np.ndarray]]]:
    """The device count of `func` and the buffers each device is handed:
    `per_device[d][i]` is argument `i` on device `d` (see `simulate`)."""
    f = local_module.function(func)
    shardings = [func_arg_sharding(f, i) for i in range(len(f.type.inputs))]
    count = device_count(local_module, func)
    if len(global_inputs) != len(f.type.inputs):
        raise ShardonnayError(
            f"@{func} takes {len(f.type.inputs)} inputs, got {len(global_inputs)}"
        )
    per_device: list[list[np.ndarray]] = [[] for _ in range(count)]
    for i, (x, t, sharding) in enumerate(zip(global_inputs, f.type.inputs, shardings, strict=True)):
        if isinstance(t, TokenType):
            for buffers in per_device:
                buffers.append(TOKEN)
            continue
        array = np.asarray(x).astype(t.dtype, copy=False)
        placed, mesh = placement(local_module, sharding, array.ndim, count)
        buffers = shard(array, placed, mesh)
        if poison:
            _poison_padding(buffers, array.shape, placed, mesh)
        for device in range(count):
            if device not in buffers:  # outside the value's smaller mesh: undefined contents
                filler = element_values.poison(t.dtype) if poison else 0
                buffers[device] = np.full(t.shape, filler, dtype=t.dtype)
            if buffers[device].shape != t.shape:
                raise ShardonnayError(
                    f"input {i} of @{func}: global shape {array.shape} gives buffers of shape "
                    f"{buffers[device].shape}, but the argument type is {t}"
                )
            per_device[device].append(buffers[device])
    return count, per_device


def global_outputs(
    local_module: Module, results: list[list[np.ndarray]], *, func: str = "main"
) -> tuple[np.ndarray, ...]:
    """The global results of `func` from `results[d][r]`, result `r` on device
    `d` (see `simulate`)."""
    f = local_module.function(func)
    result_shardings = [func_result_sharding(f, i) for i in range(len(f.type.results))]
    count = len(results)
    out = []
    for r, (t, sharding) in enumerate(zip(f.type.results, result_shardings, strict=True)):
        if not isinstance(t, TensorType):
            out.append(results[0][r])
            continue
        placed, mesh = placement(local_module, sharding, len(t.shape), count)
        noted = f.result_attrs(r).get(GLOBAL_SHAPE)
        shape = tuple(noted.values) if noted is not None else _global_shape(t, placed, mesh)
        out.append(unshard({d: results[d][r] for d in mesh.device_list}, placed, mesh, shape))
    return tuple(out)


GLOBAL_SHAPE = "shardonnay.global_shape"


def _poison_padding(
    buffers: dict[int, np.ndarray], shape: tuple[int, ...], sharding: TensorSharding, mesh: Mesh
) -> None:
    """Fills the padding slots of each device's buffer with a poison value."""
    for device, region in device_slices(shape, sharding, mesh).items():
        buffer = buffers[device]
        valid = tuple(s.stop - s.start for s in region)
        if valid == buffer.shape:
            continue
        poisoned = np.full(buffer.shape, element_values.poison(buffer.dtype), dtype=buffer.dtype)
        inside = tuple(slice(0, n) for n in valid)
        poisoned[inside] = buffer[inside]
        buffers[device] = poisoned


def _global_shape(t: TensorType, sharding: TensorSharding, mesh: Mesh) -> tuple[int, ...]:
    if not sharding.dims:  # maximal: whole on its device
        return t.shape
    return tuple(n * d.sharded_size(mesh) for n, d in zip(t.shape, sharding.dims, strict=True))


__all__ = ["device_count", "device_inputs", "global_outputs", "placement", "simulate"]
