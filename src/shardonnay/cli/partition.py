"""`shardonnay partition`: the per-device program, its costs and its check."""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from shardonnay.cli.inputs import seed
from shardonnay.cli.module_formats import add_input_format_option, read_program
from shardonnay.cli.progress_bar import add_quiet_option
from shardonnay.errors import CheckError
from shardonnay.ir.naming import output_names
from shardonnay.ir.types import TensorType
from shardonnay.ir.verifier import verify
from shardonnay.partitioner.analysis.report import report_of
from shardonnay.partitioner.per_device import per_device_program
from shardonnay.partitioner.placement import device_count
from shardonnay.partitioner.program import explicit_collectives, propagated_program
from shardonnay.runtime import interpreter
from shardonnay.runtime.check import check
from shardonnay.runtime.numerics import (
    ROUNDING,
    compare_output,
    main_arguments,
    read_npz,
    scaled_inputs,
    validate_tolerance,
)
from shardonnay.runtime.pjrt import host_devices_for, run_on_devices


def add_arguments(partition: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay partition` (its one-line help is in `cli.COMMANDS`)."""
    partition.description = (
        "Propagate the shardings of an MLIR program, partition it as Shardy does (explicit "
        "reshards, reshards to collectives) and print the program every device runs, with "
        "StableHLO collectives. The report and the comparison print after it as '//' "
        "comments."
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
        "(needs the jax extra; where there are too few, XLA's CPU client is given as many "
        "devices as the program needs) and compare each output with the unpartitioned program's",
    )
    partition.add_argument("--seed", type=seed, default=0, help="seed of the random inputs")
    partition.add_argument(
        "--inputs",
        metavar="FILE.npz",
        help="run --simulate on these inputs instead of random ones: an .npz file with one "
        "array per argument of @main, named arr_0, arr_1, ... (np.savez(path, *arrays)), "
        "arg0, ... or input0, ...",
    )
    partition.add_argument(
        "--input-scale",
        type=float,
        default=1.0,
        help="multiply the float inputs of --simulate by this factor (1)",
    )
    partition.add_argument(
        "--rounding",
        type=float,
        default=ROUNDING,
        help="--simulate passes an output whose error against the float64 reference is at "
        f"most this many times the unpartitioned program's own rounding error ({ROUNDING:g}); "
        "0 compares in the program's own dtypes with --rtol and --atol only",
    )
    partition.add_argument(
        "--rtol",
        type=float,
        default=0.0,
        help="relative error --simulate allows on top of --rounding (0)",
    )
    partition.add_argument(
        "--atol",
        type=float,
        help="absolute error --simulate allows on top of --rounding (default 0; with "
        "--rounding 0, sqrt(eps) times the output's largest magnitude)",
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
    partition.add_argument(
        "--max-devices",
        type=int,
        metavar="N",
        help="partition for meshes of at most N devices (default $SHARDONNAY_MAX_DEVICES, "
        "else 1024); a larger mesh is an error",
    )
    add_quiet_option(partition)
    add_input_format_option(partition)
    partition.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for name in ("rounding", "rtol", "atol", "input_scale"):
        validate_tolerance(f"--{name.replace('_', '-')}", getattr(args, name))
    module = read_program(args)
    verify(module)
    propagate = not args.no_propagate
    result = failure = None
    if args.simulate or args.devices:
        try:
            result = check(
                module,
                args.seed,
                inputs=_read_inputs(args.inputs),
                input_scale=args.input_scale,
                rounding=args.rounding,
                rtol=args.rtol,
                atol=args.atol,
                propagate=propagate,
                max_devices=args.max_devices,
            )
        except CheckError as e:
            if e.result is None:
                raise
            result, failure = e.result, e
        explicit, local, propagated = result.explicit, result.local, result.propagated
    else:
        propagated = propagated_program(module, propagate=propagate, max_devices=args.max_devices)
        explicit = explicit_collectives(propagated, propagate=False, max_devices=args.max_devices)
        local = per_device_program(explicit, max_devices=args.max_devices)
    if args.json:
        report = report_of(module, explicit, local, propagated=propagated)
        print(json.dumps(report.to_json()))
        if failure is not None:
            raise failure
        return 0
    sys.stdout.write((explicit if args.global_program else local).to_text())
    comments = []
    if args.report:
        report = report_of(module, explicit, local, propagated=propagated)
        comments.append(report.text(top=args.top, all_rows=args.all))
    if result is not None:
        comments.append(result.table())
    if args.devices and failure is None:
        line, failure = _compare_on_devices(module, propagated, local, args)
        comments.append(line)
    for block in comments:
        print("\n".join(f"// {line}".rstrip() for line in block.splitlines()))
    if failure is not None:
        raise failure
    return 0


def _read_inputs(path: str | None):
    """The arrays of the `.npz` file `path` (None: random inputs), loaded now."""
    return None if path is None else read_npz(path)


def _compare_on_devices(module, propagated, local, args: argparse.Namespace):
    """Runs per-device program `local` on XLA devices on the inputs of
    `--simulate`; returns a line saying how many outputs match `module`'s, and
    the `CheckError` of the first that does not (or None)."""
    note = host_devices_for(device_count(local))  # before JAX starts
    if note is not None:
        print(f"note: {note}", file=sys.stderr)
    given = _read_inputs(args.inputs)
    if given is None:
        inputs = interpreter.random_inputs(module, seed=args.seed)
    else:
        inputs = main_arguments(module, given)
    if args.input_scale != 1:
        inputs = scaled_inputs(inputs, args.input_scale)
    with np.errstate(all="ignore"):
        expected = interpreter.run(module, *inputs)
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
    name = output_names(propagated)[bad.index]
    return line, CheckError(
        f"output {bad.index} ({name}) on XLA devices differs from the unpartitioned program's: "
        f"max abs error {bad.max_abs_error:.3g}; {bad.detail}",
        bad,
    )
