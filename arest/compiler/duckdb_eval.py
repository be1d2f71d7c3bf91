"""A stratum's fixed point computed in DuckDB: the rules' plans as SQL, run semi-naively.

The second evaluator of a from-scratch derivation (:func:`arest.system.derive.derive_all`),
for strata whose every rule is a positive conjunctive rule whose plans are a ``bind``
followed by ``join`` steps (equality joins, literals, repeated variables), recursive or
not.  Any other stratum (aggregation, negation, comparison, computation) is declined:
:func:`sql_plans` answers None and the FFP evaluator runs it.

Each plan becomes ``SELECT`` row columns ``FROM`` seed ``JOIN`` … over tables holding the
relations the stratum reads; rounds run, as in :mod:`arest.system.derive`, each plan whose
seed the stratum derives on the previous round's new facts only, until a round derives
nothing.  A new fact's support is ⟨rule, plan, row⟩ as ``derive_all`` records it: among
the rows deriving the fact in the round it first appears, the least by (rule, plan, row),
so its antecedents were derived in earlier rounds.  When a fact has several derivations,
the recorded one may differ from the FFP evaluator's (whose choice follows index order);
the facts are the same.

DuckDB is not a dependency (the test and bench extras install it), imported on first use.
``derive_all`` runs a stratum here only when its caller asks (``in_duckdb``): measured end
to end, transfers and supports included, this evaluator is 3–5× slower than the FFP one on
every workload and size of ``benchmarks/bench_derive.py``, so there is no crossover to
choose by (``docs/performance.md``, "Derivation").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arest.algebra import Object, State
from arest.algebra.relations import Fact, Relation
from arest.compiler.derivations import Rule
from arest.compiler.plans import Plan
from arest.records import record

Term = tuple[str, Any]


@record
class SqlPlan:
    """One plan as SQL over tables ``t0, t1, …`` (one per fact type, columns ``c0, …``):
    the seed's alias is ``s0``; ``select`` lists the row's columns, in the plan's order."""

    rule: int
    plan: int
    fact_type: str
    """The fact type the plan's rule derives."""
    seed: str
    joins: tuple[tuple[str, tuple[str, ...]], ...]
    """Per join step: the fact type and its ``ON`` conditions."""
    where: tuple[str, ...]
    select: tuple[str, ...]
    head: tuple[str, ...]
    """Per consequent role: a row column (``v0``…) or a quoted SQL literal."""
    arities: tuple[tuple[str, int], ...]
    """Each fact type the plan reads, with its number of roles (its spec's length)."""


def _literal(value: str) -> str:
    """A SQL string literal holding value.

    >>> _literal("it's")
    "'it''s'"
    """
    return "'" + value.replace("'", "''") + "'"


def _steps(steps: Object) -> list[tuple[str, Object, Object]] | None:
    """The plan's steps first to last as (primitive, fact type, spec); None when a step is
    not a ``bind`` or ``join`` (then the plan is declined)."""
    if type(steps) is not tuple or not steps or steps[0] != "COMP":
        return None
    parts = steps[1:]
    if len(parts) == 2 and parts[0] == "bind":
        inner = parts[1]
        if (type(inner) is tuple and len(inner) == 3 and inner[0] == "CONS"
                and type(inner[1]) is tuple and inner[1][0] == "CONST" and inner[2] == "id"):
            return [("bind", "", inner[1][1])]
        return None
    if len(parts) == 2 and parts[0] == "join":
        return None
    found: list[tuple[str, Object, Object]] = []
    first = _steps(parts[-1])
    if first is None or first[0][0] != "bind" or len(first) != 1:
        return None
    found.extend(first)
    for step in reversed(parts[:-1]):
        if not (type(step) is tuple and len(step) == 3 and step[:2] == ("COMP", "join")):
            return None
        spec = step[2]
        if not (type(spec) is tuple and len(spec) == 4 and spec[0] == "CONS"
                and spec[3] == "id" and type(spec[1]) is tuple and spec[1][0] == "CONST"
                and type(spec[2]) is tuple and spec[2][0] == "CONST"):
            return None
        found.append(("join", spec[1][1], spec[2][1]))
    return found


def _terms(spec: Object) -> list[Term] | None:
    if type(spec) is not tuple:
        return None
    terms: list[Term] = []
    for item in spec:
        if item == "+":
            terms.append(("+", None))
        elif (type(item) is tuple and len(item) == 2 and type(item[1]) is str
              and item[0] in ("=", "~", "'")):
            if item[0] != "'" and not (item[1].isascii() and item[1].isdigit()):
                return None
            terms.append((str(item[0]), item[1] if item[0] == "'" else int(item[1]) - 1))
        else:
            return None
    return terms


