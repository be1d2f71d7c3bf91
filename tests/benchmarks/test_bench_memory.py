"""The memory benchmark at a small size: each store holds the population it was loaded
with, every figure is a positive number of bytes per fact, and arest's breakdown names
where its bytes went."""

from __future__ import annotations

import pytest

from tests.benchmarks.test_bench_create import _load

bench = _load("bench_memory")


@pytest.mark.parametrize("name", ["dict", "SQLite", "arest"])
def test_each_store_holds_traced_bytes_for_its_facts(name: str) -> None:
    result = bench.measure(name, 300, "traced")
    assert result["held_per_fact"] > 0 and result["peak_per_fact"] >= result["held_per_fact"]
    assert (result["pages_per_fact"] is not None) == (name == "SQLite")


def test_a_run_measures_each_way_in_a_fresh_process_and_prints_a_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--sizes", "2000", "--candidates", "dict"])
    table = capsys.readouterr().out
    assert "|P| = 2,000 facts" in table
    [row] = [line for line in table.splitlines() if line.startswith("| dict")]
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert float(cells[1].replace(",", "")) > 0 and cells[2] == "1.00×"


def test_arests_breakdown_names_its_role_indexes_and_its_facts() -> None:
    result = bench.measure("arest", 2_000, "traced", detail=True)
    kinds = result["breakdown"]["kinds"]
    assert kinds["atoms and fact tuples (the population's, kept)"] > 0
    assert sum(kinds.values()) == pytest.approx(result["held_per_fact"], rel=0.1)
    table = bench.report([result], [2_000])
    assert "arest at |P| = 2,000" in table and "B/fact" in table


def test_the_report_says_whether_arest_is_within_the_bound() -> None:
    results = [{"candidate": "dict", "size": 10, "way": "traced", "held_per_fact": 100.0,
                "peak_per_fact": 100.0, "pages_per_fact": None},
               {"candidate": "arest", "size": 10, "way": "traced", "held_per_fact": 600.0,
                "peak_per_fact": 600.0, "pages_per_fact": None}]
    assert "6.00×: NOT within 5×" in bench.report(results, [10])
    results[1]["held_per_fact"] = 300.0
    assert "3.00×: within 5×" in bench.report(results, [10])
