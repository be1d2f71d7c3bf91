"""Derived fact types as SQL views (DESIGN §10): a rule that is a join, a projection, a
negation, a comparison of numbers or a count is a ``SELECT`` over the tables that hold the
fact types it reads.

A view is built from the rule's clauses as the reader parsed them (the compiled plans keep
the joins but not the clauses): each positive atom is a table (or an earlier view) in the
``FROM``, a variable named twice is an equality, a literal is an equality with the value, a
comparison of number columns and numerals stays a comparison, a negated atom is ``NOT
EXISTS``, and ``X is the count of Y where …`` is ``count(DISTINCT y)`` grouped by the rule's
other variables, as arest counts distinct values and derives nothing for an empty group.
Several rules deriving one fact type are a ``UNION``.  A view is named like the table its
fact type would have and has that table's columns.

Every other derived fact type stays listed with why: a comparison over text, a computation,
a sum, average, minimum or maximum (arest compares and computes numerals as numbers and
writes their results its own way, while a TEXT column holds text), a rule that reads a fact
type whose table holds only some of its facts (semi-derived, or a transitive ring's), and a
fact type derived by recursion.  A semi-derived fact type (``+``) is not a view: its table
holds its asserted facts under the name the view would take, so it is listed with its rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from arest.algebra import State
from arest.algebra.numerals import is_numeral
from arest.compiler.cells import POPULATION_PREFIX, population_cell
from arest.compiler.derivations import Typing
from arest.compiler.plans import clause_kind, literal_of, operand_literal
from arest.compiler.rmap.model import TEXT, Column, Derived, Tables
from arest.compiler.rmap.names import quoted, snake
from arest.compiler.rmap.queries import (
    Compared,
    Count,
    Literal,
    Number,
    Output,
    Ref,
    Select,
    Source,
    Term,
    select_sql,
)
from arest.compiler.schema import Schema, schema_of
from arest.forml2 import DerivationRule


@dataclass(frozen=True)
class View:
    """A derived fact type's view: its name, its columns (those its table would have),
    the SELECTs whose union it is, one per rule, and the rules' readings."""

    name: str
    fact_type: str
    mode: str
    columns: tuple[Column, ...]
    selects: tuple[Select, ...]
    rules: tuple[str, ...]
    placement: tuple[tuple[str, ...], ...]
    """Per role in role order, the columns holding that role's value."""


@dataclass(frozen=True)
class Unviewed:
    """A derived fact type that no view computes, and why."""

    fact_type: str
    mode: str
    rules: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Views:
    """The views of a tenant's derived fact types, each after the views it reads, and the
    derived fact types that are not views."""

    views: tuple[View, ...] = ()
    unviewed: tuple[Unviewed, ...] = ()

    def view(self, fact_type: str) -> View | None:
        """The fact type's view, or None."""
        return next((v for v in self.views if v.fact_type == fact_type), None)


def views_of(state: State, tables: Tables) -> Views:
    """The views of D's derived fact types, from the rules of the readings D keeps.

    >>> import arest
    >>> from arest.compiler.rmap import relational_schema
    >>> D = arest.compile(ORDERS + "\\nOrder is urgent.\\n"
    ...                   "* Customer is waiting if Order was placed by Customer"
    ...                   " and Order is urgent.")
    >>> found = views_of(D, relational_schema(schema_of(D)))
    >>> print(view_sql(found.views[0], "sqlite"))
    SELECT DISTINCT f1.customer AS customer
    FROM "order" AS f1
    WHERE f1.customer IS NOT NULL AND f1.is_urgent = TRUE
    """
    # The reader loads with the first views, not with the Rmap (``arest mcp`` needs no view).
    from arest.compiler.readings import read_sources, sources_of

    # Read as arest.load reads them (strict off, given), so its memo of the texts answers.
    rules = read_sources(sources_of(state), False).rules
    return derived_views(tables, schema_of(state), rules)


def derived_views(tables: Tables, schema: Schema, rules: Iterable[DerivationRule]) -> Views:
    """The views of the tables' derived fact types (:attr:`Tables.derived`), built from the
    rules that derive them."""
    return _Translation(tables, schema, tuple(rules)).run()


