"""The relational schema of a tenant's readings (Halpin's Rmap, DESIGN §10) and its DDL:
:func:`relational_schema` maps the compiled schema to tables (data, in
:mod:`~arest.compiler.rmap.model`), :func:`ddl` writes them for SQLite or PostgreSQL."""

from arest.compiler.rmap.ddl import DIALECTS, ddl
from arest.compiler.rmap.mapping import relational_schema
from arest.compiler.rmap.model import Placement, Table, Tables

__all__ = ["DIALECTS", "Placement", "Table", "Tables", "ddl", "relational_schema"]
