"""Shardy's `sdy-insert-explicit-reshards`: make every op's shardings compatible.

After propagation an op's operands and results may disagree on how a factor
of its sharding rule is sharded. The full version (Shardy's own partitioner
step, `enable-full-version=true`) settles every op: it picks one list of axes
per factor (`shardonnay.export.common_axes.find_common_axes`), reshards
the operands that differ right before the op and gives the results that
differ their new sharding, resharded back to the old one right after the op
(`sdy.reshard`); results are then all-reduced over the axes that shard
reduction factors (`sdy.all_reduce`), unless their sharding keeps those axes
unreduced. The values flowing into a data-flow op (`while` operands and body
results, `case` branch results, `optimization_barrier` operands, named and
manual computations), into a call or out of the function are resharded, right
after their definition (before the return), to the sharding they flow into.

The limited version (`enable-full-version=false`, the last step of
`sdy-propagation-pipeline`) settles only calls and the concatenates whose
operands are not all sharded like their result; for a dot whose operands
agree but whose result has one dim sharded along exactly the axes of the
contracting dims, it reshards the result instead (an all-reduce of the small
result rather than the reduce-scatter its sharding asks for).

Both versions all-reduce the unreduced axes a user does not keep and turn a
reshard that adds unreduced axes into `*_to_unreduced` collectives
(`shardonnay.export.unreduced`).

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
...   %0 = stablehlo.transpose %arg0, dims = [1, 0]
...       {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
...       : (tensor<4x8xf32>) -> tensor<8x4xf32>
...   return %0 : tensor<8x4xf32>
... }''')
>>> out = insert_explicit_reshards(module, full_version=True)
>>> transpose, back, _ = out.functions[0].body.ops
>>> str(transpose.attributes["sdy.sharding"])  # sharded like its (equally large) operand
'#sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>'
>>> back.name, str(back.attributes["sharding"])
('sdy.reshard', '#sdy.sharding<@mesh, [{"x"}, {}]>')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from shardonnay.axes import AxisRef
from shardonnay.collectives.axis_lists import mesh_ordered
from shardonnay.errors import ShardingError
from shardonnay.export.common_axes import (
    Axes,
    distribute_axes_across_factors,
    find_common_axes,
    greatest_common_prefix_axes,
)
from shardonnay.export.insertion import (
    all_reduce,
    insert_on_operand,
    replace_uses_except,
    reshard,
)
from shardonnay.export.unreduced import (
    all_reduce_operands,
    all_reduce_to_target,
    axis_set_diff,
    reshard_to_unreduced_collectives,
)
from shardonnay.ir.core import Block, Func, Module, Op, Value, building
from shardonnay.ir.shardings import (
    edge_sources,
    func_arg_sharding,
    func_result_sharding,
    is_equivalent,
    mesh_of,
    open_sharding,
    set_sharding,
    sharding_of,
)
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.rules import rule_for
from shardonnay.ops.traits import DATA_FLOW, TERMINATOR, has_trait
from shardonnay.propagation.projection import (
    FactorSharding,
    ShardingProjection,
    TensorFactorShardings,
)
from shardonnay.sharding import TensorSharding
from shardonnay.sharding_rule import OpShardingRule, TensorMapping

__all__ = ["insert_explicit_reshards", "reshard_factors"]


def insert_explicit_reshards(module: Module, *, full_version: bool) -> Module:
    """Inserts, in place, the reshards and collectives that make every op's
    shardings compatible (see the module docstring); returns `module`."""
    with building():  # the reshards it makes stay in the program: no cycles to collect
        for func in module.functions:
            if not func.is_declaration:
                _FunctionPass(module, func, full_version).run()
    return module


def reshard_factors(
    module: Module, op: Op, rule: OpShardingRule, axes: Callable[[int, Mesh], Axes | None]
) -> None:
    """Gives each factor `f` of `op`'s `rule` the axes `axes(f, mesh)` (None:
    keeps it as it is) on every tensor it is in, on the mesh `op`'s shardings
    share, as Shardy's `insertExplicitReshards` does with an updated
    projection: the operands that changed are resharded before `op`, the
    results that changed take their new sharding and are resharded back
    after it. Nothing happens when the shardings share no mesh or it is
    maximal."""
    owner = _FunctionPass(module, None, full_version=True)
    in_shardings = [sharding_of(v) for v in op.operands]
    out_shardings = [sharding_of(v) for v in op.results]
    mesh_name = owner._common_mesh_name([*in_shardings, *out_shardings])
    if mesh_name is None:
        return
    mesh = owner.meshes[mesh_name]
    projection = ShardingProjection.build(
        in_shardings, out_shardings, rule, mesh, closed_if_missing=True
    )
    updated_operands = [False] * len(in_shardings)
    updated_results = [False] * len(out_shardings)
    for f in range(rule.num_factors):
        new_axes = axes(f, mesh)
        if new_axes is None:
            continue
        for flags, tensors in (
            (updated_operands, projection.operands),
            (updated_results, projection.results),
        ):
            for i, tensor in enumerate(tensors):
                sharding = tensor.factors.get(f)
                if sharding is None:
                    continue
                if list(sharding.axes) != list(new_axes) or sharding.overflow_axes:
                    sharding.axes, sharding.overflow_axes = list(new_axes), []
                    flags[i] = True
    if any(updated_operands) or any(updated_results):
        settle = _OpSettlement(owner, op, rule, projection, in_shardings, out_shardings, mesh_name)
        settle.reshard(updated_operands, updated_results)


class _FunctionPass:
    def __init__(self, module: Module, func: Func | None, full_version: bool):
        self.module = module
        self.meshes: dict[str, Mesh] = module.meshes
        self.func = func
        self.full_version = full_version
        # the full version's settlement of an op, by what it depends on (`_settle`)
        self.settled: dict[tuple, _Settled] = {}
        self.positions = _Positions()
        self.number = _Numbers()  # of shardings and rules, for the keys of what they decide
        self.common_meshes: dict[tuple[int, ...], str | None] = {}  # see `_common_mesh_name`

    def run(self) -> None:
        assert self.func is not None  # (None only for `reshard_factors`, which settles one op)
        for op in self.func.body.walk_post_order():
            if not has_trait(op, TERMINATOR):
                self.visit(op)
        ret = self.func.return_op
        for i in range(ret.num_operands):
            target = func_result_sharding(self.func, i)
            # The limited version too reshards a sharded value returned as a
            # result that makes axes unreduced.
            current = sharding_of(ret.operands[i])
            adds_unreduced = (
                current is not None
                and target is not None
                and any(a not in current.unreduced for a in target.unreduced)
            )
            full = self.full_version or adds_unreduced
            self.reshard_operand(ret, i, target, after_operand=False, full=full)

    def visit(self, op: Op) -> None:
        full = self.full_version or _on_full_version(op)
        # (`stablehlo.if` ties no values while propagating, as in Shardy, but
        # its branches must return its results' shardings, as a `case`'s do.)
        if has_trait(op, DATA_FLOW) or op.name == "stablehlo.if":
            for target, sources in edge_sources(op):
                for user, index in sources:
                    self.reshard_operand(user, index, target, after_operand=True, full=full)
            return
        if op.name == "func.call":
            self._visit_call(op, full)
            return
        if op.name == "sdy.reshard" and reshard_to_unreduced_collectives(op, self.meshes):
            return
        all_reduce_operands(op, self.meshes)
        rule = _rule(op)
        if rule is None:
            return
        in_shardings = [sharding_of(v) for v in op.operands]
        out_shardings = [sharding_of(v) for v in op.results]
        mesh_name = self._common_mesh_name([*in_shardings, *out_shardings])
        if mesh_name is None:
            return
        mesh = self.meshes[mesh_name]
        if full:
            common = self._settle(op, rule, in_shardings, out_shardings, mesh_name)
            reduction_axes = [a for f in rule.reduction_factors for a in common[f]]
        else:
            projection = ShardingProjection.build(
                in_shardings, out_shardings, rule, mesh, closed_if_missing=True
            )
            settle = _OpSettlement(
                self, op, rule, projection, in_shardings, out_shardings, mesh_name
            )
            if op.name in ("stablehlo.dot", "stablehlo.dot_general"):
                settle.reshard_dot_result()
            reduction_axes = _reduction_axes_kept_unreduced(op, projection, rule)
        self._all_reduce_results(op, reduction_axes, mesh_name, mesh)

    def _settle(
        self,
        op: Op,
        rule: OpShardingRule,
        in_shardings: list[TensorSharding | None],
        out_shardings: list[TensorSharding | None],
        mesh_name: str,
    ) -> list[Axes]:
        """The full version on `op` (`_OpSettlement.settle`, then its
        reshards); returns the common axes of each factor. What to reshard
        depends only on the op's name, rule, shardings, tensor sizes and
        mesh: it is worked out once for each (a layer stack repeats an op
        with the same shardings thousands of times), the reshards are made
        for every op."""
        sizes = tuple(_num_elements(v) for v in (*op.operands, *op.results))
        number = self.number
        shardings = tuple(map(number, (*in_shardings, *out_shardings)))
        key = (op.name, number(rule), len(in_shardings), shardings, sizes, mesh_name)
        settled = self.settled.get(key)
        if settled is None:
            projection = ShardingProjection.build(
                in_shardings, out_shardings, rule, self.meshes[mesh_name], closed_if_missing=True
            )
            settle = _OpSettlement(
                self, op, rule, projection, in_shardings, out_shardings, mesh_name
            )
            settled = self.settled[key] = settle.settle(sizes)
        settle = _OpSettlement(
            self, op, rule, settled.projection, in_shardings, out_shardings, mesh_name
        )
        settle.reshard(settled.operands, settled.results)
        return settled.common

    # -- meshes ---------------------------------------------------------------------------

    def _common_mesh_name(self, shardings: Sequence[TensorSharding | None]) -> str | None:
        """The mesh all shardings agree on, axes-wise (meshes without axes
        aside), and among those of the sharded ones the most used; None when
        none has a sharding, two meshes differ or the mesh is maximal. Worked
        out once for each list of shardings."""
        key = tuple(map(self.number, shardings))
        if key not in self.common_meshes:
            self.common_meshes[key] = self._find_common_mesh_name(shardings)
        return self.common_meshes[key]

    def _find_common_mesh_name(self, shardings: Sequence[TensorSharding | None]) -> str | None:
        name: str | None = None
        mesh: Mesh | None = None
        for s in shardings:
            if s is None or not isinstance(s.mesh, str):
                continue
            other = mesh_of(s, self.meshes)
            if mesh is None or _is_empty(mesh):
                name, mesh = s.mesh, other
            elif _is_empty(other):
                continue
            elif other.axes != mesh.axes:
                return None
            elif other.device_ids is None:
                name, mesh = s.mesh, other
        if mesh is None or mesh.is_maximal:
            return None
        counts: dict[str, int] = {}
        best, best_count = name, 0
        for s in shardings:
            if s is None or s.is_fully_replicated() or not isinstance(s.mesh, str):
                continue
            counts[s.mesh] = counts.get(s.mesh, 0) + 1
            if counts[s.mesh] > best_count:
                best, best_count = s.mesh, counts[s.mesh]
        return best

    def needs_common_mesh(self, sharding: TensorSharding | None, mesh: Mesh) -> bool:
        """A sharded tensor on a mesh whose device order differs from `mesh`'s."""
        return (
            sharding is not None
            and not sharding.is_fully_replicated()
            and mesh_of(sharding, self.meshes).device_ids != mesh.device_ids
        )

    # -- results of reductions ------------------------------------------------------------

    def _all_reduce_results(
        self, op: Op, reduction_axes: list[AxisRef], mesh_name: str, mesh: Mesh
    ) -> None:
        """After `op`, all-reduces each result over `reduction_axes` but the
        axes the (first) result keeps unreduced."""
        if not op.results or not reduction_axes:
            return
        first = sharding_of(op.results[0])
        unreduced = first.unreduced if first is not None else ()
        axes = mesh_ordered(axis_set_diff(reduction_axes, unreduced, mesh), mesh)
        if not axes:
            return
        after = op
        for result in op.results:
            ar = all_reduce(result, axes, sharding_of(result) or _closed(mesh_name, result))
            after = self.positions.insert_after(after, ar)
            replace_uses_except(result, ar.results[0], ar)

    # -- data-flow edges, calls, returns --------------------------------------------------

    def _visit_call(self, op: Op, full: bool) -> None:
        """Call operands go to the callee's argument shardings (open ones where
        it has none), or, when no argument is sharded, to fully replicated
        shardings on the mesh of the first sharded operand."""
        callee = self.module.function(op.attributes["callee"].name)
        targets = [func_arg_sharding(callee, i) for i in range(len(callee.type.inputs))]
        sharded = [s for s in targets if s is not None]
        if sharded:
            mesh_name = sharded[0].mesh
            targets = [
                s or open_sharding(mesh_name, v.type)
                for s, v in zip(targets, op.operands, strict=True)
            ]
        else:
            mesh_name = next(
                (
                    s.mesh
                    for s in map(sharding_of, op.operands)
                    if s is not None and not mesh_of(s, self.meshes).is_maximal
                ),
                None,
            )
            if mesh_name is None:
                return
            targets = [_closed(mesh_name, v) for v in op.operands]
        for i, target in enumerate(targets):
            self.reshard_operand(op, i, target, after_operand=True, full=full)

    def reshard_operand(
        self,
        user: Op,
        index: int,
        target: TensorSharding | None,
        *,
        after_operand: bool,
        full: bool,
    ) -> None:
        """Operand `index` of `user` flows into a value sharded `target`:
        its unreduced axes that `target` lacks are all-reduced, then (`full`)
        it is resharded to `target` unless already equivalent (placed right
        after the operand's definition, or right before `user`)."""
        current = all_reduce_to_target(
            user,
            index,
            sharding_of(user.operands[index]),
            target,
            self.meshes,
            after_operand=after_operand,
        )
        if not full or is_equivalent(current, target):
            return
        if target is None:
            assert current is not None
            target = TensorSharding.replicated_on(current.mesh, current.rank)
        kept = current.unreduced if current is not None else ()
        if any(a not in kept for a in target.unreduced):
            # First the dims (keeping the unreduced axes there are), then the
            # axes made unreduced: `sdy.replicated_to_unreduced`, ...
            dims_only = TensorSharding(target.mesh, target.dims, target.replicated, tuple(kept))
            if not is_equivalent(current, dims_only):
                self._insert_reshard(user, index, dims_only, after_operand)
            op = self._insert_reshard(user, index, target, after_operand)
            reshard_to_unreduced_collectives(op, self.meshes)
            return
        self._insert_reshard(user, index, target, after_operand)

    def _insert_reshard(
        self, user: Op, index: int, target: TensorSharding, after_operand: bool
    ) -> Op:
        op = reshard(user.operands[index], target)
        return insert_on_operand(user, index, op, after_operand=after_operand)


