"""The scale benchmark runs end to end at a tiny size against a real PostgreSQL: every
candidate on both workloads, every create answered, the tables it promises printed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import Database, query

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_scale.py"


@pytest.mark.slow
def test_a_tiny_run_measures_every_candidate_on_both_workloads(pg_database: Database,
                                                                tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    ran = subprocess.run([sys.executable, str(SCRIPT), "--db", pg_database.url,
                          "--creates", "16", "--writers", "4", "--json", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[-4000:]
    assert "### disjoint cells" in ran.stdout and "### contended cell" in ran.stdout
    results = json.loads(out.read_text())["results"]
    measured = {(r["workload"], r["candidate"]) for r in results}
    assert measured == {(w, c) for w in ("disjoint cells", "contended cell")
                        for c in ("raw psycopg", "SQLite, 1 process", "PostgreSQL, 1 process",
                                  "PostgreSQL, 2 processes", "PostgreSQL, 4 processes")} | {
        ("following", "running again"), ("following", "applying")}
    assert "### following" in ran.stdout
    assert all(r["creates"] == 16 and r["per_second"] > 0 for r in results)
    # The two servers of the disjoint run kept each create once, and mirrored it.
    assert query(pg_database, "SELECT count(*), count(DISTINCT input::json->>'id') FROM"
                              " bench_0_3.arest_journal WHERE key LIKE 'create:%'") == [
        ("16", "16")], query(pg_database, "SELECT key FROM bench_0_3.arest_journal")
    created = "~ '^c[0-9]+-[0-9]+$'"  # the readings' own products aside
    assert query(pg_database, f"SELECT (SELECT count(*) FROM bench_0_3.customer WHERE email"
                              f" {created}) + (SELECT count(*) FROM bench_0_3.product WHERE"
                              f" sku {created})") == [("16",)]
