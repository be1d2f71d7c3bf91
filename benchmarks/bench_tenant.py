"""Tenant benchmark: durable creates per second, and restart time with a long journal.

Durable creates: ``tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})`` on
``readings/orders``, timed one at a time, every output checked to be accepted:

* ``raw SQLite``: the baseline of every ratio. Standard-library ``sqlite3`` on a file in WAL
  mode with ``synchronous=FULL`` (the tenant's journal settings), one ``INSERT`` into
  ``customer(email PRIMARY KEY, name NOT NULL)`` and a ``COMMIT`` per row: the same rows with
  the same durability, and nothing else.
* ``SQLite tenant``: ``arest.Tenant.open("readings/orders", db=<file>)``; each accepted
  command is in the journal, on disk, before ``call`` returns, and every 500 commands the
  changed cells are checkpointed.
* ``memory tenant``: ``db=":memory:"``; the same commands with nothing written to disk.

Taking turns: raw SQLite inserts and SQLite tenant creates alternating in one process, each
on its own file, so both meet the disk in the same state (fsync's latency on a shared machine
drifts between runs); each step's wall and CPU (``time.process_time``) time.

Concurrent writers, on the SQLite tenant, the same number of creates in all: ``raw SQLite, 1
writer`` (the baseline: the rate to beat), ``1 thread``, ``4 threads`` and ``16 threads`` (all
create Customers: one cell) and ``2 threads, disjoint cells`` (one thread creates Customers,
the other Products: no cell in common).  Each accepted command is durable before ``call``
returns; the table gives creates per second of wall time, CPU per create, and how many times
SYSTEM ran per command (1.00: no command had to run again).  A SQLite tenant is held by one
process (its lock file), so the writers are threads.

Restart: a database whose journal holds N accepted ``create:Customer`` commands, built
through ``tenant.call`` (that time is reported too), then ``Tenant.open`` on a copy of it:

* ``checkpoint``: as the tenant left it on close: the checkpointed cells are read and the
  digest of their asserted facts checked; no command is replayed;
* ``no checkpoint``: the ``cells`` rows and the ``checkpoint`` rows of ``meta`` deleted with
  raw ``sqlite3`` (then ``VACUUM``), so the whole journal is replayed on the kept base state,
  each entry checked against the digest it recorded;
* ``raw sqlite3: read the journal``: the floor of a replay, every journal row selected and
  its JSON decoded, with no command applied.

Each restart also makes the first durable write and checks that D holds N + 1 customers.
Start-up: ``import arest`` + ``Tenant.open`` + the first durable write on a fresh database
(its readings never compiled: their ``.arest`` folder removed first; or compiled before, by
the previous trial) and on a reopen (the compiled base state kept in the database), against
a raw ``sqlite3`` connect + schema + first insert; wall and CPU (``time.process_time``)
time, since on a loaded machine the wall time mostly measures waiting for a core.

Every candidate, trial and size runs in its own fresh process (``harness.run_isolated``,
``PYTHONHASHSEED=0``); the commands are fixed, so there is nothing else to seed.  The
databases go to a temporary folder (``--dir`` to choose its file system: fsync costs depend
on it).  The garbage collector keeps CPython's defaults throughout.

Run ``python benchmarks/bench_tenant.py`` (N up to 1e5, about 3.5 minutes on 2 cores),
``--quick`` for a smoke run (N up to 5,000, about 10 s), ``--steps`` for each step of a durable
create timed apart (three rounds, with ``--before`` the trees taking turns; ``--dir /dev/shm``
leaves fsync out), ``--profile 100000`` for a cProfile
of the build and of both restarts at one N, ``--durable-only`` for the durable creates and
writers alone, with ``--before DIR`` to run each arest candidate also on the ``arest`` package
in ``DIR`` (an older tree, e.g. ``git archive <commit> arest | tar -x -C DIR``) right after.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from harness import (
    Column,
    format_table,
    interpreter_facts,
    publish,
    run_isolated,
    summarize,
    time_calls,
)

EXAMPLE = Path(__file__).resolve().parent.parent / "readings" / "orders"
CREATE_CANDIDATES = ("raw SQLite", "SQLite tenant", "memory tenant")
CREATE_BASELINE = "raw SQLite"
RAW_WRITER = "raw SQLite, 1 writer"
WRITERS = (RAW_WRITER, "1 thread", "4 threads", "16 threads", "2 threads, disjoint cells")
WRITERS_BASELINE = RAW_WRITER
BEFORE = " (before)"
RESTARTS = ("raw sqlite3: read the journal", "checkpoint", "no checkpoint")
RESTART_BASELINE = "checkpoint"
FIRST_COMPILE = "fresh, first compile"
STARTS = ("raw sqlite3", FIRST_COMPILE, "fresh, compiled before", "reopen (kept base state)")
START_BASELINE = FIRST_COMPILE
CHUNKS = 10


@dataclass(frozen=True)
class Plan:
    """How much work each process does."""

    creates: int = 2_000
    warmup: int = 100
    sizes: tuple[int, ...] = (10_000, 100_000)
    restart_trials: int = 3
    start_trials: int = 5

    def quick(self) -> Plan:
        """Fewer creates, N up to 5,000, one restart trial: a smoke run."""
        return replace(self, creates=300, warmup=20, sizes=(1_000, 5_000), restart_trials=1,
                       start_trials=2)


class Rejected(RuntimeError):
    """Raised when a create the benchmark meant to be valid is not accepted."""


def customer(number: int) -> dict[str, str]:
    """The input of the ``number``-th ``create:Customer``.

    >>> customer(7)
    {'id': 'c7@x', 'Name': 'C7'}
    """
    return {"id": f"c{number}@x", "Name": f"C{number}"}


def _accepted(out: dict[str, Any], number: int) -> None:
    if out.get("rejected") is not False or "error" in out:
        raise Rejected(f"create {number}: {out}")


def product(number: int) -> dict[str, str]:
    """The input of the ``number``-th ``create:Product``."""
    return {"id": f"sku-{number}", "Name": f"P{number}"}


def _log(message: str) -> None:
    print(f"  [{message}]", file=sys.stderr, flush=True)


# durable creates -----------------------------------------------------------------------

RAW_SCHEMA = "CREATE TABLE customer (email TEXT PRIMARY KEY, name TEXT NOT NULL)"


def _raw_connection(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute(RAW_SCHEMA)
    return connection


def measure_creates(name: str, creates: int, warmup: int, folder: str) -> dict[str, Any]:
    """Warm up, then time ``creates`` durable creates of one candidate, one at a time."""
    path = Path(tempfile.mkdtemp(dir=folder)) / "creates.db"
    counter = iter(range(warmup + creates))
    if name == "raw SQLite":
        connection = _raw_connection(path)
        execute = connection.execute

        def step() -> None:
            row = customer(next(counter))
            execute("BEGIN")
            execute("INSERT INTO customer VALUES (?, ?)", (row["id"], row["Name"]))
            execute("COMMIT")

        close = connection.close
    else:
        import arest

        tenant = arest.Tenant.open(EXAMPLE, db=path if name == "SQLite tenant" else ":memory:")

        def step() -> None:
            number = next(counter)
            _accepted(tenant.call("create:Customer", customer(number)), number)

        close = tenant.close
    _log(f"{name}: {warmup:,} + {creates:,} creates")
    time_calls(step, warmup)
    started = time.process_time_ns()
    samples = time_calls(step, creates)
    cpu = time.process_time_ns() - started
    close()
    return {"candidate": name, "total_s": sum(samples) / 1e9, "cpu_s": cpu / 1e9,
            **summarize(samples).as_dict()}


def measure_interleaved(creates: int, warmup: int, folder: str) -> dict[str, Any]:
    """Raw SQLite inserts and SQLite tenant creates taking turns in one process, each on its
    own file in ``folder``: both meet the disk in the same state (fsync's latency on a shared
    machine drifts from 0.1 to 4 ms between runs); each step's wall and CPU time."""
    import arest

    where = Path(tempfile.mkdtemp(dir=folder))
    connection = _raw_connection(where / "raw.db")
    execute = connection.execute
    tenant = arest.Tenant.open(EXAMPLE, db=where / "tenant.db")

    def raw(number: int) -> None:
        row = customer(number)
        execute("BEGIN")
        execute("INSERT INTO customer VALUES (?, ?)", (row["id"], row["Name"]))
        execute("COMMIT")

    def create(number: int) -> None:
        _accepted(tenant.call("create:Customer", customer(number)), number)

    _log(f"interleaved: {warmup:,} + {creates:,} of each")
    walls: dict[str, list[int]] = {"raw SQLite": [], "SQLite tenant": []}
    cpus: dict[str, list[int]] = {"raw SQLite": [], "SQLite tenant": []}
    for number in range(warmup + creates):
        for name, step in (("raw SQLite", raw), ("SQLite tenant", create)):
            wall, cpu = time.perf_counter_ns(), time.process_time_ns()
            step(number)
            if number >= warmup:
                cpus[name].append(time.process_time_ns() - cpu)
                walls[name].append(time.perf_counter_ns() - wall)
    tenant.close()
    connection.close()
    return {name: {"total_s": sum(walls[name]) / 1e9, "cpu_s": sum(cpus[name]) / 1e9,
                   "cpu_median_ns": statistics.median(cpus[name]),
                   **summarize(walls[name]).as_dict()} for name in walls}


