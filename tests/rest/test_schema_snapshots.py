"""The schema, snapshots, readings and Domain Changes over REST (DESIGN §9, §12): the schema
is read by any key; snapshots and rollbacks need `history`, compiling readings and applying a
Domain Change need `schema` (the admin key holds both); a Domain Change is a resource whose
review, approve and apply are its transition links."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.rest.calls import ADMIN, AGENT, created, problem

pytestmark = pytest.mark.xdist_group("rest-schema-snapshots")

SHELVES = ("Shelf(.Shelf Code) is an entity type.\nShelf Code is a value type.\n"
           "Noun 'Shelf' has Plural 'shelves'.")
CRATES = "Crate(.Crate Code) is an entity type.\nCrate Code is a value type."


def test_the_schema_shows_the_tenant_s_nouns_and_with_all_the_metamodel_s(
        keyed: httpx.Client) -> None:
    own = keyed.get("/schema", headers=AGENT)
    every = keyed.get("/schema", params={"all": "true"}, headers=AGENT)
    names = {noun["name"] for noun in own.json()["nouns"]}
    assert own.status_code == every.status_code == 200
    assert {"Author", "Book", "Customer", "Purchase", "Genre"} <= names
    assert "Domain Change" not in names
    assert "Domain Change" in {noun["name"] for noun in every.json()["nouns"]}


def test_the_schema_of_one_noun_holds_its_constraints_as_written(keyed: httpx.Client) -> None:
    schema = keyed.get("/schema/Book", headers=AGENT).json()
    value = keyed.get("/schema/Format", headers=AGENT).json()
    assert [noun["name"] for noun in schema["nouns"]] == ["Book"]
    assert "Each Book has exactly one Title." in {
        constraint["reading"] for constraint in schema["constraints"]}
    assert "The possible values of Format are 'hardcover', 'paperback', 'ebook'." in {
        constraint["reading"] for constraint in value["constraints"]}
    problem(keyed.get("/schema/Bok", headers=AGENT), 404, "unknown_noun")


def test_a_rollback_returns_to_the_snapshot_and_keeps_every_snapshot(
        keyed: httpx.Client) -> None:
    taken = keyed.post("/snapshots", json={"label": "before-shelf"}, headers=ADMIN)
    created(keyed.post("/genres", json={"id": "after-snapshot"}, headers=ADMIN))
    auto = keyed.post("/snapshots", headers=ADMIN)
    rolled = keyed.post("/snapshots/before-shelf/rollback", headers=ADMIN)
    listed = keyed.get("/snapshots", headers=ADMIN)
    assert taken.status_code == 201 and taken.json() == {"id": "before-shelf"}
    assert auto.status_code == 201 and auto.json()["id"].startswith("snap-")
    assert rolled.status_code == 200
    assert rolled.json() == {"id": "before-shelf", "rolled_back": True}
    problem(keyed.get("/genres/after-snapshot", headers=ADMIN), 404, "unknown_entity")
    assert {"before-shelf", auto.json()["id"]} <= {
        snapshot["id"] for snapshot in listed.json()["snapshots"]}


def test_an_unknown_snapshot_is_404(keyed: httpx.Client) -> None:
    problem(keyed.post("/snapshots/never-taken/rollback", headers=ADMIN), 404,
            "unknown_snapshot")


def test_snapshots_and_readings_need_their_permissions(keyed: httpx.Client) -> None:
    refused = {
        "snapshot": keyed.post("/snapshots", json={"label": "agent"}, headers=AGENT),
        "rollback": keyed.post("/snapshots/before-shelf/rollback", headers=AGENT),
        "compile": keyed.post("/readings", json={"readings": CRATES}, headers=AGENT)}
    for command, answer in refused.items():
        body = problem(answer, 403, "forbidden")
        assert (body["permission"], body["command"]) == (
            "schema" if command == "compile" else "history", command)
    assert "crates" not in keyed.get("/", headers=AGENT).json()["_links"]


def test_readings_compiled_by_the_admin_are_served_at_once(keyed: httpx.Client) -> None:
    compiled = keyed.post("/readings", json={"readings": SHELVES}, headers=ADMIN)
    links = keyed.get("/", headers=AGENT).json()["_links"]
    shelf = keyed.post("/shelves", json={"id": "top"}, headers=AGENT)
    assert compiled.status_code == 200 and compiled.json()["rejected"] is False
    assert links["shelves"] == {"href": "/shelves", "noun": "Shelf"}
    assert created(shelf)["_links"]["self"]["href"] == "/shelves/top"


def test_readings_that_do_not_parse_are_400_with_diagnostics(keyed: httpx.Client) -> None:
    body = problem(keyed.post("/readings", json={"readings": "Each Shelf holds Shelf Code"},
                              headers=ADMIN), 400, "reading_error")
    assert body["diagnostics"] and {"line", "column", "message"} <= set(body["diagnostics"][0])


def transitions(entity: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {key: link for key, link in entity["_links"].items() if "event" in link}


def move(client: httpx.Client, entity: dict[str, Any], event: str, key: dict[str, str]
         ) -> httpx.Response:
    link = transitions(entity)[event]
    return client.request(link["method"], link["href"], json={"event": event}, headers=key)


def test_a_domain_change_is_proposed_reviewed_approved_and_applied_by_its_links(
        keyed: httpx.Client) -> None:
    proposed = keyed.post("/domain-changes", headers=AGENT, json={
        "target_domain": "bookshop", "rationale": "books have editions",
        "readings": "Edition is a value type.\nBook has Edition.\n"
                    "  Each Book has at most one Edition."})
    change = created(proposed)
    assert proposed.headers["location"] == "/domain-changes/" + change["id"]
    assert change["noun"] == "Domain Change" and "review" in transitions(change)
    listed = keyed.get("/domain-changes", headers=AGENT).json()["items"]
    assert change["id"] in [item["id"] for item in listed]
    for event in ("review", "approve"):
        moved = move(keyed, change, event, AGENT)
        assert moved.status_code == 200, moved.text
        change = moved.json()["entity"]
    assert change["status"] == "Approved" and "apply" in transitions(change)
    refused = problem(move(keyed, change, "apply", AGENT), 403, "forbidden")
    assert refused["permission"] == "schema"
    applied = move(keyed, change, "apply", ADMIN)
    assert applied.status_code == 200 and applied.json()["entity"]["status"] == "Applied"
    edited = keyed.patch("/books/a%2Fb", json={"Edition": "2nd"}, headers=AGENT)
    assert edited.status_code == 200 and edited.json()["entity"]["Edition"] == "2nd"
