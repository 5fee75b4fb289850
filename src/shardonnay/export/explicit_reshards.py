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
from dataclasses import dataclass, field, replace

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
from shardonnay.propagation.sharding_store import rule_look
from shardonnay.sharding import TensorSharding, TensorShardingPerValue
from shardonnay.sharding_rule import OpShardingRule, TensorMapping

__all__ = ["insert_explicit_reshards", "reshard_factors"]


def insert_explicit_reshards(module: Module, *, full_version: bool) -> Module:
    """Inserts, in place, the reshards and collectives that make every op's
    shardings compatible (see the module docstring); returns `module`."""
    # (the limited version changes only a few kinds of ops in a program
    # without unreduced axes: see `_FunctionPass.visit`)
    unreduced = full_version or _has_unreduced_axes(module)
    with building():  # the reshards it makes stay in the program: no cycles to collect
        for func in module.functions:
            if not func.is_declaration:
                _FunctionPass(module, func, full_version, unreduced=unreduced).run()
    return module


def _has_unreduced_axes(module: Module) -> bool:
    """Whether a sharding anywhere in `module` (an attribute of an op, or
    within one: a function's argument and result attributes) has unreduced
    axes."""
    seen: set[int] = set()  # the ids of the per-value shardings looked at (ops share them)

    def has(value: object) -> bool:
        if isinstance(value, TensorShardingPerValue):
            if id(value) in seen:
                return False
            seen.add(id(value))
            return any(s.unreduced for s in value.shardings)
        if isinstance(value, TensorSharding):
            return bool(value.unreduced)
        if isinstance(value, dict):
            return any(map(has, value.values()))
        if isinstance(value, (tuple, list)):
            return any(map(has, value))
        return False

    for op in module.walk():
        for value in op.attributes.values():
            if has(value):
                return True
    return False


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
    numbers = tuple(map(owner.number, (*in_shardings, *out_shardings)))
    mesh_name = owner._common_mesh_name(numbers, in_shardings, out_shardings)
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
    def __init__(
        self, module: Module, func: Func | None, full_version: bool, *, unreduced: bool = True
    ):
        self.module = module
        self.meshes: dict[str, Mesh] = module.meshes
        self.func = func
        self.full_version = full_version
        # False: no sharding of the module has unreduced axes (nor will any
        # value an op other than a call, return or data-flow op uses)
        self.unreduced = unreduced
        # the full version's settlement of an op, by what it depends on (`_settle`)
        self.settled: dict[tuple, _Settled] = {}
        # the limited version's new sharding of a dot's result, likewise (`_reshard_dot`)
        self.dot_results: dict[tuple, TensorSharding | None] = {}
        self.signatures: dict[tuple, _Signature] = {}  # see `signature`
        self.kinds: dict[str, int] = {}  # see `_kind`
        self.positions = _Positions()
        self.number = _Numbers()  # of shardings and rules, for the keys of what they decide
        self.common_meshes: dict[tuple[int, ...], str | None] = {}  # see `_common_mesh_name`
        # The shardings of the results of the ops visited, as their visit
        # left them (an op's visit is the last to change its results'
        # shardings): the shardings of their users' operands (`_shardings`).
        self.result_shardings: dict[Value, TensorSharding | None] = {}

    def run(self) -> None:
        assert self.func is not None  # (None only for `reshard_factors`, which settles one op)
        kinds = self.kinds
        for op in self.func.body.walk_post_order():
            kind = kinds.get(op.name)
            if kind is None:
                kind = kinds[op.name] = _kind(op.name)
            if kind != _TERMINATOR:
                self.visit(op, kind)
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

    def visit(self, op: Op, kind: int) -> None:
        """Settles `op`, of kind `kind` (`_kind`).

        An op with a rule is settled from its signature and shardings
        alone, worked out once for each (`_settle`): most ops of a program
        need nothing, and the many alike just look that up."""
        if kind == _EDGES:
            for target, sources in edge_sources(op):
                for user, index in sources:
                    self.reshard_operand(
                        user, index, target, after_operand=True, full=self.full_version
                    )
            return
        if kind == _CALL:
            self._visit_call(op, full=True)
            return
        if kind == _RESHARD and reshard_to_unreduced_collectives(op, self.meshes):
            return
        is_dot = _is_dot(op.name)
        if not self.unreduced and not is_dot and not _may_settle_fully(op.name):
            return  # (the limited version: nothing to all-reduce, no dot, as below)
        in_shardings = self._shardings(op.operands)
        out_shardings = [sharding_of(v) for v in op.results]
        self.result_shardings.update(zip(op.results, out_shardings, strict=True))
        full = self.full_version or _on_full_version(op, in_shardings, out_shardings)
        if not out_shardings or any(s is not None and s.unreduced for s in in_shardings):
            all_reduce_operands(op, self.meshes)
            in_shardings = self._shardings(op.operands)
        first = out_shardings[0] if out_shardings else None
        if not full and not is_dot and (first is None or not first.unreduced):
            return  # (the limited version changes nothing else: see below)
        signature = self.signature(op)
        if signature.rule is None:
            return
        shardings = tuple(map(self.number, (*in_shardings, *out_shardings)))
        mesh_name = self._common_mesh_name(shardings, in_shardings, out_shardings)
        if mesh_name is None:
            return
        rule = signature.rule
        key = (signature.number, shardings)
        if full:
            settled = self.settled.get(key)
            if settled is None:
                settled = self.settled[key] = self._settle(
                    op, signature, in_shardings, out_shardings, mesh_name
                )
            if not settled.in_place:
                settle = _OpSettlement(
                    self, op, rule, settled.projection, in_shardings, out_shardings, mesh_name
                )
                settle.reshard(settled.operands, settled.results)
                self._forget_results(op)
            reduction_axes = settled.reduction_axes
        else:
            if is_dot:
                self._reshard_dot(op, key, signature, in_shardings, out_shardings, mesh_name)
            reduction_axes = []
            first = sharding_of(op.results[0]) if op.results else None
            if first is not None and first.unreduced:
                projection = ShardingProjection.build(
                    in_shardings,
                    out_shardings,
                    rule,
                    self.meshes[mesh_name],
                    closed_if_missing=True,
                )
                reduction_axes = _reduction_axes_kept_unreduced(op, projection, rule)
        self._all_reduce_results(op, reduction_axes, mesh_name, self.meshes[mesh_name])

    def _settle(
        self,
        op: Op,
        signature: _Signature,
        in_shardings: list[TensorSharding | None],
        out_shardings: list[TensorSharding | None],
        mesh_name: str,
    ) -> _Settled:
        """The full version's settlement of `op` (`_OpSettlement.settle`).
        What to reshard depends only on the op's signature (name, rule,
        tensor sizes), shardings and mesh: the caller works it out once for
        each (a layer stack repeats an op with the same shardings thousands
        of times) and makes the reshards for every op."""
        settlement = self._settlement(op, signature, in_shardings, out_shardings, mesh_name)
        return settlement.settle(signature.sizes)

    def _settlement(
        self,
        op: Op,
        signature: _Signature,
        in_shardings: list[TensorSharding | None],
        out_shardings: list[TensorSharding | None],
        mesh_name: str,
    ) -> _OpSettlement:
        """`op`'s shardings projected through its rule, to be settled."""
        assert signature.rule is not None
        projection = ShardingProjection.build(
            in_shardings,
            out_shardings,
            signature.rule,
            self.meshes[mesh_name],
            closed_if_missing=True,
        )
        return _OpSettlement(
            self, op, signature.rule, projection, in_shardings, out_shardings, mesh_name
        )

    def _reshard_dot(
        self,
        op: Op,
        key: tuple,
        signature: _Signature,
        in_shardings: list[TensorSharding | None],
        out_shardings: list[TensorSharding | None],
        mesh_name: str,
    ) -> None:
        """The limited version on a dot (`_OpSettlement.dot_result_sharding`),
        worked out once for each signature and shardings: the result takes
        its new sharding, if any, and is resharded back after the dot."""
        if key in self.dot_results:
            sharding = self.dot_results[key]
        else:
            settlement = self._settlement(op, signature, in_shardings, out_shardings, mesh_name)
            sharding = self.dot_results[key] = settlement.dot_result_sharding(signature.sizes)
        if sharding is None:
            return
        original = out_shardings[0]
        assert original is not None
        value = op.results[0]
        set_sharding(value, sharding)
        self._forget_results(op)
        back = self.positions.insert_after(op, reshard(value, original))
        replace_uses_except(value, back.results[0], back)

    def _shardings(self, values: Sequence[Value]) -> list[TensorSharding | None]:
        """The shardings of `values` (`sharding_of`), those of the results of
        the ops visited as known."""
        known = self.result_shardings
        shardings: list[TensorSharding | None] = []
        for v in values:
            s = known.get(v, _UNKNOWN)
            shardings.append(sharding_of(v) if s is _UNKNOWN else s)  # type: ignore[arg-type]
        return shardings

    def _forget_results(self, op: Op) -> None:
        """Forgets the shardings of `op`'s results (its visit changed them:
        giving one a sharding may give the others open ones)."""
        for r in op.results:
            self.result_shardings.pop(r, None)

    # -- rules ----------------------------------------------------------------------------

    def signature(self, op: Op) -> _Signature:
        """`op`'s rule (`_rule`) and tensor sizes, worked out once for the
        ops of one look (`rule_look`)."""
        look = rule_look(op)
        if look is None:
            return self._new_signature(op)
        signature = self.signatures.get(look)
        if signature is None:
            signature = self.signatures[look] = self._new_signature(op)
        return signature

    def _new_signature(self, op: Op) -> _Signature:
        rule = _rule(op)
        sizes = tuple(_num_elements(v) for v in (*op.operands, *op.results))
        number = self.number((op.name, self.number(rule), len(op.operands), sizes))
        return _Signature(rule, sizes, number, op)

    # -- meshes ---------------------------------------------------------------------------

    def _common_mesh_name(
        self,
        numbers: tuple[int, ...],
        in_shardings: Sequence[TensorSharding | None],
        out_shardings: Sequence[TensorSharding | None],
    ) -> str | None:
        """The mesh all shardings agree on, axes-wise (meshes without axes
        aside), and among those of the sharded ones the most used; None when
        none has a sharding, two meshes differ or the mesh is maximal. Worked
        out once for each list of shardings (`numbers`, their numbers)."""
        try:
            return self.common_meshes[numbers]
        except KeyError:
            name = self._find_common_mesh_name([*in_shardings, *out_shardings])
            self.common_meshes[numbers] = name
            return name

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
class _Signature:
    """What an op's settlement depends on besides its shardings: its sharding
    rule (None: none applies, see `_rule`) and the number of elements of
    each operand and result. `number` stands for them (with the op's name
    and operand count) in the keys of what is decided; `op`, one op they
    were worked out for, keeps alive the objects whose identities key them."""

    rule: OpShardingRule | None
    sizes: tuple[int, ...]
    number: int
    op: Op


