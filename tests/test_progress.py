"""Progress of long work: the core's callback protocol and the CLI's bar on stderr."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import shardonnay
from shardonnay.cli import main, progress_bar
from shardonnay.cli.progress_bar import progress_on_stderr
from shardonnay.progress import reporting, tracker
from shardonnay.runtime.interpreter import random_inputs

MLP = Path(__file__).resolve().parent.parent / "examples" / "mlp.mlir"


def _chain(n: int) -> str:
    lines = [
        'sdy.mesh @mesh = <["x"=2, "y"=2]>',
        "func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, "
        '[{"x"}, {}]>}) -> tensor<4x8xf32> {',
    ]
    previous = "%arg0"
    for i in range(n):
        lines.append(f"  %{i} = stablehlo.negate {previous} : tensor<4x8xf32>")
        previous = f"%{i}"
    return "\n".join([*lines, f"  return {previous} : tensor<4x8xf32>", "}"])


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_propagate_partition_and_simulate_report_their_progress() -> None:
    module = shardonnay.parse_module(_chain(300))
    calls: list[tuple[str, int, int]] = []
    with reporting(lambda *call: calls.append(call)):
        local = shardonnay.partition(module)
        shardonnay.simulate(local, *random_inputs(module, seed=0))
    tasks = list(dict.fromkeys(task for task, _, _ in calls))
    assert tasks[0] == "propagating (sweep 1)"
    assert "partitioning @main" in tasks and "simulating 4 devices" in tasks
    for task in tasks:
        mine = [(done, total) for t, done, total in calls if t == task]
        assert mine[0][0] == 0 and mine[-1][0] == mine[-1][1]  # starts at 0, ends complete
        assert [d for d, _ in mine] == sorted(d for d, _ in mine)
        assert len(mine) <= 110  # about 100 reports per task at most
    partitioning = [c for c in calls if c[0] == "partitioning @main"]
    assert partitioning[-1][1:] == (301, 301)  # 300 ops and the return
    simulating = [c for c in calls if c[0] == "simulating 4 devices"]
    assert simulating[-1][1:] == (300, 300)


def test_nobody_listening_costs_nothing_and_sees_nothing() -> None:
    steps = tracker("work", 10)
    steps.advance()
    steps.finish()  # no callback installed: silently nothing


def test_bar_only_on_a_terminal_for_large_work(monkeypatch: pytest.MonkeyPatch) -> None:
    module = shardonnay.parse_module(_chain(50))
    pipe = io.StringIO()
    with progress_on_stderr(stream=pipe):
        shardonnay.propagate(module)
    assert pipe.getvalue() == ""  # not a terminal
    terminal = _Terminal()
    with progress_on_stderr(stream=terminal):
        shardonnay.propagate(module)
    assert terminal.getvalue() == ""  # a small program: no bar
    monkeypatch.setattr(progress_bar, "LARGE", 10)
    with progress_on_stderr(stream=terminal):
        shardonnay.propagate(module)
    assert "propagating (sweep" in terminal.getvalue()
    quiet = _Terminal()
    with progress_on_stderr(enabled=False, stream=quiet):
        shardonnay.propagate(module)
    assert quiet.getvalue() == ""


def test_cli_output_is_the_same_with_and_without_progress(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress_bar, "LARGE", 1)
    assert main(["partition", str(MLP), "--report"]) == 0
    plain = capsys.readouterr()
    assert plain.err == ""  # stderr is not a terminal here
    assert main(["partition", str(MLP), "--report", "--quiet"]) == 0
    assert capsys.readouterr() == plain
    assert main(["propagate", str(MLP), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
