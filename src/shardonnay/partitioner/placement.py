"""Where a per-device program runs: its devices and the place of each argument and result.

A per-device program (the output of `convert_global_to_local`) runs on the
devices of the largest mesh its signature is split on (`device_count`); a
mesh of `n` devices names the ids `0..n-1`. An argument or result split on a
mesh lives on that mesh's devices, one pinned to a device (a maximal
sharding) on that device, any other on every device (`placement`). The
simulator (`shardonnay.runtime.simulator`) and XLA's devices
(`shardonnay.runtime.pjrt`) lay the values out this way.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''sdy.mesh @mesh = <["x"=2, "y"=2]>
... func.func @main(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> tensor<2xf32> {
...   return %arg0 : tensor<2xf32>
... }''')
>>> device_count(m)
4
>>> sharding, mesh = placement(m, None, 1, 4)  # not split: on every device
>>> print(sharding, mesh)
#sdy.sharding<mesh<["devices"=4]>, [{}]> <["devices"=4]>
"""

from __future__ import annotations

from shardonnay.errors import ShardonnayError
from shardonnay.ir.core import Module
from shardonnay.ir.shardings import func_arg_sharding, func_result_sharding, mesh_of
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding

__all__ = ["device_count", "placement"]


def _splits(sharding: TensorSharding | None, mesh: Mesh | None) -> bool:
    """Whether `sharding` gives devices different buffers."""
    if sharding is None or mesh is None:
        return False
    axes = [a for d in sharding.dims for a in d.axes] + list(sharding.unreduced)
    return any(a.size(mesh) > 1 for a in axes)


def device_count(module: Module, func: str = "main") -> int:
    """The devices a per-device program runs on: its `mhlo.num_partitions`,
    else those of the largest mesh its signature is sharded on (and at least
    `k + 1` for an argument or result pinned to device `k`), else of its only
    mesh of several devices, else one."""
    partitions = module.attributes.get("mhlo.num_partitions")
    if partitions is not None:
        return int(partitions.value)
    f = module.function(func)
    shardings = [func_arg_sharding(f, i) for i in range(len(f.type.inputs))]
    shardings += [func_result_sharding(f, i) for i in range(len(f.type.results))]
    named = module.meshes
    sizes = set()
    for s in shardings:
        if s is not None:
            mesh = mesh_of(s, named, ShardonnayError)
            if _splits(s, mesh):
                sizes.add(mesh.size)
            if mesh.is_maximal:
                sizes.add(mesh.device_ids[0] + 1)
    if sizes:
        return max(sizes)
    meshes = {m.size for m in named.values() if m.size > 1}
    return meshes.pop() if len(meshes) == 1 else 1


def placement(
    module: Module, sharding: TensorSharding | None, rank: int, count: int
) -> tuple[TensorSharding, Mesh]:
    """The sharding and mesh that lay a value out on the program's `count`
    devices: its own when it is sharded or pinned to one device, else a
    replicated one."""
    if sharding is not None:
        mesh = mesh_of(sharding, module.meshes, ShardonnayError)
        if mesh.is_maximal or (sharding.dims and _splits(sharding, mesh)):
            return sharding, mesh
    devices = Mesh({"devices": count})
    return TensorSharding(devices, (DimSharding(),) * rank), devices
