"""A view's query as data, and its SQL: each SELECT of a view (:mod:`~arest.compiler.rmap.views`
builds them from the rules) is its outputs, the tables it reads, the equalities that join
them and the rows that must be absent; :func:`select_sql` writes it in a dialect."""

from __future__ import annotations

from dataclasses import dataclass

from arest.compiler.rmap.names import quoted
from arest.compiler.rmap.numerals import compared


@dataclass(frozen=True)
class Ref:
    """A column of one source of a SELECT: ``alias.column``."""

    alias: str
    column: str


@dataclass(frozen=True)
class Literal:
    """A quoted value (a rule's ``'Placed'``)."""

    value: str


@dataclass(frozen=True)
class Count:
    """``count(DISTINCT column)``, written as text (``'2'``), as arest writes a count."""

    of: Ref


@dataclass(frozen=True)
class Number:
    """A numeral written bare (a rule's ``5``), compared with a column's number."""

    value: str


@dataclass(frozen=True)
class Compared:
    """``left operator right`` over numbers (``f1.points > 5``, where ``f1.points`` holds a
    numeral: :func:`~arest.compiler.rmap.numerals.compared`)."""

    left: Ref | Number
    operator: str
    right: Ref | Number


Term = Ref | Literal
Output = Ref | Literal | Count


@dataclass(frozen=True)
class Source:
    """A table (or view) in a FROM, and what a row of it must hold to be a fact: the
    nullable columns of the facts it stands for are NOT NULL, their unaries' flags TRUE."""

    table: str
    alias: str
    present: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Select:
    """``SELECT DISTINCT outputs FROM sources WHERE equalities AND comparisons AND NOT EXISTS
    (absent…)``, grouped by its column outputs when one output is a :class:`Count`."""

    outputs: tuple[Output, ...]
    sources: tuple[Source, ...]
    equal: tuple[tuple[Term, Term], ...]
    absent: tuple[Select, ...] = ()
    compared: tuple[Compared, ...] = ()


def select_sql(select: Select, names: list[str], dialect: str) -> str:
    """The SELECT, each output named for its column: ``DISTINCT`` (a relation is a set), or
    grouped by its column outputs when one output is a count.

    >>> print(select_sql(Select((Ref("f1", "customer"),), (Source("order", "f1"),), (
    ...     (Ref("f1", "status"), Literal("Placed")),)), ["customer"], "postgresql"))
    SELECT DISTINCT f1.customer AS customer
    FROM "order" AS f1
    WHERE f1.status = 'Placed'
    """
    outputs = ", ".join(f"{_output(o, dialect)} AS {quoted(name, dialect)}"
                        for o, name in zip(select.outputs, names, strict=True))
    counted = any(isinstance(o, Count) for o in select.outputs)
    lines = [f"SELECT {'' if counted else 'DISTINCT '}{outputs}",
             f"FROM {_from(select, dialect)}"]
    where = _where(select, dialect)
    if where:
        lines.append(f"WHERE {where}")
    if counted:
        grouped = [o for o in select.outputs if isinstance(o, Ref)]
        lines.append(f"GROUP BY {', '.join(_term(g, dialect) for g in grouped)}")
    return "\n".join(lines)


def _from(select: Select, dialect: str) -> str:
    return ", ".join(f"{quoted(s.table, dialect)} AS {s.alias}" for s in select.sources)


def _where(select: Select, dialect: str) -> str:
    conditions: list[str] = []
    # An equality holds of no NULL: a column in one needs no IS NOT NULL of its own.
    equated = {(t.alias, t.column) for pair in select.equal for t in pair if isinstance(t, Ref)}
    equated.update((t.alias, t.column) for c in select.compared for t in (c.left, c.right)
                   if isinstance(t, Ref))
    for source in select.sources:
        conditions.extend(f"{source.alias}.{quoted(c, dialect)} IS NOT NULL"
                          for c in source.present if (source.alias, c) not in equated)
        conditions.extend(f"{source.alias}.{quoted(flag, dialect)} = TRUE"
                          for flag in source.flags)
    conditions.extend(f"{_term(a, dialect)} = {_term(b, dialect)}" for a, b in select.equal)
    conditions.extend(compared([_operand(c.left, dialect), _operand(c.right, dialect)],
                               c.operator, dialect) for c in select.compared)
    for inner in select.absent:
        where = _where(inner, dialect)
        conditions.append(f"NOT EXISTS (SELECT 1 FROM {_from(inner, dialect)}"
                          + (f" WHERE {where})" if where else ")"))
    return " AND ".join(conditions)


def _term(term: Term, dialect: str) -> str:
    if isinstance(term, Literal):
        return "'" + term.value.replace("'", "''") + "'"
    return f"{term.alias}.{quoted(term.column, dialect)}"


def _operand(operand: Ref | Number, dialect: str) -> tuple[str, bool]:
    if isinstance(operand, Number):
        return operand.value, False
    return _term(operand, dialect), True


def _output(output: Output, dialect: str) -> str:
    if isinstance(output, Count):
        return f"CAST(count(DISTINCT {_term(output.of, dialect)}) AS TEXT)"
    return _term(output, dialect)
