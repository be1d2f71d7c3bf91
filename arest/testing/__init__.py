"""Hypothesis strategies for arest's algebra, for tests and for notebooks stating properties.

Needs the ``test`` extra (Hypothesis); ``import arest`` never imports this module.

>>> from hypothesis import given
>>> @given(objects())
... def round_trip(x):
...     assert read(show(x)) == x
>>> round_trip()
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import chain
from operator import itemgetter

from hypothesis import strategies as st

from arest.algebra import State, forms, store_all
from arest.algebra.environment import ENVIRONMENT_PRIMITIVES
from arest.algebra.objects import Object
from arest.algebra.primitives import PRIMITIVES
from arest.algebra.relations import ASSERTED, Fact, Relation
from arest.compiler.cells import NOUN_SUPERTYPES, population_cell
from arest.compiler.change import Change
from arest.compiler.population import membership_fact_type, relation_in
from arest.testing import domains
from arest.testing.domains import ConstraintRef, Population, command_sequences, populations
from arest.testing.forml2 import readings
from arest.testing.graphs import (
    GRAPH_BINDINGS,
    GRAPH_CONSTRAINTS,
    GRAPH_RULES,
    RUNTIME_RULES,
    graph_command_sequences,
    graph_commands,
    graph_scenarios,
    graph_schemas,
)

__all__ = [
    "BINDINGS", "CONSTRAINT_POOL", "GRAPH_BINDINGS", "GRAPH_CONSTRAINTS", "GRAPH_RULES",
    "RUNTIME_RULES", "TYPES", "ConstraintRef", "Population", "atoms", "bulk_load",
    "command_sequences", "commands", "functions", "graph_command_sequences", "graph_commands",
    "graph_scenarios", "graph_schemas", "objects", "populations", "readings", "schemas",
    "small_atoms", "texts", "typed_functions", "typed_objects",
]

_WORDS = ("a", "b", "c", "T", "F", "x y", "Order Id")
_NUMERALS = ("0", "1", "2", "3", "10", "-4", "2.5", "0.125")
_INSTANTS = ("2024-02-01", "2024-03-01", "2024-01-01T00:00:00", "2024-01-01T00:01:30")


def texts() -> st.SearchStrategy[str]:
    """Any text at all: quotes, commas, brackets, padding, ⊥'s names, the empty text."""
    awkward = st.sampled_from(["", " ", "'", "''", ",", "<>", "⊥", "_|_", " a ", "it's", "\n"])
    return st.one_of(awkward, st.text(max_size=12))


def small_atoms() -> st.SearchStrategy[str]:
    """Atoms the primitives have something to say about: words, truth values, numerals,
    ISO dates."""
    return st.sampled_from(_WORDS + _NUMERALS + _INSTANTS)


def atoms() -> st.SearchStrategy[str]:
    """Atoms of every kind, from :func:`small_atoms` and from :func:`texts`."""
    return st.one_of(small_atoms(), texts())


def objects(
    leaves: st.SearchStrategy[str] | None = None, max_leaves: int = 12
) -> st.SearchStrategy[Object]:
    """Objects without ⊥: atoms, φ and nested sequences.

    ``leaves`` picks the atoms (default: :func:`atoms`, including awkward text).
    """
    leaf: st.SearchStrategy[Object] = st.one_of(atoms() if leaves is None else leaves, st.just(()))
    return st.recursive(
        leaf, lambda inner: st.lists(inner, max_size=4).map(tuple), max_leaves=max_leaves
    )


_SELECTORS = ("1", "2", "3", "1r", "2r")
_PRIMITIVE_ATOMS = (
    tuple(sorted(set(PRIMITIVES) | set(ENVIRONMENT_PRIMITIVES))) + _SELECTORS + ("apply",)
)


