"""Verbalization: every construct says a canonical sentence that reads back to it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arest.forml2 import Constraint, Reading, metamodel, read, verbalize
from arest.testing.forml2 import Schema, constructs, schemas
from tests.corpus import EVERY_FILE, corpus_file


def assert_round_trip(construct: object, known: Reading) -> str:
    said = verbalize(construct, known)  # type: ignore[arg-type]
    back = read(said, "<verbalized>", known=known)
    assert back.diagnostics == (), (said, back.diagnostics)
    assert construct in back.constructs, (said, construct, back.constructs)
    return said


@pytest.mark.slow
@given(st.data())
def test_generated_constructs_read_back_equal(data: st.DataObject) -> None:
    schema: Schema = data.draw(schemas())
    assert schema.reading.diagnostics == (), schema.text
    construct = data.draw(constructs(schema))
    assert_round_trip(construct, schema.reading)


@pytest.mark.parametrize(("corpus", "name"), EVERY_FILE)
def test_every_corpus_construct_reads_back_equal(corpus: str, name: str) -> None:
    known = read(corpus_file(corpus, name).read_text("utf-8"), name, known=metamodel())
    for construct in known.constructs:
        assert_round_trip(construct, known)


def test_every_metamodel_construct_reads_back_equal() -> None:
    for construct in metamodel().constructs:
        assert_round_trip(construct, metamodel())


@pytest.mark.parametrize(
    ("source", "canonical"),
    [
        ("No Task blocks the same Task. (irreflexive)", "Task blocks Task is irreflexive."),
        ("No Task blocks itself.", "Task blocks Task is irreflexive."),
        (
            "If Task 1 blocks Task 2 and Task 2 blocks Task 3, then Task 1 does not block Task 3.",
            "Task blocks Task is intransitive.",
        ),
        (
            "In each population of Task has Tag, each Task, Tag combination occurs at most once.",
            "In each population of Task has Tag, each Task, Tag combination occurs at most once.",
        ),
        ("Each Task has at most 1 Tag.", "Each Task has at most one Tag."),
        (
            "It is possible that some Tag has more than one Task.",
            "It is possible that some Tag has more than one Task.",
        ),
    ],
)
def test_non_canonical_sources_normalise(source: str, canonical: str) -> None:
    known = read(
        "Task(.Task Id) is an entity type.\nTag is a value type.\nTask blocks Task.\n"
        "Task has Tag.\n",
        known=metamodel(),
    )
    reading = read(source, known=known)
    assert reading.diagnostics == ()
    (construct,) = [c for c in reading.constructs if not isinstance(c, Constraint) or c.kind]
    assert verbalize(construct, reading) == canonical
