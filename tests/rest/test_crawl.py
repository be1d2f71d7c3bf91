"""Every link REST emits resolves to what it promises (DESIGN §5, §9), found by crawling.

Over a populated tenant (the bookshop readings and readings/orders, sharing the Customer
'ann@example.com'), a crawler starts at ``/`` and follows, breadth first, every href of every
``_links`` of every answer (``next`` links included), every ``url`` of a search result, and
the templated search link with a sample query; it skips ``/mcp``, which is not REST.  Each
answer is checked against what its link promised:

- ``self`` and ``parent``: the entity the href names (``/<plural>/<id>``, the id decoded once);
- a collection of the entry point: items of its noun;
- ``children`` and ``peers``: a collection whose items link back to the entity (a child's
  parent link is the entity's self; a peer's peers collection holds the entity);
- ``related``: rows each naming the entity;
- ``next``: the next page, no id seen twice, the same total, all of them in the end;
- a link with a ``type`` (``machine.svg``, ``schema.svg``): an SVG document of that type, an
  entity's machine with the entity's status highlighted.

Then each transition link found is followed as it says (method, href, ``{"event"}``), on an
entity whose other links the crawl has already checked, and moves it to the status the
schema's machine names for that event.  No emitted href may answer a 4xx or 5xx."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import httpx
import pytest

from tests.rest.calls import ORDERS, book, created, purchase, served

pytestmark = pytest.mark.xdist_group("rest-crawl")

SAMPLE = "ann"
"""The value a templated link is expanded with."""


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """The bookshop and the orders readings, populated over REST."""
    with served(tmp_path_factory, str(ORDERS)) as client:
        populate(client)
        yield client


def populate(client: httpx.Client) -> None:
    for number, products in (("o/1", ("sku-hammer", "sku-nails")), ("o 2", ("sku-nails",)),
                             ("o@3", ("sku-hammer",))):
        created(client.post("/orders", json={
            "id": number, "Customer": "ann@example.com", "Priority": "rush",
            "LineItem": [{"id": f"{number}#{n}", "Product": sku, "Quantity": str(n + 1)}
                         for n, sku in enumerate(products)]}))
    created(client.post("/customers", json={"id": "bo b@example.com", "Name": "Bob",
                                            "is a reseller": True}))
    for entity in ("..", ".", "50%", "x/../y"):
        book(client, entity, "Two Names", Format="ebook")
    created(client.post("/genres", json={"id": "cosy", "parent Genre": "sf"}))
    assert client.patch("/customers/ann%40example.com",
                        json={"Book": ["..", "50%"]}).status_code == 200
    for entity, events in (("p-placed", ()), ("p-placed-2", ()), ("p-paid", ("pay",)),
                           ("p-cancelled", ("cancel",)), ("p-shipped", ("pay", "ship")),
                           ("p/cancelled-2", ("cancel",))):
        purchase(client, entity, Quantity="1")
        for event in events:
            moved = client.post(f"/purchases/{entity.replace('/', '%2F')}/transition",
                                json={"event": event})
            assert moved.status_code == 200, moved.text


@dataclass(frozen=True)
class Promise:
    """What following an href must answer: an entity (``noun``, ``id``), a collection of
    ``noun`` or one linking back to ``owner``, rows naming ``owner``, or a further page."""

    kind: str
    source: str
    noun: str | None = None
    id: str | None = None
    owner: dict[str, Any] | None = None
    chain: Chain | None = None


@dataclass
class Chain:
    """The pages of one collection seen so far."""

    total: int
    seen: list[str] = field(default_factory=list)


@dataclass
class Crawl:
    client: httpx.Client
    nouns: dict[str, str]
    followed: int = 0
    failures: list[str] = field(default_factory=list)
    transitions: list[tuple[dict[str, Any], str, dict[str, Any]]] = field(default_factory=list)
    queue: deque[tuple[str, Promise]] = field(default_factory=deque)
    visited: set[str] = field(default_factory=set)

    def fail(self, href: str, promise: Promise, message: str) -> None:
        self.failures.append(f"{href} ({promise.kind} from {promise.source}): {message}")

    def enqueue(self, href: str, promise: Promise) -> None:
        key = f"{promise.kind} {href}"
        if key not in self.visited:
            self.visited.add(key)
            self.queue.append((href, promise))

    def named(self, href: str) -> tuple[str | None, str | None]:
        """The noun and id ``/<plural>/<id>`` names, the id decoded once."""
        segments = urlsplit(href).path.split("/")[1:]
        if len(segments) != 2:
            return None, None
        return self.nouns.get(segments[0]), unquote(segments[1])

    def run(self) -> None:
        while self.queue:
            href, promise = self.queue.popleft()
            answer = self.client.get(href)
            self.followed += 1
            if answer.status_code != 200:
                self.fail(href, promise, f"{answer.status_code} {answer.text[:300]}")
                continue
            if promise.kind == "picture":
                self.check_picture(href, promise, answer)
                continue
            body = answer.json()
            self.check(href, promise, body)
            self.discover(href, body)

    def check(self, href: str, promise: Promise, body: Any) -> None:
        check = getattr(self, f"check_{promise.kind}", None)
        if check is not None:
            check(href, promise, body)

    def check_picture(self, href: str, promise: Promise, answer: httpx.Response) -> None:
        """A picture link answers an SVG document of the media type it names (for an entity,
        its machine with its status highlighted)."""
        if answer.headers["content-type"].split(";")[0] != promise.noun:
            self.fail(href, promise, f"answered {answer.headers['content-type']}")
            return
        try:
            root = ElementTree.fromstring(answer.text)
        except ElementTree.ParseError as error:
            self.fail(href, promise, f"not XML: {error}")
            return
        if root.tag != "{http://www.w3.org/2000/svg}svg":
            self.fail(href, promise, f"not SVG: {root.tag}")
        if promise.owner is not None and promise.owner.get("status") is not None:
            current = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
                       if "current" in g.get("class", "").split()]
            if [g.findtext("{http://www.w3.org/2000/svg}title") for g in current] != [
                    f"{promise.owner['status']} (current)"]:
                self.fail(href, promise, f"highlights not {promise.owner['status']}")

    def check_entity(self, href: str, promise: Promise, body: Any) -> None:
        if (body.get("noun"), body.get("id")) != (promise.noun, promise.id):
            self.fail(href, promise, f"answered {body.get('noun')} {body.get('id')!r},"
                                     f" promised {promise.noun} {promise.id!r}")
        elif body["_links"]["self"]["href"] != href.split("?")[0]:
            self.fail(href, promise, f"its self link is {body['_links']['self']}")

    def check_collection(self, href: str, promise: Promise, body: Any) -> None:
        items = body["items"]
        if any(item["noun"] != promise.noun for item in items):
            self.fail(href, promise, f"items not all {promise.noun}")
        self.check_page(href, promise, body)

    def check_page(self, href: str, promise: Promise, body: Any) -> None:
        ids = [item["id"] for item in body["items"]]
        chain = promise.chain if promise.chain is not None else Chain(body["total"])
        if ids != sorted(ids):
            self.fail(href, promise, f"items out of order: {ids}")
        if set(ids) & set(chain.seen):
            self.fail(href, promise, f"ids seen on an earlier page: {set(ids) & set(chain.seen)}")
        if body["total"] != chain.total:
            self.fail(href, promise, f"total {body['total']}, earlier pages {chain.total}")
        chain.seen.extend(ids)
        following = body["_links"].get("next")
        if following is not None:
            if not ids:
                self.fail(href, promise, "an empty page with a next link")
            self.enqueue(following["href"], Promise("next", href, promise.noun,
                                                    owner=promise.owner, chain=chain))
        elif len(chain.seen) != chain.total:
            self.fail(href, promise, f"{len(chain.seen)} items in all, total {chain.total}")

    def check_next(self, href: str, promise: Promise, body: Any) -> None:
        if promise.owner is not None:
            self.check_linked_back(href, promise, body)
        else:
            self.check_page(href, promise, body)

    def check_children(self, href: str, promise: Promise, body: Any) -> None:
        self.check_linked_back(href, promise, body)

    def check_peers(self, href: str, promise: Promise, body: Any) -> None:
        self.check_linked_back(href, promise, body)

    def check_linked_back(self, href: str, promise: Promise, body: Any) -> None:
        owner = promise.owner
        assert owner is not None
        mine = owner["_links"]["self"]["href"]
        for item in body["items"]:
            links = item["_links"]
            if any(link.get("href") == mine for link in links.values()):
                continue
            peers = [link["href"] for link in links.values() if link.get("rel") == "peers"]
            if not any(self.holds(url, owner) for url in peers):
                self.fail(href, promise, f"{item['noun']} {item['id']!r} links not back to"
                                         f" {mine}")
        self.check_page(href, promise, body)

    def holds(self, url: str, owner: dict[str, Any]) -> bool:
        items = self.client.get(url, params={"limit": "1000"}).json()["items"]
        return any((i["noun"], i["id"]) == (owner["noun"], owner["id"]) for i in items)

    def check_related(self, href: str, promise: Promise, body: Any) -> None:
        owner = promise.owner
        assert owner is not None
        if body["total"] != len(body["rows"]):
            self.fail(href, promise, f"total {body['total']} for {len(body['rows'])} rows")
        for row in body["rows"]:
            if owner["id"] not in row.values():
                self.fail(href, promise, f"row {row} does not name {owner['id']!r}")

    def check_search(self, href: str, promise: Promise, body: Any) -> None:
        for result in body["results"]:
            noun, _, entity = result["id"].partition(":")
            self.enqueue(result["url"], Promise("entity", href, noun, entity))

    def discover(self, href: str, body: Any) -> None:
        """Every link of the answer, enqueued with what it promises."""
        if not isinstance(body, dict):
            return
        if "items" in body and isinstance(body["items"], list):
            for item in body["items"]:
                self.discover(href, item)
        links = body.get("_links")
        if not isinstance(links, dict):
            return
        entity = body if {"id", "noun"} <= set(body) else None
        for key, link in links.items():
            if not isinstance(link, dict) or not isinstance(link.get("href"), str):
                continue
            self.link(href, entity, key, link)

    def link(self, source: str, entity: dict[str, Any] | None, key: str,
             link: dict[str, Any]) -> None:
        url = link["href"]
        if link.get("protocol") == "mcp":
            return
        if link.get("templated"):
            url = expanded(url)
        if "event" in link:
            assert entity is not None, link
            self.transitions.append((entity, key, link))
            return
        rel = link.get("rel")
        if "type" in link:
            self.enqueue(url, Promise("picture", source, link["type"], owner=entity))
        elif "noun" in link:
            self.enqueue(url, Promise("collection", source, link["noun"]))
            self.enqueue(paged(url), Promise("collection", source, link["noun"]))
        elif entity is not None and (key == "self" or rel == "parent"):
            noun, entity_id = (entity["noun"], entity["id"]) if key == "self" \
                else self.named(url)
            self.enqueue(url, Promise("entity", source, noun, entity_id))
        elif entity is not None and rel in ("children", "peers"):
            self.enqueue(url, Promise(rel, source, owner=entity))
            self.enqueue(paged(url), Promise(rel, source, owner=entity))
        elif entity is not None and rel == "related":
            self.enqueue(url, Promise("related", source, owner=entity))
        elif url.startswith("/search"):
            self.enqueue(url, Promise("search", source))
        elif key not in ("self", "next"):
            self.enqueue(url, Promise("resource", source))


def expanded(template: str) -> str:
    """An RFC 6570 template with every variable the sample value: ``/search{?q}`` →
    ``/search?q=ann``."""

    def value(match: re.Match[str]) -> str:
        operator, names = match.group(1), match.group(2).split(",")
        if operator == "?":
            return "?" + "&".join(f"{name}={SAMPLE}" for name in names)
        return ",".join(SAMPLE for _ in names)

    return re.sub(r"\{([?&/]?)([^}]*)\}", value, template)


def paged(url: str) -> str:
    """The collection's first page of two, so its next links are walked too."""
    return url + ("&" if "?" in url else "?") + "limit=2"