def functions(
    defined: tuple[str, ...] = (), max_leaves: int = 10
) -> st.SearchStrategy[Object]:
    """Function objects: primitives, selectors, every built-in form, constants, atoms named in
    ``defined`` (to be given meaning by a ``defs``), and now and then a malformed form, so
    that ⊥ paths are exercised too.  ``while`` may not terminate: evaluate with fuel."""
    leaf = st.one_of(
        st.sampled_from(_PRIMITIVE_ATOMS + defined),
        objects(small_atoms(), max_leaves=4).map(forms.const),
    )

    def extend(inner: st.SearchStrategy[Object]) -> st.SearchStrategy[Object]:
        parts = st.lists(inner, min_size=0, max_size=3)
        return st.one_of(
            parts.map(lambda fs: forms.comp(*fs)),
            parts.map(lambda fs: forms.cons(*fs)),
            st.tuples(inner, inner, inner).map(lambda p: forms.cond(*p)),
            inner.map(forms.alpha),
            inner.map(forms.insert),
            st.tuples(inner, objects(small_atoms(), max_leaves=3)).map(lambda p: forms.bu(*p)),
            st.tuples(inner, inner).map(lambda p: forms.while_(*p)),
            inner.map(forms.filter_),
            inner.map(forms.foldl),
            st.tuples(st.sampled_from(sorted(forms.ARITY)), parts).map(
                lambda p: (p[0], *p[1])
            ),
        )

    return st.recursive(leaf, extend, max_leaves=max_leaves)


# -- well-typed function objects --------------------------------------------------------------
# Random function objects are mostly ⊥ on random objects (a primitive applied to the wrong
# shape).  These are built to be defined on every object of a type, so that laws over them
# compare defined values: a numeral, a non-empty sequence of numerals, a pair of numerals, a
# non-empty sequence of pairs (rows, what `trans`, `distl` and `distr` work on), a truth value.

NUMBER, NUMBERS, PAIR, ROWS, TRUTH = "number", "numbers", "pair", "rows", "truth"
TYPES = (NUMBER, NUMBERS, PAIR, ROWS)
"""The types an argument may have (a truth value is only ever a result)."""

_TYPED_NUMERALS = ("0", "1", "2", "3", "10", "-4", "2.5")


def typed_objects(kind: str) -> st.SearchStrategy[Object]:
    """The objects of one of :data:`TYPES` (or ``"truth"``).

    >>> from hypothesis import find
    >>> find(typed_objects("rows"), lambda rows: len(rows) > 1)
    (('0', '0'), ('0', '0'))
    """
    number: st.SearchStrategy[Object] = st.sampled_from(_TYPED_NUMERALS)
    pair: st.SearchStrategy[Object] = st.tuples(number, number)
    by_kind: dict[str, st.SearchStrategy[Object]] = {
        NUMBER: number,
        NUMBERS: st.lists(number, min_size=1, max_size=4).map(tuple),
        PAIR: pair,
        ROWS: st.lists(pair, min_size=1, max_size=3).map(tuple),
        TRUTH: st.sampled_from(("T", "F")),
    }
    return by_kind[kind]


def typed_functions(domain: str, codomain: str, depth: int = 2) -> st.SearchStrategy[Object]:
    """Function objects f with f:x ≠ ⊥ of type ``codomain`` for every x of type ``domain``
    (each a member of :data:`TYPES` or, for the codomain, ``"truth"``): primitives where they
    are total, selectors within length, ``insert`` of binary operators over non-empty
    sequences, ``trans``/``distl``/``distr`` on rows, and every form over such parts, nested
    to ``depth``.  No division (÷0 is ⊥) and no ``while`` (it need not end).

    >>> from hypothesis import find
    >>> from arest.algebra import reduce
    >>> f = find(typed_functions("numbers", "number"), lambda f: f != "1")
    >>> reduce(f, ("2", "3")).value != "⊥"
    True
    """
    return _typed(domain, codomain, depth)


@lru_cache(maxsize=512)
def _typed(domain: str, codomain: str, depth: int) -> st.SearchStrategy[Object]:
    leaves = _typed_leaves(domain, codomain)
    if depth == 0:
        return leaves
    smaller = depth - 1
    middle = st.sampled_from(TYPES)
    composed = middle.flatmap(lambda between: st.tuples(
        _typed(between, codomain, smaller), _typed(domain, between, smaller))).map(
        lambda p: forms.comp(*p))
    chosen = st.tuples(_typed(domain, TRUTH, smaller), _typed(domain, codomain, smaller),
                       _typed(domain, codomain, smaller)).map(lambda p: forms.cond(*p))
    shaped = _typed_shapes(domain, codomain, smaller)
    return st.one_of(leaves, leaves, composed, chosen, *shaped)


