"""MCP load test: many concurrent MCP clients calling arest's ``create`` over streamable HTTP,
beside the SDK's echo server under the same clients in the same run.

Servers, each a process of its own, up for the whole run:

* ``SDK echo``: the baseline of every ratio, ``bench_mcp.py``'s (the SDK's low-level
  ``Server`` with one ``echo`` tool, its arguments checked by a precompiled validator),
  served over streamable HTTP at ``/mcp`` the way arest serves it (a Starlette route over a
  stateful ``StreamableHTTPSessionManager``, on uvicorn, 127.0.0.1).
* ``arest create, SQLite file``: ``python -m arest serve readings/orders --db <file>``: each
  accepted create is in the journal, on disk, before its answer.

Clients: ``--clients`` (8 and 32) MCP sessions, each the SDK's own client over streamable
HTTP (``ClientSession`` + ``initialize``, protocol 2025-11-25, what third-party clients speak;
``--era modern`` for ``Client(mode="auto")``), spread over ``--processes`` client processes
(each an event loop of its own, so the clients' side is not one loop's CPU).  Each session
calls in a closed loop, one call at a time: ``echo {"text": "hello"}``, or ``create`` of a new
Customer (``{"noun": "Customer", "id": <new>, "fields": {"Name": ...}}``).  After
``--warmup`` calls per session the processes start together and call for ``--seconds``;
acks/s counts the calls answered within that window, and the latency (median, p99 by nearest
rank) is each such call's round trip as its client sees it.  The rows alternate (echo, arest,
arest, echo, ... from one load to the next), so both see the same machine.

Every answer is checked (no ``isError``; the echo comes back; the create is not rejected),
and at the end the number of Customers in arest's database (``GET /customers?limit=1``'s
``total``) must equal the creates acknowledged, warm-up and tail included.

CPU: each server's and client process's user + system CPU time over the window
(``/proc/<pid>/stat``), per ack: a server near one core's second per second is bound by its
own CPU (one interpreter, one GIL).  ``--profile`` runs the arest server under cProfile
(the event loop's thread) with ``Tenant.run`` timed in its worker threads, at the largest
load, and prints where the time goes.

Run ``python benchmarks/bench_mcp_load.py`` (8 and 32 clients, 10 s each, about 2 minutes on
2 cores), ``--quick`` for a smoke run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from bench_mcp import (
    LEGACY,
    MODERN,
    BadResult,
    check_create,
    check_echo,
    free_port,
    http_process,
    load_average,
    open_session,
    server_command,
)
from harness import Column, format_table, interpreter_facts, percentile, publish

SCRIPT = Path(__file__).resolve()
REPO = SCRIPT.parent.parent
BASELINE = "SDK echo"
AREST = "arest create, SQLite file"
AREST_BEFORE = "arest create, SQLite file, before"
ROWS = (BASELINE, AREST)
TOOLS = {BASELINE: "echo", AREST: "create", AREST_BEFORE: "create"}
BEFORE = {8: 195.0, 32: 216.0}
"""acks/s of arest's create at 8 and 32 clients when the budget was set (the issue's)."""
TARGET = 3.0
_PROFILED_SERVE = """\
import cProfile, sys, threading, time
out = sys.argv[1]
import arest.runtime.tenant as tenant_module, arest.cli, uvicorn
profiler = cProfile.Profile()
spent = [0, 0]
lock = threading.Lock()
run = tenant_module.Tenant.run
def timed(self, *args, **kwargs):
    start = time.perf_counter_ns()
    try:
        return run(self, *args, **kwargs)
    finally:
        with lock:
            spent[0] += time.perf_counter_ns() - start
            spent[1] += 1
tenant_module.Tenant.run = timed
serve = uvicorn.Server.run
def profiled(self, *args, **kwargs):
    profiler.enable()
    try:
        return serve(self, *args, **kwargs)
    finally:
        profiler.disable()
        profiler.dump_stats(out)
        with open(out + ".run", "w") as note:
            note.write(f"{spent[0]} {spent[1]}")
