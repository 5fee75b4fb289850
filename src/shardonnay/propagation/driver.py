"""The propagation driver: shardings flow through a whole module to a fixed point.

`propagate(module)` returns a propagated copy of `module`, with the semantics of
Shardy's `sdy-aggressive-propagate` (or `sdy-basic-propagate` with
`strategy="basic"`), run after `sdy-add-data-flow-edges` and followed by
`sdy-sink-data-flow-edges`:

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4]>
... func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<8x4xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
...   return %0 : tensor<8x4xf32>
... }''')
>>> out = propagate(module)
>>> print(out.functions[0].body.ops[0].attributes["sdy.sharding"])
#sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>

Where shardings live: `sdy.sharding` in a function's argument and result
attributes, `sdy.sharding = #sdy.sharding_per_value<[...]>` on op results, and
the `sharding` attribute of `sdy.sharding_constraint` (its result's sharding,
which propagation may extend along open dims). A value without one is open.

How it runs (as Shardy's pass does):

0. the members of every `sdy.sharding_group` are synced
   (`sharding_groups.sync_group_members`: one sharding for all, or open
   `sdy.sharding_constraint`s on all of them when their shardings differ);
1. every function's result shardings are pushed to (and pulled from) the
   values its `return` returns, through an identity rule;
2. a worklist holds every op with a sharding rule (`rule_for`), every
   `sdy.propagation_barrier` and every data-flow edge, in program order. The
   next item is popped from the end; propagating through it (`propagate_op`)
   writes the new shardings of its operands (on their defining op, function
   argument or data-flow edge) and results, and pushes the items next to
   every changed value: its defining op and its users, newest use first (a
   `return` stands for its parent; a use feeding a data-flow edge for that
   edge; a `stablehlo.while` region argument without data-flow edges for the
   `while` result it stands for). It ends when
   the worklist is empty (one sweep: values whose change notifies nobody,
   like the arguments of a `stablehlo.while` body without data-flow edges,
   are not looked at again);
3. step 1 again.

Values tied by control flow share one sharding, kept on a data-flow edge:
for result `i` of `stablehlo.while`, the result and the `i`-th argument of
both regions are the edge's targets, the `i`-th operand and the `i`-th value
the body returns its sources; `stablehlo.case`/`stablehlo.if` results have
each branch's returned value as sources; `stablehlo.optimization_barrier`
results their operand; `sdy.named_computation` arguments their operand
and its results the value returned by its body. An edge propagates with an
identity rule from all its sources to its one sharding. `sdy.sharding_group`
members get the sharding given to any of them while propagating through an
op or edge (not when a function result's sharding changes).

Ops whose tensors have no sharding are skipped, as are ops whose shardings
refer to different meshes.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from shardonnay.errors import ShardingError
from shardonnay.ir.core import Block, Func, Module, Op, Value
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.elementwise import ElementwiseOp
from shardonnay.ops.registry import is_registered, lookup
from shardonnay.propagation.factor_propagation import (
    AggressiveFactorPropagation,
    BasicFactorPropagation,
    FactorPropagation,
    OpPropagationResult,
    PropagationDirection,
    propagate_op,
)
from shardonnay.propagation.rules import RULE_ATTRIBUTE, RuleBuilder, rule_for
from shardonnay.propagation.sharding_groups import sync_group_members
from shardonnay.propagation.validation import validate_for_propagation
from shardonnay.sharding import DimSharding, TensorSharding, TensorShardingPerValue
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "DataFlowEdge",
    "add_free_axes",
    "cyclic_gc_paused",
    "drop_sharding_rules",
    "erase_dead_ops",
    "erase_manual_axes",
    "pausing_cyclic_gc",
    "propagate",
]

SHARDING = "sdy.sharding"

_BARRIER_DIRECTIONS = {
    "NONE": PropagationDirection.NONE,
    "FORWARD": PropagationDirection.FORWARD,
    "BACKWARD": PropagationDirection.BACKWARD,
    "BOTH": PropagationDirection.BOTH,
}

DATA_FLOW_OPS = (
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.if",
    "stablehlo.optimization_barrier",
    "sdy.named_computation",
    "sdy.manual_computation",
)

Strategy = Literal["basic", "aggressive", "op-priority", "user-priority"]


def pausing_cyclic_gc(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` run with Python's cyclic garbage collector paused.

    Copying a module and propagating allocate many small objects that live
    on; with the collector running, each of its full passes walks all of
    them (and everything else alive, like an imported jax), which makes a
    run superlinear in the size of the module. Nothing they allocate forms
    garbage cycles that must be reclaimed before the run ends.
    """

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        with cyclic_gc_paused():
            return fn(*args, **kwargs)

    return run


