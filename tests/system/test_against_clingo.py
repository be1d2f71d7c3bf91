"""arest and clingo agree: on generated Datalog programs in the fragment both engines share —
joins, stratified negation, positive recursion (a transitive ring, two relations derived from
each other), counts — over random facts, arest's fixed point from scratch is clingo's one
answer set (a stratified program has exactly one).

Each program is a list of definitions, each defining new relations from the asserted ones
and the relations defined before it (so negation and counting are stratified by
construction), and is written twice: as FORML 2 readings and as an ASP program.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import clingo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra.relations import Relation
from arest.system.derive import derive_all
from arest.testing import bulk_load

NODES = ("n1", "n2", "n3", "n4")


@dataclass(frozen=True)
class Relationship:
    """A relation over Nodes: its ASP name, its FORML 2 predicate (``is near``), its
    arity (1 or 2) and its fact type id."""

    name: str
    predicate: str
    arity: int

    @property
    def fact_type(self) -> str:
        words = self.predicate.replace(" ", "_")
        return f"Node_{words}_Node" if self.arity == 2 else f"Node_{words}"

    def declaration(self) -> str:
        return f"Node {self.predicate} Node." if self.arity == 2 else f"Node {self.predicate}."


@dataclass(frozen=True)
class Atom:
    relationship: Relationship
    terms: tuple[int, ...]
    negated: bool = False
    """A negated atom whose term no positive atom binds is existential inside the negation
    (FORML 2's ``some``)."""

    def forml(self, bound: set[int]) -> str:
        nodes = [f"Node{t}" if t in bound or not self.negated else f"some Node{t}"
                 for t in self.terms]
        words = self.relationship.predicate.split(" ")
        if self.negated:
            words = [words[0], "not", *words[1:]]
        return " ".join([nodes[0], *words, *nodes[1:]])

    def asp(self, bound: set[int], auxiliary: str) -> str:
        if self.negated and not set(self.terms) <= bound:
            return f"not {auxiliary}({','.join(f'X{t}' for t in self.terms if t in bound)})"
        atom = f"{self.relationship.name}({','.join(f'X{t}' for t in self.terms)})"
        return f"not {atom}" if self.negated else atom


@dataclass(frozen=True)
class Rule:
    head: Atom
    body: tuple[Atom, ...]

    def bound(self) -> set[int]:
        return {t for atom in self.body if not atom.negated for t in atom.terms}

    def forml(self) -> str:
        bound = self.bound()
        return (f"* {self.head.forml(bound)} iff "
                f"{' and '.join(atom.forml(bound) for atom in self.body)}.")

    def asp(self, index: int) -> list[str]:
        bound = self.bound()
        lines, body = [], []
        for position, atom in enumerate(self.body):
            auxiliary = f"aux{index}_{position}"
            body.append(atom.asp(bound, auxiliary))
            if atom.negated and not set(atom.terms) <= bound:
                positive = Atom(atom.relationship, atom.terms)
                kept = ",".join(f"X{t}" for t in atom.terms if t in bound)
                lines.append(f"{auxiliary}({kept}) :- {positive.asp(bound, '')}.")
        lines.append(f"{self.head.asp(bound, '')} :- {', '.join(body)}.")
        return lines


@dataclass(frozen=True)
class Count:
    """``Node has <name> Count`` counts the Node2 that ``Node <over> Node2``."""

    name: str
    over: Relationship

    def forml(self) -> list[str]:
        return [f"Node has {self.name} Count.",
                f"* Node has {self.name} Count iff {self.name} Count is the count of Node2 "
                f"where that Node {self.over.predicate} Node2."]

    def asp(self) -> list[str]:
        over = self.over.name
        return [f"{self.name}(X,N) :- {over}(X,_), N = #count{{Y: {over}(X,Y)}}."]

    @property
    def fact_type(self) -> str:
        return f"Node_has_{self.name}_Count"


MARKED, BLOCKED = Relationship("m", "is marked", 1), Relationship("b", "is blocked", 1)
LINKED, PAIRED = Relationship("e", "is linked to", 2), Relationship("f", "is paired with", 2)
UNARY_NAMES = ("hot", "cold", "warm", "wet", "dry", "calm")
# A two-word predicate without a preposition (`is near`) is not read inside a count's where
# clause, so every binary predicate here has one.
BINARY_NAMES = ("next to", "close to", "tied to", "bound to", "joined to", "akin to",
                "wired to", "kin to")
COUNT_NAMES = ("alpha", "beta", "gamma", "delta", "epsilon")


@dataclass
class Program:
    """What is derived (``derived``) from the asserted relations by rules and counts, and
    whether ``is linked to`` is declared transitive."""

    rules: list[Rule]
    counts: list[Count]
    derived: list[Relationship]
    transitive: bool

    def forml(self) -> str:
        lines = ["Node(.id) is an entity type.", "Count is a value type."]
        lines += [r.declaration() for r in (MARKED, BLOCKED, LINKED, PAIRED, *self.derived)]
        if self.transitive:
            lines.append("Node1 is linked to Node2 is transitive.")
        lines += [rule.forml() for rule in self.rules]
        lines += [line for count in self.counts for line in count.forml()]
        return "\n".join(lines) + "\n"

    def asp(self) -> str:
        lines = ["e(X,Y) :- e0(X,Y)."]
        if self.transitive:
            lines.append("e(X,Z) :- e(X,Y), e0(Y,Z).")
        for index, rule in enumerate(self.rules):
            lines += rule.asp(index)
        lines += [line for count in self.counts for line in count.asp()]
        return "\n".join(lines) + "\n"


@st.composite
def programs(draw: Any) -> Program:
    """A stratified program: each step defines new relations over the ones before it."""
    unary, binary = [MARKED, BLOCKED], [LINKED, PAIRED]
    program = Program([], [], [], draw(st.booleans()))
    unary_names, binary_names = list(UNARY_NAMES), list(BINARY_NAMES)
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["join", "converse", "filter", "negation", "exists",
                                     "unary negation", "count", "mutual"]))
        if kind in ("exists", "unary negation") and unary_names:
            head = Relationship(f"u{len(unary_names)}", f"is {unary_names.pop(0)}", 1)
            if kind == "exists":
                edge = draw(st.sampled_from(binary))
                other = draw(st.sampled_from(unary))
                body = (Atom(edge, (1, 2)), Atom(other, (2,), draw(st.booleans())))
            else:
                first, second = draw(st.sampled_from(unary)), draw(st.sampled_from(unary))
                edge = draw(st.sampled_from(binary))
                body = (Atom(first, (1,)), Atom(second, (1,), True), Atom(edge, (1, 2), True))
            program.rules.append(Rule(Atom(head, (1,)), body))
            program.derived.append(head)
            unary.append(head)
        elif kind == "count":
            over = draw(st.sampled_from(binary))
            program.counts.append(Count(COUNT_NAMES[len(program.counts)], over))
        elif kind == "mutual" and len(binary_names) >= 2:
            first = Relationship(f"d{len(binary_names)}", f"is {binary_names.pop(0)}", 2)
            second = Relationship(f"d{len(binary_names)}", f"is {binary_names.pop(0)}", 2)
            start, step = draw(st.sampled_from(binary)), draw(st.sampled_from(binary))
            guard = draw(st.sampled_from(unary))
            program.rules += [
                Rule(Atom(first, (1, 2)), (Atom(start, (1, 2)),)),
                Rule(Atom(first, (1, 3)), (Atom(second, (1, 2)), Atom(step, (2, 3)))),
                Rule(Atom(second, (1, 2)),
                     (Atom(first, (1, 2)), Atom(guard, (2,), draw(st.booleans())))),
            ]
            program.derived += [first, second]
            binary += [first, second]
        elif binary_names:
            head = Relationship(f"d{len(binary_names)}", f"is {binary_names.pop(0)}", 2)
            a, b = draw(st.sampled_from(binary)), draw(st.sampled_from(binary))
            guard = draw(st.sampled_from(unary))
            bodies = {
                "join": ((1, 3), (Atom(a, (1, 2)), Atom(b, (2, 3)))),
                "converse": ((1, 2), (Atom(a, (2, 1)),)),
                "filter": ((1, 2), (Atom(a, (1, 2)), Atom(guard, (2,), draw(st.booleans())))),
                "negation": ((1, 2), (Atom(a, (1, 2)), Atom(b, (1, 2), True))),
            }
            terms, body = bodies.get(kind, bodies["join"])
            program.rules.append(Rule(Atom(head, terms), body))
            program.derived.append(head)
            binary.append(head)
    return program


