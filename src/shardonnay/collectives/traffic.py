"""What a collective's algorithm moves: per-device bytes sent and received, and steps.

One cost algorithm per collective kind, the kind being the op's name without
its dialect (`all_gather` for `sdy.all_gather`, `stablehlo.all_gather` and
XLA's `all-gather`); `ALGORITHMS` names them. Ring collectives pass a chunk
on in each of `rounds * (n-1)` steps among the n members of a group
(`ring_traffic`); a permute sends whole buffers from source to target
(`pair_traffic`); a broadcast sends its root's buffer to every other member
(`broadcast_traffic`). What the chunk is depends on the collective: the
Shardy collectives say it from their shardings (`Collective.traffic`), the
collectives of a per-device program from their buffers (`buffer_chunk`).

A ring all_gather among 4 devices passes each device's 64 B on in 3 steps,
so each sends and receives `3 * 64 = 192` B:

>>> ring_traffic("all_gather", [(0, 1, 2, 3)], 4, 64)
([192, 192, 192, 192], [192, 192, 192, 192], 3)
"""

from __future__ import annotations

from collections.abc import Sequence

Traffic = tuple[list[int], list[int], int]

ALGORITHMS = {
    "all_gather": "ring",
    "reduce_scatter": "ring",
    "all_reduce": "ring (reduce-scatter + all-gather)",
    "all_to_all": "pairwise exchange",
    "collective_permute": "point to point",
    "collective_broadcast": "root sends to each member",
    "all_slice": "local (no communication)",
    "sharded_to_unreduced": "local (no communication)",
    "replicated_to_unreduced": "local (no communication)",
    "reshard": "direct: each device fetches what it lacks (unlowered sdy.reshard)",
}
#: How many times a ring collective goes round its group.
RING_ROUNDS = {"all_gather": 1, "reduce_scatter": 1, "all_to_all": 1, "all_reduce": 2}


def ring_traffic(
    kind: str, groups: Sequence[Sequence[int]], num_devices: int, chunk_bytes: int
) -> Traffic:
    """(sent, received, steps) of a ring or pairwise collective: every member
    of a group of n passes `chunk_bytes` on in each of its `(n-1)` (all_reduce:
    `2(n-1)`) steps.

    >>> ring_traffic("all_reduce", [(0, 1, 2, 3)], 4, 16)
    ([96, 96, 96, 96], [96, 96, 96, 96], 6)
    """
    rounds = RING_ROUNDS[kind]
    sent, received = [0] * num_devices, [0] * num_devices
    steps = 0
    for group in groups:
        n = len(group)
        for d in group:
            sent[d] += rounds * (n - 1) * chunk_bytes
            received[d] += rounds * (n - 1) * chunk_bytes
        steps = max(steps, rounds * (n - 1))
    return sent, received, steps


def pair_traffic(pairs: Sequence[tuple[int, int]], num_devices: int, buffer_bytes: int) -> Traffic:
    """(sent, received, steps) of a permute: pairs whose source is their target move nothing.

    >>> pair_traffic([(0, 1), (1, 0), (2, 2)], 3, 8)
    ([8, 8, 0], [8, 8, 0], 1)
    """
    sent, received = [0] * num_devices, [0] * num_devices
    for source, target in pairs:
        if source != target:
            sent[source] += buffer_bytes
            received[target] += buffer_bytes
    return sent, received, 1 if any(received) else 0


def broadcast_traffic(
    groups: Sequence[Sequence[int]], num_devices: int, buffer_bytes: int
) -> Traffic:
    """(sent, received, steps) of a broadcast from the first member of each group.

    >>> broadcast_traffic([(0, 1, 2)], 3, 8)
    ([16, 0, 0], [0, 8, 8], 1)
    """
    sent, received = [0] * num_devices, [0] * num_devices
    for g in groups:
        sent[g[0]] += (len(g) - 1) * buffer_bytes
        for d in g[1:]:
            received[d] += buffer_bytes
    n = max((len(g) for g in groups), default=1)
    return sent, received, 1 if n > 1 else 0


def buffer_chunk(kind: str, operands: Sequence[tuple[int, int]], group_size: int) -> int:
    """The ring chunk of a collective on per-device buffers, each operand given
    as (elements, bytes per element): an all_reduce passes an n-th of each
    operand's elements, an all_gather its whole input, the others an n-th of it.

    >>> buffer_chunk("all_reduce", [(10, 4)], 4), buffer_chunk("all_gather", [(10, 4)], 4)
    (12, 40)
    """
    if kind == "all_reduce":
        return sum(-(-elements // group_size) * size for elements, size in operands)
    total = sum(elements * size for elements, size in operands)
    if kind == "all_gather":
        return total
    return -(-total // group_size)  # reduce_scatter, all_to_all: one n-th of the input
