"""The relational schema of a tenant's readings (Halpin's Rmap, DESIGN §10) and its DDL:
:func:`relational_schema` maps the compiled schema to tables (data, in
:mod:`~arest.compiler.rmap.model`), :func:`views_of` its derived fact types to views where
their rules are joins, negations or counts (:mod:`~arest.compiler.rmap.views`), :func:`ddl`
writes both for SQLite or PostgreSQL."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arest.compiler.rmap.dialects import DIALECTS
    from arest.compiler.rmap.mapping import relational_schema
    from arest.compiler.rmap.model import Placement, Table, Tables
    from arest.compiler.rmap.sql import ddl
    from arest.compiler.rmap.views import View, Views, views_of

__all__ = ["DIALECTS", "Placement", "Table", "Tables", "View", "Views", "ddl",
           "relational_schema", "views_of"]

_HOMES = {"DIALECTS": "dialects", "ddl": "sql", "relational_schema": "mapping",
          "Placement": "model", "Table": "model", "Tables": "model", "View": "views",
          "Views": "views", "views_of": "views"}
"""The submodule of each name."""


def __getattr__(name: str) -> Any:
    # Each submodule loads on first use: the command line names the dialects at start-up
    # and needs the mapping, which loads the schema and the constructs, only for `arest sql`.
    if name not in _HOMES:
        raise AttributeError(f"module 'arest.compiler.rmap' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"arest.compiler.rmap.{_HOMES[name]}"), name)
    globals()[name] = value  # asked once: the next use finds it bound
    return value
