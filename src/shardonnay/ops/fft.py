"""`stablehlo.fft`: discrete Fourier transforms over the trailing dims.

`stablehlo.fft %x, type = FFT, length = [4, 8] : (tensor<2x4x8xcomplex<f32>>)
-> tensor<2x4x8xcomplex<f32>>` (what `jnp.fft` exports; generically
`fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4, 8>`)
transforms the last `len(length)` dims (1 to 3):

- `FFT` / `IFFT`: complex to complex, forward / inverse (`numpy.fft.fftn` /
  `ifftn`);
- `RFFT`: real to complex, the last dim of length `n` becomes `n // 2 + 1`
  (`rfftn`);
- `IRFFT`: complex to real, the inverse of `RFFT` (`irfftn` with the
  lengths given).

Its sharding rule is Shardy's: one factor per dim of the operand; the
transformed dims need replication, and for `RFFT` / `IRFFT` the last one,
whose size changes, also blocks propagation.

>>> import numpy as np
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> from shardonnay.runtime.interpreter import run
>>> m = parse_module('''func.func @main(%x: tensor<4xf32>) -> tensor<3xcomplex<f32>> {
...   %0 = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
...   return %0 : tensor<3xcomplex<f32>>
... }''')
>>> run(m, np.array([1.0, 0.0, -1.0, 0.0]))[0].tolist()
[0j, (2+0j), 0j]
"""

from __future__ import annotations

import re

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import EnumAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.linalg import finish_rule
from shardonnay.ops.registry import OpDef, register
from shardonnay.ops.shape import (
    finish,
    i64_array,
    int_array,
    keyword_list,
    write_list,
    write_signature,
)
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

FFT_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")
_TYPE_RE = re.compile(r"[A-Z]+")
_OWN = ("fft_type", "fft_length")


def _complex_of(element_type: str) -> str:
    return f"complex<{element_type}>"


def _real_of(element_type: str) -> str | None:
    match = re.fullmatch(r"complex<(.+)>", element_type)
    return None if match is None else match[1]


class FftOp(OpDef):
    """`stablehlo.fft` (see the module docstring)."""

    def parse(self, p, name: str) -> Op:
        operand = p.operand()
        p.expect(",", "',' after the operand")
        p.expect("type", "'type'")
        p.expect("=", "'=' after 'type'")
        p.skip_space()
        pos = p.pos
        kind = p.match(_TYPE_RE, "an FFT type (FFT, IFFT, RFFT or IRFFT)")
        if kind not in FFT_TYPES:
            raise p.error(f"unknown FFT type {kind!r}: expected FFT, IFFT, RFFT or IRFFT", pos)
        p.expect(",", "',' after the FFT type")
        attrs = {
            "fft_type": EnumAttr("stablehlo", "fft_type", kind),
            "fft_length": i64_array(keyword_list(p, "length")),
        }
        return finish(p, name, [operand], attrs, _OWN)

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operand(op.operands[0])
        w.write(f", type = {fft_type(op)}, length = {write_list(int_array(op, 'fft_length'))}")
        write_signature(op, w, _OWN)

    def infer_types(self, op: Op) -> list[Type] | None:
        x = op.operands[0].type
        if not isinstance(x, TensorType):
            return None
        kind, lengths = fft_type(op), int_array(op, "fft_length")
        if not lengths or len(lengths) > x.rank:
            return None
        if kind in ("FFT", "IFFT"):
            return [x]
        if kind == "RFFT":
            shape = (*x.shape[:-1], lengths[-1] // 2 + 1)
            return [TensorType(shape, _complex_of(x.element_type))]
        real = _real_of(x.element_type)
        if real is None:
            return None
        return [TensorType((*x.shape[:-1], lengths[-1]), real)]

    def verify(self, op: Op) -> None:
        if len(op.operands) != 1 or len(op.results) != 1:
            raise IRError(f"{op.name}: takes one operand and has one result")
        x, result = op.operands[0].type, op.result_types[0]
        if not isinstance(x, TensorType) or not isinstance(result, TensorType):
            raise IRError(f"{op.name}: operand and result must be ranked tensors")
        kind, lengths = fft_type(op), int_array(op, "fft_length")
        if not 1 <= len(lengths) <= 3:
            raise IRError(f"{op.name}: fft_length must have 1 to 3 entries, got {len(lengths)}")
        if any(n < 0 for n in lengths):
            raise IRError(f"{op.name}: fft_length {list(lengths)} has a negative length")
        if len(lengths) > x.rank:
            raise IRError(
                f"{op.name}: operand rank {x.rank} is less than fft_length's {len(lengths)} entries"
            )
        complex_in = _real_of(x.element_type) is not None
        if (kind == "RFFT") == complex_in:
            want = "real" if kind == "RFFT" else "complex"
            raise IRError(f"{op.name}: {kind} takes a {want} operand, not {x}")
        trailing = x.shape[len(x.shape) - len(lengths) :]
        expected = list(lengths)
        if kind == "IRFFT":
            expected[-1] = lengths[-1] // 2 + 1 if lengths[-1] else 0
        if list(trailing) != expected:
            raise IRError(
                f"{op.name}: the operand's trailing dims {list(trailing)} must be {expected} "
                f"for {kind} with fft_length {list(lengths)}"
            )
        inferred = self.infer_types(op)
        if inferred is not None and inferred[0] != result:
            raise IRError(f"{op.name}: result type {result} differs from {inferred[0]}")

    def evaluate(self, op: Op, args: list, interp) -> list:
        kind, lengths = fft_type(op), list(int_array(op, "fft_length"))
        x = np.asarray(args[0])
        axes = list(range(x.ndim - len(lengths), x.ndim))
        if x.size == 0 or 0 in lengths:
            return [np.zeros(op.result_types[0].shape, op.result_types[0].dtype)]
        if kind == "FFT":
            return [np.fft.fftn(x, s=lengths, axes=axes)]
        if kind == "IFFT":
            return [np.fft.ifftn(x, s=lengths, axes=axes)]
        if kind == "RFFT":
            return [np.fft.rfftn(x, s=lengths, axes=axes)]
        return [np.fft.irfftn(x, s=lengths, axes=axes)]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """`RFFT` of `tensor<2x4x8xf32>` over `[4, 8]` is `([i, j, k])->([i, j, k])
        {i=2, j=4, k=8} need_replication={j, k} blocked_propagation={k}`."""
        kind, lengths = fft_type(op), int_array(op, "fft_length")
        b = RuleBuilder.for_op(op)
        shape = b.operand_shapes[0]
        first = len(shape) - len(lengths)
        for d, size in enumerate(shape):
            if d < first:
                b.add_factor([d], [d], size)
            else:
                blocked = kind in ("RFFT", "IRFFT") and d == len(shape) - 1
                b.add_factor([d], [d], size, kind="need_replication", blocked=blocked)
        return finish_rule(b)


def fft_type(op: Op) -> str:
    """`FFT`, `IFFT`, `RFFT` or `IRFFT`: the `fft_type` of `op`."""
    value = op.attributes.get("fft_type")
    if isinstance(value, EnumAttr) and value.kind == "fft_type" and value.value in FFT_TYPES:
        return value.value
    raise IRError(f"{op.name}: needs fft_type = #stablehlo<fft_type FFT|IFFT|RFFT|IRFFT>")


register("stablehlo.fft", FftOp())
