"""search and fetch, the ChatGPT pair: ranking, the cap, urls, which entities are found, and
ids that round-trip into fetch."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.system.search import MAX_RESULTS, bm25, document

TICKETS = """\
Ticket(.id) is an entity type.
Person(.Name) is an entity type.
Employee is a subtype of Person.
Title is a value type.
Ticket has Title.
  Each Ticket has at most one Title.
Ticket is assigned to Person.
Ticket is urgent.
App belongs to Person.
State Machine Definition 'Ticket' is for Noun 'Ticket'.
Status 'Open' is initial in State Machine Definition 'Ticket'.
Status 'Closed' is defined in State Machine Definition 'Ticket'.
Transition 'delete' is defined in State Machine Definition 'Ticket'.
Transition 'delete' is from Status 'Open'.
Transition 'delete' is to Status 'Closed'.
"""
BASE = arest.compile(TICKETS)


def created(D: Any, noun: str, fields: dict[str, Any]) -> Any:
    out, after = arest.apply(D, f"create:{noun}", fields)
    assert "error" not in out and not out["rejected"], out
    return after


def tickets(*entries: tuple[str, str]) -> Any:
    D = BASE
    for entity, title in entries:
        D = created(D, "Ticket", {"id": entity, "Title": title})
    return D


def search(D: Any, query: Any) -> dict[str, Any]:
    out, after = arest.apply(D, "search", query if query is None else {"query": query})
    assert after is D
    return out


def ids(D: Any, query: str) -> list[str]:
    return [result["id"] for result in search(D, query)["results"]]


def test_bm25_prefers_more_occurrences_and_an_exact_id_comes_first() -> None:
    D = tickets(("bug", "the app crashes when saving a large file at startup"),
                ("t2", "bug bug bug report"), ("t3", "bug report from a user today"),
                ("t4", "unrelated"))
    # BM25 alone ranks t2 (three occurrences, a short document) above t3 and above the
    # ticket whose id is the query; the exact id still comes first.
    assert ids(D, "bug") == ["Ticket:bug", "Ticket:t2", "Ticket:t3"]
    # Not the id itself: BM25 alone, case-insensitively.
    assert ids(D, "BUG Report") == ["Ticket:t2", "Ticket:t3", "Ticket:bug"]
    assert ids(D, "crashes") == ["Ticket:bug"]
    assert ids(D, "nothing-like-it") == []  # a zero score is left out


def test_ties_are_broken_by_noun_then_id_and_results_stop_at_fifty() -> None:
    D = tickets(*((f"w-{n:02}", "widget") for n in reversed(range(60))))
    found = ids(D, "widget")
    assert len(found) == MAX_RESULTS == 50
    assert found == [f"Ticket:w-{n:02}" for n in range(50)]


def test_results_carry_title_and_the_url_of_the_entity_representation() -> None:
    D = created(tickets(("a b/c", "printer jam")), "Person", {"Name": "Ann Lee"})
    D = created(D, "Ticket", {"id": "t9", "Title": "jam again", "Person": "Ann Lee"})
    results = search(D, "jam")["results"]
    assert [r["title"] for r in results] == ["Ticket a b/c", "Ticket t9"]
    for result in results:
        noun, _, entity = result["id"].partition(":")
        shown = arest.apply(D, f"read:{noun}", entity)[0]
        assert result["url"] == shown["_links"]["self"]["href"]
    assert results[0]["url"] == "/tickets/a%20b%2Fc"


def test_field_values_flags_and_status_are_searched_but_not_the_metamodel() -> None:
    D = created(BASE, "Person", {"Name": "ann"})
    D = created(D, "Ticket", {"id": "t1", "Person": "ann", "is urgent": True})
    assert ids(D, "ann") == ["Person:ann", "Ticket:t1"]
    assert ids(D, "urgent") == ["Ticket:t1"]
    # Noun 'Ticket', State Machine Definition 'Ticket' and Status 'Open' describe the schema.
    assert ids(D, "ticket open") == ["Ticket:t1"]


def test_deleted_entities_are_not_found_and_a_subtype_entity_is_found_once() -> None:
    D = tickets(("t1", "lost badge"))
    D = arest.apply(D, "delete:Ticket", "t1")[1]
    assert ids(D, "badge") == []
    assert json.loads(arest.apply(D, "fetch", {"id": "Ticket:t1"})[0]["text"])["status"] \
        == "Closed"
    D = created(D, "Employee", {"Name": "bo"})
    D = created(D, "Person", {"Name": "bob"})
    assert sorted(ids(D, "bo bob")) == ["Employee:bo", "Person:bob"]


def test_a_metamodel_noun_the_tenant_uses_is_searched() -> None:
    D = created(created(BASE, "Person", {"Name": "ann"}), "App", {"Slug": "tutor",
                                                                   "Person": "ann"})
    assert ids(D, "tutor") == ["App:tutor", "Person:ann"]  # ann's App field names it too


def test_an_empty_blank_or_wordless_query_is_invalid() -> None:
    for request in ({"query": ""}, {"query": "  \n"}, {"query": "--!"}, {"query": 3}, {}):
        out = arest.apply(BASE, "search", request)[0]
        assert out["error"]["code"] == "invalid_input" and out["error"]["path"] == "$.query"
    for request in (None, "bug", {"query": "bug", "limit": 3}):
        assert arest.apply(BASE, "search", request)[0]["error"]["code"] == "invalid_input"


def test_fetch_round_trips_a_search_id() -> None:
    D = created(BASE, "Person", {"Name": "ann"})
    D = created(D, "Ticket", {"id": "t1", "Title": "printer jam", "Person": "ann"})
    for result in search(D, "ann")["results"]:
        out, after = arest.apply(D, "fetch", {"id": result["id"]})
        assert after is D
        noun, _, entity = result["id"].partition(":")
        assert out["id"] == result["id"] and out["title"] == result["title"]
        assert out["url"] == result["url"]
        assert json.loads(out["text"]) == arest.apply(D, f"read:{noun}", entity)[0]
        assert out["metadata"]["noun"] == noun and out["metadata"]["entityId"] == entity
    assert arest.apply(D, "fetch", {"id": "Ticket:t1"})[0]["metadata"]["status"] == "Open"
    assert arest.apply(D, "fetch", "Person:ann")[0]["metadata"] == {
        "noun": "Person", "entityId": "ann", "status": None}  # no machine: status null


def test_fetch_errors() -> None:
    D = tickets(("t1", "x"))
    for given_id in ("Ticket", ":t1", "Ticket:", 7, None):
        out = arest.apply(D, "fetch", {"id": given_id})[0]
        assert out["error"]["code"] == "invalid_input" and out["error"]["path"] == "$.id"
        assert "Noun:entityId" in out["error"]["expected"]
    out = arest.apply(D, "fetch", {"id": "Tciket:t1"})[0]
    assert out["error"]["code"] == "unknown_noun" and "Ticket" in out["error"]["candidates"]
    assert arest.apply(D, "fetch", {"id": "Ticket:t2"})[0]["error"]["code"] == "unknown_entity"
    assert arest.apply(D, "fetch", {"id": "Ticket:t1", "x": 1})[0]["error"]["path"] == "$"


WORDS = ["alpha", "beta", "gamma", "delta", "omega"]


@settings(max_examples=25)
@given(
    st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5), max_size=60),
    st.lists(st.sampled_from([*WORDS, "t1", "ticket"]), min_size=1, max_size=3),
)
def test_results_are_capped_ranked_and_fetchable(titles: list[list[str]],
                                                 query: list[str]) -> None:
    D = tickets(*((f"t{n}", " ".join(words)) for n, words in enumerate(titles)))
    text = " ".join(query)
    results = search(D, text)["results"]
    assert len(results) <= MAX_RESULTS
    assert len({r["id"] for r in results}) == len(results)
    # Recompute every score from the fetched documents: the order is the exact id first, then
    # BM25 best first, then id; and every entity with a positive score is found (up to 50).
    items = arest.apply(D, "list:Ticket")[0]["items"]
    documents = {f"Ticket:{item['id']}": document(item) for item in items}
    terms = set(" ".join(query).split())
    mean = sum(map(len, documents.values())) / len(documents) if documents else 1.0

    def score(doc: list[str]) -> float:
        return sum(bm25(doc.count(t), sum(t in d for d in documents.values()), len(documents),
                        len(doc), mean) for t in sorted(terms))

    for result in results:
        fetched = arest.apply(D, "fetch", {"id": result["id"]})[0]
        assert document(json.loads(fetched["text"])) == documents[result["id"]]
    ranked = sorted((key for key, doc in documents.items() if score(doc) > 0),
                    key=lambda key: (key != f"Ticket:{text}", -score(documents[key]),
                                     key))
    assert [r["id"] for r in results] == ranked[:MAX_RESULTS]