uvicorn.Server.run = profiled
sys.argv = ["arest", *sys.argv[2:]]
arest.cli.main()
"""


@dataclass(frozen=True)
class Plan:
    """The loads and how long each runs."""

    clients: tuple[int, ...] = (8, 32)
    seconds: float = 10.0
    warmup: int = 5
    processes: int = 2
    rounds: int = 1
    era: str = LEGACY

    def quick(self) -> Plan:
        """Tiny loads: a smoke run."""
        return replace(self, clients=(2, 4), seconds=1.5, warmup=2)


def _log(message: str) -> None:
    print(f"  [{message}]", file=sys.stderr, flush=True)


# one client process --------------------------------------------------------------------


async def _client_process(url: str, tool: str, sessions: int, prefix: str, seconds: float,
                          warmup: int, era: str) -> dict[str, Any]:
    """Open ``sessions`` sessions, warm each up, say ``ready`` and wait for ``go`` on stdin;
    then call in a closed loop on each session for ``seconds``.  Each call's start and end
    (ns from go) and whether it was acknowledged."""
    clock = time.perf_counter_ns
    errlog = open(os.devnull, "w")  # noqa: SIM115 - open for the whole process
    numbers = iter(range(10**9))

    def arguments() -> dict[str, Any]:
        if tool == "echo":
            return {"text": "hello"}
        number = next(numbers)
        return {"noun": "Customer", "id": f"{prefix}{number}@x",
                "fields": {"Name": f"Customer {number}"}}

    check = check_echo if tool == "echo" else check_create
    acks = 0

    async def call(session: Any) -> None:
        nonlocal acks
        given = arguments()
        check(given, await session.call_tool(tool, given))
        acks += 1

    async with contextlib.AsyncExitStack() as stack:
        opened = [await open_session(stack, era, None, url, errlog) for _ in range(sessions)]
        for session in opened:
            for _ in range(warmup):
                await call(session)
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.readline)
        start = clock()
        end = start + int(seconds * 1e9)
        timings: list[tuple[int, int]] = []
        cpu = time.process_time()

        async def loop_calls(session: Any) -> None:
            while clock() < end:
                began = clock()
                await call(session)
                timings.append((began - start, clock() - start))

        async def window_cpu() -> float:
            await asyncio.sleep(seconds)
            return time.process_time() - cpu

        *_, cpu = await asyncio.gather(*(loop_calls(session) for session in opened),
                                       window_cpu())
    return {"timings": timings, "acks": acks, "cpu_s": cpu}


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# one load ------------------------------------------------------------------------------


def _shares(clients: int, processes: int) -> list[int]:
    """``clients`` sessions spread over at most ``processes`` processes.

    >>> _shares(8, 3), _shares(2, 4)
    ([3, 3, 2], [1, 1])
    """
    count = min(clients, processes)
    return [clients // count + (1 if index < clients % count else 0) for index in range(count)]


def load(url: str, server_pid: int, tool: str, clients: int, plan: Plan, prefix: str
         ) -> dict[str, Any]:
    """``clients`` sessions calling ``tool`` for ``plan.seconds`` from ``plan.processes``
    client processes: every call's timing, the acks, and each process's CPU time."""
    children = []
    for index, sessions in enumerate(_shares(clients, plan.processes)):
        command = [sys.executable, str(SCRIPT), "--client", url, "--tool", tool,
                   "--sessions", str(sessions), "--prefix", f"{prefix}p{index}s",
                   "--seconds", str(plan.seconds), "--warmup", str(plan.warmup),
                   "--era", "legacy" if plan.era == LEGACY else "modern"]
        children.append(subprocess.Popen(command, cwd=REPO, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True))
    try:
        for child in children:
            assert child.stdout is not None
            if child.stdout.readline().strip() != "ready":
                raise BadResult(f"a client process of {tool} did not start")
        server_cpu = _cpu_seconds(server_pid)
        started = time.perf_counter()
        for child in children:
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        time.sleep(plan.seconds)
        server_cpu = _cpu_seconds(server_pid) - server_cpu
        wall = time.perf_counter() - started
        reports = []
        for child in children:
            out, _ = child.communicate(timeout=plan.seconds + 120)
            if child.returncode != 0:
                raise BadResult(f"a client process of {tool} failed ({child.returncode})")
            reports.append(json.loads(out.splitlines()[-1]))
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    window = int(plan.seconds * 1e9)
    latencies = sorted(end - began for report in reports for began, end in report["timings"]
                       if end <= window)
    return {"clients": clients, "acks_in_window": len(latencies),
            "acks": sum(report["acks"] for report in reports),
            "latencies_ns": latencies, "server_cpu_s": server_cpu,
            "client_cpu_s": sum(report["cpu_s"] for report in reports), "wall_s": wall}


def customers(url: str) -> int:
    """How many Customers arest's tenant holds (``GET /customers?limit=1``'s ``total``)."""
    base = url.rsplit("/mcp", 1)[0]
    with urllib.request.urlopen(f"{base}/customers?limit=1", timeout=30) as answer:
        return int(json.loads(answer.read())["total"])


@contextlib.contextmanager
def serving(command: list[str], port: int, errlog: Any, tree: Path = REPO
            ) -> Iterator[tuple[str, int]]:
    """Run an HTTP server from the source ``tree`` until the block ends: its URL and its
    process's pid, once it accepts connections."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with http_process(command, port, errlog, tree, env) as process:
        yield f"http://127.0.0.1:{port}/mcp", process.pid


