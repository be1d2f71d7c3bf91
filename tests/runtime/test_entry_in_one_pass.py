"""A journal entry written in one pass (``digest.recorded_between``) is the general one,
``recorded(digest, asserted_delta(…))``, the same digest and the same text: over generated
commands of the example domains (accepted, rejected, with derivations), over relations
edited at random, and entry by entry over a journal of 1,372 commands; so is the entry a
flat create's asserted facts write (``digest.recorded_assertions``), and that create run on D
itself (``compiled_create.flat_answer``) answers as SYSTEM does; a tenant that runs it so
keeps the entry the general path would, and when another command commits meanwhile, merges
or runs again as a recorded run does; a digest's text is its 64 hex digits; and a tenant's
clock, which keeps its second's text, writes each instant as the calendar does."""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import EMPTY_STATE, State, store
from arest.algebra.relations import Relation
from arest.runtime.clock import NANOSECONDS, UtcClock, utc_text
from arest.runtime.digest import (
    asserted_delta,
    fact_hash,
    recorded,
    recorded_assertions,
    recorded_between,
    state_digest,
    text,
)
from arest.runtime.runner import changed_cells, run_recording
from arest.system.apply import run
from arest.system.commands import parse_key
from arest.system.compiled_create import flat_answer
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


def same_as_recorded_run(digest: int, state: State, key: str, request: Any) -> State:
    """The flat answer on D itself is SYSTEM's answer, and the entry its asserted facts write
    is the general one over the cells a recorded run wrote, in their order; D′."""
    command = parse_key(key, request)
    answered = flat_answer(state, command)
    out, after = run(state, command, CONTEXT)
    if answered is None:
        return after
    assert (answered[0], answered[1]) == (out, after)
    _, recorded_after, footprint = run_recording(state, command, CONTEXT)
    cells = changed_cells(state, recorded_after, footprint)
    if after is state:
        assert answered[1] is state and not answered[2]
        return after
    assert [cell for cell, _ in answered[2]] == list(cells)
    assert recorded_assertions(digest, state, answered[1], answered[2]) == recorded(
        digest, asserted_delta(state, recorded_after, cells))
    return after


ATOMS = st.sampled_from(["a@x", "b@x", "c", "Zoë", "", "x" * 300, "d e"])
FLAT_CREATES = st.lists(st.one_of(
    st.fixed_dictionaries({"id": ATOMS, "Name": ATOMS},
                          optional={"is a reseller": st.sampled_from([True, False, "yes"])}
                          ).map(lambda request: ("create:Customer", request)),
    st.fixed_dictionaries({"id": ATOMS}, optional={"Name": ATOMS}).map(
        lambda request: ("create:Product", request)),
    st.fixed_dictionaries({"id": ATOMS, "Customer": ATOMS}).map(
        lambda request: ("create:Order", request))), max_size=10)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FLAT_CREATES)
def test_a_flat_create_on_d_itself_answers_and_records_as_a_recorded_run(
        creates: list[tuple[str, Any]]) -> None:
    """Accepted, rejected (an id in use), not flat (a non-ASCII or empty value, a flag not
    true), the first fact of a cell and the later ones."""
    state = loaded("orders")
    digest = state_digest(state)
    for key, request in creates:
        after = same_as_recorded_run(digest, state, key, request)
        if after is not state:
            _, after, footprint = run_recording(state, parse_key(key, request), CONTEXT)
            digest = recorded_between(digest, state, after,
                                      changed_cells(state, after, footprint))[0]
            state = after


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["orders", "genealogy", "clinic"]).flatmap(
    lambda name: st.tuples(st.just(name), command_sequences(loaded(name), max_size=8))))
def test_the_flat_answer_is_systems_over_generated_commands(
        drawn: tuple[str, list[tuple[str, Any]]]) -> None:
    name, sequence = drawn
    state = loaded(name)
    digest = state_digest(state)
    for key, request in sequence:
        try:
            after = same_as_recorded_run(digest, state, key, request)
        except Refusal:
            continue
        if after is not state:
            digest = recorded(digest, asserted_delta(state, after, [
                name for name in {*state.keys(), *after.keys()}
                if state.get(name) is not after.get(name)]))[0]
            state = after


EXTRA = st.tuples(st.sampled_from("abc"), st.sampled_from("xy"))


@settings(max_examples=150, deadline=None)
@given(st.lists(EXTRA, max_size=4), EXTRA, st.sampled_from([True, ("why",)]),
       st.sampled_from(["R", "asserted:R", "absent"]), st.integers(0, 2**256 - 1))
def test_asserted_facts_write_the_general_entry_whatever_the_cell_held(
        held: list[tuple[str, str]], fact: tuple[str, str], payload: Any, cell: str,
        digest: int) -> None:
    """A fact new to its relation, one there already as an assertion or as a derivation's
    support, a cell that held nothing, an ``asserted:`` copy: the general entry."""
    relation = Relation(2)
    for extra in held:
        relation = relation.add(extra, payload)
    before = EMPTY_STATE if cell == "absent" else store(EMPTY_STATE, cell, relation)
    after = store(before, cell, (before.get(cell) or Relation(2)).add(fact))
    assert recorded_assertions(digest, before, after, [(cell, fact)]) == recorded(
        digest, asserted_delta(before, after, [cell]))


