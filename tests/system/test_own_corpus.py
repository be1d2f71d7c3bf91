"""The project's own corpus (readings/): every domain loads with `arest.load` without a
diagnostic or warning, and together the domains hold every construct the reader knows and every
constraint kind the compiler checks, as the compiled D shows them (`schema`) and as the reader
reads them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

import arest
from arest.api import read_files
from arest.compiler.checks import KINDS
from arest.forml2 import (
    Aggregation,
    Comparison,
    Computation,
    Constraint,
    DerivationRule,
    FactTypeDecl,
    InstanceFact,
    NounDecl,
    Objectification,
    Possibility,
    Reading,
    SubtypeDecl,
    metamodel,
    read,
)
from arest.forml2.constructs import Atom
from tests.corpus import OWN_DOMAINS, OWN_READINGS


@dataclass(frozen=True)
class Domain:
    """A domain of the own corpus: its compiled state, what `schema` lists beyond the
    metamodel, and its reading on top of the metamodel."""

    D: Any
    constraints: tuple[dict[str, str], ...]
    rules: tuple[dict[str, str], ...]
    machines: tuple[dict[str, Any], ...]
    reading: Reading

    def constructs(self, kind: type) -> list[Any]:
        return [c for c in self.reading.constructs if isinstance(c, kind)]


@pytest.fixture(scope="module")
def domains() -> dict[str, Domain]:
    base = arest.apply(arest.compile(""), "schema")[0]
    known = {part: {item["id"] for item in base[part]}
             for part in ("constraints", "rules", "machines")}
    found = {}
    for name in OWN_DOMAINS:
        folder = OWN_READINGS / name
        D = arest.load(folder)
        schema = arest.apply(D, "schema")[0]
        own = {part: tuple(item for item in schema[part] if item["id"] not in known[part])
               for part in known}
        text = "\n".join(text for _, text in read_files(folder))
        found[name] = Domain(D, own["constraints"], own["rules"], own["machines"],
                             read(text, name, known=metamodel()))
    return found


def every(domains: dict[str, Domain], kind: type) -> list[Any]:
    return [c for domain in domains.values() for c in domain.constructs(kind)]


def test_the_corpus_folders_are_the_listed_domains() -> None:
    folders = {p.name for p in OWN_READINGS.iterdir() if p.is_dir()}
    assert set(OWN_DOMAINS) <= folders
    assert all(list((OWN_READINGS / name).glob("*.md")) for name in OWN_DOMAINS)


@pytest.mark.parametrize("name", OWN_DOMAINS)
def test_each_domain_loads_without_diagnostics_or_warnings(
    name: str, domains: dict[str, Domain]
) -> None:
    domain = domains[name]
    assert domain.reading.diagnostics == () and domain.reading.warnings == ()
    assert arest.warnings(domain.D) == []


# The constraints each domain compiles to, by (kind, modality): a changed count is a changed
# reading of the corpus (the golden files say which sentence).
CONSTRAINTS = {
    "clinic": {("UC", "alethic"): 25, ("MC", "alethic"): 18, ("FC", "alethic"): 1,
               ("VC", "alethic"): 3, ("SS", "alethic"): 1, ("XO", "alethic"): 1,
               ("MC", "deontic"): 1, ("VC", "deontic"): 3},
    "genealogy": {("UC", "alethic"): 5, ("MC", "alethic"): 1, ("FC", "alethic"): 1,
                  ("VC", "alethic"): 1, ("EQ", "alethic"): 1, ("XC", "alethic"): 1,
                  ("IR", "alethic"): 2, ("AS", "alethic"): 1, ("AT", "alethic"): 1,
                  ("AC", "alethic"): 1, ("IT", "alethic"): 1, ("SY", "alethic"): 2,
                  ("RF", "alethic"): 1, ("TR", "alethic"): 1,
                  ("UC", "deontic"): 1, ("VC", "deontic"): 1},
    "library": {("UC", "alethic"): 15, ("MC", "alethic"): 10, ("VC", "alethic"): 1,
                ("OR", "alethic"): 2, ("XO", "alethic"): 1,
                ("FC", "deontic"): 1, ("SS", "deontic"): 1, ("VC", "deontic"): 1},
    "tracker": {("UC", "alethic"): 20, ("MC", "alethic"): 11, ("VC", "alethic"): 2,
                ("SS", "alethic"): 1, ("EQ", "alethic"): 1, ("XC", "alethic"): 1,
                ("IR", "alethic"): 2, ("AC", "alethic"): 1, ("IT", "alethic"): 1,
                ("UC", "deontic"): 1, ("MC", "deontic"): 1, ("VC", "deontic"): 1},
}
RULES = {"clinic": 3, "genealogy": 1, "library": 7, "tracker": 8}
MACHINES = {"clinic": ["Payment", "Visit"], "genealogy": [], "library": ["Loan"],
            "tracker": ["Build", "Issue"]}


@pytest.mark.parametrize("name", OWN_DOMAINS)
def test_each_domain_compiles_its_constraints_rules_and_machines(
    name: str, domains: dict[str, Domain]
) -> None:
    domain = domains[name]
    assert Counter((c["kind"], c["modality"]) for c in domain.constraints) == CONSTRAINTS[name]
    assert len(domain.rules) == RULES[name]
    assert sorted(m["id"] for m in domain.machines) == MACHINES[name]


def test_every_constraint_kind_the_compiler_checks_is_in_the_corpus(
    domains: dict[str, Domain]
) -> None:
    compiled = {c["kind"] for domain in domains.values() for c in domain.constraints}
    assert compiled == set(KINDS)
    deontic = {c["kind"] for domain in domains.values() for c in domain.constraints
               if c["modality"] == "deontic"}
    assert deontic >= {"UC", "MC", "FC", "VC", "SS"}
    operators = {c.operator for c in every(domains, Constraint) if c.modality == "deontic"}
    assert operators == {"obligatory", "forbidden", "permitted"}


def test_every_declaration_form_is_in_the_corpus(domains: dict[str, Domain]) -> None:
    nouns = every(domains, NounDecl)
    assert {n.kind for n in nouns} >= {"entity", "value"}
    assert any(n.kind == "entity" and n.reference for n in nouns)
    assert len(every(domains, SubtypeDecl)) >= 6
    assert any(o.identifying for o in every(domains, Objectification))
    arities = {len(f.roles) for f in every(domains, FactTypeDecl)}
    assert arities >= {1, 2, 3, 4}
    assert every(domains, InstanceFact) and every(domains, Possibility)


def test_every_constraint_form_is_in_the_corpus(domains: dict[str, Domain]) -> None:
    constraints = every(domains, Constraint)

    def some(kind: str, holds: Any) -> bool:
        return any(c.kind == kind and holds(c) for c in constraints)

    assert some("UC", lambda c: len(c.spans[0]) > 1)  # external, across fact types
    assert some("UC", lambda c: len(c.spans[0]) == 1 and len(c.spans[0][0].roles) == 2)  # spanning
    assert some("UC", lambda c: len(c.spans[0][0].roles) == 2 and c.spans[0][0].roles != (0, 1))
    assert some("MC", lambda c: len(c.spans[0]) > 1)  # disjunctive
    assert some("FC", lambda c: c.bounds is not None)
    assert some("VC", lambda c: bool(c.values))  # the possible values
    assert some("VC", lambda c: c.comparison is not None and c.modality == "alethic")
    assert some("VC", lambda c: c.comparison is not None and c.modality == "deontic")
    assert some("SS", lambda c: bool(c.joins))  # a join subset
    # Set comparisons over subtype memberships and over fact types.
    assert some("XO", lambda c: c.spans[0][0].fact_type.endswith("_is_a_Doctor"))
    assert some("XO", lambda c: len(c.spans) == 3)
    assert some("OR", lambda c: "_is_a_" in c.spans[0][0].fact_type)
    assert some("OR", lambda c: "_is_a_" not in c.spans[0][0].fact_type)


def test_every_rule_form_is_in_the_corpus(domains: dict[str, Domain]) -> None:
    rules = every(domains, DerivationRule)
    conditions = [c for rule in rules for c in rule.conditions]
    assert {r.mode for r in rules} == {"*", "+"}
    assert {a.op for a in conditions if isinstance(a, Aggregation)} == {
        "count", "sum", "min", "max", "avg"}
    assert {c.expression[1] for c in conditions if isinstance(c, Computation)} == {
        "plus", "minus", "times", "divided by", "reduced by"}
    assert any(isinstance(c, Comparison) for c in conditions)
    assert any(isinstance(c, Atom) and c.negated for c in conditions)
    # A join: two conditions sharing a variable the consequent does not name.
    assert any(rule.consequent.terms == ("Person1", "Person3") for rule in rules)


def test_the_transitive_ring_and_the_join_derive(domains: dict[str, Domain]) -> None:
    D = domains["genealogy"].D
    ancestors = arest.apply(D, "query:Person_is_ancestor_of_Person")[0]["rows"]
    assert {"Person1": "Ada", "Person2": "Cleo", "derived": True} in ancestors
    grandparents = arest.apply(D, "query:Person_is_grandparent_of_Person")[0]["rows"]
    assert grandparents == [{"Person1": "Ada", "Person2": "Cleo", "derived": True}]


def test_machines_have_initial_terminal_and_shared_events(domains: dict[str, Domain]) -> None:
    machines = [m for domain in domains.values() for m in domain.machines]
    assert all(m["initial"] for m in machines)
    assert any(m["terminal"] for m in machines)
    assert any(len(m["terminal"]) > 1 for m in machines)
    shared = [m["id"] for m in machines
              if len({t["event"] for t in m["transitions"]}) < len(m["transitions"])]
    assert shared == ["Visit"]  # 'cancel' fires from Booked and from Checked In
