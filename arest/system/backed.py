"""Which nouns an external system backs, and which fact types are theirs (DESIGN §13).

    backed(D)           = { X | Noun 'X' is backed by External System 'S' }
    federated(D, f)     = f's first role is played by a backed noun

A backed noun's *own* facts (the fact types it plays first) come from its system; the facts
where it plays a later role (``Order was placed by Customer``) are local.  Constraints over
federated fact types are open-world: the local D holds only what this system was told, so a
fact missing here may well hold there (:mod:`arest.system.validate` reports, never rejects).

>>> import arest
>>> D = arest.compile("Customer(.Customer Id) is an entity type.\\nCustomer has Name.\\n"
...                   "Order(.Order Id) is an entity type.\\nOrder was placed by Customer.\\n"
...                   "Noun 'Customer' is backed by External System 'crm'.")
>>> backed(D), federated(D, "Customer_has_Name"), federated(D, "Order_was_placed_by_Customer")
(['Customer'], True, False)
"""

from __future__ import annotations

from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.population import role_nouns

BACKED_BY = "Noun_is_backed_by_External_System"


def backed(state: State) -> list[str]:
    """The nouns an external system backs, by name."""
    relation = state.get(BACKED_BY)
    return sorted({fact[0] for fact in relation}) if isinstance(relation, Relation) else []


def federated(state: State, fact_type: str) -> bool:
    """Whether a backed noun plays the fact type's first role (its facts are that noun's
    own, and come from its system)."""
    relation = state.get(BACKED_BY)
    if not isinstance(relation, Relation) or not len(relation):
        return False
    roles = role_nouns(state, fact_type)
    return bool(roles) and next(relation.matching(0, roles[0]), None) is not None
