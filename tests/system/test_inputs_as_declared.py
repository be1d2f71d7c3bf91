"""A command's handler accepts what the command table's input schema declares, and refuses
what it does not (the REST document and the MCP catalogue both show that schema)."""

from __future__ import annotations

import jsonschema
import pytest

import arest
from arest.system.commands import VERBS

D = arest.compile("Order(.id) is an entity type.")


@pytest.mark.parametrize("text", ["", "  \n"])
def test_compile_refuses_readings_without_a_sentence(text: str) -> None:
    out, after = arest.apply(D, "compile", {"readings": text})
    assert out["error"]["code"] == "invalid_input"
    assert out["error"]["path"] == "$.readings"
    assert after is D


def test_compile_schema_refuses_the_empty_text_too() -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"readings": ""}, dict(VERBS["compile"].input))


def test_a_null_snapshot_label_is_declared_as_it_is_taken() -> None:
    jsonschema.validate({"label": None}, dict(VERBS["snapshot"].input))
    out, _ = arest.apply(D, "snapshot", {"label": None})
    assert out == {"id": "snap-0"}
