"""What is wrong with a text: the :class:`Diagnostic` values of a reading and the
:class:`ReadingError` that lists them.  Apart from the constructs and the reader, so that a
caller that only catches the error (the command line, the transports) loads neither.
"""

from __future__ import annotations

from arest.errors import ArestError
from arest.records import record


@record
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
