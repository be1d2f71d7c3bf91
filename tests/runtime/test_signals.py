"""A server stopped by a signal closes its tenant: the database file alone holds every
acknowledged command, and the lock is released.  Real processes, real signals."""

import json
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import arest

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"
CUSTOMERS = 50
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-03-26", "capabilities": {},
    "clientInfo": {"name": "test", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def creating(n: int) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": n + 1, "method": "tools/call", "params": {
        "name": "create", "arguments": {"noun": "Customer", "id": f"c{n}@x",
                                        "fields": {"Name": f"C{n}"}}}}


def assert_the_file_alone_holds_everything(db: Path, elsewhere: Path) -> None:
    copy = elsewhere / "arest.db"
    copy.parent.mkdir()
    shutil.copyfile(db, copy)  # the file alone, no -wal
    with arest.Tenant.open(ORDERS, db=copy) as tenant:
        assert arest.apply(tenant.state, "list:Customer")[0]["total"] == CUSTOMERS
    with arest.Tenant.open(ORDERS, db=db):
        pass  # the lock was released: a second open succeeds


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(port: int, body: dict[str, Any], session: str | None) -> tuple[str | None, str]:
    headers = {"Content-Type": "application/json",
               "Accept": "application/json, text/event-stream"}
    if session:
        headers["mcp-session-id"] = session
    request = urllib.request.Request(f"http://127.0.0.1:{port}/mcp",
                                     json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.headers.get("mcp-session-id"), response.read().decode()


def initialized(port: int) -> str | None:
    """A session, once the server listens (its banner comes as uvicorn starts)."""
    for _ in range(600):
        try:
            session, _ = post(port, INITIALIZE, None)
            return session
        except urllib.error.URLError:
            time.sleep(0.05)
    raise AssertionError("the server never listened")


def test_serve_stopped_by_sigterm_closes_the_tenant(tmp_path: Path) -> None:
    db = tmp_path / "live" / "arest.db"
    db.parent.mkdir()
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "arest", "serve", str(ORDERS), "--db",
                               str(db), "--port", str(port)],
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        assert "arest serve:" in server.stderr.readline()  # the banner: serving
        session = initialized(port)
        post(port, INITIALIZED, session)
        for n in range(CUSTOMERS):
            _, answer = post(port, creating(n), session)
            assert '\\"rejected\\": false' in answer or '"rejected":false' in answer
        server.send_signal(signal.SIGTERM)
        _, stderr = server.communicate(timeout=60)
    finally:
        server.kill()
    assert server.returncode == 0, stderr
    assert "stopped by SIGTERM" in stderr
    assert_the_file_alone_holds_everything(db, tmp_path / "copy")


def test_mcp_stops_on_the_first_ctrl_c(tmp_path: Path) -> None:
    db = tmp_path / "live" / "arest.db"
    db.parent.mkdir()
    server = subprocess.Popen([sys.executable, "-m", "arest", "mcp", str(ORDERS), "--db",
                               str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdin is not None and server.stdout is not None
        for message in (INITIALIZE, INITIALIZED, *map(creating, range(CUSTOMERS))):
            server.stdin.write(json.dumps(message) + "\n")
            server.stdin.flush()
            if "id" in message:
                answer = json.loads(server.stdout.readline())
                assert answer["id"] == message["id"] and "error" not in answer
                assert message["id"] == 0 or not answer["result"]["isError"]
        server.send_signal(signal.SIGINT)  # once; stdin stays open
        server.wait(timeout=60)
        stderr = server.stderr.read() if server.stderr else ""
    finally:
        server.kill()
    assert server.returncode == 0, stderr
    assert "stopped by SIGINT" in stderr
    assert_the_file_alone_holds_everything(db, tmp_path / "copy")
