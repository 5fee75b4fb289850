"""The `chlo` ops JAX emits (client HLO: ops XLA expands into StableHLO), with numpy semantics:

    %0 = chlo.square %a : tensor<4x5xf32> -> tensor<4x5xf32>
    %1 = chlo.erf %a {foo = 1 : i32} : tensor<4x5xf32> -> tensor<4x5xf32>
    %2 = chlo.next_after %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    %values, %indices = chlo.top_k(%a, k = 2) : tensor<5xf32> -> (tensor<2xf32>, tensor<2xi32>)

The elementwise ops print their operand types, then `->` and the result type,
even when they are equal. `top_k` keeps its `k` (an i64) among the op's own
attributes; it returns the `k` largest entries along the last dimension,
sorted in descending total order (NaN above +inf, -NaN below -inf, -0.0 below
0.0), equal entries in the order of their indices, and their int32 indices.

The transcendental functions compute in float64 and round to the result type.

Shardy has no sharding rules for chlo ops (its propagation stops at them and
its partitioner leaves their operands gathered). shardonnay's partitioner
gives the elementwise ones the rule of what they compute, pointwise like the
StableHLO ops they expand into (`square` is `multiply(x, x)`), written on
the op as a custom `sdy.sharding_rule` (`write_computed_rules`), so that a
sharded layer-norm variance or Adam moment stays sharded. The passes named
after Shardy's leave chlo ops without a rule, as Shardy does.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np

from shardonnay.errors import IRError, UnsupportedOpError
from shardonnay.ir.attributes import IntegerAttr
from shardonnay.ir.core import Module, Op
from shardonnay.ir.types import TensorType, Type, is_complex, is_float, is_integer
from shardonnay.ops.elementwise import pointwise_rule
from shardonnay.ops.registry import OpDef, lookup, mark_inherent, register
from shardonnay.ops.traits import BROADCASTING_ELEMENTWISE, ELEMENTWISE
from shardonnay.sharding_rule import OpShardingRule

# -- syntax shared by the ops ------------------------------------------------------------------


def _tensor(op: Op, t: Type, what: str) -> TensorType:
    if not isinstance(t, TensorType):
        raise IRError(f"{op.name}: {what} must be a ranked tensor, not {t}")
    return t


# -- elementwise ops ------------------------------------------------------------------------------


class ElementwiseOp(OpDef):
    """`chlo.NAME %a, ... {attrs} : t1, ... -> r`: `fn` applied to the elements.

    `complex_ok` says whether complex element types are allowed besides floats.
    """

    def __init__(self, arity: int, fn: Callable[..., np.ndarray], *, complex_ok: bool):
        self.arity = arity
        self.fn = fn
        self.complex_ok = complex_ok

    def parse(self, p, name: str) -> Op:
        operands = p.operands_until(":") if p.peek("%") else []
        attrs = p.merge_attr_dict({})
        p.expect(":", "':' and the operand types")
        p.skip_space()
        pos = p.pos
        inputs = p.types()
        p.check_operand_types(operands, inputs, pos)
        p.expect("->", "'->' and the result type")
        result = p.type()
        return mark_inherent(p.make_op(name, operands, [result], attrs), ())

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.attr_dict(op)
        w.write(" : ")
        w.types(v.type for v in op.operands)
        w.write(" -> ")
        w.type(op.result_types[0])

    def infer_types(self, op: Op) -> list[Type] | None:
        if not op.operands or not isinstance(op.operands[0].type, TensorType):
            return None
        return [op.operands[0].type]

    def verify(self, op: Op) -> None:
        if len(op.operands) != self.arity or len(op.results) != 1:
            raise IRError(f"{op.name}: takes {self.arity} operand(s) and has one result")
        result = _tensor(op, op.result_types[0], "the result")
        for v in op.operands:
            t = _tensor(op, v.type, "an operand")
            element = t.element_type
            if not (is_float(element) or (self.complex_ok and is_complex(element))):
                kinds = "float or complex" if self.complex_ok else "float"
                raise IRError(f"{op.name}: operands must be {kinds} tensors, not {t}")
            if t != result:
                raise IRError(f"{op.name}: operand type {t} differs from the result type {result}")

    def evaluate(self, op: Op, args: list, interp) -> list:
        arrays = [np.asarray(a) for a in args]
        if not self.complex_ok and any(a.dtype.kind == "c" for a in arrays):
            raise UnsupportedOpError(f"{op.name}: needs float operands")
        wide = [a.astype(np.complex128 if a.dtype.kind == "c" else np.float64) for a in arrays]
        with np.errstate(all="ignore"):
            result = self.fn(*wide)
        return [np.asarray(result).astype(op.result_types[0].dtype)]


def _scalar_ufunc(fn: Callable[[float], float]) -> Callable[[np.ndarray], np.ndarray]:
    """`fn` (a `math` function, raising on poles and domain errors) on every element."""

    def safe(x: float) -> float:
        if math.isnan(x):
            return math.nan
        try:
            return fn(x)
        except OverflowError:
            return math.inf
        except ValueError:  # a pole of lgamma
            return math.inf

    ufunc = np.frompyfunc(safe, 1, 1)
    return lambda x: np.asarray(ufunc(x), np.float64)


def _digamma(x: np.ndarray) -> np.ndarray:
    """The logarithmic derivative of the gamma function; NaN at its poles (x = 0, -1, ...)."""
    x = np.asarray(x, np.float64)
    pole = (x <= 0) & (x == np.floor(x))
    reflect = x < 0.5
    # psi(x) = psi(1 - x) - pi / tan(pi x) for x < 1/2.
    y = np.where(reflect, 1.0 - x, x)
    y = np.where(pole | ~np.isfinite(y), 1.0, y)
    shift = np.zeros_like(y)
    while True:
        small = y < 8.0
        if not small.any():
            break
        shift -= np.where(small, 1.0 / y, 0.0)
        y = np.where(small, y + 1.0, y)
    inv2 = 1.0 / (y * y)
    series = inv2 * (
        1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132))))
    )
    psi = shift + np.log(y) - 0.5 / y - series
    psi = np.where(reflect, psi - np.pi / np.tan(np.pi * np.where(pole, 0.5, x)), psi)
    psi = np.where(x == np.inf, np.inf, psi)
    return np.where(pole | np.isnan(x) | (x == -np.inf), np.nan, psi)


_erf = _scalar_ufunc(math.erf)


def _erf_inv(x: np.ndarray) -> np.ndarray:
    """The inverse of erf on [-1, 1] (±inf at ±1, NaN outside), by Newton's method."""
    x = np.asarray(x, np.float64)
    inside = np.abs(x) < 1
    t = np.where(inside, x, 0.0)
    # Winitzki's approximation as the start.
    a = 0.147
    ln = np.log1p(-t * t)
    first = 2 / (np.pi * a) + ln / 2
    y = np.sign(t) * np.sqrt(np.sqrt(first * first - ln / a) - first)
    for _ in range(6):
        error = _erf(y) - t
        y = y - error / (2 / np.sqrt(np.pi) * np.exp(-y * y))
    edge = np.where(np.abs(x) == 1, np.sign(x) * np.inf, np.nan)
    return np.where(inside, y, edge)


