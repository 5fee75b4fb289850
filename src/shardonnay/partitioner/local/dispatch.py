"""Which lowering each op of the global program gets on local values: one table.

`convert_global_to_local` walks the program and handles what concerns values
(their local types, pending reductions, pinned values, control flow, calls;
it tells those ops apart by their traits, `shardonnay.ops.traits`); every
other op is computed per device as its row of `LOWERINGS` says. That table
is the one table of op names in the partitioner: an op kind's partitioning
is its row, nowhere else. A row (`Lowering`) names the functions that lower
the op and the conditions under which each applies; `lower_op` tries them in
this order:

  1. `any_shards`: a lowering for any shards (iota, constants, reductions and
     dots, which mask the padding of reduced dims; Shardy's collectives);
  2. `even`: where every dim's shards are even and no two tensors shard a
     factor differently, Shardy's local form of the op;
  3. `whole_unless_even`: otherwise the op is computed whole (its attributes
     are ones a factor plan cannot keep);
  4. `cheaper`: where the op's factor plan moves data, a lowering that moves
     less (halo exchanges, masked updates, prefix scans, merged top-k);
  5. the generic lowering, for every op without a row too: the factor plan
     (`local.factors.lower_with_plan`): gather the dims that move data, run
     the op on them whole, slice the results back.

A lowering of steps 2 and 4 that raises `PartitionError` leaves no op behind
(`LocalContext.rollback_on`) and the next step runs. An op whose tensors are
split on several meshes runs elementwise across them
(`local.moves.elementwise_across_meshes`) or else whole.

The contract of a lowering function `lower(ctx, op, operands, regions)`:
`op` is the op of the global program (the shardings of its values through
`ctx.sharding`/`ctx.sharded_axes`), `operands` the local values of its
operands (pending reductions done, but for a row with `takes_partial`),
`regions` its regions already converted to local types; it builds the local
ops with `ctx` at the insertion point and returns the local values of `op`'s
results, noting in `ctx.partial` those left partial (a sum still to do).

To give an op kind a partitioning of its own: write the function (in
`partitioner/local/ops/<kind>.py` for an op family, e.g. `ops/positional.py`,
`ops/indexing.py`, `ops/reduce.py`, `ops/halo.py`) and add its row. For
example, on `<["x"=4]>`, `stablehlo.slice %x [1:8]` of `tensor<8xf32>` sharded
`[{"x"}]` has the row `Lowering(even=local_ops.slice_, cheaper=halo)`: the
result's 7 elements do not split evenly over 4 devices, so step 2 is skipped;
the slice's factor plan is not local (the result's shard 0 reads element 2
from shard 1), and `halo` moves less than gathering: each device receives one
element from its right neighbour (see `halo.exchange`). Had `halo` raised
(say, the operand and the result sharding the dim differently), the plan
would gather the dim, slice it whole and slice the result back to its shards.

>>> LOWERINGS["stablehlo.slice"].even is local_ops.slice_
True
>>> lowering_of("stablehlo.add") is GENERIC
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from operator import attrgetter

from shardonnay.collectives.attributes import AllToAllParamList, AxisRefList, ListOfAxisRefLists
from shardonnay.errors import PartitionError
from shardonnay.ir.attributes import (
    DenseArrayAttr,
    DenseElementsAttr,
    EnumAttr,
    IntegerAttr,
    NoExactKey,
    StructAttr,
    exact_key,
)
from shardonnay.ir.core import Block, Op, Region, Value
from shardonnay.ir.types import TensorType, Type
from shardonnay.layout import equivalent
from shardonnay.mesh import Mesh
from shardonnay.ops.rules import rule_for
from shardonnay.partitioner.local import collectives as local_collectives
from shardonnay.partitioner.local.context import LocalContext, Partial
from shardonnay.partitioner.local.factors import (
    is_even,
    lower_with_plan,
    merged,
    plan_factors,
    planned_attributes,
    pointwise_rule,
    rule_of,
    whole_plan,
)
from shardonnay.partitioner.local.layout import sharding_on
from shardonnay.partitioner.local.moves import elementwise_across_meshes
from shardonnay.partitioner.local.ops import indexing as local_indexing
from shardonnay.partitioner.local.ops import positional as local_ops
from shardonnay.partitioner.local.ops import reduce as local_reduce
from shardonnay.partitioner.local.ops.halo import halo, masked_update
from shardonnay.sharding import TensorSharding, TensorShardingPerValue
from shardonnay.sharding_rule import OpShardingRule

Lower = Callable[[LocalContext, Op, list[Value], list[Region]], list[Value]]


@dataclass(frozen=True)
class Lowering:
    """How one op kind is computed per device (a row of `LOWERINGS`; see the
    module docstring for the steps and the contract of each function).

    `takes_partial`: the op combines pending reductions itself, so its
    operands come as they are, partial; `makes_unreduced`: the op turns its
    operand into partial terms along new unreduced axes (the walker does it,
    `convert_global_to_local`); `reads_program`: its lowering looks past the
    op's own values (at the ops defining its operands or using its results),
    so ops that look alike may lower differently (`LoweredOps` lowers each
    one afresh); `reads_constants`: what it reads past the op's own values
    and regions is only the literals of its operands defined by constants
    (`LoweredOps` copies its lowering for an op alike, literals and regions
    included)."""

    any_shards: Lower | None = None
    even: Lower | None = None
    whole_unless_even: bool = False
    cheaper: Lower | None = None
    takes_partial: bool = False
    makes_unreduced: bool = False
    reads_program: bool = False
    reads_constants: bool = False


GENERIC = Lowering()  # the factor plan


def _collective(lower: Callable[[LocalContext, Op, Value], Value]) -> Lower:
    """An sdy collective that moves data: `lower` of its operand, or the
    operand itself where the value is on a mesh of one device."""

    def lowered(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
        if ctx.sharding(op.results[0]) is None and ctx.sharding(op.operands[0]) is None:
            return [operands[0]]
        return [lower(ctx, op, operands[0])]

    return lowered


def _reducing(lower: Callable[[LocalContext, Op, Value], Value]) -> Lower:
    """An sdy collective that combines pending reductions of its operand."""

    def lowered(ctx: LocalContext, op: Op, operands, regions) -> list[Value]:
        return [lower(ctx, op, operands[0])]

    return lowered


def _collective_permute(ctx: LocalContext, op: Op, x: Value) -> Value:
    """A collective_permute may move the value to a mesh of the same devices
    in another order: each side on its own mesh, device ids from its
    device_ids; nothing where both sides lay the value out alike."""
    operand, result = op.operands[0], op.results[0]
    source = sharding_on(ctx.sharded_axes(operand), ctx.mesh_of(operand))
    target = sharding_on(ctx.sharded_axes(result), ctx.mesh_of(result))
    if equivalent(source, target, None, operand.type.shape):
        return x
    return local_collectives.collective_permute(ctx, op, x, source, target)


#: The partitioner's one table of op names: each op kind with a lowering of
#: its own; every other op gets `GENERIC`.
LOWERINGS: dict[str, Lowering] = {
    # any shards
    "stablehlo.iota": Lowering(any_shards=local_ops.iota),
    "sdy.constant": Lowering(any_shards=local_ops.constant),
    "stablehlo.constant": Lowering(any_shards=local_ops.constant),
    "stablehlo.reduce": Lowering(any_shards=local_reduce.reduce, reads_constants=True),
    "stablehlo.dot_general": Lowering(any_shards=local_reduce.dot_general),
    # Shardy's local forms, where even; where they raise, the plan (or a cheaper way)
    "stablehlo.slice": Lowering(even=local_ops.slice_, cheaper=halo),
    "stablehlo.pad": Lowering(even=local_ops.pad, cheaper=halo),
    "stablehlo.concatenate": Lowering(even=local_ops.concatenate, cheaper=halo),
    "stablehlo.reverse": Lowering(even=local_ops.reverse, cheaper=halo),
    "stablehlo.sort": Lowering(even=local_ops.sort),
    "chlo.top_k": Lowering(even=local_ops.top_k, cheaper=local_reduce.merged_top_k),
    "stablehlo.dynamic_slice": Lowering(even=local_ops.dynamic_slice),
    "stablehlo.dynamic_update_slice": Lowering(
        even=local_ops.dynamic_update_slice, cheaper=masked_update
    ),
    "stablehlo.reduce_window": Lowering(
        even=local_ops.windowed, cheaper=local_reduce.prefix_scan, reads_program=True
    ),
    "stablehlo.select_and_scatter": Lowering(even=local_ops.windowed),
    "stablehlo.map": Lowering(even=local_ops.localize),  # elementwise, with no sharding rule
    # attributes a factor plan cannot keep: computed whole unless even
    "stablehlo.get_dimension_size": Lowering(
        even=local_ops.get_dimension_size, whole_unless_even=True
    ),
    "stablehlo.rng": Lowering(even=local_ops.random, whole_unless_even=True),
    "stablehlo.rng_bit_generator": Lowering(even=local_ops.random, whole_unless_even=True),
    "stablehlo.convolution": Lowering(even=local_ops.convolution, whole_unless_even=True),
    "stablehlo.gather": Lowering(
        even=local_indexing.gather, whole_unless_even=True, reads_program=True
    ),
    "stablehlo.scatter": Lowering(even=local_indexing.scatter, whole_unless_even=True),
    # Shardy's collectives: StableHLO collectives on device ids
    "sdy.all_gather": Lowering(any_shards=_collective(local_collectives.all_gather)),
    "sdy.all_slice": Lowering(any_shards=_collective(local_collectives.all_slice)),
    "sdy.all_to_all": Lowering(any_shards=_collective(local_collectives.all_to_all)),
    "sdy.collective_permute": Lowering(any_shards=_collective(_collective_permute)),
    "sdy.all_reduce": Lowering(
        any_shards=_reducing(local_collectives.all_reduce), takes_partial=True
    ),
    "sdy.reduce_scatter": Lowering(
        any_shards=_reducing(local_collectives.reduce_scatter), takes_partial=True
    ),
    "sdy.replicated_to_unreduced": Lowering(makes_unreduced=True),
    "sdy.sharded_to_unreduced": Lowering(makes_unreduced=True),
}


def lowering_of(op: Op | str) -> Lowering:
    """The row of `op` (or of an op name) in `LOWERINGS`, `GENERIC` if it has none."""
    return LOWERINGS.get(op if isinstance(op, str) else op.name, GENERIC)


def lower_op(
    ctx: LocalContext, op: Op, operands: list[Value], regions: list[Region]
) -> list[Value]:
    """An op of the program on local values, as its row of `LOWERINGS` says
    (see the module docstring)."""
    row = lowering_of(op)
    meshes = {ctx.mesh_of(v) for v in (*op.operands, *op.results) if ctx.sharding(v)}
    if len(meshes) > 1:
        lowered = elementwise_across_meshes(ctx, op, operands)
        if lowered is not None:
            return lowered
        return lower_with_plan(ctx, op, operands, regions, whole_plan(ctx, op))
    if row.any_shards is not None:
        return row.any_shards(ctx, op, operands, regions)
    if row.even is not None and is_even(ctx, op) and _factors_agree(ctx, op):
        try:
            with ctx.rollback_on(PartitionError):
                return row.even(ctx, op, operands, regions)
        except PartitionError:
            pass
    if row.whole_unless_even:
        return lower_with_plan(ctx, op, operands, regions, whole_plan(ctx, op))
    plan = plan_factors(ctx, op, rule_of(op))
    if row.cheaper is not None and not plan.is_local:
        try:
            with ctx.rollback_on(PartitionError):
                return row.cheaper(ctx, op, operands, regions)
        except PartitionError:
            pass
    return lower_with_plan(ctx, op, operands, regions, plan, planned_attributes(ctx, op, plan))


def _factors_agree(ctx: LocalContext, op: Op) -> bool:
    """Whether no two tensors of `op` shard one factor of its rule
    differently (checked where a dim is that factor alone)."""
    rule = rule_for(op) or pointwise_rule(op)
    if rule is None:
        return not any(
            any(ctx.sharded_axes(v))
            for v in (*op.operands, *op.results)
            if isinstance(v.type, TensorType)
        )
    seen: dict[int, tuple] = {}
    values = (*op.operands, *op.results)
    mappings = (*rule.operand_mappings, *rule.result_mappings)
    for value, mapping in zip(values, mappings, strict=True):
        if not isinstance(value.type, TensorType):
            continue
        axes = ctx.sharded_axes(value)
        for dim, factors in enumerate(mapping):
            if len(factors) != 1 or rule.factor_sizes[factors[0]] != value.type.shape[dim]:
                continue
            if seen.setdefault(factors[0], merged(axes[dim], ctx.mesh)) != merged(
                axes[dim], ctx.mesh
            ):
                return False
    return True


def _lower_plain(ctx: LocalContext, op: Op, operands: list[Value]) -> list[Value]:
    return lower_op(ctx, op, operands, [])


def lower_collective(ctx: LocalContext, op: Op, x: Value) -> Value:
    """An sdy collective (other than the `*_to_unreduced` marks) on local `x`:
    a StableHLO collective (`local.collectives`), or `x` itself where it
    moves nothing; by its row of `LOWERINGS`."""
    (result,) = lowering_of(op).any_shards(ctx, op, [x], [])
    return result


def _lower_collective(ctx: LocalContext, op: Op, operands: list[Value]) -> list[Value]:
    return [lower_collective(ctx, op, operands[0])]


# -- ops that look alike lower alike -------------------------------------------------------------


@dataclass(frozen=True)
class _Template:
    """What lowering one op emitted: its local `operands`, the `ops` placed
    after them (in the program being built), the local `results`, the
    pending reductions left on its results, and the channel ids its
    collectives took (`channels` of them from `first_channel`); `located`:
    per op, whether it carries the lowered op's location.

    How a copy is made (`_instantiate`): the values a copy reads, in order,
    are its operands, then the results of each op it has made; `reads`
    gives, per op, the places of its operands among them (None for an op
    that is cloned: one with attributes its copies may not share, or with
    regions `_body` does not describe), `types` its result types, `bodies`
    its regions (`_body`), `made` the places of the results."""

    mesh: Mesh
    operands: tuple[Value, ...]
    ops: tuple[Op, ...]
    located: tuple[bool, ...]
    results: tuple[Value, ...]
    partial: tuple[Partial | None, ...]
    first_channel: int
    channels: int
    reads: tuple[tuple[int, ...] | None, ...]
    types: tuple[tuple[Type, ...], ...]
    bodies: tuple[tuple[_Body, ...], ...]
    made: tuple[int, ...]
    any_partial: bool
    # one op of no regions, no channel, no pending reduction on the results, and
    # those its results: (name, reads or None where it reads the operands in
    # order, result types, attributes, location or None where it takes the
    # lowered op's, inherent attributes, whether it does)
    single: tuple | None


class LoweredOps:
    """`lower_op` for one conversion, done once per kind of op: a program
    repeats an op with the same shardings thousands of times (a layer
    stack), and what a lowering emits depends only on the op's name,
    attributes, operand and result types and shardings, which of its operands
    are the same value, whether it has a location, and the mesh it runs on
    (`ctx.mesh`) -- except for ops with regions and rows that `reads_program`,
    which are lowered afresh; for the sdy collectives (`lower_collective`),
    which combine pending reductions, the pending reduction of each operand
    counts too. Every other op is lowered once per such key;
    the next op with that key gets a copy of the ops emitted then (on its own
    operands, with its location and fresh channel ids) and the same pending
    reductions on its results."""

    def __init__(self) -> None:
        self._templates: dict[tuple, _Template | None] = {}
        self._kinds: dict[tuple, int] = {}  # (type, sharding) -> a small number
        self._kind_of: dict[Value, int] = {}  # global values -> their kind
        # (ids of a type and a sharding object) -> both objects (kept: their ids are not
        # reused) and the kind: values share a few type and sharding objects, looked up
        # without hashing them
        self._kind_of_object: dict[tuple, tuple[object, TensorSharding | None, int]] = {}
        self._attributes: dict[Hashable, int] = {}  # `exact_key`s -> a small number
        self._attribute_of_object: dict[int, tuple[object, int]] = {}  # alike, by id
        # `_look`: what ops are (but for their values) -> a small number, and `_key`'s
        # looks of them -> that number and their attribute values
        self._numbers: dict[tuple, int] = {}
        self._looks: dict[tuple, tuple[int, tuple]] = {}
        self._kept: list[tuple] = []  # the attribute values of `_looks`
        # the same by the contents of the attributes (`_content`) and the result types
        self._alike: dict[tuple, tuple[int, tuple]] = {}
        self._partials: dict[Partial, int] = {}  # pending reductions -> a small number
        self._partial_of_object: dict[int, tuple[Partial, int]] = {}  # alike, by id

    def lower(self, ctx: LocalContext, op: Op, operands: list[Value]) -> list[Value]:
        """`lower_op(ctx, op, operands, [])` for an op without regions."""
        return self._lowered(ctx, op, operands, _lower_plain, _lower_plain)

    def lower_with_regions(
        self,
        ctx: LocalContext,
        op: Op,
        operands: list[Value],
        regions: Callable[[], list[Region]],
    ) -> list[Value]:
        """`lower_op(ctx, op, operands, regions())` for an op with regions, whose
        `regions()` converts them (not called where a copy serves): ops alike
        (`reads_constants` rows) also have regions alike, op for op
        (`_regions_key`), and constant operands of the same literals."""
        if not lowering_of(op).reads_constants:
            return lower_op(ctx, op, operands, regions())

        def lower(ctx: LocalContext, op: Op, operands: list[Value]) -> list[Value]:
            return lower_op(ctx, op, operands, regions())

        return self._lowered(ctx, op, operands, lower, lower_op)

    def lower_collective(self, ctx: LocalContext, op: Op, x: Value) -> Value:
        """`lower_collective(ctx, op, x)`, with the pending reduction of `op`'s
        operand (`ctx.partial`) a part of what makes ops alike."""
        (result,) = self._lowered(ctx, op, [x], _lower_collective, _lower_collective)
        return result

    def _lowered(
        self,
        ctx: LocalContext,
        op: Op,
        operands: list[Value],
        lower: Callable[[LocalContext, Op, list[Value]], list[Value]],
        how: Callable,
    ) -> list[Value]:
        """`lower(ctx, op, operands)`, or a copy of what it emitted for an op
        alike; `how`: the function `lower` stands for (a part of the key)."""
        key = self._key(ctx, op, how, LOWERINGS.get(op.name, GENERIC))
        if key is None:
            return lower(ctx, op, operands)
        template = self._templates.get(key, _MISSING)
        if template is _MISSING:
            block = ctx.builder.insertion_block
            before, channel = len(block.ops), ctx.next_channel
            results = lower(ctx, op, operands)
            self._templates[key] = _template(
                ctx, op, operands, block.ops[before:], results, channel
            )
            return results
        if template is None or template.mesh is not ctx.mesh:
            return lower(ctx, op, operands)
        return _instantiate(ctx, template, op, operands)

    def _key(self, ctx: LocalContext, op: Op, how: Callable, row: Lowering) -> tuple | None:
        """What makes ops alike (see the class docstring), None where `op` is
        lowered afresh; `how`: the lowering function, `row`: `op`'s row."""
        if row.reads_program or (op.regions and not row.reads_constants):
            return None
        attributes = op.attributes
        results = op.results
        # what the op is, but for its operands and regions: its name, inherent
        # attributes, whether it has a location, its attributes and the types
        # of its results (the same objects: a program shares a few among
        # thousands of ops), which tell the shardings of its results too
        look = (
            op.name, op.inherent, op.location is None, *attributes,
            *map(id, attributes.values()), *map(id, map(_TYPE, results)),
        )  # fmt: skip
        known = self._looks.get(look)
        if known is None:
            try:  # (ops of fresh attribute objects alike: the sdy collectives reshards leave)
                alike = (
                    op.name, op.inherent, op.location is None, *attributes,
                    *map(_content, attributes.values()), *map(_TYPE, results),
                )  # fmt: skip
            except NoExactKey:
                return None
            known = self._alike.get(alike)
            if known is None:
                known = self._look(ctx, op, look)
                if known is None:
                    return None
                self._alike[alike] = known
        number, kinds_of_results = known
        # (the results' kinds, for the ops reading them)
        if len(results) == 1:
            self._kind_of[results[0]] = kinds_of_results[0]
        else:
            self._kind_of.update(zip(results, kinds_of_results, strict=True))
        if op.regions:
            try:
                regions = self._regions_key(op)
            except NoExactKey:
                return None
            if regions is None:
                return None
        else:
            regions = ()
        values = op.operands
        key: list = [number, id(ctx.mesh), how, len(values), *kinds_of_results]
        kinds = [*map(self._kind_of.get, values)]
        if None in kinds:
            kinds = [self._kind(v, ctx.sharding) for v in values]
        key += kinds
        if len(values) == 2:  # which operands are the same value
            key.append(values[0] is values[1])
        elif len(values) > 2:
            key.append(tuple([values.index(v) for v in values]))
        if row.takes_partial:  # the pending reductions of the operands, which it combines
            pending = ctx.partial.get
            key.append(tuple([self._partial(pending(v)) for v in values]))
        key.append(regions)
        if row.reads_constants:
            key.append(tuple([self._literal(v) for v in values]))
        return tuple(key)

    def _look(self, ctx: LocalContext, op: Op, look: tuple) -> tuple[int, tuple] | None:
        """A number per op name, inherent attributes, presence of a location and
        attributes (`exact_key`s) and result count, and the kinds of `op`'s
        results; None where an attribute has no key. Kept by `look` (`_key`)
        where every attribute value is immutable (the values kept too, so that
        their ids are not reused; the results' types are the global program's)."""
        attribute = self._attribute
        try:
            attributes = tuple([(k, attribute(v)) for k, v in op.attributes.items()])
        except NoExactKey:
            return None
        number = self._numbers.setdefault(
            (op.name, op.inherent, op.location is None, attributes, len(op.results)),
            len(self._numbers),
        )
        known = (number, tuple([self._kind(r, ctx.sharding) for r in op.results]))
        values = tuple(op.attributes.values())
        if all(id(v) in self._attribute_of_object for v in values):  # (all immutable)
            self._looks[look] = known
            self._kept.append(values)
        return known

    def _literal(self, value: Value) -> Hashable:
        """The literal of a value a constant op defines (None for other values)."""
        op = value.op
        if op is None or op.name not in ("stablehlo.constant", "sdy.constant"):
            return None
        return self._attribute(op.attributes["value"])

    def _regions_key(self, op: Op) -> tuple | None:
        """`op`'s regions op for op (names, attributes, types, locations,
        operands by their place), None where an op in them reads a value
        from outside them; `NoExactKey` propagates."""
        key: list = []
        return tuple(key) if self._add_regions(op.regions, {}, key) else None

    def _add_regions(self, regions: list[Region], places: dict[Value, int], key: list) -> bool:
        """`_regions_key` of `regions` added to `key` (`places`: the values
        defined in them so far, numbered); False where an op reads a value
        from outside them. (A method, not a closure calling itself: that
        would be a cycle of references, left for the collector.)"""
        attribute = self._attribute
        for region in regions:
            key.append(len(region.blocks))
            for block in region.blocks:
                key.append(tuple([(a.type, a.location) for a in block.arguments]))
                for a in block.arguments:
                    places[a] = len(places)
                for inner in block.ops:
                    operands = [places.get(v) for v in inner.operands]
                    if None in operands:
                        return False
                    attributes = tuple([(k, attribute(v)) for k, v in inner.attributes.items()])
                    types = tuple([r.type for r in inner.results])
                    key.append((inner.name, inner.inherent, inner.location, attributes,
                                tuple(operands), types))  # fmt: skip
                    for r in inner.results:
                        places[r] = len(places)
                    if inner.regions and not self._add_regions(inner.regions, places, key):
                        return False
        return True

    def _partial(self, partial: Partial | None) -> int | None:
        """A number per pending reduction (None: none): values share a few
        `Partial` objects, each looked up by its id (kept, so the id is not
        reused) before it is hashed."""
        if partial is None:
            return None
        seen = self._partial_of_object.get(id(partial))
        if seen is not None and seen[0] is partial:
            return seen[1]
        number = self._partials.setdefault(partial, len(self._partials))
        self._partial_of_object[id(partial)] = (partial, number)
        return number

    def _kind(self, value: Value, sharding: Callable[[Value], TensorSharding | None]) -> int:
        """A number per (type, sharding) of the global values: one dict lookup
        per value after the first."""
        kind = self._kind_of.get(value)
        if kind is None:
            t, s = value.type, sharding(value)
            seen = self._kind_of_object.get((id(t), id(s)))
            if seen is not None and seen[0] is t and seen[1] is s:
                kind = seen[2]
            else:
                kind = self._kinds.setdefault((t, s), len(self._kinds))
                self._kind_of_object[(id(t), id(s))] = (t, s, kind)
            self._kind_of[value] = kind
        return kind

    def _attribute(self, value: object) -> Hashable:
        """The `exact_key` of attribute `value`, a number standing for it where
        it is an immutable attribute object (`_immutable`): a program shares a
        few such objects (shardings) among thousands of ops, each keyed without
        hashing its fields (numbers are no `exact_key`, which keeps an integer's
        class). The axis lists of sdy collectives, which `exact_key` does not
        know, are keyed by their text."""
        seen = self._attribute_of_object.get(id(value))
        if seen is not None and seen[0] is value:
            return seen[1]
        cls = value.__class__
        if cls not in _IMMUTABLE_ATTRIBUTES and not (cls in _CONTAINERS and _immutable(value)):
            return exact_key(value)
        key = (cls, str(value)) if cls in _AXIS_LISTS else exact_key(value)
        number = self._attributes.setdefault(key, len(self._attributes))
        self._attribute_of_object[id(value)] = (value, number)
        return number


