"""The devices of a program run in lockstep, and their meeting points.

Devices run in their own threads (`run_lockstep` starts them and reports the
first error); a collective is a meeting point (`Lockstep.meet`): every device
deposits its operands, one of them computes everybody's results, and each
takes its own. The interpreter of one device (`runtime.interpreter.
DeviceInterpreter`) meets the others there with the thread-free semantics of
`shardonnay.ops.collectives`.

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

from shardonnay.errors import IRError, ShardonnayError, UnsupportedOpError
from shardonnay.ir.core import Op
from shardonnay.mesh import Mesh


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


def common_op(deposits: Sequence[tuple[Op, Any]]) -> Op:
    """The op every device reached, from the `(op, args)` each deposited at a
    `Lockstep`; `IRError` when the devices diverged."""
    op = deposits[0][0]
    for i, (other, _) in enumerate(deposits):
        if other is not op:
            raise IRError(
                f"devices diverged: device 0 runs {op.name} while device {i} runs {other.name}"
            )
    return op


def run_lockstep(lockstep: Lockstep, programs: Sequence[Callable[[], Any]]) -> list[Any]:
    """Runs `programs[i]` as device `i`, all at once; their results in order.

    If one fails, the others are released from their meeting point and the
    failure of the lowest device that failed first is raised. When the system
    will not start a thread per device (too many devices for its thread or
    memory limits), the started ones are released and `ShardonnayError` says so.
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
    started = 0
    try:
        for t in threads:
            t.start()
            started += 1
    except RuntimeError as e:  # "can't start new thread"
        lockstep.barrier.abort()
        for t in threads[:started]:
            t.join()
        raise ShardonnayError(
            f"running {len(programs)} devices at once needs a thread each; the system "
            f"started only {started} ({e})"
        ) from None
    for t in threads:
        t.join()
    real = [e for e in errors if e is not None and not isinstance(e, threading.BrokenBarrierError)]
    if real:
        raise real[0]
    if any(errors):
        raise IRError("devices left their lockstep")
    return results
