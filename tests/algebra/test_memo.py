"""The identity memo answers what its decoding answers: for any sequence of calls over a
few objects (equal ones among them, which it must not confuse), of any arity, with a limit
that evicts, each answer is decode's of those very objects."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arest.algebra.memo import IdentityMemo

# Equal but distinct objects: an answer keyed by equality would be caught.
POOL = (["a"], ["a"], ["b"], [], [])


@settings(max_examples=150)
@given(st.lists(st.lists(st.integers(0, len(POOL) - 1), max_size=3), max_size=30),
       st.integers(1, 4))
def test_each_answer_is_the_decoding_of_the_objects_asked(
        calls: list[list[int]], limit: int) -> None:
    def decode(*objs: Any) -> tuple[int, ...]:
        return tuple(map(id, objs))

    memo = IdentityMemo(decode, limit=limit)
    for call in calls:
        objs = [POOL[i] for i in call]
        assert memo(*objs) == decode(*objs)
        assert len(memo) <= limit
