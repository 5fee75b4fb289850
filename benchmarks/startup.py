"""Start-up time: `import shardonnay` and the command line, in fresh interpreters.

    python benchmarks/startup.py              # every row, best of 5
    python benchmarks/startup.py --repeat 10

Each row runs a new `python` process and takes the best wall-clock time of
`--repeat` runs. `python -c pass` is the interpreter alone; the other rows
include it, and `package s` is a row's time over it (what shardonnay adds):

* `import shardonnay`: the package root, which loads its names on first use;
* `parse_module`: `import shardonnay` and parsing a small program (the
  reader, the op definitions, numpy);
* `propagate`: the same, then `sdy-propagation-pipeline` and printing (the
  whole cold path of a one-off script);
* `shardonnay --help`, `shardonnay fmt FILE`, `shardonnay propagate FILE`:
  the command line, which imports only the chosen command's module.

`modules` counts the modules of the package a row loaded, in a separate run.
The runs read compiled bytecode, as an installed package does: each row runs
once untimed with bytecode written to a fresh cache folder
(`PYTHONPYCACHEPREFIX`), whatever `PYTHONDONTWRITEBYTECODE` says.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "tests" / "corpus" / "mlp_forward.mlir"

_COUNT = (
    "import sys; print(sum(1 for m in list(sys.modules) "
    "if m == 'shardonnay' or m.startswith('shardonnay.')), file=sys.stderr)"
)


@dataclass(frozen=True)
class Case:
    """A row: `code` run with `python -c`, or `argv` given to the command line."""

    name: str
    code: str | None = None
    argv: tuple[str, ...] = ()

    def command(self) -> list[str]:
        if self.code is not None:
            return [sys.executable, "-c", self.code]
        return [sys.executable, "-m", "shardonnay.cli", *self.argv]

    def counting(self) -> list[str]:
        """The command, printing how many modules of the package it loaded."""
        if self.code is not None:
            return [sys.executable, "-c", f"{self.code}\n{_COUNT}"]
        main = f"from shardonnay.cli import main\ntry: main({list(self.argv)!r})\nfinally: {_COUNT}"
        return [sys.executable, "-c", main]


CASES = (
    Case("python -c pass", code="pass"),
    Case("import shardonnay", code="import shardonnay"),
    Case(
        "parse_module",
        code=f"import shardonnay\nshardonnay.parse_module(open({str(PROGRAM)!r}).read())",
    ),
    Case(
        "propagate",
        code=(
            "import shardonnay\n"
            f"m = shardonnay.parse_module(open({str(PROGRAM)!r}).read())\n"
            "shardonnay.propagate(m).to_text()"
        ),
    ),
    Case("shardonnay --help", argv=("--help",)),
    Case("shardonnay fmt FILE", argv=("fmt", str(PROGRAM))),
    Case("shardonnay propagate FILE", argv=("propagate", str(PROGRAM))),
)


def best_of(command: list[str], repeat: int, env: dict[str, str]) -> float:
    """The fastest of `repeat` runs of `command`, in seconds (it must succeed),
    after one untimed run that compiles what it imports."""
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=env)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=env)
        best = min(best, time.perf_counter() - start)
    return best


def modules_loaded(case: Case, env: dict[str, str]) -> int:
    out = subprocess.run(
        case.counting(), check=True, capture_output=True, text=True, cwd=ROOT, env=env
    )
    return int(out.stderr.strip().splitlines()[-1])


def _environment(cache: str) -> dict[str, str]:
    """This process's environment, with bytecode written to and read from `cache`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per row (the best counts)")
    args = parser.parse_args(argv)
    header = f"{'row':<28} {'best s':>8} {'package s':>10} {'modules':>8}"
    print(f"best of {args.repeat} fresh interpreters; package = best - python alone")
    print(header)
    print("-" * len(header))
    bare = 0.0
    with tempfile.TemporaryDirectory(prefix="bytecode-") as cache:
        env = _environment(cache)
        for case in CASES:
            seconds = best_of(case.command(), args.repeat, env)
            if case.name == "python -c pass":
                bare = seconds
            print(
                f"{case.name:<28} {seconds:>8.3f} {seconds - bare:>10.3f} "
                f"{modules_loaded(case, env):>8}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
