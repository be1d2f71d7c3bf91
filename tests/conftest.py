"""Test-wide settings: a Hypothesis profile that keeps the suite free of timing assertions, the
one policy for the external tutor corpus, and a throwaway PostgreSQL (``tests/postgres.py``)."""

import compileall
import fcntl
import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, is_hypothesis_test, settings

from tests import corpus
from tests import postgres as pg

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
    print_blob=True,
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    """The package's bytecode compiled once, before the workers start, where it is missing
    or stale: the tests start about 130 ``arest`` processes, and where the environment sets
    PYTHONDONTWRITEBYTECODE (a fresh clone in CI) each would otherwise compile every module
    of the package from source (about 2 s a process).  ``py_compile`` writes it whatever
    that setting says; the processes only read it."""
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(Path(__file__).resolve().parents[1] / "arest", quiet=1)


@pytest.fixture(scope="session")
def tutor_corpus() -> Path:
    """The tutor corpus folder; skips the test when it is absent, fails it when CI=true or
    AREST_REQUIRE_CORPUS=1 (``tests/corpus.py``)."""
    return corpus.tutor_corpus()


@pytest.fixture(scope="session")
def postgres() -> Iterator[pg.Database]:
    """The database ``arest`` of a PostgreSQL cluster started once per test process (a
    throwaway one, stopped and removed at the end); skips the test when PostgreSQL is not
    installed, fails it when CI=true or AREST_REQUIRE_POSTGRES=1 (``tests/postgres.py``)."""
    with pg.cluster(pg.postgres_binaries()) as database:
        yield database


@pytest.fixture(scope="session")
def _database_numbers() -> Iterator[int]:
    return itertools.count(1)


@pytest.fixture
def pg_database(postgres: pg.Database, _database_numbers: Iterator[int]) -> Iterator[pg.Database]:
    """A fresh empty database ``test_<n>`` of the ``postgres`` cluster, for this test alone;
    dropped after it."""
    database = pg.create_database(postgres, f"test_{next(_database_numbers)}")
    yield database
    pg.drop_database(postgres, database.name)


FAST_SHARE: Final = 4
"""The fast suite tries a property on a quarter of its examples (at least
:data:`FEWEST_EXAMPLES`, at most all); ``.ci/run`` runs every property of the fast suite again
on all of them (``AREST_FULL_PROPERTIES=1 pytest -m property``)."""

FEWEST_EXAMPLES: Final = 5


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Before ``-m`` selects: a test that takes the ``postgres`` fixture (``pg_database`` does)
    is marked ``postgres``, so it runs in the PostgreSQL step (``pytest -m postgres``), never
    in the fast suite; a Hypothesis property is marked ``property``, and one of the fast suite
    (neither ``slow`` nor ``postgres``) tries :data:`FAST_SHARE`'s share of its examples
    unless AREST_FULL_PROPERTIES=1."""
    full = os.environ.get("AREST_FULL_PROPERTIES") == "1"
    shared: set[int] = set()
    for item in items:
        if "postgres" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)
        test = getattr(item, "obj", None)
        if not is_hypothesis_test(test):
            continue
        item.add_marker(pytest.mark.property)
        if full or id(test) in shared or item.get_closest_marker("slow") \
                or item.get_closest_marker("postgres"):
            continue
        shared.add(id(test))  # a parametrized property's items share its function
        _try_a_share(test)


def _try_a_share(test: Any) -> None:
    """test's Hypothesis settings with a :data:`FAST_SHARE` of its examples.  Hypothesis reads
    them from the attribute its decorators set each time the test runs; where a version
    keeps them elsewhere this fails the collection rather than run every example unasked."""
    given = getattr(test, "_hypothesis_internal_use_settings", None)
    if not isinstance(given, settings):
        raise pytest.UsageError(
            f"{test.__qualname__}: this Hypothesis keeps a test's settings elsewhere; "
            "tests/conftest.py cannot give the fast suite a share of its examples")
    examples = min(given.max_examples, max(FEWEST_EXAMPLES, given.max_examples // FAST_SHARE))
    test._hypothesis_internal_use_settings = settings(given, max_examples=examples)


@pytest.fixture(autouse=True)
def _one_group_at_a_time(request: pytest.FixtureRequest,
                         tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests of one ``xdist_group`` never run at once, on any worker: those of
    ``documented-ports`` serve on the ports their blocks name.  (pytest-xdist's
    ``--dist loadgroup`` keeps a group on one worker, but pytest 9.2 broke that, and a
    pytest that breaks it again must not make those tests collide: a lock in the run's
    shared temporary folder keeps them apart whatever the scheduler does.)"""
    mark = request.node.get_closest_marker("xdist_group")
    if mark is None:
        yield
        return
    name = mark.args[0] if mark.args else mark.kwargs["name"]
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the workers' folders are side by side in the run's
    with (shared / f"group-{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
