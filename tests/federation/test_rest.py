"""Over REST, navigate, explain (its JSON and its picture) and search of a backed noun fetch
from its external system with a key holding outbound, and are 403 with a key without
(DESIGN §13); one arest server, the JSON API fixture as the external system."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.federation.json_api import Api, serving
from tests.federation.test_federation import CUSTOMERS
from tests.federation.test_reads import DERIVING
from tests.transports.serving import arest_serve

FETCHING, PLAIN = "fetching-key", "plain-key"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, Api]]:
    """A server whose customers come from the fixture API: FETCHING (the admin key) holds
    outbound, PLAIN (an API key holding read and write) does not."""
    root = tmp_path_factory.mktemp("rest-federation")
    with serving(Api(collections={"customers": [dict(c) for c in CUSTOMERS]})) as api:
        folder = root / "shop"
        folder.mkdir()
        (folder / "domain.md").write_text(DERIVING.format(url=api.url))
        with arest_serve(root, folder, "--db", str(root / "shop.db"),
                         "--allow-outbound", "127.0.0.1/32",
                         "--admin-key", FETCHING, "--api-key", PLAIN) as url, \
                httpx.Client(base_url=url, timeout=60,
                             headers={"Authorization": f"Bearer {FETCHING}"}) as client:
            yield client, api


def test_navigate_a_backed_customers_orders(shop: tuple[httpx.Client, Api]) -> None:
    client, api = shop
    assert client.post("/orders", json={"id": "o-nav", "Customer": "acme"}).status_code == 201
    answer = client.get("/customers/acme/orders")
    assert answer.status_code == 200, answer.text
    assert [item["id"] for item in answer.json()["items"]] == ["o-nav"]
    assert api.requests[-1][0] == "/customers/acme"


def test_explain_and_its_picture_end_at_the_fetch(shop: tuple[httpx.Client, Api]) -> None:
    client, api = shop
    bindings = {"Customer": "acme", "Email Count": "2"}
    answer = client.get("/facts/Customer_has_Email_Count/explain", params=bindings)
    assert answer.status_code == 200, answer.text
    why = answer.json()
    assert why["depends_on"] == [{"system": "crm", "url": api.url + "/customers",
                                  "fetched_at": why["depends_on"][0]["fetched_at"]}]
    picture = client.get("/facts/Customer_has_Email_Count/explain.svg", params=bindings)
    assert picture.status_code == 200 and "<title>Fetched from crm" in picture.text


def test_search_without_outbound_is_403(shop: tuple[httpx.Client, Api]) -> None:
    client, _ = shop
    found = client.get("/search", params={"q": "bolt"}).json()["results"]
    assert found[0]["id"] == "Customer:bolt" and found[0]["source"]["system"] == "crm"
    refused = client.get("/search", params={"q": "bolt"},
                         headers={"Authorization": f"Bearer {PLAIN}"})
    assert refused.status_code == 403 and refused.json()["permission"] == "outbound"

