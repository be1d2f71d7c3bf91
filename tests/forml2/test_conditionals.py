"""`If … then …`: a derivation rule when marked or when the consequent is derived, a ring
constraint when every clause is one ring fact type, else a subset constraint."""

from __future__ import annotations

from arest.forml2 import Constraint, DerivationRule, Span, metamodel, read

SCHEMA = """
Person(.Username) is an entity type.
Loan(.id) is an entity type.
Due Date is a value type.
Person is parent of Person.
Person is ancestor of Person.
Loan is renewed.
Loan has Due Date.
Person borrows Loan.
Person is trusted. *
"""


def read_one(text: str) -> object:
    known = read(SCHEMA, known=metamodel())
    reading = read(text, known=known)
    assert reading.diagnostics == (), reading.diagnostics
    (construct,) = reading.constructs
    return construct


def test_subset_between_two_fact_types() -> None:
    c = read_one("If some Loan is renewed then that Loan has some Due Date.")
    assert isinstance(c, Constraint)
    assert (c.kind, c.spans) == (
        "SS",
        ((Span("Loan_is_renewed", (0,)),), (Span("Loan_has_Due_Date", (0,)),)),
    )


def test_subset_between_two_ring_fact_types_is_not_a_ring() -> None:
    c = read_one("If Person1 is parent of Person2 then Person1 is ancestor of Person2.")
    assert isinstance(c, Constraint)
    assert c.kind == "SS"
    assert c.spans[1] == (Span("Person_is_ancestor_of_Person", (0, 1)),)


def test_marked_conditional_is_a_rule() -> None:
    c = read_one("* If Person1 is parent of Person2 then Person1 is ancestor of Person2.")
    assert isinstance(c, DerivationRule)
    assert (c.mode, c.keyword) == ("*", "if-then")


def test_derived_consequent_makes_a_rule() -> None:
    c = read_one("If some Person borrows some Loan then that Person is trusted.")
    assert isinstance(c, DerivationRule)
    assert c.consequent.fact_type == "Person_is_trusted"


def test_literals_with_keywords_do_not_change_classification() -> None:
    known = read(SCHEMA, known=metamodel())
    reading = read("Loan 'if and when' has Due Date 'then'.", known=known)
    assert [type(c).__name__ for c in reading.constructs] == ["InstanceFact"]
