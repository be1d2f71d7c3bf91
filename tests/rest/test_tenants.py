"""Several tenants in one ``arest serve`` (``--tenant NAME``, DESIGN §11): each at
``/t/<name>/``, REST and MCP, every href carrying the prefix, the tenants apart; a path no
tenant serves is 404 ``unknown_tenant``.  And every answer names the sequence of its D
(``Arest-Sequence``; ``_meta`` on MCP), a request may name the least one it needs
(``Arest-Min-Sequence``), and a D that does not reach it in time is 409 ``not_yet``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import pytest
from mcp.client import Client
from mcp.client.session import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from tests.rest.calls import BOOKSHOP, ORDERS, created, problem
from tests.rest.test_crawl import crawled, machine_targets, populate, report, transitioned
from tests.transports.serving import arest_serve

PREFIX = "/t/shop"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class UnderPrefix(httpx.BaseTransport):
    """A client's view of one tenant as if it were at the root: each request is sent under
    the prefix, and each answer's links (every ``href``, a search result's ``url``, the
    ``Location``) are checked to carry it and handed on without it.  A link without the
    prefix is kept in ``unprefixed``."""

    def __init__(self, prefix: str) -> None:
        self.prefix, self.inner, self.unprefixed = prefix, httpx.HTTPTransport(), []

    def stripped(self, link: str) -> str:
        if not link.startswith(self.prefix + "/"):
            self.unprefixed.append(link)
            return link
        return link.removeprefix(self.prefix)

    def strip(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {key: self.stripped(item) if isinstance(item, str) and (
                key == "href" or (key == "url" and "title" in value)) else self.strip(item)
                for key, item in value.items()}
        if isinstance(value, list):
            return [self.strip(item) for item in value]
        return value

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        sent = httpx.Request(request.method, request.url.copy_with(
            raw_path=self.prefix.encode() + request.url.raw_path), headers=request.headers,
            content=request.read())
        answer = self.inner.handle_request(sent)
        content = answer.read()
        headers = [(name, self.stripped(value) if name.lower() == "location" else value)
                   for name, value in answer.headers.items() if name.lower() != "content-length"]
        if answer.headers.get("content-type", "").endswith("json") and content:
            content = json.dumps(self.strip(json.loads(content))).encode()
        return httpx.Response(answer.status_code, headers=headers, content=content,
                              request=request)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``arest serve BOOKSHOP ORDERS --tenant shop --tenant other --db <folder>``."""
    folder = tmp_path_factory.mktemp("tenants")
    with arest_serve(folder, BOOKSHOP, str(ORDERS), "--db", str(folder), "--tenant", "shop",
                     "--tenant", "other") as base:
        yield base


@pytest.fixture(scope="module")
def shop(served: str) -> Iterator[tuple[httpx.Client, UnderPrefix]]:
    under = UnderPrefix(PREFIX)
    with httpx.Client(base_url=served, transport=under, timeout=60) as client:
        populate(client)
        yield client, under


def test_every_link_of_a_tenant_under_its_prefix_resolves(
        shop: tuple[httpx.Client, UnderPrefix]) -> None:
    client, under = shop
    crawl = crawled(client, "/")
    assert not crawl.failures, report(crawl)
    assert crawl.followed > 200
    done, failures = transitioned(crawl)
    assert not failures, "\n".join(failures)
    assert {(status, event) for noun, status, event in done if noun == "Purchase"} == set(
        machine_targets(client, "Purchase"))
    assert under.unprefixed == []


