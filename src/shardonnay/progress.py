"""How long work reports how far it got: a callback protocol, free of any terminal library.

Long loops of the core (propagation sweeps, the conversion to per-device
programs, the simulation of every device) call `tracker(task, total)` once
and `advance()` per item; whoever wants to show progress installs a
`ProgressCallback` with `reporting(callback)` for the duration of a call.
Without one, a tracker is a no-op that costs one context-variable lookup per
loop. The callback is called with `(task, done, total)` when a task starts,
then at most about 100 times per task, and once it is done (`done ==
total`); `total` may grow when a loop finds more work (a propagation sweep
that revisits ops). The CLI draws these calls as a `rich` progress bar on
stderr.

>>> calls = []
>>> with reporting(lambda task, done, total: calls.append((task, done, total))):
...     steps = tracker("counting", 4)
...     for _ in range(4):
...         steps.advance()
...     steps.finish()
>>> calls[0], calls[-1]
(('counting', 0, 4), ('counting', 4, 4))
>>> tracker("unseen", 10).advance()   # nobody listens: nothing happens
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["ProgressCallback", "Tracker", "reporting", "tracker"]

#: `(task, done, total)`: `task` names the work (`propagating`, ...).
ProgressCallback = Callable[[str, int, int], None]

_CALLBACK: ContextVar[ProgressCallback | None] = ContextVar("shardonnay_progress", default=None)


@contextmanager
def reporting(callback: ProgressCallback | None) -> Iterator[None]:
    """Trackers created inside the block report to `callback` (None: to nobody)."""
    token = _CALLBACK.set(callback)
    try:
        yield
    finally:
        _CALLBACK.reset(token)


class Tracker:
    """Counts the items of one task and tells the callback now and then."""

    __slots__ = ("callback", "done", "every", "next", "task", "total")

    def __init__(self, callback: ProgressCallback, task: str, total: int):
        self.callback, self.task = callback, task
        self.total = max(total, 0)
        self.done = 0
        self.every = max(1, self.total // 100)
        self.next = self.every
        callback(task, 0, self.total)

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self.done >= self.next:
            self.total = max(self.total, self.done)
            self.next = self.done + self.every
            self.callback(self.task, self.done, self.total)

    def grow(self, n: int) -> None:
        """`n` more items than announced."""
        self.total += n

    def finish(self) -> None:
        self.total = self.done = max(self.total, self.done)
        self.callback(self.task, self.done, self.total)


class _Silent:
    __slots__ = ()

    def advance(self, n: int = 1) -> None:
        pass

    def grow(self, n: int) -> None:
        pass

    def finish(self) -> None:
        pass


_SILENT = _Silent()


def tracker(task: str, total: int) -> Tracker | _Silent:
    """A `Tracker` of `task` (`total` items) reporting to the installed
    callback, or a silent one when there is none."""
    callback = _CALLBACK.get()
    if callback is None:
        return _SILENT
    return Tracker(callback, task, total)
