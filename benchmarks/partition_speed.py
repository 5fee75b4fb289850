"""Partitioning speed: time per op of each phase of `shardonnay.partition`, beside XLA's compile.

    python benchmarks/partition_speed.py                  # every row
    python benchmarks/partition_speed.py --quick          # the small rows
    python benchmarks/partition_speed.py --rows train32 --profile 30
    python benchmarks/partition_speed.py --rows train96 --no-xla   # the partitioner alone

Each row is a program JAX lowers (`benchmarks/propagate.py`'s transformer
stacks: pre-LN blocks of `lax` ops on the mesh `["data"=2, "model"=4]`):

`transformerL-fwd` / `transformerL-bwd`
    the stack of L blocks, forward, and `jax.grad` of its loss;
`trainL`
    a training step: the loss, its gradients and an Adam update of the
    parameters and of both moments (each sharded as its parameter).

The program is partitioned as `shardonnay.partition` does it and reported as
`shardonnay partition --report` does, each phase timed on its own:

* `propagate`: `propagated_program` (Shardy's propagation pipeline);
* `explicit`: `insert_explicit_reshards(full_version=True)`;
* `gather`: `rewrite_where_cheaper` (matmuls made from gathered operands,
  ops computed at their user's sharding, where the per-device program
  communicates less);
* `to-coll.`: `lower_reshards` and `merge_repeated_collectives`
  (`sdy-reshard-to-collectives`, with the planner's reshards);
* `local`: `per_device_program` (`convert_global_to_local` and `improve_collectives`: the
  per-device program);
* `report`: `report_of` (collectives, costs, memory of the three programs).

Python's cycle collector runs when allocations reach its thresholds, so
the collection a phase pays may be the garbage of another (passes that
build IR pause the collector, and the first collection after them walks all
they made). Its time is therefore not in any phase's column: `gc s` sums
every collection of the run (each timed by `gc.callbacks`).

Columns give CPU microseconds per op of the input program
(`time.process_time`: what the partitioner computes, whatever else the
machine runs) for the phases after propagation (propagation has its own
benchmark, `propagate.py`), then seconds: the collector's, the partitioner's
total (propagation and collections included) in CPU and in wall-clock time, XLA's compile of the
same jitted function on 8 host CPU devices (`jax.jit(f).lower(...).compile()`,
the compile alone, wall-clock: Shardy propagation and XLA's SPMD
partitioner, then XLA's CPU compiler, on several threads), and the ratio of
the two wall-clock times. The machine's load shows in the wall-clock
numbers: compare rows of one run.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import propagate  # the transformer generators (and 8 host CPU devices for jax)

from shardonnay.export.explicit_reshards import insert_explicit_reshards
from shardonnay.ir.core import Module
from shardonnay.ir.inline import inline_calls
from shardonnay.partitioner.analysis.report import report_of
from shardonnay.partitioner.cheaper_rewrites import rewrite_where_cheaper
from shardonnay.partitioner.per_device import per_device_program
from shardonnay.partitioner.program import propagated_program
from shardonnay.partitioner.repeated_collectives import merge_repeated_collectives
from shardonnay.partitioner.reshard.planned import lower_reshards
from shardonnay.syntax.mlir_reader import parse_module

PHASES = ("propagate", "explicit", "gather", "to-coll.", "local", "report")


def _rows() -> dict[str, Callable[[], tuple]]:
    """Row name -> a function making (jitted function, its abstract arguments)."""
    rows: dict[str, Callable[[], tuple]] = {}
    for layers in (8, 32, 96):
        for backward in (False, True):
            name = f"transformer{layers}-{'bwd' if backward else 'fwd'}"
            rows[name] = lambda layers=layers, backward=backward: propagate.transformer_jitted(
                layers, backward=backward
            )
        rows[f"train{layers}"] = lambda layers=layers: propagate.transformer_jitted(
            layers, train=True
        )
    return rows


QUICK_ROWS = ("transformer8-fwd", "transformer8-bwd", "train8")


@dataclass(frozen=True)
class Row:
    """One program: its op count, each phase's CPU seconds (collections
    aside), the collector's CPU seconds, the partitioner's wall-clock seconds,
    XLA's compile seconds (wall-clock)."""

    name: str
    ops: int
    cpu_s: dict[str, float]
    gc_s: float
    wall_s: float
    xla_s: float | None

    @property
    def cpu_total_s(self) -> float:
        return sum(self.cpu_s.values()) + self.gc_s

    def cells(self) -> list[str]:
        per_op = [f"{self.cpu_s[p] * 1e6 / self.ops:,.0f}" for p in PHASES[1:]]
        return [
            self.name,
            f"{self.ops:,}",
            *per_op,
            f"{self.gc_s:.1f}",
            f"{self.cpu_total_s:.1f}",
            f"{self.wall_s:.1f}",
            "-" if self.xla_s is None else f"{self.xla_s:.1f}",
            "-" if self.xla_s is None else f"{self.wall_s / self.xla_s:.2f}x",
        ]