def sql_plan(rule: int, index: int, plan: Plan, fact_type: str) -> SqlPlan | None:
    """The plan as SQL; None when it has a step other than ``bind`` and ``join``, a negated
    seed, or a role spec other than ``+``, ``=``, ``'`` and ``~``."""
    steps = _steps(plan.steps)
    if plan.negated or not plan.seed or steps is None:
        return None
    columns: list[str] = []
    where: list[str] = []
    joins: list[tuple[str, tuple[str, ...]]] = []
    arities: list[tuple[str, int]] = []
    for position, (primitive, read, spec) in enumerate(steps):
        terms = _terms(spec)
        if terms is None or (primitive == "bind" and any(k == "=" for k, _ in terms)):
            return None
        alias = f"s{position}"
        conditions: list[str] = []
        for role, (kind, value) in enumerate(terms):
            column = f"{alias}.c{role}"
            if kind == "+":
                columns.append(column)
            elif kind == "=":
                if value >= len(columns):
                    return None
                conditions.append(f"{column} = {columns[value]}")
            elif kind == "'":
                conditions.append(f"{column} = {_literal(value)}")
            else:
                conditions.append(f"{column} = {alias}.c{value}")
        arities.append((plan.seed if primitive == "bind" else str(read), len(terms)))
        if primitive == "bind":
            where.extend(conditions)
        else:
            if type(read) is not str:
                return None
            joins.append((read, tuple(conditions) or ("TRUE",)))
    if len(columns) != len(plan.variables):
        return None
    head: list[str] = []
    for kind, value in plan.head:
        if kind == "=":
            head.append(f"v{int(value) - 1}")
        else:
            head.append(_literal(value))
    return SqlPlan(rule, index, fact_type, plan.seed, tuple(joins), tuple(where), tuple(columns),
                   tuple(head), tuple(arities))


def sql_plans(stratum: Sequence[Rule]) -> list[SqlPlan] | None:
    """Every seed plan of the stratum as SQL, rule by rule; None when some rule or plan is
    of a shape DuckDB does not evaluate here (then the FFP evaluator runs the stratum).

    >>> import arest
    >>> from arest.system.derive import program_of
    >>> D = arest.compile("Region(.id) is an entity type.\\nRegion contains Region.\\n"
    ...     "  Region1 contains Region2 is transitive.\\n")
    >>> stratum = next(s for s in program_of(D).strata
    ...                if s[0].fact_type == "Region_contains_Region")
    >>> [(p.seed, p.joins) for p in sql_plans(stratum)][0]
    ('Region_contains_Region', (('asserted:Region_contains_Region', ('s1.c0 = s0.c1',)),))
    """
    found: list[SqlPlan] = []
    for number, rule in enumerate(stratum):
        if rule.is_aggregation or any(negated for _, negated in rule.reads):
            return None
        for index, plan in enumerate(rule.seeds):
            compiled = sql_plan(number, index, plan, rule.fact_type)
            if compiled is None:
                return None
            found.append(compiled)
    return found


def derive_stratum(state: State, stratum: Sequence[Rule]) -> State | None:
    """state with the stratum's facts derived in DuckDB, each with its support
    ⟨rule, plan, row⟩; None when the stratum is of a shape it declines.

    The state's relations of the stratum's fact types hold asserted facts only (as
    ``derive_all`` prepares them).

    >>> import arest
    >>> from arest.system.derive import program_of
    >>> from arest.testing import bulk_load
    >>> D = arest.compile("Region(.id) is an entity type.\\nRegion contains Region.\\n"
    ...     "  Region1 contains Region2 is transitive.\\n")
    >>> D = bulk_load(D, [("Region_contains_Region", e) for e in [("a", "b"), ("b", "c")]])
    >>> from arest.system.derive import _with_asserted_cells
    >>> D = _with_asserted_cells(D, program_of(D))
    >>> stratum = next(s for s in program_of(D).strata
    ...                if s[0].fact_type == "Region_contains_Region")
    >>> out = derive_stratum(D, stratum)
    >>> out["Region_contains_Region"].payload(("a", "c"))[1:]
    ('0', ('a', 'b', 'c'))
    """
    plans = sql_plans(stratum)
    if plans is None:
        return None
    import duckdb

    derived = {rule.fact_type: rule.arity for rule in stratum}
    names = sorted({p.seed for p in plans} | {f for p in plans for f, _ in p.joins}
                   | set(derived))
    table = {name: f"t{number}" for number, name in enumerate(names)}
    arity = {name: n for p in plans for name, n in p.arities} | derived
    width = max((len(p.select) for p in plans), default=0)
    connection = duckdb.connect(":memory:")
    try:
        connection.execute("SET threads = 1")
        connection.execute("SET enable_progress_bar = false")
        for name in names:
            _load(connection, table[name], arity[name], state.get(name))
        for name in derived:
            columns = ", ".join(f"c{i} VARCHAR" for i in range(arity[name]))
            connection.execute(f"CREATE TABLE {table[name]}_delta ({columns})")
            connection.execute(
                f"CREATE TABLE {table[name]}_new ({columns}, r INTEGER, p INTEGER, "
                + ", ".join(f"v{i} VARCHAR" for i in range(width)) + ")" if width else
                f"CREATE TABLE {table[name]}_new ({columns}, r INTEGER, p INTEGER)")
        _rounds(connection, plans, table, derived, width)
        return _result(connection, state, stratum, plans, table, derived, width)
    finally:
        connection.close()


