"""Constraint sentences: the 17 kinds in the surface forms of REFERENCE §2.2, with the
reference's failures ([gap] rows) as regression cases."""

from __future__ import annotations

import pytest

from arest.forml2 import Reading, Span, read
from tests.forml2.reading import clean, constraints

SCHEMA = """
Member(.Member Id) is an entity type.
Loan(.id) is an entity type.
Plan(.Plan Code) is an entity type.
Price is a value type.
Interval is a value type.
Person(.Username) is an entity type.
Email is a value type.
Phone is a value type.
Member takes Loan.
Plan has Price per Interval.
Person is parent of Person.
Person has Email.
Person has Phone.
Person is married to Person.
"""


@pytest.fixture(scope="module")
def known() -> Reading:
    return clean(SCHEMA)


def kinds(text: str, known: Reading) -> list[tuple[str, tuple[tuple[Span, ...], ...]]]:
    return [(c.kind, c.spans) for c in constraints(text, known)]


TAKES = "Member_takes_Loan"
PRICE = "Plan_has_Price_per_Interval"
PARENT = "Person_is_parent_of_Person"


@pytest.mark.parametrize(
    ("text", "kind", "bounds"),
    [
        ("Each Member takes at least 2 and at most 5 Loans.", "FC", (2, 5)),
        ("Each Member takes at most 3 Loans.", "FC", (None, 3)),
        ("Each Member takes at least 2 Loans.", "FC", (2, None)),
        ("Each Member takes exactly 3 Loans.", "FC", (3, 3)),
    ],
)
def test_frequency_bounds_are_parsed(text: str, kind: str, bounds: object, known: Reading) -> None:
    (c,) = constraints(text, known)
    assert (c.kind, c.bounds, c.spans) == (kind, bounds, ((Span(TAKES, (0,)),),))


def test_exactly_one_is_uniqueness_and_mandatory(known: Reading) -> None:
    found = constraints("Each Loan is taken by exactly one Member.", known)
    assert [(c.kind, c.spans) for c in found] == [
        ("UC", ((Span(TAKES, (1,)),),)),
        ("MC", ((Span(TAKES, (1,)),),)),
    ]
    assert found[1].id == found[0].id + "-2"


@pytest.mark.parametrize(
    "text",
    [
        "For each Plan and Interval that Plan has that Interval at most one Price.",
        "For each Plan and Interval, that Plan has at most one Price per that Interval.",
        "Each Plan has at most one Price per Interval.",
    ],
)
def test_external_and_ternary_uniqueness_span_the_other_roles(text: str, known: Reading) -> None:
    assert kinds(text, known) == [("UC", ((Span(PRICE, (0, 2)),),))]


@pytest.mark.parametrize(
    "text",
    [
        "In each population of Person is married to Person, each Person, Person combination"
        " occurs at most once.",
        "Each Person, Person combination occurs at most once in the population of Person is"
        " married to Person.",
    ],
)
def test_spanning_uniqueness(text: str, known: Reading) -> None:
    assert kinds(text, known) == [("UC", ((Span("Person_is_married_to_Person", (0, 1)),),))]


def test_external_form_on_the_second_role_of_a_ring(known: Reading) -> None:
    assert kinds("For each Person, at most one Person is parent of that Person.", known) == [
        ("UC", ((Span(PARENT, (1,)),),))
    ]


def test_external_at_least_one_is_mandatory(known: Reading) -> None:
    assert kinds("For each Loan, at least one Member takes that Loan.", known) == [
        ("MC", ((Span(TAKES, (1,)),),))
    ]


@pytest.mark.parametrize(
    ("quantifier", "kind"), [("exactly one", "XO"), ("at most one", "XC"), ("at least one", "OR")]
)
def test_set_comparison_blocks(quantifier: str, kind: str, known: Reading) -> None:
    text = (
        f"For each Person, {quantifier} of the following holds:\n"
        "  that Person has some Email;\n  that Person has some Phone.\n"
    )
    assert kinds(text, known) == [
        (kind, ((Span("Person_has_Email", (0,)),), (Span("Person_has_Phone", (0,)),)))
    ]


def test_equality(known: Reading) -> None:
    text = "Some Person has some Email if and only if that Person has some Phone."
    assert kinds(text, known) == [
        ("EQ", ((Span("Person_has_Email", (0,)),), (Span("Person_has_Phone", (0,)),)))
    ]


RING = ((Span(PARENT, (0, 1)),),)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Person is parent of Person is irreflexive.", ["IR"]),
        ("Person is parent of Person is acyclic and irreflexive.", ["AC", "IR"]),
        ("Person is parent of Person is antisymmetric.", ["AT"]),
        ("No Person is parent of itself.", ["IR"]),
        ("No Person is parent of the same Person. (irreflexive)", ["IR"]),
        (
            "If Person1 is parent of Person2 and Person2 is parent of Person3 then it is"
            " impossible that Person1 is parent of Person3.",
            ["IT"],
        ),
        (
            "If Person1 is parent of Person2 and Person2 is parent of Person3 then Person1 is"
            " parent of Person3.",
            ["TR"],
        ),
        (
            "If Person1 is parent of Person2 then it is impossible that Person2 is parent of"
            " Person1.",
            ["AS"],
        ),
        (
            "If some Person1 is parent of some Person2 then that Person2 is parent of that"
            " Person1. (symmetric)",
            ["SY"],
        ),
        ("If Person 1 is parent of Person 2 then Person 1 is parent of itself.", ["RF"]),
    ],
)
def test_ring_forms(text: str, expected: list[str], known: Reading) -> None:
    assert kinds(text, known) == [(k, RING) for k in expected]


def test_a_ring_annotation_that_contradicts_the_sentence_is_a_diagnostic(known: Reading) -> None:
    reading = read("No Person is parent of the same Person. (symmetric)", known=known)
    assert "irreflexive" in reading.diagnostics[0].message


@pytest.mark.parametrize(
    ("text", "operator", "comparison"),
    [
        ("It is forbidden that a Member takes Loan greater than 100.", "forbidden", (">", "100")),
        ("It is obligatory that each Member takes Loan not equal to 0.", "obligatory", ("<>", "0")),
    ],
)
def test_deontic_comparisons(
    text: str, operator: str, comparison: tuple[str, str], known: Reading
) -> None:
    (c,) = constraints(text, known)
    assert (c.kind, c.modality, c.operator, c.comparison) == ("VC", "deontic", operator, comparison)


def test_possibility_constrains_nothing(known: Reading) -> None:
    reading = read("It is possible that some Member takes more than one Loan.", known=known)
    assert [type(c).__name__ for c in reading.constructs] == ["Possibility"]
    assert reading.facts == ()
