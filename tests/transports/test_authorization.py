"""DESIGN §12 end to end: what a caller may do is its key's, on every transport, whatever
tags its URL asks for; the rules of Domain Changes hold for an Agent holding any key."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Generator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client import Client
from mcp.client.sse import sse_client

from arest.verbs import TAGS
from tests.transports.serving import arest_serve, free_port
from tests.transports.test_http import bearer, over_http

READINGS = Path(__file__).parent / "readings"
API_KEY, CI_KEY, ADMIN_KEY = "agent-secret", "ci-secret=", "admin-secret"
EVERYTHING = "?tags=" + ",".join(TAGS)
ROUTES = [("http", "auto"), ("http", "legacy"), ("sse", "auto"), ("sse", "legacy")]
SMUGGLED = "Effort is a value type.\nDomain Change has Effort."


def smuggled(route: tuple[str, str]) -> str:
    """Readings about the metamodel, new on each route (the servers outlive a test)."""
    weight = f"Weight {route[0]} {route[1]}"
    return f"{weight} is a value type.\nDomain Change has {weight}."

pytestmark = pytest.mark.anyio


def started(tmp_path_factory: pytest.TempPathFactory, *options: str) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("serve")
    with arest_serve(folder, READINGS, "--db", str(folder / "tasks.db"), *options) as base:
        yield base


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """API keys holding read,write (one named), and the admin key."""
    yield from started(tmp_path_factory, "--api-key", API_KEY, "--api-key", f"ci={CI_KEY}",
                       "--admin-key", ADMIN_KEY)


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API key holding read only."""
    yield from started(tmp_path_factory, "--api-key", API_KEY, "--api-key-permissions", "read")


@pytest.fixture(scope="module")
def schema_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An API key holding schema too, and the admin key."""
    yield from started(tmp_path_factory, "--api-key", API_KEY, "--api-key-permissions",
                       "read,write,schema", "--admin-key", ADMIN_KEY)


@asynccontextmanager
async def connected(base: str, route: tuple[str, str], key: str, query: str = EVERYTHING
                    ) -> AsyncIterator[Any]:
    transport, era = route
    if transport == "http":
        async with over_http(f"{base}/mcp{query}", era, key) as session:
            yield session
    else:
        async with Client(sse_client(f"{base}/sse{query}", headers=bearer(key)),
                          mode=era) as client:
            yield client


async def call(session: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    out: dict[str, Any] = result.structured_content
    assert result.is_error == ("error" in out)
    return out


def refusal(out: dict[str, Any]) -> tuple[str, str, str]:
    error = out["error"]
    return error["code"], error.get("permission", ""), error.get("command", "")


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("key", [API_KEY, CI_KEY])
async def test_the_tags_choose_what_is_seen_never_what_is_allowed(
        server: str, route: tuple[str, str], key: str) -> None:
    task = {"noun": "Task", "id": f"seen-{route[0]}-{route[1]}-{len(key)}"}
    async with connected(server, route, key) as session:
        listed = {tool.name for tool in (await session.list_tools()).tools}
        made = await call(session, "create", {**task, "fields": {"Title": "T"}})
        refused = [await call(session, verb, args) for verb, args in (
            ("compile", {"readings": "Widget(.id) is an entity type."}),
            ("snapshot", {"label": "mine"}), ("rollback", {"id": "mine"}),
            ("apply", {"key": "rollback", "input": {"id": "mine"}}))]
    assert {"compile", "snapshot", "rollback", "delete", "retract"} <= listed
    assert "error" not in made and not made["rejected"]
    assert [refusal(out) for out in refused] == [
        ("forbidden", "schema", "compile"), ("forbidden", "history", "snapshot"),
        ("forbidden", "history", "rollback"), ("forbidden", "history", "rollback")]


@pytest.mark.parametrize("route", ROUTES)
async def test_a_read_only_key_deletes_and_retracts_nothing(reader: str,
                                                            route: tuple[str, str]) -> None:
    async with connected(reader, route, API_KEY) as session:
        listed = await call(session, "get", {"noun": "Task"})
        refused = [await call(session, verb, args) for verb, args in (
            ("create", {"noun": "Task", "id": "t", "fields": {"Title": "T"}}),
            ("delete", {"noun": "Task", "id": "t"}),
            ("retract", {"fact_type": "Task_has_Title", "bindings": ["t", "T"]}),
            ("apply", {"operation": "delete", "noun": "Task", "id": "t"}))]
    assert "error" not in listed
    assert [refusal(out)[:2] for out in refused] == [("forbidden", "write")] * 4


async def propose_and_approve(session: Any, readings: str) -> str:
    out = await call(session, "propose", {"target_domain": "orders", "readings": readings})
    assert out["entity"]["is proposed by Signal Source"] == "Agent", out
    change = out["entity"]["id"]
    for event in ("review", "approve"):
        moved = await call(session, "transition", {"noun": "Domain Change", "id": change,
                                                   "event": event})
        assert not moved["rejected"], moved
    return str(change)


def apply_event(change: str) -> dict[str, Any]:
    return {"noun": "Domain Change", "id": change, "event": "apply"}


@pytest.mark.parametrize("route", ROUTES)
async def test_an_agent_cannot_apply_a_domain_change(server: str, route: tuple[str, str]
                                                     ) -> None:
    async with connected(server, route, API_KEY) as session:
        change = await propose_and_approve(session, SMUGGLED)
        applied = await call(session, "transition", apply_event(change))
        by_apply = await call(session, "apply", {"key": "transition:Domain Change",
                                                 "input": apply_event(change)})
    assert refusal(applied) == ("forbidden", "schema", "transition:Domain Change")
    assert refusal(by_apply) == refusal(applied)


@pytest.mark.parametrize("route", ROUTES[:3])
async def test_readings_about_the_metamodel_need_the_admin_key(
        schema_agent: str, route: tuple[str, str]) -> None:
    async with connected(schema_agent, route, API_KEY) as session:
        change = await propose_and_approve(session, smuggled(route))
        applied = await call(session, "transition", apply_event(change))
    assert applied["rejected"] and applied["entity"]["status"] == "Approved"
    assert applied["violations"][0]["constraint_id"] == "evolution:protected-readings"
    async with connected(schema_agent, route, ADMIN_KEY) as session:
        applied = await call(session, "transition", apply_event(change))
    assert not applied["rejected"] and applied["entity"]["status"] == "Applied", applied


@pytest.mark.parametrize("route", ROUTES[:3])
async def test_approved_readings_are_frozen_and_the_proposer_is_the_caller(
        server: str, route: tuple[str, str]) -> None:
    async with connected(server, route, ADMIN_KEY) as admin:
        async with connected(server, route, API_KEY) as agent:
            change = await propose_and_approve(
                agent, "Effort is a value type.\nTask has Effort.\n"
                       "  Each Task has at most one Effort.")
            edited = await call(agent, "update", {
                "noun": "Domain Change", "id": change, "fields": {"Proposed Readings": SMUGGLED}})
            forged = await call(agent, "create", {
                "noun": "Domain Change", "id": f"forged-{route}",
                "fields": {"Domain": "orders", "Proposed Readings": SMUGGLED,
                           "is proposed by Signal Source": "Human"}})
        applied = await call(admin, "transition", apply_event(change))
    assert edited["error"]["code"] == "invalid_input" and "frozen" in edited["error"]["message"]
    assert forged["error"]["code"] == "invalid_input"
    assert not applied["rejected"]
    async with connected(server, route, API_KEY) as agent:
        effort = await call(agent, "create", {"noun": "Task", "id": f"e-{route}",
                                              "fields": {"Effort": "3"}})
    assert effort["entity"]["Effort"] == "3"  # the readings that were approved, not the edit


class _KeyPerMethod(httpx2.Auth):
    """The admin key on the SSE stream's GET, an API key on its POSTs."""

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, Any, None]:
        key = ADMIN_KEY if request.method == "GET" else API_KEY
        request.headers["Authorization"] = f"Bearer {key}"
        yield request


