"""Entities over REST (DESIGN §9): the entry point, collections with filters and pages,
create, read, update, delete, and the validators ETag, If-None-Match and If-Match."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.rest.calls import URSULA, book, created, href, problem, purchase

pytestmark = pytest.mark.xdist_group("rest-entities")

NOUNS = {"authors": "Author", "books": "Book", "customers": "Customer",
         "purchases": "Purchase", "genres": "Genre"}


def test_the_entry_point_links_every_collection_and_the_fixed_resources(
        rest: httpx.Client) -> None:
    answer = rest.get("/")
    links = answer.json()["_links"]
    assert answer.status_code == 200
    assert answer.headers["content-type"].split(";")[0] == "application/json"
    assert {key: links[key] for key in NOUNS} == {
        plural: {"href": f"/{plural}", "noun": noun} for plural, noun in NOUNS.items()}
    assert links["self"]["href"] == "/"
    assert links["schema"]["href"] == "/schema"
    assert links["openapi"]["href"] == "/openapi.json"
    assert links["snapshots"]["href"] == "/snapshots"
    assert links["search"] == {"href": "/search{?q}", "templated": True}
    assert links["mcp"] == {"href": "/mcp", "protocol": "mcp"}
    assert "domain-changes" not in links


def test_the_entry_point_names_the_sequence_and_digest_of_its_d(rest: httpx.Client) -> None:
    before = rest.get("/")
    assert before.json()["sequence"] == int(before.headers["arest-sequence"])
    assert re.fullmatch(r"v1:[0-9a-f]{64}", before.json()["digest"])
    book(rest, "b-entry-digest")
    after = rest.get("/").json()
    assert after["sequence"] == before.json()["sequence"] + 1
    assert after["digest"] != before.json()["digest"]
    assert rest.get("/").json() == after  # a read changes neither


def test_the_entry_point_with_all_links_the_metamodel_too(rest: httpx.Client) -> None:
    links = rest.get("/", params={"all": "true"}).json()["_links"]
    assert links["domain-changes"] == {"href": "/domain-changes", "noun": "Domain Change"}
    assert {key: links[key]["noun"] for key in NOUNS} == NOUNS


def test_a_create_answers_201_with_the_location_the_entity_is_read_at(
        rest: httpx.Client) -> None:
    answer = rest.post("/books", json={"id": "b-create", "Title": "Lavinia",
                                       "Author": URSULA, "Format": "paperback"})
    entity = created(answer)
    read = rest.get(answer.headers["location"])
    assert answer.headers["location"] == "/books/b-create"
    assert entity["noun"] == "Book" and entity["Format"] == "paperback"
    assert read.status_code == 200
    assert {k: read.json()[k] for k in ("id", "noun", "Title", "Author", "Format")} == {
        "id": "b-create", "noun": "Book", "Title": "Lavinia", "Author": URSULA,
        "Format": "paperback"}


def test_ids_holding_reserved_characters_are_percent_encoded_and_read_back(
        rest: httpx.Client) -> None:
    odd = ["bob smith@example.com", "a/b/c", "50% off?#x", "naïve & co"]
    for entity in odd:
        made = created(rest.post("/customers", json={"id": entity, "Name": "Odd"}))
        read = rest.get(made["_links"]["self"]["href"])
        assert made["_links"]["self"]["href"] == href("customers", entity)
        assert read.status_code == 200 and read.json()["id"] == entity


def test_a_dot_segment_id_is_an_entity_like_any_other(rest: httpx.Client) -> None:
    # `..` and `.` would be removed from a path by any client (RFC 3986 §5.2.4), so their
    # hrefs must encode them for "every href resolves" to hold.
    for entity in ("..", "."):
        made = created(rest.post("/genres", json={"id": entity}))
        read = rest.get(made["_links"]["self"]["href"])
        assert read.status_code == 200, (entity, made["_links"]["self"], read.text)
        assert (read.json()["noun"], read.json()["id"]) == ("Genre", entity)


def test_the_reference_scheme_value_is_an_alias_of_id(rest: httpx.Client) -> None:
    entity = created(rest.post("/customers", json={"Email": "eve@example.com", "Name": "Eve"}))
    assert entity["id"] == "eve@example.com"


def test_a_collection_lists_items_ordered_by_id_and_filters_by_field(
        rest: httpx.Client) -> None:
    author = "Filtered Author"
    for entity, form in (("f-2", "ebook"), ("f-1", "paperback"), ("f-3", "ebook")):
        book(rest, entity, author, Format=form)
    by_author = rest.get("/books", params={"Author": author})
    by_both = rest.get("/books", params={"Author": author, "Format": "ebook"})
    bracketed = rest.get("/books", params={"filter[Author]": author, "filter[Format]": "ebook"})
    assert by_author.status_code == 200
    assert [item["id"] for item in by_author.json()["items"]] == ["f-1", "f-2", "f-3"]
    assert by_author.json()["total"] == 3
    assert [item["id"] for item in by_both.json()["items"]] == ["f-2", "f-3"]
    assert bracketed.json()["items"] == by_both.json()["items"]
    assert by_author.json()["_links"]["self"]["href"].startswith("/books?")
    assert "next" not in by_author.json()["_links"]


def test_a_list_field_filter_matches_an_entity_that_holds_the_value(
        rest: httpx.Client) -> None:
    book(rest, "liked-1")
    created(rest.post("/customers", json={"id": "liker@example.com", "Name": "L",
                                          "Book": ["liked-1", "a/b"]}))
    found = rest.get("/customers", params={"Book": "liked-1"}).json()
    assert [item["id"] for item in found["items"]] == ["liker@example.com"]


def test_a_status_filter_lists_entities_in_terminal_statuses_too(rest: httpx.Client) -> None:
    purchase(rest, "st-shipped")
    for event in ("pay", "ship"):
        assert rest.post("/purchases/st-shipped/transition",
                         json={"event": event}).status_code == 200
    purchase(rest, "st-placed")
    listed = {item["id"] for item in rest.get("/purchases").json()["items"]}
    shipped = rest.get("/purchases", params={"status": "Shipped"}).json()
    placed = rest.get("/purchases", params={"filter[status]": "Placed"}).json()
    assert "st-placed" in listed and "st-shipped" not in listed
    assert [item["id"] for item in shipped["items"]] == ["st-shipped"]
    assert all(item["status"] == "Placed" for item in placed["items"])
    assert "st-placed" in {item["id"] for item in placed["items"]}


def pages(client: httpx.Client, url: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Every page of a collection, following ``next`` from the first."""
    answer = client.get(url, params=params)
    found = [answer.json()]
    while "next" in found[-1]["_links"]:
        following = found[-1]["_links"]["next"]["href"]
        assert "cursor=" in following
        answer = client.get(following)
        assert answer.status_code == 200, answer.text
        found.append(answer.json())
    return found


