"""The compiler: metamodel facts → D.  Facts populate the fact types' relations; the schema
is read back from those relations (:mod:`arest.compiler.schema`), and each noun's fields
are compiled into a ``resolve:<Noun>`` cell (:mod:`arest.compiler.fields`)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arest.compiler.change import Change, Delta
    from arest.compiler.population import with_facts
    from arest.compiler.schema import Schema, schema_of

__all__ = ["Change", "Delta", "Schema", "schema_of", "with_facts"]

_HOMES = {"Change": "change", "Delta": "change", "with_facts": "population",
          "Schema": "schema", "schema_of": "schema"}
"""The submodule of each name."""


def __getattr__(name: str) -> Any:
    # Each submodule loads on first use: a start from a kept compiled state (a reopen, a
    # create) never reads a schema back, and the schema's classes cost it a few ms to build.
    if name not in _HOMES:
        raise AttributeError(f"module 'arest.compiler' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"arest.compiler.{_HOMES[name]}"), name)
    globals()[name] = value  # asked once: the next use finds it bound
    return value
