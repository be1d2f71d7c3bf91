"""Outbound safety: every request goes only where the operator allowed, after DNS, on every
redirect, over http(s), within a deadline and a size bound (arest/runtime/outbound.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from arest.runtime.outbound import Policy, fetch, networks
from arest.system.errors import Refusal
from tests.federation.json_api import Api, serving

LOOPBACK = Policy(networks(["127.0.0.1/32"]), timeout=5.0, max_bytes=64 * 1024)


@pytest.fixture(scope="module")
def api() -> Iterator[Api]:
    with serving(Api(collections={"items": [{"id": "a", "Name": "first"}]})) as running:
        yield running


def refusal(url: str, policy: Policy = LOOPBACK, **headers: str) -> dict[str, object]:
    with pytest.raises(Refusal) as caught:
        fetch(url, policy, "crm", headers)
    error = caught.value.envelope["error"]
    assert error["code"] == "external_unavailable" and error["system"] == "crm"
    return error


def fixed(*addresses: str) -> Policy:
    """A policy whose resolver answers these addresses for any name."""
    return Policy(LOOPBACK.allowed, timeout=5.0, resolver=lambda host, port: list(addresses))


def test_an_allowed_address_is_fetched(api: Api) -> None:
    response = fetch(api.url + "/items", LOOPBACK, "crm")
    assert response.status == 200 and b'"first"' in response.body


def test_loopback_is_refused_unless_allowed(api: Api) -> None:
    error = refusal(api.url + "/items", Policy())
    assert error["status"] == "address_not_allowed"
    assert "--allow-outbound" in str(error["expected"])


@pytest.mark.parametrize("address", ["10.0.0.5", "192.168.1.1", "172.16.0.1", "100.64.0.1",
                                     "169.254.169.254", "::1", "fd00::1", "fe80::1",
                                     "::ffff:127.0.0.1", "0.0.0.0"])
def test_private_link_local_and_metadata_addresses_are_refused(address: str) -> None:
    url = f"http://[{address}]/x" if ":" in address else f"http://{address}/x"
    assert refusal(url, Policy(timeout=1.0))["status"] == "address_not_allowed"


def test_a_name_resolving_to_a_private_address_is_refused() -> None:
    error = refusal("http://crm.example/x", fixed("10.1.2.3"))
    assert error["status"] == "address_not_allowed" and error["addresses"] == ["10.1.2.3"]


def test_a_name_resolving_to_a_global_and_a_private_address_is_refused() -> None:
    assert refusal("http://crm.example/x", fixed("93.184.216.34", "10.1.2.3"))["status"] == (
        "address_not_allowed")


def test_localhost_is_refused_after_resolution() -> None:
    error = refusal("http://localhost:9/x", Policy(timeout=1.0))
    assert error["status"] == "address_not_allowed" and error["host"] == "localhost"


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.com/x", "gopher://x/",
                                 "//example.com/x"])
def test_only_http_and_https_are_fetched(url: str) -> None:
    assert refusal(url)["status"] == "scheme_not_allowed"


def test_a_redirect_to_a_private_address_is_refused(api: Api) -> None:
    error = refusal(api.url + "/redirect?to=http://169.254.169.254/latest/meta-data/")
    assert error["status"] == "address_not_allowed"
    assert error["addresses"] == ["169.254.169.254"]


def test_a_redirect_to_an_allowed_address_is_followed(api: Api) -> None:
    response = fetch(api.url + "/redirect?to=/items/a", LOOPBACK, "crm")
    assert response.status == 200 and b'"first"' in response.body


def test_redirects_are_bounded(api: Api) -> None:
    assert refusal(api.url + "/loop")["status"] == "too_many_redirects"


def test_a_redirect_to_another_host_drops_the_systems_headers(api: Api) -> None:
    both = Policy(networks(["127.0.0.0/8", "::1/128"]), timeout=5.0)
    api.requests.clear()
    target = f"http://localhost:{api.port}/items"
    fetch(api.url + "/redirect?to=" + target, both, "crm", {"Authorization": "Bearer s3cret"})
    assert api.requests[0][1].get("authorization") == "Bearer s3cret"
    assert "authorization" not in api.requests[1][1]


@pytest.mark.parametrize("path", ["/huge", "/huge-chunked"])
def test_a_body_beyond_the_bound_is_refused(api: Api, path: str) -> None:
    error = refusal(api.url + path)
    assert error["status"] == "too_large" and error["limit"] == 64 * 1024


def test_a_slow_body_is_cut_off() -> None:
    with serving(Api()) as slow:
        error = refusal(slow.url + "/slow", Policy(LOOPBACK.allowed, timeout=0.5))
    assert error["status"] == "timeout"


def test_a_failing_system_answers_its_status(api: Api) -> None:
    assert fetch(api.url + "/fail", LOOPBACK, "crm").status == 500


def test_an_unreachable_port_is_unavailable() -> None:
    assert refusal("http://127.0.0.1:9/x")["status"] == "unreachable"


def test_an_error_never_holds_the_headers_sent() -> None:
    error = refusal("http://10.0.0.1/x", Policy(), Authorization="Bearer s3cret")
    assert "s3cret" not in repr(error)


def test_an_allowed_range_must_be_a_cidr() -> None:
    with pytest.raises(ValueError, match="not a CIDR"):
        networks(["localhost"])
