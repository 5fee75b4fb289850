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

from shardonnay.axes import AxisRef
from shardonnay.errors import PartitionError
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Block, Func, Module, Op, Region, Value
from shardonnay.ir.types import FunctionType, TensorType
from shardonnay.layout import equivalent
from shardonnay.mesh import Mesh
from shardonnay.ops.linalg import i64_list
from shardonnay.partition import local_collectives, local_indexing, local_ops
from shardonnay.partition.local_context import LocalContext, partition_error
from shardonnay.partition.local_ops import localize, reduction_of
from shardonnay.propagation.rules import rule_for
from shardonnay.sharding import DimSharding, TensorSharding, TensorShardingPerValue
from shardonnay.sharding_rule import OpShardingRule

COLLECTIVES = (
    "sdy.all_gather",
    "sdy.all_slice",
    "sdy.all_to_all",
    "sdy.collective_permute",
    "sdy.all_reduce",
    "sdy.reduce_scatter",
)
_RESHARDS = ("sdy.sharding_constraint", "sdy.reshard")
_UNSUPPORTED = ("sdy.replicated_to_unreduced", "sdy.sharded_to_unreduced")
_IDENTITIES = ("sdy.propagation_barrier", "sdy.data_flow_edge")
_COMBINERS = (
    "stablehlo.add",
    "stablehlo.multiply",
    "stablehlo.maximum",
    "stablehlo.minimum",
    "stablehlo.and",
    "stablehlo.or",
)