def _load(connection: Any, name: str, arity: int, relation: object) -> None:
    columns = ", ".join(f"c{i} VARCHAR" for i in range(arity))
    connection.execute(f"CREATE TABLE {name} ({columns})")
    if not isinstance(relation, Relation) or not len(relation):
        return
    lists = [list(column) for column in zip(*relation, strict=True)]
    unnest = ", ".join(f"unnest(${i + 1})" for i in range(arity))
    connection.execute(f"INSERT INTO {name} SELECT {unnest}", lists)


def _query(plan: SqlPlan, table: dict[str, str], seed_table: str, width: int) -> str:
    """The plan's rows as ``head…, r, p, v0…`` (row columns padded with NULL to width)."""
    source = [f"{seed_table} AS s0"]
    for position, (fact_type, conditions) in enumerate(plan.joins, start=1):
        source.append(f"JOIN {table[fact_type]} AS s{position} ON "
                      + " AND ".join(conditions))
    values = [*plan.select, *(["NULL"] * (width - len(plan.select)))]
    row = ", ".join(f"{v} AS v{i}" for i, v in enumerate(values))
    where = f" WHERE {' AND '.join(plan.where)}" if plan.where else ""
    inner = f"SELECT {row} FROM {' '.join(source)}{where}"
    heads = ", ".join(f"{h} AS c{i}" for i, h in enumerate(plan.head))
    tail = ", " + ", ".join(f"v{i}" for i in range(width)) if width else ""
    return f"SELECT {heads}, {plan.rule} AS r, {plan.plan} AS p{tail} FROM ({inner})"


def _rounds(connection: Any, plans: Sequence[SqlPlan], table: dict[str, str],
            derived: dict[str, int], width: int) -> None:
    """Semi-naive rounds until one derives nothing; each round's new facts go to the fact
    type's table and its ``_new`` table (with their least derivation) and are the next
    round's ``_delta``."""
    first = True
    while True:
        grew = False
        for name, arity in derived.items():
            queries = [
                _query(p, table, table[p.seed] if first else f"{table[p.seed]}_delta", width)
                for p in plans if p.fact_type == name
                and (p.plan == 0 if first else p.seed in derived)
            ]
            columns = ", ".join(f"c{i}" for i in range(arity))
            if not queries:
                connection.execute(f"CREATE OR REPLACE TEMP TABLE {table[name]}_round AS "
                                   f"SELECT * FROM {table[name]}_new WHERE FALSE")
                continue
            order = ", ".join(["r", "p", *(f"v{i}" for i in range(width))])
            on = " AND ".join(f"x.c{i} = t.c{i}" for i in range(arity))
            connection.execute(
                f"CREATE OR REPLACE TEMP TABLE {table[name]}_round AS "
                f"SELECT * EXCLUDE (k) FROM (SELECT *, row_number() OVER "
                f"(PARTITION BY {columns} ORDER BY {order}) AS k FROM ("
                + " UNION ALL ".join(queries) + ")) AS x "
                f"WHERE k = 1 AND NOT EXISTS (SELECT 1 FROM {table[name]} AS t WHERE {on})")
        for name in derived:
            count = connection.execute(
                f"SELECT count(*) FROM {table[name]}_round").fetchone()[0]
            columns = ", ".join(f"c{i}" for i in range(derived[name]))
            connection.execute(f"DELETE FROM {table[name]}_delta")
            if count:
                grew = True
                connection.execute(f"INSERT INTO {table[name]} SELECT {columns} "
                                   f"FROM {table[name]}_round")
                connection.execute(f"INSERT INTO {table[name]}_delta SELECT {columns} "
                                   f"FROM {table[name]}_round")
                connection.execute(f"INSERT INTO {table[name]}_new "
                                   f"SELECT * FROM {table[name]}_round")
        first = False
        if not grew:
            return


def _result(connection: Any, state: State, stratum: Sequence[Rule], plans: Sequence[SqlPlan],
            table: dict[str, str], derived: dict[str, int], width: int) -> State:
    """state with each fact type's derived facts added, payload ⟨rule, plan, row⟩."""
    widths = {(p.rule, p.plan): len(p.select) for p in plans}
    ids = [rule.id for rule in stratum]
    cells: dict[str, Relation] = {}
    for name, arity in derived.items():
        relation = state.get(name)
        facts: dict[Fact, object] = (dict(relation.items()) if isinstance(relation, Relation)
                                     else {})
        for found in connection.execute(f"SELECT * FROM {table[name]}_new").fetchall():
            r, p = found[arity], found[arity + 1]
            row = tuple(found[arity + 2: arity + 2 + widths[r, p]])
            facts[tuple(found[:arity])] = (ids[r], str(p), row)
        cells[name] = Relation.frozen(arity, facts)
    return state.update(cells)
