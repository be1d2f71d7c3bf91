"""Nouns, reference schemes, reserved words and quoted names, subtypes, objectification."""

from __future__ import annotations

import pytest

from arest.forml2 import (
    Constraint,
    FactTypeDecl,
    NounDecl,
    Objectification,
    Span,
    SubtypeDecl,
    metamodel,
    read,
)


@pytest.mark.parametrize(
    ("text", "reference"),
    [
        ("Order(.Order Id) is an entity type.", ("Order Id",)),
        ("Resource(.Domain, .Slug) is an entity type.", ("Domain", "Slug")),
        ("Session is an entity type.", ("id",)),
    ],
)
def test_reference_schemes(text: str, reference: tuple[str, ...]) -> None:
    decl = read(text, known=metamodel()).constructs[0]
    assert isinstance(decl, NounDecl)
    assert decl.reference == reference


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Each Way Bet is an entity type.", "Noun 'Each Way Bet' is an entity type."),
        ("No Show Fee is a value type.", "Noun 'No Show Fee' is a value type."),
    ],
)
def test_a_reserved_word_in_a_noun_asks_for_quoting(text: str, message: str) -> None:
    (diagnostic,) = read(text, known=metamodel()).diagnostics
    assert message in diagnostic.message


def test_a_quoted_noun_declares_and_reads() -> None:
    reading = read(
        "Noun 'Each Way Bet' is an entity type.\nOdds is a value type.\n"
        "Each Way Bet has Odds.\nEach Each Way Bet has at most one Odds.\n",
        known=metamodel(),
    )
    assert reading.diagnostics == ()
    assert NounDecl("Each Way Bet", "entity", ("id",)) in reading.constructs
    uc = [c for c in reading.constructs if isinstance(c, Constraint)]
    assert uc[0].spans == ((Span("Each_Way_Bet_has_Odds", (0,)),),)


def test_mutually_exclusive_subtypes_and_partitions() -> None:
    reading = read(
        "Party is an entity type.\n{Individual, Organization} are mutually exclusive subtypes of"
        " Party.\nAnimal is an entity type.\nAnimal is partitioned into Cat, Dog.\n",
        known=metamodel(),
    )
    assert SubtypeDecl("Individual", "Party") in reading.constructs
    kinds = [c.kind for c in reading.constructs if isinstance(c, Constraint)]
    assert kinds == ["XC", "XO"]


def test_alternate_readings_are_one_fact_type() -> None:
    reading = read(
        "Order is an entity type.\nCustomer is an entity type.\n"
        "Order is placed by Customer / Customer places Order.\n",
        known=metamodel(),
    )
    (ft,) = [c for c in reading.constructs if isinstance(c, FactTypeDecl)]
    assert ft.id == "Order_is_placed_by_Customer"
    assert [r.order for r in ft.readings] == [(0, 1), (1, 0)]


def test_objectification_by_lesson_form() -> None:
    reading = read(
        "Person is an entity type.\nMarriage(.id) is an entity type where Person is married to"
        " Person.\nThis association with Person, Person provides the preferred identification"
        " scheme for Marriage.\n",
        known=metamodel(),
    )
    assert Objectification("Marriage", "Person_is_married_to_Person", True) in reading.constructs


def test_the_domain_change_guard_is_in_the_metamodel() -> None:
    guard = [
        c
        for c in metamodel().constructs
        if isinstance(c, Constraint) and c.comparison == ("=", "Human")
    ]
    assert [c.spans for c in guard] == [
        ((Span("Domain_Change_is_guarded_by_Signal_Source", (1,)),),)
    ]
