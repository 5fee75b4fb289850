"""ONNX operators -> shardonnay factor rules (`OpShardingRule`), and the
operator families of the ONNX sharding formalism.

`node_rule(node, input_shapes, output_shapes, constants)` gives the rule of
one node, its operands being the node's present inputs (empty optional
inputs left out) in order. Multidirectional broadcasting maps an input dim
of size 1 that the output widens to its own size-1 factor, so it is never
sharded alike with the output:

>>> from onnx import helper
>>> add = helper.make_node("Add", ["A", "B"], ["C"])
>>> print(node_rule(add, [(8, 1), (1, 6)], [(8, 6)]))
#sdy.op_sharding_rule<([j, k], [i, l])->([j, l]) {i=1, j=8, k=1, l=6}, custom>
>>> mm = helper.make_node("MatMul", ["X", "W"], ["Y"])
>>> print(node_rule(mm, [(2, 8, 16), (16, 4)], [(2, 8, 4)]))
#sdy.op_sharding_rule<([i, j, l], [l, k])->([i, j, k]) {i=2, j=8, k=4, l=16} reduction={l}, custom>
>>> family("Sigmoid"), family("Sum"), family("ReduceMax"), family("Gemm"), family("Conv")
('unary elementwise', 'broadcast elementwise', 'reduction', 'matmul', 'unsupported')

Rules are written as custom rules (`custom`): they are the ONNX op's, not a
StableHLO op's. Dims the op cannot compute shard by shard (a softmax axis,
normalized axes, convolution windows, a gathered or concatenated axis) are
`need_replication` factors; sliced dims are `permutation` factors.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from shardonnay.errors import UnsupportedOpError
from shardonnay.ir.builder import Builder
from shardonnay.ir.types import TensorType
from shardonnay.ops.rules import rule_for
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

__all__ = ["FAMILIES", "family", "node_rule", "reduction_kind"]

Shape = tuple[int, ...]


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


UNARY = _names(
    "Abs Acos Acosh Asin Asinh Atan Atanh Cast Ceil Cos Cosh Dropout Erf Exp Floor Identity "
    "IsInf IsNaN Log Neg Not Reciprocal Round Sigmoid Sign Sin Sinh Tan Tanh Relu LeakyRelu Elu "
    "Selu Gelu Softplus Softsign HardSigmoid HardSwish Mish Sqrt BitwiseNot Celu ThresholdedRelu "
    "Clip CastLike"
)
BROADCAST = _names(
    "Add And BitShift BitwiseAnd BitwiseOr BitwiseXor Equal Greater GreaterOrEqual Less "
    "LessOrEqual Mod Mul Or Pow Sub Sum Where Xor Div Max Min Mean PRelu"
)
REDUCTIONS = _names(
    "ReduceSum ReduceMean ReduceMax ReduceMin ReduceProd ReduceL1 ReduceL2 ReduceLogSum "
    "ReduceLogSumExp ReduceSumSquare ArgMax ArgMin"
)
MATMUL = frozenset(("MatMul", "Gemm", "Einsum", "MatMulInteger"))
# Operators the formalism declares out of its scope ("not supported in this version").
FORMALISM_UNSUPPORTED = _names(
    "If Loop Scan GRU LSTM RNN DFT STFT MelWeightMatrix TfIdfVectorizer AveragePool "
    "GlobalAveragePool GlobalLpPool GlobalMaxPool LpPool MaxPool MaxRoiPool Conv ConvInteger "
    "ConvTranspose DeformConv InstanceNormalization LpNormalization LayerNormalization "
    "SequenceAt SequenceConstruct SequenceEmpty SequenceErase SequenceInsert SequenceLength "
    "SequenceMap SplitToSequence ConcatFromSequence Optional OptionalGetElement "
    "OptionalHasElement"
)

FAMILIES = (
    "unary elementwise",
    "broadcast elementwise",
    "reduction",
    "matmul",
    "unsupported",
    "other",
)


def family(op_type: str) -> str:
    """The formalism's operator group of `op_type` (`"other"`: one it does not cover)."""
    if op_type in UNARY:
        return "unary elementwise"
    if op_type in BROADCAST:
        return "broadcast elementwise"
    if op_type in REDUCTIONS:
        return "reduction"
    if op_type in MATMUL:
        return "matmul"
    if op_type in FORMALISM_UNSUPPORTED:
        return "unsupported"
    return "other"