STEPS = (
    ("parse_key", "request: the key parsed"),
    ("clock", "request: the clock"),
    ("_run_within_limits", "apply: SYSTEM (on the recording view, or on D itself)"),
    ("_commit", "entry: the asserted delta, digest and facts' text, queued"),
    ("wait", "append: the commit (its fsync), the lock-file record"),
    ("keep", "checkpoint, spread over the creates (mean)"),
)
"""The steps of a durable create ``--steps`` times: the attribute wrapped, and its row."""

ALSO_TIMED = (("flat_answer", "_run_within_limits"), ("_commit_asserted", "_commit"),
              ("write_claimed", "wait"))
"""A tree whose tenant runs a flat create on D itself (no recording view, its entry from the
facts it asserted, written by the command itself when the journal is idle) times those steps
under the same rows: each attribute, where the tree has it, and the step whose row it
shares."""


def measure_steps(creates: int, warmup: int, folder: str) -> dict[str, float]:
    """Each step of a SQLite tenant's create under ``time.process_time_ns``, by wrapping
    the runtime's functions (two clock readings a step, about 1 µs each on top): the median
    µs of each step and of the whole ``call``, the checkpoint's mean."""
    import arest
    from arest.runtime import checkpoints, group_commit, tenant

    samples: dict[str, list[int]] = {row: [] for _, row in STEPS}
    samples["call in all"] = []

    def timed(function: Any, row: str) -> Any:
        def step(*arguments: Any, **options: Any) -> Any:
            started = time.process_time_ns()
            try:
                return function(*arguments, **options)
            finally:
                samples[row].append(time.process_time_ns() - started)
        return step

    owners = {"parse_key": tenant, "_run_within_limits": tenant.Tenant,
              "_commit": tenant.Tenant, "wait": group_commit.GroupCommit,
              "keep": checkpoints.Checkpoints, "flat_answer": tenant,
              "_commit_asserted": tenant.Tenant, "write_claimed": group_commit.GroupCommit}
    rows = dict(STEPS)
    rows.update((name, rows[step]) for name, step in ALSO_TIMED)
    for name, owner in owners.items():
        if hasattr(owner, name):
            setattr(owner, name, timed(getattr(owner, name), rows[name]))
    created = arest.Tenant.open(EXAMPLE, db=Path(tempfile.mkdtemp(dir=folder)) / "steps.db")
    created._clock = timed(created._clock, rows["clock"])
    _log(f"steps: {warmup:,} + {creates:,} creates")
    for number in range(warmup + creates):
        if number == warmup:
            for kept in samples.values():
                kept.clear()
        started = time.process_time_ns()
        _accepted(created.call("create:Customer", customer(number)), number)
        samples["call in all"].append(time.process_time_ns() - started)
    created.close()
    checkpoint = rows["keep"]
    return {row: (sum(kept) / creates if row == checkpoint else statistics.median(kept)) / 1e3
            for row, kept in samples.items()}