# Attribute classes whose objects never change (frozen, of immutable fields).
_AXIS_LISTS = frozenset({AxisRefList, ListOfAxisRefLists, AllToAllParamList})
_IMMUTABLE_ATTRIBUTES = frozenset(
    {
        TensorSharding,
        TensorShardingPerValue,
        DenseElementsAttr,
        DenseArrayAttr,
        IntegerAttr,
        EnumAttr,
        OpShardingRule,
    }
    | _AXIS_LISTS
)
# Frozen classes that may hold mutable values (a struct's field, a tuple's item).
_CONTAINERS = frozenset({tuple, StructAttr})
_PLAIN = frozenset({int, bool, float, str, type(None)})


def _content(value: object) -> Hashable:
    """What `LoweredOps._attribute` numbers attribute `value` by (before it is
    numbered): its `exact_key`, an axis list's text."""
    cls = value.__class__
    return (cls, str(value)) if cls in _AXIS_LISTS else exact_key(value)


def _immutable(value: object) -> bool:
    """Whether attribute `value` never changes: of an immutable class, or a
    tuple or struct of immutable values."""
    cls = value.__class__
    if cls in _PLAIN or cls in _IMMUTABLE_ATTRIBUTES:
        return True
    if cls is tuple:
        return all(map(_immutable, value))
    if cls is StructAttr:
        return all(_immutable(v) for _, v in value.fields)
    return False


