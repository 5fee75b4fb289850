"""`shardonnay layout`: which part of a tensor each device holds."""

from __future__ import annotations

import argparse
import re

from shardonnay.cli.inputs import parse_shape, read_input
from shardonnay.errors import ShardonnayError
from shardonnay.layout_report import describe_layout
from shardonnay.mesh import Mesh, read_mesh
from shardonnay.sharding import TensorSharding, read_symbol_name, read_tensor_sharding
from shardonnay.syntax.cursor import Cursor

_TENSOR_TYPE = re.compile(r"tensor<((?:\d+x)*)[a-z][a-z0-9]*>")


def add_arguments(layout: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay layout` (its one-line help is in `cli.COMMANDS`)."""
    layout.description = (
        "Show which region of a tensor each device holds under a sharding. Either read a "
        "file of `sdy.mesh @name = <...>` declarations and `tensor<...> #sdy.sharding<...>` "
        "lines, or give one sharding with --shape (and --mesh unless it inlines its mesh)."
    )
    layout.add_argument("input", help="a file ('-' for stdin), or a sharding with --shape")
    layout.add_argument("--shape", help="tensor shape like 8x6 (the input is then a sharding)")
    layout.add_argument("--mesh", help='the mesh, like \'<["x"=2, "y"=4]>\'')
    layout.add_argument(
        "--strict", action="store_true", help="also apply the RFC's stricter dim-size rules"
    )
    layout.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.shape is not None:
        shape = parse_shape(args.shape)
        mesh = Mesh.parse(args.mesh) if args.mesh else None
        entries = [(shape, TensorSharding.parse(args.input), mesh)]
    else:
        text, source = read_input(args.input)
        entries = read_layout_file(text, source)
    reports = []
    for shape, sharding, mesh in entries:
        sharding.validate(sharding.resolve_mesh(mesh), shape, strict=args.strict)
        reports.append(describe_layout(shape, sharding, mesh))
    print("\n\n".join(reports))
    return 0


def read_layout_file(text: str, source: str) -> list[tuple[tuple[int, ...], TensorSharding, Mesh]]:
    """Mesh declarations and `tensor<AxBxf32> #sdy.sharding<...>` lines, in any order."""
    cursor = Cursor(text, source)
    meshes: dict[str, Mesh] = {}
    entries = []
    while not cursor.at_end():
        if cursor.accept("sdy.mesh"):
            cursor.expect("@", "'@' before the mesh name")
            name = read_symbol_name(cursor)
            cursor.expect("=", "'=' after the mesh name")
            meshes[name] = read_mesh(cursor)
            continue
        type_text = cursor.match(_TENSOR_TYPE, "'sdy.mesh' or a tensor type like tensor<8x6xf32>")
        shape = parse_shape(_TENSOR_TYPE.fullmatch(type_text).group(1)[:-1])
        cursor.skip_space()
        start = cursor.pos
        cursor.expect("#sdy.sharding", "'#sdy.sharding' after the tensor type")
        sharding = read_tensor_sharding(cursor)
        if isinstance(sharding.mesh, str):
            if sharding.mesh not in meshes:
                raise cursor.invalid(f"unknown mesh: @{sharding.mesh}", start)
            mesh = meshes[sharding.mesh]
        else:
            mesh = sharding.mesh
        try:
            sharding.validate(mesh, shape)
        except ShardonnayError as e:
            raise cursor.invalid(str(e), start) from None
        entries.append((shape, sharding, mesh))
    return entries
