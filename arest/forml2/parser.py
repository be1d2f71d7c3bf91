"""The one grammar: ``forml2.lark``, loaded from package data, and parsing by shape.

A sentence is parsed in its masked form (see :mod:`arest.forml2.lexicon`), so every
sentence of one shape (``«0» ‹0› is ω in «1» ‹1›.``) shares one parse tree.  ``Shapes`` is
that memo: a plain mapping the caller owns and passes along, never module state.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import pickle
from collections.abc import MutableMapping
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from arest.forml2.lookahead import LookaheadEarley

Shapes = MutableMapping[str, Tree[Token]]
"""Parse trees by masked sentence text."""


GRAMMAR = Path(__file__).with_name("forml2.lark")
"""The grammar, shipped beside this module and read as a file, as the metamodel's texts
are (:mod:`arest.forml2.bundled`): ``importlib.resources`` would bring ``zipfile`` and its
readers to every first compile, a few ms."""


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar, as shipped in the package."""
    return GRAMMAR.read_text("utf-8")


BUILT_PARSER = Path(__file__).with_name("forml2.lark.pickle")
"""The parser as :func:`parser` builds it from :func:`grammar_text`, shipped beside it:
loading the text (lark parses it with its own grammar, resolves rules, templates and
terminals), compiling it and analysing it for Earley is most of a first compile in a
process, and unpickling the built parser takes a fraction of that."""


LOOKAHEAD_SOURCE = Path(__file__).with_name("lookahead.py")
"""The code of the parser class the built parser is an instance of (its tables are pickled)."""


def grammar_key(text: str) -> str:
    """What a built parser depends on: the grammar's text, lark's version and the code of
    :mod:`arest.forml2.lookahead`.

    >>> grammar_key("start: WORD") == grammar_key("start: WORD"), len(grammar_key("x"))
    (True, 64)
    """
    digest = hashlib.sha256(f"{lark.__version__}\0{text}\0".encode())
    digest.update(LOOKAHEAD_SOURCE.read_bytes() if LOOKAHEAD_SOURCE.exists() else b"")
    return digest.hexdigest()


def exhaustive(text: str) -> Lark:
    """Lark's Earley parser of a grammar's text, predicting every rule it may expect."""
    return Lark(text, parser="earley", lexer="basic", ambiguity="resolve")


def _built(text: str) -> Lark:
    """The Earley parser of a grammar's text, predicting with one token of lookahead
    (:mod:`arest.forml2.lookahead`): the trees and errors of :func:`exhaustive`, in a
    fraction of its time."""
    built = exhaustive(text)
    built.parser.parser = LookaheadEarley.like(built.parser.parser)
    return built


class _ModulesByName(pickle.Pickler):
    """A pickler that writes a module as its name: lark's lexer keeps the ``re`` module it
    compiles with, and a module is imported, not pickled."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, ModuleType):
            return importlib.import_module, (obj.__name__,)
        return NotImplemented


def built_parser(text: str) -> bytes:
    """What :data:`BUILT_PARSER` holds: ⟨:func:`grammar_key`, the parser built from the
    text, pickled⟩ pickled, so that the key is read before anything lark pickled is.  The
    bytes follow ``PYTHONHASHSEED`` (lark's sets of symbols), not what the parser parses."""
    inner = io.BytesIO()
    _ModulesByName(inner, protocol=pickle.HIGHEST_PROTOCOL).dump(_built(text))
    return pickle.dumps((grammar_key(text), inner.getvalue()), protocol=pickle.HIGHEST_PROTOCOL)


def _shipped_parser(text: str) -> Lark | None:
    """The shipped built parser when it was built from this text by this lark."""
    try:
        key, inner = pickle.loads(BUILT_PARSER.read_bytes())
        if key != grammar_key(text):
            return None
        stored = pickle.loads(inner)
    except Exception:  # missing, damaged, or pickled by another lark: build from the text
        return None
    return stored if isinstance(stored, Lark) else None


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The lark parser over :func:`grammar_text` (Earley: predicate words and keywords
    overlap, and rule priorities settle which reading a sentence has; one token of
    lookahead on prediction keeps a new sentence shape cheap): the shipped built
    parser when it is current (the same parser, built ahead of time), else built now."""
    text = grammar_text()
    return _shipped_parser(text) or _built(text)


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


def accepted(masked: str, shapes: Shapes) -> Tree[Token] | None:
    """:func:`parse_masked`'s tree, or None where it raises: whether a text is a sentence,
    asked without the error a reader would show.  Lark's exhaustive parse of bad input,
    run only for that error's expected terminals, is left out."""
    tree = shapes.get(masked)
    if tree is not None:
        return tree
    frontend = parser().parser
    ahead = frontend.parser
    try:
        if not isinstance(ahead, LookaheadEarley):
            return parse_masked(masked, shapes)
        start, = frontend.parser_conf.start  # the grammar's one start rule
        found: Tree[Token] = ahead.parse_ahead(frontend._make_lexer_thread(masked), start)
    except UnexpectedInput:
        return None
    shapes[masked] = found
    return found