def reduction_kind(op_type: str) -> str | None:
    """How partial results along a sharded reduction factor combine:
    `"sum"`, `"max"`, `"min"`, `"mean"`, or None when they do not combine
    elementwise (a product, a norm, an arg-max)."""
    if op_type in ("MatMul", "Gemm", "Einsum", "Conv", "ReduceSum", "ReduceL1", "ReduceSumSquare"):
        return "sum"
    return {"ReduceMax": "max", "ReduceMin": "min", "ReduceMean": "mean"}.get(op_type)


def node_rule(
    node: Any,
    input_shapes: Sequence[Shape],
    output_shapes: Sequence[Shape],
    constants: Mapping[str, np.ndarray] | None = None,
) -> OpShardingRule:
    """The factor rule of `node` for its present inputs' and outputs' shapes;
    `constants` holds the values of constant inputs (Reshape's shape, the
    axes of a reduction, Slice's bounds). `UnsupportedOpError` saying why
    when shardonnay has no rule for it."""
    present = [name for name in node.input if name]
    if len(present) != len(input_shapes) or len(node.output) != len(output_shapes):
        raise ValueError(f"{node.op_type}: shapes for {len(present)} inputs and outputs expected")
    context = _Node(node, [tuple(s) for s in input_shapes], [tuple(s) for s in output_shapes])
    context.constants = constants or {}
    build = _RULES.get(node.op_type)
    if build is None:
        if node.op_type in UNARY:
            build = _unary
        elif node.op_type in BROADCAST:
            build = _broadcast
        elif node.op_type in REDUCTIONS:
            build = _reduce
        else:
            raise UnsupportedOpError(f"no sharding rule for ONNX operator {node.op_type}")
    return build(context).build(is_custom=True)


class _Node:
    """A node with its shapes, attributes and the positions of its present inputs."""

    def __init__(self, node: Any, inputs: list[Shape], outputs: list[Shape]):
        from onnx import helper

        self.node = node
        self.inputs, self.outputs = inputs, outputs
        self.attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        self.position = {}  # input position in the node -> operand index in the rule
        for i, name in enumerate(node.input):
            if name:
                self.position[i] = len(self.position)
        self.constants: Mapping[str, np.ndarray] = {}

    def builder(self) -> RuleBuilder:
        return RuleBuilder(self.inputs, self.outputs)

    def none(self) -> list[None]:
        return [None] * (len(self.inputs) + len(self.outputs))

    def factor(self, b: RuleBuilder, dims: Mapping[int, int], size: int, kind="pass_through"):
        """Adds a factor mapped to `dims` (tensor index: operands then results -> dim)."""
        all_dims = self.none()
        for t, d in dims.items():
            all_dims[t] = d
        n = len(self.inputs)
        b.add_factor(all_dims[:n], all_dims[n:], size, kind=kind)

    def out(self, i: int = 0) -> int:
        """Tensor index of output `i`."""
        return len(self.inputs) + i

    def operand(self, position: int) -> int | None:
        """Tensor index of the input at node position `position` (None if absent)."""
        return self.position.get(position)

    def constant(self, position: int) -> np.ndarray | None:
        if position >= len(self.node.input) or not self.node.input[position]:
            return None
        value = self.constants.get(self.node.input[position])
        if value is None:
            raise UnsupportedOpError(
                f"{self.node.op_type} {self.node.name!r}: input {self.node.input[position]!r} "
                "must be a constant (an initializer or a Constant node) for a sharding rule"
            )
        return np.asarray(value)

    def own_factors(self, b: RuleBuilder, tensors: Sequence[int]) -> None:
        """Every dim of `tensors` gets a factor of its own (no propagation through them)."""
        shapes = self.inputs + self.outputs
        for t in tensors:
            for d, size in enumerate(shapes[t]):
                self.factor(b, {t: d}, size)


