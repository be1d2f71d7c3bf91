"""Snapshot benchmark: what a snapshot costs on disk and on reopen.

A tenant on ``readings/orders`` (SQLite) gets N customers (``create:Customer``), then K
rounds of one change (``update:Customer`` renames customer ``k mod N``) each followed by
``snapshot`` (label ``s<k>``); then it is checkpointed and closed, so that a reopen reads
the checkpoint and replays nothing.  The baseline, in the
same run, is the same commands without the snapshots: the same D, no registry.  Measured:

* the database's bytes (file + WAL + shared memory, after close) and, against the baseline,
  the bytes each snapshot adds;
* reopen: ``Tenant.open`` on the closed database, then ``snapshots`` (checked to list K) —
  the median of ``--trials`` reopens, each in a fresh process (``PYTHONHASHSEED=0``) with
  arest's runtime already imported (imports are not the database's cost).

Every output is checked to be accepted.  No assertion on time: the figures are reported as
ratios to the baseline.  Run ``python benchmarks/bench_snapshots.py`` (N = 200, K = 300),
``--customers`` and ``--snapshots`` to change them, ``--quick`` for N = 20, K = 20.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import Column, format_table, interpreter_facts, publish, run_isolated

EXAMPLE = Path(__file__).resolve().parent.parent / "readings" / "orders"
CANDIDATES = ("no snapshots", "snapshots")
BASELINE = "no snapshots"


def _accepted(out: dict[str, Any]) -> dict[str, Any]:
    if "error" in out or out.get("rejected"):
        raise AssertionError(f"command not accepted: {out}")
    return out


def build(db: str, customers: int, snapshots: int, take: bool) -> dict[str, Any]:
    """The database of the workload; its size after close and the build time."""
    import arest

    started = time.perf_counter()
    with arest.Tenant.open(str(EXAMPLE), db=db, max_snapshots=snapshots) as tenant:
        for n in range(customers):
            _accepted(tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"}))
        for k in range(snapshots):
            n = k % customers
            _accepted(tenant.call("update:Customer", {"id": f"c{n}@x", "Name": f"C{n}-{k}"}))
            if take:
                _accepted(tenant.call("snapshot", {"label": f"s{k}"}))
        tenant.checkpoint()  # all of D in the checkpoint: a reopen replays nothing
    seconds = time.perf_counter() - started
    size = sum(os.path.getsize(db + suffix) for suffix in ("", "-wal", "-shm")
               if os.path.exists(db + suffix))
    return {"bytes": size, "build_s": seconds}


def reopen(db: str, snapshots: int, take: bool) -> float:
    """Seconds to open the database and list its snapshots (checked), arest imported."""
    import arest

    tenant_type = arest.Tenant  # the runtime's modules are imported here, not timed
    started = time.perf_counter()
    with tenant_type.open(str(EXAMPLE), db=db, max_snapshots=snapshots) as tenant:
        listed = _accepted(tenant.call("snapshots"))["snapshots"]
        seconds = time.perf_counter() - started
    if len(listed) != (snapshots if take else 0):
        raise AssertionError(f"{len(listed)} snapshots after reopen, expected {snapshots}")
    return seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--customers", type=int, default=200)
    parser.add_argument("--snapshots", type=int, default=300)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path)
    options = parser.parse_args(argv)
    if options.quick:
        options.customers, options.snapshots, options.trials = 20, 20, 1
    script = Path(__file__).resolve()
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        for candidate in CANDIDATES:
            db = str(Path(folder) / f"{candidate.replace(' ', '-')}.db")
            take = candidate == "snapshots"
            built = run_isolated(script, "build", {
                "db": db, "customers": options.customers, "snapshots": options.snapshots,
                "take": take})
            seconds = [run_isolated(script, "reopen", {
                "db": db, "snapshots": options.snapshots, "take": take})
                for _ in range(options.trials)]
            results.append({"candidate": candidate, **built,
                            "reopen_s": statistics.median(seconds)})
            print(f"{candidate}: {built['bytes']:,} bytes, reopen {results[-1]['reopen_s']:.3f} s",
                  file=sys.stderr)
    base, taken = results
    per_snapshot = (taken["bytes"] - base["bytes"]) / max(options.snapshots, 1)
    rows = {r["candidate"]: {"bytes": r["bytes"], "build": r["build_s"],
                             "reopen": r["reopen_s"]} for r in results}
    table = format_table(rows, [Column("bytes", "database bytes", "{:,.0f}"),
                                Column("build", "build s", "{:,.2f}", ratio=False),
                                Column("reopen", "reopen s", "{:,.3f}")], BASELINE)
    title = (f"### {options.customers} customers, {options.snapshots} snapshots, each after"
             f" one update (reopen: median of {options.trials})")
    tables = (f"{title}\n\n{table}\n\nbytes per snapshot (over the baseline):"
              f" {per_snapshot:,.0f}\n")
    plan = {"customers": options.customers, "snapshots": options.snapshots,
            "trials": options.trials}
    publish(interpreter_facts(), plan, results, tables, options.json)


if __name__ == "__main__":
    main()
