"""Reading limits: a sentence too long, joining too many clauses, nesting too many, or
writing too large a numeral is refused at the sentence with a diagnostic that names the
limit and what was found; a sentence within them reads as before."""

from __future__ import annotations

import pytest

import arest
from arest.forml2 import ReadingError, metamodel, read
from arest.forml2.limits import MAX_CLAUSES, MAX_NESTING, MAX_NUMERAL_DIGITS

DECLARED = """\
Customer(.Name) is an entity type.
Name is a value type.
Customer has Name.
Customer is vip.
Customer has Age.
Age is a value type.
"""


def rule(clauses: int) -> str:
    return "* Customer is vip if " + " and ".join(["Customer has Name"] * clauses) + "."


def only_diagnostic(text: str) -> tuple[int, int, str]:
    (diagnostic,) = read(DECLARED + text, known=metamodel()).diagnostics
    return diagnostic.line, diagnostic.column, diagnostic.message


def test_a_rule_of_a_hundred_clauses_reads() -> None:
    reading = read(DECLARED + rule(MAX_CLAUSES), known=metamodel())
    assert reading.diagnostics == ()
    assert type(reading.constructs[-1]).__name__ == "DerivationRule"


def test_a_rule_of_a_hundred_clauses_is_refused_for_its_real_reason() -> None:
    line, _, message = only_diagnostic(rule(MAX_CLAUSES).replace("Name.", "Email."))
    assert "no fact type reads `Customer has Email`" in message and line == 7


def test_one_clause_more_than_the_limit_is_refused_where_it_passes_it() -> None:
    text = rule(MAX_CLAUSES + 1)
    line, column, message = only_diagnostic(text)
    assert message == (f"this sentence joins {MAX_CLAUSES + 1} clauses with `and`, `or`, `;`"
                       f" or `/`; a sentence joins at most {MAX_CLAUSES}: split it into"
                       " several sentences")
    assert line == 7 and text[column - 1:].startswith("and Customer has Name.")


def test_a_thousand_clauses_are_refused_by_a_limit() -> None:
    line, column, message = only_diagnostic(rule(1000))
    assert message == ("this sentence is 22,017 characters long; a sentence has at most"
                       " 10,000: split it into several sentences")
    assert (line, column) == (7, 10_001)


@pytest.mark.parametrize("joined, clause, separator", [
    ("For each Name, at most one Customer has that Name and {}.", "has that Name", " and "),
    ("Each Customer has some Name or {}.", "is vip", " or "),
    ("If {} then that Customer is vip.", "some Customer has some Name", " and "),
])
def test_constraints_of_three_hundred_clauses_are_refused_by_the_clause_limit(
        joined: str, clause: str, separator: str) -> None:
    _, _, message = only_diagnostic(joined.format(separator.join([clause] * 300)))
    assert message.startswith("this sentence joins 30") and f"at most {MAX_CLAUSES}:" in message


def test_relative_clauses_nested_past_the_limit_are_refused() -> None:
    within = "Each Customer has some Name" + " that has Name" * MAX_NESTING + "."
    assert "nests" not in str(read(DECLARED + within, known=metamodel()).diagnostics)
    line, column, message = only_diagnostic(
        "Each Customer has some Name" + " that has Name" * 100 + ".")
    assert message == (f"this sentence nests 100 clauses (relative clauses `… that …` and"
                       f" `where` clauses); a sentence nests at most {MAX_NESTING}: derive"
                       " the inner facts in a rule of their own")
    assert (line, column) == (7, len("Each Customer has some Name") + 14 * MAX_NESTING + 2)


def test_aggregates_nested_past_the_limit_are_refused() -> None:
    nested = " and Name is the count of Customer where Customer has Name" * 20
    _, _, message = only_diagnostic("* Customer is vip if Customer has Name" + nested + ".")
    assert message.startswith("this sentence nests 20 clauses")


@pytest.mark.parametrize("sentence", [
    "Each Customer has at most {} Name.",
    "Each Customer has at least 1 and at most {} Name.",
    "The possible values of Age are 1, {}.",
    "* Customer is vip if Customer has Age and Age > {}.",
])
def test_a_numeral_past_the_digit_limit_is_refused_at_the_numeral(sentence: str) -> None:
    numeral = "9" * 5000
    text = sentence.format(numeral)
    line, column, message = only_diagnostic(text)
    assert message == (f"a numeral has at most {MAX_NUMERAL_DIGITS:,} digits; `99999999…`"
                       " has 5,000")
    assert line == 7 and text[column - 1:].startswith(numeral)
    with pytest.raises(ReadingError) as raised:
        arest.compile(DECLARED + text)
    assert raised.value.diagnostics[0].message == message


def test_a_numeral_at_the_digit_limit_reads() -> None:
    numeral = "9" * MAX_NUMERAL_DIGITS
    assert read(DECLARED + f"The possible values of Age are 1, {numeral}.",
                known=metamodel()).diagnostics == ()
