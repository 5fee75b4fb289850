"""From a global program with explicit collectives to the program of one device.

`convert_global_to_local(module)` is Shardy's `sdy-convert-global-to-local`.
Its input is what Shardy's partitioner leaves: every op's operands and
results have compatible shardings and all communication is explicit as sdy
collectives (`sdy-propagation-pipeline`, `sdy-insert-explicit-reshards`,
`sdy-reshard-to-collectives`). Its output is the program every device runs:

- every value gets its local type (`shardonnay.layout.local_shape`): function
  signatures, op results, region arguments;
- sdy collectives become StableHLO collectives on device ids
  (`local.collectives`);
- ops whose attributes depend on shape or position are made local
  (`local.ops.positional`, `local.ops.indexing`); `sdy.constant` becomes
  `stablehlo.constant`; `sdy.manual_computation` bodies, already local, are
  inlined; other ops keep their attributes (shardings included) on local types.

For example, on `<["x"=2, "y"=4]>`::

    func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x32xf32>

becomes::

    func.func @main(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle =
          #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups =
          dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}>
          : (tensor<8x32xf32>) -> tensor<16x32xf32>

Beyond Shardy's pass (which rejects them), it converts every program whose
values live on meshes of one device count:

- uneven shards: a dim of size `d` on `n` shards holds `ceil(d/n)` slots per
  device, the last ones padding (`LocalContext.local_type_for`); collectives
  whose shards do not nest fetch only the elements each device lacks
  (`halo.exchange.relayout_by_exchange`) where that moves less than
  `local.layout.relayout`'s gathers; reductions and dots mask the padding of
  reduced dims (`local.ops.reduce`); arguments and results note their global
  shape (`shardonnay.global_shape`);
- ops that move data between shards, where a cheaper exact lowering exists:
  a slice, pad, reverse or concatenate along a sharded dim exchanges halos
  (`local.ops.halo.halo`), a dynamic_update_slice of a replicated update selects
  it into each shard (`local.ops.halo.masked_update`), a cumulative
  reduce_window gathers one total per shard (`local.ops.reduce.prefix_scan`), a
  top_k gathers `k` candidates per shard (`local.ops.reduce.merged_top_k`);
- other ops that move data between shards (a sort or window along a sharded
  dim, an op without a sharding rule, an op whose tensors shard a factor
  differently): the dims that move data are gathered, the op runs on them
  whole, and its results are sliced back (`local.factors`);
- partial values are tracked (`LocalContext.partial`): an `sdy.all_reduce`
  combines them with the reduction that left them (Shardy always sums), and
  is a no-op where the value is already whole (an argmax reduced in two
  steps); reductions with a non-identity init count it once;
- values with unreduced axes (`sdy.replicated_to_unreduced`,
  `sdy.sharded_to_unreduced`, unreduced arguments and results);
- values moving between meshes, and `func.call`s (the callee converted on
  its argument shardings);
- meshes of different device counts: the program runs on the devices of the
  largest mesh holding split values (a mesh of `n` devices names the ids
  `0..n-1`). A value split or partial on a smaller mesh lives on that mesh's
  devices; the others hold a buffer of its local type with undefined
  contents, compute on it like everybody else, and take part in its
  collectives in groups of their own (`local.cover`). A value whole on every
  device (replicated, not partial) is whole on all of them: where one is
  made from data only a smaller mesh's devices hold (gathered, reduced or
  moved off that mesh), those devices `spread` it to the others with a
  `stablehlo.collective_broadcast` (`_spread_whole_results`,
  `local.moves.move`, `local.factors.lower_with_plan`);
- values pinned to one device by a maximal sharding (`<@maximal_mesh_3, []>`
  on `<[], device_ids=[3]>`): global types on every device, meaningful on
  their device only (`local.maximal`); the program runs on at least the
  devices up to the largest one named. Explicit reshards leave the ops
  touching pinned values alone: an op pinned to device `k` gets its
  operands whole on `k` (a value pinned elsewhere by a
  `stablehlo.collective_permute`, a sharded one gathered), other ops get
  pinned operands by a `stablehlo.collective_broadcast` from their device
  (then sliced to the layout wanted), see `local.maximal.lower_whole`.

This module walks the program and keeps what it knows of each value (its
local value, pending reductions, the devices holding its data, the device a
value is pinned to); which lowering each op gets is `local.dispatch`'s.

It raises `PartitionError` (naming the op) for what it cannot convert: an sdy
collective of a pinned value, a manual computation taking or giving one, an
op whose results are pinned to different devices (or some pinned and some
not), and the errors of the lowerings above.
"""

