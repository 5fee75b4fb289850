"""Soundness of propagated shardings: the consistency checker on many programs.

    python benchmarks/consistency.py                       # 2000 random programs + the corpus
    python benchmarks/consistency.py --programs 200 --passes pipeline,aggressive
    python benchmarks/consistency.py --show 20 --first-seed 5000 --max-ops 20

For every random program (`shardonnay.testing.program_generator.random_program(seed)`) and
every program of `tests/corpus`, each pass propagates it (`pipeline`:
`propagation_pipeline`; a strategy: `propagate(module, strategy=...)` after
merging the sharding groups, as Shardy's import does) and
`shardonnay.propagation.checks.consistency.check_propagated` checks the result
against the input. The table gives, per pass, the programs checked, the ops
with a sharding rule checked, those run shard by shard (compared with the
whole-tensor run), those with nothing sharded, those whose factor shardings
conflict (the partitioner reshards around them), those run shard by shard
whose Shardy rule needs communication anyway ("comm."), those the run cannot
judge, and the errors (findings of invalid shardings,
non-fixed points, shard-by-shard differences and lost or altered
annotations); then the first errors.

A pass that raises counts as one error of its program.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from shardonnay.errors import ShardonnayError
from shardonnay.pipeline import (
    propagation_pipeline,
    sharding_group_import,
)
from shardonnay.propagation.checks.consistency import (
    ConsistencyReport,
    FindingKind,
    check_propagated,
)
from shardonnay.propagation.driver import propagate
from shardonnay.propagation.importing.validation import PropagationWarning
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.program_generator import random_program

ROOT = Path(__file__).resolve().parent.parent

PASSES = ("pipeline", "basic", "aggressive", "op-priority", "user-priority")
CORPUS = sorted((ROOT / "tests" / "corpus").glob("*.mlir"))


def check(text: str, how: str, seed: int) -> ConsistencyReport:
    """Propagates `text` with `how` and checks the result."""
    original = parse_module(text)
    if how == "pipeline":
        return check_propagated(propagation_pipeline(original), original, pipeline=True, seed=seed)
    sharding_group_import(original)
    out = propagate(original, strategy=how)  # type: ignore[arg-type]
    return check_propagated(out, original, strategy=how, seed=seed)  # type: ignore[arg-type]


@dataclass
class Tally:
    programs: int = 0
    ops: int = 0
    run: int = 0
    unsharded: int = 0
    reshard: int = 0
    communication: int = 0
    not_run: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, name: str, report: ConsistencyReport) -> None:
        self.programs += 1
        self.ops += report.ops_checked
        self.run += report.ops_run
        self.unsharded += report.ops_unsharded
        self.reshard += len(report.needs_reshard)
        self.communication += len(report.of_kind(FindingKind.NEEDS_COMMUNICATION))
        self.not_run += len(report.of_kind(FindingKind.NOT_RUN))
        self.errors.extend(f"{name}: {finding}" for finding in report.errors)

    def add_crash(self, name: str, error: Exception) -> None:
        self.programs += 1
        self.errors.append(f"{name}: raised {type(error).__name__}: {error}")


def programs(first_seed: int, count: int, max_ops: int) -> Iterator[tuple[str, str, int]]:
    """(name, text, seed) of the random programs, then of the corpus."""
    for seed in range(first_seed, first_seed + count):
        yield f"seed {seed}", random_program(seed, max_ops=max_ops), seed
    for path in CORPUS:
        yield path.stem, path.read_text(), 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", type=int, default=2000, help="random programs")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--max-ops", type=int, default=12)
    parser.add_argument("--passes", default=",".join(PASSES))
    parser.add_argument("--show", type=int, default=10, help="errors listed per pass")
    args = parser.parse_args(argv)

    passes = [p.strip() for p in args.passes.split(",") if p.strip()]
    tallies = {p: Tally() for p in passes}
    start = time.perf_counter()
    warnings.simplefilter("ignore", PropagationWarning)
    for name, text, seed in programs(args.first_seed, args.programs, args.max_ops):
        for p in passes:
            try:
                tallies[p].add(name, check(text, p, seed))
            except (ShardonnayError, ValueError, KeyError, IndexError, TypeError) as e:
                tallies[p].add_crash(name, e)
    elapsed = time.perf_counter() - start

    header = ("programs", "ops checked", "run", "unsharded", "need reshard", "comm.", "not run")
    print(f"{'pass':<15}" + "".join(f"{h:>13}" for h in (*header, "errors")))
    for p, t in tallies.items():
        row = (t.programs, t.ops, t.run, t.unsharded, t.reshard, t.communication, t.not_run)
        print(f"{p:<15}" + "".join(f"{n:>13}" for n in (*row, len(t.errors))))
    print(
        f"({args.programs} random programs from seed {args.first_seed}, max_ops={args.max_ops}, "
        f"and {len(CORPUS)} corpus programs; {elapsed:.1f} s)"
    )
    for p, t in tallies.items():
        if t.errors:
            print(f"\n{p}: {len(t.errors)} errors; first {args.show}:")
            for line in t.errors[: args.show]:
                print(f"  {line}")
    return 1 if any(t.errors for t in tallies.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
