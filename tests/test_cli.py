"""The ``arest`` command: the README's main job, its options, and its errors."""

import subprocess
import sys

from click.testing import CliRunner

from arest.cli import main

INNER_PRODUCT = "<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_the_readme_example_prints_28() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "arest", "eval", INNER_PRODUCT, "<<1,2,3>,<6,5,4>>"],
        capture_output=True, text=True, check=True,
    )
    assert completed.stdout == "28\n"


def test_reference_and_compiled_agree() -> None:
    assert run("eval", INNER_PRODUCT, "<<1,2,3>,<6,5,4>>", "--reference") == (0, "28\n")


def test_definitions_make_controllers() -> None:
    code, output = run("eval", "<SWAP>", "<a, b>", "--def", "SWAP=<COMP, <CONS, 2, 1>, 2>")
    assert (code, output) == (0, "<b, a>\n")


def test_fuel_bounds_the_work() -> None:
    assert run("eval", "<WHILE, <CONST, T>, id>", "a", "--fuel", "100") == (0, "⊥\n")
    assert run("eval", "<WHILE, <CONST, T>, id>", "a", "--fuel", "100", "--reference") == (
        0,
        "⊥\n",
    )


def test_bad_notation_is_a_usage_error_naming_the_place() -> None:
    code, output = run("eval", "<COMP, tl", "<a>")
    assert code == 2
    assert "FUNCTION" in output and "1:10" in output and "'>' to close a sequence" in output


def test_a_malformed_definition_is_a_usage_error() -> None:
    code, output = run("eval", "X", "a", "--def", "no-equals-sign")
    assert code == 2
    assert "NAME=OBJECT" in output
