"""Where an edge goes in a picture: a path's ``d`` read back as points (a cubic sampled
finely), and whether a segment enters a box's inside (its border may be touched: an edge
starts and ends on one)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from xml.etree import ElementTree

from tests.pictures.svgs import SVG

Point = tuple[float, float]
Rect = tuple[float, float, float, float]
"""x, y, width, height."""

SAMPLES = 32
"""How many segments a cubic is read as."""
INSIDE = 0.5
"""How far past a box's border a point must be to count as inside (rounding to 0.1 px)."""


def path_points(d: str) -> list[Point]:
    """The points a path of ``M``, ``L`` and ``C`` commands (absolute) passes through, in
    order, each cubic sampled at :data:`SAMPLES` steps."""
    tokens = re.findall(r"[MLC]|-?[0-9.]+", d)
    points: list[Point] = []
    command = ""
    numbers: list[float] = []

    def flush() -> None:
        if command in "ML" and len(numbers) == 2:
            points.append((numbers[0], numbers[1]))
            numbers.clear()
        elif command == "C" and len(numbers) == 6:
            (x0, y0), (x1, y1, x2, y2, x3, y3) = points[-1], numbers
            for step in range(1, SAMPLES + 1):
                t = step / SAMPLES
                u = 1 - t
                points.append((u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3,
                               u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3))
            numbers.clear()

    for token in tokens:
        if token in ("M", "L", "C"):
            command = token
        else:
            numbers.append(float(token))
            flush()
    return points


def enters(a: Point, b: Point, box: Rect) -> bool:
    """Whether the segment from a to b passes through the box's inside (the box shrunk by
    :data:`INSIDE`): Liang–Barsky clipping."""
    x, y, width, height = box
    left, right = x + INSIDE, x + width - INSIDE
    top, bottom = y + INSIDE, y + height - INSIDE
    if left >= right or top >= bottom:
        return False
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, a[0] - left), (dx, right - a[0]), (-dy, a[1] - top),
                 (dy, bottom - a[1])):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return False
    return True


def boxes(root: ElementTree.Element, *classes: str) -> Iterator[tuple[str, Rect]]:
    """The frame (first ``rect``) of every group of one of the classes, with its title, and
    each circle as its bounding box."""
    for group in root.iter(SVG + "g"):
        if set(group.get("class", "").split()) & set(classes):
            rect = group.find(SVG + "rect")
            if rect is not None:
                yield (group.findtext(SVG + "title") or "",
                       tuple(float(rect.get(k, "0")) for k in ("x", "y", "width", "height")))
    for circle in root.iter(SVG + "circle"):
        cx, cy, r = (float(circle.get(k, "0")) for k in ("cx", "cy", "r"))
        yield "circle", (cx - r, cy - r, 2 * r, 2 * r)


def crossings(root: ElementTree.Element, *classes: str) -> list[tuple[str, str]]:
    """Each (path, box title) where an edge passes through a box of the classes."""
    framed = list(boxes(root, *classes))
    found = []
    for path in root.iter(SVG + "path"):
        if path.get("class") != "edge":
            continue
        points = path_points(path.get("d", ""))
        for a, b in pairwise(points):
            found += [(path.get("d", ""), name) for name, box in framed if enters(a, b, box)]
    return found