def _typed_leaves(domain: str, codomain: str) -> st.SearchStrategy[Object]:
    """Depth 0: a constant, ``id`` where the types agree, and the primitives of the types."""
    found: list[Object] = []
    sequence = domain in (NUMBERS, PAIR, ROWS)
    if domain == codomain or (domain == PAIR and codomain == NUMBERS):
        found += ["id"]
    if sequence and codomain == NUMBER:
        found += ["length"] + (["1"] if domain != ROWS else [])
    if domain == PAIR and codomain == NUMBER:
        found += ["+", "-", "*", "2", "1r"]
    if domain == PAIR and codomain == TRUTH:
        found += ["lt", "gt", "eq", "le", "ge"]
    if sequence and codomain == domain:
        found += ["reverse", "rotl", "rotr"]
    if domain == ROWS and codomain == PAIR:
        found += ["1", "1r"]
    if domain == ROWS and codomain == NUMBERS:
        found += [forms.comp("1", "trans"), forms.comp("2", "trans")]
    constants = typed_objects(codomain).map(forms.const)
    return st.one_of(st.sampled_from(found), constants) if found else constants


def _typed_shapes(domain: str, codomain: str, depth: int) -> list[st.SearchStrategy[Object]]:
    """The forms that build a value of ``codomain`` from parts of smaller depth."""
    shapes: list[st.SearchStrategy[Object]] = []
    to_number = _typed(domain, NUMBER, depth)
    if codomain == NUMBER and domain == NUMBER:
        shapes.append(st.tuples(st.sampled_from(("+", "-", "*")), typed_objects(NUMBER)).map(
            lambda p: forms.bu(*p)))
    if codomain == NUMBER and domain in (NUMBERS, PAIR):
        shapes.append(_typed(PAIR, NUMBER, depth).map(forms.insert))
    if codomain == PAIR:
        shapes.append(st.tuples(to_number, to_number).map(lambda p: forms.cons(*p)))
    if codomain == NUMBERS:
        shapes.append(st.lists(to_number, min_size=1, max_size=3).map(
            lambda fs: forms.cons(*fs)))
        if domain in (NUMBERS, ROWS):
            element = PAIR if domain == ROWS else NUMBER
            shapes.append(_typed(element, NUMBER, depth).map(forms.alpha))
    if codomain == ROWS and domain in (NUMBERS, PAIR):
        shapes.append(st.tuples(st.sampled_from(("distl", "distr")), to_number).map(
            lambda p: forms.comp(p[0], forms.cons(p[1], "id") if p[0] == "distl"
                                 else forms.cons("id", p[1]))))
        shapes.append(st.just(forms.comp("trans", forms.cons("id", "id"))))
    if codomain == ROWS and domain == ROWS:
        shapes.append(_typed(PAIR, PAIR, depth).map(forms.alpha))
        shapes.append(st.just(forms.comp("trans", "trans")))
    if codomain == TRUTH:
        shapes.append(st.tuples(st.sampled_from(("lt", "gt", "eq", "le", "ge")),
                                typed_objects(NUMBER), to_number).map(
            lambda p: forms.comp(forms.bu(p[0], p[1]), p[2])))
        shapes.append(st.tuples(st.sampled_from(("and", "or")), _typed(domain, TRUTH, depth),
                                _typed(domain, TRUTH, depth)).map(
            lambda p: forms.comp(p[0], forms.cons(p[1], p[2]))))
        shapes.append(_typed(domain, TRUTH, depth).map(lambda p: forms.comp("not", p)))
    return shapes


# -- schemas, populations and commands -------------------------------------------------------
_BASE_SCHEMA = """\
Person(.Name) is an entity type.
Car(.VIN) is an entity type.
VIN is a value type.
Age is a value type.
Nickname is a value type.
Colour is a value type.
  The possible values of Colour are 'red', 'blue'.
Person has Age.
Person has Nickname.
Person likes Person.
Person owns Car.
Person rents Car.
Car has Colour.
Person has Colour.
"""

