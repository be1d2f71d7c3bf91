"""The ``arest`` command line.

``arest eval FUNCTION OBJECT`` applies a function object to an object, both written in
Backus notation, and prints the result:

    $ arest eval '<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>' '<<1,2,3>,<6,5,4>>'
    28
"""

from __future__ import annotations

import click

from arest.algebra import DEFAULT_FUEL, NotationError, Object, apply, evaluate, read, show


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
