"""REST benchmark: the round trip and the throughput of ``GET /customers/<id>`` and ``POST
/customers``, beside a trivial JSON route mounted in the same app and served by the same
uvicorn server, measured in the same run.

The server, a process of its own (``--serve``): the app ``arest serve`` builds
(``Web``, ``mount(web, web_transports())``, ``web_app``: the key check, ``/mcp``, ``/sse``
and the ``rest`` transport), with one more route, ``/trivial``, the baseline of every ratio:

* ``GET /trivial`` answers a constant two-field object as JSON (200): the budget's baseline;
* ``GET /trivial/thread`` answers the same after a hop through a worker thread
  (``anyio.to_thread``, as the REST transport runs every answer): what the hop costs;
* ``POST /trivial`` parses the JSON body and echoes it back (201): what a JSON API does at
  the least for a create, with nothing validated or stored: the budget's baseline;
* ``POST /trivial/durable`` does the same after an ``INSERT`` and ``COMMIT`` of the body in a
  SQLite file of its own (WAL, ``synchronous=FULL``, one connection, in a worker thread):
  the least a durable create costs on this disk, so a POST's ratio to it tells arest's work
  from the fsync's.

It serves a SQLite file tenant of ``readings/orders`` (the real deployment: an accepted
create is in the journal, on disk, before its answer) holding N Customers, built beforehand
through ``tenant.call`` in a fresh process, for each N of ``--sizes`` so growth shows.  No
keys: every request is an Agent with read,write, as ``arest serve`` on a loopback address.

Round trips, from this process over one keep-alive connection (``http.client``): after a
warm-up of every row, the timed calls are sequential and interleaved in blocks (each block
``--block`` calls of one row, the rows' order rotating from round to round), so the baseline
and arest see the same machine load.  ``GET /customers/<id>`` reads the Customer in the
middle of the N; each ``POST /customers`` creates a new Customer (a unique id, and a Name).
Every answer is checked: status, body, ``ETag`` on a read, ``Location`` on a create.

Throughput, with ``wrk`` in a process of its own (one wrk thread, keep-alive connections,
1, 8 and 32 concurrent clients, ``--seconds`` each): the six rows again; the POSTs come
from a Lua script whose ``request`` makes a new id on each call, and run after the GETs (they
grow the population).  Requests per second, latency p50 and p99 (wrk's histogram), and any
answer that was not 2xx, which fails the run.

Layers, in one more fresh process, on a copy of the database, no HTTP: ``tenant.call`` of
the read and of the create; ``arest.rest.answer.answer`` (the whole REST request but the
HTTP: route, plan, permission, ``Tenant.run``, response); and ``answer`` through
``anyio.to_thread``, as the transport calls it.

Budget: median round trip of ``GET /customers/<id>`` ≤ 1.5× ``GET /trivial``, and of ``POST
/customers`` ≤ 2× ``POST /trivial``, at every N.

Run ``python benchmarks/bench_rest.py`` (N = 1,000, 10,000 and 100,000; 400 timed calls per
row; 45 wrk runs of 5 s: about 13 minutes on 2 busy cores, the wrk runs and the build of
the largest tenant the most of it), ``--quick`` for a smoke run, ``--no-throughput`` to skip
wrk, ``--profile N`` for a cProfile of the server over N round trips of ``GET /trivial``,
``GET /customers/<id>`` and ``POST /customers`` (its event loop and its worker threads),
``--json PATH`` to keep the figures.  The throughput part needs ``wrk``
(``apt-get install wrk``); without it the benchmark says so and exits 2.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import http.client
import io
import json
import os
import pstats
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench_mcp import _ms, free_port, http_server, load_average
from harness import (
    Column,
    format_ratio,
    format_table,
    interpreter_facts,
    publish,
    run_isolated,
)

SCRIPT = Path(__file__).resolve()
REPO = SCRIPT.parent.parent
EXAMPLE = REPO / "readings" / "orders"

TRIVIAL_GET, REST_GET = "GET /trivial", "GET /customers/<id>"
TRIVIAL_POST, REST_POST = "POST /trivial", "POST /customers"
THREADED_GET, DURABLE_POST = "GET /trivial/thread", "POST /trivial/durable"
ROWS = (TRIVIAL_GET, THREADED_GET, REST_GET, TRIVIAL_POST, DURABLE_POST, REST_POST)
BASELINE_OF = {THREADED_GET: TRIVIAL_GET, REST_GET: TRIVIAL_GET, DURABLE_POST: TRIVIAL_POST,
               REST_POST: TRIVIAL_POST}
"""The row each row's ratio is against (a row without one is a baseline)."""
DURABLE_OF = {REST_POST: DURABLE_POST}
"""A second ratio, against the trivial route that also waits for the disk."""
BUDGET = {REST_GET: 1.5, REST_POST: 2.0}
PATHS = {TRIVIAL_GET: "/trivial", THREADED_GET: "/trivial/thread", TRIVIAL_POST: "/trivial",
         DURABLE_POST: "/trivial/durable", REST_POST: "/customers"}
