"""Where an op's sharding rule comes from.

`rule_for(op)` is the one lookup every pass uses, in this order:

1. a rule written on the op itself, `{sdy.sharding_rule = #sdy.op_sharding_rule<...>}`
   (Shardy's custom rules; they mark `custom`);
2. a rule registered for the op's name with `@register_rule("my.op")`;
3. the `sharding_rule` facet of the op's `OpDef` in `shardonnay.ops`.

`rule_for(op, conservative=True)` gives the rule Shardy's propagation uses with
`conservative-propagation=true`: no propagation through the dims that would
need data to move between devices (see `conservative_rule`). Rules are built
with `shardonnay.sharding_rule.RuleBuilder`.

>>> from shardonnay.ir.core import Op, Value
>>> from shardonnay.ir.types import TensorType
>>> x = Value(TensorType((8, 4), "f32"))
>>> print(rule_for(Op("stablehlo.negate", [x], [x.type])))
#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>
"""

from __future__ import annotations

from collections.abc import Callable

from shardonnay.ir.core import Module, Op
from shardonnay.ir.shardings import SHARDING
from shardonnay.ops.registry import OpDef, lookup
from shardonnay.ops.traits import ConservativeRule, has_trait, trait_of
from shardonnay.sharding_rule import RULE_ATTRIBUTE, OpShardingRule

RuleFunction = Callable[[Op], "OpShardingRule | None"]

_USER_RULES: dict[str, RuleFunction] = {}


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


def has_registered_rule(name: str) -> bool:
    """Whether ops named `name` have a rule registered with `register_rule`."""
    return name in _USER_RULES


def rule_for(op: Op, *, conservative: bool = False) -> OpShardingRule | None:
    """The sharding rule of `op` (see the module docstring for the order);
    with `conservative`, as `conservative_rule` changes it."""
    written = op.attributes.get(RULE_ATTRIBUTE)
    if isinstance(written, OpShardingRule):
        return written
    user = _USER_RULES.get(op.name)
    if user is not None:
        return user(op)
    rule = _defined_rule(op)
    if conservative and rule is not None and has_trait(op, ConservativeRule):
        return conservative_rule(op, rule)
    return rule


def _defined_rule(op: Op) -> OpShardingRule | None:
    """The rule of `op`'s `OpDef`, remembered for ops that look alike."""
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
# definition, operand and result types and attributes (but its sharding; see
# `OpDef.sharding_rule`). Ops with an attribute that cannot be hashed are left
# out, as are ops whose definition says its rule looks further: at the ops
# producing its operands or into its regions.
_BUILT_RULES: dict[tuple, OpShardingRule | None] = {}
_MAX_BUILT_RULES = 4096
_NOT_IN_RULE_KEY = (SHARDING,)


def _rule_key(op: Op, op_def: OpDef) -> tuple | None:
    if op_def.rule_reads_producers or (op.regions and op_def.rule_reads_regions):
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


def populate_rules(module: Module, *, conservative: bool = False) -> Module:
    """Writes every op's rule as its `sdy.sharding_rule` attribute, like
    Shardy's `sdy-populate-op-sharding-rules` pass (in place); `conservative`:
    the rules of conservative propagation (`conservative-propagation=true`)."""
    for op in module.walk():
        if RULE_ATTRIBUTE in op.attributes:
            continue
        rule = rule_for(op, conservative=conservative)
        if rule is not None:
            op.attributes[RULE_ATTRIBUTE] = rule
    return module


# -- conservative propagation ----------------------------------------------------------


def conservative_rule(op: Op, rule: OpShardingRule) -> OpShardingRule:
    """`rule` (the regular rule of `op`) as Shardy builds it for conservative
    propagation, which never propagates along dims whose sharding would need
    data to move between devices, as the op's `ConservativeRule` trait says:

    - `stablehlo.slice`, `stablehlo.pad`, `stablehlo.reduce_window`,
      `stablehlo.select_and_scatter` (`blocks_moving_factors`): the factors
      of dims whose sizes differ between tensors (permutation and
      need-replication factors) are also blocked;
    - `stablehlo.concatenate` (the concatenated dim) and
      `stablehlo.convolution` (the spatial dims), its `unshared_dims`: those
      dims get no shared factor; like every dim left without one, each gets a
      factor of size 1 of its own (operands first, then results, dim by dim).

    The slice `[32, 4, 8] -> [32, 1, 2]`:
    `([i, j, k])->([i, j, k]) {i=32, j=4, k=8} permutation={j, k}` becomes
    `... permutation={j, k} blocked_propagation={j, k}`; the concatenate of
    `tensor<4x3xf32>` and `tensor<4x5xf32>` along dim 1:
    `([i, j], [i, j])->([i, j]) {i=4, j=8} need_replication={j}` becomes
    `([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}`.
    """
    trait = trait_of(op, ConservativeRule)
    if not isinstance(trait, ConservativeRule):
        return rule
    if trait.blocks_moving_factors:
        rule = _block_moving_factors(op, rule)
    if trait.unshared_dims is not None:
        rule = _unshared_dims(trait.unshared_dims)(op, rule)
    return rule


def _block_moving_factors(op: Op, rule: OpShardingRule) -> OpShardingRule:
    moving = {*rule.permutation_factors, *rule.need_replication_factors}
    return OpShardingRule(
        rule.factor_sizes,
        rule.operand_mappings,
        rule.result_mappings,
        rule.reduction_factors,
        rule.need_replication_factors,
        rule.permutation_factors,
        tuple(sorted({*rule.blocked_propagation_factors, *moving})),
        rule.is_custom,
    )


def _unshared_dims(
    dims_of: Callable[[Op], list[tuple[int, ...]]],
) -> Callable[[Op, OpShardingRule], OpShardingRule]:
    """The change that leaves the dims `dims_of(op)` (per tensor) without
    shared factors: their factors go, and so do the size-1 factors of single
    dims; then every dim without a factor gets a size-1 factor of its own."""

    def change(op: Op, rule: OpShardingRule) -> OpShardingRule:
        mappings = rule.tensor_mappings()
        dropped = {
            f
            for mapping, dims in zip(mappings, dims_of(op), strict=True)
            for d in dims
            for f in mapping[d]
        }
        places: dict[int, int] = {}
        for mapping in mappings:
            for dim in mapping:
                for f in dim:
                    places[f] = places.get(f, 0) + 1
        dropped |= {
            f for f, size in enumerate(rule.factor_sizes) if size == 1 and places.get(f, 0) == 1
        }
        kept = [f for f in range(rule.num_factors) if f not in dropped]
        index = {f: i for i, f in enumerate(kept)}
        tensors = [[[index[f] for f in dim if f in index] for dim in m] for m in mappings]
        sizes = [rule.factor_sizes[f] for f in kept]
        for dims in tensors:
            for dim in dims:
                if not dim:
                    dim.append(len(sizes))
                    sizes.append(1)
        n = len(rule.operand_mappings)

        def kept_of(factors: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(index[f] for f in factors if f in index)

        return OpShardingRule(
            tuple(sizes),
            tuple(tensors[:n]),
            tuple(tensors[n:]),
            kept_of(rule.reduction_factors),
            kept_of(rule.need_replication_factors),
            kept_of(rule.permutation_factors),
            kept_of(rule.blocked_propagation_factors),
            rule.is_custom,
        )

    return change
