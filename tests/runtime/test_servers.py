"""Several ``arest serve`` processes on one tenant in PostgreSQL: writes sent to all of them
at once are each kept exactly once, and every server comes to serve the same D; a server
killed mid-load loses nothing it acknowledged.  Real processes over HTTP."""

import http.client
import json
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import arest
from tests.postgres import Database, query
from tests.runtime.test_pg_mirror import exported, mirrored

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"
PER_WRITER = 12
KILLS = 20


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def request(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    sent = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, method=method,
                                  headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(sent, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def serving(db: str) -> tuple[subprocess.Popen[str], int]:
    """A server of the tenant, once it listens."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "arest", "serve", str(ORDERS), "--db", db,
                               "--port", str(port)], stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    banner = server.stderr.readline()
    assert "arest serve:" in banner, banner + server.stderr.read()
    for _ in range(600):
        try:
            request(port, "GET", "/")
            return server, port
        except urllib.error.URLError:
            time.sleep(0.05)
    raise AssertionError("the server never listened")


def customer_ids(port: int) -> set[str]:
    status, listed = request(port, "GET", "/customers?limit=1000")
    assert status == 200, listed
    return {item["id"] for item in listed["items"]}


def write_through(ports: list[int], writers: int, acknowledged: list[str],
                  prefix: str, per_writer: int = PER_WRITER) -> list[BaseException]:
    """``writers`` threads, each creating ``per_writer`` customers through one of the
    servers in turn."""
    failures: list[BaseException] = []

    def write(writer: int) -> None:
        port = ports[writer % len(ports)]
        for n in range(per_writer):
            name = f"{prefix}{writer}-{n}@x"
            try:
                status, _ = request(port, "POST", "/customers", {"id": name, "Name": "N"})
            except (OSError, http.client.HTTPException, ValueError) as error:
                failures.append(error)  # a killed server's answer, cut or none: no ack
                return
            if status == 201:
                acknowledged.append(name)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def converged(ports: list[int], expected: set[str]) -> bool:
    """Whether every server lists exactly ``expected``, given the time to follow."""
    for _ in range(200):
        if all(customer_ids(port) == expected for port in ports):
            return True
        time.sleep(0.05)
    return False


def kept_once(database: Database, acknowledged: list[str]) -> None:
    kept = [row[0] for row in query(database, "SELECT input::json->>'id' FROM"
                                    " shop.arest_journal WHERE key = 'create:Customer'")]
    assert len(kept) == len(set(kept))
    assert set(acknowledged) <= set(kept)


def stopped(servers: list[tuple[subprocess.Popen[str], int]]) -> None:
    """Stop the servers still running, as an operator does (SIGTERM)."""
    for server, _ in servers:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)


def kept_and_mirrored(database: Database, db: str, acknowledged: list[str],
                      found: set[str]) -> None:
    """Every acknowledged write is kept once; the tenant reopened is at the journal's last
    digest, and the mirrored tables hold its export and the customers the servers listed."""
    kept_once(database, acknowledged)
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        last = query(database, "SELECT digest FROM shop.arest_journal"
                               " ORDER BY sequence DESC LIMIT 1")
        assert tenant.digest == last[0][0]
        assert mirrored(database) == exported(tenant.state)
        assert {row[0] for row in query(database, "SELECT email FROM shop.customer")} == found


def test_three_servers_on_one_tenant_keep_every_write_once_and_converge(
        pg_database: Database) -> None:
    db = f"{pg_database.url}&tenant=shop"
    servers = [serving(db) for _ in range(3)]
    ports = [port for _, port in servers]
    acknowledged: list[str] = []
    try:
        assert write_through(ports, 6, acknowledged, "w") == []
        assert len(acknowledged) == 6 * PER_WRITER
        assert converged(ports, set(acknowledged))
    finally:
        stopped(servers)
    kept_once(pg_database, acknowledged)
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        listed = arest.apply(tenant.state, "list:Customer", {"limit": 1000})[0]
        assert {item["id"] for item in listed["items"]} == set(acknowledged)


def test_a_server_killed_mid_load_loses_nothing_it_acknowledged(pg_database: Database) -> None:
    db = f"{pg_database.url}&tenant=shop"
    servers = [serving(db) for _ in range(2)]
    ports = [port for _, port in servers]
    acknowledged: list[str] = []
    try:
        def kill_once_writes_are_flowing() -> None:
            while len(acknowledged) < 10:
                time.sleep(0.01)
            servers[0][0].send_signal(signal.SIGKILL)

        killer = threading.Thread(target=kill_once_writes_are_flowing)
        killer.start()
        cut_short = write_through(ports, 4, acknowledged, "k")
        killer.join()
        assert cut_short  # the killed server's writers saw it go
        survivor = servers[1][1]
        assert write_through([survivor], 2, acknowledged, "after") == []
        found = customer_ids(survivor)
        assert set(acknowledged) <= found  # more may be there: kept, but unanswered
        restarted, port = serving(db)
        servers.append((restarted, port))
        assert converged([port, survivor], found)
    finally:
        stopped(servers)
    kept_and_mirrored(pg_database, db, acknowledged, found)


@pytest.mark.slow
def test_servers_killed_in_turn_under_load_lose_nothing_and_converge(
        pg_database: Database) -> None:
    """Three servers under load; twenty times one of them (in a fixed random order) is killed
    with SIGKILL once writes flow, and started again.  Then every acknowledged write is kept
    once, every server lists the same customers, D reopened is the journal's last digest,
    and the mirrored tables hold its export."""
    db = f"{pg_database.url}&tenant=shop"
    servers = [serving(db) for _ in range(3)]
    acknowledged: list[str] = []
    chosen = random.Random(7)
    try:
        for round_ in range(KILLS):
            victim = chosen.randrange(len(servers))
            flowing = len(acknowledged) + 8

            def kill_once_writes_flow(process: subprocess.Popen[str] = servers[victim][0],
                                      at: int = flowing) -> None:
                while len(acknowledged) < at:
                    time.sleep(0.01)
                process.send_signal(signal.SIGKILL)

            killer = threading.Thread(target=kill_once_writes_flow)
            killer.start()
            # Fewer writes a round than elsewhere: every customer fits one listing page.
            write_through([port for _, port in servers], 6, acknowledged, f"r{round_}-", 6)
            killer.join()
            servers[victim][0].wait(timeout=60)
            servers[victim] = serving(db)
        ports = [port for _, port in servers]
        found = customer_ids(ports[0])
        assert set(acknowledged) <= found
        assert converged(ports, found)
    finally:
        stopped(servers)
    kept_and_mirrored(pg_database, db, acknowledged, found)
