"""The progress bar of long commands: `rich` drawing the core's progress reports on stderr.

The core reports progress through `shardonnay.progress` (a callback, no
terminal code). `progress_on_stderr()` installs a callback that draws a bar
per kind of work (`propagating`, `partitioning @main`, `simulating 8
devices`), but only when stderr is a terminal and the work is large (a task
of at least `LARGE` items: small programs finish before a bar would help);
`--quiet` turns it off. The bar disappears when the command ends, so the
output that stays is the same with or without it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from shardonnay.progress import reporting

__all__ = ["LARGE", "add_quiet_option", "progress_on_stderr"]

#: Items (ops) from which a task gets a bar.
LARGE = 2000


def add_quiet_option(command: Any) -> None:
    """`--quiet`: no progress bar."""
    command.add_argument(
        "--quiet",
        action="store_true",
        help=f"no progress bar on stderr (shown on a terminal for programs of {LARGE}+ ops)",
    )


class _Bars:
    """Draws one bar per kind of task (the task's name up to a parenthesis)."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.progress: Any = None
        self.bars: dict[str, Any] = {}

    def __call__(self, task: str, done: int, total: int) -> None:
        kind = task.split(" (")[0]
        if kind not in self.bars:
            if total < LARGE:
                return
            self._start()
            self.bars[kind] = self.progress.add_task(task, total=total)
        self.progress.update(self.bars[kind], description=task, completed=done, total=total)

    def _start(self) -> None:
        if self.progress is not None:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(file=self.stream),
            transient=True,
            refresh_per_second=4,
            redirect_stdout=False,  # the program's output stays on stdout
            redirect_stderr=False,
        )
        self.progress.start()

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()


@contextmanager
def progress_on_stderr(enabled: bool = True, stream: TextIO | None = None) -> Iterator[None]:
    """Within the block, large tasks of the core draw progress bars on `stream`
    (stderr) when `enabled` and `stream` is a terminal."""
    stream = stream if stream is not None else sys.stderr
    if not enabled or not stream.isatty():
        yield
        return
    bars = _Bars(stream)
    try:
        with reporting(bars):
            yield
    finally:
        bars.stop()
