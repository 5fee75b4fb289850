"""`shardonnay partition`: the per-device program, its costs and its check."""

from __future__ import annotations

import argparse
import sys

from shardonnay.cli.inputs import read_input


def add_command(commands: argparse._SubParsersAction) -> None:
    partition = commands.add_parser(
        "partition",
        help="partition a program and print the program of one device",
        description=(
            "Propagate the shardings of an MLIR program, partition it as Shardy does (explicit "
            "reshards, reshards to collectives) and print the program every device runs, with "
            "StableHLO collectives. The report and the comparison print after it as '//' "
            "comments."
        ),
    )
    partition.add_argument("input", help="the program file ('-' for stdin)")
    partition.add_argument(
        "--report",
        action="store_true",
        help="print the collectives (bytes per device, mesh axes, alpha-beta time) and the "
        "peak memory per device",
    )
    partition.add_argument(
        "--top",
        type=int,
        default=10,
        metavar="N",
        help="--report shows the N groups of collectives (kind, axes, source line) that move "
        "the most bytes (10)",
    )
    partition.add_argument(
        "--all", action="store_true", help="--report lists every collective, one per row"
    )
    partition.add_argument(
        "--json",
        action="store_true",
        help="print the report (every collective and the totals) as one JSON object instead of "
        "the program",
    )
    partition.add_argument(
        "--simulate",
        action="store_true",
        help="run the partitioned program on every device on random inputs and compare each "
        "output with the unpartitioned program's (status 1 when one differs)",
    )
    partition.add_argument(
        "--devices",
        action="store_true",
        help="--simulate, and also run the partitioned program on XLA devices through JAX "
        "(needs the jax extra; on a CPU, set XLA_FLAGS=--xla_force_host_platform_device_count=N "
        "first) and compare each output with the unpartitioned program's",
    )
    partition.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    partition.add_argument(
        "--rtol", type=float, default=1e-5, help="relative tolerance of --simulate (1e-5)"
    )
    partition.add_argument(
        "--atol",
        type=float,
        help="absolute tolerance of --simulate (default: sqrt(eps) times the output's largest "
        "magnitude)",
    )
    partition.add_argument(
        "--no-propagate",
        action="store_true",
        help="partition the shardings as written, without Shardy's propagation pipeline",
    )
    partition.add_argument(
        "--global",
        dest="global_program",
        action="store_true",
        help="print the global program with explicit sdy collectives instead",
    )
    partition.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from shardonnay.errors import CheckError
    from shardonnay.ir.verifier import verify
    from shardonnay.partition.global_to_local import convert_global_to_local
    from shardonnay.partition.program import check, explicit_collectives
    from shardonnay.syntax.mlir_reader import parse_module

    text, source = read_input(args.input)
    module = parse_module(text, source)
    verify(module)
    propagate = not args.no_propagate
    result = failure = None
    if args.simulate or args.devices:
        try:
            result = check(module, args.seed, rtol=args.rtol, atol=args.atol, propagate=propagate)
        except CheckError as e:
            if e.result is None:
                raise
            result, failure = e.result, e
        explicit, local = result.explicit, result.local
    else:
        explicit = explicit_collectives(module, propagate=propagate)
        local = convert_global_to_local(explicit)
    if args.json:
        import json

        from shardonnay.partition.report import report_of

        print(json.dumps(report_of(module, explicit, local, propagate=propagate).to_json()))
        if failure is not None:
            raise failure
        return 0
    sys.stdout.write((explicit if args.global_program else local).to_text())
    comments = []
    if args.report:
        from shardonnay.partition.report import report_of

        report = report_of(module, explicit, local, propagate=propagate)
        comments.append(report.text(top=args.top, all_rows=args.all))
    if result is not None:
        comments.append(result.table())
    if args.devices and failure is None:
        line, failure = _compare_on_devices(module, local, args)
        comments.append(line)
    for block in comments:
        print("\n".join(f"// {line}".rstrip() for line in block.splitlines()))
    if failure is not None:
        raise failure
    return 0


def _compare_on_devices(module, local, args: argparse.Namespace):
    """Runs per-device program `local` on XLA devices on the inputs of
    `--simulate`; returns a line saying how many outputs match `module`'s, and
    the `CheckError` of the first that does not (or None)."""
    import numpy as np

    from shardonnay.errors import CheckError
    from shardonnay.ir.types import TensorType
    from shardonnay.partition.program import compare_output
    from shardonnay.runtime.interpreter import random_inputs, run
    from shardonnay.runtime.pjrt import run_on_devices
    from shardonnay.runtime.simulator import device_count

    inputs = random_inputs(module, seed=args.seed)
    with np.errstate(all="ignore"):
        expected = run(module, *inputs)
    got = run_on_devices(local, *inputs)
    outputs = [
        compare_output(i, expected[i], got[i], rtol=args.rtol, atol=args.atol)
        for i, t in enumerate(module.function("main").type.results)
        if isinstance(t, TensorType)
    ]
    line = (
        f"on {device_count(local)} XLA devices: {sum(o.ok for o in outputs)} of {len(outputs)} "
        "outputs match the unpartitioned program"
    )
    bad = next((o for o in outputs if not o.ok), None)
    if bad is None:
        return line, None
    return line, CheckError(
        f"output {bad.index} on XLA devices differs from the unpartitioned program's: "
        f"max abs error {bad.max_abs_error:.3g}; {bad.detail}",
        bad,
    )
