"""search, explain, navigate, project and fetch over a backed noun fetch what they read, as
get and list do; derived facts resting on fetched facts say so, and explain ends at the fetch
(DESIGN §13)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import arest
from arest.api import ReadingError
from arest.pictures import explanation_svg
from arest.runtime.federation import Federation
from arest.runtime.outbound import Policy
from arest.runtime.tenant import Tenant
from arest.system.commands import Command
from tests.federation.json_api import Api, serving
from tests.federation.test_federation import ALLOWED, CLOCK, CUSTOMERS, READINGS

DERIVING = READINGS + """
Customer has Email Count.
  Each Customer has at most one Email Count.
* Customer has Email Count iff Email Count is the count of Email where that Customer has Email.
Order is named.
* Order is named iff Order was placed by some Customer and that Customer has some Name.
Visit(.Visit Id) is an entity type.
Visit includes Customer.
"""


@pytest.fixture
def api() -> Iterator[Api]:
    with serving(Api(collections={"customers": [dict(c) for c in CUSTOMERS]})) as running:
        yield running


def opened(tmp_path: Path, api: Api, readings: str = DERIVING,
           environ: dict[str, str] | None = None) -> Tenant:
    path = tmp_path / "crm.md"
    path.write_text(readings.format(url=api.url))
    tenant = Tenant.open(path, db=tmp_path / "t.db", clock=lambda: CLOCK)
    tenant.federate(Federation(ALLOWED, environ or {}, lambda: CLOCK))
    return tenant


def source(api: Api, path: str) -> dict[str, str]:
    return {"system": "crm", "url": api.url + path, "fetched_at": CLOCK}


def test_search_finds_fetched_entities(tmp_path: Path, api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        results = tenant.call("search", {"query": "bolt"})["results"]
    assert results[0]["id"] == "Customer:bolt"
    assert results[0]["source"] == source(api, "/customers")


def test_search_without_outbound_is_forbidden_and_sends_nothing(tmp_path: Path,
                                                                api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        error = tenant.run(Command("search", "", {"query": "acme"}), outbound=False)["error"]
    assert error["code"] == "forbidden" and error["permission"] == "outbound"
    assert api.requests == []


def test_fetch_reads_the_entity_a_search_found(tmp_path: Path, api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        document = tenant.call("fetch", {"id": "Customer:acme"})
    assert '"Acme"' in document["text"]
    assert document["source"] == source(api, "/customers/acme")


def test_navigate_from_a_backed_entity_to_local_ones(tmp_path: Path, api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        tenant.call("create:Order", {"id": "o1", "Customer": "acme"})
        out = tenant.call("navigate:Customer", {"id": "acme", "link": "orders"})
    assert [item["id"] for item in out["items"]] == ["o1"]
    assert api.requests[-1][0] == "/customers/acme"


def test_navigate_from_a_local_entity_to_backed_ones(tmp_path: Path, api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        tenant.call("create:Visit", {"id": "v1", "Customer": ["acme", "bolt"]})
        out = tenant.call("navigate:Visit", {"id": "v1", "link": "customers"})
    assert [(item["id"], item.get("Name")) for item in out["items"]] == [
        ("acme", "Acme"), ("bolt", "Bolt")]
    assert out["items"][0]["source"] == source(api, "/customers")


def test_project_a_backed_noun_and_its_fact_type(tmp_path: Path, api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        by_noun = tenant.call("project", {"noun": "Customer", "roles": ["id", "Name"]})
        by_fact = tenant.call("project", {"fact_type": "Customer_has_Name",
                                          "filter": {"Name": "Bolt"}})
    assert [row["Name"] for row in by_noun["rows"]] == ["Acme", "Bolt"]
    assert by_noun["rows"][0]["source"] == source(api, "/customers")
    assert by_fact["rows"] == [{"Customer": "bolt", "Name": "Bolt",
                                "source": source(api, "/customers")}]


def test_explain_ends_at_the_fetch(tmp_path: Path, api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        why = tenant.call("explain", {"fact_type": "Customer_has_Name",
                                      "bindings": ["acme", "Acme"]})
    assert why["derived"] is False
    [fetch] = why["antecedents"]
    assert fetch["source"] == source(api, "/customers/acme") and fetch["antecedents"] == []
    assert "crm" in fetch["reading"] and api.url + "/customers/acme" in fetch["reading"]
    assert [path for path, _ in api.requests] == ["/customers/acme"]


def test_a_derived_fact_depends_on_the_fetch_it_rests_on(tmp_path: Path, api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        tenant.call("create:Order", {"id": "o1", "Customer": "acme"})
        why = tenant.call("explain", {"fact_type": "Order_is_named", "bindings": ["o1"]})
        row = tenant.call("query:Order_is_named")["rows"][0]
        order = tenant.call("get:Order", "o1")
        local = tenant.call("query:Order_was_placed_by_Customer")["rows"][0]
    fetched = source(api, "/customers")
    assert why["derived"] is True and why["depends_on"] == [fetched]
    name = next(node for node in why["antecedents"] if node["fact_type"] == "Customer_has_Name")
    assert name["antecedents"][0]["source"] == fetched
    local_fact = next(node for node in why["antecedents"]
                      if node["fact_type"] == "Order_was_placed_by_Customer")
    assert local_fact["antecedents"] == [] and "depends_on" not in local_fact
    assert row == {"Order": "o1", "derived": True, "depends_on": [fetched]}
    assert order["is named"] is True and order["depends_on"] == [fetched]
    assert "depends_on" not in local and "source" not in local


def test_an_aggregate_over_fetched_facts_is_explained_down_to_its_fetch(tmp_path: Path,
                                                                      api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        why = tenant.call("explain", {"fact_type": "Customer_has_Email_Count",
                                      "bindings": ["acme", "2"]})
    emails = {node["bindings"]["Email"]: node for node in why["antecedents"]}
    assert sorted(emails) == ["a@acme.test", "b@acme.test"]
    assert all(node["antecedents"][0]["source"]["system"] == "crm" for node in emails.values())


def test_the_explanation_picture_draws_each_fetch_once(tmp_path: Path, api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        why = tenant.call("explain", {"fact_type": "Customer_has_Email_Count",
                                      "bindings": ["acme", "2"]})
    svg = explanation_svg(why)
    assert svg.count("<title>Fetched from crm") == 1
    assert svg.count('class="fact asserted"') == 3  # two fetched Emails and their fetch


def test_a_read_that_fetches_keeps_nothing(tmp_path: Path, api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        digest = tenant.digest
        tenant.call("search", {"query": "acme"})
        tenant.call("explain", {"fact_type": "Customer_has_Name", "bindings": ["acme", "Acme"]})
        assert tenant.digest == digest
        assert tenant.run(Command("query", "Customer_has_Name"), outbound=False)["error"][
            "code"] == "forbidden"


def test_a_failing_system_fails_a_search_with_external_unavailable(tmp_path: Path,
                                                                   api: Api) -> None:
    with opened(tmp_path, api) as tenant:
        api.collections.pop("customers")
        error = tenant.call("search", {"query": "acme"})["error"]
        assert tenant.call("explain", {"fact_type": "Customer_has_Email_Count", "bindings": [
            "acme", "2"]})["error"]["code"] == "external_unavailable"
    assert error["code"] == "external_unavailable" and error["status"] == 404


def test_a_fresh_answer_serves_the_other_verbs_too(tmp_path: Path, api: Api) -> None:
    fresh = DERIVING + "External System 'crm' has Freshness Seconds '3600'.\n"
    with opened(tmp_path, api, fresh) as tenant:
        tenant.call("list:Customer")
        asked = len(api.requests)
        tenant.call("search", {"query": "acme"})
        tenant.call("project", {"noun": "Customer"})
    assert len(api.requests) == asked


# Open world ----------------------------------------------------------------------------

MANDATORY = READINGS.replace("  Each Customer has at most one Name.",
                             "  Each Customer has exactly one Name.")


def test_a_missing_remote_fact_never_rejects_a_local_command(tmp_path: Path,
                                                             api: Api) -> None:
    with opened(tmp_path, api, MANDATORY) as tenant:
        out = tenant.call("create:Order", {"id": "o1", "Customer": "zed"})
        assert out["rejected"] is False
        [reported] = out["violations"]
        assert reported["reading"] == "Each Customer has exactly one Name."
        assert reported["open_world"] is True
        again = tenant.call("assert", {"fact_type": "Order_was_placed_by_Customer",
                                       "bindings": ["o1", "bolt"]})
    assert again["rejected"] is True  # a constraint over local facts still rejects


def test_readings_with_local_facts_about_a_backed_entity_compile() -> None:
    D = arest.compile(MANDATORY.format(url="https://crm.example.com")
                      + "Order 'o1' was placed by Customer 'zed'.\n")
    assert arest.apply(D, "query:Order_was_placed_by_Customer")[0]["total"] == 1


# Prefix ---------------------------------------------------------------------------------

def test_the_prefix_goes_before_the_secret_in_the_header_named(tmp_path: Path,
                                                               api: Api) -> None:
    named = READINGS.replace("'X-Tenant: acme'", "'X-Api-Key'") + \
        "External System 'crm' has Prefix 'Token'.\n"
    with opened(tmp_path, api, named, {"AREST_SECRET_CRM": "s3cret"}) as tenant:
        tenant.call("list:Customer")
    headers = api.requests[-1][1]
    assert headers["x-api-key"] == "Token s3cret" and "authorization" not in headers


def test_the_prefix_replaces_bearer_in_authorization(tmp_path: Path, api: Api) -> None:
    prefixed = READINGS + "External System 'crm' has Prefix 'Token'.\n"
    with opened(tmp_path, api, prefixed, {"AREST_SECRET_CRM": "s3cret"}) as tenant:
        tenant.call("get:Customer", "acme")
    assert api.requests[-1][1]["authorization"] == "Token s3cret"


def test_a_system_has_at_most_one_prefix() -> None:
    twice = READINGS.format(url="https://crm.example.com") + (
        "External System 'crm' has Prefix 'Token'.\nExternal System 'crm' has Prefix 'Bearer'.\n")
    with pytest.raises(ReadingError, match="at most one Prefix"):
        arest.compile(twice)


def test_an_address_not_allowed_fails_navigate_as_get(tmp_path: Path, api: Api) -> None:
    path = tmp_path / "crm.md"
    path.write_text(DERIVING.format(url=api.url))
    with Tenant.open(path, db=":memory:") as tenant:
        tenant.federate(Federation(Policy(timeout=2.0), {}, lambda: CLOCK))
        error = tenant.call("navigate:Customer", {"id": "acme", "link": "orders"})["error"]
    assert error["code"] == "external_unavailable" and error["status"] == "address_not_allowed"
