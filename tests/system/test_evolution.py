"""propose → review → approve → apply: governed self-modification, and the guard on
protected domains."""

from __future__ import annotations

from typing import Any

import arest

AGENT = {"source": "Agent"}
HUMAN = {"source": "Human"}
LOYALTY = ("Loyalty Tier is a value type.\nCustomer has Loyalty Tier.\n"
           "  Each Customer has at most one Loyalty Tier.")


def shop() -> Any:
    D = arest.compile("Customer(.id) is an entity type.\nName is a value type.\n"
                      "Customer has Name.\n")
    return arest.apply(D, "create:Customer", {"id": "acme", "Name": "Acme"})[1]


def move(D: Any, change: str, event: str, context: dict[str, str]) -> tuple[dict[str, Any], Any]:
    return arest.apply(D, "transition:Domain Change", {"id": change, "event": event}, context)


def test_propose_review_approve_apply_changes_the_schema() -> None:
    out, D = arest.apply(shop(), "propose", {
        "rationale": "Add loyalty tier tracking", "target_domain": "orders",
        "readings": [LOYALTY], "nouns": ["Loyalty Tier"]}, AGENT)
    assert not out["rejected"]
    change = out["entity"]
    assert (change["status"], change["Domain"], change["is proposed by Signal Source"]) == (
        "Proposed", "orders", "Agent")
    assert out["next_actions"] == [{"key": "transition:Domain Change",
                                    "input": {"id": change["id"], "event": "review"},
                                    "to": "Under Review"}]
    before = D
    assert arest.apply(D, "update:Customer", {"id": "acme", "Loyalty Tier": "gold"})[0][
        "error"]["code"] == "unknown_field"
    for event in ("review", "approve", "apply"):
        out, D = move(D, change["id"], event, AGENT)
        assert not out["rejected"] and "error" not in out, out
    assert out["entity"]["status"] == "Applied"
    out, D = arest.apply(D, "update:Customer", {"id": "acme", "Loyalty Tier": "gold"})
    assert out["entity"]["Loyalty Tier"] == "gold"
    assert before is not D


def test_a_protected_domain_refuses_apply_without_a_human() -> None:
    out, D = arest.apply(shop(), "propose", {"target_domain": "core",
                                             "readings": "Widget(.id) is an entity type."},
                         AGENT)
    change = out["entity"]["id"]
    D = move(D, change, "review", AGENT)[1]
    D = move(D, change, "approve", AGENT)[1]
    out, D1 = move(D, change, "apply", AGENT)
    assert out["rejected"] and D1 is D
    assert [v["reading"] for v in out["violations"]] == [
        "Each Domain Change is guarded by Signal Source equal to 'Human'."]
    out, D2 = move(D, change, "apply", HUMAN)
    assert not out["rejected"]
    assert "Widget" in {n["name"] for n in arest.apply(D2, "schema")[0]["nouns"]}


def test_apply_is_rejected_as_a_whole_when_the_population_violates_the_readings() -> None:
    out, D = arest.apply(shop(), "propose", {
        "target_domain": "orders",
        "readings": "Loyalty Tier is a value type.\nCustomer has Loyalty Tier.\n"
                    "  Each Customer has exactly one Loyalty Tier."}, AGENT)
    change = out["entity"]["id"]
    D = move(D, change, "review", AGENT)[1]
    D = move(D, change, "approve", AGENT)[1]
    out, D1 = move(D, change, "apply", AGENT)
    assert out["rejected"] and D1 is D
    assert out["violations"][0]["kind"] == "MC"
    # The result shows the Domain Change as D′ holds it: still Approved, apply still legal.
    assert out["entity"]["status"] == "Approved"
    assert "apply" in out["entity"]["_links"]
    assert {"key": "transition:Domain Change", "input": {"id": change, "event": "apply"},
            "to": "Applied"} in out["next_actions"]


def test_propose_checks_its_readings_and_nouns_and_takes_the_source_from_the_context() -> None:
    out, _ = arest.apply(shop(), "propose", {"target_domain": "orders",
                                             "readings": "Each Customer has at most one."}, AGENT)
    assert out["error"]["code"] == "reading_error"
    out, _ = arest.apply(shop(), "propose", {"target_domain": "orders", "readings": LOYALTY,
                                             "nouns": ["Loyalty Level"]}, AGENT)
    assert out["error"]["code"] == "invalid_input" and out["error"]["path"] == "$.nouns"
    out, _ = arest.apply(shop(), "propose", {"target_domain": "orders", "readings": LOYALTY,
                                             "source": "Human"}, AGENT)
    assert out["error"]["code"] == "invalid_input" and out["error"]["path"] == "$.source"
    out, _ = arest.apply(shop(), "propose", {"target_domain": "orders", "readings": LOYALTY})
    assert out["entity"]["is proposed by Signal Source"] == "System"
