"""explain: why a fact holds, as a tree down to asserted facts (DESIGN §4).

A node is ``{"fact_type", "bindings", "reading", "derived", "rule"?, "antecedents"}``, and
``"truncated": true`` where the tree stops at MAX_DEPTH levels.  An asserted fact is a leaf.
A derived fact's support (:mod:`arest.system.derive`) names its rule and the row of variable
values the rule's plan found; the antecedents are the rule's positive clauses with those
values (for an aggregation, the clauses of every row of its group).  Negated clauses hold by
the absence of facts, so they add no antecedent.
"""

from __future__ import annotations

import re
from typing import Any, cast

from arest.algebra import State
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import FACT_TYPE_READINGS
from arest.compiler.derivations import Rule
from arest.compiler.plans import Plan, literal_of
from arest.compiler.population import role_nouns
from arest.system.derive import GOAL, GROUP, is_derived, program_of, rows
from arest.system.errors import invalid_input
from arest.system.inputs import bindings_fact, fact_type_of, role_names

Output = dict[str, Any]


def explain(state: State, request: Any) -> Output:
    """``explain {fact_type, bindings}``: the fact's explanation tree, down to the
    asserted facts it rests on.

    >>> import arest
    >>> D = arest.compile("Task(.id) is an entity type.\\nMilestone(.id) is an entity type.\\n"
    ...     "Task targets Milestone.\\nMilestone is targeted.\\n"
    ...     "* Milestone is targeted iff some Task targets that Milestone.\\n"
    ...     "Task 't1' targets Milestone 'm1'.")
    >>> why = explain(D, {"fact_type": "Milestone_is_targeted", "bindings": ["m1"]})
    >>> why["derived"], [a["reading"] for a in why["antecedents"]]
    (True, ["Task 't1' targets Milestone 'm1'."])
    """
    if not isinstance(request, dict):
        raise invalid_input("$", "an object with fact_type and bindings")
    extra = sorted(set(request) - {"fact_type", "bindings"})
    if extra:
        raise invalid_input(f"$.{extra[0]}", "only fact_type and bindings")
    fact_type, roles = fact_type_of(state, request)
    fact = bindings_fact(roles, request.get("bindings"))
    relation = state.get(fact_type)
    if not isinstance(relation, Relation) or fact not in relation:
        raise invalid_input("$.bindings", "the bindings of a fact that holds",
                            "the fact does not hold, so nothing explains it")
    rules = {rule.id: rule for rule in program_of(state).rules()}
    return _tree(state, rules, (fact_type, fact))


Key = tuple[str, Fact]
MAX_DEPTH = 200
"""How many levels an explanation shows: below, a node says ``"truncated": true`` (JSON
encoders refuse deeper nesting; ``explain`` the truncated fact to go on)."""


def _tree(state: State, rules: dict[str, Rule], root: Key) -> Output:
    """The explanation of root, built without recursion (a closure's support chain is as
    long as the path it closes).  A fact met again is the same node; supports never form a
    cycle, since a support's facts were there before the fact it derives."""
    nodes: dict[Key, Output] = {}
    children: dict[Key, list[Key]] = {}
    level = [root]
    for _ in range(MAX_DEPTH):
        following: list[Key] = []
        for key in level:
            if key not in nodes:
                nodes[key], children[key] = _node(state, rules, *key)
                following.extend(child for child in children[key] if child not in nodes)
        level = following
        if not level:
            break
    for key, node in nodes.items():
        below = [child for child in children[key] if child != key]
        node["antecedents"] = [nodes[child] for child in below if child in nodes]
        if any(child not in nodes for child in below):
            node["truncated"] = True
    return nodes[root]


