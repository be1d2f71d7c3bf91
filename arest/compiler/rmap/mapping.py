"""Halpin's Rmap from the compiled schema (DESIGN §10): the tenant's readings as tables.

- Each entity type is a table keyed by its reference scheme's columns (``book.isbn``; ``id``
  for ``(.id)``; one column per component of a compound scheme).  A subtype is a table of its
  own, keyed as its supertype and a foreign key to it: a row is membership, and the
  subtype's mandatory roles stay NOT NULL (absorbed into the supertype they could not).
  A subtype with a reference scheme of its own is keyed by it, and holds its supertype's
  key in columns of their own (NOT NULL, UNIQUE, the foreign key).
- A binary fact type with an alethic uniqueness on one role played by an entity is absorbed
  as a column of that entity's table (for a one-to-one, the mandatory side, else the first
  role), NOT NULL when that role is mandatory; a machine's ``<Noun> has Status`` is the
  column ``status``; a unary is a boolean column.
- Every other stored fact type is a table of its own, named for its id, keyed by its
  smallest alethic uniqueness (all its roles when it has none: a relation is a set).
- Value constraints are CHECKs (every value is text, as arest's atoms are; a comparison
  compares a numeral's number and refuses any other text);
  irreflexive rings within one table are CHECKs; external uniqueness within one table is
  UNIQUE; roles played by entities are foreign keys.  Every other constraint, every deontic
  one and every derived fact type is listed, never stated half-way.

The metamodel's nouns and fact types are not the tenant's and map to nothing; a role a
metamodel noun plays in a tenant fact type (a machine's Status) is a plain column.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal

from arest.algebra.numerals import is_numeral
from arest.compiler.fields import status_fact_type
from arest.compiler.population import membership_fact_type
from arest.compiler.rmap.model import (
    BOOLEAN,
    TEXT,
    Check,
    Column,
    Derived,
    ForeignKey,
    Placement,
    Table,
    Tables,
    Unique,
    Unstated,
)
from arest.compiler.rmap.names import predicate, snake
from arest.compiler.schema import ConstraintInfo, FactTypeInfo, NounInfo, Schema
from arest.forml2 import metamodel

DERIVED_MODES = frozenset({"*", "**"})
"""Fact types whose facts arest derives (``+`` ones are stored: their asserted facts are
the tenant's, the derived ones are added by arest)."""


@dataclass(frozen=True)
class _Bundled:
    nouns: frozenset[str]
    fact_types: frozenset[str]
    constraints: frozenset[str]


def _bundled() -> _Bundled:
    reading = metamodel()
    return _Bundled(
        frozenset(reading.schema.metamodel),
        frozenset(reading.schema.fact_types),
        frozenset(fact[0] for fact_type, fact in reading.facts
                  if fact_type == "Constraint_has_Constraint_Kind"),
    )


@dataclass
class _Draft:
    """A table while the mapping fills it."""

    name: str
    kind: str
    source: str
    key: list[Column]
    columns: list[Column] = field(default_factory=list)
    primary_key: tuple[str, ...] = ()
    uniques: list[Unique] = field(default_factory=list)
    foreign_keys: list[ForeignKey] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)

    def all_columns(self) -> list[Column]:
        return [*self.key, *self.columns]

    def frozen(self) -> Table:
        return Table(self.name, self.kind, self.source, tuple(self.all_columns()),
                     self.primary_key or tuple(c.name for c in self.key), tuple(self.uniques),
                     tuple(self.foreign_keys), tuple(self.checks))


@dataclass(frozen=True)
class _Role:
    """A role to store in some table: the columns it needs, before they are named."""

    fact_type: str
    role: int
    noun: str
    base: str
    """The name it takes when nothing collides."""


def relational_schema(schema: Schema) -> Tables:
    """The tables of the tenant's readings (the schema's nouns and fact types that are not
    the bundled metamodel's), where each of its fact types lives, and what is left to arest.

    >>> import arest
    >>> from arest.compiler.schema import schema_of
    >>> tables = relational_schema(schema_of(arest.compile(ORDERS)))  # conftest.py
    >>> [(t.name, [c.name for c in t.columns]) for t in tables.tables]
    [('customer', ['id']), ('order', ['id', 'customer'])]
    >>> tables.placement("Order_was_placed_by_Customer").columns
    (('id',), ('customer',))
    """
    return _Mapping(schema, _bundled()).run()


