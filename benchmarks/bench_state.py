"""State store benchmark: which persistent map should hold D and its cells.

Candidates, each measured in its own process (``harness.run_isolated``):

* ``dict``: a plain mutable dict, the baseline every ratio is taken against.  It cannot keep
  an old state, so a retained snapshot is ``dict.copy()``.
* ``cow-dict``: copy-on-write dict, every update copies the whole dict.  Its update and create
  counts are scaled down and reported per operation.
* ``immutables``: ``immutables.Map`` (C HAMT), ``mutate()`` for batches.
* ``pyrsistent``: ``pyrsistent.PMap``, ``evolver()`` for batches.

Cases, with fixed seeds:

1. build a map of ``size`` entries ``i -> (i, i + 1)``, one ``set`` at a time and in bulk;
2. single-key updates on random existing keys of the full map: mean, median, p99 per op;
3. random lookups: ns per op;
4. memory kept by snapshots (tracemalloc): 1000 updates, every 10th version retained;
5. the budget case: "create" commands over a nested D of 50 cells (one of ``size`` fact ids,
   49 of 1000), each writing 20 entries in the big cell and three small ones and re-setting
   the changed cells in D.  Budget: median < 250 µs, p99 < 2 ms at |P| = 1e6.

Cases 2 and 5 run under two garbage-collector settings, each in a fresh process: ``default``
(CPython's thresholds) and ``tuned`` (``gc.freeze()`` after the build and a generation-0
threshold of 50,000).  Only this benchmark process tunes its GC; library code never does.

Run ``python benchmarks/bench_state.py`` (about 5 minutes on 2 cores) or add ``--quick``
for a smoke run about 100 times smaller.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from harness import (
    Column,
    format_table,
    interpreter_facts,
    publish,
    run_isolated,
    summarize,
    time_fold,
    time_total_ns,
    timer_overhead_ns,
)

BASELINE = "dict"
LIBRARIES = ("dict", "cow-dict", "immutables", "pyrsistent")
GC_SETTINGS = ("default", "tuned")
TUNED_GEN0_THRESHOLD = 50_000
DEFAULT_GC_THRESHOLDS = gc.get_threshold()

BIG_CELL = "cell00"
BIG_NEW_FACTS = 10
BIG_REWRITES = 4
SMALL_CELLS_TOUCHED = 3
SMALL_REWRITES_EACH = 2
ENTRIES_PER_CREATE = BIG_NEW_FACTS + BIG_REWRITES + SMALL_CELLS_TOUCHED * SMALL_REWRITES_EACH
BUDGET_MEDIAN_US = 250.0
BUDGET_P99_US = 2_000.0

Item = tuple[Any, Any]
Command = tuple[tuple[str, tuple[Item, ...]], ...]


@dataclass(frozen=True)
class Plan:
    """How much work each case does.  ``cow_*`` counts apply to the copy-on-write dict."""

    size: int = 1_000_000
    updates: int = 100_000
    lookups: int = 1_000_000
    memory_updates: int = 1_000
    keep_every: int = 10
    commands: int = 10_000
    cells: int = 50
    small_cell_size: int = 1_000
    cow_updates: int = 200
    cow_memory_updates: int = 50
    cow_commands: int = 200
    seed: int = 1

    def quick(self) -> Plan:
        """The same plan about 100 times smaller, for a smoke run."""
        return replace(
            self,
            size=self.size // 100,
            updates=self.updates // 100,
            lookups=self.lookups // 100,
            memory_updates=self.memory_updates // 10,
            commands=self.commands // 100,
            small_cell_size=self.small_cell_size // 10,
            cow_updates=self.cow_updates // 10,
            cow_memory_updates=self.cow_memory_updates // 5,
            cow_commands=self.cow_commands // 10,
        )


@dataclass(frozen=True)
class MapKind:
    """One candidate store, as the five operations the cases need."""

    name: str
    set_item: Callable[[Any, Item], Any]
    batch_set: Callable[[Any, Iterable[Item]], Any]
    bulk: Callable[[Iterable[Item]], Any]
    snapshot: Callable[[Any], Any]
    copies_on_write: bool = False

    def create(self, state: Any, command: Command) -> Any:
        """D with each touched cell batch-updated, and those cells re-set in D in one batch."""
        changed = [(cell, self.batch_set(state[cell], items)) for cell, items in command]
        return self.batch_set(state, changed)


def _dict_set(d: dict[Any, Any], item: Item) -> dict[Any, Any]:
    d[item[0]] = item[1]
    return d


def _dict_batch(d: dict[Any, Any], items: Iterable[Item]) -> dict[Any, Any]:
    d.update(items)
    return d


def _cow_set(d: dict[Any, Any], item: Item) -> dict[Any, Any]:
    copy = d.copy()
    copy[item[0]] = item[1]
    return copy


def _cow_batch(d: dict[Any, Any], items: Iterable[Item]) -> dict[Any, Any]:
    copy = d.copy()
    copy.update(items)
    return copy


def _same(value: Any) -> Any:
    return value


def _hamt_set(m: Any, item: Item) -> Any:
    return m.set(item[0], item[1])


def _hamt_batch(m: Any, items: Iterable[Item]) -> Any:
    with m.mutate() as batch:
        for key, value in items:
            batch[key] = value
        return batch.finish()


def _pmap_batch(m: Any, items: Iterable[Item]) -> Any:
    evolver = m.evolver()
    for key, value in items:
        evolver[key] = value
    return evolver.persistent()


def map_kind(library: str) -> MapKind:
    """The candidate called ``library``; its module is imported only in the process measuring it."""
    if library == "dict":
        return MapKind("dict", _dict_set, _dict_batch, dict, dict.copy)
    if library == "cow-dict":
        return MapKind("cow-dict", _cow_set, _cow_batch, dict, _same, copies_on_write=True)
    if library == "immutables":
        from immutables import Map

        return MapKind(
            "immutables", _hamt_set, _hamt_batch, lambda items: _hamt_batch(Map(), items), _same
        )
    if library == "pyrsistent":
        from pyrsistent import pmap

        return MapKind(
            "pyrsistent", _hamt_set, _pmap_batch, lambda items: _pmap_batch(pmap(), items), _same
        )
    raise ValueError(f"unknown library {library!r}; expected one of {', '.join(LIBRARIES)}")


def settle_gc(setting: str) -> None:
    """Collect after a build; under ``tuned``, also freeze the built heap and raise gen 0."""
    gc.collect()
    if setting == "tuned":
        gc.freeze()
        gc.set_threshold(TUNED_GEN0_THRESHOLD, *DEFAULT_GC_THRESHOLDS[1:])


def restore_gc() -> None:
    """Undo ``settle_gc``: unfreeze and restore the default thresholds."""
    gc.unfreeze()
    gc.set_threshold(*DEFAULT_GC_THRESHOLDS)
    gc.collect()


def _log(library: str, setting: str, message: str) -> None:
    print(f"  [{library}, gc {setting}] {message}", file=sys.stderr, flush=True)


def case_build(kind: MapKind, items: Sequence[Item]) -> dict[str, float | None]:
    """Seconds to build the map one ``set`` at a time and in one batch."""

    def incremental() -> None:
        m = kind.bulk(())
        for item in items:
            m = kind.set_item(m, item)

    gc.collect()
    # Each insert into a copy-on-write dict copies it: O(n²), not measurable at this size.
    incremental_ns = None if kind.copies_on_write else time_total_ns(incremental)
    gc.collect()
    bulk_ns = time_total_ns(lambda: kind.bulk(items))
    return {
        "incremental_s": None if incremental_ns is None else incremental_ns / 1e9,
        "bulk_s": bulk_ns / 1e9,
    }


def case_lookups(m: Any, keys: Sequence[Any]) -> float:
    """Mean ns per ``m[key]`` over ``keys``."""

    def look_up_all() -> None:
        get = m.__getitem__
        for key in keys:
            get(key)

    return time_total_ns(look_up_all) / len(keys)


def case_updates(kind: MapKind, m: Any, items: Sequence[Item], setting: str) -> dict[str, float]:
    """Per-op timings of single-key updates folded over the full map."""
    settle_gc(setting)
    try:
        _, samples = time_fold(kind.set_item, m, items)
    finally:
        restore_gc()
    return summarize(samples).as_dict()


def case_memory(kind: MapKind, m: Any, items: Sequence[Item], keep_every: int) -> dict[str, float]:
    """Bytes kept by retaining every ``keep_every``-th version while applying ``items``."""
    base = m
    kept = []
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for index, item in enumerate(items, start=1):
        m = kind.set_item(m, item)
        if index % keep_every == 0:
            kept.append(kind.snapshot(m))
    del m
    gc.collect()
    kept_bytes = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert base is not None and len(kept) == len(items) // keep_every
    return {
        "updates": len(items),
        "versions": len(kept),
        "bytes_per_update": kept_bytes / len(items),
        "bytes_per_version": kept_bytes / len(kept),
    }


def nested_state_items(plan: Plan) -> dict[str, list[Item]]:
    """Cell name -> its entries: one cell of ``plan.size`` fact ids, the rest small."""
    cells = {BIG_CELL: [(f"f{i:08d}", (i, i + 1)) for i in range(plan.size)]}
    for number in range(1, plan.cells):
        cells[f"cell{number:02d}"] = [
            (f"f{i:08d}", (i, number)) for i in range(plan.small_cell_size)
        ]
    return cells


def create_commands(plan: Plan, count: int) -> list[Command]:
    """``count`` creates: new facts and rewrites in the big cell, rewrites in three small ones."""
    rng = random.Random(plan.seed + 5)
    small_cells = [f"cell{number:02d}" for number in range(1, plan.cells)]
    next_id = plan.size
    commands: list[Command] = []
    for _ in range(count):
        big: list[Item] = []
        for _ in range(BIG_NEW_FACTS):
            big.append((f"f{next_id:08d}", (next_id, next_id + 1)))
            next_id += 1
        for _ in range(BIG_REWRITES):
            i = rng.randrange(plan.size)
            big.append((f"f{i:08d}", (i, next_id)))
        touched: list[tuple[str, tuple[Item, ...]]] = [(BIG_CELL, tuple(big))]
        for cell in rng.sample(small_cells, SMALL_CELLS_TOUCHED):
            rows = [rng.randrange(plan.small_cell_size) for _ in range(SMALL_REWRITES_EACH)]
            touched.append((cell, tuple((f"f{i:08d}", (i, next_id)) for i in rows)))
        commands.append(tuple(touched))
    return commands


def case_create(kind: MapKind, plan: Plan, setting: str) -> dict[str, float]:
    """Per-command timings of ``kind.create`` over the nested D."""
    count = plan.cow_commands if kind.copies_on_write else plan.commands
    commands = create_commands(plan, count)
    cells = nested_state_items(plan)
    state = kind.bulk((name, kind.bulk(items)) for name, items in cells.items())
    del cells
    settle_gc(setting)
    try:
        _, samples = time_fold(kind.create, state, commands)
    finally:
        restore_gc()
    return summarize(samples).as_dict()


def measure(library: str, setting: str, plan: dict[str, int]) -> dict[str, Any]:
    """Every case for one library under one GC setting; run in a fresh process by ``main``.

    Builds, lookups and memory are measured under the default GC only.
    """
    p = Plan(**plan)
    kind = map_kind(library)
    rng = random.Random(p.seed)
    items = [(i, (i, i + 1)) for i in range(p.size)]
    result: dict[str, Any] = {"library": library, "gc": setting}
    if setting == "default":
        _log(library, setting, "build")
        result["build"] = case_build(kind, items)
    m = kind.bulk(items)
    del items
    updates = p.cow_updates if kind.copies_on_write else p.updates
    rewrites = [(k, (k, -k)) for k in (rng.randrange(p.size) for _ in range(updates))]
    if setting == "default":
        _log(library, setting, "lookups")
        keys = [rng.randrange(p.size) for _ in range(p.lookups)]
        result["lookup_ns"] = case_lookups(m, keys)
        del keys
    _log(library, setting, f"{len(rewrites):,} updates")
    result["updates"] = case_updates(kind, m, rewrites, setting)
    if setting == "default":
        _log(library, setting, "memory")
        count = p.cow_memory_updates if kind.copies_on_write else p.memory_updates
        result["memory"] = case_memory(kind, m, rewrites[:count], p.keep_every)
    del m, rewrites
    gc.collect()
    _log(library, setting, "create")
    result["create"] = case_create(kind, p, setting)
    result["timer_floor_ns"] = timer_overhead_ns()
    return result


def machine_facts() -> dict[str, str]:
    """Interpreter, cores and library versions of this run."""
    versions = {name: metadata.version(name) for name in ("immutables", "pyrsistent")}
    return {
        **interpreter_facts(),
        "gc thresholds": f"default {DEFAULT_GC_THRESHOLDS}, tuned: gc.freeze() after the build "
        f"and gen 0 at {TUNED_GEN0_THRESHOLD:,}",
        **{name: version for name, version in versions.items()},
    }


def report(results: list[dict[str, Any]], plan: Plan) -> str:
    """The Markdown tables for every case, ratios against the mutable dict."""
    by = {(r["library"], r["gc"]): r for r in results}
    libraries = [lib for lib in LIBRARIES if (lib, "default") in by]
    settings = [s for s in GC_SETTINGS if any((lib, s) in by for lib in libraries)]
    us = "{:,.2f}"
    out: list[str] = []

    out.append(f"**1. Build {plan.size:,} entries `int -> (i, i+1)`** (default GC), seconds\n")
    rows: dict[str, dict[str, float | str | None]] = {
        lib: dict(by[(lib, "default")]["build"]) for lib in libraries
    }
    columns = [
        Column("incremental_s", "one `set` at a time", "{:,.3f}"),
        Column("bulk_s", "bulk (`dict()` / `mutate()` / `evolver()`)", "{:,.3f}"),
    ]
    out.append(format_table(rows, columns, BASELINE) + "\n")

    for setting in settings:
        rows = {}
        for lib in libraries:
            s = by[(lib, setting)]["updates"]
            rows[lib] = {
                "mean": s["mean_ns"] / 1e3,
                "median": s["median_ns"] / 1e3,
                "p99": s["p99_ns"] / 1e3,
                "max": s["max_ns"] / 1e3,
                "ops": f"{s['count']:,}",
            }
        out.append(
            f"**2. Single-key updates on the {plan.size:,}-entry map, GC {setting}**, µs per op\n"
        )
        columns = [
            Column("mean", "mean", us),
            Column("median", "median", us),
            Column("p99", "p99", us),
            Column("max", "max", "{:,.0f}", ratio=False),
            Column("ops", "ops timed", ratio=False),
        ]
        out.append(format_table(rows, columns, BASELINE) + "\n")

    rows = {lib: {"ns": by[(lib, "default")]["lookup_ns"]} for lib in libraries}
    out.append(f"**3. {plan.lookups:,} random lookups `m[k]`** (default GC), ns per op\n")
    out.append(format_table(rows, [Column("ns", "ns/op", "{:,.0f}")], BASELINE) + "\n")

    rows = {}
    for lib in libraries:
        m = by[(lib, "default")]["memory"]
        rows[lib] = {
            "update": m["bytes_per_update"],
            "version": m["bytes_per_version"] / 1024,
            "kept": f"{m['versions']} of {m['updates']:,}",
        }
    out.append(
        f"**4. Memory kept by snapshots** (tracemalloc; every {plan.keep_every}th version "
        "retained; a dict snapshot is `dict.copy()`)\n"
    )
    columns = [
        Column("update", "bytes per update", "{:,.0f}"),
        Column("version", "KiB per retained version", "{:,.1f}"),
        Column("kept", "versions kept of updates", ratio=False),
    ]
    out.append(format_table(rows, columns, BASELINE) + "\n")

    for setting in settings:
        rows = {}
        for lib in libraries:
            s = by[(lib, setting)]["create"]
            median, p99 = s["median_ns"] / 1e3, s["p99_ns"] / 1e3
            within = median < BUDGET_MEDIAN_US and p99 < BUDGET_P99_US
            rows[lib] = {
                "median": median,
                "p99": p99,
                "mean": s["mean_ns"] / 1e3,
                "max": s["max_ns"] / 1e3,
                "commands": f"{s['count']:,}",
                "budget": "yes" if within else "**no**",
            }
        out.append(
            f"**5. Create: {ENTRIES_PER_CREATE} entries over a nested D "
            f"({plan.cells} cells, one of {plan.size:,} fact ids), GC {setting}**, µs per command\n"
        )
        columns = [
            Column("median", "median", us),
            Column("p99", "p99", us),
            Column("mean", "mean", us),
            Column("max", "max", "{:,.0f}", ratio=False),
            Column("commands", "commands", ratio=False),
            Column("budget", "median < 250 µs and p99 < 2 ms", ratio=False),
        ]
        out.append(format_table(rows, columns, BASELINE) + "\n")
    floor = max(r["timer_floor_ns"] for r in results)
    out.append(f"Timing floor (clock reading plus call, per op): ≤ {floor:,.0f} ns.")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, measure each library and GC setting in its own process, print tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=None, help="entries (default 1,000,000)")
    parser.add_argument("--quick", action="store_true", help="about 100x less work: smoke run")
    parser.add_argument(
        "--libraries", default=",".join(LIBRARIES), help="comma-separated subset of candidates"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    parser.add_argument(
        "--from-json",
        type=Path,
        default=None,
        help="print the tables of a saved run, measure nothing",
    )
    options = parser.parse_args(argv)
    if options.from_json is not None:
        saved = json.loads(options.from_json.read_text())
        print("\n".join(f"- {key}: {value}" for key, value in saved["machine"].items()))
        print()
        print(report(saved["results"], Plan(**saved["plan"])))
        return
    plan = Plan().quick() if options.quick else Plan()
    if options.size is not None:
        plan = replace(plan, size=options.size)
    libraries = [name.strip() for name in options.libraries.split(",")]
    for name in libraries:
        map_kind(name)

    facts = machine_facts()
    print("\n".join(f"- {key}: {value}" for key, value in facts.items()), file=sys.stderr)
    results = []
    for library in libraries:
        for setting in GC_SETTINGS:
            print(f"{library}, gc {setting}", file=sys.stderr, flush=True)
            results.append(
                run_isolated(
                    Path(__file__),
                    "measure",
                    {"library": library, "setting": setting, "plan": asdict(plan)},
                )
            )
    publish(facts, asdict(plan), results, report(results, plan), options.json)


if __name__ == "__main__":
    main()
