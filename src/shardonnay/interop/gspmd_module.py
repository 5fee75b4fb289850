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

import math
import re
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from shardonnay.errors import IRError, ShardingError, UnsupportedOpError
from shardonnay.interop.gspmd import HloSharding, from_tensor_sharding, to_tensor_sharding
from shardonnay.ir.attributes import IntegerAttr, SymbolRefAttr
from shardonnay.ir.core import Block, Func, Module, Op, Region, Value
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.sharding import (
    DimSharding,
    ManualAxes,
    TensorSharding,
    TensorShardingPerValue,
)
from shardonnay.syntax.cursor import Cursor

__all__ = ["export_gspmd", "import_gspmd", "parse_hlo_shardings"]

ATTR = "mhlo.sharding"
SHARDING = "Sharding"
FULL_TO_SHARD = "SPMDFullToShardShape"
SHARD_TO_FULL = "SPMDShardToFullShape"
_UNSPECIFIED = re.compile(r"unspecified_dims=\[([0-9,\s]*)\]")


# -- reading shardings -------------------------------------------------------------------


def parse_hlo_shardings(text: str) -> tuple[HloSharding, ...]:
    """One sharding per value: a tuple sharding `{{...}, {...}}` gives one per element.

    >>> [str(h) for h in parse_hlo_shardings("{{replicated}, {devices=[2]0,1}}")]
    ['{replicated}', '{devices=[2]<=[2]}']
    >>> [str(h) for h in parse_hlo_shardings("{maximal device=1}")]
    ['{maximal device=1}']
    """
    stripped = text.strip()
    if not stripped.startswith("{") or not stripped[1:].lstrip().startswith("{"):
        return (HloSharding.parse(text),)
    cursor = Cursor(text)
    cursor.expect("{", "'{' starting a tuple sharding")
    if cursor.accept("}"):
        return ()
    elements = []
    while True:
        cursor.skip_space()
        start = cursor.pos
        depth = 0
        while True:
            if cursor.pos >= len(text):
                raise cursor.error("unterminated tuple sharding")
            char = text[cursor.pos]
            cursor.pos += 1
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0:
                break
        elements.append(HloSharding.parse(text[start : cursor.pos]))
        if cursor.accept("}"):
            cursor.expect_end()
            return tuple(elements)
        cursor.expect(",", "',' or '}' after a tuple element")


@dataclass(frozen=True)
class _Annotation:
    """One sharding of a value in sdy terms: its free part and its manual axes."""

    sharding: TensorSharding
    manual: tuple[str, ...]


class _Importer:
    """The mesh for all of a module's GSPMD shardings, and each sharding on it."""

    def __init__(self, module: Module, shardings: list[HloSharding]):
        self.mesh = _common_mesh(module, shardings)
        self.maximal: dict[int, str] = {}
        self.ordered: dict[Mesh, str] = {}  # meshes with device_ids, for device lists

    def convert(self, hlo: HloSharding, type: Any, where: str) -> _Annotation:
        rank = len(type.shape) if isinstance(type, TensorType) else 0
        try:
            return self._convert(hlo, rank)
        except ShardingError as e:
            raise ShardingError(f"{where}: {ATTR} {str(hlo)!r}: {e}") from None

    def _convert(self, hlo: HloSharding, rank: int) -> _Annotation:
        if hlo.kind == "maximal":
            name = self.maximal.setdefault(hlo.devices[0], f"maximal_mesh_{hlo.devices[0]}")
            return _Annotation(TensorSharding(name, ()), ())
        if hlo.kind == "manual":
            return _Annotation(TensorSharding.replicated_on("mesh", rank), self.mesh.axis_names)
        if "manual" not in hlo.subgroups:
            try:
                return _Annotation(to_tensor_sharding(hlo, rank, self.mesh)[0], ())
            except ShardingError:
                if hlo.iota() is not None:
                    raise
            # a device list no axes of the common mesh order: a mesh of its own, with
            # the list as device_ids (as XLA's import does)
            sharding, mesh = to_tensor_sharding(hlo, rank)
            name = self.ordered.setdefault(mesh, f"mesh_{len(self.ordered) + 1}")
            return _Annotation(replace(sharding, mesh=name), ())
        # the manual subgroup dim read as one more data dim: its axes are the manual axes
        others = tuple(s for s in hlo.subgroups if s != "manual")
        widened = HloSharding.tiled(hlo.tile_dims, hlo.devices, others)
        sharding = to_tensor_sharding(widened, rank + 1, self.mesh)[0]
        manual = sharding.dims[rank].axes
        if any(a.is_sub_axis for a in manual):
            raise ShardingError("its manual devices are not whole axes of the mesh")
        return _Annotation(
            replace(sharding, dims=sharding.dims[:rank]), tuple(a.name for a in manual)
        )

    def meshes(self) -> list[Op]:
        ops = [Op("sdy.mesh", attributes={"sym_name": "mesh", "mesh": self.mesh})]
        for mesh, name in self.ordered.items():
            ops.append(Op("sdy.mesh", attributes={"sym_name": name, "mesh": mesh}))
        for device, name in sorted(self.maximal.items()):
            ops.append(Op("sdy.mesh", attributes={"sym_name": name, "mesh": Mesh((), [device])}))
        return ops


