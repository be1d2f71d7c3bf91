"""MCP benchmark: the tools/call round trip of arest's ``read`` and ``create``, over stdio and
streamable HTTP, beside the SDK's trivial-tool baseline measured in the same run.

Servers, each a process of its own:

* ``SDK echo``: the baseline of every ratio.  The SDK's low-level ``Server`` with one tool,
  ``echo``, whose arguments are checked by a ``Draft202012Validator`` compiled once
  (``MCP-SDK.md`` §1.3 and §4).  Served by this file (``--serve-baseline``): over stdio, and
  over streamable HTTP at ``/mcp`` as arest serves it (a Starlette route over a stateful
  ``StreamableHTTPSessionManager`` with DNS-rebinding settings, on uvicorn).
* ``arest, SQLite file``: ``python -m arest mcp --readings readings/orders --db <file>``
  (stdio) and ``python -m arest serve readings/orders --db <file> --port N`` (HTTP), with the
  default tools (``entity,introspection``, which include ``read`` and ``create``).  A durable
  database is the real deployment: an accepted create is journaled, on disk, before the
  answer.
* ``arest, :memory:``: the same with ``--db :memory:``, which separates the cost of the
  journal's fsync from the rest.

Calls: ``echo {"text": "hello"}``; ``read {"noun": "Customer", "id": "reader@x"}`` (a
Customer created before the warm-up); ``create {"noun": "Customer", "id": <new>, "fields":
{"Name": ...}}``, a new Customer each call.  Every result is checked: no ``isError``, the echo
comes back, the read finds the Customer, the create is not rejected.

Clients, both the SDK's: ``ClientSession`` + ``initialize`` (protocol 2025-11-25, what
third-party clients speak) and ``Client(mode="auto")`` (2026-07-28).  Each transport and era
runs in its own fresh client process (``harness.run_isolated``) holding a connection to the
three servers at once.  After a warm-up of every call, the timed calls are sequential and
interleaved in blocks (each block ``--block`` calls of one row, the rows' order rotating
from round to round), so that the baseline and arest see the same machine load.  Figures are
the median and p90 (nearest rank) of the round trip as the client sees it, from before
``call_tool`` to its return.

Layers, in one more fresh process, where the round trip's time goes: ``tenant.call`` alone
and through ``anyio.to_thread`` (as the server calls it), with no MCP; then, in both eras,
the in-process ``Client(server)`` (no transport) of five servers, interleaved as above, from
the SDK echo to arest's ``mcp_server`` one step at a time: the echo answering arest's read
result (the payload), then validating with ``command_for`` and calling ``tenant.call``
inline, then the same in ``anyio.to_thread``, then arest's own server.

Budget: the median ``read`` over a SQLite file within 1.5× the SDK echo, on each transport.

Start (``--starts N``): N times each, alternating, a server process is started over stdio
and sent ``initialize`` (2025-11-25): the SDK echo, and ``python -m arest mcp readings/orders
--db :memory:``; the time from the spawn to the answer's line (wall), and the CPU time the
process had used when it answered (``/proc/<pid>/stat``, Linux, in clock ticks).  The
interpreter's own start is counted: it is what a client waits for.

Run ``python benchmarks/bench_mcp.py`` (200 timed calls per row, about 40 s on 2 cores),
``--quick`` for a smoke run, ``--profile N`` for a cProfile of N ``read`` calls in the arest
stdio server process (and of N ``echo`` calls in the baseline's).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pstats
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from harness import Column, format_table, interpreter_facts, percentile, publish, run_isolated

SCRIPT = Path(__file__).resolve()
REPO = SCRIPT.parent.parent
EXAMPLE = REPO / "readings" / "orders"

LEGACY, MODERN = "2025-11-25", "2026-07-28"
ERAS = {LEGACY: "ClientSession + initialize", MODERN: 'Client(mode="auto")'}
TRANSPORTS = ("stdio", "http")
BASELINE = "SDK echo"
ROWS = (
    BASELINE,
    "arest read, SQLite file",
    "arest read, :memory:",
    "arest create, SQLite file",
    "arest create, :memory:",
)
BUDGETED = "arest read, SQLite file"
BUDGET = 1.5
READER = "reader@x"
ECHO_SCHEMA = {
    "type": "object",
    "properties": {"text": {"type": "string"}},
    "required": ["text"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class Plan:
    """How much work each client process does."""

    calls: int = 200
    warmup: int = 20
    block: int = 20

    def quick(self) -> Plan:
        """Fewer calls: a smoke run."""
        return replace(self, calls=40, warmup=10, block=10)


def _log(message: str) -> None:
    print(f"  [{message}]", file=sys.stderr, flush=True)


# the baseline server -------------------------------------------------------------------


def baseline_server() -> Any:
    """The SDK's low-level ``Server`` with one tool, ``echo``, validated by a precompiled
    Draft 2020-12 validator."""
    import jsonschema
    import mcp_types as types
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    tool = types.Tool(name="echo", description="Echo the text back.", input_schema=ECHO_SCHEMA)
    validator = jsonschema.Draft202012Validator(ECHO_SCHEMA)

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name != "echo":
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        error = next(validator.iter_errors(arguments), None)
        if error is not None:
            text = f"Invalid arguments: {error.message}"
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                        is_error=True)
        return types.CallToolResult(content=[types.TextContent(type="text",
                                                               text=arguments["text"])])

    return Server("echo", version="0.1.0", on_list_tools=list_tools, on_call_tool=call_tool)


def serve_baseline(transport: str, port: int) -> None:
    """Serve the baseline on stdin/stdout, or over streamable HTTP at 127.0.0.1:``port``/mcp."""
    import anyio

    server = baseline_server()
    if transport == "stdio":
        from mcp.server.stdio import stdio_server

        async def stdio() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        anyio.run(stdio)
        return
    import uvicorn
    from mcp.server.streamable_http_manager import (
        StreamableHTTPASGIApp,
        StreamableHTTPSessionManager,
    )
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.routing import Route

    names = ["127.0.0.1", "localhost", "[::1]"]
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:{port}" for name in names] + names,
        allowed_origins=[f"http://{name}:{port}" for name in names])
    manager = StreamableHTTPSessionManager(app=server, security_settings=security)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    app = Starlette(routes=[Route("/mcp", endpoint=StreamableHTTPASGIApp(manager),
                                  methods=["GET", "POST", "DELETE"])], lifespan=lifespan)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


# servers and sessions ------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_command(server: str, transport: str, db: str | None, port: int | None) -> list[str]:
    """The command line of one server: ``baseline`` or ``arest`` (over ``db``)."""
    if server == "baseline":
        return [sys.executable, str(SCRIPT), "--serve-baseline", transport,
                "--port", str(port or 0)]
    if transport == "stdio":
        return [sys.executable, "-m", "arest", "mcp", "--readings", str(EXAMPLE), "--db",
                str(db)]
    return [sys.executable, "-m", "arest", "serve", str(EXAMPLE), "--db", str(db), "--port",
            str(port)]


@contextlib.contextmanager
def http_process(command: list[str], port: int, errlog: Any, tree: Path = REPO,
                 env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """Run an HTTP server from ``tree`` until the block ends, once it accepts connections;
    then stop it (terminate, kill after 30 s)."""
    process = subprocess.Popen(command, cwd=tree, stdout=errlog, stderr=errlog, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{' '.join(command)} did not start") from None
                time.sleep(0.05)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def http_server(command: list[str], port: int, errlog: Any) -> Iterator[str]:
    """Run an HTTP server until the block ends: its MCP url, once it accepts connections."""
    with http_process(command, port, errlog):
        yield f"http://127.0.0.1:{port}/mcp"


async def open_session(stack: contextlib.AsyncExitStack, era: str, command: list[str] | None,
                       url: str | None, errlog: Any) -> Any:
    """A session in ``era`` to a stdio ``command`` or an HTTP ``url``: a ``ClientSession``
    after ``initialize`` (2025-11-25) or a ``Client(mode="auto")`` (2026-07-28)."""
    from mcp.client import Client
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    if command is not None:
        params = StdioServerParameters(command=command[0], args=command[1:], cwd=str(REPO))
        transport: Any = stdio_client(params, errlog=errlog)
    else:
        transport = streamable_http_client(str(url))
    session: Any
    negotiated: str | None
    if era == LEGACY:
        read, write = await stack.enter_async_context(transport)
        session = await stack.enter_async_context(ClientSession(read, write))
        negotiated = (await session.initialize()).protocol_version
    else:
        session = await stack.enter_async_context(Client(transport, mode="auto"))
        negotiated = session.protocol_version
    if negotiated != era:
        raise RuntimeError(f"negotiated {negotiated}, expected {era}")
    return session


# calls ---------------------------------------------------------------------------------


@dataclass
class Row:
    """One timed row: a session, a tool, the arguments of each call and the check of each
    result."""

    label: str
    session: Any
    tool: str
    arguments: Callable[[], dict[str, Any]]
    check: Callable[[dict[str, Any], Any], None]


class BadResult(RuntimeError):
    """A call the benchmark meant to succeed did not."""


def _structured(arguments: dict[str, Any], result: Any) -> dict[str, Any]:
    if result.is_error:
        raise BadResult(f"{arguments}: {result}")
    out: dict[str, Any] = result.structured_content or {}
    return out


def check_echo(arguments: dict[str, Any], result: Any) -> None:
    if result.is_error or result.content[0].text != arguments["text"]:
        raise BadResult(f"echo {arguments}: {result}")


def check_read(arguments: dict[str, Any], result: Any) -> None:
    out = _structured(arguments, result)
    if out.get("id") != arguments["id"] or out.get("noun") != "Customer":
        raise BadResult(f"read {arguments}: {out}")


def check_create(arguments: dict[str, Any], result: Any) -> None:
    out = _structured(arguments, result)
    if out.get("rejected") is not False or "error" in out:
        raise BadResult(f"create {arguments}: {out}")


def creates(prefix: str) -> Callable[[], dict[str, Any]]:
    """Arguments of a new Customer on each call.

    >>> make = creates("m")
    >>> make()["id"], make()["id"]
    ('m0@x', 'm1@x')
    """
    numbers = iter(range(10**9))

    def arguments() -> dict[str, Any]:
        number = next(numbers)
        return {"noun": "Customer", "id": f"{prefix}{number}@x",
                "fields": {"Name": f"Customer {number}"}}

    return arguments


def result_bytes(result: Any) -> int:
    """The size of a result as JSON on the wire (compact, by alias, without nulls)."""
    return len(json.dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True),
                          separators=(",", ":")).encode())


async def time_rows(rows: Sequence[Row], plan: Plan) -> dict[str, dict[str, Any]]:
    """Warm up every row, then time ``plan.calls`` calls of each, interleaved in blocks."""
    clock = time.perf_counter_ns
    for row in rows:
        for _ in range(plan.warmup):
            arguments = row.arguments()
            row.check(arguments, await row.session.call_tool(row.tool, arguments))
    samples: dict[str, list[int]] = {row.label: [] for row in rows}
    sizes: dict[str, int] = {}
    rounds = -(-plan.calls // plan.block)
    for number in range(rounds):
        shift = number % len(rows)
        for row in [*rows[shift:], *rows[:shift]]:
            for _ in range(min(plan.block, plan.calls - len(samples[row.label]))):
                arguments = row.arguments()
                start = clock()
                result = await row.session.call_tool(row.tool, arguments)
                samples[row.label].append(clock() - start)
                row.check(arguments, result)
                sizes[row.label] = result_bytes(result)
    return {label: {"samples_ns": found, "result_bytes": sizes[label]}
            for label, found in samples.items()}


async def _round_trips(transport: str, era: str, plan: Plan, folder: str
                       ) -> dict[str, dict[str, Any]]:
    servers = {"baseline": ("baseline", None),
               "file": ("arest", str(Path(tempfile.mkdtemp(dir=folder)) / "orders.db")),
               "memory": ("arest", ":memory:")}
    errlog = (Path(folder) / f"servers-{transport}-{era}.log").open("w")
    with contextlib.ExitStack() as processes, errlog:
        async with contextlib.AsyncExitStack() as stack:
            sessions = {}
            for name, (server, db) in servers.items():
                if transport == "stdio":
                    command = server_command(server, transport, db, None)
                    sessions[name] = await open_session(stack, era, command, None, errlog)
                else:
                    port = free_port()
                    url = processes.enter_context(http_server(
                        server_command(server, transport, db, port), port, errlog))
                    sessions[name] = await open_session(stack, era, None, url, errlog)
            for name in ("file", "memory"):
                reader = {"noun": "Customer", "id": READER, "fields": {"Name": "Reader"}}
                check_create(reader, await sessions[name].call_tool("create", reader))
            read = {"noun": "Customer", "id": READER}
            rows = [
                Row(BASELINE, sessions["baseline"], "echo", lambda: {"text": "hello"},
                    check_echo),
                Row(ROWS[1], sessions["file"], "read", lambda: dict(read), check_read),
                Row(ROWS[2], sessions["memory"], "read", lambda: dict(read), check_read),
                Row(ROWS[3], sessions["file"], "create", creates("f"), check_create),
                Row(ROWS[4], sessions["memory"], "create", creates("m"), check_create),
            ]
            return await time_rows(rows, plan)


def measure_round_trips(transport: str, era: str, calls: int, warmup: int, block: int,
                        folder: str) -> dict[str, Any]:
    """Every row over one transport in one era, timed in this (fresh) process."""
    import anyio

    _log(f"{transport}, {era}")
    plan = Plan(calls=calls, warmup=warmup, block=block)
    rows = anyio.run(_round_trips, transport, era, plan, folder)
    return {"transport": transport, "era": era, "rows": rows}


# layers --------------------------------------------------------------------------------


DIRECT = (
    "tenant.call read:Customer",
    "tenant.call read:Customer in anyio.to_thread",
    "tenant.call create:Customer, SQLite file",
    "tenant.call create:Customer, :memory:",
)
STEPS = (
    "SDK echo",
    "echo answering arest's read result",
    "+ command_for and tenant.call, inline",
    "+ the same in anyio.to_thread",
    "arest's mcp_server, read",
)


def _tool_result(out: dict[str, Any]) -> Any:
    """A SYSTEM output as arest's server answers it: JSON text and structured content."""
    import mcp_types as types

    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(out, ensure_ascii=False))],
        structured_content=out, is_error="error" in out)


