"""Trials of ``arest serve`` processes on one tenant, real processes over HTTP: REST clients
and MCP clients (the ``mcp`` SDK over streamable HTTP) create customers through every server
at once while servers are killed with SIGKILL mid-load and started again.  Afterwards every
acknowledged command, from either kind of client, is in the journal exactly once; every
server names, over REST and over MCP, the journal's last sequence and digest (docs/scale.md,
comparing servers); the tenant reopened replays to that digest; and on PostgreSQL the
mirrored tables hold its export, every customer the journal created.

On PostgreSQL two and three servers share the tenant; on SQLite one server holds it, and
the same trial kills and restarts that one."""

from __future__ import annotations

import http.client
import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

import arest
from tests.postgres import Database, query
from tests.runtime.test_pg_mirror import exported, mirrored
from tests.transports.serving import free_port

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"
REST_CLIENTS = 2
"""REST clients per server."""
MCP_CLIENTS = 1
"""MCP clients per server."""
FLOWING = 6
"""Acknowledged writes since a server last (re)started before the next kill: the kill
falls mid-load."""
PACE = 0.05
"""Seconds a client waits between its commands, and after a server failed it: a load that
leaves a restarting server the cores to start on (two, shared, in CI)."""
CALL_SECONDS = 30
"""The longest an MCP call may take before its client gives the server up (a killed
server's call fails at once; this bounds a hang)."""

Version = tuple[int, str]
"""A sequence number and the digest of the D holding it."""


