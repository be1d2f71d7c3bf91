"""Facts over REST (DESIGN §9): query with filters, assert, retract (bindings in the body
or the query), verify without committing, and explain a derived fact down to its rule."""

from __future__ import annotations

import httpx
import pytest

from tests.rest.calls import URSULA, book, problem, purchase

pytestmark = pytest.mark.xdist_group("rest-facts")

LIKES = "/facts/Customer_likes_Book"
RULE = ("* Author has Book Count iff Book Count is the count of Book"
        " where Book is written by that Author.")


def rows(client: httpx.Client, url: str, **params: str) -> list[dict[str, object]]:
    answer = client.get(url, params=params)
    assert answer.status_code == 200, answer.text
    found: list[dict[str, object]] = answer.json()["rows"]
    assert answer.json()["total"] == len(found)
    return found


def test_a_query_filters_by_role_plain_or_bracketed(rest: httpx.Client) -> None:
    book(rest, "q-1", "Queried Author")
    book(rest, "q-2", "Queried Author")
    plain = rows(rest, "/facts/Book_is_written_by_Author", Author="Queried Author")
    bracketed = rows(rest, "/facts/Book_is_written_by_Author",
                     **{"filter[Author]": "Queried Author"})
    both = rows(rest, "/facts/Book_is_written_by_Author", Author="Queried Author", Book="q-2")
    assert plain == [{"Book": f"q-{n}", "Author": "Queried Author", "derived": False}
                     for n in (1, 2)]
    assert bracketed == plain
    assert both == plain[1:]
    assert {"Book": "a/b", "Author": URSULA, "derived": False} in rows(
        rest, "/facts/Book_is_written_by_Author")


def test_an_asserted_fact_is_queried_and_navigated(rest: httpx.Client) -> None:
    book(rest, "fa-1")
    asserted = rest.post(LIKES, json={"Customer": "ann@example.com", "Book": "fa-1"})
    assert asserted.status_code == 201, asserted.text
    assert asserted.json()["rejected"] is False
    assert rows(rest, LIKES, Book="fa-1") == [
        {"Customer": "ann@example.com", "Book": "fa-1", "derived": False}]
    liked = rest.get("/customers/ann%40example.com/books").json()["items"]
    assert "fa-1" in [item["id"] for item in liked]


def test_bindings_may_be_a_list_in_role_order(rest: httpx.Client) -> None:
    book(rest, "fa-list")
    assert rest.post(LIKES, json=["ann@example.com", "fa-list"]).status_code == 201
    assert rows(rest, LIKES, Book="fa-list") == [
        {"Customer": "ann@example.com", "Book": "fa-list", "derived": False}]


def test_retract_takes_its_bindings_from_the_body_or_the_query(rest: httpx.Client) -> None:
    for entity in ("fr-body", "fr-query"):
        book(rest, entity)
        assert rest.post(LIKES, json=["ann@example.com", entity]).status_code == 201
    by_body = rest.request("DELETE", LIKES, json={"Customer": "ann@example.com",
                                                  "Book": "fr-body"})
    by_query = rest.delete(LIKES, params={"Customer": "ann@example.com", "Book": "fr-query"})
    assert by_body.status_code == 200 and by_body.json()["rejected"] is False
    assert by_query.status_code == 200 and by_query.json()["rejected"] is False
    assert rows(rest, LIKES, Book="fr-body") == rows(rest, LIKES, Book="fr-query") == []
    assert rows(rest, LIKES, Book="a/b") != []


def test_an_assert_that_breaks_a_mandatory_role_is_rejected(rest: httpx.Client) -> None:
    body = problem(rest.post(LIKES, json={"Customer": "ann@example.com", "Book": "no-title"}),
                   422, "rejected")
    readings = {violation["reading"] for violation in body["violations"]}
    assert "Each Book has exactly one Title." in readings
    assert rows(rest, LIKES, Book="no-title") == []


def test_a_derived_fact_type_is_not_asserted(rest: httpx.Client) -> None:
    problem(rest.post("/facts/Author_has_Book_Count", json=[URSULA, "9"]), 400,
            "derived_fact_type")


def test_verify_reports_without_committing(rest: httpx.Client) -> None:
    bad = rest.post("/facts/Book_has_Format/verify", json={"Book": "a/b", "Format": "vinyl"})
    good = rest.post("/facts/Book_has_Format/verify", json={"Book": "a/b", "Format": "ebook"})
    assert bad.status_code == good.status_code == 200
    assert bad.json()["would_reject"] is True
    assert [v["reading"] for v in bad.json()["violations"]] == [
        "The possible values of Format are 'hardcover', 'paperback', 'ebook'."]
    assert good.json() == {"violations": [], "would_reject": False}
    assert rows(rest, "/facts/Book_has_Format", Book="a/b") == []


def test_explain_walks_a_derived_fact_back_to_its_rule_and_facts(rest: httpx.Client) -> None:
    book(rest, "ex-1", "Explained Author")
    answer = rest.get("/facts/Author_has_Book_Count/explain",
                      params={"Author": "Explained Author", "Book Count": "1"})
    node = answer.json()
    assert answer.status_code == 200, answer.text
    assert node["derived"] is True and node["rule"]["reading"] == RULE
    assert node["reading"] == "Author 'Explained Author' has Book Count '1'."
    assert [(a["fact_type"], a["bindings"]) for a in node["antecedents"]] == [
        ("Book_is_written_by_Author", {"Book": "ex-1", "Author": "Explained Author"})]


def test_an_unknown_fact_type_is_404_on_every_fact_route(rest: httpx.Client) -> None:
    for answer in (rest.get("/facts/Book_has_Price"),
                   rest.post("/facts/Book_has_Price", json=["a/b", "1"]),
                   rest.post("/facts/Book_has_Price/verify", json=["a/b", "1"]),
                   rest.get("/facts/Book_has_Price/explain", params={"Book": "a/b"})):
        problem(answer, 404, "unknown_fact_type")


def test_a_deontic_violation_is_a_success_that_lists_it(rest: httpx.Client) -> None:
    purchase(rest, "deontic-fact")
    answer = rest.post("/facts/Purchase_has_Quantity", json=["deontic-fact", "11"])
    assert answer.status_code == 201 and answer.json()["rejected"] is False
    [violation] = answer.json()["violations"]
    assert violation["modality"] == "deontic"
    assert violation["reading"] == "It is forbidden that a Purchase has Quantity greater than 10."
    assert rows(rest, "/facts/Purchase_has_Quantity", Purchase="deontic-fact") == [
        {"Purchase": "deontic-fact", "Quantity": "11", "derived": False}]