def run_steps(plan: Plan, folder: str, before: Path | None, rounds: int = 3) -> str:
    """``rounds`` of :func:`measure_steps`, each tree in its own process, taking turns; a
    table of each step's µs per round (``before`` first)."""
    arguments = {"creates": plan.creates, "warmup": plan.warmup, "folder": folder}
    trees = ([("before", before)] if before is not None else []) + [("this tree", None)]
    found: dict[str, list[dict[str, float]]] = {name: [] for name, _ in trees}
    for _ in range(rounds):
        for name, tree in trees:
            found[name].append(_isolated("measure_steps", arguments, tree))
    names = [row for _, row in STEPS] + ["call in all"]
    lines = ["| step | " + " | ".join(name for name, _ in trees) + " |",
             "|---|" + "---|" * len(trees)]
    for row in names:
        cells = [" / ".join(f"{result[row]:.1f}" for result in found[name]) for name, _ in trees]
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def threads_of(kind: str) -> int:
    """The writer threads a kind of the concurrent-writers trial runs.

    >>> threads_of("1 thread"), threads_of("16 threads"), threads_of("2 threads, one cell")
    (1, 16, 2)
    """
    return int(kind.split()[0])


def measure_writers(kind: str, creates: int, folder: str) -> dict[str, Any]:
    """``creates`` durable creates from one or more threads at once: wall and CPU time,
    latencies, and the runs of SYSTEM per command (the clock is read once per run).  The
    raw SQLite writer inserts the same rows one at a time, for the rate to beat."""
    import threading

    if kind == RAW_WRITER:
        result = measure_creates("raw SQLite", creates, 0, folder)
        return {"kind": kind, "wall_s": result["total_s"], "cpu_s": result["cpu_s"],
                "runs": None, **{k: v for k, v in result.items()
                                             if k.endswith("_ns") or k == "count"}}
    import arest
    from arest.runtime.tenant import utc_now

    runs = [0]
    counting = threading.Lock()

    def clock() -> str:
        with counting:
            runs[0] += 1
        return utc_now()

    path = Path(tempfile.mkdtemp(dir=folder)) / "writers.db"
    tenant = arest.Tenant.open(EXAMPLE, db=path, clock=clock)
    threads = threads_of(kind)
    per_thread = creates // threads
    samples: list[list[int]] = [[] for _ in range(threads)]

    def writer(index: int) -> None:
        noun = "Product" if index == 1 and kind == "2 threads, disjoint cells" else "Customer"
        make = product if noun == "Product" else customer
        counter = iter(range(index * per_thread, (index + 1) * per_thread))

        def step() -> None:
            number = next(counter)
            _accepted(tenant.call(f"create:{noun}", make(number)), number)

        samples[index] = time_calls(step, per_thread)

    _log(f"writers, {kind}: {per_thread * threads:,} creates")
    start, cpu = time.perf_counter_ns(), time.process_time_ns()
    workers = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    wall = (time.perf_counter_ns() - start) / 1e9
    cpu = (time.process_time_ns() - cpu) / 1e9
    tenant.close()
    merged = [sample for thread in samples for sample in thread]
    return {"kind": kind, "wall_s": wall, "cpu_s": cpu, "runs": runs[0],
            **summarize(merged).as_dict()}


# restart -------------------------------------------------------------------------------


def database(folder: str, size: int, checkpoint: bool) -> Path:
    """Where the database of ``size`` journaled commands is kept."""
    return Path(folder) / f"journal-{size}{'' if checkpoint else '-replay'}.db"


