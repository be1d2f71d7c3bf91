"""The MCP resources (DESIGN §6): what a tenant holds, described for a client, whatever its
tags.  Each resource is a JSON document read from a tenant's current D.

- ``arest://facts``: the most recently asserted facts, newest first, with their fact type,
  role bindings and the time of the command that asserted them;
- ``arest://stats``: counts of nouns, fact types, facts, constraints, rules, machines and
  snapshots, the database's size on disk, and the ``sequence`` and ``digest`` of D (its
  :attr:`~arest.runtime.Tenant.version`: servers of one tenant at one sequence hold one D
  when their digests agree);
- ``arest://compliance``: every constraint checked against the whole population;
- ``arest://schema``: the schema, as the ``schema`` verb gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from arest.algebra.relations import Relation
from arest.compiler.cells import constraint_ids
from arest.runtime import Tenant
from arest.system.inputs import role_names
from arest.system.validate import all_violations

RECENT_FACTS: Final = 100


@dataclass(frozen=True)
class Resource:
    uri: str
    name: str
    description: str
    document: Callable[[Tenant, str], dict[str, Any]]
    """The resource's JSON document for a tenant at a time (ISO-8601)."""


def _facts(tenant: Tenant, now: str) -> dict[str, Any]:
    from arest.compiler.schema import schema_of  # read when a client asks, not at start-up

    schema = schema_of(tenant.state)
    facts = []
    for fact in tenant.recent_facts(RECENT_FACTS):
        known = schema.fact_types.get(fact["fact_type"])
        names = role_names(known.roles) if known is not None else []
        bindings = (dict(zip(names, fact["values"], strict=True))
                    if len(names) == len(fact["values"]) else list(fact["values"]))
        facts.append({"fact_type": fact["fact_type"], "bindings": bindings,
                      "time": fact["time"]})
    return {"facts": facts}


def _stats(tenant: Tenant, now: str) -> dict[str, Any]:
    from arest.compiler.schema import schema_of

    sequence, digest = tenant.version
    state = tenant.state
    schema = schema_of(state)
    population = sum(len(cell) for fact_type in schema.fact_types
                     if isinstance(cell := state.get(fact_type), Relation))
    snapshots = tenant.call("snapshots", {})
    return {"nouns": len(schema.nouns), "fact_types": len(schema.fact_types),
            "facts": population, "constraints": len(schema.constraints),
            "rules": len(schema.rules), "machines": len(schema.machines),
            "snapshots": len(snapshots["snapshots"]),
            "disk_space_bytes": tenant.disk_space_bytes(),
            "sequence": sequence, "digest": digest}


def _compliance(tenant: Tenant, now: str) -> dict[str, Any]:
    state = tenant.state
    found = all_violations(state)
    checked = len(constraint_ids(state))
    return {"checked_at": now, "constraints_checked": checked,
            "compliant": not any(v["modality"] == "alethic" for v in found),
            "violations": found}


def _schema(tenant: Tenant, now: str) -> dict[str, Any]:
    return tenant.call("schema", {})


RESOURCES: Final[Mapping[str, Resource]] = {
    resource.uri: resource for resource in (
        Resource("arest://facts", "facts",
                 f"The {RECENT_FACTS} most recently asserted facts, newest first, with their "
                 "fact type, role bindings and time.", _facts),
        Resource("arest://stats", "stats",
                 "Counts: nouns, fact types, facts, constraints, rules, machines, snapshots, "
                 "the database's size on disk in bytes; and the sequence number and digest "
                 "of the tenant's D.", _stats),
        Resource("arest://compliance", "compliance",
                 "Every constraint checked against the whole population: the violations, "
                 "and when it was checked.", _compliance),
        Resource("arest://schema", "schema",
                 "The schema: nouns, fact types, constraints, rules and state machines.",
                 _schema),
    )
}
"""Every resource by URI."""
