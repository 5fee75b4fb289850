"""End-to-end check of the partitioner: per-device programs against the original.

    python benchmarks/partition_check.py                  # corpus + 2000 random programs
    python benchmarks/partition_check.py --seeds 300 --start 1000 --max-ops 20
    python benchmarks/partition_check.py --shardy         # also Shardy's partitioner (jaxlib)

For each program: shardonnay's `explicit_collectives` (Shardy's propagation
pipeline, `insert_explicit_reshards(full_version=True)`, then every reshard
lowered by the planner where its chain is cheaper than Shardy's lowering, or
left to the per-device program's direct exchange where that is cheaper still;
with `--shardy`, also Shardy's own three passes run in jaxlib), then
the per-device program as `shardonnay.partition` makes it (`per_device_program`),
with poisoned padding, run on every device by
`simulate` and compared with the reference interpreter on the original
program (rtol 1e-5). Programs are the 17 of tests/corpus and
`random_program_with_inputs(seed)` of `shardonnay.testing.program_generator`.

Each program ends in one of: `passed`; `PartitionError` (the conversion
rejects it; counted per reason, numbers and names blanked out); `wrong`
(the devices compute something else: a bug); `error` (any other exception:
a bug). The table lists them per source, with the seeds of the first few
wrong or failing programs, and the programs that took more than 10 s
("slow"; CPU seconds of this process, so that a busy machine does not
count). `--verbose` prints one line per program as it finishes.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from shardonnay import parse_module, run
from shardonnay.errors import PartitionError
from shardonnay.partitioner.per_device import per_device_program
from shardonnay.partitioner.program import explicit_collectives
from shardonnay.runtime.simulator import simulate
from shardonnay.testing.program_generator import random_program_with_inputs

ROOT = Path(__file__).resolve().parent.parent

CORPUS = ROOT / "tests" / "corpus"
SHOWN = 5  # names of wrong / failing programs listed per row
VERBOSE = False  # one line per program as it finishes (--verbose)


@dataclass
class Tally:
    """What happened to the programs of one source."""

    total: int = 0
    passed: int = 0
    rejected: Counter = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    failing: list[str] = field(default_factory=list)
    seconds: float = 0.0
    slow: list[tuple[str, float]] = field(default_factory=list)


def own_partition(text: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return explicit_collectives(parse_module(text)).to_text()


def shardy_partition(text: str) -> str:
    from shardonnay.testing.partitioned_programs import shardy_partition as partition

    return partition(text)


def _reason(error: BaseException) -> str:
    """The message with locations, names and numbers blanked out."""
    text = re.sub(r" at loc\([^)]*\)", "", str(error))
    text = re.sub(r"@[\w.]+", "@M", text)
    text = re.sub(r'"[\w]+"(:\(\d+\)\d+)?', '"a"', text)
    return re.sub(r"\d+", "N", text)


SLOW_SECONDS = 10.0  # a program that takes more CPU seconds than this is listed as slow


def check(name: str, text: str, inputs, partition: Callable[[str], str], tally: Tally) -> None:
    tally.total += 1
    start = time.process_time()
    outcome = "passed"
    try:
        partitioned = parse_module(partition(text))
        try:
            local = per_device_program(partitioned, poison_padding=True)  # as partition makes it
        except PartitionError as e:
            tally.rejected[_reason(e)] += 1
            outcome = "rejected"
            return
        with np.errstate(all="ignore"):
            got = simulate(local, *inputs)
            want = run(parse_module(text), *inputs)
        same = len(got) == len(want) and all(
            g.shape == w.shape and np.allclose(g, w, rtol=1e-5, atol=1e-5, equal_nan=True)
            for g, w in zip(got, want, strict=True)
        )
        if same:
            tally.passed += 1
        else:
            tally.wrong.append(name)
            outcome = "WRONG"
    except Exception as e:  # a bug: reported, not raised, so that the table is complete
        tally.errors[f"{type(e).__name__}: {_reason(e)[:90]}"] += 1
        tally.failing.append(name)
        outcome = f"error {type(e).__name__}: {str(e)[:200]}"
    finally:
        seconds = time.process_time() - start
        tally.seconds += seconds
        if seconds > SLOW_SECONDS:
            tally.slow.append((name, seconds))
        if VERBOSE:
            print(f"{name:<24}{seconds:>8.2f} s  {outcome}", flush=True)


def corpus_programs() -> Iterator[tuple[str, str, list]]:
    for path in sorted(CORPUS.glob("*.mlir")):
        data = np.load(path.with_suffix(".npz"))
        count = sum(1 for k in data.files if k.startswith("input"))
        yield path.stem, path.read_text(), [data[f"input{i}"] for i in range(count)]


def random_programs(start: int, count: int, max_ops: int) -> Iterator[tuple[str, str, list]]:
    for seed in range(start, start + count):
        text, inputs = random_program_with_inputs(seed, max_ops=max_ops)
        yield f"seed{seed}", text, inputs


def print_table(rows: list[tuple[str, Tally]]) -> None:
    print(
        f"{'programs':<34}{'total':>7}{'passed':>8}{'rejected':>10}{'wrong':>7}{'error':>7}"
        f"{'slow':>6}{'s':>8}"
    )
    for label, t in rows:
        rejected = sum(t.rejected.values())
        errors = sum(t.errors.values())
        print(
            f"{label:<34}{t.total:>7}{t.passed:>8}{rejected:>10}{len(t.wrong):>7}{errors:>7}"
            f"{len(t.slow):>6}{t.seconds:>8.1f}"
        )
    for label, t in rows:
        if t.rejected:
            print(f"\n{label}: PartitionError by reason")
            for reason, n in t.rejected.most_common():
                print(f"  {n:>5}  {reason}")
        if t.wrong:
            print(f"\n{label}: WRONG ({len(t.wrong)}): {', '.join(t.wrong[:SHOWN])}")
        if t.errors:
            print(f"\n{label}: errors ({', '.join(t.failing[:SHOWN])})")
            for reason, n in t.errors.most_common():
                print(f"  {n:>5}  {reason}")
        if t.slow:
            slowest = sorted(t.slow, key=lambda item: -item[1])[:SHOWN]
            shown = ", ".join(f"{name} ({seconds:.0f} s)" for name, seconds in slowest)
            print(f"\n{label}: over {SLOW_SECONDS:.0f} s ({len(t.slow)}): {shown}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=2000, help="random programs (2000)")
    parser.add_argument("--start", type=int, default=0, help="first seed (0)")
    parser.add_argument("--max-ops", type=int, default=12, help="ops per random program (12)")
    parser.add_argument("--shardy", action="store_true", help="also Shardy's partitioner")
    parser.add_argument("--verbose", action="store_true", help="one line per program")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    sources = [("shardonnay", own_partition)]
    if args.shardy:
        sources.append(("Shardy", shardy_partition))
    rows = []
    for label, partition in sources:
        corpus = Tally()
        for name, text, inputs in corpus_programs():
            check(name, text, inputs, partition, corpus)
        rows.append((f"corpus, {label} partitioner", corpus))
        randoms = Tally()
        for name, text, inputs in random_programs(args.start, args.seeds, args.max_ops):
            check(name, text, inputs, partition, randoms)
        seeds = f"{args.start}..{args.start + args.seeds - 1}"
        rows.append((f"random {seeds}, {label}", randoms))
    print_table(rows)
    return 0 if all(not t.wrong and not t.errors and not t.slow for _, t in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