def step_server(step: str, tenant: Any) -> Any:
    """An in-process server for one step from the SDK echo to arest's server: the echo's
    tool, answering what arest answers, doing more of what arest does at each step."""
    import anyio.to_thread
    import jsonschema
    import mcp_types as types
    from mcp.server import Server

    from arest.transports.server import mcp_server
    from arest.verbs import CATALOGUE, command_for, surface

    active = surface()
    if step == STEPS[0]:
        return baseline_server()
    if step == STEPS[-1]:
        return mcp_server(tenant, active)
    tool = types.Tool(name="read", description="Read a Customer.",
                      input_schema=dict(CATALOGUE["read"].schema))
    validator = jsonschema.Draft202012Validator(CATALOGUE["read"].schema)
    answer = tenant.call("read:Customer", {"id": READER}, "Agent")

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
        arguments = dict(params.arguments or {})
        if step == STEPS[1]:
            next(validator.iter_errors(arguments), None)
            return _tool_result(answer)
        command = command_for("read", arguments, active)
        if step == STEPS[2]:
            return _tool_result(tenant.call(command.key, command.input, "Agent"))
        return _tool_result(await anyio.to_thread.run_sync(
            tenant.call, command.key, command.input, "Agent"))

    return Server("step", version="0.1.0", on_list_tools=list_tools, on_call_tool=call_tool)


