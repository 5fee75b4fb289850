"""`shardonnay convert`: translate shardings and annotated modules between languages.

Two tables say what converts: `SHARDING_FORMATS` (one sharding, given on the
command line with `--sharding`) and `MODULE_FORMATS` (a whole annotated
module read from a file; it lives in `shardonnay.cli.module_formats`, since
the commands that read programs read them through it with `--from`). A new language is one row:
a `ShardingFormat` or a `ModuleFormat` whose `read` makes shardonnay's value
and whose `write` prints it.

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
from shardonnay.cli.module_formats import MODULE_FORMATS
from shardonnay.errors import ShardonnayError
from shardonnay.interop import dtensor, gspmd, shard_dialect
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
    mesh = Mesh.parse(mesh_text) if mesh_text is not None else None
    sharding, mesh = gspmd.to_tensor_sharding(text, len(shape), mesh)
    sharding.validate(mesh, shape)
    return sharding, mesh


def _write_gspmd(sharding: TensorSharding, mesh: Mesh, shape: Shape) -> str:
    return str(gspmd.from_tensor_sharding(sharding, mesh))


def _read_shard(text: str, mesh_text: str | None, shape: Shape) -> tuple[TensorSharding, Mesh]:
    if mesh_text is None:
        raise ShardonnayError("--from shard needs the grid's shape as --mesh, like --mesh 2x4")
    mesh = shard_dialect.grid_mesh(parse_shape(mesh_text))
    sharding = shard_dialect.split_axes_to_sharding(text, mesh, rank=len(shape))
    sharding.validate(mesh, shape)
    return sharding, mesh


def _write_shard(sharding: TensorSharding, mesh: Mesh, shape: Shape) -> str:
    split_axes = shard_dialect.sharding_to_split_axes(sharding, mesh)
    grid = "x".join(str(size) for _, size in mesh.axes)
    text = shard_dialect.format_split_axes(split_axes)
    return f"shard.grid @grid(shape = {grid})\nsplit_axes = {text}"


def _read_dtensor(text: str, mesh_text: str | None, shape: Shape) -> tuple[TensorSharding, Mesh]:
    mesh = Mesh.parse(mesh_text) if mesh_text is not None else None
    placements = dtensor.DTensorSharding.parse(text)
    sharding, mesh = dtensor.to_tensor_sharding(placements, len(shape), shape=shape, mesh=mesh)
    sharding.validate(mesh, shape)
    return sharding, mesh


def _write_dtensor(sharding: TensorSharding, mesh: Mesh, shape: Shape) -> str:
    return str(dtensor.from_tensor_sharding(sharding, mesh, shape=shape))


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


# -- the command ------------------------------------------------------------------------


def add_arguments(convert: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay convert` (its one-line help is in `cli.COMMANDS`)."""
    convert.description = (
        "Translate a module file, or one sharding given with --sharding, from one sharding "
        "language to another. Modules: "
        + "; ".join(f"{name}: {f.describe}" for name, f in MODULE_FORMATS.items())
        + ". Shardings: "
        + "; ".join(f"{name}: {f.describe}" for name, f in SHARDING_FORMATS.items())
        + "."
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
