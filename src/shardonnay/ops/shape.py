"""StableHLO ops that rearrange the elements of a tensor without computing:

    %0 = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.reshape %x : (tensor<8xf32>) -> tensor<2x4xf32>
    %2 = stablehlo.transpose %y, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %3 = stablehlo.concatenate %y, %y, dim = 0
        : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    %4 = stablehlo.reverse %y, dims = [0] : tensor<8x4xf32>
    %5 = stablehlo.pad %y, %zero, low = [1, 0], high = [-2, 0], interior = [1, 0]
        : (tensor<8x4xf32>, tensor<f32>) -> tensor<14x4xf32>
    %6 = stablehlo.get_dimension_size %y, dim = 1 : (tensor<8x4xf32>) -> tensor<i32>

The attributes are those of the generic form (`broadcast_dimensions`,
`permutation`, `dimension`, `dimensions`, `edge_padding_low`, ...); the
pretty syntax is a view of them. Semantics follow the StableHLO spec.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import DenseArrayAttr, IntegerAttr
from shardonnay.ir.core import Op, Value
from shardonnay.ir.types import FunctionType, TensorType, Type
from shardonnay.ops.elementwise import pointwise_rule
from shardonnay.ops.linalg import i64_list
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.traits import (
    COPIES_ELEMENTS,
    EXACT_RULE,
    PASS_THROUGH,
    VERIFIES_ALONE,
    ConservativeRule,
    MovesElements,
    NeedsCommunication,
)
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

# -- helpers shared with `indexing` ---------------------------------------------------------------


def int_array(op: Op, key: str) -> tuple[int, ...]:
    """The integers of the `array<i64: ...>` attribute `key` of `op`."""
    value = op.attributes.get(key)
    if isinstance(value, DenseArrayAttr) and value.element_type == "i64":
        return tuple(int(v) for v in value.values)
    raise IRError(f"{op.name}: needs an array<i64: ...> attribute '{key}'")


def int_attr(op: Op, key: str) -> int:
    """The value of the integer attribute `key` of `op`."""
    value = op.attributes.get(key)
    if isinstance(value, IntegerAttr):
        return value.value
    raise IRError(f"{op.name}: needs an integer attribute '{key}'")


def i64_array(values) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(int(v) for v in values))


def tensor_type(op: Op, value: Value | Type, what: str) -> TensorType:
    t = value.type if isinstance(value, Value) else value
    if not isinstance(t, TensorType):
        raise IRError(f"{op.name}: {what} must be a ranked tensor, not {t}")
    return t


def expect_counts(op: Op, operands: int | None, results: int) -> None:
    if operands is not None and len(op.operands) != operands:
        raise IRError(f"{op.name}: takes {operands} operands, got {len(op.operands)}")
    if len(op.results) != results:
        raise IRError(f"{op.name}: has {results} result(s), got {len(op.results)}")


def check_result(op: Op, expected: TensorType) -> None:
    """Raises unless the op's single result has type `expected`."""
    if op.result_types[0] != expected:
        raise IRError(
            f"{op.name}: result type {op.result_types[0]} differs from {expected}, "
            "which the operands and attributes imply"
        )


def check_dims(op: Op, dims: tuple[int, ...], rank: int, what: str) -> None:
    """Each of `dims` is a distinct axis of a rank-`rank` tensor."""
    for d in dims:
        if not 0 <= d < rank:
            raise IRError(f"{op.name}: {what} {d} is out of range for rank {rank}")
    if len(set(dims)) != len(dims):
        raise IRError(f"{op.name}: {what} {list(dims)} are not unique")


def int_list(p) -> list[int]:
    """`[1, -2, 3]` (possibly empty)."""
    p.expect("[", "'[' starting a list of integers")
    return p.comma_separated("]", p.integer, "an integer")


def keyword_list(p, keyword: str) -> list[int]:
    """`keyword = [1, 2]`."""
    p.expect(keyword, f"'{keyword}'")
    p.expect("=", f"'=' after '{keyword}'")
    return int_list(p)


