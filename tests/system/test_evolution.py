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


def approved(readings: str, target: str = "orders") -> tuple[Any, str]:
    """A Domain Change an Agent proposed, reviewed and approved; D and its id."""
    out, D = arest.apply(shop(), "propose", {"target_domain": target, "readings": readings},
                         AGENT)
    change = out["entity"]["id"]
    for event in ("review", "approve"):
        out, D = move(D, change, event, AGENT)
        assert not out["rejected"], out
    return D, change


SMUGGLED = [
    "Effort is a value type.\nDomain Change has Effort.",
    "Domain 'orders' is protected.",
    "Domain 'core' has Visibility 'public'.",
    "Each Domain Change has at most one Rationale.\nEach Domain Change targets at most one"
    " Domain.\nEach Domain has at most one Visibility.\nEach Noun has at most one Plural.\n"
    "Noun has Nickname.\nNickname is a value type.",
    "The possible values of Signal Source Name are 'Agent', 'Human', 'System', 'Root'.",
    "State Machine Definition 'Signal' is for Noun 'Signal'.\n"
    "Status 'Sent' is initial in State Machine Definition 'Signal'.",
]


def test_readings_about_the_metamodel_need_a_human_whatever_the_target_domain() -> None:
    for readings in SMUGGLED:
        D, change = approved(readings)
        out, D1 = move(D, change, "apply", AGENT)
        assert out["rejected"] and D1 is D, (readings, out)
        assert out["violations"][0]["constraint_id"] == "evolution:protected-readings"
        assert out["entity"]["status"] == "Approved"
        out, _ = move(D, change, "apply", HUMAN)
        assert not out["rejected"] and "error" not in out, (readings, out)


def test_readings_about_the_tenant_alone_are_applied_by_an_agent() -> None:
    D, change = approved("Nickname is a value type.\nCustomer has Nickname.\n"
                         "  Each Customer has at most one Nickname.\n"
                         "Customer 'acme' has Nickname 'ac'.")
    out, _ = move(D, change, "apply", AGENT)
    assert not out["rejected"] and "error" not in out, out


def test_an_approved_change_s_readings_are_frozen() -> None:
    D, change = approved(LOYALTY)
    edit = {"id": change, "Proposed Readings": "Domain 'orders' is protected."}
    for source in (AGENT, HUMAN, None):
        out, D1 = arest.apply(D, "update:Domain Change", edit, source)
        assert out["error"]["code"] == "invalid_input" and D1 is D, out
        assert "frozen" in out["error"]["message"]
    # Nor can a fact-level edit get around it.
    fact = {"fact_type": "Domain_Change_has_Proposed_Readings",
            "bindings": [change, LOYALTY]}
    out, D1 = arest.apply(D, "retract", fact, AGENT)
    assert ("error" in out or out["rejected"]) and D1 is D
    # While still Proposed, the proposer may edit it.
    out, D = arest.apply(shop(), "propose", {"target_domain": "orders",
                                             "readings": LOYALTY}, AGENT)
    edit["id"] = out["entity"]["id"]
    edit["Proposed Readings"] = LOYALTY + "\nCustomer 'acme' has Loyalty Tier 'gold'."
    out, _ = arest.apply(D, "update:Domain Change", edit, AGENT)
    assert "error" not in out and not out["rejected"], out


def test_the_proposer_is_the_caller_never_an_input() -> None:
    forged = {"id": "dc-forged", "Domain": "orders", "Proposed Readings": LOYALTY,
              "is proposed by Signal Source": "Human"}
    out, D = arest.apply(shop(), "create:Domain Change", forged, AGENT)
    assert out["error"]["code"] == "invalid_input" and "proposer" in out["error"]["message"]
    out, _ = arest.apply(D, "create:Domain Change", {**forged, "is proposed by Signal Source":
                                                      "Agent"}, AGENT)
    assert "error" not in out and not out["rejected"], out
    D, change = approved(LOYALTY)
    applier = {"fact_type": "Domain_Change_is_applied_by_Signal_Source",
               "bindings": [change, "Human"]}
    out, _ = arest.apply(D, "assert", applier, AGENT)
    assert out["error"]["code"] == "invalid_input"


def test_only_a_human_changes_the_metamodel_s_population() -> None:
    D = shop()
    protection = {"fact_type": "Domain_is_protected", "bindings": ["core"]}
    for key, request in (("retract", protection),
                         ("assert", {"fact_type": "Domain_is_protected",
                                     "bindings": ["orders"]}),
                         ("create:Noun", {"id": "Zed", "Object Type": "entity"})):
        for source in (AGENT, None):
            out, D1 = arest.apply(D, key, request, source)
            assert out["error"]["code"] == "invalid_input" and D1 is D, (key, out)
            assert "metamodel" in out["error"]["message"]
    out, D1 = arest.apply(D, "create:Noun", {"id": "Zed", "Object Type": "entity"}, HUMAN)
    assert "error" not in out and not out["rejected"]


def test_compile_of_readings_about_the_metamodel_needs_a_human() -> None:
    readings = {"readings": "Domain 'orders' is protected."}
    out, _ = arest.apply(shop(), "compile", readings, AGENT)
    assert out["rejected"] and out["violations"][0]["constraint_id"] == (
        "evolution:protected-readings")
    out, _ = arest.apply(shop(), "compile", readings, HUMAN)
    assert not out["rejected"]
    out, _ = arest.apply(shop(), "compile", {"readings": LOYALTY}, AGENT)
    assert not out["rejected"]
