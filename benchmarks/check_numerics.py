"""How far `check`'s rounding tolerance is from false alarms and from missed bugs.

For each corpus program, in f32 and in bf16 (f32 types and hex literals
rewritten), over `--seeds` random inputs:

- `max ratio` / `rms ratio`: the largest ratio, over outputs and seeds, of the
  partitioned program's error to the unpartitioned program's own error (the
  maximum against `max(own, eps * scale)`, the RMS against
  `max(own RMS, eps * RMS of the output)`); `check` allows 8 and 4;
- `false alarms`: seeds on which `check` fails with its defaults.

Then, for `--bug-programs`, one bug at a time is planted in the per-device
program: the reduction of each all-reduce becomes `maximum`; `caught` counts
the bugs `check` reports, `by rms only` those only the RMS test catches.

    python benchmarks/check_numerics.py [--seeds 8] [--programs NAME,...]
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

import numpy as np

import shardonnay.partitioner.local.convert as global_to_local
from shardonnay.errors import CheckError, ShardonnayError
from shardonnay.partitioner.program import explicit_collectives
from shardonnay.runtime.check import check
from shardonnay.syntax.mlir_reader import parse_module

ROOT = Path(__file__).resolve().parents[1]

CORPUS = ROOT / "tests" / "corpus"
BUG_PROGRAMS = ("transformer_block_backward", "transformer_block_forward", "mlp_train_step")


def program(name: str, dtype: str):
    text = (CORPUS / f"{name}.mlir").read_text()
    if dtype == "bf16":
        text = re.sub(r"0x([0-9A-Fa-f]{4})0000\b", r"0x\1", text).replace("f32", "bf16")
    return parse_module(text)


def ratios(module, seeds: int) -> tuple[float, float, int]:
    worst_max = worst_rms = 0.0
    alarms = 0
    for seed in range(seeds):
        result = check(module, seed, rounding=1e9)
        for o in result.outputs:
            if o.own_error is None or not o.abs_tolerance:
                continue
            worst_max = max(worst_max, o.max_abs_error / (o.abs_tolerance / 1e9))
        try:
            check(module, seed)
        except CheckError:
            alarms += 1
        worst_rms = max(worst_rms, _rms_ratio(result))
    return worst_max, worst_rms, alarms


def _rms_ratio(result) -> float:
    """The largest RMS error over the RMS error allowed, for a tolerance factor of 1."""
    worst = 0.0
    for o in result.outputs:
        if o.rms_error is None or not o.rms_tolerance:
            continue
        worst = max(worst, o.rms_error / (o.rms_tolerance / (result.rounding / 2)))
    return worst


def planted(module) -> tuple[int, int, int]:
    convert = global_to_local.convert_global_to_local
    count = sum(
        op.name == "stablehlo.all_reduce" for op in convert(explicit_collectives(module)).walk()
    )
    caught = by_rms = 0
    for k in range(count):

        def bug(m, k=k, **options):
            local = convert(m, **options)
            op = [o for o in local.walk() if o.name == "stablehlo.all_reduce"][k]
            body = op.regions[0].entry.ops[0]
            body.name = "stablehlo.maximum" if body.name == "stablehlo.add" else "stablehlo.add"
            return local

        global_to_local.convert_global_to_local = bug
        try:
            check(module)
        except CheckError as e:
            caught += 1
            c = e.comparison
            by_rms += c is not None and c.max_abs_error <= c.abs_tolerance
        finally:
            global_to_local.convert_global_to_local = convert
    return count, caught, by_rms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--programs", help="comma-separated corpus names (default: all)")
    args = parser.parse_args()
    names = (
        args.programs.split(",") if args.programs else sorted(p.stem for p in CORPUS.glob("*.mlir"))
    )
    start = time.time()
    print(f"{'program':30} {'dtype':6} {'max ratio':>9} {'rms ratio':>9} {'false alarms':>12}")
    for name in names:
        for dtype in ("f32", "bf16"):
            try:
                with np.errstate(all="ignore"):
                    worst_max, worst_rms, alarms = ratios(program(name, dtype), args.seeds)
            except ShardonnayError as e:
                print(f"{name:30} {dtype:6} skipped: {str(e).splitlines()[0][:60]}")
                continue
            print(
                f"{name:30} {dtype:6} {worst_max:9.2f} {worst_rms:9.2f} {alarms:>5} of {args.seeds}"
            )
    print()
    print(f"{'program':30} {'dtype':6} {'all-reduces':>11} {'caught':>6} {'by rms only':>11}")
    for name in BUG_PROGRAMS:
        if name not in names:
            continue
        for dtype in ("f32", "bf16"):
            count, caught, by_rms = planted(program(name, dtype))
            print(f"{name:30} {dtype:6} {count:11} {caught:6} {by_rms:11}")
    print(f"\n{time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