def crawled(client: httpx.Client, *starts: str) -> Crawl:
    plurals = client.get("/", params={"all": "true"}).json()["_links"]
    nouns = {key: link["noun"] for key, link in plurals.items() if "noun" in link}
    crawl = Crawl(client, nouns)
    for start in starts:
        crawl.enqueue(start, Promise("resource", "(start)"))
    crawl.run()
    return crawl


def machine_targets(client: httpx.Client, noun: str) -> dict[tuple[str, str], str]:
    """(from status, event) → the status the noun's machine moves to."""
    [machine] = client.get(f"/schema/{noun}").json()["machines"]
    return {(status, t["event"]): t["to"][0] for t in machine["transitions"]
            for status in t["from"]}


def transitioned(crawl: Crawl) -> tuple[set[tuple[str, str, str]], list[str]]:
    """Each kind of transition link found, (noun, status, event), followed as it says on one
    entity the crawl saw in that status and has not moved yet: the kinds followed, and the
    failures."""
    failures: list[str] = []
    moved: set[tuple[str, str]] = set()
    done: set[tuple[str, str, str]] = set()
    for entity, event, link in crawl.transitions:
        step = (entity["noun"], entity["status"], event)
        if step in done or (entity["noun"], entity["id"]) in moved:
            continue
        done.add(step)
        moved.add((entity["noun"], entity["id"]))
        target = machine_targets(crawl.client, entity["noun"])[(entity["status"], event)]
        answer = crawl.client.request(link["method"], link["href"], json={"event": event})
        crawl.followed += 1
        read = crawl.client.get(entity["_links"]["self"]["href"]).json()
        if answer.status_code != 200 or answer.json()["entity"]["status"] != target \
                or read["status"] != target:
            failures.append(f"{link} on {entity['noun']} {entity['id']!r} in"
                            f" {entity['status']}: {answer.status_code} {answer.text[:300]},"
                            f" then {read.get('status')}, expected {target}")
    return done, failures


