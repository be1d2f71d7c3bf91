"""The lexicon pre-pass: literals masked, noun phrases turned into single tokens.

The grammar never sees a quoted literal or a noun's words.  ``lex`` rewrites a sentence into
masked text for the lark grammar: each ``'…'`` literal becomes ``‹k›`` (``''`` inside a
literal is one quote; a quote right after a letter is an apostrophe, as in ``Customer's``),
and each noun phrase becomes ``«k»``.  A noun phrase is the longest declared noun that
starts at a word boundary, or else the maximal run of capitalised words (an undeclared
noun, which permissive mode declares).  A digit suffix (``Person1``, ``Comment 1``) is a
subscript and a trailing ``s`` of a declared noun a plural; both stay on the noun token.
A capitalised keyword (``Each``, ``If``, ``It`` …) is lower-cased for the grammar.

>>> lexed = lex("Each Order was placed by exactly one Customer.", {"Order", "Customer"})
>>> lexed.masked
'each «0» was placed by exactly one «1».'
>>> [n.name for n in lexed.nouns]
['Order', 'Customer']
>>> lex("Brand 'it''s' has Brand Name 'Acme'.", {"Brand", "Brand Name"}).literals[0].value
"it's"
>>> [(n.name, n.subscript) for n in lex("If Person1 likes Person 2 then", {"Person"}).nouns]
[('Person', '1'), ('Person', '2')]
"""

from __future__ import annotations

from collections.abc import Iterable

from arest.errors import ArestError
from arest.records import record

STOPWORDS = frozenset(
    {
        "Each",
        "No",
        "If",
        "For",
        "It",
        "In",
        "The",
        "This",
        "That",
        "Some",
        "A",
        "An",
        "Then",
        "When",
        "Exactly",
        "At",
        "Any",
        "Every",
    }
)
"""Capitalised words that are keywords at the start of a sentence, never the start of a noun
(unless a declared noun begins with them, which a quoted declaration allows)."""


PLACEHOLDERS = frozenset("«»‹›ω")
"""The characters masked text writes its placeholders with (``«k»``, ``‹k›``, ``ω``): in a
sentence they are read only inside a literal.

>>> lex("Customer 'a«b' is active.", {"Customer"}).literals[0].value
'a«b'
>>> try:
...     lex("Customer « is active.", {"Customer"})
... except LexError as error:
...     print(error.offset, str(error)[:38])
9 `«` outside a literal is reserved (the
"""


