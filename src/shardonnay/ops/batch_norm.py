"""StableHLO's batch normalization: `batch_norm_inference`, `_training`, `_grad`.

MLIR prints them in the generic form, with `epsilon` (f32) and
`feature_index` (the operand dim of the features) as properties::

    %0 = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %variance)
        <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}>
        : (tensor<4x8x6xf32>, tensor<8xf32>, ...) -> tensor<4x8x6xf32>
    %output, %batch_mean, %batch_var = "stablehlo.batch_norm_training"(%x, %scale, %offset) ...
    %grad_operand, %grad_scale, %grad_offset = "stablehlo.batch_norm_grad"(%x, %scale,
        %mean, %variance, %grad_output) ...

The per-feature operands and results are vectors as long as the feature dim.
The semantics are the StableHLO spec's (mean and variance over every dim but
the feature dim, the variance biased). Shardy's rule registry knows only
`batch_norm_inference`: pointwise on the operand, the vectors on the feature
dim, `([i, j, k], [j], [j], [j], [j])->([i, j, k])`.

>>> import numpy as np
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> from shardonnay.runtime.interpreter import run
>>> m = parse_module('''func.func @main(%x: tensor<2x2xf32>, %s: tensor<2xf32>)
...     -> tensor<2x2xf32> {
...   %0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 0.0 : f32,
...     feature_index = 1 : i64} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>)
...     -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>)
...   return %0#0 : tensor<2x2xf32>
... }''')
>>> run(m, np.array([[1.0, 10.0], [3.0, 30.0]]), np.array([1.0, 2.0]))[0].tolist()
[[0.0, 0.0], [2.0, 4.0]]
"""

from __future__ import annotations

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import FloatAttr, IntegerAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.linalg import finish_rule, tensor_type
from shardonnay.ops.registry import OpDef, register
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder


def _epsilon(op: Op) -> float:
    value = op.attributes.get("epsilon")
    if not isinstance(value, FloatAttr):
        raise IRError(f"{op.name}: needs a float attribute 'epsilon'")
    return value.value


def _feature_index(op: Op) -> int:
    value = op.attributes.get("feature_index")
    if not isinstance(value, IntegerAttr):
        raise IRError(f"{op.name}: needs an integer attribute 'feature_index'")
    operand = tensor_type(op, op.operands[0].type, "the operand")
    if not 0 <= value.value < operand.rank:
        raise IRError(
            f"{op.name}: expects feature_index to be smaller than the rank of operand type; "
            f"got feature_index {value.value}, and rank {operand.rank}."
        )
    return value.value


class _BatchNorm(OpDef):
    """Shared facets. `vector_operands`: which operands are per-feature vectors;
    results: the operand's type first (if `has_tensor_result`), then
    `vector_results` vectors."""

    operand_count = 0
    vector_operands: tuple[int, ...] = ()
    vector_results = 0
    has_tensor_result = True

    def _types(self, op: Op) -> tuple[TensorType, TensorType]:
        """(the operand's type, the type of a per-feature vector)."""
        operand = tensor_type(op, op.operands[0].type, "the operand")
        features = operand.shape[_feature_index(op)]
        return operand, TensorType((features,), operand.element_type)

    def infer_types(self, op: Op) -> list[Type] | None:
        if len(op.operands) != self.operand_count:
            return None
        operand, vector = self._types(op)
        head = [operand] if self.has_tensor_result else []
        return [*head, *[vector] * self.vector_results]

    def verify(self, op: Op) -> None:
        if len(op.operands) != self.operand_count:
            raise IRError(f"{op.name}: takes {self.operand_count} operands")
        _epsilon(op)
        operand, vector = self._types(op)
        for i, v in enumerate(op.operands):
            expected = vector if i in self.vector_operands else operand
            if v.type != expected:
                raise IRError(f"{op.name}: operand {i} has type {v.type}, expected {expected}")
        inferred = self.infer_types(op) or []
        if list(op.result_types) != inferred:
            raise IRError(
                f"{op.name}: inferred type(s) '{', '.join(map(str, inferred))}' are "
                f"incompatible with return type(s) of operation "
                f"'{', '.join(map(str, op.result_types))}'"
            )

    @staticmethod
    def _shape_of_vectors(op: Op, x: np.ndarray) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """(feature dim, the other dims, the shape a vector broadcasts to)."""
        feature = _feature_index(op)
        others = tuple(d for d in range(x.ndim) if d != feature)
        shape = tuple(x.shape[d] if d == feature else 1 for d in range(x.ndim))
        return feature, others, shape


