"""In-place edits of a module that Shardy's propagation passes make around
propagating: dead ops erased before (`erase_dead_ops`), sharding rules that
are not custom dropped after (`drop_sharding_rules`)."""

from __future__ import annotations

from shardonnay.ir.core import Block, Module, Op
from shardonnay.ops.registry import is_registered, lookup
from shardonnay.propagation.data_flow import DATA_FLOW_OPS
from shardonnay.propagation.rules import RULE_ATTRIBUTE
from shardonnay.sharding_rule import OpShardingRule

__all__ = ["drop_sharding_rules", "erase_dead_ops"]


# Ops without effects of their own whose nested ops decide whether they have any.
_RECURSIVE_EFFECT_OPS = (
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.if",
    "sdy.named_computation",
)
_TERMINATORS = ("stablehlo.return", "sdy.return")


def _effect_free(op: Op) -> bool:
    """Whether `op` has no side effects (so that it may go when unused)."""
    name = op.name
    if name in _TERMINATORS or name == "stablehlo.optimization_barrier":
        return True
    if name in _RECURSIVE_EFFECT_OPS:
        return all(
            _effect_free(inner) for region in op.regions for b in region.blocks for inner in b.ops
        )
    if name == "stablehlo.custom_call":
        return op.attributes.get("has_side_effect") is not True
    return is_registered(name) and lookup(name).pure


def erase_dead_ops(module: Module, *, keep_data_flow_ops: bool = False) -> None:
    """Erases, in place, every op whose results are all unused and that has no
    side effects, until none is left (as the rewrite driver of Shardy's
    propagation passes does before an op could propagate anything).
    `keep_data_flow_ops`: keep the ops whose results get data-flow edges."""

    def sweep(block: Block) -> bool:
        changed = False
        for op in reversed(list(block.ops)):
            for region in op.regions:
                for inner in region.blocks:
                    changed |= sweep(inner)
            if (
                op is not block.terminator
                and not any(r.uses for r in op.results)
                and not (keep_data_flow_ops and op.name in DATA_FLOW_OPS and op.results)
                and _effect_free(op)
            ):
                op.erase()
                changed = True
        return changed

    for func in module.functions:
        if func.is_declaration:
            continue
        while sweep(func.body):
            pass


def drop_sharding_rules(module: Module) -> None:
    """Removes, in place, every `sdy.sharding_rule` that is not custom (as
    Shardy's propagation passes do without `keep-sharding-rules=true`, and
    its pipeline's last step, `sdy-drop-sharding-rules`)."""
    for op in module.walk():
        rule = op.attributes.get(RULE_ATTRIBUTE)
        if isinstance(rule, OpShardingRule) and not rule.is_custom:
            del op.attributes[RULE_ATTRIBUTE]
