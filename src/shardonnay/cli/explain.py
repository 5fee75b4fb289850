"""`shardonnay explain`: where the propagated sharding of a value came from."""

from __future__ import annotations

import argparse

from shardonnay.cli.inputs import add_no_pipeline_option, add_propagation_options, runs_pipeline
from shardonnay.cli.module_formats import add_input_format_option, read_program
from shardonnay.cli.progress_bar import add_quiet_option
from shardonnay.errors import ShardonnayError
from shardonnay.explain import explain_propagation


def add_arguments(explain: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay explain` (its one-line help is in `cli.COMMANDS`)."""
    explain.description = (
        "Propagate the shardings of an MLIR program and print, for one value (named as "
        "'shardonnay propagate' prints it: '%12' in @main, 'relu:%1' in @relu; with "
        "--no-pipeline, as 'shardonnay propagate --no-pipeline' prints it), its source "
        "line where the text has debug locations, its sharding and, "
        "for each axis, the annotation it came from and the ops that carried it (split or "
        "merged sub-axes, data-flow edges, named and manual computations, sharding groups, "
        "user-priority rounds), where its replicated and unreduced axes came from, and "
        "Shardy's sharding origins; or, with --why-not, why an axis does not shard it."
    )
    explain.add_argument("input", help="the program file ('-' for stdin)")
    explain.add_argument(
        "value",
        help="the value as the propagated program names it, e.g. '%%12' or 'relu:%%1', or an "
        "argument by the name its location gives it (JAX's \"params['w1']\")",
    )
    explain.add_argument(
        "--why-not", metavar="AXIS", help="say why mesh axis AXIS does not shard the value"
    )
    add_propagation_options(explain)
    add_no_pipeline_option(
        explain,
        help="explain Shardy's propagation pass alone (as 'propagate --no-pipeline') instead "
        "of sdy-propagation-pipeline",
    )
    add_quiet_option(explain)
    add_input_format_option(explain)
    explain.set_defaults(run=run, command_parser=explain)


def run(args: argparse.Namespace) -> int:
    module = read_program(args)
    pipeline = runs_pipeline(args)
    explanation = explain_propagation(
        module, pipeline=pipeline, strategy=args.strategy, conservative=args.conservative
    )
    if args.why_not is not None:
        _check_axis_exists(module, args.why_not)
        print(explanation.why_not(args.value, args.why_not))
    else:
        print(explanation.explain(args.value))
    return 0


def _check_axis_exists(module, axis: str) -> None:
    """`--why-not AXIS` names an axis of one of the program's meshes."""
    names = {name for mesh in module.meshes.values() for name, _ in mesh.axes}
    if axis not in names:
        known = ", ".join(f'"{n}"' for n in sorted(names)) or "none"
        raise ShardonnayError(
            f'--why-not: no mesh of the program has an axis "{axis}" (axes: {known})'
        )
