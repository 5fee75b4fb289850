"""Op sharding rules: how an op's tensor dimensions decompose into shared factors.

A rule is einsum-like. For a matmul `[8, 32] x [32, 16] -> [8, 16]`::

    #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>

Each dim maps to factors, major to minor. A dim can hold several factors,
e.g. a reshape `[8] -> [2, 4]` is `([ij])->([i, j]) {i=2, j=4}`: the operand's
only dim is the compound `ij`. Factors are pass-through unless listed as
*reduction* (contracting; operands only), *need_replication* (e.g. a sort
dim) or *permutation* (e.g. a sliced or padded dim). *blocked_propagation*
factors never propagate. `custom` marks a user-written rule.

Factor `n` prints as the letter `"ijklmnopqrstuvwxyz"[n]` for n < 18, then
`z_1, z_2, ...`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shardonnay.errors import ShardingError
from shardonnay.syntax.cursor import Cursor

_LETTERS = "ijklmnopqrstuvwxyz"
_FACTOR = re.compile(r"[i-z](?:_[1-9][0-9]*)?")
_SPECIAL_KINDS = ("reduction", "need_replication", "permutation", "blocked_propagation")
_SPECIAL_KIND = re.compile(r"(?:" + "|".join(_SPECIAL_KINDS) + r")\b")

# Per tensor, per dim, the factor indices of that dim (major to minor).
TensorMapping = tuple[tuple[int, ...], ...]


def factor_symbol(index: int) -> str:
    if index < len(_LETTERS):
        return _LETTERS[index]
    return f"z_{index - len(_LETTERS) + 1}"


def factor_index(symbol: str) -> int:
    if len(symbol) == 1:
        return _LETTERS.index(symbol)
    return len(_LETTERS) - 1 + int(symbol[2:])


@dataclass(frozen=True, slots=True)
class OpShardingRule:
    factor_sizes: tuple[int, ...]
    operand_mappings: tuple[TensorMapping, ...]
    result_mappings: tuple[TensorMapping, ...]
    reduction_factors: tuple[int, ...] = ()
    need_replication_factors: tuple[int, ...] = ()
    permutation_factors: tuple[int, ...] = ()
    blocked_propagation_factors: tuple[int, ...] = ()
    is_custom: bool = False

    def __post_init__(self) -> None:
        def mapping(m: Sequence[Sequence[int]]) -> TensorMapping:
            return tuple(tuple(dim) for dim in m)

        object.__setattr__(self, "factor_sizes", tuple(self.factor_sizes))
        object.__setattr__(
            self, "operand_mappings", tuple(mapping(m) for m in self.operand_mappings)
        )
        object.__setattr__(self, "result_mappings", tuple(mapping(m) for m in self.result_mappings))
        for kind in _SPECIAL_KINDS:
            object.__setattr__(self, f"{kind}_factors", tuple(getattr(self, f"{kind}_factors")))

    # -- syntax -----------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> OpShardingRule:
        cursor = Cursor(text)
        cursor.expect("#sdy.op_sharding_rule", "'#sdy.op_sharding_rule'")
        rule = read_op_sharding_rule(cursor)
        cursor.expect_end()
        return rule

    def body(self) -> str:
        def tensor(m: TensorMapping) -> str:
            return "[" + ", ".join("".join(map(factor_symbol, dim)) for dim in m) + "]"

        def tensors(ms: tuple[TensorMapping, ...]) -> str:
            return "(" + ", ".join(tensor(m) for m in ms) + ")"

        text = f"{tensors(self.operand_mappings)}->{tensors(self.result_mappings)}"
        if self.factor_sizes:
            sizes = ", ".join(f"{factor_symbol(i)}={s}" for i, s in enumerate(self.factor_sizes))
            text += f" {{{sizes}}}"
        for kind in _SPECIAL_KINDS:
            factors = getattr(self, f"{kind}_factors")
            if factors:
                text += f" {kind}={{{', '.join(map(factor_symbol, factors))}}}"
        if self.is_custom:
            text += ", custom"
        return f"<{text}>"

    def __str__(self) -> str:
        return "#sdy.op_sharding_rule" + self.body()

    # -- queries ----------------------------------------------------------------

    @property
    def num_factors(self) -> int:
        return len(self.factor_sizes)

    def tensor_mappings(self) -> tuple[TensorMapping, ...]:
        """Operands then results."""
        return self.operand_mappings + self.result_mappings

    def factor_kind(self, factor: int) -> str:
        """`"reduction"`, `"need_replication"`, `"permutation"` or `"pass_through"`."""
        for kind in _SPECIAL_KINDS[:3]:
            if factor in getattr(self, f"{kind}_factors"):
                return kind
        return "pass_through"

    def is_blocked(self, factor: int) -> bool:
        return factor in self.blocked_propagation_factors

    # -- invariants -------------------------------------------------------------

    def validate(
        self,
        operand_shapes: Sequence[Sequence[int]] | None = None,
        result_shapes: Sequence[Sequence[int]] | None = None,
    ) -> None:
        """Raises `ShardingError` where Shardy's verifier rejects the rule."""
        for what, mappings, shapes in (
            ("operand", self.operand_mappings, operand_shapes),
            ("result", self.result_mappings, result_shapes),
        ):
            if shapes is not None and len(shapes) != len(mappings):
                raise ShardingError(
                    f"number of {what}s and mappings must match: {len(shapes)} != {len(mappings)}"
                )
            for t, mapping in enumerate(mappings):
                self._validate_mapping(
                    f"{what} {t}", mapping, None if shapes is None else shapes[t]
                )
        used = {f for m in self.tensor_mappings() for dim in m for f in dim}
        for f in range(self.num_factors):
            if f not in used:
                raise ShardingError(
                    f"has factor {factor_symbol(f)}={self.factor_sizes[f]} that isn't used in "
                    "operand and result mappings"
                )
        kinds: dict[int, str] = {}
        for kind in _SPECIAL_KINDS:
            factors = getattr(self, f"{kind}_factors")
            if list(factors) != sorted(set(factors)):
                raise ShardingError(f"{kind} factors must be sorted and unique")
            for f in factors:
                if not 0 <= f < self.num_factors:
                    raise ShardingError(f"{kind} factor index {f} is out of range")
                if kind != "blocked_propagation":
                    if f in kinds:
                        raise ShardingError(
                            "a factor can only be in one of the reduction, need replication, "
                            "or permutation factor sets"
                        )
                    kinds[f] = kind
        result_factors = {f for m in self.result_mappings for dim in m for f in dim}
        for f in self.reduction_factors:
            if f in result_factors:
                raise ShardingError(
                    f"reduction factor {factor_symbol(f)} cannot be in result mappings"
                )

    def _validate_mapping(self, where: str, mapping: TensorMapping, shape) -> None:
        if shape is not None and len(shape) != len(mapping):
            raise ShardingError(
                f"{where} - mapping rank must match: {len(mapping)} != {len(shape)}"
            )
        seen: set[int] = set()
        for d, dim in enumerate(mapping):
            if not dim:
                raise ShardingError(f"{where} dim {d} - dim mapping must have at least one factor")
            for f in dim:
                if not 0 <= f < self.num_factors:
                    raise ShardingError(f"{where} dim {d} - factor index {f} is out of range")
                if f in seen:
                    raise ShardingError(f"{where} - cannot reuse factors for the same tensor value")
                seen.add(f)
                if len(dim) > 1 and self.factor_sizes[f] == 1:
                    raise ShardingError(
                        f"{where} dim {d} - dim mapping can't have a factor of size 1 if there "
                        "are multiple factors"
                    )


