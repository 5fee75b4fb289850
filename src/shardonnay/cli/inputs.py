"""What every command reads: files or stdin, `// -----`-separated modules, shapes, and the
propagation options several commands share; `MODULE_FORMATS`, the languages a program's
shardings are read from (`--from`) and written in (`shardonnay convert --to`)."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shardonnay.errors import ShardonnayError
from shardonnay.interop.gspmd_module import export_gspmd, import_gspmd
from shardonnay.interop.shard_program import export_shard, import_shard
from shardonnay.ir.core import Module
from shardonnay.syntax.mlir_reader import parse_module, parse_modules


def read_input(name: str) -> tuple[str, str]:
    """The text of file `name` ('-': stdin) and the source name for messages;
    a `ShardonnayError` saying what the bytes are when they are no UTF-8 text."""
    if name == "-" and not hasattr(sys.stdin, "buffer"):  # a text stream put in its place
        return sys.stdin.read(), "<stdin>"
    source = "<stdin>" if name == "-" else name
    data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
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


def add_input_format_option(command: argparse.ArgumentParser) -> None:
    """`--from FORMAT`: the language the program's shardings are written in."""
    command.add_argument(
        "--from",
        dest="input_format",
        choices=sorted(MODULE_FORMATS),
        default="sdy",
        help="the language of the program's shardings: sdy (default), gspmd (mhlo.sharding, "
        "as JAX writes it without Shardy) or shard (the MLIR shard dialect); read as "
        "`shardonnay convert --from FORMAT --to sdy` would",
    )


def read_program(args: argparse.Namespace):
    """The module of `args.input`, its shardings read from `args.input_format` (default sdy)."""
    text, source = read_input(args.input)
    return MODULE_FORMATS[getattr(args, "input_format", "sdy")].read(text, source)


# -- modules ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ModuleFormat:
    """A language for whole annotated modules: `read(text, source)` gives an sdy
    `Module`, `write(module)` prints one."""

    describe: str
    read: Callable[[str, str], Module]
    write: Callable[[Module], str]


def _read_sdy_module(text: str, source: str) -> Module:
    return parse_module(text, source)


def _write_sdy_module(module: Module) -> str:
    return module.to_text()


def _read_gspmd_module(text: str, source: str) -> Module:
    return import_gspmd(parse_module(text, source))


def _write_gspmd_module(module: Module) -> str:
    return export_gspmd(module).to_text()


def _read_shard_module(text: str, source: str) -> Module:
    return import_shard(parse_module(text, source))


def _write_shard_module(module: Module) -> str:
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
