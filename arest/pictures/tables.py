"""The relational schema (Rmap, DESIGN §10) as an entity–relationship picture: each table a box
headed by its name and what it is for (an entity type, a subtype, a fact type), one row per
column with its keys marked (``PK`` primary key, ``FK`` foreign key, ``U`` in a UNIQUE), its
type and ``null`` where it may be NULL; an arrow from each table to each table its foreign
keys reference, labelled with the columns (a table referencing itself, a ring, loops back on
its right side).

>>> from arest.compiler.rmap.model import Column, ForeignKey, Table, Tables
>>> person = Table("person", "entity", "Person", (Column("name", "text", False, "Name"),
...     Column("parent", "text", True, "Person")), ("name",),
...     foreign_keys=(ForeignKey(("parent",), "person", ("name",)),))
>>> svg = tables_svg(Tables((person,), (), (), ()))
>>> ">PK<" in svg and ">FK<" in svg and 'class="fk self"' in svg
True
"""

from __future__ import annotations

from typing import Final

from arest.compiler.rmap.model import Table, Tables
from arest.pictures.layout import Box, Placed, layered
from arest.pictures.svg import (
    SIZE,
    SMALL,
    curve_path,
    document,
    element,
    escape,
    identifier,
    number,
    width_of,
)

ROW: Final = 19.0
"""The height of a column's row."""
HEAD: Final = 40.0
"""The height of a table's heading: its name, then what it is for."""
PAD: Final = 8.0
LABEL_HEIGHT: Final = 16.0
"""The height of a foreign key's label box."""
LABEL_PAD: Final = 4.0
LOOP: Final = 28.0
"""How far a table's loop to itself reaches right of it."""

STYLE: Final = (
    ".table rect.frame{fill:#ffffff;stroke:#4a5568;stroke-width:1.2}"
    ".table rect.head{fill:#e2e8f0;stroke:#4a5568;stroke-width:1.2}"
    ".table text.name{font-weight:bold}"
    ".table .key{fill:#b45309;font-weight:bold}"
    ".table .pk{font-weight:bold;text-decoration:underline}"
    ".fk-label{fill:#4a5568}"
)


def _marks(table: Table, column: str) -> str:
    marks = []
    if column in table.primary_key:
        marks.append("PK")
    if any(column in fk.columns for fk in table.foreign_keys):
        marks.append("FK")
    if any(column in unique.columns for unique in table.uniques):
        marks.append("U")
    return ",".join(marks)


def _widths(table: Table) -> tuple[float, float, float]:
    """The widths of a table's three text columns: marks, names, types."""
    marks = max((width_of(_marks(table, c.name)) for c in table.columns), default=0.0)
    names = max((width_of(c.name) for c in table.columns), default=0.0)
    types = max((width_of(c.type + (" null" if c.nullable else ""), SMALL)
                 for c in table.columns), default=0.0)
    return marks, names, types


def _subtitle(table: Table) -> str:
    return f"{table.kind} {table.source}"


def _size(table: Table) -> tuple[float, float]:
    marks, names, types = _widths(table)
    body = marks + names + types + 4 * PAD + (PAD if marks else 0.0)
    head = max(width_of(table.name), width_of(_subtitle(table), SMALL)) + 2 * PAD
    return max(body, head, 80.0), HEAD + ROW * len(table.columns) + PAD / 2