def read_op_sharding_rule(cursor: Cursor) -> OpShardingRule:
    """The `<(...)->(...) {sizes} kinds..., custom>` body."""
    cursor.expect("<", "'<'")
    symbols: dict[str, int] = {}

    def factor() -> int:
        start = cursor.pos
        symbol = cursor.match(_FACTOR, "a factor symbol (i..z, z_1, ...)")
        symbols.setdefault(symbol, start)
        return factor_index(symbol)

    def dim() -> tuple[int, ...]:
        factors = [factor()]
        while _FACTOR.match(cursor.text, cursor.pos):
            factors.append(factor())
        return tuple(factors)

    def tensor() -> TensorMapping:
        cursor.expect("[", "'[' starting a tensor mapping")
        return tuple(cursor.comma_separated("]", dim, "a dim mapping"))

    def tensors() -> tuple[TensorMapping, ...]:
        cursor.expect("(", "'('")
        if cursor.peek(")"):
            raise cursor.error("expected a tensor mapping: a rule maps at least one tensor")
        return tuple(cursor.comma_separated(")", tensor, "a tensor mapping"))

    operands = tensors()
    cursor.expect("->", "'->'")
    results = tensors()
    sizes: dict[int, int] = {}
    if cursor.accept("{"):

        def size() -> None:
            start = cursor.pos
            f = factor_index(cursor.match(_FACTOR, "a factor symbol"))
            cursor.expect("=")
            if f != len(sizes):
                raise cursor.error(
                    f"expected the size of factor {factor_symbol(len(sizes))}: sizes are "
                    "listed in factor order",
                    start,
                )
            sizes[f] = cursor.integer("a factor size")

        cursor.comma_separated("}", size, "a factor size")
    special: dict[str, tuple[int, ...]] = {}
    while True:
        cursor.skip_space()
        start = cursor.pos
        m = _SPECIAL_KIND.match(cursor.text, cursor.pos)
        if m is None:
            break
        kind = m.group()
        if kind in special or any(
            _SPECIAL_KINDS.index(k) > _SPECIAL_KINDS.index(kind) for k in special
        ):
            raise cursor.error(
                f"'{kind}' out of order: they come as {', '.join(_SPECIAL_KINDS)}", start
            )
        cursor.pos = m.end()
        cursor.expect("=")
        cursor.expect("{")
        special[kind] = tuple(cursor.comma_separated("}", factor, "a factor"))
    is_custom = False
    if cursor.accept(","):
        cursor.expect("custom", "'custom'")
        is_custom = True
    cursor.expect(">", "'>' closing the rule")
    num_factors = max([*sizes, *(factor_index(s) for s in symbols)], default=-1) + 1
    for f in range(num_factors):
        if f not in sizes:
            raise cursor.error(f"factor {factor_symbol(f)} has no size")
    return OpShardingRule(
        tuple(sizes[f] for f in range(num_factors)),
        operands,
        results,
        **{f"{k}_factors": v for k, v in special.items()},
        is_custom=is_custom,
    )


