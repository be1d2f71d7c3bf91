"""Scale benchmark: durable creates per second through several servers on one tenant.

The same load, in the same run, against each candidate: ``--writers`` client threads (8 by
default) in this process, each sending ``POST`` requests one at a time, ``--creates`` of
them in all, each answered ``201`` once the create is durable:

* ``raw psycopg``: the floor of PostgreSQL's cost. Each thread its own psycopg connection in
  autocommit, one ``INSERT`` into ``customer(email PRIMARY KEY, name NOT NULL)`` (or
  ``product``) per row: a commit per row, with no HTTP, no arest, no journal.
* ``SQLite, 1 process``: one ``arest serve readings/orders --db <file>`` (the baseline of
  every ratio): a tenant in SQLite is served by one process.
* ``PostgreSQL, N processes`` (N = 1, 2, 4): N ``arest serve`` processes on one tenant of the
  database, the writers spread over them in turn; each create commits its journal entry and
  its mirror's step into the Rmap tables in one transaction.

Two workloads: ``disjoint cells`` (half the writers create Customers, half Products: no cell
in common, so a conflict on the journal's sequence number merges without running SYSTEM
again) and ``contended cell`` (every writer creates Customers: each create writes the
Customer population, so a conflict runs the command again).

Every candidate starts on a fresh schema (or file); a server's start is not timed.  The
clients run on the same cores as the servers and PostgreSQL: on a small machine they take a
share of the CPU the servers would have.  ``--db`` names a PostgreSQL database
(``postgresql://…``; the benchmark makes and drops its own schemas in it); without it, a
throwaway cluster is started for the run (``tests/postgres.py``: no ``fsync``, so commits
cost CPU, not disk).

A third table, in this process and without a database: how many journal entries per second
a server following the journal takes in, on one journal of creates (Customers and Products
in turn, after 200 of each): ``applying`` the facts each entry recorded (what a server does
now, checked by the digest) against ``running again`` each command through SYSTEM (checked
by the digest too: what a server did before, and still does for an entry whose facts are
not its whole effect).  ``--following-only`` measures that alone.

``--before DIR`` adds, in the same run, the PostgreSQL candidates served by the arest package
found in DIR (an earlier version, e.g. ``git archive <commit> arest | tar -x -C DIR``),
named ``… (before)``: a before/after comparison on the same machine, load and cluster.

Run ``python benchmarks/bench_scale.py`` (2,000 creates per candidate, about 2 minutes on 2
cores), ``--quick`` for a smoke run.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from harness import Column, format_table, interpreter_facts, publish

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "readings" / "orders"
PROCESSES = (1, 2, 4)
CANDIDATES = ("raw psycopg", "SQLite, 1 process",
              *(f"PostgreSQL, {n} process{'es' if n > 1 else ''}" for n in PROCESSES))
BASELINE = "SQLite, 1 process"
WORKLOADS = ("disjoint cells", "contended cell")


def _log(message: str) -> None:
    print(f"  [{message}]", file=sys.stderr, flush=True)


def collection(workload: str, writer: int) -> str:
    """What a writer creates: Products for every other writer on disjoint cells."""
    return "products" if workload == "disjoint cells" and writer % 2 else "customers"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _post(port: int, path: str, body: Any) -> int:
    sent = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(),
                                  method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(sent, timeout=120) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"POST {path}: {error.code} {error.read()[:300]!r}") from None


@contextmanager
def servers(db: str, count: int, source: Path | None = None) -> Iterator[list[int]]:
    """``count`` servers of the orders readings on one database, once each listens; their
    ports.  Started one after another (the first makes the schema), stopped at the end.
    ``source``: a folder holding the arest package to serve with (default: this one)."""
    started: list[subprocess.Popen[str]] = []
    ports: list[int] = []
    environment = dict(os.environ)
    if source is not None:
        environment["PYTHONPATH"] = str(source)
    try:
        for _ in range(count):
            port = _free_port()
            server = subprocess.Popen(
                [sys.executable, "-m", "arest", "serve", str(EXAMPLE), "--db", db,
                 "--port", str(port)], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                text=True, env=environment, cwd=source or ROOT)
            started.append(server)
            _listening(server, port)
            ports.append(port)
        yield ports
    finally:
        for server in started:
            server.terminate()
        for server in started:
            server.wait(timeout=120)


def _listening(server: subprocess.Popen[str], port: int) -> None:
    for _ in range(1200):
        if server.poll() is not None:
            raise RuntimeError(f"the server on port {port} stopped ({server.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the server on port {port} never listened")


def _spread(creates: int, writers: int) -> list[int]:
    """How many creates each writer sends: ``creates`` in all."""
    return [creates // writers + (1 if w < creates % writers else 0) for w in range(writers)]


def _timed(work: list[Any]) -> float:
    """Seconds to run every thread of ``work`` to its end; an error in one is raised."""
    failures: list[BaseException] = []

    def guarded(body: Any) -> None:
        try:
            body()
        except BaseException as error:  # raised below, in the benchmark's thread
            failures.append(error)

    threads = [threading.Thread(target=guarded, args=(body,)) for body in work]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if failures:
        raise failures[0]
    return elapsed


def through_servers(ports: list[int], workload: str, creates: int, writers: int,
                    prefix: str) -> float:
    """Seconds for the writers to have every create answered 201, spread over the ports."""
    def writer(w: int, count: int) -> Any:
        def body() -> None:
            port, kind = ports[w % len(ports)], collection(workload, w)
            for n in range(count):
                status = _post(port, f"/{kind}", {"id": f"{prefix}{w}-{n}", "Name": f"N{n}"})
                if status != 201:
                    raise RuntimeError(f"POST /{kind}: {status}")
        return body

    return _timed([writer(w, count) for w, count in enumerate(_spread(creates, writers))])


def raw_psycopg(url: str, schema: str, workload: str, creates: int, writers: int) -> float:
    """Seconds for the writers to insert the rows, a commit each, through psycopg."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as setup:
        setup.execute(f"CREATE SCHEMA {schema}")
        for table in ("customers", "products"):
            setup.execute(f"CREATE TABLE {schema}.{table}"
                          " (id text PRIMARY KEY, name text NOT NULL)")

    def writer(w: int, count: int) -> Any:
        def body() -> None:
            table = collection(workload, w)
            with psycopg.connect(url, autocommit=True) as connection:
                for n in range(count):
                    connection.execute(f"INSERT INTO {schema}.{table} VALUES (%s, %s)",
                                       (f"w{w}-{n}", f"N{n}"))
        return body

    return _timed([writer(w, count) for w, count in enumerate(_spread(creates, writers))])


