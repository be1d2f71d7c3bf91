"""A transition name defined in two machines: fine while each of its `from` and `to`
statuses belongs to one of them, a diagnostic when a status cannot tell them apart."""

from __future__ import annotations

import pytest

from arest.forml2 import Reading, metamodel, read
from tests.corpus import corpus_file

MACHINES = """
Order(.Order Id) is an entity type.
Payment(.Payment Id) is an entity type.
State Machine Definition 'Order' is for Noun 'Order'.
State Machine Definition 'Payment' is for Noun 'Payment'.
Status 'Open' is initial in State Machine Definition 'Order'.
Status 'Cancelled' is defined in State Machine Definition 'Order'.
Status 'Voided' is defined in State Machine Definition 'Payment'.
Transition 'cancel' is defined in State Machine Definition 'Order'.
Transition 'cancel' is defined in State Machine Definition 'Payment'.
Transition 'cancel' is to Status 'Cancelled'.
Transition 'cancel' is to Status 'Voided'.
"""


def reading(extra: str) -> Reading:
    return read(MACHINES + extra, known=metamodel())


def test_a_shared_name_whose_statuses_tell_the_machines_apart_reads() -> None:
    found = reading(
        "Status 'Pending' is initial in State Machine Definition 'Payment'.\n"
        "Transition 'cancel' is from Status 'Open'.\n"
        "Transition 'cancel' is from Status 'Pending'.\n"
    )
    assert found.diagnostics == ()


def test_a_status_of_both_machines_is_a_diagnostic_on_the_fact() -> None:
    found = reading(
        "Status 'Open' is initial in State Machine Definition 'Payment'.\n"
        "Transition 'cancel' is from Status 'Open'.\n"
    )
    (diagnostic,) = found.diagnostics
    assert diagnostic.sentence == "Transition 'cancel' is from Status 'Open'."
    assert "'Order' and 'Payment'" in diagnostic.message
    assert "its own name" in diagnostic.message


def test_a_status_of_neither_machine_is_a_diagnostic() -> None:
    found = reading("Transition 'cancel' is from Status 'Draft'.\n")
    (diagnostic,) = found.diagnostics
    assert "declared in none of them" in diagnostic.message


def test_a_later_reading_that_shares_the_name_gets_the_diagnostic() -> None:
    first = read(
        MACHINES.replace(
            "Transition 'cancel' is defined in State Machine Definition 'Payment'.\n", ""
        ).replace("Transition 'cancel' is to Status 'Voided'.\n", "")
        + "Status 'Open' is initial in State Machine Definition 'Payment'.\n"
        "Transition 'cancel' is from Status 'Open'.\n",
        known=metamodel(),
    )
    assert first.diagnostics == ()
    later = read(
        "Transition 'cancel' is defined in State Machine Definition 'Payment'.\n", known=first
    )
    (diagnostic,) = later.diagnostics
    assert diagnostic.sentence.startswith("Transition 'cancel' is defined in")


@pytest.mark.parametrize(("corpus", "names"), [
    # clinic.md shares the event `cancel` between two transitions of one machine
    # ('cancel-booked', 'cancel-checked-in'): distinct names, nothing to tell apart; so does
    # the tutor corpus's orders.md ('cancel-draft', 'cancel-placed').
    ("own", ("clinic/clinic.md", "library/library.md", "tracker/tracker.md")),
    ("tutor", ("orders.md", "content.md", "tasks.md", "authoring.md")),
])
def test_the_corpus_machines_read_without_diagnostics(corpus: str, names: tuple[str, ...]) -> None:
    for name in names:
        found = read(corpus_file(corpus, name).read_text("utf-8"), name, known=metamodel())
        assert not any("Transition" in d.message for d in found.diagnostics), name


def test_a_shared_name_with_two_event_types_is_a_diagnostic() -> None:
    found = reading(
        "Transition 'cancel' is triggered by Event Type 'cancel'.\n"
        "Transition 'cancel' is triggered by Event Type 'void'.\n"
    )
    messages = [d.message for d in found.diagnostics]
    assert len(messages) == 2
    assert all("Event Types 'cancel' and 'void'" in m for m in messages)


def test_a_shared_name_with_one_event_type_is_fine() -> None:
    found = reading("Transition 'cancel' is triggered by Event Type 'cancel'.\n")
    assert found.diagnostics == ()
