"""The REST surface as pages (arest/rest/pages.py): a browser's ``Accept: text/html`` gets
HTML rendered from the JSON answer itself, every link a link, every transition a button,
create and update forms from the noun's fields (a value constraint's choices a select),
every text escaped; anything else is answered as before."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from urllib.parse import quote

import httpx
import pytest

import arest
from arest.rest.answer import Request, Response, answer
from arest.rest.pages import negotiated, prefers_html
from arest.system.context import AGENT
from arest.system.permissions import Principal
from tests.rest.calls import API_KEY, BOOKSHOP, URSULA, bearer, book, purchase

pytestmark = pytest.mark.xdist_group("rest-pages")

EVERYTHING = Principal(AGENT, frozenset({"read", "write", "schema", "history"}))
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
NASTY = '<script>alert("x")</script>&"\'<img src=x onerror=alert(1)>'


class Parsed(HTMLParser):
    """A page's elements, each as (tag, attributes, its text before the next tag)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str], list[str]]] = []
        self.open = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {k: v or "" for k, v in attrs}, []))
        self.open = True

    def handle_endtag(self, tag: str) -> None:
        self.open = False

    def handle_data(self, data: str) -> None:
        if self.elements and self.open:
            self.elements[-1][2].append(data)

    def all(self, tag: str, **wanted: str) -> list[dict[str, str]]:
        return [attrs for name, attrs, _ in self.elements if name == tag
                and all(attrs.get(k.replace("_", "-")) == v for k, v in wanted.items())]

    def text_of(self, tag: str, **wanted: str) -> list[str]:
        return ["".join(text) for name, attrs, text in self.elements if name == tag
                and all(attrs.get(k.replace("_", "-")) == v for k, v in wanted.items())]

    def select_options(self, name: str) -> list[str]:
        """The option values of the select named ``name`` (the first one)."""
        out: list[str] = []
        inside = False
        for tag, attrs, _ in self.elements:
            if tag == "select":
                if inside:
                    break
                inside = attrs.get("name") == name
            elif tag == "option" and inside:
                out.append(attrs["value"])
            elif inside and tag not in ("option",):
                break
        return out


@pytest.fixture()
def tenant() -> Iterator[arest.Tenant]:
    with arest.Tenant.open(BOOKSHOP) as opened:
        # The readings hold Customer 'ann@example.com' and Book 'a/b'.
        opened.call("update:Book", {"id": "a/b", "Format": "paperback"})
        opened.call("create:Purchase", {"id": "p-1", "Customer": "ann@example.com",
                                        "Book": "a/b"})
        yield opened


def page_of(tenant: arest.Tenant, path: str) -> tuple[Response, Parsed, str]:
    """The JSON answer to ``GET path`` and the page of it."""
    response = answer(tenant, Request("GET", path, EVERYTHING))
    shown = negotiated(tenant.state, path, response, None)
    text = shown.body.decode()
    return response, Parsed(text), text


def test_the_entry_point_links_every_collection_and_resource(tenant: arest.Tenant) -> None:
    response, parsed, _ = page_of(tenant, "/")
    anchors = {a["href"] for a in parsed.all("a")}
    for key, link in response.body["_links"].items():
        if link.get("templated"):
            assert parsed.all("form", action="/search", data_rel=key)
            assert parsed.all("input", name="q")
        else:
            assert link["href"] in anchors, key
    assert {"/books", "/purchases", "/schema", "/openapi.json"} <= anchors


def test_a_collection_links_each_item_and_has_a_create_form_with_the_choices(
        tenant: arest.Tenant) -> None:
    response, parsed, _ = page_of(tenant, "/books")
    anchors = {a["href"] for a in parsed.all("a")}
    for item in response.body["items"]:
        assert item["_links"]["self"]["href"] in anchors
    assert response.body["_links"]["self"]["href"] in anchors
    [form] = parsed.all("form", data_method="POST", data_action="/books")
    assert form["class"] == "create"
    assert parsed.select_options("Format") == ["", "ebook", "hardcover", "paperback"]
    names = {i["name"] for i in parsed.all("input")}
    assert {"id", "Title", "Author"} <= names
    assert "Book Count" not in names  # a derived field is not given


def test_a_collection_whose_post_is_another_command_has_no_create_form(
        tenant: arest.Tenant) -> None:
    _, parsed, _ = page_of(tenant, "/domain-changes")
    assert not parsed.all("form", data_method="POST")


def test_an_entity_shows_its_fields_links_and_a_button_per_transition(
        tenant: arest.Tenant) -> None:
    response, parsed, text = page_of(tenant, "/purchases/p-1")
    entity = response.body
    anchors = {a["href"] for a in parsed.all("a")}
    buttons = {b["data-event"] for b in parsed.all("button") if "data-event" in b}
    for key, link in entity["_links"].items():
        if "event" in link:
            assert link["event"] in buttons
            assert parsed.all("form", data_method="POST", data_action=link["href"])
        else:
            assert link["href"] in anchors, key
    assert buttons == {"pay", "cancel"}
    assert parsed.text_of("strong", id="status") == ["Placed"]
    assert parsed.all("form", data_method="PATCH", data_action="/purchases/p-1")
    assert "ann@example.com" in text


def test_the_update_form_holds_the_current_values(tenant: arest.Tenant) -> None:
    _, parsed, _ = page_of(tenant, "/books/a%2Fb")
    [form] = parsed.all("form", data_method="PATCH")
    assert form["data-action"] == "/books/a%2Fb"
    assert parsed.all("input", name="Title", value="The Dispossessed")
    assert parsed.all("option", value="paperback", selected="")