def finish(p, name: str, operands: list[Value], attrs: dict[str, Any], own: tuple[str, ...]) -> Op:
    """`{attrs} : (operand types) -> result type` after an op's own syntax."""
    ftype = p.signature(operands, attrs)
    return mark_inherent(p.make_op(name, operands, ftype.results, attrs), own)


def read_operand_type(p, operand: Value, attrs: dict[str, Any]) -> Type:
    """`{attrs} : type` after the own syntax of an op written with one type, its
    operand's: adds the attributes to `attrs`, checks and returns the type."""
    attrs.update(p.optional_attr_dict())
    p.expect(":", "':' and the type")
    p.skip_space()
    pos = p.pos
    t = p.type()
    p._check_type(operand, t, pos)
    return t


def write_signature(op: Op, w, own: tuple[str, ...] = ()) -> None:
    """Writes ` {attrs} : (operand types) -> result type` after an op's own
    syntax, what `finish` reads: the attributes but its `own` ones, which its
    syntax shows."""
    w.attr_dict(op, own)
    w.write(" : ")
    w.functional_type(op)


def write_list(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def parse_operand_and_list(p, name: str, keyword: str, key: str) -> Op:
    """`%x, keyword = [1, 2] {attrs} : (operand type) -> result type`, the
    integers under the `array<i64>` attribute `key`: the pretty syntax of
    broadcast_in_dim (`dims`), transpose (`dims`) and broadcast (`sizes`)."""
    operand = p.operand()
    p.expect(",", "',' after the operand")
    attrs = {key: i64_array(keyword_list(p, keyword))}
    return finish(p, name, [operand], attrs, (key,))


def print_operand_and_list(op: Op, w, keyword: str, key: str) -> None:
    """Writes the syntax `parse_operand_and_list` reads."""
    w.write(" ")
    w.operand(op.operands[0])
    w.write(f", {keyword} = {write_list(int_array(op, key))}")
    write_signature(op, w, (key,))


# -- broadcast_in_dim -----------------------------------------------------------------------------


def dimension_moved(op: Op) -> set[int]:
    """The dim along which a concatenate or a sort moves elements: its
    `dimension` attribute (negative counts from the end)."""
    rank = len(op.operands[0].type.shape)
    return {op.attributes["dimension"].value % max(rank, 1)}


def _reversed_dims(op: Op) -> set[int]:
    """The dims a reverse moves elements along: those it reverses."""
    return set(i64_list(op, "dimensions"))


def _padded_dims(op: Op) -> set[int]:
    """The dims a pad moves elements along: those with some padding."""
    sides = zip(
        i64_list(op, "edge_padding_low"),
        i64_list(op, "edge_padding_high"),
        i64_list(op, "interior_padding"),
        strict=True,
    )
    return {d for d, pads in enumerate(sides) if pads != (0, 0, 0)}


class BroadcastInDimOp(OpDef):
    """`stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>`.

    Operand axis `i` becomes result axis `dims[i]`; an operand axis of size 1
    is broadcast to the result's size.
    """

    traits = frozenset({COPIES_ELEMENTS, EXACT_RULE, VERIFIES_ALONE})

    def parse(self, p, name: str) -> Op:
        return parse_operand_and_list(p, name, "dims", "broadcast_dimensions")

    def print(self, op: Op, w) -> None:
        print_operand_and_list(op, w, "dims", "broadcast_dimensions")

    def verify(self, op: Op) -> None:
        expect_counts(op, 1, 1)
        x = tensor_type(op, op.operands[0], "the operand")
        result = tensor_type(op, op.result_types[0], "the result")
        dims = int_array(op, "broadcast_dimensions")
        if len(dims) != x.rank:
            raise IRError(
                f"{op.name}: broadcast_dimensions has {len(dims)} entries for an operand of "
                f"rank {x.rank}"
            )
        check_dims(op, dims, result.rank, "broadcast dimension")
        for i, d in enumerate(dims):
            if x.shape[i] not in (1, result.shape[d]):
                raise IRError(
                    f"{op.name}: operand dimension {i} of size {x.shape[i]} cannot broadcast to "
                    f"result dimension {d} of size {result.shape[d]}"
                )
        if x.element_type != result.element_type:
            raise IRError(f"{op.name}: operand and result element types differ")

    def evaluate(self, op: Op, args: list, interp) -> list:
        x = np.asarray(args[0])
        dims = int_array(op, "broadcast_dimensions")
        shape = op.result_types[0].shape
        order = sorted(range(len(dims)), key=lambda i: dims[i])
        x = np.transpose(x, order)
        expanded = [1] * len(shape)
        for i in order:
            expanded[dims[i]] = args[0].shape[i]
        return [np.broadcast_to(x.reshape(expanded), shape)]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """One factor per result dim, shared with the operand dim mapped there
        unless that one has size 1 and is expanded (it then gets its own
        size-1 factor, added just before). `dims = [2, 0]` on
        `(tensor<1x4xf32>) -> tensor<4x3x5xf32>`::

            ([k, i])->([i, j, l]) {i=4, j=3, k=1, l=5}
        """
        b = RuleBuilder.for_op(op)
        (in_shape,), (out_shape,) = b.operand_shapes, b.result_shapes
        source: dict[int, int] = {
            out_dim: in_dim for in_dim, out_dim in enumerate(int_array(op, "broadcast_dimensions"))
        }
        for out_dim, size in enumerate(out_shape):
            in_dim = source.get(out_dim)
            if in_dim is not None and in_shape[in_dim] == 1 and size != 1:
                b.add_factor([in_dim], [None], 1)
                in_dim = None
            b.add_factor([in_dim], [out_dim], size)
        return b.build()


# -- reshape --------------------------------------------------------------------------------------


class ReshapeOp(OpDef):
    """`stablehlo.reshape %x : (tensor<8xf32>) -> tensor<2x4xf32>` (row-major order)."""

    traits = frozenset({COPIES_ELEMENTS, PASS_THROUGH, EXACT_RULE, VERIFIES_ALONE})

    def parse(self, p, name: str) -> Op:
        return finish(p, name, [p.operand()], {}, ())

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        write_signature(op, w)

    def verify(self, op: Op) -> None:
        expect_counts(op, 1, 1)
        x = tensor_type(op, op.operands[0], "the operand")
        result = tensor_type(op, op.result_types[0], "the result")
        if x.num_elements != result.num_elements:
            raise IRError(
                f"{op.name}: cannot reshape {x} ({x.num_elements} elements) to {result} "
                f"({result.num_elements} elements)"
            )
        if x.element_type != result.element_type:
            raise IRError(f"{op.name}: operand and result element types differ")

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [np.reshape(args[0], op.result_types[0].shape)]

    def sharding_rule(self, op: Op) -> OpShardingRule | None:
        """Factors that split and merge dims: `8 -> 2x4` is `([ij])->([i, j])`,
        `4x6 -> 6x4` is `([ij, ln])->([ik, mn]) {i=2, j=2, k=3, l=3, m=2, n=2}`.
        None when the tensor has no elements."""
        return _reshape_rule(op)


# -- transpose ------------------------------------------------------------------------------------


class TransposeOp(OpDef):
    """`stablehlo.transpose %x, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>`:
    result axis `i` is operand axis `dims[i]`."""

    traits = frozenset({COPIES_ELEMENTS, PASS_THROUGH, EXACT_RULE, VERIFIES_ALONE})

    def parse(self, p, name: str) -> Op:
        return parse_operand_and_list(p, name, "dims", "permutation")

    def print(self, op: Op, w) -> None:
        print_operand_and_list(op, w, "dims", "permutation")

    def infer_types(self, op: Op) -> list[Type] | None:
        x = tensor_type(op, op.operands[0], "the operand")
        perm = int_array(op, "permutation")
        check_dims(op, perm, x.rank, "permutation entry")
        if len(perm) != x.rank:
            raise IRError(f"{op.name}: permutation {list(perm)} does not fit rank {x.rank}")
        return [x.with_shape(tuple(x.shape[d] for d in perm))]

    def verify(self, op: Op) -> None:
        expect_counts(op, 1, 1)
        check_result(op, self.infer_types(op)[0])

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [np.transpose(args[0], int_array(op, "permutation"))]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """A factor per result dim, in result order: `dims = [1, 0]` on
        `tensor<4x6xf32>` is `([j, i])->([i, j]) {i=6, j=4}`."""
        b = RuleBuilder.for_op(op)
        in_shape = b.operand_shapes[0]
        for out_dim, in_dim in enumerate(int_array(op, "permutation")):
            b.add_factor([in_dim], [out_dim], in_shape[in_dim])
        return b.build()


# -- concatenate ----------------------------------------------------------------------------------


def concatenated_dims(op: Op) -> list[tuple[int, ...]]:
    """The concatenated dim of each operand and result of a `stablehlo.concatenate`."""
    dim = int_attr(op, "dimension")
    return [(dim,)] * (len(op.operands) + len(op.results))


class ConcatenateOp(OpDef):
    """`stablehlo.concatenate %a, %b, dim = 0
    : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>`."""

    traits = frozenset(
        {
            COPIES_ELEMENTS,
            EXACT_RULE,
            MovesElements(dimension_moved),
            ConservativeRule(unshared_dims=concatenated_dims),
        }
    )

    def parse(self, p, name: str) -> Op:
        operands = [p.operand()]
        p.expect(",", "',' after an operand")
        while not p.peek("dim"):
            operands.append(p.operand())
            p.expect(",", "',' after an operand")
        p.expect("dim", "'dim'")
        p.expect("=", "'=' after 'dim'")
        attrs = {"dimension": IntegerAttr(p.integer("a dimension"), "i64")}
        return finish(p, name, operands, attrs, ("dimension",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.write(f", dim = {int_attr(op, 'dimension')}")
        write_signature(op, w, ("dimension",))

    def infer_types(self, op: Op) -> list[Type] | None:
        if not op.operands:
            raise IRError(f"{op.name}: needs at least one operand")
        types = [tensor_type(op, v, f"operand {i}") for i, v in enumerate(op.operands)]
        first = types[0]
        dim = int_attr(op, "dimension")
        if not 0 <= dim < first.rank:
            raise IRError(f"{op.name}: dimension {dim} is out of range for rank {first.rank}")
        for i, t in enumerate(types):
            if t.rank != first.rank or t.element_type != first.element_type:
                raise IRError(f"{op.name}: operand {i} has type {t}, incompatible with {first}")
            for d in range(first.rank):
                if d != dim and t.shape[d] != first.shape[d]:
                    raise IRError(
                        f"{op.name}: operand {i} has size {t.shape[d]} in dimension {d}, "
                        f"operand 0 has {first.shape[d]}"
                    )
        shape = list(first.shape)
        shape[dim] = sum(t.shape[dim] for t in types)
        return [first.with_shape(tuple(shape))]

    def verify(self, op: Op) -> None:
        expect_counts(op, None, 1)
        check_result(op, self.infer_types(op)[0])

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [np.concatenate([np.asarray(a) for a in args], axis=int_attr(op, "dimension"))]

    rule_reads_producers = True

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise over the result; the concatenated dim needs replication:
        `([i, j], [i, j])->([i, j]) {i=2, j=8} need_replication={j}`, except
        when the concatenation only reassembles slices of its other operands
        (`_reassembles_slices`), where it is a permutation factor:
        `concatenate(slice(%a), %a)` rotates `%a`'s data between shards."""
        shape = tensor_type(op, op.result_types[0], "the result").shape
        kind = "permutation" if _reassembles_slices(op) else "need_replication"
        return pointwise_rule(op, shape, {int_attr(op, "dimension"): kind})


def _reassembles_slices(op: Op) -> bool:
    """True when some operand of the concatenate `op` is a `stablehlo.slice`
    and every operand that is not one is the source of every slice operand
    (`concat(slice(a), slice(b))`, `concat(slice(a), a)`, not
    `concat(a, slice(b))` nor `concat(a, b)`)."""
    slices = [v.op for v in op.operands if v.op is not None and v.op.name == "stablehlo.slice"]
    others = [v for v in op.operands if v.op is None or v.op.name != "stablehlo.slice"]
    return bool(slices) and all(s.operands[0] is v for v in others for s in slices)


# -- reverse --------------------------------------------------------------------------------------


class ReverseOp(OpDef):
    """`stablehlo.reverse %x, dims = [0] : tensor<8x4xf32>` (one type: operand = result)."""

    traits = frozenset({COPIES_ELEMENTS, EXACT_RULE, MovesElements(_reversed_dims)})

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect(",", "',' after the operand")
        attrs = {"dimensions": i64_array(keyword_list(p, "dims"))}
        attrs.update(p.optional_attr_dict())
        p.expect(":", "':' and the type")
        p.skip_space()
        pos = p.pos
        t = p.type()
        result = t
        if isinstance(t, FunctionType):
            if len(t.inputs) != 1 or len(t.results) != 1:
                raise p.error(f"{name} takes one operand and has one result", pos)
            t, result = t.inputs[0], t.results[0]
        p._check_type(operand, t, pos)
        return mark_inherent(p.make_op(name, [operand], [result], attrs), ("dimensions",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f", dims = {write_list(int_array(op, 'dimensions'))}")
        w.attr_dict(op, ("dimensions",))
        w.write(f" : {op.result_types[0]}")

    def infer_types(self, op: Op) -> list[Type] | None:
        x = tensor_type(op, op.operands[0], "the operand")
        check_dims(op, int_array(op, "dimensions"), x.rank, "dimension")
        return [x]

    def verify(self, op: Op) -> None:
        expect_counts(op, 1, 1)
        check_result(op, self.infer_types(op)[0])

    def evaluate(self, op: Op, args: list, interp) -> list:
        dims = int_array(op, "dimensions")
        return [np.flip(args[0], axis=dims) if dims else args[0]]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise; reversed dims are permutation factors:
        `dims = [1]` on `tensor<4x6xf32>` is `([i, j])->([i, j]) {i=4, j=6} permutation={j}`."""
        shape = tensor_type(op, op.operands[0], "the operand").shape
        return pointwise_rule(op, shape, dict.fromkeys(int_array(op, "dimensions"), "permutation"))


# -- pad ------------------------------------------------------------------------------------------

_PAD_ATTRS = ("edge_padding_low", "edge_padding_high", "interior_padding")


def shifts_without_resizing(op: Op) -> bool:
    """Whether the `stablehlo.pad` `op` has a dim whose padding is not zero but
    leaves its size as it was (low 1 and high -1: a shift by one)."""
    keys = ("edge_padding_low", "edge_padding_high", "interior_padding")
    low, high, interior = (op.attributes[k].values for k in keys)
    before, after = op.operands[0].type.shape, op.results[0].type.shape
    return any(
        b == a and (lo, hi, mid) != (0, 0, 0)
        for b, a, lo, hi, mid in zip(before, after, low, high, interior, strict=True)
    )


class PadOp(OpDef):
    """`stablehlo.pad %x, %v, low = [1], high = [-2], interior = [1]
    : (tensor<8xf32>, tensor<f32>) -> tensor<14xf32>`.

    `interior` elements of value `%v` go between neighbours, `low`/`high`
    before/after each axis; negative edge padding removes elements.
    """

    traits = frozenset(
        {
            COPIES_ELEMENTS,
            EXACT_RULE,
            MovesElements(_padded_dims),
            ConservativeRule(blocks_moving_factors=True),
            NeedsCommunication(
                "a dim whose padding shifts it without changing its size is a pass-through "
                "factor: each shard pads its own edges",
                applies=shifts_without_resizing,
            ),
        }
    )

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect(",", "',' after the operand")
        value = p.operand()
        p.expect(",", "',' after the padding value")
        attrs: dict[str, Any] = {"edge_padding_low": i64_array(keyword_list(p, "low"))}
        p.expect(",", "',' after 'low'")
        attrs["edge_padding_high"] = i64_array(keyword_list(p, "high"))
        p.expect(",", "',' after 'high'")
        attrs["interior_padding"] = i64_array(keyword_list(p, "interior"))
        return finish(p, name, [operand, value], attrs, _PAD_ATTRS)

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        low, high, interior = (int_array(op, k) for k in _PAD_ATTRS)
        w.write(
            f", low = {write_list(low)}, high = {write_list(high)}, "
            f"interior = {write_list(interior)}"
        )
        write_signature(op, w, _PAD_ATTRS)

    def infer_types(self, op: Op) -> list[Type] | None:
        x = tensor_type(op, op.operands[0], "the operand")
        value = tensor_type(op, op.operands[1], "the padding value")
        if value.rank != 0 or value.element_type != x.element_type:
            raise IRError(f"{op.name}: the padding value must be a tensor<{x.element_type}>")
        low, high, interior = (int_array(op, k) for k in _PAD_ATTRS)
        for key, values in zip(_PAD_ATTRS, (low, high, interior), strict=True):
            if len(values) != x.rank:
                raise IRError(
                    f"{op.name}: {key} has {len(values)} entries for an operand of rank {x.rank}"
                )
        shape = []
        for d, n in enumerate(x.shape):
            if interior[d] < 0:
                raise IRError(f"{op.name}: interior padding {interior[d]} is negative")
            size = low[d] + high[d] + n + max(n - 1, 0) * interior[d]
            if size < 0:
                raise IRError(f"{op.name}: dimension {d} would have negative size {size}")
            shape.append(size)
        return [x.with_shape(tuple(shape))]

    def verify(self, op: Op) -> None:
        expect_counts(op, 2, 1)
        check_result(op, self.infer_types(op)[0])

    def evaluate(self, op: Op, args: list, interp) -> list:
        x, value = np.asarray(args[0]), np.asarray(args[1])
        low, high, interior = (int_array(op, k) for k in _PAD_ATTRS)
        # Interior and positive edge padding first, then crop negative edges.
        shape = []
        placed = []
        for d, n in enumerate(x.shape):
            inner = n + max(n - 1, 0) * interior[d]
            lo, hi = max(low[d], 0), max(high[d], 0)
            shape.append(lo + inner + hi)
            placed.append(slice(lo, lo + inner, interior[d] + 1))
        out = np.full(shape, value, dtype=x.dtype)
        out[tuple(placed)] = x
        crop = tuple(slice(-min(low[d], 0), shape[d] + min(high[d], 0)) for d in range(x.ndim))
        return [out[crop]]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise over the operand (the padding value maps to no factor);
        a dim whose size changes is a permutation factor:
        `([i, j], [])->([i, j]) {i=4, j=6} permutation={j}`."""
        x = tensor_type(op, op.operands[0], "the operand").shape
        y = tensor_type(op, op.result_types[0], "the result").shape
        changed = {d: "permutation" for d in range(len(x)) if x[d] != y[d]}
        return pointwise_rule(op, x, changed)


# -- get_dimension_size ---------------------------------------------------------------------------


class GetDimensionSizeOp(OpDef):
    """`stablehlo.get_dimension_size %x, dim = 1 : (tensor<8x4xf32>) -> tensor<i32>`."""

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect(",", "',' after the operand")
        p.expect("dim", "'dim'")
        p.expect("=", "'=' after 'dim'")
        attrs = {"dimension": IntegerAttr(p.integer("a dimension"), "i64")}
        return finish(p, name, [operand], attrs, ("dimension",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f", dim = {int_attr(op, 'dimension')}")
        write_signature(op, w, ("dimension",))

    def infer_types(self, op: Op) -> list[Type] | None:
        x = tensor_type(op, op.operands[0], "the operand")
        dim = int_attr(op, "dimension")
        if not 0 <= dim < x.rank:
            raise IRError(f"{op.name}: dimension {dim} is out of range for rank {x.rank}")
        return [TensorType((), "i32")]

    def verify(self, op: Op) -> None:
        expect_counts(op, 1, 1)
        check_result(op, self.infer_types(op)[0])

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [np.array(np.shape(args[0])[int_attr(op, "dimension")], dtype=np.int32)]


def _reshape_rule(op: Op) -> OpShardingRule | None:
    """Walks operand and result dims together, major to minor, adding
    factors so that both sides stay decomposed into the same sequence where
    possible: while the factors added so far have equal products on both
    sides, the gcd of the next sizes becomes a shared factor (or, if it is 1,
    each side gets its own factor); once they differ, the side behind gets a
    factor that brings the products back together, or else one that keeps the
    gcd for the next step. Size-1 dims get their own size-1 factors."""
    b = RuleBuilder.for_op(op)
    (x,), (y,) = b.operand_shapes, b.result_shapes
    if math.prod(x) == 0:
        return None
    in_dim = out_dim = 0
    in_dims_product = out_dims_product = 1  # sizes of the dims reached so far
    in_factors = out_factors = 1  # sizes of the factors added so far

    def converging(next_factor: int, behind: int, ahead: int, gcd: int) -> int:
        if ahead % behind == 0 and next_factor % (ahead // behind) == 0:
            return ahead // behind
        if next_factor > gcd:
            return next_factor // gcd
        return next_factor

    while in_dim < len(x) or out_dim < len(y):
        if in_dim < len(x) and x[in_dim] == 1:
            b.add_factor([in_dim], [None], 1)
            in_dim += 1
            continue
        if out_dim < len(y) and y[out_dim] == 1:
            b.add_factor([None], [out_dim], 1)
            out_dim += 1
            continue
        if in_dim < len(x) and in_dims_product == in_factors:
            in_dims_product *= x[in_dim]
        if out_dim < len(y) and out_dims_product == out_factors:
            out_dims_product *= y[out_dim]
        next_in = in_dims_product // in_factors
        next_out = out_dims_product // out_factors
        gcd = math.gcd(next_in, next_out)
        if in_factors == out_factors:
            if gcd > 1:
                b.add_factor([in_dim], [out_dim], gcd)
                in_factors *= gcd
                out_factors *= gcd
            else:
                b.add_factor([in_dim], [None], next_in)
                in_factors *= next_in
                b.add_factor([None], [out_dim], next_out)
                out_factors *= next_out
        elif in_factors < out_factors:
            factor = converging(next_in, in_factors, out_factors, gcd)
            b.add_factor([in_dim], [None], factor)
            in_factors *= factor
        else:
            factor = converging(next_out, out_factors, in_factors, gcd)
            b.add_factor([None], [out_dim], factor)
            out_factors *= factor
        if in_dim < len(x) and in_dims_product == in_factors:
            in_dim += 1
        if out_dim < len(y) and out_dims_product == out_factors:
            out_dim += 1
    return b.build()


register("stablehlo.broadcast_in_dim", BroadcastInDimOp())
register("stablehlo.reshape", ReshapeOp())
register("stablehlo.transpose", TransposeOp())
register("stablehlo.concatenate", ConcatenateOp())
register("stablehlo.reverse", ReverseOp())
register("stablehlo.pad", PadOp())
register("stablehlo.get_dimension_size", GetDimensionSizeOp())
