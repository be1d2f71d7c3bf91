"""Rows: the primitives that evaluate a derivation rule's body a batch at a time.

A row is a sequence of atoms, the values of the variables bound so far, in the order they
were bound; a batch is a sequence of rows.  Each primitive takes ⟨spec, rows⟩ (``join`` and
``antijoin`` ⟨f, spec, rows⟩) and returns a batch, reading D by index like
:mod:`arest.algebra.environment`.  A spec names, for each role of a fact type in role order:

- ``⟨=, k⟩``: the role holds the row's value k (1-based);
- ``⟨', v⟩``: the role holds the atom v;
- ``+``: a new variable: its value is appended to the row;
- ``⟨~, j⟩``: the role holds the same value as role j of the same fact (a variable that
  occurs twice in one clause);
- ``_``: any value, not kept (a variable that occurs only in a negated clause).

``bind:⟨spec, facts⟩`` = the rows of the facts that fit spec (only ``'``, ``+``, ``~``, ``_``).
``join:⟨f, spec, rows⟩`` = ⟨row ⌢ new values of φ | row ∈ rows, φ ∈ f, φ fits spec at row⟩,
through the index of the first role bound.
``antijoin:⟨f, spec, rows⟩`` = ⟨row ∈ rows | no φ ∈ f fits spec at row⟩ (negation as failure).
``select:⟨⟨op, a, b⟩, rows⟩`` = the rows where the comparison holds (op: ``gt lt ge le eq ne``
on numerals and instants, ``eq``/``ne`` structural otherwise; a comparison that cannot be
made drops the row).
``extend:⟨e, rows⟩`` = each row with e's value appended, where e is ``⟨=, k⟩``, ``⟨', v⟩`` or
⟨op, e₁, e₂⟩ with op an arithmetic primitive (``+ - * /``) or ``%-`` (x reduced by p percent,
x − x·p/100); rows where e is ⊥ are dropped.
``project:⟨⟨k, …⟩, rows⟩`` = the distinct rows of columns k, … (Codd's π), first seen first.
``aggregate:⟨⟨op, ⟨g, …⟩, t⟩, rows⟩`` = ⟨⟨group values ⌢ value⟩, …⟩ per distinct value of the
columns g, … (sorted): op ``count`` counts the distinct values of column t; ``sum`` and ``avg``
add column t over the distinct rows; ``min`` and ``max`` order them as ``lt`` does.  A group
whose values cannot be added or ordered has no result (as ⊥ derives nothing).

Anything off these domains is ⊥.  Batches come in the order the indexes give (which is
not value order); as sets they are determined by D and the argument.

>>> from arest.algebra.relations import Relation
>>> D = {"parent": Relation.of(2, [("ann", "bob"), ("bob", "cy"), ("bob", "di")])}
>>> rows = bind(D, (("+", "+"), (("ann", "bob"),)))
>>> sorted(join(D, ("parent", (("=", "2"), "+"), rows)))
[('ann', 'bob', 'cy'), ('ann', 'bob', 'di')]
>>> antijoin(D, ("parent", (("=", "1"), "_"), (("cy",), ("bob",))))
(('cy',),)
>>> select(D, (("gt", ("=", "1"), ("'", "10")), (("12",), ("9",), ("x",))))
(('12',),)
>>> extend(D, (("-", ("=", "1"), ("=", "2")), (("2024-03-01", "2024-02-01"),)))
(('2024-03-01', '2024-02-01', '29'),)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from decimal import Decimal
from typing import Any, Final, cast

from arest.algebra.memo import IdentityMemo
from arest.algebra.numerals import CONTEXT, compare, numeral, numeral_value
from arest.algebra.objects import BOTTOM, Object
from arest.algebra.primitives import PRIMITIVES
from arest.algebra.relations import Cell, Fact, Relation

Environment = Mapping[str, Cell]
Row = tuple[str, ...]

# A decoded role spec: (kind, number or value); kinds as in the module docstring.
_Term = tuple[str, Any]


def _decode_terms(spec: Object) -> tuple[_Term, ...] | None:
    if type(spec) is not tuple:
        return None
    terms: list[_Term] = []
    for item in spec:
        if item in ("+", "_"):
            terms.append((str(item), None))
        elif type(item) is tuple and len(item) == 2 and type(item[1]) is str:
            kind = item[0]
            if kind == "'":
                terms.append(("'", item[1]))
            elif kind in ("=", "~") and item[1].isascii() and item[1].isdigit():
                terms.append((str(kind), int(item[1]) - 1))
            else:
                return None
        else:
            return None
    return tuple(terms)


class _Spec:
    """A spec read once: its terms, and what every batch it is applied to asks of them.

    ``new``: the roles whose values a row gains (``+``); ``probe``: the first bound role,
    its kind and value (None when no role is bound); ``others``: the other constrained
    roles, as (role, kind, value); ``step``: (role, column, new role) when the spec binds
    one role to a row's column and adds one (the common step of a chain of joins)."""

    __slots__ = ("all_new", "binds_rows", "new", "others", "probe", "step", "terms")

    def __init__(self, terms: tuple[_Term, ...]) -> None:
        self.terms = terms
        self.new = tuple(role for role, (kind, _) in enumerate(terms) if kind == "+")
        self.all_new = len(self.new) == len(terms)
        self.binds_rows = any(kind == "=" for kind, _ in terms)
        self.probe = _probe(terms)
        probe_role = -1 if self.probe is None else self.probe[0]
        self.others = tuple((r, k, v) for r, (k, v) in enumerate(terms)
                            if r != probe_role and k in ("=", "'", "~"))
        self.step: tuple[int, int, int] | None = None
        if (self.probe is not None and self.probe[1] == "=" and len(self.new) == 1
                and not self.others):
            self.step = (self.probe[0], self.probe[2], self.new[0])


