"""`If … then …`: a derivation rule when marked or when the consequent is derived, a ring
constraint when every clause is one ring fact type, else a subset constraint."""

from __future__ import annotations

import pytest

from arest.forml2 import Constraint, DerivationRule, Join, Span, metamodel, read, verbalize
from arest.forml2.facts import metamodel_facts

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


RINGS = """
Person(.Username) is an entity type.
Person likes Person.
"""


def read_ring(text: str) -> Constraint:
    known = read(RINGS, known=metamodel())
    reading = read(text, known=known)
    assert reading.diagnostics == (), reading.diagnostics
    (construct,) = reading.constructs
    assert isinstance(construct, Constraint)
    assert construct.spans == ((Span("Person_likes_Person", (0, 1)),),)
    return construct


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        (
            "If Person1 likes Person2 and Person1 is not Person2"
            " then it is impossible that Person2 likes Person1.",
            "AT",
        ),
        (
            "If some Person1 likes some Person2 and that Person1 is not that Person2"
            " then it is impossible that that Person2 likes that Person1.",
            "AT",
        ),
        ("If Person1 likes Person2 then it is impossible that Person2 likes Person1.", "AS"),
        ("If Person1 likes Person2 then Person2 does not like Person1.", "AS"),
        ("If Person1 likes Person2 then Person2 cannot like Person1.", "AS"),
        ("If Person1 likes Person2 then Person2 likes Person1.", "SY"),
        ("If some Person1 likes some Person2 then that Person2 likes that Person1.", "SY"),
        (
            "If Person1 likes Person2 and Person1 is not Person2 then Person2 likes Person1.",
            "SY",
        ),
        ("If Person1 likes Person2 and Person2 likes Person3 then Person1 likes Person3.", "TR"),
        ("If Person2 likes Person3 and Person1 likes Person2 then Person1 likes Person3.", "TR"),
        (
            "If Person1 likes Person2 and Person2 likes Person3"
            " then it is impossible that Person1 likes Person3.",
            "IT",
        ),
        (
            "If Person 1 likes Person 2 and Person 2 likes Person 3,"
            " then Person 1 does not like Person 3.",
            "IT",
        ),
        ("If Person1 likes Person2 then Person1 likes itself.", "RF"),
        ("If some Person1 likes some Person2 then that Person1 likes itself.", "RF"),
        ("If Person1 likes Person2 then it is impossible that Person1 likes itself.", "IR"),
    ],
)
def test_conditional_ring_kinds(sentence: str, kind: str) -> None:
    assert read_ring(sentence).kind == kind


def test_conditional_antisymmetric_is_the_antisymmetric_construct() -> None:
    conditional = read_ring(
        "If Person1 likes Person2 and Person1 is not Person2"
        " then it is impossible that Person2 likes Person1."
    )
    assert conditional == read_ring("Person likes Person is antisymmetric.")


def test_deontic_conditional_antisymmetric() -> None:
    c = read_ring(
        "It is obligatory that if Person1 likes Person2 and Person1 is not Person2"
        " then it is impossible that Person2 likes Person1."
    )
    assert (c.kind, c.modality, c.operator) == ("AT", "deontic", "obligatory")


@pytest.mark.parametrize(
    "sentence",
    [
        "If Person1 likes Person2 then Person1 likes Person2.",
        "If Person1 likes Person2 and Person2 likes Person3 then Person3 likes Person1.",
        "If Person1 likes Person2 and Person1 is not Person2 then Person1 likes itself.",
        "If Person1 likes Person2 and Person2 likes Person3 and Person1 is not Person3"
        " then it is impossible that Person1 likes Person3.",
    ],
)
def test_other_conditional_ring_patterns_are_diagnosed(sentence: str) -> None:
    reading = read(sentence, known=read(RINGS, known=metamodel()))
    assert reading.constructs == ()
    (diagnostic,) = reading.diagnostics
    assert "conditional over one ring fact type" in diagnostic.message


def test_distinct_premise_outside_a_ring_is_diagnosed() -> None:
    reading = read(
        "If Person1 is parent of Person2 and Person1 is not Person2"
        " then Person1 is ancestor of Person2.",
        known=read(SCHEMA, known=metamodel()),
    )
    assert reading.constructs == ()
    (diagnostic,) = reading.diagnostics
    assert "antisymmetric ring form only" in diagnostic.message


ORDERS = """
Customer(.Email) is an entity type.
Order(.Order Number) is an entity type.
Shipping Address is a value type.
Amount is a value type.
Customer has Shipping Address.
Order has Shipping Address.
Order is placed by Customer.
Order has Amount.
Customer has Amount.
"""


def test_equal_to_a_possessive_is_a_join_subset() -> None:
    known = read(ORDERS, known=metamodel())
    reading = read(
        "If some Customer places some Order then that Order has Shipping Address equal to"
        " that Customer's Shipping Address.",
        known=known,
    )
    assert reading.diagnostics == ()
    (c,) = reading.constructs
    assert isinstance(c, Constraint)
    assert c.kind == "SS"
    assert c.spans == (
        (
            Span("Order_is_placed_by_Customer", (0,)),
            Span("Customer_has_Shipping_Address", (1,)),
        ),
        (Span("Order_has_Shipping_Address", (0, 1)),),
    )
    assert c.joins == (
        Join(
            1,
            Span("Order_is_placed_by_Customer", (1,)),
            Span("Customer_has_Shipping_Address", (0,)),
        ),
    )
    facts = [f for f in metamodel_facts(c) if "joins" in f[0]]
    assert facts == [
        (
            "Constraint_joins_Fact_Type_at_Position_to_Fact_Type_at_Position_in_Clause_Number",
            (c.id, "Order_is_placed_by_Customer", "1", "Customer_has_Shipping_Address", "0", "1"),
        )
    ]
    assert verbalize(c, reading) == (
        "If some Order is placed by some Customer then that Order has Shipping Address equal"
        " to that Customer's Shipping Address."
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "If some Customer places some Order then that Order has Shipping Address greater than"
        " that Customer's Shipping Address.",
        "If some Customer places some Order then that Order has Shipping Address equal to 'x'.",
        "If some Customer places some Order then that Order has Amount equal to"
        " that Customer's Shipping Address.",
        "If some Order has some Amount then that Order has Shipping Address equal to"
        " that Customer's Shipping Address.",
        "If some Customer places some Order and that Order has Amount greater than 5"
        " then that Order has some Shipping Address.",
    ],
)
def test_other_comparisons_in_a_subset_are_diagnosed(sentence: str) -> None:
    reading = read(sentence, known=read(ORDERS, known=metamodel()))
    assert reading.constructs == ()
    (diagnostic,) = reading.diagnostics
    assert "a comparison in a subset constraint reads" in diagnostic.message
