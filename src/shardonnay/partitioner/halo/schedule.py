"""Who sends which slots to whom, in which rounds, for a halo exchange
(`halo.exchange.exchange`): worked out on device ids and slot numbers, before
any op is emitted, so that the lowering can weigh alternatives (which dim
to move first) by what each device would receive.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# result position -> (operand, operand position), or None for the pad value
IndexMap = Callable[[int], tuple[int, int] | None]


@dataclass(frozen=True)
class Exchange:
    """What each device needs along `dim`: for its `slots` result slots the
    global positions (`positions(device)`, -1 for padding), each taken from
    `source(position)` (operand, operand position; None for the fill value),
    held by `holder(device, operand, operand position)` (device, slot)."""

    dim: int
    slots: int
    positions: Callable[[int], list[int]]
    source: IndexMap
    holder: Callable[[int, int, int], tuple[int, int]]
    budget: int  # the most slots a device may receive (what a gather brings)


@dataclass(frozen=True)
class Round:
    """One `stablehlo.collective_permute`: every sender sends `width` slots
    of operand `operand`; `windows` are (receiver, sender, the distinct slots
    of the sender's shard the receiver needs), `width` of them each."""

    operand: int
    width: int
    windows: tuple[tuple[int, int, tuple[int, ...]], ...]


@dataclass(frozen=True)
class Schedule:
    """An exchange worked out before any op is emitted: per device its
    result slots (`rows`: (holder, operand, slot), None for the fill value,
    -1 for padding), the rounds, and per device the distinct slots it
    needs from others (`need`), which is what it receives."""

    rows: dict[int, list]
    rounds: tuple[Round, ...]
    need: dict[int, int]

    @property
    def received(self) -> dict[int, int]:
        """Per device, the slots the rounds bring it."""
        out = dict.fromkeys(self.need, 0)
        for r in self.rounds:
            for receiver, _, _ in r.windows:
                out[receiver] += r.width
        return out


def schedule(plan: Exchange, devices: Sequence[int]) -> Schedule:
    """Which slots each device fetches from whom, in rounds.

    A device needs the distinct slots its result reads from other devices;
    each (receiver, sender) pair is one window of those slots. In a
    `stablehlo.collective_permute` every sender sends a buffer of one shape,
    so a round holds windows of one operand and one width, with distinct
    senders and distinct receivers: each device receives exactly the slots
    it lacks, and a narrow window never pays for a wide one. A shift of
    even shards (a slice, a pad without interior padding) is one round of
    one neighbour per device (two where the shift straddles shards).

    For example, gathering `{"y":(2)2}` of 18 elements over `"y"=4` (5
    slots per device, see `relayout_by_exchange`): devices 0..3 need 4, 5,
    1 + 3 and 1 + 5 slots; the windows of widths 5, 5 (1 <- 0, 3 <- 2),
    4 (0 <- 1), 3 (2 <- 3), 1 (2 <- 1) and 1 (3 <- 1: device 1 sends to
    device 2 in that round already) make five rounds.

    A slice `[1:8]` of 8 over 4 devices (2 slots each, operand and result):
    devices 0..2 each lack one slot of their right neighbour, one round:

    >>> plan = Exchange(
    ...     0, 2, lambda d: [g if g < 7 else -1 for g in (2 * d, 2 * d + 1)],
    ...     lambda g: (0, g + 1), lambda device, j, i: (i // 2, i % 2), 6)
    >>> [(r.width, r.windows) for r in schedule(plan, range(4)).rounds]
    [(1, ((0, 1, (0,)), (1, 2, (0,)), (2, 3, (0,))))]
    """
    rows: dict[int, list] = {}
    wanted: dict[tuple[int, int, int], set[int]] = {}  # (receiver, sender, operand) -> slots
    for device in devices:
        row: list = []
        for g in plan.positions(device):
            found = None if g == -1 else plan.source(g)
            if g == -1 or found is None:
                row.append(-1 if g == -1 else None)
                continue
            j, i = found
            holder, q = plan.holder(device, j, i)
            row.append((holder, j, q))
            if holder != device:
                wanted.setdefault((device, holder, j), set()).add(q)
        rows[device] = row
    need = {d: 0 for d in devices}
    for (receiver, _, _), q in wanted.items():
        need[receiver] += len(q)
    # transfers of one operand and width go in as few rounds as the busiest
    # device of theirs needs (`fewest_rounds`)
    of_kind: dict[tuple[int, int], list[tuple[int, int, int]]] = {}  # (operand, width) -> keys
    for key in sorted(wanted, key=lambda t: (t[2], -len(wanted[t]), t[0], t[1])):
        of_kind.setdefault((key[2], len(wanted[key])), []).append(key)
    rounds: list[tuple[int, int, list]] = []  # (operand, width, windows)
    for (j, width), keys in of_kind.items():
        for members in fewest_rounds([(sender, receiver) for receiver, sender, _ in keys]):
            windows = [(keys[e][0], keys[e][1], tuple(sorted(wanted[keys[e]]))) for e in members]
            rounds.append((j, width, windows))
    return Schedule(rows, tuple(Round(j, w, tuple(windows)) for j, w, windows in rounds), need)


@dataclass(frozen=True)
class Box:
    """One window of a box exchange: `receiver` takes from `sender` the box
    of `shape` starting at `sent_at` in the sender's buffer, and puts it at
    `put_at` in its result buffer (local slots per dim)."""

    receiver: int
    sender: int
    sent_at: tuple[int, ...]
    put_at: tuple[int, ...]
    shape: tuple[int, ...]


@dataclass(frozen=True)
class BoxSchedule:
    """A relayout moving all dims at once: per dim and device, where each
    result slot comes from in the device's own buffer (`own[dim][device]`,
    -1 where it does not hold it), and rounds of boxes of one shape with
    distinct senders and distinct receivers."""

    own: tuple[dict[int, list[int]], ...]
    rounds: tuple[tuple[Box, ...], ...]

    @property
    def received(self) -> dict[int, int]:
        """Per device, the elements the rounds bring it."""
        out = dict.fromkeys(self.own[0] if self.own else (), 0)
        for boxes in self.rounds:
            for box in boxes:
                out[box.receiver] = out.get(box.receiver, 0) + math.prod(box.shape)
        return out


def box_schedule(
    shape: Sequence[int],
    held: Callable[[int, int], tuple[int, int]],
    wanted: Callable[[int, int], tuple[int, int]],
    devices: Sequence[int],
) -> BoxSchedule:
    """Who sends which box to whom when a value of global `shape` held by
    device `d` along dim `e` as shard `held(d, e)` = (index, slots per
    shard) is wanted as shard `wanted(d, e)`.

    Along each dim a device's wanted positions split where the held shards
    end; the products of those runs are boxes, each held whole by the
    devices of one shard index per dim. A device receives each box it does
    not hold from one holder (the one that has sent the least so far), so
    it receives exactly what it lacks, several dims at once.

    For example, 6 rows over 2 shards (3 slots, devices 0, 1 hold shard 0)
    wanted over 4 (2 slots): device 1 wants rows 2, 3, holds row 2 and
    takes row 3 (slot 0 of device 2) into its slot 1; the others hold theirs.

    >>> plan = box_schedule(
    ...     [6], lambda d, e: (d // 2, 3), lambda d, e: (d, 2), range(4))
    >>> [(b.receiver, b.sender, b.sent_at, b.put_at) for r in plan.rounds for b in r]
    [(1, 2, (0,), (1,))]
    """
    rank = len(shape)
    own: tuple[dict[int, list[int]], ...] = tuple({} for _ in range(rank))
    index_of = {d: tuple(held(d, e)[0] for e in range(rank)) for d in devices}
    # per held shard index, its holders as a heap of (boxes sent so far, id):
    # a device holds one shard, so only its own heap changes when it sends
    holders: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for d in devices:
        holders.setdefault(index_of[d], []).append((0, d))
    for heap in holders.values():
        heapq.heapify(heap)
    boxes: list[Box] = []
    for d in devices:
        runs = []  # per dim: (held shard index, start, end) of global positions
        lows = []
        for e, size in enumerate(shape):
            k, count = wanted(d, e)
            own_k, held_count = held(d, e)
            lo, hi = k * count, min((k + 1) * count, size)
            lows.append(lo)
            start = own_k * held_count
            own[e][d] = [
                g - start if start <= g < min(start + held_count, size) else -1
                for g in range(lo, lo + count)
            ]
            runs.append(
                [
                    (j, max(lo, j * held_count), min(hi, (j + 1) * held_count))
                    for j in range(lo // held_count, -(-hi // held_count))
                ]
                if lo < hi
                else []
            )
        for cell in itertools.product(*runs):
            index = tuple(j for j, _, _ in cell)
            if index == index_of[d]:
                continue
            sent, sender = holders[index][0]
            heapq.heapreplace(holders[index], (sent + 1, sender))
            boxes.append(
                Box(
                    d,
                    sender,
                    tuple(start - j * held(sender, e)[1] for e, (j, start, _) in enumerate(cell)),
                    tuple(start - lows[e] for e, (_, start, _) in enumerate(cell)),
                    tuple(end - start for _, start, end in cell),
                )
            )
    # boxes of one shape go in as few rounds as the busiest device of theirs
    # needs (`fewest_rounds`)
    of_shape: dict[tuple[int, ...], list[Box]] = {}
    for box in sorted(boxes, key=lambda b: (b.shape, b.receiver, b.sender)):
        of_shape.setdefault(box.shape, []).append(box)
    rounds: list[list[Box]] = []
    for same in of_shape.values():
        for members in fewest_rounds([(box.sender, box.receiver) for box in same]):
            rounds.append([same[e] for e in members])
    return BoxSchedule(own, tuple(tuple(r) for r in rounds))


def fewest_rounds(transfers: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The (sender, receiver) `transfers` split into rounds in which no device
    sends twice and none receives twice (each round one collective-permute),
    as few as the device with the most transfers needs (Kőnig: the edges of
    a bipartite multigraph colour with as many colours as its largest
    degree). Each round lists its transfers' indices, in order.

    A transfer takes a round free at both its devices; where the sender's
    free round `a` is busy at the receiver, whose free round is `b`, the
    transfers alternating `a` and `b` from the receiver swap the two rounds
    first (that path never reaches the sender, so `a` is then free at both).
    First come, first served would need more rounds: below, the last
    transfer (1 to 2) finds round 0 busy at device 1 and round 1 at device 2
    (where 0 sent to it).

    >>> fewest_rounds([(0, 0), (1, 1), (0, 2), (2, 0), (1, 2)])
    [[1, 2, 3], [0, 4]]
    """
    at: dict[tuple[int, int], dict[int, int]] = {}  # (side, device) -> round -> transfer
    for sender, receiver in transfers:
        at.setdefault((0, sender), {})
        at.setdefault((1, receiver), {})
    sends = Counter(s for s, _ in transfers)
    receives = Counter(r for _, r in transfers)
    count = max([*sends.values(), *receives.values()], default=0)
    rounds = [0] * len(transfers)
    for e, (sender, receiver) in enumerate(transfers):
        u, v = at[(0, sender)], at[(1, receiver)]
        a = next(c for c in range(count) if c not in u)
        if a in v:
            b = next(c for c in range(count) if c not in v)
            _swap(transfers, rounds, at, (1, receiver), a, b)
        rounds[e] = a
        u[a] = v[a] = e
    out: list[list[int]] = [[] for _ in range(count)]
    for e, r in enumerate(rounds):
        out[r].append(e)
    return [r for r in out if r]


def _swap(
    transfers: Sequence[tuple[int, int]],
    rounds: list[int],
    at: dict[tuple[int, int], dict[int, int]],
    start: tuple[int, int],
    a: int,
    b: int,
) -> None:
    """Rounds `a` and `b` swapped along the transfers that alternate them from
    device `start` (a (side, device) pair: 0 sending, 1 receiving)."""
    path = []
    device, wanted = start, a
    while wanted in at[device]:
        e = at[device][wanted]
        path.append(e)
        sender, receiver = transfers[e]
        device = (0, sender) if device[0] == 1 else (1, receiver)
        wanted = b if wanted == a else a
    for e in path:
        sender, receiver = transfers[e]
        del at[(0, sender)][rounds[e]], at[(1, receiver)][rounds[e]]
    for e in path:
        rounds[e] = b if rounds[e] == a else a
        sender, receiver = transfers[e]
        at[(0, sender)][rounds[e]] = at[(1, receiver)][rounds[e]] = e