from __future__ import annotations

from functools import partial

from shardonnay.collectives.axis_lists import mesh_ordered
from shardonnay.ir.attributes import DenseArrayAttr, IntegerAttr
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Block, Func, Module, Op, Region, Value, building
from shardonnay.ir.shardings import SHARDING, func_arg_sharding, func_result_sharding
from shardonnay.ir.types import FunctionType, TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.collectives import groups_along_mesh_axes
from shardonnay.ops.traits import (
    CALL,
    COMPUTATION,
    CONTROL_FLOW,
    DEVICE_COLLECTIVE,
    DEVICE_ID,
    PROPAGATION_MARKER,
    SHARDING_ANNOTATION,
    SHARDING_COLLECTIVE,
    TERMINATOR,
    has_trait,
    traits_of,
)
from shardonnay.partitioner.device_limit import check_device_count, check_devices
from shardonnay.partitioner.local import collectives as local_collectives
from shardonnay.partitioner.local.context import (
    I64,
    LocalContext,
    Partial,
    is_uneven,
    partition_error,
)
from shardonnay.partitioner.local.cover import cover_devices
from shardonnay.partitioner.local.dispatch import (
    LoweredOps,
    Lowering,
    lowering_of,
)
from shardonnay.partitioner.local.layout import combining_op, complete, spread, to_partial
from shardonnay.partitioner.local.maximal import (
    lower_whole,
    maximal_device,
    place,
    relocate,
    touches_pinned,
)
from shardonnay.partitioner.local.ops.positional import localize
from shardonnay.partitioner.local.shardings import (
    collect_shardings,
    is_split,
    mesh_of,
)
from shardonnay.partitioner.placement import device_count
from shardonnay.progress import tracker
from shardonnay.sharding import TensorSharding

GLOBAL_SHAPE = "shardonnay.global_shape"  # of arguments and results with uneven shards


def convert_global_to_local(
    module: Module,
    *,
    poison_padding: bool = False,
    max_devices: int | None = None,
    per_dim_all_gather: bool = False,
    combine_multi_dimension_reduce_scatter: bool = False,
    enable_rgv3: bool = False,
) -> Module:
    """The per-device program of `module` (a new module; `module` is unchanged).

    With `poison_padding`, the padding slots the program makes for uneven shards
    hold NaN (floats) or a large sentinel (integers) instead of zeros: run with
    `simulate` (which poisons the padding of its inputs too), any padding that
    reaches a result shows. Raises `PartitionError` up front when the program
    spans more devices than `max_devices` (`shardonnay.partitioner.device_limit`).

    The two flags are Shardy's options of the pass (same names, dashed): a
    gather along several dims becomes one `all_gather` per dim, last dim first,
    instead of one all_gather of a leading dim; a reduce-scatter along several
    evenly sharded dims becomes one `reduce_scatter` of the dims' shards moved
    to a leading dim, instead of an all_reduce and a dynamic_slice
    (`shardonnay.partitioner.local.collectives`). `enable_rgv3`, Shardy's third,
    writes the replica groups of a collective along mesh axes as those axes
    (`#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [...]>`, see
    `shardonnay.ops.collectives.groups_along_mesh_axes`) instead of device ids;
    groups of other devices stay ids."""
    check_device_count(module, max_devices=max_devices)
    with building():
        conversion = _Conversion(module, max_devices)
        conversion.ctx.poison_padding = poison_padding
        conversion.ctx.per_dim_all_gather = per_dim_all_gather
        conversion.ctx.combine_multi_dimension_reduce_scatter = (
            combine_multi_dimension_reduce_scatter
        )
        if enable_rgv3:
            conversion.ctx.groups_along = {}
        return conversion.run()