def _decode_spec(spec: Object) -> _Spec | None:
    terms = _decode_terms(spec)
    return None if terms is None else _Spec(terms)


_decoded_specs = IdentityMemo(_decode_spec)
"""Each spec read, by the spec's identity: a rule's specs are constants of its plan, read
on every join the rule's evaluation makes."""


def _spec(spec: Object) -> _Spec | None:
    """The spec read; None when it is not a spec."""
    return _decoded_specs(spec) if type(spec) is tuple else None


def _rows(rows: Object) -> tuple[Row, ...] | None:
    # set(map(type, …)) runs in C: a batch may hold millions of rows.
    if type(rows) is not tuple or not set(map(type, rows)) <= {tuple}:
        return None
    return cast(tuple[Row, ...], rows)


def _relation(defs: Environment, name: Object, arity: int) -> Relation | None:
    if type(name) is not str:
        return None
    contents = defs.get(name)
    if contents is None:
        return Relation(arity)
    return contents if isinstance(contents, Relation) and contents.arity == arity else None


def _fits(fact: Fact, row: Row, terms: tuple[_Term, ...]) -> bool:
    for role, (kind, value) in enumerate(terms):
        if kind == "=":
            if fact[role] != row[value]:
                return False
        elif kind == "'":
            if fact[role] != value:
                return False
        elif kind == "~" and fact[role] != fact[value]:
            return False
    return True


def bind(defs: Environment, x: Object) -> Object:
    """bind:⟨spec, facts⟩ = the rows of the facts that fit spec: each fact's ``+`` values."""
    if not (type(x) is tuple and len(x) == 2):
        return BOTTOM
    spec, facts = _spec(x[0]), _rows(x[1])
    if spec is None or facts is None or spec.binds_rows:
        return BOTTOM
    terms = spec.terms
    if not set(map(len, facts)) <= {len(terms)}:
        return BOTTOM
    if spec.all_new:
        return facts
    kept = spec.new
    empty: Row = ()
    return tuple(
        tuple(fact[role] for role in kept) for fact in facts if _fits(fact, empty, terms)
    )


def _probe(terms: tuple[_Term, ...]) -> tuple[int, str, Any] | None:
    """The role to look facts up by: the first bound one (a row value or a literal)."""
    for role, (kind, value) in enumerate(terms):
        if kind in ("=", "'"):
            return role, kind, value
    return None


def _matches(relation: Relation, spec: _Spec) -> Callable[[Row], Collection[Fact]]:
    """row ↦ the facts of relation that fit the spec's terms at row."""
    terms, probe, others = spec.terms, spec.probe, spec.others
    if probe is None:
        everything = list(relation)
        return lambda row: [fact for fact in everything if _fits(fact, row, terms)]
    role, kind, value = probe
    matching = relation.matching
    if not others:
        if kind == "'":
            constant = list(matching(role, value))
            return lambda row: constant
        get = relation.by_value(role).get
        return lambda row: get(row[value], ())
    return lambda row: [
        fact
        for fact in matching(role, row[value] if kind == "=" else value)
        if _fits(fact, row, terms)
    ]


