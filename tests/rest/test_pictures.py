"""The pictures over REST (docs/pictures.md): ``/schema.svg``, ``/<plural>/<id>/machine.svg``
and ``/facts/<fact type>/explain.svg``, as ``image/svg+xml`` with an ``ETag`` (304 for a
matching ``If-None-Match``), linked from the JSON, their errors problem documents."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from tests.pictures.svgs import of_class, parsed, texts, title
from tests.rest.calls import AGENT, book, problem, purchase

pytestmark = pytest.mark.xdist_group("rest-pictures")

SVG = "image/svg+xml"


def picture(answer: httpx.Response) -> str:
    """The SVG text of a 200 picture answer, checked: media type, ETag, well-formed SVG."""
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].split(";")[0] == SVG
    assert answer.headers["etag"].startswith('"')
    parsed(answer.text)
    return answer.text


def highlighted(svg: str) -> list[str]:
    return [title(g) for g in of_class(parsed(svg), "current")]


def test_an_entity_links_its_machine_highlighting_its_status(rest: httpx.Client) -> None:
    entity = purchase(rest, "pic/1")
    link = entity["_links"]["machine.svg"]
    assert link == {"href": "/purchases/pic%2F1/machine.svg", "type": SVG}
    placed = picture(rest.get(link["href"]))
    assert highlighted(placed) == ["Placed (current)"]
    assert {title(g).removesuffix(" (current)") for g in of_class(parsed(placed), "status")} \
        == {"Placed", "Paid", "Shipped", "Cancelled", "Archived"}
    moved = rest.post("/purchases/pic%2F1/transition", json={"event": "pay"})
    assert moved.status_code == 200, moved.text
    paid = picture(rest.get(link["href"]))
    assert highlighted(paid) == ["Paid (current)"]


def test_the_etag_gives_304_until_the_status_changes(rest: httpx.Client) -> None:
    purchase(rest, "pic-2")
    first = rest.get("/purchases/pic-2/machine.svg")
    tag = first.headers["etag"]
    again = rest.get("/purchases/pic-2/machine.svg", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.headers["etag"] == tag and again.content == b""
    assert rest.get("/purchases/pic-2/machine.svg").text == first.text
    rest.post("/purchases/pic-2/transition", json={"event": "cancel"})
    changed = rest.get("/purchases/pic-2/machine.svg", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag


def test_a_noun_without_a_machine_or_an_unknown_entity_is_404(rest: httpx.Client) -> None:
    book(rest, "pic-book")
    assert "machine.svg" not in rest.get("/books/pic-book").json()["_links"]
    problem(rest.get("/books/pic-book/machine.svg"), 404, "unknown_path")
    problem(rest.get("/purchases/nobody/machine.svg"), 404, "unknown_entity")
    problem(rest.get("/nothings/x/machine.svg"), 404, "unknown_noun")
    problem(rest.get("/purchases/pic-2/machine.svg", params={"x": "1"}), 400,
            "unknown_parameter")
    problem(rest.post("/purchases/pic-2/machine.svg"), 405, "method_not_allowed")


def test_the_schema_picture_shows_every_table_and_the_entry_point_links_it(
        rest: httpx.Client) -> None:
    assert rest.get("/").json()["_links"]["schema.svg"] == {"href": "/schema.svg",
                                                           "type": SVG}
    drawn = picture(rest.get("/schema.svg"))
    tables = {title(g).split(":")[0]: g for g in of_class(parsed(drawn), "table")}
    described = rest.get("/schema", params={"sql": "true"}).json()["fact_types"]
    expected = {f["sql"]["table"] for f in described
                if f.get("sql") and not f["sql"].get("view")}  # the tables, not the views
    assert expected and expected <= set(tables)
    assert "purchase_id" in texts(tables["purchase"])
    tag = rest.get("/schema.svg").headers["etag"]
    assert rest.get("/schema.svg", headers={"If-None-Match": tag}).status_code == 304
    problem(rest.get("/schema.svg", params={"all": "true"}), 400, "unknown_parameter")


def test_an_explanation_picture_takes_the_json_routes_parameters(rest: httpx.Client) -> None:
    book(rest, "pic-ex", "Pictured Author")
    bindings = {"Author": "Pictured Author", "Book Count": "1"}
    drawn = picture(rest.get("/facts/Author_has_Book_Count/explain.svg", params=bindings))
    root = parsed(drawn)
    [top] = of_class(root, "root")
    assert texts(top)[0] == "Author 'Pictured Author' has Book Count '1'."
    assert [" ".join(texts(g)) for g in of_class(root, "asserted")] == [
        "Book 'pic-ex' is written by Author 'Pictured Author'."]
    problem(rest.get("/facts/Author_has_Book_Count/explain.svg",
                     params={**bindings, "Book Count": "7"}), 400, "invalid_input")
    problem(rest.get("/facts/Book_has_Price/explain.svg", params={"Book": "x"}), 404,
            "unknown_fact_type")


def test_a_picture_needs_the_key_its_json_needs(keyed: httpx.Client) -> None:
    problem(keyed.get("/schema.svg"), 401, "unauthorized")
    assert keyed.get("/schema.svg", headers=AGENT).status_code == 200


def test_an_id_in_the_path_is_decoded_once(rest: httpx.Client) -> None:
    purchase(rest, "a b@c")
    answer = rest.get(f"/purchases/{quote('a b@c', safe='')}/machine.svg")
    assert highlighted(picture(answer)) == ["Placed (current)"]


def test_an_explanation_links_its_picture_which_draws_the_same_fact(rest: httpx.Client) -> None:
    book(rest, "pic-link", "Linked Author")
    bindings = {"Author": "Linked Author", "Book Count": "1"}
    explained = rest.get("/facts/Author_has_Book_Count/explain", params=bindings)
    assert explained.status_code == 200, explained.text
    links = explained.json()["_links"]
    assert links["self"]["href"] == \
        "/facts/Author_has_Book_Count/explain?Author=Linked%20Author&Book%20Count=1"
    link = links["explain.svg"]
    assert link == {"href": "/facts/Author_has_Book_Count/explain.svg"
                            "?Author=Linked%20Author&Book%20Count=1", "type": SVG}
    [top] = of_class(parsed(picture(rest.get(link["href"]))), "root")
    assert texts(top)[0] == explained.json()["reading"]