class _Conversion:
    def __init__(self, module: Module, max_devices: int | None = None):
        self.source = module
        self.meshes: dict[str, Mesh] = dict(module.meshes)
        self.out = Module(name=module.name, attributes=dict(module.attributes))
        self.out.aliases = dict(module.aliases)
        self.out.trailer = module.trailer
        self.values: dict[Value, Value] = {}  # global values -> local ones
        # (partial global value, block) -> its reduced local value, usable in that block
        self.completed: dict[tuple[Value, int], Value] = {}
        found = collect_shardings(module)
        check_devices(max(found.num_devices, found.mesh.size), "the program", max_devices)
        self.mesh, self.sharded = found.mesh, found.sharded  # the largest mesh of split values
        self.ctx = LocalContext(
            Builder(self.out), self.meshes, self.mesh, found.shardings, found.next_channel
        )
        self.ctx.num_devices = found.num_devices
        self.pinned = found.pinned  # global values pinned to one device -> that device
        self.relocated: dict[tuple, Value] = {}  # see `_moved`
        # (source, target, shape) of moves `relocate` found to leave a value as
        # it is (the same layout spelled alike, mostly): not worked out again
        self.kept: set[tuple] = set()
        # `_on_devices` by the id of the sharding object (kept, so its id is not reused)
        self._splits: dict[int, tuple[TensorSharding, bool]] = {}
        self._splits_alike: dict[TensorSharding, bool] = {}  # alike, by equal shardings
        self.signatures = {f.name: self._signature(f) for f in module.functions}
        # whether some values are split on meshes of fewer devices than the program's
        shardings = {id(s): s for s in found.shardings.values()}  # (values share a few)
        meshes = {id(m): m for m in map(self.ctx.mesh_of_sharding, shardings.values())}
        self.spans_meshes = found.num_devices > self.mesh.size or any(
            m.size < self.mesh.size for m in meshes.values()
        )
        # the one mesh every op runs on, where the program names one mesh (then
        # `_op_mesh` finds it whatever the op: see there), else None
        self.one_mesh: Mesh | None = None
        if (
            not self.pinned
            and not found.inline_meshes
            and all(m is self.mesh for m in self.meshes.values())
        ):
            self.one_mesh = self.mesh
        # local values -> the devices 0..n-1 holding their data (see `_local_reach`)
        self.reaches: dict[Value, int] = {}
        self.body: Block | None = None  # of the function being converted
        self.lowered = LoweredOps()  # the lowering of each kind of op, for ops alike
        self._kinds: dict[str, tuple[frozenset, Lowering, bool]] = {}  # see `_op_kind`

    # -- shardings -------------------------------------------------------------------------------

    def _signature(self, func: Func) -> FunctionType:
        inputs = tuple(
            self.ctx.local_type_for(t, self._arg_sharding(func, i), func.op)
            for i, t in enumerate(func.type.inputs)
        )
        results = tuple(
            self.ctx.local_type_for(t, self._result_sharding(func, i), func.op)
            for i, t in enumerate(func.type.results)
        )
        return FunctionType(inputs, results)

    def _arg_sharding(self, func: Func, i: int) -> TensorSharding | None:
        return self._on_devices(func_arg_sharding(func, i), func.op)

    def _result_sharding(self, func: Func, i: int) -> TensorSharding | None:
        return self._on_devices(func_result_sharding(func, i), func.op)

    def _on_devices(self, sharding: TensorSharding | None, op: Op) -> TensorSharding | None:
        """`sharding`, or None (replicated) when it shards nothing (worked out
        once per sharding object: a function's arguments share a few)."""
        if sharding is None:
            return None
        seen = self._splits.get(id(sharding))
        if seen is None or seen[0] is not sharding:
            split = self._splits_alike.get(sharding)  # (a function's arguments have
            if split is None:  # a sharding object each, many of them alike)
                split = is_split(sharding, mesh_of(sharding, self.meshes, op))
                self._splits_alike[sharding] = split
            seen = self._splits[id(sharding)] = (sharding, split)
        return sharding if seen[1] else None

    def _conformed(self, value: Value, x: Value, sharding: TensorSharding | None, op: Op) -> Value:
        """Local `x` of `value`, laid out (or pinned) as `sharding` says (moved
        there if it is not)."""
        return self._relocated(value, x, self._place(sharding, value, op))

    def _conformed_like(self, value: Value, x: Value, like: Value) -> Value:
        """Local `x` of `value`, laid out (or pinned) as global value `like` is."""
        return self._relocated(value, x, place(self.ctx, like, self.pinned))

    def _relocated(self, value: Value, x: Value, target) -> Value:
        """Local `x` of `value` moved to place `target` (`local.maximal.relocate`)."""
        if not isinstance(value.type, TensorType):
            return x
        source = place(self.ctx, value, self.pinned)
        key = (_place_key(source), _place_key(target), value.type.shape)
        if key in self.kept:
            return x
        block, channel = self.ctx.builder.insertion_block, self.ctx.next_channel
        emitted = len(block.ops)
        moved = relocate(self.ctx, x, value.type.shape, source, target)
        if moved is x and len(block.ops) == emitted and self.ctx.next_channel == channel:
            self.kept.add(key)
        axes, mesh, device = target
        if moved is not x and device is None and any(axes):
            # split on `mesh`: meaningful on its devices, whatever moved it there
            self.reaches[moved] = mesh.size
        return moved

    def _moved(self, value: Value, x: Value, target) -> Value:
        """`_relocated` for operand `x` of `value`, once per place and block."""
        axes, mesh, device = target
        key = (value, tuple(map(tuple, axes)), mesh, device, id(self.ctx.builder.insertion_block))
        if key not in self.relocated:
            self.relocated[key] = self._relocated(value, x, target)
        return self.relocated[key]

    def _place(self, sharding: TensorSharding | None, value: Value, op: Op):
        """The place (`local.maximal.relocate`) of a value of `value`'s type sharded `sharding`."""
        device = maximal_device(sharding, self.meshes)
        sharding = self._on_devices(sharding, op)
        axes = self.ctx.axes_of(sharding, len(value.type.shape))
        return axes, self.ctx.mesh_of_sharding(sharding), device

    # -- conversion ------------------------------------------------------------------------------

    def run(self) -> Module:
        for op in self.source.ops:
            if op.name == "func.func":
                self.out.append(self._function(Func(op)))
            else:
                self.out.append(op.clone())
        has_main = any(f.name == "main" for f in self.out.functions)
        count = self.ctx.num_devices
        if (self.sharded or self.pinned) and has_main and device_count(self.out) != count:
            self.out.attributes["mhlo.num_partitions"] = IntegerAttr(count, "i32")
        if self.spans_meshes:
            cover_devices(self.ctx, self.out)
        if self.ctx.groups_along is not None:
            self._write_groups_as_mesh_axes()
        return self.out

    def _write_groups_as_mesh_axes(self) -> None:
        """`enable_rgv3`: each `replica_groups` made along the axes of a named
        mesh (and left as made) becomes those axes."""
        names = {}
        for name, mesh in self.meshes.items():
            names.setdefault(mesh, name)
        along = self.ctx.groups_along
        assert along is not None
        for op in self.out.walk():
            made = along.get(id(op.attributes.get("replica_groups")))
            if made is None or made[0] is not op.attributes["replica_groups"]:
                continue
            _, mesh, axes = made
            if mesh in names:
                op.attributes["replica_groups"] = groups_along_mesh_axes(names[mesh], axes)

    def _function(self, func: Func) -> Op:
        signature = self.signatures[func.name]
        attrs = dict(func.op.attributes, function_type=signature)
        for key in ("arg_attrs", "res_attrs"):
            if key in attrs:
                attrs[key] = tuple(dict(d) for d in attrs[key])
        new = Op(
            "func.func", attributes=attrs, location=func.op.location, inherent=func.op.inherent
        )
        self._note_global_shapes(func, Func(new))
        if func.is_declaration:
            return new
        block = Block(signature.inputs)
        new.add_region(Region([block]))
        self.values.update(zip(func.arguments, block.arguments, strict=True))
        for i, arg in enumerate(func.arguments):
            self._mark_unreduced(arg, func_arg_sharding(func, i))
            self.reaches[block.arguments[i]] = self._reach(arg)
        steps = tracker(f"partitioning @{func.name}", len(func.body.ops))
        self.body = func.body  # whose terminator returns from the function
        with self.ctx.builder.at_end(block):
            for op in func.body.ops:
                self._op(op)
                steps.advance()
        steps.finish()
        return new

    def _note_global_shapes(self, func: Func, new: Func) -> None:
        """Notes the global shape of each argument and result whose local type
        does not tell it (uneven shards hold padding): `shardonnay.global_shape`."""
        pairs = (
            (func.arg_attrs, new.arg_attrs, func.type.inputs),
            (func.result_attrs, new.result_attrs, func.type.results),
        )
        for old_attrs, new_attrs, types in pairs:
            for i, t in enumerate(types):
                sharding = self._on_devices(old_attrs(i).get(SHARDING), func.op)
                if not isinstance(t, TensorType) or sharding is None:
                    continue
                mesh = self.ctx.mesh_of_sharding(sharding)
                axes = self.ctx.axes_of(sharding, len(t.shape))
                if any(a and is_uneven(n, a, mesh) for n, a in zip(t.shape, axes, strict=True)):
                    new_attrs(i)[GLOBAL_SHAPE] = DenseArrayAttr(I64, tuple(t.shape))

    def _mark_unreduced(self, value: Value, sharding: TensorSharding | None) -> None:
        """A value whose sharding has unreduced axes holds partial terms along them."""
        if sharding is None or not sharding.unreduced:
            return
        mesh = self.ctx.mesh_of_sharding(sharding)
        axes = tuple(a for a in sharding.unreduced if a.size(mesh) > 1)
        if axes:
            kind = combining_op(sharding.reduction)
            self.ctx.partial[value] = Partial(tuple(mesh_ordered(axes, mesh)), kind, mesh)

    def _region(self, op: Op, region: Region) -> Region:
        new = Region()
        for block in region.blocks:
            copy = new.append(Block([self.ctx.local_type(a, op) for a in block.arguments]))
            self.values.update(zip(block.arguments, copy.arguments, strict=True))
            for arg, local in zip(block.arguments, copy.arguments, strict=True):
                self.reaches[local] = self._reach(arg)
            with self.ctx.builder.at_end(copy):
                for inner in block.ops:
                    self._op(inner)
        return new

    def _operand(self, value: Value) -> Value:
        """The local value of `value`, its pending reduction done (once per block)."""
        partial = self.ctx.partial.get(value)
        if partial is None:
            return self.values[value]
        key = (value, id(self.ctx.builder.insertion_block))
        if key not in self.completed:
            x = complete(self.ctx, self.values[value], partial)
            if self.ctx.sharding(value) is None:
                x = spread(self.ctx, x, partial.mesh.size)
                self.reaches[x] = self.ctx.num_devices
            else:
                self.reaches[x] = self.ctx.mesh_of(value).size
            self.completed[key] = x
        return self.completed[key]

    def _op(self, op: Op) -> None:
        """Converts `op`: what concerns values here, by the op's traits; its
        computation per device as its row of `local.dispatch.LOWERINGS` says."""
        ctx = self.ctx
        kind = self._kinds.get(op.name)
        if kind is None:
            kind = self._kinds[op.name] = _op_kind(op.name)
        traits, row, special = kind
        global_operands = op.operands
        ctx.mesh = self._op_mesh(op, traits, global_operands)
        if special or (self.pinned and touches_pinned(op, self.pinned)):
            self._special_op(op, traits, row)
            return
        # most ops: computed per device as their row says
        values = self.values
        if row.takes_partial:
            operands = [values[v] for v in global_operands]
        else:
            pending = ctx.partial
            operands = [
                values[v] if v not in pending else self._operand(v) for v in global_operands
            ]
        if op.regions:
            regions = partial(self._regions_of, op, traits)
            results = self.lowered.lower_with_regions(ctx, op, operands, regions)
        else:
            results = self.lowered.lower(ctx, op, operands)
        results_of = op.results
        if len(results_of) == 1:
            values[results_of[0]] = results[0]
        else:
            values.update(zip(results_of, results, strict=True))
        if self.spans_meshes:
            self._spread_whole_results(op)

    def _regions_of(self, op: Op, traits: frozenset) -> list[Region]:
        """`op`'s regions converted (then the mesh of `op` again: they set it)."""
        converted = [self._region(op, r) for r in op.regions]
        self.ctx.mesh = self._op_mesh(op, traits, op.operands)
        return converted

    def _special_op(self, op: Op, traits: frozenset, row: Lowering) -> None:
        """`_op` of an op that concerns values (see `_SPECIAL`), or touches
        pinned ones (its mesh set)."""
        ctx = self.ctx
        terminator = TERMINATOR in traits
        if terminator and op.parent is self.body:
            self._return(op)
            return
        if row.takes_partial:
            operands = [self.values[v] for v in op.operands]
        else:
            operands = [self._operand(v) for v in op.operands]
        if terminator:
            operands = self._returned(op, operands)
            ctx.op(op.name, operands, [], dict(op.attributes), location=op.location)
            return
        if COMPUTATION in traits:
            self._inline(op, operands)
            return
        pinned = bool(self.pinned) and touches_pinned(op, self.pinned)
        if PROPAGATION_MARKER in traits:
            results = [
                self._conformed_like(v, x, r) if pinned else x
                for v, x, r in zip(op.operands, operands, op.results, strict=False)
            ]
        elif SHARDING_ANNOTATION in traits:
            sharding = op.attributes["sharding"]
            results = [self._conformed(op.operands[0], operands[0], sharding, op)]
        elif row.makes_unreduced:
            results = [self._to_unreduced(op, operands[0])]
        elif SHARDING_COLLECTIVE in traits:
            if pinned:
                raise partition_error(op, "a collective of a value pinned to one device")
            results = [self.lowered.lower_collective(ctx, op, operands[0])]
        elif CALL in traits:
            results = self._call(op, operands)
        elif CONTROL_FLOW in traits:
            if _is_loop(op) or (pinned and not op.regions):
                operands = [
                    self._conformed_like(v, x, r)
                    for v, x, r in zip(op.operands, operands, op.results, strict=True)
                ]
            elif pinned and op.regions:  # branches: the predicate (index) whole everywhere
                operands = [self._conformed(op.operands[0], operands[0], None, op), *operands[1:]]
            regions = [self._region(op, r) for r in op.regions]
            results = localize(ctx, op, operands, regions)
        elif DEVICE_COLLECTIVE in traits or DEVICE_ID in traits:
            # in manual computation bodies: already on device values
            regions = [self._region(op, r) for r in op.regions]
            results = localize(ctx, op, operands, regions)
        elif pinned:
            regions = [self._region(op, r) for r in op.regions]
            ctx.mesh = self._op_mesh(op, traits, op.operands)
            whole = lower_whole(ctx, op, operands, regions, self.pinned, self._moved)
            results = self._partial_results(op, whole)
        elif op.regions:
            regions = partial(self._regions_of, op, traits)
            results = self.lowered.lower_with_regions(ctx, op, operands, regions)
        else:
            results = self.lowered.lower(ctx, op, operands)
        self.values.update(zip(op.results, results, strict=True))
        self._spread_whole_results(op)

    def _partial_results(self, op: Op, results: list[Value]) -> list[Value]:
        """`results` of `op` (whole), partial along the unreduced axes of their shardings."""
        out = []
        for r, x in zip(op.results, results, strict=True):
            self._mark_unreduced(r, self.ctx.sharding(r))
            partial = self.ctx.partial.get(r)
            if partial is not None:
                x = to_partial(self.ctx, x, partial.axes, partial.kind, partial.mesh)
            out.append(x)
        return out

    def _reach(self, value: Value) -> int:
        """The devices `0..n-1` whose local `value` holds its data: those of the
        mesh it is split or partial on, else all."""
        ctx = self.ctx
        reach = ctx.num_devices
        if ctx.sharding(value) is not None:
            reach = min(reach, ctx.mesh_of(value).size)
        if value in ctx.partial:
            reach = min(reach, ctx.partial[value].mesh.size)
        return reach

    def _spread_whole_results(self, op: Op) -> None:
        """Each result that must be whole on every device (neither split nor
        partial) but was computed from data that only some devices hold (values
        split or partial on a smaller mesh) is `spread` from those devices to all."""
        if not self.spans_meshes:
            return
        for r in op.results:
            if not isinstance(r.type, TensorType):
                continue
            x, wanted = self.values[r], self._reach(r)
            held = self._local_reach(x)
            if wanted > held:
                x = spread(self.ctx, x, held)
                self.values[r] = x
            self.reaches[x] = wanted

    def _local_reach(self, x: Value) -> int:
        """The devices `0..n-1` whose local value `x` is meaningful: known for
        the local values of the global program's values, else the least of its
        operands' (all devices for constants and `spread`s)."""
        known = self.reaches.get(x)
        if known is not None:
            return known
        op = x.op
        reach = self.ctx.num_devices
        if op is not None and op.name != "stablehlo.collective_broadcast":
            reach = min((self._local_reach(v) for v in op.operands), default=reach)
        self.reaches[x] = reach
        return reach

    def _op_mesh(self, op: Op, traits: frozenset, operands: tuple[Value, ...]) -> Mesh:
        """The mesh of the first sharded or partial value of `op` (the program's
        first mesh if none; `operands`: `op`'s). A collective is on the mesh of
        its `out_sharding`, which names its axes, whatever mesh its operand is
        partial on.

        In a program of one mesh (`one_mesh`) that is every op's: every sharding
        names it (a name not declared stands for it too), and pending
        reductions are on the meshes of ops."""
        if self.one_mesh is not None:
            return self.one_mesh
        ctx = self.ctx
        if SHARDING_COLLECTIVE in traits:
            out = op.attributes.get("out_sharding")
            if isinstance(out, TensorSharding):
                return ctx.mesh_of_sharding(out)
        pending = ctx.partial
        if pending:
            for v in operands:
                if v in pending:
                    return pending[v].mesh
        sharding, split = ctx.shardings.get, ctx.split_meshes.get
        for values in (op.results, operands):
            for v in values:
                s = sharding(v)
                if s is not None:
                    seen = split(id(s))  # (`ctx.split_mesh(s)`, known)
                    mesh = seen[1] if seen is not None and seen[0] is s else ctx.split_mesh(s)
                    return ctx.mesh if mesh is None else mesh
        return self.mesh

    def _returned(self, op: Op, operands: list[Value]) -> list[Value]:
        """Values a region returns, laid out as its parent's results."""
        parent = op.parent.parent_op if op.parent is not None else None
        if parent is None or not has_trait(parent, CONTROL_FLOW):
            return operands
        if _is_loop(parent) and op.parent is parent.regions[0].entry:
            # the condition returns a predicate, which every device must agree on
            return [self._conformed(op.operands[0], operands[0], None, op)]
        return [
            self._conformed_like(v, x, r)
            for v, x, r in zip(op.operands, operands, parent.results, strict=True)
        ]

    def _return(self, op: Op) -> None:
        """`func.return`: each value laid out and (un)reduced as its result says."""
        func = Func(op.parent.parent_op)
        operands = []
        for i, v in enumerate(op.operands):
            sharding = self._result_sharding(func, i)
            unreduced = ()
            if sharding is not None and sharding.unreduced:
                mesh = self.ctx.mesh_of_sharding(sharding)
                unreduced = tuple(a for a in sharding.unreduced if a.size(mesh) > 1)
            x = self._kept_unreduced(v, unreduced, sharding)
            operands.append(self._conformed(v, x, func_result_sharding(func, i), op))
        self.ctx.op("func.return", operands, [], dict(op.attributes), location=op.location)

    def _kept_unreduced(self, value: Value, axes, sharding) -> Value:
        """Local `value` partial along exactly `axes` (reduced or split as needed)."""
        ctx = self.ctx
        partial = ctx.partial.get(value)
        if not axes:
            return self._operand(value)
        x = self.values[value]
        kind = combining_op(sharding.reduction)
        mesh = ctx.mesh_of_sharding(sharding)
        if partial is not None:
            extra = local_collectives.axis_set_diff(partial.axes, axes, mesh)
            x = complete(ctx, x, partial, extra)
            missing = local_collectives.axis_set_diff(axes, partial.axes, mesh)
            return to_partial(ctx, x, missing, partial.kind, mesh)
        return to_partial(ctx, x, axes, kind, mesh)

    def _to_unreduced(self, op: Op, x: Value) -> Value:
        """`*_to_unreduced`: the value as partial sums along the new unreduced axes
        (sharded dims first gathered back to the result's sharding)."""
        ctx = self.ctx
        source, result = op.operands[0], op.results[0]
        x = self._conformed(source, x, ctx.sharding(result), op)
        target = ctx.sharding(result)
        before = ctx.sharding(source)
        axes = [a for a in target.unreduced if a.size(ctx.mesh) > 1] if target else []
        if before is not None:
            axes = local_collectives.axis_set_diff(axes, list(before.unreduced), ctx.mesh)
        previous = ctx.partial.get(source)
        kind = previous.kind if previous else combining_op(target.reduction)
        x = to_partial(ctx, x, axes, kind)
        all_axes = tuple(mesh_ordered([*(previous.axes if previous else ()), *axes], ctx.mesh))
        if all_axes:
            ctx.partial[result] = Partial(all_axes, kind, ctx.mesh)
        return x

    def _inline(self, op: Op, operands: list[Value]) -> None:
        """A manual (or named) computation's body, already local, inlined."""
        body = op.regions[0].entry
        if touches_pinned(op, self.pinned) or any(a in self.pinned for a in body.arguments):
            raise partition_error(op, "a value pinned to one device enters or leaves its body")
        for i, (arg, new) in enumerate(zip(body.arguments, operands, strict=True)):
            expected = self.ctx.local_type(arg, op)
            if new.type != expected:
                raise partition_error(
                    op, f"operand {i} is {new.type} per device but the body takes {expected}"
                )
            self.values[arg] = new
        for inner in body.ops[:-1]:
            self._op(inner)
        returned = [self._operand(v) for v in body.ops[-1].operands]
        for i, (result, new) in enumerate(zip(op.results, returned, strict=True)):
            expected = self.ctx.local_type(result, op)
            if new.type != expected:
                raise partition_error(
                    op, f"result {i} is {new.type} per device but must be {expected}"
                )
            self.values[result] = new
            self._mark_unreduced(result, self.ctx.sharding(result))

    def _call(self, op: Op, operands: list[Value]) -> list[Value]:
        ctx = self.ctx
        callee = self.source.function(op.attributes["callee"].name)
        signature = self.signatures[callee.name]
        operands = [
            self._conformed(v, x, func_arg_sharding(callee, i), op)
            for i, (v, x) in enumerate(zip(op.operands, operands, strict=True))
        ]
        new = self.ctx.op(
            "func.call", operands, signature.results, dict(op.attributes), location=op.location
        )
        new.inherent = op.inherent
        results = []
        for i, (r, x) in enumerate(zip(op.results, new.results, strict=True)):
            self._mark_unreduced(r, self._result_sharding(callee, i))
            if not isinstance(r.type, TensorType):
                results.append(x)
                continue
            source = self._place(func_result_sharding(callee, i), r, op)
            results.append(relocate(ctx, x, r.type.shape, source, place(ctx, r, self.pinned)))
        return results


