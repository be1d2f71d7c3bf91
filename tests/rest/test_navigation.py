"""Navigation links over REST (Theorem 4, DESIGN §5, §9): a parent link is the related
entity's url; children and peers links answer collections of the entities they name, paged
like any collection; related links answer the facts about the entity."""

from __future__ import annotations

import httpx
import pytest

from tests.rest.calls import URSULA, book, href, problem

pytestmark = pytest.mark.xdist_group("rest-navigation")

BOOK_AB = "/books/a%2Fb"
ANN = "/customers/ann%40example.com"


def ids(collection: dict[str, object]) -> list[str]:
    items = collection["items"]
    assert isinstance(items, list)
    return [item["id"] for item in items]


def test_a_parent_link_is_the_parent_entity_s_url(rest: httpx.Client) -> None:
    links = rest.get(BOOK_AB).json()["_links"]
    author = rest.get(links["author"]["href"])
    genre = rest.get(links["genre"]["href"])
    assert links["author"] == {"href": href("authors", URSULA), "rel": "parent"}
    assert (author.status_code, author.json()["noun"], author.json()["id"]) == (
        200, "Author", URSULA)
    assert (genre.json()["noun"], genre.json()["id"]) == ("Genre", "sf")


def test_a_children_link_lists_the_children_each_linking_back(rest: httpx.Client) -> None:
    author = "Navigated Author"
    for entity in ("nav-2", "nav/1", "nav 3"):
        book(rest, entity, author)
    parent = rest.get(href("authors", author)).json()
    link = parent["_links"]["books"]
    children = rest.get(link["href"])
    assert link == {"href": href("authors", author, "books"), "rel": "children"}
    assert children.status_code == 200
    assert ids(children.json()) == ["nav 3", "nav-2", "nav/1"]
    assert children.json()["total"] == 3
    for item in children.json()["items"]:
        assert item["_links"]["author"]["href"] == parent["_links"]["self"]["href"]


def test_a_children_collection_pages_with_next_links(rest: httpx.Client) -> None:
    author = "Paged Author"
    for n in range(5):
        book(rest, f"navp-{n}", author)
    url = href("authors", author, "books")
    seen: list[str] = []
    page = rest.get(url, params={"limit": "2"}).json()
    sizes = [len(page["items"])]
    seen += ids(page)
    while "next" in page["_links"]:
        page = rest.get(page["_links"]["next"]["href"]).json()
        sizes.append(len(page["items"]))
        seen += ids(page)
        assert page["total"] == 5
    assert sizes == [2, 2, 1]
    assert seen == [f"navp-{n}" for n in range(5)]


def test_peers_links_list_the_other_side_of_a_many_to_many_fact_type(
        rest: httpx.Client) -> None:
    customer = rest.get(ANN).json()
    book_ab = rest.get(BOOK_AB).json()
    liked = rest.get(customer["_links"]["books"]["href"])
    likers = rest.get(book_ab["_links"]["customers"]["href"])
    assert customer["_links"]["books"] == {"href": ANN + "/books", "rel": "peers"}
    assert book_ab["_links"]["customers"] == {"href": BOOK_AB + "/customers", "rel": "peers"}
    assert "a/b" in ids(liked.json()) and "ann@example.com" in ids(likers.json())
    assert liked.json()["_links"]["self"]["href"].startswith(ANN + "/books")


def test_a_related_link_answers_the_facts_about_the_entity(rest: httpx.Client) -> None:
    link = rest.get(BOOK_AB).json()["_links"]["Book_is_written_by_Author"]
    related = rest.get(link["href"])
    assert link == {"href": BOOK_AB + "/Book_is_written_by_Author", "rel": "related"}
    assert related.status_code == 200
    assert related.json() == {"rows": [{"Book": "a/b", "Author": URSULA, "derived": False}],
                              "total": 1}


def test_a_derived_fact_is_related_too(rest: httpx.Client) -> None:
    author = "Counted Author"
    book(rest, "count-1", author)
    book(rest, "count-2", author)
    rows = rest.get(href("authors", author, "Author_has_Book_Count")).json()["rows"]
    assert rows == [{"Author": author, "Book Count": "2", "derived": True}]


def test_a_ring_gives_a_parent_link_and_a_children_link_keyed_by_its_reading(
        rest: httpx.Client) -> None:
    sf = rest.get("/genres/sf").json()
    fiction = rest.get(sf["_links"]["parent-genre"]["href"]).json()
    below = rest.get(fiction["_links"]["genre-has-parent"]["href"]).json()
    assert sf["_links"]["parent-genre"] == {"href": "/genres/fiction", "rel": "parent"}
    assert fiction["id"] == "fiction" and "sf" in ids(below)


def test_a_link_the_noun_does_not_have_or_an_unknown_entity_is_404(rest: httpx.Client) -> None:
    unknown_link = problem(rest.get(BOOK_AB + "/reviews"), 404, "unknown_link")
    problem(rest.get("/books/no-such-book/customers"), 404, "unknown_entity")
    unknown_plural = rest.get("/volumes/a%2Fb/customers")
    assert unknown_plural.status_code == 404
    assert unknown_plural.json()["code"] in ("unknown_noun", "unknown_path")
    assert "customers" in unknown_link["candidates"]