def test_a_customers_entry_is_written_from_its_facts(tmp_path: Path) -> None:
    """Fixed: the journal rows of two creates, the facts in the order the create wrote
    them; the first makes cells that held nothing, so it is not exact (D′ is not D with the
    facts added: the cells are new)."""
    digests = []
    with arest.Tenant.open(ORDERS, db=tmp_path / "one.db",
                           clock=lambda: "2026-01-01T00:00:00.000000Z") as tenant:
        digests.append(tenant.digest)
        for id_, name in (("bo@x", "Bo"), ("ann@x", "Ann")):
            out = tenant.call("create:Customer", {"id": id_, "Name": name,
                                                  "is a reseller": True})
            assert out["rejected"] is False
            digests.append(tenant.digest)
    with closing(sqlite3.connect(tmp_path / "one.db")) as connection:
        rows = connection.execute("SELECT facts, digest FROM journal ORDER BY sequence"
                                  ).fetchall()
    assert [facts for facts, _ in rows] == [
        '{"+":[["population:Customer",["bo@x"]],["Customer_has_Name",["bo@x","Bo"]],'
        '["Customer_is_a_reseller",["bo@x"]]]}',
        '{"+":[["population:Customer",["ann@x"]],["Customer_has_Name",["ann@x","Ann"]],'
        '["Customer_is_a_reseller",["ann@x"]]],"exact":true}']
    for (facts, kept), before, after in zip(rows, digests[:-1], digests[1:], strict=True):
        added = sum(fact_hash(cell, tuple(values)) for cell, values in json.loads(facts)["+"])
        assert kept == after == text((int(before[3:], 16) + added) % 2**256)


class MeanwhileClock:
    """A clock whose first reading has another thread's command commit first (between the
    command's run on D and its commit): counts the readings."""

    def __init__(self) -> None:
        self.meanwhile: Any = None
        self.readings = 0

    def __call__(self) -> str:
        self.readings += 1
        if self.readings == 1:
            worker = threading.Thread(target=self.meanwhile)
            worker.start()
            worker.join()
        return f"2026-01-01T00:00:00.{self.readings:06d}Z"


@pytest.mark.parametrize("other, readings", [
    (("create:Product", {"id": "saw", "Name": "Saw"}), 2),  # disjoint: merged, no rerun
    (("create:Customer", {"id": "bo@x", "Name": "Bo"}), 3)])  # one cell: runs again
def test_a_command_run_on_d_itself_merges_or_runs_again_when_another_commits_first(
        tmp_path: Path, other: tuple[str, dict[str, str]], readings: int) -> None:
    results: list[Any] = []
    db = tmp_path / "shop.db"
    clock = MeanwhileClock()
    with arest.Tenant.open(ORDERS, db=db, clock=clock) as tenant:
        clock.meanwhile = lambda: results.append(tenant.call(*other))
        out = tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        assert out["rejected"] is False and results[0]["rejected"] is False
        # the command's reading, the other command's, then (on one cell) the run again's
        assert clock.readings == readings
        final, state = tenant.digest, tenant.state
        assert state_digest(state) == int(final[3:], 16)
        listed = {item["id"] for noun in ("Customer", "Product")
                  for item in arest.apply(state, f"list:{noun}")[0]["items"]}
        assert {"ann@x", other[1]["id"]} <= listed
    with arest.Tenant.open(ORDERS, db=db) as reopened:
        assert reopened.digest == final


ANY_VALUE = st.text(st.characters(exclude_categories=()), max_size=6)  # lone surrogates too


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(ANY_VALUE, ANY_VALUE), min_size=1, max_size=3),
       st.integers(0, 2**256 - 1))
def test_asserted_facts_of_any_text_write_the_general_entry(
        facts: list[tuple[str, str]], digest: int) -> None:
    """Values of any text, lone surrogates too (their bytes by ``surrogatepass``, the
    others' by plain UTF-8, the same bytes): the general entry, one fact a cell."""
    before = after = EMPTY_STATE
    for number in range(len(facts)):
        before = after = store(before, f"R{number}", Relation.of(2, [("held", "fact")]))
    asserted = []
    for number, fact in enumerate(facts):
        if fact != ("held", "fact"):
            after = store(after, f"R{number}", after[f"R{number}"].add(fact))
            asserted.append((f"R{number}", fact))
    assert recorded_assertions(digest, before, after, asserted) == recorded(
        digest, asserted_delta(before, after, [cell for cell, _ in asserted]))


def test_a_lone_surrogates_fact_is_hashed_as_its_surrogatepass_bytes() -> None:
    """Fixed: the digest of one fact holding a lone surrogate, and its text."""
    before = store(EMPTY_STATE, "R", Relation(1))
    after = store(before, "R", before["R"].add(("\ud800",)))
    digest, facts = recorded_assertions(0, before, after, [("R", ("\ud800",))])
    assert digest == fact_hash("R", ("\ud800",))
    assert facts == '{"+":[["R",["\ud800"]]],"exact":true}'
