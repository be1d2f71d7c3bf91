"""The relational schema's picture: every table with every column, keys marked, an arrow per
foreign key (a loop for a table referencing itself) through no table, its label overlapping
nothing, hostile names escaped."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

import arest
from arest.compiler.rmap import Tables, relational_schema
from arest.compiler.rmap.model import Column, ForeignKey, Table, Unique
from arest.compiler.schema import schema_of
from arest.pictures import tables_svg
from tests.corpus import OWN_READINGS
from tests.pictures.geometry import boxes, crossings
from tests.pictures.svgs import SVG, of_class, parsed, texts, title

DOMAINS = sorted(path.name for path in OWN_READINGS.iterdir() if path.is_dir())


def marks_and_names(table: object) -> dict[str, str]:
    """Column name → its key marks, as a table's rows show them."""
    found = {}
    for row in of_class(table, "column"):  # type: ignore[arg-type]
        cells = texts(row)
        found[cells[-2]] = cells[0] if len(cells) == 3 else ""
    return found


@pytest.mark.parametrize("name", DOMAINS)
def test_every_table_and_column_is_shown_with_its_keys(name: str) -> None:
    tables = relational_schema(schema_of(arest.load(OWN_READINGS / name)))
    drawn = tables_svg(tables)
    root = parsed(drawn)
    shown = {title(g).split(":")[0]: g for g in of_class(root, "table")}
    assert set(shown) == {table.name for table in tables.tables}
    for table in tables.tables:
        rows = marks_and_names(shown[table.name])
        assert list(rows) == [column.name for column in table.columns]
        for column in table.columns:
            assert ("PK" in rows[column.name].split(",")) == (column.name in table.primary_key)
            assert ("FK" in rows[column.name].split(",")) == any(
                column.name in fk.columns for fk in table.foreign_keys)
    arrows = of_class(root, "fk")
    assert len(arrows) == sum(len(table.foreign_keys) for table in tables.tables)
    assert tables_svg(tables) == drawn


def test_a_ring_loops_back_and_other_keys_point_at_their_table() -> None:
    tables = relational_schema(schema_of(arest.load(OWN_READINGS / "orders")))
    root = parsed(tables_svg(tables))
    assert [title(g) for g in of_class(root, "self")] == [
        "category(parent_category) references category"]
    assert "line_item(order) references order" in [title(g) for g in of_class(root, "fk")]


def test_nullable_columns_say_null_and_uniques_are_marked() -> None:
    table = Table("t", "fact type", "T", (Column("a", "text", False, "A"),
                                           Column("b", "numeric", True, "B")),
                  ("a",), uniques=(Unique(("b",), ("c-1",)),))
    root = parsed(tables_svg(Tables((table,), (), (), ())))
    [shown] = of_class(root, "table")
    assert [texts(row) for row in of_class(shown, "column")] == [
        ["PK", "a", "text"], ["U", "b", "numeric null"]]


def test_hostile_names_are_escaped() -> None:
    names = ["<t>", "a&b", "q\"'"]
    tables = Tables(tuple(
        Table(name, "entity", name, (Column(name + "&id", "text", False, name),), (name + "&id",),
              foreign_keys=(ForeignKey((name + "&id",), names[0], (names[0] + "&id",)),))
        for name in names), (), (), ())
    drawn = tables_svg(tables, title="<schema> & co")
    root = parsed(drawn)
    assert {title(g).split(":")[0] for g in of_class(root, "table")} == set(names)
    assert root.findtext(SVG + "title") == "<schema> & co"
    assert "<t>" not in drawn and "a&b" not in drawn


def label_box(text: ElementTree.Element) -> tuple[float, float, float, float]:
    """Where a foreign key's label's text lies (monospace: 0.6 em a character, 11 px)."""
    width = len(text.text or "") * 0.6 * 11
    return float(text.get("x", "0")) - width / 2, float(text.get("y", "0")) - 11, width, 13.0


def apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or \
        a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


@pytest.mark.parametrize("name", DOMAINS)
def test_no_arrow_passes_through_a_table_and_no_label_overlaps_another_or_a_table(
        name: str) -> None:
    root = parsed(tables_svg(relational_schema(schema_of(arest.load(OWN_READINGS / name)))))
    assert crossings(root, "table") == []
    labels = [label_box(text) for text in root.iter(SVG + "text")
              if "fk-label" in text.get("class", "")]
    frames = [box for _, box in boxes(root, "table")]
    for i, label in enumerate(labels):
        assert all(apart(label, other) for other in labels[i + 1:] + frames)