class NextAfterOp(ElementwiseOp):
    """`chlo.next_after %x, %y : t, t -> t`: the next representable value after x toward y."""

    def __init__(self) -> None:
        super().__init__(2, np.nextafter, complex_ok=False)

    def evaluate(self, op: Op, args: list, interp) -> list:
        x, y = (np.asarray(a) for a in args)
        dtype = op.result_types[0].dtype
        if dtype.kind != "f":
            raise UnsupportedOpError(f"{op.name}: needs float32/float64/float16 operands")
        return [np.nextafter(x.astype(dtype), y.astype(dtype))]


_UNARY: dict[str, tuple[Callable[[np.ndarray], np.ndarray], bool]] = {
    "chlo.square": (lambda x: x * x, True),
    "chlo.acos": (np.arccos, True),
    "chlo.asin": (np.arcsin, True),
    "chlo.atan": (np.arctan, True),
    "chlo.acosh": (np.arccosh, True),
    "chlo.asinh": (np.arcsinh, True),
    "chlo.atanh": (np.arctanh, True),
    "chlo.sinh": (np.sinh, True),
    "chlo.cosh": (np.cosh, True),
    "chlo.tan": (np.tan, True),
    "chlo.erf": (_erf, False),
    "chlo.erfc": (_scalar_ufunc(math.erfc), False),
    "chlo.erf_inv": (_erf_inv, False),
    "chlo.lgamma": (_scalar_ufunc(math.lgamma), False),
    "chlo.digamma": (_digamma, False),
}

for _name, (_fn, _complex_ok) in _UNARY.items():
    register(_name, ElementwiseOp(1, _fn, complex_ok=_complex_ok), traits={ELEMENTWISE})
register("chlo.next_after", NextAfterOp(), traits={BROADCASTING_ELEMENTWISE})


# -- the rules of what elementwise chlo ops compute --------------------------------------------

RULE_ATTRIBUTE = "sdy.sharding_rule"


def computed_rule(op: Op) -> OpShardingRule | None:
    """The sharding rule of what `op` computes: pointwise for the elementwise
    chlo ops (as for `stablehlo.multiply`, which `chlo.square` expands into);
    None for other ops.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> m = parse_module('''
    ... func.func @main(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
    ...   %0 = chlo.square %a : tensor<4x8xf32> -> tensor<4x8xf32>
    ...   return %0 : tensor<4x8xf32>
    ... }''')
    >>> print(computed_rule(m.function("main").body.ops[0]))
    #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
    """
    if not isinstance(lookup(op.name), ElementwiseOp):
        return None
    if not all(isinstance(v.type, TensorType) for v in [*op.operands, *op.results]):
        return None
    return pointwise_rule(op, op.result_types[0].shape)