_MISSING = object()
_TYPE = attrgetter("type")


def _template(
    ctx: LocalContext,
    op: Op,
    operands: list[Value],
    emitted: list[Op],
    results: list[Value],
    channel: int,
) -> _Template | None:
    """The template of `op`'s lowering, None where the emitted ops use values
    other than `operands` and their own (then ops like it are lowered afresh)."""
    own = set(operands)
    for emitted_op in emitted:
        for inner in emitted_op.walk():
            if not own.issuperset(inner.operands):
                return None
            own.update(inner.results)
            for region in inner.regions:
                for block in region.blocks:
                    own.update(block.arguments)
    if not own.issuperset(results):
        return None
    located = tuple(op.location is not None and e.location == op.location for e in emitted)
    any_partial = any(ctx.partial.get(r) is not None for r in op.results)
    # the values a copy reads: its operands, then each op's results (the first
    # place of a value: an operand given twice is read from the first)
    places: dict[Value, int] = {}
    for i, v in enumerate(operands):
        places.setdefault(v, i)
    reads: list[tuple[int, ...] | None] = []
    bodies: list[tuple[_Body, ...]] = []
    count = len(operands)  # (the values read so far: an operand given twice counts twice)
    for e in emitted:
        body = tuple([_body(region, places, count) for region in e.regions])
        if all(map(_shareable, e.attributes.values())) and None not in body:
            reads.append(tuple([places[v] for v in e.operands]))
            bodies.append(body)
        else:
            reads.append(None)
            bodies.append(())
        for r in e.results:
            places[r] = count
            count += 1
    return _Template(
        ctx.mesh,
        tuple(operands),
        tuple(emitted),
        located,
        tuple(results),
        tuple(ctx.partial.get(r) for r in op.results),
        channel,
        ctx.next_channel - channel,
        tuple(reads),
        tuple([tuple([r.type for r in e.results]) for e in emitted]),
        tuple(bodies),
        tuple([places[v] for v in results]),
        any_partial,
        _single(emitted, reads, located, len(operands), [places[v] for v in results])
        if not any_partial and ctx.next_channel == channel
        else None,
    )


