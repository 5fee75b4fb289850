"""shardonnay: axis-based tensor sharding on named device meshes (Shardy's model)."""

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
from shardonnay.ir.core import install_module_writer
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
from shardonnay.syntax.mlir_writer import write_module

# Modules print through the writer of the syntax layer, which sits above the op
# definitions that the IR cannot import (the contract: `ir.core.ModuleWriter`).
install_module_writer(write_module)

__version__ = "0.1.0"


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