def _node(state: State, rules: dict[str, Rule], fact_type: str, fact: Fact
          ) -> tuple[Output, list[Key]]:
    """The node of one fact, and the facts its support rests on."""
    roles = role_nouns(state, fact_type)
    node: Output = {
        "fact_type": fact_type,
        "bindings": dict(zip(role_names(roles), fact, strict=True)),
        "reading": verbalized(state, fact_type, roles, fact),
        "derived": False,
        "antecedents": [],
    }
    support = _support(state, fact_type, fact)
    if support is None:
        return node, []
    rule_id, plan_id, row = support
    rule = rules.get(rule_id)
    node["derived"] = True
    if rule is None:
        return node, []
    node["rule"] = {"id": rule.id, "reading": rule.reading}
    return node, _antecedents(state, rule, plan_id, row)


def _support(state: State, fact_type: str, fact: Fact) -> tuple[str, str, Any] | None:
    """A derived fact's support ⟨rule, plan, row⟩; None for an asserted fact."""
    relation = state.get(fact_type)
    payload = relation.payload(fact) if isinstance(relation, Relation) else None
    if not is_derived(payload):
        return None
    rule_id, plan_id, row = cast(tuple[str, str, tuple[str, ...]], payload)
    return str(rule_id), str(plan_id), row


def asserted_under(state: State, fact_type: str, fact: Fact) -> set[Key]:
    """The asserted facts a fact rests on: itself when asserted, else the asserted facts
    under its support, transitively (as deep as :func:`explain` shows, MAX_DEPTH levels).

    >>> import arest
    >>> D = arest.compile("Task(.id) is an entity type.\\nMilestone(.id) is an entity type.\\n"
    ...     "Task targets Milestone.\\nMilestone is targeted.\\n"
    ...     "* Milestone is targeted iff some Task targets that Milestone.\\n"
    ...     "Task 't1' targets Milestone 'm1'.")
    >>> asserted_under(D, "Milestone_is_targeted", ("m1",))
    {('Task_targets_Milestone', ('t1', 'm1'))}
    """
    rules = {rule.id: rule for rule in program_of(state).rules()}
    found: set[Key] = set()
    seen: set[Key] = set()
    level: list[Key] = [(fact_type, fact)]
    for _ in range(MAX_DEPTH):
        following: list[Key] = []
        for key in level:
            if key in seen:
                continue
            seen.add(key)
            support = _support(state, *key)
            if support is None:
                found.add(key)
                continue
            rule = rules.get(support[0])
            if rule is not None:
                following.extend(_antecedents(state, rule, support[1], support[2]))
        level = following
        if not level:
            break
    return found


def _plan(rule: Rule, plan_id: str) -> Plan:
    if plan_id in (GOAL, GROUP):
        return rule.goal
    return rule.seeds[int(plan_id)]


def _antecedents(state: State, rule: Rule, plan_id: str, row: Any) -> list[tuple[str, Fact]]:
    plan = _plan(rule, plan_id)
    found = rows(plan, (tuple(row),), state) if plan_id == GROUP else (tuple(row),)
    facts: dict[tuple[str, Fact], None] = {}
    for values in found:
        named = dict(zip(plan.variables, values, strict=False))
        for fact_type, terms in rule.antecedents:
            fact = tuple(value if (value := literal_of(term)) is not None
                         else named.get(term, "") for term in terms)
            facts[(fact_type, fact)] = None
    return list(facts)


def verbalized(state: State, fact_type: str, roles: tuple[str, ...], fact: Fact) -> str:
    """The fact said by its fact type's reading: ``Order 'o1' was placed by Customer 'acme'.``"""
    relation = state.get(FACT_TYPE_READINGS)
    texts = sorted(t for _, t in relation.matching(0, fact_type)) if isinstance(
        relation, Relation) else []
    # The primary reading is the one the fact type's id spells.
    text = next((t for t in texts if t.replace(" ", "_") == fact_type),
                texts[0] if texts else " ".join(roles))
    said: list[str] = []
    position = 0
    for noun, value in zip(roles, fact, strict=True):
        found = re.compile(rf"\b{re.escape(noun)}\b").search(text, position)
        if found is None:
            return " ".join(f"{n} '{v}'" for n, v in zip(roles, fact, strict=True)) + "."
        said.append(text[position:found.start()])
        said.append(f"{noun} '{value}'")
        position = found.end()
    said.append(text[position:])
    return "".join(said).rstrip(".") + "."
