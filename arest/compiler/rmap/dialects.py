"""The SQL dialects the relational schema is written in, apart from the writers: the
command line offers them as choices without loading the mapping (:mod:`arest.cli`)."""

from __future__ import annotations

DIALECTS = ("sqlite", "postgresql")
"""SQLite and PostgreSQL, the dialects :func:`~arest.compiler.rmap.sql.ddl` writes."""