def test_facts_are_a_table_of_their_rows(tenant: arest.Tenant) -> None:
    response, parsed, _ = page_of(tenant, "/facts/Book_has_Format")
    [row] = [r for r in response.body["rows"] if r["Book"] == "a/b"]
    assert row["Format"] == "paperback"
    cells = parsed.text_of("td")
    assert {"a/b", "paperback"} <= set(cells)
    assert set(parsed.text_of("th")) >= {"Book", "Format", "derived"}


def test_a_navigated_collection_links_every_item(tenant: arest.Tenant) -> None:
    response, parsed, _ = page_of(tenant, "/books/a%2Fb/purchases")
    anchors = {a["href"] for a in parsed.all("a")}
    assert response.body["items"]
    for item in response.body["items"]:
        assert {link["href"] for link in item["_links"].values()
                if "event" not in link} <= anchors


def test_every_text_is_escaped(tenant: arest.Tenant) -> None:
    tenant.call("create:Book", {"id": NASTY, "Title": NASTY, "Author": NASTY})
    for path in ("/books", "/authors", "/books/" + quote(NASTY, safe="")):
        _, parsed, text = page_of(tenant, path)
        assert "<script>alert" not in text and "<img" not in text, path
        assert [tag for tag, _, _ in parsed.elements].count("script") == 1  # the page's own
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text, path


def test_a_problem_is_a_page_of_its_detail(tenant: arest.Tenant) -> None:
    response, parsed, text = page_of(tenant, "/books/no-such-book")
    assert response.status == 404
    assert parsed.text_of("code") == ["unknown_entity"]
    assert "no-such-book" in text


def test_a_rejection_page_lists_the_violated_readings(tenant: arest.Tenant) -> None:
    rejected = answer(tenant, Request("POST", "/books", EVERYTHING, body=b'{"id": "untitled"}',
                                      content_type="application/json"))
    assert rejected.status == 422
    parsed = Parsed(negotiated(tenant.state, "/books", rejected, None).body.decode())
    assert "Each Book has exactly one Title." in parsed.text_of("li", **{"class": "violation"})


def test_a_page_has_its_own_etag_and_answers_304_to_it(tenant: arest.Tenant) -> None:
    response = answer(tenant, Request("GET", "/books/a%2Fb", EVERYTHING))
    json_tag = dict(response.headers)["etag"]
    shown = negotiated(tenant.state, "/books/a%2Fb", response, None)
    headers = dict(shown.headers)
    assert headers["etag"] != json_tag
    assert headers["vary"] == "Accept"
    assert shown.media_type.startswith("text/html")
    again = negotiated(tenant.state, "/books/a%2Fb", response, headers["etag"])
    assert (again.status, again.body) == (304, b"")
    assert negotiated(tenant.state, "/books/a%2Fb", response, json_tag).status == 200


@pytest.mark.parametrize(("accept", "html"), [
    (BROWSER_ACCEPT, True), ("text/html", True), ("application/json", False),
    ("*/*", False), (None, False), ("application/json, text/html;q=0.9", False),
    ("text/*;q=0.9, application/json;q=0.5", True), ("text/html;q=0", False)])
def test_html_is_chosen_only_when_preferred(accept: str | None, html: bool) -> None:
    assert prefers_html(accept) is html


# Over HTTP ---------------------------------------------------------------------------------

def test_a_browser_gets_a_page_and_a_json_client_json(rest: httpx.Client) -> None:
    purchase_href = purchase(rest, "pg-1")["_links"]["self"]["href"]
    page = rest.get(purchase_href, headers={"Accept": BROWSER_ACCEPT})
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["vary"] == "Accept"
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert Parsed(page.text).text_of("strong", id="status") == ["Placed"]
    data = rest.get(purchase_href, headers={"Accept": "application/json"})
    assert data.headers["content-type"] == "application/json"
    assert data.headers["vary"] == "Accept"
    assert data.json()["status"] == "Placed"
    assert data.headers["etag"] != page.headers["etag"]
    assert rest.get(purchase_href, headers={"Accept": BROWSER_ACCEPT, "If-None-Match":
                                            page.headers["etag"]}).status_code == 304


def test_a_change_is_never_answered_with_a_page(rest: httpx.Client) -> None:
    made = rest.post("/books", headers={"Accept": BROWSER_ACCEPT},
                     json={"id": "pg-book", "Title": "T", "Author": URSULA})
    assert made.status_code == 201
    assert made.headers["content-type"] == "application/json"
    assert book(rest, "pg-book-2")["id"] == "pg-book-2"


def test_the_script_and_style_are_served(rest: httpx.Client) -> None:
    script = rest.get("/_static/app.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert "sessionStorage" in script.text
    assert rest.get("/_static/app.css").headers["content-type"].startswith("text/css")
    assert rest.get("/_static/other.js").status_code == 404


def test_a_keyed_server_asks_a_browser_for_the_key_on_a_page(keyed: httpx.Client) -> None:
    asked = keyed.get("/", headers={"Accept": BROWSER_ACCEPT})
    assert asked.status_code == 401
    assert asked.headers["content-type"].startswith("text/html")
    parsed = Parsed(asked.text)
    assert parsed.all("form", id="key-form")
    assert parsed.text_of("code") == ["unauthorized"]
    # The script and style carry no data: served without a key, so the page can ask for it.
    assert keyed.get("/_static/app.js").status_code == 200
    shown = keyed.get("/", headers={"Accept": BROWSER_ACCEPT, **bearer(API_KEY)})
    assert shown.status_code == 200
    assert {a["href"] for a in Parsed(shown.text).all("a")} >= {"/books", "/purchases"}