def candidates(before: Path | None) -> list[str]:
    """The candidates of a run: each PostgreSQL one followed by its earlier arest when one
    is given (side by side, so that a machine whose load drifts colours both alike)."""
    if before is None:
        return list(CANDIDATES)
    return [named for candidate in CANDIDATES for named in (
        (candidate, f"{candidate} (before)") if candidate.startswith("PostgreSQL")
        else (candidate,))]


def measure(url: str, creates: int, writers: int, before: Path | None = None
            ) -> list[dict[str, Any]]:
    """Every candidate on every workload: creates per second."""
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for index, workload in enumerate(WORKLOADS):
            for candidate in candidates(before):
                schema = f"bench_{index}_{len(results)}"
                _log(f"{workload}: {candidate}")
                if candidate == "raw psycopg":
                    seconds = raw_psycopg(url, schema, workload, creates, writers)
                else:
                    count = 1 if candidate.startswith("SQLite") else int(candidate.split()[1])
                    db = (str(Path(folder) / f"{schema}.db") if candidate.startswith("SQLite")
                          else f"{url}{'&' if '?' in url else '?'}tenant={schema}")
                    source = before if candidate.endswith("(before)") else None
                    with servers(db, count, source) as ports:
                        seconds = through_servers(ports, workload, creates, writers, "c")
                results.append({"workload": workload, "candidate": candidate,
                                "creates": creates, "seconds": seconds,
                                "per_second": creates / seconds})
    return results


