"""The oracle: these corpus sentences read to these constructs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from arest.forml2 import (
    Aggregation,
    Constraint,
    DerivationRule,
    InstanceFact,
    Objectification,
    Possibility,
    Reading,
    Span,
    metamodel,
    read,
)
from arest.forml2.bad_readings import BAD
from arest.forml2.document import paragraphs
from tests.corpus import EVERY_FILE, corpus_file

Domain = Callable[[str], Reading]


def read_file(path: Path) -> Reading:
    return read(path.read_text("utf-8"), path.name, known=metamodel())


@pytest.fixture
def domain(tutor_corpus: Path) -> Domain:
    """A tutor corpus file read on top of the metamodel (the oracle sentences are its own)."""
    return lambda name: read_file(tutor_corpus / name)


def constraints(reading: Reading, text: str) -> list[Constraint]:
    return [c for c in reading.constructs if isinstance(c, Constraint) and c.reading == text]


def test_metamodel_reads_without_diagnostics() -> None:
    assert metamodel().diagnostics == ()
    assert metamodel().warnings == ()


def test_productvariant_objectifies_and_is_identified_by_its_fact_type(domain: Domain) -> None:
    found = [c for c in domain("catalog.md").constructs if isinstance(c, Objectification)]
    assert found == [Objectification("ProductVariant", "Product_has_Size_and_Color", True)]


def test_exclusive_or_over_subtype_memberships(domain: Domain) -> None:
    (xo,) = constraints(
        domain("catalog.md"),
        "For each Product, exactly one of the following holds: that Product is a"
        " DigitalProduct; that Product is a PhysicalProduct.",
    )
    assert xo.kind == "XO"
    assert xo.spans == (
        (Span("Product_is_a_DigitalProduct", (0,)),),
        (Span("Product_is_a_PhysicalProduct", (0,)),),
    )


def test_forbidden_rating_comparison(domain: Domain) -> None:
    text = "It is forbidden that a Review has Rating less than 1."
    (c,) = constraints(domain("catalog.md"), text)
    assert (c.modality, c.operator, c.comparison) == ("deontic", "forbidden", ("<", "1"))
    assert c.spans == ((Span("Review_has_Rating", (1,)),),)


def test_uniqueness_found_through_the_inverse_reading(domain: Domain) -> None:
    (uc,) = constraints(domain("orders.md"), "Each Order has at most one Coupon.")
    assert uc.kind == "UC"
    assert uc.spans == ((Span("Coupon_is_applied_to_Order", (1,)),),)


def test_sum_over_a_role_path_grouped_by_order(domain: Domain) -> None:
    rules = [c for c in domain("orders.md").constructs if isinstance(c, DerivationRule)]
    amount = next(r for r in rules if r.reading.startswith("* Order has Amount iff"))
    (aggregate,) = amount.conditions
    assert isinstance(aggregate, Aggregation)
    assert aggregate.op == "sum"
    assert {a.fact_type for a in aggregate.where} == {  # type: ignore[union-attr]
        "LineItem_belongs_to_Order",
        "LineItem_has_Amount",
    }
    assert aggregate.group == ("Order",)


def test_both_cancel_transitions_fire_on_the_cancel_event(domain: Domain) -> None:
    facts = [c for c in domain("orders.md").constructs if isinstance(c, InstanceFact)]
    triggered = {f.values for f in facts if f.fact_type == "Transition_is_triggered_by_Event_Type"}
    assert ("cancel-draft", "cancel") in triggered
    assert ("cancel-placed", "cancel") in triggered


@pytest.mark.parametrize(
    ("text", "kind", "fact_type"),
    [
        ("No Task blocks the same Task. (irreflexive)", "IR", "Task_blocks_Task"),
        (
            "If Comment 1 replies to Comment 2 and Comment 2 replies to Comment 3, then"
            " Comment 1 does not reply to Comment 3.",
            "IT",
            "Comment_replies_to_Comment",
        ),
    ],
)
def test_ring_constraints_in_tasks(text: str, kind: str, fact_type: str, domain: Domain) -> None:
    (c,) = constraints(domain("tasks.md"), text)
    assert (c.kind, c.spans) == (kind, ((Span(fact_type, (0, 1)),),))


def test_both_symmetric_sentences_give_one_constraint(domain: Domain) -> None:
    reading = domain("content.md")
    symmetric = [c for c in reading.constructs if isinstance(c, Constraint) and c.kind == "SY"]
    assert len(symmetric) == 2
    assert symmetric[0] == symmetric[1]
    assert symmetric[0].spans == ((Span("Article_is_related_to_Article", (0, 1)),),)


def test_booking_objectifies_and_duration_is_arithmetic(domain: Domain) -> None:
    reading = domain("scheduling.md")
    assert Objectification("Booking", "Meeting_is_held_in_Room", True) in reading.constructs
    rule = next(c for c in reading.constructs if isinstance(c, DerivationRule))
    computation = rule.conditions[-1]
    assert computation.expression == ("End Time", "minus", "Start Time")  # type: ignore[union-attr]


@pytest.mark.parametrize(("corpus", "name"), EVERY_FILE)
def test_possibility_sentences_constrain_nothing(corpus: str, name: str) -> None:
    reading = read_file(corpus_file(corpus, name))
    for construct in reading.constructs:
        if isinstance(construct, Constraint):
            assert not construct.reading.startswith("It is possible")
    possible = [s for s, _ in reading.sentences if s.text.startswith("It is possible")]
    found = [c for c in reading.constructs if isinstance(c, Possibility)]
    assert len(found) == len(possible)


def test_unquoted_backed_noun_is_the_quoted_form() -> None:
    one = read("User is backed by External System 'auth.vin'.", known=metamodel())
    two = read("Noun 'User' is backed by External System 'auth.vin'.", known=metamodel())
    backed = ("Noun_is_backed_by_External_System", ("User", "auth.vin"))
    assert backed in one.facts and backed in two.facts
    assert [f for f in one.facts if f[0] != "Noun_has_Object_Type"] == [
        f for f in two.facts if f[0] != "Noun_has_Object_Type"
    ]


def test_literals_do_not_change_classification(domain: Domain) -> None:
    facts = [c for c in domain("authoring.md").constructs if isinstance(c, InstanceFact)]
    situations = {f.values[1] for f in facts if f.fact_type.endswith("Authoring_Situation")}
    assert "When a fact follows from other facts or an entity has a lifecycle" in situations
    assert "Before adding or changing readings" in situations
    assert domain("authoring.md").diagnostics == ()


def test_reference_scheme_contradictions_are_exactly_the_diagnostics(domain: Domain) -> None:
    lines = [d.line for d in domain("catalog.md").diagnostics]
    assert lines == [156, 157]
    assert len(domain("notifications.md").diagnostics) == 4


@pytest.mark.parametrize(("corpus", "name"), EVERY_FILE)
def test_no_sentence_is_skipped(corpus: str, name: str) -> None:
    path = corpus_file(corpus, name)
    text = path.read_text("utf-8")
    reading = read_file(path)
    sentences = [p for p in paragraphs(text) if p.kind in ("sentence", "unterminated")]
    parsed = {s.line for s, _ in reading.sentences}
    diagnosed = {d.line for d in reading.diagnostics}
    for paragraph in sentences:
        assert paragraph.line in parsed or paragraph.line in diagnosed, paragraph.text


@pytest.mark.parametrize(("label", "sentences"), list(BAD.items()))
def test_bad_readings_fail_and_map_to_their_message(label: str, sentences: tuple[str, ...]) -> None:
    for sentence in sentences:
        diagnostics = read(sentence, known=metamodel()).diagnostics
        assert diagnostics, sentence
        assert diagnostics[0].message == label, sentence