def _arguments(defs: Environment, x: Object
               ) -> tuple[Relation, _Spec, tuple[Row, ...]] | None:
    """⟨f, spec, rows⟩ read: f's relation, the spec read and the rows; None off the domain."""
    if not (type(x) is tuple and len(x) == 3):
        return None
    spec, rows = _spec(x[1]), _rows(x[2])
    if spec is None or rows is None:
        return None
    relation = _relation(defs, x[0], len(spec.terms))
    return None if relation is None else (relation, spec, rows)


def join(defs: Environment, x: Object) -> Object:
    """join:⟨f, spec, rows⟩ = each row extended by the new values of each fact of f that
    fits spec at the row, looked up through the index of the first bound role; ⊥ when spec
    names a column the rows do not have.

    >>> D = {"R": Relation.of(2, [("b", "c")])}
    >>> rows = (("a", "b"),)
    >>> join(D, ("R", (("=", "2"), "+"), rows)), join(D, ("R", (("=", "3"), "+"), rows))
    ((('a', 'b', 'c'),), ⊥)
    """
    found = _arguments(defs, x)
    if found is None:
        return BOTTOM
    relation, spec, rows = found
    new = spec.new
    out: list[Row] = []
    append = out.append
    try:
        if spec.step is not None:
            # The common step of a chain of joins: one bound role, one new one.
            role, column, only = spec.step
            get = relation.by_value(role).get
            if column < 2 and rows and set(map(len, rows)) == {2}:
                # Rows of two (a binary fact's values): built directly, not unpacked.
                for a, b in rows:
                    for fact in get(b if column else a, ()):
                        append((a, b, fact[only]))
                return tuple(out)
            for row in rows:
                for fact in get(row[column], ()):
                    append((*row, fact[only]))
            return tuple(out)
        facts_for = _matches(relation, spec)
        if len(new) == 1:
            only = new[0]
            for row in rows:
                for fact in facts_for(row):
                    append((*row, fact[only]))
        else:
            for row in rows:
                for fact in facts_for(row):
                    append(row + tuple(fact[role] for role in new))
    except IndexError:  # a spec naming a column the rows do not have
        return BOTTOM
    return tuple(out)


def antijoin(defs: Environment, x: Object) -> Object:
    """antijoin:⟨f, spec, rows⟩ = the rows no fact of f fits (``+`` and ``_`` match anything)."""
    found = _arguments(defs, x)
    if found is None:
        return BOTTOM
    relation, spec, rows = found
    facts_for = _matches(relation, spec)
    try:
        return tuple(row for row in rows if not facts_for(row))
    except IndexError:
        return BOTTOM


def _operand(term: Object) -> Callable[[Row], Object] | None:
    if type(term) is tuple and len(term) == 2 and type(term[1]) is str:
        if term[0] == "'":
            value = term[1]
            return lambda row: value
        if term[0] == "=" and term[1].isascii() and term[1].isdigit():
            column = int(term[1]) - 1
            return lambda row: row[column] if column < len(row) else BOTTOM
    return None


def _holds(op: str, left: Object, right: Object) -> bool:
    if type(left) is not str or type(right) is not str:
        return False
    sign = compare(left, right)
    if sign is None:
        if op in ("eq", "ne"):
            return (left == right) == (op == "eq")
        return False
    return {"gt": sign > 0, "lt": sign < 0, "ge": sign >= 0, "le": sign <= 0,
            "eq": sign == 0, "ne": sign != 0}[op]


_COMPARISONS: Final = frozenset({"gt", "lt", "ge", "le", "eq", "ne"})


def select(defs: Environment, x: Object) -> Object:
    """select:⟨⟨op, a, b⟩, rows⟩ = the rows where a op b holds."""
    if not (type(x) is tuple and len(x) == 2 and type(x[0]) is tuple and len(x[0]) == 3):
        return BOTTOM
    op, a, b = x[0]
    left, right, rows = _operand(a), _operand(b), _rows(x[1])
    if op not in _COMPARISONS or left is None or right is None or rows is None:
        return BOTTOM
    return tuple(row for row in rows if _holds(str(op), left(row), right(row)))


def _reduced_by(pair: Object) -> Object:
    """x reduced by p percent: x − x·p/100."""
    if type(pair) is tuple and len(pair) == 2 and type(pair[0]) is str and type(pair[1]) is str:
        x, p = numeral_value(pair[0]), numeral_value(pair[1])
        if x is not None and p is not None:
            share = CONTEXT.divide(CONTEXT.multiply(x, p), Decimal(100))
            result = numeral(CONTEXT.subtract(x, share))
            if result is not None:
                return result
    return BOTTOM


