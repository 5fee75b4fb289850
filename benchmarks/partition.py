"""Communication of partitioned corpus programs: Shardy's partitioner, XLA's, shardonnay's.

    python benchmarks/partition.py                       # every program of tests/corpus
    python benchmarks/partition.py --programs mlp_forward,uneven_shapes --detail
    python benchmarks/partition.py --quick               # a few small programs
    python benchmarks/partition.py --random 500          # random programs, summed up
    python benchmarks/partition.py --models              # the real models of tests/models
    python benchmarks/partition.py --models gpt2_3d_train --check

For every corpus program (tests/corpus/*.mlir, 8 devices), the bytes the
busiest device receives over the whole program, the number of communicating
collectives and their alpha-beta time (`CostModel()`'s defaults), when it is
partitioned by

* Shardy: `sdy-propagation-pipeline`, then Shardy's own partitioner
  (`sdy-insert-explicit-reshards{enable-full-version=true}`,
  `sdy-reshard-to-collectives`), run in jaxlib; the resulting global program
  is costed by `shardonnay.partitioner.analysis.cost.collective_costs`;
* XLA: the program's MLIR text compiled by jaxlib's PJRT CPU client (Shardy
  propagation + XLA's SPMD partitioner, as `jax.jit(...).compile()` does);
  the collectives of the per-device HLO are costed by
  `shardonnay.interop.hlo_collectives.hlo_collective_costs`, with the same
  formulas;
* shardonnay: shardonnay's own propagation pipeline and explicit reshards,
  matmuls made from gathered operands where that is cheaper
  (`shardonnay.partitioner.gathered_contractions`), each reshard lowered
  by `reshard_plan`'s chain of collectives where that receives fewer bytes
  than Shardy's lowering, or left an `sdy.reshard`
  (each device fetching the tiles it lacks, costed at that) where the
  per-device program then receives fewer still (`explicit_collectives`'
  default, `reshards="shardonnay"`), costed on the global program like
  Shardy's;
* shardonnay/Shardy lowering: the same with Shardy's lowering of every
  reshard (`reshards="shardy"`, the program Shardy's passes make);
* shardonnay local: the collectives of the per-device program
  `shardonnay.partition` returns (StableHLO collectives on device groups),
  which adds the communication the global program leaves implicit;
* implicit in Shardy's program: the ops of Shardy's partitioned program
  that need communication none of its collectives makes
  (`shardonnay.partitioner.analysis.implicit.implicit_communication`: a reverse, slice
  or pad along a sharded dim, an op without a sharding rule on sharded
  values, a value used on another mesh, an argmax all-reduced one result at
  a time). Shardy's column omits their traffic; where the local column
  exceeds Shardy's, it pays for these.

With `--random N`, the same columns (but XLA's) for the random annotated
programs of seeds `0..N-1` (`shardonnay.testing.program_generator`), summed up: how
many programs each of shardonnay's columns beats, ties or exceeds Shardy's
count on, and whether every program whose per-device program exceeds it
has ops Shardy's program leaves implicit.

With `--models [NAMES]`, a table per model of tests/models (training and
inference steps of flax, transformers, equinox and optax programs, made by
scripts/export_models.py): shardonnay's per-device program, Shardy's
partitioner's count and XLA's compiled HLO as `jax.jit` compiled it (stored
with the model), each as bytes received by the busiest device, communicating
collectives, alpha-beta time (`CostModel()`'s defaults for all three) and
peak memory per device, two ways: run op by op (`peak_memory` of the
per-device program, arguments live throughout, nothing donated) and compiled
by XLA (`get_compiled_memory_stats()` of the per-device program compiled for
8 CPU devices through the PJRT path, as it runs on devices; for XLA, its own
program's `memory_analysis()`): arguments + outputs - aliases + temporaries.
Shardy has no per-device program, so none. `--check` also runs `shardonnay.check` on the model's
stored inputs (the per-device program simulated on 8 devices, judged against
the unpartitioned program's own rounding).

Formulas (per device, n devices in a group): ring all-gather (n-1) shards,
ring reduce-scatter (n-1) result shards, ring all-reduce 2(n-1)/n of the
buffer, pairwise all-to-all (n-1)/n of the buffer, permute the moved buffer.
Collectives in a loop body count once. `--detail` prints each column's
per-collective table (alpha-beta times with `CostModel()`'s defaults).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

from shardonnay.errors import ShardonnayError
from shardonnay.interop.hlo_collectives import hlo_collective_costs
from shardonnay.ir.core import Module
from shardonnay.partitioner.analysis.cost import CostReport, collective_costs
from shardonnay.partitioner.analysis.implicit import implicit_communication
from shardonnay.partitioner.program import explicit_collectives, partition
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.mlir_oracle import run_pass_pipeline

ROOT = Path(__file__).resolve().parent.parent

CORPUS = ROOT / "tests" / "corpus"
MODELS = ROOT / "tests" / "models"
PROPAGATION = "builtin.module(sdy-propagation-pipeline)"
SHARDY_PARTITIONER = (
    "builtin.module(sdy-propagation-pipeline, "
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}), "
    "func.func(sdy-reshard-to-collectives))"
)
QUICK = ("mlp_forward", "sharding_constraints", "uneven_shapes", "transformer_block_forward")


@dataclass(frozen=True)
class Cell:
    """One partitioner on one program: its report, or why there is none."""

    report: CostReport | None = None
    error: str = ""
    seconds: float = 0.0

    def text(self) -> str:
        if self.report is None:
            return self.error
        r = self.report
        return f"{r.bytes_received:>6} B {len(r.communicating):>2} {r.time_s * 1e6:>6.1f} us"


@functools.cache
def shardy_program(text: str) -> Module:
    return parse_module(run_pass_pipeline(text, SHARDY_PARTITIONER))


def shardy(text: str) -> CostReport:
    return collective_costs(shardy_program(text))


def shardy_implicit(text: str) -> str:
    """The ops of Shardy's partitioned program that need communication none of
    its collectives makes (`implicit_communication`): its byte count omits it."""
    try:
        found = implicit_communication(shardy_program(text))
    except ShardonnayError as e:
        return f"error: {type(e).__name__}"
    return ", ".join(sorted({f.op.split(".")[-1] for f in found})) or "-"


def xla(text: str) -> CostReport:
    """XLA's collectives, named by the program's mesh axes when it has one mesh."""
    meshes = [m for m in parse_module(text).meshes.values() if m.size == 8]
    return hlo_collective_costs(xla_hlo(text), mesh=meshes[0] if len(meshes) == 1 else None)


def xla_hlo(text: str) -> str:
    """The per-device HLO XLA compiles `text` to (8 partitions, Shardy on)."""
    import jax
    import numpy as np
    from jax._src.lib import xla_client as xc
    from jax.extend.backend import get_backend

    module = parse_module(text)
    main = module.function("main")
    options = xc.CompileOptions()
    build = options.executable_build_options
    build.num_replicas = 1
    build.num_partitions = 8
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = True
    # As jax.jit does: outputs (and arguments) without a sharding are XLA's to choose.
    build.allow_spmd_sharding_propagation_to_output = [
        "sdy.sharding" not in main.result_attrs(i) for i in range(len(main.type.results))
    ]
    build.allow_spmd_sharding_propagation_to_parameters = [
        "sdy.sharding" not in main.arg_attrs(i) for i in range(len(main.type.inputs))
    ]
    build.device_assignment = xc.DeviceAssignment.create(np.arange(8).reshape(1, 8))
    devices = xc.DeviceList(tuple(jax.devices()[:8]))
    executable = get_backend().compile_and_load(text, devices, options)
    return executable.hlo_modules()[0].to_string()


def shardonnay_global(text: str) -> CostReport:
    """shardonnay end to end: its own propagation pipeline, explicit reshards
    and planned reshards, costed on the global program (comparable with the
    Shardy column)."""
    return collective_costs(explicit_collectives(parse_module(text)))


def shardonnay_shardy_lowering(text: str) -> CostReport:
    """As `shardonnay_global`, every reshard lowered as Shardy lowers it."""
    return collective_costs(explicit_collectives(parse_module(text), reshards="shardy"))


def shardonnay_local(text: str) -> CostReport:
    """What the per-device program `shardonnay.partition` makes actually
    communicates, including the gathers it adds where data moves between
    shards (slices of sharded dims, uneven shards)."""
    return collective_costs(partition(parse_module(text)))


def random_summary(count: int) -> None:
    """Shardy's partitioner against shardonnay's on random programs."""
    from shardonnay.testing.program_generator import random_program

    columns = {"shardonnay": shardonnay_global, "shardonnay local": shardonnay_local}
    totals = dict.fromkeys(["Shardy", *columns], 0)
    outcome = {c: Counter() for c in columns}
    unexplained, failed = [], []
    for seed in range(count):
        text = random_program(seed)
        try:
            base = shardy(text).bytes_received
            ours = {c: fn(text).bytes_received for c, fn in columns.items()}
        except Exception as e:  # jaxlib or shardonnay rejecting a program is a result too
            failed.append(f"{seed}: {type(e).__name__}")
            continue
        totals["Shardy"] += base
        for c, received in ours.items():
            totals[c] += received
            outcome[c]["fewer" if received < base else "more" if received > base else "same"] += 1
        if ours["shardonnay local"] > base and shardy_implicit(text) == "-":
            unexplained.append(seed)
    print(f"random programs 0..{count - 1}: bytes the busiest device receives, summed")
    print(f"  Shardy's partitioner: {totals['Shardy']} B")
    for c in columns:
        o = outcome[c]
        print(
            f"  {c}: {totals[c]} B; fewer than Shardy on {o['fewer']} programs, "
            f"as many on {o['same']}, more on {o['more']}"
        )
    print(f"  more in the per-device program with nothing implicit in Shardy's: {unexplained}")
    if failed:
        print(f"  not compared ({len(failed)}): {', '.join(failed[:10])}")


@dataclass(frozen=True)
class ModelRow:
    """One partitioner on one model: what the busiest device receives, in how
    many collectives and how long, and its peak memory run op by op and
    compiled by XLA (None: not known)."""

    who: str
    bytes_received: int
    collectives: int
    time_s: float
    op_by_op_peak: int | None
    compiled_peak: int | None

    def cells(self) -> list[str]:
        def peak(n: int | None) -> str:
            return "-" if n is None else f"{n:,} B"

        return [
            self.who,
            f"{self.bytes_received:,} B",
            str(self.collectives),
            f"{self.time_s * 1e6:,.1f} us",
            peak(self.op_by_op_peak),
            peak(self.compiled_peak),
        ]


def compiled_peak(local: Module) -> int | None:
    """`compiled_peak_memory` of per-device program `local` (None: JAX or the
    devices are missing)."""
    from shardonnay.errors import DeviceUnavailableError
    from shardonnay.runtime.pjrt import compiled_peak_memory

    try:
        return compiled_peak_memory(local)
    except DeviceUnavailableError:
        return None


def model_names() -> list[str]:
    return sorted(p.stem for p in MODELS.glob("*.mlir"))


def model_inputs(name: str) -> list:
    """The stored arguments of `@main` of model `name`, in order."""
    import numpy as np

    with np.load(MODELS / f"{name}.npz") as archive:
        count = sum(1 for k in archive.files if k.startswith("input"))
        return [archive[f"input{i}"] for i in range(count)]


def model_rows(name: str, *, with_check: bool) -> tuple[list[ModelRow], str]:
    """The three rows of model `name` and a note (what Shardy leaves implicit, check)."""
    import json
    import warnings

    from shardonnay.partitioner.analysis.memory import peak_memory
    from shardonnay.runtime.check import check

    text = (MODELS / f"{name}.mlir").read_text()
    xla_info = json.loads((MODELS / f"{name}.json").read_text())["xla"]
    module = parse_module(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # propagation's notes about ops without rules
        local = partition(module)
    ours = collective_costs(local)
    theirs = shardy(text)
    rows = [
        ModelRow(
            "shardonnay per-device",
            ours.bytes_received,
            len(ours.communicating),
            ours.time_s,
            peak_memory(local),
            compiled_peak(local),
        ),
        ModelRow(
            "Shardy's count",
            theirs.bytes_received,
            len(theirs.communicating),
            theirs.time_s,
            None,
            None,
        ),
        ModelRow(
            "XLA",
            xla_info["bytes_received"],
            xla_info["collectives"],
            xla_info["time_s"],
            None,
            xla_info["peak_bytes"],
        ),
    ]
    notes = [f"implicit in Shardy's program: {shardy_implicit(text)}"]
    if with_check:
        start = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                check(module, inputs=model_inputs(name))
            notes.append(f"check: ok ({time.perf_counter() - start:.1f} s)")
        except ShardonnayError as e:
            notes.append(f"check: FAILED: {str(e).splitlines()[0][:100]}")
    return rows, "; ".join(notes)


def models_summary(names: list[str], *, with_check: bool) -> None:
    """A table per model and the totals over them."""
    import json

    header = [
        "",
        "received (busiest device)",
        "collectives",
        "alpha-beta time",
        "peak op by op",
        "peak compiled by XLA",
    ]
    totals: dict[str, list[float]] = {}
    for name in names:
        description = json.loads((MODELS / f"{name}.json").read_text())["description"]
        rows, note = model_rows(name, with_check=with_check)
        table = [header, *(row.cells() for row in rows)]
        widths = [max(len(r[i]) for r in table) for i in range(len(header))]
        print(f"{name}: {description}")
        for r in table:
            print(
                "  "
                + "  ".join(
                    c.rjust(w) if i else c.ljust(w)
                    for i, (c, w) in enumerate(zip(r, widths, strict=True))
                )
            )
        print(f"  {note}")
        print()
        for row in rows:
            total = totals.setdefault(row.who, [0, 0, 0.0])
            total[0] += row.bytes_received
            total[1] += row.collectives
            total[2] += row.time_s
    print(f"total over {len(names)} models")
    for who, (received, count, seconds) in totals.items():
        line = f"{int(received):>10,} B  {int(count):>5} collectives  {seconds * 1e6:>9,.1f} us"
        print(f"  {who:<22} {line}")
    xla_bytes = totals["XLA"][0]
    ours_bytes = totals["shardonnay per-device"][0]
    print(f"  shardonnay per-device / XLA: {ours_bytes / xla_bytes:.2f}x bytes")


def measure(fn: Callable[[str], CostReport], text: str) -> Cell:
    start = time.perf_counter()
    try:
        report = fn(text)
    except Exception as e:  # a failing partitioner is a result of the benchmark
        return Cell(error=f"error: {type(e).__name__}: {str(e).splitlines()[0][:60]}")
    return Cell(report, seconds=time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", help="comma-separated corpus program names")
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}")
    parser.add_argument("--detail", action="store_true", help="per-collective tables too")
    parser.add_argument("--random", type=int, metavar="N", help="random programs 0..N-1 instead")
    parser.add_argument(
        "--models",
        nargs="?",
        const="",
        metavar="NAMES",
        help="the real models of tests/models instead (comma-separated names: some of them)",
    )
    parser.add_argument("--check", action="store_true", help="with --models: run check too")
    args = parser.parse_args(argv)
    if args.random:
        random_summary(args.random)
        return 0
    if args.models is not None:
        known = model_names()
        wanted = args.models.split(",") if args.models else known
        unknown = sorted(set(wanted) - set(known))
        if unknown:
            parser.error(f"no model(s) {', '.join(unknown)}; known: {', '.join(known)}")
        models_summary(wanted, with_check=args.check)
        return 0
    names = sorted(p.stem for p in CORPUS.glob("*.mlir"))
    if args.programs:
        wanted = args.programs.split(",")
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            parser.error(f"no corpus program(s) {', '.join(unknown)}")
        names = wanted
    elif args.quick:
        names = [n for n in names if n in QUICK]

    columns: dict[str, Callable[[str], CostReport] | str] = {
        "Shardy": shardy,
        "XLA": xla,
        "shardonnay": shardonnay_global,
        "shardonnay/Shardy lowering": shardonnay_shardy_lowering,
        "shardonnay local": shardonnay_local,
    }
    rows = []
    details = []
    for name in names:
        text = (CORPUS / f"{name}.mlir").read_text()
        cells = {
            col: measure(fn, text) if callable(fn) else Cell(error="n/a")
            for col, fn in columns.items()
        }
        rows.append((name, cells, shardy_implicit(text)))
        if args.detail:
            for col, cell in cells.items():
                if cell.report is not None:
                    details.append(f"== {name}: {col}\n{cell.report.table()}")

    print(
        "bytes received by the busiest device over the program, communicating collectives,"
        " alpha-beta time"
    )
    width = max(len("program"), *(len(n) for n in names))
    widths = {c: max(len(c), *(len(cells[c].text()) for _, cells, _ in rows)) for c in columns}
    implicit = "implicit in Shardy's program"
    print("  ".join(["program".ljust(width), *(c.ljust(widths[c]) for c in columns), implicit]))
    print("  ".join(["-" * width, *("-" * widths[c] for c in columns), "-" * len(implicit)]))
    for name, cells, ops in rows:
        texts = (cells[c].text().ljust(widths[c]) for c in columns)
        print("  ".join([name.ljust(width), *texts, ops]))
    totals = []
    for c in columns:
        reports = [cells[c].report for _, cells, _ in rows]
        if all(r is not None for r in reports):
            received = sum(r.bytes_received for r in reports)
            seconds = sum(r.time_s for r in reports)
            totals.append(f"{received} B {seconds * 1e6:.1f} us".ljust(widths[c]))
        else:
            totals.append("-".ljust(widths[c]))
    print("  ".join(["total".ljust(width), *totals]))
    for col, fn in columns.items():
        if not callable(fn):
            print(f"{col}: n/a: {fn}")
    for detail in details:
        print()
        print(detail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
