"""Differential test of sharding propagation: shardonnay against Shardy, on random programs.

    python benchmarks/parity.py                                  # 2000 programs, both passes
    python benchmarks/parity.py --programs 500 --passes sdy-aggressive-propagate
    python benchmarks/parity.py --max-ops 6 --show 20 --first-seed 1000
    python benchmarks/parity.py --exclude stablehlo.while,sdy.sharding_group
    python benchmarks/parity.py --conservative --passes sdy-aggressive-propagate
    python benchmarks/parity.py --all-passes --programs 500     # every pass by its name

For every seed, `shardonnay.testing.program_generator.random_program(seed, max_ops=...)` draws
an annotated program; each pass runs in Shardy (through MLIR inside jaxlib, in
a child process, since some of Shardy's passes abort on inputs they do not
support) and in shardonnay (`shardonnay.passes.run_pipeline`). The printed
modules are compared as text; when they differ, the final sharding of every
value (function arguments and results, op results, `sdy.sharding_constraint`
shardings) is compared one by one. The table gives, per pass, the programs
whose output is identical and the values whose sharding matches; then the
first mismatching seeds, each with its first differing value::

    pass                      programs  identical  values matching   match rate
    sdy-basic-propagate           2000       2000      31000/31000      100.00%

A program on which shardonnay raises counts as a mismatch (all its values);
one Shardy rejects or aborts on is not counted.
With `--conservative`, every pass runs with `conservative-propagation=true`
(no axis is split into sub-axes while propagating).

With `--all-passes`, every pass shardonnay runs by its Shardy name is
compared in the pipeline `shardonnay.testing.pass_programs.PASS_PIPELINES` gives it (the
pass alone, or after the passes that make its input), on the random programs
made the way that pass needs them (calls, inline meshes, manual computations,
size-1 axes); programs Shardy itself rejects are not counted.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from dataclasses import dataclass, field

from shardonnay.ir.core import Module
from shardonnay.passes import run_pipeline
from shardonnay.propagation.importing.validation import PropagationWarning
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.mlir_oracle import run_pass_pipeline, run_pass_pipelines_isolated
from shardonnay.testing.pass_programs import PASS_PIPELINES, normalize, program
from shardonnay.testing.program_generator import random_program

PASSES = ("sdy-basic-propagate", "sdy-aggressive-propagate")
__all__ = ["compare", "normalize", "value_shardings"]


def value_shardings(module: Module) -> list[tuple[str, str]]:
    """(where, sharding text) of every value that can carry a sharding, in program order.

    `where` names the value: `@main arg 0`, `@main result 1`, or
    `op 3 (stablehlo.add) result 0` (ops numbered in walk order).
    """
    out: list[tuple[str, str]] = []
    for func in module.functions:
        name = func.op.attributes.get("sym_name", "?")
        for i in range(len(func.arguments)):
            out.append((f"@{name} arg {i}", str(func.arg_attrs(i).get("sdy.sharding"))))
        for i in range(len(func.op.attributes["function_type"].results)):
            out.append((f"@{name} result {i}", str(func.result_attrs(i).get("sdy.sharding"))))
    for index, op in enumerate(module.walk()):
        if op.name == "func.func" or not op.results:
            continue
        if op.name == "sdy.sharding_constraint":
            shardings = [op.attributes.get("sharding")]
        else:
            per_value = op.attributes.get("sdy.sharding")
            shardings = list(per_value) if per_value is not None else [None] * len(op.results)
        for i, s in enumerate(shardings):
            out.append((f"op {index} ({op.name}) result {i}", str(s)))
    return out


@dataclass
class Outcome:
    """How one program compared under one pass."""

    identical: bool
    matching: int
    total: int
    first_difference: str = ""


def compare(text: str, pipeline: str, shardy: str | None = None) -> Outcome | None:
    """Runs `pipeline` in shardonnay on `text` and compares the result with
    Shardy's (`shardy`, its output when already run; else run here); None
    when Shardy rejects `text` (or its own output)."""
    expected_text = shardy
    if expected_text is None:
        try:
            expected_text = run_pass_pipeline(text, pipeline)
        except Exception:  # (MLIR's errors, raised by jaxlib)
            return None
    expected = value_shardings(parse_module(expected_text))
    try:
        actual_module = run_pipeline(parse_module(text), pipeline)
        actual_text = actual_module.to_text()
    except Exception as e:  # a crash is a mismatch of every value
        return Outcome(False, 0, len(expected), f"raised {type(e).__name__}: {e}")
    if actual_text == expected_text:
        return Outcome(True, len(expected), len(expected))
    actual = value_shardings(actual_module)
    if len(actual) != len(expected):
        return Outcome(False, 0, len(expected), "different module structure")
    matching = 0
    first = ""
    for (where, want), (_, got) in zip(expected, actual, strict=True):
        if want == got:
            matching += 1
        elif not first:
            first = f"{where}: shardy {want} / ours {got}"
    if not first:
        first = "same shardings, different text"
    return Outcome(False, matching, len(expected), first)


@dataclass
class Tally:
    programs: int = 0
    identical: int = 0
    matching: int = 0
    total: int = 0
    mismatches: list[tuple[int, str]] = field(default_factory=list)

    def add(self, seed: int, outcome: Outcome) -> None:
        self.programs += 1
        self.identical += outcome.identical
        self.matching += outcome.matching
        self.total += outcome.total
        if not outcome.identical:
            self.mismatches.append((seed, outcome.first_difference))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--passes", default=",".join(PASSES))
    parser.add_argument("--max-ops", type=int, default=12)
    parser.add_argument("--show", type=int, default=10, help="mismatching seeds listed per pass")
    parser.add_argument(
        "--exclude",
        default="",
        help="skip programs containing any of these comma-separated op names "
        "(e.g. stablehlo.while,sdy.sharding_group)",
    )
    parser.add_argument("--seeds-only", action="store_true", help="print mismatching seeds only")
    parser.add_argument(
        "--all-passes",
        action="store_true",
        help="every pass by its Shardy name, each in the pipeline and on the programs "
        "shardonnay.testing.pass_programs.PASS_PIPELINES gives it",
    )
    parser.add_argument(
        "--conservative",
        action="store_true",
        help="run every pass with conservative-propagation=true",
    )
    args = parser.parse_args(argv)
    # shardonnay warns where Shardy does (e.g. for a sharding group whose
    # members' shardings disagree); here only the table is reported.
    warnings.simplefilter("ignore", PropagationWarning)

    passes = [p.strip() for p in args.passes.split(",") if p.strip()]
    if args.all_passes:  # (--passes, given, picks among them)
        chosen = passes if args.passes != parser.get_default("passes") else PASS_PIPELINES
        passes = [p for p in sorted(PASS_PIPELINES) if p in chosen]
    excluded = [name.strip() for name in args.exclude.split(",") if name.strip()]
    tallies = {p: Tally() for p in passes}
    start = time.perf_counter()
    jobs: list[tuple[int, str, str, str]] = []  # (seed, pass, program, pipeline)
    for seed in range(args.first_seed, args.first_seed + args.programs):
        if args.all_passes:
            for p in passes:
                case = PASS_PIPELINES[p]
                text = program(seed, case.programs, max_ops=args.max_ops)
                if not any(name in text for name in excluded):
                    jobs.append((seed, p, text, f"builtin.module({case.pipeline})"))
            continue
        text = normalize(random_program(seed, max_ops=args.max_ops))
        if any(name in text for name in excluded):
            continue
        for p in passes:
            options = "{conservative-propagation=true}" if args.conservative else ""
            jobs.append((seed, p, text, f"builtin.module({p}{options})"))
    # Shardy runs in a child process: some of its passes abort on inputs they
    # do not support (an `SDY_CHECK`), which counts as rejecting them.
    shardy = run_pass_pipelines_isolated([(text, pipeline) for _, _, text, pipeline in jobs])
    for (seed, p, text, pipeline), expected in zip(jobs, shardy, strict=True):
        if expected is None:
            continue
        outcome = compare(text, pipeline, expected)
        if outcome is not None:
            tallies[p].add(seed, outcome)
    elapsed = time.perf_counter() - start

    if args.seeds_only:
        for p, tally in tallies.items():
            print(p, " ".join(str(seed) for seed, _ in tally.mismatches))
        return 0
    width = max(26, *(len(p) + 2 for p in passes))
    header = f"{'programs':>9}{'identical':>11}{'values matching':>20}{'match rate':>12}"
    print(f"{'pass':<{width}}{header}")
    for p, t in tallies.items():
        rate = 100.0 * t.matching / t.total if t.total else 100.0
        print(
            f"{p:<{width}}{t.programs:>9}{t.identical:>11}{f'{t.matching}/{t.total}':>20}{rate:>11.2f}%"
        )
    print(f"({elapsed:.1f} s, max_ops={args.max_ops})")
    for p, t in tallies.items():
        if not t.mismatches:
            continue
        print(f"\n{p}: {len(t.mismatches)} mismatching programs; first {args.show}:")
        for seed, description in t.mismatches[: args.show]:
            print(f"  seed {seed}: {description}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
