"""Memory benchmark: bytes held per fact by arest, SQLite in memory and a hand-written dict
store, each loaded with the same population of ``readings/orders`` (bench_create's).

Each candidate, size and way of measuring runs in its own fresh process
(``harness.run_isolated``):

* ``RSS``: the process's resident set (``VmRSS`` of ``/proc/self/status``) once the store
  is loaded and the population it was loaded from is dropped, less the resident set before
  the population was made; and the peak (``ru_maxrss``) less the same, which includes the
  population and whatever the load built and dropped.  This is what the machine pays,
  allocator slack and fragmentation included.
* ``traced``: the bytes ``tracemalloc`` sees held, counted the same way.  Python's
  allocator only: SQLite's own pages are not traced (its row gives the database's
  ``page_count × page_size`` instead).

Candidates:

* ``dict``: bench_create's ``DictStore``: one dict per fact type keyed by the role its
  uniqueness spans, a line item's three facts one tuple (order, product, int quantity).
  The baseline of every ratio.
* ``SQLite``: bench_create's tables in ``sqlite3`` ``:memory:``, with their keys.
* ``arest``: ``arest.testing.bulk_load`` into ``arest.load("readings/orders")``, with the
  index of every role of every loaded cell built (as bench_create loads it, and as the
  first creates would build them).

For arest, ``--breakdown`` groups the traced bytes by the line that allocated them (a
``tracemalloc`` snapshot after the load, compared with one before the population was made)
and by what they are: the base dicts, their role indexes, the overlay's persistent maps, the
fact tuples and the strings of the atoms.

Run ``python benchmarks/bench_memory.py`` (|P| 1e4, 1e5 and 1e6, about twelve minutes on 2
cores), ``--quick`` for a smoke run (|P| up to 1e4), ``--sizes 1000000 --breakdown`` for the
breakdown at 10⁶ facts.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import resource
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bench_create
from harness import Column, format_table, interpreter_facts, publish, run_isolated

SIZES = (10_000, 100_000, 1_000_000)
QUICK_SIZES = (1_000, 10_000)
CANDIDATES = ("dict", "SQLite", "arest")
BASELINE = "dict"
WAYS = ("rss", "traced")
BUDGET_TIMES_DICT = 5.0
"""The bound asked of arest: its traced bytes per fact within this many times the dict's."""
SEED = 1


@dataclass(frozen=True)
class Store:
    """How to make one candidate's empty store and load a population into it."""

    empty: Callable[[], Any]
    load: Callable[[Any, bench_create.Population], Any]


def store(name: str) -> Store:
    """The candidate called ``name`` (``dict``, ``SQLite`` or ``arest``).

    >>> store("dict").empty().customer_name
    {}
    """
    stores = {
        "dict": Store(bench_create._dict_empty, bench_create._dict_load),
        "SQLite": Store(bench_create._sqlite_empty, bench_create._sqlite_load),
        "arest": Store(bench_create._arest_empty, bench_create._arest_load),
    }
    if name not in stores:
        raise SystemExit(f"unknown candidate {name!r}: one of {', '.join(stores)}")
    return stores[name]


