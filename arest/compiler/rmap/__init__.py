"""The relational schema of a tenant's readings (Halpin's Rmap, DESIGN §10) and its DDL:
:func:`relational_schema` maps the compiled schema to tables (data, in
:mod:`~arest.compiler.rmap.model`), :func:`views_of` its derived fact types to views where
their rules are joins, negations or counts (:mod:`~arest.compiler.rmap.views`), :func:`ddl`
writes both for SQLite or PostgreSQL."""

from arest.compiler.rmap.ddl import DIALECTS, ddl
from arest.compiler.rmap.mapping import relational_schema
from arest.compiler.rmap.model import Placement, Table, Tables
from arest.compiler.rmap.views import View, Views, views_of

__all__ = ["DIALECTS", "Placement", "Table", "Tables", "View", "Views", "ddl",
           "relational_schema", "views_of"]
