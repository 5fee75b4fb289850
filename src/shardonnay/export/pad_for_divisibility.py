"""Shardy's `sdy-pad-for-divisibility`: every value whose sharded dims its
shards do not divide takes the padded type, each such dim rounded up to a
multiple of its shards, so that every shard has the same size.

Shardy writes it as an MLIR dialect conversion of each function, and
shardonnay follows it step by step:

- a function argument or result whose sharding does not divide is an error
  ("Shardy expects function IO to be divisible");
- a StableHLO op is converted when one of its operands or results has a
  sharding that does not divide its type (`padded_type`); an
  `sdy.all_slice` when its `out_sharding` does not divide its operand; an
  `sdy.all_gather` when one of its operands does not divide; other ops stay;
- a converted op takes its operands' new values and results of the padded
  type of their sharding, each dim at least what the op's type inference
  gives on the new operands (an op that infers nothing, or whose inference
  fails, takes the padded types alone);
- a `stablehlo.slice` of a padded result reads that many elements from its
  start (a dim where that reads past its limit must need no data from other
  shards, `permutation_factors.communication_free_slice_dim`: Shardy checks
  it and aborts, shardonnay raises); an `sdy.all_gather` whose result grew
  along a dim it gathers is sliced there to the padded type of its result;
  an `sdy.all_slice` whose operand the out-sharding does not divide
  has its operand padded with zeros first; a `stablehlo.dot_general` whose
  operand is padded along a contracting dim by something other than zeros
  has that padding set to zero (`iota`, `compare`, `select`);
- where a new value meets a use that expects the old type, and where an old
  value meets an op converted to expect its padded type,
  `builtin.unrealized_conversion_cast` (right after the value's definition)
  converts between them.

A converted op that still has a value its shards do not divide (a pad of a
padded value) is an error, as a partial conversion fails on an op it leaves
illegal. The result is verified, as MLIR verifies after a pass: where the padded
program is not valid (a collective whose operand lost its sharding to a
cast, a loop whose region arguments keep their types, a reshape of a padded
value), Shardy's pass fails and shardonnay raises `ShardingError`. The
padding is not kept out of other reductions: a program that reduces along a
padded dim (`stablehlo.reduce`) computes with whatever the padding holds,
and a reshape of a padded value lays the padding out among its elements,
as in Shardy.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> tensor<7xf32> {
...   %0 = stablehlo.slice %arg0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
...       : (tensor<8xf32>) -> tensor<7xf32>
...   %1 = sdy.all_gather [{"x"}] %0 out_sharding=<@mesh, [{}]> : tensor<7xf32>
...   return %1 : tensor<7xf32>
... }''')
>>> out = pad_for_divisibility(module)
>>> [(op.name, str(op.results[0].type)) for op in out.functions[0].body.ops[:3]]
[('stablehlo.slice', 'tensor<8xf32>'), ('sdy.all_gather', 'tensor<8xf32>'), \
('stablehlo.slice', 'tensor<7xf32>')]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shardonnay.errors import IRError, ShardingError
from shardonnay.export.permutation_factors import communication_free_slice_dim
from shardonnay.ir.attributes import DenseArrayAttr, DenseElementsAttr, EnumAttr, IntegerAttr
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Block, Func, Module, Op, Value
from shardonnay.ir.shardings import (
    func_arg_sharding,
    func_result_sharding,
    mesh_of,
    set_sharding,
    sharding_of,
)
from shardonnay.ir.types import TensorType, Type
from shardonnay.ir.verifier import verify
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import lookup
from shardonnay.sharding import TensorSharding, TensorShardingPerValue

__all__ = ["pad_for_divisibility", "padded_type", "sdy_pad_for_divisibility"]

_ZERO, _ONE = "zero", "one"
_CAST = "builtin.unrealized_conversion_cast"


def padded_type(t: Type, sharding: TensorSharding | None, meshes: dict[str, Mesh]) -> Type:
    """`t` with each dim its shards do not divide rounded up to a multiple of
    them (`t` itself for a value without sharding or on an unknown mesh)."""
    if not isinstance(t, TensorType) or sharding is None or sharding.is_fully_replicated():
        return t
    try:
        mesh = mesh_of(sharding, meshes)
    except KeyError:
        return t
    shape = list(t.shape)
    changed = False
    for dim, dim_sharding in enumerate(sharding.dims[: len(shape)]):
        count = dim_sharding.sharded_size(mesh)
        if count > 1 and shape[dim] % count:
            shape[dim] = -(-shape[dim] // count) * count
            changed = True
    return TensorType(tuple(shape), t.element_type) if changed else t


def pad_for_divisibility(module: Module) -> Module:
    """Pads every value of `module` whose shards are uneven, in place (see
    the module docstring); returns `module`."""
    meshes = module.meshes
    for func in module.functions:
        if func.is_declaration:
            continue
        _check_signature(func, meshes)
        _Conversion(module, meshes).run(func)
    try:
        verify(module)
    except IRError as e:  # (MLIR verifies after the pass, which then fails)
        message = f"sdy-pad-for-divisibility: the padded program is not valid: {e}"
        raise ShardingError(message) from e
    return module


def _check_signature(func: Func, meshes: dict[str, Mesh]) -> None:
    for i, t in enumerate(func.type.inputs):
        if padded_type(t, func_arg_sharding(func, i), meshes) != t:
            raise ShardingError(
                f"@{func.name}: argument #{i} has a non-divisible sharding. Shardy expects "
                "function IO to be divisible."
            )
    for i, t in enumerate(func.type.results):
        if padded_type(t, func_result_sharding(func, i), meshes) != t:
            raise ShardingError(
                f"@{func.name}: result #{i} has a non-divisible sharding. Shardy expects "
                "function IO to be divisible."
            )


def _i64s(values: Sequence[int]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(values))


def _scalar(element_type: str, kind: str) -> DenseElementsAttr:
    t = TensorType((), element_type)
    value = 0 if kind == _ZERO else 1
    dtype = np.bool_ if element_type == "i1" else t.dtype
    return DenseElementsAttr.from_numpy(np.array(value, dtype=dtype), t)


class _Conversion:
    """One function's conversion: the new value of each replaced one, the
    padding value known of padded values, and the casts made so far."""

    def __init__(self, module: Module, meshes: dict[str, Mesh]):
        self.module = module
        self.meshes = meshes
        self.new: dict[Value, Value] = {}
        self.padding: dict[Value, str] = {}
        self.casts: dict[tuple[Value, Type], Value] = {}
        self.replaced: list[Value] = []

    # -- types and legality ------------------------------------------------------------

    def converted(self, value: Value) -> Type:
        return padded_type(value.type, sharding_of(value), self.meshes)

    def legal_value(self, value: Value) -> bool:
        return self.converted(value) == value.type

    def legal(self, op: Op) -> bool:
        if op.name.startswith("stablehlo."):
            return all(map(self.legal_value, (*op.operands, *op.results)))
        if op.name == "sdy.all_slice":
            operand = op.operands[0]
            return padded_type(operand.type, op.attributes["out_sharding"], self.meshes) == (
                operand.type
            )
        if op.name == "sdy.all_gather":
            return all(map(self.legal_value, op.operands))
        return True

    # -- the walk ----------------------------------------------------------------------

    def run(self, func: Func) -> None:
        for op in list(func.op.walk()):
            if op is func.op or self.legal(op):
                continue
            self.convert(op)
        for old in self.replaced:
            if old.uses:
                new = self.new[old]
                old.replace_all_uses_with(new if new.type == old.type else self.cast(new, old.type))

    def convert(self, op: Op) -> None:
        b = Builder(self.module)
        b.set_insertion_point_before(op)
        if op.name == "stablehlo.slice":
            results = self.slice(b, op)
        elif op.name == "stablehlo.dot_general":
            lhs, rhs = (self.operand(op, i) for i in range(2))
            numbers = op.attributes["dot_dimension_numbers"]
            lhs_dims = tuple(numbers.get("lhs_contracting_dimensions", ()))
            rhs_dims = tuple(numbers.get("rhs_contracting_dimensions", ()))
            lhs = self.ensure_zero_padding(b, lhs, op.operands[0].type, lhs_dims)
            rhs = self.ensure_zero_padding(b, rhs, op.operands[1].type, rhs_dims)
            results = self.generic(b, op, [lhs, rhs])
        elif op.name == "sdy.all_gather":
            results = self.all_gather(b, op)
        elif op.name == "sdy.all_slice":
            results = self.all_slice(b, op)
        else:
            results = self.generic(b, op, [self.operand(op, i) for i in range(len(op.operands))])
        for value in results:
            if value.op is not None and not self.legal(value.op):
                # (a partial conversion fails on an op it leaves illegal)
                raise ShardingError(
                    f"sdy-pad-for-divisibility: failed to legalize {op.name}: its padded "
                    "form still has a value its shards do not divide"
                )
        self.replace(op, results)

    def operand(self, op: Op, index: int) -> Value:
        """What the converted `op` takes for its operand `index`: the operand's
        new value, cast to the operand's padded type where that differs."""
        old = op.operands[index]
        value = self.new.get(old, old)
        target = self.converted(old)
        return value if value.type == target else self.cast(value, target)

    def cast(self, value: Value, t: Type) -> Value:
        """`value` cast to `t`, right after its definition (one cast each)."""
        key = (value, t)
        if key not in self.casts:
            cast = Op(_CAST, [value], [t])
            definer = value.op
            if definer is None:
                block = value.defining
                assert isinstance(block, Block)
                block.insert(0, cast)
            else:
                block = definer.parent
                assert block is not None
                block.insert(block.ops.index(definer) + 1, cast)
            self.casts[key] = cast.results[0]
        return self.casts[key]

    def replace(self, op: Op, results: Sequence[Value]) -> None:
        for old, value in zip(op.results, results, strict=True):
            if value is not old:
                self.new[old] = value
                self.replaced.append(old)
        op._drop_uses()
        block = op.parent
        assert block is not None
        block.ops.remove(op)
        op.parent = None

    # -- the patterns ------------------------------------------------------------------

    def result_types(self, op: Op, new: Op) -> list[Type]:
        """The padded types of `op`'s results, each dim at least what `new`
        (the op on its new operands) infers."""
        try:
            inferred = lookup(new.name).infer_types(new)
        except (IRError, ShardingError, KeyError, IndexError, ValueError, TypeError):
            inferred = None
        types: list[Type] = []
        for i, result in enumerate(op.results):
            padded = self.converted(result)
            got = inferred[i] if inferred and i < len(inferred) else None
            if (
                isinstance(got, TensorType)
                and isinstance(padded, TensorType)
                and len(got.shape) == len(padded.shape)
            ):
                shape = tuple(max(a, b) for a, b in zip(got.shape, padded.shape, strict=True))
                types.append(TensorType(shape, got.element_type))
            else:
                types.append(padded)
        return types

    def generic(self, b: Builder, op: Op, operands: Sequence[Value]) -> list[Value]:
        new = Op(
            op.name,
            operands,
            op.result_types,
            dict(op.attributes),
            location=op.location,
            inherent=op.inherent,
        )
        for result, t in zip(new.results, self.result_types(op, new), strict=True):
            result.type = t
        for region in op.regions:
            new.add_region(region)
        op.regions = []
        b.insert(new)
        return list(new.results)

    def slice(self, b: Builder, op: Op) -> list[Value]:
        result = op.results[0]
        padded = self.converted(result)
        if padded == result.type:
            return self.generic(b, op, [self.operand(op, 0)])
        starts = op.attributes["start_indices"].values
        limits = [s + n for s, n in zip(starts, padded.shape, strict=True)]
        operand = sharding_of(op.operands[0])
        old_limits = op.attributes["limit_indices"].values
        for dim, (new, old) in enumerate(zip(limits, old_limits, strict=True)):
            if new != old and not (
                operand is None
                or communication_free_slice_dim(op, dim, operand, mesh_of(operand, self.meshes))
            ):
                # (Shardy checks this and aborts)
                raise ShardingError(
                    f"sdy-pad-for-divisibility: {op.name} would read past its limit along dim "
                    f"{dim}, which moves data between shards (resolve permutation factors first)"
                )
        attributes = dict(op.attributes)
        attributes["limit_indices"] = _i64s(limits)
        return self.generic_with(b, op, [self.operand(op, 0)], attributes, [padded])

    def generic_with(
        self,
        b: Builder,
        op: Op,
        operands: Sequence[Value],
        attributes: dict,
        types: Sequence[Type],
    ) -> list[Value]:
        new = Op(op.name, operands, types, attributes, location=op.location, inherent=op.inherent)
        b.insert(new)
        return list(new.results)

    def all_gather(self, b: Builder, op: Op) -> list[Value]:
        operands = [self.operand(op, i) for i in range(len(op.operands))]
        new = Op(op.name, operands, op.result_types, dict(op.attributes), inherent=op.inherent)
        try:
            inferred = lookup(new.name).infer_types(new)
        except (IRError, ShardingError, KeyError, IndexError, ValueError, TypeError):
            # (Shardy's pattern fails, and the conversion with it)
            raise ShardingError(
                f"sdy-pad-for-divisibility: failed to legalize {op.name}: its padded "
                "operands have no result type"
            ) from None
        types = self.result_types(op, new) if inferred else op.result_types
        for result, t in zip(new.results, types, strict=True):
            result.type = t
        b.insert(new)
        gathering = op.attributes["gathering_axes"]
        out_sharding = op.attributes["out_sharding"]
        results = []
        for old, value in zip(op.results, new.results, strict=True):
            original, got = old.type, value.type
            target = self.converted(old)
            if isinstance(got, TensorType) and isinstance(target, TensorType):
                # (sliced to the padded type of the result, where it gathers)
                cut = [
                    bool(gathering.lists[d]) and n > o
                    for d, (o, n) in enumerate(zip(original.shape, got.shape, strict=True))
                ]
                if any(cut):
                    limits = [
                        t if c else n for t, c, n in zip(target.shape, cut, got.shape, strict=True)
                    ]
                    value = self.slice_to(b, value, limits, out_sharding)
            results.append(value)
        return results

    def slice_to(
        self, b: Builder, value: Value, limits: Sequence[int], sharding: TensorSharding
    ) -> Value:
        rank = len(limits)
        sliced = b.op(
            "stablehlo.slice",
            [value],
            attributes={
                "start_indices": _i64s([0] * rank),
                "limit_indices": _i64s(limits),
                "strides": _i64s([1] * rank),
                "sdy.sharding": TensorShardingPerValue((sharding,)),
            },
            result_types=[TensorType(tuple(limits), value.type.element_type)],
        )
        return sliced

    def all_slice(self, b: Builder, op: Op) -> list[Value]:
        value = self.operand(op, 0)
        out_sharding = op.attributes["out_sharding"]
        padded = padded_type(value.type, out_sharding, self.meshes)
        if padded == value.type:
            return self.generic(b, op, [value])
        assert isinstance(padded, TensorType)
        value = self.pad_with_zeros(b, value, padded)
        result_type = padded_type(op.results[0].type, out_sharding, self.meshes)
        (result,) = self.generic_with(b, op, [value], dict(op.attributes), [result_type])
        self.padding[result] = _ZERO
        return [result]

    def pad_with_zeros(self, b: Builder, value: Value, t: TensorType) -> Value:
        zero = b.op(
            "stablehlo.constant",
            attributes={"value": _scalar(t.element_type, _ZERO)},
            result_types=[TensorType((), t.element_type)],
        )
        rank = len(t.shape)
        padded = b.op(
            "stablehlo.pad",
            [value, zero],
            attributes={
                "edge_padding_low": _i64s([0] * rank),
                "edge_padding_high": _i64s(
                    [n - m for n, m in zip(t.shape, value.type.shape, strict=True)]
                ),
                "interior_padding": _i64s([0] * rank),
            },
            result_types=[t],
        )
        sharding = sharding_of(value)
        if sharding is not None:
            set_sharding(padded, sharding)
        self.padding[padded] = _ZERO
        return padded

    def ensure_zero_padding(
        self, b: Builder, value: Value, original: TensorType, dims: Sequence[int]
    ) -> Value:
        """`value` with the padding of its `dims` set to zero, unless it is
        known to be zeros already."""
        padded: TensorType = value.type
        if padded == original or self.padding.get(value) == _ZERO:
            return value
        mask = None
        i32 = TensorType(padded.shape, "i32")
        for dim, size in enumerate(original.shape):
            if size == padded.shape[dim] or dim not in dims:
                continue
            iota = b.op(
                "stablehlo.iota",
                attributes={"iota_dimension": IntegerAttr(dim, "i64")},
                result_types=[i32],
            )
            limit = b.op(
                "stablehlo.constant",
                attributes={
                    "value": DenseElementsAttr.from_numpy(
                        np.array(size, dtype=np.int32), TensorType((), "i32")
                    )
                },
                result_types=[TensorType((), "i32")],
            )
            limits = b.op(
                "stablehlo.broadcast_in_dim",
                [limit],
                attributes={"broadcast_dimensions": _i64s([])},
                result_types=[i32],
            )
            below = b.create("stablehlo.compare", [iota, limits], attributes=_less_than())
            below_value = below.results[0]
            mask = below_value if mask is None else b.op("stablehlo.and", [mask, below_value])
        if mask is None:
            return value
        zero = b.op(
            "stablehlo.constant",
            attributes={"value": _scalar(padded.element_type, _ZERO)},
            result_types=[TensorType((), padded.element_type)],
        )
        zeros = b.op(
            "stablehlo.broadcast_in_dim",
            [zero],
            attributes={"broadcast_dimensions": _i64s([])},
            result_types=[padded],
        )
        return b.op("stablehlo.select", [mask, value, zeros], result_types=[padded])


def _less_than() -> dict:
    return {"comparison_direction": EnumAttr("stablehlo", "comparison_direction", "LT")}


def sdy_pad_for_divisibility(module: Module, options: dict[str, str]) -> Module:
    """`sdy-pad-for-divisibility` (no options), the row of
    `shardonnay.passes.PASSES` (in place; returns `module`)."""
    return pad_for_divisibility(module)
