"""Global programs with explicit collectives, and their local programs, from the real Shardy.

`shardy_partition(text)` runs Shardy's partitioner up to explicit collectives
(`sdy-propagation-pipeline`, `sdy-insert-explicit-reshards{enable-full-version=true}`,
`sdy-reshard-to-collectives`). `shardy_local(texts)` runs Shardy's
`sdy-convert-global-to-local` on global programs; it aborts the whole
process on inputs it does not support (an `SDY_CHECK`), so it runs in a
worker process, restarted past any input it dies on (`None` for those).

Programs with `func.call`s are inlined first (`shardonnay.partition.inline`):
Shardy's conversion does not convert calls.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mlir_oracle import run_pass_pipeline
from shardonnay import parse_module
from shardonnay.partition.inline import inline_calls

PARTITIONER = (
    "builtin.module(sdy-propagation-pipeline, "
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}), "
    "func.func(sdy-reshard-to-collectives))"
)
TO_LOCAL = "builtin.module(sdy-convert-global-to-local)"
CORPUS = Path(__file__).parent / "corpus"


def shardy_partition(text: str) -> str:
    """`text` (inlined) partitioned by Shardy into a global program with sdy collectives."""
    return run_pass_pipeline(inline_calls(parse_module(text)).to_text(), PARTITIONER)


def shardy_local(texts: Sequence[str]) -> list[str | None]:
    """Shardy's local program of each global program (None where Shardy fails or aborts)."""
    results: list[str | None] = []
    while len(results) < len(texts):
        pending = list(texts[len(results) :])
        done = _run_worker(pending)
        results += done
        if len(done) < len(pending):
            results.append(None)  # the worker died on this one
    return results


def _run_worker(texts: list[str]) -> list[str | None]:
    proc = subprocess.run(
        [sys.executable, __file__, "--worker"],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent,
        check=False,
    )
    marker = "converted: "
    return [
        json.loads(line[len(marker) :])
        for line in proc.stdout.splitlines()
        if line.startswith(marker)
    ]


def _worker() -> None:
    texts = json.loads(sys.stdin.read())
    for text in texts:
        try:
            out = run_pass_pipeline(text, TO_LOCAL)
        except Exception:
            out = None
        sys.stdout.write("converted: " + json.dumps(out) + "\n")
        sys.stdout.flush()


def corpus_names() -> list[str]:
    return sorted(p.stem for p in CORPUS.glob("*.mlir"))


def corpus_inputs(name: str) -> list[np.ndarray]:
    data = np.load(CORPUS / f"{name}.npz")
    count = sum(1 for k in data.files if k.startswith("input"))
    return [data[f"input{i}"] for i in range(count)]


@dataclass(frozen=True, eq=False)
class Case:
    """A program, inputs for it, and Shardy's global program with collectives."""

    name: str
    text: str
    inputs: tuple
    partitioned: str


@functools.cache
def corpus_cases() -> tuple[Case, ...]:
    return tuple(
        Case(n, t, tuple(corpus_inputs(n)), shardy_partition(t))
        for n in corpus_names()
        for t in [(CORPUS / f"{n}.mlir").read_text()]
    )


@functools.cache
def random_cases(count: int) -> tuple[Case, ...]:
    """Random programs `0..count-1` of `program_generator`, partitioned by Shardy."""
    from program_generator import random_program_with_inputs

    cases = []
    for seed in range(count):
        text, inputs = random_program_with_inputs(seed)
        cases.append(Case(f"seed{seed}", text, tuple(inputs), shardy_partition(text)))
    return tuple(cases)


@functools.cache
def shardy_local_of(cases: tuple[Case, ...]) -> tuple[str | None, ...]:
    """Shardy's local program of each case (None where it fails)."""
    return tuple(shardy_local([c.partitioned for c in cases]))


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    sys.path.insert(0, str(Path(__file__).parent))
    _worker()
