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
`shardonnay.propagation.sharding_store` reads them, keeps one per storage
owner and lists the items to propagate through; the driver runs the
worklist over them, each step computed (and remembered) by
`shardonnay.propagation.propagation_step` along the factor directions of
`shardonnay.propagation.factor_directions`.

How it runs (as Shardy's pass does):

0. the members of every `sdy.sharding_group` are synced
   (`sharding_groups.sync_group_members`: one sharding for all, or open
   `sdy.sharding_constraint`s on all of them when their shardings differ);
1. the entry function's result shardings are pushed to (and pulled from)
   the values its `return` returns, through an identity rule (the entry is
   `@main`, or the only function; other functions' results are left alone,
   as Shardy leaves them; a module of several functions none of which is
   `@main`, which Shardy rejects, has the results of all pushed and pulled);
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
   are not looked at again). Dead ops go on the way, as MLIR's greedy
   rewrite driver erases them: an op without side effects whose results
   are all unused is erased when it is popped, instead of propagating (an
   op that only dead ops use still propagates until they go); erasing it
   pushes the defining op of each of its operands that has at most one
   other user left (so that op propagates again, or goes in turn);
3. step 1 again.

Values tied by control flow share one sharding, kept on a data-flow edge:
for result `i` of `stablehlo.while`, the result and the `i`-th argument of
both regions are the edge's targets, the `i`-th operand and the `i`-th value
the body returns its sources; `stablehlo.case` results have each branch's
returned value as sources; `stablehlo.optimization_barrier`
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
from typing import Any, Literal

from shardonnay.ir.core import Block, Func, Module, Op, Value
from shardonnay.ir.shardings import func_result_sharding, set_func_result_sharding
from shardonnay.ir.types import TensorType
from shardonnay.ops.rules import RULE_ATTRIBUTE
from shardonnay.progress import tracker
from shardonnay.propagation.data_flow import (
    DataFlowEdge,
    add_free_axes,
    erase_manual_axes,
)
from shardonnay.propagation.factor_directions import FactorDirections
from shardonnay.propagation.factor_propagation import (
    AggressiveFactorPropagation,
    BasicFactorPropagation,
    FactorPropagation,
    PropagationDirection,
)
from shardonnay.propagation.importing.call_graph import entry_functions
from shardonnay.propagation.importing.sharding_groups import sync_group_members
from shardonnay.propagation.importing.validation import validate_for_propagation
from shardonnay.propagation.module_edits import (
    drop_sharding_rules,
    erasable_ops,
    erase_dead_ops,
)
from shardonnay.propagation.op_priority import OP_PRIORITY_STAGES, Directions, Item
from shardonnay.propagation.propagation_step import Outcome, StepOutcomes, identity_rule
from shardonnay.propagation.sharding_store import EdgeChoice, Ref, ShardingStore
from shardonnay.propagation.user_priority import initial_for_priorities, restore_priority
from shardonnay.propagation.write_back import write_back
from shardonnay.sharding import TensorSharding
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "DataFlowEdge",
    "Strategy",
    "add_free_axes",
    "cyclic_gc_paused",
    "drop_sharding_rules",
    "erase_dead_ops",
    "erase_manual_axes",
    "pausing_cyclic_gc",
    "propagate",
    "propagate_in_place",
]

