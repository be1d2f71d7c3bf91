"""`arest mcp` end to end: a real process on stdio, driven by the SDK's client in both
protocol eras: the tool surface, every verb with a good and a bad input, the protocol
errors, the resources, and the state kept across a restart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from arest.verbs import CATALOGUE, TAGS, surface
from tests.forking import arest_command

READINGS = Path(__file__).parent / "readings"
ERAS = ["auto", "legacy"]

pytestmark = pytest.mark.anyio


def arguments(db: Path | str, *options: str) -> list[str]:
    return ["mcp", "--mode", "local", "--readings", str(READINGS),
            "--db", str(db), *options]


@asynccontextmanager
async def arest_mcp(era: str, db: Path | str = ":memory:", *options: str,
                    env: dict[str, str] | None = None) -> AsyncIterator[Client]:
    command, *args = arest_command(*(arguments(db, *options) if env is None
                                     else ("mcp", *options)))
    process = StdioServerParameters(command=command, args=args,
                                    env={**os.environ, **(env or {})})
    async with Client(process, mode=era) as client:
        yield client


async def call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    out: dict[str, Any] = result.structured_content  # type: ignore[assignment]
    assert json.loads(result.content[0].text) == out  # type: ignore[union-attr]
    assert result.is_error == ("error" in out)
    return out


SURFACES = [
    *(((tag,), (), ()) for tag in TAGS),
    ((), (), ()),
    (TAGS, (), ()),
    (("entity",), ("snapshot", "explain"), ()),
    ((), ("propose",), ("apply", "delete")),
]


# Each case is a process of its own; the fast suite starts those of every tag at once, of an
# inclusion and of an exclusion, in both eras (``surface`` itself is checked case by case in
# tests/test_verbs.py), the slow suite the others.
FAST_SURFACES = range(len(SURFACES) - 3, len(SURFACES))


@pytest.mark.parametrize(("index", "case"), [
    pytest.param(index, case, marks=() if index in FAST_SURFACES else pytest.mark.slow)
    for index, case in enumerate(SURFACES)])
async def test_tools_list_follows_tags_include_and_exclude(
        index: int, case: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]) -> None:
    tags, include, exclude = case
    options = [flag for flag, values in (("--tags", tags), ("--include-tools", include),
                                         ("--exclude-tools", exclude)) if values
               for flag in (flag, ",".join(values))]
    era = ERAS[index % 2]
    async with arest_mcp(era, ":memory:", *options) as client:
        listed = [tool.name for tool in (await client.list_tools()).tools]
        advertised = client.server_capabilities.experimental["arest"]  # type: ignore[index]
    expected = surface(tags, include, exclude)
    assert listed == [verb.name for verb in expected.listed()]
    assert advertised["tags_active"] == list(expected.tags)
    assert advertised["tags_available"] == list(TAGS)


# Every verb: a good call (what it must answer) and a bad one (the error code).
TASK = {"noun": "Task", "id": "t-1"}
SCRIPT: list[tuple[str, dict[str, Any], Any, dict[str, Any], str]] = [
    ("schema", {"noun": "Task"}, lambda o: o["nouns"][0]["name"] == "Task",
     {"noun": "Tsak"}, "unknown_noun"),
    ("create", {**TASK, "fields": {"Title": "Write", "Milestone": "m-1"}},
     lambda o: o["entity"]["status"] == "Open", {"noun": "Task", "fields": {"Colour": "red"}},
     "unknown_field"),
    ("read", TASK, lambda o: o["Title"] == "Write", {"noun": "Task", "id": "t-9"},
     "unknown_entity"),
    ("get", {"noun": "Task"}, lambda o: o["total"] == 1, {"noun": "Task", "limit": -1},
     "invalid_input"),
    ("update", {**TASK, "fields": {"Title": "Write it"}},
     lambda o: o["entity"]["Title"] == "Write it", {**TASK, "fields": {"status": "Done"}},
     "derived_fact_type"),
    ("query", {"fact_type": "Task_has_Title"},
     lambda o: o["rows"] == [{"Task": "t-1", "Title": "Write it", "derived": False}],
     {"fact_type": "Task_has_Colour"}, "unknown_fact_type"),
    ("project", {"noun": "Task", "roles": ["Title"]},
     lambda o: o["rows"] == [{"Title": "Write it"}], {"noun": "Task", "roles": ["Colour"]},
     "unknown_field"),
    ("explain", {"fact_type": "Milestone_has_open_Task_Count", "bindings": ["m-1", "1"]},
     lambda o: o["derived"] and o["antecedents"],
     {"fact_type": "Milestone_has_open_Task_Count", "bindings": ["m-1", "7"]},
     "invalid_input"),
    ("verify", {"fact_type": "Task_has_Title", "bindings": ["t-1", "Other"]},
     lambda o: o["would_reject"] is True, {"fact_type": "Task_has_Title", "bindings": ["t-1"]},
     "invalid_input"),
    ("actions", TASK, lambda o: [a["event"] for a in o["actions"]] == ["finish"],
     {"noun": "Task", "id": "t-9"}, "unknown_entity"),
    ("snapshot", {"label": "before"}, lambda o: o["id"] == "before", {"label": 7},
     "invalid_input"),
    ("assert", {"fact_type": "Task_has_Title", "bindings": {"Task": "t-2", "Title": "New"}},
     lambda o: o["rejected"] is False,
     {"fact_type": "Milestone_has_open_Task_Count", "bindings": ["m-1", "9"]},
     "derived_fact_type"),
    ("retract", {"fact_type": "Task_has_Title", "bindings": {"Task": "t-2", "Title": "New"}},
     lambda o: o["rejected"] is False, {"fact_type": "Task_has_Title", "bindings": 3},
     "invalid_input"),
    ("transition", {**TASK, "event": "finish"}, lambda o: o["entity"]["status"] == "Done",
     {**TASK, "event": "reopen"}, "unknown_event"),
    ("delete", TASK, lambda o: o["entity"]["status"] == "Archived",
     {"noun": "Milestone", "id": "m-404"}, "unknown_entity"),
    ("snapshots", {}, lambda o: [s["id"] for s in o["snapshots"]] == ["before"],
     {"label": "x"}, "invalid_input"),
    ("rollback", {"id": "before"}, lambda o: o["rolled_back"] is True, {"id": "never"},
     "unknown_snapshot"),
    ("compile", {"readings": "Task has Priority."}, lambda o: o["rejected"] is False,
     {"readings": "Each Task has exactly one."}, "reading_error"),
    ("propose", {"target_domain": "tasks", "readings": ["Task has Effort."]},
     lambda o: o["entity"]["status"] == "Proposed",
     {"target_domain": "tasks", "readings": ["Each Task has exactly one."]}, "reading_error"),
    ("apply", {"key": "read:Task", "input": "<<id, t-1>>"}, lambda o: o["status"] == "Open",
     {"key": "read:Task", "input": "<<id, t-1>"}, "invalid_input"),
    ("search", {"query": "write"}, lambda o: o["results"][0]["id"] == "Task:t-1",
     {"query": ""}, "invalid_input"),
    ("fetch", {"id": "Task:t-1"}, lambda o: o["metadata"]["status"] == "Open",
     {"id": "Tsak:t-1"}, "unknown_noun"),
    # Without sampling, the LLM bridge answers with a prompt, finished by llm_response.
    ("ask", {"question": "Which tasks are open?", "noun": "Task"},
     lambda o: o["mode"] == "prompt-only" and "Task_has_Title" in o["prompt"],
     {"question": "Which tasks?", "llm_response": "no idea"}, "invalid_input"),
    ("ask", {"question": "Titles?", "llm_response": '{"noun": "Task", "roles": ["Title"]}'},
     lambda o: o["rows"] == [{"Title": "Write it"}],
     {"question": "Titles?", "llm_response": '{"noun": "Task", "roles": ["Colour"]}'},
     "unknown_field"),
    ("synthesize", TASK, lambda o: "Write it" in o["prompt"], {"noun": "Task", "id": "t-9"},
     "unknown_entity"),
    ("validate", {"text": "Task t-1 has titles A and B.",
                  "constraint": "Each Task has at most one Title."},
     lambda o: o["mode"] == "prompt-only",
     {"text": "x", "constraint": "Each Task has at most one Colour."}, "invalid_input"),
]


@pytest.mark.parametrize("era", ERAS)
async def test_every_verb_with_a_good_and_a_bad_input(era: str) -> None:
    called = set()
    async with arest_mcp(era, ":memory:", "--tags", ",".join(TAGS), "--permissions",
                         "read,write,schema,history") as client:
        for verb, good, holds, bad, code in SCRIPT:
            out = await call(client, verb, good)
            assert "error" not in out and holds(out), (verb, out)
            refused = await call(client, verb, bad)
            assert refused["error"]["code"] == code, (verb, refused)
            called.add(verb)
    assert called == set(CATALOGUE)


@pytest.mark.parametrize("era", ERAS)
async def test_the_tags_show_tools_the_permissions_forbid(era: str) -> None:
    """Every tag asked for, by default an Agent with read,write: compile, snapshot and
    rollback are listed, and forbidden; with --permissions read, so are the writes."""
    everything = ("--tags", ",".join(TAGS))
    async with arest_mcp(era, ":memory:", *everything) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        made = await call(client, "create", {**TASK, "fields": {"Title": "Write"}})
        refused = {verb: await call(client, verb, args) for verb, args in (
            ("compile", {"readings": "Widget(.id) is an entity type."}),
            ("snapshot", {"label": "s"}), ("rollback", {"id": "s"}),
            ("apply", {"key": "compile", "input": {"readings": "W(.id) is an entity type."}}))}
    assert {"compile", "snapshot", "rollback"} <= listed and "error" not in made
    assert {verb: (out["error"]["code"], out["error"]["permission"])
            for verb, out in refused.items()} == {
        "compile": ("forbidden", "schema"), "snapshot": ("forbidden", "history"),
        "rollback": ("forbidden", "history"), "apply": ("forbidden", "schema")}
    assert refused["compile"]["error"]["command"] == "compile"
    async with arest_mcp(era, ":memory:", *everything, "--permissions", "read") as client:
        read = await call(client, "get", {"noun": "Task"})
        writes = [await call(client, verb, args) for verb, args in (
            ("create", {**TASK, "fields": {"Title": "Write"}}), ("delete", TASK),
            ("retract", {"fact_type": "Task_has_Title", "bindings": ["t-1", "Write"]}))]
    assert "error" not in read
    assert [(out["error"]["code"], out["error"]["permission"]) for out in writes] == [
        ("forbidden", "write")] * 3


@pytest.mark.parametrize("era", ERAS)
async def test_protocol_errors_and_resources(era: str) -> None:
    async with arest_mcp(era, ":memory:", "--exclude-tools", "delete") as client:
        with pytest.raises(MCPError) as hidden:
            await client.call_tool("delete", TASK)
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("remove", TASK)
        await call(client, "create", {**TASK, "fields": {"Title": "Write"}})
        resources = {str(r.uri) for r in (await client.list_resources()).resources}
        facts = json.loads((await client.read_resource("arest://facts")).contents[0].text)
        stats = json.loads((await client.read_resource("arest://stats")).contents[0].text)
    assert (hidden.value.code, unknown.value.code) == (-32601, -32602)
    assert resources == {"arest://facts", "arest://stats", "arest://compliance",
                         "arest://schema"}
    assert {"fact_type": "Task_has_Title", "bindings": {"Task": "t-1", "Title": "Write"}} in [
        {k: v for k, v in fact.items() if k != "time"} for fact in facts["facts"]]
    assert stats["disk_space_bytes"] == 0  # :memory: keeps nothing on disk


async def test_state_is_kept_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "tasks.db"
    async with arest_mcp("legacy", db) as client:
        await call(client, "create", {**TASK, "fields": {"Title": "Write"}})
    async with arest_mcp("auto", db) as client:
        assert (await call(client, "read", TASK))["Title"] == "Write"
        stats = json.loads((await client.read_resource("arest://stats")).contents[0].text)
    assert stats["disk_space_bytes"] > 0


async def test_the_environment_configures_it(tmp_path: Path) -> None:
    db = tmp_path / "env.db"
    env = {"AREST_MODE": "local", "AREST_READINGS_DIR": str(READINGS), "AREST_DB": str(db)}
    async with arest_mcp("auto", env=env) as client:
        await call(client, "create", {**TASK, "fields": {"Title": "Env"}})
    assert db.exists()


def test_the_start_is_announced_on_stderr_and_bad_options_are_usage_errors(
        tmp_path: Path) -> None:
    started = subprocess.run([sys.executable, "-m", "arest", *arguments(tmp_path / "a.db")],
                             input="", capture_output=True, text=True, timeout=60)
    assert started.returncode == 0, started.stderr
    assert started.stdout == ""  # stdout carries JSON-RPC only
    assert "mode local" in started.stderr and str(tmp_path / "a.db") in started.stderr
    assert str(READINGS) in started.stderr
    tags, tools = ", ".join(TAGS), ", ".join(CATALOGUE)
    for option, value, valid in (("--tags", "entity,everything", tags),
                                 ("--include-tools", "forget", tools),
                                 ("--exclude-tools", "Read", tools),
                                 ("--mode", "nowhere", "'local', 'remote'"),
                                 ("--permissions", "read,admin",
                                  "read, write, schema, history, outbound")):
        bad = subprocess.run([sys.executable, "-m", "arest", *arguments(":memory:", option, value)],
                             input="", capture_output=True, text=True, timeout=60)
        assert bad.returncode == 2, (option, bad.stderr)
        assert option in bad.stderr and valid in bad.stderr, bad.stderr
