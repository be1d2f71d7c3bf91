"""The load A/B runs each load in a fresh process on the tree it is given, and refuses a
child that imported another tree's arest."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

FOLDER = Path(__file__).resolve().parents[2] / "benchmarks"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", FOLDER / "bench_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module
    spec.loader.exec_module(module)
    return module


bench = _load()


def test_a_load_is_measured_on_the_tree_given() -> None:
    assert bench.measure(FOLDER.parent, "tc_dag", 200, "arest") > 0
    assert bench.measure(FOLDER.parent, "create", 200, "SQLite") > 0


def test_a_tree_without_arest_is_refused(tmp_path: Path) -> None:
    # The child then imports the installed arest, which is not under tmp_path.
    with pytest.raises(RuntimeError, match=r"not .*'s arest"):
        bench.measure(tmp_path, "tc_dag", 200, "arest")


def test_the_report_gives_each_load_against_its_baseline() -> None:
    rows = [{"load": "gp", "size": 1000, "baseline_name": "hand", "baseline": 0.5,
             "before": 2.0, "after": 1.0}]
    assert "| gp | 1,000 | hand | 0.500 | 2.000 | 4.00× | 1.000 | 2.00× | 0.50× | – | – |" in \
        bench.report(rows, 3)
    rows[0]["compiled"] = 0.75
    assert "| 1.000 | 2.00× | 0.50× | 0.750 | 1.50× |" in bench.report(rows, 3)


def test_a_derivation_load_is_also_measured_into_readings_compiled_before() -> None:
    assert bench.measure(FOLDER.parent, "tc_dag", 200, "arest-compiled") > 0


def test_a_load_runs_as_the_benchmarks_given_define_it(tmp_path: Path) -> None:
    # A folder without the benchmarks cannot define the load: the child fails.
    with pytest.raises(subprocess.CalledProcessError):
        bench.measure(FOLDER.parent, "tc_dag", 200, "arest", tmp_path)
    assert bench.measure(FOLDER.parent, "tc_dag", 200, "arest", FOLDER) > 0
