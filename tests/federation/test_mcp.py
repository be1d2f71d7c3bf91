"""`arest mcp` reads a backed noun from its external system when its permissions hold
outbound, and is refused without (DESIGN §12, §13)."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from tests.federation.json_api import Api, serving
from tests.federation.test_federation import CUSTOMERS, READINGS
from tests.forking import arest_command

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def arest_mcp(readings: Path, *options: str) -> AsyncIterator[Client]:
    command, *args = arest_command(
        "mcp", "--mode", "local", "--readings", str(readings), "--db", ":memory:",
        "--allow-outbound", "127.0.0.1/32", *options)
    process = StdioServerParameters(command=command, args=args, env={**os.environ})
    async with Client(process) as client:
        yield client


async def call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    out: dict[str, Any] = json.loads(result.content[0].text)  # type: ignore[union-attr]
    return out


async def test_a_tool_reads_the_backed_noun_with_outbound(tmp_path: Path) -> None:
    with serving(Api(collections={"customers": [dict(c) for c in CUSTOMERS]})) as api:
        readings = tmp_path / "crm.md"
        readings.write_text(READINGS.format(url=api.url))
        async with arest_mcp(readings, "--permissions", "read,write,outbound") as client:
            out = await call(client, "read", {"noun": "Customer", "id": "acme"})
    assert out["Name"] == "Acme" and out["source"]["system"] == "crm"


async def test_a_tool_without_outbound_is_forbidden(tmp_path: Path) -> None:
    with serving(Api(collections={"customers": [dict(c) for c in CUSTOMERS]})) as api:
        readings = tmp_path / "crm.md"
        readings.write_text(READINGS.format(url=api.url))
        async with arest_mcp(readings) as client:
            out = await call(client, "read", {"noun": "Customer", "id": "acme"})
    assert out["error"]["code"] == "forbidden" and out["error"]["permission"] == "outbound"
    assert api.requests == []



async def test_explain_and_search_fetch_over_mcp(tmp_path: Path) -> None:
    with serving(Api(collections={"customers": [dict(c) for c in CUSTOMERS]})) as api:
        readings = tmp_path / "crm.md"
        readings.write_text(READINGS.format(url=api.url))
        async with arest_mcp(readings, "--tags", "introspection,chatgpt",
                             "--permissions", "read,outbound") as client:
            why = await call(client, "explain", {"fact_type": "Customer_has_Name",
                                                 "bindings": {"Customer": "bolt",
                                                              "Name": "Bolt"}})
            found = await call(client, "search", {"query": "bolt"})
    assert why["antecedents"][0]["source"]["url"] == api.url + "/customers/bolt"
    assert [result["id"] for result in found["results"]] == ["Customer:bolt"]
    assert found["results"][0]["source"]["system"] == "crm"
