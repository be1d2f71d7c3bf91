"""Markdown readings → sentences.

A readings file is markdown.  What is *not* a sentence: headings (``#`` … ``######``, also
used for comment lines), the first paragraph under a level-1 heading (the document's
description), HTML comments, fenced code blocks, and blank lines.  Everything else is
sentence text: lines are joined, indentation removed, with one space, until a line ends
with a period (optionally followed by a derivation marker ``*``, ``**``, ``+`` or a ring
annotation such as ``(irreflexive)``).  A sentence left open by a blank line, a heading or
the end of the file is reported, never dropped; so is a code fence or an HTML comment still
open at the end of the file (an ``unclosed`` paragraph at its opening line), since it hid
the rest of the file.

>>> [s.text for s in sentences("# T\\n\\nAbout it.\\n\\nA has B.\\n  Each A has\\n  some B.\\n")]
['A has B.', 'Each A has some B.']
>>> [(p.kind, p.line) for p in paragraphs("# T\\n\\nAbout it.\\n\\nA has B.\\n")]
[('heading', 1), ('description', 3), ('sentence', 5)]
"""

from __future__ import annotations

import re

from arest.records import record

_TERMINAL = re.compile(r"\.\s*(?:\*\*|\*|\+|\(\s*[a-z]+\s*\))?\s*$")
_FENCE = "```"


@record
class Piece:
    """One line's part of a sentence: where it starts in the joined text and in the file."""

    offset: int
    line: int
    column: int


@record
class Paragraph:
    """A unit of the file: a ``sentence``, ``heading``, ``description``, ``comment``, an
    ``unterminated`` sentence, or an ``unclosed`` fence or comment (its opening line);
    ``text`` is joined by single spaces, ``pieces`` map offsets in ``text`` back to lines
    and columns (1-based)."""

    kind: str
    text: str
    line: int
    column: int
    pieces: tuple[Piece, ...]

    def position(self, offset: int) -> tuple[int, int]:
        """The (line, column) of character ``offset`` of ``text``.

        >>> p = Paragraph("sentence", "ab cd", 3, 1, (Piece(0, 3, 1), Piece(3, 4, 3)))
        >>> p.position(4)
        (4, 4)
        """
        piece = self.pieces[0]
        for candidate in self.pieces:
            if candidate.offset <= offset:
                piece = candidate
        return piece.line, piece.column + (offset - piece.offset)


def _starts_sentence(lines: list[tuple[int, int, str]]) -> Paragraph:
    pieces: list[Piece] = []
    parts: list[str] = []
    offset = 0
    for number, column, text in lines:
        pieces.append(Piece(offset, number, column))
        parts.append(text)
        offset += len(text) + 1
    first_line, first_column = lines[0][0], lines[0][1]
    return Paragraph("sentence", " ".join(parts), first_line, first_column, tuple(pieces))


def paragraphs(text: str) -> list[Paragraph]:
    """Every unit of a readings file, in order (see the module docstring).

    >>> [(p.kind, p.text, p.line) for p in paragraphs("A has B.\\n<!-- note\\nB has C.\\n")]
    [('sentence', 'A has B.', 1), ('comment', '<!-- note', 2), ('unclosed', '<!--', 2)]
    """
    out: list[Paragraph] = []
    opened: Paragraph | None = None  # the fence or comment the lines now belong to
    open_lines: list[tuple[int, int, str]] = []
    in_fence = False
    in_comment = False
    description_pending = False
    description_lines: list[tuple[int, int, str]] = []

    def close_open() -> None:
        if open_lines:
            unterminated = _starts_sentence(open_lines)
            out.append(
                Paragraph(
                    "unterminated",
                    unterminated.text,
                    unterminated.line,
                    unterminated.column,
                    unterminated.pieces,
                )
            )
            open_lines.clear()

    def close_description() -> None:
        if description_lines:
            prose = _starts_sentence(description_lines)
            out.append(Paragraph("description", prose.text, prose.line, prose.column, prose.pieces))
            description_lines.clear()

    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        column = len(raw) - len(raw.lstrip()) + 1
        if in_fence:
            in_fence = not stripped.startswith(_FENCE)
            continue
        if in_comment:
            in_comment = "-->" not in stripped
            continue
        if stripped.startswith(_FENCE):
            close_open()
            in_fence = True
            opened = Paragraph("unclosed", _FENCE, number, column, (Piece(0, number, column),))
            continue
        if stripped.startswith("<!--"):
            close_open()
            in_comment = "-->" not in stripped
            opened = Paragraph("unclosed", "<!--", number, column, (Piece(0, number, column),))
            out.append(Paragraph("comment", stripped, number, column, (Piece(0, number, column),)))
            continue
        if not stripped:
            close_open()
            if description_lines:
                close_description()
                description_pending = False
            continue
        if stripped.startswith("#"):
            close_open()
            close_description()
            out.append(Paragraph("heading", stripped, number, column, (Piece(0, number, column),)))
            description_pending = stripped.startswith("# ") or stripped == "#"
            continue
        if description_pending:
            description_lines.append((number, column, stripped))
            continue
        open_lines.append((number, column, stripped))
        if _TERMINAL.search(stripped):
            out.append(_starts_sentence(open_lines))
            open_lines.clear()
    close_open()
    close_description()
    if (in_fence or in_comment) and opened is not None:
        out.append(opened)
    return out


def sentences(text: str) -> list[Paragraph]:
    """The sentences of a readings file (terminated ones only)."""
    return [p for p in paragraphs(text) if p.kind == "sentence"]