class _Numbers:
    """A number for each distinct value (equal values, one number), looked up
    by the object first: a program's values and ops share a few sharding and
    rule objects, each numbered without hashing its fields again. The values
    are immutable (frozen dataclasses); the objects are kept, so their ids
    are not reused."""

    def __init__(self) -> None:
        self._of_value: dict[Hashable, int] = {}
        self._of_object: dict[int, tuple[Hashable, int]] = {}

    def __call__(self, value: Hashable) -> int:
        seen = self._of_object.get(id(value))
        if seen is not None and seen[0] is value:
            return seen[1]
        number = self._of_value.setdefault(value, len(self._of_value))
        self._of_object[id(value)] = (value, number)
        return number


class _Positions:
    """Ops placed right before or after others, as `export.insertion` places
    them, each anchor searched for in its block from where the previous one
    was found: the pass goes through a block in order and places ops around
    the op it visits, so the search is short (from the block's start, it
    made a pass over a long program quadratic)."""

    def __init__(self) -> None:
        self.found: dict[Block, int] = {}  # block -> where its latest anchor was

    def insert_before(self, anchor: Op, op: Op) -> Op:
        block = anchor.parent
        assert block is not None
        return block.insert(self._index(block, anchor), op)

    def insert_after(self, anchor: Op, op: Op) -> Op:
        block = anchor.parent
        assert block is not None
        return block.insert(self._index(block, anchor) + 1, op)

    def _index(self, block: Block, anchor: Op) -> int:
        try:
            at = block.ops.index(anchor, self.found.get(block, 0))
        except ValueError:  # before the previous anchor
            at = block.ops.index(anchor)
        self.found[block] = at
        return at