@contextlib.contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused (see `pausing_cyclic_gc`)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def propagate(
    module: Module,
    *,
    strategy: Strategy = "aggressive",
    conservative: bool = False,
    data_flow_edges: bool = True,
    keep_sharding_rules: bool = False,
    recorder: Any = None,
    factor_strategy: Literal["basic", "aggressive"] | None = None,
) -> Module:
    """A copy of `module` with shardings propagated (see the module docstring).

    `strategy`, from the least to the most elaborate (each one runs the one
    before it, as Shardy's passes of the same names do):
    `"basic"` (`sdy-basic-propagate`), `"aggressive"` (`sdy-aggressive-propagate`),
    `"op-priority"` (`sdy-op-priority-propagate`: aggressive propagation in
    stages of op kinds) and `"user-priority"` (`sdy-user-priority-propagate`:
    op-priority propagation once per user priority `p0`, `p1`, ...).
    `conservative`: never split an axis into sub-axes while propagating.
    `data_flow_edges`: tie the values of control-flow ops (False: like
    Shardy's propagation pass alone, which leaves them apart).
    `keep_sharding_rules`: every op propagated through keeps the rule used as
    its `sdy.sharding_rule` attribute (Shardy's `keep-sharding-rules=true`;
    with `conservative`, the rules of conservative propagation). Rules
    written on ops stay either way (Shardy's passes then drop the ones that
    are not custom: see `drop_sharding_rules`).
    `recorder`: an object told about every sharding change (see
    `shardonnay.propagation.explain.Recorder`); it does not alter the result.
    `factor_strategy`: the factor propagation the priority strategies run
    (Shardy's `propagation-strategy` option; default basic for `"basic"`,
    aggressive otherwise).
    """
    if strategy not in ("basic", "aggressive", "op-priority", "user-priority"):
        raise ValueError(
            f"unknown propagation strategy {strategy!r}; expected basic, aggressive, "
            "op-priority or user-priority"
        )
    if factor_strategy is None:
        factor_strategy = "basic" if strategy == "basic" else "aggressive"
    if factor_strategy not in ("basic", "aggressive"):
        raise ValueError(
            f"unknown factor propagation {factor_strategy!r}; expected basic or aggressive"
        )
    factor_propagation: FactorPropagation = (
        BasicFactorPropagation() if factor_strategy == "basic" else AggressiveFactorPropagation()
    )
    with cyclic_gc_paused():
        validate_for_propagation(module)
        copy = module.copy()
        erase_dead_ops(copy, keep_data_flow_ops=data_flow_edges)
        groups = sync_group_members(copy)
        driver = _Driver(copy, factor_propagation, conservative, data_flow_edges, groups)
        driver.recorder = recorder
        if recorder is not None:
            recorder.start(copy, driver)
        if strategy == "user-priority":
            driver.run_user_priorities()
        elif strategy == "op-priority":
            driver.run_op_priorities()
        else:
            driver.run()
        if keep_sharding_rules:
            driver.keep_rules()
        return copy


def drop_sharding_rules(module: Module) -> None:
    """Removes, in place, every `sdy.sharding_rule` that is not custom (as
    Shardy's propagation passes do without `keep-sharding-rules=true`, and
    its pipeline's last step, `sdy-drop-sharding-rules`)."""
    for op in module.walk():
        rule = op.attributes.get(RULE_ATTRIBUTE)
        if isinstance(rule, OpShardingRule) and not rule.is_custom:
            del op.attributes[RULE_ATTRIBUTE]


@dataclass(eq=False)
class DataFlowEdge:
    """Values that share one sharding (`targets`, the first is the owner) and
    the values that flow into them (`sources`, the operands `source_uses` of
    the data-flow op or of its regions' terminators)."""

    sources: list[Value]
    targets: list[Value]
    source_uses: list[tuple[Op, int]] = field(repr=False)
    # The owner's sharding as its sources see it, and back (manual computations:
    # the body sees its arguments without the manual axes, the outside sees
    # the results with them).
    to_sources: Callable[[TensorSharding], TensorSharding] | None = field(default=None, repr=False)
    from_sources: Callable[[TensorSharding], TensorSharding] | None = field(
        default=None, repr=False
    )

    @property
    def owner(self) -> Value:
        return self.targets[0]


def _data_flow_edges(op: Op) -> tuple[list[DataFlowEdge], list[DataFlowEdge]]:
    """The edges of a data-flow op: those owned by its block arguments (placed
    first in program order) and those owned by its results (placed after it)."""

    def edge(uses: list[tuple[Op, int]], targets: list[Value]) -> DataFlowEdge:
        return DataFlowEdge([user.operands[i] for user, i in uses], targets, uses)

    name = op.name
    if name == "stablehlo.while":
        cond, body = (r.entry for r in op.regions)
        ret = body.terminator
        return [], [
            edge([(op, i), (ret, i)], [r, body.arguments[i], cond.arguments[i]])
            for i, r in enumerate(op.results)
        ]
    if name in ("stablehlo.case", "stablehlo.if"):
        rets = [r.entry.terminator for r in op.regions]
        return [], [edge([(t, i) for t in rets], [r]) for i, r in enumerate(op.results)]
    if name == "stablehlo.optimization_barrier":
        return [], [edge([(op, i)], [r]) for i, r in enumerate(op.results)]
    if name == "sdy.named_computation":
        body = op.regions[0].entry
        ret = body.terminator
        return (
            [edge([(op, i)], [a]) for i, a in enumerate(body.arguments)],
            [edge([(ret, i)], [r]) for i, r in enumerate(op.results)],
        )
    if name == "sdy.manual_computation":
        body = op.regions[0].entry
        ret = body.terminator
        manual = op.attributes["manual_axes"].names
        ins, outs = op.attributes["in_shardings"], op.attributes["out_shardings"]
        arg_edges, result_edges = [], []
        for i, a in enumerate(body.arguments):
            e = edge([(op, i)], [a])
            e.to_sources = functools.partial(add_free_axes, ins[i], manual_axes=manual)
            e.from_sources = functools.partial(erase_manual_axes, manual_axes=manual)
            arg_edges.append(e)
        for i, r in enumerate(op.results):
            e = edge([(ret, i)], [r])
            e.to_sources = functools.partial(erase_manual_axes, manual_axes=manual)
            e.from_sources = functools.partial(add_free_axes, outs[i], manual_axes=manual)
            result_edges.append(e)
        return arg_edges, result_edges
    return [], []


