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
reversed dim not divisible by its shards is first padded at its high end
(zeros) and the padding shifted to its low end in an `sdy.manual_computation`
manual on the axes sharding such dims, each device passing the high end of
its shard to its right neighbour (`stablehlo.collective_permute`); the
padding is sliced off the reversed result. Where the padding would exceed
one shard, Shardy, and so shardonnay, replicates the reverse instead.

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
from dataclasses import dataclass

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.errors import ShardingError
from shardonnay.export.common_axes import Axes
from shardonnay.export.explicit_reshards import reshard_factors
from shardonnay.export.insertion import insert_before, replace_uses_except, reshard
from shardonnay.ir.attributes import DenseArrayAttr, DenseElementsAttr, IntegerAttr
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Block, Module, Op, Region, Value
from shardonnay.ir.shardings import mesh_of, set_sharding, sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.rules import rule_for
from shardonnay.ops.traits import TERMINATOR, has_trait
from shardonnay.sharding import DimSharding, ManualAxes, TensorSharding, TensorShardingPerValue
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
    where the coordinate of every axis in `axes` is mirrored (devices back
    in order make a mesh without device ids).

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
    if new_ids == list(range(len(new_ids))):  # (the devices in order: a mesh without device ids)
        return Mesh(mesh.axes)
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


@dataclass(frozen=True)
class _ReverseInfo:
    """What resolving a sharded reverse takes: the axes sharding its reversed
    dims (whose device order is reversed), the names of those sharding an
    indivisible reversed dim (manual while the padding is shifted), and the
    operand's shape padded to divisible reversed dims."""

    axes: tuple[AxisRef, ...]
    manual: frozenset[str]
    padded_shape: tuple[int, ...]


def _reverse_info(op: Op, operand: TensorSharding, mesh: Mesh) -> _ReverseInfo | None:
    """None when an indivisible reversed dim would be padded by more than one
    shard (no neighbour exchange can shift that much)."""
    shape = list(op.operands[0].type.shape)
    reversed_dims = op.attributes["dimensions"].values
    axes: list[AxisRef] = []
    manual: set[str] = set()
    for dim, dim_sharding in enumerate(operand.dims):
        count = dim_sharding.sharded_size(mesh)
        if dim not in reversed_dims or count <= 1:
            continue
        axes.extend(dim_sharding.axes)
        if shape[dim] % count:
            manual.update(a.name for a in dim_sharding.axes)
            padded = _ceil_div(shape[dim], count) * count
            if padded - shape[dim] > padded // count:
                return None
            shape[dim] = padded
    return _ReverseInfo(tuple(axes), frozenset(manual), tuple(shape))


def _reverse_on_reversed_mesh(module: Module, op: Op, meshes: _ReversedMeshes) -> bool:
    """Resolves the reverse `op` as Shardy's halo exchange does (see the
    module docstring): an indivisible reversed dim is padded at its high end
    and the padding shifted to the low end shard by shard, the operand is
    resharded onto the mesh with the reversed device order, and the padding
    is sliced off the result. False when Shardy falls back to replication."""
    operand = sharding_of(op.operands[0])
    if operand is None or operand.is_fully_replicated():
        return True
    mesh = mesh_of(operand, module.meshes)
    if mesh.is_maximal:
        return True
    info = _reverse_info(op, operand, mesh)
    if info is None:
        return False
    if not info.axes:
        return True
    value = op.operands[0]
    original: TensorType = value.type
    b = Builder(module)
    b.set_insertion_point_before(op)
    if info.manual:
        value = _pad_high(b, value, info.padded_shape, operand)
        value = _shift_padding_low(b, value, op, operand, mesh, info)
    name = meshes.name_of(mesh_with_reversed_axes(mesh, info.axes), f"{operand.mesh}_reversed")
    on_reversed = TensorSharding(name, operand.dims, operand.replicated, operand.unreduced)
    r = insert_before(op, reshard(value, on_reversed))
    op.set_operand(0, r.results[0])
    set_sharding(op.results[0], operand)
    if info.manual:
        result = op.results[0]
        result.type = value.type
        b.set_insertion_point_before(_next_op(op))
        trimmed = _slice(b, result, [0] * len(original.shape), original.shape, operand)
        replace_uses_except(result, trimmed, trimmed.op)
    return True


def _next_op(op: Op) -> Op:
    block = op.parent
    assert block is not None
    return block.ops[block.ops.index(op) + 1]


def _i64s(values: Sequence[int]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(values))


def _slice(
    b: Builder,
    value: Value,
    starts: Sequence[int],
    limits: Sequence[int],
    sharding: TensorSharding,
) -> Value:
    """`stablehlo.slice` of `value` from `starts` to `limits`, stride 1, sharded `sharding`."""
    shape = tuple(hi - lo for lo, hi in zip(starts, limits, strict=True))
    result = b.op(
        "stablehlo.slice",
        [value],
        attributes={
            "start_indices": _i64s(starts),
            "limit_indices": _i64s(limits),
            "strides": _i64s([1] * len(shape)),
        },
        result_types=[TensorType(shape, value.type.element_type)],
    )
    set_sharding(result, sharding)
    return result