def _drop_checkpoint(path: Path) -> None:
    """Delete the checkpointed cells and the checkpoint's marks, so a restart replays all."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("DELETE FROM cells")
    connection.execute("DELETE FROM meta WHERE name IN ('checkpoint', 'checkpoint key',"
                       " 'checkpoint digest')")
    connection.execute("VACUUM")
    connection.close()


def build(size: int, folder: str) -> dict[str, Any]:
    """Journal ``size`` creates through one tenant, timing each tenth; keep a copy of the
    database without its checkpoint."""
    import arest

    path = database(folder, size, checkpoint=True)
    _log(f"build: {size:,} creates through tenant.call")
    start = time.perf_counter_ns()
    tenant = arest.Tenant.open(EXAMPLE, db=path)
    opened = time.perf_counter_ns()
    chunks: list[float] = []
    chunk = max(1, size // CHUNKS)
    mark = opened
    for number in range(size):
        _accepted(tenant.call("create:Customer", customer(number)), number)
        if (number + 1) % chunk == 0:
            now = time.perf_counter_ns()
            chunks.append((now - mark) / 1e9)
            mark = now
    tenant.close()
    built = time.perf_counter_ns()
    if Path(f"{path}-wal").exists():
        raise RuntimeError(f"{path}: the WAL outlived close; the copies would miss it")
    replay = database(folder, size, checkpoint=False)
    shutil.copyfile(path, replay)
    _drop_checkpoint(replay)
    return {
        "size": size,
        "open_s": (opened - start) / 1e9,
        "build_s": (built - opened) / 1e9,
        "chunk": chunk,
        "chunks_s": chunks,
        "bytes": path.stat().st_size,
        "bytes_no_checkpoint": replay.stat().st_size,
    }


def _scratch_copy(source: Path) -> Path:
    target = Path(tempfile.mkdtemp(dir=source.parent)) / source.name
    shutil.copyfile(source, target)
    return target


def _read_journal(path: Path) -> int:
    connection = sqlite3.connect(path)
    rows = connection.execute(
        "SELECT sequence, key, input, context FROM journal ORDER BY sequence"
    ).fetchall()
    entries = [(sequence, key, json.loads(text), json.loads(context))
               for sequence, key, text, context in rows]
    connection.close()
    return len(entries)


def measure_restart(kind: str, size: int, folder: str) -> dict[str, Any]:
    """One restart of a copy of the ``size``-command database: import, open, first write."""
    path = _scratch_copy(database(folder, size, checkpoint=kind != "no checkpoint"))
    _log(f"restart, {kind}, N = {size:,}")
    if kind == "raw sqlite3: read the journal":
        start = time.perf_counter_ns()
        found = _read_journal(path)
        opened = time.perf_counter_ns()
        if found != size:
            raise RuntimeError(f"{path}: {found} journal rows, expected {size}")
        return {"kind": kind, "size": size, "open_s": (opened - start) / 1e9}
    start = time.perf_counter_ns()
    import arest

    imported = time.perf_counter_ns()
    tenant = arest.Tenant.open(EXAMPLE, db=path)
    opened = time.perf_counter_ns()
    _accepted(tenant.call("create:Customer", customer(size)), size)
    written = time.perf_counter_ns()
    held = len(tenant.state["Customer_has_Name"])
    if held != size + 1:
        raise RuntimeError(f"{path}: {held} customers after the restart, expected {size + 1}")
    tenant.close()
    closed = time.perf_counter_ns()
    return {
        "kind": kind,
        "size": size,
        "import_s": (imported - start) / 1e9,
        "open_s": (opened - imported) / 1e9,
        "write_s": (written - opened) / 1e9,
        "close_s": (closed - written) / 1e9,
    }


# start-up ------------------------------------------------------------------------------


START_CHILD = """\
import sys, time
marks = [(time.perf_counter_ns(), time.process_time_ns())]
kind, path, example = sys.argv[1:4]
if kind == "raw sqlite3":
    import sqlite3
    marks.append((time.perf_counter_ns(), time.process_time_ns()))
    connection = sqlite3.connect(path, isolation_level=None)
    for statement in ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", sys.argv[4]):
        connection.execute(statement)
    marks.append((time.perf_counter_ns(), time.process_time_ns()))
    for statement in ("BEGIN", "INSERT INTO customer VALUES ('c0@x', 'C0')", "COMMIT"):
        connection.execute(statement)
    marks.append((time.perf_counter_ns(), time.process_time_ns()))
    connection.close()
    out = {"rejected": False}
else:
    import arest
    marks.append((time.perf_counter_ns(), time.process_time_ns()))
    tenant = arest.Tenant.open(example, db=path)
    marks.append((time.perf_counter_ns(), time.process_time_ns()))
    number = len(tenant.state.get("Customer_has_Name") or ())
    out = tenant.call("create:Customer", {"id": f"c{number}@x", "Name": f"C{number}"})
    marks.append((time.perf_counter_ns(), time.process_time_ns()))
    tenant.close()
