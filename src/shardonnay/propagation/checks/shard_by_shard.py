"""Is one op, with the shardings propagation gave it, computable shard by shard?

An op's sharding rule promises that when every factor is split into the same
pieces on every tensor that has it, each device computes its pieces of the
results from its pieces of the operands, without communication (sharded
reduction factors leave the results *unreduced* along their axes: a sum, or
a max/min, of the devices' partial results). `check_shard_by_shard` first
decides whether the op's propagated shardings are such a case, on the
projection of every operand and result onto the rule's factors:

- each factor has the same axes on every tensor that has it, and none of
  them overflows (a dim's axes that do not split into its factors);
- need-replication and permutation factors are not sharded, nor are factors
  that only operands have, unless they are reduction factors;
- no mesh axis (or overlapping sub-axis) shards two factors;
- no dim without factors is sharded.

If not, the partitioner has to insert reshards around the op: the verdict is
`NEEDS_RESHARD`, which is legal. If so, the op runs on random whole operands
(the expected results) and, on every device, a copy of it on that device's
operand buffers (`layout.shard` with the propagated shardings); each result
is put back together with `layout.unshard` (reducing the unreduced axes of
sharded reduction factors, checking that replicas agree) and compared, as
`rule_check` does with random shardings.

The verdict is `NOT_RUN` (with the reason) where the run could not tell: a
reduction factor is sharded but how the op combines partial results is
unknown, a factor split unevenly shares a dim with other factors (the dim's
padded blocks are not the factors' pieces) or is a max/min reduction factor
(padding zeros would take part), the interpreter cannot run the op alone
(a collective), or a tensor is already unreduced. A shard-by-shard run that
differs is `DIFFERS`, except for the ops with the `NeedsCommunication`
trait (`shardonnay.ops.traits`), whose Shardy rules are known to let
shardings through that the partitioner must then communicate for
(`NEEDS_COMMUNICATION`).

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
...   %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
...       : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
...   return %0 : tensor<4x2xf32>
... }''')
>>> dot, s, mesh = m.functions[0].body.ops[0], TensorSharding.parse, Mesh({"x": 2})
>>> check_shard_by_shard(dot, [s('<@m, [{}, {"x"}]>'), s('<@m, [{"x"}, {}]>')], [None], mesh)
LocalCheck(status=<Verdict.MATCHES: 'matches'>, reason='')
>>> check_shard_by_shard(dot, [s('<@m, [{}, {"x"}]>'), None], [None], mesh)
LocalCheck(status=<Verdict.NEEDS_RESHARD: 'needs reshard'>, reason='factor k is sharded {"x"} \
on operand 0 but {} on operand 1')
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from shardonnay.axes import AxisRef, axes_str
from shardonnay.errors import LayoutError, ShardonnayError
from shardonnay.ir.core import Module, Op
from shardonnay.ir.types import TensorType
from shardonnay.layout import shard, unshard
from shardonnay.mesh import Mesh
from shardonnay.ops.rules import rule_for
from shardonnay.ops.traits import NeedsCommunication, trait_of
from shardonnay.propagation.checks.rule_check import (
    RuleError,
    compare_results,
    local_copy,
    random_operands,
    reduction_kind,
    run_op,
)
from shardonnay.propagation.projection import ShardingProjection
from shardonnay.runtime.interpreter import Interpreter
from shardonnay.sharding import DimSharding, TensorSharding
from shardonnay.sharding_rule import OpShardingRule, factor_symbol

__all__ = [
    "LocalCheck",
    "Verdict",
    "check_shard_by_shard",
    "factor_conflict",
]


class Verdict(enum.Enum):
    """How an op's propagated shardings fare (see the module docstring)."""

    MATCHES = "matches"  # shard by shard equals whole tensors
    UNSHARDED = "unsharded"  # nothing is sharded: every device runs the whole op
    DIFFERS = "differs"  # shard by shard differs from whole tensors: an error
    NEEDS_RESHARD = "needs reshard"  # the factors conflict: reshards go around the op
    NOT_RUN = "not run"  # agreeing factors, but the run cannot tell (see `reason`)
    # Agreeing factors of an op whose rule (Shardy's) still needs communication.
    NEEDS_COMMUNICATION = "needs communication"


@dataclass(frozen=True)
class LocalCheck:
    """The verdict on one op and why."""

    status: Verdict
    reason: str = ""


def _tensor_name(index: int, num_operands: int) -> str:
    if index < num_operands:
        return f"operand {index}"
    return f"result {index - num_operands}"