class _Mapping:
    """One run of :func:`relational_schema` (its state lives and dies with the call)."""

    def __init__(self, schema: Schema, bundled: _Bundled) -> None:
        self.schema = schema
        self.fact_types = [f for f in schema.fact_types.values()
                           if f.id not in bundled.fact_types]
        self.entities = {n.name: n for n in schema.nouns.values()
                         if n.kind != "value" and n.name not in bundled.nouns}
        self.constraints = [c for c in schema.constraints.values()
                            if c.id not in bundled.constraints]
        self.drafts: dict[str, _Draft] = {}
        self.placements: dict[str, Placement] = {}
        self.absorbed_at: dict[str, int] = {}
        """For a fact type absorbed into an entity's table: the role that entity plays."""
        self.derived: list[Derived] = []
        self.completed: tuple[Derived, ...] = ()
        self.unstated: list[Unstated] = []

    # -- types --------------------------------------------------------------------------

    # -- keys ---------------------------------------------------------------------------

    def _root(self, noun: str) -> NounInfo:
        info, seen = self.entities[noun], {noun}
        while info.supertypes and info.supertypes[0] in self.entities \
                and info.supertypes[0] not in seen:
            seen.add(info.supertypes[0])
            info = self.entities[info.supertypes[0]]
        return info

    def _identified(self, noun: str) -> NounInfo:
        """The noun whose reference scheme identifies the noun's entities: its own, else its
        nearest supertype's that has one, else its root's.  A subtype declared without a
        scheme has ``(.id)``, so ``(.id)`` is a subtype's own scheme only at the root."""
        info, seen = self.entities[noun], {noun}
        while info.reference in ((), ("id",)) and info.supertypes \
                and info.supertypes[0] in self.entities and info.supertypes[0] not in seen:
            seen.add(info.supertypes[0])
            info = self.entities[info.supertypes[0]]
        return info if info.reference not in ((), ("id",)) else self._root(noun)

    def key_of(self, noun: str, depth: int = 0) -> list[Column]:
        """The key columns of an entity's table: the reference scheme that identifies it (its
        own, else its supertypes'), one column per component (a component that is an entity
        brings its own key)."""
        root = self._identified(noun)
        columns: list[Column] = []
        for part in root.reference or ("id",):
            if part in self.entities and depth < 8:
                inner = self.key_of(part, depth + 1)
                columns.extend(
                    Column(snake(part) if len(inner) == 1 else f"{snake(part)}_{c.name}",
                           c.type, False, part)
                    for c in inner)
            else:
                columns.append(Column(snake(part), TEXT, False,
                                      part if part != "id" else root.name))
        return columns

    def columns_for(self, noun: str, base: str, nullable: bool) -> list[Column]:
        """The columns that hold a role's value: one for a value, the key's for an entity."""
        if noun not in self.entities:
            return [Column(base, TEXT, nullable, noun)]
        key = self.key_of(noun)
        if len(key) == 1:
            return [Column(base, key[0].type, nullable, noun)]
        return [Column(f"{base}_{c.name}", c.type, nullable, noun) for c in key]

    # -- the run ------------------------------------------------------------------------

    def run(self) -> Tables:
        for noun in sorted(self.entities):
            info = self.entities[noun]
            kind = "subtype" if self._root(noun).name != noun else "entity"
            self.drafts[noun] = _Draft(snake(noun), kind, noun, self.key_of(noun))
            if kind == "entity":
                for part in info.reference:
                    if part in self.entities:
                        self._foreign_key(self.drafts[noun], part, [
                            c for c in self.drafts[noun].key if c.noun == part])
            if kind == "subtype":
                for parent in info.supertypes:
                    if parent in self.entities:
                        self._supertype_key(self.drafts[noun], parent)
        by_table: dict[str, list[_Role]] = {}
        own: list[FactTypeInfo] = []
        for fact_type in sorted(self.fact_types, key=lambda f: f.id):
            rules = [r for r in self.schema.rules.values() if r.fact_type == fact_type.id]
            mode = fact_type.mode or next((r.mode for r in rules if r.mode), "")
            if mode in DERIVED_MODES:
                self.derived.append(
                    Derived(fact_type.id, mode, tuple(r.reading for r in rules)))
            elif not self._special(fact_type, by_table):
                own.append(fact_type)
        for noun, roles in by_table.items():
            self._absorb(noun, roles)
        for fact_type in own:
            self._own_table(fact_type)
        self._name_tables()
        self.completed = self._completed()
        stated: list[str] = []
        for c in self.constraints:
            why = self._state(c)
            if why:
                self.unstated.append(Unstated(c.id, c.kind, c.modality, c.reading, why))
            else:
                stated.append(c.id)
        self._defer_cycles()
        drafts = sorted(self.drafts.values(), key=lambda d: d.name)
        return Tables(tuple(d.frozen() for d in drafts),
                      tuple(sorted(self.placements.values(), key=lambda p: p.fact_type)),
                      tuple(self.unstated), tuple(self.derived), self.completed,
                      tuple(stated))

    def _defer_cycles(self) -> None:
        """Mark the foreign keys of NOT NULL columns that close a cycle of such keys (a
        mandatory ring, or tables whose mandatory roles refer to each other): no order of
        single-row INSERTs satisfies them, so they are checked at commit."""
        drafts = {draft.name: draft for draft in self.drafts.values()}

        def mandatory(draft: _Draft, key: ForeignKey) -> bool:
            return any(not c.nullable for c in draft.all_columns() if c.name in key.columns)

        refers = {name: {key.table for key in draft.foreign_keys if mandatory(draft, key)}
                  for name, draft in drafts.items()}

        def reaches(start: str, goal: str) -> bool:
            seen, pending = {start}, [start]
            while pending:
                name = pending.pop()
                if name == goal:
                    return True
                for referred in refers.get(name, set()) - seen:
                    seen.add(referred)
                    pending.append(referred)
            return False

        for name, draft in drafts.items():
            draft.foreign_keys = [
                replace(key, deferred=True) if mandatory(draft, key) and reaches(key.table, name)
                else key for key in draft.foreign_keys]

    def _supertype_key(self, draft: _Draft, parent: str) -> None:
        """A subtype's row refers to its supertype's: by its own key when the two are
        identified alike, else by columns holding the supertype's key (NOT NULL, and UNIQUE:
        one subtype row per supertype row)."""
        own = tuple(c.name for c in draft.key)
        referred = self.key_of(parent)
        names = tuple(c.name for c in referred)
        if names == own:
            draft.foreign_keys.append(ForeignKey(own, snake(parent), own))
            return
        taken = {c.name for c in draft.all_columns()}
        columns = [Column(c.name if c.name not in taken else f"{snake(parent)}_{c.name}",
                          c.type, False, parent) for c in referred]
        draft.columns.extend(columns)
        held = tuple(c.name for c in columns)
        draft.uniques.append(Unique(held, ()))
        draft.foreign_keys.append(ForeignKey(held, snake(parent), names))

    def _completed(self) -> tuple[Derived, ...]:
        """The stored fact types arest adds derived facts to: semi-derived ones, and the
        asserted ring of an alethic transitive constraint (its closure is derived)."""
        found: list[Derived] = []
        for fact_type in sorted(self.placements):
            rules = tuple(r.reading for r in self.schema.rules.values()
                          if r.fact_type == fact_type)
            closed = tuple(c.reading for c in self.constraints
                           if c.kind == "TR" and c.modality == "alethic"
                           and any(f == fact_type for f, _, _ in c.spans))
            if rules:
                found.append(Derived(fact_type, "+", rules))
            elif closed:
                found.append(Derived(fact_type, "closure", closed))
        return tuple(found)

    def _special(self, fact_type: FactTypeInfo, by_table: dict[str, list[_Role]]) -> bool:
        """Place a fact type that lives in an entity's table (reference, membership, status,
        unary, absorbed binary); False when it needs a table of its own."""
        roles = fact_type.roles
        if len(roles) == 1 and roles[0] in self.entities:
            for sub in self.entities:
                if roles[0] in self.entities[sub].supertypes \
                        and fact_type.id == membership_fact_type(sub, roles[0]):
                    self.placements[fact_type.id] = Placement(
                        fact_type.id, snake(sub), (self._supertype_columns(sub, roles[0]),))
                    self.absorbed_at[fact_type.id] = 0
                    return True
            words = predicate(fact_type.readings[0], roles[0]) if fact_type.readings else ""
            by_table.setdefault(roles[0], []).append(
                _Role(fact_type.id, -1, "", snake(words) or snake(fact_type.id)))
            self.absorbed_at[fact_type.id] = 0
            return True
        if len(roles) != 2:
            return False
        owner = roles[0]
        if owner in self.entities and roles[1] in self._identified(owner).reference \
                and fact_type.id == f"{owner}_has_{roles[1]}".replace(" ", "_"):
            part = self._identified(owner).reference.index(roles[1])
            owner_key = self.key_of(owner)
            component = tuple(c.name for c in owner_key if c.noun == roles[1]) \
                or (owner_key[part].name,)
            self.placements[fact_type.id] = Placement(
                fact_type.id, snake(owner), (tuple(c.name for c in owner_key), component))
            self.absorbed_at[fact_type.id] = 0
            return True
        if owner in self.entities and fact_type.id == status_fact_type(owner) \
                and any(m.noun == owner for m in self.schema.machines.values()):
            by_table.setdefault(owner, []).append(_Role(fact_type.id, 1, roles[1], "status"))
            self.absorbed_at[fact_type.id] = 0
            return True
        at = self._absorbing_role(fact_type)
        if at is None:
            return False
        other = 1 - at
        base = snake(roles[other])
        if roles[0] == roles[1] and fact_type.readings:
            # A ring's column would be named for the table's own noun: the predicate says
            # which role it is (``category.parent_category``).
            base = snake(predicate(_reading_from(fact_type, roles[at]), roles[at]))
        by_table.setdefault(roles[at], []).append(_Role(fact_type.id, other, roles[other], base))
        self.absorbed_at[fact_type.id] = at
        return True

    def _supertype_columns(self, sub: str, parent: str) -> tuple[str, ...]:
        """The columns of the subtype's table that hold its supertype's key."""
        referred = tuple(c.name for c in self.key_of(parent))
        own = tuple(c.name for c in self.key_of(sub))
        if referred == own:
            return own
        return next(key.columns for key in self.drafts[sub].foreign_keys
                    if key.table == snake(parent) and key.references == referred)

    def _absorbing_role(self, fact_type: FactTypeInfo) -> int | None:
        """The role whose entity's table holds the fact type: one with an alethic uniqueness
        of its own, played by an entity; the mandatory one of a one-to-one, else the first."""
        unique = [r for r in (0, 1) if fact_type.roles[r] in self.entities
                  and self._has(fact_type.id, r, "UC")]
        if not unique:
            return None
        mandatory = [r for r in unique if self._has(fact_type.id, r, "MC")]
        return (mandatory or unique)[0]

    def _has(self, fact_type: str, role: int, kind: str) -> bool:
        return any(c.kind == kind and c.modality == "alethic" and not c.restrictions
                   and c.spans == ((fact_type, role, 1),) for c in self.constraints)

    def _absorb(self, noun: str, roles: list[_Role]) -> None:
        """The absorbed roles as columns of the noun's table, a name that would collide
        replaced by the predicate's words, then by the fact type id."""
        draft = self.drafts[noun]
        taken = Counter(c.name for c in draft.key)
        taken.update(role.base for role in roles)
        names: dict[str, str] = {}
        for role in roles:
            name = role.base
            if taken[name] > 1:
                fact_type = self.schema.fact_types[role.fact_type]
                name = snake(predicate(_reading_from(fact_type, noun), noun)) if role.role >= 0 \
                    else snake(role.fact_type)
            names[role.fact_type] = name
        again = Counter(names.values()) + Counter(c.name for c in draft.key)
        for role in roles:
            if again[names[role.fact_type]] > 1:
                names[role.fact_type] = snake(role.fact_type)
        key = tuple(c.name for c in draft.key)
        for role in sorted(roles, key=lambda role: names[role.fact_type]):
            name = names[role.fact_type]
            if role.role < 0:
                draft.columns.append(Column(name, BOOLEAN, False, ""))
                self.placements[role.fact_type] = Placement(role.fact_type, draft.name, (key,),
                                                            name)
                continue
            mandatory = self._has(role.fact_type, 1 - role.role, "MC")
            columns = self.columns_for(role.noun, name, not mandatory)
            draft.columns.extend(columns)
            per_role = [key, key]
            per_role[role.role] = tuple(c.name for c in columns)
            self.placements[role.fact_type] = Placement(role.fact_type, draft.name,
                                                        tuple(per_role))
            self._foreign_key(draft, role.noun, columns)

    def _foreign_key(self, draft: _Draft, noun: str, columns: list[Column]) -> None:
        if noun in self.entities:
            draft.foreign_keys.append(ForeignKey(
                tuple(c.name for c in columns), snake(noun),
                tuple(c.name for c in self.key_of(noun))))

    def _own_table(self, fact_type: FactTypeInfo) -> None:
        """A table of the fact type's own, its columns named for the role nouns (numbered
        when a noun plays several roles), keyed by its smallest alethic uniqueness."""
        counts = Counter(fact_type.roles)
        seen: Counter[str] = Counter()
        draft = _Draft(snake(fact_type.id), "fact type", fact_type.id, [])
        per_role: list[tuple[str, ...]] = []
        for noun in fact_type.roles:
            seen[noun] += 1
            base = snake(noun) + (str(seen[noun]) if counts[noun] > 1 else "")
            columns = self.columns_for(noun, base, False)
            draft.key.extend(columns)
            per_role.append(tuple(c.name for c in columns))
            self._foreign_key(draft, noun, columns)
        uniques = sorted(
            (tuple(sorted(role for _, role, _ in c.spans)), c.id) for c in self.constraints
            if c.kind == "UC" and c.modality == "alethic" and not c.restrictions
            and c.spans and all(f == fact_type.id for f, _, _ in c.spans))
        if uniques:
            uniques.sort(key=lambda u: (len(u[0]), u[0]))
            draft.primary_key = _columns(per_role, uniques[0][0])
        self.drafts[fact_type.id] = draft
        self.placements[fact_type.id] = Placement(fact_type.id, draft.name, tuple(per_role))

    def _name_tables(self) -> None:
        """Two tables with one name (an entity type spelled as a fact type id): the fact
        type's takes a ``_fact`` suffix."""
        names = Counter(d.name for d in self.drafts.values())
        for source, draft in self.drafts.items():
            if names[draft.name] > 1 and draft.kind == "fact type":
                renamed = snake(draft.name + "_fact")
                self.placements[source] = Placement(
                    source, renamed, self.placements[source].columns)
                draft.name = renamed

    # -- constraints --------------------------------------------------------------------

    def _draft_named(self, name: str) -> _Draft:
        return next(d for d in self.drafts.values() if d.name == name)

    def _state(self, c: ConstraintInfo) -> str:
        """State the constraint in the tables; '' when stated, else why it is not."""
        if c.modality == "deontic" or c.operator:
            return "deontic: arest reports a violation and accepts the change"
        derived = {d.fact_type for d in self.derived}
        if any(f in derived for f, _, _ in c.spans):
            return "spans a derived fact type"
        if any(f not in self.placements for f, _, _ in c.spans):
            return "spans a fact type the tables do not hold"
        if c.restrictions or c.joins:
            return "a condition on some values or a join: no one table holds it"
        stater = {"UC": self._uniqueness, "MC": self._mandatory, "VC": self._value,
                  "IR": self._irreflexive}.get(c.kind)
        if stater is None:
            return _NOT_SQL.get(c.kind, "SQL has no declaration for it")
        return stater(c)

    def _cells(self, c: ConstraintInfo) -> tuple[str, list[tuple[str, ...]]] | None:
        """The one table holding every spanned role, and each role's columns; None when the
        roles are in several tables."""
        tables = {self.placements[f].table for f, _, _ in c.spans}
        if len(tables) != 1:
            return None
        return tables.pop(), [self.placements[f].columns[role] for f, role, _ in c.spans]

    def _uniqueness(self, c: ConstraintInfo) -> str:
        found = self._cells(c)
        fact_types = {f for f, _, _ in c.spans}
        if found is None:
            return "an external uniqueness over roles in several tables"
        table, cells = found
        draft = self._draft_named(table)
        columns = tuple(dict.fromkeys(name for cell in cells for name in cell))
        key = tuple(column.name for column in draft.key)
        if len(fact_types) == 1:
            (fact_type,) = fact_types
            at = self.absorbed_at.get(fact_type)
            if at is not None and any(role == at for _, role, _ in c.spans):
                return ""  # the table's key: one row per entity
        elif not all(self.absorbed_at.get(f) is not None
                     and all(role != self.absorbed_at[f] for g, role, _ in c.spans if g == f)
                     for f in fact_types):
            return "an external uniqueness whose roles are not columns of one entity's row"
        if set(columns) == set(draft.primary_key or key):
            return ""
        if any(set(u.columns) == set(columns) for u in draft.uniques):
            draft.uniques = [Unique(u.columns, (*u.constraints, c.id))
                             if set(u.columns) == set(columns) else u for u in draft.uniques]
        else:
            draft.uniques.append(Unique(columns, (c.id,)))
        return ""

    def _mandatory(self, c: ConstraintInfo) -> str:
        if len(c.spans) != 1:
            return "a disjunctive mandatory constraint: SQL states one column at a time"
        fact_type, role, _ = c.spans[0]
        if any(d.fact_type == fact_type for d in self.completed):
            return "arest derives some of its facts, which no row holds"
        placement = self.placements[fact_type]
        draft = self._draft_named(placement.table)
        if draft.kind == "fact type" or self.absorbed_at.get(fact_type) != role:
            return ("a mandatory role whose facts are not stored in its player's row:"
                    " arest checks that each one plays it")
        if len(placement.columns) == 1:
            return "a mandatory unary: a row may hold false"
        others = {name for index, cell in enumerate(placement.columns) if index != role
                  for name in cell}
        draft.columns = [Column(col.name, col.type, False, col.noun)
                         if col.name in others else col for col in draft.columns]
        return ""

    def _value(self, c: ConstraintInfo) -> str:
        if c.comparison is not None:
            if not _stateable_comparison(c):
                return "a comparison with something other than a number"
            fact_type, role, _ = c.spans[0]
            placement = self.placements[fact_type]
            draft = self._draft_named(placement.table)
            if len(placement.columns[role]) != 1:
                return "a comparison on an entity's compound key"
            draft.checks.append(Check("compare", placement.columns[role], c.id, c.reading,
                                      c.comparison[0], (c.comparison[1],)))
            return ""
        holding = [(draft, column) for draft in self.drafts.values()
                   for column in draft.all_columns() if column.noun == c.noun and c.noun]
        if not holding:
            return f"no table stores a value of {c.noun}"
        numbers = all(is_numeral(value) for value in c.allowed)
        values = tuple(sorted(set(c.allowed), key=lambda v: (Decimal(v), v) if numbers
                              else (Decimal(0), v)))
        for draft, column in holding:
            draft.checks.append(Check("in", (column.name,), c.id, c.reading, "", values))
        return ""

    def _irreflexive(self, c: ConstraintInfo) -> str:
        found = self._cells(c)
        if found is None or len(c.spans) != 2:
            return "its roles are not in one table"
        table, cells = found
        self._draft_named(table).checks.append(
            Check("differ", (*cells[0], *cells[1]), c.id, c.reading))
        return ""


