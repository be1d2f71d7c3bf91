"""Every entity of a noun with a machine has a status, however it came to be: created,
named by an asserted fact, given as another fact's role value, stated by an instance fact
in the readings, or brought by readings compiled at run time."""

from __future__ import annotations

from typing import Any

import arest

SHOP = """Customer(.id) is an entity type.
Order(.id) is an entity type.
Order was placed by Customer.
  Each Order was placed by at most one Customer.
Customer is preferred.
State Machine Definition 'Customer' is for Noun 'Customer'.
Status 'Prospect' is initial in State Machine Definition 'Customer'.
Status 'Active' is defined in State Machine Definition 'Customer'.
Transition 'activate' is defined in State Machine Definition 'Customer'.
Transition 'activate' is from Status 'Prospect'.
Transition 'activate' is to Status 'Active'.
"""


def status(D: Any, entity: str) -> Any:
    return arest.apply(D, "read:Customer", entity)[0].get("status")


def activated(D: Any, entity: str) -> dict[str, Any]:
    out, _ = arest.apply(D, "transition:Customer", {"id": entity, "event": "activate"})
    return out


def test_an_entity_named_by_an_asserted_fact_starts_in_the_initial_status() -> None:
    out, D = arest.apply(arest.compile(SHOP), "assert",
                         {"fact_type": "Customer_is_preferred", "bindings": ["acme"]})
    assert not out["rejected"] and status(D, "acme") == "Prospect"
    assert activated(D, "acme")["entity"]["status"] == "Active"


def test_an_entity_given_as_a_role_value_starts_in_the_initial_status() -> None:
    out, D = arest.apply(arest.compile(SHOP), "create:Order", {"id": "o1", "Customer": "acme"})
    assert not out["rejected"] and status(D, "acme") == "Prospect"
    assert activated(D, "acme")["entity"]["status"] == "Active"


def test_an_entity_of_an_instance_fact_in_the_readings_starts_in_the_initial_status() -> None:
    D = arest.compile(SHOP + "Customer 'acme' is preferred.\n")
    assert status(D, "acme") == "Prospect"
    assert activated(D, "acme")["entity"]["status"] == "Active"


def test_entities_from_readings_compiled_at_run_time_start_in_the_initial_status() -> None:
    plain = SHOP[: SHOP.index("State Machine")]
    D = arest.apply(arest.compile(plain), "create:Customer", {"id": "old"})[1]
    out, D = arest.apply(D, "compile", {
        "readings": SHOP[SHOP.index("State Machine"):] + "Customer 'new' is preferred.\n"})
    assert not out["rejected"]
    assert status(D, "old") == "Prospect" and status(D, "new") == "Prospect"
    assert activated(D, "old")["entity"]["status"] == "Active"


def test_entities_from_an_applied_domain_change_start_in_the_initial_status() -> None:
    plain = SHOP[: SHOP.index("State Machine")]
    D = arest.apply(arest.compile(plain), "create:Customer", {"id": "old"})[1]
    out, D = arest.apply(D, "propose", {
        "target_domain": "shop", "readings": SHOP[SHOP.index("State Machine"):]
        + "Customer 'new' is preferred.\n"}, {"source": "Agent"})
    change = out["entity"]["id"]
    for event in ("review", "approve", "apply"):
        out, D = arest.apply(D, "transition:Domain Change", {"id": change, "event": event},
                             {"source": "Agent"})
        assert not out["rejected"] and "error" not in out, out
    assert status(D, "old") == "Prospect" and status(D, "new") == "Prospect"
