"""The create benchmark's stores agree on what they hold: the hand-written create over
persistent maps keeps each old store as it was, refuses what the dict store refuses, and
arest's bulk-loaded population passes the whole-population check."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

FOLDER = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    """The benchmark folder is not a package: load the module from its file (its sibling
    ``harness`` on the path, as when the script runs)."""
    sys.path.insert(0, str(FOLDER))
    try:
        spec = importlib.util.spec_from_file_location(name, FOLDER / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(FOLDER))


bench = _load("bench_create")
people = bench.population(300, seed=1)


def test_the_persistent_store_holds_what_the_dict_store_holds() -> None:
    persistent = bench._persistent_load(bench._persistent_empty(), people)
    by_hand = bench._dict_load(bench._dict_empty(), people)
    assert dict(persistent.customer_name) == by_hand.customer_name
    assert dict(persistent.line_item) == by_hand.line_item
    assert {c: list(o) for c, o in persistent.orders_of_customer.items()} == \
        by_hand.orders_of_customer


def test_a_persistent_create_keeps_the_store_it_started_from() -> None:
    loaded = bench._persistent_load(bench._persistent_empty(), people)
    customer = bench.Command("customer", "new@example.com", name="New")
    order = bench.Command("order", "new-order", customer=people.customers[0],
                          lines=bench.ORDER_LINES)
    after = bench._persistent_step(bench._persistent_step(loaded, customer), order)
    assert "new@example.com" in after.customer_name
    assert "new@example.com" not in loaded.customer_name
    assert len(after.line_item) == len(loaded.line_item) + 2
    assert after.lines_of_order["new-order"] == ("line-item-1", "line-item-2")
    assert "new-order" not in loaded.order_customer


def test_the_persistent_store_refuses_what_the_dict_store_refuses() -> None:
    loaded = bench._persistent_load(bench._persistent_empty(), people)
    existing = bench.Command("customer", people.customers[0], name="Again")
    unknown = bench.Command("order", "o-x", customer="nobody@example.com",
                            lines=bench.ORDER_LINES)
    for command in (existing, unknown):
        with pytest.raises(bench.Rejected):
            bench._persistent_step(loaded, command)
        with pytest.raises(bench.Rejected):
            bench._dict_step(bench._dict_load(bench._dict_empty(), people), command)


def test_the_bulk_loaded_population_passes_the_whole_check() -> None:
    state = bench._arest_load(bench._arest_empty(), people)
    bench._arest_full_check(state)
    broken = bench.Population(
        [("Order_was_placed_by_Customer", ("order-0", "someone-else@example.com"))], [])
    with pytest.raises(bench.Rejected):
        bench._arest_full_check(bench._arest_load(state, broken))


def test_the_hand_create_with_output_gives_arest_s_output() -> None:
    checked = bench.same_output(300, bench.asdict(bench.Plan(block=10)))
    assert checked == {"equal": len(bench.SAME_OUTPUT_SAMPLE) + 10,
                       "refused": len(bench.REFUSED_SAMPLE)}


def test_the_hand_create_with_output_differs_when_its_links_do() -> None:
    original = bench.CUSTOMER_LINK_PATHS
    bench.CUSTOMER_LINK_PATHS = original[:-1]
    try:
        with pytest.raises(bench.Rejected, match="differs from arest's"):
            bench.same_output(300, bench.asdict(bench.Plan(block=10)))
    finally:
        bench.CUSTOMER_LINK_PATHS = original


def test_the_hand_create_with_output_keeps_the_store_it_started_from() -> None:
    loaded = bench._represented_load(bench._represented_empty(), people)
    after, out = loaded.create_customer_output(
        {"id": "new@example.com", "Name": "New", "is a reseller": True})
    assert out["entity"]["_links"]["self"] == {"href": "/customers/new%40example.com"}
    assert "new@example.com" in after.customer_name and "new@example.com" in after.resellers
    assert "new@example.com" not in loaded.customer_name


def test_the_parts_of_a_create_are_each_timed() -> None:
    found = bench.parts(300, 4, bench.asdict(bench.Plan(warmup=0)))
    assert sorted(found) == sorted(bench.KINDS)
    for kind in bench.KINDS:
        assert list(found[kind])[:len(bench.PARTS)] == list(bench.PARTS)
        compiled = list(found[kind])[len(bench.PARTS):]
        assert compiled[:2] == ["compiled resolve", "compiled validate"]
        assert set(compiled) <= set(bench.COMPILED_PARTS)
        assert all(took > 0 for took in found[kind].values())
        assert found[kind]["apply"] > found[kind]["parse"]
