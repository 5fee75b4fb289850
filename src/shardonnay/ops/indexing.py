"""StableHLO ops that read or write parts of a tensor at given offsets:

    %0 = stablehlo.slice %x [0:4, 2:8:2] : (tensor<8x16xf32>) -> tensor<4x3xf32>
    %1 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2]
        : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
    %2 = stablehlo.dynamic_update_slice %x, %u, %i, %j
        : (tensor<8x16xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>

Semantics follow the StableHLO spec: dynamic start indices are clamped into
the operand. (`stablehlo.gather` and `stablehlo.scatter` are in `gather_scatter`.)
"""

from __future__ import annotations

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.core import Op
from shardonnay.ir.types import Type
from shardonnay.ops.linalg import add_dim_factor, finish_rule, i64_list
from shardonnay.ops.registry import OpDef, register
from shardonnay.ops.shape import (
    check_result,
    expect_counts,
    finish,
    i64_array,
    int_array,
    keyword_list,
    tensor_type,
    write_list,
    write_signature,
)
from shardonnay.ops.traits import (
    COPIES_ELEMENTS,
    DYNAMIC_SLICING,
    EXACT_RULE,
    ConservativeRule,
    MovesElements,
    NeedsCommunication,
)
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

# -- slice ----------------------------------------------------------------------------------------

_SLICE_ATTRS = ("start_indices", "limit_indices", "strides")


def _sliced_dims(op: Op) -> set[int]:
    """The dims a slice moves elements along: those it does not take whole."""
    shape = op.operands[0].type.shape
    bounds = zip(
        i64_list(op, "start_indices"),
        i64_list(op, "limit_indices"),
        i64_list(op, "strides", (1,) * len(shape)),
        strict=True,
    )
    return {d for d, b in enumerate(bounds) if b != (0, shape[d], 1)}


def _dynamically_sliced_dims(op: Op) -> set[int]:
    """The dims a dynamic_slice moves elements along: those it does not take whole."""
    shape = op.operands[0].type.shape
    return {d for d, n in enumerate(i64_list(op, "slice_sizes")) if n != shape[d]}


def _updated_dims(op: Op) -> set[int]:
    """The dims a dynamic_update_slice moves elements along: those its update
    does not cover whole."""
    shape, update = op.operands[0].type.shape, op.operands[1].type.shape
    return {d for d in range(len(shape)) if update[d] != shape[d]}


