"""`stablehlo.gather` and `stablehlo.scatter`: types, numpy semantics and sharding rules.

Both print in MLIR's generic form, with their dimension numbers as
`#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0],
index_vector_dim = 1>` and `#stablehlo.scatter<...>`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import StructAttr
from shardonnay.ir.core import Op, Region
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.indexing import is_index_type
from shardonnay.ops.linalg import finish_rule
from shardonnay.ops.registry import OpDef, register
from shardonnay.ops.shape import (
    check_dims,
    check_result,
    expect_counts,
    int_array,
    tensor_type,
)
from shardonnay.ops.traits import NeedsCommunication
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

# -- gather ---------------------------------------------------------------------------------------

_GATHER_FIELDS = (
    "offset_dims",
    "collapsed_slice_dims",
    "operand_batching_dims",
    "start_indices_batching_dims",
    "start_index_map",
)


def _dimension_numbers(op: Op, key: str, name: str, fields) -> dict[str, Any]:
    value = op.attributes.get(key)
    if not isinstance(value, StructAttr) or value.name != name:
        raise IRError(f"{op.name}: needs a {key} attribute #{name}<...>")
    numbers: dict[str, Any] = {f: tuple(value.get(f, ())) for f in fields}
    ivd = value.get("index_vector_dim", 0)
    numbers["index_vector_dim"] = ivd
    return numbers


def _batch_shape(indices: TensorType, ivd: int) -> tuple[int, ...]:
    """The shape of the index tensor without its index vector dimension."""
    return tuple(n for d, n in enumerate(indices.shape) if d != ivd)


def _index_vectors(indices: np.ndarray, ivd: int) -> np.ndarray:
    """The index tensor with its index vectors along the last axis."""
    indices = np.asarray(indices).astype(np.int64)
    if ivd == indices.ndim:
        return indices[..., None]
    return np.moveaxis(indices, ivd, -1)


def _batch_axis(d_start: int, ivd: int) -> int:
    """The axis of a batch-shaped array that was axis `d_start` of the indices."""
    return d_start - 1 if d_start > ivd else d_start


def _check_index_dims(op: Op, indices: TensorType, ivd: int, what: str) -> None:
    if not 0 <= ivd <= indices.rank:
        raise IRError(f"{op.name}: index_vector_dim {ivd} is out of range for {what} {indices}")
    if not is_index_type(indices.element_type):
        raise IRError(f"{op.name}: {what} must have an integer element type")


def _check_batching(
    op: Op,
    operand_dims: tuple[int, ...],
    index_dims: tuple[int, ...],
    x: TensorType,
    indices: TensorType,
    ivd: int,
    names: tuple[str, str],
) -> None:
    if len(operand_dims) != len(index_dims):
        raise IRError(f"{op.name}: {names[0]} and {names[1]} differ in length")
    check_dims(op, index_dims, indices.rank, names[1][:-1])
    if ivd in index_dims:
        raise IRError(f"{op.name}: {names[1]} must not contain index_vector_dim {ivd}")
    for a, b in zip(operand_dims, index_dims, strict=True):
        if x.shape[a] != indices.shape[b]:
            raise IRError(
                f"{op.name}: {names[0]} dimension {a} (size {x.shape[a]}) and {names[1]} "
                f"dimension {b} (size {indices.shape[b]}) differ in size"
            )


def _check_index_map(
    op: Op, key: str, index_map: tuple[int, ...], x: TensorType, indices: TensorType, ivd: int
) -> None:
    """`index_map` (gather's `start_index_map`, scatter's
    `scatter_dims_to_operand_dims`) names one distinct operand dim for each
    entry of an index vector."""
    vector_size = indices.shape[ivd] if ivd < indices.rank else 1
    if len(index_map) != vector_size:
        raise IRError(
            f"{op.name}: {key} has {len(index_map)} entries for index vectors of size {vector_size}"
        )
    check_dims(op, index_map, x.rank, f"{key} entry")


def _gather_scatter_factors(
    is_scatter: bool,
    input_shape: tuple[int, ...],
    slices_shape: tuple[int, ...],
    indices_shape: tuple[int, ...],
    ivd: int,
    offset_dims: tuple[int, ...],
    collapsed_dims: tuple[int, ...],
    input_batching_dims: tuple[int, ...],
    indices_batching_dims: tuple[int, ...],
    add,
    scatter_reduces: bool = False,
) -> None:
    """Calls `add(input_dim, indices_dim, slices_dim, size, kind, blocked)` for
    each factor of a gather (slices: the result) or scatter (slices: the
    updates), in Shardy's order: per slices dim, either an offset dim (with its
    input dim) or a batch dim (with its indices dim, and its input dim when an
    explicit batching dim); then the collapsed (inserted) dims (for a gather,
    reductions, or needing replication when of size 1); then the index vector
    dim. A scatter's implicit batch dims are reductions when
    `scatter_reduces` (its updates combine by a reduction), else they need
    replication."""
    input_dim = 0
    batch_pos = 0
    for slices_dim, slices_size in enumerate(slices_shape):
        if slices_dim in offset_dims:
            while input_dim in collapsed_dims or input_dim in input_batching_dims:
                input_dim += 1
            size = input_shape[input_dim]
            if size == slices_size:
                add(input_dim, None, slices_dim, size, "pass_through", False)
            elif is_scatter:
                add(input_dim, None, None, size, "need_replication", False)
                add(None, None, slices_dim, slices_size, "need_replication", False)
            elif slices_size == 1:
                add(input_dim, None, None, size, "reduction", False)
                add(None, None, slices_dim, slices_size, "need_replication", False)
            else:
                add(input_dim, None, slices_dim, size, "need_replication", True)
            input_dim += 1
        else:
            indices_dim = batch_pos if batch_pos < ivd else batch_pos + 1
            explicit = indices_dim in indices_batching_dims
            batch_input_dim = (
                input_batching_dims[indices_batching_dims.index(indices_dim)] if explicit else None
            )
            kind = "pass_through"
            if is_scatter and not explicit:
                kind = "reduction" if scatter_reduces else "need_replication"
            add(batch_input_dim, indices_dim, slices_dim, slices_size, kind, False)
            batch_pos += 1
    for d in collapsed_dims:
        # A gather sharded along a collapsed dim all-reduces its result.
        kind = "pass_through" if is_scatter else "reduction"
        if not is_scatter and input_shape[d] == 1:
            kind = "need_replication"
        add(d, None, None, input_shape[d], kind, False)
    if ivd < len(indices_shape):
        add(None, ivd, None, indices_shape[ivd], "need_replication", False)


class GatherOp(OpDef):
    """`"stablehlo.gather"(%operand, %start_indices) <{dimension_numbers =
    #stablehlo.gather<...>, slice_sizes = array<i64: ...>}>`: slices of
    `slice_sizes` at the (clamped) starts read from `start_indices`."""

    def _numbers(self, op: Op) -> dict[str, Any]:
        return _dimension_numbers(op, "dimension_numbers", "stablehlo.gather", _GATHER_FIELDS)

    def infer_types(self, op: Op) -> list[Type] | None:
        if len(op.operands) != 2:
            raise IRError(f"{op.name}: takes an operand and start indices")
        x = tensor_type(op, op.operands[0], "the operand")
        indices = tensor_type(op, op.operands[1], "the start indices")
        dn = self._numbers(op)
        ivd = dn["index_vector_dim"]
        sizes = int_array(op, "slice_sizes")
        _check_index_dims(op, indices, ivd, "start indices")
        if len(sizes) != x.rank:
            raise IRError(f"{op.name}: slice_sizes has {len(sizes)} entries for rank {x.rank}")
        for d, (k, n) in enumerate(zip(sizes, x.shape, strict=True)):
            if not 0 <= k <= n:
                raise IRError(f"{op.name}: slice size {k} of dimension {d} exceeds its size {n}")
        collapsed, batching = dn["collapsed_slice_dims"], dn["operand_batching_dims"]
        check_dims(op, collapsed + batching, x.rank, "collapsed or batching dimension")
        for d in collapsed + batching:
            if sizes[d] > 1:
                raise IRError(f"{op.name}: slice size of collapsed/batching dimension {d} is > 1")
        _check_batching(
            op,
            batching,
            dn["start_indices_batching_dims"],
            x,
            indices,
            ivd,
            ("operand_batching_dims", "start_indices_batching_dims"),
        )
        start_map = dn["start_index_map"]
        _check_index_map(op, "start_index_map", start_map, x, indices, ivd)
        if set(start_map) & set(batching):
            raise IRError(f"{op.name}: start_index_map and operand_batching_dims overlap")
        offset_dims = dn["offset_dims"]
        window = [sizes[d] for d in range(x.rank) if d not in collapsed and d not in batching]
        if len(offset_dims) != len(window) or list(offset_dims) != sorted(offset_dims):
            raise IRError(
                f"{op.name}: offset_dims {list(offset_dims)} must list the {len(window)} "
                "uncollapsed slice dimensions in order"
            )
        batch = list(_batch_shape(indices, ivd))
        rank = len(batch) + len(window)
        check_dims(op, offset_dims, rank, "offset dimension")
        shape = []
        for d in range(rank):
            shape.append(window[offset_dims.index(d)] if d in offset_dims else batch.pop(0))
        return [x.with_shape(tuple(shape))]

    def verify(self, op: Op) -> None:
        expect_counts(op, 2, 1)
        check_result(op, self.infer_types(op)[0])

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """`x[idx]` on `tensor<64x32>` with `tensor<4x1>` indices
        (offset_dims = [1], collapsed_slice_dims = [0], index_vector_dim = 1):
        `([k, j], [i, l])->([i, j]) {i=4, j=32, k=64, l=1} reduction={k}
        need_replication={l}`: the batch dim, the unsliced offset dim, the
        collapsed dim (a reduction: a sharded operand dim needs an all-reduce
        of the result) and the index vector dim."""
        b = RuleBuilder.for_op(op)
        dn = self._numbers(op)

        def add(input_dim, indices_dim, slices_dim, size, kind, blocked) -> None:
            b.add_factor([input_dim, indices_dim], [slices_dim], size, kind=kind, blocked=blocked)

        _gather_scatter_factors(
            False,
            b.operand_shapes[0],
            b.result_shapes[0],
            b.operand_shapes[1],
            dn["index_vector_dim"],
            dn["offset_dims"],
            dn["collapsed_slice_dims"],
            dn["operand_batching_dims"],
            dn["start_indices_batching_dims"],
            add,
        )
        return finish_rule(b)

    def evaluate(self, op: Op, args: list, interp) -> list:
        x = np.asarray(args[0])
        dn = self._numbers(op)
        ivd = dn["index_vector_dim"]
        sizes = int_array(op, "slice_sizes")
        vectors = _index_vectors(args[1], ivd)
        batch = vectors.shape[:-1]
        nb = len(batch)
        starts = np.zeros((*batch, x.ndim), dtype=np.int64)
        for k, d in enumerate(dn["start_index_map"]):
            starts[..., d] = np.clip(vectors[..., k], 0, x.shape[d] - sizes[d])
        for d_op, d_start in zip(
            dn["operand_batching_dims"], dn["start_indices_batching_dims"], strict=True
        ):
            axis = _batch_axis(d_start, ivd)
            shape = [1] * nb
            shape[axis] = batch[axis]
            starts[..., d_op] += np.arange(batch[axis]).reshape(shape)
        # Index arrays of shape batch + slice_sizes, one per operand axis.
        index = []
        for d in range(x.ndim):
            window_shape = [1] * x.ndim
            window_shape[d] = sizes[d]
            base = starts[..., d].reshape(*batch, *([1] * x.ndim))
            index.append(base + np.arange(sizes[d]).reshape(window_shape))
        gathered = x[tuple(index)]
        dropped = set(dn["collapsed_slice_dims"]) | set(dn["operand_batching_dims"])
        gathered = gathered.reshape(*batch, *(sizes[d] for d in range(x.ndim) if d not in dropped))
        offset_dims = dn["offset_dims"]
        perm, next_batch = [], 0
        for d in range(gathered.ndim):
            if d in offset_dims:
                perm.append(nb + offset_dims.index(d))
            else:
                perm.append(next_batch)
                next_batch += 1
        return [np.transpose(gathered, perm)]


# -- scatter --------------------------------------------------------------------------------------

_SCATTER_FIELDS = (
    "update_window_dims",
    "inserted_window_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
    "scatter_dims_to_operand_dims",
)

# Update computations `return op(%old, %new)` that numpy applies at once.
_UFUNCS = {
    "stablehlo.add": np.add,
    "stablehlo.multiply": np.multiply,
    "stablehlo.maximum": np.maximum,
    "stablehlo.minimum": np.minimum,
}


# Ops whose update computation `return op(%old, %new)` makes a scatter a reduction.
_REDUCING = frozenset(
    {"stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum"}
)
_REDUCING_I1 = frozenset({"stablehlo.and", "stablehlo.or"})


def _combines_by_reduction(op: Op, k: int) -> bool:
    """Whether each of the `k` values returned by the update computation of
    scatter `op` is the same reducing op (add, multiply, maximum, minimum; also
    and, or on i1) of its old and new element, in either order."""
    region = op.regions[0] if op.regions else None
    if region is None or len(region.blocks) != 1:
        return False
    block = region.entry
    args = block.arguments
    if not block.ops or len(args) != 2 * k:
        return False
    returned = block.ops[-1].operands
    if len(returned) != k:
        return False
    names = set()
    for i, value in enumerate(returned):
        producer = value.op
        if producer is None or producer.parent is not block:
            return False
        allowed = _REDUCING
        if getattr(value.type, "element_type", None) == "i1":
            allowed = _REDUCING | _REDUCING_I1
        if producer.name not in allowed or len(producer.operands) != 2:
            return False
        if set(producer.operands) != {args[i], args[i + k]} or args[i] is args[i + k]:
            return False
        names.add(producer.name)
    return len(names) == 1


class ScatterOp(OpDef):
    """`"stablehlo.scatter"(%inputs..., %scatter_indices, %updates...) <{
    scatter_dimension_numbers = #stablehlo.scatter<...>}> ({update computation})`:
    each in-bounds update element is combined into its input element by the
    update computation (old values first, then update values)."""

    traits = frozenset(
        {
            NeedsCommunication(
                "its indexed input dims are pass-through factors: each shard receives the "
                "updates aimed at global indices"
            )
        }
    )

    def _numbers(self, op: Op) -> dict[str, Any]:
        return _dimension_numbers(
            op, "scatter_dimension_numbers", "stablehlo.scatter", _SCATTER_FIELDS
        )

    def infer_types(self, op: Op) -> list[Type] | None:
        n = len(op.operands)
        if n < 3 or n % 2 == 0:
            raise IRError(f"{op.name}: takes N inputs, the scatter indices and N updates")
        k = n // 2
        inputs = [tensor_type(op, v, f"input {i}") for i, v in enumerate(op.operands[:k])]
        indices = tensor_type(op, op.operands[k], "the scatter indices")
        updates = [tensor_type(op, v, f"update {i}") for i, v in enumerate(op.operands[k + 1 :])]
        x, u = inputs[0], updates[0]
        for i, t in enumerate(inputs):
            if t.shape != x.shape:
                raise IRError(f"{op.name}: input {i} has shape {t.shape}, input 0 {x.shape}")
        for i, t in enumerate(updates):
            if t.shape != u.shape or t.element_type != inputs[i].element_type:
                raise IRError(f"{op.name}: update {i} ({t}) does not match update 0 / input {i}")
        dn = self._numbers(op)
        ivd = dn["index_vector_dim"]
        _check_index_dims(op, indices, ivd, "scatter indices")
        window, inserted = dn["update_window_dims"], dn["inserted_window_dims"]
        batching = dn["input_batching_dims"]
        check_dims(op, window, u.rank, "update window dimension")
        if list(window) != sorted(window):
            raise IRError(f"{op.name}: update_window_dims {list(window)} are not sorted")
        check_dims(op, inserted + batching, x.rank, "inserted or batching dimension")
        if len(window) + len(inserted) + len(batching) != x.rank:
            raise IRError(
                f"{op.name}: update_window_dims, inserted_window_dims and input_batching_dims "
                f"must cover the {x.rank} input dimensions"
            )
        _check_batching(
            op,
            batching,
            dn["scatter_indices_batching_dims"],
            x,
            indices,
            ivd,
            ("input_batching_dims", "scatter_indices_batching_dims"),
        )
        to_operand = dn["scatter_dims_to_operand_dims"]
        _check_index_map(op, "scatter_dims_to_operand_dims", to_operand, x, indices, ivd)
        scatter_shape = [n for d, n in enumerate(u.shape) if d not in window]
        if scatter_shape != list(_batch_shape(indices, ivd)):
            raise IRError(
                f"{op.name}: the update scatter dimensions {scatter_shape} differ from the "
                f"index batch shape {list(_batch_shape(indices, ivd))}"
            )
        window_dims = [d for d in range(x.rank) if d not in inserted and d not in batching]
        for j, d in enumerate(window_dims):
            if u.shape[window[j]] > x.shape[d]:
                raise IRError(
                    f"{op.name}: update window dimension {window[j]} (size "
                    f"{u.shape[window[j]]}) exceeds input dimension {d} ({x.shape[d]})"
                )
        return list(inputs)

    def verify(self, op: Op) -> None:
        inferred = self.infer_types(op)
        if op.result_types != inferred:
            raise IRError(
                f"{op.name}: result types ({', '.join(map(str, op.result_types))}) differ "
                f"from the input types ({', '.join(map(str, inferred))})"
            )
        if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
            raise IRError(f"{op.name}: needs an update computation region with one block")
        block = op.regions[0].entry
        expected = [TensorType((), t.element_type) for t in inferred] * 2
        if [a.type for a in block.arguments] != expected:
            raise IRError(
                f"{op.name}: the update computation takes "
                f"({', '.join(map(str, (a.type for a in block.arguments)))}), expected "
                f"({', '.join(map(str, expected))})"
            )

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """`x.at[idx].add(u)` on `tensor<32x16>` with `tensor<6x1>` indices and
        `tensor<6x16>` updates: `([k, j], [i, l], [i, j])->([k, j])
        {i=6, j=16, k=32, l=1} reduction={i} need_replication={l}`: the update
        batch dim (a reduction unless an explicit batching dim), the window
        dim, the inserted dim and the index vector dim; inputs and results
        share their factors, as do all updates."""
        b = RuleBuilder.for_op(op)
        k = len(op.operands) // 2
        dn = self._numbers(op)

        def add(input_dim, indices_dim, slices_dim, size, kind, blocked) -> None:
            operands = [input_dim] * k + [indices_dim] + [slices_dim] * k
            b.add_factor(operands, [input_dim] * k, size, kind=kind, blocked=blocked)

        _gather_scatter_factors(
            True,
            b.operand_shapes[0],
            b.operand_shapes[k + 1],
            b.operand_shapes[k],
            dn["index_vector_dim"],
            dn["update_window_dims"],
            dn["inserted_window_dims"],
            dn["input_batching_dims"],
            dn["scatter_indices_batching_dims"],
            add,
            _combines_by_reduction(op, k),
        )
        return finish_rule(b)

    def evaluate(self, op: Op, args: list, interp) -> list:
        env = interp.current_env
        k = len(args) // 2
        results = [np.array(a) for a in args[:k]]
        updates = [np.asarray(a) for a in args[k + 1 :]]
        dn = self._numbers(op)
        ivd = dn["index_vector_dim"]
        x_shape = results[0].shape
        rank = len(x_shape)
        window = dn["update_window_dims"]
        u_rank = updates[0].ndim
        scatter_axes = [d for d in range(u_rank) if d not in window]
        # Updates as (scatter dims..., window dims...).
        updates = [np.transpose(u, scatter_axes + list(window)) for u in updates]
        vectors = _index_vectors(args[k], ivd)
        batch = vectors.shape[:-1]
        nb = len(batch)
        window_shape = updates[0].shape[nb:]
        starts = np.zeros((*batch, rank), dtype=np.int64)
        for j, d in enumerate(dn["scatter_dims_to_operand_dims"]):
            starts[..., d] = vectors[..., j]
        for d_in, d_start in zip(
            dn["input_batching_dims"], dn["scatter_indices_batching_dims"], strict=True
        ):
            axis = _batch_axis(d_start, ivd)
            shape = [1] * nb
            shape[axis] = batch[axis]
            starts[..., d_in] += np.arange(batch[axis]).reshape(shape)
        skipped = set(dn["inserted_window_dims"]) | set(dn["input_batching_dims"])
        window_dims = [d for d in range(rank) if d not in skipped]
        full = np.broadcast_to(
            starts.reshape(*batch, *([1] * len(window_shape)), rank),
            (*batch, *window_shape, rank),
        ).copy()
        for j, d in enumerate(window_dims):
            shape = [1] * len(window_shape)
            shape[j] = window_shape[j]
            full[..., d] += np.arange(window_shape[j]).reshape(*([1] * nb), *shape)
        index = full.reshape(-1, rank)
        values = [u.reshape(-1) for u in updates]
        inside = np.all((index >= 0) & (index < np.asarray(x_shape, dtype=np.int64)), axis=1)
        index = index[inside]
        values = [v[inside] for v in values]
        target = tuple(index.T)
        combine = _fast_combination(op.regions[0], results[0].dtype) if k == 1 else None
        if combine == "replace":
            for row in range(len(index)):
                results[0][tuple(index[row])] = values[0][row]
        elif combine is not None:
            combine.at(results[0], target, values[0])
        else:
            region = op.regions[0]
            for row in range(len(index)):
                at = tuple(index[row])
                region_args = [np.asarray(r[at]) for r in results]
                region_args += [np.asarray(v[row]) for v in values]
                outs = interp.run_region(region, region_args, dict(env))
                for r, out in zip(results, outs, strict=True):
                    r[at] = out
        return results


def _fast_combination(region: Region, dtype: np.dtype) -> Any:
    """`"replace"` or a numpy ufunc when the one-input update computation
    is `return %new` or `return op(%old, %new)`; None otherwise."""
    if len(region.blocks) != 1:
        return None
    block = region.entry
    if len(block.arguments) != 2:
        return None
    old, new = block.arguments
    ops = block.ops
    if len(ops) == 1 and ops[0].name.endswith("return") and ops[0].operands == (new,):
        return "replace"
    if len(ops) != 2 or np.dtype(dtype).kind not in "iuf":
        return None
    op, ret = ops
    ufunc = _UFUNCS.get(op.name)
    if ufunc is None or ret.operands != (op.results[0],) or op.regions or op.attributes:
        return None
    if set(op.operands) != {old, new} or len(op.operands) != 2:
        return None
    return ufunc


register("stablehlo.gather", GatherOp())
register("stablehlo.scatter", ScatterOp())
