"""The budget of a tool call's command, through a real ``arest serve`` and the SDK's client:
a command past ``--command-seconds`` is the error ``limit_exceeded`` and changes nothing,
and a long query whose HTTP client goes away is stopped while the server keeps answering."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client

from arest.runtime import Tenant
from tests.transports.serving import arest_serve
from tests.transports.test_http import over_http

READINGS = Path(__file__).parent / "readings"
TASKS = 8000

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def hasty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose commands have a nanosecond each."""
    folder = tmp_path_factory.mktemp("hasty")
    with arest_serve(folder, READINGS, "--db", ":memory:", "--command-seconds", "1e-9"
                     ) as base:
        yield base


@pytest.fixture(scope="module")
def populated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server over many tasks, so that listing them takes a while; its URL and log."""
    folder = tmp_path_factory.mktemp("populated")
    readings = folder / "readings"
    shutil.copytree(READINGS, readings, ignore=shutil.ignore_patterns("*.db*"))
    with Tenant.open(readings, db=folder / "tasks.db") as tenant, \
            ThreadPoolExecutor(16) as creating:  # threads share the journal's commits
        list(creating.map(lambda number: tenant.call(
            "create:Task", {"id": f"t{number}", "Title": f"Task {number}"}), range(TASKS)))
    with arest_serve(folder, readings, "--db", str(folder / "tasks.db")) as base:
        port = base.rsplit(":", 1)[1]
        yield base, folder / f"serve-{port}.log"


@pytest.mark.parametrize("era", ["auto", "legacy"])
async def test_a_command_past_its_budget_is_limit_exceeded_and_changes_nothing(
        hasty: str, era: str) -> None:
    async with over_http(f"{hasty}/mcp", era) as session:
        made = await session.call_tool("create", {"noun": "Task", "id": f"late-{era}",
                                                  "fields": {"Title": "T"}})
    async with httpx2.AsyncClient() as http:
        kept = await http.get(f"{hasty}/tasks/late-{era}")  # REST reads without a budget
    assert made.is_error
    assert made.structured_content["error"]["code"] == "limit_exceeded"
    assert made.structured_content["error"]["budget_seconds"] == 1e-9
    assert kept.status_code == 404


@pytest.mark.slow  # 8,000 tasks to make a query outlast the disconnect
async def test_a_long_query_is_stopped_when_its_client_goes_away(
        populated: tuple[str, Path]) -> None:
    base, log = populated
    started = anyio.Event()

    async def progress(progress: float, total: float | None, message: str | None) -> None:
        started.set()

    async def list_everything(client: Any) -> None:
        await client.call_tool("get", {"noun": "Task"}, progress_callback=progress)

    with anyio.fail_after(120):
        async with httpx2.AsyncClient() as http, \
                Client(streamable_http_client(f"{base}/mcp", http_client=http)) as client, \
                anyio.create_task_group() as calls:
            calls.start_soon(list_everything, client)
            await started.wait()  # the command runs: now its client goes away
            calls.cancel_scope.cancel()
        while "ended, its call cancelled" not in log.read_text():
            await anyio.sleep(0.1)
        async with over_http(f"{base}/mcp", "auto") as session:
            one = await session.call_tool("get", {"noun": "Task", "id": "t1"})
    assert "get:Task ended, its call cancelled: limit_exceeded" in log.read_text()
    assert one.structured_content["id"] == "t1"


def test_a_rest_command_past_its_budget_is_limit_exceeded_and_changes_nothing(
        hasty: str) -> None:
    made = httpx2.post(f"{hasty}/tasks", json={"id": "late-rest", "Title": "T"})
    kept = httpx2.get(f"{hasty}/tasks/late-rest")
    assert made.status_code == 409
    assert made.json()["code"] == "limit_exceeded"
    assert made.json()["budget_seconds"] == 1e-9
    assert kept.status_code == 404


async def test_a_rest_command_whose_client_goes_away_is_cancelled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The command starts only once its request's budget is cancelled, so the disconnect
    surely comes first: it is stopped, and the tenant holds nothing of it."""
    from arest.rest import answer as rest_answer
    from arest.rest.answer import Request
    from arest.system.permissions import AGENT_PRINCIPAL
    from arest.transports import rest

    def after_the_disconnect(tenant: Tenant, request: Request) -> Any:
        assert request.budget is not None
        with anyio.from_thread.start_blocking_portal() as portal:
            portal.call(_until_cancelled, request)
        return rest_answer.answer(tenant, request)

    monkeypatch.setattr(rest, "answer", after_the_disconnect)

    async def gone() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    with Tenant.open(READINGS, db=":memory:") as tenant:
        request = Request("POST", "/tasks", AGENT_PRINCIPAL,
                          body=b'{"id": "t-gone", "Title": "T"}',
                          content_type="application/json", budget=rest.Budget(None))
        response = await rest._answered_while_connected(tenant, request, gone)
        left = tenant.call("get:Task", {"id": "t-gone"})
    assert response.status == 409
    assert response.body["reason"] == "cancelled"
    assert left["error"]["code"] == "unknown_entity"


async def _until_cancelled(request: Any) -> None:
    with anyio.fail_after(10):
        while request.budget.spent() is None:
            await anyio.sleep(0.01)
