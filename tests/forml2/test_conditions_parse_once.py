"""Conditions joined by `and` and `or` parse one way only: were a run of conditions also one
clause (with `and` as a predicate word), the parse forest of a body would grow with the
square of its length (docs/performance.md, "Reader")."""

from __future__ import annotations

from functools import cache

import pytest
from lark import Lark

from arest.forml2 import metamodel, read
from arest.forml2.lexicon import lex
from arest.forml2.parser import grammar_text, keywords

NOUNS = {"Person", "Order", "Amount", "Customer"}


@cache
def every_parse() -> Lark:
    """The grammar, keeping every reading of an ambiguous sentence (``_ambig`` nodes)."""
    return Lark(grammar_text(), parser="earley", lexer="basic", ambiguity="explicit")


def ambiguities(sentence: str) -> int:
    """How many places the grammar reads the sentence more than one way."""
    masked = lex(sentence, NOUNS, keywords()).masked
    return len(list(every_parse().parse(masked).find_data("_ambig")))


CONDITIONS = " and ".join(f"Person is q{i}" for i in range(6))


@pytest.mark.parametrize("sentence", [
    f"* Person is happy iff {CONDITIONS}.",
    f"* Person is happy iff {CONDITIONS} or Person is rich and Person is calm.",
    f"* If {CONDITIONS} then Person is happy.",
    "If some Order is placed by some Customer and that Customer is vip and that Order is big"
    " then that Order is rush and that Order is tracked.",
    "* Order is big iff Order has Amount greater than 100 and that Order is placed by some"
    " Customer.",
])
def test_a_body_of_conditions_parses_one_way(sentence: str) -> None:
    assert ambiguities(sentence) == 0


def test_a_reading_keeps_and_as_a_predicate_word() -> None:
    reading = read("Product(.id) is an entity type.\nProduct has Size and Color.\n",
                   known=metamodel())
    assert reading.diagnostics == ()
    assert "Product_has_Size_and_Color" in reading.schema.fact_types
