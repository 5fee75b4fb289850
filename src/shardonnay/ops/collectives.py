"""StableHLO's collectives: ops that exchange data between devices.

MLIR prints most of them in the generic form::

    %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1,
        type = 1>, replica_groups = dense<[[0, 4], [1, 5]]> : tensor<2x2xi64>,
        use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, replica_groups = ...,
        use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<4x16xf32>
    %4 = "stablehlo.collective_permute"(%arg1) <{source_target_pairs =
        dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>

and the two device queries in a short form::

    %5 = stablehlo.partition_id : tensor<ui32>
    %6 = stablehlo.replica_id : tensor<ui32>

A collective's `evaluate` hands the op to `interp.collective(op, args)`: the
global program has no devices, a per-device interpreter (`runtime.devices`)
has. The semantics proper are plain functions here, free of threads: given
every process's operands (keyed by process id) they compute every process's
results, following the StableHLO spec (process groups from `replica_groups`,
`channel_handle` and `use_global_device_ids`; processes are numbered
`replica_id * num_partitions + partition_id`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.collectives.exchange import device_groups
from shardonnay.errors import IRError, ShardonnayError, UnsupportedOpError
from shardonnay.ir.attributes import (
    UNIT,
    DenseElementsAttr,
    IntegerAttr,
    OpaqueAttr,
    StructAttr,
    SymbolRefAttr,
)
from shardonnay.ir.core import Op, Region
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.control_flow import prefix_pointwise_rule
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.traits import DEVICE_COLLECTIVE, DEVICE_ID, GROUPED_DEVICES
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

Arrays = list[np.ndarray]
Combine = Callable[[np.ndarray, np.ndarray], np.ndarray]

# -- process groups (StableHLO spec, "Collective ops") ----------------------------------------


def channel_id(op: Op) -> int:
    """The `handle` of the op's `channel_handle` (0 when absent)."""
    handle = op.attributes.get("channel_handle")
    if handle is None:
        return 0
    if not isinstance(handle, StructAttr) or handle.name != "stablehlo.channel_handle":
        raise IRError(f"{op.name}: channel_handle must be a #stablehlo.channel_handle")
    return int(handle["handle"])


def replica_groups(op: Op, key: str = "replica_groups") -> list[list[int]]:
    """The rows of the op's `replica_groups` (or `source_target_pairs`), without
    -1 padding; groups written as mesh axes (`groups_along_mesh_axes`) are the
    devices of the named mesh that differ only along those axes."""
    value = op.attributes.get(key)
    if isinstance(value, StructAttr) and value.name == MESH_AXES_GROUPS:
        return _groups_of_mesh_axes(op, value)
    if not isinstance(value, DenseElementsAttr):
        raise IRError(f"{op.name}: needs a {key} attribute (dense<...> : tensor<NxMxi64>)")
    if len(value.type.shape) != 2 or value.type.element_type != "i64":
        raise IRError(f"{op.name}: {key} must be a rank-2 tensor of i64, got {value.type}")
    rows = np.asarray(value.to_numpy()).tolist()
    return [[int(i) for i in row if i != -1] for row in rows]


MESH_AXES_GROUPS = "stablehlo.replica_group_mesh_axes"
_AXIS_REF = "#sdy<axis_ref"


def groups_along_mesh_axes(mesh: str, axes: Sequence[AxisRef]) -> StructAttr:
    """The `replica_groups` of a collective among the devices of mesh `@mesh`
    that differ only along `axes`, written as those axes (Shardy's
    `sdy-convert-global-to-local{enable-rgv3=true}` writes them so):

    >>> print(groups_along_mesh_axes("m", [AxisRef("y", (1, 2))]))
    #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#sdy<axis_ref"y":(1)2>]>

    With `sdy.mesh @m = <["x"=2, "y"=4]>` (device 4x + y) they are the devices
    whose y differs in its major half only, `[[0, 2], [1, 3], [4, 6], [5, 7]]`.
    """
    refs = tuple(OpaqueAttr(f"{_AXIS_REF}{axis}>") for axis in axes)
    return StructAttr(MESH_AXES_GROUPS, (("mesh", SymbolRefAttr((mesh,))), ("axes", refs)))


