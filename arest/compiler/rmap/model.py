"""The relational schema as data: tables, their columns, keys and checks, where each fact
type is stored, and what the tables leave to arest.  :mod:`arest.compiler.rmap.mapping`
computes it from the compiled schema; :mod:`arest.compiler.rmap.sql` writes it in a dialect."""

from __future__ import annotations

from dataclasses import dataclass

TEXT, BOOLEAN = "text", "boolean"


@dataclass(frozen=True)
class Column:
    """A column: its name, type (:data:`TEXT` or :data:`BOOLEAN`), whether
    it may hold NULL, and the noun whose values (or, for an entity, whose ids) it holds."""

    name: str
    type: str
    nullable: bool
    noun: str


@dataclass(frozen=True)
class Check:
    """A CHECK the table states for one constraint.

    ``kind`` is ``in`` (``column IN (values)``), ``compare`` (``column operator value``) or
    ``differ`` (the first half of the columns not equal to the second: an irreflexive ring,
    over a compound key when each half has several).  A comparison's value is a
    numeral; the column's text is compared as a number when it is a numeral, and fails the
    CHECK otherwise, as arest's comparison does."""

    kind: str
    columns: tuple[str, ...]
    constraint: str
    reading: str
    operator: str = ""
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unique:
    """A UNIQUE over columns, and the uniqueness constraints it states."""

    columns: tuple[str, ...]
    constraints: tuple[str, ...]


@dataclass(frozen=True)
class ForeignKey:
    """Columns that hold the key of another table (a role played by an entity, or a
    subtype's row of its supertype)."""

    columns: tuple[str, ...]
    table: str
    references: tuple[str, ...]
    deferred: bool = False
    """Checked at commit (``DEFERRABLE INITIALLY DEFERRED``): a NOT NULL key in a cycle of
    NOT NULL keys, which no order of single-row INSERTs satisfies."""


@dataclass(frozen=True)
class Table:
    """A table: of an entity type (``entity``), of a subtype (``subtype``, keyed as its
    supertype) or of one fact type (``fact type``)."""

    name: str
    kind: str
    source: str
    """The noun or fact type id the table is for."""
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    uniques: tuple[Unique, ...] = ()
    foreign_keys: tuple[ForeignKey, ...] = ()
    checks: tuple[Check, ...] = ()

    def column(self, name: str) -> Column:
        """The column called name."""
        return next(column for column in self.columns if column.name == name)


@dataclass(frozen=True)
class Placement:
    """Where a stored fact type lives: its table and, per role in role order, the columns
    holding that role's value (two or more for an entity with a compound reference)."""

    fact_type: str
    table: str
    columns: tuple[tuple[str, ...], ...]
    flag: str = ""
    """For a unary absorbed into its entity's table: the BOOLEAN column that holds it."""


@dataclass(frozen=True)
class Unstated:
    """A constraint the tables do not state and arest enforces (or, deontic, reports)."""

    id: str
    kind: str
    modality: str
    reading: str
    why: str


@dataclass(frozen=True)
class Derived:
    """A derived fact type: arest computes its facts; the tables do not store them.  Or,
    in :attr:`Tables.completed`, a stored fact type to which arest adds derived facts: a
    semi-derived one (``+``) or a transitive ring's closure (mode ``closure``)."""

    fact_type: str
    mode: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Tables:
    """The relational schema of a tenant's readings (Halpin's Rmap, DESIGN §10)."""

    tables: tuple[Table, ...]
    placements: tuple[Placement, ...]
    unstated: tuple[Unstated, ...]
    derived: tuple[Derived, ...]
    completed: tuple[Derived, ...] = ()
    """Stored fact types whose tables hold the asserted facts only: arest derives more."""
    stated: tuple[str, ...] = ()
    """The ids of the constraints the tables state (a key, NOT NULL, UNIQUE or CHECK):
    with :attr:`unstated`, every constraint of the tenant's, each once."""

    def table(self, name: str) -> Table:
        """The table called name."""
        return next(table for table in self.tables if table.name == name)

    def placement(self, fact_type: str) -> Placement | None:
        """Where the fact type lives, or None (derived, or not the tenant's)."""
        return next((p for p in self.placements if p.fact_type == fact_type), None)
