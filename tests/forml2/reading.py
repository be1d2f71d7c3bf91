"""Helpers the sentence-family tests share: read a schema cleanly, then the constraints of a
text read on top of it."""

from __future__ import annotations

from arest.forml2 import Constraint, Reading, metamodel, read


def clean(schema: str) -> Reading:
    """The schema read on top of the metamodel, with no diagnostic."""
    reading = read(schema, known=metamodel())
    assert reading.diagnostics == (), reading.diagnostics
    return reading


def constraints(text: str, known: Reading) -> list[Constraint]:
    """The constraints text states, read on top of known, with no diagnostic."""
    reading = read(text, known=known)
    assert reading.diagnostics == (), reading.diagnostics
    return [c for c in reading.constructs if isinstance(c, Constraint)]
