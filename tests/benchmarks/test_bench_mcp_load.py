"""The MCP load test's quick mode runs both servers under every load it promises, checks every
answer, and finds as many Customers in the database as creates were acknowledged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_mcp_load.py"


@pytest.mark.slow  # five server and client processes, about a minute on 2 cores
def test_the_quick_load_runs_both_servers_at_each_load_and_every_create_lands(
        tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    ran = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--clients", "2,3",
                          "--json", str(out)], capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[-4000:]
    assert "**Budget**" in ran.stdout and "creates acknowledged" in ran.stdout
    results = json.loads(out.read_text())["results"][0]
    runs = results["runs"]
    assert sorted((run["row"], run["clients"]) for run in runs) == sorted(
        (row, clients) for row in ("SDK echo", "arest create, SQLite file")
        for clients in (2, 3))
    assert all(run["acks_in_window"] > 0 for run in runs)
    assert all(len(run["latencies_ns"]) == run["acks_in_window"] for run in runs)
    created = sum(run["acks"] for run in runs if run["row"] == "arest create, SQLite file")
    assert results["customers"] == results["acked"] == created
    assert created >= (2 + 3) * 2  # at least the warm-up calls of every session
