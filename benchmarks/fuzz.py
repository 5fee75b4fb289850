"""Structural fuzzing: mutated real programs through every stage, each in a
child process with a time and a memory limit.

    python benchmarks/fuzz.py --inputs 20000 [--jobs 1] [--start 0]

Each seed picks a corpus program (`tests/corpus/*.mlir`, `examples/*.mlir`)
and a structural mutation (`shardonnay.testing.structural_mutations`: swapped operands,
inconsistent types, deleted terminators, huge/zero/negative dims, 1,000-deep
nesting, 1M-element and out-of-range literals, NUL and invalid UTF-8 bytes,
invalid shardings and meshes, meshes of a million devices, missing meshes,
duplicate names, use before definition, recursion, line and token edits) and
sends the result through parse, verify, propagate, partition, check and the
command line (`fmt --verify`, and, for every tenth seed, `partition --report
--simulate` where the rest passed). Inputs run in processes forked from one that has imported
shardonnay already (no interpreter start-up per input), `--jobs` at a time,
each under `--timeout` seconds (10) and an address space of `--memory-gb` (4).
The time limit is wall-clock by default; `--clock cpu` makes it the child's
own CPU time (`RLIMIT_CPU`), the fair measure on a machine busy with other
work (a wall-clock backstop of ten times the limit still applies).

The table counts inputs that end in a typed error (a `ShardonnayError`, or
the CLI's `error:` line), pass every stage, raise anything else
(unexpected), run out of time, run out of memory (`MemoryError` under the
limit), or make the CLI raise (a traceback a user would see); then lists the
inputs of the last four kinds, with the seed that reproduces each
(`--inputs 1 --start SEED --show`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import select
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from shardonnay.testing.structural_mutations import exercise, mutate

ROOT = Path(__file__).resolve().parent.parent

KINDS = ("typed", "passed", "unexpected", "over time", "memory", "traceback")
HEADERS = {
    "typed": "typed errors",
    "passed": "passed",
    "unexpected": "unexpected exceptions",
    "over time": "over time",
    "memory": "over memory",
    "traceback": "CLI tracebacks",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1000, help="how many seeds (1000)")
    parser.add_argument("--start", type=int, default=0, help="the first seed (0)")
    parser.add_argument("--jobs", type=int, default=1, help="inputs run at a time (1)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per input (10)")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what the time limit measures: elapsed time (wall) or the child's CPU time",
    )
    parser.add_argument("--memory-gb", type=float, default=4.0, help="address space (4 GB)")
    parser.add_argument("--show", action="store_true", help="print each input's text")
    parser.add_argument("--list", type=int, default=30, help="failures listed per kind (30)")
    args = parser.parse_args()
    _warm_up()
    start = time.perf_counter()
    results = _run_all(args)
    elapsed = time.perf_counter() - start
    counts = Counter(kind for kind, _ in results.values())
    print(
        f"structural fuzzing: {args.inputs} inputs from seed {args.start}, "
        f"{args.jobs} at a time, {args.timeout:g} s ({args.clock}) and {args.memory_gb:g} GB each, "
        f"{elapsed:.0f} s"
    )
    print("| inputs | " + " | ".join(HEADERS[k] for k in KINDS) + " |")
    print("|---:|" + "---:|" * len(KINDS))
    print(f"| {len(results)} | " + " | ".join(str(counts[k]) for k in KINDS) + " |")
    for kind in KINDS[2:]:
        failures = [(seed, detail) for seed, (k, detail) in sorted(results.items()) if k == kind]
        if failures:
            print(f"\n{HEADERS[kind]}:")
            for seed, detail in failures[: args.list]:
                print(f"  seed {seed}: {detail}")
    return 0 if all(counts[k] == 0 for k in KINDS[2:]) else 1


def _warm_up() -> None:
    """Imports (and first uses) everything in the parent, so children start warm."""
    import shardonnay
    import shardonnay.cli
    import shardonnay.partitioner.program
    import shardonnay.runtime.simulator  # noqa: F401

    with tempfile.TemporaryDirectory() as tmp:
        exercise((ROOT / "examples" / "mlp.mlir").read_text(), f"{tmp}/warm.mlir")


def _run_all(args) -> dict[int, tuple[str, str]]:
    results: dict[int, tuple[str, str]] = {}
    running: dict[int, tuple[int, int, float]] = {}  # pid -> (seed, pipe, deadline)
    seeds = iter(range(args.start, args.start + args.inputs))
    limit = int(args.memory_gb * 2**30)
    with tempfile.TemporaryDirectory() as tmp:
        pending = True
        reported = 0
        while pending or running:
            while pending and len(running) < args.jobs:
                seed = next(seeds, None)
                if seed is None:
                    pending = False
                    break
                pipe_read, pipe_write = os.pipe()
                pid = os.fork()
                if pid == 0:  # the child: one input, then exit without cleanup
                    os.close(pipe_read)
                    cpu_limit = args.timeout if args.clock == "cpu" else None
                    _child(seed, f"{tmp}/{seed}.mlir", limit, cpu_limit, pipe_write, args.show)
                os.close(pipe_write)
                wall = args.timeout * (10 if args.clock == "cpu" else 1)
                running[pid] = (seed, pipe_read, time.monotonic() + wall)
            _collect(running, results)
            if len(results) % 500 == 0 and results and len(results) != reported:
                reported = len(results)
                kinds = Counter(kind for kind, _ in results.values())
                print(f"  {reported} inputs: {dict(kinds)}", file=sys.stderr, flush=True)
    return results


def _child(
    seed: int, path: str, limit: int, cpu_limit: float | None, pipe: int, show: bool
) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if cpu_limit is not None:  # SIGXCPU ends the child once it has used its CPU time
            used = resource.getrusage(resource.RUSAGE_SELF)
            seconds = int(used.ru_utime + used.ru_stime + cpu_limit + 0.999)
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
        program, mutations, text = mutate(seed)
        if show:
            shown = text if isinstance(text, str) else text.decode("utf-8", "replace")
            print(f"// seed {seed}: {program} {mutations}\n{shown[:20000]}", file=sys.stderr)
        kind, detail = exercise(text, path, cli_partition=seed % 10 == 0)
        message = {"kind": kind, "detail": f"{program} {mutations}: {detail}" if detail else ""}
        if kind in ("typed", "passed"):
            message["detail"] = f"{program} {mutations}"
    except MemoryError:
        message = {"kind": "memory", "detail": "MemoryError outside the stages"}
    except BaseException as e:  # the harness itself must report, whatever happens
        message = {"kind": "unexpected", "detail": f"harness: {type(e).__name__}: {e}"}
    try:
        os.write(pipe, json.dumps(message).encode())
    finally:
        os._exit(0)


def _collect(running: dict[int, tuple[int, int, float]], results: dict) -> None:
    """Waits a little for children; records those that finished or ran out of time."""
    pipes = {pipe: pid for pid, (_, pipe, _) in running.items()}
    nearest = min(deadline for _, _, deadline in running.values()) if running else 0
    select.select(list(pipes), [], [], max(0.0, min(0.5, nearest - time.monotonic())))
    now = time.monotonic()
    for pid, (seed, pipe, deadline) in list(running.items()):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0 and now < deadline:
            continue
        if done == 0:  # out of time
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            results[seed] = ("over time", f"{_describe(seed)}: more than the time limit")
        else:
            data = b""
            while chunk := os.read(pipe, 65536):
                data += chunk
            if data:
                message = json.loads(data)
                results[seed] = (message["kind"], message["detail"])
            elif os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
                results[seed] = ("over time", f"{_describe(seed)}: more than the CPU time limit")
            else:
                results[seed] = ("unexpected", f"{_describe(seed)}: died (status {status})")
        os.close(pipe)
        del running[pid]


def _describe(seed: int) -> str:
    program, mutations, _ = mutate(seed)
    return f"{program} {mutations}"


if __name__ == "__main__":
    sys.exit(main())