def write_computed_rules(module: Module) -> Module:
    """Writes `computed_rule` on every elementwise chlo op of `module` that has
    no `sdy.sharding_rule` yet (in place; returns `module`). Shardy reads such
    a rule as a custom rule, so the program propagates alike there.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> m = parse_module('''
    ... func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    ...   %0 = chlo.erf %a : tensor<4xf32> -> tensor<4xf32>
    ...   return %0 : tensor<4xf32>
    ... }''')
    >>> op = write_computed_rules(m).function("main").body.ops[0]
    >>> print(op.attributes[RULE_ATTRIBUTE])
    #sdy.op_sharding_rule<([i])->([i]) {i=4}>
    """
    for op in module.walk():
        if op.name.startswith("chlo.") and RULE_ATTRIBUTE not in op.attributes:
            rule = computed_rule(op)
            if rule is not None:
                op.attributes[RULE_ATTRIBUTE] = rule
    return module


# -- top_k -------------------------------------------------------------------------------------


def _descending_key(x: np.ndarray) -> np.ndarray:
    """Integers whose ascending order is the descending total order of `x`."""
    if x.dtype.kind == "f" or x.dtype.name == "bfloat16":
        bits = x.view(np.dtype(f"i{x.dtype.itemsize}"))
        # Negative floats order backwards as integers: flip all bits but the sign.
        mask = np.array(np.iinfo(bits.dtype).max, bits.dtype)
        ordered = np.where(bits < 0, bits ^ mask, bits)
        return ~ordered
    if x.dtype.kind in "iub":
        return ~x
    raise UnsupportedOpError(f"chlo.top_k: cannot order {x.dtype} elements")


_K = re.compile(r"k\b")


class TopKOp(OpDef):
    """`chlo.top_k(%a, k = K) {attrs} : t -> (values, indices)`."""

    def parse(self, p, name: str) -> Op:
        p.expect("(")
        operand = p.operand()
        p.expect(",", "',' and k")
        p.match(_K, "'k = ...'")
        p.expect("=", "'=' after k")
        k = p.integer()
        p.expect(")", "')' after k")
        attrs = p.merge_attr_dict({"k": IntegerAttr(k, "i64")})
        p.expect(":", "':' and the operand type")
        p.skip_space()
        pos = p.pos
        operand_type = p.type()
        p.check_operand_types([operand], [operand_type], pos)
        p.expect("->", "'->' and the result types")
        p.skip_space()
        pos = p.pos
        results = p.type_list_parens()
        if len(results) != 2:
            raise p.error("chlo.top_k has two results (values, indices)", pos)
        return mark_inherent(p.make_op(name, [operand], results, attrs), ("k",))

    def print(self, op: Op, w) -> None:
        w.write("(")
        w.operand(op.operands[0])
        w.write(f", k = {_k(op)})")
        w.attr_dict(op, ("k",))
        w.write(f" : {op.operands[0].type} -> (")
        w.types(op.result_types)
        w.write(")")

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["values", "indices"]

    def infer_types(self, op: Op) -> list[Type] | None:
        if len(op.operands) != 1 or not isinstance(op.operands[0].type, TensorType):
            return None
        t = op.operands[0].type
        if not t.shape or not isinstance(op.attributes.get("k"), IntegerAttr):
            return None
        shape = (*t.shape[:-1], _k(op))
        return [t.with_shape(shape), TensorType(shape, "i32")]

    def verify(self, op: Op) -> None:
        if len(op.operands) != 1 or len(op.results) != 2:
            raise IRError(f"{op.name}: takes one operand and has two results")
        k = op.attributes.get("k")
        if not isinstance(k, IntegerAttr):
            raise IRError(f"{op.name}: needs an integer attribute k")
        t = _tensor(op, op.operands[0].type, "the operand")
        if not t.shape:
            raise IRError(f"{op.name}: operand's rank must be at least 1")
        if t.shape[-1] < k.value:
            raise IRError(f"{op.name}: operand's last dimension must be at least {k.value}")
        element = t.element_type
        if not (is_float(element) or is_integer(element) or is_complex(element)):
            raise IRError(f"{op.name}: cannot order elements of type {element}")
        inferred = self.infer_types(op)
        if inferred is not None and list(op.result_types) != inferred:
            raise IRError(
                f"{op.name}: result types ({', '.join(map(str, op.result_types))}) differ "
                f"from the inferred ({', '.join(map(str, inferred))})"
            )

    def evaluate(self, op: Op, args: list, interp) -> list:
        x = np.asarray(args[0])
        k = _k(op)
        order = np.argsort(_descending_key(x), axis=-1, kind="stable")[..., :k]
        values = np.take_along_axis(x, order, axis=-1)
        return [values, order.astype(np.int32)]


def _k(op: Op) -> int:
    k = op.attributes.get("k")
    if not isinstance(k, IntegerAttr):
        raise IRError(f"{op.name}: needs an integer attribute k")
    return k.value


register("chlo.top_k", TopKOp())
