"""The PostgreSQL policy (tests/postgres.py): the programs are found where they are installed;
when they are not, a test that needs them is skipped with one reason, and fails instead in CI
(`CI=true`) or when asked (`AREST_REQUIRE_POSTGRES=1`). These tests start no cluster."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import PROGRAMS, find_binaries, missing_reason, postgres_binaries

ROOT = Path(__file__).resolve().parents[1]
NEEDS_POSTGRES = "tests/test_postgres_fixture.py::test_a_table_keeps_the_rows_inserted"


def fake_installation(folder: Path) -> Path:
    """A folder holding an executable of each PostgreSQL program."""
    folder.mkdir()
    for program in PROGRAMS:
        (folder / program).write_text("#!/bin/sh\n")
        (folder / program).chmod(0o755)
    return folder


def test_the_folder_named_by_arest_pg_bin_is_used(tmp_path: Path) -> None:
    installed = fake_installation(tmp_path / "bin")
    assert postgres_binaries({"AREST_PG_BIN": str(installed), "CI": "true"}) == installed


def test_a_folder_missing_a_program_is_not_an_installation(tmp_path: Path) -> None:
    installed = fake_installation(tmp_path / "bin")
    (installed / "psql").unlink()
    assert find_binaries({"AREST_PG_BIN": str(installed)}) == missing_reason([installed])


def test_missing_programs_skip_with_the_one_reason(tmp_path: Path) -> None:
    with pytest.raises(pytest.skip.Exception) as skipped:
        postgres_binaries({"AREST_PG_BIN": str(tmp_path), "CI": "false"})
    assert skipped.value.msg == (f"PostgreSQL is not installed (looked in {tmp_path}); "
                                 "apt-get install postgresql")


@pytest.mark.parametrize("environ", [{"CI": "true"}, {"AREST_REQUIRE_POSTGRES": "1"}])
def test_missing_programs_fail_when_required(tmp_path: Path, environ: dict[str, str]) -> None:
    with pytest.raises(pytest.fail.Exception) as failed:
        postgres_binaries({**environ, "AREST_PG_BIN": str(tmp_path)})
    assert missing_reason([tmp_path]) in failed.value.msg


def run(required: dict[str, str], programs: Path) -> subprocess.CompletedProcess[str]:
    """pytest, in a child process, on one test that takes the `pg_database` fixture."""
    environ = {k: v for k, v in os.environ.items()
               if k not in ("CI", "AREST_REQUIRE_POSTGRES", "PYTEST_XDIST_WORKER")}
    environ.update(required, AREST_PG_BIN=str(programs))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-rs",
         "-m", "postgres", NEEDS_POSTGRES],
        cwd=ROOT, env=environ, capture_output=True, text=True, check=False)


@pytest.mark.slow  # two child pytest runs
def test_the_fixture_skips_a_test_outside_ci_and_fails_it_in_ci(tmp_path: Path) -> None:
    reason = missing_reason([tmp_path])
    skipped = run({}, tmp_path)
    assert skipped.returncode == 0, skipped.stdout
    assert "1 skipped" in skipped.stdout and reason in skipped.stdout
    failed = run({"CI": "true"}, tmp_path)
    assert failed.returncode == 1, failed.stdout
    assert "1 error" in failed.stdout and reason in failed.stdout


@pytest.mark.slow  # two child pytest runs
def test_a_test_taking_the_fixture_is_left_out_of_the_fast_suite() -> None:
    def collect(*selection: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider",
             "--collect-only", *selection, NEEDS_POSTGRES],
            cwd=ROOT, capture_output=True, text=True, check=False).stdout

    assert "no tests collected (1 deselected)" in collect()
    assert "1 test collected" in collect("-m", "postgres")
