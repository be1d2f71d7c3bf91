"""What reading a text gives: a :class:`Reading`, its :class:`Diagnostic` values, and the
:class:`ReadingError` that lists them (those two in :mod:`arest.forml2.diagnostics`).
Apart from the reader (:mod:`arest.forml2.reader`), so that the shipped metamodel
(:mod:`arest.forml2.bundled`) loads without the parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arest.forml2.constructs import Construct, Source
from arest.forml2.diagnostics import Diagnostic, ReadingError
from arest.forml2.facts import Fact
from arest.forml2.schema import Schema
from arest.records import field, record

if TYPE_CHECKING:
    from arest.forml2.parser import Shapes

__all__ = ["Diagnostic", "Reading", "ReadingError"]


@record
class Reading:
    """What one text said: constructs in sentence order, their metamodel facts, the
    diagnostics (errors) and warnings, each sentence's statement form, and the schema and
    parse shapes a later reading continues from (pass this Reading as ``known``)."""

    constructs: tuple[Construct, ...]
    facts: tuple[Fact, ...]
    diagnostics: tuple[Diagnostic, ...]
    warnings: tuple[Diagnostic, ...]
    sentences: tuple[tuple[Source, str], ...]
    schema: Schema = field(compare=False)
    shapes: Shapes = field(compare=False, repr=False)
