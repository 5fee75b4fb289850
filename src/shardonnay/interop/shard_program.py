"""Programs annotated with the MLIR `shard` dialect, to and from programs annotated with sdy.

A `shard` program names its grids (`shard.grid @grid(shape = 2x3)`), builds
shardings (`shard.sharding @grid split_axes = [[0], [1]]`) and attaches them to
values with `shard.shard`: without `annotate_for_users` the value is *produced*
so, with it the value's users *consume* it so (a reshard when they differ).

`import_shard` gives the sdy program that puts the same data on every device:

- each grid becomes an `sdy.mesh` of the same name, its axes `"axis_0"`, ...;
- `shard.shard` of a function argument becomes the argument's `sdy.sharding`;
  a `shard.shard ... annotate_for_users` whose users are all `return`s gives the
  function's result shardings; any other `shard.shard` becomes an
  `sdy.sharding_constraint` (produced) or an `sdy.reshard` (for users);
- `sharded_dims_offsets` are accepted where they cut each dim where
  `shardonnay.layout` does (`ceil(d / n)` per shard, the last ones short).

What sdy cannot say raises `ShardingError` saying why: halos (sdy shards do
not overlap), other offsets, grids with `?` sizes. The dialect's collectives
and device queries belong to per-device programs and raise `UnsupportedOpError`.
`export_shard` goes back (axis names become grid axis indices; sub-axes,
unreduced axes and meshes with `device_ids` raise `ShardingError`).

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> program = parse_module('''
... shard.grid @grid(shape = 2x3)
... func.func @f(%arg0: tensor<6x6xf32>) -> tensor<6x6xf32> {
...   %s = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
...   %0 = shard.shard %arg0 to %s : tensor<6x6xf32>
...   %t = shard.sharding @grid split_axes = [[1], [0]] : !shard.sharding
...   %1 = shard.shard %0 to %t annotate_for_users : tensor<6x6xf32>
...   return %1 : tensor<6x6xf32>
... }''')
>>> print(import_shard(program).to_text().strip())
module {
  sdy.mesh @grid = <["axis_0"=2, "axis_1"=3]>
  func.func @f(%arg0: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@grid, [{"axis_0"}, {"axis_1"}]>}) -> (tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@grid, [{"axis_1"}, {"axis_0"}]>}) {
    return %arg0 : tensor<6x6xf32>
  }
}
"""  # noqa: E501

from __future__ import annotations

import math
from collections.abc import Sequence

from shardonnay.errors import IRError, ShardingError, UnsupportedOpError
from shardonnay.interop.shard_dialect import (
    grid_mesh,
    sharding_to_split_axes,
    split_axes_to_sharding,
)
from shardonnay.ir.attributes import UNIT, DenseArrayAttr, SymbolRefAttr
from shardonnay.ir.core import Block, Func, Module, Op, Value
from shardonnay.ir.shardings import SHARDING
from shardonnay.mesh import Mesh
from shardonnay.ops.shard_dialect import (
    DYNAMIC,
    SHARDING_TYPE,
    GridAxesArray,
    split_offsets,
    static_values,
)
from shardonnay.ops.traits import GRID_ANNOTATION, SHARDING_ANNOTATION, has_trait
from shardonnay.sharding import TensorSharding

__all__ = ["export_shard", "import_shard", "sharding_of"]

# -- one sharding ------------------------------------------------------------------------


