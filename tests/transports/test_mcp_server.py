"""The MCP server, in process, with the SDK's client in both protocol eras: what a result
carries, where errors go, the resources, and the Signal Source of a call."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from arest.runtime import Tenant
from arest.transports.server import mcp_server
from arest.verbs import TAGS, Surface, surface

READINGS = Path(__file__).parent / "readings"
ERAS = ["auto", "legacy"]

pytestmark = pytest.mark.anyio


@pytest.fixture
def tenant() -> Iterator[Tenant]:
    with Tenant.open(READINGS, db=":memory:") as opened:
        yield opened


@asynccontextmanager
async def connected(tenant: Tenant, era: str, tags: Surface | None = None
                    ) -> AsyncIterator[Client]:
    async with Client(mcp_server(tenant, tags or surface(TAGS)), mode=era) as client:
        yield client


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    assert json.loads(text) == result.structured_content
    assert result.is_error == ("error" in result.structured_content)
    return result.structured_content  # type: ignore[return-value]


@pytest.mark.parametrize("era", ERAS)
async def test_a_result_is_json_text_and_structured_content(tenant: Tenant, era: str) -> None:
    async with connected(tenant, era) as client:
        assert client.protocol_version == ("2025-11-25" if era == "legacy" else "2026-07-28")
        made = await call(client, "create", {"noun": "Task", "id": "t-1",
                                             "fields": {"Title": "Write", "Milestone": "m-1"}})
        assert made["entity"]["status"] == "Open"
        assert made["derived"][0]["fact_type"] == "Milestone_has_open_Task_Count"
        refused = await call(client, "transition", {"noun": "Task", "id": "t-1",
                                                    "event": "nope"})
        assert refused["error"]["code"] == "unknown_event"
        assert refused["error"]["events"] == ["delete", "finish"]


@pytest.mark.parametrize("era", ERAS)
async def test_the_surface_is_advertised_in_both_eras(tenant: Tenant, era: str) -> None:
    chosen = surface("persistence", include="create")
    async with connected(tenant, era, chosen) as client:
        advertised = client.server_capabilities.experimental["arest"]  # type: ignore[index]
        assert advertised == chosen.advertisement()
        listed = [tool.name for tool in (await client.list_tools()).tools]
        assert listed == ["create", "snapshot", "rollback", "snapshots"]


@pytest.mark.parametrize("era", ERAS)
async def test_hidden_and_unknown_tools_are_protocol_errors(tenant: Tenant, era: str) -> None:
    async with connected(tenant, era, surface()) as client:
        with pytest.raises(MCPError) as hidden:
            await client.call_tool("snapshot", {})
        assert hidden.value.code == -32601
        assert hidden.value.data["tag"] == "persistence"
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("forget", {})
        assert unknown.value.code == -32602
        assert "create" in unknown.value.data["tools"]


@pytest.mark.parametrize("era", ERAS)
async def test_a_stray_exception_is_an_internal_error_without_its_text(
        tenant: Tenant, era: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise RuntimeError("secret detail /etc/passwd")

    monkeypatch.setattr(tenant, "run", broken)
    async with connected(tenant, era) as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("schema", {})
    assert raised.value.code == -32603
    assert "secret" not in raised.value.message and "secret" not in str(raised.value.data)


@pytest.mark.parametrize("era", ERAS)
async def test_calls_come_from_an_agent(tenant: Tenant, era: str) -> None:
    async with connected(tenant, era) as client:
        proposed = await call(client, "propose", {"target_domain": "tasks",
                                                  "readings": ["Task has Priority."]})
    assert proposed["entity"]["is proposed by Signal Source"] == "Agent"


@pytest.mark.parametrize("era", ERAS)
async def test_the_resources_describe_the_tenant(tenant: Tenant, era: str) -> None:
    async with connected(tenant, era, surface("chatgpt")) as client:
        listed = {r.uri: r for r in (await client.list_resources()).resources}
        assert set(map(str, listed)) == {"arest://facts", "arest://stats",
                                         "arest://compliance", "arest://schema"}
        before = await read(client, "arest://stats")
        await client.call_tool("search", {"query": "x"})  # tags do not hide resources
        tenant.call("create:Task", {"id": "t-1", "Title": "Write", "Milestone": "m-1"})
        tenant.call("create:Task", {"id": "t-2", "Title": "Test"})
        recent = await read(client, "arest://facts")
        stats = await read(client, "arest://stats")
        compliance = await read(client, "arest://compliance")
        schema = await read(client, "arest://schema")
    newest = recent["facts"][0]
    assert newest["fact_type"] in {"Task_has_Title", "Task_has_Status"}
    assert {"fact_type": "Task_has_Title", "bindings": {"Task": "t-2", "Title": "Test"},
            "time": newest["time"]} in recent["facts"]
    counts = {"nouns", "fact_types", "facts", "constraints", "rules", "machines", "snapshots",
              "disk_space_bytes"}
    assert set(stats) == counts | {"sequence", "digest"}
    assert all(isinstance(stats[k], int) for k in counts)
    assert stats["facts"] > before["facts"]
    assert stats["sequence"] == before["sequence"] + 2  # the two creates, nothing else
    assert (stats["sequence"], stats["digest"]) == tenant.version != (
        before["sequence"], before["digest"])
    assert stats["machines"] >= 1 and stats["rules"] >= 1
    assert compliance["compliant"] is True and compliance["violations"] == []
    assert compliance["checked_at"]
    assert schema == tenant.call("schema", {})


async def read(client: Client, uri: str) -> dict[str, Any]:
    contents = (await client.read_resource(uri)).contents
    assert contents[0].mime_type == "application/json"
    return json.loads(contents[0].text)  # type: ignore[union-attr]


@pytest.mark.parametrize("era", ERAS)
async def test_an_unknown_resource_is_invalid_params(tenant: Tenant, era: str) -> None:
    async with connected(tenant, era) as client:
        with pytest.raises(MCPError) as raised:
            await client.read_resource("arest://nothing")
    assert raised.value.code == -32602


@pytest.mark.parametrize("era", ERAS)
async def test_with_sampling_the_llm_bridge_completes_the_call(tenant: Tenant,
                                                               era: str) -> None:
    import mcp_types as types

    prompts: list[str] = []

    async def model(context: Any, params: types.CreateMessageRequestParams
                    ) -> types.CreateMessageResult:
        prompts.append(params.messages[0].content.text)  # type: ignore[union-attr]
        answer = 'Here it is: ```json\n{"noun": "Task", "roles": ["Title"]}\n```'
        return types.CreateMessageResult(role="assistant", model="scripted",
                                         content=types.TextContent(type="text", text=answer))

    tenant.call("create:Task", {"id": "t-1", "Title": "Write"})
    server = mcp_server(tenant, surface("llm"))
    async with Client(server, mode=era, sampling_callback=model) as client:
        asked = await call(client, "ask", {"question": "What are the titles?",
                                           "noun": "Task"})
        told = await call(client, "ask", {"question": "Titles?", "llm_response":
                                          '{"noun": "Task", "roles": ["id"]}'})
    assert asked["rows"] == [{"Title": "Write"}]
    assert asked["query"] == {"noun": "Task", "roles": ["Title"]}
    assert len(prompts) == 1 and "What are the titles?" in prompts[0]
    assert told["rows"] == [{"id": "t-1"}]  # an answer given is not sampled again


@pytest.mark.parametrize("era", ERAS)
async def test_without_sampling_the_llm_bridge_answers_with_the_prompt(tenant: Tenant,
                                                                       era: str) -> None:
    async with connected(tenant, era, surface("llm")) as client:
        out = await call(client, "synthesize", {"noun": "Task", "id": "t-1"})
    assert out["error"]["code"] == "unknown_entity"
    tenant.call("create:Task", {"id": "t-1", "Title": "Write"})
    async with connected(tenant, era, surface("llm")) as client:
        out = await call(client, "synthesize", {"noun": "Task", "id": "t-1"})
    assert out["mode"] == "prompt-only" and "Write" in out["prompt"] and out["next_step"]


@pytest.mark.parametrize("era", ERAS)
async def test_an_inactive_tool_says_whether_its_tag_or_exclude_tools_hid_it(
        tenant: Tenant, era: str) -> None:
    async with connected(tenant, era, surface("entity", exclude="delete")) as client:
        with pytest.raises(MCPError) as excluded:
            await client.call_tool("delete", {"noun": "Task", "id": "t-1"})
        with pytest.raises(MCPError) as untagged:
            await client.call_tool("snapshot", {})
    assert excluded.value.code == untagged.value.code == -32601
    assert "exclude_tools removed it" in str(excluded.value)
    assert "'persistence' is not among the active tags" in str(untagged.value)


@pytest.mark.parametrize("era", ERAS)
async def test_a_call_reports_progress_only_to_a_client_that_asked(tenant: Tenant,
                                                                    era: str) -> None:
    heard: list[tuple[float, str | None]] = []

    async def progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, message))

    async with connected(tenant, era) as client:
        made = await client.call_tool("create", {"noun": "Task", "id": "t-1", "fields": {
            "Title": "Write", "Milestone": "m-1"}}, progress_callback=progress)
        assert heard == [(0, "running create")]
        quiet = await client.call_tool("create", {"noun": "Task", "id": "t-2", "fields": {
            "Title": "Read", "Milestone": "m-1"}})
    assert not made.is_error and not quiet.is_error
    assert heard == [(0, "running create")]
