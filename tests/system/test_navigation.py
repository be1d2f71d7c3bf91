"""navigate:<Noun> over links whose fact type holds no fact yet."""

from __future__ import annotations

import arest

READINGS = """Order(.id) is an entity type.
Customer(.id) is an entity type.
Priority is a value type.
Order was placed by Customer.
Order has Priority.
  Each Order has at most one Priority.
"""


def test_a_related_link_whose_fact_type_was_never_asserted_has_no_rows() -> None:
    D = arest.compile(READINGS)
    _, D = arest.apply(D, "create:Order", {"id": "o1", "Customer": "acme"})
    out, _ = arest.apply(D, "navigate:Order", {"id": "o1", "link": "Order_has_Priority"})
    assert out == {"rows": [], "total": 0}
    out, _ = arest.apply(D, "navigate:Order", {"id": "o1", "link": "Order_was_placed_by_Customer"})
    assert out["rows"] == [{"Order": "o1", "Customer": "acme", "derived": False}]
