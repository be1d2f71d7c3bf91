"""An https external system is fetched when the operator trusts its certificate's authority
(``--outbound-ca-file``, or ``SSL_CERT_FILE``), and refused with the certificate's reason when
not; the certificate is checked against the URL's host."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from arest.runtime.federation import Federation
from arest.runtime.outbound import Policy, TlsContexts, fetch, networks
from arest.runtime.tenant import Tenant
from arest.system.errors import Refusal
from tests.federation.certificates import Certificates, make_certificates
from tests.federation.json_api import Api, serving
from tests.federation.test_federation import CLOCK, CUSTOMERS, READINGS

LOOPBACK = networks(["127.0.0.1/32"])


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    return make_certificates(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def https_api(certificates: Certificates) -> Iterator[Api]:
    api = Api(collections={"customers": [dict(c) for c in CUSTOMERS]})
    with serving(api, tls=certificates.tls) as running:
        yield running


def tenant_over(tmp_path: Path, api: Api, policy: Policy) -> Tenant:
    readings = tmp_path / "crm.md"
    readings.write_text(READINGS.format(url=api.url))
    tenant = Tenant.open(readings, db=":memory:", clock=lambda: CLOCK)
    tenant.federate(Federation(policy, {}, lambda: CLOCK))
    return tenant


def test_https_is_fetched_when_the_operator_trusts_the_authority(
        tmp_path: Path, https_api: Api, certificates: Certificates) -> None:
    trusted = Policy(LOOPBACK, timeout=5.0, ca_file=str(certificates.authority))
    with tenant_over(tmp_path, https_api, trusted) as tenant:
        out = tenant.call("get:Customer", "acme")
    assert https_api.url.startswith("https://")
    assert out["Name"] == "Acme" and out["source"]["url"] == https_api.url + "/customers/acme"


def test_an_untrusted_certificate_is_unavailable_with_its_reason(
        tmp_path: Path, https_api: Api) -> None:
    with tenant_over(tmp_path, https_api, Policy(LOOPBACK, timeout=5.0)) as tenant:
        error = tenant.call("get:Customer", "acme")["error"]
        assert tenant.call("list:Order")["total"] == 0  # the rest keeps working
    assert error["code"] == "external_unavailable" and error["system"] == "crm"
    assert error["status"] == "certificate_not_trusted"
    assert "certificate" in error["reason"] and "--outbound-ca-file" in error["expected"]
    assert https_api.requests == []  # nothing was sent over the untrusted connection


def test_the_certificate_must_name_the_urls_host(https_api: Api,
                                                 certificates: Certificates) -> None:
    both = Policy(networks(["127.0.0.0/8", "::1/128"]), timeout=5.0,
                  ca_file=str(certificates.authority))
    with pytest.raises(Refusal) as caught:
        fetch(f"https://localhost:{https_api.port}/customers", both, "crm")
    error = caught.value.envelope["error"]
    assert error["status"] == "certificate_not_trusted" and "localhost" in error["reason"]


def test_ssl_cert_file_replaces_the_systems_store(
        https_api: Api, certificates: Certificates, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certificates.authority))
    response = fetch(https_api.url + "/customers/acme", Policy(LOOPBACK, timeout=5.0), "crm")
    assert response.status == 200 and b'"Acme"' in response.body


def test_a_ca_file_that_cannot_be_read_is_said(https_api: Api, tmp_path: Path) -> None:
    gone = Policy(LOOPBACK, timeout=5.0, ca_file=str(tmp_path / "removed.pem"))
    with pytest.raises(Refusal) as caught:
        fetch(https_api.url + "/customers", gone, "crm")
    error = caught.value.envelope["error"]
    assert error["status"] == "certificate_not_trusted"
    assert "removed.pem cannot be used" in error["message"]


def test_one_tls_context_serves_every_https_request_of_a_policy(
        https_api: Api, certificates: Certificates) -> None:
    trusted = Policy(LOOPBACK, timeout=5.0, ca_file=str(certificates.authority))
    first = fetch(https_api.url + "/customers/acme", trusted, "crm")
    assert len(trusted.tls) == 1  # built by the first request
    context = trusted.tls.context(trusted.ca_file)
    second = fetch(https_api.url + "/customers/bolt", replace(trusted, timeout=2.0), "crm")
    assert first.status == second.status == 200
    assert len(trusted.tls) == 1 and trusted.tls.context(trusted.ca_file) is context


def test_the_tls_contexts_kept_are_bounded(certificates: Certificates, tmp_path: Path) -> None:
    contexts = TlsContexts(limit=2)
    files = [tmp_path / f"ca-{n}.pem" for n in range(3)]
    for each in files:
        each.write_bytes(certificates.authority.read_bytes())
        contexts.context(str(each))
    assert len(contexts) == 2