_HANDLERS = {
    "stablehlo.iota": local_ops.iota,
    "sdy.constant": local_ops.constant,
    "stablehlo.constant": local_ops.constant,
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
    "stablehlo.reduce": local_ops.reduce,
    "stablehlo.gather": local_indexing.gather,
    "stablehlo.scatter": local_indexing.scatter,
}


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
        self.mesh = Mesh()  # the one mesh of the program's shardings
        shardings = self._collect_shardings()
        self.ctx = LocalContext(
            Builder(self.out), self.meshes, self.mesh, shardings, _next_channel(module)
        )
        self.signatures = {f.name: self._signature(f) for f in module.functions}

    # -- shardings -------------------------------------------------------------------------------

    def _collect_shardings(self) -> dict[Value, TensorSharding]:
        """The sharding of every value of the global program, on one mesh."""
        found: list[tuple[Value, TensorSharding, Op]] = []
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
                    self._mesh_of(sharding, func.op)  # a known mesh
                    found.append((None, sharding, func.op))
        used: dict[Mesh, str] = {}
        for _, sharding, op in found:
            mesh = self._mesh_of(sharding, op)
            if mesh.size > 1:
                used.setdefault(mesh, str(sharding.mesh))
        if len(used) > 1:
            names = " and ".join(f"@{n}" if "<" not in n else n for n in used.values())
            raise PartitionError(
                f"the program has values on meshes {names}; resharding between meshes is "
                "not supported"
            )
        if used:
            self.mesh = next(iter(used))
        return {v: s for v, s, op in found if v is not None and self._mesh_of(s, op).size > 1}

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
        """`sharding`, or None (replicated) when its mesh has one device."""
        if sharding is None or self._mesh_of(sharding, op).size == 1:
            return None
        return sharding

    def _same_layout(self, value: Value, sharding: TensorSharding | None, op: Op, what: str):
        """Raises unless `value` is laid out on devices as `sharding` says."""
        if not isinstance(value.type, TensorType):
            return
        sharding = self._on_devices(sharding, op)
        shape = value.type.shape
        ctx = self.ctx
        a = _normal(ctx.sharded_axes(value), self.mesh)
        b = _normal(ctx.axes_of(sharding, len(shape)), self.mesh)
        if not equivalent(a, b, None, shape):
            raise partition_error(
                op, f"{what} is sharded {_dims(a)} but must be sharded {_dims(b)}"
            )

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
        with self.ctx.builder.at_end(block):
            for op in func.body.ops:
                self._op(op)
        return new

    def _region(self, op: Op, region: Region) -> Region:
        new = Region()
        for block in region.blocks:
            copy = new.append(Block([self.ctx.local_type(a, op) for a in block.arguments]))
            self.values.update(zip(block.arguments, copy.arguments, strict=True))
            with self.ctx.builder.at_end(copy):
                for inner in block.ops:
                    self._op(inner)
        return new

    def _op(self, op: Op) -> None:
        name = op.name
        operands = [self.values[v] for v in op.operands]
        if name in ("func.return", "stablehlo.return"):
            self._check_returned(op)
            self.ctx.op(name, operands, [], dict(op.attributes), location=op.location)
            return
        if name in ("sdy.manual_computation", "sdy.named_computation"):
            self._inline(op, operands)
            return
        if name == "sdy.sharding_group":
            return
        if name in _UNSUPPORTED:
            raise partition_error(op, "values with unreduced axes are not supported")
        if name in _IDENTITIES:
            results = operands
        elif name in _RESHARDS:
            results = [self._reshard(op, operands[0])]
        elif name in COLLECTIVES:
            results = [self._collective(op, operands[0])]
        elif name == "func.call":
            results = self._call(op, operands)
        else:
            if name == "stablehlo.while":
                for i, (v, r) in enumerate(zip(op.operands, op.results, strict=True)):
                    self._same_layout(v, self.ctx.sharding(r), op, f"operand {i}")
            elif name not in ("stablehlo.gather", "stablehlo.scatter"):
                self._check_factors(op)
            regions = [self._region(op, r) for r in op.regions]
            handler = _HANDLERS.get(name, localize)
            results = handler(self.ctx, op, operands, regions)
        self.values.update(zip(op.results, results, strict=True))

    def _check_factors(self, op: Op) -> None:
        """Raises if two tensors of `op` shard one factor of its sharding rule
        differently (checked where a dim is that factor alone)."""
        rule = rule_for(op)
        if rule is None:
            rule = _pointwise_rule(op)
            sharded = any(any(self.ctx.sharded_axes(v)) for v in (*op.operands, *op.results))
            if rule is None and not op.regions and sharded:
                raise partition_error(op, "the op has no sharding rule but sharded values")
            if rule is None:
                return
        seen: dict[int, tuple[tuple, int, str]] = {}
        tensors = [("operand", i, v) for i, v in enumerate(op.operands)]
        tensors += [("result", i, v) for i, v in enumerate(op.results)]
        mappings = (*rule.operand_mappings, *rule.result_mappings)
        for (kind, index, value), mapping in zip(tensors, mappings, strict=True):
            if not isinstance(value.type, TensorType):
                continue
            axes = self.ctx.sharded_axes(value)
            for dim, factors in enumerate(mapping):
                if len(factors) != 1 or rule.factor_sizes[factors[0]] != value.type.shape[dim]:
                    continue
                merged = _merged(axes[dim], self.mesh)
                first = seen.setdefault(factors[0], (merged, index, kind))
                if first[0] != merged:
                    raise partition_error(
                        op,
                        f"{first[2]} {first[1]} and {kind} {index} shard one dimension of the "
                        f"op differently ({_axes(first[0])} vs {_axes(merged)}); a reshard is "
                        "missing",
                    )

    def _check_returned(self, op: Op) -> None:
        parent = op.parent.parent_op if op.parent is not None else None
        if op.name == "func.return":
            func = Func(parent)
            for i, v in enumerate(op.operands):
                self._same_layout(v, self._result_sharding(func, i), op, f"result {i}")
        elif parent is not None and parent.name in (
            "stablehlo.while",
            "stablehlo.case",
            "stablehlo.if",
        ):
            if parent.name == "stablehlo.while" and op.parent is parent.regions[0].entry:
                return  # the condition returns a predicate
            for i, (v, r) in enumerate(zip(op.operands, parent.results, strict=True)):
                self._same_layout(v, self.ctx.sharding(r), op, f"value {i}")

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
        returned = [self.values[v] for v in body.ops[-1].operands]
        for i, (result, new) in enumerate(zip(op.results, returned, strict=True)):
            expected = self.ctx.local_type(result, op)
            if new.type != expected:
                raise partition_error(
                    op, f"result {i} is {new.type} per device but must be {expected}"
                )
            self.values[result] = new

    def _reshard(self, op: Op, x: Value) -> Value:
        """A reshard left in the program: a no-op, or a slice of a replicated value."""
        source, result = op.operands[0], op.results[0]
        if self.ctx.is_replicated(source) and not self.ctx.is_replicated(result):
            local = self.ctx.local_type(result, op)
            return self.ctx.dynamic_slice_for_axes(x, self.ctx.sharded_axes(result), local)
        self._same_layout(source, self.ctx.sharding(result), op, "the operand")
        return x

    def _collective(self, op: Op, x: Value) -> Value:
        ctx = self.ctx
        if ctx.sharding(op.results[0]) is None:  # on a mesh of one device
            return x
        name = op.name
        if name == "sdy.all_gather":
            return local_collectives.all_gather(ctx, op, x)
        if name == "sdy.all_slice":
            return local_collectives.all_slice(ctx, op, x)
        if name == "sdy.all_to_all":
            return local_collectives.all_to_all(ctx, op, x)
        if name == "sdy.collective_permute":
            source = ctx.sharding(op.operands[0])
            rank = len(op.operands[0].type.shape)
            source = _normal(ctx.axes_of(source, rank), self.mesh)
            target = _normal(ctx.sharded_axes(op.results[0]), self.mesh)
            if equivalent(source, target, None, op.operands[0].type.shape):
                return x
            return local_collectives.collective_permute(ctx, op, x, source)
        if name == "sdy.all_reduce":
            return local_collectives.all_reduce(ctx, op, x, self._reduction(op))
        return local_collectives.reduce_scatter(ctx, op, x)

    def _reduction(self, op: Op) -> str:
        """The reduction completing the partial results `op` combines: that of
        the reduce (or scatter) defining them when it left them partial along
        `op`'s axes, else a sum."""
        producer = op.operands[0].op
        if producer is None or producer.name not in ("stablehlo.reduce", "stablehlo.scatter"):
            return "stablehlo.add"
        axes = set(_merged(op.attributes["reduction_axes"].axes, self.mesh))
        if producer.name == "stablehlo.reduce":
            dims = set(i64_list(producer, "dimensions"))
            split = self.ctx.sharded_axes(producer.operands[0])
        else:
            count = len(producer.results)
            windows = set(producer.attributes["scatter_dimension_numbers"]["update_window_dims"])
            dims = set(range(len(producer.operands[count + 1].type.shape))) - windows
            split = self.ctx.sharded_axes(producer.operands[count + 1])
        partial = {a for d in dims for a in _merged(split[d], self.mesh)}
        if not axes <= partial:
            return "stablehlo.add"
        kind = reduction_of(producer.regions[0])
        if kind not in _COMBINERS:
            raise partition_error(
                op, f"it combines partial results of a {producer.name} with an unknown reduction"
            )
        return kind

    def _call(self, op: Op, operands: list[Value]) -> list[Value]:
        callee = self.source.function(op.attributes["callee"].name)
        signature = self.signatures[callee.name]
        for i, v in enumerate(op.operands):
            self._same_layout(v, self._arg_sharding(callee, i), op, f"operand {i}")
        for i, r in enumerate(op.results):
            self._same_layout(r, self._result_sharding(callee, i), op, f"result {i}")
        new = self.ctx.op(
            "func.call", operands, signature.results, dict(op.attributes), location=op.location
        )
        new.inherent = op.inherent
        return list(new.results)


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


