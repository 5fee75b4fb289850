"""StableHLO ops kept for compatibility, that programs may still hold.

They read and print as MLIR prints them::

    %0 = stablehlo.einsum %a, %b, config = "ab,bc->ac" : (tensor<4x8xf32>, tensor<8x2xf32>)
        -> tensor<4x2xf32>
    %1 = stablehlo.unary_einsum %a, config = "ab->ba" : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.broadcast %a, sizes = [3] : (tensor<4x8xf32>) -> tensor<3x4x8xf32>
    %3 = stablehlo.create_token : !stablehlo.token
    %4 = "stablehlo.cross-replica-sum"(%a) <{replica_groups = dense<[[0, 1]]>
        : tensor<1x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>

`einsum` computes numpy's `einsum` with its config; `broadcast` prepends
the `sizes` dims; `cross-replica-sum` is an all-reduce summing across the
replicas of `replica_groups` (without a channel, so one partitioned program
of one replica leaves its operand as it is). Of these, Shardy's rule
registry knows only `cross-replica-sum`: pointwise, like an all-reduce.

>>> import numpy as np
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> from shardonnay.runtime.interpreter import run
>>> m = parse_module('''func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
...   %0 = stablehlo.unary_einsum %a, config = "ab->ba" : (tensor<2x3xf32>) -> tensor<3x2xf32>
...   return %0 : tensor<3x2xf32>
... }''')
>>> run(m, np.arange(6.0).reshape(2, 3))[0].tolist()
[[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
"""

from __future__ import annotations

import re

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.core import Op
from shardonnay.ir.types import TOKEN, TensorType, TokenType, Type
from shardonnay.ops.collectives import SameTypeCollective
from shardonnay.ops.control_flow import read_token_result
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.shape import (
    expect_counts,
    finish,
    int_array,
    parse_operand_and_list,
    print_operand_and_list,
    tensor_type,
    write_signature,
)
from shardonnay.syntax.cursor import quote

_CONFIG = re.compile(r"^([a-zA-Z]*)(?:,([a-zA-Z]*))?->([a-zA-Z]*)$")


def _einsum_config(op: Op, operands: int) -> tuple[list[str], str]:
    """(the letters of each operand, the letters of the result) of `einsum_config`."""
    config = op.attributes.get("einsum_config")
    m = _CONFIG.match(config) if isinstance(config, str) else None
    if m is None or (m.group(2) is None) != (operands == 1):
        raise IRError(f"{op.name}: einsum_config {config!r} does not fit {operands} operand(s)")
    inputs = [m.group(1)] if operands == 1 else [m.group(1), m.group(2)]
    return inputs, m.group(3)


class _Einsum(OpDef):
    """`stablehlo.einsum %a, %b, config = "..."` (`unary_einsum`: one operand)."""

    def __init__(self, operands: int):
        self.operands = operands

    def parse(self, p, name: str) -> Op:
        operands = [p.operand()]
        for _ in range(self.operands - 1):
            p.expect(",", "',' between the operands")
            operands.append(p.operand())
        p.expect(",", "',' before 'config'")
        p.expect("config", "'config'")
        p.expect("=", "'=' after 'config'")
        p.skip_space()
        attrs = {"einsum_config": p.string("the einsum config")}
        return finish(p, name, operands, attrs, ("einsum_config",))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        w.operands(op.operands)
        w.write(f", config = {quote(op.attributes['einsum_config'])}")
        write_signature(op, w, ("einsum_config",))

    def verify(self, op: Op) -> None:
        expect_counts(op, self.operands, 1)
        inputs, output = _einsum_config(op, self.operands)
        sizes: dict[str, int] = {}
        for i, (letters, v) in enumerate(zip(inputs, op.operands, strict=True)):
            t = tensor_type(op, v, f"operand {i}")
            if len(letters) != t.rank:
                raise IRError(f"{op.name}: '{letters}' names {len(letters)} dims of {t}")
            for letter, size in zip(letters, t.shape, strict=True):
                if sizes.setdefault(letter, size) != size:
                    raise IRError(f"{op.name}: dim '{letter}' has sizes {sizes[letter]} and {size}")
        result = tensor_type(op, op.result_types[0], "the result")
        expected = tuple(sizes.get(letter, -1) for letter in output)
        if expected != result.shape:
            raise IRError(f"{op.name}: the result {result} does not fit '{output}'")

    def evaluate(self, op: Op, args: list, interp) -> list:
        inputs, output = _einsum_config(op, self.operands)
        spec = f"{','.join(inputs)}->{output}"
        result = np.einsum(spec, *(np.asarray(a) for a in args))
        return [np.asarray(result).astype(op.result_types[0].dtype)]


class BroadcastOp(OpDef):
    """`stablehlo.broadcast %a, sizes = [3, 2]`: the operand repeated along
    new leading dims of these sizes."""

    def parse(self, p, name: str) -> Op:
        return parse_operand_and_list(p, name, "sizes", "broadcast_sizes")

    def print(self, op: Op, w) -> None:
        print_operand_and_list(op, w, "sizes", "broadcast_sizes")

    def infer_types(self, op: Op) -> list[Type] | None:
        x = tensor_type(op, op.operands[0], "the operand")
        sizes = int_array(op, "broadcast_sizes")
        return [TensorType((*sizes, *x.shape), x.element_type)]

    def verify(self, op: Op) -> None:
        expect_counts(op, 1, 1)
        if any(s < 0 for s in int_array(op, "broadcast_sizes")):
            raise IRError(f"{op.name}: broadcast_sizes must be non-negative")
        inferred = self.infer_types(op)
        if inferred != list(op.result_types):
            raise IRError(f"{op.name}: the result must be {inferred[0]}, not {op.result_types[0]}")

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [np.broadcast_to(np.asarray(args[0]), op.result_types[0].shape)]


class CreateTokenOp(OpDef):
    """`stablehlo.create_token : !stablehlo.token` (now `after_all` without operands)."""

    def parse(self, p, name: str) -> Op:
        attrs, t, _ = read_token_result(p, name)
        return mark_inherent(p.make_op(name, [], [t], dict(attrs)), ())

    def print(self, op: Op, w) -> None:
        w.attr_dict(op)
        w.write(f" : {op.result_types[0]}")

    def infer_types(self, op: Op) -> list[Type] | None:
        return [TokenType()]

    def verify(self, op: Op) -> None:
        expect_counts(op, 0, 1)
        if not isinstance(op.result_types[0], TokenType):
            raise IRError(f"{op.name}: returns a !stablehlo.token, not {op.result_types[0]}")

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [TOKEN]


register("stablehlo.einsum", _Einsum(2))
register("stablehlo.unary_einsum", _Einsum(1))
register("stablehlo.broadcast", BroadcastOp())
register("stablehlo.create_token", CreateTokenOp())
register("stablehlo.cross-replica-sum", SameTypeCollective())
