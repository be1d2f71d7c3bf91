"""Derivation benchmark: transitive closure and grandparents, by hand and by three engines.

Workloads (``derive_workloads.py``; identical facts for every engine, fixed seeds):

- ``tc_dag``: the transitive closure of Region contains Region, a random recursive DAG with
  about 10% of regions in a second container; n = 1e3, 1e4, 1e5 edges;
- ``tc_chain``: the transitive closure of disjoint chains of 50 edges (n·51/2 facts);
  n = 1e3, 1e4, 1e5;
- ``gp``: grandparent pairs over Person is parent of Person, a random forest with 1% roots;
  n = 1e4, 1e5, 1e6 facts.

Engines (``ENGINES``; each answers each query in three separately timed steps, load, derive
and read back):

- ``hand``, the baseline of every ratio: plain Python.  Load builds the successor dict;
  derive runs a semi-naive loop (closure set, delta list) for tc and a join through the
  successor dict for gp.
- ``sqlite``: the standard library's SQLite in memory.  The edge table is keyed on both
  columns (``WITHOUT ROWID``, so the key is the covering index the join searches), temporary
  structures stay in memory; derive is ``CREATE TABLE answer AS`` a ``WITH RECURSIVE … UNION``
  query for tc (``UNION`` keeps each fact once, which also ends the recursion on the DAG) or
  a ``SELECT DISTINCT`` self-join for gp.
- ``duckdb``: the same SQL on one thread (``SET threads=1``), with no index: DuckDB joins by
  hashing and does not use an ART index for a join.  Edges are loaded with one ``INSERT …
  SELECT unnest($1), unnest($2)`` of two lists.
- ``arest-unindexed``: arest's load, then ``derive_all(D, indexed=False)``: the same facts
  and supports, with the indexes a later command's plans probe left to be built when first
  probed, as no peer's derive builds an index of its answer (``arest``'s derive builds them,
  so that the first command after it does not pause).
- ``arest+duckdb``: arest's load, then ``derive_all`` with every stratum evaluated by
  ``arest.compiler.duckdb_eval`` (the rules' plans as SQL, semi-naive rounds in DuckDB on one
  thread): its derive includes sending the relations to DuckDB and reading the derived facts
  and their supports back into D.
- ``clingo``: ``tc(X,Y) :- e(X,Y). tc(X,Z) :- tc(X,Y), e(Y,Z).`` or ``gp(X,Z) :- e(X,Y),
  e(Y,Z).``.  Load adds one program of facts ``e("a","b").`` and grounds it (faster than the
  backend API: 0.46 s against 0.75 s for 1e5 edges); derive grounds the rules and solves.
  Reading back formats the model as text and parses it, because reading symbols one by one
  through the API costs about 11 µs each.

Every engine runs in its own fresh process (``harness.run_isolated``) per workload and size.
Sizes up to ``--repeat-up-to`` are run ``--repeats`` times and the medians kept; larger
sizes run once.  Every engine's answer must agree with ``hand``'s at every size (number of
facts and SHA-256 of the sorted pairs), or the run stops with ``Disagreement``.

Incremental: for ``hand``, the closure of ``tc_dag`` at the largest size is kept as
descendant and ancestor sets, and the edges of ``new_edges`` are added one at a time; each
addition derives (ancestors(a) ∪ {a}) × (descendants(b) ∪ {b}) minus the facts already
there.  Reported: the median and p99 per edge, the median number of new facts, and the ratio
to a full recompute.  After the last edge the closure is checked against a full recompute.
For arest, each edge is an ``assert`` command on D after ``derive_all``, the first command
included, with the largest delta and the p99 of time per fact of delta.

    python benchmarks/bench_derive.py                  # every workload at full size
    python benchmarks/bench_derive.py --quick          # the two smallest sizes: a smoke run
    python benchmarks/bench_derive.py --workloads tc_dag,gp --engines hand,duckdb
    python benchmarks/bench_derive.py --sizes 1000,100000 --json run.json
    python benchmarks/bench_derive.py --from-json run.json
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import re
import resource
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from importlib import metadata, util
from itertools import pairwise
from pathlib import Path
from typing import Any

from derive_arest import (
    arest_adding,
    arest_derive,
    arest_derive_unindexed,
    arest_duckdb_derive,
    arest_export,
    arest_load,
)
from derive_workloads import Edge, gp, new_edges, tc_chain, tc_dag
from harness import (
    Column,
    format_ratio,
    format_table,
    interpreter_facts,
    publish,
    run_isolated,
    summarize,
)

BASELINE = "hand"
Answer = set[Edge]


class Disagreement(AssertionError):
    """Raised when an engine's answer differs from the baseline's on the same workload and
    size; the message names both answers' sizes and digests."""