def _groups_of_mesh_axes(op: Op, attr: StructAttr) -> list[list[int]]:
    where = f"{op.name}: replica_groups {attr}"
    mesh_ref, axes = attr.get("mesh"), attr.get("axes")
    if not isinstance(mesh_ref, SymbolRefAttr) or not isinstance(axes, tuple):
        raise IRError(f"{where}: expected mesh = @name, axes = [#sdy<axis_ref...>, ...]")
    mesh = _mesh_named(op, mesh_ref.name)
    if mesh is None:
        raise IRError(f"{where}: no sdy.mesh @{mesh_ref.name} in the module")
    refs = []
    for axis in axes:
        text = axis.text if isinstance(axis, OpaqueAttr) else ""
        if not (text.startswith(_AXIS_REF) and text.endswith(">")):
            raise IRError(f"{where}: {axis} is not an #sdy<axis_ref...>")
        try:
            ref = AxisRef.parse(text[len(_AXIS_REF) : -1])
            if ref.size(mesh) < 1 or mesh.axis_size(ref.name) % ref.next_pre_size(mesh):
                raise IRError(f"{ref} does not divide axis {ref.name!r}")
        except ShardonnayError as e:
            raise IRError(f"{where}: {e}") from None
        if any(ref.overlaps(other) for other in refs):
            raise IRError(f"{where}: axis {ref} overlaps another of the list")
        refs.append(ref)
    return device_groups(refs, mesh)


def _mesh_named(op: Op, name: str):
    """The mesh of `sdy.mesh @name` in the module holding `op` (None: none)."""
    block = op.parent
    while block is not None and block.parent_op is not None:
        block = block.parent_op.parent
    for top in block.ops if block is not None else ():
        if top.name == "sdy.mesh" and top.attributes.get("sym_name") == name:
            return top.attributes.get("mesh")
    return None


def _cross_replica(groups, num_replicas: int, num_partitions: int) -> list[list[int]]:
    groups = groups or [list(range(num_replicas))]
    return [[r * num_partitions + p for r in g] for p in range(num_partitions) for g in groups]


def _cross_partition(groups, num_replicas: int, num_partitions: int) -> list[list[int]]:
    groups = groups or [list(range(num_partitions))]
    return [[r * num_partitions + p for p in g] for r in range(num_replicas) for g in groups]


def process_groups(op: Op, num_replicas: int, num_partitions: int) -> list[list[int]]:
    """The groups of process ids that `op` (not collective_permute) exchanges within."""
    groups = replica_groups(op)
    channel = channel_id(op)
    use_global = op.attributes.get("use_global_device_ids") is not None
    _check_ids(op, groups, num_replicas * num_partitions)
    if op.name in ("stablehlo.all_to_all", "stablehlo.collective_broadcast"):
        build = _cross_replica if channel <= 0 else _cross_partition
        return build(groups, num_replicas, num_partitions)
    if channel <= 0 and not use_global:
        return _cross_replica(groups, num_replicas, num_partitions)
    if channel > 0 and not use_global:  # cross_replica_and_partition
        groups = groups or [list(range(num_replicas))]
        return [[r * num_partitions + p for r in g for p in range(num_partitions)] for g in groups]
    if channel > 0 and use_global:  # flattened ids
        return [list(g) for g in groups]
    raise IRError(f"{op.name}: use_global_device_ids needs a channel_handle with handle > 0")


def permute_pairs(op: Op, num_replicas: int, num_partitions: int) -> list[tuple[int, int]]:
    """collective_permute's (source, target) process pairs."""
    pairs = replica_groups(op, "source_target_pairs")
    if any(len(p) != 2 for p in pairs):
        raise IRError(f"{op.name}: source_target_pairs must have shape Nx2")
    if channel_id(op) <= 0:  # cross_replica
        return [
            (s * num_partitions + p, t * num_partitions + p)
            for p in range(num_partitions)
            for s, t in pairs
        ]
    return [
        (r * num_partitions + s, r * num_partitions + t)
        for r in range(num_replicas)
        for s, t in pairs
    ]


def _check_ids(op: Op, groups: list[list[int]], count: int) -> None:
    for g in groups:
        for i in g:
            if not 0 <= i < count:
                raise IRError(f"{op.name}: id {i} in replica_groups is outside [0, {count})")