class BatchNormInferenceOp(_BatchNorm):
    """`(operand - mean) / sqrt(variance + epsilon) * scale + offset`."""

    operand_count = 5
    vector_operands = (1, 2, 3, 4)
    vector_results = 0

    def evaluate(self, op: Op, args: list, interp) -> list:
        x, scale, offset, mean, variance = (np.asarray(a) for a in args)
        _, _, shape = self._shape_of_vectors(op, x)
        centered = x - mean.reshape(shape)
        with np.errstate(invalid="ignore"):  # a negative variance gives NaN, as in XLA
            y = centered / np.sqrt(variance.reshape(shape) + _epsilon(op)) * scale.reshape(shape)
        return [(y + offset.reshape(shape)).astype(x.dtype)]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """Pointwise on the operand; the four vectors follow the feature dim."""
        b = RuleBuilder.for_op(op)
        feature = _feature_index(op)
        for d, size in enumerate(b.operand_shapes[0]):
            vector_dim = 0 if d == feature else None
            b.add_factor([d, *[vector_dim] * 4], [d], size)
        return finish_rule(b)


class BatchNormTrainingOp(_BatchNorm):
    """`(output, batch_mean, batch_var)`: the operand normalized with its own
    per-feature mean and (biased) variance, then scaled and offset."""

    operand_count = 3
    vector_operands = (1, 2)
    vector_results = 2

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["output", "batch_mean", "batch_var"]

    def evaluate(self, op: Op, args: list, interp) -> list:
        x, scale, offset = (np.asarray(a) for a in args)
        _, others, shape = self._shape_of_vectors(op, x)
        mean = x.mean(axis=others)
        variance = ((x - mean.reshape(shape)) ** 2).mean(axis=others)
        centered = x - mean.reshape(shape)
        y = centered / np.sqrt(variance.reshape(shape) + _epsilon(op)) * scale.reshape(shape)
        y = y + offset.reshape(shape)
        return [y.astype(x.dtype), mean.astype(x.dtype), variance.astype(x.dtype)]


class BatchNormGradOp(_BatchNorm):
    """`(grad_operand, grad_scale, grad_offset)` of `batch_norm_training`'s
    output at `grad_output`, from the operand, scale, mean and variance."""

    operand_count = 5
    vector_operands = (1, 2, 3)
    vector_results = 2

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["grad_operand", "grad_scale", "grad_offset"]

    def evaluate(self, op: Op, args: list, interp) -> list:
        x, scale, mean, variance, grad_output = (np.asarray(a) for a in args)
        _, others, shape = self._shape_of_vectors(op, x)
        count = x.size // max(x.shape[_feature_index(op)], 1)
        centered = x - mean.reshape(shape)
        stddev = np.sqrt(variance.reshape(shape) + _epsilon(op))
        normalized = centered / stddev
        sum_grad = grad_output.sum(axis=others, keepdims=True)
        sum_grad_centered = (grad_output * centered).sum(axis=others, keepdims=True)
        inner = (
            grad_output * count
            - sum_grad
            - sum_grad_centered * centered / (variance.reshape(shape) + _epsilon(op))
        )
        grad_operand = scale.reshape(shape) / stddev / count * inner
        grad_scale = (grad_output * normalized).sum(axis=others)
        grad_offset = grad_output.sum(axis=others)
        return [
            grad_operand.astype(x.dtype),
            grad_scale.astype(x.dtype),
            grad_offset.astype(x.dtype),
        ]


register("stablehlo.batch_norm_inference", BatchNormInferenceOp())
register("stablehlo.batch_norm_training", BatchNormTrainingOp())
register("stablehlo.batch_norm_grad", BatchNormGradOp())