def rows(before: Path | None) -> tuple[str, ...]:
    """The rows of a run: with a ``before`` tree, its arest too."""
    return ROWS if before is None else (*ROWS, AREST_BEFORE)


def run(plan: Plan, folder: str, profile_to: Path | None = None, before: Path | None = None
        ) -> dict[str, Any]:
    """Every load of the plan against every server, alternating, then the count check."""
    errlog = (Path(folder) / "servers.log").open("w")
    runs: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack, errlog:
        servers = {}
        for row in rows(before):
            port = free_port()
            db = str(Path(folder) / f"orders-{len(servers)}.db")
            if row == BASELINE:
                command = server_command("baseline", "http", None, port)
            elif profile_to is None or row == AREST_BEFORE:
                command = server_command("arest", "http", db, port)
            else:
                command = [sys.executable, "-c", _PROFILED_SERVE, str(profile_to), "serve",
                           str(REPO / "readings" / "orders"), "--db", db, "--port",
                           str(port)]
            tree = before if row == AREST_BEFORE and before is not None else REPO
            servers[row] = stack.enter_context(serving(command, port, errlog, tree))
        turn = 0
        for number in range(plan.rounds):
            for clients in plan.clients:
                order = rows(before) if turn % 2 == 0 else rows(before)[::-1]
                turn += 1
                for row in order:
                    url, pid = servers[row]
                    _log(f"round {number + 1}: {row}, {clients} clients")
                    found = load(url, pid, TOOLS[row], clients, plan,
                                 f"r{number}c{clients}")
                    runs.append({"row": row, "round": number, **found})
        stored = {row: customers(servers[row][0]) for row in servers if row != BASELINE}
    acked = {row: sum(found["acks"] for found in runs if found["row"] == row)
             for row in stored}
    if stored != acked:
        raise BadResult(f"Customers in the databases {stored}, creates acknowledged {acked}")
    return {"runs": runs, "customers": sum(stored.values()), "acked": sum(acked.values())}


# reporting -----------------------------------------------------------------------------


def summary(found: dict[str, Any], seconds: float) -> dict[str, float]:
    """acks/s, median and p99 ms, and CPU ms per ack of the server and of the clients."""
    latencies = found["latencies_ns"]
    acks = max(1, found["acks_in_window"])
    return {"rate": found["acks_in_window"] / seconds,
            "median": statistics.median(latencies) / 1e6 if latencies else float("nan"),
            "p99": percentile(latencies, 0.99) / 1e6 if latencies else float("nan"),
            "server_cpu": found["server_cpu_s"] * 1e3 / acks,
            "server_load": found["server_cpu_s"] / found["wall_s"],
            "client_cpu": found["client_cpu_s"] * 1e3 / acks}


def report(results: dict[str, Any], plan: Plan) -> str:
    """One table per load (the best round's rows, by acks/s), and the budget's verdict."""
    out: list[str] = []
    best: dict[tuple[str, int], dict[str, float]] = {}
    for found in results["runs"]:
        figures = summary(found, plan.seconds)
        key = (found["row"], found["clients"])
        if key not in best or figures["rate"] > best[key]["rate"]:
            best[key] = figures
    columns = [Column("rate", "acks/s", "{:,.0f}"), Column("median", "median ms", "{:,.1f}"),
               Column("p99", "p99 ms", "{:,.1f}"),
               Column("server_cpu", "server CPU ms/ack", "{:,.2f}", ratio=False),
               Column("server_load", "server CPU s/s", "{:,.2f}", ratio=False),
               Column("client_cpu", "clients' CPU ms/ack", "{:,.2f}", ratio=False)]
    rounds = f", best of {plan.rounds} rounds" if plan.rounds > 1 else ""
    for clients in plan.clients:
        shown = [row for row in (*ROWS, AREST_BEFORE) if (row, clients) in best]
        table: dict[str, dict[str, float | str | None]] = {
            row: dict(best[(row, clients)]) for row in shown}
        out.append(f"**{clients} clients** ({plan.era}, {plan.processes} client processes, "
                   f"{plan.seconds:g} s{rounds})\n")
        out.append(format_table(table, columns, BASELINE) + "\n")
    verdict_rows: dict[str, dict[str, float | str | None]] = {}
    for clients in plan.clients:
        rate = best[(AREST, clients)]["rate"]
        before = BEFORE.get(clients)
        verdict_rows[f"{clients} clients"] = {
            "rate": rate, "before": before,
            "gain": f"{rate / before:.2f}×" if before else "—",
            "holds": ("—" if before is None else
                      "yes" if rate >= TARGET * before else "**no**"),
            "echo": f"{rate / best[(BASELINE, clients)]['rate']:.2f}×"}
    out.append(f"**Budget**: arest's acks/s ≥ {TARGET:g}× the issue's (195 at 8 clients, "
               "216 at 32)\n")
    out.append(format_table(verdict_rows, [
        Column("rate", "arest acks/s", "{:,.0f}", ratio=False),
        Column("before", "issue's acks/s", "{:,.0f}", ratio=False),
        Column("gain", "× issue's", ratio=False),
        Column("holds", f"≥ {TARGET:g}×", ratio=False),
        Column("echo", "× SDK echo", ratio=False)], "", label="load") + "\n")
    out.append(f"Every answer checked; {results['customers']:,} Customers in the database, "
               f"{results['acked']:,} creates acknowledged.")
    return "\n".join(out)