def test_next_links_walk_a_collection_once_each_filter_kept(rest: httpx.Client) -> None:
    ids = [f"pg-{n:02}" for n in range(51)]
    for entity in ids:
        created(rest.post("/genres", json={"id": entity, "parent Genre": "paged"}))
    created(rest.post("/genres", json={"id": "pg-elsewhere", "parent Genre": "other"}))
    first = pages(rest, "/genres", {"parent Genre": "paged"})
    walked = pages(rest, "/genres", {"filter[parent Genre]": "paged", "limit": "20"})
    assert [len(page["items"]) for page in first] == [50, 1]
    assert [len(page["items"]) for page in walked] == [20, 20, 11]
    for found in (first, walked):
        assert [item["id"] for page in found for item in page["items"]] == ids
        assert {page["total"] for page in found} == {51}


def test_a_next_link_is_an_opaque_cursor_not_an_id(rest: httpx.Client) -> None:
    for entity in ("cur-1", "cur-2"):
        created(rest.post("/genres", json={"id": entity, "parent Genre": "cursor"}))
    page = rest.get("/genres", params={"parent Genre": "cursor", "limit": "1"}).json()
    query = parse_qs(urlsplit(page["_links"]["next"]["href"]).query)
    assert query["cursor"] != ["cur-1"]


def test_a_limit_outside_its_range_is_refused(rest: httpx.Client) -> None:
    for limit in ("-1", "ten", "1001"):
        assert rest.get("/genres", params={"limit": limit}).status_code == 400


