"""The package's memos under the tenant's threads: several threads reading and replacing
states at once get the answers one thread alone would (a plural in an href, a change's
lookups), and evicting at once raises nothing."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import arest
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Relation
from arest.compiler.change import Change
from arest.system.links import href

SHOP = """Order(.id) is an entity type.
Customer(.id) is an entity type.
Order was placed by Customer.
"""
THREADS, ROUNDS = 6, 20000


@contextmanager
def switching_often() -> Iterator[None]:
    """Threads switch every microsecond, so a race shows within the rounds."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def hammer(work: Callable[[int], None]) -> list[BaseException]:
    """work(i) for i in ROUNDS on each of THREADS threads at once; what they raised."""
    failures: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run() -> None:
        start.wait()
        try:
            for i in range(ROUNDS):
                work(i)
        except BaseException as error:
            failures.append(error)

    with switching_often():
        threads = [threading.Thread(target=run) for _ in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return failures


def test_hrefs_keep_their_own_plural_while_other_threads_read_other_states() -> None:
    D = arest.apply(arest.compile(SHOP), "create:Order", {"id": "o1", "Customer": "acme"})[1]
    renamed = arest.apply(D, "compile", {"readings": "Noun 'Order' has Plural 'purchases'.\n"})[1]
    states = [(D, "/orders/o1"), (renamed, "/purchases/o1")]
    for state, expected in states:
        assert arest.apply(state, "read:Order", "o1")[0]["_links"]["self"]["href"] == expected

    def work(i: int) -> None:
        state, expected = states[i % 2]
        got = href(state, "Order", "o1")
        assert got == expected, (got, expected)

    assert hammer(work) == []


def test_changes_over_many_schemas_at_once_evict_without_error() -> None:
    D = arest.compile(SHOP)
    schemes = D.get("Noun_has_Reference_Scheme")
    assert isinstance(schemes, Relation)
    variants = [D.set("Noun_has_Reference_Scheme", schemes.add((f"Extra{i}", "id")))
                for i in range(200)]

    def work(i: int) -> None:
        change = Change(variants[(i * 7) % len(variants)])
        if i % 100 == 0:
            assert change.roles("Order_was_placed_by_Customer") == ("Order", "Customer")

    assert hammer(work) == []


def test_an_identity_memo_evicting_from_many_threads_stays_bounded_and_right() -> None:
    memo: IdentityMemo[Any] = IdentityMemo(lambda obj: len(obj), limit=8)
    cells = [tuple(range(n)) for n in range(64)]

    def work(i: int) -> None:
        cell = cells[(i * 13) % len(cells)]
        assert memo(cell) == len(cell)

    assert hammer(work) == []
    assert len(memo) <= 8 + THREADS  # a thread may add between another's check and evict