# workloads -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Workload:
    """A query (``tc`` or ``gp``) over the facts ``generate(n)``, at ``sizes``."""

    name: str
    title: str
    query: str
    generate: Callable[[int], list[Edge]]
    sizes: tuple[int, ...]


WORKLOADS = {
    workload.name: workload
    for workload in (
        Workload(
            "tc_dag",
            "Transitive closure of Region contains Region, a random DAG",
            "tc",
            tc_dag,
            (1_000, 10_000, 100_000),
        ),
        Workload(
            "tc_chain",
            "Transitive closure of disjoint chains of 50 edges",
            "tc",
            tc_chain,
            (1_000, 10_000, 100_000),
        ),
        Workload(
            "gp",
            "Grandparents over Person is parent of Person, a random forest",
            "gp",
            gp,
            (10_000, 100_000, 1_000_000),
        ),
    )
}


# engines -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Peer:
    """One engine answering one query: ``load`` puts the edges into the engine, ``derive``
    computes the answer inside it, ``export`` reads the answer back as a set of pairs.  Each
    step takes what the previous one returned."""

    load: Callable[[list[Edge]], Any]
    derive: Callable[[Any], Any]
    export: Callable[[Any], Answer]

    def answer(self, edges: list[Edge]) -> Answer:
        """The query's answer over ``edges``, all three steps in a row."""
        return self.export(self.derive(self.load(edges)))


def successors(edges: list[Edge]) -> dict[str, list[str]]:
    """The successor index: each node → the nodes its edges point to.

    >>> successors([("a", "b"), ("a", "c"), ("b", "c")])
    {'a': ['b', 'c'], 'b': ['c']}
    """
    index: dict[str, list[str]] = {}
    for head, tail in edges:
        if head in index:
            index[head].append(tail)
        else:
            index[head] = [tail]
    return index


@dataclass(frozen=True)
class Indexed:
    """The edges and their successor index, as the hand-written engine holds them."""

    edges: list[Edge]
    successors: dict[str, list[str]]


def hand_load(edges: list[Edge]) -> Indexed:
    """Index the edges by their first node."""
    return Indexed(edges, successors(edges))


def hand_tc(facts: Indexed) -> Answer:
    """Semi-naive transitive closure: tc = e; Δ = e; repeat Δ' = {(x, z) : (x, y) ∈ Δ,
    (y, z) ∈ e} ∖ tc, tc = tc ∪ Δ' until Δ' = ∅.

    >>> sorted(hand_tc(hand_load([("a", "b"), ("b", "c"), ("c", "a")])))[:4]
    [('a', 'a'), ('a', 'b'), ('a', 'c'), ('b', 'a')]
    """
    closure = set(facts.edges)
    delta = list(closure)
    index = facts.successors
    while delta:
        found: list[Edge] = []
        for head, middle in delta:
            for tail in index.get(middle, ()):
                pair = (head, tail)
                if pair not in closure:
                    closure.add(pair)
                    found.append(pair)
        delta = found
    return closure


def hand_gp(facts: Indexed) -> Answer:
    """Grandparents: gp = {(x, z) : (x, y) ∈ e, (y, z) ∈ e}, joined through the successor dict.

    >>> hand_gp(hand_load([("a", "b"), ("b", "c"), ("b", "d")])) == {("a", "c"), ("a", "d")}
    True
    """
    index = facts.successors
    return {(head, tail) for head, middle in facts.edges for tail in index.get(middle, ())}