def test_the_tenants_are_apart_and_a_path_of_none_is_unknown_tenant(served: str) -> None:
    with httpx.Client(base_url=served, timeout=60) as client:
        created(client.post("/t/other/customers",
                            json={"id": "only@other.example", "Name": "Only"}))
        assert client.get("/t/other/customers/only%40other.example").status_code == 200
        problem(client.get("/t/shop/customers/only%40other.example"), 404, "unknown_entity")
        entry = client.get("/t/other")
        assert entry.status_code == 200
        assert entry.json()["_links"]["customers"]["href"] == "/t/other/customers"
        assert entry.json()["_links"]["mcp"]["href"] == "/t/other/mcp"
        assert client.get("/t/other/openapi.json").json()["servers"] == [{"url": "/t/other"}]
        for path in ("/", "/customers", "/t/nobody/customers", "/t"):
            unknown = problem(client.get(path), 404, "unknown_tenant")
            assert unknown["tenants"] == ["other", "shop"]


def test_a_page_of_a_tenant_links_under_its_prefix(served: str) -> None:
    with httpx.Client(base_url=served, timeout=60) as client:
        page = client.get("/t/other/customers", headers={"Accept": "text/html"})
        assert page.status_code == 200, page.text
        assert 'href="/t/other/_static/app.css"' in page.text
        assert 'href="/customers' not in page.text and 'href="/_static' not in page.text
        assert client.get("/t/other/_static/app.css").status_code == 200


def test_every_answer_names_its_sequence_and_a_minimum_is_waited_for(served: str) -> None:
    with httpx.Client(base_url=served, timeout=60) as client:
        before = int(client.get("/t/other/").headers["arest-sequence"])
        made = client.post("/t/other/customers", json={"id": "seq@other.example", "Name": "Seq"})
        after = int(made.headers["arest-sequence"])
        assert after == before + 1
        read = client.get("/t/other/customers/seq%40other.example",
                          headers={"Arest-Min-Sequence": str(after)})
        assert read.status_code == 200 and int(read.headers["arest-sequence"]) >= after
        late = client.get("/t/other/", headers={"Arest-Min-Sequence": str(after + 1000)})
        body = problem(late, 409, "not_yet")
        assert late.headers["retry-after"] == "1"
        assert (body["sequence"], body["min_sequence"]) == (after, after + 1000)
        problem(client.get("/t/other/", headers={"Arest-Min-Sequence": "soon"}), 400,
                "invalid_input")


@pytest.mark.anyio
async def test_mcp_of_a_tenant_under_its_prefix_names_hrefs_and_the_sequence(
        served: str) -> None:
    async with httpx2.AsyncClient() as http, \
            streamable_http_client(f"{served}/t/other/mcp", http_client=http) as (read, write), \
            ClientSession(read, write) as session:
        await session.initialize()
        made = await session.call_tool("create", {"noun": "Customer", "id": "mcp@other.example",
                                                  "fields": {"Name": "Mcp"}})
        assert not made.is_error, made.structured_content
        entity = made.structured_content["entity"]
        assert entity["_links"]["self"]["href"] == "/t/other/customers/mcp%40other.example"
        sequence = made.meta["arest/sequence"]
        again = await session.call_tool("read", {"noun": "Customer", "id": "mcp@other.example"},
                                        meta={"arest/min_sequence": sequence})
        assert not again.is_error and again.meta["arest/sequence"] >= sequence
        late = await session.call_tool("read", {"noun": "Customer", "id": "mcp@other.example"},
                                       meta={"arest/min_sequence": sequence + 1000})
        assert late.is_error and late.structured_content["error"]["code"] == "not_yet"
    with httpx.Client(base_url=served, timeout=60) as client:
        assert client.get("/t/shop/customers/mcp%40other.example").status_code == 404


@pytest.mark.anyio
async def test_sse_of_a_tenant_posts_under_its_prefix(served: str) -> None:
    async with Client(sse_client(f"{served}/t/shop/sse"), mode="legacy") as client:
        got = await client.call_tool("read", {"noun": "Customer", "id": "ann@example.com"})
    assert got.structured_content["_links"]["self"]["href"] == (
        "/t/shop/customers/ann%40example.com")
    with httpx.Client(base_url=served, timeout=60) as http:
        sequence = int(http.get("/t/shop/").headers["arest-sequence"])
    assert got.meta is not None and got.meta["arest/sequence"] == sequence
