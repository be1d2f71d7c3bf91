"""A throwaway PostgreSQL for the tests.

:func:`cluster` creates a cluster in a fresh temporary folder (``initdb``), starts it on a
private unix socket only (no TCP port is opened), yields a :class:`Database` describing how to
reach it, and at the end stops it (``pg_ctl stop -m immediate``) and removes the folder.
PostgreSQL refuses to run as root: when the tests run as root the cluster runs as the
``postgres`` user (the folder is handed to it); otherwise as the current user.

:func:`run_sql` runs a script through ``psql`` and raises :class:`SqlRefused` (with psql's
message and the SQLSTATE) when PostgreSQL refuses a statement; :func:`query` reads the rows of
one query. ``psql`` is the whole client: the tests need no Python driver.

The binaries are external. :func:`postgres_binaries` is the one policy, the same as the tutor
corpus's (``tests/corpus.py``): when they are absent the tests that need them are skipped with
one reason, and fail instead when ``CI=true`` or ``AREST_REQUIRE_POSTGRES=1``, so a CI run never
passes by skipping them. The fixtures ``postgres`` and ``pg_database`` of ``tests/conftest.py``
apply it. ``python -m tests.postgres`` prints the folder of the binaries, or the reason and
exits 1 (``.ci/run`` installs PostgreSQL then).
"""

from __future__ import annotations

import csv
import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import quote

import pytest

PROGRAMS = ("initdb", "pg_ctl", "postgres", "psql")
INSTALL = "apt-get install postgresql"
CLUSTER_USER = "arest"
SESSION_DATABASE = "arest"
# Only names the socket file: the socket folder is private, so no other server can hold it.
SOCKET_PORT = 5432
SERVER_SETTINGS = {
    "listen_addresses": "",
    "port": str(SOCKET_PORT),
    # A throwaway cluster: durability is not wanted, speed is.
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
}
SQLSTATE = re.compile(r"(?:ERROR|FATAL|PANIC):\s+([0-9A-Z]{5}):")


@dataclass(frozen=True)
class Database:
    """How to reach one database of a running cluster: through the unix socket
    ``socket_dir/.s.PGSQL.<port>``, as ``user``, with the programs of ``bin_dir``."""

    bin_dir: Path
    socket_dir: Path
    port: int
    user: str
    name: str

    @property
    def dsn(self) -> str:
        """The libpq connection string (every value quoted).

        >>> Database(Path("/usr/bin"), Path("/tmp/pg x"), 5432, "arest", "test_1").dsn
        "host='/tmp/pg x' port='5432' user='arest' dbname='test_1'"
        """
        values = {"host": str(self.socket_dir), "port": str(self.port), "user": self.user,
                  "dbname": self.name}
        return " ".join(f"{key}={libpq_quote(value)}" for key, value in values.items())

    @property
    def url(self) -> str:
        """The libpq connection URL, the socket folder as its ``host`` parameter.

        >>> Database(Path("/usr/bin"), Path("/tmp/pg x"), 5432, "arest", "test_1").url
        'postgresql://arest@/test_1?host=%2Ftmp%2Fpg%20x&port=5432'
        """
        return (f"postgresql://{quote(self.user, safe='')}@/{quote(self.name, safe='')}"
                f"?host={quote(str(self.socket_dir), safe='')}&port={self.port}")

    def named(self, name: str) -> Database:
        """The database ``name`` of the same cluster."""
        return replace(self, name=name)


def libpq_quote(value: str) -> str:
    r"""A value of a libpq connection string: in single quotes, ``\`` and ``'`` escaped.

    >>> print(libpq_quote("it's"))
    'it\'s'
    """
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


class SqlRefused(Exception):
    """Raised by :func:`run_sql` and :func:`query` when psql exits non-zero: PostgreSQL refused
    a statement (``sqlstate`` is its code, e.g. ``23514`` for a CHECK constraint) or the
    database could not be reached (``sqlstate`` is ``None`` when psql printed none)."""

    def __init__(self, sql: str, returncode: int, stderr: str) -> None:
        found = SQLSTATE.search(stderr)
        self.sql, self.returncode, self.stderr = sql, returncode, stderr
        self.sqlstate = found.group(1) if found else None
        super().__init__(f"psql exited {returncode} (SQLSTATE {self.sqlstate}):\n"
                         f"{stderr.strip()}\n-- the SQL:\n{sql.strip()}")