def erase_manual_axes(sharding: TensorSharding, manual_axes: Sequence[str]) -> TensorSharding:
    """`sharding` (of a manual computation's operand or result) as its body sees
    it: without the manual axes, which lead every dim.

    >>> s = TensorSharding.parse('<@m, [{"x", "y", ?}, {"x"}], replicated={"x", "z"}>')
    >>> str(erase_manual_axes(s, ["x"]))
    '#sdy.sharding<@m, [{"y", ?}, {}], replicated={"z"}>'
    """
    if not manual_axes:
        return sharding
    dims = []
    for d in sharding.dims:
        k = 0
        while k < len(d.axes) and d.axes[k].name in manual_axes:
            k += 1
        dims.append(DimSharding(d.axes[k:], d.is_closed, d.priority))
    return TensorSharding(
        sharding.mesh,
        tuple(dims),
        tuple(a for a in sharding.replicated if a.name not in manual_axes),
        tuple(a for a in sharding.unreduced if a.name not in manual_axes),
        sharding.reduction,
    )


def add_free_axes(
    outer: TensorSharding, sharding: TensorSharding, manual_axes: Sequence[str]
) -> TensorSharding:
    """A body's view `sharding` seen from outside a manual computation whose
    operand or result has the sharding `outer`: every dim gets the manual axes
    of `outer` (major) then the axes of `sharding`; `replicated`/`unreduced`
    are those of `outer`.

    >>> outer = TensorSharding.parse('<@m, [{"x", ?}, {}], replicated={"z"}>')
    >>> str(add_free_axes(outer, TensorSharding.parse('<@m, [{"y"}, {?}]>'), ["x"]))
    '#sdy.sharding<@m, [{"x", "y"}, {?}], replicated={"z"}>'
    """
    dims = []
    for o, d in zip(outer.dims, sharding.dims, strict=True):
        k = 0
        while k < len(o.axes) and o.axes[k].name in manual_axes:
            k += 1
        dims.append(DimSharding((*o.axes[:k], *d.axes), d.is_closed, d.priority))
    return TensorSharding(
        sharding.mesh, tuple(dims), outer.replicated, outer.unreduced, outer.reduction
    )


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


def _is_elementwise(op: Op) -> bool:
    """Ops Shardy treats as elementwise (no sideways propagation between operands)."""
    if op.name in ("stablehlo.compare", "stablehlo.select", "stablehlo.clamp"):
        return True
    if op.name == "stablehlo.bitcast_convert":
        return op.operands[0].type.shape == op.results[0].type.shape
    return isinstance(lookup(op.name), ElementwiseOp)


@functools.lru_cache(maxsize=4096)
def _identity_rule_of_shape(shape: tuple[int, ...], operands: int) -> OpShardingRule:
    return RuleBuilder([shape] * operands, [shape]).add_pointwise(shape).build()


def _identity_rule(t: TensorType, operands: int = 1) -> OpShardingRule:
    return _identity_rule_of_shape(tuple(t.shape), operands)


def _walk_block(block: Block) -> Iterator[Op]:
    for op in block.ops:
        yield from op.walk()


Item = Op | DataFlowEdge


class _OpItem:
    """What propagating through an op needs, read once."""

    __slots__ = ("is_elementwise", "operands", "results", "rule", "stage_directions")

    def __init__(
        self,
        operands: tuple[Value, ...],
        results: tuple[Value, ...],
        rule: OpShardingRule,
        is_elementwise: bool,
    ):
        self.operands = operands
        self.results = results
        self.rule = rule
        self.is_elementwise = is_elementwise
        # Per op-priority stage, the direction of each factor (once needed).
        self.stage_directions: list[Directions] | None = None


# The direction of each factor of a rule.
Directions = tuple[PropagationDirection, ...]