#: The attribute that holds an op's rule (`#sdy.op_sharding_rule<...>`).
RULE_ATTRIBUTE = "sdy.sharding_rule"

_BUILDER_KINDS = ("pass_through", "reduction", "need_replication", "permutation")


class RuleBuilder:
    """Builds an `OpShardingRule` for tensors of the given shapes.

    Each `add_factor` adds one factor: for every operand and result, the dim it
    maps to (`None`: the factor does not appear in that tensor). Adding a
    second factor to a dim makes that dim compound, the new factor minor.
    Factors get their letters in the order they are added, as in Shardy's
    `OpShardingRuleBuilder`. A matmul `[8, 32] x [32, 16] -> [8, 16]`:

    >>> b = RuleBuilder([(8, 32), (32, 16)], [(8, 16)])
    >>> b.add_factor([0, None], [0], 8).add_factor([None, 1], [1], 16)
    RuleBuilder(3 tensors, 2 factors)
    >>> print(b.add_factor([1, 0], [None], 32, kind="reduction").build())
    #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>
    """

    __slots__ = ("_kinds", "blocked", "operand_shapes", "result_shapes", "sizes", "tensors")

    def __init__(
        self, operand_shapes: Sequence[Sequence[int]], result_shapes: Sequence[Sequence[int]]
    ):
        self.operand_shapes = [tuple(s) for s in operand_shapes]
        self.result_shapes = [tuple(s) for s in result_shapes]
        shapes = self.operand_shapes + self.result_shapes
        self.tensors: list[list[list[int]]] = [[[] for _ in s] for s in shapes]
        self.sizes: list[int] = []
        self._kinds: list[str] = []
        self.blocked: list[int] = []

    @classmethod
    def for_op(cls, op: Any) -> RuleBuilder:
        """A builder for the tensor shapes of `op`'s operands and results (an IR
        op: values whose types are tensor types with a static `shape`)."""
        shapes = []
        for v in [*op.operands, *op.results]:
            shape = getattr(v.type, "shape", None)
            if shape is None:
                raise ShardingError(f"{op.name}: sharding rules need tensor types, not {v.type}")
            shapes.append(shape)
        n = len(op.operands)
        return cls(shapes[:n], shapes[n:])

    def add_factor(
        self,
        operand_dims: Sequence[int | None],
        result_dims: Sequence[int | None],
        size: int,
        *,
        kind: str = "pass_through",
        blocked: bool = False,
    ) -> RuleBuilder:
        if kind not in _BUILDER_KINDS:
            raise ValueError(f"unknown factor kind {kind!r}")
        dims = [*operand_dims, *result_dims]
        if len(dims) != len(self.tensors):
            raise ValueError(
                f"a factor needs a dim (or None) for each of {len(self.tensors)} tensors"
            )
        index = len(self.sizes)
        for tensor, dim in zip(self.tensors, dims, strict=True):
            if dim is not None:
                tensor[dim].append(index)
        self.sizes.append(size)
        self._kinds.append(kind)
        if blocked:
            self.blocked.append(index)
        return self

    def add_pointwise(self, shape: Sequence[int]) -> RuleBuilder:
        """One factor per dim of `shape`, mapped to that dim of every tensor."""
        n_operands, n_results = len(self.operand_shapes), len(self.result_shapes)
        for d, size in enumerate(shape):
            self.add_factor([d] * n_operands, [d] * n_results, size)
        return self

    def build(self, *, is_custom: bool = False) -> OpShardingRule:
        n = len(self.operand_shapes)
        mappings = [tuple(tuple(dim) for dim in t) for t in self.tensors]

        def of_kind(kind: str) -> tuple[int, ...]:
            return tuple(i for i, k in enumerate(self._kinds) if k == kind)

        return OpShardingRule(
            tuple(self.sizes),
            tuple(mappings[:n]),
            tuple(mappings[n:]),
            reduction_factors=of_kind("reduction"),
            need_replication_factors=of_kind("need_replication"),
            permutation_factors=of_kind("permutation"),
            blocked_propagation_factors=tuple(self.blocked),
            is_custom=is_custom,
        )

    def __repr__(self) -> str:
        return f"RuleBuilder({len(self.tensors)} tensors, {len(self.sizes)} factors)"
