"""Reads of a backed noun fetch from its external system, through the tenant (DESIGN §13)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from arest.rest.answer import problem
from arest.runtime.federation import Federation
from arest.runtime.outbound import Policy, networks
from arest.runtime.tenant import Tenant
from arest.system.commands import Command
from tests.federation.json_api import Api, serving

READINGS = """
Customer(.Customer Id) is an entity type.
Customer has Name.
  Each Customer has at most one Name.
Customer has Email.
Order(.Order Id) is an entity type.
Order was placed by Customer.
  Each Order was placed by at most one Customer.

Noun 'Customer' is backed by External System 'crm'.
External System 'crm' has URL '{url}'.
External System 'crm' has Header 'X-Tenant: acme'.
Noun 'Customer' has URI '/customers'.
"""

CUSTOMERS = [{"id": "acme", "Name": "Acme", "Email": ["a@acme.test", "b@acme.test"],
              "noun": "Customer", "_links": {}, "unknown": 7},
             {"id": "bolt", "Name": "Bolt", "Email": []}]

ALLOWED = Policy(networks(["127.0.0.1/32"]), timeout=5.0)
CLOCK = "2026-12-02T00:00:00Z"


@pytest.fixture
def api() -> Iterator[Api]:
    with serving(Api(collections={"customers": [dict(c) for c in CUSTOMERS]})) as running:
        yield running


def tenant_for(tmp_path, api: Api, policy: Policy = ALLOWED,
               environ: dict[str, str] | None = None) -> Tenant:
    readings = tmp_path / "crm.md"
    readings.write_text(READINGS.format(url=api.url))
    tenant = Tenant.open(readings, db=tmp_path / "t.db", clock=lambda: CLOCK)
    tenant.federate(Federation(policy, environ or {}, lambda: CLOCK))
    return tenant


def test_get_reads_one_entity_from_the_system_with_its_source(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        out = tenant.call("get:Customer", "acme")
    assert out["Name"] == "Acme" and sorted(out["Email"]) == ["a@acme.test", "b@acme.test"]
    assert out["source"] == {"system": "crm", "url": api.url + "/customers/acme",
                             "fetched_at": CLOCK}
    assert "unknown" not in out
    assert api.requests[-1][0] == "/customers/acme"
    assert api.requests[-1][1]["x-tenant"] == "acme"


def test_list_reads_the_collection(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        out = tenant.call("list:Customer")
    assert out["total"] == 2
    assert [item["id"] for item in out["items"]] == ["acme", "bolt"]
    assert all(item["source"]["url"] == api.url + "/customers" for item in out["items"])


def served_at(tmp_path, api: Api, uri: str) -> Tenant:
    readings = tmp_path / "paged.md"
    readings.write_text(READINGS.replace("'/customers'", f"'{uri}'").format(url=api.url))
    tenant = Tenant.open(readings, db=":memory:")
    tenant.federate(Federation(ALLOWED, {}, lambda: CLOCK))
    return tenant


def test_a_paged_collection_is_read_to_its_last_page(tmp_path, api: Api) -> None:
    with served_at(tmp_path, api, "/pages") as tenant:
        out = tenant.call("list:Customer")
    assert [item["id"] for item in out["items"]] == ["acme", "bolt"]
    assert [path for path, _ in api.requests] == ["/pages", "/pages"]


def test_a_next_page_on_another_origin_is_not_followed(tmp_path, api: Api) -> None:
    with served_at(tmp_path, api, "/elsewhere") as tenant:
        error = tenant.call("list:Customer")["error"]
    assert error["status"] == "bad_response" and "another origin" in error["message"]
    assert [path for path, _ in api.requests] == ["/elsewhere"]


def test_a_missing_remote_entity_is_unknown(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        assert tenant.call("read:Customer", "zed")["error"]["code"] == "unknown_entity"


def test_query_over_a_backed_nouns_fact_type(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        out = tenant.call("query:Customer_has_Name", {"Name": "Bolt"})
    assert [row["Customer"] for row in out["rows"]] == ["bolt"]
    assert out["rows"][0]["source"]["system"] == "crm"


def test_a_read_is_not_journaled_nor_kept(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        digest = tenant.digest
        tenant.call("list:Customer")
        assert tenant.digest == digest
        assert tenant.call("list:Customer", None)["total"] == 2
        assert "Customer_has_Name" not in tenant.state or len(
            tenant.state["Customer_has_Name"]) == 0


def test_the_cache_revalidates_with_the_etag(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        tenant.call("get:Customer", "acme")
        api.collections["customers"][0]["Name"] = "Acme Ltd"
        assert tenant.call("get:Customer", "acme")["Name"] == "Acme Ltd"
        assert "if-none-match" in api.requests[-1][1]
        assert tenant.call("get:Customer", "acme")["Name"] == "Acme Ltd"
    assert api.answered[-1] == 304


def test_a_fresh_answer_is_used_without_asking_again(tmp_path, api: Api) -> None:
    fresh = READINGS + "External System 'crm' has Freshness Seconds '3600'.\n"
    readings = tmp_path / "crm.md"
    readings.write_text(fresh.format(url=api.url))
    with Tenant.open(readings, db=":memory:") as tenant:
        tenant.federate(Federation(ALLOWED, {}, lambda: CLOCK))
        tenant.call("list:Customer")
        asked = len(api.requests)
        api.collections["customers"][0]["Name"] = "Acme Ltd"
        names = [item.get("Name") for item in tenant.call("list:Customer")["items"]]
    assert len(api.requests) == asked and names == ["Acme", "Bolt"]


def test_local_facts_about_a_backed_entity_join_the_fetched_ones(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        created = tenant.call("create:Order", {"id": "o1", "Customer": "acme"})
        assert created["rejected"] is False
        out = tenant.call("get:Customer", "acme")
    assert out["Name"] == "Acme" and out["Order"] == ["o1"]


@pytest.mark.parametrize(("key", "request_"), [
    ("create:Customer", {"id": "new", "Name": "New"}),
    ("update:Customer", {"id": "acme", "Name": "Other"}),
    ("delete:Customer", "acme"),
    ("assert", {"fact_type": "Customer_has_Name", "bindings": ["acme", "X"]}),
])
def test_writes_to_a_backed_nouns_own_facts_are_forbidden(tmp_path, api: Api, key: str,
                                                          request_: object) -> None:
    with tenant_for(tmp_path, api) as tenant:
        error = tenant.call(key, request_)["error"]
    assert error["code"] == "forbidden" and error["system"] == "crm"


def test_a_caller_without_outbound_may_not_make_the_tenant_fetch(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        asked = len(api.requests)
        error = tenant.run(Command("list", "Customer"), outbound=False)["error"]
        assert tenant.run(Command("list", "Order"), outbound=False)["total"] == 0
    assert error["code"] == "forbidden" and error["permission"] == "outbound"
    assert len(api.requests) == asked


def test_a_failing_system_is_unavailable_with_its_status(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        api.collections.pop("customers")
        api.collections["other"] = []
        error = tenant.call("list:Customer")["error"]
    assert error == {**error, "code": "external_unavailable", "system": "crm", "status": 404}


def test_an_address_the_operator_did_not_allow_is_refused(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api, Policy(timeout=2.0)) as tenant:
        error = tenant.call("list:Customer")["error"]
        assert tenant.call("list:Order")["total"] == 0  # the rest keeps working
    assert error["code"] == "external_unavailable" and error["status"] == "address_not_allowed"


def test_the_secret_comes_from_the_environment_and_is_never_echoed(tmp_path, api: Api) -> None:
    environ = {"AREST_SECRET_CRM": "s3cret"}
    with tenant_for(tmp_path, api, environ=environ) as tenant:
        tenant.call("list:Customer")
        assert api.requests[-1][1]["authorization"] == "Bearer s3cret"
        api.collections.pop("customers")
        error = tenant.call("list:Customer")
        assert "s3cret" not in repr(error) and "s3cret" not in repr(dict(tenant.state))
    assert b"s3cret" not in (tmp_path / "t.db").read_bytes()


def test_an_answer_that_does_not_map_is_a_bad_response(tmp_path, api: Api) -> None:
    api.collections["customers"] = [{"Name": "no id"}]
    with tenant_for(tmp_path, api) as tenant:
        error = tenant.call("list:Customer")["error"]
    assert error["code"] == "external_unavailable" and error["status"] == "bad_response"


def test_a_slow_system_times_out_and_rest_answers_504(tmp_path, api: Api) -> None:
    slow = READINGS.replace("Noun 'Customer' has URI '/customers'.", "Noun 'Customer' has URI "
                            "'/slow'.")
    readings = tmp_path / "slow.md"
    readings.write_text(slow.format(url=api.url))
    with Tenant.open(readings, db=":memory:") as tenant:
        tenant.federate(Federation(Policy(ALLOWED.allowed, timeout=0.5), {}, lambda: CLOCK))
        out = tenant.call("list:Customer")
    assert out["error"]["status"] == "timeout"
    assert problem(out["error"]["code"], out["error"]["message"],
                   system="crm", status="timeout").status == 504
    assert problem("external_unavailable", "down", system="crm", status=500).status == 502


def test_get_with_a_filter_reads_the_collection(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        out = tenant.call("get:Customer", {"filter": {"Name": "Bolt"}})
    assert [item["id"] for item in out["items"]] == ["bolt"]


def test_a_bad_id_is_the_commands_own_error(tmp_path, api: Api) -> None:
    with tenant_for(tmp_path, api) as tenant:
        asked = len(api.requests)
        error = tenant.call("read:Customer", {"id": "acme", "extra": 1})["error"]
    assert error["code"] == "invalid_input" and len(api.requests) == asked


def test_an_item_identified_by_its_reference_value_type_is_marked(tmp_path, api: Api) -> None:
    api.collections["customers"] = [{"Customer Id": "acme", "Name": "Acme"}]
    with tenant_for(tmp_path, api) as tenant:
        out = tenant.call("list:Customer")
    assert out["items"][0]["id"] == "acme" and out["items"][0]["source"]["system"] == "crm"


def test_rules_derive_over_fetched_facts(tmp_path, api: Api) -> None:
    counted = READINGS + (
        "Customer has Email Count.\n  Each Customer has at most one Email Count.\n"
        "* Customer has Email Count iff Email Count is the count of Email"
        " where that Customer has Email.\n")
    readings = tmp_path / "counted.md"
    readings.write_text(counted.format(url=api.url))
    api.collections["customers"][0]["Email Count"] = "7"  # derived here, so not fetched
    with Tenant.open(readings, db=":memory:") as tenant:
        tenant.federate(Federation(ALLOWED, {}, lambda: CLOCK))
        out = tenant.call("get:Customer", "acme")
    assert out["Email Count"] == "2"