def following_rates(entries: int) -> list[dict[str, Any]]:
    """Entries per second a follower takes in, applying recorded facts or running commands,
    over the same journal of ``entries`` creates (after 400 that fill the populations)."""
    from arest.api import load_sources, read_files
    from arest.runtime.digest import asserted_delta, recorded, state_digest, text
    from arest.runtime.effects import applied
    from arest.runtime.recovery import replayed
    from arest.runtime.runner import changed_cells, run_recording
    from arest.runtime.storage import Entry
    from arest.system.commands import parse_key
    from arest.system.context import read_context

    state = load_sources(read_files(EXAMPLE))
    digest, journal = state_digest(state), []
    for n in range(400 + entries):
        key = "create:Product" if n % 2 else "create:Customer"
        request = {"id": f"f{n}", "Name": f"N{n}"}
        context = {"now": "2026-01-01T00:00:00Z", "source": "System"}
        _, after, footprint = run_recording(state, parse_key(key, request),
                                            read_context(context))
        digest, facts = recorded(digest, asserted_delta(state, after,
                                                        changed_cells(state, after, footprint)))
        journal.append(Entry(n + 1, key, request, context, text(digest), facts))
        state = after
    start = journal[:400]
    state = load_sources(read_files(EXAMPLE))
    digest = state_digest(state)
    for entry in start:
        state, digest = replayed("bench", state, digest, entry, True)

    def applying() -> None:
        current = (state, digest)
        for entry in journal[400:]:
            taken = applied(*current, entry)
            assert taken is not None, entry
            current = taken

    def running() -> None:
        current = (state, digest)
        for entry in journal[400:]:
            current = replayed("bench", *current, entry, True)

    results = []
    for name, follow in (("running again", running), ("applying", applying)):
        began = time.perf_counter()
        follow()
        seconds = time.perf_counter() - began
        results.append({"workload": "following", "candidate": name, "creates": entries,
                        "seconds": seconds, "per_second": entries / seconds})
    return results


@contextmanager
def throwaway_database() -> Iterator[str]:
    """A database of a throwaway PostgreSQL cluster (tests/postgres.py), as a URL."""
    sys.path.insert(0, str(ROOT))
    from tests.postgres import cluster, create_database, postgres_binaries

    with cluster(postgres_binaries()) as server:
        yield create_database(server, "bench_scale").url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="a PostgreSQL database URL (default: a throwaway one)")
    parser.add_argument("--creates", type=int, default=2000, help="creates per candidate")
    parser.add_argument("--writers", type=int, default=8, help="client threads")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 80 creates")
    parser.add_argument("--json", type=Path, help="keep the raw results here")
    parser.add_argument("--following-only", action="store_true",
                        help="measure only how fast a follower takes entries in")
    parser.add_argument("--before", type=Path,
                        help="a folder holding an earlier arest package to compare with")
    args = parser.parse_args()
    creates = 80 if args.quick else args.creates
    results = following_rates(creates)
    if args.following_only:
        pass
    elif args.db:
        results += measure(args.db, creates, args.writers, args.before)
    else:
        with throwaway_database() as url:
            results += measure(url, creates, args.writers, args.before)
    tables = ["### following\n\n" + format_table(
        {r["candidate"]: {"per_second": r["per_second"]} for r in results
         if r["workload"] == "following"},
        [Column("per_second", "entries/s", "{:,.0f}")], "running again")]
    for workload in WORKLOADS:
        if not any(r["workload"] == workload for r in results):
            continue
        rows = {r["candidate"]: {"per_second": r["per_second"]} for r in results
                if r["workload"] == workload}
        tables.append(f"### {workload}\n\n" + format_table(
            rows, [Column("per_second", "creates/s", "{:,.0f}")], BASELINE))
    plan = {"creates": creates, "writers": args.writers,
            "candidates": candidates(args.before),
            "workloads": list(WORKLOADS)}
    publish(interpreter_facts(), plan, results, "\n\n".join(tables), args.json)


if __name__ == "__main__":
    main()