class SliceOp(OpDef):
    """`stablehlo.slice %x [0:4, 2:8:2] : (tensor<8x16xf32>) -> tensor<4x3xf32>`:
    `start:limit:stride` per axis, the stride printed only when not 1."""

    traits = frozenset(
        {
            COPIES_ELEMENTS,
            EXACT_RULE,
            MovesElements(_sliced_dims),
            ConservativeRule(blocks_moving_factors=True),
        }
    )

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect("[", "'[' starting the slice ranges")
        starts: list[int] = []
        limits: list[int] = []
        strides: list[int] = []

        def item() -> None:
            starts.append(p.integer("a start index"))
            p.expect(":", "':' after the start index")
            limits.append(p.integer("a limit index"))
            strides.append(p.integer("a stride") if p.accept(":") else 1)

        p.comma_separated("]", item, "a range start:limit[:stride]")
        attrs = {
            "start_indices": i64_array(starts),
            "limit_indices": i64_array(limits),
            "strides": i64_array(strides),
        }
        return finish(p, name, [operand], attrs, _SLICE_ATTRS)

    def print(self, op: Op, w) -> None:
        starts, limits, strides = (int_array(op, k) for k in _SLICE_ATTRS)
        ranges = ", ".join(
            f"{a}:{b}" + (f":{s}" if s != 1 else "")
            for a, b, s in zip(starts, limits, strides, strict=True)
        )
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f" [{ranges}]")
        write_signature(op, w, _SLICE_ATTRS)

    def infer_types(self, op: Op) -> list[Type] | None:
        x = tensor_type(op, op.operands[0], "the operand")
        starts, limits, strides = (int_array(op, k) for k in _SLICE_ATTRS)
        if not len(starts) == len(limits) == len(strides) == x.rank:
            raise IRError(
                f"{op.name}: start_indices, limit_indices and strides need {x.rank} entries "
                f"each, got {len(starts)}, {len(limits)}, {len(strides)}"
            )
        shape = []
        for d, (a, b, s) in enumerate(zip(starts, limits, strides, strict=True)):
            if not 0 <= a <= b <= x.shape[d]:
                raise IRError(
                    f"{op.name}: range {a}:{b} of dimension {d} does not fit its size {x.shape[d]}"
                )
            if s <= 0:
                raise IRError(f"{op.name}: stride {s} of dimension {d} is not positive")
            shape.append(-(-(b - a) // s))
        return [x.with_shape(tuple(shape))]

    def verify(self, op: Op) -> None:
        expect_counts(op, 1, 1)
        check_result(op, self.infer_types(op)[0])

    def evaluate(self, op: Op, args: list, interp) -> list:
        starts, limits, strides = (int_array(op, k) for k in _SLICE_ATTRS)
        index = tuple(slice(a, b, s) for a, b, s in zip(starts, limits, strides, strict=True))
        return [np.asarray(args[0])[index]]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """A factor per dim, sized like the operand dim; a permutation factor
        where the slice changes the size: `([i, j])->([i, j]) {i=8, j=32}
        permutation={i}`."""
        return _pointwise_with_mismatch(op, "permutation", blocked=False)


# -- dynamic_slice / dynamic_update_slice ---------------------------------------------------------


def _pointwise_with_mismatch(op: Op, kind: str, *, blocked: bool) -> OpShardingRule:
    """A factor per dim of the operand and the result, sized like the operand
    dim; of `kind` (and `blocked`) where the result dim differs."""
    b = RuleBuilder.for_op(op)
    for d, (size, out) in enumerate(zip(b.operand_shapes[0], b.result_shapes[0], strict=True)):
        if size == out:
            add_dim_factor(b, d, size)
        else:
            add_dim_factor(b, d, size, kind, blocked=blocked)
    return finish_rule(b)


def _check_start_indices(op: Op, first: int, rank: int) -> None:
    indices = op.operands[first:]
    if len(indices) != rank:
        raise IRError(f"{op.name}: needs {rank} start indices, got {len(indices)}")
    element_type = None
    for i, v in enumerate(indices):
        t = tensor_type(op, v, f"start index {i}")
        if t.rank != 0 or not is_index_type(t.element_type):
            raise IRError(f"{op.name}: start index {i} must be a 0-d integer tensor, not {t}")
        if element_type not in (None, t.element_type):
            raise IRError(f"{op.name}: the start indices have different types")
        element_type = t.element_type


def is_index_type(element_type: str) -> bool:
    return element_type.startswith(("i", "si", "ui")) and element_type != "i1"


def _clamped_starts(args: list, shape: tuple[int, ...], sizes: tuple[int, ...]) -> list[int]:
    """Start indices clamped so the window of `sizes` stays inside `shape`."""
    return [
        int(np.clip(int(np.asarray(a)), 0, n - k))
        for a, n, k in zip(args, shape, sizes, strict=True)
    ]


class DynamicSliceOp(OpDef):
    """`stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2]
    : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>`."""

    traits = frozenset({DYNAMIC_SLICING, EXACT_RULE, MovesElements(_dynamically_sliced_dims)})

    def parse(self, p, name: str) -> Op:
        operands = [p.operand()]
        p.expect(",", "',' after the operand")
        if p.accept(","):  # no start indices (rank 0): MLIR prints `%x, , sizes = []`
            pass
        else:
            while not p.peek("sizes"):
                operands.append(p.operand())
                p.expect(",", "',' after a start index")
        attrs = {"slice_sizes": i64_array(keyword_list(p, "sizes"))}
        return finish(p, name, operands, attrs, ("slice_sizes",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(", ")
        w.operands(op.operands[1:])
        w.write(f", sizes = {write_list(int_array(op, 'slice_sizes'))}")
        write_signature(op, w, ("slice_sizes",))

    def infer_types(self, op: Op) -> list[Type] | None:
        x = tensor_type(op, op.operands[0], "the operand")
        sizes = int_array(op, "slice_sizes")
        if len(sizes) != x.rank:
            raise IRError(f"{op.name}: slice_sizes has {len(sizes)} entries for rank {x.rank}")
        for d, (k, n) in enumerate(zip(sizes, x.shape, strict=True)):
            if not 0 <= k <= n:
                raise IRError(f"{op.name}: slice size {k} of dimension {d} exceeds its size {n}")
        _check_start_indices(op, 1, x.rank)
        return [x.with_shape(sizes)]

    def verify(self, op: Op) -> None:
        expect_counts(op, None, 1)
        check_result(op, self.infer_types(op)[0])

    def evaluate(self, op: Op, args: list, interp) -> list:
        x = np.asarray(args[0])
        sizes = int_array(op, "slice_sizes")
        starts = _clamped_starts(args[1:], x.shape, sizes)
        return [x[tuple(slice(s, s + k) for s, k in zip(starts, sizes, strict=True))]]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """A factor per dim of operand and result (not the scalar start
        indices), sized like the operand dim; a sliced dim needs replication
        and never propagates: `([i, j], [], [])->([i, j]) {i=8, j=4}
        need_replication={j} blocked_propagation={j}`."""
        return _pointwise_with_mismatch(op, "need_replication", blocked=True)


class DynamicUpdateSliceOp(OpDef):
    """`stablehlo.dynamic_update_slice %x, %u, %i, %j
    : (tensor<8x16xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>`."""

    traits = frozenset(
        {
            DYNAMIC_SLICING,
            EXACT_RULE,
            MovesElements(_updated_dims),
            NeedsCommunication(
                "its updated dims are pass-through factors: each shard applies the update at "
                "its global offset"
            ),
        }
    )

    def parse(self, p, name: str) -> Op:
        operands = [p.operand()]
        while p.accept(","):
            operands.append(p.operand())
        return finish(p, name, operands, {}, ())

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        write_signature(op, w)

    def infer_types(self, op: Op) -> list[Type] | None:
        if len(op.operands) < 2:
            raise IRError(f"{op.name}: needs an operand and an update")
        x = tensor_type(op, op.operands[0], "the operand")
        update = tensor_type(op, op.operands[1], "the update")
        if update.rank != x.rank or update.element_type != x.element_type:
            raise IRError(f"{op.name}: update {update} does not fit operand {x}")
        for d, (k, n) in enumerate(zip(update.shape, x.shape, strict=True)):
            if k > n:
                raise IRError(f"{op.name}: update size {k} of dimension {d} exceeds {n}")
        _check_start_indices(op, 2, x.rank)
        return [x]

    def verify(self, op: Op) -> None:
        expect_counts(op, None, 1)
        check_result(op, self.infer_types(op)[0])

    def evaluate(self, op: Op, args: list, interp) -> list:
        x, update = np.array(args[0]), np.asarray(args[1])
        starts = _clamped_starts(args[2:], x.shape, update.shape)
        x[tuple(slice(s, s + k) for s, k in zip(starts, update.shape, strict=True))] = update
        return [x]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """A factor per dim where operand and update agree; where the update is
        smaller, one factor for operand and result and another, needing
        replication, for the update: `([i, j], [i, k], [], [])->([i, j])
        {i=8, j=16, k=2} need_replication={k}`."""
        b = RuleBuilder.for_op(op)
        n = len(op.operands)
        operand, update = b.operand_shapes[0], b.operand_shapes[1]
        for d, (size, update_size) in enumerate(zip(operand, update, strict=True)):
            if size == update_size:
                add_dim_factor(b, d, size)
            else:
                b.add_factor([d] + [None] * (n - 1), [d], size)
                b.add_factor(
                    [None, d] + [None] * (n - 2), [None], update_size, kind="need_replication"
                )
        return finish_rule(b)


register("stablehlo.slice", SliceOp())
register("stablehlo.dynamic_slice", DynamicSliceOp())
register("stablehlo.dynamic_update_slice", DynamicUpdateSliceOp())
