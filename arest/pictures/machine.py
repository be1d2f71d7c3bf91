"""A state machine as SVG: statuses as rounded boxes, each transition an arrow labelled with
its event (and the guards on the status it enters), the initial status marked by a dot and
an arrow, terminal statuses with a double border, and the current status of an entity
highlighted.

Each transition's label is a box of the layout in its own right, the arrow passing through
it (as dot places edge labels), so labels never overlap boxes or one another.

A *guard* of a transition is a constraint on the status it enters: one over
``<Noun> has Status`` restricted to that status (``If some Order has Status 'Shipped' then
that Order has some Tracking Number.``, docs/machines.md), alethic (it rejects the
transition) or deontic (it is reported).  :func:`guards` finds them in the compiled schema.

>>> from arest.compiler.machines import Machine, Transition
>>> m = Machine("Task", "Open", ("Done",), (Transition("finish", "finish", "Open", "Done"),), ())
>>> svg = machine_svg(m, current="Open")
>>> 'class="status initial-status current"' in svg, ">finish<" in svg
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from arest.compiler.fields import status_fact_type
from arest.compiler.machines import Machine, Transition
from arest.compiler.schema import Schema
from arest.pictures.layout import Box, Placed, layered
from arest.pictures.svg import (
    SIZE,
    SMALL,
    curve_path,
    document,
    element,
    escape,
    height_of,
    identifier,
    shortened,
    text_lines,
    width_of,
)

GUARD_COLUMNS: Final = 44
"""The most characters of a guard's reading a label shows (the whole reading is its
tooltip)."""
INITIAL: Final = "\x00initial"
"""The id of the initial dot's box (no status can be named so: XML cannot hold it)."""

STYLE: Final = (
    ".status rect{fill:#f7fafc;stroke:#4a5568;stroke-width:1.2}"
    ".status.terminal rect.inner{fill:none}"
    ".status.current rect{fill:#fef3c7;stroke:#b45309;stroke-width:2.5}"
    ".status.current text{font-weight:bold}"
    ".label rect{fill:#ffffff;stroke:none}"
    ".guard{fill:#6b46c1}"
    ".initial{fill:#1a202c}"
)


def guards(schema: Schema, noun: str) -> dict[str, tuple[str, ...]]:
    """Status → the readings of the constraints on entering it: those over the noun's
    ``<Noun> has Status`` restricted to that status, by id."""
    fact_type = status_fact_type(noun)
    found: dict[str, list[str]] = {}
    for constraint in sorted(schema.constraints.values(), key=lambda c: c.id):
        for restricted, role, value, _ in constraint.restrictions:
            if restricted == fact_type and role == 1:
                found.setdefault(value, []).append(constraint.reading)
    return {status: tuple(dict.fromkeys(readings)) for status, readings in found.items()}


def statuses(machine: Machine) -> list[str]:
    """Every status of the machine: s₀ first, then in the order the transitions name them,
    then the terminal ones no transition names."""
    named = [machine.initial]
    for t in sorted(machine.transitions, key=lambda t: (t.source, t.event, t.name)):
        named += [t.source, t.target]
    return list(dict.fromkeys([*named, *machine.terminal]))


def _label_lines(transition: Transition, entered: Sequence[str]) -> list[tuple[str, float]]:
    lines = [(transition.event, SIZE)]
    if transition.name != transition.event:
        lines.append((f"({transition.name})", SMALL))
    lines += [(f"[{shortened(reading, GUARD_COLUMNS)}]", SMALL) for reading in entered]
    return lines


def _status_lines(status: str) -> list[tuple[str, float]]:
    return [(status, SIZE)]


