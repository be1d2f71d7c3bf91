"""What REST answers to bodies of the wrong shape (DESIGN §9): a 400 problem, never a
success that read them as something else."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import arest
from arest.rest.answer import Request, answer
from arest.system.context import AGENT
from arest.system.permissions import Principal
from tests.corpus import OWN_READINGS

EVERYTHING = Principal(AGENT, frozenset({"read", "write", "schema", "history"}))


@pytest.fixture()
def tenant() -> Iterator[arest.Tenant]:
    with arest.Tenant.open(OWN_READINGS / "orders") as opened:
        opened.call("create:Customer", {"id": "ann", "Name": "Ann"})
        yield opened


@pytest.mark.parametrize(("method", "path"), [
    ("PATCH", "/customers/ann"), ("POST", "/customers"), ("POST", "/snapshots"),
    ("POST", "/facts/Customer_has_Name"), ("POST", "/readings")])
def test_a_null_body_is_invalid_input(tenant: arest.Tenant, method: str, path: str) -> None:
    response = answer(tenant, Request(method, path, EVERYTHING, body=b"null",
                                      content_type="application/json"))
    assert response.status == 400
    assert response.body["code"] == "invalid_input"


def test_no_body_is_still_an_empty_update(tenant: arest.Tenant) -> None:
    response = answer(tenant, Request("PATCH", "/customers/ann", EVERYTHING))
    assert response.status == 200


def test_a_body_of_whitespace_is_not_json(tenant: arest.Tenant) -> None:
    response = answer(tenant, Request("POST", "/customers", EVERYTHING, body=b"\n",
                                      content_type="application/json"))
    assert (response.status, response.body["code"]) == (400, "not_json")
