"""An explanation (the ``explain`` verb's tree, DESIGN §4) as SVG: the fact explained at the
top, each derived fact's box naming its rule, an arrow from each fact down to each fact it
rests on, asserted facts (the leaves) shaded.

A fact met twice in the tree (two antecedents resting on one fact) is one box with two
arrows into it, so the picture is the support graph, never larger than the facts in it.
A node the tree cut (``"truncated": true``) says so; ``explain`` that fact to go on.

>>> tree = {"fact_type": "A_is_ready", "bindings": {"A": "a1"}, "reading": "A 'a1' is ready.",
...         "derived": True, "rule": {"id": "r-1", "reading": "A is ready iff A is set."},
...         "antecedents": [{"fact_type": "A_is_set", "bindings": {"A": "a1"},
...                          "reading": "A 'a1' is set.", "derived": False,
...                          "antecedents": []}]}
>>> svg = explanation_svg(tree)
>>> svg.count('class="fact derived root"'), svg.count('class="fact asserted"')
(1, 1)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

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
    wrapped,
)

COLUMNS: Final = 48
"""The most characters on a line of a fact's reading."""
RULE_COLUMNS: Final = 56
"""The most characters of a rule's reading a box shows (the whole reading is its tooltip)."""

STYLE: Final = (
    ".fact rect{stroke:#4a5568;stroke-width:1.2}"
    ".fact.derived rect{fill:#ffffff}"
    ".fact.asserted rect{fill:#e2e8f0}"
    ".fact.root rect{stroke:#2b6cb0;stroke-width:2.5}"
    ".rule{fill:#6b46c1}"
    ".cut{fill:#c53030}"
)

Node = Mapping[str, Any]


def _key(node: Node) -> str:
    """A fact's identity in the tree: its fact type and bindings (a fetch, the leaf under a
    fact fetched from an external system, is one by its source)."""
    key = [node.get("fact_type"), node.get("bindings")]
    if "source" in node:
        key.append(node["source"])
    return json.dumps(key, sort_keys=True, ensure_ascii=False)


def _facts(tree: Node) -> tuple[dict[str, Node], list[tuple[str, str]]]:
    """Each fact of the tree once, breadth first, and each (fact, antecedent) pair once."""
    nodes: dict[str, Node] = {}
    edges: dict[tuple[str, str], None] = {}
    pending = [tree]
    while pending:
        following: list[Node] = []
        for node in pending:
            key = _key(node)
            if key in nodes:
                continue
            nodes[key] = node
            for antecedent in node.get("antecedents", ()):
                edges[(key, _key(antecedent))] = None
                following.append(antecedent)
        pending = following
    return nodes, list(edges)


def _lines(node: Node) -> list[tuple[str, float]]:
    lines = [(line, SIZE) for line in wrapped(str(node.get("reading", "")), COLUMNS)]
    rule = node.get("rule")
    if isinstance(rule, Mapping):
        lines.append((shortened(f"by {rule.get('reading', rule.get('id', ''))}", RULE_COLUMNS),
                      SMALL))
    elif node.get("derived"):
        lines.append(("derived", SMALL))
    if node.get("truncated"):
        lines.append(("… cut here: explain this fact to go on", SMALL))
    return lines


def explanation_svg(tree: Node) -> str:
    """The explanation tree as an SVG document (see the module)."""
    nodes, edges = _facts(tree)
    boxes = []
    texts: dict[str, list[tuple[str, float]]] = {}
    for key, node in nodes.items():
        lines = texts[key] = _lines(node)
        boxes.append(Box(key, max(width_of(text, size) for text, size in lines) + 20,
                         height_of(lines) + 14))
    layout = layered(boxes, edges)
    body = [element("path", ("class", "edge"), ("d", curve_path(points)),
                    ("marker-end", "url(#arrow)")) for points in layout.edges if points]
    root = _key(tree)
    for key, node in nodes.items():
        body.append(_fact(key, node, texts[key], layout.boxes[key], key == root))
    title = f"Why {tree.get('reading', '')}".rstrip(".")
    return document(layout.width, layout.height, title, body, STYLE)


def _fact(key: str, node: Node, lines: list[tuple[str, float]], box: Placed, root: bool
          ) -> str:
    kinds = ["fact", "derived" if node.get("derived") else "asserted",
             *(["root"] if root else []), *(["truncated"] if node.get("truncated") else [])]
    rule = node.get("rule")
    tip = str(node.get("reading", ""))
    if isinstance(rule, Mapping):
        tip += f"\nrule {rule.get('id', '')}: {rule.get('reading', '')}"
    readings = [line for line in lines if line[1] == SIZE]
    top = box.y + 7
    texts = text_lines(readings, box.centre[0], top)
    top += height_of(readings)
    for line in lines[len(readings):]:
        css = "cut" if line[0].startswith("…") else "rule"
        texts += text_lines([line], box.centre[0], top, css=css)
        top += height_of([line])
    return element("g", ("id", identifier("fact", key)), ("class", " ".join(kinds)), body="".join(
        [element("title", body=escape(tip)),
         element("rect", ("x", box.x), ("y", box.y), ("width", box.width),
                 ("height", box.height), ("rx", 4.0)), texts]))