def same_answer(answer: Answer) -> Answer:
    """The answer as it is: the hand-written engine derives into a Python set."""
    return answer


TC_SQL = (
    "WITH RECURSIVE tc(a, b) AS "
    "(SELECT a, b FROM e UNION SELECT tc.a, e.b FROM tc JOIN e ON e.a = tc.b) "
    "SELECT a, b FROM tc"
)
GP_SQL = "SELECT DISTINCT p.a, c.b FROM e AS p JOIN e AS c ON c.a = p.b"
SQL = {"tc": TC_SQL, "gp": GP_SQL}


def sqlite_load(edges: list[Edge]) -> sqlite3.Connection:
    """An in-memory database holding the edges as ``e(a, b)``, keyed on both columns."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.execute("PRAGMA temp_store = MEMORY")
    connection.execute(
        "CREATE TABLE e (a TEXT NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID"
    )
    connection.execute("BEGIN")
    connection.executemany("INSERT OR IGNORE INTO e VALUES (?, ?)", edges)
    connection.execute("COMMIT")
    return connection


def sql_derive(query: str, connection: Any) -> Any:
    """Materialize ``query`` as the table ``answer`` inside the engine."""
    connection.execute(f"CREATE TABLE answer AS {query}")
    return connection


def sqlite_export(connection: sqlite3.Connection) -> Answer:
    """The rows of ``answer`` as pairs."""
    return set(connection.execute("SELECT a, b FROM answer"))


def duckdb_load(edges: list[Edge]) -> Any:
    """An in-memory DuckDB database on one thread, holding the edges as ``e(a, b)``."""
    import duckdb

    connection = duckdb.connect(":memory:")
    connection.execute("SET threads = 1")
    connection.execute("CREATE TABLE e (a VARCHAR NOT NULL, b VARCHAR NOT NULL)")
    heads = [head for head, _ in edges]
    tails = [tail for _, tail in edges]
    connection.execute("INSERT INTO e SELECT unnest($1), unnest($2)", [heads, tails])
    return connection


def duckdb_export(connection: Any) -> Answer:
    """The rows of ``answer`` as pairs."""
    return set(connection.execute("SELECT a, b FROM answer").fetchall())


TC_RULES = "tc(X,Y) :- e(X,Y).\ntc(X,Z) :- tc(X,Y), e(Y,Z).\n#show tc/2.\n"
GP_RULES = "gp(X,Z) :- e(X,Y), e(Y,Z).\n#show gp/2.\n"
RULES = {"tc": TC_RULES, "gp": GP_RULES}
SHOWN_PAIR = re.compile(r'\w+\("((?:[^"\\]|\\.)*)","((?:[^"\\]|\\.)*)"\)')


def clingo_load(edges: list[Edge]) -> Any:
    """A clingo control with the edges as ground facts ``e("a","b").`` of part ``facts``.

    The names in the workloads hold no quote or backslash, so they need no escaping."""
    import clingo

    control = clingo.Control(["--warn=none"])
    control.add("facts", [], "".join(f'e("{head}","{tail}").' for head, tail in edges))
    control.ground([("facts", [])])
    return control


def clingo_derive(rules: str, control: Any) -> Any:
    """Ground ``rules`` over the grounded facts, then solve."""
    control.add("rules", [], rules)
    control.ground([("rules", [])])
    control.solve()
    return control


def clingo_export(control: Any) -> Answer:
    """The shown atoms of the (only) model as pairs, parsed from the model's text."""
    texts: list[str] = []
    control.solve(on_model=lambda model: texts.append(str(model)))
    return set(SHOWN_PAIR.findall(texts[0]))


def sql_peer(load: Callable[[list[Edge]], Any], export: Callable[[Any], Answer]) -> dict[str, Peer]:
    """One Peer per query for a SQL engine, differing only in the query text."""
    return {query: Peer(load, partial(sql_derive, text), export) for query, text in SQL.items()}