def tables_svg(tables: Tables, title: str = "Relational schema") -> str:
    """The tables as an SVG document (see the module).  A foreign key's label (its columns)
    is a box of the layout in its own right, the arrow passing through it, so labels never
    overlap tables or one another."""
    names = {table.name for table in tables.tables}
    boxes: list[Box] = []
    for table in tables.tables:
        width, height = _size(table)
        selfish = any(fk.table == table.name for fk in table.foreign_keys)
        boxes.append(Box(table.name, width + (LOOP if selfish else 0.0), height))
    references = [(table.name, fk.table, fk.columns) for table in tables.tables
                  for fk in table.foreign_keys if fk.table in names]
    edges: list[tuple[str, str]] = []
    for index, (source, target, columns) in enumerate(references):
        if source == target:
            edges.append((source, target))
            continue
        label = f"\x00fk{index}"
        boxes.append(Box(label, width_of(", ".join(columns), SMALL) + 2 * LABEL_PAD,
                         LABEL_HEIGHT))
        edges += [(source, label), (label, target)]
    layout = layered(boxes, edges, rank_gap=40.0, gap=32.0)
    body: list[str] = []
    drawn = iter(layout.edges)
    for index, (source, target, columns) in enumerate(references):
        if source == target:
            next(drawn)
            body.append(_loop(tables.table(source), columns, layout.boxes[source]))
            continue
        label = ", ".join(columns)
        into, out_of = next(drawn), next(drawn)
        placed = layout.boxes[f"\x00fk{index}"]
        body.append(element("g", ("class", "fk"), body="".join([
            element("title", body=escape(f"{source}({label}) references {target}")),
            element("path", ("class", "edge"), ("d", curve_path(into))),
            element("path", ("class", "edge"), ("d", curve_path(out_of)),
                    ("marker-end", "url(#arrow)")),
            element("text", ("class", "fk-label small"), ("x", placed.centre[0]),
                    ("y", placed.y + LABEL_HEIGHT - 5), ("text-anchor", "middle"),
                    body=escape(label))])))
    for table in tables.tables:
        body.append(_table(table, layout.boxes[table.name]))
    return document(layout.width, layout.height, title, body, STYLE)


def _row_y(table: Table, placed: Placed, column: str) -> float:
    index = [c.name for c in table.columns].index(column)
    return placed.y + HEAD + ROW * index + ROW / 2


def _loop(table: Table, columns: tuple[str, ...], placed: Placed) -> str:
    """A foreign key of a table to itself: out of the right side at its first column's row,
    back in at the primary key's."""
    right = placed.x + _size(table)[0]
    start = _row_y(table, placed, columns[0])
    end = _row_y(table, placed, table.primary_key[0]) if table.primary_key else placed.y + 10
    reach = right + LOOP - 6
    d = (f"M{number(right)},{number(start)}C{number(reach)},{number(start)}"
         f" {number(reach)},{number(end)} {number(right)},{number(end)}")
    label = ", ".join(columns)
    return element("g", ("class", "fk self"), body="".join([
        element("title", body=escape(f"{table.name}({label}) references {table.name}")),
        element("path", ("class", "edge"), ("d", d),
                ("marker-end", "url(#arrow)"))]))


def _table(table: Table, placed: Placed) -> str:
    width = _size(table)[0]
    marks, names, _ = _widths(table)
    x, y = placed.x, placed.y
    parts = [element("title", body=escape(f"{table.name}: {_subtitle(table)}")),
             element("rect", ("class", "frame"), ("x", x), ("y", y), ("width", width),
                     ("height", placed.height), ("rx", 3.0)),
             element("rect", ("class", "head"), ("x", x), ("y", y), ("width", width),
                     ("height", HEAD - 4), ("rx", 3.0)),
             element("text", ("class", "name"), ("x", x + PAD), ("y", y + 16),
                     body=escape(table.name)),
             element("text", ("class", "muted small"), ("x", x + PAD), ("y", y + 30),
                     body=escape(_subtitle(table)))]
    name_x = x + PAD + (marks + PAD if marks else 0.0)
    type_x = name_x + names + 2 * PAD
    for index, column in enumerate(table.columns):
        baseline = y + HEAD + ROW * index + ROW / 2 + SIZE * 0.35
        mark = _marks(table, column.name)
        cells = [element("text", ("class", "key"), ("x", x + PAD), ("y", baseline),
                         body=escape(mark))] if mark else []
        pairs: list[tuple[str, str | float]] = [("x", name_x), ("y", baseline)]
        if column.name in table.primary_key:
            pairs.append(("class", "pk"))
        cells.append(element("text", *pairs, body=escape(column.name)))
        cells.append(element("text", ("class", "muted small"), ("x", type_x), ("y", baseline),
                             body=escape(column.type + (" null" if column.nullable else ""))))
        parts.append(element("g", ("class", "column"), body="".join(cells)))
    return element("g", ("id", identifier("table", table.name)), ("class", "table"),
                   body="".join(parts))
