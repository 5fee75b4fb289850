"""From a global program with explicit collectives to the program of one device.

`convert_global_to_local(module)` is Shardy's `sdy-convert-global-to-local`.
Its input is what Shardy's partitioner leaves: every op's operands and
results have compatible shardings and all communication is explicit as sdy
collectives (`sdy-propagation-pipeline`, `sdy-insert-explicit-reshards`,
`sdy-reshard-to-collectives`). Its output is the program every device runs:

- every value gets its local type (`shardonnay.layout.local_shape`): function
  signatures, op results, region arguments;
- sdy collectives become StableHLO collectives on device ids
  (`local_collectives`);
- ops whose attributes depend on shape or position are made local
  (`local_ops`, `local_indexing`); `sdy.constant` becomes
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

What it cannot realize on local values raises `PartitionError` naming the op:
dims not divisible by their shards (they would need masking), a slice, pad,
concatenate, reverse, sort or window that moves data between shards, values
on several meshes. Unlike Shardy, `func.call`s are converted too (the callee
on its argument shardings), and an `sdy.all_reduce` that completes a
`stablehlo.reduce` or `stablehlo.scatter` uses that op's reduction (Shardy
always sums).
"""

from __future__ import annotations

from shardonnay.errors import PartitionError
from shardonnay.ir.attributes import DenseArrayAttr
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Block, Func, Module, Op, Region, Value
from shardonnay.ir.types import FunctionType, TensorType
from shardonnay.layout import equivalent
from shardonnay.mesh import Mesh
from shardonnay.ops.linalg import i64_list
from shardonnay.partition import local_collectives, local_indexing, local_ops, local_reduce
from shardonnay.partition.local_context import I64, LocalContext, Partial, partition_error
from shardonnay.partition.local_factors import (
    FactorPlan,
    lower_with_plan,
    merged,
    plan_factors,
    rule_of,
    whole_plan,
)
from shardonnay.partition.local_layout import (
    complete,
    gather_dims,
    relayout,
    slice_dims,
    to_partial,
)
from shardonnay.partition.local_ops import localize
from shardonnay.partition.unreduced import sort_and_merge
from shardonnay.sharding import DimSharding, TensorSharding, TensorShardingPerValue

COLLECTIVES = (
    "sdy.all_gather",
    "sdy.all_slice",
    "sdy.all_to_all",
    "sdy.collective_permute",
    "sdy.all_reduce",
    "sdy.reduce_scatter",
)
_RESHARDS = ("sdy.sharding_constraint", "sdy.reshard")
_IDENTITIES = ("sdy.propagation_barrier", "sdy.data_flow_edge")

# Lowerings for any shards.
_ALWAYS = {
    "stablehlo.iota": local_ops.iota,
    "sdy.constant": local_ops.constant,
    "stablehlo.constant": local_ops.constant,
    "stablehlo.reduce": local_reduce.reduce,
    "stablehlo.dot_general": local_reduce.dot_general,
}
# Lowerings that keep an op local where its shards are even (Shardy's forms);
# where they raise PartitionError, the op's factors are planned instead.
_WHERE_EVEN = {
    "stablehlo.slice": local_ops.slice_,
    "stablehlo.pad": local_ops.pad,
    "stablehlo.concatenate": local_ops.concatenate,
    "stablehlo.reverse": local_ops.reverse,
    "stablehlo.sort": local_ops.sort,
    "chlo.top_k": local_ops.top_k,
    "stablehlo.get_dimension_size": local_ops.get_dimension_size,
    "stablehlo.rng": local_ops.random,
    "stablehlo.rng_bit_generator": local_ops.random,
    "stablehlo.dynamic_slice": local_ops.dynamic_slice,
    "stablehlo.dynamic_update_slice": local_ops.dynamic_update_slice,
    "stablehlo.reduce_window": local_ops.windowed,
    "stablehlo.select_and_scatter": local_ops.windowed,
    "stablehlo.convolution": local_ops.convolution,
    "stablehlo.gather": local_indexing.gather,
    "stablehlo.scatter": local_indexing.scatter,
}
# Ops whose attributes a factor plan cannot keep: unless even, computed whole.
_WHOLE_UNLESS_EVEN = (
    "stablehlo.convolution",
    "stablehlo.gather",
    "stablehlo.scatter",
    "stablehlo.rng",
    "stablehlo.rng_bit_generator",
    "stablehlo.get_dimension_size",
)
# Ops whose regions see the op's sharded values: lowered on local types.
_CONTROL_FLOW = (
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.if",
    "stablehlo.optimization_barrier",
)
_SUM_KINDS = {"sum": "stablehlo.add", "max": "stablehlo.maximum", "min": "stablehlo.minimum"}


