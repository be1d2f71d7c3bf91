"""The one grammar: ``forml2.lark``, loaded from package data, and parsing by shape.

A sentence is parsed in its masked form (see :mod:`arest.forml2.lexicon`), so every
sentence of one shape (``«0» ‹0› is ω in «1» ‹1›.``) shares one parse tree.  ``Shapes`` is
that memo: a plain mapping the caller owns and passes along, never module state.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import MutableMapping
from functools import lru_cache

from lark import Lark, Token, Tree

Shapes = MutableMapping[str, Tree[Token]]
"""Parse trees by masked sentence text."""


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar, as shipped in the package."""
    return importlib.resources.files("arest.forml2").joinpath("forml2.lark").read_text("utf-8")


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The lark parser over :func:`grammar_text` (Earley: predicate words and keywords
    overlap, and rule priorities settle which reading a sentence has)."""
    return Lark(grammar_text(), parser="earley", lexer="basic", ambiguity="resolve")


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Every lower-case word the grammar names: the words the lexicon must not mask.

    >>> {"each", "iff", "is", "irreflexive"} <= keywords()
    True
    """
    out = set()
    for terminal in parser().terminals:
        if terminal.pattern.type == "str" and terminal.pattern.value.isalpha():
            out.add(terminal.pattern.value)
    out.discard("ω")
    return frozenset(out)


def parse_masked(masked: str, shapes: Shapes) -> Tree[Token]:
    """The parse tree of a masked sentence, from ``shapes`` when that shape was seen.

    Raises lark's ``UnexpectedInput`` when the grammar does not accept the sentence.
    """
    tree = shapes.get(masked)
    if tree is None:
        tree = parser().parse(masked)
        shapes[masked] = tree
    return tree
