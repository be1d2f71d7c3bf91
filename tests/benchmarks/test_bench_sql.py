"""The SQL benchmark runs end to end at a tiny size: arest's export and SQLite's dump hold the
same rows (the run checks it), both schemas take every row, and the report has every table
it promises."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_sql.py"


@pytest.mark.slow
def test_a_tiny_run_exports_dumps_and_fills_both_schemas(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    ran = subprocess.run([sys.executable, str(SCRIPT), "--sizes", "200", "--repeats", "1",
                          "--json", str(out)], capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[-4000:]
    for title in ("Export against SQLite's dump", "Per fact", "arest export by part",
                  "Constrained inserts"):
        assert title in ran.stdout
    assert "| arest sql schema" in ran.stdout and "| hand-written schema" in ran.stdout
    saved = json.loads(out.read_text())
    assert saved["plan"]["sizes"] == [200]
    (result,) = saved["results"]
    # Customers, orders and line items, and the readings' products and categories.
    assert result["rows"] > 200 / 4
    assert result["script_bytes"] > 0 and result["dump_bytes"] > 0
    assert set(result["export"]) == {"ddl_s", "rows_s", "inserts_s", "deontic_s"}
    assert all(result[key] > 0 for key in ("iterdump_s", "generated_s", "hand_s"))
