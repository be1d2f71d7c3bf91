"""validate: text → the fact instances it states → a constraint check.

``validate {"text", "constraint"}`` finds the constraint by id (``c-…``) or by its reading:
exactly, then ignoring case, runs of blanks and a final period.  A reading names its whole
sentence, so ``Each Order was placed by exactly one Customer.`` checks both constraints it
states (UC and MC); an id names one.  The prompt gives the constraint's reading and its fact
types (for a value constraint on a noun, the fact types the noun plays) and asks for the
facts as a JSON list ``[{"fact_type", "bindings"}]``.

With ``llm_response`` each fact is run through ``verify`` alone (what asserting it into D
would report), and all of them together, as one change, give the named constraint's
violations: the text is checked as a whole, so two facts that break a uniqueness
constraint only together are caught, and a fact needing another that the text also states
(an Order's Customer) is not flagged.  Output: ``{"constraint": {"id", "reading", "ids"},
"facts": [{"fact_type", "bindings", "violations", "would_reject"}], "violations",
"valid"}``.
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.compiler.change import Change
from arest.compiler.schema import ConstraintInfo, schema_of
from arest.forml2 import metamodel
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
from arest.system.bridge.schema_text import fact_type_line, rule_modes
from arest.system.describe import describe
from arest.system.entity_verbs import settle
from arest.system.errors import Refusal, closest
from arest.system.fact_verbs import verify
from arest.system.inputs import bindings_fact, fact_type_of, role_names
from arest.system.search import tenant_fact_types
from arest.system.validate import violations

FACTS = '[{"fact_type": "<fact type id>", "bindings": {"<role name>": "<value>"}}]'


def _normal(reading: str) -> str:
    """A reading compared loosely: case-folded, blanks collapsed, no final period.

    >>> _normal("  each Order  was placed by exactly one Customer.")
    'each order was placed by exactly one customer'
    """
    return " ".join(reading.casefold().split()).rstrip(".")


def named_constraints(state: State, name: str) -> list[ConstraintInfo]:
    """The constraint an id names, or every constraint of the sentence a reading names;
    ``invalid_input`` at ``$.constraint`` listing the closest ids and readings otherwise."""
    constraints = schema_of(state).constraints
    if name in constraints:
        return [constraints[name]]
    for same in (lambda c: c.reading == name, lambda c: _normal(c.reading) == _normal(name)):
        found = [c for c in constraints.values() if same(c)]
        if found:
            return found
    own, bundled = set(tenant_fact_types(state)), metamodel().schema.metamodel
    tenant = sorted({c.reading for c in constraints.values()
                     if any(span[0] in own for span in c.spans)
                     or (c.noun and c.noun not in bundled)})
    pool = [*constraints, *(c.reading for c in constraints.values())]
    raise Refusal(
        "invalid_input", f"no constraint {name!r}: give a constraint's id or its reading",
        path="$.constraint", expected="a constraint id (c-…) or a constraint's reading",
        candidates=closest(name, pool) or tenant[:10],
    )


def _fact_type_lines(state: State, named: list[ConstraintInfo]) -> list[str]:
    """The fact types the constraints span (a value constraint on a noun: those it plays),
    as the ``schema`` key shows them, one line each."""
    whole = describe(state, {})
    spanned = {span[0] for c in named for span in c.spans}
    on = {c.noun for c in named if c.noun and not c.spans}
    modes = rule_modes(whole["rules"])
    return [fact_type_line(f, modes.get(f["id"], set())) for f in whole["fact_types"]
            if f["id"] in spanned or on & {role["noun"] for role in f["roles"]}]


def prompt(state: State, named: list[ConstraintInfo], source: str) -> str:
    """The prompt asking for the fact instances the text states."""
    return "\n".join([
        "Extract from the text below every fact it states that is an instance of one of "
        "these fact types (id: reading; role names):",
        *_fact_type_lines(state, named),
        "",
        f"The facts will be checked against this constraint: {named[0].reading}",
        "",
        "<text>",
        source,
        "</text>",
        "",
        "Answer with one JSON array and nothing else (no explanation, no code fence), one "
        "object per fact, giving every role of its fact type a value:",
        FACTS,
        "Write each value as the text gives it (a name, an id; a number as plain text such "
        "as \"3\"). Do not infer facts the text does not state; answer [] when it states "
        "none.",
    ])


def _facts(answer: str) -> list[dict[str, Any]]:
    found = json_in(answer, list, lambda value: all(isinstance(item, dict) for item in value))
    if found is None or not all(isinstance(item, dict) for item in found):
        raise unusable(f"one JSON array of facts, {FACTS}",
                       "the LLM's answer holds no JSON array of fact objects")
    # An LLM may annotate a fact (its reading, a confidence): only these two keys are read.
    return [{"fact_type": item.get("fact_type"), "bindings": item.get("bindings")}
            for item in found]


def _checked(state: State, facts: list[dict[str, Any]]) -> tuple[list[Output], list[Output]]:
    """Each fact with what verify says of it alone; and what they all say together."""
    shown: list[Output] = []
    change = Change(state)
    for index, fact in enumerate(facts):
        try:
            verified = verify(state, fact)
            fact_type, roles = fact_type_of(state, fact)
        except Refusal as refusal:
            raise relocated(refusal, f"{RESPONSE}[{index}]", fact=index) from None
        values = bindings_fact(roles, fact["bindings"])
        change.add(fact_type, values)
        shown.append({"fact_type": fact_type,
                      "bindings": dict(zip(role_names(roles), values, strict=True)),
                      **verified})
    after, delta, _ = settle(state, change)
    return shown, violations(after, delta)


def validate_text(state: State, request: Any) -> Output:
    """``validate {"text", "constraint", "llm_response"?}``: the prompt, or the check."""
    request = request_of(request, ("text", "constraint"), ())
    source = text(request, "text", "the text to check")
    named = named_constraints(state, text(request, "constraint",
                                          "a constraint id (c-…) or a constraint's reading"))
    answer = llm_response(request)
    if answer is None:
        return prompt_only(prompt(state, named, source))
    facts, together = _checked(state, _facts(answer))
    ids = [c.id for c in named]
    found = [v for v in together if v["constraint_id"] in ids]
    return {
        "constraint": {"id": named[0].id, "reading": named[0].reading, "ids": ids},
        "facts": facts,
        "violations": found,
        "valid": not found,
    }
