"""Where the shardings of a module are kept while it propagates.

A `ShardingStore` reads a module once, through the one sharding accessor
(`shardonnay.ir.shardings.sharding_of`): the sharding of every function
argument, op result, and body argument of a named or manual computation
(without the manual axes); a value without one has None. Function results'
shardings are read and written in place (`func_result_sharding`). It then
keeps one sharding per storage owner: values tied by control flow share the
one of their data-flow edge, kept on the edge's owner (the value `_key`
gives), and without data-flow edges the region arguments of a
`stablehlo.while` read and write the sharding of the result they stand for.
The module is written back through the same accessor
(`shardonnay.propagation.write_back`).

It also reads the sharding rule of every op (`rule_for`; None for an op
without one or with a non-tensor type) and lists, in program order, the
items propagation goes through (`order`): every op with a rule, every
`sdy.propagation_barrier`, every data-flow edge, each edge right after
the op that owns it (its result edges after the op's regions), and the ops
in `erasable` (that propagation erases once unused).

Equal shardings and rules are kept as one object (`_distinct`), so that
propagation steps can be remembered by the identities of their inputs.

The optimization barrier has no rule: its data-flow edge, from its operand
to its result (the edge's owner), propagates for it:

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> tensor<8xf32> {
...   %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
...   %1 = stablehlo.negate %0 : tensor<8xf32>
...   return %1 : tensor<8xf32>
... }''')
>>> store = ShardingStore(module, conservative=False, data_flow_edges=True)
>>> [getattr(item, "name", type(item).__name__) for item in store.order]
['DataFlowEdge', 'stablehlo.negate']
>>> arg = module.functions[0].arguments[0]
>>> print(store.get(arg))
#sdy.sharding<@mesh, [{"x"}]>
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from collections.abc import Set as AbstractSet

from shardonnay.errors import ShardingError
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import (
    func_result_sharding,
    set_func_result_sharding,
    sharding_of,
)
from shardonnay.ir.types import TensorType
from shardonnay.ir.verifier import alike_key
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import lookup
from shardonnay.ops.rules import has_registered_rule, rule_for
from shardonnay.ops.traits import COMPUTATION, DATA_FLOW, has_trait
from shardonnay.propagation.data_flow import (
    DataFlowEdge,
    data_flow_edges_of,
)
from shardonnay.propagation.op_priority import Item, is_elementwise
from shardonnay.sharding import TensorSharding
from shardonnay.sharding_rule import OpShardingRule

__all__ = ["EdgeChoice", "Ref", "ShardingStore", "rule_look"]


# Where a sharding is kept: a value, or a function's result (function, index).
Ref = Value | tuple[Func, int]
# Whether the values of data-flow ops are tied by edges: of every op, or of those
# the function accepts (the ops that had explicit `sdy.data_flow_edge` ops).
EdgeChoice = bool | Callable[[Op], bool]


def rule_look(op: Op) -> tuple | None:
    """What `rule_for(op)` is computed from, by identity (`alike_key`: the
    op's name and its type and attribute objects), so that the ops of one
    look share one rule; None for an op whose rule may look further: a rule
    registered by name, or a definition whose rule reads the ops producing
    its operands or the op's regions (see `OpDef.sharding_rule`)."""
    name = op.name
    definition = lookup(name)
    if (
        has_registered_rule(name)
        or definition.rule_reads_producers
        or (op.regions and definition.rule_reads_regions)
    ):
        return None
    return alike_key(op)


class ShardingStore:
    """The shardings, rules and items of `module` (see the module docstring).

    `groups`: the members of each sharding group (each member gets the
    sharding given to any of them). `erasable`: ops listed in `order` even
    without a rule.
    """

    def __init__(
        self,
        module: Module,
        conservative: bool,
        data_flow_edges: EdgeChoice,
        groups: Sequence[list[Value]] = (),
        erasable: AbstractSet[Op] = frozenset(),
    ):
        self.module = module
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
        # By the identity of a rule `rule_for` gave, (that rule, kept alive so
        # that its id stays its own, and its distinct one).
        self._rules_by_id: dict[int, tuple[OpShardingRule, OpShardingRule]] = {}
        # The rule of ops that look alike (see `rule_look`), with one such op.
        self._rules_by_look: dict[tuple, tuple[OpShardingRule | None, Op]] = {}
        self._elementwise: dict[Op, bool] = {}
        self.order: list[Item] = []
        # One sharding object per distinct sharding (see `_distinct`).
        self._distinct_shardings: dict[TensorSharding, TensorSharding] = {}
        self._collect(data_flow_edges, erasable)
        for members in groups:
            for v in members:
                self.groups[v] = members

    # -- reading the module ----------------------------------------------------------

    def _collect(self, data_flow_edges: EdgeChoice, erasable: AbstractSet[Op]) -> None:
        for func in self.module.functions:
            for i, arg in enumerate(func.arguments):
                self.arg_of[arg] = (func, i)
                self.shardings[arg] = sharding_of(arg)
        for top in self.module.ops:
            for op in self._walk_with_edges(top, data_flow_edges):
                if isinstance(op, DataFlowEdge):
                    self.order.append(op)
                    continue
                self._read_result_shardings(op)
                rule = self._rule(op)
                if rule is not None or op.name == "sdy.propagation_barrier" or op in erasable:
                    self.order.append(op)

    def _walk_with_edges(self, op: Op, data_flow_edges: EdgeChoice) -> Iterator[Item]:
        edges: tuple[list[DataFlowEdge], list[DataFlowEdge]] = ([], [])
        tied = data_flow_edges(op) if callable(data_flow_edges) else data_flow_edges
        if tied and has_trait(op, DATA_FLOW):
            edges = data_flow_edges_of(op)
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
        """The shardings of `op`'s results and, for a computation, of its body's
        arguments (as the body sees them), as `sharding_of` reads them."""
        values = list(op.results)
        if has_trait(op, COMPUTATION):
            values = [*op.regions[0].entry.arguments, *values]
        for v in values:
            s = sharding_of(v)
            self.shardings[v] = self._distinct(s) if s is not None else None

    def _rule(self, op: Op) -> OpShardingRule | None:
        try:
            return self.rules[op]
        except KeyError:
            pass
        look = rule_look(op)
        if look is None:
            rule = self.rules[op] = self._looked_up_rule(op)
            return rule
        entry = self._rules_by_look.get(look)
        if entry is None:
            entry = self._rules_by_look[look] = (self._looked_up_rule(op), op)
        rule = self.rules[op] = entry[0]
        return rule

    def _looked_up_rule(self, op: Op) -> OpShardingRule | None:
        """`rule_for(op)`, None for an op with a non-tensor type or without a
        rule, kept as the one object of its distinct rule."""
        rule = None
        if all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
            try:
                rule = rule_for(op, conservative=self.conservative)
            except (ShardingError, KeyError):
                rule = None
        if rule is not None:
            # (by identity first: ops alike get the one rule object `rule_for`
            # remembers, and a rule hashes field by field)
            known = self._rules_by_id.get(id(rule))
            if known is None:
                known = self._rules_by_id[id(rule)] = (
                    rule,
                    self._distinct_rules.setdefault(rule, rule),
                )
            rule = known[1]
        return rule

    def _is_elementwise(self, op: Op) -> bool:
        try:
            return self._elementwise[op]
        except KeyError:
            return self._elementwise.setdefault(op, is_elementwise(op))

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

    # -- shardings by reference ---------------------------------------------------------

    def _all_shardings(self) -> list[tuple[Ref, TensorSharding]]:
        """Every stored sharding: function arguments and results, op results,
        sharding constraints and data-flow edge owners."""
        out: list[tuple[Ref, TensorSharding]] = []
        for v, s in self.shardings.items():
            if s is not None and self._key(v) is v:
                out.append((v, s))
        for func in self.module.functions:
            if func.is_declaration:
                continue
            for i in range(len(func.type.results)):
                s = func_result_sharding(func, i)
                if s is not None:
                    out.append(((func, i), s))
        return out

    def _get_ref(self, ref: Ref) -> TensorSharding | None:
        if isinstance(ref, Value):
            return self.shardings.get(ref)
        func, i = ref
        return func_result_sharding(func, i)

    def _set_ref(self, ref: Ref, sharding: TensorSharding) -> None:
        sharding = self._distinct(sharding)
        if isinstance(ref, Value):
            self.shardings[ref] = sharding
        else:
            func, i = ref
            set_func_result_sharding(func, i, sharding)
