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

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial

from shardonnay.ir.core import Module, Op, Value
from shardonnay.ir.shardings import SHARDING, func_result_sharding, sharding_of
from shardonnay.ir.shardings import mesh_of as sharding_mesh
from shardonnay.mesh import Mesh
from shardonnay.ops.traits import COMPUTATION, SHARDING_ANNOTATION, traits_of
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
    next_channel: int  # `next_channel(module)`
    inline_meshes: bool  # whether some sharding holds its mesh (rather than naming one)


def collect_shardings(module: Module) -> ProgramShardings:
    """See the module docstring."""
    found = _Found(module.meshes)
    known, shardings, pinned = found.met.get, found.shardings, found.pinned
    plain: dict[str, bool] = {}  # op names -> `_states_shardings_per_value`
    for func in module.functions:
        found.channel(func.op)
        for arg in func.arguments if not func.is_declaration else ():
            sharding = sharding_of(arg)
            if sharding is not None:
                found.add(arg, sharding, func.op)
        for op in _ops_in(func.body.ops):
            attributes = op.attributes
            if "channel_handle" in attributes:
                found.channel(op)
            results = op.results
            name = op.name
            is_plain = plain.get(name)
            if is_plain is None:
                is_plain = plain[name] = _states_shardings_per_value(name)
            if not is_plain or not results:
                for v, s in op_shardings(op):
                    found.add(v, s, op)
                continue
            # (most ops: the shardings of their results in their `sdy.sharding`)
            per_value = attributes.get(SHARDING)
            if isinstance(per_value, TensorShardingPerValue):
                for i, r in enumerate(results):
                    s = per_value[i]
                    met = known(id(s))
                    if met is None or met[0] is not s:
                        if s is not None:
                            found.add(r, s, op)
                        continue
                    if met[1] is not None:  # (`found.add(r, s, op)`, `s` met before)
                        shardings[r] = s
                    if met[2] is not None:
                        pinned[r] = met[2]
            for region in op.regions:  # (the arguments `op_shardings` reads)
                for block in region.blocks[:1]:
                    for a in block.arguments:
                        s = sharding_of(a)
                        if s is not None:
                            found.add(a, s, op)
        for i in range(len(func.type.results)):
            sharding = func_result_sharding(func, i)
            if sharding is not None:
                found.add(None, sharding, func.op)
    for op in module.ops:
        if op.name != "func.func":
            for inner in op.walk():
                found.channel(inner)
    largest = max(found.used, key=lambda m: m.size, default=Mesh())  # the first of the most devices
    num_devices = max(largest.size, found.devices)
    return ProgramShardings(
        found.shardings,
        largest,
        bool(found.used),
        found.pinned,
        num_devices,
        found.channels + 1,
        found.inline_meshes,
    )


def _ops_in(ops: list[Op]) -> Iterator[Op]:
    """`ops` and the ops nested in them, in the order of `Op.walk`."""
    for op in ops:
        yield op
        if op.regions:
            for inner in op.regions:
                for block in inner.blocks:
                    yield from _ops_in(block.ops)


def _states_shardings_per_value(name: str) -> bool:
    traits = traits_of(name)
    return (
        not name.startswith("sdy.")
        and SHARDING_ANNOTATION not in traits
        and COMPUTATION not in traits
    )


class _Found:
    """The shardings of a program's values, as `collect_shardings` meets
    them: those that split values (`shardings`, their meshes in `used`, in
    the order met), the values pinned to a device (`pinned`), and one more
    than the largest device a value is pinned to (`devices`)."""

    def __init__(self, meshes: dict[str, Mesh]) -> None:
        self.meshes = meshes
        self.used: dict[Mesh, str] = {}
        self.shardings: dict[Value, TensorSharding] = {}
        self.pinned: dict[Value, int] = {}
        self.devices = 0
        self.channels = 0  # the largest channel handle
        self.inline_meshes = False
        # sharding objects met (kept, so their ids are not reused) -> the mesh
        # they split values on and the device they pin them to
        self.met: dict[int, tuple[TensorSharding, Mesh | None, int | None]] = {}

    def channel(self, op: Op) -> None:
        """`op`'s channel handle noted (`next_channel`)."""
        handle = op.attributes.get("channel_handle")
        if handle is not None and hasattr(handle, "get"):
            self.channels = max(self.channels, int(handle.get("handle", 0)))

    def add(self, v: Value | None, sharding: TensorSharding, op: Op) -> None:
        """Value `v` (None: a function's result) has `sharding`, stated at `op`."""
        met = self.met.get(id(sharding))
        if met is None or met[0] is not sharding:
            mesh = mesh_of(sharding, self.meshes, op)
            if not is_split(sharding, mesh):
                mesh = None
            device = maximal_device(sharding, self.meshes)
            if mesh is not None:
                self.used.setdefault(mesh, str(sharding.mesh))
            if device is not None:
                self.devices = max(self.devices, device + 1)
            if isinstance(sharding.mesh, Mesh):
                self.inline_meshes = True
            met = self.met[id(sharding)] = (sharding, mesh, device)
        if v is not None:
            if met[1] is not None:
                self.shardings[v] = sharding
            if met[2] is not None:
                self.pinned[v] = met[2]


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
