"""`shardonnay opt`: run Shardy's passes by name, like `sdy_opt`."""

from __future__ import annotations

import argparse
import sys
import textwrap

from shardonnay.cli.inputs import read_modules
from shardonnay.passes import known_passes, run_pipeline
from shardonnay.propagation.debugging.origin_attributes import with_debug_origins


def add_arguments(opt: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay opt` (its one-line help is in `cli.COMMANDS`)."""
    description = (
        "Run a pipeline of Shardy's passes, named as Shardy names them, on an MLIR program "
        "and print the result, e.g. --pass-pipeline "
        "'builtin.module(func.func(sdy-populate-op-sharding-rules))'."
    )
    opt.description = "\n".join(textwrap.wrap(description, 79, break_on_hyphens=False))
    opt.epilog = "passes:\n" + "\n".join(f"  {name}" for name in known_passes())
    opt.formatter_class = argparse.RawDescriptionHelpFormatter
    opt.add_argument("input", help="the program file ('-' for stdin)")
    opt.add_argument("--pass-pipeline", required=True, help="'builtin.module(PASS, ...)'")
    opt.add_argument(
        "--debug-origins",
        action="store_true",
        help="run the propagation passes with debug-sharding-origins=true",
    )
    opt.add_argument(
        "--split-input-file",
        action="store_true",
        help="the file holds several modules separated by '// -----' lines",
    )
    opt.add_argument(
        "--verify-each",
        action="store_true",
        help="verify the program after every pass (as mlir-opt --verify-each), to find the "
        "pass that breaks it",
    )
    opt.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    modules = read_modules(args)
    pipeline = args.pass_pipeline
    if args.debug_origins:
        pipeline = with_debug_origins(pipeline)
    texts = [
        run_pipeline(module, pipeline, verify_each=args.verify_each, in_place=True).to_text()
        for module in modules
    ]
    sys.stdout.write("// -----\n".join(texts))
    return 0
