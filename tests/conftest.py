"""Test-wide settings: a Hypothesis profile that keeps the suite free of timing assertions, the
one policy for the external tutor corpus, and a throwaway PostgreSQL (``tests/postgres.py``)."""

import compileall
import fcntl
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that takes the ``postgres`` fixture (``pg_database`` does) is marked ``postgres``
    before ``-m`` selects: it runs in the PostgreSQL step (``pytest -m postgres``), never in the
    fast suite."""
    for item in items:
        if "postgres" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(autouse=True)
def _one_group_at_a_time(request: pytest.FixtureRequest,
                         tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests of one ``xdist_group`` never run at once, on any worker: those of
    ``documented-ports`` serve on the ports their blocks name.  (pytest-xdist's
    ``--dist loadgroup`` is meant to keep a group on one worker, but under pytest 9 it
    spreads them, so a lock in the run's shared temporary folder keeps them apart.)"""
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