@dataclass(frozen=True)
class _Settled:
    """How the full version settles an op: the common axes of each factor,
    per operand and result whether it is resharded to them, and the
    projection holding their shardings (read only from here on)."""

    common: list[Axes]
    operands: tuple[bool, ...]
    results: tuple[bool, ...]
    projection: ShardingProjection


class _OpSettlement:
    """Explicit reshards around one op, on the mesh `mesh_name`."""

    def __init__(
        self,
        owner: _FunctionPass,
        op: Op,
        rule: OpShardingRule,
        projection: ShardingProjection,
        in_shardings: list[TensorSharding | None],
        out_shardings: list[TensorSharding | None],
        mesh_name: str,
    ):
        self.owner = owner
        self.op = op
        self.rule = rule
        self.projection = projection
        self.in_shardings = in_shardings
        self.out_shardings = out_shardings
        self.mesh_name = mesh_name
        self.mesh: Mesh = owner.meshes[mesh_name]

    def _unproject(self, tensor: TensorFactorShardings, mapping) -> TensorSharding:
        return tensor.to_tensor_sharding(mapping, self.rule.factor_sizes, self.mesh_name, self.mesh)

    def operand_sharding(self, i: int) -> TensorSharding:
        return self._unproject(self.projection.operands[i], self.rule.operand_mappings[i])

    def result_sharding(self, i: int) -> TensorSharding:
        return self._unproject(self.projection.results[i], self.rule.result_mappings[i])

    def settle(self, sizes: Sequence[int]) -> _Settled:
        """The full version: the common axes of every factor of the op whose
        tensors have `sizes` elements, and which operands and results must be
        resharded to them (the projection updated to them; the IR is not
        touched: `reshard` makes the reshards)."""
        has_overflow = any(
            f.overflow_axes for t in self.projection.tensors for f in t.factors.values()
        )
        if has_overflow and self.op.name == "stablehlo.reshape":
            return self._settle_reshape_with_overflow()
        common = find_common_axes(self.projection, self.rule, list(sizes), self.mesh)
        updated_operands = tuple(_update(t, common) for t in self.projection.operands)
        updated_results = tuple(_update(t, common) for t in self.projection.results)
        return _Settled(common, updated_operands, updated_results, self.projection)

    def _settle_reshape_with_overflow(self) -> _Settled:
        """A reshape whose shardings overflow a factor: the axes of the more
        sharded side (the operand on a tie) are dealt again to the factors of
        each side, and both sides keep what they then agree on."""
        rule, mesh = self.rule, self.mesh
        operand, result = self.projection.operands[0], self.projection.results[0]
        best = operand if _sharding_size(operand, mesh) >= _sharding_size(result, mesh) else result
        all_axes: list[AxisRef] = []
        for f in range(rule.num_factors):
            if f in best.factors:
                all_axes.extend(best.factors[f].axes)
                all_axes.extend(best.factors[f].overflow_axes)
        for tensor, mapping in (
            (operand, rule.operand_mappings[0]),
            (result, rule.result_mappings[0]),
        ):
            factors = [f for dim in mapping for f in dim]
            shardings = [_dealt_afresh(tensor, f, mapping) for f in factors]
            sizes = [rule.factor_sizes[f] for f in factors]
            distribute_axes_across_factors(shardings, sizes, all_axes, mesh)
        agreed = ShardingProjection.build(
            [self.operand_sharding(0)], [self.result_sharding(0)], rule, mesh
        )
        common = greatest_common_prefix_axes(agreed, rule.num_factors)
        for tensor in self.projection.tensors:
            _update(tensor, common)
        return _Settled(
            common,
            (not is_equivalent(self.in_shardings[0], self.operand_sharding(0)),),
            (not is_equivalent(self.result_sharding(0), self.out_shardings[0]),),
            self.projection,
        )

    def reshard(self, updated_operands: Sequence[bool], updated_results: Sequence[bool]) -> None:
        """Reshards the flagged operands (and those on a mesh with another
        device order) to their projected sharding before the op; the flagged
        results take their projected sharding and are resharded back after."""
        op = self.op
        for i, sharding in enumerate(self.in_shardings):
            if updated_operands[i] or self.owner.needs_common_mesh(sharding, self.mesh):
                r = self.owner.positions.insert_before(
                    op, reshard(op.operands[i], self.operand_sharding(i))
                )
                op.set_operand(i, r.results[0])
        after = op
        for i, sharding in enumerate(self.out_shardings):
            if updated_results[i] or self.owner.needs_common_mesh(sharding, self.mesh):
                result = op.results[i]
                back = reshard(result, sharding or _closed(self.mesh_name, result))
                after = self.owner.positions.insert_after(after, back)
                replace_uses_except(result, back.results[0], back)
                set_sharding(result, self.result_sharding(i))

    def reshard_dot_result(self) -> None:
        """The limited version on a dot (Shardy's `processDot`): when lhs and
        rhs agree and the result differs from them on exactly one
        non-contracting or batching factor, sharded there along exactly the
        axes of the contracting factors, and is not larger than the operand it
        conflicts with, the result takes the operands' sharding of that factor
        and is resharded back."""
        op, rule = self.op, self.rule
        if not self.out_shardings or self.out_shardings[0] is None:
            return
        lhs, rhs = self.projection.operands[0], self.projection.operands[1]
        result = self.projection.results[0]
        lhs_size, rhs_size = (_num_elements(v) for v in op.operands[:2])
        result_size = _num_elements(op.results[0])
        conflicting: int | None = None
        conflicting_axes: list[AxisRef] = []
        reduction_axes: list[AxisRef] = []
        non_contracting: list[AxisRef] = []
        for f in range(rule.num_factors):
            lhs_axes = lhs.factors[f].axes if f in lhs.factors else None
            rhs_axes = rhs.factors[f].axes if f in rhs.factors else None
            if lhs_axes is not None and rhs_axes is not None:
                axes, max_size = lhs_axes, max(lhs_size, rhs_size)
                if lhs_axes != rhs_axes:
                    return
                if f in rule.reduction_factors:
                    reduction_axes.extend(axes)
                    continue
            else:
                axes = lhs_axes if lhs_axes is not None else rhs_axes
                max_size = lhs_size if lhs_axes is not None else rhs_size
                assert axes is not None
                for axis in axes:
                    if any(a.overlaps(axis) for a in non_contracting):
                        return
                    non_contracting.append(axis)
            if result.factors[f].axes != axes:
                if not axes or conflicting is not None or result_size > max_size:
                    return
                conflicting, conflicting_axes = f, list(axes)
        if conflicting is None:
            return
        result_axes = result.factors[conflicting].axes
        if not result_axes or result_axes != reduction_axes:
            return
        result.factors[conflicting].axes = conflicting_axes
        value = op.results[0]
        set_sharding(value, self.result_sharding(0))
        back = self.owner.positions.insert_after(op, reshard(value, self.out_shardings[0]))
        replace_uses_except(value, back.results[0], back)


