"""Shardy's passes on meshes: `sdy-lift-inlined-meshes`, `sdy-inline-meshes`
and `sdy-drop-sharding-and-mesh`.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}]>})
...     -> tensor<8xf32> {
...   return %arg0 : tensor<8xf32>
... }''')
>>> lift_inlined_meshes(module)
>>> list(module.meshes), str(module.functions[0].arg_attrs(0)["sdy.sharding"])
(['mesh'], '#sdy.sharding<@mesh, [{"x"}]>')
>>> inline_meshes(module)
>>> list(module.meshes), str(module.functions[0].arg_attrs(0)["sdy.sharding"])
([], '#sdy.sharding<mesh<["x"=2]>, [{"x"}]>')
"""

from __future__ import annotations

import numpy as np

from shardonnay.ir.attributes import DenseElementsAttr, IntegerAttr
from shardonnay.ir.core import Module, Op
from shardonnay.ir.shardings import SHARDING
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.propagation.module_edits import transform_shardings
from shardonnay.sharding import TensorSharding

__all__ = ["drop_sharding_and_mesh", "inline_meshes", "lift_inlined_meshes"]


def _with_mesh(sharding: TensorSharding, mesh: str | Mesh) -> TensorSharding:
    return TensorSharding(
        mesh, sharding.dims, sharding.replicated, sharding.unreduced, sharding.reduction
    )


def lift_inlined_meshes(module: Module) -> None:
    """`sdy-lift-inlined-meshes`: meshes written inline in shardings become
    `sdy.mesh` ops, and identical `sdy.mesh` ops become one (the first).

    A new mesh is placed after the last `sdy.mesh` and named `mesh` (a
    device's maximal mesh `maximal_mesh_<id>`, the empty mesh `empty_mesh`),
    made unique as MLIR's symbol table does (`mesh_0`, `mesh_1`, ...).
    Every `sdy.mesh` also gets its StableHLO form, `{stablehlo.mesh = {axes
    = [{name = "x", size = 2 : i64}], device_ids = dense<...> : tensor<Nxi64>}}`
    (device ids only when given), as jaxlib's build of Shardy writes it.
    """
    renamed: dict[str | Mesh, str] = {}
    last: Op | None = None
    for op in [o for o in module.ops if o.name == "sdy.mesh"]:
        mesh, name = op.attributes["mesh"], op.attributes["sym_name"]
        if mesh in renamed:
            renamed[name] = renamed[mesh]
            module.ops.remove(op)
            op.parent = None
        else:
            renamed[mesh] = name
            last = op
    taken = {op.attributes["sym_name"] for op in module.ops if "sym_name" in op.attributes}
    counter = 0
    position = module.ops.index(last) + 1 if last is not None else 0

    def unique(base: str) -> str:
        nonlocal counter
        name = base
        while name in taken:
            name = f"{base}_{counter}"
            counter += 1
        taken.add(name)
        return name

    def lift(sharding: TensorSharding) -> TensorSharding:
        nonlocal position
        mesh = sharding.mesh
        if mesh in renamed:
            return _with_mesh(sharding, renamed[mesh])
        if not isinstance(mesh, Mesh):
            return sharding
        if mesh.is_maximal:
            base = f"maximal_mesh_{mesh.device_list[0]}"
        else:
            base = "mesh" if mesh.axes else "empty_mesh"
        name = renamed[mesh] = unique(base)
        module.body.insert(position, Op("sdy.mesh", attributes={"sym_name": name, "mesh": mesh}))
        position += 1
        return _with_mesh(sharding, name)

    transform_shardings(module, lift)
    for op in module.ops:
        if op.name != "sdy.mesh":
            continue
        mesh: Mesh = op.attributes["mesh"]
        value: dict = {
            "axes": tuple(
                {"name": name, "size": IntegerAttr(size, "i64")} for name, size in mesh.axes
            )
        }
        if mesh.device_ids is not None:
            ids = np.array(mesh.device_ids, dtype=np.int64)
            value["device_ids"] = DenseElementsAttr.from_numpy(ids, TensorType((len(ids),), "i64"))
        op.attributes["stablehlo.mesh"] = value


def inline_meshes(module: Module) -> None:
    """`sdy-inline-meshes`: every sharding names its mesh inline
    (`#sdy.sharding<mesh<["x"=2]>, [...]>`) and the `sdy.mesh` ops go."""
    meshes = module.meshes

    def inline(sharding: TensorSharding) -> TensorSharding:
        if isinstance(sharding.mesh, Mesh):
            return sharding
        return _with_mesh(sharding, meshes[sharding.mesh])

    transform_shardings(module, inline)
    for op in [o for o in module.ops if o.name == "sdy.mesh"]:
        module.ops.remove(op)
        op.parent = None


def drop_sharding_and_mesh(module: Module) -> None:
    """`sdy-drop-sharding-and-mesh`: the `sdy.sharding` attributes of
    function arguments, results and ops go, and so do the `sdy.mesh` ops
    (sharding constraints, reshards and computations keep theirs)."""
    for func in module.functions:
        for key in ("arg_attrs", "res_attrs"):
            for attrs in func.op.attributes.get(key, ()):
                attrs.pop(SHARDING, None)
    for op in module.walk():
        op.attributes.pop(SHARDING, None)
    for op in [o for o in module.ops if o.name == "sdy.mesh"]:
        module.ops.remove(op)
        op.parent = None
