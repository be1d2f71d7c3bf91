"""The collector held off: the caller's collector as it was after, nothing lost."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.collector import held_off
from arest.runtime.codec import decode, encode


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def _collector() -> tuple[bool, tuple[int, int, int], int]:
    return gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()


@contextmanager
def _as_a_caller_has_it(enabled: bool, threshold: tuple[int, int, int], frozen: bool
                        ) -> Iterator[None]:
    """The collector set as a caller may have it, and set back as the test found it."""
    found = gc.isenabled(), gc.get_threshold()
    gc.set_threshold(*threshold)
    if frozen:
        gc.freeze()
    (gc.enable if enabled else gc.disable)()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*found[1])
        (gc.enable if found[0] else gc.disable)()


@settings(max_examples=25, deadline=None)
@given(enabled=st.booleans(), threshold=st.tuples(st.integers(500, 5000), st.integers(5, 20),
                                                    st.integers(5, 20)),
       frozen=st.booleans(), depth=st.integers(1, 3), raises=st.booleans())
def test_the_collector_is_as_the_caller_had_it(
    enabled: bool, threshold: tuple[int, int, int], frozen: bool, depth: int, raises: bool,
) -> None:
    with _as_a_caller_has_it(enabled, threshold, frozen):
        before = _collector()
        contexts = [held_off() for _ in range(depth)]
        try:
            for context in contexts:
                context.__enter__()
                assert not gc.isenabled()
                _Cycle()
            if raises:
                raise KeyError("inside")
        except KeyError:
            pass
        finally:
            for context in reversed(contexts):
                context.__exit__(None, None, None)
        assert _collector() == before
        if enabled and not frozen:  # moved to the oldest generation, the young count reset
            assert gc.get_count()[0] < threshold[0] + 10


def test_what_the_collector_was_held_off_from_it_frees_later() -> None:
    with held_off():
        left = [weakref.ref(_Cycle()) for _ in range(1000)]  # only the collector frees them
    assert all(cycle() is not None for cycle in left)
    gc.collect()
    assert all(cycle() is None for cycle in left)


def test_a_reopen_leaves_the_collector_as_it_was_and_decodes_what_it_would_with_it_on(
    tmp_path: Path,
) -> None:
    readings = Path(__file__).resolve().parents[1] / "readings" / "orders"
    with arest.Tenant.open(readings, db=tmp_path / "orders.db") as tenant:
        tenant.call("create:Customer", {"id": "c1@x", "Name": "Ann"})
        kept = encode(tenant.state)
    for enabled in (True, False):
        with _as_a_caller_has_it(enabled, (700, 10, 10), frozen=False):
            before = _collector()
            with arest.Tenant.open(readings, db=tmp_path / "orders.db") as tenant:
                assert _collector() == before
                assert encode(tenant.state) == kept
    assert decode(kept) == tenant.state  # the decode as anything else runs it
