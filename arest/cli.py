"""The ``arest`` command line.

``arest eval FUNCTION OBJECT`` applies a function object to an object, both written in
Backus notation, and prints the result:

    $ arest eval '<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>' '<<1,2,3>,<6,5,4>>'
    28

``arest check READINGS…`` reads readings and prints their diagnostics compiler-style;
``arest apply KEY [INPUT] --readings … --db …`` runs one command on a durable tenant;
``arest sql READINGS… --dialect sqlite|postgresql`` prints the readings' relational schema;
``arest export READINGS… --db PATH`` prints a tenant's population as that schema's INSERTs;
``arest mcp --readings …`` serves the tenant to an agent over MCP on stdio;
``arest serve READINGS…`` serves it through every web transport installed: arest's own are
streamable HTTP (``/mcp``) and SSE (``/sse``).  The transports are plugins found by their
entry-point groups (:mod:`arest.transports`), never imported here by name.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import click

from arest.algebra import DEFAULT_FUEL, NotationError, Object, State, apply, evaluate, read, show
from arest.api import ReadingError, load_sources, read_files, warnings
from arest.compiler.rmap.dialects import DIALECTS
from arest.forml2 import metamodel
from arest.forml2.urls import slug
from arest.runtime import ReplayError, StorageError, Tenant, TenantLocked
from arest.runtime.database_url import TENANT_NAME, is_postgresql, shown, with_tenant
from arest.runtime.federation import Federation
from arest.runtime.outbound import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT, Policy, networks
from arest.runtime.tenant import MAX_SNAPSHOTS, utc_now
from arest.system.context import HUMAN
from arest.system.machines import machine_of
from arest.system.validate import all_violations
from arest.transports import TransportUnavailable, process_transport, web_transports

DATABASE_NAME = "arest.db"


def default_database(readings: tuple[str, ...]) -> Path:
    """Where a tenant is kept when no ``--db`` is given: ``arest.db`` in the first readings
    folder (beside the first readings file), else in the current directory — so the same
    readings find the same state from any directory."""
    if not readings:
        return Path(DATABASE_NAME)
    first = Path(readings[0])
    return (first if first.is_dir() else first.parent) / DATABASE_NAME


def _parse(text: str, what: str) -> Object:
    try:
        return read(text)
    except NotationError as error:
        raise click.BadParameter(
            f"not an object in Backus notation: {error}", param_hint=what
        ) from None


def _definitions(pairs: tuple[str, ...]) -> dict[str, Object]:
    defs: dict[str, Object] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        if not equals or not name.strip():
            raise click.BadParameter(f"expected NAME=OBJECT, got {pair!r}", param_hint="--def")
        defs[name.strip()] = _parse(text, f"--def {name.strip()}")
    return defs


EXIT_CODES = """\b
Exit codes:
  0  done
  1  the command failed: an error or a rejection (apply), readings with errors
     (check), a tenant that cannot be opened, an arest server that cannot be reached,
     a transport plugin that cannot be loaded (mcp, serve)
  2  a usage error (a bad option; an unusable key; serve on a non-loopback
     address without a key), or something another process holds: the
     database (locked) or the port (in use)"""


@click.group(epilog=EXIT_CODES)
@click.version_option(package_name="arest")
def main() -> None:
    """arest: FORML 2 readings compiled to Backus's FFP algebra and run as an application.

    Every error is one line on stderr beginning ``arest:`` (readings' diagnostics one line
    each), with the exit codes below."""


def _fail(message: str, code: int = 1) -> NoReturn:
    click.echo(f"arest: {message}", err=True)
    sys.exit(code)


@main.command("eval")
@click.argument("function")
@click.argument("argument", metavar="OBJECT")
@click.option(
    "--def", "definitions", multiple=True, metavar="NAME=OBJECT",
    help="Define an atom (repeatable); a defined atom may also head a form, as a controller.",
)
@click.option("--fuel", type=click.IntRange(min=0), default=DEFAULT_FUEL, show_default=True,
              help="Steps allowed before the answer is ⊥.")
@click.option("--reference", is_flag=True,
              help="Use the reference reducer instead of the compiled evaluator.")
def eval_command(
    function: str, argument: str, definitions: tuple[str, ...], fuel: int, reference: bool
) -> None:
    """Apply FUNCTION to OBJECT, both in Backus notation, and print the result.

    \b
    Example:
      arest eval '<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>' '<<1,2,3>,<6,5,4>>'
      arest eval '<SWAP>' '<a, b>' --def 'SWAP=<COMP, <CONS, 2, 1>, 2>'
    """
    f = _parse(function, "FUNCTION")
    x = _parse(argument, "OBJECT")
    defs = _definitions(definitions)
    run = apply if reference else evaluate
    click.echo(show(run(f, x, defs, fuel)))


_READINGS = click.Path(exists=True, dir_okay=True, file_okay=True)


@main.command("check")
@click.argument("readings", nargs=-1, required=True, type=_READINGS)
@click.option("--strict", is_flag=True,
              help="An undeclared noun is an error instead of a warning.")
@click.option("--svg", "pictures", metavar="DIR",
              type=click.Path(file_okay=False, dir_okay=True, writable=True),
              help="Readings without errors: write their pictures into DIR (made when"
                   " missing): schema.svg, the relational schema's tables, and"
                   " machine-<noun>.svg, each state machine of the readings'.")
def check_command(readings: tuple[str, ...], strict: bool, pictures: str | None) -> None:
    """Read READINGS (files, or folders of *.md) on top of the metamodel and print every
    error and warning as path:line:column: message.

    Exits 1 when there is an error (a sentence that does not read, or a population that
    violates a constraint), 0 otherwise; a summary goes to stderr.

    \b
    Example:
      arest check readings/orders
      arest check readings/orders --svg pictures
    """
    sources = read_files(*readings)
    state: State | None = None
    try:
        errors: tuple[str, ...] = ()
        state = load_sources(sources, strict)
        found = tuple(warnings(state))
    except ReadingError as error:
        errors, found = tuple(str(d) for d in error.diagnostics), error.warnings
    for line in (*errors, *found):
        click.echo(line)
    click.echo(f"{_count(len(sources), 'readings file')}: {_count(len(errors), 'error')}, "
               f"{_count(len(found), 'warning')}", err=True)
    if pictures is not None and state is not None:
        written = _write_pictures(state, Path(pictures))
        click.echo(f"{_count(len(written), 'picture')} in {pictures}: {', '.join(written)}",
                   err=True)
    sys.exit(1 if errors else 0)


def _write_pictures(state: State, folder: Path) -> list[str]:
    """schema.svg and machine-<slug>.svg for each machine of the readings' own nouns (not
    the metamodel's) in folder: the names written."""
    from arest.compiler.rmap import relational_schema
    from arest.compiler.schema import schema_of
    from arest.pictures import guards, machine_svg, tables_svg  # only `check --svg` draws

    drawn = {"schema.svg": tables_svg(relational_schema(schema_of(state)))}
    bundled = metamodel().schema.metamodel
    for noun in sorted(schema_of(state).machines):
        machine = machine_of(state, noun)
        if machine is not None and noun not in bundled:
            drawn[f"machine-{slug(noun)}.svg"] = machine_svg(
                machine, guarded=guards(schema_of(state), noun))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, svg in drawn.items():
            (folder / name).write_text(svg, encoding="utf-8")
    except OSError as error:
        _fail(f"cannot write the pictures into {folder}: {error.strerror or error}")
    return list(drawn)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _input(text: str | None) -> Any:
    """The command's input: JSON text, ``-`` for stdin, nothing for null."""
    if text is None:
        return None
    if text == "-":
        text = sys.stdin.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise click.BadParameter(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}",
            param_hint="INPUT",
        ) from None