_BARRIER_DIRECTIONS = {
    "NONE": PropagationDirection.NONE,
    "FORWARD": PropagationDirection.FORWARD,
    "BACKWARD": PropagationDirection.BACKWARD,
    "BOTH": PropagationDirection.BOTH,
}

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
    data_flow_edges: EdgeChoice = True,
    keep_sharding_rules: bool = False,
    recorder: Any = None,
    factor_strategy: Literal["basic", "aggressive"] | None = None,
    op_priority_stages: bool = True,
    after_round: Callable[[int, Module], None] | None = None,
) -> Module:
    """A copy of `module` with shardings propagated (see the module docstring);
    `module` itself is not changed. It is validated first
    (`validate_for_propagation`), then copied once, and the copy propagated
    in place (`propagate_in_place`).

    `strategy`, from the least to the most elaborate (each one runs the one
    before it, as Shardy's passes of the same names do):
    `"basic"` (`sdy-basic-propagate`), `"aggressive"` (`sdy-aggressive-propagate`),
    `"op-priority"` (`sdy-op-priority-propagate`: aggressive propagation in
    stages of op kinds) and `"user-priority"` (`sdy-user-priority-propagate`:
    op-priority propagation once per user priority `p0`, `p1`, ...).
    `conservative`: never split an axis into sub-axes while propagating.
    `data_flow_edges`: tie the values of control-flow ops (False: like
    Shardy's propagation pass alone, which leaves them apart; a function of
    the op: those of the ops it accepts).
    `keep_sharding_rules`: every op propagated through keeps the rule used as
    its `sdy.sharding_rule` attribute (Shardy's `keep-sharding-rules=true`;
    with `conservative`, the rules of conservative propagation). Rules
    written on ops stay either way (Shardy's passes then drop the ones that
    are not custom: see `drop_sharding_rules`).
    `recorder`: an object told about every sharding change (see
    `shardonnay.explain.Recorder`); it does not alter the result.
    `factor_strategy`: the factor propagation the priority strategies run
    (Shardy's `propagation-strategy` option; default basic for `"basic"`,
    aggressive otherwise). `op_priority_stages=False`: each round of
    `"user-priority"` is one aggressive propagation, not op-priority stages
    (Shardy's `run-op-priority-propagation=false`). `after_round(priority,
    module)`: called by `"user-priority"` after each round but the last, with
    the module as it stands (the round's shardings written; Shardy's
    `module-dump-directory` saves it then).
    """
    _factor_propagation(strategy, factor_strategy)  # bad options fail before validating
    with cyclic_gc_paused():
        validate_for_propagation(module)
        copy = module.copy()
        propagate_in_place(
            copy,
            strategy=strategy,
            conservative=conservative,
            data_flow_edges=data_flow_edges,
            keep_sharding_rules=keep_sharding_rules,
            recorder=recorder,
            factor_strategy=factor_strategy,
            op_priority_stages=op_priority_stages,
            after_round=after_round,
        )
        return copy


def propagate_in_place(
    module: Module,
    *,
    strategy: Strategy = "aggressive",
    conservative: bool = False,
    data_flow_edges: EdgeChoice = True,
    keep_sharding_rules: bool = False,
    recorder: Any = None,
    factor_strategy: Literal["basic", "aggressive"] | None = None,
    op_priority_stages: bool = True,
    after_round: Callable[[int, Module], None] | None = None,
) -> None:
    """`propagate` on `module` itself, which it changes, with the same options.

    `module` is not validated here: it must be what `validate_for_propagation`
    accepts (the caller checks it, or builds it by passes that keep those
    invariants from a module it checked)."""
    factor_propagation = _factor_propagation(strategy, factor_strategy)
    with cyclic_gc_paused():
        groups = sync_group_members(module)
        erasable = erasable_ops(module, keep_data_flow_ops=data_flow_edges)
        driver = _Driver(
            module, factor_propagation, conservative, data_flow_edges, groups, erasable
        )
        driver.recorder = recorder
        if recorder is not None:
            recorder.start(module, driver)
        if strategy == "user-priority":
            driver.run_user_priorities(op_priority_stages, after_round)
        elif strategy == "op-priority":
            driver.run_op_priorities()
        else:
            driver.run()
        if keep_sharding_rules:
            driver.keep_rules()


def _factor_propagation(
    strategy: Strategy, factor_strategy: Literal["basic", "aggressive"] | None
) -> FactorPropagation:
    """The factor propagation of `strategy` (`factor_strategy`, by default
    basic for `"basic"`, aggressive otherwise); `ValueError` for an unknown
    strategy or factor propagation."""
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
    return BasicFactorPropagation() if factor_strategy == "basic" else AggressiveFactorPropagation()


class _OpItem:
    """What propagating through an op needs, read once: its operands and
    results, and the values holding their shardings (`holders`: operands
    then results, see `ShardingStore._key`)."""

    __slots__ = (
        "holders",
        "inert_in",
        "is_elementwise",
        "operands",
        "results",
        "rule",
        "stage_directions",
    )

    def __init__(
        self,
        operands: tuple[Value, ...],
        results: tuple[Value, ...],
        holders: tuple[Value, ...],
        rule: OpShardingRule,
        is_elementwise: bool,
    ):
        self.operands = operands
        self.results = results
        self.holders = holders
        self.rule = rule
        self.is_elementwise = is_elementwise
        # Per op-priority stage, the direction of each factor (once needed).
        self.stage_directions: list[Directions] | None = None
        # Per op-priority stage, whether a sweep leaves the op out (see
        # `_Driver._initial_stack`; once needed, with `stage_directions`).
        self.inert_in: tuple[bool, ...] | None = None


