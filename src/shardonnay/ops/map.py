"""`stablehlo.map`: a body applied to its operands element by element.

    %0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.multiply %x, %y : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>

The op has no custom syntax: it reads and prints in MLIR's generic form, as
MLIR prints it. Its facets, all here:

- verifier: StableHLO's constraints (C1-C5 of the spec): one or more
  operands, all of the result's shape; `dimensions` is `[0, ..., rank-1]`;
  the body takes one rank-0 tensor per operand, of that operand's element
  type, and returns one rank-0 tensor, of the result's element type;
- semantics: result element `i` is the body on the operands' elements `i`.
  A body of elementwise ops only (`is_elementwise`, plus pure ops without
  operands such as constants) runs once on whole arrays; any other body runs
  once per element;
- traits: `RECURSIVE_EFFECTS` (StableHLO's `RecursiveMemoryEffects`: an
  unused map goes unless its body has effects). Not `ELEMENTWISE`, which is
  MLIR's `Elementwise` trait and Shardy's `isElementwise` asks: StableHLO
  does not declare it on `map`, so a map of constants is no constant
  expression to Shardy;
- sharding rule: none. Shardy's `sdy-populate-op-sharding-rules` gives
  `stablehlo.map` no rule, so no sharding passes between its operands and
  its result, as in Shardy.

Its partitioning is its row in `shardonnay.partitioner.local.dispatch.LOWERINGS`:
a map whose operands and result are sharded alike (and evenly) runs on each
device's shards; any other runs on values gathered whole.

>>> import numpy as np
>>> from shardonnay.runtime.interpreter import run
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
...   %0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0>}> ({
...   ^bb0(%x: tensor<f32>, %y: tensor<f32>):
...     %1 = stablehlo.multiply %x, %y : tensor<f32>
...     %2 = stablehlo.add %1, %x : tensor<f32>
...     stablehlo.return %2 : tensor<f32>
...   }) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
...   return %0 : tensor<3xf32>
... }''')
>>> run(m, np.array([1, 2, 3], np.float32), np.array([10, 20, 30], np.float32))
(array([11., 42., 93.], dtype=float32),)
"""

from __future__ import annotations

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.core import Op, Region
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.linalg import i64_list, tensor_type
from shardonnay.ops.reduction import RegionRunner
from shardonnay.ops.registry import OpDef, lookup, register
from shardonnay.ops.traits import RECURSIVE_EFFECTS, is_elementwise


class MapOp(OpDef):
    """`"stablehlo.map"(%a, ...) <{dimensions = array<i64: 0, ...>}> ({ body }) : ...`
    (see the module docstring)."""

    traits = frozenset({RECURSIVE_EFFECTS})

    def infer_types(self, op: Op) -> list[Type] | None:
        """The operands' shape, with the element type the body returns."""
        if not op.operands or not _has_body(op):
            return None
        shape = tensor_type(op, op.operands[0].type, "operand 0").shape
        returned = _returned(op)
        if len(returned) != 1 or not isinstance(returned[0].type, TensorType):
            return None
        return [TensorType(shape, returned[0].type.element_type)]

    def verify(self, op: Op) -> None:
        """StableHLO's constraints, in the order its verifier checks them.

        >>> from shardonnay.ir.core import Block, Op, Region, Value
        >>> a, b = Value(TensorType((4, 8), "f32")), Value(TensorType((4, 4), "f32"))
        >>> body = Block([TensorType((), "f32")] * 2)
        >>> _ = body.append(Op("stablehlo.return", [body.arguments[0]]))
        >>> MapOp().verify(Op("stablehlo.map", [a, b], [a.type], {}, [Region([body])]))
        Traceback (most recent call last):
        ...
        shardonnay.errors.IRError: stablehlo.map: operand 1 is tensor<4x4xf32> but operand 0 \
is tensor<4x8xf32>: the operands and the result of a map have one shape
        """
        if not op.operands:
            raise IRError(f"{op.name}: takes one or more operands, has none")
        if len(op.results) != 1:
            raise IRError(f"{op.name}: has one result, not {len(op.results)}")
        types = [tensor_type(op, v.type, f"operand {i}") for i, v in enumerate(op.operands)]
        result = tensor_type(op, op.result_types[0], "the result")
        for i, t in enumerate(types[1:], 1):
            if t.shape != types[0].shape:
                raise IRError(
                    f"{op.name}: operand {i} is {t} but operand 0 is {types[0]}: the operands "
                    "and the result of a map have one shape"
                )
        if result.shape != types[0].shape:
            raise IRError(
                f"{op.name}: the result is {result} but the operands are {types[0]}: the "
                "operands and the result of a map have one shape"
            )
        if not _has_body(op):
            raise IRError(f"{op.name}: needs one region of one block, the body")
        arguments = op.regions[0].entry.arguments
        if len(arguments) != len(types):
            raise IRError(
                f"{op.name}: the body takes {len(arguments)} arguments for {len(types)} "
                "operands (one per operand)"
            )
        for i, (arg, t) in enumerate(zip(arguments, types, strict=True)):
            scalar = TensorType((), t.element_type)
            if arg.type != scalar:
                raise IRError(
                    f"{op.name}: argument {i} of the body is {arg.type}, not {scalar} (a rank-0 "
                    f"tensor of the element type of operand {i})"
                )
        returned = _returned(op)
        if len(returned) != 1:
            raise IRError(f"{op.name}: the body returns {len(returned)} values, not one")
        out = returned[0].type
        if not isinstance(out, TensorType) or out.shape:
            raise IRError(f"{op.name}: the body returns {out}, not a rank-0 tensor")
        dims = i64_list(op, "dimensions")
        if list(dims) != list(range(len(dims))):
            raise IRError(
                f"{op.name}: dimensions {list(dims)} are not 0, 1, ... in order (a map "
                "applies to every dimension)"
            )
        if len(dims) != result.rank:
            raise IRError(
                f"{op.name}: dimensions {list(dims)} name {len(dims)} of the operands' "
                f"{result.rank} dimensions; a map applies to every dimension"
            )

    def evaluate(self, op: Op, args: list, interp) -> list:
        body = RegionRunner(op, op.regions[0], interp)
        arrays = [np.asarray(a) for a in args]
        if _runs_on_arrays(op.regions[0]):
            return [body(*arrays)[0]]
        result_type = op.result_types[0]
        result = np.empty(result_type.shape, result_type.dtype)
        for index in np.ndindex(*result_type.shape):
            result[index] = body(*(a[index] for a in arrays))[0]
        return [result]


def _has_body(op: Op) -> bool:
    return len(op.regions) == 1 and len(op.regions[0].blocks) == 1


def _returned(op: Op) -> list:
    """The values the body returns (its terminator's operands)."""
    ops = op.regions[0].entry.ops
    return list(ops[-1].operands) if ops else []


def _runs_on_arrays(body: Region) -> bool:
    """Whether `body`, written for scalars, computes on whole arrays the
    same: each op in it (but the terminator) has rank-0 results and no
    regions, and is elementwise or a pure op without operands (a constant:
    one value for every element)."""
    for inner in body.entry.ops[:-1]:
        if inner.regions or not inner.results:
            return False
        if any(not isinstance(t, TensorType) or t.shape for t in inner.result_types):
            return False
        if not (is_elementwise(inner) or (not inner.operands and lookup(inner.name).pure)):
            return False
    return True


register("stablehlo.map", MapOp())
