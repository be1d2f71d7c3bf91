"""The tutor corpus policy (tests/corpus.py): a test that needs the external corpus runs when it
is there, is skipped with one reason when it is not, and fails instead in CI (`CI=true`) or when
asked (`AREST_REQUIRE_CORPUS=1`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.corpus import MISSING, tutor_corpus

ROOT = Path(__file__).resolve().parents[1]
NEEDS_CORPUS = "tests/forml2/test_oracle.py::test_forbidden_rating_comparison"


def test_a_present_corpus_is_returned(tmp_path: Path) -> None:
    assert tutor_corpus(tmp_path, {"CI": "true"}) == tmp_path
    assert tutor_corpus(None, {"AREST_TUTOR_CORPUS": str(tmp_path)}) == tmp_path


def test_a_missing_corpus_skips_with_the_one_reason(tmp_path: Path) -> None:
    with pytest.raises(pytest.skip.Exception) as skipped:
        tutor_corpus(tmp_path / "absent", {"CI": "false"})
    assert skipped.value.msg == MISSING


@pytest.mark.parametrize("environ", [{"CI": "true"}, {"AREST_REQUIRE_CORPUS": "1"}])
def test_a_missing_corpus_fails_when_required(tmp_path: Path, environ: dict[str, str]) -> None:
    with pytest.raises(pytest.fail.Exception) as failed:
        tutor_corpus(None, {**environ, "AREST_TUTOR_CORPUS": str(tmp_path / "absent")})
    assert MISSING in failed.value.msg and str(tmp_path / "absent") in failed.value.msg


def run(required: dict[str, str], corpus: Path) -> subprocess.CompletedProcess[str]:
    """pytest, in a child process, on one test that takes the `tutor_corpus` fixture."""
    environ = {k: v for k, v in os.environ.items()
               if k not in ("CI", "AREST_REQUIRE_CORPUS", "PYTEST_XDIST_WORKER")}
    environ.update(required, AREST_TUTOR_CORPUS=str(corpus))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-rs", NEEDS_CORPUS],
        cwd=ROOT, env=environ, capture_output=True, text=True, check=False)


@pytest.mark.slow  # two pytest sessions of their own: 6-7 s of CPU each, their plugins' imports
def test_the_fixture_skips_a_test_outside_ci_and_fails_it_in_ci(tmp_path: Path) -> None:
    skipped = run({}, tmp_path / "absent")
    assert skipped.returncode == 0, skipped.stdout
    assert "1 skipped" in skipped.stdout and MISSING in skipped.stdout
    failed = run({"CI": "true"}, tmp_path / "absent")
    assert failed.returncode == 1, failed.stdout
    assert "1 error" in failed.stdout and MISSING in failed.stdout