async def _layers(calls: int, warmup: int, block: int, folder: str) -> dict[str, Any]:
    import anyio.to_thread
    from mcp.client import Client

    import arest

    clock = time.perf_counter_ns
    direct: dict[str, list[int]] = {}

    async def timed(label: str, step: Callable[[], Any]) -> None:
        for _ in range(warmup):
            await step()
        samples = []
        for _ in range(calls):
            start = clock()
            await step()
            samples.append(clock() - start)
        direct[label] = samples

    tenants = {db: arest.Tenant.open(EXAMPLE, db=db)
               for db in (str(Path(tempfile.mkdtemp(dir=folder)) / "orders.db"), ":memory:")}
    steps: dict[str, Any] = {}
    try:
        for tenant in tenants.values():
            made = tenant.call("create:Customer", {"id": READER, "Name": "Reader"}, "Agent")
            check_create({}, _tool_result(made))
        tenant = next(iter(tenants.values()))
        read = {"id": READER}

        async def inline() -> None:
            check_read(read, _tool_result(tenant.call("read:Customer", read, "Agent")))

        async def threaded() -> None:
            found = await anyio.to_thread.run_sync(tenant.call, "read:Customer", read, "Agent")
            check_read(read, _tool_result(found))

        await timed(DIRECT[0], inline)
        await timed(DIRECT[1], threaded)
        for label, held in zip(DIRECT[2:], tenants.values(), strict=True):
            make = creates("t")

            async def create(held: Any = held, make: Any = make) -> None:
                arguments = make()
                input = {"id": arguments["id"], **arguments["fields"]}
                check_create(arguments, _tool_result(held.call("create:Customer", input,
                                                               "Agent")))

            await timed(label, create)
        arguments = {"noun": "Customer", "id": READER}
        for era in ERAS:
            async with contextlib.AsyncExitStack() as stack:
                rows = []
                for step in STEPS:
                    client = await stack.enter_async_context(Client(
                        step_server(step, tenant), mode="legacy" if era == LEGACY else "auto"))
                    if step == STEPS[0]:
                        rows.append(Row(step, client, "echo", lambda: {"text": "hello"},
                                        check_echo))
                    else:
                        rows.append(Row(step, client, "read", lambda: dict(arguments),
                                        check_read))
                found = await time_rows(rows, Plan(calls=calls, warmup=warmup, block=block))
                steps[era] = {label: row["samples_ns"] for label, row in found.items()}
    finally:
        for tenant in tenants.values():
            tenant.close()
    return {"direct": direct, "steps": steps}