FACTS = st.lists(st.one_of(
    st.tuples(st.sampled_from([LINKED, PAIRED]), st.tuples(*[st.sampled_from(NODES)] * 2)),
    st.tuples(st.sampled_from([MARKED, BLOCKED]), st.tuples(st.sampled_from(NODES))),
), min_size=3, max_size=16)


def arest_answer(program: Program, facts: list[tuple[Relationship, tuple[str, ...]]]
                 ) -> dict[str, set[tuple[str, ...]]]:
    D = derive_all(bulk_load(arest.compile(program.forml()),
                             [(r.fact_type, fact) for r, fact in facts]))

    def facts_of(fact_type: str) -> set[tuple[str, ...]]:
        relation = D.get(fact_type)
        return set(relation) if isinstance(relation, Relation) else set()

    answer = {r.name: facts_of(r.fact_type) for r in program.derived}
    answer |= {c.name: facts_of(c.fact_type) for c in program.counts}
    answer["e"] = facts_of(LINKED.fact_type)
    return answer


def clingo_answer(program: Program, facts: list[tuple[Relationship, tuple[str, ...]]]
                  ) -> dict[str, set[tuple[str, ...]]]:
    ground = "".join(
        f"{'e0' if r is LINKED else r.name}({','.join(fact)}).\n" for r, fact in facts)
    control = clingo.Control(["--warn=none"])
    control.add("base", [], ground + program.asp())
    control.ground([("base", [])])
    models: list[list[clingo.Symbol]] = []
    control.solve(on_model=lambda model: models.append(model.symbols(atoms=True)))
    assert len(models) == 1
    answer: dict[str, set[tuple[str, ...]]] = {
        name: set() for name in ["e", *(r.name for r in program.derived),
                                 *(c.name for c in program.counts)]}
    for symbol in models[0]:
        if symbol.name in answer:
            answer[symbol.name].add(tuple(str(argument) for argument in symbol.arguments))
    return answer


@settings(max_examples=40)
@given(programs(), FACTS)
def test_arest_fixed_point_is_clingo_answer_set(program: Program, facts: Any) -> None:
    assert arest_answer(program, facts) == clingo_answer(program, facts)


@pytest.mark.slow
@settings(max_examples=300)
@given(programs(), FACTS)
def test_arest_fixed_point_is_clingo_answer_set_over_more_programs(program: Program,
                                                                   facts: Any) -> None:
    """The same, over more programs (the slow suite)."""
    assert arest_answer(program, facts) == clingo_answer(program, facts)
