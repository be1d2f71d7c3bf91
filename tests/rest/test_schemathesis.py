"""Schemathesis, driven by the served ``/openapi.json``, against a real ``arest serve``
(DESIGN §9): no 5xx, no response that breaks the document, no status it
does not list.

Every check runs (schemathesis' default) but ``positive_data_acceptance``: a request the
document allows may still break a constraint of the readings (a mandatory role left out, a
reference to an entity that does not exist), and that is a 4xx by design.  A derived fact
type has no POST or DELETE in the document, while the route table still answers them (400
``derived_fact_type``) and ``Allow`` names them, so ``unsupported_method`` and
``allow_header_conformance`` are off for those paths alone.  A request naming an
``Arest-Min-Sequence`` past the tenant's journal is 409 ``not_yet`` (docs/scale.md), listed
for every operation.  The server holds an admin key, so the fuzzer also checks that a
request without it is refused.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.corpus import OWN_READINGS
from tests.transports.serving import arest_serve

KEY = "schemathesis-admin-key"
SEED = "1"
MAX_EXAMPLES = "6"
"""Cases per operation and phase: enough that each route meets valid and invalid input,
few enough for a couple of minutes on two cores."""

ENTITIES = {
    "orders": [
        ("create:Customer", {"id": "ann@example.com", "Name": "Ann"}),
        ("create:Order", {"id": "ord-1", "Customer": "ann@example.com", "Priority": "rush"}),
        ("create:LineItem", {"id": "li-1", "Order": "ord-1", "Product": "sku-hammer",
                             "Quantity": "2"}),
    ],
    "tracker": [
        ("create:Person", {"id": "zed", "Display Name": "Zed"}),
        ("create:Project", {"id": "ARC", "Title": "Arc"}),
        ("create:Issue", {"id": "ARC-1", "Project": "ARC", "Title": "First",
                          "Priority": "high", "Points": 3}),
        ("transition:Issue", {"id": "ARC-1", "event": "triage"}),
    ],
}


def _program(name: str) -> str:
    return str(Path(sys.executable).parent / name)


def _seeded(domain: str, database: Path) -> None:
    for key, request in ENTITIES[domain]:
        done = subprocess.run(
            [_program("arest"), "apply", key, json.dumps(request), "--readings",
             str(OWN_READINGS / domain), "--db", str(database)],
            capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr


def _configuration(document: dict[str, object], folder: Path) -> Path:
    """schemathesis.toml: every check but positive_data_acceptance; on the fact types the
    document gives no POST, neither unsupported_method nor allow_header_conformance."""
    paths = document["paths"]
    assert isinstance(paths, dict)
    derived = sorted(path for path, item in paths.items()
                     if re.fullmatch(r"/facts/[^/]+", path) and "post" not in item)
    lines = ["[checks]", "positive_data_acceptance.enabled = false", ""]
    for path in derived:
        lines += ["[[operations]]", f"include-path = {json.dumps(path)}",
                  "checks.unsupported_method.enabled = false",
                  "checks.allow_header_conformance.enabled = false", ""]
    config = folder / "schemathesis.toml"
    config.write_text("\n".join(lines), encoding="utf-8")
    return config


@pytest.mark.slow
@pytest.mark.parametrize("domain", sorted(ENTITIES))
def test_schemathesis_finds_nothing_the_document_does_not_say(domain: str, tmp_path: Path
                                                               ) -> None:
    database = tmp_path / "tenant.db"
    _seeded(domain, database)
    with arest_serve(tmp_path, OWN_READINGS / domain, "--db", str(database),
                     "--admin-key", KEY) as url:
        served = urllib.request.Request(f"{url}/openapi.json",
                                        headers={"Authorization": f"Bearer {KEY}"})
        with urllib.request.urlopen(served, timeout=60) as response:
            config = _configuration(json.load(response), tmp_path)
        run = subprocess.run(
            [_program("schemathesis"), "--config-file", str(config), "run",
             f"{url}/openapi.json", "--header", f"Authorization: Bearer {KEY}",
             "--max-examples", MAX_EXAMPLES, "--seed", SEED,
             "--workers", "1", "--generation-database", "none", "--no-color",
             "--report", "junit", "--report-junit-path", str(tmp_path / "junit.xml")],
            capture_output=True, text=True, timeout=900, cwd=tmp_path)
    summary = run.stdout[-3000:]
    cases = re.search(r"(\d+) generated", run.stdout)
    print(f"{domain}: {cases.group(1) if cases else '?'} cases\n{summary}")
    assert cases is not None and int(cases.group(1)) > 0, summary
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-2000:]
