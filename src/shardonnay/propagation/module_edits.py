"""In-place edits of a module that Shardy's passes make around propagating:
dead ops erased (`erase_dead_ops`; the ops propagation erases on its way,
`erasable_ops`), sharding rules that are not custom dropped after
(`drop_sharding_rules`), and every sharding of a module replaced
(`transform_shardings`)."""

from __future__ import annotations

from collections.abc import Callable

from shardonnay.ir.core import Block, Module, Op
from shardonnay.ir.shardings import SHARDING
from shardonnay.ops.registry import is_registered, lookup
from shardonnay.ops.rules import RULE_ATTRIBUTE
from shardonnay.ops.traits import DATA_FLOW, RECURSIVE_EFFECTS, TERMINATOR, has_trait
from shardonnay.sharding import TensorSharding, TensorShardingPerValue
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "Transform",
    "drop_sharding_rules",
    "erasable_ops",
    "erase_dead_ops",
    "may_erase_when_unused",
    "transform_shardings",
]

Transform = Callable[[TensorSharding], TensorSharding]


def _effect_free(op: Op) -> bool:
    """Whether `op` has no side effects (so that it may go when unused)."""
    name = op.name
    if has_trait(op, TERMINATOR) or name == "stablehlo.optimization_barrier":
        return True
    if has_trait(op, RECURSIVE_EFFECTS):
        return all(
            _effect_free(inner) for region in op.regions for b in region.blocks for inner in b.ops
        )
    if name == "stablehlo.custom_call":
        return op.attributes.get("has_side_effect") is not True
    return is_registered(name) and lookup(name).pure


def may_erase_when_unused(op: Op, *, keep_data_flow_ops: bool = False) -> bool:
    """Whether `op` goes once its results are all unused (MLIR's "trivially
    dead"): it is no terminator and has no side effects.
    `keep_data_flow_ops`: the ops whose results get data-flow edges stay
    (their edges use them)."""
    block = op.parent
    return (
        block is not None
        and op is not block.terminator
        and not (keep_data_flow_ops and has_trait(op, DATA_FLOW) and op.results)
        and _effect_free(op)
    )


def erase_dead_ops(module: Module, *, keep_data_flow_ops: bool = False) -> None:
    """Erases, in place, every op whose results are all unused and that has no
    side effects, until none is left (as MLIR's rewrite drivers do).
    `keep_data_flow_ops`: keep the ops whose results get data-flow edges."""

    def sweep(block: Block) -> bool:
        changed = False
        for op in reversed(list(block.ops)):
            for region in op.regions:
                for inner in region.blocks:
                    changed |= sweep(inner)
            if not any(r.uses for r in op.results) and may_erase_when_unused(
                op, keep_data_flow_ops=keep_data_flow_ops
            ):
                op.erase()
                changed = True
        return changed

    for func in module.functions:
        if func.is_declaration:
            continue
        while sweep(func.body):
            pass


def erasable_ops(module: Module, *, keep_data_flow_ops: bool = False) -> set[Op]:
    """The ops `erase_dead_ops` would erase (with the ops nested in them),
    without erasing them: those that may go when unused and whose results
    only these ops use.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> module = parse_module('''
    ... func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    ...   %0 = stablehlo.negate %arg0 : tensor<4xf32>
    ...   %1 = stablehlo.abs %0 : tensor<4xf32>
    ...   %2 = stablehlo.tanh %arg0 : tensor<4xf32>
    ...   return %2 : tensor<4xf32>
    ... }''')
    >>> sorted(op.name for op in erasable_ops(module))
    ['stablehlo.abs', 'stablehlo.negate']
    """
    dead: set[Op] = set()
    # The ops to look at: first those whose results are unused; then, each
    # time ops are found dead, the ops defining their operands (whose last
    # users they may have been).
    pending = [
        op
        for func in module.functions
        if not func.is_declaration
        for op in func.body.walk_post_order()
        if not any(r.uses for r in op.results)
    ]
    while pending:
        op = pending.pop()
        if op in dead or not all(u.owner in dead for r in op.results for u in r.uses):
            continue
        if not may_erase_when_unused(op, keep_data_flow_ops=keep_data_flow_ops):
            continue
        gone = list(op.walk())
        dead.update(gone)
        for inner in gone:
            for v in inner.operands:
                defining = v.op
                if defining is not None and defining not in dead:
                    pending.append(defining)
    return dead