def run_sql(database: Database, sql: str) -> subprocess.CompletedProcess[str]:
    """Runs the script ``sql`` on ``database`` with ``psql -v ON_ERROR_STOP=1`` (statement by
    statement, stopping at the first error); raises :class:`SqlRefused` when psql exits
    non-zero."""
    return _psql(database, sql, "-q")


def query(database: Database, sql: str) -> list[tuple[str, ...]]:
    """The rows of the query ``sql`` on ``database``, each value as psql prints it in CSV
    (``true`` is ``t``; NULL and ``''`` both read ``''``: ask ``x IS NULL`` to tell them);
    raises :class:`SqlRefused` as :func:`run_sql`."""
    printed = _psql(database, sql, "--csv", "--tuples-only")
    # psql prints a row of one empty value as an empty line, which csv reads as no field.
    return [tuple(row) or ("",) for row in csv.reader(printed.stdout.splitlines(keepends=True))]


def _psql(database: Database, sql: str, *options: str) -> subprocess.CompletedProcess[str]:
    # -X: no ~/.psqlrc; VERBOSITY=verbose: the SQLSTATE in every error message.
    command = [str(database.bin_dir / "psql"), "-X", "-v", "ON_ERROR_STOP=1",
               "-v", "VERBOSITY=verbose", *options, "-d", database.dsn, "-f", "-"]
    done = subprocess.run(command, input=sql, capture_output=True, text=True,
                          encoding="utf-8", env=_clean_environment(), check=False)
    if done.returncode != 0:
        raise SqlRefused(sql, done.returncode, done.stderr)
    return done


def create_database(cluster_database: Database, name: str) -> Database:
    """Creates the empty database ``name`` in the cluster of ``cluster_database``."""
    run_sql(cluster_database, f'CREATE DATABASE "{name}"')
    return cluster_database.named(name)


def drop_database(cluster_database: Database, name: str) -> None:
    """Drops the database ``name`` of the cluster, closing its open connections."""
    run_sql(cluster_database, f'DROP DATABASE "{name}" WITH (FORCE)')


def binary_places(environ: Mapping[str, str]) -> list[Path]:
    """Where the PostgreSQL programs are looked for, in order: ``AREST_PG_BIN`` alone when it
    is set; else Debian's ``/usr/lib/postgresql/<version>/bin`` (newest first), the folder
    ``pg_config --bindir`` names, and the folder of an ``initdb`` on the ``PATH``."""
    if environ.get("AREST_PG_BIN"):
        return [Path(environ["AREST_PG_BIN"])]
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                    key=lambda folder: _version_key(folder.parent.name), reverse=True)
    places = [*debian, *_pg_config_bindir()]
    on_path = shutil.which("initdb")
    if on_path:
        places.append(Path(on_path).parent)
    return list(dict.fromkeys(places))


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def _pg_config_bindir() -> list[Path]:
    pg_config = shutil.which("pg_config")
    if pg_config is None:
        return []
    done = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
    return [Path(done.stdout.strip())] if done.returncode == 0 and done.stdout.strip() else []


def missing_reason(places: list[Path]) -> str:
    """The one reason the PostgreSQL tests are skipped when no place holds the programs.

    >>> missing_reason([Path("/opt/pg/bin")])
    'PostgreSQL is not installed (looked in /opt/pg/bin); apt-get install postgresql'
    """
    looked = (", ".join(str(place) for place in places)
              or "/usr/lib/postgresql/*/bin, pg_config --bindir, the PATH")
    return f"PostgreSQL is not installed (looked in {looked}); {INSTALL}"


def find_binaries(environ: Mapping[str, str]) -> Path | str:
    """The first folder of :func:`binary_places` holding ``initdb``, ``pg_ctl``, ``postgres``
    and ``psql``; else the reason the cluster cannot run (:func:`missing_reason`, or root
    without a ``postgres`` user to run it as)."""
    places = binary_places(environ)
    found = next((place for place in places
                  if all(os.access(place / program, os.X_OK) for program in PROGRAMS)), None)
    if found is None:
        return missing_reason(places)
    if os.geteuid() == 0 and _postgres_user() is None:
        return ("PostgreSQL refuses to run as root and there is no user postgres to run it "
                f"as; {INSTALL} creates it")
    return found