def convert_global_to_local(module: Module) -> Module:
    """The per-device program of `module` (a new module; `module` is unchanged)."""
    return _Conversion(module).run()


class _Conversion:
    def __init__(self, module: Module):
        self.source = module
        self.meshes: dict[str, Mesh] = dict(module.meshes)
        self.out = Module(name=module.name, attributes=dict(module.attributes))
        self.out.aliases = dict(module.aliases)
        self.out.trailer = module.trailer
        self.values: dict[Value, Value] = {}  # global values -> local ones
        self.completed: dict[Value, Value] = {}  # partial global values -> reduced local ones
        self.mesh = Mesh()  # the first mesh holding sharded values
        shardings = self._collect_shardings()
        self.ctx = LocalContext(
            Builder(self.out), self.meshes, self.mesh, shardings, _next_channel(module)
        )
        self.signatures = {f.name: self._signature(f) for f in module.functions}

    # -- shardings -------------------------------------------------------------------------------

    def _collect_shardings(self) -> dict[Value, TensorSharding]:
        """The sharding of every value of the global program that is sharded
        on some mesh (replicated values, on any mesh, are on every device)."""
        found: list[tuple[Value | None, TensorSharding, Op]] = []
        for func in self.source.functions:
            for i, arg in enumerate(func.arguments if not func.is_declaration else ()):
                sharding = func.arg_attrs(i).get("sdy.sharding")
                if sharding is not None:
                    found.append((arg, sharding, func.op))
            for op in func.walk():
                found += [(v, s, op) for v, s in _op_shardings(op)]
            for i in range(len(func.type.results)):
                sharding = func.result_attrs(i).get("sdy.sharding")
                if sharding is not None:
                    found.append((None, sharding, func.op))
        used: dict[Mesh, str] = {}
        for _, sharding, op in found:
            mesh = self._mesh_of(sharding, op)
            if _is_sharded(sharding, mesh):
                used.setdefault(mesh, str(sharding.mesh))
        if len({m.size for m in used}) > 1:
            names = " and ".join(f"@{n}" if "<" not in n else n for n in used.values())
            raise PartitionError(
                f"the program has values on meshes {names} of different device counts; "
                "they cannot run as one program"
            )
        if used:
            self.mesh = next(iter(used))
        return {
            v: s for v, s, op in found if v is not None and _is_sharded(s, self._mesh_of(s, op))
        }

    def _mesh_of(self, sharding: TensorSharding, op: Op) -> Mesh:
        if isinstance(sharding.mesh, Mesh):
            if sharding.mesh.is_maximal:
                raise partition_error(op, "a maximal sharding pins a value to one device")
            return sharding.mesh
        mesh = self.meshes.get(sharding.mesh)
        if mesh is None:
            raise partition_error(op, f"unknown mesh @{sharding.mesh}")
        if mesh.is_maximal:
            raise partition_error(op, "a maximal sharding pins a value to one device")
        return mesh

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
        return self._on_devices(func.arg_attrs(i).get("sdy.sharding"), func.op)

    def _result_sharding(self, func: Func, i: int) -> TensorSharding | None:
        return self._on_devices(func.result_attrs(i).get("sdy.sharding"), func.op)

    def _on_devices(self, sharding: TensorSharding | None, op: Op) -> TensorSharding | None:
        """`sharding`, or None (replicated) when it shards nothing."""
        if sharding is None or not _is_sharded(sharding, self._mesh_of(sharding, op)):
            return None
        return sharding

    def _conformed(self, value: Value, x: Value, sharding: TensorSharding | None, op: Op) -> Value:
        """Local `x` of `value`, laid out as `sharding` says (moved there if it is not)."""
        if not isinstance(value.type, TensorType):
            return x
        ctx = self.ctx
        sharding = self._on_devices(sharding, op)
        shape = value.type.shape
        source_mesh, target_mesh = ctx.mesh_of(value), ctx.mesh_of_sharding(sharding)
        a = ctx.sharded_axes(value)
        b = ctx.axes_of(sharding, len(shape))
        comparable = source_mesh == target_mesh or not any(a) or not any(b)
        if comparable and equivalent(_normal(a, source_mesh), _normal(b, source_mesh), None, shape):
            return x
        if source_mesh == target_mesh:
            return relayout(ctx, x, a, b, shape, source_mesh)
        x = gather_dims(ctx, x, a, shape, mesh=source_mesh)
        return slice_dims(ctx, x, b, shape, mesh=target_mesh)

    # -- conversion ------------------------------------------------------------------------------

    def run(self) -> Module:
        for op in self.source.ops:
            if op.name == "func.func":
                self.out.append(self._function(Func(op)))
            else:
                self.out.append(op.clone())
        return self.out

    def _function(self, func: Func) -> Op:
        signature = self.signatures[func.name]
        attrs = dict(func.op.attributes, function_type=signature)
        for key in ("arg_attrs", "res_attrs"):
            if key in attrs:
                attrs[key] = tuple(dict(d) for d in attrs[key])
        new = Op(
            "func.func", attributes=attrs, location=func.op.location, inherent=func.op.inherent
        )
        if func.is_declaration:
            return new
        block = Block(signature.inputs)
        new.add_region(Region([block]))
        self.values.update(zip(func.arguments, block.arguments, strict=True))
        for i, arg in enumerate(func.arguments):
            self._mark_unreduced(arg, func.arg_attrs(i).get("sdy.sharding"))
        with self.ctx.builder.at_end(block):
            for op in func.body.ops:
                self._op(op)
        return new

    def _mark_unreduced(self, value: Value, sharding: TensorSharding | None) -> None:
        """A value whose sharding has unreduced axes holds partial terms along them."""
        if sharding is None or not sharding.unreduced:
            return
        mesh = self.ctx.mesh_of_sharding(sharding)
        axes = tuple(a for a in sharding.unreduced if a.size(mesh) > 1)
        if axes:
            kind = _SUM_KINDS.get(sharding.reduction, "stablehlo.add")
            self.ctx.partial[value] = Partial(tuple(sort_and_merge(axes, mesh)), kind)

    def _region(self, op: Op, region: Region) -> Region:
        new = Region()
        for block in region.blocks:
            copy = new.append(Block([self.ctx.local_type(a, op) for a in block.arguments]))
            self.values.update(zip(block.arguments, copy.arguments, strict=True))
            with self.ctx.builder.at_end(copy):
                for inner in block.ops:
                    self._op(inner)
        return new

    def _operand(self, value: Value) -> Value:
        """The local value of `value`, its pending reduction done (once)."""
        partial = self.ctx.partial.get(value)
        if partial is None:
            return self.values[value]
        if value not in self.completed:
            self.completed[value] = complete(self.ctx, self.values[value], partial)
        return self.completed[value]

    def _op(self, op: Op) -> None:
        name = op.name
        ctx = self.ctx
        ctx.mesh = self._op_mesh(op)
        if name in ("sdy.all_reduce", "sdy.reduce_scatter"):
            operands = [self.values[v] for v in op.operands]
        elif name == "func.return":
            self._return(op)
            return
        else:
            operands = [self._operand(v) for v in op.operands]
        if name == "stablehlo.return":
            operands = self._returned(op, operands)
            ctx.op(name, operands, [], dict(op.attributes), location=op.location)
            return
        if name in ("sdy.manual_computation", "sdy.named_computation"):
            self._inline(op, operands)
            return
        if name == "sdy.sharding_group":
            return
        if name in _IDENTITIES:
            results = operands
        elif name in _RESHARDS:
            source, result = op.operands[0], op.results[0]
            results = [self._conformed(source, operands[0], ctx.sharding(result), op)]
        elif name == "sdy.replicated_to_unreduced" or name == "sdy.sharded_to_unreduced":
            results = [self._to_unreduced(op, operands[0])]
        elif name in COLLECTIVES:
            results = [self._collective(op, operands[0])]
        elif name == "func.call":
            results = self._call(op, operands)
        elif name in _CONTROL_FLOW:
            if name == "stablehlo.while":
                operands = [
                    self._conformed(v, x, ctx.sharding(r), op)
                    for v, x, r in zip(op.operands, operands, op.results, strict=True)
                ]
            regions = [self._region(op, r) for r in op.regions]
            results = localize(ctx, op, operands, regions)
        else:
            regions = [self._region(op, r) for r in op.regions]
            ctx.mesh = self._op_mesh(op)
            results = self._lower(op, operands, regions)
        self.values.update(zip(op.results, results, strict=True))

    def _op_mesh(self, op: Op) -> Mesh:
        """The mesh of the first sharded value of `op` (the program's first mesh if none)."""
        for v in (*op.results, *op.operands):
            if self.ctx.sharding(v) is not None:
                return self.ctx.mesh_of(v)
        return self.mesh

    def _lower(self, op: Op, operands: list[Value], regions: list[Region]) -> list[Value]:
        """An op of the program on local values: its own lowering where there is
        one, else as its factor plan says (computing whole what cannot stay local)."""
        ctx, name = self.ctx, op.name
        if name in _ALWAYS:
            return _ALWAYS[name](ctx, op, operands, regions)
        meshes = {ctx.mesh_of(v) for v in (*op.operands, *op.results) if ctx.sharding(v)}
        if len(meshes) > 1:
            return lower_with_plan(ctx, op, operands, regions, whole_plan(ctx, op))
        even = _is_even(ctx, op)
        special = _WHERE_EVEN.get(name)
        if special is not None and even and self._factors_agree(op):
            try:
                with ctx.rollback_on(PartitionError):
                    return special(ctx, op, operands, regions)
            except PartitionError:
                pass
        if name in _WHOLE_UNLESS_EVEN:
            return lower_with_plan(ctx, op, operands, regions, whole_plan(ctx, op))
        plan = plan_factors(ctx, op, rule_of(op))
        return lower_with_plan(ctx, op, operands, regions, plan, _planned_attributes(ctx, op, plan))

    def _factors_agree(self, op: Op) -> bool:
        """Whether no two tensors of `op` shard one factor of its rule
        differently (checked where a dim is that factor alone)."""
        rule = rule_of(op)
        if rule is None:
            return not any(
                any(self.ctx.sharded_axes(v))
                for v in (*op.operands, *op.results)
                if isinstance(v.type, TensorType)
            )
        seen: dict[int, tuple] = {}
        values = (*op.operands, *op.results)
        mappings = (*rule.operand_mappings, *rule.result_mappings)
        for value, mapping in zip(values, mappings, strict=True):
            if not isinstance(value.type, TensorType):
                continue
            axes = self.ctx.sharded_axes(value)
            for dim, factors in enumerate(mapping):
                if len(factors) != 1 or rule.factor_sizes[factors[0]] != value.type.shape[dim]:
                    continue
                if seen.setdefault(factors[0], merged(axes[dim], self.ctx.mesh)) != merged(
                    axes[dim], self.ctx.mesh
                ):
                    return False
        return True

    def _returned(self, op: Op, operands: list[Value]) -> list[Value]:
        """Values a region returns, laid out as its parent's results."""
        parent = op.parent.parent_op if op.parent is not None else None
        if parent is None or parent.name not in _CONTROL_FLOW:
            return operands
        if parent.name == "stablehlo.while" and op.parent is parent.regions[0].entry:
            return operands  # the condition returns a predicate
        return [
            self._conformed(v, x, self.ctx.sharding(r), op)
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
            operands.append(self._conformed(v, x, sharding, op))
        self.ctx.op("func.return", operands, [], dict(op.attributes), location=op.location)

    def _kept_unreduced(self, value: Value, axes, sharding) -> Value:
        """Local `value` partial along exactly `axes` (reduced or split as needed)."""
        ctx = self.ctx
        partial = ctx.partial.get(value)
        if not axes:
            return self._operand(value)
        x = self.values[value]
        kind = _SUM_KINDS.get(sharding.reduction, "stablehlo.add")
        if partial is not None:
            extra = local_collectives.axis_set_diff(partial.axes, axes, ctx.mesh)
            x = complete(ctx, x, partial, extra)
            missing = local_collectives.axis_set_diff(axes, partial.axes, ctx.mesh)
            return to_partial(ctx, x, missing, partial.kind)
        return to_partial(ctx, x, axes, kind)

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
        kind = previous.kind if previous else _SUM_KINDS.get(target.reduction, "stablehlo.add")
        x = to_partial(ctx, x, axes, kind)
        all_axes = tuple(sort_and_merge([*(previous.axes if previous else ()), *axes], ctx.mesh))
        if all_axes:
            ctx.partial[result] = Partial(all_axes, kind)
        return x

    def _inline(self, op: Op, operands: list[Value]) -> None:
        """A manual (or named) computation's body, already local, inlined."""
        body = op.regions[0].entry
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

    def _collective(self, op: Op, x: Value) -> Value:
        ctx = self.ctx
        name = op.name
        if name == "sdy.all_reduce":
            return local_collectives.all_reduce(ctx, op, x)
        if name == "sdy.reduce_scatter":
            return local_collectives.reduce_scatter(ctx, op, x)
        if ctx.sharding(op.results[0]) is None and ctx.sharding(op.operands[0]) is None:
            return x  # on a mesh of one device
        if name == "sdy.all_gather":
            return local_collectives.all_gather(ctx, op, x)
        if name == "sdy.all_slice":
            return local_collectives.all_slice(ctx, op, x)
        if name == "sdy.all_to_all":
            return local_collectives.all_to_all(ctx, op, x)
        source = ctx.sharding(op.operands[0])
        rank = len(op.operands[0].type.shape)
        source = _normal(ctx.axes_of(source, rank), ctx.mesh)
        target = _normal(ctx.sharded_axes(op.results[0]), ctx.mesh)
        if equivalent(source, target, None, op.operands[0].type.shape):
            return x
        return local_collectives.collective_permute(ctx, op, x, source)

    def _call(self, op: Op, operands: list[Value]) -> list[Value]:
        callee = self.source.function(op.attributes["callee"].name)
        signature = self.signatures[callee.name]
        operands = [
            self._conformed(v, x, self._arg_sharding(callee, i), op)
            for i, (v, x) in enumerate(zip(op.operands, operands, strict=True))
        ]
        new = self.ctx.op(
            "func.call", operands, signature.results, dict(op.attributes), location=op.location
        )
        new.inherent = op.inherent
        results = []
        for i, (r, x) in enumerate(zip(op.results, new.results, strict=True)):
            callee_sharding = self._result_sharding(callee, i)
            results.append(self._moved(x, r, callee_sharding, op))
        return results

    def _moved(self, x: Value, value: Value, held: TensorSharding | None, op: Op) -> Value:
        """Local `x` of `value` held as `held`, laid out as `value`'s own sharding."""
        ctx = self.ctx
        shape = value.type.shape
        a = ctx.axes_of(held, len(shape))
        b = ctx.sharded_axes(value)
        mesh = ctx.mesh_of_sharding(held)
        if equivalent(_normal(a, mesh), _normal(b, mesh), None, shape):
            return x
        if mesh == ctx.mesh_of(value):
            return relayout(ctx, x, a, b, shape, mesh)
        x = gather_dims(ctx, x, a, shape, mesh=mesh)
        return slice_dims(ctx, x, b, shape, mesh=ctx.mesh_of(value))


def _is_sharded(sharding: TensorSharding, mesh: Mesh) -> bool:
    """Whether `sharding` splits a value among devices (dims or unreduced axes)."""
    axes = [a for d in sharding.dims for a in d.axes] + list(sharding.unreduced)
    return any(a.size(mesh) > 1 for a in axes)


def _is_even(ctx: LocalContext, op: Op) -> bool:
    """Whether every sharded dim of every tensor of `op` divides into its shards."""
    for value in (*op.operands, *op.results):
        if not isinstance(value.type, TensorType):
            continue
        for size, axes in zip(value.type.shape, ctx.sharded_axes(value), strict=True):
            if axes and size % local_collectives.axes_size(axes, ctx.mesh_of(value)):
                return False
    return True


def _planned_attributes(ctx: LocalContext, op: Op, plan: FactorPlan) -> dict | None:
    """The attributes of a slice or dynamic_slice run as `plan` says: along
    sharded dims kept local (whole slices), the sizes are the local ones."""
    if op.name not in ("stablehlo.slice", "stablehlo.dynamic_slice"):
        return None
    source = op.operands[0]
    axes = ctx.sharded_axes(source)
    local = ctx.local_type(source, op).shape
    kept = [d for d, a in enumerate(axes) if a and d not in plan.gather[0]]
    if not kept:
        return None
    key = "limit_indices" if op.name == "stablehlo.slice" else "slice_sizes"
    values = list(i64_list(op, key))
    for d in kept:
        if values[d] != source.type.shape[d]:
            raise partition_error(op, f"dimension {d} is kept sharded but only partly taken")
        values[d] = local[d]
    return dict(op.attributes, **{key: DenseArrayAttr(I64, tuple(values))})


def _op_shardings(op: Op) -> list[tuple[Value, TensorSharding]]:
    """The shardings `op` states for its results and region arguments."""
    name = op.name
    if name in COLLECTIVES or (name.startswith("sdy.") and "out_sharding" in op.attributes):
        return [(op.results[0], op.attributes["out_sharding"])]
    if name in _RESHARDS:
        return [(op.results[0], op.attributes["sharding"])]
    if name in ("sdy.manual_computation", "sdy.named_computation"):
        out: list[tuple[Value, TensorSharding]] = []
        ins, outs = op.attributes.get("in_shardings"), op.attributes.get("out_shardings")
        manual = (
            set(op.attributes["manual_axes"].names) if "manual_axes" in op.attributes else set()
        )
        if isinstance(outs, TensorShardingPerValue):
            out += list(zip(op.results, outs.shardings, strict=True))
        if isinstance(ins, TensorShardingPerValue):
            body = op.regions[0].entry
            out += [
                (a, _free(s, manual)) for a, s in zip(body.arguments, ins.shardings, strict=True)
            ]
        return out
    per_value = op.attributes.get("sdy.sharding")
    if not isinstance(per_value, TensorShardingPerValue):
        return []
    out = list(zip(op.results, per_value.shardings, strict=True))
    if name == "stablehlo.while":
        for region in op.regions:
            out += list(zip(region.entry.arguments, per_value.shardings, strict=True))
    return out


def _free(sharding: TensorSharding, manual: set[str]) -> TensorSharding:
    """`sharding` without its manual axes (the sharding inside the body)."""
    dims = tuple(
        DimSharding(tuple(a for a in d.axes if a.name not in manual)) for d in sharding.dims
    )
    return TensorSharding(sharding.mesh, dims)


def _normal(axes_per_dim, mesh: Mesh) -> TensorSharding:
    return TensorSharding(mesh, tuple(DimSharding(tuple(a)) for a in axes_per_dim))


def _next_channel(module: Module) -> int:
    """One more than the largest channel handle in `module` (Shardy's numbering)."""
    largest = 0
    for op in module.walk():
        handle = op.attributes.get("channel_handle")
        if handle is not None and hasattr(handle, "get"):
            largest = max(largest, int(handle.get("handle", 0)))
    return largest + 1
