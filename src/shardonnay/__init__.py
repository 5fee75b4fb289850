"""shardonnay: axis-based tensor sharding on named device meshes (Shardy's model).

The names below are loaded on first use (PEP 562): `import shardonnay` runs
no module of the package, so a program that only parses and propagates never
loads the partitioner, the runtime or the pictures. `shardonnay.partition`
and `from shardonnay import partition` import `shardonnay.partitioner.program`
when first asked for, and keep the function as an attribute of the package.
"""

from __future__ import annotations

import importlib

# `typing.TYPE_CHECKING` without importing `typing` (which was most of this module's import time):
# type checkers take any constant of this name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:  # what `_EXPORTS` loads, spelled out for type checkers and IDEs
    from shardonnay.axes import AxisRef
    from shardonnay.errors import (
        CheckError,
        InvalidAttributeError,
        IRError,
        LayoutError,
        ParseError,
        PartitionError,
        ShardingError,
        ShardonnayError,
        UnsupportedOpError,
    )
    from shardonnay.ir import Func, Module
    from shardonnay.mesh import Mesh
    from shardonnay.partitioner.program import explicit_collectives, partition
    from shardonnay.partitioner.reshard.plan import reshard_plan
    from shardonnay.pictures import visualize
    from shardonnay.pipeline import propagate
    from shardonnay.runtime.check import check
    from shardonnay.runtime.interpreter import run
    from shardonnay.runtime.simulator import simulate
    from shardonnay.sharding import DimSharding, ManualAxes, TensorSharding, TensorShardingPerValue
    from shardonnay.sharding_rule import OpShardingRule
    from shardonnay.syntax.mlir_reader import parse_module, parse_modules

__version__ = "0.1.0"

#: Each public name -> the module that defines it (imported when the name is first used).
_EXPORTS: dict[str, str] = {
    "AxisRef": "shardonnay.axes",
    "CheckError": "shardonnay.errors",
    "DimSharding": "shardonnay.sharding",
    "Func": "shardonnay.ir",
    "IRError": "shardonnay.errors",
    "InvalidAttributeError": "shardonnay.errors",
    "LayoutError": "shardonnay.errors",
    "ManualAxes": "shardonnay.sharding",
    "Mesh": "shardonnay.mesh",
    "Module": "shardonnay.ir",
    "OpShardingRule": "shardonnay.sharding_rule",
    "ParseError": "shardonnay.errors",
    "PartitionError": "shardonnay.errors",
    "ShardingError": "shardonnay.errors",
    "ShardonnayError": "shardonnay.errors",
    "TensorSharding": "shardonnay.sharding",
    "TensorShardingPerValue": "shardonnay.sharding",
    "UnsupportedOpError": "shardonnay.errors",
    "check": "shardonnay.runtime.check",
    "explicit_collectives": "shardonnay.partitioner.program",
    "parse_module": "shardonnay.syntax.mlir_reader",
    "parse_modules": "shardonnay.syntax.mlir_reader",
    "partition": "shardonnay.partitioner.program",
    "propagate": "shardonnay.pipeline",
    "reshard_plan": "shardonnay.partitioner.reshard.plan",
    "run": "shardonnay.runtime.interpreter",
    "simulate": "shardonnay.runtime.simulator",
    "visualize": "shardonnay.pictures",
}


def __getattr__(name: str) -> object:
    """The public `name`, imported from its module on first use and then kept
    in the package's namespace (so this runs once per name)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "AxisRef",
    "CheckError",
    "DimSharding",
    "Func",
    "IRError",
    "InvalidAttributeError",
    "LayoutError",
    "ManualAxes",
    "Mesh",
    "Module",
    "OpShardingRule",
    "ParseError",
    "PartitionError",
    "ShardingError",
    "ShardonnayError",
    "TensorSharding",
    "TensorShardingPerValue",
    "UnsupportedOpError",
    "__version__",
    "check",
    "explicit_collectives",
    "parse_module",
    "parse_modules",
    "partition",
    "propagate",
    "reshard_plan",
    "run",
    "simulate",
    "visualize",
]
