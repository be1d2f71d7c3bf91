"""Text a reader would otherwise skip in silence is a diagnostic: a code fence or an HTML
comment never closed (it hides the rest of the file), a frequency no number meets."""

from __future__ import annotations

import pytest

from arest.forml2 import Constraint, Reading, read
from tests.forml2.reading import clean

SCHEMA = """
Member(.Member Id) is an entity type.
Loan(.id) is an entity type.
Member takes Loan.
"""
RULE = "Each Member takes at most 3 Loans."


def frequencies(reading: Reading) -> list[object]:
    return [c.bounds for c in reading.constructs if isinstance(c, Constraint) and c.kind == "FC"]


@pytest.fixture(scope="module")
def known() -> Reading:
    return clean(SCHEMA)


@pytest.mark.parametrize(("opening", "what", "closing"), [
    ("```", "code fence", "```"), ("<!-- draft", "comment", "-->")])
def test_an_unclosed_block_is_reported_at_its_opening(
        opening: str, what: str, closing: str, known: Reading) -> None:
    reading = read(f"Member takes Loan.\n\n{opening}\n{RULE}\n", known=known)
    (diagnostic,) = reading.diagnostics
    assert (diagnostic.line, diagnostic.column) == (3, 1)
    assert f"this {what} is never closed" in diagnostic.message
    assert closing in diagnostic.message
    assert frequencies(reading) == []


@pytest.mark.parametrize("block", ["```\nnot readings\n```", "<!-- a note\nover lines -->"])
def test_a_closed_block_hides_only_itself(block: str, known: Reading) -> None:
    reading = read(f"{block}\n{RULE}\n", known=known)
    assert reading.diagnostics == ()
    assert frequencies(reading) == [(None, 3)]


def test_impossible_frequency_bounds_are_a_diagnostic(known: Reading) -> None:
    reading = read("Each Member takes at least 5 and at most 2 Loans.", known=known)
    (diagnostic,) = reading.diagnostics
    assert "no number is at least 5 and at most 2" in diagnostic.message
    assert "at least 2 and at most 5" in diagnostic.message
    assert diagnostic.column == len("Each Member takes ") + 1
    assert frequencies(reading) == []


def test_a_description_that_is_a_sentence_is_a_warning_at_its_line() -> None:
    """The first paragraph under a level-1 heading is the file's description; a sentence
    written there is not read, so the reader says so rather than drop it."""
    reading = read("# Shop\n\nCustomer(.Email) is an entity type.\n\nCustomer has Name.\n")
    [warning] = [w for w in reading.warnings if "description" in w.message]
    assert (warning.line, warning.sentence) == (3, "Customer(.Email) is an entity type.")
    assert reading.schema.nouns["Customer"].kind == "value"  # the declaration was not read


def test_a_description_in_prose_is_read_as_nothing_and_said_nothing_of() -> None:
    reading = read("# Shop\n\nThe shop's orders, and who placed them.\n\n"
                   "Customer(.Email) is an entity type.\n")
    assert not [w for w in reading.warnings if "description" in w.message]
    assert reading.schema.nouns["Customer"].kind == "entity"
