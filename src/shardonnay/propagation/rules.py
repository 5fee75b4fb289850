"""Where an op's sharding rule comes from, and how rules are built.

`rule_for(op)` is the one lookup every pass uses, in this order:

1. a rule written on the op itself, `{sdy.sharding_rule = #sdy.op_sharding_rule<...>}`
   (Shardy's custom rules; they mark `custom`);
2. a rule registered for the op's name with `@register_rule("my.op")`;
3. the `sharding_rule` facet of the op's `OpDef` in `shardonnay.ops`.

`RuleBuilder` assembles a rule factor by factor, the way Shardy's
`OpShardingRuleBuilder` does, so that factors get the same letters as in
Shardy's output. A matmul `[8, 32] x [32, 16] -> [8, 16]`:

>>> from shardonnay.ir.types import TensorType
>>> b = RuleBuilder([(8, 32), (32, 16)], [(8, 16)])
>>> b.add_factor([0, None], [0], 8).add_factor([None, 1], [1], 16)
RuleBuilder(3 tensors, 2 factors)
>>> print(b.add_factor([1, 0], [None], 32, kind="reduction").build())
#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from shardonnay.errors import ShardingError
from shardonnay.ir.types import TensorType
from shardonnay.ops.registry import lookup
from shardonnay.sharding_rule import OpShardingRule

if TYPE_CHECKING:
    from shardonnay.ir.core import Module, Op

RuleFunction = Callable[["Op"], "OpShardingRule | None"]

_USER_RULES: dict[str, RuleFunction] = {}

RULE_ATTRIBUTE = "sdy.sharding_rule"

_KINDS = ("pass_through", "reduction", "need_replication", "permutation")


def register_rule(name: str) -> Callable[[RuleFunction], RuleFunction]:
    """Registers `fn(op) -> OpShardingRule` as the rule of ops named `name`.

    @register_rule("mylib.fused_matmul")
    def fused_matmul_rule(op):
        return RuleBuilder.for_op(op).add_pointwise(...).build()
    """

    def decorate(fn: RuleFunction) -> RuleFunction:
        _USER_RULES[name] = fn
        return fn

    return decorate


def unregister_rule(name: str) -> None:
    _USER_RULES.pop(name, None)


def rule_for(op: Op) -> OpShardingRule | None:
    """The sharding rule of `op` (see the module docstring for the order)."""
    written = op.attributes.get(RULE_ATTRIBUTE)
    if isinstance(written, OpShardingRule):
        return written
    user = _USER_RULES.get(op.name)
    if user is not None:
        return user(op)
    op_def = lookup(op.name)
    key = _rule_key(op, op_def)
    if key is None:
        return op_def.sharding_rule(op)
    try:
        return _BUILT_RULES[key]
    except KeyError:
        pass
    rule = op_def.sharding_rule(op)
    if len(_BUILT_RULES) >= _MAX_BUILT_RULES:
        _BUILT_RULES.clear()
    _BUILT_RULES[key] = rule
    return rule


# The rules of the ops' definitions, by what they are computed from: the op's
# definition, operand and result types and attributes (but its sharding). Ops
# with regions are left out (a rule might look into them), as are ops with an
# attribute that cannot be hashed, and ops whose definition says its rule looks
# at the ops producing its operands (`rule_reads_producers = True`).
_BUILT_RULES: dict[tuple, OpShardingRule | None] = {}
_MAX_BUILT_RULES = 4096
_NOT_IN_RULE_KEY = ("sdy.sharding",)


def _rule_key(op: Op, op_def: object) -> tuple | None:
    if op.regions or getattr(op_def, "rule_reads_producers", False):
        return None
    key = (
        op_def,
        op.name,
        tuple(v.type for v in op.operands),
        tuple(r.type for r in op.results),
        tuple(item for item in op.attributes.items() if item[0] not in _NOT_IN_RULE_KEY),
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


def populate_rules(module: Module) -> Module:
    """Writes every op's rule as its `sdy.sharding_rule` attribute, like
    Shardy's `sdy-populate-op-sharding-rules` pass (in place)."""
    for op in module.walk():
        if RULE_ATTRIBUTE in op.attributes:
            continue
        rule = rule_for(op)
        if rule is not None:
            op.attributes[RULE_ATTRIBUTE] = rule
    return module


class RuleBuilder:
    """Builds an `OpShardingRule` for tensors of the given shapes.

    Each `add_factor` adds one factor: for every operand and result, the dim it
    maps to (`None`: the factor does not appear in that tensor). Adding a
    second factor to a dim makes that dim compound, the new factor minor.
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
    def for_op(cls, op: Op) -> RuleBuilder:
        """A builder for `op`'s operand and result tensor shapes."""
        shapes = []
        for v in [*op.operands, *op.results]:
            if not isinstance(v.type, TensorType):
                raise ShardingError(f"{op.name}: sharding rules need tensor types, not {v.type}")
            shapes.append(v.type.shape)
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
        if kind not in _KINDS:
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
