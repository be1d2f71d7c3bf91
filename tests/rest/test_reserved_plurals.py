"""A noun whose plural is a fixed route's first segment is a reading diagnostic (DESIGN §9)."""

from __future__ import annotations

import pytest

import arest
from arest.forml2 import ReadingError
from arest.forml2.urls import RESERVED_SEGMENTS
from arest.rest import routes


def test_the_reader_reserves_the_first_segments_the_route_table_has() -> None:
    assert routes.RESERVED_SEGMENTS == RESERVED_SEGMENTS


def test_a_noun_whose_plural_is_a_route_is_a_diagnostic_suggesting_a_plural() -> None:
    with pytest.raises(ReadingError) as raised:
        arest.compile("Fact(.id) is an entity type.")
    [diagnostic] = raised.value.diagnostics
    assert (diagnostic.line, diagnostic.sentence) == (1, "Fact(.id) is an entity type.")
    assert "'facts'" in diagnostic.message
    assert "Noun 'Fact' has Plural '" in diagnostic.message


@pytest.mark.parametrize("noun", ["Snapshot", "Reading", "Message", "DomainChange"])
def test_a_plural_of_slug_and_s_is_caught(noun: str) -> None:
    with pytest.raises(ReadingError):
        arest.compile(f"Widget(.id) is an entity type.\n{noun}(.id) is an entity type.")


@pytest.mark.parametrize("segment", ["search", "schema", "openapi.json", "t", "mcp", "_static"])
def test_a_declared_plural_is_caught(segment: str) -> None:
    with pytest.raises(ReadingError) as raised:
        arest.compile(f"Query(.id) is an entity type.\nNoun 'Query' has Plural '{segment}'.")
    assert f"'{segment}'" in raised.value.diagnostics[0].message


def test_a_declared_plural_of_its_own_clears_it() -> None:
    D = arest.compile("Fact(.id) is an entity type.\nNoun 'Fact' has Plural 'fact-records'.")
    _, D = arest.apply(D, "create:Fact", {"id": "f1"})
    assert arest.apply(D, "read:Fact", {"id": "f1"})[0]["_links"]["self"] == {
        "href": "/fact-records/f1"}


def test_a_value_type_has_no_collection_so_no_diagnostic() -> None:
    arest.compile("Schema is a value type.")


def test_compile_refuses_the_noun_with_the_diagnostic() -> None:
    D = arest.compile("Order(.id) is an entity type.")
    out, after = arest.apply(D, "compile", {"readings": "Snapshot(.id) is an entity type."})
    assert out["error"]["code"] == "reading_error"
    assert "Noun 'Snapshot' has Plural" in out["error"]["diagnostics"][0]["message"]
    assert after is D


def test_the_metamodels_domain_change_keeps_its_route() -> None:
    D = arest.compile("Order(.id) is an entity type.")
    assert arest.apply(D, "list:Domain Change", {})[0] == {"items": [], "total": 0}