# -- elementwise and broadcasting ---------------------------------------------------------


def _unary(n: _Node) -> RuleBuilder:
    """Pointwise over the first input; other inputs (Clip's bounds, CastLike's
    target) broadcast."""
    return _broadcast_over(n, n.outputs[0], range(len(n.inputs)), range(len(n.outputs)))


def _broadcast(n: _Node) -> RuleBuilder:
    return _broadcast_over(n, n.outputs[0], range(len(n.inputs)), range(len(n.outputs)))


def _broadcast_over(
    n: _Node, out_shape: Shape, inputs: Sequence[int], outputs: Sequence[int], b=None, kinds=None
) -> RuleBuilder:
    """Numpy broadcasting of `inputs` (tensor indices) to `out_shape`, shared by `outputs`."""
    b = b or n.builder()
    kinds = kinds or {}
    rank = len(out_shape)
    for j, size in enumerate(out_shape):
        dims: dict[int, int] = {}
        for t in inputs:
            shape = n.inputs[t]
            d = j - (rank - len(shape))
            if d < 0:
                continue
            if shape[d] == size:
                dims[t] = d
            else:  # a size-1 dim widened by broadcasting: a factor of its own
                n.factor(b, {t: d}, shape[d])
        for o in outputs:
            dims[n.out(o)] = j
        n.factor(b, dims, size, kinds.get(j, "pass_through"))
    for o in range(len(n.outputs)):
        if o not in outputs:
            n.own_factors(b, [n.out(o)])
    return b


# -- reductions ------------------------------------------------------------------------------


def _reduce(n: _Node) -> RuleBuilder:
    shape = n.inputs[0]
    rank = len(shape)
    if n.node.op_type in ("ArgMax", "ArgMin"):
        axes = [n.attrs.get("axis", 0)]
    elif "axes" in n.attrs:
        axes = list(n.attrs["axes"])
    else:
        given = n.constant(1)
        axes = [] if given is None else [int(a) for a in given.reshape(-1)]
    if not axes and not n.attrs.get("noop_with_empty_axes", 0):
        axes = list(range(rank))
    axes = sorted({a % rank for a in axes})
    keep = n.attrs.get("keepdims", 1)
    b = n.builder()
    j = 0
    for d, size in enumerate(shape):
        if d in axes:
            kind = "reduction" if reduction_kind(n.node.op_type) else "need_replication"
            n.factor(b, {0: d}, size, kind)
            if keep:
                n.factor(b, {n.out(): j}, 1)
                j += 1
        else:
            n.factor(b, {0: d, n.out(): j}, size)
            j += 1
    n.own_factors(b, range(1, len(n.inputs)))
    return b


# -- matmul-like -------------------------------------------------------------------------------


def _matmul(n: _Node) -> RuleBuilder:
    """numpy.matmul: 1-D operands gain a dim that the result drops; batch dims broadcast."""
    a, w = n.inputs[0], n.inputs[1]
    b = n.builder()
    a2 = a if len(a) > 1 else (1, *a)
    w2 = w if len(w) > 1 else (*w, 1)
    batch = n.outputs[0][: len(n.outputs[0]) - (len(a) > 1) - (len(w) > 1)]
    for j, size in enumerate(batch):
        dims = {n.out(): j}
        for t, shape in ((0, a2), (1, w2)):
            d = j - (len(batch) - (len(shape) - 2))
            if d < 0:
                continue
            if shape[d] == size:
                dims[t] = d
            else:
                n.factor(b, {t: d}, shape[d])
        n.factor(b, dims, size)
    out_rank = len(n.outputs[0])
    if len(a) > 1:
        n.factor(b, {0: len(a) - 2, n.out(): len(batch)}, a[-2])
    if len(w) > 1:
        n.factor(b, {1: len(w) - 1, n.out(): out_rank - 1}, w[-1])
    k_w = len(w) - 2 if len(w) > 1 else 0
    n.factor(b, {0: len(a) - 1, 1: k_w}, a[-1], "reduction")
    n.own_factors(b, range(2, len(n.inputs)))  # MatMulInteger's zero points
    return b


