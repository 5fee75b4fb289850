"""Random numbers: `stablehlo.rng_bit_generator` and `stablehlo.rng`.

    %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT
        : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x4xui32>)
    %0 = stablehlo.rng %arg0, %arg1, %arg2, distribution = UNIFORM
        : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>

The values are implementation-defined. Here they are deterministic: the bits
come from numpy's Philox generator keyed by the whole initial state, and the
new state is the old one with its last word advanced by the number of 64-bit
words drawn, so a chain of generators never repeats a key. `stablehlo.rng`
draws from a generator with a fixed seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import EnumAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import FunctionType, TensorType
from shardonnay.ops.linalg import finish_rule, tensor_type
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder


@dataclass(frozen=True)
class _EnumKeyword:
    """The pretty syntax `..., keyword = VALUE {attrs} : (types) -> types` of an
    op whose attribute `kind` is a `#stablehlo<kind VALUE>` among `values`."""

    keyword: str
    kind: str
    values: tuple[str, ...]
    expected: str

    def read(self, p) -> tuple[dict[str, Any], FunctionType, int]:
        """The attributes (with `kind`), the function type and its position."""
        p.expect(",")
        p.expect(self.keyword, f"'{self.keyword}'")
        p.expect("=")
        pos = p.pos
        value = p.identifier(self.expected)
        if value not in self.values:
            raise p.error(f"unknown {self.kind.replace('_', ' ')} {value}", pos)
        attrs: dict[str, Any] = dict(p.optional_attr_dict())
        attrs[self.kind] = EnumAttr("stablehlo", self.kind, value)
        p.expect(":")
        p.skip_space()
        pos = p.pos
        return attrs, p.functional_type(), pos

    def value(self, op: Op) -> str:
        value = op.attributes.get(self.kind)
        if not isinstance(value, EnumAttr) or value.value not in self.values:
            raise IRError(f"{op.name}: needs {self.kind} = #stablehlo<{self.kind} ...>")
        return value.value

    def write(self, op: Op, w) -> None:
        """Writes what `read` reads, after the operands."""
        w.write(f", {self.keyword} = {self.value(op)}")
        w.attr_dict(op, (self.kind,))
        w.write(" : ")
        w.functional_type(op)


_ALGORITHM = _EnumKeyword(
    "algorithm",
    "rng_algorithm",
    ("DEFAULT", "THREE_FRY", "PHILOX"),
    "an rng algorithm (DEFAULT, THREE_FRY, PHILOX)",
)
_DISTRIBUTION = _EnumKeyword(
    "distribution", "rng_distribution", ("UNIFORM", "NORMAL"), "UNIFORM or NORMAL"
)


def random_bits(state: np.ndarray, shape: tuple[int, ...], dtype: np.dtype) -> tuple:
    """(new state, an array of `shape` and `dtype` holding random bits) from `state`."""
    state = np.asarray(state)
    words = [int(w) for w in state.reshape(-1).astype(np.uint64)]
    seed = np.random.SeedSequence([w & 0xFFFFFFFF for w in words] + [w >> 32 for w in words])
    generator = np.random.Philox(seed)
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    count = (nbytes + 7) // 8
    raw = generator.random_raw(count).astype(np.uint64) if count else np.zeros(0, np.uint64)
    bits = np.frombuffer(raw.tobytes()[:nbytes], dtype=dtype).reshape(shape)
    if dtype == np.bool_:
        bits = np.frombuffer(raw.tobytes()[:nbytes], dtype=np.uint8).reshape(shape) & 1 == 1
    new_state = state.copy()
    if new_state.size:
        flat = new_state.reshape(-1)
        modulus = 1 << (8 * flat.dtype.itemsize)
        flat[-1] = (int(flat[-1]) + max(count, 1)) % modulus
    return new_state, bits.copy()


class RngBitGeneratorOp(OpDef):
    """`stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (s) -> (s, t)`."""

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        attrs, ftype, pos = _ALGORITHM.read(p)
        if len(ftype.inputs) != 1 or len(ftype.results) != 2:
            raise p.error("expected a type (state) -> (state, output)", pos)
        p._check_type(operand, ftype.inputs[0], pos)
        op = p.make_op(name, [operand], ftype.results, attrs)
        return mark_inherent(op, ("rng_algorithm",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        _ALGORITHM.write(op, w)

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["output_state", "output"]

    def verify(self, op: Op) -> None:
        _ALGORITHM.value(op)
        if len(op.operands) != 1 or len(op.results) != 2:
            raise IRError(f"{op.name}: takes a state and returns a new state and the output")
        state = tensor_type(op, op.operands[0].type, "the state")
        if op.result_types[0] != state:
            raise IRError(f"{op.name}: the new state {op.result_types[0]} differs from {state}")
        tensor_type(op, op.result_types[1], "the output")

    def evaluate(self, op: Op, args: list, interp) -> list:
        out = tensor_type(op, op.result_types[1], "the output")
        return list(random_bits(args[0], out.shape, out.dtype))

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """The state dims (shared by the old and new state) need replication
        and never propagate; the output dims are free:
        `([i])->([i], [j, k]) {i=2, j=4, k=8} need_replication={i}
        blocked_propagation={i}`. (`stablehlo.rng` has no rule.)"""
        b = RuleBuilder.for_op(op)
        for d, size in enumerate(b.operand_shapes[0]):
            b.add_factor([d], [d, None], size, kind="need_replication", blocked=True)
        for d, size in enumerate(b.result_shapes[1]):
            b.add_factor([None], [None, d], size)
        return finish_rule(b)


class RngOp(OpDef):
    """`stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (...) -> t`: uniform
    in [a, b), or normal with mean a and standard deviation b."""

    pure = False

    def parse(self, p, name: str) -> Op:
        operands = [p.operand()]
        for _ in range(2):
            p.expect(",")
            operands.append(p.operand())
        attrs, ftype, pos = _DISTRIBUTION.read(p)
        if len(ftype.inputs) != 3 or len(ftype.results) != 1:
            raise p.error("expected a type (a, b, shape) -> result", pos)
        for v, t in zip(operands, ftype.inputs, strict=True):
            p._check_type(v, t, pos)
        op = p.make_op(name, operands, ftype.results, attrs)
        return mark_inherent(op, ("rng_distribution",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        _DISTRIBUTION.write(op, w)

    def verify(self, op: Op) -> None:
        _DISTRIBUTION.value(op)
        if len(op.operands) != 3 or len(op.results) != 1:
            raise IRError(f"{op.name}: takes a, b and a shape and has one result")
        out = tensor_type(op, op.result_types[0], "the result")
        shape = tensor_type(op, op.operands[2].type, "the shape")
        if shape.shape != (out.rank,):
            raise IRError(f"{op.name}: the shape operand {shape} does not fit {out}")

    def evaluate(self, op: Op, args: list, interp) -> list:
        out: TensorType = tensor_type(op, op.result_types[0], "the result")
        if tuple(int(d) for d in np.asarray(args[2]).reshape(-1)) != out.shape:
            raise IRError(f"{op.name}: the shape operand {args[2]} differs from {out}")
        a = np.asarray(args[0]).reshape(())
        b = np.asarray(args[1]).reshape(())
        generator = np.random.Generator(np.random.Philox(0))
        if _DISTRIBUTION.value(op) == "NORMAL":
            return [generator.normal(float(a), float(b), size=out.shape).astype(out.dtype)]
        if out.dtype.kind in "iu":
            if int(b) <= int(a):
                return [np.full(out.shape, a, out.dtype)]
            return [generator.integers(int(a), int(b), size=out.shape).astype(out.dtype)]
        if out.dtype == np.bool_:
            return [np.full(out.shape, bool(a), out.dtype)]
        values = generator.uniform(float(a), float(b), size=out.shape).astype(out.dtype)
        # Rounding to the element type may reach b; keep the interval half-open.
        return [np.where(values >= b, a, values).astype(out.dtype)]


register("stablehlo.rng_bit_generator", RngBitGeneratorOp())
register("stablehlo.rng", RngOp())