def _update(tensor: TensorFactorShardings, common: Sequence[Axes]) -> bool:
    """Gives each factor of `tensor` its common axes (no overflow axes);
    returns whether any changed."""
    changed = False
    for f, sharding in tensor.factors.items():
        if tuple(sharding.axes) != tuple(common[f]) or sharding.overflow_axes:
            sharding.axes, sharding.overflow_axes = list(common[f]), []
            changed = True
    return changed


def _dealt_afresh(tensor: TensorFactorShardings, f: int, mapping: TensorMapping) -> FactorSharding:
    """Factor `f` of `tensor`, emptied so that axes can be dealt to it again.

    A projection has no entry for the factors of a dim that follow a factor
    with overflow axes (nothing may shard them); dealing the axes again makes
    each of them a candidate, so the missing ones are added, closed like
    their dim.
    """
    sharding = tensor.factors.get(f)
    if sharding is None:
        dim = next(d for d in mapping if f in d)
        sharding = tensor.factors[f] = FactorSharding(is_closed=True, is_minor_most=f == dim[-1])
    sharding.axes, sharding.overflow_axes = [], []
    return sharding


def _reduction_axes_kept_unreduced(
    op: Op, projection: ShardingProjection, rule: OpShardingRule
) -> list[AxisRef]:
    """The limited version's reduction axes: those of the operands' reduction
    factors, only when the result has unreduced axes (nothing otherwise)."""
    first = sharding_of(op.results[0]) if op.results else None
    if first is None or not first.unreduced:
        return []
    axes: list[AxisRef] = []
    for f in rule.reduction_factors:
        seen: list[AxisRef] | None = None
        for tensor in projection.operands:
            if f not in tensor.factors:
                continue
            if seen is None:
                seen = list(tensor.factors[f].axes)
            elif seen != tensor.factors[f].axes:
                raise ShardingError(
                    f"{op.name}: the result has unreduced axes while the operands are sharded "
                    "differently along a reduction factor"
                )
        axes.extend(seen or [])
    return axes