def sharding_of(sharding_op: Op, shape: Sequence[int], mesh: Mesh) -> TensorSharding:
    """The sdy sharding (bound to the grid's name) of a `shard.sharding` op, for a
    tensor of `shape` on the grid's `mesh`; `ShardingError` for halos and for
    offsets that cut elsewhere than `shardonnay.layout`."""
    split = sharding_op.attributes["split_axes"].axes
    grid = sharding_op.attributes["grid"].name
    sharding = split_axes_to_sharding(split, mesh, rank=len(shape), mesh_name=grid)
    halos = static_values(sharding_op, "static_halo_sizes")
    if any(halos):
        raise ShardingError(
            f"shard.sharding @{grid} split_axes = {GridAxesArray(split)} has halo sizes "
            f"{list(halos)}; sdy shardings have no halos (no two shards overlap)"
        )
    offsets = static_values(sharding_op, "static_sharded_dims_offsets")
    if offsets:
        shape_of_grid = mesh.shape
        for dim, given in zip(
            [d for d, axes in enumerate(split) if axes],
            split_offsets(split, offsets, shape_of_grid),
            strict=True,
        ):
            count = math.prod(shape_of_grid[a] for a in split[dim])
            size = -(-shape[dim] // count)
            padded = tuple(min(shape[dim], i * size) for i in range(count + 1))
            if tuple(given) != padded:
                raise ShardingError(
                    f"sharded_dims_offsets {list(given)} of tensor dim {dim} (size "
                    f"{shape[dim]}) cut it unlike sdy, whose {count} shards start at "
                    f"{list(padded)} (ceil-sized shards, the last ones short)"
                )
    return sharding


# -- import ------------------------------------------------------------------------------


def import_shard(module: Module) -> Module:
    """A copy of `module` with its `shard` annotations as sdy meshes, shardings and
    constraints; see the module docstring."""
    module = module.copy()
    meshes: dict[str, Mesh] = {}
    for op in list(module.ops):
        if op.name == "shard.grid":
            shape = tuple(op.attributes["shape"].values)
            name = op.attributes["sym_name"]
            if DYNAMIC in shape:
                raise ShardingError(
                    f"shard.grid @{name} has axes of unknown size ('?'); an sdy mesh needs sizes"
                )
            meshes[name] = grid_mesh(shape)
            mesh_op = Op("sdy.mesh", attributes={"sym_name": name, "mesh": meshes[name]})
            module.body.insert_before(op, mesh_op)
            op.erase()
    for f in module.functions:
        for op in list(f.walk()):
            if op.name == "shard.shard":
                _import_shard_op(op, f, meshes)
            elif op.name.startswith("shard.") and not has_trait(op, GRID_ANNOTATION):
                raise UnsupportedOpError(
                    f"{op.name} belongs to a per-device (partitioned) program; only "
                    "shard.grid, shard.sharding and shard.shard translate to sdy"
                )
        for op in list(f.walk()):
            if op.name == "shard.sharding":
                if op.results[0].users:
                    raise IRError("shard.sharding used by something other than shard.shard")
                op.erase()
    return module


def _import_shard_op(op: Op, f: Func, meshes: dict[str, Mesh]) -> None:
    src, sharding_value = op.operands
    definition = sharding_value.op
    if definition is None or definition.name != "shard.sharding":
        raise IRError("shard.shard: the sharding must come from a shard.sharding op")
    grid = definition.attributes["grid"].name
    if grid not in meshes:
        raise IRError(f"shard.sharding: unknown grid @{grid}")
    sharding = sharding_of(definition, src.type.shape, meshes[grid])
    for_users = "annotate_for_users" in op.attributes
    result = op.results[0]
    if not for_users and src.is_block_argument and src.defining is f.body:
        _set_once(f.arg_attrs(src.index), sharding, f"argument {src.index} of @{f.name}")
        result.replace_all_uses_with(src)
        op.erase()
        return
    users = result.users
    if for_users and users and all(u.name == "func.return" and u.parent is f.body for u in users):
        for use in list(result.uses):
            _set_once(f.result_attrs(use.index), sharding, f"result {use.index} of @{f.name}")
        result.replace_all_uses_with(src)
        op.erase()
        return
    name = "sdy.reshard" if for_users else "sdy.sharding_constraint"
    replacement = Op(name, [src], [src.type], {"sharding": sharding})
    op.parent.insert_before(op, replacement)
    result.replace_all_uses_with(replacement.results[0])
    op.erase()


def _set_once(attrs: dict, sharding: TensorSharding, where: str) -> None:
    if attrs.get(SHARDING, sharding) != sharding:
        raise ShardingError(f"{where} is annotated twice: {attrs['sdy.sharding']} and {sharding}")
    attrs[SHARDING] = sharding


# -- export ------------------------------------------------------------------------------


def export_shard(module: Module) -> Module:
    """A copy of `module` with its sdy annotations written in the `shard` dialect:
    `sdy.mesh` → `shard.grid`, argument shardings → `shard.shard` of the argument,
    result shardings → `shard.shard ... annotate_for_users` before `return`,
    `sdy.sharding_constraint` → `shard.shard`, `sdy.reshard` → `shard.shard ...
    annotate_for_users`, op shardings → `shard.shard` of each result."""
    module = module.copy()
    meshes = module.meshes
    for op in [op for op in module.ops if op.name == "sdy.mesh"]:
        grid = Op(
            "shard.grid",
            attributes={
                "sym_name": op.attributes["sym_name"],
                "shape": DenseArrayAttr("i64", tuple(n for _, n in op.attributes["mesh"].axes)),
            },
        )
        if op.attributes["mesh"].is_maximal or not op.attributes["mesh"].axes:
            raise ShardingError(
                f"mesh @{op.attributes['sym_name']} {op.attributes['mesh']} has no axes; "
                "a shard.grid needs at least one"
            )
        module.body.insert_before(op, grid)
        op.erase()
    for f in module.functions:
        for op in list(f.walk()):
            if has_trait(op, SHARDING_ANNOTATION):
                annotated = _annotate(
                    op, op.operands[0], op.attributes["sharding"], meshes, op.name == "sdy.reshard"
                )
                op.results[0].replace_all_uses_with(annotated)
                op.erase()
            elif op.name.startswith("sdy.") and op.name != "sdy.return":
                raise UnsupportedOpError(f"{op.name} has no shard dialect counterpart")
            elif SHARDING in op.attributes:
                shardings = op.attributes.pop(SHARDING).shardings
                after = op
                for result, sharding in zip(op.results, shardings, strict=True):
                    users = list(result.uses)
                    annotated = _annotate(after, result, sharding, meshes, False, after=True)
                    for use in users:
                        use.owner.set_operand(use.index, annotated)
                    after = annotated.op
        if f.is_declaration:
            continue
        first = f.body.ops[0] if f.body.ops else None
        for i, arg in enumerate(f.arguments):
            sharding = f.arg_attrs(i).pop(SHARDING, None)
            if sharding is not None:
                users = list(arg.uses)
                annotated = _annotate(first, arg, sharding, meshes, False)
                for use in users:
                    use.owner.set_operand(use.index, annotated)
        ret = f.return_op
        for i in range(len(f.type.results)):
            sharding = f.result_attrs(i).pop(SHARDING, None)
            if sharding is not None:
                ret.set_operand(i, _annotate(ret, ret.operands[i], sharding, meshes, True))
    return module


def _annotate(
    anchor: Op,
    value: Value,
    sharding: TensorSharding,
    meshes: dict[str, Mesh],
    for_users: bool,
    *,
    after: bool = False,
) -> Value:
    """Inserts `shard.sharding` + `shard.shard` of `value` before `anchor` (or after)."""
    if not isinstance(sharding.mesh, str):
        raise ShardingError(f"{sharding} inlines its mesh; a shard.sharding names a grid")
    split = sharding_to_split_axes(sharding, meshes.get(sharding.mesh))  # one list per dim
    definition = Op(
        "shard.sharding",
        [],
        [SHARDING_TYPE],
        {"grid": SymbolRefAttr((sharding.mesh,)), "split_axes": GridAxesArray(split or ((),))},
    )
    attrs = {"annotate_for_users": UNIT} if for_users else {}
    shard = Op("shard.shard", [value, definition.results[0]], [value.type], attrs)
    block: Block = anchor.parent
    if after:
        index = block.ops.index(anchor) + 1
        block.insert(index, definition)
        block.insert(index + 1, shard)
    else:
        block.insert_before(anchor, definition)
        block.insert_before(anchor, shard)
    return shard.results[0]
