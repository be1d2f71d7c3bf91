"""arest.testing.readings(): texts that read without a diagnostic, compile without an error,
and together say every form and kind the reader knows (arest.testing.coverage's inventory,
read off the grammar, the construct classes and the compiler's checks)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

import arest
from arest.compiler.checks import KINDS
from arest.forml2.parser import parser
from arest.testing import readings
from arest.testing.coverage import grammar_rules, inventory, said
from arest.testing.forml2 import read_known

SHAPES: dict[str, Any] = {}
"""The parses of sentence shapes, shared by the texts of this module's properties."""


def test_the_inventory_is_read_off_the_grammar_and_the_compiler() -> None:
    statements = {str(r.expansion[0].name) for r in parser().rules
                  if str(r.origin.name) == "statement"}
    assert {"entity_decl", "derivation", "conditional"} <= statements
    assert statements - {"reserved_decl"} <= grammar_rules()
    assert {f"constraint:{kind}" for kind in KINDS} <= inventory()
    assert {"construct:Objectification", "Constraint.joins", "condition:Aggregation",
            "machine:Transition_is_triggered_by_Event_Type"} <= inventory()


def test_a_text_says_what_it_holds() -> None:
    text = ("Vorn(.id) is an entity type.\nVorn blocks Vorn.\n"
            "Vorn1 blocks Vorn2 is acyclic.\nIt is obligatory that each Vorn blocks some Vorn.\n")
    found = said(text, SHAPES)
    assert {"construct:Constraint", "constraint:AC", "deontic:MC", "grammar:ring"} <= found
    assert "constraint:XO" not in found


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(readings())
def test_a_generated_text_reads_and_compiles(text: str) -> None:
    assert read_known(text, SHAPES).diagnostics == ()
    arest.compile(text)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(readings())
def test_every_generated_text_reads_and_compiles(text: str) -> None:
    assert read_known(text, SHAPES).diagnostics == ()
    arest.compile(text)


@pytest.mark.slow
def test_generated_texts_say_every_form_and_kind_the_reader_knows() -> None:
    # Derandomized: the same texts every run, so that a form left out is always reported;
    # generated only, since shrinking texts this long would take far longer than drawing.
    found: set[str] = set()

    @settings(max_examples=5, deadline=None, derandomize=True, database=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(readings(max_constructs=40, every_form=True))
    def collect(text: str) -> None:
        found.update(said(text, SHAPES))
        arest.compile(text)

    collect()
    assert sorted(inventory() - found) == []
