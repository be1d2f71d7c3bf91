"""One arest server as the external system of another (DESIGN §13), over REST."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.transports.serving import arest_serve

pytestmark = pytest.mark.slow  # two arest servers per test

CRM = """

Customer(.Customer Id) is an entity type.
Customer has Name.
  Each Customer has at most one Name.
"""

SHOP = """

Customer(.Customer Id) is an entity type.
Customer has Name.
  Each Customer has at most one Name.
Order(.Order Id) is an entity type.
Order was placed by Customer.
  Each Order was placed by at most one Customer.

Noun 'Customer' is backed by External System 'crm'.
External System 'crm' has URL '{url}'.
Noun 'Customer' has URI '/customers'.
"""


KEY = "shop-agent-key"
FETCHING = ("--api-key", KEY, "--api-key-permissions", "read,write,outbound")
BEARER = {"Authorization": f"Bearer {KEY}"}


def readings(folder: Path, text: str) -> Path:
    folder.mkdir()
    (folder / "domain.md").write_text(text)
    return folder


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Path]]:
    """The CRM, and the shop whose customers it backs (allowed to reach 127.0.0.1)."""
    root = tmp_path_factory.mktemp("two")
    crm = readings(root / "crm", CRM)
    with arest_serve(root, crm, "--db", str(root / "crm.db")) as crm_url:
        shop = readings(root / "shop", SHOP.format(url=crm_url))
        with arest_serve(root, shop, "--db", str(root / "shop.db"), *FETCHING,
                         "--allow-outbound", "127.0.0.1/32") as shop_url:
            httpx.post(crm_url + "/customers", json={"id": "acme", "Name": "Acme"},
                       timeout=30).raise_for_status()
            yield crm_url, shop_url, shop


def test_the_shop_reads_a_customer_from_the_crm(servers: tuple[str, str, Path]) -> None:
    crm_url, shop_url, _ = servers
    answer = httpx.get(shop_url + "/customers/acme", headers=BEARER, timeout=30)
    assert answer.status_code == 200
    body = answer.json()
    assert body["Name"] == "Acme"
    assert body["source"]["system"] == "crm"
    assert body["source"]["url"] == crm_url + "/customers/acme"


def test_the_shop_lists_the_crms_customers(servers: tuple[str, str, Path]) -> None:
    _, shop_url, _ = servers
    body = httpx.get(shop_url + "/customers", headers=BEARER, timeout=30).json()
    assert [item["id"] for item in body["items"]] == ["acme"]


def test_a_local_order_links_the_remote_customer(servers: tuple[str, str, Path]) -> None:
    _, shop_url, _ = servers
    created = httpx.post(shop_url + "/orders", json={"id": "o-1", "Customer": "acme"},
                         headers=BEARER, timeout=30)
    assert created.status_code == 201
    body = httpx.get(shop_url + "/customers/acme", headers=BEARER, timeout=30).json()
    assert body["Name"] == "Acme" and body["Order"] == ["o-1"]


def test_the_shop_refuses_to_create_a_customer(servers: tuple[str, str, Path]) -> None:
    _, shop_url, _ = servers
    answer = httpx.post(shop_url + "/customers", json={"id": "bolt", "Name": "Bolt"},
                        headers=BEARER, timeout=30)
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"


def test_without_allow_outbound_the_crm_is_out_of_reach(
        servers: tuple[str, str, Path], tmp_path: Path) -> None:
    _, _, shop = servers
    with arest_serve(tmp_path, shop, "--db", str(tmp_path / "shop.db"), *FETCHING) as closed:
        answer = httpx.get(closed + "/customers/acme", headers=BEARER, timeout=30)
    assert answer.status_code == 502
    assert answer.json()["code"] == "external_unavailable"
    assert answer.json()["status"] == "address_not_allowed"


def test_a_stopped_crm_is_a_502_and_the_shop_keeps_serving(tmp_path: Path) -> None:
    crm = readings(tmp_path / "crm", CRM)
    with arest_serve(tmp_path, crm, "--db", str(tmp_path / "crm.db")) as crm_url:
        pass
    shop = readings(tmp_path / "shop", SHOP.format(url=crm_url))
    with arest_serve(tmp_path, shop, "--db", str(tmp_path / "shop.db"), *FETCHING,
                     "--allow-outbound", "127.0.0.1/32") as shop_url:
        answer = httpx.get(shop_url + "/customers/acme", headers=BEARER, timeout=30)
        orders = httpx.get(shop_url + "/orders", headers=BEARER, timeout=30)
    assert answer.status_code == 502 and answer.json()["status"] == "unreachable"
    assert orders.status_code == 200


def test_a_key_without_outbound_may_not_make_the_shop_fetch(
        servers: tuple[str, str, Path], tmp_path: Path) -> None:
    _, _, shop = servers
    with arest_serve(tmp_path, shop, "--db", str(tmp_path / "shop.db"), "--api-key", KEY,
                     "--allow-outbound", "127.0.0.1/32") as plain:
        answer = httpx.get(plain + "/customers/acme", headers=BEARER, timeout=30)
        orders = httpx.get(plain + "/orders", headers=BEARER, timeout=30)
    assert answer.status_code == 403
    assert answer.json()["code"] == "forbidden" and answer.json()["permission"] == "outbound"
    assert orders.status_code == 200