_ARITHMETIC: Final = {**{op: PRIMITIVES[op] for op in ("+", "-", "*", "/")}, "%-": _reduced_by}


def _expression(e: Object) -> Callable[[Row], Object] | None:
    leaf = _operand(e)
    if leaf is not None:
        return leaf
    if type(e) is tuple and len(e) == 3 and e[0] in _ARITHMETIC:
        operation = _ARITHMETIC[str(e[0])]
        left, right = _expression(e[1]), _expression(e[2])
        if left is not None and right is not None:
            return lambda row: operation((left(row), right(row)))
    return None


def extend(defs: Environment, x: Object) -> Object:
    """extend:⟨e, rows⟩ = ⟨row ⌢ ⟨e:row⟩ | e:row ≠ ⊥⟩."""
    if not (type(x) is tuple and len(x) == 2):
        return BOTTOM
    value, rows = _expression(x[0]), _rows(x[1])
    if value is None or rows is None:
        return BOTTOM
    out: list[Row] = []
    for row in rows:
        result = value(row)
        if type(result) is str:
            out.append((*row, result))
    return tuple(out)


def project(defs: Environment, x: Object) -> Object:
    """project:⟨⟨k, …⟩, rows⟩ = ⟨⟨row[k], …⟩ | row ∈ rows⟩ without repeats.

    >>> project({}, (("2",), (("a", "x"), ("b", "x"), ("c", "y"))))
    (('x',), ('y',))
    """
    if not (type(x) is tuple and len(x) == 2 and type(x[0]) is tuple):
        return BOTTOM
    rows = _rows(x[1])
    if rows is None or any(type(k) is not str or not k.isdigit() for k in x[0]):
        return BOTTOM
    columns = [int(str(k)) - 1 for k in x[0]]
    if any(column >= len(row) for row in rows for column in columns):
        return BOTTOM
    return tuple(dict.fromkeys(tuple(row[c] for c in columns) for row in rows))


def _aggregated(op: str, values: list[str]) -> str | None:
    if op == "count":
        return str(len(set(values)))
    if op in ("min", "max"):
        best = values[0]
        for value in values[1:]:
            sign = compare(value, best)
            if sign is None:
                return None
            if (sign < 0) == (op == "min") and sign != 0:
                best = value
        return best if len(values) > 1 or compare(best, best) is not None else None
    numbers = [n for n in map(numeral_value, values) if n is not None]
    if len(numbers) != len(values):
        return None
    total = Decimal(0)
    for number in numbers:
        total = CONTEXT.add(total, number)
    return numeral(total if op == "sum" else CONTEXT.divide(total, Decimal(len(numbers))))


_AGGREGATES: Final = frozenset({"count", "sum", "avg", "min", "max"})


def aggregate(defs: Environment, x: Object) -> Object:
    """aggregate:⟨⟨op, ⟨g, …⟩, t⟩, rows⟩: op over column t per group of columns g, ….

    >>> rows = (("o1", "a", "2"), ("o1", "b", "2"), ("o2", "c", "x"))
    >>> aggregate({}, (("sum", ("1",), "3"), rows))
    (('o1', '4'),)
    """
    if not (type(x) is tuple and len(x) == 2 and type(x[0]) is tuple and len(x[0]) == 3):
        return BOTTOM
    op, groups, target = x[0]
    rows = _rows(x[1])
    if (op not in _AGGREGATES or rows is None or type(groups) is not tuple
            or type(target) is not str or not target.isdigit()
            or any(type(g) is not str or not g.isdigit() for g in groups)):
        return BOTTOM
    columns = [int(str(g)) - 1 for g in groups]
    t = int(target) - 1
    values: dict[Row, list[str]] = {}
    for row in dict.fromkeys(rows):
        if t >= len(row) or any(c >= len(row) for c in columns):
            return BOTTOM
        values.setdefault(tuple(row[c] for c in columns), []).append(row[t])
    out: list[Row] = []
    for key in sorted(values):
        result = _aggregated(str(op), values[key])
        if result is not None:
            out.append((*key, result))
    return tuple(out)


ROW_PRIMITIVES: Final = {
    "bind": bind, "join": join, "antijoin": antijoin, "select": select, "extend": extend,
    "project": project, "aggregate": aggregate,
}
