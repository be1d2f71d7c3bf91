"""The throwaway PostgreSQL (tests/postgres.py, the `postgres` and `pg_database` fixtures): it
keeps what it is given, refuses what its constraints forbid with psql's message and SQLSTATE,
gives each test a fresh database of one shared cluster, and leaves nothing behind.

These tests take the fixtures, so they are marked `postgres` (tests/conftest.py) and run with
`pytest -m postgres`."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.postgres import Database, SqlRefused, cluster, query, run_sql

SCHEMA = """
CREATE TABLE person (
    id integer PRIMARY KEY,
    name text NOT NULL,
    age integer CHECK (age >= 0)
);
CREATE TABLE visit (
    id integer PRIMARY KEY,
    person_id integer NOT NULL REFERENCES person (id)
);
INSERT INTO person VALUES (1, 'Ada', 36);
"""


def test_a_table_keeps_the_rows_inserted(pg_database: Database) -> None:
    run_sql(pg_database, SCHEMA)
    run_sql(pg_database, "INSERT INTO person VALUES (2, 'Grace, \"Amazing\"', NULL);")
    assert query(pg_database, "SELECT id, name, age IS NULL FROM person ORDER BY id") == [
        ("1", "Ada", "f"), ("2", 'Grace, "Amazing"', "t")]


@pytest.mark.parametrize(("statement", "sqlstate", "message"), [
    ("INSERT INTO person VALUES (2, 'Bob', -1)", "23514",
     'violates check constraint "person_age_check"'),
    ("INSERT INTO visit VALUES (1, 99)", "23503",
     'violates foreign key constraint "visit_person_id_fkey"'),
    ("INSERT INTO person VALUES (2, NULL, 20)", "23502",
     'null value in column "name" of relation "person" violates not-null constraint'),
], ids=["check", "foreign-key", "not-null"])
def test_a_violation_is_refused_with_psqls_message(
        pg_database: Database, statement: str, sqlstate: str, message: str) -> None:
    run_sql(pg_database, SCHEMA)
    with pytest.raises(SqlRefused) as refused:
        run_sql(pg_database, f"{statement};\nINSERT INTO person VALUES (3, 'Eve', 30);")
    assert refused.value.returncode != 0
    assert refused.value.sqlstate == sqlstate
    assert message in refused.value.stderr and message in str(refused.value)
    # ON_ERROR_STOP: nothing after the refused statement ran.
    assert query(pg_database, "SELECT id FROM person ORDER BY id") == [("1",)]


def test_a_query_is_refused_like_a_script(pg_database: Database) -> None:
    with pytest.raises(SqlRefused) as refused:
        query(pg_database, "SELECT * FROM no_such_table")
    assert refused.value.sqlstate == "42P01"
    assert 'relation "no_such_table" does not exist' in str(refused.value)


def test_the_cluster_listens_on_its_private_socket_only(postgres: Database) -> None:
    assert query(postgres, "SHOW listen_addresses") == [("",)]
    assert query(postgres, "SELECT current_user, current_database()") == [("arest", "arest")]
    assert (postgres.socket_dir / f".s.PGSQL.{postgres.port}").is_socket()
    assert os.stat(postgres.socket_dir).st_mode & 0o077 == 0


def test_a_test_database_is_in_the_session_cluster(
        postgres: Database, pg_database: Database) -> None:
    assert (pg_database.socket_dir, pg_database.port) == (postgres.socket_dir, postgres.port)
    assert pg_database.name != postgres.name
    run_sql(pg_database, "CREATE TABLE only_here (x integer);")
    assert query(pg_database, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_here'") \
        == [("1",)]
    assert query(postgres, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_here'") \
        == [("0",)]


# One xdist group: both run in one process, on one cluster, one after the other; whichever runs
# second sees neither the other's table nor its database.
@pytest.mark.xdist_group("postgres-fresh-database")
@pytest.mark.parametrize("turn", ["one", "two"])
def test_each_test_gets_a_fresh_database(pg_database: Database, turn: str) -> None:
    assert query(pg_database, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'") \
        == []
    assert query(pg_database, "SELECT datname FROM pg_database WHERE datname LIKE 'test\\_%'") \
        == [(pg_database.name,)]
    run_sql(pg_database, f"CREATE TABLE same_name (written_by text); "
                         f"INSERT INTO same_name VALUES ('{turn}');")


def test_the_url_and_the_dsn_reach_the_database(pg_database: Database) -> None:
    run_sql(pg_database, "CREATE TABLE reached (x integer);")
    for address in (pg_database.url, pg_database.dsn):
        reached = subprocess.run(
            [str(pg_database.bin_dir / "psql"), "-X", "-At", "-d", address, "-c",
             "SELECT current_database(), count(*) FROM pg_tables WHERE tablename = 'reached'"],
            capture_output=True, text=True, check=True)
        assert reached.stdout.strip() == f"{pg_database.name}|1"


def running(pid: int) -> bool:
    """Whether the process ``pid`` runs (a zombie waiting for its parent does not)."""
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_cluster_is_stopped_and_removed_at_the_end(postgres: Database) -> None:
    with cluster(postgres.bin_dir) as database:
        pid_file = database.socket_dir / "data" / "postmaster.pid"
        server_pid = int(pid_file.read_text().split()[0])
        assert query(database, "SELECT 1") == [("1",)]
        assert running(server_pid)
    assert not database.socket_dir.exists()
    assert not running(server_pid)
