"""Hypothesis strategies for the differential oracle: schemas over a graph of Nodes with a
state machine, using every rule and constraint kind the engine evaluates, and command
sequences over them (every verb that changes D).  Re-exported by :mod:`arest.testing`."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import strategies as st

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
