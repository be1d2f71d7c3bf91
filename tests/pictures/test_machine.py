"""A state machine's picture: every status and event shown, the initial status marked, the
terminal ones framed twice, the current one highlighted, guards on the transitions into a
status, hostile names escaped, the same machine the same bytes (a golden file for the shop's
Order machine)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import arest
from arest.compiler.machines import Machine, Transition, transition_function
from arest.compiler.schema import schema_of
from arest.pictures import guards, machine_svg
from arest.system.machines import machine_of
from tests.corpus import OWN_READINGS
from tests.pictures.geometry import crossings
from tests.pictures.svgs import SVG, ids, of_class, parsed, texts, title

GOLDEN = Path(__file__).parent / "golden"
GUARDED = """Order has Tracking Number.
If some Order has Status 'Shipped' then that Order has some Tracking Number.
"""


def order_machine() -> Machine:
    machine = machine_of(arest.load(OWN_READINGS / "orders"), "Order")
    assert machine is not None
    return machine


def machine(initial: str, *steps: tuple[str, str, str], terminal: tuple[str, ...] = ()
            ) -> Machine:
    transitions = tuple(Transition(event, event, source, target)
                        for source, event, target in steps)
    return Machine("Thing", initial, terminal, transitions, transition_function(transitions))


def test_every_status_and_event_is_shown_and_the_current_status_highlighted() -> None:
    order = order_machine()
    root = parsed(machine_svg(order, current="Paid"))
    statuses = {title(g).removesuffix(" (current)") for g in of_class(root, "status")}
    assert statuses == {"Placed", "Paid", "Shipped", "Delivered", "Cancelled"}
    labels = [texts(g)[0] for g in of_class(root, "label")]
    assert sorted(labels) == sorted(t.event for t in order.transitions)
    [current] = of_class(root, "current")
    assert title(current) == "Paid (current)" and current.get("aria-current") == "true"
    assert [title(g) for g in of_class(root, "initial-status")] == ["Placed"]
    assert {title(g) for g in of_class(root, "terminal")} == {"Delivered", "Cancelled"}
    assert len(list(root.iter(SVG + "circle"))) == 1  # the initial dot


def test_without_a_current_status_nothing_is_highlighted() -> None:
    root = parsed(machine_svg(order_machine()))
    assert of_class(root, "current") == [] and "(current)" not in "".join(
        title(g) for g in of_class(root, "status"))


def test_a_status_the_machine_lacks_highlights_nothing() -> None:
    assert of_class(parsed(machine_svg(order_machine(), current="Lost")), "current") == []


def test_an_arrow_enters_each_status_once_per_transition_into_it_and_the_initial() -> None:
    order = order_machine()
    root = parsed(machine_svg(order))
    arrows = [p for p in root.iter(SVG + "path") if p.get("marker-end") == "url(#arrow)"]
    assert len(arrows) == len(order.transitions) + 1


def test_the_guards_on_a_status_label_the_transitions_into_it() -> None:
    D = arest.compile(GUARDED, arest.load(OWN_READINGS / "orders"))
    found = guards(schema_of(D), "Order")
    reading = "If some Order has Status 'Shipped' then that Order has some Tracking Number."
    assert found == {"Shipped": (reading,)}
    root = parsed(machine_svg(order_machine(), guarded=found))
    [ship] = [g for g in of_class(root, "label") if texts(g)[0] == "ship"]
    assert texts(ship)[1].startswith("[If some Order has Status 'Shipped'")
    assert title(ship).endswith("guard: " + reading)
    others = [g for g in of_class(root, "label") if texts(g)[0] != "ship"]
    assert all(len(texts(g)) == 1 for g in others)


def test_the_same_machine_gives_the_same_bytes_and_the_golden_file() -> None:
    drawn = machine_svg(order_machine(), current="Placed")
    assert machine_svg(order_machine(), current="Placed") == drawn
    path = GOLDEN / "orders-machine.svg"
    if os.environ.get("AREST_REGENERATE_GOLDEN") == "1":
        path.write_text(drawn, "utf-8")
    assert path.read_text("utf-8") == drawn


def test_a_status_keeps_its_id_when_the_machine_grows() -> None:
    small = parsed(machine_svg(machine("A", ("A", "go", "B"))))
    grown = parsed(machine_svg(machine("A", ("A", "go", "B"), ("B", "on", "C"))))
    assert {i for i in ids(small) if i.startswith("status-")} < set(ids(grown))


HOSTILE = ["<b>", "a & b", "\"quoted\"", "it's", "]]>", "x\x01y", "--", "&amp;"]


def test_hostile_names_are_escaped_and_read_back() -> None:
    drawn = machine_svg(machine("<b>", ("<b>", "a & b", "\"quoted\""),
                                ("\"quoted\"", "it's", "]]>")), current="\"quoted\"")
    root = parsed(drawn)
    statuses = {title(g).removesuffix(" (current)") for g in of_class(root, "status")}
    assert statuses == {"<b>", "\"quoted\"", "]]>"}
    assert [title(g) for g in of_class(root, "current")] == ["\"quoted\" (current)"]
    assert sorted(texts(g)[0] for g in of_class(root, "label")) == ["a & b", "it's"]
    assert "&lt;b&gt;" in drawn and "<b>" not in drawn and "\x01" not in drawn


names = st.text(st.sampled_from([*"ab <>&\"'", "\x01", "é"]), min_size=1, max_size=6)


@given(st.lists(names, min_size=1, max_size=5, unique=True), st.data())
def test_any_machine_draws_as_svg_naming_every_status_with_unique_ids(
        statuses: list[str], data: st.DataObject) -> None:
    # A compiled machine has one transition per name and source.
    steps = data.draw(st.lists(st.tuples(st.sampled_from(statuses), names,
                                         st.sampled_from(statuses)), max_size=7,
                               unique_by=lambda step: (step[0], step[1])))
    drawn = machine_svg(machine(statuses[0], *steps), current=statuses[-1])
    root = parsed(drawn)
    named = {statuses[0], *(a for a, _, _ in steps), *(b for _, _, b in steps)}
    shown = [title(g).removesuffix(" (current)") for g in of_class(root, "status")]
    assert sorted(shown) == sorted(status.replace("\x01", "\ufffd") for status in named)
    assert len(of_class(root, "current")) == (1 if statuses[-1] in named else 0)
    every = ids(root)
    assert len(every) == len(set(every))
    assert machine_svg(machine(statuses[0], *steps), current=statuses[-1]) == drawn


def slanted_lines(d: str) -> list[str]:
    """The straight segments of a path that are not vertical (a curve is a ``C``)."""
    x, found = "", []
    for command, numbers in re.findall(r"([MLC])([^MLC]+)", d):
        end = numbers.split()[-1].split(",")[0]
        if command == "L" and end != x:
            found.append(command + numbers)
        x = end
    return found


@given(st.lists(st.sampled_from("ABCDEF"), min_size=1, max_size=6, unique=True), st.data())
def test_no_arrow_passes_through_a_status_or_a_label(statuses: list[str],
                                                    data: st.DataObject) -> None:
    steps = data.draw(st.lists(st.tuples(st.sampled_from(statuses),
                                         st.sampled_from(["go", "stop", "a much longer event"]),
                                         st.sampled_from(statuses)), max_size=9,
                               unique_by=lambda step: (step[0], step[1])))
    root = parsed(machine_svg(machine(statuses[0], *steps)))
    assert crossings(root, "status", "label") == []


def test_a_loop_and_a_way_back_are_curves_that_miss_every_box() -> None:
    drawn = machine_svg(machine("A", ("A", "go", "B"), ("B", "back", "A"), ("B", "stay", "B"),
                                ("B", "on", "C"), ("C", "restart", "A")))
    root = parsed(drawn)
    assert crossings(root, "status", "label") == []
    edges = [p.get("d", "") for p in root.iter(SVG + "path") if p.get("class") == "edge"]
    assert edges and not any(slanted_lines(d) for d in edges)
    assert sum("C" in d for d in edges) >= 6  # the loop's two halves, the ways back
    assert crossings(parsed(machine_svg(order_machine())), "status", "label") == []