@dataclass(frozen=True)
class _Settled:
    """How the full version settles an op: the common axes of each factor,
    per operand and result whether it is resharded to them, and the
    projection holding their shardings (read only from here on).
    `in_place`: nothing is resharded (no operand or result is flagged or on
    a mesh with another device order); `reduction_axes`: those of the common
    axes of the reduction factors (the results are all-reduced over them)."""

    common: list[Axes]
    operands: tuple[bool, ...]
    results: tuple[bool, ...]
    projection: ShardingProjection
    in_place: bool = False
    reduction_axes: list[AxisRef] = field(default_factory=list)


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
        return self._settled(_Settled(common, updated_operands, updated_results, self.projection))

    def _settled(self, settled: _Settled) -> _Settled:
        """`settled` with its `in_place` and `reduction_axes` worked out."""
        needs_common_mesh = self.owner.needs_common_mesh
        in_place = not (
            any(settled.operands)
            or any(settled.results)
            or any(needs_common_mesh(s, self.mesh) for s in self.in_shardings)
            or any(needs_common_mesh(s, self.mesh) for s in self.out_shardings)
        )
        reduction_axes = [a for f in self.rule.reduction_factors for a in settled.common[f]]
        return replace(settled, in_place=in_place, reduction_axes=reduction_axes)

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
        return self._settled(
            _Settled(
                common,
                (not is_equivalent(self.in_shardings[0], self.operand_sharding(0)),),
                (not is_equivalent(self.result_sharding(0), self.out_shardings[0]),),
                self.projection,
            )
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

    def dot_result_sharding(self, sizes: Sequence[int]) -> TensorSharding | None:
        """The limited version on a dot (Shardy's `processDot`) whose tensors
        have `sizes` elements: when lhs and rhs agree and the result differs
        from them on exactly one non-contracting or batching factor, sharded
        there along exactly the axes of the contracting factors, and is not
        larger than the operand it conflicts with, the result takes the
        operands' sharding of that factor (returned; the caller reshards it
        back); None otherwise."""
        rule = self.rule
        if not self.out_shardings or self.out_shardings[0] is None:
            return None
        lhs, rhs = self.projection.operands[0], self.projection.operands[1]
        result = self.projection.results[0]
        lhs_size, rhs_size = sizes[0], sizes[1]
        result_size = sizes[len(self.in_shardings)]
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
                    return None
                if f in rule.reduction_factors:
                    reduction_axes.extend(axes)
                    continue
            else:
                axes = lhs_axes if lhs_axes is not None else rhs_axes
                max_size = lhs_size if lhs_axes is not None else rhs_size
                assert axes is not None
                for axis in axes:
                    if any(a.overlaps(axis) for a in non_contracting):
                        return None
                    non_contracting.append(axis)
            if result.factors[f].axes != axes:
                if not axes or conflicting is not None or result_size > max_size:
                    return None
                conflicting, conflicting_axes = f, list(axes)
        if conflicting is None:
            return None
        result_axes = result.factors[conflicting].axes
        if not result_axes or result_axes != reduction_axes:
            return None
        result.factors[conflicting].axes = conflicting_axes
        return self.result_sharding(0)


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


def _on_full_version(
    op: Op,
    in_shardings: Sequence[TensorSharding | None],
    out_shardings: Sequence[TensorSharding | None],
) -> bool:
    """The ops the limited version settles as the full one does (calls aside:
    see `_kind`), given their operands' and results' shardings."""
    if op.name == "stablehlo.concatenate":
        return any(s != out_shardings[0] for s in in_shardings)
    return op.name == "mhlo.ragged_dot"


def _may_settle_fully(name: str) -> bool:
    """Whether `_on_full_version` may hold for ops named `name`."""
    return name in ("stablehlo.concatenate", "mhlo.ragged_dot")


def _is_dot(name: str) -> bool:
    """Whether ops named `name` are dots, whose result the limited version
    may reshard (`_OpSettlement.dot_result_sharding`)."""
    return name in ("stablehlo.dot", "stablehlo.dot_general")


# (a sharding not known yet: `_FunctionPass._shardings`)
_UNKNOWN = object()

# What an op is to the pass (`_kind`): a terminator (left to its parent, or
# to the return's own visit), an op whose data-flow edges are settled
# (`stablehlo.if` ties no values while propagating, as in Shardy, but its
# branches must return its results' shardings, as a `case`'s do), a call
# (which the limited version too settles as the full one does), an
# `sdy.reshard`, any other op.
_TERMINATOR, _EDGES, _CALL, _RESHARD, _OTHER = range(5)


def _kind(name: str) -> int:
    """The kind of the ops named `name` (it depends on their traits alone)."""
    if has_trait(name, TERMINATOR):
        return _TERMINATOR
    if has_trait(name, DATA_FLOW) or name == "stablehlo.if":
        return _EDGES
    if name == "func.call":
        return _CALL
    return _RESHARD if name == "sdy.reshard" else _OTHER


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
