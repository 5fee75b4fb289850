"""Running a per-device program on every device of its mesh, in lockstep.

`simulate(local_module, *global_inputs)` plays the part of the hardware for
the output of `convert_global_to_local` (or of Shardy's
`sdy-convert-global-to-local`): it cuts each global input into the buffers
the devices hold (`layout.shard`, per the argument shardings of `main`), runs
`main` on every device at once (`runtime.devices`: StableHLO collectives meet
and exchange buffers, `partition_id` is the device id), and puts the results
back together (`layout.unshard`, per the result shardings, checking that
replicas agree).

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
from shardonnay.ir.core import Module
from shardonnay.ir.types import TensorType, TokenType
from shardonnay.layout import shard, unshard
from shardonnay.mesh import Mesh
from shardonnay.runtime.devices import ManualDevices, run_devices
from shardonnay.runtime.interpreter import TOKEN
from shardonnay.sharding import DimSharding, TensorSharding


def simulate(local_module: Module, *global_inputs, func: str = "main") -> tuple[np.ndarray, ...]:
    """Runs `func` of per-device program `local_module` on all devices; see the module docstring."""
    f = local_module.function(func)
    shardings = [f.arg_attrs(i).get("sdy.sharding") for i in range(len(f.type.inputs))]
    result_shardings = [f.result_attrs(i).get("sdy.sharding") for i in range(len(f.type.results))]
    mesh = _mesh(local_module, [s for s in (*shardings, *result_shardings) if s is not None])
    devices = ManualDevices(mesh, {}, mesh.axis_names)
    ids = [devices.partition_id(i) for i in range(devices.count)]
    if len(global_inputs) != len(f.type.inputs):
        raise ShardonnayError(
            f"@{func} takes {len(f.type.inputs)} inputs, got {len(global_inputs)}"
        )
    per_device: list[list[np.ndarray]] = [[] for _ in ids]
    for i, (x, t, sharding) in enumerate(zip(global_inputs, f.type.inputs, shardings, strict=True)):
        if isinstance(t, TokenType):
            for buffers in per_device:
                buffers.append(TOKEN)
            continue
        array = np.asarray(x).astype(t.dtype, copy=False)
        buffers = shard(array, _on(sharding, array.ndim, mesh), mesh)
        for k, device in enumerate(ids):
            if buffers[device].shape != t.shape:
                raise ShardonnayError(
                    f"input {i} of @{func}: global shape {array.shape} gives buffers of shape "
                    f"{buffers[device].shape}, but the argument type is {t}"
                )
            per_device[k].append(buffers[device])
    results = run_devices(local_module, devices, f.op.regions[0], per_device)
    out = []
    for r, (t, sharding) in enumerate(zip(f.type.results, result_shardings, strict=True)):
        if not isinstance(t, TensorType):
            out.append(results[0][r])
            continue
        placed = _on(sharding, len(t.shape), mesh)
        shape = _global_shape(t, placed, mesh)
        out.append(unshard({d: results[k][r] for k, d in enumerate(ids)}, placed, mesh, shape))
    return tuple(out)


def _mesh(module: Module, shardings: list[TensorSharding]) -> Mesh:
    """The mesh the program's signature is sharded on (the module's only
    mesh, or one device, when nothing is sharded)."""
    meshes = module.meshes
    found = set()
    for s in shardings:
        mesh = s.mesh if isinstance(s.mesh, Mesh) else meshes.get(s.mesh)
        if mesh is None:
            raise ShardonnayError(f"unknown mesh @{s.mesh}")
        if mesh.size > 1:
            found.add(mesh)
    if len(found) > 1:
        raise ShardonnayError("the signature uses several meshes; simulate runs on one")
    if found:
        return found.pop()
    if len(meshes) == 1:
        return next(iter(meshes.values()))
    return Mesh()


def _on(sharding: TensorSharding | None, rank: int, mesh: Mesh) -> TensorSharding:
    """`sharding` on `mesh` itself; replicated when absent or on another
    (one-device) mesh, whose axes `mesh` need not have."""
    if sharding is None or not sharding.dims:
        return TensorSharding(mesh, (DimSharding(),) * rank)
    if any(not mesh.has_axis(a.name) for d in sharding.dims for a in d.axes):
        return TensorSharding(mesh, (DimSharding(),) * rank)
    return TensorSharding(
        mesh, sharding.dims, unreduced=sharding.unreduced, reduction=sharding.reduction
    )


def _global_shape(t: TensorType, sharding: TensorSharding, mesh: Mesh) -> tuple[int, ...]:
    return tuple(n * d.sharded_size(mesh) for n, d in zip(t.shape, sharding.dims, strict=True))


__all__ = ["simulate"]