CONSTRAINT_POOL = (
    "Each Person has at most one Age.",
    "Each Person has exactly one Age.",
    "Each Person has at most 2 Nickname.",
    "Each Person has at least 2 and at most 3 Nickname.",
    "Each Car has at most one Colour.",
    "Each Person owns at most one Car.",
    "No Person likes itself.",
    "Person1 likes Person2 is asymmetric.",
    "Person1 likes Person2 is acyclic.",
    "Person1 likes Person2 is intransitive.",
    "If Person1 likes Person2 then Person2 likes Person1.",
    "If some Person rents some Car then that Person owns that Car.",
    "For each Car, at most one of the following holds:\n"
    "  some Person owns that Car;\n  some Person rents that Car.",
    "It is forbidden that a Person has Age greater than 150.",
    "If some Person owns some Car then that Person has Colour equal to that Car's Colour.",
)
"""Constraint sentences over the base schema, one per kind family; a generated schema picks
some of them."""

_PEOPLE = ("ann", "bob", "cy")
_CARS = ("c1", "c2")
BINDINGS = {
    "Person_has_Age": (_PEOPLE, ("1", "30", "200")),
    "Person_has_Nickname": (_PEOPLE, ("a", "b", "c")),
    "Person_likes_Person": (_PEOPLE, _PEOPLE),
    "Person_owns_Car": (_PEOPLE, _CARS),
    "Person_rents_Car": (_PEOPLE, _CARS),
    "Car_has_Colour": (_CARS, ("red", "blue", "green")),
    "Person_has_Colour": (_PEOPLE, ("red", "blue")),
}


def schemas() -> st.SearchStrategy[str]:
    """FORML 2 readings: a base schema with a random selection of constraints."""
    return st.lists(st.sampled_from(CONSTRAINT_POOL), unique=True, max_size=6).map(
        lambda picked: _BASE_SCHEMA + "\n".join(picked) + "\n"
    )


def commands(D: State | None = None) -> st.SearchStrategy[tuple[str, object]]:
    """SYSTEM commands, ``(key, input)``: over D's own domain when D is given
    (:func:`arest.testing.domains.commands`: every verb, machine and rule); without it over
    :func:`schemas`' domain: assert, retract, create, update, and some that are wrong
    (unknown fields, bad values)."""
    if D is not None:
        return domains.commands(D)
    facts = st.sampled_from(sorted(BINDINGS)).flatmap(
        lambda fact_type: st.tuples(
            st.just(fact_type),
            st.sampled_from(BINDINGS[fact_type][0]),
            st.sampled_from(BINDINGS[fact_type][1]),
        )
    )
    writes = st.tuples(st.sampled_from(["assert", "retract"]), facts).map(
        lambda p: (p[0], {"fact_type": p[1][0], "bindings": [p[1][1], p[1][2]]})
    )
    creates = st.tuples(
        st.sampled_from(_PEOPLE), st.sampled_from(("1", "30", 200)),
        st.lists(st.sampled_from(("a", "b")), max_size=2, unique=True),
    ).map(lambda p: ("create:Person", {"id": p[0], "Age": p[1], "Nickname": p[2]}))
    updates = st.tuples(st.sampled_from(_PEOPLE), st.sampled_from(("1", "31", None))).map(
        lambda p: ("update:Person", {"id": p[0], "Age": p[1]})
    )
    wrong = st.sampled_from([
        ("create:Person", {"id": "ann", "Shoe Size": "9"}),
        ("assert", {"fact_type": "Person_has_Age", "bindings": {"Person": "ann"}}),
        ("update:Car", {"id": "nope", "Colour": "red"}),
        ("create:Nobody", {}),
        ("assert", {"fact_type": "Person_has_Age", "bindings": ["ann", True]}),
    ])
    return st.one_of(writes, writes, creates, updates, wrong)