def machine_svg(machine: Machine, current: str | None = None,
                guarded: Mapping[str, Sequence[str]] | None = None) -> str:
    """The machine as an SVG document; ``current``, a status of it, highlighted; ``guarded``
    (status → guard readings, as :func:`guards` gives) labels each transition into a
    status with its guards."""
    named = statuses(machine)
    rules = guarded or {}
    transitions = sorted(machine.transitions, key=lambda t: (t.source, t.event, t.name))
    boxes = [Box(INITIAL, 12.0, 12.0)]
    for status in named:
        lines = _status_lines(status)
        boxes.append(Box(status, max(width_of(status) + 28, 64.0), height_of(lines) + 16))
    edges: list[tuple[str, str]] = [(INITIAL, machine.initial)]
    labels: dict[str, list[tuple[str, float]]] = {}
    for index, t in enumerate(transitions):
        label = f"\x00t{index}"
        lines = _label_lines(t, rules.get(t.target, ()))
        labels[label] = lines
        boxes.append(Box(label, max(width_of(text, size) for text, size in lines) + 8,
                         height_of(lines) + 4))
        edges += [(t.source, label), (label, t.target)]
    layout = layered(boxes, edges, rank_gap=28.0)
    body: list[str] = []
    for index, points in enumerate(layout.edges):
        if not points:
            continue
        into_status = index % 2 == 0  # the initial arrow, then label → status
        pairs: list[tuple[str, str | float]] = [("class", "edge"), ("d", curve_path(points))]
        if into_status:
            pairs.append(("marker-end", "url(#arrow)"))
        body.append(element("path", *pairs))
    dot = layout.boxes[INITIAL]
    body.append(element("circle", ("class", "initial"), ("cx", dot.centre[0]),
                        ("cy", dot.centre[1]), ("r", 6.0)))
    for status in named:
        body.append(_status(status, layout.boxes[status], status in machine.terminal,
                            status == machine.initial, status == current))
    for index, t in enumerate(transitions):
        label = f"\x00t{index}"
        body.append(_label(t, labels[label], layout.boxes[label], rules.get(t.target, ())))
    title = f"State machine of {machine.noun}" + (f", in {current}" if current else "")
    return document(layout.width, layout.height, title, body, STYLE)


def _status(status: str, box: Placed, terminal: bool, initial: bool, current: bool) -> str:
    kinds = ["status", *(["initial-status"] if initial else []),
             *(["terminal"] if terminal else []), *(["current"] if current else [])]
    parts = [element("title", body=escape(status + (" (current)" if current else ""))),
             element("rect", ("x", box.x), ("y", box.y), ("width", box.width),
                     ("height", box.height), ("rx", 10.0))]
    if terminal:
        parts.append(element("rect", ("class", "inner"), ("x", box.x + 3), ("y", box.y + 3),
                             ("width", box.width - 6), ("height", box.height - 6),
                             ("rx", 7.0)))
    parts.append(text_lines(_status_lines(status), box.centre[0], box.y + 8))
    pairs: list[tuple[str, str | float]] = [("id", identifier("status", status)),
                                            ("class", " ".join(kinds))]
    if current:
        pairs.append(("aria-current", "true"))
    return element("g", *pairs, body="".join(parts))


def _label(transition: Transition, lines: list[tuple[str, float]], box: Placed,
           entered: Sequence[str]) -> str:
    tip = f"{transition.name}: {transition.source} → {transition.target} on {transition.event}"
    tip += "".join(f"\nguard: {reading}" for reading in entered)
    texts = text_lines(lines[:1], box.centre[0], box.y + 2)
    below = box.y + 2 + height_of(lines[:1])
    for line in lines[1:]:
        css = "guard" if line[0].startswith("[") else "muted"
        texts += text_lines([line], box.centre[0], below, css=css)
        below += height_of([line])
    key = f"{transition.name}\x00{transition.source}\x00{transition.event}"
    return element("g", ("id", identifier("transition", key)), ("class", "label"), body="".join(
        [element("title", body=escape(tip)),
         element("rect", ("x", box.x), ("y", box.y), ("width", box.width),
                 ("height", box.height), ("rx", 4.0)), texts]))
