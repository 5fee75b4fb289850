"""Reductions and sorting: `stablehlo.reduce`, `reduce_window`, `select_and_scatter`,
`sort` and `reduce_precision`.

    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1]
        : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1]
        : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<f32>, tensor<i32>)
        -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      ...
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    %2 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<3x4xf32>

`reduce_window`, `select_and_scatter` and `sort` print in the generic form.

Bodies are elementwise over scalars, so they run on whole arrays at once: a
reduction combines halves of the reduced values (a balanced tree, the same
for every body), and a body that is one known binary op (`add`, `maximum`,
...) runs as its numpy ufunc on that same tree, so both give identical
results. A body whose ops do not broadcast falls back to one call per element.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import DenseArrayAttr, IntegerAttr
from shardonnay.ir.core import Block, Op, Region
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.linalg import (
    add_dim_factor,
    finish_rule,
    i64_list,
    int_list_str,
    padding_pairs,
    tensor_type,
)
from shardonnay.ops.registry import OpDef, lookup, mark_inherent, register
from shardonnay.ops.shape import dimension_moved, write_signature
from shardonnay.ops.traits import EXACT_RULE, ConservativeRule, MovesElements
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder


def reduction_of(region: Region) -> str | None:
    """The op name of a body `return op(%a, %b)`, or None for other bodies."""
    block = region.entry
    ops = block.ops
    if (
        len(ops) == 2
        and len(block.arguments) == 2
        and set(ops[0].operands) == set(block.arguments)
        and ops[1].operands == (ops[0].results[0],)
    ):
        return ops[0].name
    return None


# -- running bodies on arrays ------------------------------------------------------------------

_BINARY_UFUNCS: dict[str, tuple[Any, Any]] = {
    # op name: (ufunc for numbers, ufunc for booleans)
    "stablehlo.add": (np.add, np.logical_or),
    "stablehlo.multiply": (np.multiply, np.logical_and),
    "stablehlo.maximum": (np.maximum, np.logical_or),
    "stablehlo.minimum": (np.minimum, np.logical_and),
    "stablehlo.and": (np.bitwise_and, np.logical_and),
    "stablehlo.or": (np.bitwise_or, np.logical_or),
    "stablehlo.xor": (np.bitwise_xor, np.logical_xor),
}
# Commutative binary ops printed by the compact `applies` form of reduce.
_COMPACT_OPS = frozenset(_BINARY_UFUNCS)


def _known_binary(region: Region) -> Callable | None:
    """The ufunc of a body `return op(%a, %b)` on its two scalar arguments."""
    if len(region.blocks) != 1:
        return None
    block = region.entry
    if len(block.arguments) != 2 or len(block.ops) != 2:
        return None
    inner, ret = block.ops
    if inner.name not in _BINARY_UFUNCS or ret.name != "stablehlo.return":
        return None
    if set(inner.operands) != set(block.arguments) or len(inner.operands) != 2:
        return None
    if list(ret.operands) != inner.results or inner.regions:
        return None
    t = inner.result_types[0]
    if not isinstance(t, TensorType) or any(a.type != t for a in block.arguments):
        return None
    numbers, booleans = _BINARY_UFUNCS[inner.name]
    dtype = t.dtype
    if inner.name in ("stablehlo.and", "stablehlo.or", "stablehlo.xor") and dtype.kind == "f":
        return None
    return booleans if dtype == np.bool_ else numbers


class RegionRunner:
    """Calls a body region on arrays, elementwise (see the module docstring)."""

    def __init__(self, op: Op, region: Region, interp: Any):
        self.op = op
        self.region = region
        self.interp = interp
        self.env = dict(interp.current_env)
        block = region.entry
        self.arg_dtypes = [_dtype_of(a.type) for a in block.arguments]
        self.ufunc = _known_binary(region)
        self._vectorized = True

    def __call__(self, *args: np.ndarray) -> list[np.ndarray]:
        """The body's results on `args` (arrays of one shape, or scalars)."""
        args = [np.asarray(a, dtype=d) for a, d in zip(args, self.arg_dtypes, strict=True)]
        if self.ufunc is not None:
            return [np.asarray(self.ufunc(args[0], args[1]), dtype=self.arg_dtypes[0])]
        shape = np.broadcast_shapes(*(a.shape for a in args))
        args = [np.broadcast_to(a, shape) for a in args]
        if self._vectorized and shape != ():
            try:
                return self._run_block(args, shape)
            except Exception:  # a body op that does not broadcast: go element by element
                self._vectorized = False
        return self._per_element(args, shape)

    def _run_block(self, args: list[np.ndarray], shape: tuple[int, ...]) -> list[np.ndarray]:
        block = self.region.entry
        if len(self.region.blocks) != 1:
            raise IRError(f"{self.op.name}: only single-block bodies can run")
        env = dict(self.env)
        for value, arg in zip(block.arguments, args, strict=True):
            env[value] = arg
        for inner in block.ops[:-1]:
            if inner.regions:
                raise IRError("nested regions run element by element")
            self.interp.current_env = env
            results = lookup(inner.name).evaluate(
                inner, [env[v] for v in inner.operands], self.interp
            )
            for value, result in zip(inner.results, results, strict=True):
                array = np.asarray(result)
                if array.shape not in (shape, ()):
                    raise IRError("not elementwise")
                env[value] = array.astype(_dtype_of(value.type), copy=False)
        out = [np.broadcast_to(env[v], shape) for v in block.ops[-1].operands]
        self.interp.current_env = self.env
        return out

    def _per_element(self, args: list[np.ndarray], shape: tuple[int, ...]) -> list[np.ndarray]:
        results: list[np.ndarray] | None = None
        for index in np.ndindex(*shape):
            values = self.interp.run_region(self.region, [a[index] for a in args], dict(self.env))
            if results is None:
                results = [np.empty(shape, np.asarray(v).dtype) for v in values]
            for r, v in zip(results, values, strict=True):
                r[index] = v
        if results is None:  # no elements: the result types give the dtypes
            ret = self.region.entry.ops[-1]
            results = [np.empty(shape, _dtype_of(v.type)) for v in ret.operands]
        return results


