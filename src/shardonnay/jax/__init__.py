"""JAX front door: lower a jitted function, convert meshes and shardings, run
partitioned programs on JAX's devices (the `jax` extra, imported on first use).

- `lower(f, *args, **kwargs)`: the `Module` of a function, a `jax.jit`-wrapped
  one, a `jax.stages.Traced` or `Lowered`, with debug locations kept.
- `jax_mesh` / `mesh_of`: `Mesh` <-> `jax.sharding.Mesh`; `named_sharding` /
  `tensor_sharding`, `partition_spec` / `sharding_of_spec`: `TensorSharding`
  <-> `NamedSharding` / `PartitionSpec`; `shardings(module)`: every value's
  `NamedSharding`.
- `run(module_or_f, *args, mesh=...)`: partitioned by shardonnay, executed on
  the mesh's devices through PJRT, results as `jax.Array`s.
"""

from shardonnay.jax.conversion import (
    jax_mesh,
    mesh_of,
    named_sharding,
    partition_spec,
    sharding_of_spec,
    shardings,
    tensor_sharding,
)
from shardonnay.jax.execution import run
from shardonnay.jax.lowering import lower

__all__ = [
    "jax_mesh",
    "lower",
    "mesh_of",
    "named_sharding",
    "partition_spec",
    "run",
    "sharding_of_spec",
    "shardings",
    "tensor_sharding",
]