def _single(
    emitted: list[Op], reads: list, located: tuple[bool, ...], count: int, made: list[int]
) -> tuple | None:
    """`_Template.single` of a template (`count` operands), or None."""
    if len(emitted) != 1 or reads[0] is None or emitted[0].regions:
        return None
    (e,) = emitted
    if made != list(range(count, count + len(e.results))):
        return None
    location = None if located[0] else e.location
    read = None if reads[0] == tuple(range(count)) else reads[0]
    return (e.name, read, tuple([r.type for r in e.results]), e.attributes, location,
            e.inherent, located[0])  # fmt: skip


@dataclass(frozen=True)
class _Body:
    """How a copy makes a region of one block whose ops have no regions (a
    reduction's body): its arguments' types and locations, and per op its
    name, the places of its operands (among the values the op with the
    region reads, then the block's arguments and the results of the ops
    before), result types, attributes (shared by the copies), location and
    inherent attributes."""

    types: tuple[Type, ...]
    locations: tuple[str | None, ...]
    ops: tuple[tuple[str, tuple[int, ...], tuple[Type, ...], dict, str | None, object], ...]


def _body(region: Region, places: dict[Value, int], count: int) -> _Body | None:
    """`region`'s `_Body`, where the op holding it reads `count` values, those
    of `places` at their place; None where it is not one block of ops
    without regions, or where they have attributes copies may not share."""
    if len(region.blocks) != 1:
        return None
    block = region.blocks[0]
    inner = dict(places)
    for a in block.arguments:
        inner[a] = count
        count += 1
    ops = []
    for op in block.ops:
        if op.regions or not all(map(_shareable, op.attributes.values())):
            return None
        reads = tuple([inner.get(v, -1) for v in op.operands])
        if -1 in reads:
            return None
        ops.append(
            (op.name, reads, tuple([r.type for r in op.results]), op.attributes, op.location,
             op.inherent)
        )  # fmt: skip
        for r in op.results:
            inner[r] = count
            count += 1
    arguments = block.arguments
    return _Body(
        tuple([a.type for a in arguments]), tuple([a.location for a in arguments]), tuple(ops)
    )