# -- semantics on all processes at once --------------------------------------------------------


def all_reduce(
    operands: Mapping[int, Arrays], groups: Sequence[Sequence[int]], combine: Combine
) -> dict[int, Arrays]:
    """Every member of a group gets the fold of the group's operands (in group order)."""
    out: dict[int, Arrays] = {}
    for group in groups:
        results = []
        for k in range(len(operands[group[0]])):
            acc = operands[group[0]][k]
            for member in group[1:]:
                acc = combine(acc, operands[member][k])
            results.append(acc)
        for member in group:
            out[member] = results
    return out


def all_gather(
    operands: Mapping[int, Arrays], groups: Sequence[Sequence[int]], dim: int
) -> dict[int, Arrays]:
    """Every member gets the group's operands concatenated along `dim`, in group order."""
    out: dict[int, Arrays] = {}
    for group in groups:
        results = [
            np.concatenate([operands[m][k] for m in group], axis=dim)
            for k in range(len(operands[group[0]]))
        ]
        for member in group:
            out[member] = results
    return out


def reduce_scatter(
    operands: Mapping[int, Arrays], groups: Sequence[Sequence[int]], dim: int, combine: Combine
) -> dict[int, Arrays]:
    """The group's reduction split along `dim`; member `j` of a group gets part `j`."""
    reduced = all_reduce(operands, groups, combine)
    out: dict[int, Arrays] = {}
    for group in groups:
        for j, member in enumerate(group):
            out[member] = [np.split(r, len(group), axis=dim)[j] for r in reduced[member]]
    return out


def all_to_all(
    operands: Mapping[int, Arrays],
    groups: Sequence[Sequence[int]],
    split_dim: int,
    concat_dim: int,
) -> dict[int, Arrays]:
    """Each member splits its operand along `split_dim` into one part per member,
    sends part `j` to member `j`, and concatenates what it receives along `concat_dim`."""
    out: dict[int, Arrays] = {}
    for group in groups:
        parts = {m: [np.split(x, len(group), axis=split_dim) for x in operands[m]] for m in group}
        for j, member in enumerate(group):
            out[member] = [
                np.concatenate([parts[sender][k][j] for sender in group], axis=concat_dim)
                for k in range(len(operands[member]))
            ]
    return out


def collective_permute(
    operands: Mapping[int, Arrays], pairs: Sequence[tuple[int, int]]
) -> dict[int, Arrays]:
    """A target gets its source's operand; a process that is no target gets zeros."""
    out = {p: [np.zeros_like(x) for x in xs] for p, xs in operands.items()}
    for source, target in pairs:
        if source in operands and target in operands:
            out[target] = list(operands[source])
    return out


def collective_broadcast(
    operands: Mapping[int, Arrays], groups: Sequence[Sequence[int]]
) -> dict[int, Arrays]:
    """Every member gets the operand of its group's first member; others get zeros."""
    out = {p: [np.zeros_like(x) for x in xs] for p, xs in operands.items()}
    for group in groups:
        for member in group:
            out[member] = list(operands[group[0]])
    return out


def exchange(
    op: Op,
    operands: Mapping[int, Arrays],
    groups: Sequence[Sequence[int]] | None,
    pairs: Sequence[tuple[int, int]] | None,
    interp: Any,
) -> dict[int, Arrays]:
    """The results of data-exchanging collective `op` on every process.

    `groups` are its process groups (`pairs` for collective_permute) in the
    keys of `operands`; `interp` runs reduction regions the fast path can't.
    """
    if op.name == "stablehlo.all_reduce":
        return all_reduce(operands, groups, reduction(op.regions[0], interp))
    if op.name == "stablehlo.cross-replica-sum":  # the legacy all-reduce that sums
        return all_reduce(operands, groups, np.add)
    if op.name == "stablehlo.all_gather":
        return all_gather(operands, groups, _int(op, "all_gather_dim"))
    if op.name == "stablehlo.reduce_scatter":
        return reduce_scatter(
            operands, groups, _int(op, "scatter_dimension"), reduction(op.regions[0], interp)
        )
    if op.name == "stablehlo.all_to_all":
        return all_to_all(
            operands, groups, _int(op, "split_dimension"), _int(op, "concat_dimension")
        )
    if op.name == "stablehlo.collective_permute":
        return collective_permute(operands, pairs)
    if op.name == "stablehlo.collective_broadcast":
        return collective_broadcast(operands, groups)
    raise UnsupportedOpError(f"{op.name} is not a data-exchanging collective")