def _gemm(n: _Node) -> RuleBuilder:
    ta, tb = n.attrs.get("transA", 0), n.attrs.get("transB", 0)
    (m, k), (_, nn) = n.inputs[0][:: -1 if ta else 1], n.inputs[1][:: -1 if tb else 1]
    b = n.builder()
    c = n.operand(2)
    for j, (size, a_dim, b_dim) in enumerate(
        ((m, 1 if ta else 0, None), (nn, None, 0 if tb else 1))
    ):
        dims = {n.out(): j}
        if a_dim is not None:
            dims[0] = a_dim
        if b_dim is not None:
            dims[1] = b_dim
        if c is not None:
            shape = n.inputs[c]
            d = j - (2 - len(shape))
            if d >= 0 and shape[d] == size:
                dims[c] = d
            elif d >= 0:
                n.factor(b, {c: d}, shape[d])
        n.factor(b, dims, size)
    n.factor(b, {0: 0 if ta else 1, 1: 1 if tb else 0}, k, "reduction")
    return b


def _einsum(n: _Node) -> RuleBuilder:
    equation = n.attrs["equation"].decode() if isinstance(n.attrs["equation"], bytes) else ""
    equation = equation.replace(" ", "")
    if "..." in equation or "->" not in equation:
        raise UnsupportedOpError(
            f"Einsum {equation!r}: only explicit equations without '...' have a sharding rule"
        )
    lhs, rhs = equation.split("->")
    terms = [*lhs.split(","), rhs]
    if any(len(set(t)) != len(t) for t in terms):
        raise UnsupportedOpError(f"Einsum {equation!r}: a repeated index (a diagonal)")
    shapes = n.inputs + n.outputs
    b = n.builder()
    for letter in dict.fromkeys("".join(terms)):
        if letter not in string.ascii_letters:
            raise UnsupportedOpError(f"Einsum {equation!r}: unexpected {letter!r}")
        dims = {t: term.index(letter) for t, term in enumerate(terms) if letter in term}
        sizes = {shapes[t][d] for t, d in dims.items()}
        size = max(sizes)
        for t, d in list(dims.items()):
            if shapes[t][d] != size:  # broadcast size-1 index
                n.factor(b, {t: d}, shapes[t][d])
                del dims[t]
        n.factor(b, dims, size, "pass_through" if letter in rhs else "reduction")
    return b


# -- shapes and data movement --------------------------------------------------------------


def _transpose(n: _Node) -> RuleBuilder:
    rank = len(n.inputs[0])
    perm = list(n.attrs.get("perm", reversed(range(rank))))
    b = n.builder()
    for j, d in enumerate(perm):
        n.factor(b, {0: d, n.out(): j}, n.inputs[0][d])
    return b


def _reshape(n: _Node) -> RuleBuilder:
    """The rule of `stablehlo.reshape` between the same shapes."""
    x, y = n.inputs[0], n.outputs[0]
    module = Builder.module()
    with module.function("reshape", [TensorType(x, "f32")]) as f:
        op = module.create("stablehlo.reshape", f.arguments, result_types=[TensorType(y, "f32")])
        f.returns(*op.results)
    rule = rule_for(op)
    if rule is None:
        raise UnsupportedOpError(f"{n.node.op_type}: no factor rule from {x} to {y}")
    b = n.builder()
    for f_index, size in enumerate(rule.factor_sizes):
        dims = {}
        for t, mapping in ((0, rule.operand_mappings[0]), (n.out(), rule.result_mappings[0])):
            for d, factors in enumerate(mapping):
                if f_index in factors:
                    dims[t] = d
        n.factor(b, dims, size)
    n.own_factors(b, range(1, len(n.inputs)))
    return b


