"""``arest serve``'s outbound options: the server's timeout and size bound for systems whose
readings give none, and the authority an operator trusts for https systems."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from arest.cli import main
from tests.federation.certificates import make_certificates
from tests.federation.json_api import Api, serving
from tests.federation.test_federation import CUSTOMERS
from tests.transports.serving import arest_serve

READINGS = """
Customer(.Customer Id) is an entity type.
Customer has Name.
  Each Customer has at most one Name.
Supplier(.Supplier Id) is an entity type.
Supplier has Name.
  Each Supplier has at most one Name.
Partner(.Partner Id) is an entity type.
Partner has Name.
  Each Partner has at most one Name.

Noun 'Customer' is backed by External System 'slow'.
External System 'slow' has URL '{http}'.
Noun 'Customer' has URI '/slow'.
Noun 'Supplier' is backed by External System 'huge'.
External System 'huge' has URL '{http}'.
Noun 'Supplier' has URI '/huge'.
Noun 'Partner' is backed by External System 'secure'.
External System 'secure' has URL '{https}'.
Noun 'Partner' has URI '/customers'.
"""


@pytest.fixture(scope="module")
def apis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, Api, Path]]:
    """A plain fixture, an https one, and the authority that signed the latter's
    certificate."""
    certificates = make_certificates(tmp_path_factory.mktemp("tls"))
    with serving(Api()) as plain, serving(
            Api(collections={"customers": [dict(c) for c in CUSTOMERS]}),
            tls=certificates.tls) as secure:
        yield plain, secure, certificates.authority


@pytest.mark.slow  # an arest serve process
def test_the_servers_bounds_and_trusted_authority_hold(tmp_path: Path,
                                                      apis: tuple[Api, Api, Path]) -> None:
    plain, secure, authority = apis
    readings = tmp_path / "domain.md"
    readings.write_text(READINGS.format(http=plain.url, https=secure.url))
    with arest_serve(tmp_path, readings, "--db", ":memory:", "--allow-outbound",
                     "127.0.0.1/32", "--admin-key", "k", "--outbound-timeout", "0.5",
                     "--outbound-max-bytes", "65536", "--outbound-ca-file",
                     str(authority)) as url, \
            httpx.Client(base_url=url, timeout=30,
                         headers={"Authorization": "Bearer k"}) as client:
        slow = client.get("/customers")
        large = client.get("/suppliers")
        partner = client.get("/partners/acme")
    assert slow.status_code == 504 and slow.json()["status"] == "timeout"
    assert large.status_code == 502 and large.json()["status"] == "too_large"
    assert large.json()["limit"] == 65536
    assert partner.status_code == 200 and partner.json()["Name"] == "Acme"
    assert partner.json()["source"]["url"] == secure.url + "/customers/acme"


def test_a_ca_file_that_holds_no_certificate_exits_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pem"
    empty.write_text("not a certificate\n")
    for path in (empty, tmp_path / "missing.pem"):
        result = CliRunner().invoke(main, ["serve", "--outbound-ca-file", str(path)])
        assert result.exit_code == 2
        assert "--outbound-ca-file" in result.output and "not a PEM file" in result.output