def _dtype_of(t: Type) -> np.dtype:
    return t.dtype if isinstance(t, TensorType) else np.dtype(np.bool_)


def tree_reduce(
    body: RegionRunner, values: Sequence[np.ndarray], inits: Sequence[np.ndarray]
) -> list[np.ndarray]:
    """Reduces `values` (arrays, reduced along their last axis) with `body`,
    combining halves, then with the init values: `body(*inits, *reduced)`."""
    values = list(values)
    n = values[0].shape[-1]
    k = len(values)
    if n == 0:
        shape = values[0].shape[:-1]
        return [np.broadcast_to(np.asarray(i), shape).copy() for i in inits]
    while n > 1:
        h = n // 2
        combined = body(*(v[..., :h] for v in values), *(v[..., h : 2 * h] for v in values))
        if n % 2:
            combined = [
                np.concatenate([c, v[..., 2 * h :]], axis=-1)
                for c, v in zip(combined, values, strict=True)
            ]
        values = list(combined)
        n = values[0].shape[-1]
    reduced = [v[..., 0] for v in values]
    shape = reduced[0].shape
    inits = [np.broadcast_to(np.asarray(i), shape) for i in inits]
    return [np.asarray(r) for r in body(*inits, *reduced)][:k]


# -- reduce ------------------------------------------------------------------------------------