def _concat(n: _Node) -> RuleBuilder:
    axis = n.attrs["axis"] % len(n.outputs[0])
    kinds = {axis: "need_replication"}
    return _aligned(n, range(len(n.inputs)), kinds)


def _aligned(n: _Node, inputs: Sequence[int], kinds: Mapping[int, str]) -> RuleBuilder:
    """One factor per output dim, mapped to that dim of each of `inputs` (same rank)."""
    b = n.builder()
    for j, size in enumerate(n.outputs[0]):
        dims = {t: j for t in inputs}
        dims[n.out()] = j
        size = max([size, *(n.inputs[t][j] for t in inputs)])
        n.factor(b, dims, size, kinds.get(j, "pass_through"))
    n.own_factors(b, [t for t in range(len(n.inputs)) if t not in inputs])
    return b


def _slice(n: _Node) -> RuleBuilder:
    """Dims the slice cuts or reverses are permutation factors; a dim it
    leaves whole (start 0, step 1, end past the size) passes through."""
    x = n.inputs[0]
    starts, ends = n.constant(1), n.constant(2)
    axes, steps = n.constant(3), n.constant(4)
    axes = range(len(starts)) if axes is None else [int(a) % len(x) for a in axes]
    steps = [1] * len(starts) if steps is None else [int(s) for s in steps]
    kinds = {}
    for axis, start, end, step in zip(axes, starts, ends, steps, strict=True):
        starts_at_0 = int(start) == 0 or int(start) <= -x[axis]
        if not (starts_at_0 and step == 1 and int(end) >= x[axis]):
            kinds[axis] = "permutation"
    return _aligned(n, [0], kinds)


def _gather(n: _Node) -> RuleBuilder:
    data, indices = n.inputs[0], n.inputs[1]
    axis = n.attrs.get("axis", 0) % len(data)
    b = n.builder()
    n.factor(b, {0: axis}, data[axis], "need_replication")
    for d, size in enumerate(data):
        if d < axis:
            n.factor(b, {0: d, n.out(): d}, size)
        elif d > axis:
            n.factor(b, {0: d, n.out(): d + len(indices) - 1}, size)
    for d, size in enumerate(indices):
        n.factor(b, {1: d, n.out(): axis + d}, size)
    return b


def _expand(n: _Node) -> RuleBuilder:
    b = _broadcast_over(n, n.outputs[0], [0], [0])
    n.own_factors(b, [1])
    return b


def _softmax(n: _Node) -> RuleBuilder:
    axis = n.attrs.get("axis", -1) % len(n.inputs[0])
    return _aligned(n, [0], {axis: "need_replication"})


def _layer_norm(n: _Node) -> RuleBuilder:
    """Y = normalize(X over dims >= axis) * Scale + B; Mean and InvStdDev keep
    the leading dims, with size-1 normalized dims."""
    x = n.inputs[0]
    axis = n.attrs.get("axis", -1) % len(x)
    b = n.builder()
    for d, size in enumerate(x):
        dims = {0: d, n.out(): d}
        kind = "pass_through"
        if d >= axis:
            kind = "need_replication"
            for position in (1, 2):
                t = n.operand(position)
                if t is None:
                    continue
                pd = d - (len(x) - len(n.inputs[t]))
                if pd >= 0 and n.inputs[t][pd] == size:
                    dims[t] = pd
                elif pd >= 0:
                    n.factor(b, {t: pd}, n.inputs[t][pd])
        for o in range(1, len(n.outputs)):
            if d < axis:
                dims[n.out(o)] = d
            else:
                n.factor(b, {n.out(o): d}, 1)
        n.factor(b, dims, size, kind)
    return b


