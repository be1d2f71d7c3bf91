"""Load A/B: arest's bulk loads against their baselines, in CPU seconds, for two source trees.

Two loads, each measured in its own fresh process per tree, size and round (rounds
interleave the trees, so that both see the same machine):

* ``create``: the population of ``bench_create.py`` (|P| facts of customers, orders and line
  items), loaded by SQLite in memory (the baseline) and by arest (``bulk_load`` and the index
  of every role it loaded, ``bench_create._arest_load``);
* ``tc_dag``, ``tc_chain``, ``gp``: the edges of ``bench_derive.py``'s workloads, loaded by the
  hand loop (the baseline: its successor dict) and by arest (compile the readings,
  ``bulk_load`` the edges, index the roles the derivation probes in the relations it keeps,
  ``derive_arest.arest_load``); beside it, this tree's arest loading the edges into readings
  compiled before the clock starts (``arest_load_into``, as a tenant over kept compiled
  readings would: the column "after, compiled before"), never in place of it.

arest's modules are imported before the clock starts (as the peers' are); the first
compile in a process, inside the derivation loads, still reads the shipped metamodel.
CPU seconds of the process (``time.process_time``), which other processes on a loaded
machine skew far less than wall time; the median of the rounds.  The tree is chosen by
``PYTHONPATH`` in the child: run ``python benchmarks/bench_load.py --before <checkout>`` to
compare a checkout of an earlier tree against this one (the benchmark code is this tree's
for both; with ``--each-own-load``, each tree loads as its own ``benchmarks/`` defines the
load, for when the definition changed: which indexes a load builds).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LOADS = {
    "create": (1_000_000, 100_000),
    "tc_dag": (100_000, 10_000),
    "tc_chain": (100_000, 10_000),
    "gp": (1_000_000, 100_000),
}
BASELINES = {"create": "SQLite"}
DERIVATION_LOADS = ("tc_dag", "tc_chain", "gp")

_CHILD = """
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
load, size, engine = sys.argv[2], int(sys.argv[3]), sys.argv[4]
if load == "create":
    import bench_create as b
    kind = b.candidate(engine)
    people = b.population(size, 1)
    empty = kind.empty()
    def run(): return kind.load(empty, people)
elif engine == "arest-compiled":
    import bench_derive as d, derive_arest as a
    chosen = d.WORKLOADS[load]
    edges = chosen.generate(size)
    readings = a.arest_readings(chosen.query)
    def run(): return a.arest_load_into(chosen.query, readings, edges)
else:
    import bench_derive as d
    chosen = d.WORKLOADS[load]
    edges = chosen.generate(size)
    peer = d.ENGINES[engine][chosen.query]
    def run(): return peer.load(edges)
import arest.api, arest.testing  # the modules: imported before the clock starts, as the peers' are
gc.collect()
start = time.process_time()
loaded = run()
print(json.dumps({"cpu_s": time.process_time() - start, "arest": arest.api.__file__}))
"""


def measure(tree: Path, load: str, size: int, engine: str, code: Path = HERE) -> float:
    """CPU seconds of one load in a fresh interpreter whose ``arest`` is ``tree``'s, the load
    as the benchmarks in ``code`` define it."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory() as folder:  # not the repository: '' must not find arest
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(code), load, str(size), engine],
            env=env, cwd=folder, check=True, capture_output=True, text=True,
        )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if not result["arest"].startswith(str(tree)):
        raise RuntimeError(f"the child imported {result['arest']}, not {tree}'s arest")
    return float(result["cpu_s"])


def run(before: Path, after: Path, rounds: int, loads: Sequence[str],
        each_own_load: bool = False) -> list[dict[str, Any]]:
    """Every load at its sizes: the baseline and arest of each tree, ``rounds`` times each
    (with each_own_load, the before tree's arest loads as its own benchmarks define it)."""
    before_code = before / "benchmarks" if each_own_load else HERE
    rows = []
    for load in loads:
        for size in LOADS[load]:
            baseline = BASELINES.get(load, "hand")
            samples: dict[str, list[float]] = {"baseline": [], "before": [], "after": []}
            if load in DERIVATION_LOADS:
                samples["compiled"] = []
            for number in range(rounds):
                print(f"  [{load}, n = {size:,}] round {number + 1}", file=sys.stderr, flush=True)
                samples["baseline"].append(measure(after, load, size, baseline))
                samples["before"].append(measure(before, load, size, "arest", before_code))
                samples["after"].append(measure(after, load, size, "arest"))
                if "compiled" in samples:
                    samples["compiled"].append(measure(after, load, size, "arest-compiled"))
            medians = {key: statistics.median(values) for key, values in samples.items()}
            rows.append({"load": load, "size": size, "baseline_name": baseline, **medians})
    return rows


def report(rows: Sequence[dict[str, Any]], rounds: int) -> str:
    """A Markdown table: CPU seconds and ratios to the baseline, before and after; and,
    for the derivation loads, after with the readings compiled before the clock (its own
    columns: the load without the compile it otherwise begins with)."""
    lines = [
        f"CPU seconds, median of {rounds} rounds, each load in a fresh process",
        "",
        "| load | n | baseline | baseline s | arest before s | × baseline | arest after s "
        "| × baseline | after ÷ before | after, compiled before s | × baseline |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        base = row["baseline"]
        compiled = row.get("compiled")
        kept = "| – | – |" if compiled is None else f"| {compiled:.3f} | {compiled / base:.2f}× |"
        lines.append(
            f"| {row['load']} | {row['size']:,} | {row['baseline_name']} | {base:.3f} "
            f"| {row['before']:.3f} | {row['before'] / base:.2f}× | {row['after']:.3f} "
            f"| {row['after'] / base:.2f}× | {row['after'] / row['before']:.2f}× {kept}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, measure, print the table (and keep the raw rows with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the tree before")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--loads", default=",".join(LOADS), help="comma-separated subset")
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    parser.add_argument("--each-own-load", action="store_true",
                        help="the before tree loads as its own benchmarks/ define the load")
    options = parser.parse_args(argv)
    loads = [name.strip() for name in options.loads.split(",")]
    rows = run(options.before.resolve(), HERE.parent, options.rounds, loads,
               options.each_own_load)
    if options.json is not None:
        options.json.write_text(json.dumps(rows, indent=2))
    print(report(rows, options.rounds))


if __name__ == "__main__":
    main()