class _Driver:
    def __init__(
        self,
        module: Module,
        factor_propagation: FactorPropagation,
        conservative: bool,
        data_flow_edges: bool,
        groups: Sequence[list[Value]] = (),
    ):
        self.module = module
        self.factor_propagation = factor_propagation
        self.conservative = conservative
        self.meshes: dict[str, Mesh] = module.meshes
        # One sharding per stored value: op results, function arguments, edge owners.
        self.shardings: dict[Value, TensorSharding | None] = {}
        self.arg_of: dict[Value, tuple[Func, int]] = {}
        self.edge_of_target: dict[Value, DataFlowEdge] = {}
        self.edges_of_source: dict[tuple[Op, int], DataFlowEdge] = {}
        self.groups: dict[Value, list[Value]] = {}
        # Without data-flow edges, the region arguments of a `stablehlo.while`
        # still read and write the sharding of its result.
        self.alias: dict[Value, Value] = {}
        # The value whose sharding a value reads and writes (an edge target: the
        # edge's owner; a `while` region argument without edges: the result).
        self._holder: dict[Value, Value] = {}
        self.rules: dict[Op, OpShardingRule | None] = {}
        # One rule object per distinct rule, so that equal rules share memo entries.
        self._distinct_rules: dict[OpShardingRule, OpShardingRule] = {}
        self._elementwise: dict[Op, bool] = {}
        self._op_items: dict[Op, _OpItem] = {}
        self.order: list[Item] = []
        self._items: set[Item] = set()
        # The op-priority stage being run (None: every factor both ways).
        self.stage: int | None = None
        # Per item, the direction of each factor of its rule in each stage.
        self._directions: dict[Item, list[Directions]] = {}
        self._directions_by_value: dict[Directions, Directions] = {}
        self._both_ways_by_size: dict[int, Directions] = {}
        # Directions along which nothing propagates (every factor NONE).
        self._inert_directions: set[Directions] = set()
        # One sharding object per distinct sharding, and the outcome of each
        # propagation step by the identities of its inputs (see `_step_outcome`).
        self._distinct_shardings: dict[TensorSharding, TensorSharding] = {}
        self._memo: dict[tuple, tuple] = {}
        # Told about every change of a sharding (see `propagate`'s `recorder`).
        self.recorder: Any = None
        self._result_ref: tuple[Func, int] | None = None
        self._current: Item | None = None
        self._step: Any = None
        self._stack: list[Item] = []
        self._queued: set[Item] = set()
        self._collect(data_flow_edges)
        self._items = set(self.order)
        for members in groups:
            for v in members:
                self.groups[v] = members

    # -- setup -------------------------------------------------------------------

    def _collect(self, data_flow_edges: bool) -> None:
        for func in self.module.functions:
            for i, arg in enumerate(func.arguments):
                self.arg_of[arg] = (func, i)
                self.shardings[arg] = (
                    func.arg_attrs(i).get(SHARDING) if not func.is_declaration else None
                )
        for top in self.module.ops:
            for op in self._walk_with_edges(top, data_flow_edges):
                if isinstance(op, DataFlowEdge):
                    self.order.append(op)
                    continue
                self._read_result_shardings(op)
                rule = self._rule(op)
                if rule is not None or op.name == "sdy.propagation_barrier":
                    self.order.append(op)

    def _walk_with_edges(self, op: Op, data_flow_edges: bool) -> Iterator[Item]:
        edges: tuple[list[DataFlowEdge], list[DataFlowEdge]] = ([], [])
        if data_flow_edges and op.name in DATA_FLOW_OPS:
            edges = _data_flow_edges(op)
            for edge in (*edges[0], *edges[1]):
                self._add_edge(edge)
        elif op.name == "stablehlo.while":
            for region in op.regions:
                for arg, result in zip(region.entry.arguments, op.results, strict=True):
                    self.alias[arg] = result
                    self._holder.setdefault(arg, result)
        yield op
        yield from edges[0]
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    yield from self._walk_with_edges(inner, data_flow_edges)
        yield from edges[1]

    def _add_edge(self, edge: DataFlowEdge) -> None:
        for t in edge.targets:
            self.edge_of_target[t] = edge
            self._holder[t] = edge.owner
        for use in edge.source_uses:
            self.edges_of_source[use] = edge

    def _read_result_shardings(self, op: Op) -> None:
        if op.name in ("sdy.sharding_constraint", "sdy.reshard"):
            self.shardings[op.results[0]] = self._distinct(op.attributes["sharding"])
            return
        if op.name in ("sdy.named_computation", "sdy.manual_computation"):
            manual = op.attributes["manual_axes"].names if "manual_axes" in op.attributes else ()
            for key, values in (
                ("in_shardings", op.regions[0].entry.arguments),
                ("out_shardings", op.results),
            ):
                per_value = op.attributes.get(key)
                for i, v in enumerate(values):
                    s = per_value[i] if per_value is not None else None
                    if s is not None and key == "in_shardings":
                        s = erase_manual_axes(s, manual)
                    self.shardings[v] = s
            return
        per_value = op.attributes.get(SHARDING)
        for i, r in enumerate(op.results):
            self.shardings[r] = (
                self._distinct(per_value[i])
                if isinstance(per_value, TensorShardingPerValue)
                else None
            )

    def _rule(self, op: Op) -> OpShardingRule | None:
        try:
            return self.rules[op]
        except KeyError:
            pass
        rule = None
        if all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
            try:
                rule = rule_for(op, conservative=self.conservative)
            except (ShardingError, KeyError):
                rule = None
        if rule is not None:
            rule = self._distinct_rules.setdefault(rule, rule)
        self.rules[op] = rule
        return rule

    def _is_elementwise(self, op: Op) -> bool:
        try:
            return self._elementwise[op]
        except KeyError:
            return self._elementwise.setdefault(op, _is_elementwise(op))

    def _distinct(self, sharding: TensorSharding) -> TensorSharding:
        """The one object kept for shardings equal to `sharding`."""
        return self._distinct_shardings.setdefault(sharding, sharding)

    # -- sharding storage ----------------------------------------------------------

    def _key(self, v: Value) -> Value:
        return self._holder.get(v, v)

    def get(self, v: Value) -> TensorSharding | None:
        return self.shardings.get(self._holder.get(v, v))

    def _set(self, v: Value, sharding: TensorSharding) -> None:
        self.shardings[self._holder.get(v, v)] = sharding

    # -- the worklist ----------------------------------------------------------------

    def run(self) -> None:
        """Aggressive (or basic) propagation, then the shardings are written back."""
        self._propagate_all()
        self._write_back()

    def run_op_priorities(self) -> None:
        """Op-priority propagation (see `_op_priority_stages`), written back."""
        self._propagate_op_priorities()
        self._write_back()

    def run_user_priorities(self) -> None:
        """User-priority propagation: op-priority propagation with only the dims
        of priority 0 (or none) first, then again after restoring the dims of
        each higher priority in turn (see `_initial_for_priorities`)."""
        originals: dict[int, list[tuple[_Ref, TensorSharding]]] = {}
        for ref, sharding in self._all_shardings():
            priorities = {d.priority for d in sharding.dims if d.priority}
            for priority in priorities:
                originals.setdefault(priority, []).append((ref, sharding))
            self._set_ref(ref, self._initial_for_priorities(sharding))
        self._propagate_op_priorities()
        for priority in sorted(originals):
            if self.recorder is not None:
                self.recorder.priority_round(priority)
            for ref, original in originals[priority]:
                current = self._get_ref(ref)
                if current is not None:
                    self._set_ref(ref, _restore_priority(current, original, priority))
            self._propagate_op_priorities()
        self._write_back()

    def _propagate_op_priorities(self) -> None:
        for stage in range(len(_OP_PRIORITY_STAGES)):
            self.stage = stage
            self._propagate_all()
        self.stage = None

    def _directions_of(self, item: Item, rule: OpShardingRule) -> Directions:
        """The direction of each factor of `item`'s `rule` in the current stage:
        both ways outside op-priority propagation, else the union of the
        directions of stages 0..stage (see `_OP_PRIORITY_STAGES`)."""
        if self.stage is None:
            return self._both_ways(rule.num_factors)
        per_stage = self._directions.get(item)
        if per_stage is None:
            per_stage = self._directions[item] = self._stage_directions(item, rule)
        return per_stage[self.stage]

    def _stage_directions(self, item: Item, rule: OpShardingRule) -> list[Directions]:
        """The directions of `item`'s factors in each op-priority stage."""
        per_stage = []
        directions = (PropagationDirection.NONE,) * rule.num_factors
        for heuristic in _OP_PRIORITY_STAGES:
            directions = tuple(map(_union, directions, heuristic(self, item, rule)))
            per_stage.append(self._distinct_directions(directions))
        return per_stage

    def _both_ways(self, num_factors: int) -> Directions:
        both = self._both_ways_by_size.get(num_factors)
        if both is None:
            both = self._distinct_directions((PropagationDirection.BOTH,) * num_factors)
            self._both_ways_by_size[num_factors] = both
        return both

    def _distinct_directions(self, directions: Directions) -> Directions:
        """The one object kept for tuples equal to `directions`."""
        distinct = self._directions_by_value.setdefault(directions, directions)
        if distinct is directions and all(d is PropagationDirection.NONE for d in directions):
            self._inert_directions.add(directions)
        return distinct

    def _propagate_all(self) -> None:
        self._propagate_func_results()
        self._sweep()
        self._propagate_func_results()

    # -- user priorities -------------------------------------------------------------

    def _all_shardings(self) -> list[tuple[_Ref, TensorSharding]]:
        """Every stored sharding: function arguments and results, op results,
        sharding constraints and data-flow edge owners."""
        out: list[tuple[_Ref, TensorSharding]] = []
        for v, s in self.shardings.items():
            if s is not None and self._key(v) is v:
                out.append((v, s))
        for func in self.module.functions:
            if func.is_declaration:
                continue
            for i in range(len(func.type.results)):
                s = func.result_attrs(i).get(SHARDING)
                if isinstance(s, TensorSharding):
                    out.append(((func, i), s))
        return out

    def _get_ref(self, ref: _Ref) -> TensorSharding | None:
        if isinstance(ref, Value):
            return self.shardings.get(ref)
        func, i = ref
        return func.result_attrs(i).get(SHARDING)

    def _set_ref(self, ref: _Ref, sharding: TensorSharding) -> None:
        sharding = self._distinct(sharding)
        if isinstance(ref, Value):
            self.shardings[ref] = sharding
        else:
            func, i = ref
            func.result_attrs(i)[SHARDING] = sharding

    def _initial_for_priorities(self, sharding: TensorSharding) -> TensorSharding:
        """`sharding` for the first round: dims of priority 0 (or none) lose
        their priority; the others become closed and empty, their axes moving
        to `replicated` (in mesh order)."""
        dims: list[DimSharding] = []
        replicated = list(sharding.replicated)
        for d in sharding.dims:
            if not d.priority:
                dims.append(DimSharding(d.axes, d.is_closed))
            else:
                replicated.extend(d.axes)
                dims.append(DimSharding((), True))
        mesh = sharding.mesh if isinstance(sharding.mesh, Mesh) else self.meshes[sharding.mesh]
        replicated.sort(key=lambda a: a.mesh_sort_key(mesh))
        return TensorSharding(
            sharding.mesh, tuple(dims), tuple(replicated), sharding.unreduced, sharding.reduction
        )

    def _sweep(self) -> bool:
        stack = self._stack = list(reversed(self.order))
        queued = self._queued = set(stack)
        visit = self._visit
        changed = False
        while stack:
            item = stack.pop()
            queued.discard(item)
            self._current = item
            changed |= visit(item)
        return changed

    def _push(self, item: Item) -> None:
        if item is not self._current and item in self._items and item not in self._queued:
            self._queued.add(item)
            self._stack.append(item)

    def _visit(self, item: Item) -> bool:
        if isinstance(item, DataFlowEdge):
            t = item.owner.type
            if not isinstance(t, TensorType):
                return False
            owner = self.get(item.owner)
            rule = _identity_rule(t, len(item.sources))
            if item.to_sources is None or owner is None:
                return self._propagate(
                    item.sources,
                    [item.owner],
                    rule,
                    self._directions_of(item, rule),
                    False,
                )
            from_sources = item.from_sources
            assert from_sources is not None

            def set_owner(_index: int, s: TensorSharding) -> None:
                self._update(item.owner, from_sources(s), True)

            return self._propagate(
                item.sources,
                [item.owner],
                rule,
                self._directions_of(item, rule),
                False,
                set_results=set_owner,
                result_shardings=[item.to_sources(owner)],
            )
        if item.name == "sdy.propagation_barrier":
            direction = item.attributes["allowed_direction"]
            name = ("NONE", "FORWARD", "BACKWARD", "BOTH")[int(direction.value)]
            rule = _identity_rule(item.results[0].type)
            return self._propagate(
                item.operands,
                item.results,
                rule,
                self._distinct_directions((_BARRIER_DIRECTIONS[name],) * rule.num_factors),
                False,
            )
        op_item = self._op_items.get(item)
        if op_item is None:
            rule = self.rules[item]
            assert rule is not None
            op_item = _OpItem(item.operands, tuple(item.results), rule, self._is_elementwise(item))
            self._op_items[item] = op_item
        if self.stage is None:
            directions = self._both_ways(op_item.rule.num_factors)
        else:
            if op_item.stage_directions is None:
                op_item.stage_directions = self._stage_directions(item, op_item.rule)
            directions = op_item.stage_directions[self.stage]
        return self._propagate(
            op_item.operands,
            op_item.results,
            op_item.rule,
            directions,
            op_item.is_elementwise,
            conservative=self.conservative,
        )

    def _common_mesh(
        self, shardings: Sequence[TensorSharding | None]
    ) -> tuple[str | Mesh, Mesh] | None:
        ref: str | Mesh | None = None
        mesh: Mesh | None = None
        for s in shardings:
            if s is None:
                continue
            this = s.mesh if isinstance(s.mesh, Mesh) else self.meshes.get(s.mesh)
            if this is None:
                raise ShardingError(f"sharding {s} refers to an unknown mesh")
            if this.is_maximal:  # a value pinned to one device takes no part
                return None
            if ref is None:
                ref, mesh = s.mesh, this
            elif s.mesh != ref and this != mesh:
                return None
        if ref is None or mesh is None:
            return None
        return ref, mesh

    def _propagate(
        self,
        operands: Sequence[Value],
        results: Sequence[Value],
        rule: OpShardingRule,
        directions: Directions,
        is_elementwise: bool,
        *,
        conservative: bool = False,
        notify: bool = True,
        set_results: Any = None,
        result_shardings: Sequence[TensorSharding | None] | None = None,
    ) -> bool:
        """Propagates through one op (or edge, or function result) whose
        tensors are `operands` and `results`, and records the changes.
        `conservative` (Shardy sets it for ops only, never for data-flow
        edges, barriers and function results): no axis is split."""
        shardings, holder = self.shardings, self._holder
        old_operands = [shardings.get(holder.get(v, v)) for v in operands]
        old_results = (
            list(result_shardings)
            if result_shardings is not None
            else [shardings.get(holder.get(v, v)) for v in results]
        )
        if self.recorder is None:
            if directions in self._inert_directions:  # no factor may propagate
                return False
            outcome = self._step_outcome(
                old_operands, old_results, rule, directions, is_elementwise, conservative
            )
            if outcome is None or not outcome[4]:
                return False
            new_operands, new_results, updated_operands, updated_results, any_updated = outcome
        else:
            meshed = self._propagate_op(
                old_operands, old_results, rule, directions, is_elementwise, conservative
            )
            if meshed is None:
                return False
            mesh, step = meshed
            result_refs = (
                [self._result_ref]
                if self._result_ref is not None
                else [self._key(v) for v in results]
            )
            self._step = self.recorder.step(
                self._result_ref or self._current,
                [*(self._key(v) for v in operands), *result_refs],
                [*old_operands, *old_results],
                rule,
                mesh=mesh,
                outcome=step,
            )
            new_operands, new_results = step.operands, step.results
            updated_operands, updated_results = step.updated_operands, step.updated_results
            any_updated = step.any_updated
        for v, new, did in zip(operands, new_operands, updated_operands, strict=True):
            if did:
                self._update(v, new, notify)
        for i, (v, new, did) in enumerate(zip(results, new_results, updated_results, strict=True)):
            if did:
                if set_results is None:
                    self._update(v, new, notify)
                    continue
                set_results(i, new)
        return any_updated

    def _propagate_op(
        self,
        old_operands: list[TensorSharding | None],
        old_results: list[TensorSharding | None],
        rule: OpShardingRule,
        directions: Directions,
        is_elementwise: bool,
        conservative: bool,
    ) -> tuple[Mesh, OpPropagationResult] | None:
        """(the common mesh, `propagate_op`'s step) on these shardings; None
        when they are on different meshes."""
        common = self._common_mesh([*old_operands, *old_results])
        if common is None:
            return None
        ref, mesh = common
        return mesh, propagate_op(
            old_operands,
            old_results,
            rule,
            mesh,
            ref,
            strategy=self.factor_propagation,
            direction=directions,
            is_elementwise=is_elementwise,
            conservative=conservative,
        )

    def _step_outcome(
        self,
        old_operands: list[TensorSharding | None],
        old_results: list[TensorSharding | None],
        rule: OpShardingRule,
        directions: Directions,
        is_elementwise: bool,
        conservative: bool,
    ) -> tuple | None:
        """`propagate_op` on these shardings, remembered: (new operand and
        result shardings, which operands and results were updated, whether any
        was); None when the shardings are on different meshes.

        A propagation step is a function of its inputs, so its outcome is kept
        by the identities of the input objects (each entry keeps them alive,
        so that an identity is never reused while its entry exists). Equal
        shardings produced by steps are made one object (`_distinct`), which
        makes the same step on the same shardings hit the memo.
        """
        key = (
            id(rule),
            id(directions),
            is_elementwise,
            conservative,
            *map(id, old_operands),
            *map(id, old_results),
        )
        entry = self._memo.get(key)
        if entry is not None:
            return entry[0]
        meshed = self._propagate_op(
            old_operands, old_results, rule, directions, is_elementwise, conservative
        )
        outcome = None
        if meshed is not None:
            step = meshed[1]
            distinct = self._distinct
            outcome = (
                [
                    distinct(s) if did else s
                    for s, did in zip(step.operands, step.updated_operands, strict=True)
                ],
                [
                    distinct(s) if did else s
                    for s, did in zip(step.results, step.updated_results, strict=True)
                ],
                step.updated_operands,
                step.updated_results,
                step.any_updated,
            )
        self._memo[key] = (outcome, old_operands, old_results, rule, directions)
        return outcome

    def _update(self, v: Value, sharding: TensorSharding, notify: bool) -> None:
        if self.recorder is not None:
            self.recorder.changed(self._key(v), self.get(v), sharding, self._step)
        self._set(v, sharding)
        if notify:
            self._notify_sharding_modified(v)
        # The group of the value that holds the sharding (a `while` region
        # argument stands for the `while` result, an edge target for its owner).
        key = self._key(v)
        for member in self.groups.get(key, ()):
            if member is key:
                continue
            if self.recorder is not None:
                self.recorder.changed(self._key(member), self.get(member), sharding, key)
            self._set(member, sharding)
            if notify:
                self._notify_sharding_modified(member)

    def _notify_sharding_modified(self, v: Value) -> None:
        v = self.alias.get(v, v)
        edge = self.edge_of_target.get(v)
        if edge is not None:
            v = edge.owner
            self._push(edge)
            for target in edge.targets[1:]:
                self._notify_users(target)
        elif v.op is not None:
            self._push(v.op)
        else:
            parent = v.defining.parent_op if isinstance(v.defining, Block) else None
            if parent is not None:
                self._push(parent)
        self._notify_users(v)

    def _notify_users(self, v: Value) -> None:
        for use in reversed(v.uses):
            user = use.owner
            edge = self.edges_of_source.get((user, use.index))
            if edge is not None:
                self._push(edge)
            elif (
                user.parent is not None
                and user is user.parent.terminator
                and (user.parent_op is not None)
            ):
                self._push(user.parent_op)
            else:
                self._push(user)

    # -- function results --------------------------------------------------------------

    def _propagate_func_results(self) -> None:
        for func in self.module.functions:
            if func.is_declaration:
                continue
            for i, value in enumerate(func.return_op.operands):
                if not isinstance(value.type, TensorType):
                    continue
                attrs = func.result_attrs(i)

                def set_result(_index: int, s: TensorSharding, attrs: dict = attrs) -> None:
                    if self.recorder is not None:
                        ref = self._result_ref
                        self.recorder.changed(ref, attrs.get(SHARDING), s, self._step)
                    attrs[SHARDING] = s

                self._result_ref = (func, i) if self.recorder is not None else None
                rule = _identity_rule(value.type)
                self._propagate(
                    [value],
                    [value],
                    rule,
                    self._both_ways(rule.num_factors),
                    False,
                    notify=False,
                    set_results=set_result,
                    result_shardings=[attrs.get(SHARDING)],
                )
                self._result_ref = None

    # -- writing shardings back ----------------------------------------------------------

    def keep_rules(self) -> None:
        """Writes the rule of every op that has one as its `sdy.sharding_rule`."""
        for op, rule in self.rules.items():
            if rule is not None and RULE_ATTRIBUTE not in op.attributes:
                op.attributes[RULE_ATTRIBUTE] = rule

    def _write_back(self) -> None:
        for v, (func, i) in self.arg_of.items():
            s = self.shardings.get(v)
            if s is not None:
                func.arg_attrs(i)[SHARDING] = s
        for func in self.module.functions:
            if "res_attrs" in func.op.attributes and not any(func.op.attributes["res_attrs"]):
                del func.op.attributes["res_attrs"]
            if "arg_attrs" in func.op.attributes and not any(func.op.attributes["arg_attrs"]):
                del func.op.attributes["arg_attrs"]
        for op in self.module.walk():
            if op.name in ("sdy.sharding_constraint", "sdy.reshard"):
                op.attributes["sharding"] = self.shardings[op.results[0]]
                continue
            if op.name == "sdy.named_computation":
                self._write_named_computation(op)
                continue
            if op.name == "sdy.manual_computation":
                self._write_manual_computation(op)
                continue
            shardings = [self.shardings.get(r) for r in op.results]
            first = next((s for s in shardings if s is not None), None)
            if first is None:
                continue
            filled = [
                s if s is not None else _open(first.mesh, r.type)
                for s, r in zip(shardings, op.results, strict=True)
            ]
            op.attributes[SHARDING] = TensorShardingPerValue(tuple(filled))

    def _write_named_computation(self, op: Op) -> None:
        for key, values in (
            ("in_shardings", op.regions[0].entry.arguments),
            ("out_shardings", op.results),
        ):
            shardings = [self.shardings.get(v) for v in values]
            first = next((s for s in shardings if s is not None), None)
            if first is None:
                continue
            op.attributes[key] = TensorShardingPerValue(
                tuple(
                    s if s is not None else _open(first.mesh, v.type)
                    for s, v in zip(shardings, values, strict=True)
                )
            )

    def _write_manual_computation(self, op: Op) -> None:
        manual = op.attributes["manual_axes"].names
        ins = op.attributes["in_shardings"]
        args = op.regions[0].entry.arguments
        op.attributes["in_shardings"] = TensorShardingPerValue(
            tuple(
                add_free_axes(outer, s, manual) if (s := self.shardings.get(a)) else outer
                for outer, a in zip(ins, args, strict=True)
            )
        )
        outs = op.attributes["out_shardings"]
        op.attributes["out_shardings"] = TensorShardingPerValue(
            tuple(self.shardings.get(r) or outer for outer, r in zip(outs, op.results, strict=True))
        )