# The traits of ops that concern values (`_Conversion._special_op`): most ops
# have none of them, and are computed per device as their row says.
_SPECIAL = frozenset(
    {
        TERMINATOR,
        COMPUTATION,
        PROPAGATION_MARKER,
        SHARDING_ANNOTATION,
        SHARDING_COLLECTIVE,
        CALL,
        CONTROL_FLOW,
        DEVICE_COLLECTIVE,
        DEVICE_ID,
    }
)


def _op_kind(name: str) -> tuple[frozenset, Lowering, bool]:
    """An op name's traits, row of `LOWERINGS`, and whether it concerns values
    (`_SPECIAL`, or a row that makes unreduced values)."""
    traits = traits_of(name)
    row = lowering_of(name)
    return traits, row, not _SPECIAL.isdisjoint(traits) or row.makes_unreduced


def _place_key(place: tuple) -> tuple:
    """A place (`local.maximal.relocate`: axes per dim, mesh, device) as a dict key."""
    axes, mesh, device = place
    return tuple(map(tuple, axes)), mesh, device


def _is_loop(op: Op) -> bool:
    """Whether control-flow `op` is a loop: its regions take the values it
    carries (a `while`: the condition, then the body), where branches
    (`case`, `if`) take none."""
    return bool(op.regions) and bool(op.regions[0].entry.arguments)