def measure_layers(calls: int, warmup: int, block: int, folder: str) -> dict[str, Any]:
    """The layers under the round trip, timed in this (fresh) process."""
    import anyio

    _log("layers, in-process")
    return anyio.run(_layers, calls, warmup, block, folder)


# profile -------------------------------------------------------------------------------


_PROFILED_SERVER = """\
import cProfile, sys
out, which = sys.argv[1], sys.argv[2]
profiler = cProfile.Profile()
def profiled(serve):
    def run(*args):
        profiler.enable()
        try:
            serve(*args)
        finally:
            profiler.disable()
            profiler.dump_stats(out)
    return run
if which == "arest":
    import arest.transports.server, mcp.server.stdio  # imported before profiling starts
    import arest.transports.stdio as stdio
    stdio.serve = profiled(stdio.serve)
    from arest.cli import main
    sys.argv = ["arest", *sys.argv[3:]]
    main()
else:
    import jsonschema, mcp_types, mcp.server, mcp.server.stdio, mcp.shared.exceptions
    sys.path.insert(0, sys.argv[3])
    import bench_mcp
    profiled(bench_mcp.serve_baseline)("stdio", 0)
"""


async def _profile_calls(command: list[str], tool: str, arguments: dict[str, Any],
                         calls: int, errlog: Any) -> float:
    async with contextlib.AsyncExitStack() as stack:
        session = await open_session(stack, LEGACY, command, None, errlog)
        if tool == "read":
            reader = {"noun": "Customer", "id": READER, "fields": {"Name": "Reader"}}
            check_create(reader, await session.call_tool("create", reader))
        start = time.perf_counter()
        for _ in range(calls):
            await session.call_tool(tool, dict(arguments))
        return (time.perf_counter() - start) / calls * 1e3