_Ref = Value | tuple[Func, int]


def _restore_priority(
    current: TensorSharding, original: TensorSharding, priority: int
) -> TensorSharding:
    """`current` with the dims of `original` that have `priority` put back
    (without the priority), their axes leaving `replicated`."""
    dims = list(current.dims)
    restored: set = set()
    for k, d in enumerate(original.dims):
        if d.priority == priority:
            dims[k] = DimSharding(d.axes, d.is_closed)
            restored.update(d.axes)
    return TensorSharding(
        current.mesh,
        tuple(dims),
        tuple(a for a in current.replicated if a not in restored),
        current.unreduced,
        current.reduction,
    )


# -- op priorities ---------------------------------------------------------------------


def _intersection(a: PropagationDirection, b: PropagationDirection) -> PropagationDirection:
    if a is b or b is PropagationDirection.BOTH:
        return a
    if a is PropagationDirection.BOTH:
        return b
    return PropagationDirection.NONE


def _union(a: PropagationDirection, b: PropagationDirection) -> PropagationDirection:
    if a is b or b is PropagationDirection.NONE:
        return a
    if a is PropagationDirection.NONE:
        return b
    return PropagationDirection.BOTH


# Besides the elementwise ops (sharding constraints and reshards among them).
_PASS_THROUGH_OPS = (
    "stablehlo.reshape",
    "stablehlo.transpose",
    "sdy.sharding_constraint",
    "sdy.reshard",
)
_FORWARD_OPS = ("stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice")


