"""A derivation plan that is a chain of row steps, run by index: the evaluator's value
without the evaluator, for the small batches a command derives from.

A plan (:mod:`arest.compiler.plans`) is an FFP object ``s₁∘…∘sₙ`` whose steps are
``p∘[c̄₁, …, g]``: a row primitive p of :mod:`arest.algebra.joins` applied to constants and
to g:x (g is ``id`` or another chain).  :func:`chain_of` recognises exactly the chains of
three steps whose meaning is plain without running them:

- ``bind∘[spec̄, id]`` with a spec of ``+`` and ``⟨', v⟩`` only: each fact that holds v in
  the literal roles, cut to its ``+`` values;
- ``join∘[f̄, spec̄, id]`` whose first bound role is ``⟨=, k⟩`` with k a column the rows
  have, the other roles ``+``, ``_`` or ``⟨', v⟩``: each row extended by the new values
  of each fact of f found through the index of that role;
- ``aggregate∘[⟨count, ⟨g, …⟩, t⟩̄, chain]`` over columns the rows have: per distinct
  value of the group columns (sorted), the number of distinct values of column t.

:func:`chain_rows` runs such a chain where D leaves its meaning alone (D defines none of
the atoms it applies, every relation it joins is a relation of the spec's arity or absent,
the seeds are facts of the bind spec's arity), in the order the evaluator's primitives
produce (the same index look-ups); anywhere else it answers None and the evaluator runs
the plan.  ``tests/system/test_row_chains.py`` states that the two values are equal, and
equal to the reference reducer's, over generated chains, relations, seeds and definitions.

>>> from arest.algebra import evaluate
>>> from arest.algebra.relations import Relation
>>> steps = ("COMP", ("COMP", "join", ("CONS", ("CONST", "S"), ("CONST", (("=", "2"), "+")),
...          "id")), ("COMP", "bind", ("CONS", ("CONST", ("+", "+")), "id")))
>>> D = {"S": Relation.of(2, [("b", "c"), ("b", "d")])}
>>> found = chain_rows(steps, (("a", "b"),), D)
>>> sorted(found), found == evaluate(steps, (("a", "b"),), D)
([('a', 'b', 'c'), ('a', 'b', 'd')], True)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Final

from arest.algebra import Object
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Cell, Relation

Row = tuple[Any, ...]
Rows = tuple[Row, ...]
Step = Callable[[Rows, Mapping[str, Cell]], Rows]

CHAIN_ATOMS: Final = frozenset({"COMP", "CONS", "CONST", "id", "bind", "join", "aggregate"})
"""The atoms a chain applies: D defining one of them changes what the chain means."""


class Chain:
    """A recognised chain: its steps in the order they run, the arity of the seeds its
    bind reads, and the relations its joins read with the arity each needs."""

    __slots__ = ("relations", "seed_arity", "steps")

    def __init__(self, steps: tuple[Step, ...], seed_arity: int,
                 relations: tuple[tuple[str, int], ...]) -> None:
        self.steps = steps
        self.seed_arity = seed_arity
        self.relations = relations


def _digit(item: Object) -> int | None:
    """k - 1 for a column numeral k ≥ 1; None otherwise."""
    if type(item) is str and item.isascii() and item.isdigit() and int(item) >= 1:
        return int(item) - 1
    return None


def _constants(step: Object, primitive: str) -> tuple[tuple[Object, ...], Object] | None:
    """(constants, g) of a step ``primitive∘[c̄₁, …, g]``; None for any other object."""
    if not (type(step) is tuple and len(step) == 3 and step[0] == "COMP"
            and step[1] == primitive and type(step[2]) is tuple and len(step[2]) >= 2
            and step[2][0] == "CONS"):
        return None
    *constants, inner = step[2][1:]
    values = []
    for constant in constants:
        if not (type(constant) is tuple and len(constant) == 2 and constant[0] == "CONST"):
            return None
        values.append(constant[1])
    return tuple(values), inner


def _bind(spec: Object) -> tuple[Step, int, int] | None:
    """bind's step, the seeds' arity and the rows' width, for a spec of ``+`` and literals."""
    if type(spec) is not tuple:
        return None
    kept: list[int] = []
    literals: list[tuple[int, Object]] = []
    for role, term in enumerate(spec):
        if term == "+":
            kept.append(role)
        elif type(term) is tuple and len(term) == 2 and term[0] == "'" and type(term[1]) is str:
            literals.append((role, term[1]))
        else:
            return None
    if not literals:
        return (lambda rows, _: rows), len(spec), len(kept)
    chosen = tuple(kept)

    def step(rows: Rows, _: Mapping[str, Cell]) -> Rows:
        return tuple(tuple(fact[role] for role in chosen) for fact in rows
                     if all(fact[role] == value for role, value in literals))
    return step, len(spec), len(chosen)


