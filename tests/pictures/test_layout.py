"""The layered layout: boxes never overlap, each edge runs from its source's border to its
target's without passing through any box, edges flow down except those closing a cycle, and
the same graph gives the same layout."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from arest.pictures.layout import Box, Layout, Placed, layered
from tests.pictures.geometry import enters


def overlap(a: Placed, b: Placed) -> bool:
    return a.x < b.x + b.width and b.x < a.x + a.width and \
        a.y < b.y + b.height and b.y < a.y + a.height


def on_border(point: tuple[float, float], box: Placed) -> bool:
    x, y = point
    return box.x - 0.1 <= x <= box.x + box.width + 0.1 and (
        abs(y - box.y) <= 0.1 or abs(y - box.y - box.height) <= 0.1)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[Box], list[tuple[str, str]]]:
    count = draw(st.integers(1, 9))
    boxes = [Box(f"n{i}", draw(st.sampled_from([8.0, 30.0, 75.5, 100.0])),
                 draw(st.sampled_from([0.0, 12.0, 40.0, 80.0]))) for i in range(count)]
    names = [box.id for box in boxes]
    edges = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)),
                          max_size=14))
    return boxes, edges


def check(boxes: list[Box], edges: list[tuple[str, str]], layout: Layout) -> None:
    placed = [layout.boxes[box.id] for box in boxes]
    for i, a in enumerate(placed):
        assert (a.width, a.height) == (boxes[i].width, boxes[i].height)
        assert a.x >= 0 and a.x + a.width <= layout.width
        assert a.y >= 0 and a.y + a.height <= layout.height
        for b in placed[i + 1:]:
            assert not overlap(a, b), (a, b)
    assert len(layout.edges) == len(edges)
    for (source, target), points in zip(edges, layout.edges, strict=True):
        if source == target:
            assert points == ()
            continue
        assert on_border(points[0], layout.boxes[source])
        assert on_border(points[-1], layout.boxes[target])
        for a, b in pairwise(points):
            for name, box in layout.boxes.items():
                assert not enters(a, b, (box.x, box.y, box.width, box.height)), (a, b, name)


@given(graphs())
def test_boxes_never_overlap_and_edges_join_their_boxes(
        graph: tuple[list[Box], list[tuple[str, str]]]) -> None:
    boxes, edges = graph
    layout = layered(boxes, edges)
    check(boxes, edges, layout)
    assert layered(boxes, edges) == layout


def test_a_chain_flows_down_and_a_cycle_closes_upward() -> None:
    boxes = [Box(name, 40.0, 20.0) for name in "abc"]
    layout = layered(boxes, [("a", "b"), ("b", "c"), ("c", "a")])
    ys = [layout.boxes[name].y for name in "abc"]
    assert ys == sorted(ys) and len(set(ys)) == 3
    down, _, up = layout.edges
    assert down[0][1] < down[-1][1] and up[0][1] > up[-1][1]


def test_barycentres_uncross_two_crossed_pairs() -> None:
    boxes = [Box(name, 40.0, 20.0) for name in ("a", "b", "x", "y")]
    layout = layered(boxes, [("a", "y"), ("b", "x")])
    a, b, x, y = (layout.boxes[n].x for n in ("a", "b", "x", "y"))
    assert (a < b) == (y < x)


def test_an_edge_from_a_short_box_goes_round_its_tall_neighbour() -> None:
    # The short box's edge heads across under the tall box: a straight line from the short
    # box's bottom to the target's top would cut the tall box's lower corner.
    boxes = [Box("short", 30.0, 10.0), Box("tall", 100.0, 80.0), Box("wide", 100.0, 10.0),
             Box("target", 100.0, 80.0)]
    edges = [("short", "target"), ("wide", "target")]
    layout = layered(boxes, edges)
    check(boxes, edges, layout)
    tall = layout.boxes["tall"]
    assert layout.boxes["short"].y + 10.0 < tall.y + tall.height  # the short box is higher
