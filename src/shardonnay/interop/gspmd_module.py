"""Modules annotated the GSPMD way, to and from modules annotated with sdy.

Before Shardy, JAX, TensorFlow and PyTorch/XLA wrote shardings into StableHLO
as `HloSharding` text (`shardonnay.interop.gspmd`):

- `mhlo.sharding = "{devices=[2,4]<=[8]}"` on function arguments and results,
  and on ops (a tuple `{{...}, {...}}` on ops with several results);
- `stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "..."}` for a sharding
  constraint, whose `backend_config = "unspecified_dims=[1]"` leaves dims for
  propagation to decide;
- `shard_map`: `@Sharding` + `@SPMDFullToShardShape` on each operand, a call of
  the per-device body, and `@Sharding {manual}` + `@SPMDShardToFullShape` on
  each result.

`import_gspmd` turns these into what XLA's Shardy import makes of them: one
`sdy.mesh @mesh` whose axes `"_axis_0"`, `"_axis_1"`, ... (major first) cut the
device ids at every boundary any sharding's tile assignment needs,
`sdy.sharding`s, `sdy.sharding_constraint`s (open dims for `unspecified_dims`)
and `sdy.manual_computation`s; `{maximal device=n}` gets a mesh
`@maximal_mesh_n`, and a device list that is no iota and that no axes of `@mesh`
order gets a mesh `@mesh_1`, ... of its own with the list as `device_ids`.
`export_gspmd` goes back. Each sharding keeps which data every device holds
(`shardonnay.layout`), so the imported module propagates and partitions as its
Shardy-annotated twin does.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> gspmd = parse_module('''
... func.func @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"})
...     -> tensor<8x16xf32> {
...   %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[1]",
...       mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}
...       : (tensor<8x16xf32>) -> tensor<8x16xf32>
...   return %0 : tensor<8x16xf32>
... }''')
>>> print(import_gspmd(gspmd).to_text().strip())
module {
  sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>}) -> tensor<8x16xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"_axis_0"}, {?}]> : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
>>> back = export_gspmd(import_gspmd(gspmd))
>>> back.function("main").op.walk().__next__().attributes["arg_attrs"][0]
{'mhlo.sharding': '{devices=[2,4]<=[8]}'}
"""  # noqa: E501

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shardonnay.errors import IRError, ShardingError, UnsupportedOpError
from shardonnay.interop.gspmd import HloSharding, from_tensor_sharding
from shardonnay.interop.gspmd_annotations import (
    ATTR,
    FULL_TO_SHARD,
    SHARD_TO_FULL,
    SHARDING,
    MeshImporter,
    backend_config,
    is_custom_call,
    marked_annotation,
    parse_hlo_shardings,
)
from shardonnay.interop.gspmd_shard_map import (
    import_inline_shard_map,
    import_shard_map,
    is_shard_map_call,
)
from shardonnay.ir.attributes import IntegerAttr, SymbolRefAttr
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import SHARDING as SDY_SHARDING
from shardonnay.mesh import Mesh
from shardonnay.ops.traits import SHARDING_ANNOTATION, has_trait
from shardonnay.sharding import DimSharding, TensorSharding, TensorShardingPerValue

__all__ = ["export_gspmd", "import_gspmd", "parse_hlo_shardings"]

# -- import ------------------------------------------------------------------------------


def import_gspmd(module: Module) -> Module:
    """A copy of `module` with its GSPMD annotations as sdy meshes, shardings and ops.

    Raises `ShardingError` (saying where) for a sharding no mesh axes express,
    and `IRError` for `@SPMDFullToShardShape`/`@SPMDShardToFullShape` custom calls
    that do not form a `shard_map` (a call of the body between the two).
    """
    module = module.copy()
    functions = {f.name: f for f in module.functions}
    texts = [a[ATTR] for f in functions.values() for a in _attr_dicts(f) if ATTR in a]
    texts += [op.attributes[ATTR] for op in module.walk() if ATTR in op.attributes]
    if not texts:
        return module
    importer = MeshImporter(module, [h for t in texts for h in parse_hlo_shardings(t)])
    while call := next((op for op in module.walk() if is_shard_map_call(op)), None):
        import_shard_map(call, functions, importer)  # outer first: its body holds inner ones
    while entry := next((op for op in module.walk() if is_custom_call(op, FULL_TO_SHARD)), None):
        import_inline_shard_map(entry, importer)
    for op in list(module.walk()):
        if is_custom_call(op, SHARD_TO_FULL):
            raise IRError(
                f"custom_call @{SHARD_TO_FULL} outside a shard_map: the body's results go "
                f"through @{SHARDING} {{manual}} into @{SHARD_TO_FULL}, its operands come "
                f"through @{FULL_TO_SHARD}"
            )
        if is_custom_call(op, SHARDING):
            _import_constraint(op, importer)
        elif ATTR in op.attributes:
            _import_op_sharding(op, importer)
    for f in module.functions:
        for i, attrs in enumerate(f.op.attributes.get("arg_attrs", ())):
            _import_value_attrs(attrs, f.type.inputs[i], importer, f"@{f.name} argument {i}")
        for i, attrs in enumerate(f.op.attributes.get("res_attrs", ())):
            _import_value_attrs(attrs, f.type.results[i], importer, f"@{f.name} result {i}")
    for i, op in enumerate(importer.meshes()):
        module.body.insert(i, op)
    return module