def report(crawl: Crawl) -> str:
    return f"{len(crawl.failures)} failures of {crawl.followed} hrefs followed:\n" + \
        "\n".join(crawl.failures[:40])


@pytest.fixture(scope="module")
def crawl(shop: httpx.Client) -> Crawl:
    """The crawl from ``/``, shared: the transitions are followed after every GET check."""
    return crawled(shop, "/")


def test_every_link_from_the_entry_point_resolves_to_what_it_promises(crawl: Crawl) -> None:
    print(f"crawled {crawl.followed} hrefs from /")
    assert not crawl.failures, report(crawl)
    kinds = {key.split(" ")[0] for key in crawl.visited}
    assert {"entity", "collection", "children", "peers", "related", "next", "search",
            "picture"} <= kinds
    assert crawl.followed > 200


def test_every_transition_link_performs_its_transition(crawl: Crawl) -> None:
    found = {(entity["noun"], entity["status"], event) for entity, event, _ in crawl.transitions}
    done, failures = transitioned(crawl)
    print(f"followed {len(done)} kinds of transition link of {len(crawl.transitions)} found")
    assert not failures, "\n".join(failures)
    assert done == found
    assert {(status, event) for noun, status, event in done if noun == "Purchase"} == set(
        machine_targets(crawl.client, "Purchase"))


@pytest.mark.slow
def test_every_link_of_the_metamodel_too_resolves(shop: httpx.Client) -> None:
    crawl = crawled(shop, "/?all=true")
    print(f"crawled {crawl.followed} hrefs from /?all=true")
    assert not crawl.failures, report(crawl)
    assert "Domain Change" in crawl.nouns.values()