def _uses_direction(item: Item, allow_multi_use: bool) -> PropagationDirection:
    """NONE when an operand (not a scalar) of `item` has more than one use: a
    conflict could come from (or go to) another use."""
    if allow_multi_use or isinstance(item, DataFlowEdge):
        return PropagationDirection.BOTH
    for v in item.operands:
        if len(v.uses) != 1 and not (isinstance(v.type, TensorType) and not v.type.shape):
            return PropagationDirection.NONE
    return PropagationDirection.BOTH


def _pass_through_op(item: Item, allow_multi_use: bool) -> PropagationDirection:
    if isinstance(item, DataFlowEdge) or _is_elementwise(item) or item.name in _PASS_THROUGH_OPS:
        return _uses_direction(item, allow_multi_use)
    if item.name == "stablehlo.custom_call" and item.attributes.get("call_target_name") in (
        "MoveToDevice",
        "MoveToHost",
    ):
        return _uses_direction(item, allow_multi_use)
    if item.name in _FORWARD_OPS:
        return _intersection(_uses_direction(item, allow_multi_use), PropagationDirection.FORWARD)
    return PropagationDirection.NONE


def _pass_through_ops_single_use(driver: _Driver, item: Item, rule: OpShardingRule) -> Directions:
    """Stage 0: elementwise ops, reshapes, transposes and data-flow edges both
    ways, dynamic slices (and their updates) forward only, when no operand
    has other uses."""
    return (_pass_through_op(item, allow_multi_use=False),) * rule.num_factors