class ReduceOp(OpDef):
    """`stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : ...`
    or the full form with a `reducer(...) (...) { ... }` region."""

    traits = frozenset({EXACT_RULE})

    def parse(self, p, name: str) -> Op:
        inputs, inits = [], []
        while True:
            p.expect("(", "'(' before a reduced operand")
            inputs.append(p.operand())
            p.expect("init", "'init'")
            p.expect(":")
            inits.append(p.operand())
            p.expect(")")
            if not p.accept(","):
                break
        operands = inputs + inits
        applies = None
        if p.accept("applies"):
            applies = p.match(_OP_NAME_RE, "the name of the reducing op")
            if applies not in _COMPACT_OPS:
                raise p.error(f"{applies} is not a commutative binary op of stablehlo")
        p.expect("across", "'across'")
        p.expect("dimensions", "'dimensions'")
        p.expect("=")
        p.expect("[")
        dims = p.comma_separated("]", p.integer, "a dimension")
        attrs: dict[str, Any] = dict(p.optional_attr_dict())
        attrs["dimensions"] = DenseArrayAttr("i64", tuple(dims))
        p.expect(":", "':' and the op's function type")
        p.skip_space()
        pos = p.pos
        ftype = p.functional_type()
        if len(ftype.inputs) != len(operands):
            raise p.error(f"{len(operands)} operands but {len(ftype.inputs)} types", pos)
        for v, t in zip(operands, ftype.inputs, strict=True):
            p._check_type(v, t, pos)
        if applies is not None:
            region = _binary_body(applies, ftype.inputs[0])
        else:
            p.expect("reducer", "'reducer'")
            lhs_args, rhs_args = [], []
            while p.accept("("):
                lhs_args.append(_block_arg(p))
                p.expect(",")
                rhs_args.append(_block_arg(p))
                p.expect(")")
            region = p.region(lhs_args + rhs_args)
        op = p.make_op(name, operands, ftype.results, attrs, [region])
        return mark_inherent(op, ("dimensions",))

    def print(self, op: Op, w) -> None:
        n = len(op.operands) // 2
        w.write(
            ", ".join(
                f"({w.name(op.operands[i])} init: {w.name(op.operands[i + n])})" for i in range(n)
            )
        )
        compact = _compact_name(op)
        if compact is not None:
            w.write(f" applies {compact}")
        w.write(f" across dimensions = {int_list_str(i64_list(op, 'dimensions'))}")
        write_signature(op, w, ("dimensions",))
        if compact is None:
            w.write("\n" + "  " * w.indent + " reducer")
            args = op.regions[0].entry.arguments
            for i in range(n):
                a, b = args[i], args[i + n]
                w.write(f"({w.name(a)}: {a.type}, {w.name(b)}: {b.type}) ")
            w.write(" ")
            w.region(op.regions[0], print_entry_args=False)

    def infer_types(self, op: Op) -> list[Type] | None:
        n = len(op.operands) // 2
        dims = set(i64_list(op, "dimensions"))
        types = []
        body_types = _body_result_types(op)
        for i in range(n):
            t = tensor_type(op, op.operands[i].type, f"operand {i}")
            shape = tuple(s for d, s in enumerate(t.shape) if d not in dims)
            element = body_types[i].element_type if body_types else t.element_type
            types.append(TensorType(shape, element))
        return types

    def verify(self, op: Op) -> None:
        n = len(op.operands) // 2
        if not n or len(op.operands) % 2 or len(op.results) != n:
            raise IRError(f"{op.name}: needs pairs of inputs and init values, one result each")
        dims = i64_list(op, "dimensions")
        rank = tensor_type(op, op.operands[0].type, "operand 0").rank
        if len(set(dims)) != len(dims) or any(not 0 <= d < rank for d in dims):
            raise IRError(f"{op.name}: dimensions {list(dims)} repeated or out of range")
        shapes = {tensor_type(op, v.type, "an input").shape for v in op.operands[:n]}
        if len(shapes) != 1:
            raise IRError(f"{op.name}: the inputs have different shapes")
        _verify_body(op, 0, 2 * n, n)

    def evaluate(self, op: Op, args: list, interp) -> list:
        n = len(args) // 2
        dims = i64_list(op, "dimensions")
        body = RegionRunner(op, op.regions[0], interp)
        inputs = [np.asarray(a) for a in args[:n]]
        kept = [d for d in range(inputs[0].ndim) if d not in dims]
        # the reduced dims flattened into one last dim (its size given, not -1:
        # numpy cannot infer it when a kept dim is empty)
        moved = [
            a.transpose(kept + list(dims)).reshape(
                [a.shape[d] for d in kept] + [math.prod(a.shape[d] for d in dims)]
            )
            for a in inputs
        ]
        return tree_reduce(body, moved, args[n:])

    rule_reads_regions = False  # (the rule is the same whatever the body computes)

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """A factor per input dim, shared by all inputs (not the init values):
        a reduction factor for a reduced dim, else a pass-through factor with
        the matching dim of every result: `([i, j], [])->([j]) {i=8, j=32}
        reduction={i}`."""
        n = len(op.operands) // 2
        b = RuleBuilder.for_op(op)
        dims = i64_list(op, "dimensions")
        out = 0
        for d, size in enumerate(b.operand_shapes[0]):
            operands = [d] * n + [None] * n
            if d in dims:
                b.add_factor(operands, [None] * n, size, kind="reduction")
            else:
                b.add_factor(operands, [out] * n, size)
                out += 1
        return finish_rule(b)


_OP_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z0-9_$]+)+")


def _block_arg(p) -> tuple[str, Type]:
    p.skip_space()
    name = p.match(_ARG_RE, "a block argument like %arg1")[1:]
    p.expect(":")
    t = p.type()
    p._optional_location()
    return name, t


_ARG_RE = re.compile(r"%[A-Za-z0-9_$.\-]+")