def _join(name: Object, spec: Object, width: int) -> tuple[Step, int] | None:
    """join's step over rows of ``width`` columns and the rows' width after it."""
    if type(name) is not str or type(spec) is not tuple:
        return None
    probe: tuple[int, int] | None = None
    new: list[int] = []
    literals: list[tuple[int, str]] = []
    for role, term in enumerate(spec):
        if term == "+":
            new.append(role)
        elif term == "_":
            continue
        elif type(term) is tuple and len(term) == 2 and type(term[1]) is str and (
                term[0] == "'" and probe is not None):
            literals.append((role, term[1]))
        elif type(term) is tuple and len(term) == 2 and term[0] == "=" and probe is None:
            column = _digit(term[1])
            if column is None or column >= width:
                return None
            probe = (role, column)
        else:
            return None
    if probe is None:
        return None
    role, column = probe
    added = tuple(new)

    def step(rows: Rows, defs: Mapping[str, Cell]) -> Rows:
        relation = defs.get(name)
        if relation is None:
            return ()
        assert isinstance(relation, Relation)  # chain_rows looked
        if not literals:
            # The evaluator's join reads such a spec through the role's index mapping.
            get = relation.by_value(role).get
            if len(added) == 1:
                only = added[0]
                return tuple((*row, fact[only]) for row in rows for fact in get(row[column], ()))
            return tuple(row + tuple(fact[r] for r in added)
                         for row in rows for fact in get(row[column], ()))
        matching = relation.matching
        return tuple(row + tuple(fact[r] for r in added)
                     for row in rows for fact in matching(role, row[column])
                     if all(fact[r] == value for r, value in literals))
    return step, width + len(added)


def _count(spec: Object, width: int) -> tuple[Step, int] | None:
    """aggregate's step for ``⟨count, ⟨g, …⟩, t⟩`` over columns the rows have, and the
    rows' width after it."""
    if not (type(spec) is tuple and len(spec) == 3 and spec[0] == "count"
            and type(spec[1]) is tuple):
        return None
    groups = [_digit(g) for g in spec[1]]
    target = _digit(spec[2])
    if target is None or target >= width or any(g is None or g >= width for g in groups):
        return None
    columns = tuple(g for g in groups if g is not None)

    def step(rows: Rows, _: Mapping[str, Cell]) -> Rows:
        values: dict[Row, set[Any]] = {}
        for row in rows:
            values.setdefault(tuple(row[c] for c in columns), set()).add(row[target])
        return tuple((*key, str(len(values[key]))) for key in sorted(values))
    return step, len(columns) + 1


def _steps(f: Object, found: list[Step], relations: list[tuple[str, int]],
           width: int | None) -> tuple[int, int] | None:
    """Append f's steps to found (innermost first); (seed arity, width) after them, None
    when f is no chain.  ``width`` is the rows' width before f (None: f must start with
    bind)."""
    if type(f) is tuple and len(f) >= 2 and f[0] == "COMP" and all(
            type(g) is tuple and g and g[0] == "COMP" for g in f[1:]):
        seed: int | None = None
        for g in reversed(f[1:]):
            shape = _steps(g, found, relations, width)
            if shape is None:
                return None
            seed = shape[0] if seed is None else seed
            width = shape[1]
        assert seed is not None and width is not None
        return seed, width
    bound = _constants(f, "bind")
    if bound is not None and width is None and len(bound[0]) == 1 and bound[1] == "id":
        read = _bind(bound[0][0])
        if read is None:
            return None
        found.append(read[0])
        return read[1], read[2]
    joined = _constants(f, "join")
    if joined is not None and width is not None and len(joined[0]) == 2 and joined[1] == "id":
        name, spec = joined[0]
        step = _join(name, spec, width)
        if step is None or type(spec) is not tuple:
            return None
        found.append(step[0])
        relations.append((str(name), len(spec)))
        return -1, step[1]
    counted = _constants(f, "aggregate")
    if counted is not None and len(counted[0]) == 1 and width is None:
        shape = _steps(counted[1], found, relations, None)
        if shape is None:
            return None
        aggregated = _count(counted[0][0], shape[1])
        if aggregated is None:
            return None
        found.append(aggregated[0])
        return shape[0], aggregated[1]
    return None


def chain_of(f: Object) -> Chain | None:
    """The chain f is, or None when f is not one of the recognised shapes."""
    found: list[Step] = []
    relations: list[tuple[str, int]] = []
    shape = _steps(f, found, relations, None)
    if shape is None or shape[0] < 0:
        return None
    return Chain(tuple(found), shape[0], tuple(relations))


def links_of(f: Object) -> tuple[Object, tuple[tuple[str, Object], ...]] | None:
    """(the bind's spec, each join's (relation, spec) in the order they run) of a chain of
    a bind and joins without an aggregate; None for any other object.

    >>> steps = ("COMP", ("COMP", "join", ("CONS", ("CONST", "S"), ("CONST", (("=", "2"), "+")),
    ...          "id")), ("COMP", "bind", ("CONS", ("CONST", ("+", "+")), "id")))
    >>> links_of(steps)
    (('+', '+'), (('S', (('=', '2'), '+')),))
    """
    if chain_of(f) is None:
        return None
    flat: list[Object] = []
    _flatten(f, flat)
    bound = _constants(flat[0], "bind")
    if bound is None:
        return None  # an aggregate: the chain ends in a count, not in rows
    joins = []
    for step in flat[1:]:
        joined = _constants(step, "join")
        assert joined is not None  # chain_of recognised every step
        name, spec = joined[0]
        joins.append((str(name), spec))
    return bound[0][0], tuple(joins)


