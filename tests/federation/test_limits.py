"""A system's own Timeout Seconds and Max Response Bytes (its readings) bound each request to
it when below the server's bounds (``--outbound-timeout``, ``--outbound-max-bytes``), which
are ceilings; a system without them has the server's.  Past a bound the read is
``external_unavailable`` and the tenant answers the next read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import arest
from arest.api import ReadingError
from arest.rest.answer import problem
from arest.runtime.federation import Federation
from arest.runtime.outbound import Policy, networks
from arest.runtime.tenant import Tenant
from tests.federation.json_api import Api, serving
from tests.federation.test_federation import CLOCK, CUSTOMERS

READINGS = """
Customer(.Customer Id) is an entity type.
Customer has Name.
  Each Customer has at most one Name.
Supplier(.Supplier Id) is an entity type.
Supplier has Name.
  Each Supplier has at most one Name.

Noun 'Customer' is backed by External System 'crm'.
External System 'crm' has URL '{url}'.
Noun 'Customer' has URI '{uri}'.
{settings}
Noun 'Supplier' is backed by External System 'erp'.
External System 'erp' has URL '{url}'.
Noun 'Supplier' has URI '/customers'.
"""

LOOPBACK = networks(["127.0.0.1/32"])


@pytest.fixture
def api() -> Iterator[Api]:
    with serving(Api(collections={"customers": [dict(c) for c in CUSTOMERS]})) as running:
        yield running


def tenant_for(tmp_path: Path, api: Api, uri: str, settings: str, policy: Policy) -> Tenant:
    readings = tmp_path / "limits.md"
    readings.write_text(READINGS.format(url=api.url, uri=uri, settings=settings))
    tenant = Tenant.open(readings, db=":memory:", clock=lambda: CLOCK)
    tenant.federate(Federation(policy, {}, lambda: CLOCK))
    return tenant


def test_a_slow_body_past_the_systems_timeout_is_a_504_and_the_next_read_is_served(
        tmp_path: Path, api: Api) -> None:
    settings = "External System 'crm' has Timeout Seconds '0.5'."
    # The server allows 30 s: the system's own 0.5 s is what cuts the 10 s body off.
    with tenant_for(tmp_path, api, "/slow", settings, Policy(LOOPBACK, timeout=30.0)) as tenant:
        error = tenant.call("list:Customer")["error"]
        following = tenant.call("list:Supplier")
    assert error["code"] == "external_unavailable" and error["status"] == "timeout"
    assert "0.5 s" in error["message"]
    assert problem(error["code"], error["message"], system="crm",
                   status="timeout").status == 504
    assert [item["id"] for item in following["items"]] == ["acme", "bolt"]


@pytest.mark.parametrize("uri", ["/huge", "/huge-chunked"])
def test_a_body_past_the_systems_bound_is_refused_and_the_next_read_is_served(
        tmp_path: Path, api: Api, uri: str) -> None:
    settings = "External System 'crm' has Max Response Bytes '65536'."
    with tenant_for(tmp_path, api, uri, settings, Policy(LOOPBACK, timeout=5.0)) as tenant:
        error = tenant.call("list:Customer")["error"]
        following = tenant.call("list:Supplier")
    assert error["code"] == "external_unavailable" and error["status"] == "too_large"
    assert error["limit"] == 65536
    assert problem(error["code"], error["message"], system="crm",
                   status="too_large").status == 502
    assert following["total"] == 2


def test_without_readings_the_servers_bounds_hold(tmp_path: Path, api: Api) -> None:
    bounded = Policy(LOOPBACK, timeout=0.5, max_bytes=65536)
    with tenant_for(tmp_path, api, "/huge", "", bounded) as tenant:
        large = tenant.call("list:Customer")["error"]
    with tenant_for(tmp_path, api, "/slow", "", bounded) as tenant:
        slow = tenant.call("list:Customer")["error"]
    assert large["status"] == "too_large" and large["limit"] == 65536
    assert slow["status"] == "timeout"


def test_a_systems_reading_above_the_servers_bound_is_held_to_the_servers_bound(
        tmp_path: Path, api: Api) -> None:
    settings = ("External System 'crm' has Max Response Bytes '2097152'.\n"
                "External System 'crm' has Timeout Seconds '30'.")
    small = Policy(LOOPBACK, timeout=0.5, max_bytes=1024)
    with tenant_for(tmp_path, api, "/huge", settings, small) as tenant:
        large = tenant.call("list:Customer")["error"]  # a 1 MiB body: past the server's 1 KiB
    with tenant_for(tmp_path, api, "/slow", settings, small) as tenant:
        slow = tenant.call("list:Customer")["error"]  # a 10 s body: past the server's 0.5 s
        other = tenant.call("list:Supplier")  # within the server's 1 KiB
    assert large["status"] == "too_large" and large["limit"] == 1024
    assert slow["status"] == "timeout" and "0.5 s" in slow["message"]
    assert other["total"] == 2


def test_a_systems_reading_below_the_servers_bound_applies(tmp_path: Path, api: Api) -> None:
    settings = "External System 'crm' has Max Response Bytes '100'."
    with tenant_for(tmp_path, api, "/customers", settings,
                    Policy(LOOPBACK, timeout=5.0)) as tenant:
        held = tenant.call("list:Customer")["error"]  # two customers: more than 100 bytes
        other = tenant.call("list:Supplier")  # the same body, under the server's 8 MiB
    assert held["status"] == "too_large" and held["limit"] == 100
    assert other["total"] == 2


@pytest.mark.parametrize(("setting", "value", "said"), [
    ("Timeout Seconds", "soon", "a number of seconds above 0"),
    ("Timeout Seconds", "0", "a number of seconds above 0"),
    ("Max Response Bytes", "1.5", "a whole number of bytes above 0"),
    ("Max Response Bytes", "0", "a whole number of bytes above 0"),
    ("Freshness Seconds", "-1", "0 or more"),
])
def test_a_setting_that_is_not_such_a_number_is_a_reading_error(setting: str, value: str,
                                                               said: str) -> None:
    text = READINGS.format(url="https://crm.example.com", uri="/customers",
                           settings=f"External System 'crm' has {setting} '{value}'.")
    with pytest.raises(ReadingError, match=f"{setting} '{value}'") as caught:
        arest.compile(text)
    assert said in str(caught.value)


def test_the_settings_are_read_as_facts_of_the_system() -> None:
    text = READINGS.format(url="https://crm.example.com", uri="/customers", settings=(
        "External System 'crm' has Timeout Seconds '2.5'.\n"
        "External System 'crm' has Max Response Bytes '1048576'."))
    D = arest.compile(text)
    timeout = arest.apply(D, "query:External_System_has_Timeout_Seconds")[0]["rows"]
    limit = arest.apply(D, "query:External_System_has_Max_Response_Bytes")[0]["rows"]
    assert [row["Timeout Seconds"] for row in timeout] == ["2.5"]
    assert [row["Max Response Bytes"] for row in limit] == ["1048576"]
