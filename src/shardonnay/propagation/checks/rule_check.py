"""Checks that an op's sharding rule is sound: running the op shard by shard
gives the same values as running it on whole tensors.

A rule claims that whenever every factor is split into the same pieces on
every tensor that has it, each device can compute its pieces of the results
from its pieces of the operands, with no communication. For a matmul
`([i, k], [k, j])->([i, j]) reduction={k}`, sharding `k` along axis `"x"`
gives every device a partial product: the results are *unreduced* (summed)
along `"x"`.

`check_rule(op)` tests that claim on random meshes and factor shardings:

1. pick factor shardings the rule allows (need_replication and permutation
   factors stay whole; reduction factors only when the op's reduction is
   known: sum for `dot_general`, `convolution` and add-reducing `reduce`,
   max/min for max/min-reducing ones);
2. project them on every tensor: a dim's axes are its factors' axes, major
   factor first (a factor may be split only when the factors major to it in
   its dim are split down to size 1, so that the dim's contiguous blocks are
   the factor-wise pieces; sizes divide exactly);
3. run the op on random global operands (the expected results), and a local
   copy of it (`op.clone()` with per-device result types) on every device's
   operand buffers (`layout.shard`);
4. reassemble each result with `layout.unshard` (which reduces unreduced axes
   and checks that replicas agree) and compare: exactly for integers, with
   `rtol=1e-5` for floats.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''func.func @main(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
...   %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
...   return %0 : tensor<8x4xf32>
... }''')
>>> check_rule(next(op for op in m.walk() if op.name == "stablehlo.transpose"))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from shardonnay.errors import LayoutError, ShardonnayError
from shardonnay.ir.attributes import DenseArrayAttr
from shardonnay.ir.core import Module, Op, Value
from shardonnay.ir.element_values import identity
from shardonnay.ir.types import TensorType
from shardonnay.layout import local_shape, shard, unshard
from shardonnay.mesh import Mesh
from shardonnay.ops.reduction import reduction_of
from shardonnay.ops.rules import rule_for
from shardonnay.ops.traits import CONTRACTION, Combiner, has_trait, trait_of
from shardonnay.runtime.interpreter import Interpreter
from shardonnay.sharding import DimSharding, TensorSharding
from shardonnay.sharding_rule import OpShardingRule, factor_symbol

__all__ = [
    "RuleError",
    "check_rule",
    "compare_results",
    "local_copy",
    "random_operands",
    "reduction_kind",
    "run_op",
]

_AXIS_NAMES = ("a", "b", "c")
# The reductions of partial results a trial combines (a reduction body's combiner).
_TRIED_KINDS = ("sum", "max", "min")


class RuleError(ShardonnayError, AssertionError):
    """A sharding rule under which the shard-by-shard run of an op differs
    from the whole-tensor run."""


def check_rule(op: Op, *, seed: int = 0, trials: int = 20, module: Module | None = None) -> None:
    """Raises `RuleError` unless `op`'s rule (`rule_for(op)`) is sound on
    `trials` random meshes, factor shardings and operands.

    `module` is the module whose functions the op may call (default: the one
    enclosing it, if any). Errors of the whole-tensor run (an op the
    interpreter cannot run, like a collective) propagate unchanged.
    """
    rule = rule_for(op)
    if rule is None:
        raise RuleError(f"{op.name} has no sharding rule to check")
    for v in [*op.operands, *op.results]:
        if not isinstance(v.type, TensorType):
            raise RuleError(f"{op.name}: a rule can only be checked on tensors, not {v.type}")
    rule.validate([v.type.shape for v in op.operands], [v.type.shape for v in op.results])
    interp = Interpreter(module if module is not None else _enclosing_module(op) or Module())
    kind = reduction_kind(op)
    rng = np.random.default_rng(seed)
    for _ in range(trials):
        mesh = _random_mesh(rng)
        factor_axes = _random_factor_axes(rule, mesh, rng, shard_reductions=kind is not None)
        _check_once(op, rule, mesh, factor_axes, kind or "sum", interp, rng)


def reduction_kind(op: Op) -> str | None:
    """How the partial results of the op's reduction factors combine:
    `"sum"`, `"max"`, `"min"`, or None where unknown."""
    if has_trait(op, CONTRACTION):
        return "sum"
    if op.name == "stablehlo.reduce" and op.regions and len(op.results) == 1:
        body = reduction_of(op.regions[0])
        combiner = trait_of(body, Combiner) if body is not None else None
        if isinstance(combiner, Combiner) and combiner.kind in _TRIED_KINDS:
            return combiner.kind
    return None


# -- one trial ------------------------------------------------------------------------


def _check_once(
    op: Op,
    rule: OpShardingRule,
    mesh: Mesh,
    factor_axes: list[list[str]],
    kind: str,
    interp: Interpreter,
    rng: np.random.Generator,
) -> None:
    reduction_axes = sorted(
        {a for f in rule.reduction_factors for a in factor_axes[f]}, key=mesh.axis_names.index
    )

    def tensor_sharding(mapping, unreduced=()) -> TensorSharding:
        dims = [DimSharding(tuple(a for f in dim for a in factor_axes[f])) for dim in mapping]
        return TensorSharding(mesh, tuple(dims), unreduced=tuple(unreduced), reduction=kind)

    in_shardings = [tensor_sharding(m) for m in rule.operand_mappings]
    out_shardings = [tensor_sharding(m, reduction_axes) for m in rule.result_mappings]

    def describe() -> str:
        factors = ", ".join(
            f"{factor_symbol(f)}={{{', '.join(repr(a) for a in axes)}}}"
            for f, axes in enumerate(factor_axes)
            if axes
        )
        return (
            f"{op.name} with rule {rule} on mesh {mesh}, factors sharded "
            f"{factors or 'nowhere'}\n  operands: {', '.join(map(str, in_shardings))}"
            f"\n  results: {', '.join(map(str, out_shardings))}"
        )

    args = random_operands(op, kind if reduction_axes else None, rng)
    expected = run_op(interp, op, args)
    local_op = local_copy(op, in_shardings, out_shardings, mesh)
    per_device: list[dict[int, np.ndarray]] = [{} for _ in op.results]
    buffers = [shard(a, s, mesh) for a, s in zip(args, in_shardings, strict=True)]
    for device in mesh.device_list:
        try:
            results = run_op(interp, local_op, [b[device] for b in buffers])
        except ShardonnayError as e:
            raise RuleError(f"{describe()}\n  device {device} cannot run its shard: {e}") from e
        for i, r in enumerate(results):
            per_device[i][device] = r
    for i, (want, s) in enumerate(zip(expected, out_shardings, strict=True)):
        try:
            got = unshard(per_device[i], s, mesh, want.shape)
        except LayoutError as e:
            raise RuleError(f"{describe()}\n  result {i}: {e}") from e
        compare_results(want, got, f"{describe()}\n  result {i}")


def run_op(interp: Interpreter, op: Op, args: Sequence[np.ndarray]) -> list:
    env: dict[Value, np.ndarray] = dict(zip(op.operands, args, strict=True))
    interp.evaluate(op, env)
    return [env[r] for r in op.results]


def compare_results(want: np.ndarray, got: np.ndarray, where: str) -> None:
    if np.issubdtype(want.dtype, np.inexact):
        scale = float(np.max(np.abs(want), initial=1.0)) if want.size else 1.0
        scale = scale if np.isfinite(scale) else 1.0
        same = np.isclose(got, want, rtol=1e-5, atol=1e-5 * scale, equal_nan=True)
    else:
        same = got == want
    if np.all(same):
        return
    index = tuple(int(i) for i in np.argwhere(~same)[0])
    raise RuleError(
        f"{where} differs at {index}: shard by shard {got[index]!r}, whole {want[index]!r}"
    )


# -- random meshes, factor shardings and operands -----------------------------------------


def _random_mesh(rng: np.random.Generator) -> Mesh:
    n = int(rng.integers(1, 4))
    return Mesh({name: int(rng.integers(1, 5)) for name in _AXIS_NAMES[:n]})


def _random_factor_axes(
    rule: OpShardingRule, mesh: Mesh, rng: np.random.Generator, *, shard_reductions: bool
) -> list[list[str]]:
    """Per factor, the mesh axes splitting it (each axis on one factor at most)."""
    shardable = [
        f
        for f in range(rule.num_factors)
        if rule.factor_kind(f) == "pass_through"
        or (rule.factor_kind(f) == "reduction" and shard_reductions)
    ]
    axes: list[list[str]] = [[] for _ in range(rule.num_factors)]
    dims = [dim for m in rule.tensor_mappings() for dim in m if len(dim) > 1]
    sizes = dict(mesh.axes)
    for name in rng.permutation(mesh.axis_names):
        name = str(name)
        candidates = []
        for f in shardable:
            split = math.prod(sizes[a] for a in axes[f]) * sizes[name]
            if rule.factor_sizes[f] % split:
                continue
            axes[f].append(name)
            if _contiguous(rule, axes, dims, sizes):
                candidates.append(f)
            axes[f].pop()
        choice = int(rng.integers(0, len(candidates) + 1))
        if choice < len(candidates):
            axes[candidates[choice]].append(name)
    return axes


def _contiguous(rule: OpShardingRule, axes, dims, sizes: dict[str, int]) -> bool:
    """In every compound dim, the factors major to a split factor are split
    into pieces of size 1 (so the dim's blocks are the factors' pieces)."""
    for dim in dims:
        for k, f in enumerate(dim):
            if math.prod(sizes[a] for a in axes[f]) == 1:
                continue
            for major in dim[:k]:
                if math.prod(sizes[a] for a in axes[major]) != rule.factor_sizes[major]:
                    return False
    return True


def random_operands(op: Op, kind: str | None, rng: np.random.Generator) -> list[np.ndarray]:
    """Normal floats, small integers, random bools; the init values of a
    reduction whose partial results get combined are its identity."""
    out = []
    for v in op.operands:
        t = v.type
        dtype = np.dtype(t.dtype)
        if dtype.kind == "f":
            out.append(rng.normal(size=t.shape).astype(dtype))
        elif dtype.kind == "c":
            out.append((rng.normal(size=t.shape) + 1j * rng.normal(size=t.shape)).astype(dtype))
        elif dtype.kind == "b":
            out.append(rng.integers(0, 2, size=t.shape).astype(bool))
        else:
            out.append(rng.integers(0, 8, size=t.shape).astype(dtype))
    if kind is not None and op.name == "stablehlo.reduce":
        n = len(op.operands) // 2
        for i in range(n, 2 * n):
            out[i] = np.full((), identity(kind, out[i].dtype), dtype=out[i].dtype)
    return out


# -- the per-device op -------------------------------------------------------------------------


def local_copy(
    op: Op, in_shardings: list[TensorSharding], out_shardings: list[TensorSharding], mesh: Mesh
) -> Op:
    """A clone of `op` on per-device operand and result types (attributes that
    spell out sizes of split dims, like a slice's limits, follow them)."""

    def local(v: Value, s: TensorSharding) -> TensorType:
        t = v.type
        return TensorType(local_shape(t.shape, s, mesh), t.element_type, t.encoding)

    operands = {v: Value(local(v, s)) for v, s in zip(op.operands, in_shardings, strict=True)}
    copy = op.clone(dict(operands))
    # Not inserted, but in the op's block: the symbols it refers to (a top-k's
    # comparator in `called_computations`) resolve as they do for the op.
    copy.parent = op.parent
    for r, new, s in zip(op.results, copy.results, out_shardings, strict=True):
        new.type = local(r, s)
    _localize_attributes(op, copy)
    return copy


def _localize_attributes(op: Op, copy: Op) -> None:
    """Sizes in attributes that equal a split dim's global size become local."""
    if op.name == "stablehlo.slice":
        limits = list(copy.attributes["limit_indices"].values)
        starts = copy.attributes["start_indices"].values
        strides = copy.attributes["strides"].values
        for d, (g, n) in enumerate(
            zip(op.results[0].type.shape, copy.results[0].type.shape, strict=True)
        ):
            if g != n:
                limits[d] = starts[d] + (n - 1) * strides[d] + 1 if n else starts[d]
        _set_array(copy, "limit_indices", limits)
    elif op.name == "stablehlo.dynamic_slice":
        _set_array(copy, "slice_sizes", list(copy.results[0].type.shape))
    elif op.name == "stablehlo.gather":
        sizes = list(copy.attributes["slice_sizes"].values)
        g, n = op.operands[0].type.shape, copy.operands[0].type.shape
        for d in range(len(sizes)):
            if g[d] != n[d] and sizes[d] == g[d]:
                sizes[d] = n[d]
        _set_array(copy, "slice_sizes", sizes)


def _set_array(op: Op, key: str, values: list[int]) -> None:
    attr = op.attributes[key]
    if isinstance(attr, DenseArrayAttr):
        op.attributes[key] = replace(attr, values=tuple(values))


def _enclosing_module(op: Op) -> Module | None:
    """The module around `op`, found through its ancestors' blocks."""
    top = op
    while top.parent_op is not None:
        top = top.parent_op
    block = top.parent
    if block is None:
        return None
    module = Module()
    module.body = block
    return module
