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
from typing import Any

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import EnumAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType
from shardonnay.ops.linalg import finish_rule, tensor_type
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

_ALGORITHMS = ("DEFAULT", "THREE_FRY", "PHILOX")
_DISTRIBUTIONS = ("UNIFORM", "NORMAL")


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
        p.expect(",")
        p.expect("algorithm", "'algorithm'")
        p.expect("=")
        pos = p.pos
        algorithm = p.identifier("an rng algorithm (DEFAULT, THREE_FRY, PHILOX)")
        if algorithm not in _ALGORITHMS:
            raise p.error(f"unknown rng algorithm {algorithm}", pos)
        attrs = dict(p.optional_attr_dict())
        attrs["rng_algorithm"] = EnumAttr("stablehlo", "rng_algorithm", algorithm)
        p.expect(":")
        p.skip_space()
        pos = p.pos
        ftype = p.functional_type()
        if len(ftype.inputs) != 1 or len(ftype.results) != 2:
            raise p.error("expected a type (state) -> (state, output)", pos)
        p._check_type(operand, ftype.inputs[0], pos)
        op = p.make_op(name, [operand], ftype.results, attrs)
        return mark_inherent(op, ("rng_algorithm",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f", algorithm = {_algorithm(op)}")
        w.attr_dict(op, ("rng_algorithm",))
        w.write(" : ")
        w.functional_type(op)

    def result_names(self, op: Op) -> list[str | None] | None:
        return ["output_state", "output"]

    def verify(self, op: Op) -> None:
        _algorithm(op)
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


def _algorithm(op: Op) -> str:
    value = op.attributes.get("rng_algorithm")
    if not isinstance(value, EnumAttr) or value.value not in _ALGORITHMS:
        raise IRError(f"{op.name}: needs rng_algorithm = #stablehlo<rng_algorithm ...>")
    return value.value


class RngOp(OpDef):
    """`stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (...) -> t`: uniform
    in [a, b), or normal with mean a and standard deviation b."""

    pure = False

    def parse(self, p, name: str) -> Op:
        operands = [p.operand()]
        for _ in range(2):
            p.expect(",")
            operands.append(p.operand())
        p.expect(",")
        p.expect("distribution", "'distribution'")
        p.expect("=")
        pos = p.pos
        distribution = p.identifier("UNIFORM or NORMAL")
        if distribution not in _DISTRIBUTIONS:
            raise p.error(f"unknown rng distribution {distribution}", pos)
        attrs: dict[str, Any] = dict(p.optional_attr_dict())
        attrs["rng_distribution"] = EnumAttr("stablehlo", "rng_distribution", distribution)
        p.expect(":")
        p.skip_space()
        pos = p.pos
        ftype = p.functional_type()
        if len(ftype.inputs) != 3 or len(ftype.results) != 1:
            raise p.error("expected a type (a, b, shape) -> result", pos)
        for v, t in zip(operands, ftype.inputs, strict=True):
            p._check_type(v, t, pos)
        op = p.make_op(name, operands, ftype.results, attrs)
        return mark_inherent(op, ("rng_distribution",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.write(f", distribution = {_distribution(op)}")
        w.attr_dict(op, ("rng_distribution",))
        w.write(" : ")
        w.functional_type(op)

    def verify(self, op: Op) -> None:
        _distribution(op)
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
        if _distribution(op) == "NORMAL":
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


def _distribution(op: Op) -> str:
    value = op.attributes.get("rng_distribution")
    if not isinstance(value, EnumAttr) or value.value not in _DISTRIBUTIONS:
        raise IRError(f"{op.name}: needs rng_distribution = #stablehlo<rng_distribution ...>")
    return value.value


register("stablehlo.rng_bit_generator", RngBitGeneratorOp())
register("stablehlo.rng", RngOp())
