"""Which axes shard each factor of an op once its operands and results agree.

When the shardings of an op's operands and results disagree on a factor of
its sharding rule, explicit resharding picks one list of axes per factor,
`find_common_axes`, and reshards every tensor to it. Shardy's choice:

- shardings that already agree are kept: every tensor shards each factor
  alike, factors that need replication are unsharded and no two factors
  share an axis (`compatible_factor_shardings`);
- an op with exactly two non-scalar tensors (a "unary" op: a transpose, a
  broadcast, a slice, ...), no factor that needs replication and no dim of
  several factors keeps the sharding of one of the two: the tensor without
  sharded permutation factors, then the larger one, then the more sharded one
  (the first on a tie). The factors of the other tensor that the preferred
  one does not map keep their axes up to the first one it uses;
- any other op is settled greedily: every (factor, axes) pair whose axes are
  a prefix of some tensor's sharding of that factor is a candidate, counting
  the sizes of the tensors whose sharding of the factor it equals or is a
  strict prefix of (`["x":(1)2]` is one of `["x"]`). The best candidate wins:
  largest total size, then pass-through over reduction over permutation over
  need-replication factors, then largest sharding size (past what its factor
  already has), then the larger factor index and axes. Its factor takes its
  axes; candidates of other factors lose the axes they share with it, those
  of the same factor that do not extend it go. A factor that follows another
  in some dim only becomes eligible once that one is fully sharded. Factors
  that need replication end up unsharded: the axes they won move to the
  batching factors (pass-through factors of every non-scalar tensor) that
  can hold them.

A dot `[8, 16] x [16, 4]` on `["x"=2, "y"=2]` with lhs `[{"x"}, {"y"}]`, rhs
`[{"y"}, {"x"}]` and result `[{"x"}, {}]`: the contracting factor `k` takes
`"y"` first (lhs and rhs, 128 + 64 elements), then `i` takes `"x"` (lhs and
result, 128 + 32), which leaves nothing for `j` (rhs, 64):

>>> from shardonnay.sharding import TensorSharding as S
>>> rule = OpShardingRule.parse(
...     "#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=4, k=16} reduction={k}>")
>>> mesh = Mesh({"x": 2, "y": 2})
>>> projection = ShardingProjection.build(
...     [S.parse('<@m, [{"x"}, {"y"}]>'), S.parse('<@m, [{"y"}, {"x"}]>')],
...     [S.parse('<@m, [{"x"}, {}]>')], rule, mesh)
>>> [[str(a) for a in axes] for axes in find_common_axes(projection, rule, [128, 64, 32], mesh)]
[['"x"'], [], ['"y"']]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from shardonnay.axes import AxisRef
from shardonnay.collectives.axis_lists import append_or_merge
from shardonnay.mesh import Mesh
from shardonnay.propagation.projection import FactorSharding, ShardingProjection
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "axes_size",
    "batching_factors",
    "distribute_axes_across_factors",
    "find_common_axes",
    "greatest_common_prefix",
    "greatest_common_prefix_axes",
    "non_scalar_tensor_indices",
    "prefix_without_overlap",
    "truncate_without_overlap",
]

Axes = tuple[AxisRef, ...]

_PRECEDENCE = {"pass_through": 3, "reduction": 2, "permutation": 1, "need_replication": 0}


# -- axis-list algebra, as Shardy computes it -----------------------------------------------


def axes_size(axes: Sequence[AxisRef], mesh: Mesh) -> int:
    return math.prod(a.size(mesh) for a in axes)


def _axis_key(axis: AxisRef) -> tuple:
    """Shardy's `AxisRefAttr::operator<`: by name, then `"a":(1)2 < "a" < "a":(2)2`."""
    return axis.sort_key()


def _axes_key(axes: Axes) -> tuple:
    """Shardy's `AxisListRef::operator<`: shorter first, then axis by axis."""
    return (len(axes), tuple(_axis_key(a) for a in axes))


