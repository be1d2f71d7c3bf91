"""A journal entry written in one pass (``digest.recorded_between``) is the general one,
``recorded(digest, asserted_delta(…))``, the same digest and the same text: over generated
commands of the example domains (accepted, rejected, with derivations), over relations
edited at random, and entry by entry over a journal of 1,372 commands; a digest's text is its
64 hex digits; and a tenant's clock, which keeps its second's text, writes each instant as the
calendar does."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import EMPTY_STATE, State, store
from arest.algebra.relations import Relation
from arest.runtime.clock import NANOSECONDS, UtcClock, utc_text
from arest.runtime.digest import asserted_delta, recorded, recorded_between, state_digest, text
from arest.runtime.runner import changed_cells, run_recording
from arest.system.commands import parse_key
from arest.system.context import read_context
from arest.system.errors import Refusal
from arest.testing.domains import command_sequences
from tests.corpus import loaded

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"
CONTEXT = read_context({"now": "2026-01-01T00:00:00.000000Z", "source": "Human"})


def same_entry(digest: int, before: State, after: State, cells: Any) -> None:
    cells = list(cells)
    assert recorded_between(digest, before, after, cells) == recorded(
        digest, asserted_delta(before, after, cells))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["orders", "genealogy", "clinic"]).flatmap(
    lambda name: st.tuples(st.just(name), command_sequences(loaded(name), max_size=8))))
def test_the_one_pass_entry_is_the_general_one_over_generated_commands(
        drawn: tuple[str, list[tuple[str, Any]]]) -> None:
    name, sequence = drawn
    state = loaded(name)
    digest = state_digest(state)
    for key, request in sequence:
        try:
            command = parse_key(key, request)
        except Refusal:
            continue
        _, after, footprint = run_recording(state, command, CONTEXT)
        cells = changed_cells(state, after, footprint)
        same_entry(digest, state, after, cells)
        if after is not state:
            digest = recorded_between(digest, state, after, cells)[0]
            state = after


EDITS = st.lists(st.tuples(st.booleans(), st.sampled_from("abc"), st.sampled_from("xy"),
                           st.sampled_from([True, True, ("why",)])), max_size=8)
CONTENTS = st.one_of(st.none(), st.just("not a relation"),
                     EDITS.map(lambda edits: _edited(Relation.of(2, [("a", "x")]), edits)))


def _edited(relation: Relation, edits: list[tuple[bool, str, str, Any]]) -> Relation:
    for adding, first, second, payload in edits:
        fact = (first, second)
        relation = relation.add(fact, payload) if adding else relation.remove(fact)
    return relation


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["R", "S", "asserted:R"]), CONTENTS, EDITS),
                max_size=3, unique_by=lambda cell: cell[0]), st.integers(0, 2**256 - 1))
def test_the_one_pass_entry_is_the_general_one_over_edited_relations(
        cells: list[tuple[str, Any, list[tuple[bool, str, str, Any]]]], digest: int) -> None:
    before, after = EMPTY_STATE, EMPTY_STATE
    for name, contents, edits in cells:
        if contents is not None:
            before = store(before, name, contents)
        later = _edited(contents, edits) if isinstance(contents, Relation) else (
            _edited(Relation(2), edits) if edits else contents)
        if later is not None:
            after = store(after, name, later)
    same_entry(digest, before, after, [name for name, _, _ in cells])


def test_a_journal_of_creates_orders_and_duplicates_is_the_general_paths(
        tmp_path: Path) -> None:
    """Each entry's digest and facts are what the general path gives for its command, run
    again on the D before it; a reopen checks the checkpoint and the entries after it."""
    db = tmp_path / "journal.db"
    ticks = iter(range(10**6))
    accepted = 0
    with arest.Tenant.open(ORDERS, db=db, clock=lambda: f"2026-01-01T00:00:00.{next(ticks):06d}Z"
                           ) as tenant:
        start, digest = tenant.state, tenant.digest
        commands = 0
        for n in range(2_000):
            calls = [("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})]
            if n % 2 == 0:
                calls.append(("create:Order", {"id": f"o{n}", "Customer": f"c{n // 2}@x"}))
            if n % 5 == 0:
                calls.append(("create:Customer", {"id": f"c{n}@x", "Name": "again"}))
            for key, request in calls[:1_372 - commands]:
                out = tenant.call(key, request)
                accepted += out.get("rejected") is False
                commands += 1
        assert commands == 1_372 and 0 < accepted < commands
        final = tenant.digest
    with closing(sqlite3.connect(db)) as connection:
        rows = connection.execute("SELECT key, input, context, digest, facts FROM journal"
                                  " ORDER BY sequence").fetchall()
    assert len(rows) == accepted
    state, number = start, int(digest.partition(":")[2], 16)
    for key, request, context, kept_digest, facts in rows:
        _, after, footprint = run_recording(state, parse_key(key, json.loads(request)),
                                              read_context(json.loads(context)))
        number, expected = recorded(number, asserted_delta(
            state, after, changed_cells(state, after, footprint)))
        assert (kept_digest, facts) == (text(number), expected)
        state = after
    assert text(number) == final
    with arest.Tenant.open(ORDERS, db=db) as reopened:
        assert reopened.digest == final


@settings(max_examples=200)
@given(st.lists(st.integers(-5 * NANOSECONDS, 4_000_000_000 * NANOSECONDS), min_size=1,
                max_size=6),
       st.lists(st.integers(0, 3 * NANOSECONDS), max_size=6))
def test_the_clock_that_keeps_its_second_writes_each_instant_as_the_calendar(
        instants: list[int], steps: list[int]) -> None:
    """Readings far apart, within one second, and going back: each the calendar's text."""
    readings = [*instants, *(instants[-1] + sum(steps[:n + 1]) for n in range(len(steps)))]
    clock = UtcClock(iter(readings).__next__)
    assert [clock() for _ in readings] == [utc_text(reading) for reading in readings]


@given(st.integers(0, 2**256 - 1))
def test_a_digest_is_written_as_its_64_hex_digits(digest: int) -> None:
    assert text(digest) == f"v1:{digest:064x}"