def postgres_required(environ: Mapping[str, str]) -> bool:
    """Whether missing PostgreSQL programs fail the tests that need them: in CI (``CI=true``)
    or when asked (``AREST_REQUIRE_POSTGRES=1``).

    >>> postgres_required({"CI": "true"}), postgres_required({"AREST_REQUIRE_POSTGRES": "1"})
    (True, True)
    >>> postgres_required({}), postgres_required({"CI": "false"})
    (False, False)
    """
    return environ.get("CI") == "true" or environ.get("AREST_REQUIRE_POSTGRES") == "1"


def postgres_binaries(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of the PostgreSQL programs (:func:`find_binaries`); else skips the calling
    test with the reason, or fails it when :func:`postgres_required`."""
    environ = os.environ if environ is None else environ
    found = find_binaries(environ)
    if isinstance(found, Path):
        return found
    if postgres_required(environ):
        pytest.fail(f"{found} (CI=true or AREST_REQUIRE_POSTGRES=1 makes this a failure)",
                    pytrace=False)
    pytest.skip(found)


@contextmanager
def cluster(bin_dir: Path) -> Iterator[Database]:
    """A running cluster of the programs of ``bin_dir`` in a fresh temporary folder, its
    superuser ``arest`` trusted on the socket, holding the empty database ``arest`` (the
    :class:`Database` yielded); stopped and removed on exit, also when the block raises."""
    folder = Path(tempfile.mkdtemp(prefix="arest-pg-"))
    owner = _cluster_owner()
    try:
        if owner is not None:
            os.chown(folder, owner.pw_uid, owner.pw_gid)
        data = folder / "data"
        _run_as(owner, folder, bin_dir / "initdb", "-D", data, "-U", CLUSTER_USER, "-A", "trust",
                "--no-sync", "--no-locale", "-E", "UTF8")
        with (data / "postgresql.conf").open("a") as settings:
            for name, value in {**SERVER_SETTINGS, "unix_socket_directories": str(folder)}.items():
                settings.write(f"{name} = '{value.replace(chr(39), chr(39) * 2)}'\n")
        try:
            _run_as(owner, folder, bin_dir / "pg_ctl", "-D", data, "-l", folder / "server.log",
                    "-w", "-t", "60", "start", log=folder / "server.log")
            admin = Database(bin_dir, folder, SOCKET_PORT, CLUSTER_USER, "postgres")
            yield create_database(admin, SESSION_DATABASE)
        finally:
            if (data / "postmaster.pid").exists():
                _run_as(owner, folder, bin_dir / "pg_ctl", "-D", data, "-m", "immediate",
                        "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _postgres_user() -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        return None


def _cluster_owner() -> pwd.struct_passwd | None:
    """The user the cluster runs as: ``postgres`` when the tests run as root, else ``None``
    (the current user)."""
    if os.geteuid() != 0:
        return None
    owner = _postgres_user()
    if owner is None:
        raise RuntimeError("PostgreSQL refuses to run as root and there is no user postgres")
    return owner


def _run_as(owner: pwd.struct_passwd | None, folder: Path, *command: object,
            log: Path | None = None) -> None:
    """Runs a PostgreSQL program in ``folder`` as ``owner``; raises with its output (and the
    server's ``log``) when it fails."""
    environ = _clean_environment()
    if owner is not None:
        environ.update(HOME=str(folder), USER=owner.pw_name, LOGNAME=owner.pw_name)
    done = subprocess.run([str(part) for part in command], cwd=folder, env=environ,
                          capture_output=True, text=True, encoding="utf-8", check=False,
                          user=None if owner is None else owner.pw_uid,
                          group=None if owner is None else owner.pw_gid,
                          extra_groups=None if owner is None else [])
    if done.returncode != 0:
        server_log = log.read_text(errors="replace") if log and log.exists() else ""
        raise RuntimeError(f"{' '.join(map(str, command))} exited {done.returncode}:\n"
                           f"{done.stdout}{done.stderr}{server_log}")


def _clean_environment() -> dict[str, str]:
    """The environment without libpq's ``PG*`` variables (a ``PGHOST`` or ``PGOPTIONS`` of
    the caller's must not reach the throwaway cluster), messages in English, text in UTF-8."""
    environ = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    environ.update(LC_ALL="C", PGCLIENTENCODING="UTF8")
    return environ


def main() -> int:
    """Prints the folder of the PostgreSQL programs and returns 0; else prints why there is
    none and returns 1."""
    found = find_binaries(os.environ)
    print(found)
    return 0 if isinstance(found, Path) else 1


if __name__ == "__main__":
    sys.exit(main())