def factor_conflict(
    projection: ShardingProjection,
    rule: OpShardingRule,
    shardings: Sequence[TensorSharding],
) -> str | None:
    """Why the factor shardings of `projection` are not one consistent
    split of every factor (None when they are; see the module docstring).
    `shardings` are the tensors' shardings, operands then results."""
    tensors = projection.tensors
    n = projection.num_operands
    axes_of: list[list[AxisRef]] = []
    for f in range(rule.num_factors):
        first: tuple[int, list[AxisRef]] | None = None
        for t, tensor in enumerate(tensors):
            sharding = tensor.factors.get(f)
            if sharding is None:
                continue
            if sharding.overflow_axes:
                return (
                    f"on {_tensor_name(t, n)}, axes {{{axes_str(sharding.overflow_axes)}}} of "
                    f"factor {factor_symbol(f)}'s dim do not split into its factors"
                )
            if first is None:
                first = (t, sharding.axes)
            elif sharding.axes != first[1]:
                return (
                    f"factor {factor_symbol(f)} is sharded {{{axes_str(first[1])}}} on "
                    f"{_tensor_name(first[0], n)} but {{{axes_str(sharding.axes)}}} on "
                    f"{_tensor_name(t, n)}"
                )
        axes = first[1] if first is not None else []
        kind = rule.factor_kind(f)
        if axes and kind in ("need_replication", "permutation"):
            kind_text = kind.replace("_", "-")
            return f"{kind_text} factor {factor_symbol(f)} is sharded {{{axes_str(axes)}}}"
        in_results = any(f in tensor.factors for tensor in projection.results)
        if axes and kind != "reduction" and not in_results:
            return (
                f"factor {factor_symbol(f)} is sharded {{{axes_str(axes)}}} but no result has "
                "it and it is not a reduction factor"
            )
        axes_of.append(list(axes))
    for f, axes in enumerate(axes_of):
        for g in range(f + 1, rule.num_factors):
            for a in axes:
                for b in axes_of[g]:
                    if a.overlaps(b):
                        return (
                            f"axis {a} shards factor {factor_symbol(f)} and {b} shards "
                            f"factor {factor_symbol(g)}"
                        )
    mappings = rule.tensor_mappings()
    for t, (mapping, sharding) in enumerate(zip(mappings, shardings, strict=True)):
        for d, factors in enumerate(mapping):
            if not factors and sharding.dims[d].axes:
                return f"dim {d} of {_tensor_name(t, n)} has no factor but is sharded"
    return None


def _uneven_reason(
    projection: ShardingProjection, rule: OpShardingRule, kind: str | None, mesh: Mesh
) -> str | None:
    """Why padding makes the shard-by-shard run meaningless (None: it does not).

    A minor-most factor may be split into pieces that do not divide it: the
    last pieces are padded. That is sound for a factor alone in its dims
    (padding slots compute garbage that `unshard` ignores) and for a sharded
    reduction factor only when padding zeros do not change the reduction
    (a sum); not for a compound dim, whose blocks then are not the factors'.
    """
    for f in range(rule.num_factors):
        size = 1
        for tensor in projection.tensors:
            if f in tensor.factors:
                size = tensor.factors[f].sharded_size(mesh)
                break
        if rule.factor_sizes[f] % size == 0:
            continue
        if any(f in dim and len(dim) > 1 for m in rule.tensor_mappings() for dim in m):
            return f"factor {factor_symbol(f)} is split unevenly in a dim of several factors"
        if rule.factor_kind(f) == "reduction" and kind != "sum":
            return f"reduction factor {factor_symbol(f)} is split unevenly"
    return None


def _reduction_axes(
    projection: ShardingProjection, rule: OpShardingRule, mesh: Mesh
) -> list[AxisRef]:
    """The axes of the sharded reduction factors, in mesh order, consecutive
    sub-axes of one axis merged (`"y":(1)2` and `"y":(2)2` of two factors
    make `"y"`)."""
    axes: list[AxisRef] = []
    for f in rule.reduction_factors:
        for tensor in projection.operands:
            if f in tensor.factors:
                axes.extend(tensor.factors[f].axes)
                break
    merged: list[AxisRef] = []
    for axis in sorted(axes, key=lambda a: a.mesh_sort_key(mesh)):
        if merged and merged[-1].can_merge(axis):
            merged[-1] = merged[-1].merge(axis, mesh)
        else:
            merged.append(axis)
    return merged