def profile(calls: int, folder: str) -> str:
    """cProfile of ``calls`` stdio round trips in each server process, from the start of
    serving (after imports and ``Tenant.open``) to the end of the connection.  cProfile sees
    the event loop's thread only: ``tenant.call``, run in a worker thread, shows as waiting."""
    import anyio

    report = io.StringIO()
    errlog = (Path(folder) / "profile.log").open("w")
    cases = (("baseline", "echo", {"text": "hello"}, [str(SCRIPT.parent)]),
             ("arest", "read", {"noun": "Customer", "id": READER},
              ["mcp", "--readings", str(EXAMPLE), "--db", str(Path(folder) / "profile.db")]))
    with errlog:
        for which, tool, arguments, rest in cases:
            out = Path(folder) / f"{which}.prof"
            command = [sys.executable, "-c", _PROFILED_SERVER, str(out), which, *rest]
            per_call = anyio.run(_profile_calls, command, tool, arguments, calls, errlog)
            for _ in range(100):
                if out.exists():
                    break
                time.sleep(0.1)
            stats = pstats.Stats(str(out), stream=report).strip_dirs()
            print(f"\n## {which} `{tool}` over stdio, {calls:,} calls, {per_call:.3f} ms per "
                  "round trip under the profiler", file=report)
            for order in ("tottime", "cumulative"):
                print(f"\n### by {order}", file=report)
                stats.sort_stats(order).print_stats(30)
    return report.getvalue()


