"""The one grammar: ``forml2.lark``, loaded from package data, and parsing by shape.

A sentence is parsed in its masked form (see :mod:`arest.forml2.lexicon`), so every
sentence of one shape (``«0» ‹0› is ω in «1» ‹1›.``) shares one parse tree.  ``Shapes`` is
that memo: a plain mapping the caller owns and passes along, never module state.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import pickle
from collections.abc import MutableMapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, Tree
from lark.load_grammar import Grammar

Shapes = MutableMapping[str, Tree[Token]]
"""Parse trees by masked sentence text."""


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar, as shipped in the package."""
    return importlib.resources.files("arest.forml2").joinpath("forml2.lark").read_text("utf-8")


BUILT_GRAMMAR = Path(__file__).with_name("forml2.lark.pickle")
"""The grammar as lark loads it from :func:`grammar_text`, shipped beside it: loading the
text (lark parses it with its own grammar, then resolves rules, templates and terminals)
is about half of building the parser, and a first compile pays it."""


def grammar_key(text: str) -> str:
    """What a loaded grammar depends on: the grammar's text and lark's version.

    >>> grammar_key("start: WORD") == grammar_key("start: WORD"), len(grammar_key("x"))
    (True, 64)
    """
    return hashlib.sha256(f"{lark.__version__}\0{text}".encode()).hexdigest()


def built_grammar(text: str) -> bytes:
    """What :data:`BUILT_GRAMMAR` holds: ⟨:func:`grammar_key`, lark's ``Grammar`` of the
    text⟩ pickled."""
    from lark.load_grammar import load_grammar

    # lark leaves this function unannotated: it is what Lark(text) runs first
    grammar, _ = load_grammar(text, "<string>", None, False)  # type: ignore[no-untyped-call]
    return pickle.dumps((grammar_key(text), grammar), protocol=pickle.HIGHEST_PROTOCOL)


def _shipped_grammar(text: str) -> Grammar | None:
    """The shipped loaded grammar when it was loaded from this text by this lark."""
    try:
        stored: Any = pickle.loads(BUILT_GRAMMAR.read_bytes())
    except Exception:  # missing, or pickled by another lark: load the text instead
        return None
    if type(stored) is tuple and len(stored) == 2 and stored[0] == grammar_key(text) \
            and isinstance(stored[1], Grammar):
        return stored[1]
    return None


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The lark parser over :func:`grammar_text` (Earley: predicate words and keywords
    overlap, and rule priorities settle which reading a sentence has), built from the
    shipped loaded grammar when it is current (the same grammar, loaded ahead of time)."""
    text = grammar_text()
    grammar = _shipped_grammar(text) or text
    return Lark(grammar, parser="earley", lexer="basic", ambiguity="resolve")


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