def check_shard_by_shard(
    op: Op,
    operand_shardings: Sequence[TensorSharding | None],
    result_shardings: Sequence[TensorSharding | None],
    mesh: Mesh,
    *,
    rule: OpShardingRule | None = None,
    module: Module | None = None,
    interpreter: Interpreter | None = None,
    rng: np.random.Generator | None = None,
) -> LocalCheck:
    """The verdict on `op` with these shardings (None: replicated, open) on
    `mesh` (see the module docstring). `rule` defaults to `rule_for(op)`;
    `module` holds the functions the op may call (or pass `interpreter`);
    `rng` draws the operands."""
    rule = rule if rule is not None else rule_for(op)
    if rule is None:
        return LocalCheck(Verdict.NOT_RUN, "the op has no sharding rule")
    values = [*op.operands, *op.results]
    if not all(isinstance(v.type, TensorType) for v in values):
        return LocalCheck(Verdict.NOT_RUN, "not all operands and results are tensors")
    shardings = [
        s
        if s is not None
        else TensorSharding.replicated_on(mesh, len(v.type.shape), is_closed=False)
        for s, v in zip([*operand_shardings, *result_shardings], values, strict=True)
    ]
    if any(s.unreduced for s in shardings):
        return LocalCheck(Verdict.NOT_RUN, "a tensor has unreduced axes")
    n = len(op.operands)
    projection = ShardingProjection.build(shardings[:n], shardings[n:], rule, mesh)
    conflict = factor_conflict(projection, rule, shardings)
    if conflict is not None:
        return LocalCheck(Verdict.NEEDS_RESHARD, conflict)
    if not any(s.dim_axes() for s in shardings):
        return LocalCheck(Verdict.UNSHARDED)
    kind = reduction_kind(op)
    reduction_axes = _reduction_axes(projection, rule, mesh)
    if reduction_axes and kind is None:
        return LocalCheck(
            Verdict.NOT_RUN,
            "a reduction factor is sharded but how partial results combine is unknown",
        )
    uneven = _uneven_reason(projection, rule, kind, mesh)
    if uneven is not None:
        return LocalCheck(Verdict.NOT_RUN, uneven)
    if interpreter is None:
        interpreter = Interpreter(module if module is not None else Module())
    verdict = _run_shard_by_shard(
        op,
        shardings[:n],
        [_unreduced(s, reduction_axes, kind or "sum") for s in shardings[n:]],
        mesh,
        interpreter,
        rng if rng is not None else np.random.default_rng(0),
        kind if reduction_axes else None,
    )
    # Shardy's rule lets shardings pass through factors on which the op still
    # needs communication, which the partitioner adds: shard by shard, such an
    # op differs, and that is no fault of propagation.
    needs = trait_of(op, NeedsCommunication)
    if verdict.status is Verdict.DIFFERS and needs is not None and needs.holds_for(op):
        return LocalCheck(Verdict.NEEDS_COMMUNICATION, f"{needs.reason} ({verdict.reason})")
    return verdict


def _unreduced(sharding: TensorSharding, axes: list[AxisRef], kind: str) -> TensorSharding:
    """`sharding` (a result's) unreduced along the axes of sharded reduction factors."""
    dims = tuple(DimSharding(d.axes) for d in sharding.dims)
    return TensorSharding(sharding.mesh, dims, (), tuple(axes), kind)


def _run_shard_by_shard(
    op: Op,
    in_shardings: list[TensorSharding],
    out_shardings: list[TensorSharding],
    mesh: Mesh,
    interpreter: Interpreter,
    rng: np.random.Generator,
    kind: str | None,
) -> LocalCheck:
    args = random_operands(op, kind, rng)
    try:
        with np.errstate(all="ignore"):
            expected = run_op(interpreter, op, args)
    except ShardonnayError as e:
        return LocalCheck(Verdict.NOT_RUN, f"the interpreter cannot run it alone: {e}")
    local_op = local_copy(op, in_shardings, out_shardings, mesh)
    buffers = [shard(a, s, mesh) for a, s in zip(args, in_shardings, strict=True)]
    per_device: list[dict[int, np.ndarray]] = [{} for _ in op.results]
    for device in mesh.device_list:
        try:
            with np.errstate(all="ignore"):
                results = run_op(interpreter, local_op, [b[device] for b in buffers])
        except ShardonnayError as e:
            return LocalCheck(Verdict.DIFFERS, f"device {device} cannot run its shard: {e}")
        for i, r in enumerate(results):
            per_device[i][device] = r
    for i, (want, s) in enumerate(zip(expected, out_shardings, strict=True)):
        try:
            got = unshard(per_device[i], s, mesh, want.shape)
            compare_results(want, got, f"result {i}")
        except (LayoutError, RuleError) as e:
            return LocalCheck(Verdict.DIFFERS, str(e))
    return LocalCheck(Verdict.MATCHES)
