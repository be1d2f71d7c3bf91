"""What the REST tests do over HTTP and check in each answer: a real ``arest serve`` process
over the bookshop readings of this folder (and readings/orders where a module asks), and a
real HTTP client, httpx, speaking to it."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import httpx
import pytest

from tests.transports.serving import ROOT, arest_serve

BOOKSHOP = Path(__file__).parent / "readings"
ORDERS = ROOT / "readings" / "orders"
API_KEY, ADMIN_KEY = "rest-agent-secret", "rest-admin-secret"
URSULA = "Ursula K. Le Guin"
PROBLEM = "application/problem+json"


@contextmanager
def served(tmp_path_factory: pytest.TempPathFactory, *arguments: str
           ) -> Iterator[httpx.Client]:
    """A client on a running ``arest serve BOOKSHOP ARGUMENTS… --db <tmp>/arest.db``."""
    folder = tmp_path_factory.mktemp("rest")
    with arest_serve(folder, BOOKSHOP, "--db", str(folder / "arest.db"), *arguments) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        yield client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


ADMIN, AGENT = bearer(ADMIN_KEY), bearer(API_KEY)


def href(plural: str, entity: str, *rest: str) -> str:
    """``/<plural>/<id>/…``, the id percent-encoded as DESIGN §9 has it."""
    return "/".join(("", plural, quote(entity, safe=""), *rest))


def problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The RFC 9457 problem document of an error response, checked: its status, media type,
    ``type``, ``title``, ``status``, ``detail`` and ``code``."""
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].split(";")[0] == PROBLEM, response.headers
    body: dict[str, Any] = response.json()
    assert body["type"] == f"urn:arest:error:{code}", body
    assert body["code"] == code and body["status"] == status, body
    assert isinstance(body["title"], str) and body["title"], body
    assert isinstance(body["detail"], str) and body["detail"], body
    return body


def created(response: httpx.Response) -> dict[str, Any]:
    """The entity of a successful create (201, ``Location`` its self href)."""
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    assert body["rejected"] is False, body
    entity: dict[str, Any] = body["entity"]
    assert response.headers["location"] == entity["_links"]["self"]["href"]
    return entity


def book(client: httpx.Client, entity: str, author: str = URSULA, **fields: Any
         ) -> dict[str, Any]:
    """A new Book by author, with a title (both mandatory)."""
    return created(client.post("/books", json={"id": entity, "Title": f"Title of {entity}",
                                               "Author": author, **fields}))


def purchase(client: httpx.Client, entity: str, **fields: Any) -> dict[str, Any]:
    """A new Purchase of Book 'a/b' by Customer 'ann@example.com', Placed."""
    return created(client.post("/purchases", json={
        "id": entity, "Customer": "ann@example.com", "Book": "a/b", **fields}))


def raw(client: httpx.Client, method: str, target: str, body: bytes | None = None,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    """A request whose target goes out byte for byte (httpx, as RFC 3986 asks, removes dot
    segments from a path before sending it): status, headers and the JSON body (or None)."""
    address = urlsplit(str(client.base_url))
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=60)
    try:
        connection.request(method, target, body=body, headers=headers or {})
        answer = connection.getresponse()
        text = answer.read()
        return (answer.status, {k.lower(): v for k, v in answer.getheaders()},
                json.loads(text) if text else None)
    finally:
        connection.close()
