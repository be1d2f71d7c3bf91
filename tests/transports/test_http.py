"""`arest serve` end to end: a real server on 127.0.0.1, driven by the SDK's clients over
streamable HTTP (both protocol eras) and SSE: tools chosen by the URL, keys, the Signal
Source of the admin key, DNS-rebinding protection."""

from __future__ import annotations

import json
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp.client import Client
from mcp.client.session import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from arest.verbs import CATALOGUE, TAGS, surface
from tests.forking import arest_command
from tests.transports.serving import arest_serve

READINGS = Path(__file__).parent / "readings"
API_KEY, ADMIN_KEY = "api-secret", "admin-secret"

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running ``arest serve`` with an API key and an admin key; its base URL."""
    folder = tmp_path_factory.mktemp("serve")
    with arest_serve(folder, READINGS, "--db", str(folder / "tasks.db"), "--api-key",
                     API_KEY, "--admin-key", ADMIN_KEY) as base:
        yield base


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@asynccontextmanager
async def over_http(url: str, era: str, key: str = API_KEY, sampling: Any = None
                    ) -> AsyncIterator[Any]:
    """A session in the chosen era: the high-level Client (modern) or ClientSession."""
    async with httpx2.AsyncClient(headers=bearer(key)) as http:
        if era == "auto":
            async with Client(streamable_http_client(url, http_client=http), mode="auto",
                              sampling_callback=sampling) as client:
                yield client
        else:
            async with streamable_http_client(url, http_client=http) as (read, write), \
                    ClientSession(read, write, sampling_callback=sampling) as session:
                init = await session.initialize()
                session.experimental = init.capabilities.experimental  # type: ignore[attr-defined]
                yield session


def advertised(session: Any) -> dict[str, Any]:
    if isinstance(session, Client):
        return session.server_capabilities.experimental["arest"]  # type: ignore[index]
    return session.experimental["arest"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("era", ["auto", "legacy"])
@pytest.mark.parametrize("query", ["", "?tags=primitive", "?tags=entity,persistence",
                                   f"?tags={','.join(TAGS)}",
                                   "?tags=llm&include_tools=read&exclude_tools=ask"])
async def test_the_url_chooses_the_tools(server: str, era: str, query: str) -> None:
    async with over_http(f"{server}/mcp{query}", era) as session:
        listed = [tool.name for tool in (await session.list_tools()).tools]
        shown = advertised(session)
    params = dict(pair.split("=") for pair in query.lstrip("?").split("&") if pair)
    expected = surface(params.get("tags"), params.get("include_tools"),
                       params.get("exclude_tools"))
    assert listed == [verb.name for verb in expected.listed()]
    assert shown["tags_active"] == list(expected.tags)
    assert set(shown["tool_tags"]) == set(CATALOGUE)


@pytest.mark.parametrize("era", ["auto", "legacy"])
async def test_calls_and_their_protocol_errors(server: str, era: str) -> None:
    async with over_http(f"{server}/mcp?exclude_tools=delete", era) as session:
        made = await session.call_tool("create", {"noun": "Task", "id": f"h-{era}",
                                                  "fields": {"Title": "Over HTTP"}})
        assert made.structured_content["entity"]["status"] == "Open"
        bad = await session.call_tool("create", {"noun": "Task", "fields": {"Colour": "x"}})
        assert bad.is_error and bad.structured_content["error"]["code"] == "unknown_field"
        with pytest.raises(MCPError) as hidden:
            await session.call_tool("delete", {"noun": "Task", "id": f"h-{era}"})
        with pytest.raises(MCPError) as unknown:
            await session.call_tool("forget", {})
    assert (hidden.value.code, unknown.value.code) == (-32601, -32602)


@pytest.mark.parametrize("era", ["auto", "legacy"])
async def test_a_call_reports_progress_to_a_client_that_asked(server: str, era: str) -> None:
    heard: list[tuple[float, str | None]] = []

    async def progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, message))

    async with over_http(f"{server}/mcp", era) as session:
        made = await session.call_tool("create", {"noun": "Task", "id": f"p-{era}", "fields": {
            "Title": "Progress"}}, progress_callback=progress)
    assert not made.is_error
    assert heard == [(0, "running create")]


@pytest.mark.parametrize("era", ["auto", "legacy"])
@pytest.mark.parametrize("query", ["?tags=everything", "?include_tools=forget",
                                   "?exclude_tools=Create"])
async def test_an_unknown_name_in_the_url_is_invalid_params(server: str, era: str,
                                                            query: str) -> None:
    with pytest.raises(BaseException) as raised:
        async with over_http(f"{server}/mcp{query}", era) as session:
            await session.list_tools()
    errors = [raised.value]
    while isinstance(errors[-1], BaseExceptionGroup):
        errors.append(errors[-1].exceptions[0])
    assert isinstance(errors[-1], MCPError) and errors[-1].code == -32602


@pytest.mark.parametrize("era", ["auto", "legacy"])
async def test_sse_reads_the_tools_from_its_get(server: str, era: str) -> None:
    url = f"{server}/sse?tags=persistence&include_tools=read"
    async with Client(sse_client(url, headers=bearer(ADMIN_KEY)), mode=era) as client:
        shown = client.server_capabilities.experimental["arest"]  # type: ignore[index]
        listed = [tool.name for tool in (await client.list_tools()).tools]
        taken = await client.call_tool("snapshot", {"label": f"over-sse-{era}"})
        version = client.protocol_version
    assert version == ("2025-11-25" if era == "legacy" else "2026-07-28")
    assert listed == ["read", "snapshot", "rollback", "snapshots"]
    assert shown["tags_active"] == ["persistence"]
    assert taken.structured_content == {"id": f"over-sse-{era}"}


async def test_sse_with_an_unknown_tag_is_400_listing_the_valid_ones(server: str) -> None:
    async with httpx2.AsyncClient(headers=bearer(API_KEY)) as http:
        answer = await http.get(f"{server}/sse?tags=entity,bogus")
    assert answer.status_code == 400
    assert answer.json()["error"]["valid"] == list(TAGS)


async def test_without_the_key_every_request_is_401(server: str) -> None:
    async with httpx2.AsyncClient() as http:
        for answer in (await http.post(f"{server}/mcp", json={}),
                       await http.get(f"{server}/sse"),
                       await http.post(f"{server}/mcp", json={},
                                       headers=bearer("wrong"))):
            assert answer.status_code == 401
            assert answer.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize(("key", "source"), [(API_KEY, "Agent"), (ADMIN_KEY, "Human")])
async def test_the_admin_key_makes_a_human(server: str, key: str, source: str) -> None:
    async with over_http(f"{server}/mcp?tags=evolution", "legacy", key) as session:
        proposed = await session.call_tool("propose", {"target_domain": "tasks",
                                                       "readings": ["Task has Effort."]})
    assert proposed.structured_content["entity"]["is proposed by Signal Source"] == source


async def test_dns_rebinding_is_refused(server: str) -> None:
    async with httpx2.AsyncClient(headers=bearer(API_KEY)) as http:
        wrong_host = await http.post(f"{server}/mcp", json={}, headers={"Host": "evil.test"})
        wrong_origin = await http.post(f"{server}/mcp", json={},
                                       headers={"Origin": "http://evil.test"})
    assert 400 <= wrong_host.status_code < 500
    assert 400 <= wrong_origin.status_code < 500


@pytest.mark.parametrize("era", ["auto", "legacy"])
async def test_remote_mode_relays_to_the_server(server: str, era: str) -> None:
    from mcp.client.stdio import StdioServerParameters

    command, *args = arest_command(
        "mcp", "--mode", "remote", "--url", server, "--tags", "entity,persistence",
        "--exclude-tools", "delete", "--include-tools", "ask")
    relay = StdioServerParameters(
        command=command, args=args,
        env={**__import__("os").environ, "AREST_API_KEY": API_KEY})
    sampled: list[Any] = []

    async def model(context: Any, params: Any) -> Any:
        sampled.append(params)
        raise AssertionError("remote mode does not relay sampling")

    async with Client(relay, mode=era, sampling_callback=model) as client:
        listed = [tool.name for tool in (await client.list_tools()).tools]
        shown = client.server_capabilities.experimental["arest"]  # type: ignore[index]
        made = await client.call_tool("create", {"noun": "Task", "id": f"r-{era}",
                                                 "fields": {"Title": "Relayed"}})
        with pytest.raises(MCPError) as hidden:
            await client.call_tool("delete", {"noun": "Task", "id": f"r-{era}"})
        facts = (await client.read_resource("arest://facts")).contents[0].text  # type: ignore[union-attr]
        asked = await client.call_tool("ask", {"question": "Which tasks?"})
    assert asked.structured_content["mode"] == "prompt-only" and not sampled
    assert listed == [v.name for v in surface("entity,persistence", include="ask",
                                              exclude="delete").listed()]
    assert shown["tags_active"] == ["entity", "persistence"]
    assert made.structured_content["entity"]["Title"] == "Relayed"
    assert hidden.value.code == -32601
    assert f"r-{era}" in facts
    async with over_http(f"{server}/mcp", "legacy") as session:  # the server's own tenant
        read = await session.call_tool("read", {"noun": "Task", "id": f"r-{era}"})
    assert read.structured_content["Title"] == "Relayed"


@pytest.mark.parametrize("era", ["auto", "legacy"])
async def test_the_chatgpt_pair_and_sampling_over_http(server: str, era: str) -> None:
    import mcp_types as types

    async def model(context: Any, params: types.CreateMessageRequestParams
                    ) -> types.CreateMessageResult:
        spec = '{"fact_type": "Task_has_Title", "filter": {"Title": "Findable"}}'
        return types.CreateMessageResult(role="assistant", model="scripted",
                                         content=types.TextContent(type="text", text=spec))

    async with over_http(f"{server}/mcp?tags=chatgpt,llm&include_tools=create", era,
                         sampling=model) as session:
        await session.call_tool("create", {"noun": "Task", "id": f"find-{era}",
                                           "fields": {"Title": "Findable"}})
        found = (await session.call_tool("search", {"query": f"find-{era}"})).structured_content
        first = found["results"][0]
        fetched = (await session.call_tool("fetch", {"id": first["id"]})).structured_content
        asked = (await session.call_tool("ask", {"question": "Which task is findable?"})
                 ).structured_content
    assert first == {"id": f"Task:find-{era}", "title": f"Task find-{era}",
                     "url": f"/tasks/find-{era}"}
    assert fetched["metadata"] == {"noun": "Task", "entityId": f"find-{era}", "status": "Open"}
    assert {"Task": f"find-{era}", "Title": "Findable"} in asked["rows"]


async def test_an_allowed_host_is_accepted_and_others_are_not(tmp_path: Path) -> None:
    with arest_serve(tmp_path, READINGS, "--db", ":memory:", "--allowed-host",
                     "arest.test") as base:
        port = base.rsplit(":", 1)[1]
        async with httpx2.AsyncClient() as http:
            statuses = []
            for name in ("arest.test", "other.test"):
                async with http.stream("GET", f"{base}/sse",
                                       headers={"Host": f"{name}:{port}"}) as answer:
                    statuses.append(answer.status_code)  # the stream itself never ends
    assert statuses[0] == 200
    assert 400 <= statuses[1] < 500


def _relay_once(url: str, *options: str) -> subprocess.CompletedProcess[str]:
    """``arest mcp --mode remote`` asked to initialize by a client on its stdin."""
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                             "clientInfo": {"name": "test", "version": "0"}}}
    env = {k: v for k, v in __import__("os").environ.items() if k != "AREST_API_KEY"}
    return subprocess.run(
        arest_command("mcp", "--mode", "remote", "--url", url, *options),
        input=json.dumps(initialize) + "\n", capture_output=True, text=True, timeout=60,
        env=env)


@pytest.mark.parametrize("case", ["unreachable", "no key"])
def test_remote_mode_says_in_one_line_why_it_cannot_relay(server: str, case: str) -> None:
    from tests.transports.serving import free_port

    url, expected = ((f"http://127.0.0.1:{free_port()}", "cannot reach") if case == "unreachable"
                     else (server, "HTTP 401"))
    relayed = _relay_once(url)
    assert relayed.returncode == 1
    errors = [line for line in relayed.stderr.splitlines() if line.startswith("arest:")]
    assert len(errors) == 1 and expected in errors[0], relayed.stderr
    assert "Traceback" not in relayed.stderr
    answer = json.loads(relayed.stdout)
    assert answer["id"] == 1 and expected in answer["error"]["message"]


def _abort_after_initialize(base: str) -> None:
    """What an impatient client does: initialize, then drop the connection, on SSE (the
    GET stream closed after the POST) and on streamable HTTP (the POST closed unread)."""
    import http.client
    from urllib.parse import urlsplit

    address = urlsplit(base)
    host, port = address.hostname or "127.0.0.1", address.port or 80
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "impatient", "version": "1"}}})
    headers = {"content-type": "application/json", "authorization": f"Bearer {API_KEY}"}
    stream = http.client.HTTPConnection(host, port, timeout=10)
    stream.request("GET", "/sse", headers={**headers, "accept": "text/event-stream"})
    events = stream.getresponse()
    line = b""
    while b"session_id" not in line:
        line = events.fp.readline()
    endpoint = line.decode().split("data: ", 1)[1].strip()
    post = http.client.HTTPConnection(host, port, timeout=10)
    post.request("POST", endpoint, body=init, headers=headers)
    assert post.getresponse().status == 202
    events.close()
    stream.close()
    for _ in range(3):
        dropped = http.client.HTTPConnection(host, port, timeout=10)
        dropped.request("POST", "/mcp", body=init, headers={
            **headers, "accept": "application/json, text/event-stream"})
        dropped.close()


async def test_a_client_that_aborts_after_initialize_leaves_no_traceback(
        tmp_path: Path) -> None:
    with arest_serve(tmp_path, READINGS, "--api-key", API_KEY) as base:
        _abort_after_initialize(base)
        async with over_http(f"{base}/mcp", "legacy") as session:
            assert (await session.list_tools()).tools
    log = "".join(path.read_text() for path in tmp_path.glob("serve-*.log"))
    assert "Traceback" not in log, log