def test_read_gives_a_strong_etag_and_if_none_match_gives_304(rest: httpx.Client) -> None:
    book(rest, "etag-1")
    first = rest.get("/books/etag-1")
    again = rest.get("/books/etag-1")
    tag = first.headers["etag"]
    unchanged = rest.get("/books/etag-1", headers={"If-None-Match": tag})
    assert tag.startswith('"') and tag.endswith('"') and again.headers["etag"] == tag
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert rest.patch("/books/etag-1", json={"Format": "ebook"}).status_code == 200
    changed = rest.get("/books/etag-1", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag
    assert changed.json()["Format"] == "ebook"


def test_if_match_lets_the_current_version_through_and_refuses_a_stale_one(
        rest: httpx.Client) -> None:
    book(rest, "ifm-1")
    stale = rest.get("/books/ifm-1").headers["etag"]
    assert rest.patch("/books/ifm-1", headers={"If-Match": stale},
                      json={"Format": "hardcover"}).status_code == 200
    refused = [rest.patch("/books/ifm-1", headers={"If-Match": stale},
                          json={"Format": "ebook"}),
               rest.delete("/books/ifm-1", headers={"If-Match": stale})]
    for answer in refused:
        problem(answer, 412, "precondition_failed")
    after = rest.get("/books/ifm-1")
    assert after.status_code == 200 and after.json()["Format"] == "hardcover"


def test_if_match_guards_a_transition(rest: httpx.Client) -> None:
    purchase(rest, "ifm-p")
    stale = rest.get("/purchases/ifm-p").headers["etag"]
    assert rest.patch("/purchases/ifm-p", json={"Quantity": "2"}).status_code == 200
    refused = rest.post("/purchases/ifm-p/transition", headers={"If-Match": stale},
                        json={"event": "pay"})
    problem(refused, 412, "precondition_failed")
    assert rest.get("/purchases/ifm-p").json()["status"] == "Placed"
    current = rest.get("/purchases/ifm-p").headers["etag"]
    paid = rest.post("/purchases/ifm-p/transition", headers={"If-Match": current},
                     json={"event": "pay"})
    assert paid.status_code == 200 and paid.json()["entity"]["status"] == "Paid"


def test_update_replaces_a_single_value_and_adds_to_a_list(rest: httpx.Client) -> None:
    book(rest, "upd-1", Format="ebook")
    book(rest, "upd-2")
    created(rest.post("/customers", json={"id": "upd@example.com", "Name": "U",
                                          "Book": ["upd-1"]}))
    renamed = rest.patch("/customers/upd%40example.com", json={"Name": "V", "Book": ["upd-2"]})
    cleared = rest.patch("/books/upd-1", json={"Format": None})
    assert renamed.status_code == 200 and renamed.json()["rejected"] is False
    assert renamed.json()["entity"]["Name"] == "V"
    assert sorted(renamed.json()["entity"]["Book"]) == ["upd-1", "upd-2"]
    assert cleared.status_code == 200 and "Format" not in rest.get("/books/upd-1").json()


def test_an_update_whose_body_names_another_id_is_refused(rest: httpx.Client) -> None:
    book(rest, "upd-own")
    problem(rest.patch("/books/upd-own", json={"id": "a/b", "Format": "ebook"}), 400,
            "invalid_input")
    assert rest.get("/books/a%2Fb").json().get("Format") is None
    same = rest.patch("/books/upd-own", json={"id": "upd-own", "Format": "ebook"})
    assert same.status_code == 200


def test_creating_an_existing_id_is_a_conflict(rest: httpx.Client) -> None:
    body = problem(rest.post("/books", json={"id": "a/b", "Title": "Again", "Author": URSULA}),
                   409, "entity_exists")
    assert rest.get("/books/a%2Fb").json()["Title"] == "The Dispossessed", body


def test_delete_of_a_noun_without_a_machine_retracts_the_entity(rest: httpx.Client) -> None:
    created(rest.post("/genres", json={"id": "del-g"}))
    deleted = rest.delete("/genres/del-g")
    assert deleted.status_code == 200 and deleted.json()["rejected"] is False
    problem(rest.get("/genres/del-g"), 404, "unknown_entity")


def test_delete_fires_the_machine_s_delete_event_where_it_is_legal(rest: httpx.Client) -> None:
    purchase(rest, "del-p")
    early = problem(rest.delete("/purchases/del-p"), 409, "no_delete_transition")
    assert sorted(early["events"]) == ["cancel", "pay"]
    assert rest.post("/purchases/del-p/transition", json={"event": "cancel"}).status_code == 200
    deleted = rest.delete("/purchases/del-p")
    assert deleted.status_code == 200 and deleted.json()["rejected"] is False
    archived = rest.get("/purchases", params={"status": "Archived"}).json()
    assert "del-p" in {item["id"] for item in archived["items"]}
    assert "del-p" not in {item["id"] for item in rest.get("/purchases").json()["items"]}


def test_a_rejected_create_commits_nothing(rest: httpx.Client) -> None:
    body = problem(rest.post("/books", json={"id": "rej-1", "Title": "T", "Author": URSULA,
                                             "Format": "vinyl"}), 422, "rejected")
    assert [v["reading"] for v in body["violations"]] == [
        "The possible values of Format are 'hardcover', 'paperback', 'ebook'."]
    problem(rest.get("/books/rej-1"), 404, "unknown_entity")


def test_an_etag_changes_when_a_child_is_added(rest: httpx.Client) -> None:
    book(rest, "etag-child-1", "Tagged Author")
    url = href("authors", "Tagged Author")
    tag = rest.get(url).headers["etag"]
    book(rest, "etag-child-2", "Tagged Author")
    answer = rest.get(url, headers={"If-None-Match": tag})
    assert answer.status_code == 200 and answer.headers["etag"] != tag
    assert sorted(answer.json()["Book"]) == ["etag-child-1", "etag-child-2"]


def test_a_rejected_update_changes_nothing(rest: httpx.Client) -> None:
    book(rest, "upd-rej", Format="ebook")
    tag = rest.get("/books/upd-rej").headers["etag"]
    body = problem(rest.patch("/books/upd-rej", json={"Format": "vinyl"}), 422, "rejected")
    assert body["violations"][0]["kind"] == "VC"
    assert rest.get("/books/upd-rej", headers={"If-None-Match": tag}).status_code == 304


def test_a_cursor_no_next_link_gave_is_refused(rest: httpx.Client) -> None:
    problem(rest.get("/genres", params={"cursor": "not a cursor!"}), 400, "invalid_input")
