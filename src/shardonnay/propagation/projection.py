"""Sharding projection: tensor shardings seen per factor of an op's sharding rule.

Propagation through one op works on *factors*, not dims. Projecting a tensor
sharding deals each dim's axes to the factors of that dim, major to minor;
after propagation, unprojecting concatenates them back. A reshape
`tensor<8>` -> `tensor<2x4>` has the rule `([ij])->([i, j]) {i=2, j=4}`; on
the mesh `["x"=4, "y"=2]`, the operand sharding `[{"x", "y"}]` projects to::

    i: ["x":(1)2]            (i has size 2: it takes the major half of "x")
    j: ["x":(2)2, "y"]       (the minor-most factor takes all that is left)

and giving the result the same factor shardings unprojects to
`[{"x":(1)2}, {"x":(2)2, "y"}]`.

How a dim's axes are dealt to its factors (`project_tensor`):

- a non-minor-most factor takes axes while the gcd of its remaining size and
  the next axis' size is > 1, cutting the axis into sub-axes when only a part
  of it fits (`"x":(1)2` above);
- the minor-most factor takes all the axes that are left, even if they do not
  divide its size (that needs padding);
- when a non-minor-most factor is not fully sharded yet and the next axis'
  size is coprime with what is left of it, the remaining axes become its
  *overflow axes*: they keep the dim's sharding but no later factor of that
  dim can be sharded (those factors are closed);
- factors of a closed dim are closed.

`ShardingProjection.build(...)` projects all operands and results of an op;
`ShardingProjection.to_tensor_shardings(...)` unprojects them.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from shardonnay.axes import AxisRef
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding
from shardonnay.sharding_rule import OpShardingRule, TensorMapping, factor_symbol

__all__ = [
    "FactorSharding",
    "PrefixStatus",
    "Projections",
    "ShardingProjection",
    "TensorFactorShardings",
    "axis_list_prefix_status",
    "is_strict_prefix",
    "project_tensor",
]


class PrefixStatus(enum.Enum):
    """How one axis list relates to another (see `axis_list_prefix_status`)."""

    EQUAL = "equal"
    STRICT_PREFIX = "strict_prefix"
    NOT_A_PREFIX = "not_a_prefix"


def axis_list_prefix_status(first: Sequence[AxisRef], second: Sequence[AxisRef]) -> PrefixStatus:
    """Whether `first` equals `second`, is a strict prefix of it, or neither.

    All axes but the last must be equal; the last axis of `first` may also be a
    prefix sub-axis of the axis of `second` at its position:
    `["a", "b":(1)2]` is a strict prefix of `["a", "b", "c"]` and of `["a", "b"]`.
    """
    n = len(first)
    if n > len(second):
        return PrefixStatus.NOT_A_PREFIX
    if not n:
        return PrefixStatus.EQUAL if not second else PrefixStatus.STRICT_PREFIX
    for i in range(n - 1):
        a, b = first[i], second[i]
        if a is not b and a != b:
            return PrefixStatus.NOT_A_PREFIX
    last, other = first[-1], second[n - 1]
    if last is other or last == other:
        return PrefixStatus.EQUAL if n == len(second) else PrefixStatus.STRICT_PREFIX
    if last.strict_prefix_of(other):
        return PrefixStatus.STRICT_PREFIX
    return PrefixStatus.NOT_A_PREFIX


def is_strict_prefix(first: Sequence[AxisRef], second: Sequence[AxisRef]) -> bool:
    return axis_list_prefix_status(first, second) is PrefixStatus.STRICT_PREFIX


@dataclass(slots=True)
class FactorSharding:
    """The axes sharding one factor of one tensor, major to minor.

    `is_closed`: the factor cannot be sharded further (its dim is closed, or an
    earlier factor of its dim overflowed). `is_minor_most`: it is the last
    factor of its dim (it may then be sharded by axes that do not divide its
    size). `overflow_axes`: the dim's axes that follow this (non-minor-most)
    factor's axes but could not be dealt to it; they are kept for unprojection.
    """

    axes: list[AxisRef] = field(default_factory=list)
    is_closed: bool = False
    is_minor_most: bool = False
    overflow_axes: list[AxisRef] = field(default_factory=list)

    def sharded_size(self, mesh: Mesh) -> int:
        return math.prod(a.size(mesh) for a in self.axes)

    def __str__(self) -> str:
        text = "[" + ", ".join(map(str, self.axes)) + ("" if self.is_closed else ", ?") + "]"
        if self.overflow_axes:
            text += " overflow=[" + ", ".join(map(str, self.overflow_axes)) + "]"
        return text.replace("[, ?]", "[?]")


@dataclass(slots=True)
class TensorFactorShardings:
    """One tensor seen through a rule: the sharding of each factor it maps.

    `factors` has an entry exactly for the factors that appear in the tensor's
    mapping (in the order they appear, dim by dim). `replicated` and
    `unreduced` are the tensor sharding's explicitly replicated and unreduced
    axes: no factor of this tensor may be sharded along them.
    """

    factors: dict[int, FactorSharding] = field(default_factory=dict)
    replicated: list[AxisRef] = field(default_factory=list)
    unreduced: list[AxisRef] = field(default_factory=list)

    def blocked_axes(self) -> list[AxisRef]:
        """The axes no factor of this tensor may be sharded along."""
        return [*self.replicated, *self.unreduced]

    def expand(self, factor: int, new_axes: Sequence[AxisRef]) -> bool:
        """Sets `factor`'s axes to `new_axes` if they are a strict extension.

        Returns whether this tensor changed (False when it does not map the
        factor, or its axes are not a strict prefix of `new_axes`).
        """
        sharding = self.factors.get(factor)
        if sharding is None or not is_strict_prefix(sharding.axes, new_axes):
            return False
        sharding.axes = list(new_axes)
        return True

    def sharding_size(self, mesh: Mesh) -> int:
        """The number of shards along all factors of this tensor."""
        return math.prod(f.sharded_size(mesh) for f in self.factors.values())

    def to_tensor_sharding(
        self,
        mapping: TensorMapping,
        factor_sizes: Sequence[int],
        mesh_ref: str | Mesh,
        mesh: Mesh,
    ) -> TensorSharding:
        """Unprojects these factor shardings to a `TensorSharding` on `mesh_ref`.

        Per dim, concatenates its factors' axes major to minor, merging
        consecutive sub-axes at factor boundaries (`"a":(1)2` then `"a":(2)2`
        becomes `"a"`), and stops after a factor that has overflow axes (which
        are appended) or is not fully sharded (any sharding of a later factor
        would need a strided view). A dim is closed iff one of its factors is.
        """
        dims = []
        for dim_factors in mapping:
            axes: list[AxisRef] = []
            is_closed = False
            for f in dim_factors:
                sharding = self.factors[f]
                is_closed |= sharding.is_closed
                sharded = _append_merging(axes, sharding.axes, mesh)
                if sharding.overflow_axes:
                    _append_merging(axes, sharding.overflow_axes, mesh)
                    break
                if sharded < factor_sizes[f]:
                    break
            dims.append(DimSharding(tuple(axes), is_closed))
        return TensorSharding(mesh_ref, tuple(dims), tuple(self.replicated), tuple(self.unreduced))

    def __str__(self) -> str:
        parts = [f"{factor_symbol(f)}: {s}" for f, s in self.factors.items()]
        if self.replicated:
            parts.append("replicated=" + ", ".join(map(str, self.replicated)))
        if self.unreduced:
            parts.append("unreduced=" + ", ".join(map(str, self.unreduced)))
        return "{" + "; ".join(parts) + "}"


def _append_merging(axes: list[AxisRef], new: Sequence[AxisRef], mesh: Mesh) -> int:
    """Appends `new` to `axes`, merging its first axis into the last one when
    they are consecutive sub-axes; returns the product of the sizes of `new`."""
    size = 1
    for i, axis in enumerate(new):
        size *= axis.size(mesh)
        if i == 0 and axes and axes[-1].can_merge(axis):
            axes[-1] = axes[-1].merge(axis, mesh)
        else:
            axes.append(axis)
    return size


def project_tensor(
    sharding: TensorSharding | None,
    mapping: TensorMapping,
    factor_sizes: Sequence[int],
    mesh: Mesh,
    *,
    closed_if_missing: bool = False,
) -> TensorFactorShardings:
    """Projects one tensor's sharding onto the factors of its `mapping`.

    A missing sharding (`None`) is fully open, or fully closed with
    `closed_if_missing`.

    >>> from shardonnay.sharding import TensorSharding
    >>> mesh = Mesh({"x": 4, "y": 2})
    >>> t = project_tensor(TensorSharding.from_axes("m", [("x", "y")]), ((0, 1),), (2, 4), mesh)
    >>> print(t)
    {i: ["x":(1)2]; j: ["x":(2)2, "y"]}
    """
    result = TensorFactorShardings()
    factors = result.factors
    for d, dim_factors in enumerate(mapping):
        if sharding is None:
            axes: tuple[AxisRef, ...] = ()
            dim_closed = closed_if_missing
        else:
            dim = sharding.dims[d]
            axes = dim.axes
            dim_closed = dim.is_closed
        if not axes:  # every factor of the dim: unsharded, closed iff the dim is
            last = dim_factors[-1] if dim_factors else None
            for f in dim_factors:
                factor = factors.get(f)
                if factor is None:
                    factor = factors[f] = FactorSharding()
                factor.is_minor_most = f == last
                factor.is_closed = dim_closed
                if f == last:
                    break
            continue
        # The axis being dealt: its index in `axes`, and what is left of it as
        # (pre-size, size), which can be a part of axes[index] after a split.
        index = 0
        left = _remaining(axes, index, mesh)
        overflowed = False
        for f in dim_factors:
            factor = result.factors.setdefault(f, FactorSharding())
            factor.is_minor_most = f == dim_factors[-1]
            if overflowed:
                factor.is_closed = True
                break
            factor.is_closed = dim_closed
            if factor.is_minor_most:
                _add_remaining(factor.axes, left, axes, index, mesh)
                break
            remaining = factor_sizes[f]
            while left is not None:
                pre, size = left
                gcd = math.gcd(remaining, size)
                if size != 1 and gcd == 1:
                    break
                name = axes[index].name
                if size > gcd:  # split: this factor takes the major `gcd` of the axis
                    factor.axes.append(AxisRef(name, (pre, gcd)))
                    left = (pre * gcd, size // gcd)
                    remaining //= gcd
                else:
                    factor.axes.append(_axis_from(axes[index], pre, size, mesh))
                    remaining //= size
                    index += 1
                    left = _remaining(axes, index, mesh)
            if remaining > 1 and left is not None:
                overflowed = True
                _add_remaining(factor.overflow_axes, left, axes, index, mesh)
    if sharding is not None:
        result.replicated = list(sharding.replicated)
        result.unreduced = list(sharding.unreduced)
    return result


def _remaining(axes: Sequence[AxisRef], index: int, mesh: Mesh) -> tuple[int, int] | None:
    if index >= len(axes):
        return None
    return axes[index].pre_size, axes[index].size(mesh)


def _axis_from(original: AxisRef, pre: int, size: int, mesh: Mesh) -> AxisRef:
    """`original` itself when (pre, size) is all of it, else the sub-axis."""
    if pre == original.pre_size and size == original.size(mesh):
        return original
    return AxisRef(original.name, (pre, size))


def _add_remaining(
    out: list[AxisRef],
    left: tuple[int, int] | None,
    axes: Sequence[AxisRef],
    index: int,
    mesh: Mesh,
) -> None:
    if left is None:
        return
    out.append(_axis_from(axes[index], *left, mesh))
    out.extend(axes[index + 1 :])


class Projections:
    """Projections remembered for one propagation, by the identities of what
    they were built from (each entry keeps those objects alive, so that an
    identity is never reused while its entry exists). The shardings and
    rules are immutable, and the same objects come back op after op (the
    propagation driver keeps one object per distinct sharding and rule), so
    an op like others before it is projected by sharing tensors dealt
    before (copied once expanded: see `ShardingProjection`), not dealt axis
    by axis again. Each table is cleared when full.

    `built`: whole projections by the identities of `build`'s arguments
    (rule, mesh, `closed_if_missing`, shardings). `tensors`: tensors by
    what `project_tensor` reads (the identities of the sharding and mesh,
    the mapping, the factor sizes, `closed_if_missing`): the tensors of an
    op often have one sharding and mapping (an elementwise op's), and ops
    alike meet the same ones, so each is dealt once. Never expanded
    (a projection expands copies of them).

    The objects the entries key are those of one module's propagation (its
    shardings are made as it goes): the tables live as long as it does, and
    then leave nothing behind."""

    __slots__ = ("built", "tensors")

    LIMIT = 4096

    def __init__(self) -> None:
        self.built: dict[tuple, tuple] = {}
        self.tensors: dict[tuple, tuple[TensorFactorShardings, TensorSharding | None, Mesh]] = {}

    def tensor(
        self,
        sharding: TensorSharding | None,
        mapping: TensorMapping,
        factor_sizes: Sequence[int],
        mesh: Mesh,
        closed_if_missing: bool,
    ) -> TensorFactorShardings:
        """`project_tensor`, remembered (see `tensors`; never to be expanded)."""
        key = (id(sharding), id(mesh), closed_if_missing, mapping, factor_sizes)
        entry = self.tensors.get(key)
        if entry is None:
            if len(self.tensors) >= self.LIMIT:
                self.tensors.clear()
            projected = project_tensor(
                sharding, mapping, factor_sizes, mesh, closed_if_missing=closed_if_missing
            )
            entry = self.tensors[key] = (projected, sharding, mesh)
        return entry[0]


def _fresh(tensor: TensorFactorShardings) -> TensorFactorShardings:
    """A copy of `tensor` that shares nothing mutable with it (a projection is
    expanded in place by the one who built it; lists copied by slicing, the
    quickest way)."""
    return TensorFactorShardings(
        {
            f: FactorSharding(s.axes[:], s.is_closed, s.is_minor_most, s.overflow_axes[:])
            for f, s in tensor.factors.items()
        },
        tensor.replicated[:],
        tensor.unreduced[:],
    )


@dataclass
class ShardingProjection:
    """The factor shardings of all operands and results of one op.

    Workflow of propagation through an op: `build` (project), let a factor
    propagation strategy expand factor shardings in place (`expand_tensor`,
    `expand`), then `to_tensor_shardings` (unproject). See the module
    docstring.

    A projection built from remembered ones (`Projections`) shares their
    tensors until it expands one: `expand_tensor` then expands a copy of its
    own, so that the remembered tensor stays as dealt (most tensors of most
    steps are never expanded, and are never copied).
    """

    operands: list[TensorFactorShardings]
    results: list[TensorFactorShardings]
    # Per tensor (operands then results), whether it is shared (None: none is).
    shared: list[bool] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def build(
        cls,
        operand_shardings: Sequence[TensorSharding | None],
        result_shardings: Sequence[TensorSharding | None],
        rule: OpShardingRule,
        mesh: Mesh,
        *,
        closed_if_missing: bool = False,
        remembered: Projections | None = None,
    ) -> ShardingProjection:
        """Projects each tensor's sharding (None: no sharding) through `rule`;
        `remembered`: the projections of the propagation this one is part of
        (see `Projections`), whose tensors it may share, and joins."""
        if len(operand_shardings) != len(rule.operand_mappings) or len(result_shardings) != len(
            rule.result_mappings
        ):
            raise ValueError(
                f"rule maps {len(rule.operand_mappings)} operands and "
                f"{len(rule.result_mappings)} results, got {len(operand_shardings)} and "
                f"{len(result_shardings)} shardings"
            )

        sizes = rule.factor_sizes
        if remembered is None:
            return cls(
                [
                    project_tensor(s, m, sizes, mesh, closed_if_missing=closed_if_missing)
                    for s, m in zip(operand_shardings, rule.operand_mappings, strict=True)
                ],
                [
                    project_tensor(s, m, sizes, mesh, closed_if_missing=closed_if_missing)
                    for s, m in zip(result_shardings, rule.result_mappings, strict=True)
                ],
            )
        key = (
            id(rule),
            id(mesh),
            closed_if_missing,
            *map(id, operand_shardings),
            None,  # (operands and results apart: their counts are the rule's)
            *map(id, result_shardings),
        )
        built = remembered.built
        entry = built.get(key)
        if entry is None:
            tensor = remembered.tensor
            operands = [
                tensor(s, m, sizes, mesh, closed_if_missing)
                for s, m in zip(operand_shardings, rule.operand_mappings, strict=True)
            ]
            results = [
                tensor(s, m, sizes, mesh, closed_if_missing)
                for s, m in zip(result_shardings, rule.result_mappings, strict=True)
            ]
            if len(built) >= remembered.LIMIT:
                built.clear()
            entry = built[key] = (
                operands,
                results,
                (rule, mesh, tuple(operand_shardings), tuple(result_shardings)),
            )
        return cls(list(entry[0]), list(entry[1]), [True] * (len(entry[0]) + len(entry[1])))

    @property
    def num_operands(self) -> int:
        return len(self.operands)

    @property
    def num_results(self) -> int:
        return len(self.results)

    @property
    def tensors(self) -> list[TensorFactorShardings]:
        """Operands then results (tensor index `t` is an operand iff `t < num_operands`)."""
        return [*self.operands, *self.results]

    def tensor(self, index: int) -> TensorFactorShardings:
        n = len(self.operands)
        return self.operands[index] if index < n else self.results[index - n]

    def expand_tensor(self, index: int, factor: int, new_axes: Sequence[AxisRef]) -> bool:
        """`tensor(index).expand(factor, new_axes)`, on a copy of its own if
        the tensor is shared (see the class docstring)."""
        n = len(self.operands)
        tensors, i = (self.operands, index) if index < n else (self.results, index - n)
        tensor = tensors[i]
        sharding = tensor.factors.get(factor)
        if sharding is None or not is_strict_prefix(sharding.axes, new_axes):
            return False
        shared = self.shared
        if shared is not None and shared[index]:
            shared[index] = False
            tensor = tensors[i] = _fresh(tensor)
        return tensor.expand(factor, new_axes)

    def expand(self, factor: int, new_axes: Sequence[AxisRef]) -> list[bool]:
        """Expands `factor` to `new_axes` in every tensor whose axes for it are
        a strict prefix of `new_axes`; returns, per tensor, whether it changed."""
        return [
            self.expand_tensor(t, factor, new_axes)
            for t in range(len(self.operands) + len(self.results))
        ]

    def to_tensor_shardings(
        self, rule: OpShardingRule, mesh_ref: str | Mesh, mesh: Mesh
    ) -> tuple[list[TensorSharding], list[TensorSharding]]:
        """Unprojects every operand and result (see `TensorFactorShardings.to_tensor_sharding`)."""
        sizes = rule.factor_sizes
        return (
            [
                t.to_tensor_sharding(m, sizes, mesh_ref, mesh)
                for t, m in zip(self.operands, rule.operand_mappings, strict=True)
            ],
            [
                t.to_tensor_sharding(m, sizes, mesh_ref, mesh)
                for t, m in zip(self.results, rule.result_mappings, strict=True)
            ],
        )

    def __str__(self) -> str:
        ops = ", ".join(map(str, self.operands))
        res = ", ".join(map(str, self.results))
        return f"({ops}) -> ({res})"