def prefix_without_overlap(axis: AxisRef, other: AxisRef) -> AxisRef | None:
    """The major part of `axis` before `other` starts (`"a"` without `"a":(2)2`
    is `"a":(1)2`); `axis` itself when they do not overlap; None when nothing
    of `axis` comes before `other`."""
    if not axis.overlaps(other):
        return axis
    if axis.pre_size >= other.pre_size:
        return None
    return AxisRef(axis.name, (axis.pre_size, other.pre_size // axis.pre_size))


def _prefix_without_overlaps(axis: AxisRef, others: Sequence[AxisRef]) -> AxisRef | None:
    result: AxisRef | None = axis
    for other in others:
        result = prefix_without_overlap(result, other)
        if result is None:
            return None
    return result


def truncate_without_overlap(axes: Axes, others: Sequence[AxisRef]) -> Axes:
    """The longest prefix of `axes` (the last one possibly cut to a prefix
    sub-axis) that overlaps none of `others`."""
    for i, axis in enumerate(axes):
        prefix = _prefix_without_overlaps(axis, others)
        if prefix is None:
            return axes[:i]
        if prefix != axis:
            return (*axes[:i], prefix)
    return axes


def greatest_common_prefix(first: Axes, second: Axes) -> Axes:
    result: list[AxisRef] = []
    for a, b in zip(first, second, strict=False):
        if a == b:
            result.append(a)
            continue
        if a.prefix_of(b):
            result.append(a)
        elif b.prefix_of(a):
            result.append(b)
        break
    return tuple(result)


def _is_strict_prefix(first: Axes, second: Axes) -> bool:
    """Shardy's `AxisListRef::strictPrefixOf`."""
    if not first:
        return bool(second)
    if len(first) > len(second):
        return False
    if first[:-1] != second[: len(first) - 1]:
        return False
    if len(first) == len(second):
        return first[-1].strict_prefix_of(second[-1])
    return first[-1].prefix_of(second[len(first) - 1])


# -- rule queries ---------------------------------------------------------------------------


def non_scalar_tensor_indices(rule: OpShardingRule) -> list[int]:
    return [i for i, m in enumerate(rule.tensor_mappings()) if m]


def _in_all_non_scalar_tensors(rule: OpShardingRule, factor: int) -> bool:
    return all(any(factor in dim for dim in m) for m in rule.tensor_mappings() if m)


def batching_factors(rule: OpShardingRule) -> list[int]:
    return [
        f
        for f in range(rule.num_factors)
        if rule.factor_kind(f) == "pass_through" and _in_all_non_scalar_tensors(rule, f)
    ]


def _has_compound_dims(rule: OpShardingRule) -> bool:
    return any(len(dim) > 1 for m in rule.tensor_mappings() for dim in m)


def greatest_common_prefix_axes(projection: ShardingProjection, num_factors: int) -> list[Axes]:
    """Per factor, the longest axes every tensor's sharding of it starts with."""
    result: list[Axes] = [() for _ in range(num_factors)]
    seen = [False] * num_factors
    for tensor in projection.tensors:
        for f, sharding in tensor.factors.items():
            if not seen[f]:
                result[f] = tuple(sharding.axes)
                seen[f] = True
            else:
                result[f] = greatest_common_prefix(result[f], tuple(sharding.axes))
    return result


# -- the choice -------------------------------------------------------------------------------


def find_common_axes(
    projection: ShardingProjection,
    rule: OpShardingRule,
    tensor_sizes: Sequence[int],
    mesh: Mesh,
) -> list[Axes]:
    """Per factor, the axes every operand and result will be sharded along
    (see the module docstring)."""
    compatible = compatible_factor_shardings(projection, rule)
    if compatible is not None:
        return compatible
    if (
        len(non_scalar_tensor_indices(rule)) == 2
        and not rule.need_replication_factors
        and not _has_compound_dims(rule)
    ):
        return _unary_common_axes(projection, rule, tensor_sizes, mesh)
    common = _greedy_common_axes(projection, rule, tensor_sizes, mesh)
    for f in rule.need_replication_factors:
        axes, common[f] = common[f], ()
        if axes and _in_all_non_scalar_tensors(rule, f):
            _distribute_to_batching_factors(axes, rule, mesh, common)
    return common


def compatible_factor_shardings(
    projection: ShardingProjection, rule: OpShardingRule
) -> list[Axes] | None:
    """Per factor, its axes when every tensor shards it alike, factors that
    need replication are unsharded and no two factors share an axis; None
    otherwise."""
    common: list[Axes] = [() for _ in range(rule.num_factors)]
    seen = [False] * rule.num_factors
    used: list[AxisRef] = []
    for tensor in projection.tensors:
        for f, sharding in tensor.factors.items():
            axes = tuple(sharding.axes)
            if f in rule.need_replication_factors:
                if axes:
                    return None
                continue
            if not seen[f]:
                if any(a.overlaps(b) for a in axes for b in used):
                    return None
                common[f] = axes
                used.extend(axes)
                seen[f] = True
            elif axes != common[f]:
                return None
    return common


def _has_sharded_permutation_factors(factors: dict[int, FactorSharding], rule) -> bool:
    return any(f in rule.permutation_factors and s.axes for f, s in factors.items())


def _unary_common_axes(
    projection: ShardingProjection,
    rule: OpShardingRule,
    tensor_sizes: Sequence[int],
    mesh: Mesh,
) -> list[Axes]:
    lhs, rhs = non_scalar_tensor_indices(rule)

    def preference(t: int) -> tuple:
        tensor = projection.tensor(t)
        return (
            not _has_sharded_permutation_factors(tensor.factors, rule),
            tensor_sizes[t],
            _sharding_size_with_overflow(tensor.factors, mesh),
        )

    preferred, other = (lhs, rhs) if preference(lhs) >= preference(rhs) else (rhs, lhs)
    preferred_factors = projection.tensor(preferred).factors
    common: list[Axes] = [() for _ in range(rule.num_factors)]
    used: list[AxisRef] = []
    for f, sharding in preferred_factors.items():
        common[f] = tuple(sharding.axes)
        used.extend(sharding.axes)
    for f, sharding in projection.tensor(other).factors.items():
        if f not in preferred_factors:
            common[f] = truncate_without_overlap(tuple(sharding.axes), used)
    return common


def _sharding_size_with_overflow(factors: dict[int, FactorSharding], mesh: Mesh) -> int:
    return math.prod(
        axes_size(s.axes, mesh) * axes_size(s.overflow_axes, mesh) for s in factors.values()
    )


def _distribute_to_batching_factors(
    axes: Axes, rule: OpShardingRule, mesh: Mesh, common: list[Axes]
) -> None:
    remaining = list(axes)
    for f in batching_factors(rule):
        size = rule.factor_sizes[f]
        if size == 0:
            continue
        sharding = list(common[f])
        sharded = axes_size(sharding, mesh)
        if size % sharded:
            continue
        capacity = size // sharded
        while remaining:
            axis_size = remaining[0].size(mesh)
            if capacity % axis_size:
                break
            append_or_merge(sharding, remaining.pop(0), mesh)
            capacity //= axis_size
        common[f] = tuple(sharding)
        if not remaining:
            break


@dataclass
class _Candidate:
    """One (factor, axes) pair and what makes it preferable (see `key`)."""

    factor: int
    axes: Axes
    total_source_size: int
    precedence: int
    sharding_size: int

    def key(self) -> tuple:
        return (
            self.total_source_size,
            self.precedence,
            self.sharding_size,
            self.factor,
            _axes_key(self.axes),
        )


@dataclass
class _Candidates:
    """The bag of candidates with the factor dependencies that gate them."""

    mesh: Mesh
    candidates: list[_Candidate] = field(default_factory=list)
    # factor -> the non-full factors it follows in some dim
    depends_on: dict[int, set[int]] = field(default_factory=dict)

    def is_valid(self, c: _Candidate) -> bool:
        return not self.depends_on.get(c.factor)

    def best(self) -> _Candidate | None:
        valid = [c for c in self.candidates if self.is_valid(c)]
        return max(valid, key=_Candidate.key) if valid else None

    def drop_dependencies(self, factor: int) -> None:
        for deps in self.depends_on.values():
            deps.discard(factor)


def _initial_candidates(
    projection: ShardingProjection, rule: OpShardingRule, tensor_sizes: Sequence[int], mesh: Mesh
) -> _Candidates:
    pairs: dict[tuple[int, Axes], _Candidate] = {}
    for tensor in projection.tensors:
        for f, sharding in tensor.factors.items():
            axes = tuple(sharding.axes)
            while axes:
                if (f, axes) not in pairs:
                    pairs[(f, axes)] = _Candidate(
                        f, axes, 0, _PRECEDENCE[rule.factor_kind(f)], axes_size(axes, mesh)
                    )
                axes = axes[:-1]
    for size, tensor in zip(tensor_sizes, projection.tensors, strict=True):
        for f, sharding in tensor.factors.items():
            source = tuple(sharding.axes)
            for c in pairs.values():
                if c.factor == f and (c.axes == source or _is_strict_prefix(c.axes, source)):
                    c.total_source_size += size
    bag = _Candidates(mesh, list(pairs.values()))
    for mapping in rule.tensor_mappings():
        for dim in mapping:
            for before, after in itertools.pairwise(dim):
                bag.depends_on.setdefault(after, set()).add(before)
    return bag


def _greedy_common_axes(
    projection: ShardingProjection, rule: OpShardingRule, tensor_sizes: Sequence[int], mesh: Mesh
) -> list[Axes]:
    assigned: list[Axes] = [() for _ in range(rule.num_factors)]
    bag = _initial_candidates(projection, rule, tensor_sizes, mesh)
    best = bag.best()
    while best is not None:
        f, axes = best.factor, best.axes
        assigned[f] = axes
        if axes_size(axes, mesh) == rule.factor_sizes[f]:
            bag.drop_dependencies(f)
        kept: list[_Candidate] = []
        for c in bag.candidates:
            if c.factor == f:
                if _is_strict_prefix(axes, c.axes):
                    c.sharding_size = axes_size(c.axes, mesh) // axes_size(axes, mesh)
                    kept.append(c)
                continue
            truncated = truncate_without_overlap(c.axes, axes)
            if truncated != c.axes:
                c.axes = truncated
                if truncated == assigned[c.factor]:
                    continue
                c.sharding_size = axes_size(truncated, mesh) // axes_size(assigned[c.factor], mesh)
            else:
                c.sharding_size = axes_size(c.axes, mesh)
            kept.append(c)
        bag.candidates = kept
        best = bag.best()
    return assigned


def distribute_axes_across_factors(
    shardings: list[FactorSharding], factor_sizes: Sequence[int], axes: Sequence[AxisRef], mesh
) -> None:
    """Deals `axes` to `shardings` (emptied first), axis by axis, each to the
    first factor with room for a part of it that divides what is left of the
    factor (Shardy's `distributeAxesAcrossFactors`); what no factor takes goes
    to the overflow axes of the last one."""
    remaining = list(factor_sizes)
    index = 0
    current = _axis_info(axes, index, mesh)
    while current is not None:
        used = False
        for i, sharding in enumerate(shardings):
            if remaining[i] <= 1:
                continue
            pre, size = current
            gcd = math.gcd(remaining[i], size)
            if gcd == 1 and size != 1:
                continue
            used = True
            name = axes[index].name
            if size > gcd:
                append_or_merge(sharding.axes, AxisRef(name, (pre, gcd)), mesh)
                current = (pre * gcd, size // gcd)
                remaining[i] //= gcd
            else:
                append_or_merge(sharding.axes, _axis_from(axes[index], pre, size, mesh), mesh)
                remaining[i] //= size
                index += 1
                current = _axis_info(axes, index, mesh)
                break
        if not used:
            overflow = shardings[-1].overflow_axes
            pre, size = current
            append_or_merge(overflow, _axis_from(axes[index], pre, size, mesh), mesh)
            for axis in axes[index + 1 :]:
                append_or_merge(overflow, axis, mesh)
            break


def _axis_info(axes: Sequence[AxisRef], index: int, mesh: Mesh) -> tuple[int, int] | None:
    if index >= len(axes):
        return None
    return axes[index].pre_size, axes[index].size(mesh)


def _axis_from(original: AxisRef, pre: int, size: int, mesh: Mesh) -> AxisRef:
    if not original.is_sub_axis and pre == 1 and size == original.size(mesh):
        return original
    if original.is_sub_axis and (pre, size) == original.sub_axis:
        return original
    return AxisRef(original.name, (pre, size))