def _binary_body(name: str, input_type: Type) -> Region:
    """The region the compact form stands for: `return op(%a, %b)` on scalars."""
    if not isinstance(input_type, TensorType):
        raise IRError(f"stablehlo.reduce of a non-tensor {input_type}")
    scalar = TensorType((), input_type.element_type)
    block = Block([scalar, scalar])
    inner = block.append(Op(name, block.arguments, [scalar]))
    block.append(Op("stablehlo.return", inner.results))
    return Region([block])


def _compact_name(op: Op) -> str | None:
    """The inner op's name when MLIR prints this reduce in the compact form."""
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1 or not op.operands:
        return None
    block = op.regions[0].entry
    if len(block.ops) != 2:
        return None
    inner, ret = block.ops
    if inner.name not in _COMPACT_OPS or inner.regions or len(inner.results) != 1:
        return None
    types = {v.type for v in inner.operands} | {inner.result_types[0]}
    if len(inner.operands) != 2 or len(types) != 1:
        return None
    first = op.operands[0].type
    if not isinstance(first, TensorType) or inner.operands[0].type != TensorType(
        (), first.element_type
    ):
        return None
    if list(block.arguments) != list(inner.operands):
        return None
    if ret.name.rsplit(".", 1)[-1] != "return" or list(ret.operands) != inner.results:
        return None
    return inner.name


def _body_result_types(op: Op) -> list[TensorType] | None:
    if not op.regions or not op.regions[0].blocks or not op.regions[0].entry.ops:
        return None
    ret = op.regions[0].entry.ops[-1]
    types = [v.type for v in ret.operands]
    return types if all(isinstance(t, TensorType) for t in types) else None


def _verify_body(op: Op, index: int, num_args: int, num_results: int) -> None:
    region = op.regions[index] if len(op.regions) > index else None
    if region is None or len(region.blocks) != 1:
        raise IRError(f"{op.name}: region {index} must have one block")
    block = region.entry
    if len(block.arguments) != num_args:
        raise IRError(
            f"{op.name}: region {index} takes {len(block.arguments)} arguments, expected {num_args}"
        )
    if any(not isinstance(a.type, TensorType) or a.type.shape for a in block.arguments):
        raise IRError(f"{op.name}: region {index} arguments must be 0-d tensors")
    if not block.ops or len(block.ops[-1].operands) != num_results:
        raise IRError(f"{op.name}: region {index} must return {num_results} values")


# -- reduce_window ---------------------------------------------------------------------------