# An engine is one entry: its name and one Peer per query ("tc", "gp").  arest's functions
# (derive_arest.py) import arest inside, so that only the process measuring it pays for it.
ENGINES: dict[str, dict[str, Peer]] = {
    "hand": {
        "tc": Peer(hand_load, hand_tc, same_answer),
        "gp": Peer(hand_load, hand_gp, same_answer),
    },
    "sqlite": sql_peer(sqlite_load, sqlite_export),
    "duckdb": sql_peer(duckdb_load, duckdb_export),
    "clingo": {query: Peer(clingo_load, partial(clingo_derive, rules), clingo_export)
               for query, rules in RULES.items()},
    "arest": {query: Peer(partial(arest_load, query), partial(arest_derive, query),
                          partial(arest_export, query))
              for query in ("tc", "gp")},
    "arest-unindexed": {query: Peer(partial(arest_load, query),
                                    partial(arest_derive_unindexed, query),
                                    partial(arest_export, query))
                        for query in ("tc", "gp")},
    "arest+duckdb": {query: Peer(partial(arest_load, query), partial(arest_duckdb_derive, query),
                                 partial(arest_export, query))
                     for query in ("tc", "gp")},
}
MODULES = {"duckdb": "duckdb", "clingo": "clingo", "arest+duckdb": "duckdb"}


# measuring -----------------------------------------------------------------------------


def digest(answer: Answer) -> str:
    """SHA-256 of the sorted pairs, one ``a<TAB>b`` line each: equal answers, equal digests.

    >>> digest({("b", "c"), ("a", "b")}) == digest({("a", "b"), ("b", "c")})
    True
    """
    lines = sorted(f"{head}\t{tail}" for head, tail in answer)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _seconds_since(start: int) -> float:
    return (time.perf_counter_ns() - start) / 1e9


def measure(workload: str, size: int, engine: str, repeats: int) -> dict[str, Any]:
    """Load, derive and read back one workload at one size with one engine, ``repeats`` times
    from scratch; the median load and derive times (derive also in CPU time of the process,
    which other processes on the machine skew less), the first read-back time, the answer's
    size and digest.  Run by ``main`` in a fresh process."""
    chosen = WORKLOADS[workload]
    peer = ENGINES[engine][chosen.query]
    edges = chosen.generate(size)
    loads: list[float] = []
    derives: list[float] = []
    derives_cpu: list[float] = []
    export_s = 0.0
    answer: Answer = set()
    for run in range(repeats):
        gc.collect()
        start = time.perf_counter_ns()
        loaded = peer.load(edges)
        loads.append(_seconds_since(start))
        gc.collect()
        start, start_cpu = time.perf_counter_ns(), time.process_time_ns()
        derived = peer.derive(loaded)
        derives.append(_seconds_since(start))
        derives_cpu.append((time.process_time_ns() - start_cpu) / 1e9)
        if run == 0:
            start = time.perf_counter_ns()
            answer = peer.export(derived)
            export_s = _seconds_since(start)
        del loaded, derived
    return {
        "workload": workload,
        "size": size,
        "engine": engine,
        "repeats": repeats,
        "load_s": statistics.median(loads),
        "derive_s": statistics.median(derives),
        "derive_runs_s": derives,
        "derive_cpu_s": statistics.median(derives_cpu),
        "export_s": export_s,
        "facts": len(answer),
        "digest": digest(answer),
        "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


@dataclass
class Closure:
    """A transitive closure kept for incremental updates: every node's descendants and
    ancestors."""

    descendants: dict[str, set[str]] = field(default_factory=dict)
    ancestors: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, pairs: Answer) -> Closure:
        """Index the closure facts ``pairs`` both ways."""
        closure = cls()
        for head, tail in pairs:
            closure.descendants.setdefault(head, set()).add(tail)
            closure.ancestors.setdefault(tail, set()).add(head)
        return closure

    def pairs(self) -> Answer:
        """The closure facts."""
        return {(head, tail) for head, tails in self.descendants.items() for tail in tails}

    def add_edge(self, edge: Edge) -> list[Edge]:
        """Add e(a, b) and return the new closure facts:
        ((ancestors(a) ∪ {a}) × (descendants(b) ∪ {b})) ∖ tc.

        >>> closure = Closure.of({("a", "b"), ("c", "d")})
        >>> sorted(closure.add_edge(("b", "c")))
        [('a', 'c'), ('a', 'd'), ('b', 'c'), ('b', 'd')]
        >>> closure.add_edge(("a", "d"))
        []
        """
        head, tail = edge
        sources = [head, *self.ancestors.get(head, ())]
        targets = [tail, *self.descendants.get(tail, ())]
        found: list[Edge] = []
        for source in sources:
            below = self.descendants.setdefault(source, set())
            for target in targets:
                if target not in below:
                    below.add(target)
                    found.append((source, target))
        for source, target in found:
            self.ancestors.setdefault(target, set()).add(source)
        return found


