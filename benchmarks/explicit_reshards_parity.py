"""Differential test of explicit resharding: shardonnay against Shardy.

    python benchmarks/explicit_reshards_parity.py                  # 500 programs + corpus
    python benchmarks/explicit_reshards_parity.py --programs 2000 --first-seed 1000 --show 5

Four comparisons, each of the whole printed module, on random programs
(`shardonnay.testing.program_generator.random_program(seed)`) and on the corpus
(`tests/corpus/*.mlir`):

- `full`: `sdy-insert-explicit-reshards{enable-full-version=true}` alone, on
  the module Shardy's `sdy-propagation-pipeline` produces;
- `limited`: `enable-full-version=false` alone, on the module as Shardy's
  pipeline hands it to that step;
- `end-to-end`: `sdy-propagation-pipeline` then the full version, shardonnay's
  propagation against Shardy's;
- `to-collectives`: `sdy-reshard-to-collectives` alone, on the module Shardy's
  pipeline and full version produce; also on `--reshards` random single
  reshards between random shardings (`random reshards` rows).

A program on which shardonnay raises counts as a mismatch. The table also
gives the time the pass takes in each (shardonnay, and Shardy in-process
through MLIR including parsing and printing)::

    comparison      programs  identical   match rate   shardonnay s   Shardy s
    full                 500        499       99.80%           1.23       0.45
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from pathlib import Path

from shardonnay.export.explicit_reshards import insert_explicit_reshards
from shardonnay.export.reshard_to_collectives import reshard_to_collectives
from shardonnay.passes import run_pipeline
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.mlir_oracle import context, run_pass_pipeline
from shardonnay.testing.program_generator import random_program
from shardonnay.testing.sharding_pairs import random_reshard

ROOT = Path(__file__).resolve().parent.parent

FULL = "func.func(sdy-insert-explicit-reshards{enable-full-version=true})"
LIMITED = "func.func(sdy-insert-explicit-reshards{enable-full-version=false})"
END_TO_END = f"builtin.module(sdy-propagation-pipeline, {FULL})"
TO_COLLECTIVES = "builtin.module(func.func(sdy-reshard-to-collectives))"


def steps_before_explicit_reshards() -> str:
    """The passes of Shardy's `sdy-propagation-pipeline` before its explicit reshards."""
    from jaxlib.mlir import passmanager

    with context():
        steps = str(passmanager.PassManager.parse("builtin.module(sdy-propagation-pipeline)"))
    steps = steps[len("builtin.module(") : -1]
    steps = steps[: steps.index("func.func(sdy-insert-explicit-reshards")].rstrip(",")
    return steps.replace("sdy-save-module,", "").replace(",sdy-save-module", "")


@dataclass
class Tally:
    programs: int = 0
    identical: int = 0
    ours_s: float = 0.0
    shardy_s: float = 0.0
    mismatches: list[str] = field(default_factory=list)

    def row(self, name: str) -> str:
        rate = 100.0 * self.identical / self.programs if self.programs else 0.0
        return (
            f"{name:<28}{self.programs:>8}{self.identical:>11}{rate:>12.2f}%"
            f"{self.ours_s:>15.2f}{self.shardy_s:>11.2f}"
        )


def compare_pass(tally: Tally, name: str, text: str, full: bool, before: str) -> None:
    """The pass alone, on Shardy's module right before it."""
    module_text = run_pass_pipeline(text, before)
    start = time.perf_counter()
    theirs = run_pass_pipeline(module_text, f"builtin.module({FULL if full else LIMITED})")
    tally.shardy_s += time.perf_counter() - start
    start = time.perf_counter()
    try:
        ours = insert_explicit_reshards(parse_module(module_text), full_version=full).to_text()
    except Exception as error:  # a crash is a mismatch, reported with its message
        ours = f"error: {error}"
    tally.ours_s += time.perf_counter() - start
    _record(tally, name, ours == theirs)


def compare_end_to_end(tally: Tally, name: str, text: str) -> None:
    start = time.perf_counter()
    theirs = run_pass_pipeline(text, END_TO_END)
    tally.shardy_s += time.perf_counter() - start
    start = time.perf_counter()
    try:
        ours = run_pipeline(parse_module(text), END_TO_END).to_text()
    except Exception as error:
        ours = f"error: {error}"
    tally.ours_s += time.perf_counter() - start
    _record(tally, name, ours == theirs)


def compare_to_collectives(tally: Tally, name: str, module_text: str) -> None:
    """`sdy-reshard-to-collectives` alone on `module_text` (a module Shardy
    cannot lower does not count)."""
    start = time.perf_counter()
    try:
        theirs = run_pass_pipeline(module_text, TO_COLLECTIVES)
    except Exception:
        return
    tally.shardy_s += time.perf_counter() - start
    start = time.perf_counter()
    try:
        ours = reshard_to_collectives(parse_module(module_text)).to_text()
    except Exception as error:
        ours = f"error: {error}"
    tally.ours_s += time.perf_counter() - start
    _record(tally, name, ours == theirs)


def _record(tally: Tally, name: str, same: bool) -> None:
    tally.programs += 1
    if same:
        tally.identical += 1
    else:
        tally.mismatches.append(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", type=int, default=500)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--reshards", type=int, default=1000, help="random single reshards")
    parser.add_argument("--show", type=int, default=10, help="mismatching cases listed per row")
    args = parser.parse_args()

    import warnings

    warnings.simplefilter("ignore")
    before_limited = f"builtin.module({steps_before_explicit_reshards()})"
    before_full = "builtin.module(sdy-propagation-pipeline)"
    cases = [
        (f"seed {s}", random_program(s))
        for s in range(args.first_seed, args.first_seed + args.programs)
    ]
    corpus = [(p.stem, p.read_text()) for p in sorted((ROOT / "tests" / "corpus").glob("*.mlir"))]
    rows: list[tuple[str, Tally]] = []
    for label, programs in (("random", cases), ("corpus", corpus)):
        full, limited, end_to_end, lowering = Tally(), Tally(), Tally(), Tally()
        for name, text in programs:
            compare_pass(full, name, text, True, before_full)
            compare_pass(limited, name, text, False, before_limited)
            compare_end_to_end(end_to_end, name, text)
            compare_to_collectives(lowering, name, run_pass_pipeline(text, END_TO_END))
        rows += [
            (f"full ({label})", full),
            (f"limited ({label})", limited),
            (f"end-to-end ({label})", end_to_end),
            (f"to-collectives ({label})", lowering),
        ]
    for powers_of_two in (True, False):
        lowering = Tally()
        for seed in range(args.reshards):
            text = random_reshard(seed, powers_of_two=powers_of_two)
            compare_to_collectives(lowering, f"reshard {seed}", text)
        label = "2^k axes" if powers_of_two else "any axes"
        rows.append((f"random reshards ({label})", lowering))
    print(
        f"{'comparison':<28}{'programs':>8}{'identical':>11}{'match rate':>13}"
        f"{'shardonnay s':>15}{'Shardy s':>11}"
    )
    for name, tally in rows:
        print(tally.row(name))
    for name, tally in rows:
        if tally.mismatches:
            shown = ", ".join(tally.mismatches[: args.show])
            more = len(tally.mismatches) - args.show
            print(f"{name} mismatches: {shown}" + (f" (+{more} more)" if more > 0 else ""))


if __name__ == "__main__":
    main()
