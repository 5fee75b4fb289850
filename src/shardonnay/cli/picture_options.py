"""What the commands that draw a tensor (`show`, `onnx show`) share: `--dims` read as two
dims, and `--png`/`--svg`, the image file the picture is written to instead of the terminal."""

from __future__ import annotations

import argparse

from shardonnay.errors import ShardonnayError
from shardonnay.pictures import ShardingPicture


def parse_dims(text: str | None) -> tuple[int, ...] | None:
    """The dims drawn, from `--dims 0,2`; None (the first two) when the option is not given.

    >>> parse_dims("0,2")
    (0, 2)
    >>> parse_dims("rows")
    Traceback (most recent call last):
    ...
    shardonnay.errors.ShardonnayError: --dims 'rows': expected dims like 0,1
    """
    if text is None:
        return None
    try:
        return tuple(int(d) for d in text.split(","))
    except ValueError:
        raise ShardonnayError(f"--dims {text!r}: expected dims like 0,1") from None


def add_image_options(command: argparse.ArgumentParser) -> None:
    """`--png OUT` or `--svg OUT` (one of them): write the picture as an image."""
    image = command.add_mutually_exclusive_group()
    image.add_argument("--png", metavar="OUT", help="write the picture as a PNG image")
    image.add_argument("--svg", metavar="OUT", help="write the picture as an SVG image")


def save_image(picture: ShardingPicture, args: argparse.Namespace) -> bool:
    """Write `picture` to the `--png` or `--svg` file and say so; False, writing nothing,
    when neither is given (the picture is then drawn on the terminal)."""
    path = args.png or args.svg
    if not path:
        return False
    picture.save(path)
    print(f"wrote {path}")
    return True