def _windows(
    array: np.ndarray,
    pad_value: Any,
    window: Sequence[int],
    strides: Sequence[int],
    base_dilations: Sequence[int],
    window_dilations: Sequence[int],
    padding: Sequence[tuple[int, int]],
) -> tuple[np.ndarray, np.ndarray]:
    """The windows of `array` stacked on a last axis (row-major window order),
    and a mask of the elements that come from `array` (not padding or holes)."""
    rank = array.ndim
    dilated_shape = [
        (s - 1) * d + 1 if s else 0 for s, d in zip(array.shape, base_dilations, strict=True)
    ]
    base = np.full(dilated_shape, pad_value, dtype=array.dtype)
    real = np.zeros(dilated_shape, dtype=bool)
    holes = tuple(slice(None, None, d) for d in base_dilations)
    base[holes] = array
    real[holes] = True
    pads = [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    base = np.pad(base, pads, constant_values=pad_value)
    real = np.pad(real, pads, constant_values=False)
    crop = tuple(
        slice(-min(lo, 0), base.shape[i] + min(hi, 0)) for i, (lo, hi) in enumerate(padding)
    )
    base, real = base[crop], real[crop]
    out_shape = []
    for i in range(rank):
        span = (window[i] - 1) * window_dilations[i] + 1
        size = base.shape[i]
        out_shape.append(0 if size < span or window[i] == 0 else (size - span) // strides[i] + 1)
    values, masks = [], []
    for offset in np.ndindex(*window):
        index = []
        for i, o in enumerate(offset):
            start = o * window_dilations[i]
            stop = start + (out_shape[i] - 1) * strides[i] + 1 if out_shape[i] else start
            index.append(slice(start, stop, strides[i]))
        values.append(base[tuple(index)])
        masks.append(real[tuple(index)])
    if not values:
        empty = np.empty((*out_shape, 0), array.dtype)
        return empty, empty.astype(bool)
    return np.stack(values, axis=-1), np.stack(masks, axis=-1)


def _moved_by_windows(op: Op) -> set[int]:
    """The dims a reduce_window or select_and_scatter moves elements along:
    those its windows, strides, dilations or padding do not leave alone."""
    rank = len(op.operands[0].type.shape)
    window = i64_list(op, "window_dimensions")
    strides = i64_list(op, "window_strides", (1,) * rank)
    base = i64_list(op, "base_dilations", (1,) * rank)
    dilations = i64_list(op, "window_dilations", (1,) * rank)
    padding = padding_pairs(op, rank)
    return {
        d
        for d in range(rank)
        if (window[d], strides[d], base[d], dilations[d], tuple(padding[d])) != (1, 1, 1, 1, (0, 0))
    }


class ReduceWindowOp(OpDef):
    """`"stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 2, 2>,
    window_strides = ..., base_dilations = ..., window_dilations = ..., padding =
    dense<...> : tensor<Nx2xi64>}> ({ body }) : (...) -> ...` (generic form only)."""

    traits = frozenset(
        {EXACT_RULE, MovesElements(_moved_by_windows), ConservativeRule(blocks_moving_factors=True)}
    )

    def _window(self, op: Op, rank: int) -> tuple:
        ones = (1,) * rank
        window = i64_list(op, "window_dimensions")
        strides = i64_list(op, "window_strides", ones)
        base = i64_list(op, "base_dilations", ones)
        dil = i64_list(op, "window_dilations", ones)
        for key, values in (
            ("window_dimensions", window),
            ("window_strides", strides),
            ("base_dilations", base),
            ("window_dilations", dil),
        ):
            if len(values) != rank or any(v < 1 for v in values):
                raise IRError(f"{op.name}: {key} must be {rank} positive integers: {list(values)}")
        return window, strides, base, dil, padding_pairs(op, rank)

    def infer_types(self, op: Op) -> list[Type] | None:
        n = len(op.operands) // 2
        t = tensor_type(op, op.operands[0].type, "operand 0")
        window, strides, base, dil, padding = self._window(op, t.rank)
        shape = []
        for i in range(t.rank):
            size = (t.shape[i] - 1) * base[i] + 1 if t.shape[i] else 0
            size += padding[i][0] + padding[i][1]
            span = (window[i] - 1) * dil[i] + 1
            shape.append(0 if size < span else (size - span) // strides[i] + 1)
        body_types = _body_result_types(op)
        return [
            TensorType(
                tuple(shape),
                body_types[i].element_type if body_types else op.operands[i].type.element_type,
            )
            for i in range(n)
        ]

    def verify(self, op: Op) -> None:
        n = len(op.operands) // 2
        if not n or len(op.operands) % 2 or len(op.results) != n:
            raise IRError(f"{op.name}: needs pairs of inputs and init values, one result each")
        _verify_body(op, 0, 2 * n, n)

    def evaluate(self, op: Op, args: list, interp) -> list:
        n = len(args) // 2
        inputs = [np.asarray(a) for a in args[:n]]
        window, strides, base, dil, padding = self._window(op, inputs[0].ndim)
        body = RegionRunner(op, op.regions[0], interp)
        stacked = [
            _windows(a, np.asarray(init).reshape(()), window, strides, base, dil, padding)[0]
            for a, init in zip(inputs, args[n:], strict=True)
        ]
        return tree_reduce(body, stacked, args[n:])

    rule_reads_regions = False  # (the rule is the same whatever the body computes)

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """A factor per dim of every input and result, sized like the result
        dim (the number of windows); a permutation factor where the window
        moves data across the dim (a window size or stride above 1, or
        padding): `([i, j], [])->([i, j]) {i=4, j=16} permutation={i}`."""
        b = RuleBuilder.for_op(op)
        inputs, results = b.operand_shapes[0], b.result_shapes[0]
        window, strides, _, _, padding = self._window(op, len(inputs))
        moving = _windowed_dims(window, strides, padding)
        for d, windows in enumerate(results):
            add_dim_factor(b, d, windows, "permutation" if d in moving else "pass_through")
        return finish_rule(b)


def _windowed_dims(window, strides, padding) -> set[int]:
    """The dims along which a window gathers several elements, steps or pads."""
    return {
        d
        for d, (size, stride, pad) in enumerate(zip(window, strides, padding, strict=True))
        if size > 1 or stride > 1 or tuple(pad) != (0, 0)
    }


# -- select_and_scatter ----------------------------------------------------------------------


class SelectAndScatterOp(OpDef):
    """`"stablehlo.select_and_scatter"(%operand, %source, %init) <{window_dimensions =
    ..., window_strides = ..., padding = ...}> ({ select }, { scatter }) : ...`:
    each window of `operand` selects one element (the first that `select` keeps
    against all later ones); `scatter` adds the window's `source` value there."""

    traits = frozenset(
        {EXACT_RULE, MovesElements(_moved_by_windows), ConservativeRule(blocks_moving_factors=True)}
    )

    def infer_types(self, op: Op) -> list[Type] | None:
        t = tensor_type(op, op.operands[0].type, "operand")
        return [t]

    def verify(self, op: Op) -> None:
        if len(op.operands) != 3 or len(op.results) != 1 or len(op.regions) != 2:
            raise IRError(f"{op.name}: takes operand, source, init and two regions")
        _verify_body(op, 0, 2, 1)
        _verify_body(op, 1, 2, 1)

    def evaluate(self, op: Op, args: list, interp) -> list:
        operand, source, init = (np.asarray(a) for a in args)
        rank = operand.ndim
        window = i64_list(op, "window_dimensions")
        strides = i64_list(op, "window_strides", (1,) * rank)
        padding = padding_pairs(op, rank)
        # Flat positions of the operand, padded like the values (-1 in padding).
        positions = np.arange(operand.size).reshape(operand.shape)
        ones = (1,) * rank
        values, real = _windows(operand, 0, window, strides, ones, ones, padding)
        where, _ = _windows(positions, -1, window, strides, ones, ones, padding)
        if values.shape[:-1] != source.shape:
            raise IRError(
                f"{op.name}: source has shape {source.shape}, windows {values.shape[:-1]}"
            )
        select = RegionRunner(op, op.regions[0], interp)
        chosen_value = values[..., 0]
        chosen_at = np.where(real[..., 0], where[..., 0], -1)
        for k in range(1, values.shape[-1]):
            candidate = values[..., k]
            if candidate.size:
                keep = np.asarray(select(chosen_value, candidate)[0], dtype=bool)
            else:
                keep = np.zeros(candidate.shape, bool)
            take = real[..., k] & ((chosen_at < 0) | ~keep)
            chosen_value = np.where(take, candidate, chosen_value)
            chosen_at = np.where(take, where[..., k], chosen_at)
        result = np.full(operand.size, init.reshape(()), dtype=operand.dtype)
        scatter = RegionRunner(op, op.regions[1], interp)
        flat_at, flat_src = chosen_at.reshape(-1), source.reshape(-1)
        valid = flat_at >= 0
        flat_at, flat_src = flat_at[valid], flat_src[valid]
        if scatter.ufunc is not None:
            scatter.ufunc.at(result, flat_at, flat_src.astype(result.dtype))
        else:
            for at, value in zip(flat_at, flat_src, strict=True):
                result[at] = scatter(result[at], value)[0]
        return [result.reshape(operand.shape)]

    rule_reads_regions = False  # (the rule is the same whatever the body computes)

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """A factor per dim shared by operand, source and result where no
        window moves along it; where one does (a window size or stride above
        1, or padding), a factor of the source (the number of windows) needing
        replication, then one of operand and result, a permutation:
        `([j, k], [i, k], [])->([j, k]) {i=4, j=8, k=4} need_replication={i}
        permutation={j}`."""
        b = RuleBuilder.for_op(op)
        operand, source = b.operand_shapes[0], b.operand_shapes[1]
        rank = len(operand)
        window = i64_list(op, "window_dimensions")
        strides = i64_list(op, "window_strides", (1,) * rank)
        moving = _windowed_dims(window, strides, padding_pairs(op, rank))
        for d, size in enumerate(operand):
            if d in moving:
                b.add_factor([None, d, None], [None], source[d], kind="need_replication")
                b.add_factor([d, None, None], [d], size, kind="permutation")
            else:
                add_dim_factor(b, d, size)
        return finish_rule(b)


# -- sort ------------------------------------------------------------------------------------

_PAIRWISE_LIMIT = 1 << 22  # elements of the all-pairs comparison before sorting per row


class SortOp(OpDef):
    """`"stablehlo.sort"(%a, %b) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%lhs_a, %rhs_a, %lhs_b, %rhs_b): ... return %less }) : ...`: sorts all
    operands along `dimension` by the comparator (stably: a comparator is a
    strict weak order, equal elements keep their order)."""

    traits = frozenset({EXACT_RULE, MovesElements(dimension_moved)})

    def infer_types(self, op: Op) -> list[Type] | None:
        return [v.type for v in op.operands]

    def verify(self, op: Op) -> None:
        if not op.operands or len(op.results) != len(op.operands):
            raise IRError(f"{op.name}: one result per operand")
        shapes = {tensor_type(op, v.type, "an operand").shape for v in op.operands}
        if len(shapes) != 1:
            raise IRError(f"{op.name}: the operands have different shapes")
        rank = len(next(iter(shapes)))
        dim = _sort_dimension(op, rank)
        if not -rank <= dim < max(rank, 1):
            raise IRError(f"{op.name}: dimension {dim} out of range for rank {rank}")
        _verify_body(op, 0, 2 * len(op.operands), 1)

    def evaluate(self, op: Op, args: list, interp) -> list:
        arrays = [np.asarray(a) for a in args]
        rank = arrays[0].ndim
        if rank == 0:
            return arrays
        dim = _sort_dimension(op, rank) % rank
        moved = [np.moveaxis(a, dim, -1) for a in arrays]
        less = RegionRunner(op, op.regions[0], interp)
        n = moved[0].shape[-1]
        if moved[0].size * n <= _PAIRWISE_LIMIT:
            order = _order_by_counting(less, moved)
        else:
            order = _order_by_merging(less, moved)
        return [np.moveaxis(np.take_along_axis(a, order, axis=-1), -1, dim) for a in moved]

    rule_reads_regions = False  # (the rule is the same whatever the body computes)

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """A factor per dim of all operands and results; the sort dim's needs
        replication, and is blocked when every other dim has size 1:
        `([i, j])->([i, j]) {i=8, j=32} need_replication={i}`. (The dimension
        is compared as written: a negative one matches no dim.)"""
        b = RuleBuilder.for_op(op)
        shape = b.operand_shapes[0]
        dim = _sort_dimension(op, len(shape))
        blocked = all(d == dim or size == 1 for d, size in enumerate(shape))
        for d, size in enumerate(shape):
            if d == dim:
                add_dim_factor(b, d, size, "need_replication", blocked=blocked)
            else:
                add_dim_factor(b, d, size)
        return finish_rule(b)


def _sort_dimension(op: Op, rank: int) -> int:
    value = op.attributes.get("dimension", IntegerAttr(-1))
    return value.value if isinstance(value, IntegerAttr) else int(value)


def _comparator_args(row: list[np.ndarray], i: int, j: int) -> list[np.ndarray]:
    """The comparator's arguments for elements i and j of one row (as 1-element arrays)."""
    args = []
    for a in row:
        args += [a[i : i + 1], a[j : j + 1]]
    return args


def _order_by_counting(less: RegionRunner, moved: list[np.ndarray]) -> np.ndarray:
    """The stable sorting permutation from all pairwise comparisons at once:
    element i goes after every j < i not greater than it and every j less than it."""
    n = moved[0].shape[-1]
    shape = (*moved[0].shape, n)
    lhs = [np.broadcast_to(a[..., :, None], shape) for a in moved]
    rhs = [np.broadcast_to(a[..., None, :], shape) for a in moved]
    args = []
    for x, y in zip(lhs, rhs, strict=True):
        args += [x, y]
    lt = np.asarray(less(*args)[0], dtype=bool)  # lt[..., i, j]: element i before j
    earlier = np.tri(n, n, -1, dtype=bool).T  # [i, j]: i < j
    # position of j = #{i: lt[i, j]} + #{i < j: not lt[j, i] and not lt[i, j]}
    ties = ~lt & ~np.swapaxes(lt, -1, -2) & earlier
    position = lt.sum(axis=-2) + ties.sum(axis=-2)
    order = np.empty_like(position)
    np.put_along_axis(order, position, np.broadcast_to(np.arange(n), position.shape), axis=-1)
    return order


def _order_by_merging(less: RegionRunner, moved: list[np.ndarray]) -> np.ndarray:
    """The stable sorting permutation, row by row (for rows too long to compare all pairs)."""
    rows = moved[0].reshape(-1, moved[0].shape[-1]).shape[0]
    flat = [a.reshape(rows, -1) for a in moved]
    order = np.empty(flat[0].shape, dtype=np.int64)
    for r in range(rows):

        def compare(i: int, j: int, r: int = r) -> int:
            if bool(less(*_comparator_args([f[r] for f in flat], i, j))[0][0]):
                return -1
            if bool(less(*_comparator_args([f[r] for f in flat], j, i))[0][0]):
                return 1
            return 0

        order[r] = sorted(range(flat[0].shape[1]), key=functools.cmp_to_key(compare))
    return order.reshape(moved[0].shape)


# -- reduce_precision ------------------------------------------------------------------------

_FLOAT_LAYOUT = {  # numpy kind: (bits, exponent bits, mantissa bits, unsigned int type)
    np.dtype(np.float32): (32, 8, 23, np.uint32),
    np.dtype(np.float64): (64, 11, 52, np.uint64),
}


def reduce_precision(x: np.ndarray, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """Rounds `x` to a float with the given exponent and mantissa widths
    (round to nearest even; overflow to infinity, underflow to zero)."""
    x = np.asarray(x)
    original = x.dtype
    work = x.astype(np.float64 if original == np.float64 else np.float32)
    bits, src_exp, src_man, uint = _FLOAT_LAYOUT[work.dtype]
    value = work.view(uint).copy()
    one = uint(1)
    if mantissa_bits < src_man:
        shift = uint(src_man - mantissa_bits)
        last_bit = one << shift
        bias = (last_bit >> one) - one
        rounding = ((value & last_bit) >> shift) + bias
        value = (value + rounding) & ~(last_bit - one)
    if exponent_bits < src_exp:
        sign = value & (one << uint(bits - 1))
        exp_mask = uint(((1 << src_exp) - 1) << src_man)
        exponent_bias = (1 << (src_exp - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        max_exp = uint((exponent_bias + reduced_bias) << src_man)
        min_exp = uint((exponent_bias - reduced_bias) << src_man)
        exponent = value & exp_mask
        value = np.where(exponent > max_exp, sign | exp_mask, value)
        value = np.where(exponent <= min_exp, sign, value)
    out = value.view(work.dtype)
    nan = np.isnan(work)
    if mantissa_bits > 0:
        out = np.where(nan, work, out)
    else:
        out = np.where(nan, np.copysign(np.inf, work), out)
    return out.astype(original)


class ReducePrecisionOp(OpDef):
    """`stablehlo.reduce_precision %x, format = e5m10 : tensor<...>`."""

    traits = frozenset({EXACT_RULE})

    _OWN = ("exponent_bits", "mantissa_bits")

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect(",")
        p.expect("format", "'format'")
        p.expect("=")
        p.skip_space()
        pos = p.pos
        fmt = p.match(_FORMAT_RE, "a format like e5m10")
        exponent, mantissa = fmt[1:].split("m")
        if int(exponent) < 1:
            raise p.error("the exponent needs at least one bit", pos)
        attrs = dict(p.optional_attr_dict())
        attrs["exponent_bits"] = IntegerAttr(int(exponent), "i32")
        attrs["mantissa_bits"] = IntegerAttr(int(mantissa), "i32")
        p.expect(":")
        p.skip_space()
        pos = p.pos
        t = p.type()
        p._check_type(operand, t, pos)
        return mark_inherent(p.make_op(name, [operand], [t], attrs), self._OWN)

    def print(self, op: Op, w) -> None:
        e, m = self._bits(op)
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f", format = e{e}m{m}")
        w.attr_dict(op, self._OWN)
        w.write(f" : {op.result_types[0]}")

    @staticmethod
    def _bits(op: Op) -> tuple[int, int]:
        values = []
        for key in ("exponent_bits", "mantissa_bits"):
            value = op.attributes.get(key)
            if not isinstance(value, IntegerAttr):
                raise IRError(f"{op.name}: needs an integer {key}")
            values.append(value.value)
        return values[0], values[1]

    def infer_types(self, op: Op) -> list[Type] | None:
        return [op.operands[0].type]

    def verify(self, op: Op) -> None:
        e, m = self._bits(op)
        if e < 1 or m < 0:
            raise IRError(f"{op.name}: exponent_bits {e} must be >= 1, mantissa_bits {m} >= 0")

    def evaluate(self, op: Op, args: list, interp) -> list:
        e, m = self._bits(op)
        return [reduce_precision(args[0], e, m)]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise: `([i, j])->([i, j]) {i=8, j=32}`."""
        return finish_rule(RuleBuilder.for_op(op).add_pointwise(op.result_types[0].shape))


_FORMAT_RE = re.compile(r"e\d+m\d+")


register("stablehlo.reduce", ReduceOp())
register("stablehlo.reduce_window", ReduceWindowOp())
register("stablehlo.select_and_scatter", SelectAndScatterOp())
register("stablehlo.sort", SortOp())
register("stablehlo.reduce_precision", ReducePrecisionOp())

__all__ = ["RegionRunner", "reduce_precision", "tree_reduce"]