def drop_sharding_rules(module: Module) -> None:
    """Removes, in place, every `sdy.sharding_rule` that is not custom (as
    Shardy's propagation passes do without `keep-sharding-rules=true`, and
    its pipeline's last step, `sdy-drop-sharding-rules`)."""
    for op in module.walk():
        rule = op.attributes.get(RULE_ATTRIBUTE)
        if isinstance(rule, OpShardingRule) and not rule.is_custom:
            del op.attributes[RULE_ATTRIBUTE]


def transform_shardings(module: Module, fn: Transform) -> None:
    """Shardy's `transformShardings`: replaces, in place, every sharding of
    `module` (function arguments and results, op results, sharding
    constraints and reshards, the in/out shardings of named and manual
    computations, the out_sharding of collectives) by `fn(sharding)`, in
    Shardy's order: function by function, its arguments, its results, then
    its ops in program order. `fn` is asked once per sharding object (a
    sharding object met again gets the same result): propagated modules
    hold one object per distinct sharding, met thousands of times.

    >>> from shardonnay.syntax.mlir_reader import parse_module
    >>> module = parse_module('''
    ... sdy.mesh @mesh = <["x"=2]>
    ... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>})
    ...     -> tensor<8xf32> {
    ...   %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{?}]> : tensor<8xf32>
    ...   return %0 : tensor<8xf32>
    ... }''')
    >>> seen = []
    >>> transform_shardings(module, lambda s: seen.append(str(s)) or s)
    >>> seen
    ['#sdy.sharding<@mesh, [{"x", ?}]>', '#sdy.sharding<@mesh, [{?}]>']
    """
    # Per sharding object by identity, (the object, kept alive, and fn's result).
    done: dict[int, tuple[TensorSharding, TensorSharding]] = {}

    def transformed(sharding: TensorSharding) -> TensorSharding:
        entry = done.get(id(sharding))
        if entry is None:
            entry = done[id(sharding)] = (sharding, fn(sharding))
        return entry[1]

    # Likewise per `#sdy.sharding_per_value` object (the object itself when
    # no sharding of it changes).
    done_per_value: dict[int, tuple[TensorShardingPerValue, TensorShardingPerValue]] = {}

    def transformed_per_value(value: TensorShardingPerValue) -> TensorShardingPerValue:
        entry = done_per_value.get(id(value))
        if entry is None:
            new = tuple(map(transformed, value.shardings))
            if any(a is not b for a, b in zip(new, value.shardings, strict=True)):
                entry = (value, TensorShardingPerValue(new))
            else:
                entry = (value, value)
            done_per_value[id(value)] = entry
        return entry[1]

    keys = (SHARDING, "sharding", "in_shardings", "out_shardings", "out_sharding")
    for func in module.functions:
        for key in ("arg_attrs", "res_attrs"):
            for attrs in func.op.attributes.get(key, ()):
                if isinstance(attrs.get(SHARDING), TensorSharding):
                    attrs[SHARDING] = transformed(attrs[SHARDING])
        for op in func.walk():
            if op is func.op:
                continue
            attributes = op.attributes
            for key in keys:
                value = attributes.get(key)
                if value is None:
                    continue
                if isinstance(value, TensorSharding):
                    attributes[key] = transformed(value)
                elif isinstance(value, TensorShardingPerValue):
                    attributes[key] = transformed_per_value(value)
