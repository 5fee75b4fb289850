"""`shardonnay fmt`: parse a program and print it as MLIR prints it."""

from __future__ import annotations

import argparse
import sys

from shardonnay.cli.inputs import read_modules
from shardonnay.ir.verifier import verify


def add_arguments(fmt: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay fmt` (its one-line help is in `cli.COMMANDS`)."""
    fmt.description = "Parse an MLIR program (StableHLO + sdy) and print it as MLIR prints it."
    fmt.add_argument("input", help="the program file ('-' for stdin)")
    fmt.add_argument("--generic", action="store_true", help="print ops in the generic form")
    fmt.add_argument(
        "--split-input-file",
        action="store_true",
        help="the file holds several modules separated by '// -----' lines",
    )
    fmt.add_argument("--debug-info", action="store_true", help="keep the locations")
    fmt.add_argument("--verify", action="store_true", help="also check the program's invariants")
    fmt.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    modules = read_modules(args)
    texts = []
    for module in modules:
        if args.verify:
            verify(module)
        texts.append(module.to_text(generic=args.generic, debug_info=args.debug_info))
    sys.stdout.write("// -----\n".join(texts))
    return 0
