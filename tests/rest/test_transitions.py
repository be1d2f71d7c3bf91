"""State machines over REST (DESIGN §5, §9): an entity's transition links are the events
legal from its status, and following one as it says moves the entity to the status the
machine names."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.rest.calls import problem, purchase

pytestmark = pytest.mark.xdist_group("rest-transitions")

MACHINE = {"Placed": {"pay": "Paid", "cancel": "Cancelled"}, "Paid": {"ship": "Shipped"},
           "Cancelled": {"delete": "Archived"}, "Shipped": {}, "Archived": {}}


def transitions(entity: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The entity's links that are transitions (they say their method and event)."""
    return {key: link for key, link in entity["_links"].items() if "event" in link}


def test_the_links_of_a_new_entity_are_the_events_legal_from_its_initial_status(
        rest: httpx.Client) -> None:
    entity = purchase(rest, "tr-new")
    assert entity["status"] == "Placed"
    assert transitions(entity) == {
        event: {"href": "/purchases/tr-new/transition", "method": "POST", "event": event}
        for event in ("cancel", "pay")}


def follow(client: httpx.Client, link: dict[str, Any]) -> httpx.Response:
    return client.request(link["method"], link["href"], json={"event": link["event"]})


def test_following_each_transition_link_reaches_the_status_the_machine_names(
        rest: httpx.Client) -> None:
    for path in (["pay", "ship"], ["cancel", "delete"]):
        entity = purchase(rest, "tr-" + "-".join(path))
        for event in path:
            link = transitions(entity)[event]
            moved = follow(rest, link)
            assert moved.status_code == 200, moved.text
            expected = MACHINE[entity["status"]][event]
            entity = moved.json()["entity"]
            assert entity["status"] == expected
            assert set(transitions(entity)) == set(MACHINE[expected])
            assert rest.get(entity["_links"]["self"]["href"]).json()["status"] == expected


def test_an_event_not_legal_from_the_status_is_a_422_naming_the_legal_ones(
        rest: httpx.Client) -> None:
    purchase(rest, "tr-illegal")
    body = problem(rest.post("/purchases/tr-illegal/transition", json={"event": "ship"}), 422,
                   "rejected")
    [violation] = body["violations"]
    assert violation["kind"] == "transition"
    assert violation["detail"]["status"] == "Placed"
    assert sorted(violation["detail"]["legal"]) == ["cancel", "pay"]
    assert rest.get("/purchases/tr-illegal").json()["status"] == "Placed"


def test_an_event_the_machine_does_not_know_lists_those_it_does(rest: httpx.Client) -> None:
    purchase(rest, "tr-unknown")
    body = problem(rest.post("/purchases/tr-unknown/transition", json={"event": "teleport"}),
                   400, "unknown_event")
    assert {"pay", "ship", "cancel", "delete"} <= set(body["events"])


def test_a_transition_needs_an_event_and_an_entity(rest: httpx.Client) -> None:
    purchase(rest, "tr-body")
    problem(rest.post("/purchases/tr-body/transition", json={}), 400, "invalid_input")
    problem(rest.post("/purchases/tr-body/transition", json={"event": ["pay"]}), 400,
            "invalid_input")
    problem(rest.post("/purchases/no-such/transition", json={"event": "pay"}), 404,
            "unknown_entity")


def test_a_transition_route_is_posted_to(rest: httpx.Client) -> None:
    purchase(rest, "tr-put")
    answer = rest.put("/purchases/tr-put/transition", json={"event": "pay"})
    problem(answer, 405, "method_not_allowed")
    assert "POST" in {method.strip() for method in answer.headers["allow"].split(",")}
    assert rest.get("/purchases/tr-put").json()["status"] == "Placed"


def test_status_is_the_machine_s_alone(rest: httpx.Client) -> None:
    purchase(rest, "tr-status")
    problem(rest.patch("/purchases/tr-status", json={"status": "Shipped"}), 400,
            "derived_fact_type")
    problem(rest.post("/facts/Purchase_has_Status", json=["tr-status", "Shipped"]), 400,
            "derived_fact_type")
    assert rest.get("/purchases/tr-status").json()["status"] == "Placed"