TRIVIAL_ENTITY = {"id": "trivial", "Name": "Trivial"}
WRK_MISSING = ("bench_rest.py: the throughput part needs wrk, which is not on PATH: install it "
               "(apt-get install wrk) or run with --no-throughput")


@dataclass(frozen=True)
class Plan:
    """How much work the run does."""

    sizes: tuple[int, ...] = (1_000, 10_000, 100_000)
    calls: int = 400
    warmup: int = 40
    block: int = 20
    concurrency: tuple[int, ...] = (1, 8, 32)
    seconds: int = 5

    def quick(self) -> Plan:
        """One small N, few calls, short wrk runs: a smoke run."""
        return replace(self, sizes=(100,), calls=40, warmup=10, block=10, concurrency=(1, 8),
                       seconds=1)


class BadAnswer(RuntimeError):
    """An answer the benchmark meant to be a success was not."""


def _log(message: str) -> None:
    print(f"  [{message}]", file=sys.stderr, flush=True)


def customer(number: int, prefix: str = "c") -> dict[str, str]:
    """The input of a ``create:Customer``, and the body of a ``POST /customers``.

    >>> customer(7), customer(3, "rt")
    ({'id': 'c7@x', 'Name': 'C7'}, {'id': 'rt3@x', 'Name': 'C3'})
    """
    return {"id": f"{prefix}{number}@x", "Name": f"C{number}"}