def _batch_norm(n: _Node) -> RuleBuilder:
    """Inference-mode BatchNormalization: the channel dim (1) is shared with
    the four per-channel inputs."""
    x = n.inputs[0]
    b = n.builder()
    for d, size in enumerate(x):
        dims = {0: d, n.out(): d}
        if d == 1:
            dims.update({t: 0 for t in range(1, len(n.inputs))})
        n.factor(b, dims, size)
    n.own_factors(b, range(1, len(n.outputs)))
    return b


def _conv(n: _Node) -> RuleBuilder:
    """Conv(X [N, C, S...], W [M, C, K...], B [M]) -> Y [N, M, S'...]: batch and
    output channels pass through, input channels are a reduction, windows
    need replication."""
    if n.attrs.get("group", 1) != 1:
        raise UnsupportedOpError("Conv with group != 1 has no sharding rule here")
    x, w, y = n.inputs[0], n.inputs[1], n.outputs[0]
    b = n.builder()
    n.factor(b, {0: 0, n.out(): 0}, x[0])
    out_channel = {1: 0, n.out(): 1}
    if n.operand(2) is not None:
        out_channel[n.operand(2)] = 0
    n.factor(b, out_channel, w[0])
    n.factor(b, {0: 1, 1: 1}, x[1], "reduction")
    for d in range(2, len(x)):
        n.factor(b, {0: d}, x[d], "need_replication")
        n.factor(b, {1: d}, w[d], "need_replication")
        n.factor(b, {n.out(): d}, y[d], "need_replication")
    return b


def _pool(n: _Node) -> RuleBuilder:
    """Pools: batch and channels pass through, windows need replication."""
    x, y = n.inputs[0], n.outputs[0]
    b = n.builder()
    for d in range(2):
        dims = {0: d}
        for o in range(len(n.outputs)):
            dims[n.out(o)] = d
        n.factor(b, dims, x[d])
    for d in range(2, len(x)):
        n.factor(b, {0: d}, x[d], "need_replication")
        for o in range(len(n.outputs)):
            n.factor(b, {n.out(o): d}, y[d], "need_replication")
    return b


def _source(n: _Node) -> RuleBuilder:
    """Ops whose outputs are not elementwise images of their inputs (Constant,
    Range, ConstantOfShape): every dim has a factor of its own."""
    b = n.builder()
    n.own_factors(b, range(len(n.inputs) + len(n.outputs)))
    return b


def _shape_of(n: _Node) -> RuleBuilder:
    """Shape and Size read the whole input's shape: its dims need replication
    (a device's piece has another shape)."""
    b = n.builder()
    for d, size in enumerate(n.inputs[0]):
        n.factor(b, {0: d}, size, "need_replication")
    n.own_factors(b, [n.out()])
    return b


_RULES = {
    "MatMul": _matmul,
    "MatMulInteger": _matmul,
    "Gemm": _gemm,
    "Einsum": _einsum,
    "Transpose": _transpose,
    "Reshape": _reshape,
    "Flatten": _reshape,
    "Squeeze": _reshape,
    "Unsqueeze": _reshape,
    "Concat": _concat,
    "Slice": _slice,
    "Gather": _gather,
    "Expand": _expand,
    "Softmax": _softmax,
    "LogSoftmax": _softmax,
    "LayerNormalization": _layer_norm,
    "BatchNormalization": _batch_norm,
    "Conv": _conv,
    "MaxPool": _pool,
    "AveragePool": _pool,
    "GlobalAveragePool": _pool,
    "GlobalMaxPool": _pool,
    "Shape": _shape_of,
    "Constant": _source,
    "ConstantOfShape": _source,
    "Range": _source,
    "Size": _shape_of,
}
