"""Literals in the clauses of a subset, equality or set comparison: each is kept as a
restriction (clause, fact type, role, value), carried to the metamodel and said back; a form
that cannot keep one is a diagnostic, never a constraint without it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arest.forml2 import Constraint, Join, Reading, Restriction, Span, read, verbalize
from arest.forml2.facts import metamodel_facts
from arest.testing.forml2 import OPERATORS, Schema, _plays, _subset_pairs, schemas
from tests.forml2.reading import clean

SCHEMA = """
Parcel(.id) is an entity type.
Person(.id) is an entity type.
Customer(.id) is an entity type.
Tracking Number is a value type.
Colour is a value type.
Priority is a value type.
Quantity is a value type.
Channel is a value type.
Shipping Address is a value type.
Parcel has Tracking Number.
Parcel has Colour.
Parcel has Priority.
Parcel has Quantity.
Parcel is rush.
Person likes Person.
Person is parent of Person.
Customer places Parcel via Channel.
Customer has Shipping Address.
Parcel has Shipping Address.
"""
RESTRICTS = "Constraint_restricts_Fact_Type_at_Position_to_Allowed_Value_in_Clause_Number"


@pytest.fixture(scope="module")
def known() -> Reading:
    return clean(SCHEMA)


def read_one(text: str, known: Reading) -> Constraint:
    reading = read(text, known=known)
    assert reading.diagnostics == (), reading.diagnostics
    (construct,) = reading.constructs
    assert isinstance(construct, Constraint)
    return construct


def diagnosed(text: str, known: Reading) -> str:
    reading = read(text, known=known)
    assert reading.constructs == ()
    (diagnostic,) = reading.diagnostics
    return diagnostic.message


def said_back(c: Constraint, known: Reading) -> str:
    said = verbalize(c, known)
    back = read(said, known=known)
    assert back.diagnostics == (), (said, back.diagnostics)
    assert back.constructs == (c,), (said, back.constructs)
    return said


def test_an_antecedent_literal_restricts_the_antecedent(known: Reading) -> None:
    c = read_one(
        "If some Parcel has Colour 'red' then that Parcel has some Tracking Number.", known
    )
    assert (c.kind, c.spans) == (
        "SS",
        ((Span("Parcel_has_Colour", (0,)),), (Span("Parcel_has_Tracking_Number", (0,)),)),
    )
    assert c.restrictions == (Restriction(1, "Parcel_has_Colour", 1, "red"),)
    assert [f for f in metamodel_facts(c) if f[0] == RESTRICTS] == [
        (RESTRICTS, (c.id, "Parcel_has_Colour", "1", "red", "1"))
    ]
    assert said_back(c, known) == (
        "If some Parcel has Colour 'red' then that Parcel has some Tracking Number."
    )


def test_a_consequent_literal_restricts_the_consequent(known: Reading) -> None:
    c = read_one("If some Parcel is rush then that Parcel has Priority 'high'.", known)
    assert c.spans == ((Span("Parcel_is_rush", (0,)),), (Span("Parcel_has_Priority", (0,)),))
    assert c.restrictions == (Restriction(2, "Parcel_has_Priority", 1, "high"),)
    assert said_back(c, known) == "If some Parcel is rush then that Parcel has Priority 'high'."


def test_a_numeral_after_a_noun_named_once_is_a_literal(known: Reading) -> None:
    c = read_one("If some Parcel has Quantity 3 then that Parcel is rush.", known)
    assert c.restrictions == (Restriction(1, "Parcel_has_Quantity", 1, "3"),)
    # Said quoted: the canonical form, and the only one a decimal or negative number has.
    assert said_back(c, known) == "If some Parcel has Quantity '3' then that Parcel is rush."
    assert c == read_one("If some Parcel has Quantity '3' then that Parcel is rush.", known)


@pytest.mark.parametrize(
    "sentence",
    [
        # Written without a space, the numeral is a subscript: a variable, as in rings.
        "If some Parcel has Quantity3 then that Parcel is rush.",
        # A noun the sentence names again keeps its subscripts as names.
        "If Person 1 is parent of Person 2 then Person 1 likes Person 2.",
        "If Person 1 is parent of Person 2 then that Person 1 likes some Person3.",
    ],
)
def test_a_subscript_stays_a_variable(sentence: str, known: Reading) -> None:
    assert read_one(sentence, known).restrictions == ()


def test_literals_on_both_sides(known: Reading) -> None:
    c = read_one(
        "If some Parcel has Colour 'red' and that Parcel has Quantity 3"
        " then that Parcel has Priority 'it''s'.",
        known,
    )
    assert c.restrictions == (
        Restriction(1, "Parcel_has_Colour", 1, "red"),
        Restriction(2, "Parcel_has_Quantity", 1, "3"),
        Restriction(3, "Parcel_has_Priority", 1, "it's"),
    )
    said_back(c, known)


def test_a_state_machine_status_is_a_literal_like_any_other() -> None:
    known = clean(
        "Parcel(.id) is an entity type.\nTracking Number is a value type.\n"
        "Parcel has Tracking Number.\n"
        "State Machine Definition 'Parcel' is for Noun 'Parcel'.\n"
        "Status 'Packed' is initial in State Machine Definition 'Parcel'.\n"
        "Status 'Shipped' is defined in State Machine Definition 'Parcel'.\n"
    )
    c = read_one(
        "If some Parcel has Status 'Shipped' then that Parcel has some Tracking Number.", known
    )
    assert c.spans[0] == (Span("Parcel_has_Status", (0,)),)
    assert c.restrictions == (Restriction(1, "Parcel_has_Status", 1, "Shipped"),)
    said_back(c, known)


def test_a_deontic_conditional_keeps_its_literals(known: Reading) -> None:
    c = read_one(
        "It is obligatory that if some Parcel has Colour 'red' then that Parcel is rush.", known
    )
    assert (c.modality, c.operator) == ("deontic", "obligatory")
    assert c.restrictions == (Restriction(1, "Parcel_has_Colour", 1, "red"),)
    said_back(c, known)


def test_literals_in_a_ring_fact_type_make_a_subset(known: Reading) -> None:
    c = read_one("If Person 'ann' likes some Person then that Person likes Person 'ann'.", known)
    assert c.kind == "SS"
    assert c.spans == (
        (Span("Person_likes_Person", (1,)),),
        (Span("Person_likes_Person", (0,)),),
    )
    assert c.restrictions == (
        Restriction(1, "Person_likes_Person", 0, "ann"),
        Restriction(2, "Person_likes_Person", 1, "ann"),
    )
    assert said_back(c, known) == (
        "If Person 'ann' likes some Person1 then that Person1 likes Person 'ann'."
    )


def test_a_join_subset_keeps_its_antecedent_literal(known: Reading) -> None:
    c = read_one(
        "If some Customer places some Parcel via Channel 'web' then that Parcel has Shipping"
        " Address equal to that Customer's Shipping Address.",
        known,
    )
    assert c.joins == (
        Join(
            1,
            Span("Customer_places_Parcel_via_Channel", (0,)),
            Span("Customer_has_Shipping_Address", (0,)),
        ),
    )
    assert c.restrictions == (Restriction(1, "Customer_places_Parcel_via_Channel", 2, "web"),)
    said_back(c, known)


def test_equality_and_set_comparisons_keep_their_literals(known: Reading) -> None:
    eq = read_one("Some Parcel has Colour 'red' if and only if that Parcel is rush.", known)
    assert (eq.kind, eq.restrictions) == ("EQ", (Restriction(1, "Parcel_has_Colour", 1, "red"),))
    said_back(eq, known)
    xo = read_one(
        "For each Parcel, exactly one of the following holds: that Parcel has Colour 'red';"
        " that Parcel has Priority 'high'.",
        known,
    )
    assert xo.kind == "XO"
    assert xo.restrictions == (
        Restriction(1, "Parcel_has_Colour", 1, "red"),
        Restriction(2, "Parcel_has_Priority", 1, "high"),
    )
    said_back(xo, known)


def test_a_relative_clause_keeps_the_main_clause_literal() -> None:
    known = clean(
        "Notification(.id) is an entity type.\nRecipient Email is a value type.\n"
        "Preference(.id) is an entity type.\nNotification has Recipient Email.\n"
        "Recipient Email has Preference.\n"
    )
    c = read_one(
        "It is forbidden that Notification 'n1' has a Recipient Email that has no Preference.",
        known,
    )
    assert (c.kind, c.operator) == ("SS", "obligatory")
    assert c.restrictions == (Restriction(1, "Notification_has_Recipient_Email", 0, "n1"),)
    assert said_back(c, known) == (
        "It is obligatory that if Notification 'n1' has some Recipient Email then that"
        " Recipient Email has some Preference."
    )


@pytest.mark.parametrize(
    ("sentence", "message"),
    [
        # The literal is on the object the clauses would share.
        (
            "If some Parcel has Colour 'red' then Parcel 'p2' has some Tracking Number.",
            "refer back with `that <Noun>`",
        ),
        (
            "If Parcel 'p1' has some Colour then that Parcel has some Tracking Number.",
            "refer back with `that <Noun>`",
        ),
        ("Parcel 'p1' is rush if and only if that Parcel has some Colour.", "the role the clauses"),
        # A numeral on a noun named again without subscripts: a value or a variable?
        (
            "If some Parcel has Quantity 3 then that Parcel has some Quantity.",
            "is the value 3 or a variable Quantity3",
        ),
        # A ring form's negation or `itself` says nothing a subset could keep.
        (
            "If Person 'ann' likes some Person then it is impossible that that Person likes"
            " Person 'ann'.",
            "no ring constraint",
        ),
        ("If some Person likes Person 'ann' then that Person likes itself.", "no ring constraint"),
        # Forms without clauses to restrict.
        ("It is obligatory that each Parcel has some Colour 'red'.", "cannot keep the literal"),
        ("Person 'a' likes Person 'b' is irreflexive.", "cannot keep the literal"),
        (
            "In each population of Parcel has Colour 'red', each Parcel, Colour combination"
            " occurs at most once.",
            "cannot keep the literal",
        ),
    ],
)
def test_a_literal_that_cannot_be_kept_is_diagnosed(
    sentence: str, message: str, known: Reading
) -> None:
    assert message in diagnosed(sentence, known)


# ---- generated: every restricted subset, equality and set comparison says itself back ------
_VALUES = st.text("abc' xyz-12", min_size=1, max_size=6).filter(lambda v: v.strip() == v)


@st.composite
def restricted_subset(draw: st.DrawFn, schema: Schema) -> Constraint:
    """A subset between two fact types sharing one noun, some other roles given literals."""
    a, b, noun = draw(st.sampled_from(_subset_pairs(schema)))
    restrictions = [
        Restriction(clause, ft.id, role, draw(_VALUES))
        for clause, ft in ((1, a), (2, b))
        for role in range(len(ft.roles))
        if ft.roles[role] != noun and draw(st.booleans())
    ]
    if not restrictions:
        role = next((r for r, n in enumerate(a.roles) if n != noun), None)
        if role is not None:
            restrictions.append(Restriction(1, a.id, role, draw(_VALUES)))
    modality = draw(st.sampled_from(("alethic", "deontic")))
    operator = draw(st.sampled_from(OPERATORS)) if modality == "deontic" else ""
    spans = ((Span(a.id, (a.roles.index(noun),)),), (Span(b.id, (b.roles.index(noun),)),))
    return Constraint("SS", spans, modality, operator, restrictions=tuple(restrictions))


@st.composite
def restricted_set_comparison(draw: st.DrawFn, schema: Schema) -> Constraint:
    """XO, XC, OR or EQ over clauses in which one noun plays a role, other roles given
    literals."""
    nouns = [n for n in schema.reading.schema.nouns if len(_plays(schema, n)) >= 2]
    noun = draw(st.sampled_from(nouns))
    played = draw(
        st.lists(st.sampled_from(_plays(schema, noun)), min_size=2, max_size=3, unique=True)
    )
    kind = draw(st.sampled_from(("XO", "XC", "OR", "EQ")))
    played = played[:2] if kind == "EQ" else played
    restrictions = tuple(
        Restriction(clause, ft.id, other, draw(_VALUES))
        for clause, (ft, role) in enumerate(played, 1)
        for other in range(len(ft.roles))
        if other != role and draw(st.booleans())
    )
    return Constraint(
        kind, tuple((Span(ft.id, (role,)),) for ft, role in played), restrictions=restrictions
    )


@pytest.mark.slow
@given(st.data())
def test_generated_restricted_subsets_read_back_equal(data: st.DataObject) -> None:
    schema: Schema = data.draw(schemas())
    if not _subset_pairs(schema):
        return
    said_back(data.draw(restricted_subset(schema)), schema.reading)


@pytest.mark.slow
@given(st.data())
def test_generated_restricted_set_comparisons_read_back_equal(data: st.DataObject) -> None:
    schema: Schema = data.draw(schemas())
    if not any(len(_plays(schema, n)) >= 2 for n in schema.reading.schema.nouns):
        return
    said_back(data.draw(restricted_set_comparison(schema)), schema.reading)
