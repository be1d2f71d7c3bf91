"""SQL benchmark: ``arest export`` against SQLite's own dump, and the generated schema's
constrained inserts against a hand-written schema's, on ``readings/orders``.

The population is ``bench_create.population``: |P| facts of customers with names, their
orders and the orders' line items (each with an order, a product and a quantity), bulk-loaded
into D (``arest.testing.bulk_load``).  Each size runs in its own fresh process
(``harness.run_isolated``).

(a) **Export.** arest: the text ``arest export readings/orders --db …`` prints, computed from
D: the DDL with its views, ``rows`` and ``inserts`` (``arest/compiler/rmap/export.py``) and the
listing of deontic violations.  The baseline: the same rows in an in-memory SQLite database
(loaded from arest's script, untimed), written out by SQLite itself, as Python's
``sqlite3.Connection.iterdump()`` (the baseline of the ratios) and as the ``sqlite3`` shell's
``.dump`` of a file copy when the shell is installed.  Both dumps are text of the same rows;
loading each into a fresh database gives the same row counts, which the run checks.

(b) **Constrained inserts.** The rows ``rows(D, tables)`` gives, inserted with
``executemany`` in one transaction, ``PRAGMA foreign_keys = ON``, tables in an order the
foreign keys accept: into the schema ``arest sql readings/orders`` prints, and into
:data:`HAND_SCHEMA`, the same tables as a person would write them for these readings
(``orders`` for ``"order"``, inline keys and references, the same CHECK).  Each schema is
filled ``repeats`` times in turn from empty; the median counts.  The two rates should be
equal: the generated schema states what the readings say and nothing more.

Run ``python benchmarks/bench_sql.py`` (|P| = 10⁴, 10⁵, 10⁶; a few minutes on 2 cores),
``--quick`` for a smoke run (|P| = 10³ and 10⁴), ``--sizes 200`` for any sizes.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from bench_create import population
from harness import Column, format_ratio, format_table, interpreter_facts, publish, run_isolated

EXAMPLE = Path(__file__).resolve().parent.parent / "readings" / "orders"
SIZES = (10_000, 100_000, 1_000_000)
QUICK_SIZES = (1_000, 10_000)
BASELINE = "sqlite3 iterdump()"

HAND_SCHEMA = """
CREATE TABLE customer (
    email TEXT PRIMARY KEY NOT NULL,
    is_a_reseller BOOLEAN NOT NULL DEFAULT FALSE,
    name TEXT NOT NULL
);
CREATE TABLE category (
    category_code TEXT PRIMARY KEY NOT NULL,
    parent_category TEXT REFERENCES category (category_code)
);
CREATE TABLE product (
    sku TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL
);
CREATE TABLE product_category (
    product TEXT NOT NULL REFERENCES product (sku),
    category TEXT NOT NULL REFERENCES category (category_code),
    PRIMARY KEY (product, category)
);
CREATE TABLE orders (
    order_number TEXT PRIMARY KEY NOT NULL,
    customer TEXT NOT NULL REFERENCES customer (email),
    priority TEXT CHECK (priority IN ('low', 'normal', 'rush')),
    status TEXT
);
CREATE TABLE line_item (
    id TEXT PRIMARY KEY NOT NULL,
    amount TEXT,
    order_number TEXT NOT NULL REFERENCES orders (order_number),
    product TEXT NOT NULL REFERENCES product (sku),
    quantity TEXT NOT NULL
);
"""
"""The shop's tables as a person writes them for readings/orders."""

HAND_TABLES = {
    "customer": ("customer", {"email": "email", "is_a_reseller": "is_a_reseller",
                              "name": "name"}),
    "category": ("category", {"category_code": "category_code",
                              "parent_category": "parent_category"}),
    "product": ("product", {"sku": "sku", "name": "name"}),
    "product_is_in_category": ("product_category", {"product": "product",
                                                    "category": "category"}),
    "order": ("orders", {"order_number": "order_number", "customer": "customer",
                         "priority": "priority", "status": "status"}),
    "line_item": ("line_item", {"id": "id", "amount": "amount", "order_number": "order",
                                "product": "product", "quantity": "quantity"}),
}
"""Per generated table: the hand-written table and, per its column, the generated column."""


@dataclass(frozen=True)
class Plan:
    """The sizes and how often each schema is filled."""

    sizes: tuple[int, ...] = SIZES
    repeats: int = 3
    seed: int = 1


def _log(size: int, message: str) -> None:
    print(f"  [|P| {size:,}] {message}", file=sys.stderr, flush=True)


