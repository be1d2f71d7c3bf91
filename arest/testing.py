"""Hypothesis strategies for arest's algebra, for tests and for notebooks stating properties.

Needs the ``test`` extra (Hypothesis); ``import arest`` never imports this module.

>>> from hypothesis import given
>>> @given(objects())
... def round_trip(x):
...     assert read(show(x)) == x
>>> round_trip()
"""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import strategies as st

from arest.algebra import State, forms, store_all
from arest.algebra.environment import ENVIRONMENT_PRIMITIVES
from arest.algebra.objects import Object
from arest.algebra.primitives import PRIMITIVES
from arest.algebra.relations import Relation
from arest.compiler.population import Change

__all__ = [
    "BINDINGS", "CONSTRAINT_POOL", "GRAPH_BINDINGS", "GRAPH_CONSTRAINTS", "GRAPH_RULES",
    "RUNTIME_RULES", "atoms", "bulk_load", "commands", "functions",
    "graph_command_sequences", "graph_commands", "graph_scenarios",
    "graph_schemas", "objects", "schemas", "small_atoms", "texts",
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


def commands() -> st.SearchStrategy[tuple[str, object]]:
    """SYSTEM commands over :func:`schemas`' domain: assert, retract, create, update, and
    some that are wrong (unknown fields, bad values) — ``(key, input)``."""
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


# -- rule schemas and their commands ---------------------------------------------------------
_GRAPH_SCHEMA = """\
Node(.id) is an entity type.
Weight is a value type.
Tag is a value type.
  The possible values of Tag are 'x', 'y'.
Node links to Node.
Node pairs with Node.
Node is marked.
Node is blocked.
Node has Weight.
Node has Tag.
State Machine Definition 'Node' is for Noun 'Node'.
Status 'Idle' is initial in State Machine Definition 'Node'.
Status 'Busy' is defined in State Machine Definition 'Node'.
Status 'Gone' is defined in State Machine Definition 'Node'.
Transition 'start' is defined in State Machine Definition 'Node'.
Transition 'start' is from Status 'Idle'.
Transition 'start' is to Status 'Busy'.
Transition 'stop' is defined in State Machine Definition 'Node'.
Transition 'stop' is from Status 'Busy'.
Transition 'stop' is to Status 'Idle'.
Transition 'delete' is defined in State Machine Definition 'Node'.
Transition 'delete' is from Status 'Idle'.
Transition 'delete' is to Status 'Gone'.
"""

GRAPH_RULES: tuple[tuple[str, ...], ...] = (
    ("Node is two hops from Node.",
     "* Node1 is two hops from Node3 iff Node1 links to Node2 and Node2 links to Node3."),
    ("* Node is free iff Node is marked and Node is not blocked.",),
    ("Node is two hops from Node.",
     "* Node1 is two hops from Node3 iff Node1 links to Node2 and Node2 links to Node3.",
     "* Node is lonely iff Node is marked and Node is not two hops from some Node2."),
    ("* Node has out Degree iff out Degree is the count of Node2 "
     "where that Node links to Node2.",),
    ("* Node has reach Weight iff reach Weight is the sum of Weight "
     "where that Node links to some Node2 and that Node2 has Weight.",),
    ("* Node has low Weight iff low Weight is the min of Weight "
     "where that Node links to some Node2 and that Node2 has Weight.",),
    ("* Node has high Weight iff high Weight is the max of Weight "
     "where that Node links to some Node2 and that Node2 has Weight.",),
    ("* Node has mean Weight iff mean Weight is the avg of Weight "
     "where that Node links to some Node2 and that Node2 has Weight.",),
    ("* Node has unblocked Degree iff unblocked Degree is the count of Node2 "
     "where that Node links to Node2 and Node2 is not blocked.",),
    ("* Node has double Weight iff Node has Weight "
     "and double Weight is that Weight times 2 plus 1.",),
    ("* Node is heavy iff Node has Weight and that Weight is greater than 1.",),
    ("* Node is busy iff Node has Status 'Busy'.",),
    ("* Node1 outweighs Node2 iff Node1 links to Node2 and Node1 has Weight1 "
     "and Node2 has Weight2 and Weight1 is greater than Weight2.",),
    ("Node is two hops from Node.",
     "* Node1 is two hops from Node3 iff Node1 links to Node2 and Node2 links to Node3.",
     "* Node has hop Count iff hop Count is the count of Node2 "
     "where that Node is two hops from Node2."),
    ("* Node has out Degree iff out Degree is the count of Node2 "
     "where that Node links to Node2.",
     "* Node is hub iff Node has out Degree and that out Degree is greater than 1."),
    ("* Node has double Weight iff Node has Weight "
     "and double Weight is that Weight times 2 plus 1.",
     "* Node has doubled Sum iff doubled Sum is the sum of double Weight "
     "where that Node links to some Node2 and that Node2 has double Weight."),
    ("Node watches Node.", "+ Node1 watches Node2 if Node2 is blocked."),
    ("* Node is heavy iff Node has Weight and that Weight is greater than 1.",
     "Transition 'start' is triggered by Fact Type 'Node is heavy'.",
     "* Node is busy iff Node has Status 'Busy'.",
     "* Node has busy Count iff busy Count is the count of Node2 "
     "where that Node links to Node2 and Node2 is busy."),
    ("* Node is unlinked iff Node has Tag and Node links to no Node2.",),
    ("Node1 links to Node2 is transitive.",),
    ("Node1 links to Node2 is transitive.", "+ Node1 links to Node2 if Node1 pairs with Node2."),
    ("Node is tied to Node.", "Node is bound to Node.",
     "+ Node1 is tied to Node2 if Node1 pairs with Node2.",
     "+ Node1 is tied to Node3 if Node1 is bound to Node2 and Node2 pairs with Node3.",
     "+ Node1 is bound to Node2 if Node1 is tied to Node2."),
)
"""Rules over :func:`graph_schemas`' domain, each with the declarations it needs: joins,
negation (of an asserted and of a derived fact type, with an existential variable), count,
sum, min, max and avg (through a negation, over derived facts), rules over an aggregate,
arithmetic, comparisons, a state machine's status (and a derived fact firing a transition),
a consequent variable ranging over the population, a transitive ring (alone and with a rule
deriving into it), and mutual recursion (two ``+`` fact types derived from each other)."""

GRAPH_CONSTRAINTS = (
    "Each Node has at most one Weight.",
    "Each Node has exactly one Tag.",
    "Each Node links to at most 2 Node.",
    "Each Node has at least 2 and at most 3 Weight.",
    "If some Node is blocked then that Node is marked.",
    "Some Node is marked if and only if that Node has some Tag.",
    "For each Node, at most one of the following holds:\n  that Node is marked;\n"
    "  that Node is blocked.",
    "For each Node, exactly one of the following holds:\n  that Node is marked;\n"
    "  that Node is blocked.",
    "No Node links to itself.",
    "Node1 links to Node2 is asymmetric.",
    "Node1 links to Node2 is acyclic.",
    "Node1 links to Node2 is intransitive.",
    "Node1 pairs with Node2 is symmetric.",
    "Node1 pairs with Node2 is antisymmetric.",
    "Each Node is marked or is blocked.",
    "It is forbidden that a Node has Weight greater than 5.",
    "It is obligatory that each Node has some Tag.",
    "It is obligatory that each Node has at most one Weight.",
    "If some Node links to some Node2 then that Node is marked.",
)
"""Constraints over :func:`graph_schemas`' base: uniqueness, mandatory (simple and
disjunctive), frequency, value (the Tag's values), subset, equality, exclusion,
exclusive-or, ring kinds and deontic ones."""

_DERIVED_CONSTRAINTS = (
    ("Node is two hops from Node.", "No Node is two hops from itself."),
    ("Node is two hops from Node.", "Each Node1 is two hops from at most one Node2."),
    ("Node is two hops from Node.",
     "If some Node1 is two hops from some Node2 then that Node1 pairs with that Node2."),
    ("Node is two hops from Node.",
     "For each Node, at most one of the following holds:\n  that Node is blocked;\n"
     "  some Node2 is two hops from that Node."),
    ("* Node has out Degree iff out Degree is the count of Node2 "
     "where that Node links to Node2.",
     "It is forbidden that a Node has out Degree greater than 1."),
)

RUNTIME_RULES = (
    "Node has spare Weight.\n"
    "* Node has spare Weight iff Node has Weight and spare Weight is that Weight minus 1.\n",
    "Node is idle.\n* Node is idle iff Node is marked and Node is not busy.\n"
    "* Node is busy iff Node has Status 'Busy'.\n",
    "Node has pair Count.\n"
    "* Node has pair Count iff pair Count is the count of Node2 "
    "where that Node pairs with Node2.\n",
)
"""Rules a ``compile`` command adds at run time, each over fact types of its own."""

_NODES = ("a", "b", "c", "d")
_WEIGHTS = ("1", "2", "2.5", "-3", "7")
GRAPH_BINDINGS = {
    "Node_links_to_Node": (_NODES, _NODES),
    "Node_pairs_with_Node": (_NODES, _NODES),
    "Node_has_Weight": (_NODES, _WEIGHTS),
    "Node_has_Tag": (_NODES, ("x", "y", "z")),
    "Node_is_marked": (_NODES,),
    "Node_is_blocked": (_NODES,),
}
"""The asserted fact types of :func:`graph_schemas` and the values each role takes."""


def _unique_sentences(sentences: Iterable[str]) -> str:
    """The sentences, each once, in their first order (a rule may come with two pickings)."""
    return "\n".join(dict.fromkeys(sentences)) + "\n"


def graph_schemas(required: tuple[str, ...] = ()) -> st.SearchStrategy[str]:
    """FORML 2 readings over a graph of Nodes with a state machine: the ``required``
    sentences (an entry of :data:`GRAPH_RULES`, say), a random selection of
    :data:`GRAPH_RULES` (one to four rules, at most two beside ``required``) and of
    constraints (:data:`GRAPH_CONSTRAINTS`, and some over derived fact types, which bring
    the rule they read)."""
    rules = st.lists(st.sampled_from(GRAPH_RULES), unique=True, min_size=0 if required else 1,
                     max_size=2 if required else 4)
    constraints = st.lists(st.sampled_from(GRAPH_CONSTRAINTS), unique=True, max_size=2)
    derived = st.lists(st.sampled_from(_DERIVED_CONSTRAINTS), unique=True, max_size=1)
    return st.tuples(rules, constraints, derived).map(
        lambda p: _GRAPH_SCHEMA + _unique_sentences([
            *required, *(sentence for rule in p[0] for sentence in rule), *p[1],
            *(sentence for pair in p[2] for sentence in pair)]))


def _graph_fact(fact_types: list[str]) -> st.SearchStrategy[tuple[str, list[str]]]:
    return st.sampled_from(fact_types).flatmap(
        lambda fact_type: st.tuples(
            st.just(fact_type),
            st.tuples(*(st.sampled_from(values) for values in GRAPH_BINDINGS[fact_type]))
            .map(list)))


def graph_commands(fact_types: Iterable[str] = GRAPH_BINDINGS
                   ) -> st.SearchStrategy[tuple[str, object]]:
    """SYSTEM commands over :func:`graph_schemas`' domain — ``(key, input)``: assert and
    retract of one fact (of ``fact_types``, default every one of :data:`GRAPH_BINDINGS`),
    create and update of a Node with some of its fields (several facts at once),
    transition and delete (the machine's ``delete``), compile
    (a rule of :data:`RUNTIME_RULES` added at run time), snapshot and rollback (to the one
    label ``s``; a rollback before any snapshot is refused)."""
    writes = st.tuples(st.sampled_from(["assert", "assert", "retract"]),
                       _graph_fact(sorted(fact_types))).map(
        lambda p: (p[0], {"fact_type": p[1][0], "bindings": p[1][1]}))
    updates = st.tuples(st.sampled_from(_NODES), _node_fields()).map(
        lambda p: ("update:Node", {"id": p[0], **p[1]}))
    transitions = st.tuples(st.sampled_from(_NODES), st.sampled_from(("start", "stop"))).map(
        lambda p: ("transition:Node", {"id": p[0], "event": p[1]}))
    deletes = st.sampled_from(_NODES).map(lambda node: ("delete:Node", {"id": node}))
    compiles = st.sampled_from(RUNTIME_RULES).map(lambda text: ("compile", {"readings": text}))
    history = st.sampled_from([("snapshot", {"label": "s"}), ("rollback", {"id": "s"})])
    others = st.one_of(_graph_creates(), updates, transitions, deletes, compiles, history)
    return st.one_of(writes, writes, writes, writes, writes, others)


def _node_fields() -> st.SearchStrategy[dict[str, object]]:
    """Some of a Node's fields, so that one command writes several facts (both sides of a
    join, a fact and the one its negation reads)."""
    nodes = st.lists(st.sampled_from(_NODES), max_size=2, unique=True)
    return st.fixed_dictionaries({}, optional={
        "Weight": st.one_of(st.sampled_from(_WEIGHTS), st.none(),
                            st.lists(st.sampled_from(_WEIGHTS), max_size=2, unique=True)),
        "Tag": st.sampled_from(("x", "y")),
        "is marked": st.booleans(),
        "is blocked": st.booleans(),
        "links to Node": nodes,
        "pairs with Node": nodes,
    })


def _graph_creates() -> st.SearchStrategy[tuple[str, object]]:
    return st.tuples(st.sampled_from(_NODES), _node_fields()).map(
        lambda p: ("create:Node", {"id": p[0], **p[1]}))


@st.composite
def _sequences(draw: st.DrawFn, max_size: int, among: tuple[str, ...]
               ) -> list[tuple[str, object]]:
    fact_types = draw(st.lists(st.sampled_from(among), min_size=1, max_size=3, unique=True))
    sequence = draw(st.lists(_graph_creates(), max_size=3))
    asserted: list[dict[str, object]] = []
    for _ in range(draw(st.integers(4, max_size))):
        if asserted and draw(st.integers(0, 4)) == 0:
            sequence.append(("retract", draw(st.sampled_from(asserted))))
            continue
        key, request = draw(graph_commands(fact_types))
        if key == "assert":
            asserted.append(request)  # type: ignore[arg-type]
        sequence.append((key, request))
    return sequence


def graph_command_sequences(
    max_size: int = 20, fact_types: Iterable[str] = GRAPH_BINDINGS
) -> st.SearchStrategy[list[tuple[str, object]]]:
    """Lists of :func:`graph_commands` after a few creates, so that most commands find the
    Nodes they name.  Each list writes facts of at most three of ``fact_types`` (swarm
    testing: facts meet in joins more often), and a fifth of its commands retract a fact
    it asserted before."""
    return _sequences(max_size, tuple(sorted(fact_types)))


def _read_by(readings: str) -> list[str]:
    """The asserted fact types of :data:`GRAPH_BINDINGS` the readings' rules and
    constraints mention after the base schema, by the word that tells each apart
    (``Node_links_to_Node``: ``links``; ``Node_has_Weight``: ``Weight``)."""
    words = {word.rstrip("0123456789")
             for word in readings.removeprefix(_GRAPH_SCHEMA).replace(".", " ").split()}
    return [fact_type for fact_type in GRAPH_BINDINGS
            if fact_type.split("_")[1 if fact_type.endswith("_Node") else -1] in words]


def graph_scenarios(
    required: tuple[str, ...] = (), max_size: int = 20
) -> st.SearchStrategy[tuple[str, list[tuple[str, object]]]]:
    """``(readings, commands)``: :func:`graph_schemas` (with the ``required`` sentences) and
    :func:`graph_command_sequences` whose writes go to the fact types the required
    sentences read (without any, those the readings' rules and constraints read), so that
    most commands change what they derive or check."""
    focus = _read_by(_GRAPH_SCHEMA + "\n".join(required))
    return graph_schemas(required).flatmap(lambda readings: st.tuples(
        st.just(readings),
        graph_command_sequences(max_size, focus or _read_by(readings) or GRAPH_BINDINGS)))


def bulk_load(state: State, facts: Iterable[tuple[str, tuple[str, ...]]]) -> State:
    """D with many facts added at once, their entities in their populations, without
    validation: for benchmarks and tests that need a large population quickly.  The facts
    must belong to D's fact types; nothing checks that they satisfy its constraints.

    >>> import arest
    >>> D = arest.compile("Order(.id) is an entity type.\\nOrder has Amount.")
    >>> D2 = bulk_load(D, [("Order_has_Amount", (f"o{i}", "1")) for i in range(3)])
    >>> arest.apply(D2, "list:Order")[0]["total"]
    3
    """
    grouped: dict[str, list[tuple[str, ...]]] = {}
    for fact_type, fact in facts:
        grouped.setdefault(fact_type, []).append(fact)
    change = Change(state)
    cells: list[tuple[str, Relation]] = []
    for fact_type, batch in grouped.items():
        current = state.get(fact_type)
        relation = current if isinstance(current, Relation) else Relation(len(batch[0]))
        cells.append((fact_type, relation.extended(batch)))
        for position, noun in enumerate(change.roles(fact_type)):
            if change.is_entity_type(noun):
                change.touch_all(noun, {fact[position] for fact in batch})
    return store_all(change.state, cells)
