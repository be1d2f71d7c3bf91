"""The shipped metamodel is the one its texts read to, and a stale one is never used.

``AREST_REGENERATE_METAMODEL=1 pytest tests/forml2/test_bundled.py`` rebuilds
``arest/readings/metamodel.artifact`` after a change to the metamodel's texts or the reader.
"""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import arest.forml2.bundled as bundled

SHIPPED = Path(bundled.__file__).parents[1] / "readings" / bundled.ARTIFACT
FACT_TYPES = bundled.FACT_TYPE_READINGS


def test_the_shipped_metamodel_is_current() -> None:
    texts = bundled.metamodel_texts()
    key = bundled.metamodel_key(texts)
    fresh = bundled.read_metamodel(texts)
    if os.environ.get("AREST_REGENERATE_METAMODEL") == "1":
        SHIPPED.write_bytes(bundled.artifact(fresh, key))
    head, _, rest = SHIPPED.read_bytes().partition(b"\n")
    _, _, rest = rest.partition(b"\n")
    stored_key, facts = json.loads(head)["key"], bundled._stored(key)[0]  # type: ignore[index]
    stored, shapes = pickle.loads(rest)
    assert stored_key == key, ("the shipped metamodel was built from other texts or another "
                               "reader: run with AREST_REGENERATE_METAMODEL=1")
    assert facts == stored.facts == fresh.facts and stored.constructs == fresh.constructs
    assert bundled.metamodel_fact_types() == bundled.fact_types(fresh.facts)
    assert frozenset(json.loads(head)["fact_types"]) == bundled.fact_types(fresh.facts)
    assert stored.schema.metamodel == fresh.schema.metamodel
    assert pickle.loads(shapes) == dict(fresh.shapes)
    assert dict(bundled.metamodel().shapes) == dict(fresh.shapes)
    assert bundled.metamodel().facts == fresh.facts
    assert bundled.metamodel_facts() == fresh.facts


def test_an_artifact_under_another_key_is_not_used() -> None:
    assert bundled._stored("a key no texts give") is None


def test_an_artifact_of_another_shape_is_not_used(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    key = bundled.metamodel_key(bundled.metamodel_texts())
    monkeypatch.setattr(bundled, "PACKAGE", tmp_path)
    (tmp_path / "readings").mkdir()
    declared = json.dumps({"key": key, "fact_types": ["b"]}).encode() + b"\n"
    for head in (b"not json", b"[1, 2]", json.dumps({"key": key}).encode() + b"\n[]",
                 json.dumps({"key": key, "fact_types": [1]}).encode() + b"\n[]",
                 json.dumps({"key": key, "fact_types": "b"}).encode() + b"\n[]",
                 declared + json.dumps([["a", [1]]]).encode(),
                 declared + json.dumps([["a"]]).encode(),
                 declared + b"not json",
                 declared + json.dumps([["a", ["b", "c"]]]).encode(),  # declares no b
                 declared + json.dumps([[FACT_TYPES, ["c", "C"]]]).encode()):  # c, not b
        (tmp_path / "readings" / bundled.ARTIFACT).write_bytes(head + b"\n")
        assert bundled._stored(key) is None
    facts = [[FACT_TYPES, ["b", "B"]], ["a", ["b", "c"]]]
    (tmp_path / "readings" / bundled.ARTIFACT).write_bytes(
        declared + json.dumps(facts).encode() + b"\nrest")
    assert bundled._stored(key) == (((FACT_TYPES, ("b", "B")), ("a", ("b", "c"))), b"rest")
    assert bundled._head(key) == (frozenset({"b"}), json.dumps(facts).encode() + b"\nrest")