_NUMBERS = {
    "comparison": "a comparison with a quoted value: arest compares numerals as numbers,"
                  " SQL compares quoted values as text",
    "columns": "a comparison of two columns: arest orders numerals and instants, SQL reads"
               " a column's number only from a numeral",
    "computation": "a computation: arest computes with numerals and writes its own, the"
                   " columns hold text",
    "sum": "a sum: arest adds numerals and writes its own, the columns hold text",
    "avg": "an average: arest divides numerals and writes its own, the columns hold text",
    "average": "an average: arest divides numerals and writes its own, the columns hold text",
    "min": "a minimum: arest compares numerals as numbers, the columns hold text",
    "minimum": "a minimum: arest compares numerals as numbers, the columns hold text",
    "max": "a maximum: arest compares numerals as numbers, the columns hold text",
    "maximum": "a maximum: arest compares numerals as numbers, the columns hold text",
}
"""Why a rule that compares or computes numbers is not a view."""


class _NotAView(Exception):
    """Why a rule is not a view (caught within this module)."""


class _Translation:
    """One run of :func:`derived_views` (its state lives and dies with the call)."""

    def __init__(self, tables: Tables, schema: Schema, rules: tuple[DerivationRule, ...]
                 ) -> None:
        self.tables = tables
        self.schema = schema
        self.rules = rules
        self.typing = Typing.of(schema)
        self.derived = {d.fact_type: d for d in tables.derived}
        self.completed = {d.fact_type for d in tables.completed}
        self.done: dict[str, View | Unviewed] = {}
        self.pending: set[str] = set()
        self.order: list[str] = []
        self.aliases = 0

    def run(self) -> Views:
        for fact_type in self.derived:
            self._decide(fact_type)
        decided = [self.done[f] for f in self.order]
        return Views(tuple(v for v in decided if isinstance(v, View)),
                     tuple(v for v in decided if isinstance(v, Unviewed)))

    def _decide(self, fact_type: str) -> View | Unviewed:
        if fact_type in self.done:
            return self.done[fact_type]
        derived = self.derived[fact_type]
        if fact_type in self.pending:
            raise _NotAView(f"it reads {fact_type}, which it derives: a view cannot read"
                            " itself")
        self.pending.add(fact_type)
        aliases = self.aliases
        try:
            decided: View | Unviewed = self._view(derived)
        except _NotAView as why:
            decided = Unviewed(fact_type, derived.mode, derived.rules, str(why))
        self.pending.discard(fact_type)
        self.aliases = aliases
        self.done[fact_type] = decided
        self.order.append(fact_type)
        return decided

    def _view(self, derived: Derived) -> View:
        rules = [r for r in self.rules if r.consequent.fact_type == derived.fact_type]
        if not rules:
            raise _NotAView("its rules are not among the readings D keeps")
        columns, placement = self._columns(derived.fact_type)
        selects = tuple(self._select(rule, columns, placement) for rule in rules)
        names = {t.name for t in self.tables.tables}
        name = snake(derived.fact_type)
        if name in names:
            name = snake(name + "_fact")
        return View(name, derived.fact_type, derived.mode, columns, selects,
                    derived.rules, placement)

    # -- the view's columns -----------------------------------------------------------------

    def _columns(self, fact_type: str) -> tuple[tuple[Column, ...], tuple[tuple[str, ...], ...]]:
        """The columns of the table the fact type would have: per role its noun's name
        (numbered when a noun plays several roles), an entity's key columns."""
        roles = self.schema.fact_types[fact_type].roles
        counts, seen = Counter(roles), Counter[str]()
        columns: list[Column] = []
        placement: list[tuple[str, ...]] = []
        for noun in roles:
            seen[noun] += 1
            base = snake(noun) + (str(seen[noun]) if counts[noun] > 1 else "")
            key = self._key(noun)
            if key is None:
                own = [Column(base, TEXT, False, noun)]
            elif len(key) == 1:
                own = [Column(base, key[0].type, False, noun)]
            else:
                own = [Column(f"{base}_{c.name}", c.type, False, noun) for c in key]
            columns.extend(own)
            placement.append(tuple(c.name for c in own))
        return tuple(columns), tuple(placement)

    def _key(self, noun: str) -> list[Column] | None:
        """The key columns of an entity's table, None for a value."""
        table = next((t for t in self.tables.tables
                      if t.source == noun and t.kind in ("entity", "subtype")), None)
        return None if table is None else [table.column(n) for n in table.primary_key]

    # -- a rule as a SELECT -----------------------------------------------------------------

    def _select(self, rule: DerivationRule, columns: tuple[Column, ...],
                placement: tuple[tuple[str, ...], ...]) -> Select:
        if rule.mode not in ("*", "**"):
            raise _NotAView("a rule that adds to asserted facts")
        self.aliases = 0
        conditions: list[Any] = list(rule.conditions)
        conditions.extend(self.typing.restrictions(conditions))
        head = rule.consequent.terms
        aggregations = [c for c in conditions if clause_kind(c) == "aggregation"]
        if any(clause_kind(c) == "computation" for c in conditions):
            raise _NotAView(_NUMBERS["computation"])
        if not aggregations:
            bound = {t for c in conditions if clause_kind(c) == "atom" and not c.negated
                     for t in c.terms}
            roles = self.schema.fact_types[rule.consequent.fact_type].roles
            for term, noun in zip(head, roles, strict=False):
                if literal_of(term) is None and term not in bound:
                    conditions.append(_Atom(population_cell(noun), (term,)))
                    bound.add(term)
            return self._join(conditions, head, columns, placement, None)
        (aggregation,) = aggregations
        if aggregation.op != "count":
            raise _NotAView(_NUMBERS.get(aggregation.op, _NUMBERS["computation"]))
        if any(clause_kind(c) not in ("atom", "comparison") for c in aggregation.where):
            raise _NotAView("a count over a computation or another aggregate")
        outer = [c for c in conditions if c is not aggregation]
        return self._join([*aggregation.where, *outer], head, columns, placement, aggregation)

    def _join(self, clauses: Sequence[Any], head: Sequence[str], columns: tuple[Column, ...],
              placement: tuple[tuple[str, ...], ...], counted: Any) -> Select:
        """The SELECT of the clauses: positive atoms joined, comparisons over their number
        columns, negated atoms NOT EXISTS, then the consequent's terms (or the group and
        the count) as the view's columns."""
        atoms = [c for c in clauses if clause_kind(c) == "atom"]
        env: dict[str, tuple[Ref, ...]] = {}
        sources: list[Source] = []
        equal: list[tuple[Term, Term]] = []
        for atom in (a for a in atoms if not a.negated):
            source, cells = self._source(atom.fact_type)
            same = self._same_row(source, cells, atom.terms, env, sources)
            if same is None:
                sources.append(source)
            else:
                index, alias = same
                old, self.aliases = sources[index], self.aliases - 1
                cells = [tuple(Ref(alias, r.column) for r in refs) for refs in cells]
                sources[index] = Source(old.table, alias,
                                        tuple(dict.fromkeys((*old.present, *source.present))),
                                        tuple(dict.fromkeys((*old.flags, *source.flags))))
            self._terms(atom.terms, cells, env, equal)
        compared = tuple(self._compared(c, env) for c in clauses
                         if clause_kind(c) == "comparison")
        absent = tuple(self._absent(atom, env) for atom in atoms if atom.negated)
        outputs: list[Output] = []
        for term, names in zip(head, placement, strict=True):
            value = literal_of(term)
            if value is not None:
                if len(names) != 1:
                    raise _NotAView("a literal for an entity with a compound key")
                outputs.append(Literal(value))
            elif counted is not None and term == counted.variable:
                target = env.get(counted.target, ())
                if len(target) != 1:
                    raise _NotAView("a count of an entity with a compound key")
                outputs.append(Count(target[0]))
            else:
                refs = env.get(term, ())
                if len(refs) != len(names):
                    raise _NotAView(f"{term} has {len(refs)} columns where its role has"
                                    f" {len(names)}")
                outputs.extend(refs)
        return Select(tuple(outputs), tuple(sources), tuple(equal), absent, compared)

    def _compared(self, comparison: Any, env: dict[str, tuple[Ref, ...]]) -> Compared:
        """A comparison of a column with a numeral (or of numerals): SQL compares the
        column's number where it holds a numeral and is false elsewhere, as arest is.  Two
        columns are not a view (arest also orders two instants, which SQL would not read as
        numbers), nor is a quoted value (arest compares it as a number too)."""
        sides: list[Ref | Number] = []
        for term in (comparison.left, comparison.right):
            constant = operand_literal(term)
            refs = env.get(term, ())
            if constant is not None and literal_of(term) is None and is_numeral(constant):
                sides.append(Number(constant))
            elif constant is None and len(refs) == 1:
                sides.append(refs[0])
            else:
                raise _NotAView(_NUMBERS["comparison"])
        if all(isinstance(side, Ref) for side in sides):
            raise _NotAView(_NUMBERS["columns"])
        return Compared(sides[0], comparison.op, sides[1])

    def _same_row(self, source: Source, cells: list[tuple[Ref, ...]], terms: Sequence[str],
                  env: dict[str, tuple[Ref, ...]], sources: list[Source]
                  ) -> tuple[int, str] | None:
        """The index and alias of a source already joined whose row is the one this atom
        reads: the same entity's table, the same variable at its key.  Two clauses about
        one entity (``Order was placed by Customer``, ``Order has Status 'Placed'``) then
        read one row rather than join the table with itself."""
        table = next((t for t in self.tables.tables if t.name == source.table), None)
        if table is None or table.kind == "fact type":
            return None
        key = list(table.primary_key)
        for term, refs in zip(terms, cells, strict=True):
            bound = env.get(term, ())
            if [r.column for r in refs] != key or [r.column for r in bound] != key:
                continue
            aliases = {r.alias for r in bound}
            index = next((i for i, s in enumerate(sources)
                          if s.alias in aliases and s.table == source.table), None)
            if len(aliases) == 1 and index is not None:
                return index, sources[index].alias
        return None

    def _terms(self, terms: Sequence[str], cells: list[tuple[Ref, ...]],
               env: dict[str, tuple[Ref, ...]], equal: list[tuple[Term, Term]]) -> None:
        """An atom's variables bound in env (or equated with their binding), its literals
        equated with their column."""
        for term, refs in zip(terms, cells, strict=True):
            value = literal_of(term)
            if value is not None:
                if len(refs) != 1:
                    raise _NotAView(f"the literal '{value}' does not fit its column")
                equal.append((refs[0], Literal(value)))
            elif term in env:
                if len(env[term]) != len(refs):
                    raise _NotAView(f"{term} joins keys of different lengths")
                equal.extend((a, b) for a, b in zip(refs, env[term], strict=True) if a != b)
            else:
                env[term] = refs

    def _absent(self, atom: Any, env: dict[str, tuple[Ref, ...]]) -> Select:
        """A negated atom: NOT EXISTS a row matching it, its variables bound outside it
        correlated, the others free within it."""
        inner = dict(env)
        equal: list[tuple[Term, Term]] = []
        source, cells = self._source(atom.fact_type)
        self._terms(atom.terms, cells, inner, equal)
        return Select((), (source,), tuple(equal))

    def _source(self, cell: str) -> tuple[Source, list[tuple[Ref, ...]]]:
        """The table (or view) holding the facts of a fact type or a noun's population, and
        per role the columns of the role's value."""
        self.aliases += 1
        alias = f"f{self.aliases}"
        if cell.startswith(POPULATION_PREFIX):
            noun = cell[len(POPULATION_PREFIX):]
            table = next((t for t in self.tables.tables
                          if t.source == noun and t.kind in ("entity", "subtype")), None)
            if table is None:
                raise _NotAView(f"a variable ranges over every {noun}, which no table lists")
            return Source(table.name, alias), [self._refs(alias, table.name, table.primary_key)]
        if cell in self.completed:
            raise _NotAView(f"it reads {cell}, whose table holds only its asserted facts")
        if cell in self.derived:
            decided = self._decide(cell)
            if isinstance(decided, Unviewed):
                raise _NotAView(f"it reads {cell}, which is not a view")
            return Source(decided.name, alias), [
                tuple(Ref(alias, n) for n in names) for names in decided.placement]
        placement = self.tables.placement(cell)
        if placement is None:
            raise _NotAView(f"it reads {cell}, which no table of the tenant holds")
        table = self.tables.table(placement.table)
        cells = [self._refs(alias, table.name, names) for names in placement.columns]
        present = tuple(dict.fromkeys(
            name for names in placement.columns for name in names
            if table.column(name).nullable))
        flags = (placement.flag,) if placement.flag else ()
        return Source(table.name, alias, present, flags), cells

    def _refs(self, alias: str, table: str, names: Iterable[str]) -> tuple[Ref, ...]:
        return tuple(Ref(alias, n) for n in names)


@dataclass(frozen=True)
class _Atom:
    fact_type: str
    terms: tuple[str, ...]
    negated: bool = False


# -- SQL ------------------------------------------------------------------------------------

def create_view(view: View, dialect: str) -> list[str]:
    """The lines of ``CREATE VIEW``, after a comment naming the fact type and its rules."""
    lines = [f"-- {view.fact_type} ({view.mode})"]
    lines.extend(f"--   {' '.join(rule.split())}" for rule in view.rules)
    lines.append(f"CREATE VIEW {quoted(view.name, dialect)} AS")
    lines.extend(view_sql(view, dialect).split("\n"))
    lines[-1] += ";"
    return lines


def view_sql(view: View, dialect: str) -> str:
    """The view's query: the union of its SELECTs, each output named for its column."""
    names = [c.name for c in view.columns]
    return "\nUNION\n".join(select_sql(s, names, dialect) for s in view.selects)
