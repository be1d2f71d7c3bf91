"""`It is obligatory that each A has B before V is 'v'`: the deontic subset from the
subject's having that value (a fact type's, or its state machine's Status) to its having B."""

from __future__ import annotations

import pytest

from arest.forml2 import Constraint, read, verbalize
from tests.forml2.reading import clean, constraints

SCHEMA = """
Article(.Slug) is an entity type.
Content Body is a value type.
Content Status is a value type.
Article has Content Body.
Article has Content Status.
Article is reviewed.
State Machine Definition 'Article' is for Noun 'Article'.
Status 'Draft' is initial in State Machine Definition 'Article'.
"""


def one(text: str) -> Constraint:
    (constraint,) = constraints(text + "\n", clean(SCHEMA))
    return constraint


@pytest.mark.parametrize("before, conditional", [
    ("It is obligatory that each Article has Content Body before Content Status is"
     " 'published'.",
     "It is obligatory that if some Article has Content Status 'published' then that Article"
     " has some Content Body."),
    ("It is obligatory that each Article has Content Body before Status is 'Published'.",
     "It is obligatory that if some Article has Status 'Published' then that Article has"
     " some Content Body."),
    ("It is obligatory that each Article is reviewed before Status is 'Published'.",
     "It is obligatory that if some Article has Status 'Published' then that Article is"
     " reviewed."),
])
def test_before_states_the_deontic_subset_from_the_value(before: str, conditional: str) -> None:
    read_before, read_conditional = one(before), one(conditional)
    assert read_before == read_conditional
    assert (read_before.kind, read_before.modality, read_before.operator) == (
        "SS", "deontic", "obligatory")
    assert read_before.reading == before
    known = clean(SCHEMA)
    assert verbalize(read_before, known) == conditional


@pytest.mark.parametrize("sentence, message", [
    ("It is forbidden that each Article has Content Body before Status is 'Published'.",
     "`before` says from when something is obligatory"),
    ("It is obligatory that some Article has Content Body before Status is 'Published'.",
     "is about each object of its subject"),
    ("It is obligatory that each Article has exactly one Content Body before Status is 'P'.",
     "is about each object of its subject"),
    ("Each Article has Content Body before Status is 'Published'.",
     "a temporal condition (`before`) reads only in an obligation"),
])
def test_before_outside_an_obligation_of_each_subject_is_a_diagnostic(
        sentence: str, message: str) -> None:
    (diagnostic,) = read(sentence + "\n", known=clean(SCHEMA)).diagnostics
    assert message in diagnostic.message and diagnostic.line == 1


def test_before_stays_a_predicate_word_in_readings() -> None:
    reading = read("Meeting(.id) is an entity type.\nMeeting is before Meeting.\n"
                   "Meeting 'a' is before Meeting 'b'.\n", known=clean(SCHEMA))
    assert reading.diagnostics == ()
    assert "Meeting_is_before_Meeting" in reading.schema.fact_types