_NOT_SQL = {
    "FC": "a frequency: SQL states no count of rows",
    "SS": "a subset across tables or rows",
    "EQ": "an equality across tables or rows",
    "XC": "an exclusion across tables or rows",
    "XO": "an exclusive-or across tables or rows",
    "OR": "an inclusive-or across tables or rows",
    "AS": "a ring over several rows",
    "AT": "a ring over several rows",
    "SY": "a ring over several rows",
    "IT": "a ring over several rows",
    "TR": "a ring over several rows (arest derives the closure)",
    "AC": "a ring over paths of rows",
    "RF": "a ring over several rows",
}


def _stateable_comparison(c: ConstraintInfo) -> bool:
    """An alethic comparison of one role with a number: a CHECK states it exactly."""
    return (c.kind == "VC" and c.modality == "alethic" and not c.operator
            and c.comparison is not None and len(c.spans) == 1 and not c.restrictions
            and c.comparison[0] in {"<", ">", "<=", ">=", "=", "!="}
            and is_numeral(c.comparison[1]))


def _reading_from(fact_type: FactTypeInfo, noun: str) -> str:
    """A reading of the fact type that starts with the noun, else its first."""
    return next((r for r in fact_type.readings if r.startswith(noun + " ")),
                fact_type.readings[0] if fact_type.readings else fact_type.id)


def _columns(per_role: list[tuple[str, ...]], roles: Iterable[int]) -> tuple[str, ...]:
    return tuple(name for role in roles for name in per_role[role])
