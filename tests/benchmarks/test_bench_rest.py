"""The REST benchmark's quick mode runs end to end and reports every row it promises; without
wrk it says so and exits 2."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_rest.py"
ROWS = ["GET /trivial", "GET /trivial/thread", "GET /customers/<id>", "POST /trivial",
        "POST /trivial/durable", "POST /customers"]


def bench(*options: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ) if path is None else {**os.environ, "PATH": path}
    return subprocess.run([sys.executable, str(SCRIPT), *options], capture_output=True,
                          text=True, env=env, timeout=600)


def test_without_wrk_the_throughput_part_says_what_to_install_and_exits_2(
        tmp_path: Path) -> None:
    ran = bench("--quick", path=str(tmp_path))
    assert ran.returncode == 2
    assert "needs wrk" in ran.stderr and "apt-get install wrk" in ran.stderr
    assert "--no-throughput" in ran.stderr


def _figures(tmp_path: Path, *options: str) -> dict[str, object]:
    out = tmp_path / "figures.json"
    ran = bench("--quick", "--json", str(out), *options)
    assert ran.returncode == 0, ran.stderr[-4000:]
    assert "Verdict:" in ran.stdout
    saved = json.loads(out.read_text())
    assert saved["plan"]["sizes"] == [100]
    found: dict[str, object] = saved["results"][0]["sizes"][0]
    return found


@pytest.mark.slow
def test_the_quick_round_trips_time_every_row_and_every_create_lands(tmp_path: Path) -> None:
    found = _figures(tmp_path, "--no-throughput")
    trips = found["round_trips"]
    assert isinstance(trips, dict)
    assert sorted(trips) == sorted(ROWS)
    assert all(len(trips[row]["samples_ns"]) == 40 for row in ROWS)
    assert found["population_after"] == 100 + 10 + 40
    assert "throughput" not in found
    layers = found["layers"]
    assert isinstance(layers, dict)
    assert sorted(layers) == sorted(f"{step} {verb}" for verb in ("read", "create") for step in
                                    ("tenant.call", "answer()", "answer() in anyio.to_thread"))
    assert all(len(samples) == 40 for samples in layers.values())


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed")
def test_the_quick_throughput_runs_every_row_at_1_and_8_clients(tmp_path: Path) -> None:
    found = _figures(tmp_path)
    runs = found["throughput"]
    assert isinstance(runs, list)
    assert sorted((run["row"], run["clients"]) for run in runs) == sorted(
        (row, clients) for row in ROWS for clients in (1, 8))
    assert all(run["requests"] > 0 and run["status_errors"] == 0 for run in runs)
    created = sum(run["requests"] for run in runs if run["row"] == "POST /customers")
    population = found["population_after"]
    assert isinstance(population, int) and population >= 100 + 10 + 40 + created
