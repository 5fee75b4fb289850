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
import os
import signal
import sys
import warnings
from collections.abc import Sequence

from shardonnay import __version__
from shardonnay.cli import (
    convert,
    explain,
    fmt,
    layout,
    onnx,
    opt,
    partition,
    propagate,
    run,
    show,
)
from shardonnay.cli.progress_bar import progress_on_stderr
from shardonnay.errors import ShardonnayError

#: The commands, in the order `--help` lists them; each module adds its sub-parser.
COMMANDS = (layout, fmt, run, propagate, explain, show, opt, partition, convert, onnx)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shardonnay",
        description="Axis-based tensor sharding on named device meshes (Shardy's model).",
    )
    parser.add_argument("--version", action="version", version=f"shardonnay {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_command(commands)
    return parser