def resident_bytes() -> int:
    """The process's resident set now, in bytes (Linux's ``/proc/self/status``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status: the RSS figures need Linux")


def peak_resident_bytes() -> int:
    """The most the process ever held resident, in bytes (Linux reports ``ru_maxrss`` in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def sqlite_pages(state: Any) -> int | None:
    """The bytes of an SQLite store's database pages (None for any other store)."""
    if not isinstance(state, bench_create.SQLiteStore):
        return None
    connection = state.connection
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    return int(pages * connection.execute("PRAGMA page_size").fetchone()[0])


def _lines_of(function: Any) -> range:
    lines, first = inspect.getsourcelines(function)
    return range(first, first + len(lines))


def kind_of(filename: str, lineno: int) -> str:
    """What the bytes a line allocated are, by the file and function that allocated them.

    >>> kind_of("/x/arest/algebra/relations.py", 205)
    'base dicts (fact → payload)'
    """
    from arest.algebra.layers import Base

    parts = Path(filename).parts
    name = parts[-1] if parts else filename
    if name == "layers.py" and lineno in _lines_of(Base.index):
        return "role indexes of the base (value → facts)"
    if name in ("layers.py", "persistent.py") or "immutables" in parts:
        return "overlay: persistent maps (value → {fact: payload})"
    if name == "relations.py":
        return "base dicts (fact → payload)"
    if name == "bench_create.py":
        return "atoms and fact tuples (the population's, kept)"
    if name == "__init__.py" and "testing" in parts:
        return "entity populations' 1-tuples (bulk load)"
    return "other"


def breakdown(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, facts: int,
              top: int = 12) -> dict[str, Any]:
    """The traced bytes ``after`` holds beyond ``before``: per kind (:func:`kind_of`) and the
    ``top`` lines that allocated most, each with its bytes per fact."""
    kinds: dict[str, int] = {}
    lines: list[dict[str, Any]] = []
    for stat in after.compare_to(before, "lineno"):
        if stat.size_diff <= 0:
            continue
        frame = stat.traceback[0]
        kind = kind_of(frame.filename, frame.lineno)
        kinds[kind] = kinds.get(kind, 0) + stat.size_diff
        lines.append({"line": f"{'/'.join(Path(frame.filename).parts[-3:])}:{frame.lineno}",
                      "kind": kind, "bytes_per_fact": stat.size_diff / facts,
                      "blocks": stat.count_diff})
    lines.sort(key=lambda line: -line["bytes_per_fact"])
    return {"kinds": {kind: size / facts for kind, size in
                      sorted(kinds.items(), key=lambda item: -item[1])},
            "lines": lines[:top]}


def measure(name: str, size: int, way: str, detail: bool = False) -> dict[str, Any]:
    """One candidate's bytes per fact at |P| = size, measured ``way`` (``rss`` or ``traced``);
    run by ``main`` in a fresh process."""
    kind = store(name)
    empty = kind.empty()
    gc.collect()
    if way == "traced":
        tracemalloc.start()
    before_rss = resident_bytes()
    before_traced = tracemalloc.get_traced_memory()[0] if way == "traced" else 0
    before = tracemalloc.take_snapshot() if detail and way == "traced" else None
    print(f"  [{name}, |P| {size:,}, {way}] load", file=sys.stderr, flush=True)
    people = bench_create.population(size, SEED)
    state = kind.load(empty, people)
    del people
    gc.collect()
    held_rss = resident_bytes() - before_rss
    result: dict[str, Any] = {"candidate": name, "size": size, "way": way,
                              "pages_per_fact": None}
    if way == "rss":
        result["held_per_fact"] = held_rss / size
        result["peak_per_fact"] = (peak_resident_bytes() - before_rss) / size
    else:
        result["held_per_fact"] = (tracemalloc.get_traced_memory()[0] - before_traced) / size
        result["peak_per_fact"] = (tracemalloc.get_traced_memory()[1] - before_traced) / size
        if before is not None:
            result["breakdown"] = breakdown(before, tracemalloc.take_snapshot(), size)
        tracemalloc.stop()
    pages = sqlite_pages(state)
    if pages is not None:
        result["pages_per_fact"] = pages / size
    return result


def report(results: Sequence[dict[str, Any]], sizes: Sequence[int]) -> str:
    """One table per size (bytes per fact against the dict store), then arest's breakdowns."""
    out: list[str] = []
    by = {(r["candidate"], r["size"], r["way"]): r for r in results}
    columns = [Column("traced", "traced B/fact", "{:,.0f}"),
               Column("rss", "RSS B/fact", "{:,.0f}"),
               Column("peak", "peak RSS B/fact", "{:,.0f}"),
               Column("pages", "SQLite pages B/fact", "{:,.0f}", ratio=False)]
    for size in sizes:
        rows: dict[str, dict[str, float | str | None]] = {}
        for name in CANDIDATES:
            traced, rss = by.get((name, size, "traced")), by.get((name, size, "rss"))
            if traced is None and rss is None:
                continue
            rows[name] = {
                "traced": traced["held_per_fact"] if traced and name != "SQLite" else None,
                "rss": rss["held_per_fact"] if rss else None,
                "peak": rss["peak_per_fact"] if rss else None,
                "pages": (rss or traced or {}).get("pages_per_fact"),
            }
        out += [f"|P| = {size:,} facts", "", format_table(rows, columns, BASELINE), ""]
        arest, hand = by.get(("arest", size, "traced")), by.get(("dict", size, "traced"))
        if arest and hand:
            ratio = arest["held_per_fact"] / hand["held_per_fact"]
            verdict = "within" if ratio <= BUDGET_TIMES_DICT else "NOT within"
            out += [f"arest traced / dict traced = {ratio:.2f}×: {verdict} "
                    f"{BUDGET_TIMES_DICT:g}×", ""]
    for result in results:
        if "breakdown" not in result:
            continue
        detail = result["breakdown"]
        out += [f"arest at |P| = {result['size']:,}, traced bytes per fact by kind:", ""]
        out += [f"- {kind}: {per:,.1f}" for kind, per in detail["kinds"].items()]
        out += ["", "the lines that allocated most:", ""]
        out += [f"- {line['line']} ({line['kind']}): {line['bytes_per_fact']:,.1f} B/fact, "
                f"{line['blocks']:,} blocks" for line in detail["lines"]]
        out.append("")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, measure each size, way and candidate in its own process, print."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="|P| up to 1e4 only: smoke run")
    parser.add_argument("--sizes", default=None, help="comma-separated |P| values")
    parser.add_argument("--candidates", default=",".join(CANDIDATES),
                        help="comma-separated subset")
    parser.add_argument("--breakdown", action="store_true",
                        help="group arest's traced bytes by the line that allocated them")
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    options = parser.parse_args(argv)
    sizes = QUICK_SIZES if options.quick else SIZES
    if options.sizes is not None:
        sizes = tuple(int(s) for s in options.sizes.split(","))
    names = [name.strip() for name in options.candidates.split(",")]
    for name in names:
        store(name)
    facts = interpreter_facts()
    results = []
    for size in sizes:
        for way in WAYS:
            for name in names:
                arguments = {"name": name, "size": size, "way": way,
                             "detail": options.breakdown and name == "arest"}
                results.append(run_isolated(Path(__file__), "measure", arguments))
    plan = {"sizes": list(sizes), "candidates": names, "seed": SEED}
    publish(facts, plan, results, report(results, sizes), options.json)


if __name__ == "__main__":
    main()