@pytest.mark.parametrize("era", ["auto", "legacy"])
async def test_an_sse_stream_opened_by_the_admin_acts_as_each_post_s_key(server: str,
                                                                        era: str) -> None:
    # A server that refused the posts' key would leave the client waiting for an answer
    # forever: the bound turns that into a failure.
    with anyio.fail_after(60):
        async with Client(sse_client(f"{server}/sse{EVERYTHING}", auth=_KeyPerMethod()),
                          mode=era) as client:
            proposed = await call(client, "propose", {"target_domain": "tasks",
                                                  "readings": "Task has Title."})
            compiled = await call(client, "compile",
                                  {"readings": "W(.id) is an entity type."})
    assert proposed["entity"]["is proposed by Signal Source"] == "Agent"
    assert refusal(compiled) == ("forbidden", "schema", "compile")


async def test_a_token_that_is_not_ascii_is_401(server: str) -> None:
    async with httpx2.AsyncClient() as http:
        for path in ("/mcp", "/sse"):
            answer = await http.request(
                "POST" if path == "/mcp" else "GET", f"{server}{path}", content=b"{}",
                headers=[(b"Authorization", "Bearer clé-✓".encode())])
            assert answer.status_code == 401, (path, answer.status_code)


def serve_once(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arest", "serve", str(READINGS), "--db", ":memory:", "--port",
         str(free_port()), *options], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("options", [
    ("--host", "0.0.0.0"),
    ("--api-key", ""),
    ("--api-key", "clé"),
    ("--api-key", "two words"),
    ("--admin-key", "é"),
    ("--api-key", "same", "--admin-key", "same"),
    ("--api-key", "k", "--api-key-permissions", "read,root"),
])
def test_a_server_refuses_to_start_without_usable_keys(options: tuple[str, ...]) -> None:
    refused = serve_once(*options)
    assert refused.returncode == 2, refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert lines[-1].startswith(("arest:", "Error:")), refused.stderr
    if options[0] != "--api-key" or "--api-key-permissions" not in options:
        assert len(lines) == 1, refused.stderr


@pytest.mark.parametrize("route", ROUTES[1:3])
async def test_an_agent_cannot_unprotect_a_domain(schema_agent: str, route: tuple[str, str]
                                                  ) -> None:
    async with connected(schema_agent, route, API_KEY) as session:
        retracted = await call(session, "retract", {"fact_type": "Domain_is_protected",
                                                    "bindings": ["core"]})
        compiled = await call(session, "compile", {"readings": "Domain 'tasks' is protected."})
    assert retracted["error"]["code"] == "invalid_input"
    assert "metamodel" in retracted["error"]["message"]
    assert compiled["rejected"]
    assert compiled["violations"][0]["constraint_id"] == "evolution:protected-readings"