import json
print(json.dumps({"marks": marks, "out": out, "modules": len(sys.modules)}))
"""
"""One start in a fresh interpreter that has imported nothing but ``sys`` and ``time``
(and what ``site`` imports) before its first clock reading: the four clock readings, the
output of the first write, and how many modules the process holds at the end."""

FLOORS = {
    "python -S -c pass": ["-S", "-c", "pass"],
    "python -c pass": ["-c", "pass"],
    "python -c 'import sqlite3, json'": ["-c", "import sqlite3, json"],
}
"""The interpreter's own floor, measured as whole processes beside the starts."""


def _process(arguments: list[str], tree: Path | None = None) -> tuple[str, float, float]:
    """Run ``python *arguments`` (on the arest package in ``tree`` when given: its folder
    first on the path and the working directory): its stdout, its whole CPU seconds (user +
    system, from ``wait4``, the interpreter's start included) and its wall seconds."""
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    if tree is not None:
        environment["PYTHONPATH"] = str(tree)
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, *arguments], stdout=subprocess.PIPE,
                             env=environment, cwd=tree)
    assert child.stdout is not None
    out = child.stdout.read().decode()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, arguments)
    return out, usage.ru_utime + usage.ru_stime, time.perf_counter() - started


def _spans(kind: str, marks: list[list[int]]) -> dict[str, Any]:
    """Wall and CPU seconds of import, open and first write between four clock readings."""
    spans: dict[str, Any] = {"kind": kind}
    for name, (start, end) in zip(("import", "open", "write"), pairwise(marks), strict=True):
        spans[f"{name}_s"] = (end[0] - start[0]) / 1e9
        spans[f"{name}_cpu_s"] = (end[1] - start[1]) / 1e9
    return spans


def measure_start(kind: str, folder: str, before: Path | None = None) -> dict[str, Any]:
    """``import arest`` + open + first durable write, on a fresh database or a reopen, each
    in a fresh interpreter (:data:`START_CHILD`); or one of the interpreter's floors.  With
    ``before``, the start of the arest in that folder (an older tree) on its own readings
    and databases, its kind marked :data:`BEFORE`."""
    if kind in FLOORS:
        _, cpu, wall = _process(FLOORS[kind])
        return {"kind": kind, "process_cpu_s": cpu, "process_s": wall}
    example = EXAMPLE if before is None else before / EXAMPLE.relative_to(EXAMPLE.parents[1])
    if before is not None:
        folder = str(Path(folder) / "before")
        Path(folder).mkdir(exist_ok=True)
    path = Path(folder) / ("raw.db" if kind == "raw sqlite3" else "start.db")
    if kind != "reopen (kept base state)":
        path = Path(tempfile.mkdtemp(dir=folder)) / path.name
    elif not path.exists():
        raise RuntimeError(f"{path}: measure a fresh database first")
    if kind == FIRST_COMPILE:
        shutil.rmtree(example / ".arest", ignore_errors=True)
    out, cpu, wall = _process(["-c", START_CHILD, kind, str(path), str(example), RAW_SCHEMA],
                              before)
    result = json.loads(out.splitlines()[-1])
    _accepted(result["out"], 0)
    if kind not in ("raw sqlite3", "reopen (kept base state)"):
        shutil.copyfile(path, Path(folder) / "start.db")
    shown = kind if before is None else kind + BEFORE
    return {**_spans(shown, result["marks"]), "process_cpu_s": cpu, "process_s": wall,
            "modules": result["modules"]}


# profile -------------------------------------------------------------------------------


def _print_stats(profiler: cProfile.Profile, title: str, out: io.StringIO) -> None:
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    for order in ("cumulative", "tottime"):
        print(f"\n### {title}, by {order}", file=out)
        stats.sort_stats(order).print_stats(20)


def profile(size: int, folder: str) -> str:
    """cProfile of building ``size`` journaled commands and of both restarts: the top
    functions by cumulative and by own time."""
    import arest

    path = Path(folder) / "profile.db"
    out = io.StringIO()
    _log(f"profile: build, N = {size:,}")
    profiler = cProfile.Profile()
    profiler.enable()
    with arest.Tenant.open(EXAMPLE, db=path) as tenant:
        for number in range(size):
            _accepted(tenant.call("create:Customer", customer(number)), number)
    profiler.disable()
    _print_stats(profiler, f"build, N = {size:,}", out)
    replay = path.with_name("replay.db")
    shutil.copyfile(path, replay)
    _drop_checkpoint(replay)
    for title, source in (("restart, checkpoint", path), ("restart, no checkpoint", replay)):
        _log(f"profile: {title}, N = {size:,}")
        copy = _scratch_copy(source)
        profiler = cProfile.Profile()
        profiler.enable()
        tenant = arest.Tenant.open(EXAMPLE, db=copy)
        profiler.disable()
        tenant.close()
        _print_stats(profiler, f"{title}, N = {size:,}", out)
    return out.getvalue()


# reporting -----------------------------------------------------------------------------


def file_system(folder: str) -> str:
    """The mount point and type of the file system holding ``folder`` (Linux), else ``?``."""
    best = ("", "?")
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return "?"
    real = os.path.realpath(folder)
    for line in mounts:
        fields = line.split()
        if len(fields) < 3 or len(fields[1]) < len(best[0]):
            continue
        if real == fields[1] or real.startswith(fields[1].rstrip("/") + "/"):
            best = (fields[1], fields[2])
    return f"{best[1]} (mounted at {best[0]})"