def request(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    sent = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, method=method,
                                  headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(sent, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


# The servers --------------------------------------------------------------------------------

def started(db: str, logs: Path) -> tuple[subprocess.Popen[bytes], int]:
    """A server of the tenant, started (not yet listening), its output to a log in
    ``logs``: a pipe left unread would stop it once full."""
    port = free_port()
    with (logs / f"serve-{port}.log").open("wb") as log:
        server = subprocess.Popen([sys.executable, "-m", "arest", "serve", str(ORDERS),
                                   "--db", db, "--port", str(port)],
                                  stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    return server, port


def listening(server: tuple[subprocess.Popen[bytes], int], logs: Path
              ) -> tuple[subprocess.Popen[bytes], int]:
    """The server, once it answers."""
    process, port = server
    for _ in range(1200):
        try:
            request(port, "GET", "/")
            return server
        except (OSError, http.client.HTTPException):
            if process.poll() is not None:
                break
            time.sleep(0.05)
    log = (logs / f"serve-{port}.log").read_text(errors="replace")
    raise AssertionError(f"the server never listened:\n{log}")


@dataclass
class Fleet:
    """The servers of one tenant, by slot; a killed slot's server is replaced by a new one
    (on a new port), and clients of that slot follow it.  Their logs go to ``logs``."""

    db: str
    logs: Path
    slots: list[tuple[subprocess.Popen[bytes], int]] = field(default_factory=list)
    kills: list[int] = field(default_factory=list)
    """How many times each slot's server was killed."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    @contextmanager
    def serving(cls, db: str, logs: Path, count: int) -> Iterator[Fleet]:
        """``count`` servers, started together; stopped after, as an operator does."""
        fleet = cls(db, logs)
        try:
            fleet.slots.extend(started(db, logs) for _ in range(count))
            fleet.kills.extend(0 for _ in range(count))
            for server in fleet.slots:
                listening(server, logs)
            yield fleet
        finally:
            fleet.stop()

    def port(self, slot: int) -> int:
        with self.lock:
            return self.slots[slot][1]

    def killed(self, slot: int) -> int:
        with self.lock:
            return self.kills[slot]

    @property
    def ports(self) -> list[int]:
        with self.lock:
            return [port for _, port in self.slots]

    def kill(self, slot: int) -> None:
        """SIGKILL the slot's server, and wait for it to be gone."""
        with self.lock:
            process = self.slots[slot][0]
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        with self.lock:
            self.kills[slot] += 1

    def restart(self, slot: int) -> None:
        """A new server in the slot, once it listens."""
        server = listening(started(self.db, self.logs), self.logs)
        with self.lock:
            self.slots[slot] = server

    def stop(self) -> None:
        """Stop the servers still running (SIGTERM)."""
        with self.lock:
            processes = [process for process, _ in self.slots]
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=60)


# The clients --------------------------------------------------------------------------------

@dataclass
class Load:
    """Clients creating customers, each through one slot of the fleet, until stopped: every
    create a new id, never sent twice; an id is acknowledged when its answer says it was
    made (REST 201, an MCP result without ``isError``)."""

    fleet: Fleet
    prefix: str
    acknowledged: list[str] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)
    """Answers no client should get: a refused create (each id is new)."""
    stopping: threading.Event = field(default_factory=threading.Event)
    running: threading.Event = field(default_factory=threading.Event)
    """Set while the clients send; cleared, they hold off before their next command."""
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        self.running.set()
        for slot in range(len(self.fleet.slots)):
            for client in range(REST_CLIENTS):
                self._spawn(self._rest, slot, f"{self.prefix}r{slot}.{client}-")
            for client in range(MCP_CLIENTS):
                self._spawn(self._mcp, slot, f"{self.prefix}m{slot}.{client}-")

    def stop(self) -> None:
        self.stopping.set()
        self.running.set()
        for thread in self.threads:
            thread.join(timeout=2 * CALL_SECONDS)
        assert not any(thread.is_alive() for thread in self.threads)

    def flowing(self, since: int, more: int = FLOWING) -> None:
        """Wait until ``more`` writes more than ``since`` were acknowledged."""
        self._until(lambda: len(self.acknowledged) >= since + more)

    def from_both_kinds(self) -> None:
        """Wait until a REST client and an MCP client each had a write acknowledged (an MCP
        session starts slower than a REST request: on busy cores the kills may all come
        before the first MCP answer)."""
        self._until(lambda: {name.split("-")[1][0] for name in self.acknowledged} >= {"r", "m"})

    def _until(self, holds: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 120
        while not holds():
            assert not self.faults, self.faults
            assert time.monotonic() < deadline, "the writes stopped flowing"
            time.sleep(0.01)

    def _spawn(self, client: Any, slot: int, names: str) -> None:
        thread = threading.Thread(target=client, args=(slot, names), daemon=True)
        self.threads.append(thread)
        thread.start()

    def _rest(self, slot: int, names: str) -> None:
        n = 0
        while self.running.wait() and not self.stopping.is_set():
            name, n = f"{names}{n}@x", n + 1
            try:
                status, body = request(self.fleet.port(slot), "POST", "/customers",
                                       {"id": name, "Name": "N"})
            except (OSError, http.client.HTTPException, ValueError):
                self.unanswered.append(name)  # a killed server's answer, cut or none
                time.sleep(PACE)
                continue
            if status != 201:
                self.faults.append(f"REST {name}: {status} {body}")
                return
            self.acknowledged.append(name)
            time.sleep(PACE)

    def _mcp(self, slot: int, names: str) -> None:
        counter = iter(range(1 << 30))
        while not self.stopping.is_set():
            try:
                anyio.run(self._mcp_session, slot, names, counter)
            except Exception:
                time.sleep(PACE)  # the server went: its session ended, in some way

    async def _mcp_session(self, slot: int, names: str, counter: Iterator[int]) -> None:
        """One MCP session creating customers through the slot's server until stopped, or
        until that server is killed: the SDK's client leaves a call to a server gone
        unanswered rather than failed, so the session is given up then, its call
        unanswered."""
        killed = self.fleet.killed(slot)

        async def given_up(scope: anyio.CancelScope) -> None:
            while self.fleet.killed(slot) == killed:
                await anyio.sleep(0.05)
            scope.cancel()

        async with anyio.create_task_group() as session:
            session.start_soon(given_up, session.cancel_scope)
            await self._mcp_calls(self.fleet.port(slot), names, counter)
            session.cancel_scope.cancel()

    async def _mcp_calls(self, port: int, names: str, counter: Iterator[int]) -> None:
        async with httpx2.AsyncClient(timeout=CALL_SECONDS) as http, \
                streamable_http_client(f"http://127.0.0.1:{port}/mcp",
                                       http_client=http) as (read, write), \
                ClientSession(read, write) as session:
            with anyio.fail_after(CALL_SECONDS):
                await session.initialize()
            while not self.stopping.is_set():
                while not self.running.is_set():
                    await anyio.sleep(PACE)
                name = f"{names}{next(counter)}@x"
                self.unanswered.append(name)
                with anyio.fail_after(CALL_SECONDS):
                    made = await session.call_tool("create", {
                        "noun": "Customer", "id": name, "fields": {"Name": "N"}})
                self.unanswered.remove(name)
                if made.is_error:
                    self.faults.append(f"MCP {name}: {made.structured_content}")
                    return
                self.acknowledged.append(name)
                await anyio.sleep(PACE)


# What the servers say, and what was kept ----------------------------------------------------

def rest_version(port: int) -> Version:
    """The sequence and digest a server's entry point names."""
    status, entry = request(port, "GET", "/")
    assert status == 200, entry
    return entry["sequence"], entry["digest"]


def mcp_version(port: int) -> Version:
    """The sequence and digest a server's ``arest://stats`` names."""
    async def read() -> Version:
        async with httpx2.AsyncClient(timeout=CALL_SECONDS) as http, \
                streamable_http_client(f"http://127.0.0.1:{port}/mcp",
                                       http_client=http) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            contents = (await session.read_resource("arest://stats")).contents
            stats = json.loads(contents[0].text)  # type: ignore[union-attr]
            return stats["sequence"], stats["digest"]
    return anyio.run(read)


@dataclass(frozen=True)
class Kept:
    """Where the tenant's journal is, read beside its servers: a PostgreSQL schema
    (``database``) or a SQLite file (``path``)."""

    database: Database | None = None
    path: Path | None = None

    def rows(self, columns: str, where: str = "") -> list[tuple[str, ...]]:
        if self.database is not None:
            return query(self.database, f"SELECT {columns} FROM shop.arest_journal {where}")
        assert self.path is not None
        with sqlite3.connect(f"{self.path.as_uri()}?mode=ro", uri=True) as db:
            return [tuple(str(value) for value in row)
                    for row in db.execute(f"SELECT {columns} FROM journal {where}")]

    def last(self) -> Version:
        """The journal's last sequence number and the digest it recorded."""
        (sequence, digest), = self.rows("sequence, digest", "ORDER BY sequence DESC LIMIT 1")
        return int(sequence), digest

    def created(self) -> list[str]:
        """The id of every customer created, once per journal entry."""
        return [json.loads(input_)["id"]
                for input_, in self.rows("input", "WHERE key = 'create:Customer'")]


def converged(fleet: Fleet, kept: Kept) -> Version:
    """The journal's last version, once every server names it over REST (given the time
    to follow); then each names it over MCP too."""
    for _ in range(400):
        last = kept.last()
        seen = {rest_version(port) for port in fleet.ports}
        if seen == {last}:
            break
        time.sleep(0.05)
    assert seen == {last}, f"the servers name {seen}, the journal ends at {last}"
    assert {mcp_version(port) for port in fleet.ports} == {last}
    return last


def trial(db: str, kept: Kept, logs: Path, servers: int, kills: int, seed: int,
          writes: int = FLOWING) -> None:
    """``servers`` servers under load, ``kills`` times one of them (in the seed's random
    order, at a random instant once writes flow) killed with SIGKILL and started again,
    then ``writes`` more acknowledged; then the checks of the module."""
    chosen = random.Random(seed)
    with Fleet.serving(db, logs, servers) as fleet:
        load = Load(fleet, f"t{seed}-")
        load.start()
        try:
            for _ in range(kills):
                load.flowing(len(load.acknowledged))
                time.sleep(chosen.uniform(0, 0.3))
                victim = chosen.randrange(servers)
                fleet.kill(victim)
                # The load holds off while a server starts: on two busy cores a start
                # under full load takes several times as long, and the trial as much.
                load.running.clear()
                fleet.restart(victim)
                load.running.set()
            load.flowing(len(load.acknowledged), writes)
            load.from_both_kinds()
        finally:
            load.stop()
        assert not load.faults, load.faults
        last = converged(fleet, kept)
    acknowledged = load.acknowledged
    assert any("r" in name.split("-")[1] for name in acknowledged)  # REST clients, and
    assert any("m" in name.split("-")[1] for name in acknowledged)  # MCP clients were kept
    created = kept.created()
    assert len(created) == len(set(created))  # no command kept twice
    assert set(acknowledged) <= set(created)  # more may be: kept, but unanswered
    assert set(created) <= set(acknowledged) | set(load.unanswered)
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        assert tenant.version == last
        if kept.database is not None:
            assert mirrored(kept.database) == exported(tenant.state)
            emails = {row[0] for row in query(kept.database, "SELECT email FROM shop.customer")}
            assert emails == set(created)


def test_three_servers_on_one_tenant_keep_every_write_once_and_converge(
        pg_database: Database, tmp_path: Path) -> None:
    trial(f"{pg_database.url}&tenant=shop", Kept(database=pg_database), tmp_path, 3, kills=0,
          seed=1, writes=90)


def test_two_servers_killed_in_turn_mid_load_lose_nothing_and_converge(
        pg_database: Database, tmp_path: Path) -> None:
    trial(f"{pg_database.url}&tenant=shop", Kept(database=pg_database), tmp_path, 2, kills=8,
          seed=2)


@pytest.mark.slow
def test_three_servers_killed_in_turn_mid_load_lose_nothing_and_converge(
        pg_database: Database, tmp_path: Path) -> None:
    trial(f"{pg_database.url}&tenant=shop", Kept(database=pg_database), tmp_path, 3,
          kills=12, seed=3)


@pytest.mark.slow
def test_one_server_of_a_sqlite_tenant_killed_in_turn_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "shop.db"
    trial(str(path), Kept(path=path), tmp_path, 1, kills=5, seed=4)