# reporting -----------------------------------------------------------------------------


def _ms(samples: Sequence[int]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median": statistics.median(ordered) / 1e6, "p90": percentile(ordered, 0.9) / 1e6}


def load_average() -> str:
    """The 1, 5 and 15 minute load averages (``os.getloadavg``), or ``?``."""
    try:
        return ", ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "?"


def verdicts(results: dict[str, Any]) -> dict[tuple[str, str], float]:
    """The budgeted ratio, median ``read`` over a SQLite file ÷ median echo, per transport
    and era."""
    found = {}
    for run in results["round_trips"]:
        rows = run["rows"]
        found[(run["transport"], run["era"])] = (
            _ms(rows[BUDGETED]["samples_ns"])["median"] / _ms(rows[BASELINE]["samples_ns"])
            ["median"])
    return found


def report(results: dict[str, Any], plan: Plan) -> str:
    """The Markdown tables: one per transport and era, the budget, and the layers."""
    out: list[str] = []
    columns = [
        Column("median", "median ms", "{:,.3f}"),
        Column("p90", "p90 ms", "{:,.3f}"),
        Column("bytes", "result bytes", "{:,}", ratio=False),
    ]
    for run in results["round_trips"]:
        rows: dict[str, dict[str, float | str | None]] = {}
        for label in ROWS:
            found = run["rows"][label]
            rows[label] = {**_ms(found["samples_ns"]), "bytes": found["result_bytes"]}
        out.append(f"**{run['transport']}, {run['era']}** ({ERAS[run['era']]}), "
                   f"{plan.calls:,} calls per row after {plan.warmup:,} warm-up\n")
        out.append(format_table(rows, columns, BASELINE) + "\n")
    out.append(f"**Budget**: median `read` over a SQLite file ≤ {BUDGET}× the SDK echo\n")
    budget_rows: dict[str, dict[str, float | str | None]] = {}
    by_run = {(run["transport"], run["era"]): run["rows"] for run in results["round_trips"]}
    for (transport, era), ratio in verdicts(results).items():
        rows_found = by_run[(transport, era)]
        budget_rows[f"{transport}, {era}"] = {
            "echo": _ms(rows_found[BASELINE]["samples_ns"])["median"],
            "read": _ms(rows_found[BUDGETED]["samples_ns"])["median"],
            "ratio": f"{ratio:.2f}×",
            "holds": "yes" if ratio <= BUDGET else "**no**",
        }
    out.append(format_table(budget_rows, [
        Column("echo", "echo median ms", "{:,.3f}", ratio=False),
        Column("read", "read median ms", "{:,.3f}", ratio=False),
        Column("ratio", "read × echo", ratio=False),
        Column("holds", f"≤ {BUDGET}×", ratio=False),
    ], BASELINE, label="transport, era") + "\n")
    layers = results.get("layers")
    if layers:
        us = "{:,.1f}"
        count = len(layers["direct"][DIRECT[0]])
        rows = {label: {"median": _ms(found)["median"] * 1e3, "p90": _ms(found)["p90"] * 1e3}
                for label, found in layers["direct"].items()}
        out.append(f"**Layers, direct**: no MCP, µs ({count:,} calls each)\n")
        out.append(format_table(rows, [Column("median", "median µs", us, ratio=False),
                                       Column("p90", "p90 µs", us, ratio=False)],
                                DIRECT[0]) + "\n")
        rows = {}
        for era, by_step in layers["steps"].items():
            medians = [_ms(by_step[step])["median"] * 1e3 for step in STEPS]
            for index, step in enumerate(STEPS):
                rows.setdefault(step, {})[f"{era} median"] = medians[index]
                rows[step][f"{era} step"] = (medians[index] - medians[index - 1]
                                             if index else None)
        count = len(layers["steps"][LEGACY][STEPS[0]])
        out.append("**Layers, in-process** `Client(server)`, no transport: from the SDK echo "
                   f"to arest's server one step at a time, median µs ({count:,} calls each, "
                   "interleaved)\n")
        columns = []
        for era in ERAS:
            columns.append(Column(f"{era} median", f"{era} µs", us, ratio=False))
            columns.append(Column(f"{era} step", "step µs", "{:+,.1f}", ratio=False))
        out.append(format_table(rows, columns, STEPS[0]) + "\n")
    holds = all(ratio <= BUDGET for ratio in verdicts(results).values())
    out.append(f"Verdict: `read` ≤ {BUDGET}× the SDK echo on every transport and era: "
               f"{'holds' if holds else 'does NOT hold'}.")
    return "\n".join(out)


def run(plan: Plan, folder: str, layers: bool) -> dict[str, Any]:
    """Every transport and era, each in its own fresh client process; then the layers."""
    round_trips = [
        run_isolated(SCRIPT, "measure_round_trips",
                     {"transport": transport, "era": era, "calls": plan.calls,
                      "warmup": plan.warmup, "block": plan.block, "folder": folder})
        for transport in TRANSPORTS
        for era in ERAS
    ]
    found: dict[str, Any] = {"round_trips": round_trips}
    if layers:
        found["layers"] = run_isolated(SCRIPT, "measure_layers",
                                       {"calls": 5 * plan.calls, "warmup": 5 * plan.warmup,
                                        "block": plan.block, "folder": folder})
    return found


_INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}}
STARTS = {"SDK echo": [str(SCRIPT), "--serve-baseline", "stdio"],
          "arest mcp": ["-m", "arest", "mcp", str(EXAMPLE), "--db", ":memory:"]}


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time a live process has used (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_start(name: str) -> dict[str, Any]:
    """Spawn one server, send ``initialize``, and time its answer: wall and the server's CPU."""
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, *STARTS[name]], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps(_INITIALIZE).encode() + b"\n")
    server.stdin.flush()
    answer = server.stdout.readline()
    wall = time.perf_counter() - started
    cpu = _cpu_seconds(server.pid)
    server.stdin.close()
    server.wait()
    if json.loads(answer).get("result", {}).get("protocolVersion") != LEGACY:
        raise RuntimeError(f"{name}: no initialize result ({answer[:200]!r})")
    return {"name": name, "wall_s": wall, "cpu_s": cpu}


