"""The LLM bridge: ask, synthesize and validate, each called for its prompt and again with a
scripted LLM answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import arest

EXAMPLE = arest.load(Path(__file__).resolve().parents[2] / "readings" / "orders")


def run(D: Any, key: str, request: Any) -> dict[str, Any]:
    out, after = arest.apply(D, key, request)
    assert after is D  # the bridge only reads
    return out


def error(out: dict[str, Any]) -> dict[str, Any]:
    assert "error" in out, out
    return out["error"]


@pytest.fixture(scope="module")
def shop() -> Any:
    D = EXAMPLE
    for key, fields in [
        ("create:Customer", {"id": "ann@x.com", "Name": "Ann"}),
        ("create:Customer", {"id": "bo@x.com", "Name": "Bo"}),
        ("create:Order", {"id": "o-1", "Customer": "ann@x.com", "Priority": "rush"}),
        ("create:Order", {"id": "o-2", "Customer": "bo@x.com", "Priority": "low"}),
        ("create:Order", {"id": "o-3", "Customer": "ann@x.com", "Priority": "low"}),
    ]:
        out, D = arest.apply(D, key, fields)
        assert not out["rejected"], out
    return D


# -- ask -------------------------------------------------------------------------------------
def test_ask_without_an_answer_gives_the_prompt_with_the_schema(shop: Any) -> None:
    out = run(shop, "ask", {"question": "Which orders did Ann place?"})
    assert out["mode"] == "prompt-only" and "llm_response" in out["next_step"]
    prompt = out["prompt"]
    assert "Which orders did Ann place?" in prompt
    for expected in ("Order_was_placed_by_Customer", "Order_has_Priority", "Order:",
                     "roles: Order, Customer", "possible values: low, normal, rush",
                     '"fact_type"', '"noun"', "Answer with one JSON object and nothing else"):
        assert expected in prompt, expected
    assert "Noun_has_Object_Type" not in prompt  # the tenant's schema, not the metamodel's


def test_ask_about_a_noun_shows_it_and_its_neighbours_only(shop: Any) -> None:
    prompt = run(shop, "ask", {"question": "q", "noun": "Order"})["prompt"]
    assert "around Order" in prompt and "- Order: entity type; fields: id, Customer" in prompt
    assert "LineItem_belongs_to_Order" in prompt and "- Customer: entity type" in prompt
    assert "Product_has_Name" not in prompt and "- Product:" not in prompt
    assert error(run(shop, "ask", {"question": "q", "noun": "Ordr"}))["code"] == "unknown_noun"


@pytest.mark.parametrize("answer", [
    '{"fact_type": "Order_was_placed_by_Customer", "filter": {"Customer": "ann@x.com"}, '
    '"roles": ["Order"]}',
    'Sure. The query is {"fact_type": "Order_was_placed_by_Customer", "filter": '
    '{"Customer": "ann@x.com"}, "roles": ["Order"]} which lists her orders.',
    'Here you go:\n```json\n{"fact_type": "Order_was_placed_by_Customer",\n "filter": '
    '{"Customer": "ann@x.com"}, "roles": ["Order"]}\n```\nLet me know [if] more is needed.',
])
def test_ask_runs_the_spec_in_the_answer(shop: Any, answer: str) -> None:
    spec = {"fact_type": "Order_was_placed_by_Customer", "filter": {"Customer": "ann@x.com"},
            "roles": ["Order"]}
    out = run(shop, "ask", {"question": "Which orders did Ann place?", "llm_response": answer})
    assert out["question"] == "Which orders did Ann place?" and out["query"] == spec
    assert out["rows"] == run(shop, "project", spec)["rows"] == [{"Order": "o-1"},
                                                                {"Order": "o-3"}]


def test_ask_runs_a_noun_projection(shop: Any) -> None:
    spec = {"noun": "Order", "filter": {"Priority": "low"}, "roles": ["id", "Customer"]}
    out = run(shop, "ask", {"question": "Low priority orders?", "noun": "Order",
                            "llm_response": f"```\n{spec}\n```".replace("'", '"')})
    assert out["rows"] == run(shop, "project", spec)["rows"] and len(out["rows"]) == 2


def test_ask_refuses_an_answer_that_is_not_a_usable_spec(shop: Any) -> None:
    bad = error(run(shop, "ask", {"question": "q", "llm_response": "I cannot answer that."}))
    assert bad["code"] == "invalid_input" and bad["path"] == "$.llm_response"
    assert '"fact_type" or "noun"' in bad["expected"]
    wrong = error(run(shop, "ask", {"question": "q", "llm_response": '{"fact_type": "Nope"}'}))
    assert wrong["code"] == "unknown_fact_type" and wrong["query"] == {"fact_type": "Nope"}
    spec = '{"noun": "Order", "filter": {"Priority": null}}'
    wrong = error(run(shop, "ask", {"question": "q", "llm_response": spec}))
    assert wrong["code"] == "invalid_input"
    assert wrong["path"] == "$.llm_response.filter.Priority"
    both = error(run(shop, "ask", {"question": "q", "llm_response":
                                   '{"noun": "Order", "fact_type": "Order_has_Priority"}'}))
    assert both["code"] == "invalid_input" and both["path"] == "$.llm_response"
    for request in ({"question": " "}, {"question": "q", "llm_response": ""},
                    {"question": "q", "limit": 1}, None):
        assert error(run(shop, "ask", request))["code"] == "invalid_input"


# -- synthesize ------------------------------------------------------------------------------
FAMILY = """\
Person(.Name) is an entity type.
Person1 is parent of Person2.
Person1 is grandparent of Person2.
* Person1 is grandparent of Person3 if Person1 is parent of Person2 \
and Person2 is parent of Person3.
Person 'ann' is parent of Person 'bob'.
Person 'bob' is parent of Person 'cy'.
"""


def test_synthesize_gives_the_entity_s_asserted_and_derived_facts() -> None:
    D = arest.compile(FAMILY)
    out = run(D, "synthesize", {"noun": "Person", "id": "ann"})
    assert out["mode"] == "prompt-only"
    assert "- Person 'ann' is grandparent of Person 'cy'. (derived)" in out["prompt"]
    assert "- Person 'ann' is parent of Person 'bob'." in out["prompt"]
    assert "'bob' is parent of Person 'cy'" not in out["prompt"]  # not about ann
    assert "Use only the facts below" in out["prompt"]
    prose = "Ann is Bob's parent, and so Cy's grandparent."
    out = run(D, "synthesize", {"noun": "Person", "id": "ann", "llm_response": prose})
    assert out["noun"] == "Person" and out["id"] == "ann" and out["text"] == prose
    assert out["facts"] == [
        {"fact_type": "Person_is_grandparent_of_Person",
         "bindings": {"Person1": "ann", "Person2": "cy"},
         "reading": "Person 'ann' is grandparent of Person 'cy'.", "derived": True},
        {"fact_type": "Person_is_parent_of_Person",
         "bindings": {"Person1": "ann", "Person2": "bob"},
         "reading": "Person 'ann' is parent of Person 'bob'.", "derived": False},
    ]
    # The facts in either role: cy is the grandchild.
    facts = run(D, "synthesize", {"noun": "Person", "id": "cy", "llm_response": "x"})["facts"]
    assert [f["reading"] for f in facts] == ["Person 'ann' is grandparent of Person 'cy'.",
                                             "Person 'bob' is parent of Person 'cy'."]


def test_ask_marks_derived_fact_types_and_shows_their_rules() -> None:
    prompt = run(arest.compile(FAMILY), "ask", {"question": "Who are Cy's grandparents?"}
                 )["prompt"]
    assert ("- Person_is_grandparent_of_Person: Person is grandparent of Person; "
            "roles: Person1, Person2 (derived)") in prompt
    assert "- * Person1 is grandparent of Person3 if" in prompt


def test_synthesize_errors(shop: Any) -> None:
    assert error(run(shop, "synthesize", {"noun": "Ordr", "id": "o-1"}))["code"] \
        == "unknown_noun"
    assert error(run(shop, "synthesize", {"noun": "Order", "id": "o-9"}))["code"] \
        == "unknown_entity"
    missing = error(run(shop, "synthesize", {"noun": "Order"}))
    assert missing["code"] == "invalid_input" and missing["path"] == "$.id"


# -- validate --------------------------------------------------------------------------------
PLACED = "Each Order was placed by exactly one Customer."


def fact(order: str, customer: str) -> str:
    return ('{"fact_type": "Order_was_placed_by_Customer", "bindings": '
            f'{{"Order": "{order}", "Customer": "{customer}"}}}}')


def test_validate_finds_the_constraint_by_id_or_reading(shop: Any) -> None:
    by_reading = run(shop, "validate", {"text": "Order o-1 was placed by Bo.",
                                        "constraint": "  each order was placed by exactly "
                                                      "one customer"})
    prompt = by_reading["prompt"]
    assert by_reading["mode"] == "prompt-only" and PLACED in prompt
    assert "Order_was_placed_by_Customer" in prompt and "roles: Order, Customer" in prompt
    assert "Order o-1 was placed by Bo." in prompt and "Answer with one JSON array" in prompt
    uc = next(c for c in run(shop, "schema", {})["constraints"]
              if c["reading"] == PLACED and c["kind"] == "UC")
    by_id = run(shop, "validate", {"text": "x", "constraint": uc["id"], "llm_response": "[]"})
    assert by_id == {"constraint": {"id": uc["id"], "reading": PLACED, "ids": [uc["id"]]},
                     "facts": [], "violations": [], "valid": True}
    ids = run(shop, "validate", {"text": "x", "constraint": PLACED,
                                 "llm_response": "[]"})["constraint"]["ids"]
    assert ids == [uc["id"], uc["id"] + "-2"]  # the sentence's UC and MC


def test_validate_lists_a_violating_fact(shop: Any) -> None:
    out = run(shop, "validate", {"text": "Order o-1 was placed by Bo.", "constraint": PLACED,
                                 "llm_response": f"Extracted:\n[{fact('o-1', 'bo@x.com')}]"})
    assert not out["valid"]
    [checked] = out["facts"]
    assert checked["bindings"] == {"Order": "o-1", "Customer": "bo@x.com"}
    assert checked["would_reject"] is True
    assert [v["kind"] for v in checked["violations"]] == ["UC"]
    assert [(v["kind"], v["reading"]) for v in out["violations"]] == [("UC", PLACED)]
    fine = run(shop, "validate", {"text": "Order o-7 was placed by Bo.", "constraint": PLACED,
                                  "llm_response": f"[{fact('o-7', 'bo@x.com')}]"})
    assert fine["valid"] and fine["facts"][0]["would_reject"] is False


def test_validate_checks_the_text_as_a_whole(shop: Any) -> None:
    # Each fact alone is fine; together they give o-8 two customers.
    answer = f"[{fact('o-8', 'ann@x.com')}, {fact('o-8', 'bo@x.com')}]"
    out = run(shop, "validate", {"text": "o-8 was placed by Ann and by Bo.",
                                 "constraint": PLACED, "llm_response": answer})
    assert [f["would_reject"] for f in out["facts"]] == [False, False]
    assert not out["valid"] and [v["kind"] for v in out["violations"]] == ["UC"]
    # A fact that needs another the text also states is not flagged.
    answer = ('[{"fact_type": "Order_has_Priority", "bindings": ["o-9", "rush"]}, '
              f"{fact('o-9', 'ann@x.com')}]")
    out = run(shop, "validate", {"text": "Ann placed o-9, a rush order.", "constraint": PLACED,
                                 "llm_response": answer})
    assert out["facts"][0]["would_reject"] and out["valid"]


def test_validate_errors(shop: Any) -> None:
    unknown = error(run(shop, "validate", {"text": "x", "constraint":
                                           "Each Order was placed by exactly one Custmer."}))
    assert unknown["code"] == "invalid_input" and unknown["path"] == "$.constraint"
    assert PLACED in unknown["candidates"]
    for answer in ("No facts here.", '{"fact_type": "Order_has_Priority"}', "[1, 2]"):
        bad = error(run(shop, "validate", {"text": "x", "constraint": PLACED,
                                           "llm_response": answer}))
        assert bad["code"] == "invalid_input" and bad["path"] == "$.llm_response"
    answer = '[{"fact_type": "Order_was_placed_by_Customer", "bindings": {"Order": "o-1"}}]'
    bad = error(run(shop, "validate", {"text": "x", "constraint": PLACED,
                                       "llm_response": answer}))
    assert bad["path"] == "$.llm_response[0].bindings.Customer" and bad["fact"] == 0
    answer = '[{"fact_type": "Order_is_placed", "bindings": []}]'
    assert error(run(shop, "validate", {"text": "x", "constraint": PLACED,
                                        "llm_response": answer}))["code"] == "unknown_fact_type"
