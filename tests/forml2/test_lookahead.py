"""The parser predicting with one token of lookahead (``arest/forml2/lookahead.py``) is
lark's exhaustive Earley parser, only faster: on every sentence shape the project knows
(``shapes.txt``: those of the corpora and the metamodel, those tests/forml2 parse, good and
bad, and every shape that parses of the readings in the tests' files and strings) and on
mutations of them, its lookahead parse alone gives the exhaustive parse's tree
token for token, or fails where that one fails; and on bad input the shipped parser raises
exactly lark's error, the one ``match_examples`` and the diagnostics read.
"""

from __future__ import annotations

import pickle
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedInput

from arest.forml2 import bad_readings, metamodel
from arest.forml2 import parser as grammar
from arest.forml2.lexicon import lex
from arest.forml2.lookahead import LookaheadEarley

# One worker parses the shapes exhaustively once for all the tests that compare against it,
# where each worker would otherwise do it again.  Every shape is compared in the slow suite
# (about 45 s); the fast suite compares shapes drawn from them.
pytestmark = pytest.mark.xdist_group("lookahead-exhaustive")

SHAPES = tuple((Path(__file__).with_name("shapes.txt")).read_text("utf-8").splitlines())


class LookaheadOnly(LookaheadEarley):
    """The lookahead parse with no exhaustive parse behind it, so that a tree it got wrong
    or a sentence it failed cannot be covered by the fallback."""

    def parse(self, lexer: Any, start: str) -> Any:
        return self.parse_ahead(lexer, start)


@cache
def exhaustive() -> Lark:
    return grammar.exhaustive(grammar.grammar_text())


@cache
def lookahead_only() -> Lark:
    built = grammar.exhaustive(grammar.grammar_text())
    built.parser.parser = LookaheadOnly.like(built.parser.parser)
    return built


def parsed(parser: Lark, masked: str) -> bytes | None:
    """The pickled tree of a masked sentence, or None when it does not parse."""
    try:
        return pickle.dumps(parser.parse(masked))
    except UnexpectedInput:
        return None


@cache
def exhaustive_parse(masked: str) -> bytes | None:
    return parsed(exhaustive(), masked)


def error(parser: Lark, masked: str) -> tuple[object, ...]:
    """What the reader and ``match_examples`` read of a parse failure."""
    with pytest.raises(UnexpectedInput) as raised:
        parser.parse(masked)
    e: Any = raised.value
    # The state's rules as text: a rule unpickled keeps the hash it had where it was built.
    state = sorted(repr(item) for item in e.state or ())
    return (type(e), str(e), e.column, state, getattr(e, "expected", None),
            getattr(e, "token", None))


@cache
def bad_readings_masked() -> tuple[str, ...]:
    """The bad readings' sentences, masked as the parser reads them."""
    return tuple(lex(s, (), grammar.keywords()).masked
                 for sentences in bad_readings.BAD.values() for s in sentences)


def alike(masked: str) -> None:
    """The lookahead parse alone gives the exhaustive parse's tree, and where that fails the
    shipped parser raises exactly its error."""
    tree = exhaustive_parse(masked)
    assert parsed(lookahead_only(), masked) == tree, masked
    if tree is None:
        assert error(grammar.parser(), masked) == error(exhaustive(), masked), masked


@pytest.mark.slow
def test_the_shapes_cover_good_and_bad_sentences_and_the_metamodel() -> None:
    outcomes = [exhaustive_parse(s) is not None for s in SHAPES]
    assert sum(outcomes) > 400 and outcomes.count(False) > 50
    assert set(metamodel().shapes) <= set(SHAPES)


@pytest.mark.slow
def test_the_lookahead_parse_is_the_exhaustive_parse_on_every_shape() -> None:
    for masked in SHAPES:
        assert parsed(lookahead_only(), masked) == exhaustive_parse(masked), masked


@pytest.mark.slow
def test_a_bad_sentence_raises_lark_s_own_error() -> None:
    bad = [s for s in SHAPES if exhaustive_parse(s) is None]
    bad += bad_readings_masked()
    for masked in bad:
        assert error(grammar.parser(), masked) == error(exhaustive(), masked), masked


def test_the_shapes_hold_the_metamodel_s() -> None:
    assert set(metamodel().shapes) <= set(SHAPES)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SHAPES))
def test_a_shape_parses_alike(masked: str) -> None:
    alike(masked)


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_a_bad_reading_raises_lark_s_own_error(data: st.DataObject) -> None:
    masked = data.draw(st.sampled_from(bad_readings_masked()))
    assert error(grammar.parser(), masked) == error(exhaustive(), masked), masked


TOKENS = ("«0»", "«1»", "‹0›", "ω", "1", "and", "or", "that", "is", "the", "some", "each",
          "at", "most", "one", "not", "if", "iff", "than", "of", "'s", ",", ".", "(", ")")


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SHAPES), st.lists(
    st.tuples(st.sampled_from(("delete", "insert", "replace")), st.integers(0, 40),
              st.sampled_from(TOKENS)), min_size=1, max_size=3))
def test_a_mutated_shape_parses_alike(masked: str, edits: list[tuple[str, int, str]]) -> None:
    words = masked.split(" ")
    for kind, at, token in edits:
        at %= len(words)
        if kind == "delete" and len(words) > 1:
            del words[at]
        elif kind == "insert":
            words.insert(at, token)
        else:
            words[at] = token
    mutated = " ".join(words)
    assert parsed(lookahead_only(), mutated) == parsed(exhaustive(), mutated), mutated


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SHAPES))
def test_accepted_is_the_parse_or_none(masked: str) -> None:
    """Whether a text is a sentence (a description's check) is asked of the lookahead parse
    alone: the shipped parser's tree where it parses, None where it raises."""
    tree = grammar.accepted(masked, {})
    assert (None if tree is None else pickle.dumps(tree)) == exhaustive_parse(masked), masked
