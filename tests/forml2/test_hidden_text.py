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
