"""`shardonnay show`: a picture of how a tensor lies on its mesh."""

from __future__ import annotations

import argparse

from shardonnay.cli.inputs import parse_shape, read_input
from shardonnay.cli.picture_options import add_image_options, parse_dims, save_image
from shardonnay.errors import ShardonnayError
from shardonnay.mesh import Mesh
from shardonnay.pictures import visualize
from shardonnay.pipeline import propagation_pipeline
from shardonnay.sharding import TensorSharding
from shardonnay.syntax.mlir_reader import parse_module


def add_arguments(show: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay show` (its one-line help is in `cli.COMMANDS`)."""
    show.description = (
        "Draw the blocks of a tensor and the devices holding each, for two of its dims: "
        "coloured blocks in a terminal, or an image with --png/--svg (needs matplotlib: "
        "the viz extra). Either a value of a program, named as 'shardonnay propagate' "
        "prints it ('%%3', 'relu:%%1'), or one sharding with --shape (and --mesh unless it "
        "inlines its mesh)."
    )
    show.add_argument("input", help="the program file ('-' for stdin), or a sharding with --shape")
    show.add_argument("value", nargs="?", help="the value, e.g. '%%3' or 'relu:%%1'")
    show.add_argument("--shape", help="tensor shape like 8x6 (the input is then a sharding)")
    show.add_argument("--mesh", help='the mesh of a sharding, like \'<["x"=2, "y"=4]>\'')
    show.add_argument(
        "--dims", help="the two dims drawn, rows then columns, like 0,2 (default: the first two)"
    )
    show.add_argument(
        "--no-propagate",
        action="store_true",
        help="show the program's shardings as written instead of propagating them first",
    )
    add_image_options(show)
    show.add_argument(
        "--width", type=int, help="width of the terminal picture in columns (default: terminal)"
    )
    show.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    dims = parse_dims(args.dims)
    if args.shape is not None:
        if args.value is not None:
            raise ShardonnayError("with --shape, give one sharding and no value")
        mesh = Mesh.parse(args.mesh) if args.mesh else None
        sharding = TensorSharding.parse(args.input)
        picture = visualize(sharding, parse_shape(args.shape), mesh, dims=dims)
    else:
        if args.value is None:
            raise ShardonnayError("name the value to show, like '%3' (or give --shape)")
        text, source = read_input(args.input)
        module = parse_module(text, source)
        if not args.no_propagate:
            module = propagation_pipeline(module)
        picture = visualize(module, args.value, dims=dims)
    if save_image(picture, args):
        return 0
    from rich.console import Console

    picture.render(Console(highlight=False), width=args.width)
    return 0
