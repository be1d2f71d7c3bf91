"""synthesize: an entity's facts → prose that rests on them alone.

``synthesize {"noun", "id"}`` gives the prompt: every fact about the entity — each fact of a
fact type its noun (or a supertype) plays in which it fills that role, asserted and derived
alike, since D holds derived facts at their fixed point — said by its fact type's reading,
and the instruction to use nothing else.  With ``llm_response`` it answers ``{"noun", "id",
"text": llm_response, "facts": [{"fact_type", "bindings", "reading", "derived"}]}``: the
facts the prose must rest on, so a caller can check it.  The engine guarantees the content;
the LLM shapes the prose.
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import FACT_TYPE_ROLES
from arest.compiler.population import role_nouns, supertypes
from arest.system.bridge.responses import Output, llm_response, prompt_only, request_of, text
from arest.system.derive import is_derived
from arest.system.entity_verbs import read
from arest.system.explain import verbalized
from arest.system.inputs import role_names

MAX_FACTS = 500
"""The most facts a prompt gives; the rest are counted (an entity with thousands of facts —
a customer's every order — would make a prompt no LLM reads whole)."""


def entity_facts(state: State, noun: str, entity: str) -> list[Output]:
    """The facts about the entity, by fact type id then values: ``{"fact_type", "bindings",
    "reading", "derived"}``.  Each comes from the index of the entity's role."""
    placed = state.get(FACT_TYPE_ROLES)
    found: dict[tuple[str, Fact], None] = {}
    for member_of in (noun, *supertypes(state, noun)):
        plays = sorted(placed.matching(1, member_of)) if isinstance(placed, Relation) else []
        for fact_type, _, position in plays:
            relation = state.get(fact_type)
            if isinstance(relation, Relation):
                for fact in relation.matching(int(position), entity):
                    found[(fact_type, fact)] = None
    facts = []
    for fact_type, fact in sorted(found):
        roles = role_nouns(state, fact_type)
        relation = state.get(fact_type)
        assert isinstance(relation, Relation)
        facts.append({
            "fact_type": fact_type,
            "bindings": dict(zip(role_names(roles), fact, strict=True)),
            "reading": verbalized(state, fact_type, roles, fact),
            "derived": is_derived(relation.payload(fact)),
        })
    return facts


def prompt(noun: str, entity: str, facts: list[Output], omitted: int) -> str:
    """The prompt asking for prose that states these facts and nothing else."""
    lines = [f"- {fact['reading']}" + (" (derived)" if fact["derived"] else "")
             for fact in facts] or ["- (none: the database states nothing more about it)"]
    if omitted:
        lines.append(f"- … and {omitted} more facts, left out here; do not guess them.")
    return "\n".join([
        f"Write a short description, in plain prose, of {noun} '{entity}' for a reader who "
        "does not know the database.",
        "",
        "Use only the facts below. Do not add, guess or generalize anything they do not "
        "state, and leave out nothing that matters. Facts marked (derived) were inferred by "
        "the database's rules from the others; they are as true as the rest.",
        "",
        "Facts:",
        *lines,
        "",
        "Answer with the prose only: no heading, no list of the facts, no JSON.",
    ])


def synthesize(state: State, request: Any) -> Output:
    """``synthesize {"noun", "id", "llm_response"?}``: the prompt, or the prose with the
    facts it rests on."""
    request = request_of(request, ("noun", "id"), ())
    noun = text(request, "noun", "a noun name")
    entity = read(state, noun, {"id": request["id"]})["id"]
    found = entity_facts(state, noun, entity)
    facts, omitted = found[:MAX_FACTS], max(0, len(found) - MAX_FACTS)
    answer = llm_response(request)
    if answer is None:
        return prompt_only(prompt(noun, entity, facts, omitted))
    out: Output = {"noun": noun, "id": entity, "text": answer, "facts": facts}
    if omitted:
        out["truncated"] = True
    return out