def incremental(size: int, edges: int) -> dict[str, Any]:
    """Time adding each of ``new_edges(size, edges)`` to the hand-written closure of
    ``tc_dag(size)``, one at a time, against a full recompute.  Run in a fresh process."""
    dag = tc_dag(size)
    added = new_edges(size, edges)
    peer = ENGINES[BASELINE]["tc"]
    loaded = peer.load(dag)
    gc.collect()
    start = time.perf_counter_ns()
    full = peer.derive(loaded)
    full_s = _seconds_since(start)
    closure = Closure.of(full)
    del full, loaded
    gc.collect()
    samples: list[int] = []
    deltas: list[int] = []
    for edge in added:
        start = time.perf_counter_ns()
        found = closure.add_edge(edge)
        samples.append(time.perf_counter_ns() - start)
        deltas.append(len(found))
    expected = peer.answer(dag + added)
    after = closure.pairs()
    if after != expected:
        raise Disagreement(
            f"incremental closure after {edges} edges holds {len(after):,} facts, "
            f"a full recompute {len(expected):,}"
        )
    closure_facts = len(expected) - sum(deltas)
    # The answers are not kept while arest runs: a full collection inside a command would
    # walk their 1.66·10⁶ pairs (hundreds of ms), which is this process's heap, not arest's.
    del closure, after, expected
    gc.collect()
    # arest: each edge is an assert command on D (validation, derivation from its delta,
    # supports recorded), applied one after the other.
    timed, arest_after = arest_adding(dag, added)
    if arest_after != peer.answer(dag + added):
        raise Disagreement(
            f"arest's closure after {edges} asserted edges holds {len(arest_after):,} facts, "
            "not those of a full recompute"
        )
    arest_ns = [int(seconds * 1e9) for seconds, _, _, _ in timed]
    arest_cpu_ns = [int(cpu * 1e9) for _, cpu, _, _ in timed]
    deltas_arest = [n for _, _, n, _ in timed]
    largest = sorted(timed, key=lambda t: -t[2])[:3]
    return {
        "size": size,
        "edges": edges,
        "full_s": full_s,
        "closure_facts": closure_facts,
        "edge": summarize(samples).as_dict(),
        "delta_median": statistics.median(deltas),
        "delta_max": max(deltas),
        "arest_edge": summarize(arest_ns).as_dict(),
        "arest_edge_cpu": summarize(arest_cpu_ns).as_dict(),
        "arest_first_ms": arest_ns[0] / 1e6,
        "arest_delta_median": statistics.median(deltas_arest),
        "arest_delta_max": max(deltas_arest),
        # The three largest deltas: facts, CPU ms, of which full collections, and CPU µs
        # per fact of delta without them.
        "arest_largest": [(n, cpu * 1e3, collected * 1e3, (cpu - collected) * 1e6 / n)
                          for _, cpu, n, collected in largest],
        "arest_full_collections_ms": [collected * 1e3 for *_, collected in timed if collected],
        "arest_per_fact_p99_us": summarize(
            [ns // max(n, 1) for ns, n in zip(arest_cpu_ns, deltas_arest, strict=True)]
        ).p99_ns / 1e3,
    }


def check_agreement(results: Sequence[dict[str, Any]]) -> None:
    """Raise ``Disagreement`` unless every engine's answer matches the baseline's.

    >>> same = {"facts": 2, "digest": "x", "workload": "gp", "size": 2}
    >>> check_agreement([{**same, "engine": "hand"}, {**same, "engine": "sqlite"}])
    """
    by = {(r["workload"], r["size"]): r for r in results if r["engine"] == BASELINE}
    for result in results:
        reference = by[(result["workload"], result["size"])]
        if (result["facts"], result["digest"]) != (reference["facts"], reference["digest"]):
            raise Disagreement(
                f"{result['engine']} on {result['workload']} at n = {result['size']:,}: "
                f"{result['facts']:,} facts, digest {result['digest'][:12]}; "
                f"{BASELINE}: {reference['facts']:,} facts, digest {reference['digest'][:12]}"
            )


# reporting -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What a run measures: workloads and their sizes, engines, repeats, incremental edges."""

    workloads: tuple[str, ...] = tuple(WORKLOADS)
    engines: tuple[str, ...] = tuple(ENGINES)
    sizes: dict[str, tuple[int, ...]] = field(
        default_factory=lambda: {name: w.sizes for name, w in WORKLOADS.items()}
    )
    repeats: int = 5
    repeat_up_to: int = 10_000
    incremental_edges: int = 100

    def quick(self) -> Plan:
        """The two smallest sizes of each workload: a smoke run."""
        return replace(self, sizes={name: sizes[:2] for name, sizes in self.sizes.items()})

    def repeats_at(self, size: int) -> int:
        """Runs at ``size``: ``repeats`` up to ``repeat_up_to``, one above."""
        return self.repeats if size <= self.repeat_up_to else 1


def _short(size: int) -> str:
    """``1e5`` for 100,000; the number itself when it is not a power of ten.

    >>> _short(100_000), _short(2_500)
    ('1e5', '2,500')
    """
    exponent = len(str(size)) - 1
    return f"1e{exponent}" if size == 10**exponent else f"{size:,}"


def workload_report(workload: Workload, results: Sequence[dict[str, Any]]) -> str:
    """The derive table with ratios and growth, the load / read-back table, the fact counts."""
    mine = [r for r in results if r["workload"] == workload.name]
    by = {(r["engine"], r["size"]): r for r in mine}
    sizes = sorted({r["size"] for r in mine})
    engines = [name for name in ENGINES if any(r["engine"] == name for r in mine)]
    seconds = "{:,.3f}"
    out = [f"### {workload.name}: {workload.title}\n"]

    rows: dict[str, dict[str, float | str | None]] = {}
    for engine in engines:
        row: dict[str, float | str | None] = {}
        for size in sizes:
            row[str(size)] = by[(engine, size)]["derive_s"] if (engine, size) in by else None
        for smaller, larger in pairwise(sizes):
            before, after = row[str(smaller)], row[str(larger)]
            if isinstance(before, float) and isinstance(after, float) and before:
                row[f"growth {larger}"] = format_ratio(after / before)
        largest = by.get((engine, sizes[-1]))
        row["cpu"] = None if largest is None else largest.get("derive_cpu_s")
        rows[engine] = row
    columns = [Column(str(s), f"n = {_short(s)} s", seconds) for s in sizes]
    columns += [
        Column(f"growth {larger}", f"{_short(smaller)} → {_short(larger)}", ratio=False)
        for smaller, larger in pairwise(sizes)
    ]
    columns.append(Column("cpu", f"CPU s at n = {_short(sizes[-1])}", seconds, ratio=False))
    runs = ", ".join(f"{_short(s)}: {by[(BASELINE, s)]['repeats']}" for s in sizes)
    out.append(
        f"Derive, wall seconds (median of runs per size, {runs}), growth with n, and the "
        "process's CPU seconds at the largest n\n"
    )
    out.append(format_table(rows, columns, BASELINE) + "\n")

    rows = {}
    for engine in engines:
        rows[engine] = {}
        for size in sizes:
            result = by.get((engine, size))
            rows[engine][f"load {size}"] = None if result is None else result["load_s"]
            rows[engine][f"export {size}"] = None if result is None else result["export_s"]
        largest = by.get((engine, sizes[-1]))
        rows[engine]["rss"] = None if largest is None else largest["max_rss_mib"]
    columns = [Column(f"load {s}", f"load n = {_short(s)} s", seconds) for s in sizes]
    columns += [
        Column(f"export {s}", f"read back n = {_short(s)} s", seconds, ratio=False) for s in sizes
    ]
    columns.append(Column("rss", f"peak RSS n = {_short(sizes[-1])} MiB", "{:,.0f}", ratio=False))
    out.append("Load and read back, seconds; peak RSS of the process\n")
    out.append(format_table(rows, columns, BASELINE) + "\n")

    counts = "; ".join(
        f"n = {size:,}: {by[(BASELINE, size)]['facts']:,} derived facts" for size in sizes
    )
    out.append(f"{counts}. Every engine's answer equals {BASELINE}'s at every size.\n")
    return "\n".join(out)


def incremental_report(result: dict[str, Any]) -> str:
    """One edge added incrementally against the full recompute."""
    full_ms = result["full_s"] * 1e3
    edge = result["edge"]
    rows: dict[str, dict[str, float | str | None]] = {
        "full recompute": {"median": full_ms, "facts": result["closure_facts"]},
        "add one edge": {
            "median": edge["median_ns"] / 1e6,
            "p99": edge["p99_ns"] / 1e6,
            "facts": result["delta_median"],
        },
    }
    if "arest_edge" in result:
        rows["arest: assert one edge"] = {
            "median": result["arest_edge"]["median_ns"] / 1e6,
            "p99": result["arest_edge"]["p99_ns"] / 1e6,
            "facts": result["arest_delta_median"],
        }
    if "arest_edge_cpu" in result:
        rows["arest: assert one edge, CPU"] = {
            "median": result["arest_edge_cpu"]["median_ns"] / 1e6,
            "p99": result["arest_edge_cpu"]["p99_ns"] / 1e6,
            "facts": result["arest_delta_median"],
        }
    columns = [
        Column("median", "ms (median per edge)", "{:,.3f}"),
        Column("p99", "p99 ms", "{:,.3f}", ratio=False),
        Column("facts", "facts derived (median per edge)", "{:,.0f}", ratio=False),
    ]
    title = (
        f"### Incremental: hand and arest, tc_dag at n = {result['size']:,}, "
        f"{result['edges']} new edges added one at a time\n"
    )
    note = (
        f"\nLargest delta: {result['delta_max']:,} facts. The closure after the last edge "
        "equals a full recompute. arest's figures include its first command after the "
        f"from-scratch derivation ({result.get('arest_first_ms', 0):,.1f} ms); its largest "
        f"delta: {result.get('arest_delta_max', 0):,} facts; p99 per fact of delta: "
        f"{result.get('arest_per_fact_p99_us', 0):,.1f} µs CPU.\n"
    )
    if "arest_largest" in result:
        note += "arest's largest deltas, CPU: " + "; ".join(
            f"{n:,} facts {ms:,.1f} ms ({collected:,.1f} of it a full collection), "
            f"{per_fact:,.2f} µs per fact without it"
            for n, ms, collected, per_fact in result["arest_largest"]
        ) + ". Full collections inside commands, CPU ms: " + (", ".join(
            f"{ms:,.1f}" for ms in result["arest_full_collections_ms"]) or "none") + ".\n"
    return title + "\n" + format_table(rows, columns, "full recompute") + "\n" + note


def report(results: dict[str, Any], plan: Plan) -> str:
    """Every table of the run."""
    sections = [
        workload_report(WORKLOADS[name], results["derive"])
        for name in plan.workloads
        if any(r["workload"] == name for r in results["derive"])
    ]
    if results.get("incremental"):
        sections.append(incremental_report(results["incremental"]))
    return "\n".join(sections)


def machine_facts() -> dict[str, str]:
    """Interpreter, cores, every engine's version, and the load average (other processes
    on the machine skew every figure)."""
    facts = {**interpreter_facts(), "sqlite": sqlite3.sqlite_version}
    facts["load average at start"] = ", ".join(f"{load:.2f}" for load in os.getloadavg())
    for name, module in MODULES.items():
        if util.find_spec(module) is not None:
            facts[name] = metadata.version(module)
    return facts


def _names(text: str, known: Sequence[str], kind: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SystemExit(
            f"unknown {kind} {', '.join(unknown)}; expected some of {', '.join(known)}"
        )
    return names


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, measure each workload, size and engine in its own process, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the two smallest sizes: smoke run")
    parser.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated subset")
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated subset")
    parser.add_argument("--sizes", default=None, help="comma-separated n for every workload")
    parser.add_argument("--repeats", type=int, default=Plan.repeats, help="runs of small sizes")
    parser.add_argument(
        "--repeat-up-to", type=int, default=Plan.repeat_up_to, help="largest n run --repeats times"
    )
    parser.add_argument(
        "--incremental-edges", type=int, default=Plan.incremental_edges,
        help="edges added one at a time to the largest tc_dag (0: skip)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    parser.add_argument(
        "--from-json", type=Path, default=None, help="print the tables of a saved run"
    )
    options = parser.parse_args(argv)
    if options.from_json is not None:
        saved = json.loads(options.from_json.read_text())
        plan = Plan(
            workloads=tuple(saved["plan"]["workloads"]),
            engines=tuple(saved["plan"]["engines"]),
            sizes={name: tuple(sizes) for name, sizes in saved["plan"]["sizes"].items()},
        )
        print("\n".join(f"- {key}: {value}" for key, value in saved["machine"].items()))
        print()
        print(report(saved["results"][0], plan))
        return

    engines = _names(options.engines, tuple(ENGINES), "engine")
    missing = [e for e in engines if e in MODULES and util.find_spec(MODULES[e]) is None]
    if missing:
        print(f"skipping {', '.join(missing)}: not installed (pip install -e '.[bench]')",
              file=sys.stderr)
    engines = (BASELINE, *(e for e in engines if e != BASELINE and e not in missing))
    plan = Plan(
        workloads=_names(options.workloads, tuple(WORKLOADS), "workload"),
        engines=engines,
        repeats=options.repeats,
        repeat_up_to=options.repeat_up_to,
        incremental_edges=options.incremental_edges,
    )
    if options.quick:
        plan = plan.quick()
    if options.sizes is not None:
        sizes = tuple(int(size) for size in options.sizes.split(","))
        plan = replace(plan, sizes={name: sizes for name in WORKLOADS})

    facts = machine_facts()
    print("\n".join(f"- {key}: {value}" for key, value in facts.items()), file=sys.stderr)
    script = Path(__file__)
    started = time.perf_counter()
    derived: list[dict[str, Any]] = []
    for name in plan.workloads:
        for size in plan.sizes[name]:
            here = []
            for engine in plan.engines:
                print(f"  [{name}, n = {size:,}, {engine}]", file=sys.stderr, flush=True)
                arguments = {
                    "workload": name, "size": size, "engine": engine,
                    "repeats": plan.repeats_at(size),
                }
                here.append(run_isolated(script, "measure", arguments))
            check_agreement(here)
            derived += here
    results: dict[str, Any] = {"derive": derived, "incremental": None}
    if plan.incremental_edges > 0 and "tc_dag" in plan.workloads:
        size = max(plan.sizes["tc_dag"])
        print(f"  [incremental, tc_dag n = {size:,}]", file=sys.stderr, flush=True)
        results["incremental"] = run_isolated(
            script, "incremental", {"size": size, "edges": plan.incremental_edges}
        )
    facts["wall time"] = f"{time.perf_counter() - started:,.0f} s"
    publish(facts, asdict(plan), [results], report(results, plan), options.json)


if __name__ == "__main__":
    main()
