"""Read-your-writes across servers on one tenant in PostgreSQL (docs/scale.md): a write
answered by one server names its sequence, and another server asked for at least that
sequence answers on a D holding the write, whether or not it had heard of it yet."""

from __future__ import annotations

from pathlib import Path

import anyio
import httpx

import arest
from arest.transports.sequence import reached
from tests.postgres import Database
from tests.runtime.test_servers import ORDERS
from tests.transports.serving import arest_serve


def test_a_tenant_asked_for_a_sequence_it_has_not_followed_yet_catches_up(
        pg_database: Database) -> None:
    db = f"{pg_database.url}&tenant=shop"
    with arest.Tenant.open(ORDERS, db=db) as writer, \
            arest.Tenant.open(ORDERS, db=db) as reader:
        # The reader hears of nothing by itself: only a minimum can bring it the write.
        assert reader._follower is not None
        reader._follower.stop()
        out = writer.call("create:Customer", {"id": "ann@example.com", "Name": "Ann"})
        assert out.get("rejected") is False, out
        assert reader.sequence < writer.sequence
        assert anyio.run(reached, reader, writer.sequence)
        assert reader.sequence == writer.sequence
        got = arest.apply(reader.state, "read:Customer", {"id": "ann@example.com"})[0]
        assert got["id"] == "ann@example.com", got


def test_two_servers_of_two_tenants_read_each_others_writes_by_sequence(
        pg_database: Database, tmp_path: Path) -> None:
    options = ("--db", pg_database.url, "--tenant", "east", "--tenant", "west")
    with arest_serve(tmp_path, ORDERS, *options) as first, \
            arest_serve(tmp_path, ORDERS, *options) as second, \
            httpx.Client(timeout=60) as client:
        made = client.post(f"{first}/t/east/customers",
                           json={"id": "bo@example.com", "Name": "Bo"})
        assert made.status_code == 201, made.text
        assert made.headers["location"] == "/t/east/customers/bo%40example.com"
        sequence = made.headers["arest-sequence"]
        read = client.get(f"{second}/t/east/customers/bo%40example.com",
                          headers={"Arest-Min-Sequence": sequence})
        assert read.status_code == 200, read.text
        assert int(read.headers["arest-sequence"]) >= int(sequence)
        assert read.json()["_links"]["self"]["href"] == "/t/east/customers/bo%40example.com"
        apart = client.get(f"{second}/t/west/customers/bo%40example.com")
        assert apart.status_code == 404 and apart.json()["code"] == "unknown_entity"