def _made_region(body: _Body, values: list[Value]) -> Region:
    """A region made as `body` says, in an op reading `values`."""
    block = Block(body.types)
    for argument, location in zip(block.arguments, body.locations, strict=True):
        argument.location = location
    env = values + block.arguments
    for name, reads, types, attributes, location, inherent in body.ops:
        op = Op(name, [env[i] for i in reads], types, attributes, location=location,
                inherent=inherent)  # fmt: skip
        block.append(op)
        env += op.results
    return Region([block])


def _shareable(value: object) -> bool:
    """Whether copies of an op may share its attribute `value` (not a
    dictionary, nor a list, nor a tuple holding one)."""
    cls = value.__class__
    if cls is tuple:
        return all(map(_shareable, value))
    return cls is not dict and cls is not list


def _instantiate(
    ctx: LocalContext, template: _Template, op: Op, operands: list[Value]
) -> list[Value]:
    """`template`'s ops on `op`'s local `operands` (see `LoweredOps`): each
    made anew from the template's op (its name, result types, attributes),
    an op with regions cloned."""
    single = template.single
    if single is not None:  # (most)
        name, reads, types, attributes, location, inherent, located = single
        if reads is not None:  # (else it reads the operands as they come)
            operands = [operands[i] for i in reads]
        new = Op(name, operands, types, attributes,
                 location=op.location if located else location, inherent=inherent)  # fmt: skip
        ctx.builder.insert(new)
        return list(new.results)
    values = list(operands)
    insert = ctx.builder.insert
    location = op.location
    offset = ctx.next_channel - template.first_channel
    for emitted, located, reads, types, bodies in zip(
        template.ops, template.located, template.reads, template.types, template.bodies,
        strict=True,
    ):  # fmt: skip
        if reads is None:
            mapping = dict(zip(_template_values(template), values, strict=False))
            new = emitted.clone(mapping)
            if located:
                new.location = location
        else:
            new = Op(
                emitted.name,
                [values[i] for i in reads],
                types,
                emitted.attributes,
                location=location if located else emitted.location,
                inherent=emitted.inherent,
            )
            for body in bodies:
                new.add_region(_made_region(body, values))
        if template.channels:
            _renumber_channels(new, offset)
        insert(new)
        values += new.results
    ctx.next_channel += template.channels
    if template.any_partial:
        for result, partial in zip(op.results, template.partial, strict=True):
            if partial is not None:
                ctx.partial[result] = partial
    return [values[i] for i in template.made]


def _template_values(template: _Template) -> list[Value]:
    """The values a copy of `template` reads, as the template has them (see `_Template`)."""
    values = list(template.operands)
    for emitted in template.ops:
        values += emitted.results
    return values


def _renumber_channels(op: Op, offset: int) -> None:
    """Moves the channel ids of `op` and of the ops in it by `offset`."""
    for inner in op.walk():
        handle = inner.attributes.get("channel_handle")
        if isinstance(handle, StructAttr):
            fields = tuple((k, v + offset if k == "handle" else v) for k, v in handle.fields)
            inner.attributes["channel_handle"] = StructAttr(handle.name, fields)
