"""What every command reads: files or stdin, `// -----`-separated modules, shapes, and the
propagation options several commands share. The languages a program's shardings are read
from (`--from`) are in `shardonnay.cli.module_formats`, which only the commands that take
them import."""

from __future__ import annotations

import argparse
import re
import sys

from shardonnay.errors import ShardonnayError
from shardonnay.syntax.mlir_reader import parse_module, parse_modules


def read_input(name: str) -> tuple[str, str]:
    """The text of file `name` ('-': stdin) and the source name for messages;
    a `ShardonnayError` saying what the bytes are when they are no UTF-8 text."""
    if name == "-" and not hasattr(sys.stdin, "buffer"):  # a text stream put in its place
        return sys.stdin.read(), "<stdin>"
    source = "<stdin>" if name == "-" else name
    if name == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(name, "rb") as file:
            data = file.read()
    try:
        return data.decode("utf-8"), source
    except UnicodeDecodeError as e:
        raise ShardonnayError(describe_binary(data, source, e)) from None


def describe_binary(data: bytes, source: str, error: UnicodeDecodeError) -> str:
    """Why `data` is no program text, for a user who gave the wrong file.

    >>> data = b"\\x00\\xff"
    >>> print(describe_binary(data, "f", UnicodeDecodeError("utf-8", data, 1, 2, "invalid")))
    f: not UTF-8 text (byte 0xFF at offset 1); shardonnay reads MLIR text as \
jax.jit(f).lower(*args).as_text() prints it
    """
    hint = "shardonnay reads MLIR text as jax.jit(f).lower(*args).as_text() prints it"
    if data.startswith(b"ML\xefR"):
        return f"{source}: MLIR bytecode, not text; {hint}"
    return (
        f"{source}: not UTF-8 text (byte 0x{data[error.start]:02X} at offset {error.start}); {hint}"
    )


def seed(text: str) -> int:
    """A random seed on the command line: a non-negative integer (argparse type).

    >>> seed("3")
    3
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid seed {text!r}: expected an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"invalid seed {value}: seeds are >= 0")
    return value


def read_modules(args: argparse.Namespace) -> list:
    """The module of `args.input`, or its `// -----`-separated modules."""
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


def add_no_pipeline_option(command: argparse.ArgumentParser, help: str) -> None:
    """`--no-pipeline`: Shardy's propagation pass alone (the `--strategy` one) instead of
    sdy-propagation-pipeline; `runs_pipeline(args)` reads it."""
    command.add_argument("--no-pipeline", action="store_true", help=help)


def runs_pipeline(args: argparse.Namespace) -> bool:
    """Whether the command runs sdy-propagation-pipeline (no `--no-pipeline`); a usage error
    when `--strategy` then names a pass of its own, which the pipeline cannot run.

    >>> runs_pipeline(argparse.Namespace(no_pipeline=False, strategy="basic"))
    True
    """
    if args.no_pipeline:
        return False
    if args.strategy not in ("aggressive", "basic"):
        args.command_parser.error(
            f"--strategy {args.strategy} is a propagation pass of its own: add --no-pipeline "
            "(the pipeline always runs user and op priorities)"
        )
    return True
