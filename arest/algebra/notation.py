"""Backus notation: ``read`` text into an object, ``show`` an object as text.

The notation is normative (DESIGN §2): ``<a, <b, c>>``; ``<>`` is φ; ``⊥`` (also ``_|_``)
is ⊥; an atom is any text without ``,<>'``, surrounding blanks trimmed and inner blanks kept
(``<<Order Id, ord-1>>``); ``'…'`` quotes any other atom, with ``''`` for a quote.  ``show``
writes one comma and one space between elements and quotes only the atoms that need it, so
``read(show(x)) == x`` for every object.  Both work without recursion, on objects nested
tens of thousands deep.

>>> read("<a, <b, c>>")
('a', ('b', 'c'))
>>> show(read("< <Order Id , ord-1>, 'it''s', <> >"))
"<<Order Id, ord-1>, 'it''s', <>>"
>>> read("<a, ⊥>")
⊥
"""

from __future__ import annotations

import re
from typing import Final

from arest.algebra.objects import BOTTOM, Object, sequence
from arest.errors import ArestError

_BARE: Final = re.compile(r"[^,<>']+")
_SPACE: Final = re.compile(r"\s*")
_BOTTOM_SPELLINGS: Final = frozenset({"⊥", "_|_"})
_STRUCTURE: Final = frozenset(",<>'")
_CLOSE: Final = object()
_COMMA: Final = object()


class NotationError(ArestError, ValueError):
    """Raised by :func:`read` when text is not an object in Backus notation.

    ``position`` is the 0-based offset of the problem, ``line`` and ``column`` its 1-based
    place, and the message says what would have been accepted there.
    """

    def __init__(self, text: str, position: int, expected: str) -> None:
        line = text.count("\n", 0, position) + 1
        column = position - (text.rfind("\n", 0, position) + 1) + 1
        found = repr(text[position]) if position < len(text) else "the end of the text"
        super().__init__(f"{line}:{column}: expected {expected}, found {found}")
        self.position = position
        self.line = line
        self.column = column
        self.expected = expected


def _quoted_atom(text: str, start: int) -> tuple[str, int]:
    """The atom quoted at text[start] (a ``'``) and the offset just past its closing quote."""
    pieces: list[str] = []
    position = start + 1
    while True:
        close = text.find("'", position)
        if close < 0:
            raise NotationError(text, len(text), "a closing quote for the atom opened at "
                                f"offset {start}")
        pieces.append(text[position:close])
        if text.startswith("''", close):
            pieces.append("'")
            position = close + 2
        else:
            return "".join(pieces), close + 1


def read(text: str) -> Object:
    """The object written in text, in Backus notation.

    Raises :class:`NotationError` naming the line, the column and what was expected.

    >>> read("<>"), read("T"), read("'⊥'"), read("_|_")
    ((), 'T', '⊥', ⊥)
    >>> try:
    ...     read("<a,,b>")
    ... except NotationError as error:
    ...     print(error)
    1:4: expected an object, found ','
    """
    open_sequences: list[list[Object]] = []
    done: list[Object] = []
    expecting_item = True
    position = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    length = len(text)
    while position < length:
        if done:
            raise NotationError(text, position, "the end of the text after the object")
        char = text[position]
        if char == "<":
            if not expecting_item:
                raise NotationError(text, position, "',' or '>'")
            position = _SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
            if position < length and text[position] == ">":
                position += 1
                item: Object = ()
            else:
                open_sequences.append([])
                continue
        elif char == ">" or char == ",":
            if expecting_item or not open_sequences:
                raise NotationError(text, position, "an object")
            position += 1
            if char == ",":
                expecting_item = True
                position = _SPACE.match(text, position).end()  # type: ignore[union-attr]
                continue
            item = sequence(*open_sequences.pop())
        else:
            if not expecting_item:
                raise NotationError(text, position, "',' or '>'")
            if char == "'":
                item, position = _quoted_atom(text, position)
            else:
                match = _BARE.match(text, position)
                assert match is not None
                position = match.end()
                if position < length and text[position] == "'":
                    raise NotationError(text, position, "an atom quoted whole, as '…'")
                bare = match.group().strip()
                item = BOTTOM if bare in _BOTTOM_SPELLINGS else bare
        position = _SPACE.match(text, position).end()  # type: ignore[union-attr]
        if open_sequences:
            open_sequences[-1].append(item)
            expecting_item = False
        else:
            done.append(item)
    if open_sequences:
        raise NotationError(text, length, "'>' to close a sequence")
    if not done:
        raise NotationError(text, length, "an object")
    return done[0]


def needs_quotes(atom: str) -> bool:
    """True when an atom cannot be written bare: empty, padded, holding ``,<>'``, or ⊥'s name.

    >>> needs_quotes("Order Id"), needs_quotes(" x"), needs_quotes("a,b"), needs_quotes("_|_")
    (False, True, True, True)
    """
    return (
        atom == ""
        or atom != atom.strip()
        or atom in _BOTTOM_SPELLINGS
        or not _STRUCTURE.isdisjoint(atom)
    )


def show_atom(atom: str) -> str:
    """An atom as written in the notation, quoted only when it must be.

    >>> show_atom("ord-1"), show_atom("it's")
    ('ord-1', "'it''s'")
    """
    if needs_quotes(atom):
        return "'" + atom.replace("'", "''") + "'"
    return atom


def show(x: Object) -> str:
    """The object in Backus notation: ``<a, b>``, φ as ``<>``, ⊥ as ``⊥``.

    >>> show(("a", ("b", ()), "x y"))
    '<a, <b, <>>, x y>'
    >>> show(BOTTOM)
    '⊥'
    """
    pieces: list[str] = []
    pending: list[object] = [x]
    while pending:
        item = pending.pop()
        if item is _CLOSE or item is _COMMA:
            pieces.append(">" if item is _CLOSE else ", ")
        elif type(item) is str:
            pieces.append(show_atom(item))
        elif type(item) is tuple:
            pieces.append("<")
            pending.append(_CLOSE)
            for index in range(len(item) - 1, -1, -1):
                pending.append(item[index])
                if index:
                    pending.append(_COMMA)
        else:
            pieces.append("⊥")
    return "".join(pieces)
