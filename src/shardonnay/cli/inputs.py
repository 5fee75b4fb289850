"""What every command reads: files or stdin, `// -----`-separated modules, shapes, and the
propagation options several commands share."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from shardonnay.errors import ShardonnayError


def read_input(name: str) -> tuple[str, str]:
    """The text of file `name` ('-': stdin) and the source name for messages."""
    if name == "-":
        return sys.stdin.read(), "<stdin>"
    return Path(name).read_text(), name


def read_modules(args: argparse.Namespace) -> list:
    """The module of `args.input`, or its `// -----`-separated modules."""
    from shardonnay.syntax.mlir_reader import parse_module, parse_modules

    text, source = read_input(args.input)
    if args.split_input_file:
        return parse_modules(text, source)
    return [parse_module(text, source)]


def parse_shape(text: str) -> tuple[int, ...]:
    """`8x6` as `(8, 6)`; the empty text is a scalar's shape.

    >>> parse_shape("8x6")
    (8, 6)
    """
    if text == "":
        return ()
    if not re.fullmatch(r"\d+(x\d+)*", text):
        raise ShardonnayError(f"invalid shape {text!r}: expected sizes separated by 'x', like 8x6")
    return tuple(int(d) for d in text.split("x"))


def add_propagation_options(command: argparse.ArgumentParser) -> None:
    """`--strategy` and `--conservative`, as Shardy's propagation passes take them."""
    command.add_argument(
        "--strategy",
        choices=("aggressive", "basic", "op-priority", "user-priority"),
        default="aggressive",
        help="Shardy's propagation strategy (default: aggressive)",
    )
    command.add_argument(
        "--conservative", action="store_true", help="never split an axis into sub-axes"
    )