# -- reduction regions -------------------------------------------------------------------------

_BINARY = {
    "stablehlo.add": np.add,
    "stablehlo.multiply": np.multiply,
    "stablehlo.maximum": np.maximum,
    "stablehlo.minimum": np.minimum,
    "stablehlo.and": np.logical_and,
    "stablehlo.or": np.logical_or,
}


def reduction(region: Region, interp: Any) -> Combine:
    """The elementwise function of a reduction region `(tensor<E>, tensor<E>) -> tensor<E>`.

    A body that is one known binary op of the two arguments runs as numpy;
    any other body runs through `interp` element by element.
    """
    block = region.entry
    if len(block.arguments) != 2:
        raise IRError(f"a reduction region takes 2 arguments, got {len(block.arguments)}")
    ops = block.ops
    if (
        len(ops) == 2
        and ops[0].name in _BINARY
        and set(ops[0].operands) == set(block.arguments)
        and ops[1].operands == (ops[0].results[0],)
    ):
        ufunc = _BINARY[ops[0].name]
        kind = np.dtype(block.arguments[0].type.dtype).kind
        if ufunc in (np.logical_and, np.logical_or) and kind != "b":
            ufunc = np.bitwise_and if ufunc is np.logical_and else np.bitwise_or
        return lambda x, y: ufunc(x, y).astype(x.dtype, copy=False)

    def combine(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        out = np.empty_like(x)
        for index in np.ndindex(x.shape):
            (out[index],) = interp.run_region(region, [x[index], y[index]], {})
        return out

    return combine


# -- op definitions ----------------------------------------------------------------------------


def _int(op: Op, key: str) -> int:
    value = op.attributes.get(key)
    if not isinstance(value, IntegerAttr):
        raise IRError(f"{op.name}: needs an integer attribute {key}")
    return value.value


def _group_size(op: Op) -> int | None:
    """The size of each process group, when the attributes alone tell it."""
    value = op.attributes.get("replica_groups")
    if not isinstance(value, DenseElementsAttr) or len(value.type.shape) != 2:
        return None
    use_global = op.attributes.get("use_global_device_ids") is not None
    if use_global or channel_id(op) <= 0:
        return value.type.shape[1] or None
    return None  # cross replica and partition: depends on the number of partitions


def _tensor(op: Op, t: Type, what: str) -> TensorType:
    if not isinstance(t, TensorType):
        raise IRError(f"{op.name}: {what} must be a tensor, got {t}")
    return t


def _check_dim(op: Op, dim: int, rank: int, key: str) -> None:
    if not 0 <= dim < rank:
        raise IRError(f"{op.name}: {key} {dim} is out of range for rank {rank}")


def _resized_dim_rule(op: Op, resized: list[int]) -> OpShardingRule:
    """Pointwise on operand 0's dims outside `resized`; then, per resized dim,
    a need_replication factor for the operands' dim and one for the
    results' (sized after operand 0 and result 0)."""
    b = RuleBuilder.for_op(op)
    shape, out = b.operand_shapes[0], b.result_shapes[0]

    def dims(shapes: list[tuple[int, ...]], d: int) -> list[int | None]:
        return [d if d < len(s) else None for s in shapes]

    none_ops, none_res = [None] * len(b.operand_shapes), [None] * len(b.result_shapes)
    for d, size in enumerate(shape):
        if d not in resized:
            b.add_factor(dims(b.operand_shapes, d), dims(b.result_shapes, d), size)
    for d in resized:
        b.add_factor(dims(b.operand_shapes, d), none_res, shape[d], kind="need_replication")
        b.add_factor(none_ops, dims(b.result_shapes, d), out[d], kind="need_replication")
    return b.build()


class _Collective(OpDef):
    """Shared facets: generic syntax, `evaluate` through `interp.collective`."""

    pure = False

    def evaluate(self, op: Op, args: list, interp) -> list:
        return interp.collective(op, args)

    def verify(self, op: Op) -> None:
        groups = replica_groups(op)
        seen: set[int] = set()
        for g in groups:
            for i in g:
                if i < 0 or i in seen:
                    raise IRError(f"{op.name}: replica id {i} appears twice or is negative")
                seen.add(i)
        if op.attributes.get("use_global_device_ids") not in (None, UNIT):
            raise IRError(f"{op.name}: use_global_device_ids is a unit attribute")
        if op.attributes.get("use_global_device_ids") is not None and channel_id(op) <= 0:
            raise IRError(
                f"{op.name}: use_global_device_ids needs a channel_handle with handle > 0"
            )
        inferred = self.infer_types(op)
        if inferred is not None and list(inferred) != list(op.result_types):
            raise IRError(
                f"{op.name}: inferred type(s) '{', '.join(map(str, inferred))}' are incompatible "
                f"with return type(s) of operation '{', '.join(map(str, op.result_types))}'"
            )


class SameTypeCollective(_Collective):
    """all_reduce, collective_broadcast: each result has its operand's type."""

    def infer_types(self, op: Op) -> list[Type] | None:
        return [v.type for v in op.operands]

    rule_reads_regions = False  # (the rule is the same whatever the body computes)

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise: `([i, j], [i])->([i, j], [i]) {i=4, j=4}` for operands
        `tensor<4x4xf32>, tensor<4xf32>`."""
        return prefix_pointwise_rule(op)

    def verify(self, op: Op) -> None:
        super().verify(op)
        if op.name == "stablehlo.all_reduce":
            _verify_reduction_region(op)


class AllGatherOp(_Collective):
    """`all_gather_dim` grows by the group size."""

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise but for the gathered dim, whose operand and result sizes
        are separate need_replication factors:
        `(tensor<4x6xf32>) -> tensor<4x12xf32>` on dim 1 is
        `([i, j])->([i, k]) {i=4, j=6, k=12} need_replication={j, k}`."""
        return _resized_dim_rule(op, [_int(op, "all_gather_dim")])

    def infer_types(self, op: Op) -> list[Type] | None:
        n = _group_size(op)
        if n is None:
            return None
        dim = _int(op, "all_gather_dim")
        out = []
        for v in op.operands:
            t = _tensor(op, v.type, "an operand")
            _check_dim(op, dim, len(t.shape), "all_gather_dim")
            shape = list(t.shape)
            shape[dim] *= n
            out.append(TensorType(tuple(shape), t.element_type))
        return out


class ReduceScatterOp(_Collective):
    """`scatter_dimension` shrinks by the group size."""

    rule_reads_regions = False  # (the rule is the same whatever the body computes)

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Like all_gather's, for `scatter_dimension`."""
        return _resized_dim_rule(op, [_int(op, "scatter_dimension")])

    def infer_types(self, op: Op) -> list[Type] | None:
        n = _group_size(op)
        if n is None:
            return None
        dim = _int(op, "scatter_dimension")
        t = _tensor(op, op.operands[0].type, "the operand")
        _check_dim(op, dim, len(t.shape), "scatter_dimension")
        if t.shape[dim] % n:
            raise IRError(
                f"{op.name}: operand scatter dimension has size {t.shape[dim]}, not a "
                f"multiple of the group size {n}"
            )
        shape = list(t.shape)
        shape[dim] //= n
        return [TensorType(tuple(shape), t.element_type)]

    def verify(self, op: Op) -> None:
        super().verify(op)
        _verify_reduction_region(op)


class AllToAllOp(_Collective):
    """`split_dimension` shrinks by `split_count`, `concat_dimension` grows by it."""

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise on the other dims; the split dim, then the concat dim,
        get one need_replication factor each for operands and results:
        `(tensor<4x6xf32>) -> tensor<8x3xf32>` (split 1, concat 0) is
        `([k, i])->([l, j]) {i=6, j=3, k=4, l=8} need_replication={i, j, k, l}`."""
        split, concat = _int(op, "split_dimension"), _int(op, "concat_dimension")
        return _resized_dim_rule(op, [split] if split == concat else [split, concat])

    def infer_types(self, op: Op) -> list[Type] | None:
        split, concat = _int(op, "split_dimension"), _int(op, "concat_dimension")
        count = _int(op, "split_count")
        if count <= 0:
            raise IRError(f"{op.name}: split_count must be positive, got {count}")
        out = []
        for v in op.operands:
            t = _tensor(op, v.type, "an operand")
            _check_dim(op, split, len(t.shape), "split_dimension")
            _check_dim(op, concat, len(t.shape), "concat_dimension")
            if t.shape[split] % count:
                raise IRError(
                    f"{op.name}: split dimension has size {t.shape[split]}, not a multiple "
                    f"of split_count {count}"
                )
            shape = list(t.shape)
            shape[split] //= count
            shape[concat] *= count
            out.append(TensorType(tuple(shape), t.element_type))
        return out

    def verify(self, op: Op) -> None:
        super().verify(op)
        n = _group_size(op)
        if n is not None and n != _int(op, "split_count"):
            raise IRError(f"{op.name}: group size {n} differs from split_count")


class CollectivePermuteOp(_Collective):
    """`source_target_pairs`: each source sends its operand to its target."""

    def infer_types(self, op: Op) -> list[Type] | None:
        return [v.type for v in op.operands]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise: `([i, j])->([i, j]) {i=4, j=6}`."""
        return prefix_pointwise_rule(op)

    def verify(self, op: Op) -> None:
        pairs = replica_groups(op, "source_target_pairs")
        if any(len(p) != 2 for p in pairs):
            raise IRError(f"{op.name}: source_target_pairs must have shape Nx2")
        for column, what in ((0, "source"), (1, "target")):
            ids = [p[column] for p in pairs]
            if len(set(ids)) != len(ids):
                raise IRError(f"{op.name}: duplicate {what} in source_target_pairs")
        if op.result_types != [v.type for v in op.operands]:
            raise IRError(f"{op.name}: the result type must equal the operand type")


def _verify_reduction_region(op: Op) -> None:
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise IRError(f"{op.name}: needs a reduction region of one block")
    args = op.regions[0].entry.arguments
    if len(args) != 2 or any(not isinstance(a.type, TensorType) or a.type.shape for a in args):
        raise IRError(f"{op.name}: the reduction region takes two 0-d tensors")


class DeviceIdOp(OpDef):
    """`stablehlo.partition_id : tensor<ui32>` (and `replica_id`): the running
    device's id; only a per-device interpreter knows it."""

    pure = False

    def parse(self, p, name: str) -> Op:
        attrs = p.optional_attr_dict()
        p.expect(":", "':' and the result type")
        t = p.type()
        return mark_inherent(p.make_op(name, [], [t], attrs), ())

    def print(self, op: Op, w) -> None:
        w.attr_dict(op)
        w.write(f" : {op.result_types[0]}")

    def infer_types(self, op: Op) -> list[Type] | None:
        return [TensorType((), "ui32")]

    def verify(self, op: Op) -> None:
        if op.operands or op.result_types != [TensorType((), "ui32")]:
            raise IRError(f"{op.name}: takes no operands and returns tensor<ui32>")

    def evaluate(self, op: Op, args: list, interp) -> list:
        return interp.collective(op, args)


_GROUPED = {DEVICE_COLLECTIVE, GROUPED_DEVICES}
register("stablehlo.all_reduce", SameTypeCollective(), traits=_GROUPED)
register("stablehlo.collective_broadcast", SameTypeCollective(), traits=_GROUPED)
register("stablehlo.all_gather", AllGatherOp(), traits=_GROUPED)
register("stablehlo.reduce_scatter", ReduceScatterOp(), traits=_GROUPED)
register("stablehlo.all_to_all", AllToAllOp(), traits=_GROUPED)
# Its devices pair up by `source_target_pairs`, not by groups.
register("stablehlo.collective_permute", CollectivePermuteOp(), traits={DEVICE_COLLECTIVE})
register("stablehlo.partition_id", DeviceIdOp(), traits={DEVICE_ID})
register("stablehlo.replica_id", DeviceIdOp(), traits={DEVICE_ID})