def _rule(op: Op) -> OpShardingRule | None:
    """The op's sharding rule when resharding applies to it (tensor operands
    and results, not a custom rule)."""
    if not all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
        return None
    try:
        rule = rule_for(op)
    except (ShardingError, KeyError):
        return None
    return None if rule is None or rule.is_custom else rule


def _on_full_version(op: Op) -> bool:
    """The ops the limited version settles as the full one does."""
    if op.name in ("mhlo.ragged_dot", "func.call"):
        return True
    if op.name == "stablehlo.concatenate":
        result = sharding_of(op.results[0])
        return any(sharding_of(v) != result for v in op.operands)
    return False


def _is_empty(mesh: Mesh) -> bool:
    return not mesh.axes and mesh.device_ids is None


def _num_elements(v: Value) -> int:
    """The number of elements of `v`'s tensor type (0 when not static)."""
    t = v.type
    if not isinstance(t, TensorType) or any(d is None or d < 0 for d in t.shape):
        return 0
    return math.prod(t.shape)


def _sharding_size(tensor: TensorFactorShardings, mesh: Mesh) -> int:
    return math.prod(
        a.size(mesh) for f in tensor.factors.values() for a in (*f.axes, *f.overflow_axes)
    )


def _rank(v: Value) -> int:
    return len(v.type.shape) if isinstance(v.type, TensorType) else 0


def _closed(mesh_name: str, v: Value) -> TensorSharding:
    return TensorSharding.replicated_on(mesh_name, _rank(v))
