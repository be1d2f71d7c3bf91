"""Primitives that read the state a program runs in (D, the ``defs`` of the reducers).

Each is a named primitive like the others, a total function of its argument, except that it
also sees D.  They are how compiled constraints and rules reach a fact type's relation by
index instead of reading all of it:

- ``fetch:n`` = ↑n:D, the contents of cell n (a relation as its sorted facts); ⊥ if none.
  (``fetch:⟨n, S⟩`` reads an explicit state object instead: see the primitive.)
- ``holds:⟨f, ⟨v₁,…,vₙ⟩⟩`` = T when the fact ⟨v₁,…,vₙ⟩ is in fact type f's relation, else F.
- ``count:⟨f, i, v⟩`` = how many facts of f hold v in role i (1-based), by index.
- ``matching:⟨f, i, v⟩`` = those facts, sorted.
- ``values:⟨f, i⟩`` = the distinct values in role i of f, sorted.
- ``path:⟨f, a, b⟩`` = a shortest ⟨a, …, b⟩ along f's facts read as edges from role 1 to
  role 2 (⟨a⟩ when a = b), ties broken by value order; φ when b cannot be reached.
- ``bind``, ``join``, ``antijoin``, ``select``, ``extend``: a rule's body over batches of
  rows (:mod:`arest.algebra.joins`).

A fact type with no cell has an empty relation: counts are 0, sequences φ.  Anything else
(a cell that is not a relation, a role out of range, a non-atom value) is ⊥.

>>> from arest.algebra.relations import Relation
>>> D = {"Order_was_placed_by_Customer": Relation.of(2, [("o1", "acme"), ("o2", "acme")])}
>>> show(apply("count", read("<Order_was_placed_by_Customer, 2, acme>"), D))
'2'
>>> show(apply("matching", read("<Order_was_placed_by_Customer, 2, acme>"), D))
'<<o1, acme>, <o2, acme>>'
>>> apply("holds", read("<Order_was_placed_by_Customer, <o3, acme>>"), D)
'F'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from arest.algebra.joins import ROW_PRIMITIVES
from arest.algebra.objects import BOTTOM, Object
from arest.algebra.primitives import fetch as fetch_explicit
from arest.algebra.relations import Archive, Cell, Relation

Environment = Mapping[str, Cell]
EnvironmentPrimitive = Callable[[Environment, Object], Object]


def _relation(defs: Environment, name: Object, arity_at_least: int = 0) -> Relation | None:
    """The relation named, an empty one for a fact type with no cell yet; None when the
    cell holds something else."""
    if type(name) is not str:
        return None
    contents = defs.get(name)
    if contents is None:
        return Relation(max(arity_at_least, 0))
    return contents if isinstance(contents, Relation) else None


def _role(relation: Relation, position: Object) -> int | None:
    if type(position) is str and position.isascii() and position.isdigit():
        index = int(position) - 1
        if relation.arity == 0 or 0 <= index < relation.arity:
            return index
    return None


def fetch(defs: Environment, x: Object) -> Object:
    """fetch:n = ↑n:D, a relation as its sorted facts; fetch:⟨n, S⟩ reads the state S."""
    if type(x) is str:
        contents = defs.get(x)
        if isinstance(contents, Relation | Archive):
            return contents.as_object()
        return BOTTOM if contents is None else contents
    return fetch_explicit(x)


def holds(defs: Environment, x: Object) -> Object:
    """holds:⟨f, fact⟩ = T when fact is in f's relation; F when not; ⊥ off its domain."""
    if type(x) is tuple and len(x) == 2 and type(x[1]) is tuple:
        relation = _relation(defs, x[0])
        if relation is not None and all(type(v) is str for v in x[1]):
            return "T" if x[1] in relation else "F"
    return BOTTOM


def _lookup(defs: Environment, x: Object) -> tuple[Relation, int, str] | None:
    if type(x) is tuple and len(x) == 3 and type(x[2]) is str:
        relation = _relation(defs, x[0])
        if relation is not None:
            role = _role(relation, x[1])
            if role is not None:
                return relation, role, x[2]
    return None


def count(defs: Environment, x: Object) -> Object:
    """count:⟨f, i, v⟩ = the number of facts of f with v in role i, by index."""
    found = _lookup(defs, x)
    if found is None:
        return BOTTOM
    relation, role, value = found
    return str(relation.count(role, value)) if relation.arity else "0"


def matching(defs: Environment, x: Object) -> Object:
    """matching:⟨f, i, v⟩ = the facts of f with v in role i, sorted, by index."""
    found = _lookup(defs, x)
    if found is None:
        return BOTTOM
    relation, role, value = found
    return tuple(sorted(relation.matching(role, value))) if relation.arity else ()


def values(defs: Environment, x: Object) -> Object:
    """values:⟨f, i⟩ = the distinct values in role i of f, sorted."""
    if type(x) is tuple and len(x) == 2:
        relation = _relation(defs, x[0])
        if relation is not None:
            role = _role(relation, x[1])
            if role is not None:
                return tuple(sorted(relation.values(role))) if relation.arity else ()
    return BOTTOM


def path(defs: Environment, x: Object) -> Object:
    """path:⟨f, a, b⟩ = a shortest path from a to b over f's edges (role 1 → role 2), by a
    breadth-first search through the index of role 1; φ when there is none.

    >>> from arest.algebra.relations import Relation
    >>> D = {"R": Relation.of(2, [("a", "b"), ("b", "c"), ("a", "c"), ("c", "d")])}
    >>> path(D, ("R", "a", "d")), path(D, ("R", "d", "a")), path(D, ("R", "b", "b"))
    (('a', 'c', 'd'), (), ('b',))
    """
    if not (type(x) is tuple and len(x) == 3 and type(x[1]) is str and type(x[2]) is str):
        return BOTTOM
    relation = _relation(defs, x[0])
    if relation is None or relation.arity not in (0, 2):
        return BOTTOM
    start, goal = x[1], x[2]
    parents: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier and goal not in parents:
        following: list[str] = []
        for node in frontier:
            for _, successor in sorted(relation.matching(0, node)) if relation.arity else ():
                if successor not in parents:
                    parents[successor] = node
                    following.append(successor)
        frontier = following
    if goal not in parents:
        return ()
    steps: list[str] = []
    step: str | None = goal
    while step is not None:
        steps.append(step)
        step = parents[step]
    return tuple(reversed(steps))


ENVIRONMENT_PRIMITIVES: Final[Mapping[str, EnvironmentPrimitive]] = MappingProxyType(
    {
        "fetch": fetch,
        "holds": holds,
        "count": count,
        "matching": matching,
        "values": values,
        "path": path,
        **ROW_PRIMITIVES,
    }
)
"""The primitives that see D, by name; ρ tries them after D's own definitions."""
