"""Keys over REST as over MCP (DESIGN §12): with keys configured, a request without one or
with a wrong one is 401; a key without the command's permission is 403 ``forbidden`` naming
both; the Signal Source is the key's, so a Domain Change's proposer is the caller."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.rest.calls import ADMIN, AGENT, API_KEY, bearer, created, problem, served

pytestmark = pytest.mark.xdist_group("rest-keys")

EDITIONS = "Edition is a value type.\nBook has Edition.\n  Each Book has at most one Edition."
SOURCE = "is proposed by Signal Source"


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """An API key holding read only."""
    with served(tmp_path_factory, "--api-key", API_KEY, "--api-key-permissions",
                "read") as client:
        yield client


def unauthorized(answer: httpx.Response) -> None:
    problem(answer, 401, "unauthorized")
    assert answer.headers["www-authenticate"].startswith("Bearer")


def test_without_a_key_or_with_a_wrong_one_every_route_is_401(keyed: httpx.Client) -> None:
    for headers in ({}, bearer("not-a-key"), {"Authorization": "Basic YWRtaW46YWRtaW4="},
                    {"Authorization": "Bearer"}, bearer(API_KEY + "x")):
        unauthorized(keyed.get("/", headers=headers))
        unauthorized(keyed.get("/books/a%2Fb", headers=headers))
        unauthorized(keyed.post("/genres", json={"id": "k-unauth"}, headers=headers))
        unauthorized(keyed.get("/no/such/path/at/all", headers=headers))
    problem(keyed.get("/genres/k-unauth", headers=AGENT), 404, "unknown_entity")


def test_the_api_key_and_the_admin_key_read_and_write(keyed: httpx.Client) -> None:
    for key, entity in ((AGENT, "k-agent"), (ADMIN, "k-admin")):
        assert keyed.get("/books", headers=key).status_code == 200
        created(keyed.post("/genres", json={"id": entity}, headers=key))
        assert keyed.get(f"/genres/{entity}", headers=key).status_code == 200


def test_a_read_only_key_reads_and_writes_nothing(reader: httpx.Client) -> None:
    assert reader.get("/books/a%2Fb", headers=AGENT).status_code == 200
    refused = {
        "create:Genre": reader.post("/genres", json={"id": "k-ro"}, headers=AGENT),
        "update:Book": reader.patch("/books/a%2Fb", json={"Format": "ebook"}, headers=AGENT),
        "delete:Genre": reader.delete("/genres/sf", headers=AGENT),
        "assert": reader.post("/facts/Customer_likes_Book", json=["ann@example.com", "a/b"],
                              headers=AGENT),
        "retract": reader.delete("/facts/Customer_likes_Book",
                                 params={"Customer": "ann@example.com"}, headers=AGENT),
        "propose": reader.post("/domain-changes", headers=AGENT, json={
            "target_domain": "bookshop", "readings": EDITIONS})}
    for command, answer in refused.items():
        body = problem(answer, 403, "forbidden")
        assert (body["permission"], body["command"]) == ("write", command), body
    assert reader.get("/genres/sf", headers=AGENT).status_code == 200
    assert "Format" not in reader.get("/books/a%2Fb", headers=AGENT).json()


def test_the_api_key_lacks_history_and_schema_the_admin_key_holds_them(
        keyed: httpx.Client) -> None:
    snapshot = problem(keyed.post("/snapshots", headers=AGENT), 403, "forbidden")
    compiled = problem(keyed.post("/readings", json={"readings": EDITIONS}, headers=AGENT),
                       403, "forbidden")
    assert (snapshot["permission"], snapshot["command"]) == ("history", "snapshot")
    assert (compiled["permission"], compiled["command"]) == ("schema", "compile")
    assert keyed.post("/snapshots", json={"label": "k"}, headers=ADMIN).status_code == 201


def propose(client: httpx.Client, key: dict[str, str]) -> dict[str, object]:
    return created(client.post("/domain-changes", headers=key, json={
        "target_domain": "bookshop", "readings": EDITIONS}))


def test_the_proposer_of_a_domain_change_is_the_caller(keyed: httpx.Client,
                                                       rest: httpx.Client) -> None:
    by_agent, by_admin, keyless = propose(keyed, AGENT), propose(keyed, ADMIN), propose(rest, {})
    assert (by_agent[SOURCE], by_admin[SOURCE], keyless[SOURCE]) == ("Agent", "Human", "Agent")
    read = keyed.get(f"/domain-changes/{by_agent['id']}", headers=ADMIN).json()
    assert read[SOURCE] == "Agent"


def test_a_caller_cannot_claim_another_source(keyed: httpx.Client) -> None:
    claimed = keyed.post("/domain-changes", headers=AGENT, json={
        "target_domain": "bookshop", "readings": EDITIONS, SOURCE: "Human"})
    change = propose(keyed, AGENT)
    url = f"/domain-changes/{change['id']}"
    edited = keyed.patch(url, json={SOURCE: "Human"}, headers=AGENT)
    problem(claimed, 400, "invalid_input")
    assert 400 <= edited.status_code < 500, edited.text
    assert keyed.get(url, headers=ADMIN).json()[SOURCE] == "Agent"
