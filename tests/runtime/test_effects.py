"""Following a journal by applying the facts each entry recorded gives the D that running
every command again from scratch gives: same cells, same digest."""

import functools
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import arest
from arest.algebra import State
from arest.api import load_sources, read_files
from arest.runtime.digest import asserted_delta, recorded, state_digest, text
from arest.runtime.effects import applied
from arest.runtime.following import replayed_entries
from arest.runtime.recovery import replayed
from arest.runtime.runner import changed_cells, run_recording
from arest.runtime.storage import Entry, open_storage
from arest.system.commands import parse_key
from arest.system.context import read_context

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"
PEOPLE = ["ann@x", "bo@x", "cy@x"]
ORDER_NUMBERS = ["o1", "o2"]

commands = st.one_of(
    st.tuples(st.sampled_from(["create:Customer", "update:Customer"]),
              st.fixed_dictionaries({"id": st.sampled_from(PEOPLE),
                                     "Name": st.sampled_from(["A", "B"])})),
    st.tuples(st.just("delete:Customer"), st.sampled_from(PEOPLE)),
    st.tuples(st.just("create:Order"),
              st.fixed_dictionaries({"id": st.sampled_from(ORDER_NUMBERS),
                                     "Customer": st.sampled_from(PEOPLE)})),
    st.tuples(st.just("transition:Order"),
              st.fixed_dictionaries({"id": st.sampled_from(ORDER_NUMBERS),
                                     "event": st.sampled_from(["pay", "cancel"])})),
)


def journal_of(calls: list[tuple[str, Any]]) -> tuple[State, str, list[Entry]]:
    """D and its digest after the calls, and the journal they left."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "orders.db"
        with arest.Tenant.open(ORDERS, db=db) as tenant:
            for key, request in calls:
                tenant.call(key, request)
            state, digest = tenant.state, tenant.digest
        storage = open_storage(db)
        try:
            return state, digest, list(storage.entries())
        finally:
            storage.close()


@functools.cache
def base() -> State:
    return load_sources(read_files(ORDERS))


def journaled(calls: list[tuple[str, Any]]) -> tuple[State, list[Entry]]:
    """D after the calls and the journal entries of those accepted, as a tenant records them
    (the tenant itself is exercised by :func:`journal_of`; this is cheap enough to draw)."""
    state, digest, entries = base(), state_digest(base()), []
    for n, (key, request) in enumerate(calls):
        context = {"now": f"2026-01-01T00:00:{n:02d}Z", "source": "System"}
        _, after, footprint = run_recording(state, parse_key(key, request),
                                              read_context(context))
        if after is state:
            continue
        digest, facts = recorded(digest, asserted_delta(
            state, after, changed_cells(state, after, footprint)))
        entries.append(Entry(len(entries) + 1, key, request, context, text(digest), facts))
        state = after
    return state, entries


def followed(entries: list[Entry]) -> tuple[State, int]:
    """D as a follower reaches it: each entry applied when it can be, else run."""
    start = (base(), 0, state_digest(base()))
    state, _, digest = [start, *replayed_entries("test", start, entries)][-1]
    return state, digest


def from_scratch(entries: list[Entry]) -> tuple[State, int]:
    """D as an open with no checkpoint reaches it: every command run again."""
    state, digest = base(), state_digest(base())
    for entry in entries:
        state, digest = replayed("test", state, digest, entry, True)
    return state, digest


@given(st.lists(commands, max_size=12))
def test_following_by_applying_facts_equals_replaying_from_scratch(
        calls: list[tuple[str, Any]]) -> None:
    state, entries = journaled(calls)
    applying, scratch = followed(entries), from_scratch(entries)
    assert applying[0] == scratch[0] == state
    assert applying[1] == scratch[1] == state_digest(state)


def test_a_tenants_journal_followed_by_applying_facts_gives_its_d() -> None:
    calls: list[tuple[str, Any]] = [
        *[("create:Customer", {"id": person, "Name": "A"}) for person in PEOPLE],
        ("update:Customer", {"id": "bo@x", "Name": "B"}), ("delete:Customer", "cy@x"),
        ("create:Order", {"id": "o1", "Customer": "ann@x"}),
        ("transition:Order", {"id": "o1", "event": "pay"})]
    state, digest, entries = journal_of(calls)
    applying, scratch = followed(entries), from_scratch(entries)
    assert applying[0] == scratch[0] == state
    assert f"v1:{applying[1]:064x}" == f"v1:{scratch[1]:064x}" == digest


def test_creates_on_a_known_population_are_applied_not_run() -> None:
    calls = [("create:Customer", {"id": person, "Name": "A"}) for person in PEOPLE]
    calls.append(("create:Order", {"id": "o1", "Customer": "ann@x"}))
    _, _, entries = journal_of(calls)
    state, digest = base(), state_digest(base())
    taken = []
    for entry in entries:
        taken.append(applied(state, digest, entry) is not None)
        state, digest = replayed("test", state, digest, entry, True)
    # The first Customer makes the population's cell; an Order enters its state machine.
    assert taken == [False, True, True, False]


def test_an_entry_whose_facts_do_not_fit_d_is_run_instead() -> None:
    calls = [("create:Customer", {"id": person, "Name": "A"}) for person in PEOPLE[:2]]
    _, digest, entries = journal_of(calls)
    altered = entries[1]._replace(facts=entries[1].facts.replace("bo@x", "zed@x"))
    state, followed_digest = followed([entries[0], altered])
    assert f"v1:{followed_digest:064x}" == digest  # the command ran: bo@x, as recorded
    assert ("bo@x",) in state["population:Customer"]