def _common_mesh(module: Module, shardings: list[HloSharding]) -> Mesh:
    """Axes that cut the device ids (0..N-1, row-major) wherever a tile assignment does."""
    tiled = [h for h in shardings if h.kind == "tiled"]
    count = module.attributes.get("mhlo.num_partitions")
    count = getattr(count, "value", None) or max((len(h.devices) for h in tiled), default=1)
    cuts = {1, count}
    for hlo in tiled:
        iota = hlo.iota()
        if iota is None:
            continue
        reshape, perm = iota
        pieces = _pieces([(reshape[p], p) for p in perm], hlo.tile_dims)
        if pieces is None:
            continue
        for dim in range(len(reshape)):
            stride = math.prod(reshape[dim + 1 :])
            for size in reversed([s for s, d in pieces if d == dim]):
                cuts |= {stride, stride * size}
                stride *= size
    chain = sorted(cuts)
    if any(b % a for a, b in pairwise(chain)):
        raise ShardingError(
            f"the module's shardings cut its {count} devices at {chain}, which do not divide one "
            "another: no one mesh has axes for all of them"
        )
    sizes = [b // a for a, b in pairwise(chain)][::-1]
    return Mesh([(f"_axis_{i}", s) for i, s in enumerate(sizes)])


def _pieces(outer: list[tuple[int, int]], tile_dims) -> list[tuple[int, int]] | None:
    """The common refinement of the iota's dims and the tile dims: `[(size, iota dim)]`."""
    pieces, a, b = [], list(outer), list(tile_dims)
    while a and b:
        if a[0][0] == 1 or b[0] == 1:
            a, b = (a[1:], b) if a[0][0] == 1 else (a, b[1:])
            continue
        g = math.gcd(a[0][0], b[0])
        if g == 1:
            return None
        pieces.append((g, a[0][1]))
        a[0], b[0] = (a[0][0] // g, a[0][1]), b[0] // g
    return pieces


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
    importer = _Importer(module, [h for t in texts for h in parse_hlo_shardings(t)])
    for call in [op for op in module.walk() if _is_shard_map_call(op)]:
        _import_shard_map(call, functions, importer)
    for op in list(module.walk()):
        if _is_custom_call(op, FULL_TO_SHARD) or _is_custom_call(op, SHARD_TO_FULL):
            raise IRError(
                f"custom_call @{op.attributes['call_target_name']} outside a shard_map: its "
                "operands must come through @SPMDFullToShardShape into a call of the body, whose "
                "results go through @Sharding {manual} into @SPMDShardToFullShape"
            )
        if _is_custom_call(op, SHARDING):
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


def _is_custom_call(op: Op, target: str) -> bool:
    return op.name == "stablehlo.custom_call" and op.attributes.get("call_target_name") == target


def _single(op: Op, importer: _Importer, where: str) -> _Annotation:
    (hlo,) = parse_hlo_shardings(op.attributes[ATTR])
    return importer.convert(hlo, op.result_types[0], where)


def _import_value_attrs(attrs: dict, type: Any, importer: _Importer, where: str) -> None:
    if ATTR not in attrs:
        return
    (hlo,) = parse_hlo_shardings(attrs.pop(ATTR))
    annotation = importer.convert(hlo, type, where)
    if annotation.manual:
        raise ShardingError(f"{where}: a function's {ATTR} cannot be manual")
    attrs["sdy.sharding"] = annotation.sharding


def _import_constraint(op: Op, importer: _Importer) -> None:
    """`@Sharding` → `sdy.sharding_constraint`, open where `unspecified_dims` says."""
    sharding = _marked(op, importer, f"custom_call @{SHARDING}").sharding
    constraint = Op("sdy.sharding_constraint", op.operands, op.result_types, {"sharding": sharding})
    op.parent.insert_before(op, constraint)
    op.results[0].replace_all_uses_with(constraint.results[0])
    op.erase()


def _marked(op: Op, importer: _Importer, where: str) -> _Annotation:
    """The sharding of a custom call, its `unspecified_dims` open (inside a manual
    body: on the free axes only)."""
    annotation = _single(op, importer, where)
    unspecified = _unspecified_dims(op)
    dims = tuple(
        DimSharding(d.axes, is_closed=i not in unspecified)
        for i, d in enumerate(annotation.sharding.dims)
    )
    return replace(annotation, sharding=replace(annotation.sharding, dims=dims))


def _unspecified_dims(op: Op) -> set[int]:
    config = op.attributes.get("backend_config", "")
    found = _UNSPECIFIED.search(config) if isinstance(config, str) else None
    if found is None:
        return set()
    return {int(d) for d in found.group(1).replace(" ", "").split(",") if d}


def _import_op_sharding(op: Op, importer: _Importer) -> None:
    hlos = parse_hlo_shardings(op.attributes.pop(ATTR))
    if len(hlos) != len(op.results):
        raise ShardingError(
            f"{op.name}: {ATTR} has {len(hlos)} shardings for {len(op.results)} results"
        )
    annotations = [
        importer.convert(h, r.type, f"{op.name} result {i}")
        for i, (h, r) in enumerate(zip(hlos, op.results, strict=True))
    ]
    op.attributes["sdy.sharding"] = TensorShardingPerValue([a.sharding for a in annotations])


def _is_shard_map_call(op: Op) -> bool:
    return (
        op.name == "func.call"
        and bool(op.operands)
        and all(v.op is not None and _is_custom_call(v.op, FULL_TO_SHARD) for v in op.operands)
    )


def _import_shard_map(call: Op, functions: dict[str, Func], importer: _Importer) -> None:
    """`@Sharding`+`@SPMDFullToShardShape` → call → `@Sharding`+`@SPMDShardToFullShape`
    becomes one `sdy.manual_computation` whose body is the callee's."""
    where = f"shard_map calling @{call.attributes['callee'].names[-1]}"
    operands, in_shardings, to_erase, manual = [], [], [], None
    for value in call.operands:
        to_shard = value.op
        mark = to_shard.operand(0).op
        if mark is None or not _is_custom_call(mark, SHARDING):
            raise IRError(f"{where}: @{FULL_TO_SHARD}'s operand is not a @{SHARDING} custom call")
        operands.append(mark.operand(0))
        in_shardings.append(_marked(mark, importer, where).sharding)
        axes = _single(to_shard, importer, where).manual
        if manual is not None and axes != manual:
            raise ShardingError(f"{where}: operands are manual on different axes")
        manual = axes
        to_erase += [to_shard, mark]
    out_shardings, to_full = [], []
    for result in call.results:
        users = result.users
        mark = users[0] if len(users) == 1 else None
        if mark is None or not _is_custom_call(mark, SHARDING) or len(mark.results[0].users) != 1:
            raise IRError(f"{where}: each result must go through one @{SHARDING} {{manual}}")
        full = mark.results[0].users[0]
        if not _is_custom_call(full, SHARD_TO_FULL):
            raise IRError(f"{where}: each result must end in @{SHARD_TO_FULL}")
        out_shardings.append(_marked(full, importer, where).sharding)
        to_full.append(full)
        to_erase.insert(0, mark)
    callee = functions[call.attributes["callee"].names[-1]]
    body = Block([v.type for v in call.operands])
    mapping = dict(zip(callee.arguments, body.arguments, strict=True))
    for op in callee.body.ops[:-1]:
        body.append(op.clone(mapping))
    body.append(Op("sdy.return", [mapping.get(v, v) for v in callee.return_op.operands]))
    computation = Op(
        "sdy.manual_computation",
        operands,
        [f.result_types[0] for f in to_full],
        {
            "in_shardings": TensorShardingPerValue(in_shardings),
            "out_shardings": TensorShardingPerValue(out_shardings),
            "manual_axes": ManualAxes(manual or ()),
        },
        [Region([body])],
    )
    call.parent.insert_before(call, computation)
    for full, result in zip(to_full, computation.results, strict=True):
        full.results[0].replace_all_uses_with(result)
        full.erase()
    for op in [*to_erase[: len(to_full)], call, *to_erase[len(to_full) :]]:
        if op.parent is not None and not any(r.users for r in op.results):
            op.erase()
    _drop_if_uncalled(callee, functions)


def _drop_if_uncalled(callee: Func, functions: dict[str, Func]) -> None:
    if callee.visibility != "private":
        return
    for f in functions.values():
        for op in f.walk():
            if op.name == "func.call" and op.attributes["callee"].names[-1] == callee.name:
                return
    callee.op.erase()
    del functions[callee.name]


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
            if "sdy.sharding" in attrs:
                attrs[ATTR] = exporter.text(attrs.pop("sdy.sharding"))
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
        if op.name in ("sdy.sharding_constraint", "sdy.reshard"):
            sharding = op.attributes["sharding"]
            attrs = {
                "call_target_name": SHARDING,
                "backend_config": _backend_config(sharding),
                ATTR: self.text(sharding, manual),
            }
            self._replace(op, attrs)
        elif op.name == "sdy.manual_computation":
            self._export_manual_computation(op, manual)
        elif op.name.startswith("sdy.") and op.name not in ("sdy.mesh", "sdy.return"):
            raise UnsupportedOpError(f"{op.name} has no GSPMD counterpart")
        elif "sdy.sharding" in op.attributes:
            shardings = op.attributes.pop("sdy.sharding").shardings
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
                    "backend_config": _backend_config(sharding),
                    ATTR: self.text(sharding, outer),
                },
            )
            to_shard = Op(
                "stablehlo.custom_call",
                mark.results,
                [arg.type],
                {
                    "call_target_name": FULL_TO_SHARD,
                    "backend_config": _backend_config(sharding),
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
                    "backend_config": _backend_config(sharding),
                    ATTR: self._manual_text(sharding, manual, rank),
                },
            )
            full = Op(
                "stablehlo.custom_call",
                mark.results,
                [result.type],
                {
                    "call_target_name": SHARD_TO_FULL,
                    "backend_config": _backend_config(sharding),
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


def _backend_config(sharding: TensorSharding) -> str:
    """`unspecified_dims=[...]` listing the open dims of `sharding` ('' if none)."""
    open_dims = [i for i, d in enumerate(sharding.dims) if not d.is_closed]
    return f"unspecified_dims=[{','.join(map(str, open_dims))}]" if open_dims else ""


def _symbol(name: str) -> SymbolRefAttr:
    return SymbolRefAttr((name,))
