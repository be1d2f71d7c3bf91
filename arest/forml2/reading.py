"""What reading a text gives: a :class:`Reading`, its :class:`Diagnostic` values, and the
:class:`ReadingError` that lists them.  Apart from the reader (:mod:`arest.forml2.reader`),
so that the shipped metamodel (:mod:`arest.forml2.bundled`) loads without the parser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arest.errors import ArestError
from arest.forml2.constructs import Construct, Source
from arest.forml2.facts import Fact
from arest.forml2.schema import Schema

if TYPE_CHECKING:
    from arest.forml2.parser import Shapes


@dataclass(frozen=True)
class Diagnostic:
    """One problem: ``path:line:column: message``, the sentence, and what would be accepted."""

    path: str
    line: int
    column: int
    message: str
    sentence: str = ""
    expected: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"{self.path}:{self.line}:{self.column}: {self.message}"
        if self.sentence:
            text += f"\n    {self.sentence}"
        for form in self.expected:
            text += f"\n    accepted, e.g.: {form}"
        return text


class ReadingError(ArestError, ValueError):
    """Raised when readings do not read: unparsable sentences, unknown or ambiguous fact
    types, conflicting declarations, facts contradicting a reference scheme.  The message
    lists every diagnostic compiler-style; ``diagnostics`` holds them as data, and
    ``warnings`` what the same readings warned of (compiler-style), when known."""

    def __init__(self, diagnostics: tuple[Diagnostic, ...], warnings: tuple[str, ...] = ()
                 ) -> None:
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = diagnostics
        self.warnings = warnings


@dataclass(frozen=True)
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