def bulk_load(state: State, facts: Iterable[tuple[str, Fact]] | Mapping[str, Iterable[Fact]]
              ) -> State:
    """D with many facts added at once, their entities in their populations, without
    validation: for benchmarks and tests that need a large population quickly (a subtype
    membership fact, ``Clinician 'x' is a Nurse``, puts x in the subtype's).  ``facts`` are
    (fact type, fact) pairs, or a mapping fact type → its facts (the same pairs grouped, as
    a caller holding one table's rows has them).  The facts must belong to D's fact types;
    nothing checks that they satisfy its constraints.  Each cell grows in one batch, and
    the D is the one adding the facts one at a time with ``Change.add`` reaches
    (``tests/system/test_bulk_load.py``), its facts and entities in the order the input
    first names them.

    >>> import arest
    >>> D = arest.compile("Order(.id) is an entity type.\\nOrder has Amount.")
    >>> D2 = bulk_load(D, [("Order_has_Amount", (f"o{i}", "1")) for i in range(3)])
    >>> arest.apply(D2, "list:Order")[0]["total"]
    3
    >>> one = ("o1", "1")
    >>> bulk_load(D, {"Order_has_Amount": [one]}) == bulk_load(D, [("Order_has_Amount", one)])
    True
    """
    grouped = {fact_type: list(batch) for fact_type, batch in facts.items()} \
        if isinstance(facts, Mapping) else _grouped(facts)
    lookups = Change(state)  # the schema's roles, kinds and supertypes, remembered
    additions: dict[str, list[Iterable[Fact]]] = {}
    named: dict[str, list[Iterable[str]]] = {}
    for fact_type, batch in grouped.items():
        if batch:
            additions.setdefault(fact_type, []).append(batch)
        for position, noun in lookups.entity_roles(fact_type):
            named.setdefault(noun, []).append(map(itemgetter(position), batch))
    for sub, sup in sorted(relation_in(state, NOUN_SUPERTYPES) or ()):
        # ``Clinician 'x' is a Nurse``: x is a Nurse, as asserting it says.
        members = grouped.get(membership_fact_type(sub, sup))
        if members:
            named.setdefault(sub, []).append(map(itemgetter(0), members))
    # Each entity joins its noun's population and its supertypes' once, whichever facts
    # and roles named it, in the order the facts first name it (no sort: the order of a
    # relation's facts means nothing, but a set would make it follow PYTHONHASHSEED); as
    # Change.touch does, a subtype's entity is also in each membership fact type of a
    # direct supertype.  The 1-tuples are made once, as the keys of a dict every cell
    # they join reads.
    for noun, values in named.items():
        members_once = dict.fromkeys(zip(dict.fromkeys(chain.from_iterable(values))), ASSERTED)
        if not members_once:
            continue
        for member_of in lookups.member_of(noun):
            additions.setdefault(population_cell(member_of), []).append(members_once)
        for parent in lookups.parents(noun):
            additions.setdefault(membership_fact_type(noun, parent), []).append(members_once)
    cells: list[tuple[str, Relation]] = []
    for name, parts in additions.items():
        current = state.get(name)
        grown = _grown(current, parts)
        if grown is not current:
            cells.append((name, grown))
    return store_all(state, cells)


def _grouped(facts: Iterable[tuple[str, Fact]]) -> dict[str, list[Fact]]:
    """fact type → its facts in input order, the fact types in the order they first come.

    >>> _grouped([("R", ("a",)), ("S", ("b",)), ("R", ("c",))])
    {'R': [('a',), ('c',)], 'S': [('b',)]}
    """
    pairs = facts if isinstance(facts, list) else list(facts)
    kinds = dict.fromkeys(map(itemgetter(0), pairs))
    if len(kinds) == 1:
        # One table's rows: its facts in one pass in C.  With several fact types a pass
        # per fact type (``compress``) costs more than this loop: its comparisons are calls.
        return {kind: list(map(itemgetter(1), pairs)) for kind in kinds}
    grouped: dict[str, list[Fact]] = {}
    for fact_type, fact in pairs:
        batch = grouped.get(fact_type)
        if batch is None:
            grouped[fact_type] = [fact]
        else:
            batch.append(fact)
    return grouped


def _grown(current: object, parts: list[Iterable[Fact]]) -> Relation:
    """The relation current (or a new one) with the facts of parts added in one batch, in
    order.  A cell D does not hold yet, given one batch of distinct entities (a dict of
    1-tuples), takes them as they are: ``extended`` would hash each again to find the
    duplicates there are none of, and the relation it builds is the same."""
    if current is None and len(parts) == 1 and isinstance(parts[0], dict):
        return Relation(1).with_new(dict(parts[0]))  # a copy: another cell may take them too
    added = parts[0] if len(parts) == 1 else list(chain.from_iterable(parts))
    relation = current if isinstance(current, Relation) else Relation(len(next(iter(added))))
    return relation.extended(added)
