"""Reshard plans against their lower bound, and against the MLIR notes' decomposition.

    python benchmarks/reshard.py           # every pair on 2x2, 2x3, 2x2x2, 4x2; 1000 random
    python benchmarks/reshard.py --every 10 --random 200     # a quick look
    python benchmarks/reshard.py --no-unreduced    # sweep only shardings without unreduced axes

The sweep takes every pair of valid shardings that use whole axes (each
axis replicated, unreduced or in one dim, in any order) of tensors of rank
0 to 3 (shapes `shardonnay.testing.sharding_pairs.SWEEP_SHAPES`, mostly uneven); the
random pairs have sub-axes, uneven dims, other device orders and other
meshes over the same devices. Every plan is run on data and compared with
`layout.shard` of the target. Pairs whose source holds pending sums that
the target does not keep (`+reduce` rows) must reduce: there the bound,
which counts what a device lacks of its target, is far below what any
reduction moves (an all-reduce of g addends receives 2(g-1)/g buffers).
Per mesh the table gives:

- `correct`: plans whose result is the target layout (and whose bytes are
  at least the lower bound);
- `at LB`: plans whose busiest device receives exactly the lower bound;
- `worst`, `mean`: bytes received by the busiest device / lower bound, over
  pairs with a positive bound; `LB=0,>0`: pairs with bound 0 that move data
  (only targets with unreduced axes, where the bound is loose);
- the same for plans restricted to Shardy's collectives, and for the
  decomposition of the MLIR resharding notes (gather / all-to-all / slice /
  swap; same mesh only).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field

from shardonnay.partitioner.reshard.plan import baseline_plan, reshard_plan
from shardonnay.testing.sharding_pairs import (
    SWEEP_MESHES,
    SWEEP_SHAPES,
    check_plan,
    random_pair,
    sweep_pairs,
)


@dataclass
class Column:
    """Ratios of one kind of plan over a set of pairs."""

    plans: int = 0
    at_bound: int = 0
    ratios: list[float] = field(default_factory=list)
    over_zero: int = 0

    def add(self, received: int, bound: int) -> None:
        self.plans += 1
        self.at_bound += received == bound
        if bound:
            self.ratios.append(received / bound)
        elif received:
            self.over_zero += 1

    def cells(self) -> list[str]:
        if not self.plans:
            return ["-"] * 4
        worst = f"{max(self.ratios):.2f}" if self.ratios else "-"
        mean = f"{sum(self.ratios) / len(self.ratios):.3f}" if self.ratios else "-"
        return [f"{100 * self.at_bound / self.plans:.1f}%", worst, mean, str(self.over_zero)]


@dataclass
class Row:
    name: str
    pairs: int = 0
    correct: int = 0
    failures: list[str] = field(default_factory=list)
    plan: Column = field(default_factory=Column)
    shardy: Column = field(default_factory=Column)
    baseline: Column = field(default_factory=Column)
    seconds: float = 0.0

    def measure(self, src, dst, mesh, shape) -> None:
        self.pairs += 1
        start = time.perf_counter()
        try:
            plan = reshard_plan(src, dst, mesh, shape)
            check_plan(plan)
            self.correct += 1
            self.plan.add(plan.bytes_received, plan.lower_bound)
        except Exception as e:  # a failure is a row entry, not the end of the benchmark
            self.failures.append(f"{src} -> {dst} {shape}: {type(e).__name__}: {e}")
            return
        finally:
            self.seconds += time.perf_counter() - start
        try:
            shardy = reshard_plan(src, dst, mesh, shape, shardy_collectives_only=True)
            check_plan(shardy)
            self.shardy.add(shardy.bytes_received, shardy.lower_bound)
        except Exception as e:
            if plan.src_mesh.axes == plan.dst_mesh.axes:
                self.failures.append(f"(shardy only) {src} -> {dst} {shape}: {e}")
        base = baseline_plan(src, dst, mesh, shape)
        if base is not None:
            check_plan(base)
            self.baseline.add(base.bytes_received, base.lower_bound)

    def cells(self) -> list[str]:
        ms = 1000 * self.seconds / max(1, self.pairs)
        return [
            self.name,
            str(self.pairs),
            str(self.correct),
            *self.plan.cells(),
            *self.shardy.cells(),
            *self.baseline.cells(),
            f"{ms:.1f}",
        ]


HEADER = [
    "mesh",
    "pairs",
    "correct",
    "at LB",
    "worst",
    "mean",
    "LB=0,>0",
    "shardy: at LB",
    "worst",
    "mean",
    "LB=0,>0",
    "notes: at LB",
    "worst",
    "mean",
    "LB=0,>0",
    "ms/plan",
]


def needs_reduction(src, dst) -> bool:
    """The source has pending addends that the target does not keep."""
    if not src.unreduced:
        return False
    if src.reduction != dst.reduction or src.mesh.axes != dst.mesh.axes:
        return True
    return any(not any(d.contains(a) for d in dst.unreduced) for a in src.unreduced)


def print_table(rows: list[Row]) -> None:
    table = [HEADER] + [r.cells() for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    for line in table:
        print("  ".join(cell.rjust(w) for cell, w in zip(line, widths, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--every", type=int, default=1, help="take every n-th sweep pair")
    parser.add_argument("--random", type=int, default=1000, help="random pairs with sub-axes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-unreduced", action="store_true")
    parser.add_argument("--show", type=int, default=5, help="failures to print")
    args = parser.parse_args()
    rows = []
    for name, mesh in SWEEP_MESHES.items():
        row, reducing = Row(name), Row(f"{name} +reduce")
        for rank, shape in SWEEP_SHAPES.items():
            for src, dst in sweep_pairs(
                mesh, rank, every=args.every, unreduced=not args.no_unreduced
            ):
                (reducing if needs_reduction(src, dst) else row).measure(src, dst, mesh, shape)
        rows += [row, reducing] if reducing.pairs else [row]
        print(f"{name}: {row.pairs + reducing.pairs} pairs", file=sys.stderr)
    rng = random.Random(args.seed)
    row, reducing = Row("random"), Row("random +reduce")
    for _ in range(args.random):
        src, dst, shape = random_pair(rng)
        (reducing if needs_reduction(src, dst) else row).measure(src, dst, None, shape)
    rows += [row, reducing]
    print_table(rows)
    total = sum(r.pairs for r in rows)
    correct = sum(r.correct for r in rows)
    at_bound = sum(r.plan.at_bound for r in rows)
    print(
        f"\n{correct}/{total} plans correct, {at_bound} ({100 * at_bound / total:.1f}%) at "
        f"the lower bound"
    )
    for r in rows:
        for failure in r.failures[: args.show]:
            print(f"FAIL {r.name}: {failure}")
    if correct != total:
        sys.exit(1)


if __name__ == "__main__":
    main()
