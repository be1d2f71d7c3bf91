"""External constraints across fact types: Halpin's external uniqueness (`For each Room
and Time, at most one Booking is in that Room and is at that Time.`) and the disjunctive
mandatory constraint (`Each Person owns some Car or rents some Car.`)."""

from __future__ import annotations

import pytest

from arest.forml2 import Constraint, Reading, Span, read, verbalize
from arest.forml2.facts import metamodel_facts
from tests.forml2.reading import clean, constraints

SCHEMA = """
Booking(.id) is an entity type.
Room(.Room Number) is an entity type.
Time is a value type.
Guest(.Guest Id) is an entity type.
Floor is a value type.
Person(.Username) is an entity type.
Car(.VIN) is an entity type.
First Name is a value type.
Last Name is a value type.
Booking is in Room.
Booking is at Time.
Booking is for Guest.
Booking is on Floor at Time.
Person owns Car.
Person rents Car.
Person leases Car.
Person smokes.
Person drinks.
Person has First Name.
Person has Last Name.
Car is driven by Person.
"""

IN_ROOM = Span("Booking_is_in_Room", (1,))
AT_TIME = Span("Booking_is_at_Time", (1,))
OWNS, RENTS, LEASES = (Span(f"Person_{v}_Car", (0,)) for v in ("owns", "rents", "leases"))


@pytest.fixture(scope="module")
def known() -> Reading:
    return clean(SCHEMA)


@pytest.mark.parametrize(
    "text",
    [
        "For each Room and Time, at most one Booking is in that Room and is at that Time.",
        "For each Room and Time at most one Booking is in that Room and is at that Time.",
        "For each Room and Time, at most one Booking is in that Room and at that Time.",
    ],
)
def test_external_uniqueness_spans_one_role_per_fact_type(text: str, known: Reading) -> None:
    (c,) = constraints(text, known)
    assert (c.kind, c.spans) == ("UC", ((IN_ROOM, AT_TIME),))


def test_a_continuation_may_leave_out_its_whole_predicate(known: Reading) -> None:
    text = (
        "For each First Name and Last Name, at most one Person has that First Name and that"
        " Last Name."
    )
    (c,) = constraints(text, known)
    assert c.spans == ((Span("Person_has_First_Name", (1,)), Span("Person_has_Last_Name", (1,))),)


def test_external_uniqueness_over_three_fact_types_and_a_ternary(known: Reading) -> None:
    text = (
        "For each Floor and Time and Guest, at most one Booking is on that Floor at that Time"
        " and is for that Guest."
    )
    (c,) = constraints(text, known)
    assert c.spans == (
        (Span("Booking_is_on_Floor_at_Time", (1, 2)), Span("Booking_is_for_Guest", (1,))),
    )


def test_one_clause_number_for_every_span(known: Reading) -> None:
    (c,) = constraints(
        "For each Room and Time, at most one Booking is in that Room and is at that Time.", known
    )
    spans = [
        values[1:]
        for fact_type, values in metamodel_facts(c)
        if fact_type == "Constraint_spans_Fact_Type_at_Position_in_Clause_Number"
    ]
    assert spans == [("Booking_is_in_Room", "1", "1"), ("Booking_is_at_Time", "1", "1")]


def test_exactly_one_across_fact_types_keeps_the_uniqueness_and_says_why(known: Reading) -> None:
    reading = read(
        "For each Room and Time, exactly one Booking is in that Room and is at that Time.",
        known=known,
    )
    assert [(c.kind, c.spans) for c in reading.constructs if isinstance(c, Constraint)] == [
        ("UC", ((IN_ROOM, AT_TIME),))
    ]
    (diagnostic,) = reading.diagnostics
    assert "every Room and Time combination" in diagnostic.message
    assert "at most one" in diagnostic.message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "For each Room and Time, at most one Booking is in that Room and is at some Time.",
            "external uniqueness",
        ),
        (
            "For each Room and Time, at most 2 Bookings are in that Room and are at that Time.",
            "counts `at most one`",
        ),
        (
            "For each Room and Guest, at most one Booking is in that Room and is in that Room.",
            "different fact types",
        ),
    ],
)
def test_malformed_external_uniqueness(text: str, message: str, known: Reading) -> None:
    reading = read(text, known=known)
    assert any(message in d.message for d in reading.diagnostics), reading.diagnostics


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("Each Person owns some Car or rents some Car.", (OWNS, RENTS)),
        ("Each Person owns some Car or rents some Car or leases some Car.", (OWNS, RENTS, LEASES)),
        ("Each Person owns at least one Car or rents some Car.", (OWNS, RENTS)),
        (
            "Each Person smokes or drinks.",
            (Span("Person_smokes", (0,)), Span("Person_drinks", (0,))),
        ),
    ],
)
def test_disjunctive_mandatory(text: str, spans: tuple[Span, ...], known: Reading) -> None:
    (c,) = constraints(text, known)
    assert (c.kind, c.spans) == ("MC", (spans,))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Each Person owns Car or rents some Car.", "disjunctive mandatory"),
        ("Each Person owns some Car or owns some Car.", "different fact types"),
        ("Each Person owns some Car or flies some Car.", "could be any of these fact types"),
    ],
)
def test_malformed_disjunctive_mandatory(text: str, message: str, known: Reading) -> None:
    reading = read(text, known=known)
    assert any(message in d.message for d in reading.diagnostics), reading.diagnostics


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (
            "For each Room and Time at most one Booking is in that Room and at that Time.",
            "For each Room and Time, at most one Booking is in that Room and is at that Time.",
        ),
        (
            "For each First Name and Last Name, at most one Person has that First Name and that"
            " Last Name.",
            "For each First Name and Last Name, at most one Person has that First Name and has"
            " that Last Name.",
        ),
        (
            "Each Person owns at least one Car or rents some Car or leases some Car.",
            "Each Person owns some Car or rents some Car or leases some Car.",
        ),
        ("Each Person smokes or drinks.", "Each Person smokes or drinks."),
    ],
)
def test_verbalization_reads_back(text: str, canonical: str, known: Reading) -> None:
    (c,) = constraints(text, known)
    said = verbalize(c, known)
    assert said == canonical
    assert constraints(said, known) == [c]
