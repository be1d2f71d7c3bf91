"""`or` in a rule body: one rule per disjunct, `and` binding tighter; each disjunct names
every variable of the consequent; each rule says a sentence that reads back to it."""

from __future__ import annotations

import pytest

import arest
from arest.forml2 import Atom, DerivationRule, ReadingError, read, verbalize
from tests.forml2.reading import clean

SCHEMA = """
Person(.Name) is an entity type.
Order(.id) is an entity type.
Person is happy.
Person is rich.
Person is healthy.
Person is rested.
Order is big.
Person placed Order.
Person has Order Count.
"""


def rules(text: str) -> list[DerivationRule]:
    reading = read(text, known=clean(SCHEMA))
    assert reading.diagnostics == (), reading.diagnostics
    return [c for c in reading.constructs if isinstance(c, DerivationRule)]


def test_each_disjunct_is_a_rule_deriving_the_same_fact_type() -> None:
    sentence = ("* Person is happy iff Person is rich or Person is healthy and Person is rested"
                " or Person placed Order and Order is big.")
    found = rules(sentence + "\n")
    assert [r.conditions for r in found] == [
        (Atom("Person_is_rich", ("Person",)),),
        (Atom("Person_is_healthy", ("Person",)), Atom("Person_is_rested", ("Person",))),
        (Atom("Person_placed_Order", ("Person", "Order")), Atom("Order_is_big", ("Order",))),
    ]
    assert {r.consequent for r in found} == {Atom("Person_is_happy", ("Person",))}
    assert {r.reading for r in found} == {sentence}
    assert len({r.id for r in found}) == 3


def test_each_disjunct_says_a_rule_of_its_own() -> None:
    known = clean(SCHEMA)
    reading = read("* Person is happy iff Person is rich or Person is healthy.\n", known=known)
    said = [verbalize(c, reading) for c in reading.constructs]
    assert said == ["* Person is happy iff Person is rich.",
                    "* Person is happy iff Person is healthy."]


@pytest.mark.parametrize("sentence, message", [
    ("* Person is happy iff Person is rich or Order is big.",
     "alternative 2 of the `or` does not name Person"),
    ("* Person is happy iff Person is not rich or Person is healthy.",
     "alternative 1 of the `or` does not name Person"),
    ("* Person has Order Count iff Order Count is the count of Order where Person placed Order"
     " or Person is rich.", "an aggregation cannot be one alternative of `or`"),
])
def test_a_disjunct_that_cannot_derive_alone_is_a_diagnostic_at_the_sentence(
        sentence: str, message: str) -> None:
    reading = read(sentence + "\n", known=clean(SCHEMA))
    (diagnostic,) = reading.diagnostics
    assert message in diagnostic.message
    assert (diagnostic.line, diagnostic.column) == (1, 1)
    assert not any(isinstance(c, DerivationRule) for c in reading.constructs)


def test_compile_refuses_an_unbound_disjunct_with_a_reading_error() -> None:
    with pytest.raises(ReadingError, match="alternative 2 of the `or`"):
        arest.compile(SCHEMA + "* Person is happy iff Person is rich or Order is big.\n")


def test_or_in_the_premises_of_if_then_proposes_the_iff_form() -> None:
    reading = read("* If Person is rich or Person is healthy then Person is happy.\n",
                   known=clean(SCHEMA))
    (diagnostic,) = reading.diagnostics
    assert "alternatives (`or`) are read in a rule with `iff`" in diagnostic.message
