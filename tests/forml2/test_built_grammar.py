"""The parser shipped already built (``arest/forml2/forml2.lark.pickle``) is the parser the
grammar's text builds: the same bytes as a build under ``PYTHONHASHSEED=0`` (lark's sets of
symbols order what is pickled), and the same parse, token for token, of every sentence
shape of the metamodel and of both corpora as lark's exhaustive Earley parser of the text
(the shipped one predicts with lookahead: see test_lookahead.py).

``AREST_REGENERATE_METAMODEL=1 pytest tests/forml2/test_built_grammar.py`` rebuilds it after a
change to ``forml2.lark`` or to lark's version.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from dataclasses import replace

import pytest
from lark import Lark, Token, Tree

from arest.forml2 import metamodel, read
from arest.forml2 import parser as grammar
from tests.corpus import EVERY_FILE, corpus_file


@pytest.fixture(scope="module")
def from_text() -> Lark:
    """Lark's exhaustive Earley parser built from the grammar's text."""
    return grammar.exhaustive(grammar.grammar_text())


def _same_parses(shapes: list[str], from_text: Lark) -> None:
    shipped = grammar.parser()
    for masked in shapes:
        expected: Tree[Token] = from_text.parse(masked)
        assert pickle.dumps(shipped.parse(masked)) == pickle.dumps(expected), masked


def test_the_shipped_parser_is_the_current_text_built() -> None:
    text = grammar.grammar_text()
    built = subprocess.run(
        [sys.executable, "-c", "import sys; from arest.forml2 import parser as p; "
         "sys.stdout.buffer.write(p.built_parser(p.grammar_text()))"],
        env={**os.environ, "PYTHONHASHSEED": "0"}, check=True, capture_output=True).stdout
    if os.environ.get("AREST_REGENERATE_METAMODEL") == "1":
        grammar.BUILT_PARSER.write_bytes(built)
    assert grammar.BUILT_PARSER.read_bytes() == built, (
        "the shipped parser was built from another text or by another lark: run with"
        " AREST_REGENERATE_METAMODEL=1")
    assert isinstance(grammar._shipped_parser(text), Lark)
    assert grammar._shipped_parser(text + "\n// another grammar\n") is None


def test_both_parsers_parse_the_metamodel_s_shapes_alike(from_text: Lark) -> None:
    shapes = list(metamodel().shapes)
    assert len(shapes) > 20
    _same_parses(shapes, from_text)


# Every shape of the corpora is parsed in the slow suite (about 12 s); the fast suite parses
# the metamodel's above and test_lookahead.py's drawn from shapes.txt, the corpora's among them.
@pytest.mark.slow
@pytest.mark.parametrize(("corpus", "name"), EVERY_FILE)
def test_both_parsers_parse_every_shape_of_the_corpora_alike(
    corpus: str, name: str, from_text: Lark
) -> None:
    reading = read(corpus_file(corpus, name).read_text(encoding="utf-8"),
                   known=replace(metamodel(), shapes={}))
    assert reading.shapes
    _same_parses(list(reading.shapes), from_text)
