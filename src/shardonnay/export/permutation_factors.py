"""Shardy's `sdy-resolve-permutation-factors`: no op computes on a dim whose
elements it moves while that dim stays sharded.

A *permutation* factor of an op's sharding rule (a sliced, padded, reversed
or windowed dim, ...) moves elements between shards when it is sharded. For
every StableHLO op (terminators aside) whose rule, built afresh or already
on the op and not a custom one, has such a factor, each sharded permutation
factor is made replicated: the operands sharded there are resharded before
the op (`sdy.reshard`), and the results take the replicated sharding and are
resharded back to theirs after it (`shardonnay.export.explicit_reshards.
reshard_factors`). A slice's dim stays sharded when each device already
holds what it needs there: the slice starts at 0 with stride 1 and keeps the
number of elements per shard (`ceil(in / n) == ceil(out / n)` for `n`
shards). (Later versions of Shardy also keep a pad's dim sharded when every
output shard reads only the input shard of the same index; the version in
jaxlib, which the tests compare with, replicates every sharded padded dim,
and so does shardonnay.)

A slice whose operand and result are sharded differently is an error (Shardy
checks that explicit reshards were inserted first).

With `enable-halo-exchange` (Shardy's default), a `stablehlo.reverse` whose
reversed dims are sharded keeps them sharded: its operand is resharded onto
a mesh `{mesh}_reversed` (added at the top of the module unless the module
has that mesh already) whose device order runs backwards along the axes
sharding the reversed dims, so that each device reverses its own shard; the
reverse's result takes its operand's sharding on the original mesh. A
reversed dim that is not divisible by its shards needs a halo exchange
first (Shardy pads it and shifts the padding in a manual computation);
shardonnay does not write that exchange and raises, unless the padding
exceeds one shard, where Shardy, and so shardonnay, replicates instead.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
...   %0 = stablehlo.reverse %arg0, dims = [0]
...       {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> out = resolve_permutation_factors(module.copy(), halo_exchange=False)
>>> [op.name for op in out.functions[0].body.ops]
['sdy.reshard', 'stablehlo.reverse', 'sdy.reshard', 'func.return']
>>> str(out.functions[0].body.ops[1].attributes["sdy.sharding"])
'#sdy.sharding_per_value<[<@mesh, [{}]>]>'
>>> out = resolve_permutation_factors(module)
>>> print(out.meshes["mesh_reversed"])
<["x"=2], device_ids=[1, 0]>
>>> str(out.functions[0].body.ops[0].attributes["sharding"])
'#sdy.sharding<@mesh_reversed, [{"x"}]>'
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shardonnay.axes import AxisRef
from shardonnay.errors import ShardingError
from shardonnay.export.common_axes import Axes
from shardonnay.export.explicit_reshards import reshard_factors
from shardonnay.export.insertion import insert_before, reshard
from shardonnay.ir.core import Module, Op
from shardonnay.ir.shardings import mesh_of, set_sharding, sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.rules import rule_for
from shardonnay.ops.traits import TERMINATOR, has_trait
from shardonnay.sharding import TensorSharding
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "communication_free_slice_dim",
    "mesh_with_reversed_axes",
    "resolve_permutation_factors",
]

_REPLICATED: Axes = []


def resolve_permutation_factors(module: Module, *, halo_exchange: bool = True) -> Module:
    """Resolves every sharded permutation factor, in place (see the module
    docstring; `halo_exchange` is Shardy's `enable-halo-exchange`); returns
    `module`."""
    reversed_meshes = _ReversedMeshes(module)
    for func in module.functions:
        for op in list(func.body.walk_post_order()):
            if has_trait(op, TERMINATOR) or not op.name.startswith("stablehlo."):
                continue
            rule = _rule(op)
            if rule is None or not rule.permutation_factors:
                continue
            resolved_by_halo = (
                halo_exchange
                and op.name == "stablehlo.reverse"
                and _reverse_on_reversed_mesh(module, op, reversed_meshes)
            )
            if resolved_by_halo:
                continue
            _replicate_permutation_factors(module, op, rule)
    return module


def _rule(op: Op) -> OpShardingRule | None:
    """The op's sharding rule (not conservative), unless it has none or a custom one."""
    if not all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
        return None
    try:
        rule = rule_for(op)
    except (ShardingError, KeyError):
        return None
    return None if rule is None or rule.is_custom else rule


def _replicate_permutation_factors(module: Module, op: Op, rule: OpShardingRule) -> None:
    operand = sharding_of(op.operands[0]) if op.operands else None

    def axes(factor: int, mesh: Mesh) -> Axes | None:
        if factor not in rule.permutation_factors:
            return None
        if op.name == "stablehlo.slice" and operand != sharding_of(op.results[0]):
            raise ShardingError(
                f"sdy-resolve-permutation-factors: the operand and result of {op.name} are "
                "sharded differently (insert explicit reshards first)"
            )
        if (
            op.name == "stablehlo.slice"
            and operand is not None
            and communication_free_slice_dim(op, factor, operand, mesh)
        ):
            return None
        return _REPLICATED

    reshard_factors(module, op, rule, axes)


def _shard_count(sharding: TensorSharding, dim: int, mesh: Mesh) -> int:
    return sharding.dims[dim].sharded_size(mesh)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def communication_free_slice_dim(op: Op, dim: int, sharding: TensorSharding, mesh: Mesh) -> bool:
    """Whether `stablehlo.slice` `op`, its operand and result sharded
    `sharding`, needs no data from other shards along `dim`: the dim is not
    sharded, or the slice starts there at 0 with stride 1 and keeps the
    number of elements per shard."""
    count = _shard_count(sharding, dim, mesh)
    if count <= 1:
        return True
    attrs = op.attributes
    if attrs["start_indices"].values[dim] != 0 or attrs["strides"].values[dim] != 1:
        return False
    in_size = op.operands[0].type.shape[dim]
    out_size = op.results[0].type.shape[dim]
    return _ceil_div(in_size, count) == _ceil_div(out_size, count)


class _ReversedMeshes:
    """The module's meshes by value, and the `sdy.mesh` ops added for reversed
    device orders (named `{base}`, else `{base}_0`, `{base}_1`, ... as MLIR's
    symbol table makes a name unique)."""

    def __init__(self, module: Module):
        self.module = module
        self.names: dict[Mesh, str] = {}
        for name, mesh in module.meshes.items():
            self.names.setdefault(mesh, name)
        self.counter = 0

    def name_of(self, mesh: Mesh, base: str) -> str:
        if mesh in self.names:
            return self.names[mesh]
        taken = {op.attributes.get("sym_name") for op in self.module.ops}
        name = base
        while name in taken:
            name = f"{base}_{self.counter}"
            self.counter += 1
        self.module.body.insert(0, Op("sdy.mesh", attributes={"sym_name": name, "mesh": mesh}))
        self.names[mesh] = name
        return name


def mesh_with_reversed_axes(mesh: Mesh, axes: Sequence[AxisRef]) -> Mesh:
    """`mesh` whose device order runs backwards along each of `axes` (whole
    axes or sub-axes): the device at coordinates `c` is the one `mesh` has
    where the coordinate of every axis in `axes` is mirrored.

    >>> mesh_with_reversed_axes(Mesh({"x": 2, "y": 2}), [AxisRef("x")]).device_ids
    (2, 3, 0, 1)
    """
    shape = mesh.shape
    names = mesh.axis_names
    devices = mesh.device_list
    new_ids = []
    for index in range(math.prod(shape)):
        coords = list(_unravel(index, shape))
        new = list(coords)
        for axis in axes:
            k = names.index(axis.name)
            size = axis.size(mesh)
            post = shape[k] // (axis.pre_size * size)
            sub = (coords[k] // post) % size
            new[k] += (size - 1 - 2 * sub) * post
        new_ids.append(devices[_ravel(new, shape)])
    return Mesh(mesh.axes, new_ids)


def _unravel(index: int, shape: Sequence[int]) -> list[int]:
    coords = [0] * len(shape)
    for k in range(len(shape) - 1, -1, -1):
        coords[k] = index % shape[k]
        index //= shape[k]
    return coords


def _ravel(coords: Sequence[int], shape: Sequence[int]) -> int:
    index = 0
    for c, n in zip(coords, shape, strict=True):
        index = index * n + c
    return index


def _reverse_on_reversed_mesh(module: Module, op: Op, meshes: _ReversedMeshes) -> bool:
    """Resolves the reverse `op` by resharding its operand onto a mesh with
    the reversed device order (see the module docstring); False when Shardy
    falls back to replication (a padding larger than a shard)."""
    operand = sharding_of(op.operands[0])
    if operand is None or operand.is_fully_replicated():
        return True
    mesh = mesh_of(operand, module.meshes)
    if mesh.is_maximal:
        return True
    shape = op.operands[0].type.shape
    reversed_dims = op.attributes["dimensions"].values
    axes: list[AxisRef] = []
    for dim, dim_sharding in enumerate(operand.dims):
        count = dim_sharding.sharded_size(mesh)
        if dim not in reversed_dims or count <= 1:
            continue
        axes.extend(dim_sharding.axes)
        if shape[dim] % count:
            padded = _ceil_div(shape[dim], count) * count
            if padded - shape[dim] > padded // count:
                return False
            raise ShardingError(
                f"sdy-resolve-permutation-factors: {op.name} reverses dim {dim} of size "
                f"{shape[dim]}, not divisible by its {count} shards: the halo exchange it "
                "needs is not supported (use enable-halo-exchange=false to replicate it)"
            )
    if not axes:
        return True
    name = meshes.name_of(mesh_with_reversed_axes(mesh, axes), f"{operand.mesh}_reversed")
    on_reversed = TensorSharding(name, operand.dims, operand.replicated, operand.unreduced)
    r = insert_before(op, reshard(op.operands[0], on_reversed))
    op.set_operand(0, r.results[0])
    set_sharding(op.results[0], operand)
    return True