def reader(size: int) -> str:
    """The Customer every read reads: the one in the middle of the ``size`` built.

    >>> reader(1_000)
    'c500@x'
    """
    return customer(size // 2)["id"]


def item_path(id: str) -> str:
    """The path of a Customer, its id percent-encoded as every REST href encodes it.

    >>> item_path("c500@x")
    '/customers/c500%40x'
    """
    return f"/customers/{quote(id, safe='')}"


# the server ----------------------------------------------------------------------------


def bench_app(tenant: Any, port: int, store: DurableEcho) -> Any:
    """The app ``arest serve`` builds over ``tenant`` at 127.0.0.1:``port``, with the
    trivial routes mounted first (the ``rest`` transport answers every path the others do
    not route, so a route after it would never be reached); the durable one keeps its
    bodies in ``store``."""
    import anyio.to_thread
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from arest.transports import web_transports
    from arest.transports.web import Access, Web, WebRoutes, mount, security_for, web_app

    async def trivial(request: Request) -> Response:
        if request.method == "POST":
            return JSONResponse(await request.json(), status_code=201)
        return JSONResponse(TRIVIAL_ENTITY)

    async def threaded(request: Request) -> Response:
        return JSONResponse(await anyio.to_thread.run_sync(dict, TRIVIAL_ENTITY))

    async def durable(request: Request) -> Response:
        body = await request.body()
        echoed = json.loads(body)
        await anyio.to_thread.run_sync(store.insert, echoed["id"], body)
        return JSONResponse(echoed, status_code=201)

    web = Web(tenant, Access(), security_for("127.0.0.1", port))
    mounted = mount(web, web_transports())
    baseline = WebRoutes([Route("/trivial", trivial, methods=["GET", "POST"]),
                          Route("/trivial/thread", threaded, methods=["GET"]),
                          Route("/trivial/durable", durable, methods=["POST"])])
    return web_app(web, [baseline, *mounted.values()])


class DurableEcho:
    """The durable trivial route's store: one row per body, committed before the answer."""

    def __init__(self, path: str) -> None:
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS echo (id TEXT PRIMARY KEY, body BLOB)")

    def insert(self, id: str, body: bytes) -> None:
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO echo VALUES (?, ?)", (id, body))
            self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()


class StageClock:
    """Wall time spent in chosen functions, by a label of each call, and a cProfile of every
    thread started while it profiles (cProfile follows one thread: the worker threads that
    run the REST answers get one each, the event loop's its own)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.profilers: list[cProfile.Profile] = []
        self.spent_ns: dict[str, list[int]] = {}

    def _start_profiler(self, frame: Any, event: str, arg: Any) -> None:
        profiler = cProfile.Profile()
        with self.lock:
            self.profilers.append(profiler)
        profiler.enable()  # replaces this hook for the rest of the thread's life

    @contextlib.contextmanager
    def profiling_threads(self) -> Iterator[None]:
        """Within: each new thread runs under a profiler of its own."""
        threading.setprofile(self._start_profiler)
        try:
            yield
        finally:
            threading.setprofile(None)  # type: ignore[arg-type]

    @contextlib.contextmanager
    def timing(self, owner: Any, name: str, label: Callable[..., str]) -> Iterator[None]:
        """Within: every call of ``owner.name`` is timed under ``label(*arguments)``."""
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter_ns()
            try:
                return original(*args, **kwargs)
            finally:
                spent = time.perf_counter_ns() - start
                with self.lock:
                    self.spent_ns.setdefault(label(*args), []).append(spent)

        setattr(owner, name, timed)
        try:
            yield
        finally:
            setattr(owner, name, original)

    def worker_stats(self) -> pstats.Stats | None:
        """The worker threads' profiles, merged."""
        if not self.profilers:
            return None
        merged = pstats.Stats(self.profilers[0])
        for profiler in self.profilers[1:]:
            merged.add(profiler)
        return merged


def serve(db: str, port: int, profile_out: str | None) -> None:
    """Serve ``bench_app`` over the tenant in ``db`` at 127.0.0.1:``port`` until SIGTERM;
    with ``profile_out``, profile it and write ``<profile_out>.loop``, ``.workers`` (cProfile
    stats) and ``.stages`` (JSON: ns spent in the transport's ``answer`` and in
    ``Tenant.run``, by method or verb) when it stops."""
    import uvicorn

    import arest.transports.rest
    from arest.runtime import Tenant

    def stop(number: int, frame: Any) -> None:
        raise KeyboardInterrupt(signal.Signals(number).name)

    # uvicorn shuts down on SIGTERM, then raises it again for the handler it found: this
    # one, so the tenant is closed and the profile written before the process ends
    signal.signal(signal.SIGTERM, stop)
    clock = StageClock()
    loop = cProfile.Profile()
    with contextlib.ExitStack() as stack:
        tenant = stack.enter_context(Tenant.open(EXAMPLE, db=db))
        store = stack.enter_context(contextlib.closing(DurableEcho(f"{db}.echo")))
        if profile_out is not None:
            stack.enter_context(clock.timing(
                Tenant, "run", lambda tenant, command, *rest: f"Tenant.run {command.verb}"))
            stack.enter_context(clock.timing(
                arest.transports.rest, "answer",
                lambda tenant, request: f"answer() {request.method}"))
            stack.enter_context(clock.profiling_threads())
            loop.enable()
        config = uvicorn.Config(bench_app(tenant, port, store), host="127.0.0.1", port=port,
                                log_level="warning")
        try:
            uvicorn.Server(config).run()
        except KeyboardInterrupt:
            pass
        finally:
            loop.disable()
    if profile_out is None:
        return
    loop.dump_stats(f"{profile_out}.loop")
    workers = clock.worker_stats()
    if workers is not None:
        workers.dump_stats(f"{profile_out}.workers")
    Path(f"{profile_out}.stages").write_text(json.dumps(clock.spent_ns))


def server_command(db: Path, port: int, profile_out: Path | None = None) -> list[str]:
    """The command line of the benchmark's server over ``db``."""
    command = [sys.executable, str(SCRIPT), "--serve", str(db), "--port", str(port)]
    return command + (["--profile-out", str(profile_out)] if profile_out else [])


@contextlib.contextmanager
def running_server(db: Path, folder: str, profile_out: Path | None = None
                   ) -> Iterator[int]:
    """The server over ``db`` until the block ends; its port.  Its output goes to a log in
    ``folder``, shown when it fails to start."""
    port = free_port()
    log_path = Path(folder) / f"server-{db.stem}.log"
    with log_path.open("a") as errlog:
        try:
            with http_server(server_command(db, port, profile_out), port, errlog):
                yield port
        except RuntimeError:
            errlog.flush()
            print(log_path.read_text()[-4000:], file=sys.stderr)
            raise


# databases and layers ------------------------------------------------------------------


def build(size: int, path: str) -> dict[str, Any]:
    """A SQLite tenant holding ``size`` Customers, each created through ``tenant.call``."""
    import arest

    _log(f"build: {size:,} Customers through tenant.call")
    start = time.perf_counter()
    with arest.Tenant.open(EXAMPLE, db=path) as tenant:
        for number in range(size):
            out = tenant.call("create:Customer", customer(number), "Agent")
            if out.get("rejected") is not False:
                raise BadAnswer(f"create {number}: {out}")
    return {"size": size, "build_s": time.perf_counter() - start,
            "bytes": Path(path).stat().st_size}


LAYERS = ("tenant.call", "answer()", "answer() in anyio.to_thread")
"""The steps under a REST round trip, each timed alone: the command; the REST answer (route
match, plan, permission check, ``Tenant.run``, response), pure; the same from the event
loop through a worker thread, as the transport calls it."""


async def _layers(tenant: Any, size: int, calls: int, warmup: int) -> dict[str, list[int]]:
    import anyio.to_thread

    from arest.rest.answer import Request, answer
    from arest.system.permissions import AGENT_PRINCIPAL

    clock = time.perf_counter_ns
    id = reader(size)
    numbers = iter(range(10**9))

    def posted(prefix: str) -> Request:
        body = json.dumps(customer(next(numbers), prefix)).encode()
        return Request("POST", "/customers", AGENT_PRINCIPAL, body=body,
                       content_type="application/json")

    def command(verb: str) -> dict[str, Any]:
        if verb == "read":
            return tenant.call("read:Customer", {"id": id}, "Agent")
        return tenant.call("create:Customer", customer(next(numbers), "l"), "Agent")

    get = Request("GET", item_path(id), AGENT_PRINCIPAL)
    steps: dict[str, Callable[[], Any]] = {}
    for verb in ("read", "create"):
        async def alone(verb: str = verb) -> Any:
            out = command(verb)
            return 200 if "error" not in out and out.get("rejected") is not True else out

        async def pure(verb: str = verb) -> Any:
            return answer(tenant, get if verb == "read" else posted("a")).status

        async def hopped(verb: str = verb) -> Any:
            request = get if verb == "read" else posted("h")
            return (await anyio.to_thread.run_sync(answer, tenant, request)).status

        steps |= {f"{LAYERS[0]} {verb}": alone, f"{LAYERS[1]} {verb}": pure,
                  f"{LAYERS[2]} {verb}": hopped}
    samples: dict[str, list[int]] = {}
    for label, step in steps.items():
        expected = 201 if label.endswith("create") and "answer" in label else 200
        samples[label] = []
        for number in range(warmup + calls):
            start = clock()
            status = await step()
            spent = clock() - start
            if status != expected:
                raise BadAnswer(f"{label}: {status}")
            if number >= warmup:
                samples[label].append(spent)
    return samples


def measure_layers(size: int, path: str, calls: int, warmup: int) -> dict[str, Any]:
    """The :data:`LAYERS` of the read and of the create, timed in this (fresh) process over
    a copy of the database at ``path``; each sample in ns."""
    import anyio

    import arest

    copy = Path(tempfile.mkdtemp(dir=Path(path).parent)) / Path(path).name
    shutil.copyfile(path, copy)
    _log(f"layers, N = {size:,}: in process, no HTTP")
    try:
        with arest.Tenant.open(EXAMPLE, db=copy) as tenant:
            return anyio.run(_layers, tenant, size, calls, warmup)
    finally:
        shutil.rmtree(copy.parent)


# round trips ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: status, headers (lower-case names) and body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Connection:
    """One keep-alive HTTP/1.1 connection to the server."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def send(self, method: str, path: str, body: dict[str, Any] | None = None) -> Answer:
        payload = None if body is None else json.dumps(body).encode()
        headers = {} if payload is None else {"Content-Type": "application/json"}
        self.connection.request(method, path, body=payload, headers=headers)
        response = self.connection.getresponse()
        content = response.read()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                      content)

    def close(self) -> None:
        self.connection.close()


@dataclass(frozen=True)
class Row:
    """One timed row: the request of each call and the check of its answer."""

    label: str
    request: Callable[[], tuple[str, str, dict[str, Any] | None]]
    check: Callable[[dict[str, Any] | None, Answer], None]


def _expect(answer: Answer, status: int, what: str) -> Any:
    if answer.status != status:
        raise BadAnswer(f"{what}: {answer.status} {answer.body[:500]!r}")
    return answer.json()


def check_trivial_get(sent: dict[str, Any] | None, answer: Answer) -> None:
    if _expect(answer, 200, TRIVIAL_GET) != TRIVIAL_ENTITY:
        raise BadAnswer(f"{TRIVIAL_GET}: {answer.body!r}")


def check_trivial_post(label: str) -> Callable[[dict[str, Any] | None, Answer], None]:
    def check(sent: dict[str, Any] | None, answer: Answer) -> None:
        if _expect(answer, 201, label) != sent:
            raise BadAnswer(f"{label}: {answer.body!r}")

    return check


def check_read(id: str) -> Callable[[dict[str, Any] | None, Answer], None]:
    def check(sent: dict[str, Any] | None, answer: Answer) -> None:
        found = _expect(answer, 200, REST_GET)
        if found.get("id") != id or "etag" not in answer.headers:
            raise BadAnswer(f"{REST_GET} {id}: {answer.headers} {answer.body[:500]!r}")

    return check


def check_create(sent: dict[str, Any] | None, answer: Answer) -> None:
    found = _expect(answer, 201, REST_POST)
    if found.get("rejected") is not False or "location" not in answer.headers:
        raise BadAnswer(f"{REST_POST} {sent}: {answer.headers} {answer.body[:500]!r}")


def posts(path: str, prefix: str) -> Callable[[], tuple[str, str, dict[str, Any]]]:
    """A new Customer's POST on each call.

    >>> make = posts("/customers", "rt")
    >>> make()[2]["id"], make()[2]["id"]
    ('rt0@x', 'rt1@x')
    """
    numbers = iter(range(10**9))
    return lambda: ("POST", path, customer(next(numbers), prefix))


def rows_for(size: int) -> list[Row]:
    """The rows over a tenant of ``size`` Customers."""
    id = reader(size)
    return [
        Row(TRIVIAL_GET, lambda: ("GET", "/trivial", None), check_trivial_get),
        Row(THREADED_GET, lambda: ("GET", "/trivial/thread", None), check_trivial_get),
        Row(REST_GET, lambda: ("GET", item_path(id), None), check_read(id)),
        Row(TRIVIAL_POST, posts("/trivial", "t"), check_trivial_post(TRIVIAL_POST)),
        Row(DURABLE_POST, posts("/trivial/durable", "d"), check_trivial_post(DURABLE_POST)),
        Row(REST_POST, posts("/customers", "rt"), check_create),
    ]


def time_rows(connection: Connection, rows: Sequence[Row], plan: Plan
              ) -> dict[str, dict[str, Any]]:
    """Warm up every row, then time ``plan.calls`` calls of each, interleaved in blocks."""
    clock = time.perf_counter_ns
    sizes: dict[str, int] = {}
    for row in rows:
        for _ in range(plan.warmup):
            method, path, body = row.request()
            answer = connection.send(method, path, body)
            row.check(body, answer)
            sizes[row.label] = len(answer.body)
    samples: dict[str, list[int]] = {row.label: [] for row in rows}
    rounds = -(-plan.calls // plan.block)
    for number in range(rounds):
        shift = number % len(rows)
        for row in [*rows[shift:], *rows[:shift]]:
            for _ in range(min(plan.block, plan.calls - len(samples[row.label]))):
                method, path, body = row.request()
                start = clock()
                answer = connection.send(method, path, body)
                samples[row.label].append(clock() - start)
                row.check(body, answer)
    return {label: {"samples_ns": found, "body_bytes": sizes.get(label, 0)}
            for label, found in samples.items()}


def population(connection: Connection) -> int:
    """How many Customers the tenant holds (``GET /customers?limit=1``'s ``total``)."""
    return int(_expect(connection.send("GET", "/customers?limit=1"), 200, "GET /customers")
               ["total"])


# throughput ----------------------------------------------------------------------------


WRK_SCRIPT = """\
-- bench_rest.py's wrk script; arguments: method, path, id prefix.  A GET sends the same
-- request each time; a POST creates a new Customer each time (a counter makes the id).
local method, path, prefix
local counter = 0
local fixed = nil

function init(args)
  method, path, prefix = args[1], args[2], args[3]
  if method == "GET" then fixed = wrk.format("GET", path) end
end

function request()
  if fixed then return fixed end
  counter = counter + 1
  local body = '{"id":"' .. prefix .. counter .. '@x","Name":"W' .. counter .. '"}'
  return wrk.format("POST", path, {["Content-Type"] = "application/json"}, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH-REST {"requests":%d,"duration_us":%d,"status_errors":%d,"connect_errors":%d,' ..
    '"read_errors":%d,"write_errors":%d,"timeouts":%d,"p50_us":%d,"p99_us":%d,' ..
    '"max_us":%d,"mean_us":%.1f}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max, latency.mean))
end
"""


def wrk_path() -> str:
    """Where ``wrk`` is; exits 2 with :data:`WRK_MISSING` when it is not on PATH."""
    found = shutil.which("wrk")
    if found is None:
        print(WRK_MISSING, file=sys.stderr)
        raise SystemExit(2)
    return found


def wrk_version(wrk: str) -> str:
    """The first line wrk prints about itself."""
    shown = subprocess.run([wrk, "--version"], capture_output=True, text=True)
    return (shown.stdout or shown.stderr).splitlines()[0].split(" Copyright")[0].strip()


def run_wrk(wrk: str, script: Path, port: int, clients: int, seconds: int, method: str,
            path: str, prefix: str) -> dict[str, Any]:
    """One wrk run: ``clients`` keep-alive connections on one wrk thread for ``seconds``;
    what its ``done`` reports.  A transport error or an answer not 2xx fails the run."""
    command = [wrk, "-t", "1", "-c", str(clients), "-d", f"{seconds}s", "--timeout", "30s",
               "-s", str(script), f"http://127.0.0.1:{port}{path}", "--", method, path,
               prefix]
    shown = subprocess.run(command, capture_output=True, text=True, check=True)
    line = next((text for text in shown.stdout.splitlines() if text.startswith("BENCH-REST ")),
                None)
    if line is None:
        raise BadAnswer(f"wrk printed no figures: {shown.stdout}{shown.stderr}")
    found: dict[str, Any] = json.loads(line.removeprefix("BENCH-REST "))
    failures = sum(found[key] for key in ("status_errors", "connect_errors", "read_errors",
                                          "write_errors", "timeouts"))
    if failures:
        raise BadAnswer(f"{method} {path} with {clients} clients: {found}")
    return found


def measure_throughput(wrk: str, port: int, size: int, plan: Plan, folder: str
                       ) -> list[dict[str, Any]]:
    """Each row under each concurrency; the GETs first, the POSTs (which grow the population)
    after; trivial and arest back to back."""
    script = Path(folder) / "bench_rest.lua"
    script.write_text(WRK_SCRIPT)
    paths = {**PATHS, REST_GET: item_path(reader(size))}
    found = []
    for group in ((TRIVIAL_GET, THREADED_GET, REST_GET),
                  (TRIVIAL_POST, DURABLE_POST, REST_POST)):
        for clients in plan.concurrency:
            for label in group:
                method = label.split()[0]
                _log(f"wrk, N = {size:,}: {label}, {clients} clients, {plan.seconds} s")
                # a prefix of its own for each run, so no two POSTs carry one id
                prefix = f"w{ROWS.index(label)}-{clients}-"
                figures = run_wrk(wrk, script, port, clients, plan.seconds, method,
                                  paths[label], prefix)
                found.append({"row": label, "clients": clients, **figures})
    return found


# one size ------------------------------------------------------------------------------


def measure_size(size: int, plan: Plan, folder: str, wrk: str | None) -> dict[str, Any]:
    """Build the tenant of ``size`` Customers, time its layers, then serve it and measure
    round trips (and throughput, with ``wrk``)."""
    db = Path(folder) / f"orders-{size}.db"
    built = run_isolated(SCRIPT, "build", {"size": size, "path": str(db)})
    layers = run_isolated(SCRIPT, "measure_layers", {"size": size, "path": str(db),
                                                     "calls": plan.calls,
                                                     "warmup": plan.warmup})
    found: dict[str, Any] = {"size": size, "build": built, "layers": layers}
    with running_server(db, folder) as port:
        _log(f"round trips, N = {size:,}")
        with contextlib.closing(Connection(port)) as connection:
            found["round_trips"] = time_rows(connection, rows_for(size), plan)
        if wrk is not None:
            found["throughput"] = measure_throughput(wrk, port, size, plan, folder)
        # a new connection: the server closes one left idle through the wrk runs
        with contextlib.closing(Connection(port)) as connection:
            found["population_after"] = population(connection)
    created = plan.warmup + plan.calls + sum(
        run["requests"] for run in found.get("throughput", []) if run["row"] == REST_POST)
    if found["population_after"] < size + created:
        raise BadAnswer(f"N = {size:,}: {found['population_after']:,} Customers after "
                        f"{created:,} acknowledged creates")
    return found


# profile -------------------------------------------------------------------------------


PROFILED = (TRIVIAL_GET, REST_GET, REST_POST)


def profile(calls: int, size: int, folder: str) -> str:
    """cProfile of ``calls`` round trips of each :data:`PROFILED` row, each in a server
    process of its own over ``size`` Customers: its event loop's thread and its worker
    threads, and the wall time the transport's ``answer`` and ``Tenant.run`` took."""
    db = Path(folder) / f"orders-{size}.db"
    run_isolated(SCRIPT, "build", {"size": size, "path": str(db)})
    report = io.StringIO()
    for row in [row for row in rows_for(size) if row.label in PROFILED]:
        out = Path(folder) / f"server-{PROFILED.index(row.label)}"
        with running_server(db, folder, profile_out=out) as port, \
                contextlib.closing(Connection(port)) as connection:
            start = time.perf_counter_ns()
            for _ in range(calls):
                method, path, body = row.request()
                row.check(body, connection.send(method, path, body))
            per_call = (time.perf_counter_ns() - start) / calls / 1e6
        print(f"\n## {row.label}, N = {size:,}: {calls:,} round trips, {per_call:.3f} ms each "
              "under the profiler", file=report)
        for stage, spent in json.loads(Path(f"{out}.stages").read_text()).items():
            print(f"- {stage}: {statistics.median(spent) / 1e6:.3f} ms median, "
                  f"{len(spent):,} calls", file=report)
        for part in ("loop", "workers"):
            path = Path(f"{out}.{part}")
            if not path.exists():
                continue
            stats = pstats.Stats(str(path), stream=report).strip_dirs()
            for order in ("tottime", "cumulative"):
                print(f"\n### {part}, by {order}", file=report)
                stats.sort_stats(order).print_stats(20)
    return report.getvalue()


# reporting -----------------------------------------------------------------------------


def ratios(found: dict[str, Any], against: dict[str, str] = BASELINE_OF) -> dict[str, float]:
    """Median round trip of each budgeted row ÷ the median of its row in ``against``, at
    one N."""
    trips = found["round_trips"]
    return {label: _ms(trips[label]["samples_ns"])["median"]
            / _ms(trips[against[label]]["samples_ns"])["median"]
            for label in BUDGET if label in against}


def holds(results: dict[str, Any]) -> bool:
    """Whether every budget holds at every N."""
    return all(ratio <= BUDGET[label] for found in results["sizes"]
               for label, ratio in ratios(found).items())


def _round_trip_table(found: dict[str, Any]) -> str:
    rows: dict[str, dict[str, float | str | None]] = {}
    trips = found["round_trips"]
    for label in ROWS:
        figures = _ms(trips[label]["samples_ns"])
        base = _ms(trips[BASELINE_OF.get(label, label)]["samples_ns"])
        durable = (_ms(trips[DURABLE_OF[label]]["samples_ns"]) if label in DURABLE_OF
                   else None)
        rows[label] = {**figures,
                       "median ×": format_ratio(figures["median"] / base["median"]),
                       "p90 ×": format_ratio(figures["p90"] / base["p90"]),
                       "durable ×": None if durable is None else
                       format_ratio(figures["median"] / durable["median"]),
                       "bytes": trips[label]["body_bytes"]}
    return format_table(rows, [
        Column("median", "median ms", "{:,.3f}", ratio=False),
        Column("median ×", "× trivial", ratio=False),
        Column("p90", "p90 ms", "{:,.3f}", ratio=False),
        Column("p90 ×", "p90 × trivial", ratio=False),
        Column("durable ×", "median × durable", ratio=False),
        Column("bytes", "body bytes", "{:,}", ratio=False),
    ], TRIVIAL_GET)


def _throughput_table(found: dict[str, Any]) -> str:
    runs = {(run["row"], run["clients"]): run for run in found["throughput"]}
    rows: dict[str, dict[str, float | str | None]] = {}
    for (label, clients), run in runs.items():
        rate = run["requests"] / (run["duration_us"] / 1e6)
        base = runs[(BASELINE_OF.get(label, label), clients)]
        base_rate = base["requests"] / (base["duration_us"] / 1e6)
        durable = runs.get((DURABLE_OF.get(label, ""), clients))
        rows[f"{label}, {clients} client{'' if clients == 1 else 's'}"] = {
            "rate": rate, "rate ×": format_ratio(rate / base_rate),
            "durable ×": None if durable is None else format_ratio(
                rate / (durable["requests"] / (durable["duration_us"] / 1e6))),
            "p50": run["p50_us"] / 1e3, "p50 ×": format_ratio(run["p50_us"] / base["p50_us"]),
            "p99": run["p99_us"] / 1e3, "p99 ×": format_ratio(run["p99_us"] / base["p99_us"]),
            "requests": run["requests"]}
    return format_table(rows, [
        Column("rate", "requests/s", "{:,.0f}", ratio=False),
        Column("rate ×", "× trivial", ratio=False),
        Column("durable ×", "× durable", ratio=False),
        Column("p50", "p50 ms", "{:,.2f}", ratio=False),
        Column("p50 ×", "× trivial", ratio=False),
        Column("p99", "p99 ms", "{:,.2f}", ratio=False),
        Column("p99 ×", "× trivial", ratio=False),
        Column("requests", "requests", "{:,}", ratio=False),
    ], TRIVIAL_GET)


def report(results: dict[str, Any], plan: Plan) -> str:
    """The Markdown tables: round trips per N, the budget, growth, layers, throughput."""
    out: list[str] = []
    sizes = results["sizes"]
    for found in sizes:
        out.append(f"**Round trips, N = {found['size']:,}** Customers, {plan.calls:,} calls "
                   f"per row after {plan.warmup:,} warm-up, one keep-alive connection; "
                   "× trivial: `GET` against `GET /trivial`, `POST` against `POST /trivial`; "
                   "× durable: against `POST /trivial/durable`\n")
        out.append(_round_trip_table(found) + "\n")
    budget_rows: dict[str, dict[str, float | str | None]] = {}
    for found in sizes:
        durable = ratios(found, DURABLE_OF)
        for label, ratio in ratios(found).items():
            budget_rows[f"{label}, N = {found['size']:,}"] = {
                "ratio": format_ratio(ratio), "budget": f"{BUDGET[label]}×",
                "durable": format_ratio(durable[label]) if label in durable else None,
                "holds": "yes" if ratio <= BUDGET[label] else
                f"**no** ({ratio / BUDGET[label] - 1:+.0%} over)"}
    out.append("**Budget**: median round trip against the trivial route's\n")
    out.append(format_table(budget_rows, [
        Column("ratio", "× trivial", ratio=False), Column("budget", "budget", ratio=False),
        Column("holds", "holds", ratio=False),
        Column("durable", "× durable (no budget)", ratio=False)], "", label="route, N")
        + "\n")
    first = sizes[0]["size"]
    growth: dict[str, dict[str, float | str | None]] = {}
    for label in ROWS:
        medians = [_ms(found["round_trips"][label]["samples_ns"])["median"]
                   for found in sizes]
        growth[label] = {f"{found['size']}": median
                         for found, median in zip(sizes, medians, strict=True)}
        growth[label]["×"] = format_ratio(medians[-1] / medians[0])
    columns = [Column(f"{found['size']}", f"N = {found['size']:,} ms", "{:,.3f}",
                      ratio=False) for found in sizes]
    columns.append(Column("×", f"× N = {first:,}", ratio=False))
    out.append("**Growth**: median round trip by N\n")
    out.append(format_table(growth, columns, TRIVIAL_GET) + "\n")
    layers: dict[str, dict[str, float | str | None]] = {}
    for found in sizes:
        trips = found["round_trips"]
        for verb, label in (("read", REST_GET), ("create", REST_POST)):
            steps = {step: _ms(found["layers"][f"{step} {verb}"])["median"]
                     for step in LAYERS}
            whole = _ms(trips[label]["samples_ns"])["median"]
            trivial = _ms(trips[BASELINE_OF[label]]["samples_ns"])["median"]
            layers[f"{verb}, N = {found['size']:,}"] = {
                **steps, "whole": whole, "trivial": trivial,
                "left": whole - trivial - steps[LAYERS[-1]]}
    out.append("**Layers**: median ms of each step alone, in a fresh process over a copy of "
               "the database, no HTTP (`answer()` is `arest.rest.answer.answer`, the whole "
               "REST request but the HTTP, run by the transport in a worker thread); the "
               "round trips; and what is left for the transport's HTTP handling beyond the "
               "trivial route's (round trip − trivial − answer in a thread)\n")
    out.append(format_table(layers, [
        *(Column(step, f"{step} ms", "{:,.3f}", ratio=False) for step in LAYERS),
        Column("whole", "round trip ms", "{:,.3f}", ratio=False),
        Column("trivial", "trivial ms", "{:,.3f}", ratio=False),
        Column("left", "left ms", "{:+,.3f}", ratio=False)], "", label="command, N")
        + "\n")
    for found in sizes:
        if "throughput" not in found:
            continue
        out.append(f"**Throughput, N = {found['size']:,}** Customers (wrk, one thread, "
                   f"{plan.seconds} s per run; × trivial as above; the POSTs ran last and "
                   f"left {found['population_after']:,} Customers)\n")
        out.append(_throughput_table(found) + "\n")
    out.append(f"Verdict: GET ≤ {BUDGET[REST_GET]}× and POST ≤ {BUDGET[REST_POST]}× the "
               f"trivial route at every N: {'holds' if holds(results) else 'does NOT hold'}.")
    return "\n".join(out)


def machine_facts(plan: Plan, folder: str, wrk: str | None) -> dict[str, str]:
    """Interpreter, cores, load, server stack and the run's counts."""
    from importlib.metadata import version
    from importlib.util import find_spec

    # what uvicorn's "auto" choices pick, as for arest serve
    loop = "uvloop" if find_spec("uvloop") else "asyncio"
    parser = "httptools" if find_spec("httptools") else "h11"
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    return {
        **interpreter_facts(),
        "server": f"uvicorn {version('uvicorn')} ({loop}, {parser}), starlette "
                  f"{version('starlette')}, one process",
        "client": "http.client, one keep-alive connection; "
                  + (wrk_version(wrk) if wrk else "no wrk run"),
        "sizes": ", ".join(f"{size:,}" for size in plan.sizes),
        "calls": f"{plan.calls:,} timed per row after {plan.warmup:,} warm-up, interleaved in "
                 f"blocks of {plan.block:,}",
        "databases": folder,
        "uptime before": uptime or "?",
        "load average before": load_average(),
    }


def run(plan: Plan, folder: str, wrk: str | None) -> dict[str, Any]:
    """Every size in turn, each with its own database and server."""
    return {"sizes": [measure_size(size, plan, folder, wrk) for size in plan.sizes]}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, measure, print the tables and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="N = 100, 40 calls per row, 1 s wrk runs: a smoke run")
    parser.add_argument("--sizes", default=None, help="comma-separated numbers of Customers")
    parser.add_argument("--calls", type=int, default=None, help="timed calls per row")
    parser.add_argument("--seconds", type=int, default=None, help="seconds per wrk run")
    parser.add_argument("--no-throughput", action="store_true", help="skip the wrk runs")
    parser.add_argument("--dir", default=None, help="folder for the databases (default: temp)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--from-json", type=Path, default=None,
                        help="print the tables of a saved run")
    parser.add_argument("--profile", type=int, default=None, metavar="CALLS",
                        help="print a cProfile of the server over CALLS round trips of "
                             "GET /trivial, GET /customers/<id> and POST /customers, at the "
                             "largest N")
    parser.add_argument("--serve", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--profile-out", default=None, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.serve is not None:
        serve(options.serve, options.port, options.profile_out)
        return
    if options.from_json is not None:
        saved = json.loads(options.from_json.read_text())
        print("\n".join(f"- {key}: {value}" for key, value in saved["machine"].items()))
        print()
        print(report(saved["results"][0], Plan(**saved["plan"])))
        return
    plan = Plan().quick() if options.quick else Plan()
    if options.sizes is not None:
        plan = replace(plan, sizes=tuple(int(size) for size in options.sizes.split(",")))
    if options.calls is not None:
        plan = replace(plan, calls=options.calls)
    if options.seconds is not None:
        plan = replace(plan, seconds=options.seconds)
    wrk = None if options.no_throughput or options.profile is not None else wrk_path()
    with tempfile.TemporaryDirectory(prefix="bench-rest-", dir=options.dir) as folder:
        if options.profile is not None:
            print(profile(options.profile, max(plan.sizes), folder))
            return
        facts = machine_facts(plan, folder, wrk)
        print("\n".join(f"- {key}: {value}" for key, value in facts.items()), file=sys.stderr)
        with contextlib.suppress(OSError):
            if os.getloadavg()[0] > (os.cpu_count() or 1) / 2:
                _log("warning: the machine is busy (1-minute load above half the cores); "
                     "the ratios hold up better than the absolute figures")
        started = time.perf_counter()
        results = run(plan, folder, wrk)
        facts["load average after"] = load_average()
        facts["wall time"] = f"{time.perf_counter() - started:,.0f} s"
    publish(facts, asdict(plan), [results], report(results, plan), options.json)


if __name__ == "__main__":
    main()