class _Driver(ShardingStore):
    """Propagation through the items of a module's `ShardingStore`, with a
    worklist (see the module docstring)."""

    def __init__(
        self,
        module: Module,
        factor_propagation: FactorPropagation,
        conservative: bool,
        data_flow_edges: EdgeChoice,
        groups: Sequence[list[Value]] = (),
        erasable: set[Op] | frozenset[Op] = frozenset(),
    ):
        super().__init__(module, conservative, data_flow_edges, groups, erasable)
        # The ops that go once unused (see `_erase`), until they do.
        self._erasable = set(erasable)
        self.factor_propagation = factor_propagation
        # The outcome of each propagation step by the identities of its inputs.
        # (Given the store's table, not its bound `_distinct`, which would tie
        # the two in a reference cycle: the driver, its memo and everything
        # they hold would then wait for the cyclic garbage collector.)
        kept = self._distinct_shardings
        self.steps = StepOutcomes(self.meshes, factor_propagation, lambda s: kept.setdefault(s, s))
        self.directions = FactorDirections()
        self._op_items: dict[Item, _OpItem] = {}
        self._items: set[Item] = set(self.order)
        # The op-priority stage being run (None: every factor both ways).
        self.stage: int | None = None
        # Told about every change of a sharding (see `propagate`'s `recorder`).
        self.recorder: Any = None
        self.sweeps = 0  # for progress reports
        self._result_ref: tuple[Func, int] | None = None
        self._func_results_read: list[tuple[Func, int, Value, OpShardingRule]] | None = None
        # Per entry function result (by its index in `_func_results`), the
        # shardings (of the value returned, of the result) of its last step
        # that changed nothing.
        self._settled_func_results: dict[
            int, tuple[TensorSharding | None, TensorSharding | None]
        ] = {}
        self._current: Item | None = None
        self._step: Any = None
        self._stack: list[Item] = []
        self._queued: set[Item] = set()
        # The items whose last visit changed nothing, with the directions it
        # had: visiting one again with the same directions, before any of
        # the shardings it reads changes, would change nothing either (the
        # step is a function of those), so it is skipped (see `_set`).
        self._clean: dict[Item, Directions] = {}
        # The items that read each stored sharding (by the value holding it).
        self._readers: dict[Value, list[Item]] = {}
        holder = self._holder
        for item in self.order:
            values = (
                (*item.sources, item.owner)
                if isinstance(item, DataFlowEdge)
                else (*item.operands, *item.results)
            )
            for v in values:
                self._readers.setdefault(holder.get(v, v), []).append(item)

    def _set(self, v: Value, sharding: TensorSharding) -> None:
        key = self._holder.get(v, v)
        self.shardings[key] = sharding
        self._forget(key)

    def _set_ref(self, ref: Ref, sharding: TensorSharding) -> None:
        super()._set_ref(ref, sharding)
        if isinstance(ref, Value):
            self._forget(ref)

    def _forget(self, key: Value) -> None:
        """The items that read the sharding held by `key` are no longer clean."""
        clean = self._clean
        if clean:
            for reader in self._readers.get(key, ()):
                clean.pop(reader, None)

    # -- the worklist ----------------------------------------------------------------

    def run(self) -> None:
        """Aggressive (or basic) propagation, then the shardings are written back."""
        self._propagate_all()
        write_back(self.module, self.shardings, self.arg_of)

    def run_op_priorities(self) -> None:
        """Op-priority propagation (see `shardonnay.propagation.op_priority`), written back."""
        self._propagate_op_priorities()
        write_back(self.module, self.shardings, self.arg_of)

    def run_user_priorities(
        self,
        op_priority_stages: bool = True,
        after_round: Callable[[int, Module], None] | None = None,
    ) -> None:
        """User-priority propagation: op-priority propagation with only the dims
        of priority 0 (or none) first, then again after restoring the dims of
        each higher priority in turn (see `shardonnay.propagation.user_priority`);
        `op_priority_stages=False`: aggressive propagation instead of op-priority.
        `after_round(priority, module)`: see `propagate`."""
        run = self._propagate_op_priorities if op_priority_stages else self._propagate_all
        originals: dict[int, list[tuple[Ref, TensorSharding]]] = {}
        for ref, sharding in self._all_shardings():
            priorities = {d.priority for d in sharding.dims if d.priority}
            for priority in priorities:
                originals.setdefault(priority, []).append((ref, sharding))
            self._set_ref(ref, initial_for_priorities(sharding, self.meshes))
        rounds = [0, *sorted(originals)]
        for i, priority in enumerate(rounds):
            if priority:
                if self.recorder is not None:
                    self.recorder.priority_round(priority)
                for ref, original in originals[priority]:
                    current = self._get_ref(ref)
                    if current is not None:
                        self._set_ref(ref, restore_priority(current, original, priority))
            run()
            if after_round is not None and i < len(rounds) - 1:
                write_back(self.module, self.shardings, self.arg_of)
                after_round(priority, self.module)
        write_back(self.module, self.shardings, self.arg_of)

    def _propagate_op_priorities(self) -> None:
        for stage in range(len(OP_PRIORITY_STAGES)):
            self.stage = stage
            self._propagate_all()
        self.stage = None

    def _propagate_all(self) -> None:
        self._propagate_func_results()
        self._sweep()
        self._propagate_func_results()

    def _sweep(self) -> bool:
        stage = self.stage if self.recorder is None else None
        stack = self._stack = self._initial_stack(stage)
        queued = self._queued = set(stack)
        visit, items, erasable = self._visit, self._items, self._erasable
        # An op visited before in this stage and clean since is passed over
        # here, as `_visit` would pass it over (most items, after the first
        # stage: each stage sweeps every item).
        op_items, clean = self._op_items, self._clean
        changed = erased = False
        self.sweeps += 1
        steps = tracker(f"propagating (sweep {self.sweeps})", len(stack))
        while stack:
            item = stack.pop()
            queued.discard(item)
            steps.advance()
            if item not in items:  # erased since it was pushed
                continue
            if stage is not None and item in clean:
                op_item = op_items.get(item)
                if (
                    op_item is not None
                    and op_item.stage_directions is not None
                    and clean[item] is op_item.stage_directions[stage]
                    and item not in erasable
                ):
                    continue
            self._current = item
            if item in erasable and not any(r.uses for r in item.results):
                self._erase(item)
                changed = erased = True
                continue
            changed |= visit(item)
        if erased:
            self.order = [item for item in self.order if item in items]
        steps.finish()
        return changed

    def _initial_stack(self, stage: int | None) -> list[Item]:
        """The items a sweep of op-priority `stage` starts with, the first
        last: those of `order`, but the ops through which no factor
        propagates in `stage` (inert directions). Visiting one changes
        nothing and pushes nothing, so leaving it out changes no other
        visit: it is pushed like any item when a neighbour changes, and its
        visit then changes nothing either. (In stage 0, an op whose
        operands have other uses is inert only until dead ops erased in the
        sweep leave it their only user; it stays, unless it is inert in
        stage 1 too, whatever the uses.)"""
        if stage is None:
            return list(reversed(self.order))
        op_items, erasable = self._op_items, self._erasable
        stack = []
        for item in reversed(self.order):
            op_item = op_items.get(item)
            if op_item is None and not isinstance(item, DataFlowEdge):
                op_item = self._op_item(item)
            if op_item is not None and item not in erasable:
                inert_in = op_item.inert_in
                if inert_in is None:
                    inert_in = self._inert_in(item, op_item)
                if inert_in[stage]:
                    continue
            stack.append(item)
        return stack

    def _inert_in(self, op: Op, op_item: _OpItem) -> tuple[bool, ...]:
        """Per op-priority stage, whether `op` is inert in it (and, in stage
        0, in stage 1 too: see `_initial_stack`)."""
        directions, inert = self._stage_directions(op, op_item), self.directions.inert
        op_item.inert_in = tuple(
            directions[stage] in inert and directions[max(stage, 1)] in inert
            for stage in range(len(directions))
        )
        return op_item.inert_in

    def _op_item(self, op: Op) -> _OpItem | None:
        """What propagating through `op` needs (None for an op without a
        rule: a barrier, or an op listed only to be erased once unused)."""
        op_item = self._op_items.get(op)
        if op_item is None:
            rule = self.rules.get(op)
            if rule is None:
                return None
            operands, results = op.operands, tuple(op.results)
            holders = tuple(self._key(v) for v in (*operands, *results))
            op_item = _OpItem(operands, results, holders, rule, self._is_elementwise(op))
            self._op_items[op] = op_item
        return op_item

    def _stage_directions(self, op: Op, op_item: _OpItem) -> list[Directions]:
        """The directions of the factors of `op` in each op-priority stage."""
        if op_item.stage_directions is None:
            op_item.stage_directions = self.directions.per_stage(op, op_item.rule)
        return op_item.stage_directions

    def _erase(self, op: Op) -> None:
        """Erases `op`, with the ops nested in it (users before definitions),
        as MLIR's rewriter does when its greedy driver pops a dead op: each
        erased op pushes the defining op of every operand with at most one
        other user left. The users left of its operands see their factor
        directions anew (op-priority stage 0 depends on how many uses an
        operand has)."""
        erased: set[Op] = set()
        operands: list[Value] = []

        def erase_tree(o: Op) -> None:
            for region in reversed(o.regions):
                for block in reversed(region.blocks):
                    for inner in reversed(block.ops):
                        erase_tree(inner)
            for v in o.operands:
                operands.append(v)
                if v.op is None:
                    continue
                others = {u.owner for u in v.uses if u.owner is not o and u.owner not in erased}
                if len(others) <= 1:
                    self._push(v.op)
            erased.add(o)
            self._items.discard(o)
            self._erasable.discard(o)

        erase_tree(op)
        op.erase()
        for v in operands:
            for use in v.uses:
                op_item = self._op_items.get(use.owner)
                if op_item is not None:
                    op_item.stage_directions = op_item.inert_in = None

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
            rule = identity_rule(t, len(item.sources))
            if item.to_sources is None or owner is None:
                return self._propagate(
                    item.sources,
                    [item.owner],
                    rule,
                    self.directions.of(item, rule, self.stage),
                    False,
                    item=item,
                )
            from_sources = item.from_sources
            assert from_sources is not None

            def set_owner(_index: int, s: TensorSharding) -> None:
                self._update(item.owner, from_sources(s), True)

            return self._propagate(
                item.sources,
                [item.owner],
                rule,
                self.directions.of(item, rule, self.stage),
                False,
                set_results=set_owner,
                result_shardings=[item.to_sources(owner)],
                item=item,
            )
        if item.name == "sdy.propagation_barrier":
            direction = item.attributes["allowed_direction"]
            name = ("NONE", "FORWARD", "BACKWARD", "BOTH")[int(direction.value)]
            rule = identity_rule(item.results[0].type)
            return self._propagate(
                item.operands,
                item.results,
                rule,
                self.directions.distinct((_BARRIER_DIRECTIONS[name],) * rule.num_factors),
                False,
                item=item,
            )
        op_item = self._op_item(item)
        if op_item is None:  # an op listed only to be erased once unused
            return False
        if self.stage is None:
            directions = self.directions.both_ways(op_item.rule.num_factors)
        else:
            directions = self._stage_directions(item, op_item)[self.stage]
        if self.recorder is None:
            return self._step_through(item, op_item, directions)
        return self._propagate(
            op_item.operands,
            op_item.results,
            op_item.rule,
            directions,
            op_item.is_elementwise,
            conservative=self.conservative,
            item=item,
        )

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
        item: Item | None = None,
    ) -> bool:
        """Propagates through one op (or edge, or function result) whose
        tensors are `operands` and `results`, and records the changes.
        `conservative` (Shardy sets it for ops only, never for data-flow
        edges, barriers and function results): no axis is split. `item`:
        the item propagated through, skipped while clean (see `_clean`)."""
        if self.recorder is None:
            if item is not None and self._clean.get(item) is directions:
                return False
            outcome = self._updating_outcome(
                item,
                *self._old_shardings(operands, results, result_shardings),
                rule,
                directions,
                is_elementwise,
                conservative,
            )
            if outcome is None:
                return False
            new_operands, new_results, updated_operands, updated_results, any_updated = outcome
        else:
            old_operands, old_results = self._old_shardings(operands, results, result_shardings)
            meshed = self.steps.run(
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
        self._apply(
            operands,
            results,
            (new_operands, new_results, updated_operands, updated_results),
            notify,
            set_results,
        )
        return any_updated

    def _step_through(self, op: Op, op_item: _OpItem, directions: Directions) -> bool:
        """`_propagate` through `op`, without a recorder (the step most
        visits take, with what it needs read once in `op_item`)."""
        if self._clean.get(op) is directions:
            return False
        get, n = self.shardings.get, len(op_item.operands)
        old = [get(v) for v in op_item.holders]
        outcome = self._updating_outcome(
            op,
            old[:n],
            old[n:],
            op_item.rule,
            directions,
            op_item.is_elementwise,
            self.conservative,
        )
        if outcome is None:
            return False
        self._apply(op_item.operands, op_item.results, outcome, True, None)
        return True

    def _updating_outcome(
        self,
        item: Item | None,
        old_operands: list[TensorSharding | None],
        old_results: list[TensorSharding | None],
        rule: OpShardingRule,
        directions: Directions,
        is_elementwise: bool,
        conservative: bool,
    ) -> Outcome | None:
        """The (remembered) outcome of a step that updates some tensor; None
        for one that updates none (`item`, if any, is then clean with
        `directions`: see `_clean`)."""
        outcome = None
        if directions not in self.directions.inert:  # else no factor may propagate
            outcome = self.steps.outcome(
                old_operands, old_results, rule, directions, is_elementwise, conservative
            )
        if outcome is None or not outcome[4]:
            if item is not None:
                self._clean[item] = directions
            return None
        return outcome

    def _apply(
        self,
        operands: Sequence[Value],
        results: Sequence[Value],
        outcome: Sequence[Any],
        notify: bool,
        set_results: Any,
    ) -> None:
        """Gives the tensors of a step their new shardings, where `outcome`
        (new operand and result shardings, which were updated) says so."""
        new_operands, new_results, updated_operands, updated_results = outcome[:4]
        for v, new, did in zip(operands, new_operands, updated_operands, strict=True):
            if did:
                self._update(v, new, notify)
        for i, (v, new, did) in enumerate(zip(results, new_results, updated_results, strict=True)):
            if did:
                if set_results is None:
                    self._update(v, new, notify)
                    continue
                set_results(i, new)

    def _old_shardings(
        self,
        operands: Sequence[Value],
        results: Sequence[Value],
        result_shardings: Sequence[TensorSharding | None] | None,
    ) -> tuple[list[TensorSharding | None], list[TensorSharding | None]]:
        """The shardings of `operands` and of `results` (`result_shardings`
        when given) before a step."""
        get, holder = self.shardings.get, self._holder
        return [get(holder.get(v, v)) for v in operands], (
            list(result_shardings)
            if result_shardings is not None
            else [get(holder.get(v, v)) for v in results]
        )

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
        settled = self._settled_func_results
        for k, (func, i, value, rule) in enumerate(self._func_results()):
            result_sharding = func_result_sharding(func, i)
            if self.recorder is None:
                # A step is a function of its inputs' objects (the memo's key):
                # the same two shardings as at a step that changed nothing
                # would change nothing again.
                value_sharding = self.get(value)
                last = settled.get(k)
                if last is not None and last[0] is value_sharding and last[1] is result_sharding:
                    continue
            self._result_ref = (func, i) if self.recorder is not None else None
            changed = self._propagate(
                [value],
                [value],
                rule,
                self.directions.both_ways(rule.num_factors),
                False,
                notify=False,
                set_results=lambda _index, s, func=func, i=i: self._set_func_result(func, i, s),
                result_shardings=[result_sharding],
            )
            self._result_ref = None
            if self.recorder is None and not changed:
                settled[k] = (value_sharding, result_sharding)

    def _func_results(self) -> list[tuple[Func, int, Value, OpShardingRule]]:
        """Per tensor result of an entry function: (the function, the result's
        index, the value returned, its identity rule); read once (propagation
        changes no `return`)."""
        if self._func_results_read is None:
            self._func_results_read = [
                (func, i, value, identity_rule(value.type))
                for func in entry_functions(self.module)
                for i, value in enumerate(func.return_op.operands)
                if isinstance(value.type, TensorType)
            ]
        return self._func_results_read

    def _set_func_result(self, func: Func, i: int, sharding: TensorSharding) -> None:
        if self.recorder is not None:
            old = func_result_sharding(func, i)
            self.recorder.changed(self._result_ref, old, sharding, self._step)
        set_func_result_sharding(func, i, sharding)

    # -- writing shardings back ----------------------------------------------------------

    def keep_rules(self) -> None:
        """Writes the rule of every op that has one as its `sdy.sharding_rule`."""
        for op, rule in self.rules.items():
            if rule is not None and RULE_ATTRIBUTE not in op.attributes:
                op.attributes[RULE_ATTRIBUTE] = rule
