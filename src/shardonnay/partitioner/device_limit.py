"""The most devices a program may be partitioned for.

The partitioner's work grows with the devices of the meshes: tables of
offsets per device, groups of collectives, exchange plans per device, and the
simulator runs every device. A tiny file can name a mesh of a million devices
(`<["x"=1000, "y"=1000]>`), so the size is checked up front, against
`max_devices` when given, else the `SHARDONNAY_MAX_DEVICES` environment
variable, else `DEFAULT_MAX_DEVICES`; a program over the limit raises
`PartitionError` instead of running for hours or running out of memory.
Some steps compare every device with every other (who sends which tile to
whom), so the time grows about with the square of the devices: a one-op
program takes seconds at the default of 1024 devices, minutes at 4096.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('sdy.mesh @mesh = <["x"=1000, "y"=1000]>')
>>> check_device_count(module, max_devices=4096)
Traceback (most recent call last):
...
shardonnay.errors.PartitionError: mesh @mesh has 1000000 devices, more than the 4096 the \
partitioner works with (raise the limit with max_devices=N, --max-devices N or \
SHARDONNAY_MAX_DEVICES=N)
>>> check_device_count(module, max_devices=1_000_000)  # allowed: no error
"""

from __future__ import annotations

import math
import os

from shardonnay.errors import PartitionError
from shardonnay.ir.core import Module
from shardonnay.mesh import Mesh

__all__ = [
    "DEFAULT_MAX_DEVICES",
    "ENVIRONMENT_VARIABLE",
    "check_device_count",
    "check_devices",
    "device_limit",
]

DEFAULT_MAX_DEVICES = 1024
ENVIRONMENT_VARIABLE = "SHARDONNAY_MAX_DEVICES"


def device_limit(max_devices: int | None = None) -> int:
    """`max_devices` when given, else `$SHARDONNAY_MAX_DEVICES`, else the default;
    `PartitionError` when it is not a positive integer."""
    source = "max_devices"
    if max_devices is None:
        text = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
        if not text:
            return DEFAULT_MAX_DEVICES
        source = ENVIRONMENT_VARIABLE
        try:
            max_devices = int(text)
        except ValueError:
            raise PartitionError(f"{source}={text!r} is not a number of devices") from None
    if isinstance(max_devices, bool) or not isinstance(max_devices, int) or max_devices < 1:
        raise PartitionError(f"{source}={max_devices!r} is not a positive number of devices")
    return max_devices


def check_device_count(module: Module, *, max_devices: int | None = None) -> None:
    """Raises `PartitionError` when a mesh of `module` has more devices than
    the limit (see the module docstring)."""
    limit = device_limit(max_devices)
    for name, mesh in module.meshes.items():
        if isinstance(mesh, Mesh):
            check_devices(_device_count(mesh), f"mesh @{name}", limit)


def check_devices(count: int, what: str, max_devices: int | None = None) -> None:
    """Raises `PartitionError` when `count` devices (of `what`) exceed the limit."""
    limit = device_limit(max_devices)
    if count > limit:
        raise PartitionError(
            f"{what} has {count} devices, more than the {limit} the partitioner works with "
            f"(raise the limit with max_devices=N, --max-devices N or {ENVIRONMENT_VARIABLE}=N)"
        )


def _device_count(mesh: Mesh) -> int:
    """Devices of `mesh` from its axis sizes (never listing them)."""
    if mesh.device_ids is not None:
        return max(len(mesh.device_ids), math.prod(size for _, size in mesh.axes))
    return math.prod(size for _, size in mesh.axes)
