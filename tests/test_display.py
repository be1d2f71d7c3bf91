"""arest.display: what a notebook shows of D, an entity, an explanation, a machine and rows —
the command outputs it holds, as HTML with every text escaped."""

from __future__ import annotations

from pathlib import Path

import pytest

import arest
from arest import display
from arest.algebra import State

ORDERS = Path(__file__).parent.parent / "readings" / "orders"
AWKWARD = """Customer(.Name) is an entity type.
Customer is active.
Customer has Note.
Note is a value type.
Customer '<script>&' is active.
Customer '<script>&' has Note 'a "b" <i>'.
"""


@pytest.fixture(scope="module")
def shop() -> State:
    D = arest.load(ORDERS)
    _, D = arest.apply(D, "create:Customer", {"id": "ann@example.com", "Name": "Ann"})
    _, D = arest.apply(D, "create:Order", {"id": "o-1", "Customer": "ann@example.com"})
    return D


def test_every_text_is_escaped() -> None:
    D = arest.compile(AWKWARD)
    html = display.entity(D, "Customer", "<script>&")._repr_html_()
    assert "<script>" not in html and "<i>" not in html
    assert "&lt;script&gt;&amp;" in html and "a &quot;b&quot; &lt;i&gt;" in html
    assert "<script>" not in display.state(D)._repr_html_()
    assert "<i>" not in display.rows(D, "Customer_has_Note")._repr_html_()


def test_the_state_counts_entities_and_facts(shop: State) -> None:
    view = display.state(shop)
    assert view.entities["Customer"] == 1 and view.entities["Order"] == 1
    assert view.entities["Product"] == 2
    assert view.facts["Order_was_placed_by_Customer"] == 1
    html = view._repr_html_()
    assert "Each Order was placed by exactly one Customer." in html
    assert "Customer_has_Unpaid_Order_Count" in html


def test_an_entity_shows_its_fields_and_links(shop: State) -> None:
    view = display.entity(shop, "Order", "o-1")
    assert view.data["status"] == "Placed"
    html = view._repr_html_()
    assert "/orders/o-1/transition" in html and "/customers/ann%40example.com" in html
    assert "<td>pay</td>" in html


def test_an_unknown_entity_shows_the_refusal(shop: State) -> None:
    html = display.entity(shop, "Order", "nope")._repr_html_()
    assert "unknown_entity" in html


def test_an_explanation_nests_its_antecedents(shop: State) -> None:
    view = display.explanation(shop, "Customer_has_Unpaid_Order_Count",
                               ["ann@example.com", "1"])
    html = view._repr_html_()
    assert html.index("Unpaid Order Count &#x27;1&#x27;") < html.index("<ul><li>Order &#x27;o-1")
    assert "asserted" in html and "the count of Order" in html


def test_a_machine_lists_its_transitions(shop: State) -> None:
    view = display.machine(shop, "Order")
    assert view.data["initial"] == ["Placed"]
    html = view._repr_html_()
    assert "<td>pay</td><td>pay</td><td>Placed</td><td>Paid</td>" in html


def test_a_noun_without_a_machine_names_those_with_one(shop: State) -> None:
    with pytest.raises(ValueError, match=r"'Customer' has no state machine.*Order"):
        display.machine(shop, "Customer")


def test_a_machine_and_an_explanation_show_their_pictures(shop: State) -> None:
    machine = display.machine(shop, "Order", "o-1")._repr_html_()
    explained = display.explanation(shop, "Customer_has_Unpaid_Order_Count",
                                    ["ann@example.com", "1"])._repr_html_()
    assert machine.startswith("<svg") and "current\"" in machine
    assert "Placed (current)" in machine
    assert explained.startswith("<svg") and "Unpaid Order Count" in explained