def _attr_dicts(f: Func) -> list[dict]:
    return [*f.op.attributes.get("arg_attrs", ()), *f.op.attributes.get("res_attrs", ())]


def _import_value_attrs(attrs: dict, type: Any, importer: MeshImporter, where: str) -> None:
    if ATTR not in attrs:
        return
    (hlo,) = parse_hlo_shardings(attrs.pop(ATTR))
    annotation = importer.convert(hlo, type, where)
    if annotation.manual:
        raise ShardingError(f"{where}: a function's {ATTR} cannot be manual")
    attrs[SDY_SHARDING] = annotation.sharding


def _import_constraint(op: Op, importer: MeshImporter) -> None:
    """`@Sharding` → `sdy.sharding_constraint`, open where `unspecified_dims` says."""
    sharding = marked_annotation(op, importer, f"custom_call @{SHARDING}").sharding
    constraint = Op("sdy.sharding_constraint", op.operands, op.result_types, {"sharding": sharding})
    op.parent.insert_before(op, constraint)
    op.results[0].replace_all_uses_with(constraint.results[0])
    op.erase()


def _import_op_sharding(op: Op, importer: MeshImporter) -> None:
    hlos = parse_hlo_shardings(op.attributes.pop(ATTR))
    if len(hlos) != len(op.results):
        raise ShardingError(
            f"{op.name}: {ATTR} has {len(hlos)} shardings for {len(op.results)} results"
        )
    annotations = [
        importer.convert(h, r.type, f"{op.name} result {i}")
        for i, (h, r) in enumerate(zip(hlos, op.results, strict=True))
    ]
    op.attributes[SDY_SHARDING] = TensorShardingPerValue([a.sharding for a in annotations])


# -- export ------------------------------------------------------------------------------


def export_gspmd(module: Module) -> Module:
    """A copy of `module` with its sdy annotations written the GSPMD way.

    Meshes disappear into device lists; `sdy.sharding_constraint` and
    `sdy.reshard` become `@Sharding` custom calls (open dims listed in
    `unspecified_dims`); each `sdy.manual_computation` becomes a private
    function called between `@SPMDFullToShardShape` and `@SPMDShardToFullShape`.
    Without `mhlo.num_partitions`, the module gets one (the devices its meshes
    use), so that a replicated sharding keeps its device count. Open dims of
    arguments, results and op results, and priorities, have no GSPMD spelling
    and are dropped. Raises `ShardingError` for unreduced axes
    and `UnsupportedOpError` for sdy ops GSPMD has no counterpart of.
    """
    module = module.copy()
    meshes = module.meshes
    exporter = _Exporter(module, meshes)
    for f in module.functions:
        for attrs in _attr_dicts(f):
            if SDY_SHARDING in attrs:
                attrs[ATTR] = exporter.text(attrs.pop(SDY_SHARDING))
    for op in list(module.walk_post_order()):
        exporter.export(op)
    for op in [op for op in module.ops if op.name == "sdy.mesh"]:
        op.erase()
    if meshes and "mhlo.num_partitions" not in module.attributes:
        count = max(max(m.device_list, default=0) + 1 for m in meshes.values())
        module.attributes["mhlo.num_partitions"] = IntegerAttr(count, "i32")
    return module


