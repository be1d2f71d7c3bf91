"""Following an entity's navigation link (Theorem 4, DESIGN §9): what the href
``/<plural>/<id>/<key>`` of a ``children``, ``peers`` or ``related`` link names.

For the link ℓ of noun n keyed ``key`` (the cell ``links:<n>``, :mod:`arest.compiler.links`),
through fact type f from n's role r to the other role r′ of noun m:

    children, peers:  items = [represent(m, y) | ⟨…⟩ ∈ f, fact[r] = id, y = fact[r′]]
                      ordered by id, those after ``after``, at most ``limit``
    related:          rows  = the facts of f with fact[r] = id, as ``query`` shows them

so ``navigate:Order {"id": "o-1", "link": "line-items"}`` lists the line items of o-1, and
``{"link": "Order_was_placed_by_Customer"}`` the facts of that fact type about it.  A parent
link is an entity's own url, so it is read, never navigated.
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.links import PARENT, RELATED, Link
from arest.compiler.population import exists, relation_in
from arest.system.entities import fields, page, represent
from arest.system.errors import Refusal, invalid_input
from arest.system.fact_verbs import rows
from arest.system.inputs import atom
from arest.system.links import followed


def _request(request: Any) -> tuple[str, str, int | None, str | None]:
    """id, link, limit and after of a navigate request."""
    allowed = {"id", "link", "limit", "after"}
    if not isinstance(request, dict) or not {"id", "link"} <= set(request) \
            or not set(request) <= allowed:
        raise invalid_input("$", "an object with id, link, and limit?, after?")
    limit = request.get("limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 0):
        raise invalid_input("$.limit", "a whole number ≥ 0")
    after = request.get("after")
    return (atom(request["id"], "$.id"), atom(request["link"], "$.link"), limit,
            None if after is None else atom(after, "$.after"))


def _link(state: State, noun: str, key: str) -> Link:
    """The noun's link keyed ``key`` (not a parent); ``unknown_link`` naming the keys."""
    links = {link.key: link for link in followed(state, noun) if link.rel != PARENT}
    if key not in links:
        raise Refusal("unknown_link", f"{noun} has no collection link {key!r}", noun=noun,
                      link=key, candidates=sorted(links))
    return links[key]


def navigate(state: State, noun: str, request: Any) -> dict[str, Any]:
    """``navigate:<Noun>``: the collection (children, peers) or the facts (related) a link
    of the entity names; ``unknown_entity`` for an entity the noun does not have.

    >>> import arest
    >>> D = arest.compile(ORDERS)  # Order was placed by at most one Customer (conftest.py)
    >>> _, D = arest.apply(D, "create:Order", {"id": "o1", "Customer": "acme"})
    >>> _, D = arest.apply(D, "create:Order", {"id": "o2", "Customer": "acme"})
    >>> out = navigate(D, "Customer", {"id": "acme", "link": "orders", "limit": 1})
    >>> [item["id"] for item in out["items"]], out["total"]
    (['o1'], 2)
    >>> navigate(D, "Customer", {"id": "acme", "link": "orders", "after": "o1"})["items"][0]["id"]
    'o2'
    >>> navigate(D, "Order", {"id": "o2", "link": "Order_was_placed_by_Customer"})["rows"]
    [{'Order': 'o2', 'Customer': 'acme', 'derived': False}]
    >>> _, alone = arest.apply(arest.compile(ORDERS), "create:Customer", {"id": "bo"})
    >>> navigate(alone, "Customer", {"id": "bo", "link": "Order_was_placed_by_Customer"})
    {'rows': [], 'total': 0}
    """
    fields(state, noun)  # an unknown noun is an error before anything else
    entity, key, limit, after = _request(request)
    if not exists(state, noun, entity):
        raise Refusal("unknown_entity", f"no {noun} {entity!r}", noun=noun, id=entity)
    link = _link(state, noun, key)
    relation = relation_in(state, link.fact_type)
    facts = sorted(relation.matching(link.role, entity)) if isinstance(relation, Relation) \
        else []
    if link.rel == RELATED:
        # A fact type no fact was ever asserted into has no relation cell: no rows.
        return {"rows": rows(state, link.fact_type, facts) if facts else [],
                "total": len(facts)}
    others = sorted({fact[link.other] for fact in facts})
    shown, total = page(others, after, limit)
    return {"items": [represent(state, link.noun, other) for other in shown], "total": total}