HEADER = [
    "row",
    "ops",
    "explicit us/op",
    "gather us/op",
    "to-coll. us/op",
    "local us/op",
    "report us/op",
    "gc s",
    "CPU s",
    "wall s",
    "XLA compile s",
    "ratio",
]


def op_count(module: Module) -> int:
    return sum(1 for op in module.walk() if op.name not in ("func.func", "sdy.mesh"))


class CollectorClock:
    """The CPU seconds Python's cycle collector spends while this is entered
    (`gc.callbacks` tell each collection's start and stop)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def _tick(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.seconds += time.process_time() - self._started

    def __enter__(self) -> CollectorClock:
        gc.callbacks.append(self._tick)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._tick)


def partition_phases(module: Module) -> tuple[dict[str, float], float, float]:
    """CPU seconds of each phase (`PHASES`) of partitioning and reporting
    `module`, in the steps of `shardonnay.partition` and `shardonnay partition
    --report`, each without the collections in it; the collector's CPU
    seconds; and the wall-clock seconds of them all."""
    seconds: dict[str, float] = {}
    wall_start = time.perf_counter()
    start = time.process_time()
    collector = CollectorClock()
    collected = 0.0

    def lap(phase: str) -> None:
        nonlocal start, collected
        now = time.process_time()
        seconds[phase] = now - start - (collector.seconds - collected)
        start, collected = now, collector.seconds

    with warnings.catch_warnings(), collector:
        warnings.simplefilter("ignore")  # propagation's notes about ops without rules
        propagated = propagated_program(module)
        lap("propagate")
        program = inline_calls(propagated)  # a copy, as `explicit_collectives` makes it
        insert_explicit_reshards(program, full_version=True)
        lap("explicit")
        rewrite_where_cheaper(program)
        lap("gather")
        explicit = lower_reshards(program, reshards="shardonnay")
        merge_repeated_collectives(explicit)
        lap("to-coll.")
        local = per_device_program(explicit)
        lap("local")
        report_of(module, explicit, local, propagated=propagated)
        lap("report")
    return seconds, collector.seconds, time.perf_counter() - wall_start


def xla_compile_s(jitted, args: tuple) -> float:
    lowered = jitted.lower(*args)
    start = time.perf_counter()
    lowered.compile()
    return time.perf_counter() - start


def measure(name: str, make: Callable[[], tuple], *, with_xla: bool = True) -> Row:
    jitted, args = make()
    module = parse_module(jitted.lower(*args).as_text())
    cpu_s, gc_s, wall_s = partition_phases(module)
    xla_s = xla_compile_s(jitted, args) if with_xla else None
    return Row(name, op_count(module), cpu_s, gc_s, wall_s, xla_s)


def profile(make: Callable[[], tuple], top: int) -> str:
    """cProfile of partitioning one program (all phases), by cumulative time."""
    jitted, args = make()
    module = parse_module(jitted.lower(*args).as_text())
    profiler = cProfile.Profile()
    profiler.enable()
    partition_phases(module)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


WIDTHS = (18, 7, 15, 13, 15, 12, 13, 5, 6, 7, 14, 7)


def line(cells: list[str]) -> str:
    """A table row: the name left-aligned, the numbers right-aligned."""
    return "  ".join(
        c.ljust(w) if i == 0 else c.rjust(w)
        for i, (c, w) in enumerate(zip(cells, WIDTHS, strict=True))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="", help="comma-separated row names")
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK_ROWS)}")
    parser.add_argument(
        "--profile", type=int, default=0, metavar="N", help="profile the last row, top N"
    )
    parser.add_argument(
        "--no-xla", action="store_true", help="leave out XLA's compile (its columns read -)"
    )
    args = parser.parse_args(argv)
    all_rows = _rows()
    if args.rows:
        names = [n.strip() for n in args.rows.split(",") if n.strip()]
    else:
        names = list(QUICK_ROWS if args.quick else all_rows)
    unknown = [n for n in names if n not in all_rows]
    if unknown:
        parser.error(f"unknown rows {', '.join(unknown)}; known: {', '.join(all_rows)}")
    with_xla = not args.no_xla
    # imports, first-use caches
    measure("warm-up", lambda: propagate.transformer_jitted(1), with_xla=with_xla)
    print(line(HEADER))
    for name in names:
        print(line(measure(name, all_rows[name], with_xla=with_xla).cells()), flush=True)
    if args.profile and names:
        print(f"\nprofile of {names[-1]}:\n")
        print(profile(all_rows[names[-1]], args.profile))
    return 0


if __name__ == "__main__":
    sys.exit(main())