def machine_facts(plan: Plan, folder: str) -> dict[str, str]:
    """Interpreter, cores, SQLite version, where the databases went, and the run's counts."""
    return {
        **interpreter_facts(),
        "sqlite": f"{sqlite3.sqlite_version}, WAL, synchronous=FULL",
        "databases": f"{folder} on {file_system(folder)}",
        "creates": f"{plan.creates:,} timed after {plan.warmup:,} per candidate",
        "restart": f"N = {', '.join(f'{n:,}' for n in plan.sizes)}; median of "
        f"{plan.restart_trials} trials, start-up: median of {plan.start_trials}",
    }


def _median(results: Sequence[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in results)


def _size_header(size: int) -> str:
    return f"N = {size:,}"


def report(results: dict[str, Any], plan: Plan) -> str:
    """The Markdown tables: durable creates, the build, restarts and start-up."""
    out: list[str] = []
    us = "{:,.1f}"

    rows: dict[str, dict[str, float | str | None]] = {}
    for r in results["creates"]:
        rows[r["candidate"]] = {
            "rate": r["count"] / r["total_s"],
            "cpu": r["cpu_s"] / r["count"] * 1e6 if "cpu_s" in r else None,
            "median": r["median_ns"] / 1e3,
            "p99": r["p99_ns"] / 1e3,
            "max": r["max_ns"] / 1e3,
        }
    count = results["creates"][0]["count"]
    out.append(f"**Durable creates**, {count:,} `create:Customer` each, one at a time\n")
    columns = [
        Column("rate", "creates/s", "{:,.0f}"),
        Column("cpu", "CPU µs per create", us),
        Column("median", "median µs", us),
        Column("p99", "p99 µs", us),
        Column("max", "max µs", us),
    ]
    out.append(format_table(rows, columns, CREATE_BASELINE) + "\n")

    rows = {}
    for trial in results.get("interleaved", []):
        suffix = "" if trial["tree"] == "this" else BEFORE
        for name in CREATE_CANDIDATES[:2]:
            r = trial[name]
            rows[name + suffix] = {
                "rate": r["count"] / r["total_s"],
                "cpu": r["cpu_s"] / r["count"] * 1e6,
                "cpu_median": r["cpu_median_ns"] / 1e3,
                "median": r["median_ns"] / 1e3,
                "p99": r["p99_ns"] / 1e3,
            }
    if rows:
        out.append(f"**Durable creates taking turns** with raw SQLite inserts in one process, "
                   f"{count:,} of each\n")
        columns = [
            Column("rate", "creates/s", "{:,.0f}"),
            Column("cpu", "CPU µs per create", us),
            Column("cpu_median", "median CPU µs", us),
            Column("median", "median µs", us),
            Column("p99", "p99 µs", us),
        ]
        out.append(format_table(rows, columns, CREATE_BASELINE) + "\n")

    rows = {}
    for r in results.get("writers", []):
        rows[r["kind"]] = {
            "rate": r["count"] / r["wall_s"],
            "cpu": r["cpu_s"] / r["count"] * 1e6 if "cpu_s" in r else None,
            "median": r["median_ns"] / 1e3,
            "p99": r["p99_ns"] / 1e3,
            "runs": None if r["runs"] is None else r["runs"] / r["count"],
        }
    if rows:
        count = results["writers"][0]["count"]
        out.append(f"**Concurrent writers** on the SQLite tenant, {count:,} creates in all\n")
        columns = [
            Column("rate", "creates/s", "{:,.0f}"),
            Column("cpu", "CPU µs per create", us),
            Column("median", "median µs", us),
            Column("p99", "p99 µs", us),
            Column("runs", "runs per command", "{:,.2f}", ratio=False),
        ]
        baseline = WRITERS_BASELINE if WRITERS_BASELINE in rows else next(iter(rows))
        out.append(format_table(rows, columns, baseline) + "\n")

    if "builds" not in results:
        return "\n".join(out)
    rows = {}
    for r in results["builds"]:
        chunks = r["chunks_s"]
        rows[_size_header(r["size"])] = {
            "build": r["build_s"],
            "rate": r["size"] / r["build_s"],
            "first": chunks[0] / r["chunk"] * 1e6,
            "last": chunks[-1] / r["chunk"] * 1e6,
            "mib": r["bytes"] / 2**20,
            "mib_replay": r["bytes_no_checkpoint"] / 2**20,
            "per_command": r["bytes_no_checkpoint"] / r["size"],
        }
    first = _size_header(results["builds"][0]["size"])
    out.append(
        "**Building the journal** through `tenant.call` (one tenant, checkpoints every 500 "
        "commands); µs per create in the first and the last tenth of the build\n"
    )
    columns = [
        Column("build", "build s", "{:,.1f}"),
        Column("rate", "creates/s", "{:,.0f}", ratio=False),
        Column("first", "first tenth µs", us, ratio=False),
        Column("last", "last tenth µs", us),
        Column("mib", "file MiB", "{:,.2f}", ratio=False),
        Column("mib_replay", "MiB without checkpoint", "{:,.2f}", ratio=False),
        Column("per_command", "bytes per command", "{:,.0f}", ratio=False),
    ]
    out.append(format_table(rows, columns, first, label="journal") + "\n")

    sizes = sorted({r["size"] for r in results["restarts"]})
    by: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in results["restarts"]:
        by.setdefault((r["kind"], r["size"]), []).append(r)
    rows = {}
    for kind in RESTARTS:
        row: dict[str, float | str | None] = {}
        for size in sizes:
            trials = by.get((kind, size))
            if trials:
                row[str(size)] = _median(trials, "open_s")
                row[f"{size}_per"] = _median(trials, "open_s") / size * 1e6
        rows[kind] = row
    trials = len(by[(RESTART_BASELINE, sizes[0])])
    out.append(f"**Restart**: `Tenant.open` in seconds (median of {trials}), and µs per "
               "journaled command\n")
    columns = []
    for size in sizes:
        columns.append(Column(str(size), f"open s, {_size_header(size)}", "{:,.3f}"))
        columns.append(Column(f"{size}_per", "µs per command", us, ratio=False))
    out.append(format_table(rows, columns, RESTART_BASELINE) + "\n")

    largest = sizes[-1]
    rows = {}
    for kind in RESTARTS[1:]:
        found = by[(kind, largest)]
        rows[kind] = {
            "import": _median(found, "import_s") * 1e3,
            "open": _median(found, "open_s"),
            "write": _median(found, "write_s") * 1e3,
            "close": _median(found, "close_s"),
        }
    out.append(f"**Restart at N = {largest:,}**: import, open, first durable write, close "
               "(a replayed tenant keeps a full checkpoint on close)\n")
    columns = [
        Column("import", "import arest ms", us, ratio=False),
        Column("open", "open s", "{:,.3f}"),
        Column("write", "first write ms", "{:,.2f}"),
        Column("close", "close s", "{:,.3f}"),
    ]
    out.append(format_table(rows, columns, RESTART_BASELINE) + "\n")

    out.append(_starts(results))
    return "\n".join(out)


def _starts(results: dict[str, Any]) -> str:
    """The start-up table: the interpreter's floors, then each start."""
    out: list[str] = []
    us = "{:,.1f}"
    rows: dict[str, dict[str, float | str | None]] = {}
    for kind in (*FLOORS, *(k for start in STARTS for k in (start + BEFORE, start))):
        found = [r for r in results["starts"] if r["kind"] == kind]
        if not found:
            continue
        row: dict[str, float | str | None] = {
            "process": _median(found, "process_cpu_s") * 1e3,
            "process_wall": _median(found, "process_s") * 1e3,
        }
        if kind not in FLOORS:
            row |= {
                "import": _median(found, "import_cpu_s") * 1e3,
                "open": _median(found, "open_cpu_s") * 1e3,
                "write": _median(found, "write_cpu_s") * 1e3,
                "total": statistics.median(
                    r["import_cpu_s"] + r["open_cpu_s"] + r["write_cpu_s"] for r in found
                ) * 1e3,
                "modules": f"{statistics.median(r['modules'] for r in found):.0f}",
            }
        rows[kind] = row
    trials = sum(r["kind"] == START_BASELINE for r in results["starts"])
    out.append(f"**Start-up**: import + open + first durable write, CPU ms, and the whole "
               f"process's CPU and wall ms, the interpreter's start included (median of "
               f"{trials}, each in a fresh process that imported nothing before its first "
               f"clock reading)\n")
    columns = [
        Column("import", "import CPU ms", us, ratio=False),
        Column("open", "open CPU ms", us, ratio=False),
        Column("write", "first write CPU ms", "{:,.2f}", ratio=False),
        Column("total", "total CPU ms", us),
        Column("process", "process CPU ms", us, ratio=False),
        Column("process_wall", "process wall ms", us, ratio=False),
        Column("modules", "modules held", ratio=False),
    ]
    out.append(format_table(rows, columns, START_BASELINE))
    return "\n".join(out)


def run_starts(plan: Plan, folder: str, before: Path | None = None) -> list[dict[str, Any]]:
    """The start-up trials and the interpreter's floors, each start in its own fresh
    process, the kinds interleaved; with ``before``, each start of this tree and of that
    one taking turns (this tree first in every other trial)."""
    if before is None:
        return [measure_start(kind, folder) for _ in range(plan.start_trials)
                for kind in (*FLOORS, *STARTS)]
    found: list[dict[str, Any]] = []
    for trial in range(plan.start_trials):
        found.extend(measure_start(kind, folder) for kind in FLOORS)
        for kind in STARTS:
            trees = (None, before) if trial % 2 == 0 else (before, None)
            found.extend(measure_start(kind, folder, tree) for tree in trees)
    return found


def _isolated(function: str, kwargs: dict[str, Any], before: Path | None) -> Any:
    """``run_isolated`` on this tree's arest, or (``before`` given) on the arest package
    found in that folder, put first on the child's ``PYTHONPATH``."""
    if before is None:
        return run_isolated(Path(__file__), function, kwargs)
    kept = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(before) + ("" if kept is None else os.pathsep + kept)
    try:
        return run_isolated(Path(__file__), function, kwargs)
    finally:
        if kept is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = kept


def run_durable(plan: Plan, folder: str, before: Path | None = None) -> dict[str, Any]:
    """The durable creates and the concurrent writers, each in its own fresh process; with
    ``before``, each arest candidate again on the arest in that folder, right after."""
    creates, writers = [], []
    for name in CREATE_CANDIDATES:
        arguments = {"name": name, "creates": plan.creates, "warmup": plan.warmup,
                     "folder": folder}
        creates.append(_isolated("measure_creates", arguments, None))
        if before is not None and name != CREATE_BASELINE:
            found = _isolated("measure_creates", arguments, before)
            creates.append({**found, "candidate": name + BEFORE})
    interleaved = []
    arguments = {"creates": plan.creates, "warmup": plan.warmup, "folder": folder}
    interleaved.append({"tree": "this", **_isolated("measure_interleaved", arguments, None)})
    if before is not None:
        interleaved.append({"tree": "before",
                            **_isolated("measure_interleaved", arguments, before)})
    for kind in WRITERS:
        arguments = {"kind": kind, "creates": plan.creates, "folder": folder}
        writers.append(_isolated("measure_writers", arguments, None))
        if before is not None and kind != RAW_WRITER:
            found = _isolated("measure_writers", arguments, before)
            writers.append({**found, "kind": kind + BEFORE})
    return {"creates": creates, "interleaved": interleaved, "writers": writers}


def run(plan: Plan, folder: str) -> dict[str, Any]:
    """Every measurement, each in its own fresh process."""
    script = Path(__file__)
    durable = run_durable(plan, folder)
    creates, interleaved, writers = (durable["creates"], durable["interleaved"],
                                     durable["writers"])
    builds = [run_isolated(script, "build", {"size": size, "folder": folder})
              for size in plan.sizes]
    restarts = [
        run_isolated(script, "measure_restart", {"kind": kind, "size": size, "folder": folder})
        for size in plan.sizes
        for _ in range(plan.restart_trials)
        for kind in RESTARTS
    ]
    starts = run_starts(plan, folder)
    return {"creates": creates, "interleaved": interleaved, "writers": writers,
            "builds": builds, "restarts": restarts, "starts": starts}


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, measure in fresh processes, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N up to 5,000: a smoke run")
    parser.add_argument("--starts-only", action="store_true",
                        help="only the start-up trials, and only their table")
    parser.add_argument("--start-trials", type=int, default=None,
                        help="start-up trials of each kind (default 5)")
    parser.add_argument("--sizes", default=None, help="comma-separated journal lengths N")
    parser.add_argument("--creates", type=int, default=None, help="timed creates per candidate")
    parser.add_argument("--durable-only", action="store_true",
                        help="only the durable creates and the concurrent writers")
    parser.add_argument("--steps", action="store_true",
                        help="only each step of a durable create, timed (three rounds; with"
                        " --before, the trees taking turns); --dir /dev/shm for no fsync")
    parser.add_argument("--before", type=Path, default=None,
                        help="with --durable-only: also run each arest candidate on the"
                        " arest package in this folder (an older tree), for an A/B; with"
                        " --starts-only, each start on it too, the trees taking turns")
    parser.add_argument("--dir", default=None, help="folder for the databases (default: temp)")
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    parser.add_argument(
        "--from-json", type=Path, default=None, help="print the tables of a saved run"
    )
    parser.add_argument(
        "--profile", type=int, default=None, metavar="N",
        help="print a cProfile of building N journaled commands and of both restarts",
    )
    options = parser.parse_args(argv)
    if options.from_json is not None:
        saved = json.loads(options.from_json.read_text())
        plan = Plan(**{**saved["plan"], "sizes": tuple(saved["plan"]["sizes"])})
        print("\n".join(f"- {key}: {value}" for key, value in saved["machine"].items()))
        print()
        print(report(saved["results"][0], plan))
        return
    plan = Plan().quick() if options.quick else Plan()
    if options.sizes is not None:
        plan = replace(plan, sizes=tuple(int(s) for s in options.sizes.split(",")))
    if options.creates is not None:
        plan = replace(plan, creates=options.creates)
    if options.start_trials is not None:
        plan = replace(plan, start_trials=options.start_trials)
    with tempfile.TemporaryDirectory(prefix="bench-tenant-", dir=options.dir) as folder:
        if options.profile is not None:
            print(run_isolated(Path(__file__), "profile",
                               {"size": options.profile, "folder": folder}))
            return
        if options.starts_only:
            print(_starts({"starts": run_starts(plan, folder, options.before)}))
            return
        if options.steps:
            print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
            print(run_steps(plan, folder, options.before))
            print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
            return
        if options.durable_only:
            facts = machine_facts(plan, folder)
            facts["load average"] = " ".join(f"{load:.2f}" for load in os.getloadavg())
            started = time.perf_counter()
            results = run_durable(plan, folder, options.before)
            facts["wall time"] = f"{time.perf_counter() - started:,.0f} s"
            facts["load average after"] = " ".join(f"{load:.2f}" for load in os.getloadavg())
            publish(facts, asdict(plan), [results], report(results, plan), options.json)
            return
        facts = machine_facts(plan, folder)
        print("\n".join(f"- {key}: {value}" for key, value in facts.items()), file=sys.stderr)
        started = time.perf_counter()
        results = run(plan, folder)
        facts["wall time"] = f"{time.perf_counter() - started:,.0f} s"
    publish(facts, asdict(plan), [results], report(results, plan), options.json)


if __name__ == "__main__":
    main()