def starts_report(trials: int) -> str:
    """The start table: median wall and CPU ms to the first answer, and ratios to the echo."""
    found = [measure_start(name) for _ in range(trials) for name in STARTS]
    rows: dict[str, dict[str, float | str | None]] = {
        name: {key: statistics.median(r[f"{key}_s"] for r in found if r["name"] == name) * 1e3
               for key in ("wall", "cpu")}
        for name in STARTS
    }
    columns = [Column("wall", "to the first answer, wall ms", "{:,.0f}"),
               Column("cpu", "server CPU ms when it answered", "{:,.0f}")]
    return (f"**Start**: spawn to the `initialize` answer over stdio, median of {trials}\n\n"
            + format_table(rows, columns, "SDK echo"))


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, measure in fresh processes, print the tables and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 calls per row: a smoke run")
    parser.add_argument("--calls", type=int, default=None, help="timed calls per row")
    parser.add_argument("--block", type=int, default=None,
                        help="consecutive calls of one row before the next row's turn")
    parser.add_argument("--starts", type=int, default=None, metavar="N",
                        help="only time N starts of each server to its first answer")
    parser.add_argument("--no-layers", action="store_true",
                        help="skip the in-process layers")
    parser.add_argument("--dir", default=None, help="folder for the databases (default: temp)")
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    parser.add_argument("--from-json", type=Path, default=None,
                        help="print the tables of a saved run")
    parser.add_argument("--profile", type=int, default=None, metavar="N",
                        help="print a cProfile of N stdio round trips in each server process")
    parser.add_argument("--serve-baseline", choices=TRANSPORTS, default=None,
                        help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.serve_baseline is not None:
        serve_baseline(options.serve_baseline, options.port)
        return
    if options.from_json is not None:
        saved = json.loads(options.from_json.read_text())
        print("\n".join(f"- {key}: {value}" for key, value in saved["machine"].items()))
        print()
        print(report(saved["results"][0], Plan(**saved["plan"])))
        return
    if options.starts is not None:
        print(starts_report(options.starts))
        return
    plan = Plan().quick() if options.quick else Plan()
    if options.calls is not None:
        plan = replace(plan, calls=options.calls)
    if options.block is not None:
        plan = replace(plan, block=options.block)
    with tempfile.TemporaryDirectory(prefix="bench-mcp-", dir=options.dir) as folder:
        if options.profile is not None:
            print(profile(options.profile, folder))
            return
        import mcp

        facts = {
            **interpreter_facts(),
            "mcp": getattr(mcp, "__version__", None) or _version("mcp"),
            "calls": f"{plan.calls:,} timed per row after {plan.warmup:,} warm-up, "
                     f"interleaved in blocks of {plan.block:,}",
            "databases": folder,
            "load average before": load_average(),
        }
        print("\n".join(f"- {key}: {value}" for key, value in facts.items()), file=sys.stderr)
        with contextlib.suppress(OSError):
            if os.getloadavg()[0] > (os.cpu_count() or 1) / 2:
                _log("warning: the machine is busy (1-minute load above half the cores); "
                     "the ratios hold up better than the absolute figures")
        started = time.perf_counter()
        results = run(plan, folder, layers=not options.no_layers)
        facts["load average after"] = load_average()
        facts["wall time"] = f"{time.perf_counter() - started:,.0f} s"
    publish(facts, asdict(plan), [results], report(results, plan), options.json)


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


if __name__ == "__main__":
    main()
