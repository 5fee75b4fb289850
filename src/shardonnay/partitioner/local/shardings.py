"""The shardings of a global program with explicit collectives, read once.

`collect_shardings(module)` finds the sharding of every value: function
arguments, op results (`sdy.sharding`, the `out_sharding` of collectives,
the `sharding` of reshards), the bodies' arguments of manual computations
(without their manual axes) and of while loops. Only shardings that split a
value among devices are kept: a replicated value is on every device,
whichever mesh its sharding names. The program runs on the devices of the
largest mesh holding split values (a mesh of `n` devices names the ids
`0..n-1`, in its own order); a value split on a smaller mesh lives on that
mesh's devices. For example, on `@a = <["x"=2, "y"=4]>` and `@b = <["z"=8]>`
a value sharded `<@a, [{"x"}]>` can be resharded to `<@b, [{"z"}]>` (gather
on `@a`, slice on `@b`); with `@c = <["w"=4]>` holding split values too, the
program runs on 8 devices and a value split on `@c` lives on devices 0..3.

A value with a maximal sharding (`<@maximal_mesh_3, []>` on
`sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>`) is pinned to that device
(`pinned`, see `local.maximal`); the program runs on at least the devices
`0..k` for each device `k` a value is pinned to.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from shardonnay.ir.core import Module, Op, Value
from shardonnay.ir.shardings import SHARDING, func_result_sharding, sharding_of
from shardonnay.ir.shardings import mesh_of as sharding_mesh
from shardonnay.mesh import Mesh
from shardonnay.partitioner.local.context import partition_error
from shardonnay.partitioner.local.maximal import maximal_device
from shardonnay.sharding import (
    TensorSharding,
    TensorShardingPerValue,
    placement_sharding,
)


@dataclass(frozen=True)
class ProgramShardings:
    """The split values' shardings, the first of the largest meshes holding
    split values (a mesh of one device when none), whether any value is split,
    the device each pinned value is pinned to, and the devices the program
    runs on (the largest mesh's, more where a value is pinned past them)."""

    shardings: dict[Value, TensorSharding]
    mesh: Mesh
    sharded: bool
    pinned: dict[Value, int]
    num_devices: int


def collect_shardings(module: Module) -> ProgramShardings:
    """See the module docstring."""
    meshes = module.meshes
    found: list[tuple[Value | None, TensorSharding, Op]] = []
    for func in module.functions:
        for arg in func.arguments if not func.is_declaration else ():
            sharding = sharding_of(arg)
            if sharding is not None:
                found.append((arg, sharding, func.op))
        for op in func.walk():
            found += [(v, s, op) for v, s in op_shardings(op)]
        for i in range(len(func.type.results)):
            sharding = func_result_sharding(func, i)
            if sharding is not None:
                found.append((None, sharding, func.op))
    splits = _Splits(meshes)
    used: dict[Mesh, str] = {}
    shardings: dict[Value, TensorSharding] = {}
    for v, sharding, op in found:
        mesh = splits.split_on(sharding, op)
        if mesh is not None:
            used.setdefault(mesh, str(sharding.mesh))
            if v is not None:
                shardings[v] = sharding
    largest = max(used, key=lambda m: m.size, default=Mesh())  # the first of the most devices
    devices = [splits.maximal_device(s) for _, s, _ in found]
    pinned = {
        v: d for (v, _, _), d in zip(found, devices, strict=True) if v is not None and d is not None
    }
    num_devices = max([largest.size, *(d + 1 for d in devices if d is not None)])
    return ProgramShardings(shardings, largest, bool(used), pinned, num_devices)


class _Splits:
    """`is_split` and `maximal_device` of the shardings of one program,
    worked out once per sharding object: a program's values share a few
    sharding objects (each kept here, so that its id is not reused)."""

    def __init__(self, meshes: dict[str, Mesh]) -> None:
        self.meshes = meshes
        self._split: dict[int, tuple[TensorSharding, Mesh | None]] = {}
        self._device: dict[int, tuple[TensorSharding, int | None]] = {}

    def split_on(self, sharding: TensorSharding, op: Op) -> Mesh | None:
        """The mesh `sharding` splits a value on, None where it splits none
        (`PartitionError` at `op` for an unknown mesh)."""
        seen = self._split.get(id(sharding))
        if seen is not None and seen[0] is sharding:
            return seen[1]
        mesh = mesh_of(sharding, self.meshes, op)
        on = mesh if is_split(sharding, mesh) else None
        self._split[id(sharding)] = (sharding, on)
        return on

    def maximal_device(self, sharding: TensorSharding) -> int | None:
        seen = self._device.get(id(sharding))
        if seen is not None and seen[0] is sharding:
            return seen[1]
        device = maximal_device(sharding, self.meshes)
        self._device[id(sharding)] = (sharding, device)
        return device


def mesh_of(sharding: TensorSharding, meshes: dict[str, Mesh], op: Op) -> Mesh:
    """The mesh `sharding` names; `PartitionError` at `op` for unknown ones."""
    return sharding_mesh(sharding, meshes, partial(partition_error, op))


def is_split(sharding: TensorSharding, mesh: Mesh) -> bool:
    """Whether `sharding` gives devices different buffers (dims or unreduced axes)."""
    axes = [a for d in sharding.dims for a in d.axes] + list(sharding.unreduced)
    return any(a.size(mesh) > 1 for a in axes)


def op_shardings(op: Op) -> list[tuple[Value, TensorSharding]]:
    """The shardings `op` states for its results and for the arguments of its
    regions that have one (`sharding_of`: a manual computation's body sees
    its in-shardings without the manual axes, a `while` region's arguments
    the shardings of its results)."""
    per_value = op.attributes.get(SHARDING)
    if isinstance(per_value, TensorShardingPerValue) and (
        placement_sharding(per_value, len(op.results)) is not None
    ):
        return []  # where an op without results runs: it has no values to make local
    values = list(op.results)
    values += [a for region in op.regions for b in region.blocks[:1] for a in b.arguments]
    return [(v, s) for v in values if (s := sharding_of(v)) is not None]


def next_channel(module: Module) -> int:
    """One more than the largest channel handle in `module` (Shardy's numbering)."""
    largest = 0
    for op in module.walk():
        handle = op.attributes.get("channel_handle")
        if handle is not None and hasattr(handle, "get"):
            largest = max(largest, int(handle.get("handle", 0)))
    return largest + 1
