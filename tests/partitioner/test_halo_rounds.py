"""`halo.schedule.fewest_rounds`: transfers split into collective-permute
rounds, as few as the busiest device needs (Koenig's edge colouring)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from shardonnay.partitioner.halo.schedule import fewest_rounds

transfers = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=40)


@given(transfers)
def test_rounds_are_permutes_and_as_few_as_the_busiest_device_needs(pairs) -> None:
    rounds = fewest_rounds(pairs)
    assert sorted(e for r in rounds for e in r) == list(range(len(pairs)))
    for r in rounds:
        senders = [pairs[e][0] for e in r]
        receivers = [pairs[e][1] for e in r]
        assert len(set(senders)) == len(senders)
        assert len(set(receivers)) == len(receivers)
        assert r == sorted(r)
    degrees = [*Counter(s for s, _ in pairs).values(), *Counter(t for _, t in pairs).values()]
    assert len(rounds) == max(degrees, default=0)


def test_first_come_first_served_would_open_a_third_round() -> None:
    pairs = [(0, 0), (1, 1), (0, 2), (2, 0), (1, 2)]
    assert len(fewest_rounds(pairs)) == 2
