"""The ChatGPT pair over REST (DESIGN §4, §9): search answers entities with the urls REST
serves them at; fetch answers one entity by ``Noun:id``."""

from __future__ import annotations

import json
from urllib.parse import quote

import httpx
import pytest

from tests.rest.calls import URSULA, book, problem

pytestmark = pytest.mark.xdist_group("rest-search-fetch")


def test_search_finds_entities_whose_urls_read_them(rest: httpx.Client) -> None:
    book(rest, "s/1", Format="ebook")
    answer = rest.get("/search", params={"q": "Dispossessed"})
    results = answer.json()["results"]
    read = rest.get(results[0]["url"])
    assert answer.status_code == 200
    assert results[0] == {"id": "Book:a/b", "title": "Book a/b", "url": "/books/a%2Fb"}
    assert (read.status_code, read.json()["id"]) == (200, "a/b")


def test_search_by_an_id_holding_reserved_characters(rest: httpx.Client) -> None:
    results = rest.get("/search", params={"q": URSULA}).json()["results"]
    assert results[0]["id"] == f"Author:{URSULA}"
    assert rest.get(results[0]["url"]).json()["id"] == URSULA


def test_search_needs_its_query(rest: httpx.Client) -> None:
    assert rest.get("/search").status_code == 400
    assert rest.get("/search", params={"q": "no-such-words-anywhere"}).json() == {
        "results": []}


def test_fetch_answers_the_entity_by_noun_and_id(rest: httpx.Client) -> None:
    answer = rest.get("/fetch/" + quote("Book:a/b", safe=""))
    fetched = answer.json()
    assert answer.status_code == 200
    assert (fetched["id"], fetched["url"]) == ("Book:a/b", "/books/a%2Fb")
    assert fetched["metadata"] == {"noun": "Book", "entityId": "a/b", "status": None}
    assert json.loads(fetched["text"])["Title"] == "The Dispossessed"


def test_fetch_of_what_is_not_there_is_404(rest: httpx.Client) -> None:
    problem(rest.get("/fetch/" + quote("Book:nope", safe="")), 404, "unknown_entity")
    problem(rest.get("/fetch/Bok:a"), 404, "unknown_noun")