_MAX_SNAPSHOTS = click.option(
    "--max-snapshots", type=click.IntRange(min=0), default=MAX_SNAPSHOTS, show_default=True,
    envvar="AREST_MAX_SNAPSHOTS", metavar="N",
    help="The most snapshots the tenant holds (AREST_MAX_SNAPSHOTS); a snapshot under a new"
         " label beyond it is refused with limit_exceeded.")


def _cidrs(context: click.Context, parameter: click.Parameter, value: tuple[str, ...]
           ) -> tuple[str, ...]:
    try:
        networks(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    return value


_ALLOW_OUTBOUND = click.option(
    "--allow-outbound", "allow_outbound", multiple=True, metavar="CIDR", callback=_cidrs,
    help="A range of private, loopback or link-local addresses the external systems of"
         " backed nouns may be fetched from (repeatable, e.g. 10.0.0.0/8); global addresses"
         " need none.  [default: none]")


def _ca_file(context: click.Context, parameter: click.Parameter, value: str | None
             ) -> str | None:
    import ssl

    if value is not None:
        try:
            ssl.create_default_context().load_verify_locations(cafile=value)
        except (OSError, ssl.SSLError) as error:
            raise click.BadParameter(f"{value}: not a PEM file of certificates ({error})"
                                     ) from None
    return value


_OUTBOUND_TIMEOUT = click.option(
    "--outbound-timeout", type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_TIMEOUT, show_default=True, metavar="SECONDS",
    help="The deadline of one request to an external system (connect, headers, body,"
         " redirects): a ceiling, which a system's Timeout Seconds may lower, never raise;"
         " past it the read is external_unavailable, status timeout (REST 504).")
_OUTBOUND_MAX_BYTES = click.option(
    "--outbound-max-bytes", type=click.IntRange(min=1), default=DEFAULT_MAX_BYTES,
    show_default=True, metavar="BYTES",
    help="The longest body read from an external system: a ceiling, which a system's Max"
         " Response Bytes may lower, never raise; a longer one is refused"
         " (external_unavailable, status too_large).")
_OUTBOUND_CA_FILE = click.option(
    "--outbound-ca-file", metavar="PATH", callback=_ca_file,
    help="A PEM file of certificate authorities trusted for https external systems, besides"
         " the system's store (which SSL_CERT_FILE replaces).")


def _outbound(allow_outbound: tuple[str, ...], outbound_timeout: float,
              outbound_max_bytes: int, outbound_ca_file: str | None) -> Policy:
    """The operator's outbound policy from the options of ``serve`` and ``mcp``.

    >>> _outbound(("127.0.0.1",), 2.5, 1024, None).timeout
    2.5
    """
    return Policy(networks(allow_outbound), timeout=outbound_timeout,
                  max_bytes=outbound_max_bytes, ca_file=outbound_ca_file)


@main.command("apply")
@click.argument("key")
@click.argument("input_text", metavar="[INPUT]", required=False)
@click.option("--readings", "readings", multiple=True, type=_READINGS, metavar="PATH",
              help="A readings file or folder of *.md (repeatable); none: the metamodel alone.")
@click.option("--db", metavar="PATH",
              help="The SQLite database that keeps the journal; ':memory:' keeps nothing."
                   "  [default: arest.db in the first readings folder, else here]")
@_MAX_SNAPSHOTS
def apply_command(key: str, input_text: str | None, readings: tuple[str, ...],
                  db: str | None, max_snapshots: int) -> None:
    """Apply one command KEY with INPUT (JSON; '-' reads stdin; absent is null) to the
    tenant of the readings kept in the database, and print its output as JSON.

    The command comes from a Human holding every permission; an accepted change is
    journaled before the output is printed.  Exits 0 for a result, 1 for an error or a
    rejection, 2 when the database is open in another process.

    \b
    Example:
      arest apply create:Customer '{"id": "ann@example.com", "Name": "Ann"}' \\
          --readings readings/orders --db shop.db
      arest apply read:Customer '"ann@example.com"' --readings readings/orders --db shop.db
    """
    request = _input(input_text)
    with _open(readings, str(db or default_database(readings)), max_snapshots) as tenant:
        out = tenant.call(key, request, source=HUMAN)
    click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    failed = isinstance(out, dict) and ("error" in out or out.get("rejected") is True)
    sys.exit(1 if failed else 0)


@main.command("openapi")
@click.argument("readings", nargs=-1, required=True, type=_READINGS)
@click.option("--db", metavar="PATH",
              help="The SQLite database of the tenant, whose compiled readings the document"
                   " shows; ':memory:' the readings alone.  [default: arest.db in the first"
                   " readings folder when it is there, else the readings alone]")
def openapi_command(readings: tuple[str, ...], db: str | None) -> None:
    """Print the OpenAPI 3.1 document of the REST surface `arest serve` gives the tenant of
    READINGS (the one GET /openapi.json answers), as JSON.

    The document follows the tenant's current schema: readings compiled into the database
    since (compile, an applied Domain Change) are in it.  Exits 1 when the readings or the
    database cannot be used, 2 when the database is open in another process.

    \b
    Example:
      arest openapi readings/orders > orders-openapi.json
    """
    from arest.rest.openapi import document  # REST's modules load for this command only

    kept = default_database(readings)
    database = db or (str(kept) if kept.exists() else ":memory:")
    with _open(readings, database) as tenant:
        out = document(tenant.state)
    click.echo(json.dumps(out, indent=2, ensure_ascii=False))


@main.command("sql")
@click.argument("readings", nargs=-1, required=True, type=_READINGS)
@click.option("--dialect", type=click.Choice(DIALECTS), default="sqlite", show_default=True,
              help="The SQL dialect of the DDL.")
@click.option("--db", metavar="PATH",
              help="A tenant database of these readings: its schema, with the Domain Changes"
                   " applied to it, instead of the readings' alone.")
def sql_command(readings: tuple[str, ...], dialect: str, db: str | None) -> None:
    """Print the relational schema of READINGS (files, or folders of *.md) as SQL DDL:
    a table per entity type and per fact type that is not a column, keys, foreign keys,
    CHECKs, a view per derived fact type whose rules are joins, negations or counts, and
    comments listing what arest enforces or derives that the tables and views do not
    (docs/sql.md).

    Exits 1 when the readings have errors or the database cannot be used.

    \b
    Example:
      arest sql readings/orders --dialect postgresql
      arest sql readings/orders --db shop.db
    """
    if db is None:
        try:
            state = load_sources(read_files(*readings))
        except ReadingError as error:
            _fail(str(error))
    else:
        if db != ":memory:" and not is_postgresql(db) and not Path(db).is_file():
            _fail(f"no database at {db}: give the path of a tenant's database (arest apply"
                  " and arest serve keep one), or no --db for the readings alone")
        with _open(readings, db) as tenant:
            state = tenant.state
    from arest.compiler.rmap import ddl, relational_schema, views_of  # `arest sql` alone
    from arest.compiler.schema import schema_of

    tables = relational_schema(schema_of(state))
    click.echo(ddl(tables, dialect, views_of(state, tables)), nl=False)


@main.command("export")
@click.argument("readings", nargs=-1, required=True, type=_READINGS)
@click.option("--db", metavar="PATH", required=True,
              help="The tenant's database (arest apply and arest serve keep one): the"
                   " population to export.")
@click.option("--dialect", type=click.Choice(DIALECTS), default="sqlite", show_default=True,
              help="The SQL dialect of the DDL and the INSERTs.")
@click.option("--data-only", is_flag=True, help="Print the INSERTs only, not the DDL.")
def export_command(readings: tuple[str, ...], db: str, dialect: str, data_only: bool) -> None:
    """Print a tenant's population as SQL: the DDL of ``arest sql``, then an INSERT per row
    in an order the foreign keys accept (docs/sql.md, Export).  The asserted facts are
    exported, derived ones are not; the deontic violations the rows hold are listed in a
    last comment.

    Exits 1 when the readings have errors or the database cannot be used.

    \b
    Example:
      arest export readings/orders --db shop.db > shop.sql
      arest export readings/orders --db shop.db --dialect postgresql --data-only
    """
    if db != ":memory:" and not is_postgresql(db) and not Path(db).is_file():
        _fail(f"no database at {db}: give the path of a tenant's database (arest apply"
              " and arest serve keep one)")
    from arest.compiler.rmap import ddl, relational_schema, views_of  # `arest export` alone
    from arest.compiler.rmap.export import inserts, rows
    from arest.compiler.schema import schema_of

    with _open(readings, db) as tenant:
        state = tenant.state
    tables = relational_schema(schema_of(state))
    text = inserts(tables, rows(state, tables), dialect)
    if not data_only:
        text = ddl(tables, dialect, views_of(state, tables)) + "\n" + text
    counts: dict[str, int] = {}
    for violation in all_violations(state, "deontic"):
        if violation["modality"] == "deontic":
            reading = " ".join(str(violation["reading"]).split())
            counts[reading] = counts.get(reading, 0) + 1
    if counts:
        text += "-- Deontic violations these rows hold (arest reports them; no table refuses"
        text += " them):\n"
        text += "".join(f"-- deontic: {reading}: {count} facts\n"
                        for reading, count in sorted(counts.items()))
    click.echo(text, nl=False)


@main.command("mcp")
@click.argument("paths", nargs=-1, type=_READINGS, metavar="[READINGS]...")
@click.option("--mode", type=click.Choice(["local", "remote"]), default="local",
              show_default=True, envvar="AREST_MODE",
              help="local: serve a tenant kept on this machine; remote: relay to the arest"
                   " server at --url.")
@click.option("--url", envvar="AREST_URL", metavar="URL",
              help="remote mode: the arest server's address (AREST_URL), e.g."
                   " http://127.0.0.1:4009.")
@click.option("--api-key", envvar="AREST_API_KEY", metavar="KEY",
              help="remote mode: the key the server requires (AREST_API_KEY).")
@click.option("--readings", "readings", multiple=True, type=_READINGS, metavar="PATH",
              envvar="AREST_READINGS_DIR",
              help="A readings file or folder of *.md (repeatable; AREST_READINGS_DIR).")
@click.option("--db", metavar="PATH|URL", envvar="AREST_DB",
              help="The database (AREST_DB): a SQLite file; ':memory:' keeps nothing;"
                   " postgresql://…?tenant=NAME keeps the tenant in PostgreSQL, where several"
                   " servers may serve it (docs/scale.md)."
                   "  [default: arest.db in the first readings folder, else here]")
@click.option("--tags", metavar="A,B,…",
              help="The tool tags to serve, comma-separated  [default: entity,introspection]")
@click.option("--include-tools", metavar="A,B,…",
              help="Tools to add to the tags' tools, comma-separated.")
@click.option("--exclude-tools", metavar="A,B,…", help="Tools to remove, comma-separated.")
@click.option("--permissions", "permission_list", metavar="A,B,…",
              help="local mode: what the agent may do, from read, write, schema, history, outbound"
                   "  [default: read,write]")
@click.option("--print-config", is_flag=True,
              help="Print the client configuration that starts this server as invoked"
                   " (absolute paths), and exit.")
@_MAX_SNAPSHOTS
@_ALLOW_OUTBOUND
@_OUTBOUND_TIMEOUT
@_OUTBOUND_MAX_BYTES
@_OUTBOUND_CA_FILE
def mcp_command(paths: tuple[str, ...], mode: str, url: str | None, api_key: str | None,
                readings: tuple[str, ...], db: str | None, tags: str | None,
                include_tools: str | None, exclude_tools: str | None,
                permission_list: str | None, print_config: bool, max_snapshots: int,
                allow_outbound: tuple[str, ...], outbound_timeout: float,
                outbound_max_bytes: int, outbound_ca_file: str | None) -> None:
    """Serve the tenant of the readings to an MCP client over stdio (local mode), or relay the
    client to another arest server (remote mode; the LLM-bridge verbs then answer
    prompt-only, since sampling is not relayed).

    Commands arrive from an Agent holding read,write (or --permissions): a call that needs
    another permission (compile and applying a Domain Change need schema; snapshot and
    rollback need history) is answered with the error forbidden, whatever tools --tags
    shows.  Each accepted command is journaled before it is answered.  The mode, readings,
    database, tools and permissions are printed to stderr at start.

    READINGS are files or folders of *.md, as --readings gives them.

    \b
    Client configuration (Claude Desktop, Cursor, …), printed with absolute paths by
    `arest mcp READINGS --print-config`:
      {"mcpServers": {"arest": {"command": "/path/to/.venv/bin/arest",
        "args": ["mcp", "--mode", "local", "/path/to/readings"]}}}
    """
    from arest.system.permissions import AGENT_PRINCIPAL, Principal
    from arest.verbs import SurfaceError, surface

    readings = (*paths, *readings)
    if print_config:
        click.echo(json.dumps(client_configuration(
            mode, url, readings, db, tags, include_tools, exclude_tools, permission_list),
            indent=2))
        return
    principal = AGENT_PRINCIPAL if permission_list is None else Principal(
        AGENT_PRINCIPAL.source, _permissions(permission_list, "--permissions"))

    try:
        active = surface(tags, include_tools, exclude_tools)
    except SurfaceError as error:
        hint = {"tags": "--tags", "include_tools": "--include-tools",
                "exclude_tools": "--exclude-tools"}[error.option]
        raise click.BadParameter(
            f"unknown {', '.join(error.unknown)}; valid values: {', '.join(error.valid)}",
            param_hint=hint) from None
    if mode == "remote":
        if not url:
            raise click.UsageError("remote mode needs --url (or AREST_URL)")
        if readings or db:
            raise click.UsageError("remote mode serves the remote's tenant: no --readings, --db")
        if permission_list is not None:
            raise click.UsageError("remote mode: the remote server decides the permissions,"
                                   " from --api-key; no --permissions")
        from arest.transports.remote import RemoteUnavailable, serve_relay

        click.echo(f"arest mcp: mode remote, relaying to {url}, tools"
                   f" {', '.join(v.name for v in active.listed())}", err=True)
        try:
            serve_relay(url, api_key or None, active)
        except RemoteUnavailable as error:
            _fail(str(error))
        return
    database = db or str(default_database(readings))
    try:
        serve = process_transport("stdio")
    except TransportUnavailable as error:
        _fail(str(error))
    # The stdio transport reads stdin in a thread that no signal interrupts: once stopped
    # and the tenant closed, the process ends rather than wait for the client's next line.
    with _stopped_by_signals("mcp", exit_after=True):
        tenant = _open(readings, database, max_snapshots, _outbound(
            allow_outbound, outbound_timeout, outbound_max_bytes, outbound_ca_file),
            serving=True)
        click.echo(f"arest mcp: mode {mode}, readings {', '.join(readings) or '(metamodel only)'},"
                   f" database {_shown(database)},"
                   f" tools {', '.join(v.name for v in active.listed())},"
                   f" permissions {_listed(principal.permissions)}", err=True)
        with tenant:
            serve(tenant, active, principal)


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""The signals that stop a server: its tenant is closed before the process ends."""


class _Stopped(KeyboardInterrupt):
    """A stop signal arrived; its name is the message.  A KeyboardInterrupt, since that is
    what an event loop lets through when a signal lands in one of its callbacks (another
    exception would be logged there and lost, leaving the signals ignored)."""


@contextlib.contextmanager
def _stopped_by_signals(command: str, exit_after: bool = False) -> Iterator[None]:
    """Within: SIGTERM or SIGINT (Ctrl-C) raises ``_Stopped`` once (later ones are ignored,
    so the tenant's close runs whole), which ends the ``with`` blocks it crosses (the
    tenant's closes it) and here is a line on stderr and exit code 0.  ``exit_after``: end
    the process at once after that line (threads left waiting on input are not joined)."""

    def stop(number: int, frame: FrameType | None) -> None:
        for each in STOP_SIGNALS:
            signal.signal(each, signal.SIG_IGN)
        raise _Stopped(signal.Signals(number).name)

    previous = {each: signal.signal(each, stop) for each in STOP_SIGNALS}
    try:
        yield
    except _Stopped as stopped:
        click.echo(f"arest {command}: stopped by {stopped}; the database is closed", err=True)
        if exit_after:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)


@main.command("backup")
@click.argument("database", metavar="DB", type=click.Path(dir_okay=False))
@click.argument("destination", metavar="DEST", type=click.Path(dir_okay=False))
def backup_command(database: str, destination: str) -> None:
    """Copy the tenant database DB to DEST as one consistent, closed file, while a tenant
    may hold DB open and go on writing (SQLite's online backup; no lock is taken).

    DEST must not exist; it appears only when complete.  Restore by putting DEST where the
    tenant's database goes (with no -wal file beside it).  Exits 0 when done, 1 when DB is
    not a usable arest database or DEST cannot be written, 2 when DEST exists.

    \b
    Example:
      arest backup readings/orders/arest.db backups/orders-2025-01-01.db
    """
    from arest.runtime.backup import backup

    if is_postgresql(database):
        _fail(f"{_shown(database)} is a tenant in PostgreSQL: back it up with PostgreSQL's"
              " own tools, e.g. pg_dump --schema=TENANT (docs/scale.md)")
    try:
        entries = backup(database, destination)
    except FileExistsError as error:
        _fail(str(error), 2)
    except StorageError as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"cannot write {destination}: {error.strerror or error}")
    click.echo(f"arest backup: {database} to {destination}, {entries} journal entries",
               err=True)


def _permissions(text: str, option: str) -> frozenset[str]:
    """The permissions an option lists, or a usage error naming the valid ones."""
    from arest.system.permissions import PermissionsError, permissions

    try:
        return permissions(text)
    except PermissionsError as error:
        raise click.BadParameter(str(error), param_hint=option) from None


def _listed(permissions: frozenset[str]) -> str:
    from arest.system.permissions import PERMISSIONS

    return ",".join(p for p in PERMISSIONS if p in permissions)


@main.command("serve")
@click.argument("readings", nargs=-1, type=_READINGS)
@click.option("--db", metavar="PATH|URL", envvar="AREST_DB",
              help="The database (AREST_DB): a SQLite file; ':memory:' keeps nothing;"
                   " postgresql://…?tenant=NAME keeps the tenant in PostgreSQL, where several"
                   " servers may serve it (docs/scale.md)."
                   "  [default: arest.db in the first readings folder, else here]")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to serve.")
@click.option("--port", default=4009, show_default=True, type=click.IntRange(1, 65535))
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME",
              help="A name clients use to reach this server (repeatable): its Host and Origin"
                   " headers are accepted.  Loopback names are accepted for a loopback"
                   " address.")
@click.option("--api-key", "api_keys", multiple=True, envvar="AREST_API_KEY",
              metavar="[NAME=]KEY",
              help="A key an agent may bear, Authorization: Bearer KEY (repeatable;"
                   " AREST_API_KEY, keys separated by spaces): an Agent holding read,write or"
                   " --api-key-permissions.  A key holding '=' is given with a name.")
@click.option("--api-key-permissions", metavar="A,B,…",
              help="What an API key may do, from read, write, schema, history, outbound"
                   "  [default: read,write]")
@click.option("--admin-key", envvar="AREST_ADMIN_KEY", metavar="KEY",
              help="Requests bearing this key act as a Human holding every permission"
                   " (AREST_ADMIN_KEY).")
@click.option("--cors-origin", "cors_origins", multiple=True, metavar="ORIGIN",
              help="An origin whose pages may call the REST routes, e.g."
                   " https://app.example.com (repeatable); none: CORS is off.")
@click.option("--max-sessions-per-key", default=256, show_default=True, metavar="N",
              type=click.IntRange(min=1),
              help="The most MCP sessions one key holds open at once, on each of streamable"
                   " HTTP and SSE (without keys: everyone together); one more is refused"
                   " with 503 until one closes.")
@click.option("--session-idle-seconds", default=300.0, show_default=True, metavar="S",
              type=click.FloatRange(min=0, min_open=True, max=1e9),
              help="An MCP session (or SSE stream) no request has used for this long is"
                   " closed; its client opens a new one.")
@click.option("--command-seconds", default=60.0, show_default=True, metavar="S",
              type=click.FloatRange(min=0, min_open=True, max=1e9),
              help="How long the command of one MCP tool call or REST request may run;"
                   " past it, or when its client goes away, it is stopped with the error"
                   " limit_exceeded and changes nothing.")
@click.option("--tenant", "tenants", multiple=True, metavar="NAME",
              help="Serve the tenant NAME at /t/NAME/ (repeatable), each over READINGS:"
                   " with a PostgreSQL --db, the schema NAME of its database; with a folder"
                   " as --db, the file NAME.db in it; with ':memory:', kept nowhere."
                   "  [default: the one tenant of --db, at the root]")
@_MAX_SNAPSHOTS
@_ALLOW_OUTBOUND
@_OUTBOUND_TIMEOUT
@_OUTBOUND_MAX_BYTES
@_OUTBOUND_CA_FILE
def serve_command(readings: tuple[str, ...], db: str | None, host: str, port: int,
                  allowed_hosts: tuple[str, ...], api_keys: tuple[str, ...],
                  api_key_permissions: str | None, admin_key: str | None,
                  cors_origins: tuple[str, ...], max_sessions_per_key: int,
                  session_idle_seconds: float, command_seconds: float,
                  tenants: tuple[str, ...], max_snapshots: int,
                  allow_outbound: tuple[str, ...], outbound_timeout: float,
                  outbound_max_bytes: int, outbound_ca_file: str | None) -> None:
    """Serve the tenant of READINGS over MCP (streamable HTTP at /mcp, SSE at /sse) and REST
    (every other path: / links to the collections, /openapi.json describes them), and the
    routes of any other web transport installed (the banner lists them all).

    A URL chooses the tools a client sees: /mcp?tags=entity,persistence&include_tools=propose
    &exclude_tools=delete (default entity,introspection).  The key of each request decides
    what it may do: an API key is an Agent holding read,write (or --api-key-permissions),
    the admin key a Human holding every permission; a call needing a permission the key
    lacks is answered with the error forbidden.  With no key, only a loopback address is
    served, every request an Agent holding read,write; a non-loopback --host needs a key
    (exit 2 otherwise).

    With --tenant NAME (repeatable) each tenant is served at /t/NAME/ (REST, /t/NAME/mcp,
    /t/NAME/sse), every href carrying the prefix; the keys are the same for every tenant.

    \b
    Client configuration:
      {"mcpServers": {"arest": {"url": "http://127.0.0.1:4009/mcp"}}}
    """
    # The keys are checked before the web stack and the MCP SDK load: a refusal is at once.
    from arest.transports.access import Access, UnusableKey

    granted = (None if api_key_permissions is None
               else _permissions(api_key_permissions, "--api-key-permissions"))
    try:
        access = (Access.of(api_keys, admin_key) if granted is None
                  else Access.of(api_keys, admin_key, granted))
    except UnusableKey as error:
        _fail(str(error), 2)
    if not access.keys and not _loopback(host):
        _fail(f"--host {host} is not a loopback address: serving it needs --api-key or"
              " --admin-key (without a key, only 127.0.0.1, ::1 or localhost is served)", 2)

    # So are the databases' folders and the port: a mistyped --db or a port in use too.
    databases = (_tenant_databases(tenants, db or str(default_database(readings).parent))
                 if tenants else {"": db or str(default_database(readings))})
    for database in databases.values():
        _folder_checked(database)
    listening = _listen(host, port)

    import uvicorn

    from arest.transports.sessions import SessionLimits
    from arest.transports.web import Web, mount, security_for, web_app
    try:
        transports = web_transports()
    except TransportUnavailable as error:
        _fail(str(error))
    outbound = _outbound(allow_outbound, outbound_timeout, outbound_max_bytes,
                         outbound_ca_file)
    if tenants:
        _serve_tenants(readings, databases, access, transports, host, port, listening,
                       allowed_hosts, cors_origins, max_snapshots, outbound,
                       SessionLimits(max_sessions_per_key, session_idle_seconds),
                       command_seconds)
        return
    database = databases[""]
    with _stopped_by_signals("serve"), _open(readings, database, max_snapshots,
                                              outbound, serving=True) as tenant:
        web = Web(tenant, access, security_for(host, port, allowed_hosts), cors_origins,
                  SessionLimits(max_sessions_per_key, session_idle_seconds), command_seconds)
        try:
            mounted = mount(web, transports)
        except TransportUnavailable as error:
            _fail(str(error))
        routed = "; ".join(f"{name} {', '.join(routes.paths())}"
                           for name, routes in mounted.items())
        click.echo(f"arest serve: http://{host}:{port} ({routed}), readings"
                   f" {', '.join(readings) or '(metamodel only)'}, database {_shown(database)}"
                   f", {_keys(access)}", err=True)
        config = uvicorn.Config(web_app(web, list(mounted.values())), host=host, port=port,
                                log_level="warning")
        uvicorn.Server(config).run(sockets=[listening])


def _tenant_databases(tenants: tuple[str, ...], db: str) -> dict[str, str]:
    """Each ``--tenant``'s database: its schema of a PostgreSQL ``--db``, ``NAME.db`` in a
    folder ``--db``, or ``:memory:``; exit 2 for an unusable or repeated name, or a ``--db``
    that is a file.

    >>> _tenant_databases(("east", "west"), "postgresql://db/shop")["west"]
    'postgresql://db/shop?tenant=west'
    """
    names = set()
    for name in tenants:
        if not TENANT_NAME.fullmatch(name) or name.startswith("pg_"):
            _fail(f"--tenant {name!r}: a tenant's name is a lower-case letter, then up to 49"
                  " lower-case letters, digits or underscores (not pg_…), e.g. --tenant shop", 2)
        if name in names:
            _fail(f"--tenant {name!r} is given twice", 2)
        names.add(name)
    if is_postgresql(db):
        return {name: with_tenant(db, name) for name in tenants}
    if db == ":memory:":
        return dict.fromkeys(tenants, db)
    if not Path(db).is_dir():
        _fail(f"--db {db}: with --tenant, a SQLite --db is the folder that keeps each tenant"
              " as NAME.db (or a postgresql:// URL, or ':memory:')", 2)
    return {name: str(Path(db) / f"{name}.db") for name in tenants}


def _serve_tenants(readings: tuple[str, ...], databases: dict[str, str], access: Any,
                   transports: Any, host: str, port: int, listening: Any,
                   allowed_hosts: tuple[str, ...], cors_origins: tuple[str, ...],
                   max_snapshots: int, outbound: Policy, sessions: Any,
                   command_seconds: float) -> None:
    """Serve each tenant at /t/<name>/ (:mod:`arest.transports.tenants`), each with its
    own sessions under the same limits, on the socket listening at host:port."""
    import uvicorn

    from arest.transports.tenants import prefix_of, tenants_app
    from arest.transports.web import Web, mount, security_for

    security = security_for(host, port, allowed_hosts)
    with _stopped_by_signals("serve"), contextlib.ExitStack() as stack:
        served = {}
        for name, database in databases.items():
            tenant = stack.enter_context(_open(readings, database, max_snapshots,
                                               outbound, serving=True))
            web = Web(tenant, access, security, cors_origins, sessions, command_seconds,
                      base=prefix_of(name))
            try:
                served[name] = (web, list(mount(web, transports).values()))
            except TransportUnavailable as error:
                _fail(str(error))
        shown_tenants = ", ".join(f"{prefix_of(name)}/ ({_shown(database)})"
                                  for name, database in databases.items())
        click.echo(f"arest serve: http://{host}:{port}, tenants {shown_tenants}, readings"
                   f" {', '.join(readings) or '(metamodel only)'}, {_keys(access)}", err=True)
        config = uvicorn.Config(tenants_app(served, access), host=host, port=port,
                                log_level="warning")
        uvicorn.Server(config).run(sockets=[listening])


def _loopback(host: str) -> bool:
    """Whether a host names this machine only: localhost, or a loopback address.

    >>> [_loopback(h) for h in ("127.0.0.1", "127.1.2.3", "::1", "localhost", "0.0.0.0", "::")]
    [True, True, True, True, False, False]
    """
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _keys(access: Any) -> str:
    """The banner's account of the keys: names and what each may do, never the secrets."""
    if not access.keys:
        return "no key: every request an Agent with read,write"
    return "keys required: " + "; ".join(
        f"{key.name} ({key.principal.source}, {_listed(key.principal.permissions)})"
        for key in access.keys)


def _listen(host: str, port: int) -> Any:
    """A socket bound to host:port before anything is announced, or exit 2 when another
    process holds the port."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not the default 0: asyncio turns Nagle's algorithm off only on sockets
    # that say they are TCP, and with it on every response written in two parts waits for
    # the client's delayed ACK (40 ms).
    listening = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            _fail(f"port {port} on {host} is in use by another process: stop it or choose"
                  " --port", 2)
        _fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    return listening


def _folder_checked(database: str) -> None:
    """Exit 1 where database is a SQLite file in a folder that does not exist."""
    folder = Path(database).parent
    if database != ":memory:" and not is_postgresql(database) and not folder.is_dir():
        _fail(f"no folder {folder} for the database {database}: create it or choose"
              " another --db")


def _open(readings: tuple[str, ...], database: str, max_snapshots: int = MAX_SNAPSHOTS,
          outbound: Policy | None = None, serving: bool = False) -> Tenant:
    """The tenant, or exit: 2 when the database is open elsewhere, 1 when it cannot be used.
    Its backed nouns are fetched under the outbound policy (default: global addresses only,
    the default bounds), with the secrets of this process's environment
    (``docs/federation.md``).  For a server (``serving``), everything alive once it is
    open is left out of the collector's full collections (``gc.freeze``)."""
    _folder_checked(database)
    try:
        tenant = Tenant.open(*readings, db=database, max_snapshots=max_snapshots)
        tenant.federate(Federation(outbound or Policy(), os.environ, utc_now))
        if serving:
            # The compiled readings, the metamodel and the state opened live as long as the
            # server: a full collection walking them (tens of ms) would land in some command.
            gc.freeze()
        return tenant
    except TenantLocked as error:
        _fail(str(error), 2)
    except (ReadingError, ReplayError, StorageError) as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"cannot open the database {_shown(database)}: {error.strerror or error}")


def _shown(database: str) -> str:
    """The database as the banner names it: a PostgreSQL URL without its password."""
    return shown(database) if is_postgresql(database) else database


def client_configuration(mode: str, url: str | None, readings: tuple[str, ...],
                         db: str | None, tags: str | None, include_tools: str | None,
                         exclude_tools: str | None, permissions: str | None = None
                         ) -> dict[str, Any]:
    """The ``mcpServers`` entry that starts ``arest mcp`` with these options from any
    directory: the installed ``arest`` by its absolute path, readings and database
    absolute."""
    script = Path(sys.executable).parent / "arest"
    command, args = (str(script), ["mcp"]) if script.exists() else (
        sys.executable, ["-m", "arest", "mcp"])
    args += ["--mode", mode]
    if mode == "remote" and url:
        args += ["--url", url]
    args += [str(Path(path).resolve()) for path in readings]
    if db:
        args += ["--db", db if db == ":memory:" or is_postgresql(db)
                 else str(Path(db).resolve())]
    for option, value in (("--tags", tags), ("--include-tools", include_tools),
                          ("--exclude-tools", exclude_tools), ("--permissions", permissions)):
        if value:
            args += [option, value]
    return {"mcpServers": {"arest": {"command": command, "args": args}}}

