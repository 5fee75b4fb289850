"""Running one program on several devices in lockstep.

A `DeviceInterpreter` runs the program of one device. Devices run in their
own threads; a collective is a meeting point (`Lockstep.meet`): every device
deposits its operands, one of them computes everybody's results with the
thread-free semantics of `shardonnay.ops.collectives`, and each takes its
own. `run_lockstep` starts the devices and reports the first error.

`ManualDevices` names the devices of one `sdy.manual_computation`: one per
coordinate along its manual axes. Collectives name devices by their id in
the whole mesh (`partition_id`, as JAX emits them with
`use_global_device_ids`); `local` maps such an id to the device of the
manual computation that holds it. Free (non-manual) axes are not split: a
device stands for all devices that differ only along free axes.

>>> from shardonnay.mesh import Mesh
>>> devices = ManualDevices(Mesh({"x": 2, "y": 4}), {}, ("x",))
>>> devices.count, devices.partition_id(1), devices.local(5), devices.local(3)
(2, 4, 1, 0)
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from shardonnay.errors import IRError, UnsupportedOpError
from shardonnay.ir.core import Block, Module, Op, Region, Value
from shardonnay.mesh import Mesh
from shardonnay.ops import collectives
from shardonnay.progress import Tracker, tracker
from shardonnay.runtime.interpreter import Interpreter


class ManualDevices:
    """The devices of a manual computation on `mesh`, manual along `axes`
    (in mesh order), nested in manual computations that fixed the coordinates
    `fixed` of their own axes."""

    def __init__(self, mesh: Mesh, fixed: Mapping[str, int], axes: Sequence[str]):
        self.mesh = mesh
        self.fixed = dict(fixed)
        self.axes = tuple(axes)
        self.sizes = tuple(mesh.axis_size(a) for a in self.axes)
        self.count = math.prod(self.sizes)

    def coords(self, index: int) -> dict[str, int]:
        """Device `index`'s coordinates along all manual axes (enclosing ones too)."""
        out = dict(self.fixed)
        for axis, size in reversed(list(zip(self.axes, self.sizes, strict=True))):
            out[axis] = index % size
            index //= size
        return out

    def partition_id(self, index: int) -> int:
        """The mesh device id of device `index` (coordinate 0 along free axes)."""
        coords = self.coords(index)
        return self.mesh.device_at(coords.get(a, 0) for a in self.mesh.axis_names)

    def local(self, device_id: int) -> int | None:
        """The device holding mesh device `device_id`; None if an enclosing
        manual computation put it on another device."""
        coords = dict(zip(self.mesh.axis_names, self.mesh.coords_of(device_id), strict=True))
        if any(coords[a] != c for a, c in self.fixed.items()):
            return None
        index = 0
        for axis, size in zip(self.axes, self.sizes, strict=True):
            index = index * size + coords[axis]
        return index

    def groups(self, op: Op, groups: Sequence[Sequence[int]]) -> list[list[int]]:
        """Process groups of mesh device ids as groups of devices of this computation."""
        out: list[list[int]] = []
        owner: dict[int, tuple[int, ...]] = {}
        for group in groups:
            members = [self.local(d) for d in group]
            if all(m is None for m in members):
                continue
            if any(m is None for m in members):
                raise UnsupportedOpError(
                    f"{op.name}: group {list(group)} reaches devices outside this manual "
                    "computation"
                )
            key = tuple(members)
            if len(set(key)) != len(key):
                raise UnsupportedOpError(
                    f"{op.name}: group {list(group)} spans axes that are not manual here"
                )
            if all(owner.get(m) == key for m in key):
                continue  # the same group seen from other coordinates along free axes
            if any(m in owner for m in key):
                raise UnsupportedOpError(
                    f"{op.name}: groups disagree along the free axes at group {list(group)}"
                )
            owner.update(dict.fromkeys(key, key))
            out.append(list(key))
        return out

    def pairs(self, op: Op, pairs: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """Source/target pairs of mesh device ids as pairs of devices of this computation."""
        out: dict[int, int] = {}  # target -> source
        for source, target in pairs:
            s, t = self.local(source), self.local(target)
            if s is None and t is None:
                continue
            if s is None or t is None:
                raise UnsupportedOpError(
                    f"{op.name}: pair ({source}, {target}) reaches devices outside this manual "
                    "computation"
                )
            if out.setdefault(t, s) != s:
                raise UnsupportedOpError(
                    f"{op.name}: device {t} receives from two sources along the free axes"
                )
        return [(s, t) for t, s in out.items()]


class Lockstep:
    """The meeting point of `count` devices running the same program."""

    def __init__(self, count: int):
        self.barrier = threading.Barrier(count)
        self.deposits: list[Any] = [None] * count
        self.results: Sequence[Any] = ()
        self.error: BaseException | None = None

    def meet(self, index: int, deposit: Any, compute: Callable[[list[Any]], Sequence[Any]]):
        """Device `index` deposits `deposit`; once all have, `compute(deposits)`
        runs once and each device gets its own entry of the result."""
        self.deposits[index] = deposit
        if self.barrier.wait() == 0:
            try:
                self.results, self.error = compute(list(self.deposits)), None
            except BaseException as e:  # reported by every device
                self.results, self.error = (), e
        self.barrier.wait()
        if self.error is not None:
            raise self.error
        return self.results[index]


def run_lockstep(lockstep: Lockstep, programs: Sequence[Callable[[], Any]]) -> list[Any]:
    """Runs `programs[i]` as device `i`, all at once; their results in order.

    If one fails, the others are released from their meeting point and the
    failure of the lowest device that failed first is raised.
    """
    results: list[Any] = [None] * len(programs)
    errors: list[BaseException | None] = [None] * len(programs)

    def device(i: int) -> None:
        try:
            results[i] = programs[i]()
        except threading.BrokenBarrierError as e:
            errors[i] = e
        except BaseException as e:
            errors[i] = e
            lockstep.barrier.abort()

    threads = [
        threading.Thread(target=device, args=(i,), daemon=True) for i in range(len(programs))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    real = [e for e in errors if e is not None and not isinstance(e, threading.BrokenBarrierError)]
    if real:
        raise real[0]
    if any(errors):
        raise IRError("devices left their lockstep")
    return results


class DeviceInterpreter(Interpreter):
    """Runs device `index` of `devices`; collectives meet the others at `lockstep`."""

    def __init__(self, module: Module, devices: ManualDevices, index: int, lockstep: Lockstep):
        super().__init__(module)
        self.devices = devices
        self.index = index
        self.lockstep = lockstep

    def collective(self, op: Op, args: list[np.ndarray]) -> list[np.ndarray]:
        if op.name == "stablehlo.partition_id":
            return [np.array(self.devices.partition_id(self.index), np.uint32)]
        if op.name == "stablehlo.replica_id":
            return [np.array(0, np.uint32)]
        return self.lockstep.meet(self.index, (op, args), self._exchange)

    def _exchange(self, deposits: list[tuple[Op, list[np.ndarray]]]) -> list[list[np.ndarray]]:
        op = deposits[0][0]
        for i, (other, _) in enumerate(deposits):
            if other is not op:
                raise IRError(
                    f"devices diverged: device 0 runs {op.name} while device {i} runs {other.name}"
                )
        operands = {i: args for i, (_, args) in enumerate(deposits)}
        num_partitions = self.devices.mesh.size
        groups = pairs = None
        if op.name == "stablehlo.collective_permute":
            pairs = self.devices.pairs(op, collectives.permute_pairs(op, 1, num_partitions))
        else:
            groups = self.devices.groups(op, collectives.process_groups(op, 1, num_partitions))
        out = collectives.exchange(op, operands, groups, pairs, self)
        missing = [i for i in operands if i not in out]
        if missing:
            raise IRError(f"{op.name}: device(s) {missing} are in no process group")
        return [out[i] for i in range(len(deposits))]


def run_devices(
    module: Module,
    devices: ManualDevices,
    region: Region,
    args: Sequence[Sequence[np.ndarray]],
) -> list[list[np.ndarray]]:
    """Runs `region` on every device of `devices` (device `i` on `args[i]`), in lockstep."""
    lockstep = Lockstep(devices.count)
    steps = tracker(f"simulating {devices.count} devices", max(len(region.entry.ops) - 1, 0))

    def program(i: int) -> Callable[[], list[np.ndarray]]:
        if i == 0 and isinstance(steps, Tracker):
            interp = _ReportingInterpreter(module, devices, i, lockstep, region.entry, steps)
        else:
            interp = DeviceInterpreter(module, devices, i, lockstep)
        return lambda: interp.run_region(region, list(args[i]), {})

    results = run_lockstep(lockstep, [program(i) for i in range(devices.count)])
    steps.finish()
    return results


class _ReportingInterpreter(DeviceInterpreter):
    """A device that advances a progress `Tracker` per op of the `top` block it runs."""

    def __init__(self, module, devices, index, lockstep, top: Block, steps: Tracker):
        super().__init__(module, devices, index, lockstep)
        self.top, self.steps = top, steps

    def _step(self, op: Op, env: dict[Value, np.ndarray]) -> None:
        super()._step(op, env)
        if op.parent is self.top:
            self.steps.advance()
