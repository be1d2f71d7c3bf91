"""The shipped metamodel is the one its texts read to, and a stale one is never used.

``AREST_REGENERATE_METAMODEL=1 pytest tests/forml2/test_bundled.py`` rebuilds
``arest/readings/metamodel.pickle`` after a change to the metamodel's texts or the reader.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import arest.forml2.bundled as bundled

SHIPPED = Path(bundled.__file__).parents[1] / "readings" / bundled.ARTIFACT


def test_the_shipped_metamodel_is_current() -> None:
    texts = bundled.metamodel_texts()
    key = bundled.metamodel_key(texts)
    fresh = bundled.read_metamodel(texts)
    if os.environ.get("AREST_REGENERATE_METAMODEL") == "1":
        SHIPPED.write_bytes(bundled.artifact(fresh, key))
    stored_key, facts, rest = pickle.loads(SHIPPED.read_bytes())
    stored, shapes = pickle.loads(rest)
    assert stored_key == key, ("the shipped metamodel was built from other texts or another "
                               "reader: run with AREST_REGENERATE_METAMODEL=1")
    assert facts == stored.facts == fresh.facts and stored.constructs == fresh.constructs
    assert stored.schema.metamodel == fresh.schema.metamodel
    assert pickle.loads(shapes) == dict(fresh.shapes)
    assert dict(bundled.metamodel().shapes) == dict(fresh.shapes)
    assert bundled.metamodel().facts == fresh.facts
    assert bundled.metamodel_facts() == fresh.facts


def test_an_artifact_under_another_key_is_not_used() -> None:
    assert bundled._stored("a key no texts give") is None
