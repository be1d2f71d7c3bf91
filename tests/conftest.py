"""Test-wide settings: a Hypothesis profile that keeps the suite free of timing assertions, and
the one policy for the external tutor corpus."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests import corpus

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
    print_blob=True,
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def tutor_corpus() -> Path:
    """The tutor corpus folder; skips the test when it is absent, fails it when CI=true or
    AREST_REQUIRE_CORPUS=1 (``tests/corpus.py``)."""
    return corpus.tutor_corpus()