def _pointwise_rule(op: Op) -> OpShardingRule | None:
    """For an op without a rule whose tensors all have one shape: one factor per dim."""
    shapes = {v.type.shape for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}
    if len(shapes) != 1 or op.regions:
        return None
    (shape,) = shapes
    mapping = tuple((d,) for d in range(len(shape)))
    return OpShardingRule(shape, (mapping,) * len(op.operands), (mapping,) * len(op.results))


def _merged(axes, mesh: Mesh) -> tuple:
    """`axes` with adjacent sub-axes of one axis merged (`"x":(1)2, "x":(2)2` is `"x"`)."""
    out: list = []
    for axis in axes:
        if out and out[-1].can_merge(axis):
            out[-1] = out[-1].merge(axis, mesh)
        else:
            out.append(axis)
    return tuple(AxisRef(a.name) if a.size(mesh) == mesh.axis_size(a.name) else a for a in out)


def _axes(axes) -> str:
    return "{" + ", ".join(str(a) for a in axes) + "}"


def _normal(axes_per_dim, mesh: Mesh) -> TensorSharding:
    return TensorSharding(mesh, tuple(DimSharding(tuple(a)) for a in axes_per_dim))


def _dims(sharding: TensorSharding) -> str:
    return "[" + ", ".join(str(d) for d in sharding.dims) + "]"


def _next_channel(module: Module) -> int:
    """One more than the largest channel handle in `module` (Shardy's numbering)."""
    largest = 0
    for op in module.walk():
        handle = op.attributes.get("channel_handle")
        if handle is not None and hasattr(handle, "get"):
            largest = max(largest, int(handle.get("handle", 0)))
    return largest + 1
