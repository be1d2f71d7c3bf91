"""The ``arest`` command line.

``arest eval FUNCTION OBJECT`` applies a function object to an object, both written in
Backus notation, and prints the result:

    $ arest eval '<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>' '<<1,2,3>,<6,5,4>>'
    28

``arest check READINGS…`` reads readings and prints their diagnostics compiler-style;
``arest apply KEY [INPUT] --readings … --db …`` runs one command on a durable tenant.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from arest.algebra import DEFAULT_FUEL, NotationError, Object, apply, evaluate, read, show
from arest.api import ReadingError, load_sources, read_files, warnings
from arest.runtime import ReplayError, StorageError, Tenant, TenantLocked

DEFAULT_DB = "arest.db"


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


@click.group()
@click.version_option(package_name="arest")
def main() -> None:
    """arest: FORML 2 readings evaluated by a β-reducer over Backus's FFP algebra."""


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
def check_command(readings: tuple[str, ...], strict: bool) -> None:
    """Read READINGS (files, or folders of *.md) on top of the metamodel and print every
    error and warning as path:line:column: message.

    Exits 1 when there is an error (a sentence that does not read, or a population that
    violates a constraint), 0 otherwise; a summary goes to stderr.

    \b
    Example:
      arest check examples/orders
    """
    sources = read_files(*readings)
    try:
        errors: tuple[str, ...] = ()
        found = tuple(warnings(load_sources(sources, strict)))
    except ReadingError as error:
        errors, found = tuple(str(d) for d in error.diagnostics), error.warnings
    for line in (*errors, *found):
        click.echo(line)
    click.echo(f"{_count(len(sources), 'readings file')}: {_count(len(errors), 'error')}, "
               f"{_count(len(found), 'warning')}", err=True)
    sys.exit(1 if errors else 0)


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


@main.command("apply")
@click.argument("key")
@click.argument("input_text", metavar="[INPUT]", required=False)
@click.option("--readings", "readings", multiple=True, type=_READINGS, metavar="PATH",
              help="A readings file or folder of *.md (repeatable); none: the metamodel alone.")
@click.option("--db", default=DEFAULT_DB, show_default=True, metavar="PATH",
              help="The SQLite database that keeps the journal; ':memory:' keeps nothing.")
def apply_command(key: str, input_text: str | None, readings: tuple[str, ...], db: str) -> None:
    """Apply one command KEY with INPUT (JSON; '-' reads stdin; absent is null) to the
    tenant of the readings kept in the database, and print its output as JSON.

    The command comes from a Human; an accepted change is journaled before the output is
    printed.  Exits 0 for a result, 1 for an error or a rejection, 2 when the database is
    open in another process.

    \b
    Example:
      arest apply create:Customer '{"id": "ann@example.com", "Name": "Ann"}' \\
          --readings examples/orders --db shop.db
      arest apply read:Customer '"ann@example.com"' --readings examples/orders --db shop.db
    """
    request = _input(input_text)
    try:
        with Tenant.open(*readings, db=db) as tenant:
            out = tenant.call(key, request, source="Human")
    except TenantLocked as error:
        click.echo(str(error), err=True)
        sys.exit(2)
    except (ReadingError, ReplayError, StorageError) as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    failed = isinstance(out, dict) and ("error" in out or out.get("rejected") is True)
    sys.exit(1 if failed else 0)