def profile_report(path: Path, results: dict[str, Any], plan: Plan) -> str:
    """The arest server's cProfile (event loop thread) and the worker threads' Tenant.run."""
    spent_ns, calls = (int(x) for x in Path(f"{path}.run").read_text().split())
    acked = sum(found["acks"] for found in results["runs"] if found["row"] == AREST)
    text = io.StringIO()
    print(f"Tenant.run: {calls:,} calls, {spent_ns / max(1, calls) / 1e3:,.0f} µs wall each "
          f"in its worker thread ({acked:,} creates acknowledged)", file=text)
    stats = pstats.Stats(str(path), stream=text).strip_dirs()
    for order in ("tottime", "cumulative"):
        print(f"\n### event loop thread, by {order}", file=text)
        stats.sort_stats(order).print_stats(25)
    return text.getvalue()


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options; run a client process, or the whole load test, and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 and 4 clients, 1.5 s: smoke")
    parser.add_argument("--clients", default=None, help="loads, comma-separated (8,32)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds of each load")
    parser.add_argument("--warmup", type=int, default=None, help="warm-up calls per session")
    parser.add_argument("--processes", type=int, default=None,
                        help="client processes the sessions are spread over (2)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="times every load runs; the best round is reported (1)")
    parser.add_argument("--era", choices=("legacy", "modern"), default="legacy",
                        help=f"legacy: {LEGACY}, ClientSession; modern: {MODERN}, Client")
    parser.add_argument("--dir", default=None, help="folder for the database (default: temp)")
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    parser.add_argument("--from-json", type=Path, default=None,
                        help="print the tables of a saved run")
    parser.add_argument("--before", type=Path, default=None, metavar="TREE",
                        help="also load an arest served from this source tree (a checkout)")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile the arest server over the run and print it")
    parser.add_argument("--client", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tool", default="echo", help=argparse.SUPPRESS)
    parser.add_argument("--sessions", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--prefix", default="c", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    era = LEGACY if options.era == "legacy" else MODERN
    if options.client is not None:
        found = asyncio.run(_client_process(
            options.client, options.tool, options.sessions, options.prefix,
            options.seconds or 0.0, options.warmup or 0, era))
        print(json.dumps(found), flush=True)
        return
    if options.from_json is not None:
        saved = json.loads(options.from_json.read_text())
        print("\n".join(f"- {key}: {value}" for key, value in saved["machine"].items()))
        print()
        saved_plan = saved["plan"]
        print(report(saved["results"][0], Plan(**{**saved_plan,
                                                  "clients": tuple(saved_plan["clients"])})))
        return
    plan = Plan().quick() if options.quick else Plan()
    plan = replace(plan, era=era)
    if options.clients is not None:
        plan = replace(plan, clients=tuple(int(c) for c in options.clients.split(",")))
    for name in ("seconds", "warmup", "processes", "rounds"):
        if getattr(options, name) is not None:
            plan = replace(plan, **{name: getattr(options, name)})
    import mcp  # noqa: F401 - installed, or the run stops here

    with tempfile.TemporaryDirectory(prefix="bench-mcp-load-", dir=options.dir) as folder:
        facts = {**interpreter_facts(), "mcp": _version("mcp"),
                 "load average before": load_average()}
        print("\n".join(f"- {key}: {value}" for key, value in facts.items()), file=sys.stderr)
        profile_to = Path(folder) / "arest.prof" if options.profile else None
        started = time.perf_counter()
        results = run(plan, folder, profile_to, options.before)
        facts["load average after"] = load_average()
        facts["wall time"] = f"{time.perf_counter() - started:,.0f} s"
        profiled = ""
        if profile_to is not None:
            for _ in range(100):
                if Path(f"{profile_to}.run").exists():
                    break
                time.sleep(0.1)
            profiled = "\n" + profile_report(profile_to, results, plan)
    publish(facts, {**asdict(plan), "clients": list(plan.clients)}, [results],
            report(results, plan) + profiled, options.json)


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


if __name__ == "__main__":
    main()