def _flatten(f: Object, flat: list[Object]) -> None:
    """Append f's steps to flat in the order they run, through nested compositions."""
    if type(f) is tuple and len(f) >= 2 and f[0] == "COMP" and all(
            type(g) is tuple and g and g[0] == "COMP" for g in f[1:]):
        for g in reversed(f[1:]):
            _flatten(g, flat)
    else:
        flat.append(f)


_chains = IdentityMemo(chain_of)
"""Each plan's chain (or None), by the identity of its steps: a rule's plans are constants
of the compiled program, run on every command that touches their seeds."""


def chain_rows(f: Object, seeds: Rows, defs: Mapping[str, Cell]) -> Rows | None:
    """f:seeds over D as the evaluator computes it, where f is a chain D leaves plain; None
    anywhere else (the evaluator answers there)."""
    chain = _chains(f)
    if chain is None or any(atom in defs for atom in CHAIN_ATOMS):
        return None
    for name, arity in chain.relations:
        cell = defs.get(name)
        if cell is not None and not (isinstance(cell, Relation) and cell.arity == arity):
            return None
    arity = chain.seed_arity
    if type(seeds) is not tuple or not all(
            type(seed) is tuple and len(seed) == arity for seed in seeds):
        return None
    rows = seeds
    for step in chain.steps:
        rows = step(rows, defs)
    return rows


PAIR_BIND: Final = ("+", "+")
"""The bind spec of a plan seeded by pairs: each seed fact is its row."""


def pair_join_of(f: Object) -> tuple[str, int, int, int] | None:
    """(relation, role, column, new role) when f is ``join∘[R̄, spec̄, id]∘bind∘[⟨+, +⟩̄, id]``
    with a spec of two roles, one ``⟨=, k⟩`` (k = column + 1 ≤ 2) at ``role`` and one ``+``:
    each seed pair ⟨a, b⟩ extended, for each fact φ of R holding the pair's value in column
    at role, by φ[new role]; None for any other f.

    >>> steps = ("COMP", ("COMP", "join", ("CONS", ("CONST", "S"), ("CONST", (("=", "2"), "+")),
    ...          "id")), ("COMP", "bind", ("CONS", ("CONST", ("+", "+")), "id")))
    >>> pair_join_of(steps)
    ('S', 0, 1, 1)
    """
    if not (type(f) is tuple and len(f) == 3 and f[0] == "COMP"):
        return None
    joined, bound = _constants(f[1], "join"), _constants(f[2], "bind")
    if (joined is None or bound is None or bound != ((PAIR_BIND,), "id")
            or joined[1] != "id" or len(joined[0]) != 2):
        return None
    name, spec = joined[0]
    if type(name) is not str or type(spec) is not tuple or len(spec) != 2 or "+" not in spec:
        return None
    new = spec.index("+")
    term = spec[1 - new]
    if not (type(term) is tuple and len(term) == 2 and term[0] == "="):
        return None
    column = _digit(term[1])
    return None if column is None or column > 1 else (name, 1 - new, column, new)


_pair_joins = IdentityMemo(pair_join_of)
"""Each plan's pair join (or None), by the identity of its steps."""


def pair_join(f: Object, seeds: Sequence[Row], defs: Mapping[str, Cell]
              ) -> tuple[Callable[[str, Collection[Row]], Collection[Row]], int, int] | None:
    """(index look-up, column, new role) of f's join where f is a pair join
    (:func:`pair_join_of`) D leaves plain over seeds that are pairs: f:seeds is then
    ⟨⟨a, b, φ[new role]⟩ | ⟨a, b⟩ ∈ seeds, φ ∈ look-up(⟨a, b⟩[column])⟩ in that order, as the
    evaluator's join computes it; None anywhere else.

    >>> from arest.algebra import evaluate
    >>> steps = ("COMP", ("COMP", "join", ("CONS", ("CONST", "S"), ("CONST", (("=", "2"), "+")),
    ...          "id")), ("COMP", "bind", ("CONS", ("CONST", ("+", "+")), "id")))
    >>> D = {"S": Relation.of(2, [("b", "c"), ("b", "d")])}
    >>> get, column, new = pair_join(steps, (("a", "b"),), D)
    >>> [("a", "b", fact[new]) for fact in get("b", ())] == list(evaluate(steps, (("a", "b"),), D))
    True
    """
    joined = _pair_joins(f)
    if joined is None or any(atom in defs for atom in CHAIN_ATOMS):
        return None
    name, role, column, new = joined
    cell = defs.get(name)
    if cell is not None and not (isinstance(cell, Relation) and cell.arity == 2):
        return None
    if type(seeds) not in (tuple, list) or not set(map(type, seeds)) <= {tuple} or not set(
            map(len, seeds)) <= {2}:
        return None
    if cell is None:
        return (lambda value, default: default), column, new
    return cell.by_value(role).get, column, new
