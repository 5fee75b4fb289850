"""The `shardonnay` command.

    shardonnay layout examples/layouts.sdy
    shardonnay layout --mesh '<["x"=2, "y"=4]>' --shape 8x6 '<@mesh, [{"x"}, {"y"}]>'
    shardonnay fmt program.mlir [--generic] [--split-input-file]
    shardonnay run program.mlir --seed 0 [--func main]
    shardonnay propagate program.mlir [--strategy STRATEGY] [--conservative] [--no-pipeline]
        [--debug-origins] [--debug-edges] [--from gspmd|shard]
    shardonnay explain program.mlir %12 [--why-not AXIS] [--from gspmd|shard]
    shardonnay show program.mlir %12 [--dims 0,1] [--png OUT | --svg OUT]
    shardonnay opt program.mlir --pass-pipeline 'builtin.module(sdy-aggressive-propagate)'
    shardonnay partition program.mlir [--report] [--simulate [--seed N]] [--devices]
        [--no-propagate] [--from gspmd|shard]
    shardonnay convert program.mlir --from gspmd|shard|sdy --to sdy|gspmd|shard
    shardonnay convert --sharding TEXT --shape 8x6 [--mesh MESH] --from FORMAT --to FORMAT
    shardonnay onnx check|infer|show MODEL.onnx ...

Errors in the input are printed as `error: ...` (with the source line and a
caret for syntax errors) and exit with status 1, without a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import NamedTuple

from shardonnay import __version__
from shardonnay.cli.progress_bar import progress_on_stderr
from shardonnay.errors import ShardonnayError


class Command(NamedTuple):
    """A subcommand: its `name`, the one-line `help` that `shardonnay --help`
    lists, and the module `shardonnay.cli.<name>` that adds its arguments
    (`add_arguments(parser)`, which sets the parser's `run`). Only the chosen
    command's module is imported, so `--help` and a light command such as `fmt`
    do not load the partitioner, the runtime or the pictures. (A named tuple:
    `dataclasses` would be most of the import time of `shardonnay --help`.)"""

    name: str
    help: str

    def module(self) -> ModuleType:
        return importlib.import_module(f"{__name__}.{self.name}")


#: The commands, in the order `--help` lists them.
COMMANDS = (
    Command("layout", "show which part of a tensor each device holds"),
    Command("fmt", "parse a program and print it in MLIR's form"),
    Command("run", "run a function on random inputs and summarize its outputs"),
    Command("propagate", "propagate the shardings of a program and print it"),
    Command("explain", "show where the propagated sharding of a value came from"),
    Command("show", "draw how a tensor lies on its mesh"),
    Command("opt", "run Shardy passes on a program, like sdy_opt"),
    Command("partition", "partition a program and print the program of one device"),
    Command("convert", "translate shardings and annotated modules between languages"),
    Command("onnx", "check, infer and show the sharding specs of an ONNX model"),
)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser(_chosen(argv))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _print_warning
            with progress_on_stderr(enabled=not getattr(args, "quiet", False)):
                return args.run(args)
    except ShardonnayError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return _closed_pipe()
    except OSError as e:
        print(f"error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    except MemoryError as e:
        detail = f" ({e})" if str(e) else ""
        print(f"error: the program needs more memory than there is{detail}", file=sys.stderr)
        return 1


def _closed_pipe() -> int:
    """The reader of our output went away (`shardonnay propagate F | head -1`):
    stop quietly with the status of a process ended by SIGPIPE, as Unix tools do."""
    if sys.stdout is sys.__stdout__ and sys.stdout is not None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing left to flush at exit
    return 128 + signal.SIGPIPE


def _print_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings (e.g. Shardy's propagation warnings) as one `warning:` line."""
    print(f"warning: {message}", file=sys.stderr)


def _chosen(argv: Sequence[str]) -> str | None:
    """The command `argv` names: its first word that is not an option (the
    options before the command take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def _parser(chosen: str | None) -> argparse.ArgumentParser:
    """The parser of the command line; of the commands, only `chosen` gets its
    arguments (the others are listed, and never parse)."""
    parser = argparse.ArgumentParser(
        prog="shardonnay",
        description="Axis-based tensor sharding on named device meshes (Shardy's model).",
    )
    parser.add_argument("--version", action="version", version=f"shardonnay {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        sub = commands.add_parser(command.name, help=command.help)
        if command.name == chosen:
            command.module().add_arguments(sub)
    return parser