def _pad_high(b: Builder, value: Value, shape: Sequence[int], sharding: TensorSharding) -> Value:
    """`value` padded with zeros at the high end of each dim up to `shape`."""
    element = value.type.element_type
    zero = b.constant(0, TensorType((), element))
    rank = len(shape)
    high = [n - m for n, m in zip(shape, value.type.shape, strict=True)]
    result = b.op(
        "stablehlo.pad",
        [value, zero],
        attributes={
            "edge_padding_low": _i64s([0] * rank),
            "edge_padding_high": _i64s(high),
            "interior_padding": _i64s([0] * rank),
        },
        result_types=[TensorType(tuple(shape), element)],
    )
    set_sharding(result, sharding)
    return result


def _without_axes(sharding: TensorSharding, names: frozenset[str]) -> TensorSharding:
    """`sharding` without the axes named `names` in its dims."""
    dims = tuple(
        DimSharding(tuple(a for a in d.axes if a.name not in names), d.is_closed, d.priority)
        for d in sharding.dims
    )
    return TensorSharding(sharding.mesh, dims, sharding.replicated, sharding.unreduced)


def _shift_padding_low(
    b: Builder, value: Value, op: Op, sharding: TensorSharding, mesh: Mesh, info: _ReverseInfo
) -> Value:
    """An `sdy.manual_computation`, manual on `info.manual`, in which each
    device passes the padding at the high end of its shard of every padded
    reversed dim to its right neighbour, so that the padding ends up at the
    low end of the dim."""
    manual_mesh = Mesh([(n, s) for n, s in mesh.axes if n in info.manual])
    local_shape = []
    for dim, d in enumerate(sharding.dims):
        factor = math.prod(a.size(mesh) for a in d.axes if a.name in info.manual)
        local_shape.append(info.padded_shape[dim] // factor)
    element = value.type.element_type
    body = Block([TensorType(tuple(local_shape), element)])
    local = _without_axes(sharding, info.manual)
    original = op.operands[0].type.shape
    reversed_dims = op.attributes["dimensions"].values
    inner = Builder(b.module)
    inner.set_insertion_point_to_end(body)
    shifted = body.arguments[0]
    for dim in range(len(original)):
        padding = info.padded_shape[dim] - original[dim]
        if dim in reversed_dims and padding > 0:
            axes = [a for a in sharding.dims[dim].axes if a.name in info.manual]
            shifted = _shift_right(inner, shifted, dim, padding, axes, manual_mesh, local)
    inner.create("sdy.return", [shifted], result_types=[])
    manual_axes = tuple(n for n, _ in mesh.axes if n in info.manual)
    computation = b.create(
        "sdy.manual_computation",
        [value],
        attributes={
            "in_shardings": TensorShardingPerValue((sharding,)),
            "out_shardings": TensorShardingPerValue((sharding,)),
            "manual_axes": ManualAxes(manual_axes),
        },
        result_types=[value.type],
        regions=[Region([body])],
    )
    return computation.results[0]


def _shift_right(
    b: Builder,
    value: Value,
    dim: int,
    amount: int,
    axes: Sequence[AxisRef],
    manual_mesh: Mesh,
    local: TensorSharding,
) -> Value:
    """The local shard `value` with its last `amount` elements along `dim`
    sent to the next device along `axes` and put in front of its first ones."""
    shape = value.type.shape
    size = shape[dim]
    leading = size - amount
    halo = value
    if leading > 0:
        halo = _slice(
            b, value, [leading if d == dim else 0 for d in range(len(shape))], shape, local
        )
    pairs = _right_shift_pairs(manual_mesh, axes)
    received = b.op(
        "stablehlo.collective_permute",
        [halo],
        attributes={
            "source_target_pairs": DenseElementsAttr.from_numpy(
                np.array(pairs, dtype=np.int64).reshape(len(pairs), 2),
                TensorType((len(pairs), 2), "i64"),
            )
        },
        result_types=[halo.type],
    )
    set_sharding(received, local)
    if leading == 0:
        return received
    limits = [leading if d == dim else n for d, n in enumerate(shape)]
    data = _slice(b, value, [0] * len(shape), limits, local)
    result = b.op(
        "stablehlo.concatenate",
        [received, data],
        attributes={"dimension": IntegerAttr(dim, "i64")},
        result_types=[value.type],
    )
    set_sharding(result, local)
    return result


def _right_shift_pairs(mesh: Mesh, axes: Sequence[AxisRef]) -> list[tuple[int, int]]:
    """(device, its right neighbour) along `axes` of `mesh` (the most minor
    last), for every device but the last along them."""
    shape = mesh.shape
    names = mesh.axis_names
    pairs = []
    for index in range(math.prod(shape)):
        coords = _unravel(index, shape)
        following = list(coords)
        carried = True
        for axis in reversed(axes):
            if not carried:
                break
            k = names.index(axis.name)
            size = axis.size(mesh)
            post = shape[k] // (axis.pre_size * size)
            if (coords[k] // post) % size + 1 < size:
                following[k] += post
                carried = False
            else:
                following[k] -= (size - 1) * post
        if not carried:
            pairs.append((index, _ravel(following, shape)))
    return pairs
