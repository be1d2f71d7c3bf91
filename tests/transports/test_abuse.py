"""What a hostile client can send over HTTP, to every route of ``arest serve`` (MCP over
streamable HTTP and SSE, and REST): each request is answered with a 4xx, never a 5xx, and the
server logs no traceback; the server still answers a well-formed request after them all."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.transports.serving import arest_serve

READINGS = Path(__file__).parent / "readings"
KEY = "agent-secret"
PATHS = ["/mcp", "/sse", "/messages/?session_id=00000000000000000000000000000000",
         "/", "/tasks", "/tasks/t-1", "/facts/x", "/openapi.json"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("abuse")
    with arest_serve(folder, READINGS, "--db", ":memory:", "--api-key", KEY) as base:
        port = base.rsplit(":", 1)[1]
        yield base, folder / f"serve-{port}.log"


def raw(base: str, request: bytes) -> int:
    """The status of the answer to bytes sent as they are (0: the server closed at once).
    The bytes are sent beside the reading, as a client does that reads an early answer."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        def send() -> None:
            with contextlib.suppress(OSError):  # the server may answer and close first
                connection.sendall(request)

        sending = threading.Thread(target=send)
        sending.start()
        answer = b""
        while b"\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
        sending.join()
    parts = answer.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def request(method: str, path: str, headers: dict[str, str] | None = None,
            body: bytes = b"", host: str = "{host}") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close",
             f"Content-Length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return "\r\n".join(lines).encode("utf-8", "surrogateescape") + b"\r\n\r\n" + body


AUTH = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream"}
ATTACKS: dict[str, tuple[str, dict[str, str], bytes]] = {
    "no key": ("POST", {"Content-Type": "application/json"}, b"{}"),
    "a non-ASCII key": ("POST", {"Authorization": "Bearer clé"}, b"{}"),
    "a key of 64 KiB": ("POST", {"Authorization": "Bearer " + "k" * 65536}, b"{}"),
    "Basic credentials": ("POST", {"Authorization": "Basic YTpi"}, b"{}"),
    "a bare Bearer": ("POST", {"Authorization": "Bearer"}, b"{}"),
    "a page elsewhere": ("POST", {**AUTH, "Origin": "http://evil.example"}, b"{}"),
    "a body that is not JSON": ("POST", AUTH, b"{\"jsonrpc\": "),
    "a body nested 100,000 deep": ("POST", AUTH, b"[" * 100_000 + b"]" * 100_000),
    "a number of 5,000 digits": ("POST", AUTH, b"{\"id\": " + b"9" * 5000 + b"}"),
    "a body of 2 MiB": ("POST", AUTH, b" " * (2 << 20)),
    "invalid UTF-8": ("POST", AUTH, b"{\"id\": \"\xff\xfe\"}"),
    "NaN": ("POST", AUTH, b"{\"id\": NaN}"),
    "a JSON-RPC batch of junk": ("POST", AUTH, b"[1, 2, {\"jsonrpc\": \"2.0\"}]"),
    "an unknown method": ("BREW", AUTH, b""),
    "TRACE": ("TRACE", AUTH, b""),
    "a wrong content type": ("POST", {**AUTH, "Content-Type": "text/xml"}, b"<a/>"),
}


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_hostile_request_is_a_4xx_on_every_route(served: tuple[str, Path],
                                                   attack: str) -> None:
    base, _ = served
    method, headers, body = ATTACKS[attack]
    host = base.removeprefix("http://")
    for path in PATHS:
        status = raw(base, request(method, path, headers, body, host))
        assert 400 <= status < 500, f"{attack} on {path}: {status}"


@pytest.mark.parametrize("path", [
    "/%2e%2e/%2e%2e/etc/passwd", "/tasks/%00", "/tasks/%ff%fe", "/tasks/" + "a" * 8000,
    "/..;/tasks", "/tasks?limit=" + "9" * 5000, "/tasks?limit=²", "/tasks?%ff=1",
    "/facts/%2F%2F"])
def test_a_hostile_path_is_a_4xx(served: tuple[str, Path], path: str) -> None:
    base, _ = served
    host = base.removeprefix("http://")
    status = raw(base, request("GET", path, AUTH, b"", host))
    assert 400 <= status < 500, f"{path}: {status}"


def test_a_foreign_host_is_refused_on_every_route(served: tuple[str, Path]) -> None:
    base, _ = served
    for path in PATHS:
        assert raw(base, request("POST", path, AUTH, b"{}", "evil.example:80")) in (421, 403)


def test_after_it_all_the_server_answers_and_logged_no_traceback(
        served: tuple[str, Path]) -> None:
    base, log = served
    host = base.removeprefix("http://")
    for attack in ATTACKS.values():  # whatever order the tests ran in, all of them first
        for path in PATHS:
            raw(base, request(attack[0], path, attack[1], attack[2], host))
    assert raw(base, request("GET", "/", AUTH, b"", host)) == 200
    assert "Traceback" not in log.read_text()
