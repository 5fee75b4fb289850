"""Peak memory of text -> `sdy-propagation-pipeline` -> text, beside Shardy's.

    python benchmarks/propagate_memory.py                 # chain10k, chain50k
    python benchmarks/propagate_memory.py --ops 50000,100000

Each side runs in a fresh child process on the chain of `benchmarks/propagate.py`
(`chainN`, about N ops), written to a file first: shardonnay (`parse_module`,
`run_pipeline`, `to_text`) and Shardy inside jaxlib (`ir.Module.parse`, MLIR's
`PassManager`, `get_asm`). A child reports its resident set before reading the
text (the interpreter and the libraries imported: numpy for shardonnay, jaxlib's
MLIR for Shardy) and its peak (`ru_maxrss`) after printing the result; `work`
is the difference, the memory the program itself costs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from propagate import PIPELINE, chain_module

_CHILD = r"""
import json, resource, sys

def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

side, path, pipeline = sys.argv[1:4]
if side == "shardonnay":
    from shardonnay import parse_module
    from shardonnay.passes import run_pipeline
    import shardonnay.ops  # the op definitions, loaded on first read anyway
    before = rss_kib()
    text = open(path).read()
    out = run_pipeline(parse_module(text), pipeline, in_place=True).to_text()
else:
    import jax  # registers the dialects Shardy's pipeline reads
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir, passmanager
    context = jax_mlir.make_ir_context()
    before = rss_kib()
    text = open(path).read()
    with context:
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(pipeline).run(module.operation)
        out = module.operation.get_asm(enable_debug_info=False)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"before": before, "peak": peak, "chars": len(out)}))
"""


def measure(side: str, path: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, side, path, PIPELINE],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{side} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", default="10000,50000", help="chain sizes (10000,50000)")
    args = parser.parse_args(argv)
    header = f"{'row':<12}{'side':<12}{'before':>12}{'peak':>12}{'work':>12}{'work ratio':>12}"
    print(header)
    for count in (int(n) for n in args.ops.split(",")):
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(chain_module(count))
            path = f.name
        try:
            rows = {side: measure(side, path) for side in ("shardonnay", "shardy")}
        finally:
            Path(path).unlink()
        work = {side: r["peak"] - r["before"] for side, r in rows.items()}
        for side, r in rows.items():
            ratio = f"{work[side] / work['shardy']:.1f}x" if side == "shardonnay" else ""
            print(
                f"{f'chain{count // 1000}k':<12}{side:<12}{r['before'] / 1024:>9.0f} MB"
                f"{r['peak'] / 1024:>9.0f} MB{work[side] / 1024:>9.0f} MB{ratio:>12}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
