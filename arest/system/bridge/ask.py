"""ask: a question in natural language → one projection spec → its rows.

``ask {"question", "noun"?}`` gives the prompt: the question, the schema around ``noun`` (the
fact types it plays, and the nouns of those fact types) or, without one, the tenant's schema
(the fact types of its readings and their nouns; the metamodel's only when the tenant
declares none), and the exact shape of the answer, the input of the ``project`` key.  With
``llm_response`` it reads the spec from the answer, runs ``project`` and answers
``{"question", "query": spec, "rows"}``.
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.system.bridge.responses import (
    RESPONSE,
    Output,
    json_in,
    llm_response,
    prompt_only,
    relocated,
    request_of,
    text,
    unusable,
)
from arest.system.bridge.schema_text import schema_lines
from arest.system.describe import describe
from arest.system.errors import Refusal, invalid_input
from arest.system.fact_verbs import project
from arest.system.search import tenant_fact_types

SPEC = '{"fact_type" or "noun", "filter"?, "roles"?}'


def _view(state: State, noun: str | None) -> dict[str, Any]:
    """The part of the schema the prompt shows, as a ``schema`` view."""
    whole = describe(state, {})
    if noun is not None:
        around = describe(state, {"noun": noun})
        chosen = {fact_type["id"] for fact_type in around["fact_types"]}
        names = {noun}
    else:
        chosen = set(tenant_fact_types(state)) or {f["id"] for f in whole["fact_types"]}
        names = set()
    fact_types = [f for f in whole["fact_types"] if f["id"] in chosen]
    names.update(role["noun"] for f in fact_types for role in f["roles"])
    return {
        "nouns": [n for n in whole["nouns"] if n["name"] in names],
        "fact_types": fact_types,
        "rules": [r for r in whole["rules"] if r["fact_type"] in chosen],
        "machines": [m for m in whole["machines"] if m["noun"] in names],
    }


def prompt(state: State, question: str, noun: str | None) -> str:
    """The prompt asking for one projection spec that answers the question."""
    return "\n".join([
        "Translate a question about a database into one projection query.",
        "",
        f"Question: {question}",
        "",
        "The database holds elementary facts, each an instance of a fact type. "
        + ("The part of its schema around " + noun if noun else "Its schema") + ":",
        "",
        *schema_lines(state, _view(state, noun)),
        "",
        "A projection query is one JSON object in one of two forms:",
        '  {"fact_type": "<fact type id>", "filter": {"<role name>": "<value>"}, '
        '"roles": ["<role name>"]}',
        "    gives rows of the fact type's facts, one key per chosen role;",
        '  {"noun": "<noun>", "filter": {"<field>": "<value>"}, "roles": ["<field>"]}',
        "    gives rows of the noun's entities, one key per chosen field.",
        '"filter" and "roles" are optional: without "filter" every fact or entity counts, '
        'without "roles" every role or field is shown. The answer is the distinct rows.',
        "Filter values match exactly (text, case-sensitive; a number as plain text such as "
        '"42"); a field holding a list matches when it contains the value; filter keys '
        "combine with AND. The query cannot compare, count, sort or join: choose the "
        "projection whose rows answer the question best, filtered as far as exact matches "
        "allow.",
        "Use only the fact type ids, nouns, role names and field names listed above.",
        "",
        "Answer with one JSON object and nothing else: no explanation, no code fence.",
    ])


def _spec(answer: str) -> dict[str, Any]:
    spec = json_in(answer, dict, lambda value: "fact_type" in value or "noun" in value)
    if spec is None:
        raise unusable(f"one JSON object, the projection spec {SPEC}",
                       "the LLM's answer holds no JSON object")
    return dict(spec)


def ask(state: State, request: Any) -> Output:
    """``ask {"question", "noun"?, "llm_response"?}``: the prompt, or the question's rows."""
    request = request_of(request, ("question",), ("noun",))
    question = text(request, "question", "the question, as text")
    noun = request.get("noun")
    if noun is not None and not isinstance(noun, str):
        raise invalid_input("$.noun", "a noun name")
    answer = llm_response(request)
    if answer is None:
        return prompt_only(prompt(state, question, noun))
    if noun is not None:
        describe(state, {"noun": noun})  # an unknown noun is an error on either call
    spec = _spec(answer)
    try:
        rows = project(state, spec)["rows"]
    except Refusal as refusal:
        raise relocated(refusal, RESPONSE, query=spec) from None
    return {"question": question, "query": spec, "rows": rows}
