"""The bounds on MCP sessions, through a real ``arest serve`` and the SDK's clients: a key
holds at most ``--max-sessions-per-key`` sessions on each of streamable HTTP and SSE (503
beyond, while another key still opens its own), and an SSE stream no post reaches for
``--session-idle-seconds`` is closed by the server."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client import Client
from mcp.client.sse import sse_client

from tests.transports.serving import arest_serve
from tests.transports.test_http import bearer, over_http

READINGS = Path(__file__).parent / "readings"
KEY, OTHER_KEY = "first-secret", "second-secret"
PER_KEY = 2

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def bounded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Two keys, each holding at most two sessions per transport."""
    folder = tmp_path_factory.mktemp("sessions")
    with arest_serve(folder, READINGS, "--db", ":memory:", "--api-key", KEY, "--api-key",
                     OTHER_KEY, "--max-sessions-per-key", str(PER_KEY)) as base:
        yield base


@pytest.fixture(scope="module")
def forgetful(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server closing a session unused for three seconds: short enough to wait for, long
    enough that a loaded machine's pause between a client's posts does not reach it."""
    folder = tmp_path_factory.mktemp("idle")
    with arest_serve(folder, READINGS, "--db", ":memory:", "--api-key", KEY,
                     "--session-idle-seconds", "3") as base:
        yield base


@asynccontextmanager
async def over_sse(base: str, key: str) -> AsyncIterator[Any]:
    async with Client(sse_client(f"{base}/sse", headers=bearer(key)), mode="legacy") as client:
        yield client


async def opening(base: str, transport: str, key: str) -> tuple[int, dict[str, Any]]:
    """The status and JSON body of a request that would open one session more (the SSE
    stream is left at once when it opens)."""
    async with httpx2.AsyncClient(headers=bearer(key), timeout=30) as http:
        if transport == "sse":
            async with http.stream("GET", f"{base}/sse") as answer:
                body = await answer.aread() if answer.status_code != 200 else b"{}"
                return answer.status_code, json.loads(body)
        answer = await http.post(f"{base}/mcp", json={
            "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "probe", "version": "1"}}},
            headers={"Accept": "application/json, text/event-stream"})
        return answer.status_code, answer.json() if answer.status_code != 200 else {}


@pytest.mark.parametrize("transport", ["http", "sse"])
async def test_a_key_holds_at_most_its_sessions_and_another_key_its_own(
        bounded: str, transport: str) -> None:
    with anyio.fail_after(120):
        async with AsyncExitStack() as held:
            for _ in range(PER_KEY):
                session = await held.enter_async_context(
                    over_sse(bounded, KEY) if transport == "sse"
                    else over_http(f"{bounded}/mcp", "legacy", KEY))
                assert (await session.list_tools()).tools
            refused, body = await opening(bounded, transport, KEY)
            async with (over_sse(bounded, OTHER_KEY) if transport == "sse"
                        else over_http(f"{bounded}/mcp", "legacy", OTHER_KEY)) as other:
                other_tools = (await other.list_tools()).tools
            assert (await session.list_tools()).tools  # the held sessions still answer
        # Once they are closed, the key opens sessions again.
        while (status := (await opening(bounded, transport, KEY))[0]) == 503:
            await anyio.sleep(0.1)
    assert refused == 503
    assert other_tools
    assert status == 200
    if transport == "sse":
        assert body["error"]["code"] == "limit_exceeded"
        assert body["error"]["limit"] == PER_KEY


async def test_a_streamable_session_belongs_to_the_key_that_opened_it(bounded: str) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        headers = {"Accept": "application/json, text/event-stream"}
        opened = await http.post(f"{bounded}/mcp", headers={**headers, **bearer(KEY)}, json={
            "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "probe", "version": "1"}}})
        session = {"mcp-session-id": opened.headers["mcp-session-id"],
                   "mcp-protocol-version": "2025-11-25"}
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        by_other = await http.post(f"{bounded}/mcp", json=ping,
                                   headers={**headers, **session, **bearer(OTHER_KEY)})
        by_owner = await http.post(f"{bounded}/mcp", json=ping,
                                   headers={**headers, **session, **bearer(KEY)})
        await http.delete(f"{bounded}/mcp", headers={**session, **bearer(KEY)})
    assert opened.status_code == 200
    assert by_other.status_code == 404
    assert by_owner.status_code == 200


async def test_an_idle_sse_stream_is_closed_and_its_session_forgotten(forgetful: str) -> None:
    with anyio.fail_after(60):
        async with httpx2.AsyncClient(headers=bearer(KEY), timeout=60) as http:
            async with http.stream("GET", f"{forgetful}/sse") as stream:
                events = [line async for line in stream.aiter_lines()]  # until it is closed
            endpoint = next(line.removeprefix("data: ") for line in events
                            if "session_id=" in line)
            late = await http.post(f"{forgetful}{endpoint}", json={
                "jsonrpc": "2.0", "id": 1, "method": "ping"})
        async with over_sse(forgetful, KEY) as client:
            tools = (await client.list_tools()).tools
    assert "event: endpoint" in events
    assert late.status_code == 404
    assert tools