class _Exporter:
    def __init__(self, module: Module, meshes: dict[str, Mesh]):
        self.module = module
        self.meshes = meshes
        self.bodies = 0

    def text(self, sharding: TensorSharding, manual: tuple[str, ...] = ()) -> str:
        mesh = sharding.resolve_mesh(self._mesh(sharding))
        if not manual:
            return str(from_tensor_sharding(sharding, mesh))
        free = [n for n in mesh.axis_names if n not in manual]
        if not free:
            return "{manual}"
        widened = replace(sharding, dims=(*sharding.dims, DimSharding(tuple(manual))))
        hlo = from_tensor_sharding(widened, mesh)
        rank = len(sharding.dims)
        if hlo.kind != "tiled":
            raise ShardingError(f"internal error: manual axes vanished from {hlo}")
        subgroups = ("manual", *hlo.subgroups) if len(hlo.data_dims) == rank + 1 else hlo.subgroups
        return str(HloSharding.tiled(hlo.tile_dims, hlo.devices, subgroups))

    def _mesh(self, sharding: TensorSharding) -> Mesh | None:
        if isinstance(sharding.mesh, Mesh):
            return None
        if sharding.mesh not in self.meshes:
            raise ShardingError(f"unknown mesh: @{sharding.mesh}")
        return self.meshes[sharding.mesh]

    def manual_axes(self, op: Op) -> tuple[str, ...]:
        """The manual axes of the manual computations around `op`."""
        axes: list[str] = []
        parent = op.parent_op
        while parent is not None:
            if parent.name == "sdy.manual_computation":
                axes = list(parent.attributes["manual_axes"].names) + axes
            parent = parent.parent_op
        return tuple(axes)

    def export(self, op: Op) -> None:
        manual = self.manual_axes(op)
        if has_trait(op, SHARDING_ANNOTATION):
            sharding = op.attributes["sharding"]
            attrs = {
                "call_target_name": SHARDING,
                "backend_config": backend_config(sharding),
                ATTR: self.text(sharding, manual),
            }
            self._replace(op, attrs)
        elif op.name == "sdy.manual_computation":
            self._export_manual_computation(op, manual)
        elif op.name.startswith("sdy.") and op.name not in ("sdy.mesh", "sdy.return"):
            raise UnsupportedOpError(f"{op.name} has no GSPMD counterpart")
        elif SDY_SHARDING in op.attributes:
            shardings = op.attributes.pop(SDY_SHARDING).shardings
            texts = [self.text(s, manual) for s in shardings]
            op.attributes[ATTR] = texts[0] if len(texts) == 1 else "{" + ", ".join(texts) + "}"

    def _replace(self, op: Op, attrs: dict) -> None:
        call = Op("stablehlo.custom_call", op.operands, op.result_types, attrs)
        op.parent.insert_before(op, call)
        op.results[0].replace_all_uses_with(call.results[0])
        op.erase()

    def _export_manual_computation(self, op: Op, outer: tuple[str, ...]) -> None:
        manual = (*outer, *op.attributes["manual_axes"].names)
        body = op.regions[0].entry
        name = self._body_name()
        callee = Func.create(
            name,
            [a.type for a in body.arguments],
            [v.type for v in body.ops[-1].operands],
            visibility="private",
        )
        mapping: dict[Value, Value] = dict(zip(body.arguments, callee.arguments, strict=True))
        for inner in body.ops[:-1]:
            callee.body.append(inner.clone(mapping))
        callee.body.append(Op("func.return", [mapping.get(v, v) for v in body.ops[-1].operands]))
        function = op
        while function.parent_op is not None and function.name != "func.func":
            function = function.parent_op
        self.module.body.insert(self.module.body.ops.index(function) + 1, callee.op)
        block = op.parent
        in_shardings = op.attributes["in_shardings"].shardings
        locals_ = []
        for value, sharding, arg in zip(op.operands, in_shardings, body.arguments, strict=True):
            mark = Op(
                "stablehlo.custom_call",
                [value],
                [value.type],
                {
                    "call_target_name": SHARDING,
                    "backend_config": backend_config(sharding),
                    ATTR: self.text(sharding, outer),
                },
            )
            to_shard = Op(
                "stablehlo.custom_call",
                mark.results,
                [arg.type],
                {
                    "call_target_name": FULL_TO_SHARD,
                    "backend_config": backend_config(sharding),
                    ATTR: self._manual_text(sharding, manual, len(arg.type.shape)),
                },
            )
            block.insert_before(op, mark)
            block.insert_before(op, to_shard)
            locals_.append(to_shard.results[0])
        call = Op("func.call", locals_, callee.type.results, {"callee": _symbol(name)})
        block.insert_before(op, call)
        out_shardings = op.attributes["out_shardings"].shardings
        for result, local, sharding in zip(op.results, call.results, out_shardings, strict=True):
            rank = len(local.type.shape)
            mark = Op(
                "stablehlo.custom_call",
                [local],
                [local.type],
                {
                    "call_target_name": SHARDING,
                    "backend_config": backend_config(sharding),
                    ATTR: self._manual_text(sharding, manual, rank),
                },
            )
            full = Op(
                "stablehlo.custom_call",
                mark.results,
                [result.type],
                {
                    "call_target_name": SHARD_TO_FULL,
                    "backend_config": backend_config(sharding),
                    ATTR: self.text(sharding, outer),
                },
            )
            block.insert_before(op, mark)
            block.insert_before(op, full)
            result.replace_all_uses_with(full.results[0])
        op.erase()

    def _manual_text(self, sharding: TensorSharding, manual: tuple[str, ...], rank: int) -> str:
        return self.text(TensorSharding.replicated_on(sharding.mesh, rank), manual)

    def _body_name(self) -> str:
        """`shmap_body`, then `shmap_body_0`, `shmap_body_1`, ... (MLIR's symbol uniquing)."""
        taken = {f.name for f in self.module.functions}
        name = "shmap_body"
        while name in taken:
            name = f"shmap_body_{self.bodies}"
            self.bodies += 1
        return name


def _symbol(name: str) -> SymbolRefAttr:
    return SymbolRefAttr((name,))
