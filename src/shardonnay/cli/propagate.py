"""`shardonnay propagate`: propagate a program's shardings and print it."""

from __future__ import annotations

import argparse
import sys

from shardonnay.cli.inputs import add_no_pipeline_option, add_propagation_options, runs_pipeline
from shardonnay.cli.module_formats import add_input_format_option, read_program
from shardonnay.cli.progress_bar import add_quiet_option
from shardonnay.pipeline import propagation_pipeline, verify_after
from shardonnay.propagation.debugging.origin_attributes import propagate_with_origins
from shardonnay.propagation.driver import propagate


def add_arguments(propagate: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay propagate` (its one-line help is in `cli.COMMANDS`)."""
    propagate.description = (
        "Propagate the shardings of an MLIR program (function arguments and results, "
        "sharding constraints, sharding groups) to every value, with Shardy's semantics, "
        "and print the program. Runs Shardy's sdy-propagation-pipeline (--no-pipeline: "
        "the propagation pass alone)."
    )
    propagate.add_argument("input", help="the program file ('-' for stdin)")
    add_propagation_options(propagate)
    propagate.add_argument(
        "--debug-origins",
        action="store_true",
        help="note where each axis came from (sdy.sharding_origins, as Shardy's "
        "debug-sharding-origins=true)",
    )
    propagate.add_argument(
        "--debug-edges",
        action="store_true",
        help="note the steps that carried each axis (sdy.propagation_edges, as Shardy's "
        "debug-propagation-edge-sharding=true)",
    )
    add_no_pipeline_option(
        propagate,
        help="run Shardy's propagation pass alone (sdy-<strategy>-propagate: open dims stay "
        "open, no import/export steps) instead of sdy-propagation-pipeline",
    )
    propagate.add_argument(
        "--debug-info",
        action="store_true",
        help="keep the locations (loc(...)), so that the printed program still names each "
        "value's source line",
    )
    propagate.add_argument(
        "--verify-each",
        action="store_true",
        help="verify the program after every step of the pipeline (as mlir-opt "
        "--verify-each; with --no-pipeline, after the propagation pass), to find the "
        "step that breaks it",
    )
    add_quiet_option(propagate)
    add_input_format_option(propagate)
    propagate.set_defaults(run=run, command_parser=propagate)


def run(args: argparse.Namespace) -> int:
    module = read_program(args)
    options = {"strategy": args.strategy, "conservative": args.conservative}
    if runs_pipeline(args):
        result = propagation_pipeline(
            module,
            debug_origins=args.debug_origins,
            debug_edges=args.debug_edges,
            verify_each=args.verify_each,
            **options,
        )
    else:
        if args.debug_origins or args.debug_edges:
            result = propagate_with_origins(
                module, origins=args.debug_origins, edges=args.debug_edges, **options
            )
        else:
            result = propagate(module, **options)
        if args.verify_each:
            verify_after(result, f"sdy-{args.strategy}-propagate")
    sys.stdout.write(result.to_text(debug_info=args.debug_info))
    return 0
