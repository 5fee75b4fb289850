"""`shardonnay convert`: translate shardings and annotated modules between languages.

Two tables say what converts: `SHARDING_FORMATS` (one sharding, given on the
command line with `--sharding`) and `MODULE_FORMATS` (a whole annotated
module read from a file). A new language is one row: a `ShardingFormat` or a
`ModuleFormat` whose `read` makes shardonnay's value and whose `write` prints it.

    shardonnay convert --sharding '{devices=[2,1,4]<=[8] last_tile_dim_replicate}' \\
        --from gspmd --to sdy --shape 16x8
    shardonnay convert program.mlir --from gspmd --to sdy

>>> sorted(SHARDING_FORMATS)
['dtensor', 'gspmd', 'sdy', 'shard']
>>> fmt = SHARDING_FORMATS["gspmd"]
>>> sharding, mesh = fmt.read("{devices=[2,2]<=[4]}", None, (4, 4))
>>> print(SHARDING_FORMATS["sdy"].write(sharding, mesh, (4, 4)))
sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace

from shardonnay.cli.inputs import parse_shape, read_input
from shardonnay.errors import ShardonnayError
from shardonnay.mesh import Mesh
from shardonnay.sharding import TensorSharding

Shape = tuple[int, ...]


@dataclass(frozen=True)
class ShardingFormat:
    """A language for one tensor's sharding.

    `read(text, mesh_text, shape)` gives the sharding (bound to `@mesh`) and its
    mesh; `mesh_text` is the `--mesh` option (None when not given; each format
    says how it spells a mesh), `shape` the tensor's shape. `write(sharding,
    mesh, shape)` prints the sharding in this language, its mesh included where
    the language has one.
    """

    describe: str
    read: Callable[[str, str | None, Shape], tuple[TensorSharding, Mesh]]
    write: Callable[[TensorSharding, Mesh, Shape], str]


@dataclass(frozen=True)
class ModuleFormat:
    """A language for whole annotated modules: `read(text, source)` gives an sdy
    `Module`, `write(module)` prints one."""

    describe: str
    read: Callable[[str, str], object]
    write: Callable[[object], str]


# -- single shardings -------------------------------------------------------------------


def _read_sdy(text: str, mesh_text: str | None, shape: Shape) -> tuple[TensorSharding, Mesh]:
    sharding = TensorSharding.parse(text)
    if mesh_text is None and isinstance(sharding.mesh, str):
        raise ShardonnayError(f"{sharding} names mesh @{sharding.mesh}: give it with --mesh")
    mesh = sharding.resolve_mesh(Mesh.parse(mesh_text) if mesh_text is not None else None)
    sharding.validate(mesh, shape)
    if not isinstance(sharding.mesh, str):
        sharding = replace(sharding, mesh="mesh")
    return sharding, mesh


def _write_sdy(sharding: TensorSharding, mesh: Mesh, shape: Shape) -> str:
    return f"sdy.mesh @{sharding.mesh} = {mesh}\n{sharding}"


def _read_gspmd(text: str, mesh_text: str | None, shape: Shape) -> tuple[TensorSharding, Mesh]:
    from shardonnay.interop.gspmd import to_tensor_sharding

    mesh = Mesh.parse(mesh_text) if mesh_text is not None else None
    sharding, mesh = to_tensor_sharding(text, len(shape), mesh)
    sharding.validate(mesh, shape)
    return sharding, mesh


def _write_gspmd(sharding: TensorSharding, mesh: Mesh, shape: Shape) -> str:
    from shardonnay.interop.gspmd import from_tensor_sharding

    return str(from_tensor_sharding(sharding, mesh))


def _read_shard(text: str, mesh_text: str | None, shape: Shape) -> tuple[TensorSharding, Mesh]:
    from shardonnay.interop.shard_dialect import grid_mesh, split_axes_to_sharding

    if mesh_text is None:
        raise ShardonnayError("--from shard needs the grid's shape as --mesh, like --mesh 2x4")
    mesh = grid_mesh(parse_shape(mesh_text))
    sharding = split_axes_to_sharding(text, mesh, rank=len(shape))
    sharding.validate(mesh, shape)
    return sharding, mesh


def _write_shard(sharding: TensorSharding, mesh: Mesh, shape: Shape) -> str:
    from shardonnay.interop.shard_dialect import format_split_axes, sharding_to_split_axes

    split_axes = sharding_to_split_axes(sharding, mesh)
    grid = "x".join(str(size) for _, size in mesh.axes)
    return f"shard.grid @grid(shape = {grid})\nsplit_axes = {format_split_axes(split_axes)}"


def _read_dtensor(text: str, mesh_text: str | None, shape: Shape) -> tuple[TensorSharding, Mesh]:
    from shardonnay.interop.dtensor import DTensorSharding, to_tensor_sharding

    mesh = Mesh.parse(mesh_text) if mesh_text is not None else None
    dtensor = DTensorSharding.parse(text)
    sharding, mesh = to_tensor_sharding(dtensor, len(shape), shape=shape, mesh=mesh)
    sharding.validate(mesh, shape)
    return sharding, mesh


def _write_dtensor(sharding: TensorSharding, mesh: Mesh, shape: Shape) -> str:
    from shardonnay.interop.dtensor import from_tensor_sharding

    return str(from_tensor_sharding(sharding, mesh, shape=shape))


#: One tensor's sharding: format name -> how to read and write it.
SHARDING_FORMATS: dict[str, ShardingFormat] = {
    "sdy": ShardingFormat(
        "Shardy's #sdy.sharding<...>; --mesh '<[\"x\"=2]>' when it names its mesh",
        _read_sdy,
        _write_sdy,
    ),
    "gspmd": ShardingFormat(
        "XLA's HloSharding text {devices=[...]...}; --mesh to read onto a given sdy mesh",
        _read_gspmd,
        _write_gspmd,
    ),
    "shard": ShardingFormat(
        "the MLIR shard dialect's split_axes [[0, 1], []]; --mesh gives the grid shape (2x4)",
        _read_shard,
        _write_shard,
    ),
    "dtensor": ShardingFormat(
        "PyTorch DTensor's mesh=(2, 4) names=(dp, tp) placements=(Shard(0), Replicate()); "
        "--mesh to read onto a given sdy mesh",
        _read_dtensor,
        _write_dtensor,
    ),
}


# -- modules ----------------------------------------------------------------------------


def _read_sdy_module(text: str, source: str):
    from shardonnay.syntax.mlir_reader import parse_module

    return parse_module(text, source)


def _write_sdy_module(module) -> str:
    return module.to_text()


def _read_gspmd_module(text: str, source: str):
    from shardonnay.interop.gspmd_module import import_gspmd

    return import_gspmd(_read_sdy_module(text, source))


def _write_gspmd_module(module) -> str:
    from shardonnay.interop.gspmd_module import export_gspmd

    return export_gspmd(module).to_text()


def _read_shard_module(text: str, source: str):
    from shardonnay.interop.shard_program import import_shard

    return import_shard(_read_sdy_module(text, source))


def _write_shard_module(module) -> str:
    from shardonnay.interop.shard_program import export_shard

    return export_shard(module).to_text()


#: Whole modules: format name -> how to read one into sdy and write one back.
MODULE_FORMATS: dict[str, ModuleFormat] = {
    "sdy": ModuleFormat(
        "StableHLO with sdy meshes, shardings and ops", _read_sdy_module, _write_sdy_module
    ),
    "gspmd": ModuleFormat(
        "StableHLO with mhlo.sharding attributes and @Sharding / shard_map custom calls",
        _read_gspmd_module,
        _write_gspmd_module,
    ),
    "shard": ModuleFormat(
        "the MLIR shard dialect: shard.grid, shard.sharding and shard.shard",
        _read_shard_module,
        _write_shard_module,
    ),
}


# -- the command ------------------------------------------------------------------------


def add_command(commands: argparse._SubParsersAction) -> None:
    convert = commands.add_parser(
        "convert",
        help="translate shardings and annotated modules between languages",
        description=(
            "Translate a module file, or one sharding given with --sharding, from one sharding "
            "language to another. Modules: "
            + "; ".join(f"{name}: {f.describe}" for name, f in MODULE_FORMATS.items())
            + ". Shardings: "
            + "; ".join(f"{name}: {f.describe}" for name, f in SHARDING_FORMATS.items())
            + "."
        ),
    )
    convert.add_argument("input", nargs="?", help="the module file ('-' for stdin)")
    convert.add_argument("--from", dest="source", required=True, help="the input's language")
    convert.add_argument("--to", dest="target", default="sdy", help="the output's language")
    convert.add_argument("--sharding", help="convert this one sharding instead of a module")
    convert.add_argument("--shape", help="the tensor's shape for --sharding, like 8x6")
    convert.add_argument("--mesh", help="the mesh for --sharding, in the --from language")
    convert.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.sharding is not None:
        if args.input is not None:
            raise ShardonnayError("give either a module file or --sharding, not both")
        if args.shape is None:
            raise ShardonnayError("--sharding needs the tensor's --shape, like --shape 8x6")
        source = _format(SHARDING_FORMATS, args.source)
        target = _format(SHARDING_FORMATS, args.target)
        shape = parse_shape(args.shape)
        sharding, mesh = source.read(args.sharding, args.mesh, shape)
        print(target.write(sharding, mesh, shape))
        return 0
    if args.input is None:
        raise ShardonnayError("give a module file ('-' for stdin) or --sharding")
    source, target = _format(MODULE_FORMATS, args.source), _format(MODULE_FORMATS, args.target)
    text, name = read_input(args.input)
    sys.stdout.write(target.write(source.read(text, name)))
    return 0


def _format(table: dict, name: str):
    if name not in table:
        what = "module" if table is MODULE_FORMATS else "sharding"
        raise ShardonnayError(
            f"unknown {what} format {name!r}; known: {', '.join(sorted(table))}"
            + ("" if table is MODULE_FORMATS else " (modules are read from a file)")
        )
    return table[name]