def _seconds(body: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    start = time.perf_counter()
    result = body()
    return time.perf_counter() - start, result


def _counts(connection: sqlite3.Connection) -> dict[str, int]:
    names = [name for (name,) in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {name: connection.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            for name in names}


def measure(size: int, plan: dict[str, Any]) -> dict[str, Any]:
    """Export and dump, then fill both schemas, at one size; run by ``main`` in a fresh
    process."""
    import arest
    from arest.compiler.rmap import ddl, relational_schema, views_of
    from arest.compiler.rmap.export import inserts, rows
    from arest.compiler.schema import schema_of
    from arest.system.validate import all_violations
    from arest.testing import bulk_load

    p = Plan(**{**plan, "sizes": tuple(plan["sizes"])})
    _log(size, "bulk load")
    D = bulk_load(arest.load(EXAMPLE), population(size, p.seed).facts)
    _log(size, "arest export")
    ddl_s, (tables, head) = _seconds(lambda: _head(D, relational_schema, schema_of, views_of,
                                                   ddl))
    rows_s, table_rows = _seconds(lambda: rows(D, tables))
    inserts_s, body = _seconds(lambda: inserts(tables, table_rows, "sqlite"))
    deontic_s, _ = _seconds(lambda: all_violations(D, "deontic"))
    script = head + "\n" + body
    facts = sum(len(r) for r in table_rows.values())

    connection = sqlite3.connect(":memory:")
    connection.executescript(script)
    exported_counts = _counts(connection)
    _log(size, "sqlite3 iterdump()")
    iterdump_s, dump = _seconds(lambda: "\n".join(connection.iterdump()))
    reloaded = sqlite3.connect(":memory:")
    reloaded.executescript(dump)
    if _counts(reloaded) != exported_counts:
        raise AssertionError("the dump and arest's export hold different rows")
    reloaded.close()
    cli_s = _cli_dump(connection, size)
    connection.close()

    _log(size, f"constrained inserts, {p.repeats} fills of each schema")
    generated_sql = ddl(tables, "sqlite")
    order = _insert_order(tables)
    generated: list[float] = []
    hand: list[float] = []
    for _ in range(p.repeats):
        generated.append(_fill(generated_sql, _generated_batches(tables, table_rows, order)))
        hand.append(_fill(HAND_SCHEMA, _hand_batches(tables, table_rows, order)))
    return {
        "size": size,
        "facts": size,
        "rows": facts,
        "script_bytes": len(script),
        "dump_bytes": len(dump),
        "export": {"ddl_s": ddl_s, "rows_s": rows_s, "inserts_s": inserts_s,
                   "deontic_s": deontic_s},
        "iterdump_s": iterdump_s,
        "cli_dump_s": cli_s,
        "generated_s": statistics.median(generated),
        "hand_s": statistics.median(hand),
    }


def _head(D: Any, relational_schema: Any, schema_of: Any, views_of: Any, ddl: Any
          ) -> tuple[Any, str]:
    tables = relational_schema(schema_of(D))
    return tables, ddl(tables, "sqlite", views_of(D, tables))


def _cli_dump(connection: sqlite3.Connection, size: int) -> float | None:
    """Seconds the ``sqlite3`` shell takes to ``.dump`` a file copy of the database (its
    start included), or None when the shell is not installed."""
    shell = shutil.which("sqlite3")
    if shell is None:
        return None
    _log(size, "sqlite3 .dump")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "shop.db")
        copy = sqlite3.connect(path)
        connection.backup(copy)
        copy.close()
        seconds, _ = _seconds(lambda: subprocess.run([shell, path, ".dump"], check=True,
                                                     stdout=subprocess.DEVNULL))
    return seconds


Batch = tuple[str, list[tuple[Any, ...]]]


def _insert_order(tables: Any) -> list[Any]:
    """The tables, each after those it refers to; a table referring to itself (the
    category ring) takes its rows in an order of their own (:func:`_category_rows`)."""
    ordered: list[Any] = []
    pending = list(tables.tables)
    while pending:
        ready = [t for t in pending if all(k.table == t.name or k.table in
                                           {o.name for o in ordered} for k in t.foreign_keys)]
        if not ready:
            raise ValueError("the tables refer to each other in a cycle: no insert order")
        ordered.extend(ready)
        pending = [t for t in pending if t not in ready]
    return ordered


def _category_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A ring's rows, each after the row it refers to."""
    done: set[Any] = set()
    ordered: list[dict[str, Any]] = []
    pending = list(rows)
    while pending:
        ready = [r for r in pending if r.get("parent_category") in done | {None}]
        if not ready:
            ready = pending
        ordered.extend(ready)
        done.update(r["category_code"] for r in ready)
        pending = [r for r in pending if r not in ready]
    return ordered


def _generated_batches(tables: Any, table_rows: dict[str, list[dict[str, Any]]],
                       order: list[Any]) -> list[Batch]:
    from arest.compiler.rmap.names import quoted

    batches: list[Batch] = []
    for table in order:
        found = table_rows.get(table.name, [])
        if table.name == "category":
            found = _category_rows(found)
        names = [c.name for c in table.columns]
        sql = (f"INSERT INTO {quoted(table.name, 'sqlite')}"
               f" ({', '.join(quoted(n, 'sqlite') for n in names)})"
               f" VALUES ({', '.join('?' for _ in names)})")
        batches.append((sql, [tuple(r.get(n) for n in names) for r in found]))
    return batches


def _hand_batches(tables: Any, table_rows: dict[str, list[dict[str, Any]]],
                  order: list[Any]) -> list[Batch]:
    batches: list[Batch] = []
    for table in order:
        hand_table, columns = HAND_TABLES[table.name]
        found = table_rows.get(table.name, [])
        if table.name == "category":
            found = _category_rows(found)
        names = list(columns)
        sql = (f"INSERT INTO {hand_table} ({', '.join(names)})"
               f" VALUES ({', '.join('?' for _ in names)})")
        batches.append((sql, [tuple(r.get(columns[n]) for n in names) for r in found]))
    return batches


def _fill(schema: str, batches: list[Batch]) -> float:
    """Seconds to insert the batches into a fresh database of the schema, one transaction,
    foreign keys on."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(schema)
    gc.collect()
    start = time.perf_counter()
    connection.execute("BEGIN")
    for sql, values in batches:
        connection.executemany(sql, values)
    connection.execute("COMMIT")
    seconds = time.perf_counter() - start
    if connection.execute("PRAGMA foreign_key_check").fetchall():
        raise AssertionError("a row refers to no row")
    connection.close()
    return seconds


# reporting -----------------------------------------------------------------------------


def report(results: list[dict[str, Any]]) -> str:
    """The Markdown tables: export against the dumps, its parts, and the insert rates."""
    sizes = [r["size"] for r in results]
    columns = [Column(str(s), f"|P| = {s:,}", "{:,.3f}") for s in sizes]
    out: list[str] = []

    def export_s(r: dict[str, Any]) -> float:
        return float(sum(r["export"].values()))

    dumps: dict[str, dict[str, float | str | None]] = {
        BASELINE: {str(r["size"]): r["iterdump_s"] for r in results},
        "sqlite3 .dump (shell)": {str(r["size"]): r["cli_dump_s"] for r in results},
        "arest export": {str(r["size"]): export_s(r) for r in results},
    }
    out.append("**Export against SQLite's dump of the same rows**, seconds\n")
    out.append(format_table(dumps, columns, BASELINE) + "\n")

    smallest = results[0]
    growth: dict[str, dict[str, float | str | None]] = {}
    for name, seconds in ((BASELINE, lambda r: r["iterdump_s"]), ("arest export", export_s)):
        first = seconds(smallest) / smallest["size"] * 1e6
        growth[name] = {}
        for r in results:
            per_fact = seconds(r) / r["size"] * 1e6
            growth[name][str(r["size"])] = f"{per_fact:,.2f} ({format_ratio(per_fact / first)})"
    out.append(f"**Per fact**, µs (× the figure at |P| = {smallest['size']:,})\n")
    out.append(format_table(growth, [Column(str(s), f"|P| = {s:,}", ratio=False)
                                     for s in sizes], BASELINE) + "\n")

    parts: dict[str, dict[str, float | str | None]] = {}
    for key, name in (("ddl_s", "DDL and views"), ("rows_s", "rows(D, tables)"),
                      ("inserts_s", "inserts(…)"), ("deontic_s", "deontic listing")):
        parts[name] = {str(r["size"]): r["export"][key] for r in results}
    out.append("**arest export by part**, seconds\n")
    out.append(format_table(parts, [Column(str(s), f"|P| = {s:,}", "{:,.3f}", ratio=False)
                                    for s in sizes], "") + "\n")

    rates: dict[str, dict[str, float | str | None]] = {
        "hand-written schema": {str(r["size"]): r["rows"] / r["hand_s"] / 1e3 for r in results},
        "arest sql schema": {str(r["size"]): r["rows"] / r["generated_s"] / 1e3
                             for r in results},
    }
    out.append("**Constrained inserts**, thousand rows per second (executemany, one"
               " transaction, foreign keys on)\n")
    out.append(format_table(rates, [Column(str(s), f"|P| = {s:,}", "{:,.0f}")
                                    for s in sizes], "hand-written schema") + "\n")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, measure each size in its own process, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="|P| = 1e3 and 1e4: smoke run")
    parser.add_argument("--sizes", default=None, help="comma-separated |P| values")
    parser.add_argument("--repeats", type=int, default=None, help="fills of each schema")
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    options = parser.parse_args(argv)
    plan = Plan(sizes=QUICK_SIZES) if options.quick else Plan()
    if options.sizes is not None:
        plan = replace(plan, sizes=tuple(int(s) for s in options.sizes.split(",")))
    if options.repeats is not None:
        plan = replace(plan, repeats=options.repeats)
    facts = {**interpreter_facts(), "sqlite": sqlite3.sqlite_version,
             "sqlite3 shell": shutil.which("sqlite3") or "not installed"}
    print("\n".join(f"- {key}: {value}" for key, value in facts.items()), file=sys.stderr)
    results = [run_isolated(Path(__file__), "measure", {"size": size, "plan": asdict(plan)})
               for size in plan.sizes]
    publish(facts, asdict(plan), results, report(results), options.json)


if __name__ == "__main__":
    main()
