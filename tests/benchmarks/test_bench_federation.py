"""The federation benchmark's quick mode runs end to end: every row of both tables timed, every
answer checked by the run (the fixtures answered 304 where the rows promise it, 200 where they
promise a full answer)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_federation.py"
ROWS = ["local", "federated, fresh cache", "federated, 304 revalidated", "federated, full 200",
        "outbound.fetch alone (200)", "http.client alone (200)"]


@pytest.mark.slow  # three processes: the run and its two fixture systems
def test_the_quick_run_times_every_row_of_get_and_list(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    ran = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--json", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[-4000:]
    assert "### `get`, one entity of N = 100" in ran.stdout
    assert "### `list`, all of N = 100" in ran.stdout
    saved = json.loads(out.read_text())
    assert saved["plan"]["size"] == 100
    (result,) = saved["results"]
    samples = result["samples"]
    assert list(samples["get"]) == ROWS and list(samples["list"]) == ROWS
    assert all(len(samples["get"][row]) == 40 and len(samples["list"][row]) == 6
               for row in ROWS)
    layers = ["json.loads of the body", "joined(D, items)", "ids of the items",
              "command on the joined D", "command on the local D"]
    assert all(list(result["layers"][verb]) == layers for verb in ("get", "list"))
    assert "### Layers, no HTTP" in ran.stdout
    assert result["answered"]["etags"]["304"] >= 40 + 6
    assert set(result["answered"]["plain"]) == {"200"}