def _pass_through_ops(driver: _Driver, item: Item, rule: OpShardingRule) -> Directions:
    """Stage 1: the same ops, whatever the uses of their operands."""
    return (_pass_through_op(item, allow_multi_use=True),) * rule.num_factors


def _pass_through_factors(driver: _Driver, item: Item, rule: OpShardingRule) -> Directions:
    """Stage 2: the pass-through factors of every op (broadcasts: backward only)."""
    if isinstance(item, DataFlowEdge):
        return (PropagationDirection.BOTH,) * rule.num_factors
    direction = (
        PropagationDirection.BACKWARD
        if item.name == "stablehlo.broadcast_in_dim"
        else PropagationDirection.BOTH
    )
    special = {
        *rule.reduction_factors,
        *rule.need_replication_factors,
        *rule.permutation_factors,
    }  # the factors whose kind is not pass-through
    return tuple(
        PropagationDirection.NONE if f in special else direction for f in range(rule.num_factors)
    )


def _any_but_broadcast_forward(driver: _Driver, item: Item, rule: OpShardingRule) -> Directions:
    """Stage 3: everything, but broadcasts only backward."""
    if not isinstance(item, DataFlowEdge) and item.name == "stablehlo.broadcast_in_dim":
        return (PropagationDirection.BACKWARD,) * rule.num_factors
    return (PropagationDirection.BOTH,) * rule.num_factors


def _any(driver: _Driver, item: Item, rule: OpShardingRule) -> Directions:
    """Stage 4: everything."""
    return (PropagationDirection.BOTH,) * rule.num_factors


_OP_PRIORITY_STAGES = (
    _pass_through_ops_single_use,
    _pass_through_ops,
    _pass_through_factors,
    _any_but_broadcast_forward,
    _any,
)


def _open(mesh: str | Mesh, t: Any) -> TensorSharding:
    rank = len(t.shape) if isinstance(t, TensorType) else 0
    return TensorSharding.replicated_on(mesh, rank, is_closed=False)