class LexError(ArestError, ValueError):
    """Raised by :func:`lex` for an unterminated literal or a placeholder character outside
    a literal; ``offset`` locates it."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset


@record
class NounToken:
    """One noun occurrence: its name, the text as written, subscript, plural and span."""

    name: str
    surface: str
    subscript: str
    plural: bool
    declared: bool
    start: int
    end: int


@record
class LiteralToken:
    """One quoted literal: its decoded value and its span (quotes included)."""

    value: str
    start: int
    end: int


@record
class Lexed:
    """A sentence as the grammar sees it, with the tables its placeholders index.

    ``words`` maps the masked offset of each ``ω`` to the plain (non-keyword) words it
    stands for, so that sentences of one shape share one parse.
    """

    masked: str
    nouns: tuple[NounToken, ...]
    literals: tuple[LiteralToken, ...]
    words: dict[int, str]
    offsets: tuple[int, ...]

    def source_offset(self, masked_column: int) -> int:
        """The offset in the sentence of a 1-based column of ``masked``."""
        if not self.offsets:
            return 0
        index = min(max(masked_column - 1, 0), len(self.offsets) - 1)
        return self.offsets[index]


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _capitalised_word_end(text: str, start: int) -> int:
    """End of the capitalised word at ``start``, or ``start`` when there is none."""
    if start >= len(text) or not text[start].isupper():
        return start
    end = start
    while end < len(text) and _is_word_char(text[end]):
        end += 1
    return end


def _declared_match(text: str, start: int, declared: Iterable[str]) -> int:
    """End of the longest declared noun at ``start`` (on word boundaries), else ``start``."""
    best = start
    for noun in declared:
        end = start + len(noun)
        boundary = end >= len(text) or not _is_word_char(text[end])
        if end > best and text.startswith(noun, start) and boundary:
            best = end
    return best


def _run_end(text: str, start: int) -> int:
    """End of the maximal run of capitalised, non-keyword words from ``start``."""
    end = start
    cursor = start
    while True:
        word_end = _capitalised_word_end(text, cursor)
        if word_end == cursor:
            return end
        end = word_end
        if end + 1 < len(text) and text[end] == " " and text[end + 1].isupper():
            cursor = end + 1
        else:
            return end


def _resolve(phrase: str, declared: frozenset[str]) -> tuple[str, str, bool, bool]:
    """(name, subscript, plural, declared) for a capitalised phrase."""
    if phrase in declared:
        return phrase, "", False, True
    stem = phrase.rstrip("0123456789")
    if stem != phrase and stem in declared:
        return stem, phrase[len(stem) :], False, True
    for suffix, replacement in (("ies", "y"), ("es", ""), ("s", "")):
        if phrase.endswith(suffix) and phrase[: -len(suffix)] + replacement in declared:
            return phrase[: -len(suffix)] + replacement, "", True, True
    return phrase, "", False, False


def _literal_end(text: str, start: int) -> tuple[int, str]:
    """(end, value) of the literal opening at ``start``."""
    cursor = start + 1
    chars: list[str] = []
    while cursor < len(text):
        if text[cursor] == "'":
            if text.startswith("''", cursor):
                chars.append("'")
                cursor += 2
                continue
            return cursor + 1, "".join(chars)
        chars.append(text[cursor])
        cursor += 1
    raise LexError(start, "this literal is not closed: add a ' before the end of the sentence")


def lex(text: str, declared: Iterable[str], keywords: frozenset[str] = frozenset()) -> Lexed:
    """Mask a sentence's literals, nouns and plain words (see the module docstring).

    A run of lower-case words that are not ``keywords`` becomes one ``ω``; with no keywords
    given, every lower-case word is kept as written.
    """
    names = frozenset(declared)
    words: dict[int, str] = {}
    by_initial: dict[str, list[str]] = {}
    for noun in names:
        by_initial.setdefault(noun[:1], []).append(noun)
    out: list[str] = []
    offsets: list[int] = []
    nouns: list[NounToken] = []
    literals: list[LiteralToken] = []

    def emit(piece: str, at: int) -> None:
        out.append(piece)
        offsets.extend([at] * len(piece))

    index = 0
    while index < len(text):
        char = text[index]
        if char in PLACEHOLDERS:
            raise LexError(
                index,
                f"`{char}` outside a literal is reserved (the reader's placeholders are"
                f" written with it): remove it, or quote it in a literal ('{char}')",
            )
        boundary = index == 0 or not _is_word_char(text[index - 1])
        if (
            char == "'"
            and text.startswith("'s", index)
            and not boundary
            and (index + 2 == len(text) or not _is_word_char(text[index + 2]))
        ):
            emit(" 's ", index)
            index += 2
            continue
        if char == "'" and boundary:
            end, value = _literal_end(text, index)
            emit(f"‹{len(literals)}›", index)
            literals.append(LiteralToken(value, index, end))
            index = end
            continue
        if char.isupper() and boundary:
            word_end = _capitalised_word_end(text, index)
            declared_end = _declared_match(text, index, by_initial.get(char, ()))
            if text[index:word_end] in STOPWORDS and declared_end == index:
                emit(text[index:word_end].lower(), index)
                index = word_end
                continue
            end = max(declared_end, _run_end(text, index))
            while end + 1 < len(text) and text[end] == " ":
                more = _run_end(text, end + 1)
                if more == end + 1:
                    break
                end = more
            phrase = text[index:end]
            name, subscript, plural, known = _resolve(phrase, names)
            if not subscript:
                digits = end + 1
                while digits < len(text) and text[digits].isdigit():
                    digits += 1
                if (
                    text[end : end + 1] == " "
                    and digits > end + 1
                    and (digits == len(text) or not _is_word_char(text[digits]))
                ):
                    subscript = text[end + 1 : digits]
                    end = digits
            emit(f"«{len(nouns)}»", index)
            nouns.append(NounToken(name, text[index:end], subscript, plural, known, index, end))
            index = end
            continue
        if keywords and char.islower() and boundary:
            end = index
            while end < len(text) and (_is_word_char(text[end]) or text[end] == "-"):
                end += 1
            word = text[index:end]
            if word in keywords or not word.isascii():
                emit(word, index)
            elif len(out) >= 2 and out[-1] == " " and out[-2] == "ω":
                out.pop()
                offsets.pop()
                key = len(offsets) - 1
                words[key] = text[offsets[key] : end]
            else:
                words[len(offsets)] = word
                emit("ω", index)
            index = end
            continue
        emit(char, index)
        index += 1
    return Lexed("".join(out), tuple(nouns), tuple(literals), words, tuple(offsets))
