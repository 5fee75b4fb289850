"""Structural fuzzing in the suite: 2,000 mutated real programs, each through
parse, verify and printing (every 5th also propagate and the command line,
every 50th partition and check), must end in a typed error or pass, within a
budget.

The mutations (`shardonnay.testing.structural_mutations`) are those a careless user or a
broken exporter makes: swapped operands, inconsistent types, deleted
terminators, huge, zero and negative dims, deep ranks, out-of-range and
malformed literals, NUL and invalid UTF-8 bytes, invalid shardings and
meshes, missing meshes, duplicate names, use before definition, recursion,
line and token edits. The expensive ones (1M-element literals, 1,000-deep
nesting, chains of 700 calls) and the big programs run in
`benchmarks/fuzz.py`, in child
processes with time and memory limits. Partitioning is left out for meshes of
more than 256 devices: bounding per-device work is the partitioner's own
subject.
"""

from __future__ import annotations

import re
import signal

import pytest

from shardonnay.testing.structural_mutations import (
    EXPENSIVE,
    MUTATIONS,
    exercise,
    mutate,
    small_programs,
)

INPUTS = 2000
BUDGET_S = 15.0  # per input; the slowest take about a second on a loaded machine
SMALL = small_programs()


class OverBudget(BaseException):
    """An input ran longer than `BUDGET_S`."""


def _over_budget(signum, frame):
    raise OverBudget


def _largest_mesh(text: str | bytes) -> int:
    if isinstance(text, bytes):
        return 0
    largest = 0
    for axes in re.findall(r"<\[([^\]]*)\]", text):
        size = 1
        for n in re.findall(r'"=(-?\d+)', axes):
            size *= abs(int(n)) or 1
        largest = max(largest, size)
    return largest


def test_mutated_programs_end_in_typed_errors_or_pass(tmp_path):
    if not hasattr(signal, "setitimer"):
        pytest.skip("needs signal.setitimer")
    failures = []
    outcomes: dict[str, int] = {}
    previous = signal.signal(signal.SIGALRM, _over_budget)
    try:
        for seed in range(INPUTS):
            program, mutations, text = mutate(seed, SMALL, exclude=EXPENSIVE)
            if seed % 50 == 0 and _largest_mesh(text) <= 256:
                upto = "check"
            else:
                upto = "propagate" if seed % 5 == 0 else "verify"
            signal.setitimer(signal.ITIMER_REAL, BUDGET_S)
            try:
                kind, detail = exercise(
                    text, str(tmp_path / "input.mlir"), upto=upto, cli=seed % 5 == 0
                )
            except OverBudget:
                kind, detail = "over time", f"more than {BUDGET_S} s"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            outcomes[kind] = outcomes.get(kind, 0) + 1
            if kind not in ("typed", "passed"):
                failures.append(f"seed {seed} ({program}, {mutations}): {kind}: {detail}")
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert not failures, "\n".join(failures[:20])
    assert sum(outcomes.values()) == INPUTS
    assert outcomes["typed"] > INPUTS // 2 and outcomes["passed"] > INPUTS // 50, outcomes


def test_every_mutation_applies_and_is_deterministic():
    seen = set()
    for seed in range(300):
        _, mutations, _ = mutate(seed, SMALL)
        seen.update(mutations.split("+"))
    assert seen >= set(MUTATIONS)
    for seed in range(10):
        assert mutate(seed, SMALL) == mutate(seed, SMALL)
