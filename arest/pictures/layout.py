"""A layered (Sugiyama) layout of a directed graph of boxes, top to bottom, deterministic.

    layered(boxes, edges) = routes ∘ coordinates ∘ order ∘ split long edges ∘ layers
                            ∘ break cycles

- *break cycles*: a depth-first search from each box in the order given turns every edge that
  closes a cycle around; such an edge is drawn against the flow (it points up);
- *layers*: longest path, each box one layer below the lowest box with an edge into it;
- *split long edges*: an edge across k layers passes through k − 1 dummy boxes;
- *order*: within each layer, by the mean position of the box's neighbours in the layer
  above, then below (barycentre), sweeping down and up; the sweep with the fewest crossings
  is kept;
- *coordinates*: each layer's boxes are pulled toward the mean centre of their neighbours,
  keeping their order and gap (the mean of a left-packed and a right-packed placement, each
  as close to that centre as the gap allows);
- *routes*: an edge runs straight down out of its box to its layer's bottom, across each
  gap between layers, straight down through its dummies' columns, and into its box from
  its layer's top: it meets no box but its two ends, since no box lies in a gap and each
  layer keeps a dummy's column clear.

Ties are broken by the order the boxes and edges are given in, so the same graph gives the
same layout.  The graphs drawn here are small (a machine's statuses, a schema's tables, an
explanation's facts): a sweep costs O(|E|²) for its crossing count, which is nothing there.

>>> out = layered([Box("a", 40.0, 20.0), Box("b", 40.0, 20.0)], [("a", "b")])
>>> out.boxes["a"].y < out.boxes["b"].y, out.edges[0][0], out.edges[0][-1]
(True, (36.0, 36.0), (36.0, 76.0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

SWEEPS: Final = 12
"""How many down-and-up sweeps the ordering tries."""
PASSES: Final = 8
"""How many times the coordinates are pulled toward the neighbours."""
DUMMY_WIDTH: Final = 8.0


@dataclass(frozen=True)
class Box:
    """A box to place: its id and size."""

    id: str
    width: float
    height: float


@dataclass(frozen=True)
class Placed:
    """A placed box: its top-left corner and size."""

    x: float
    y: float
    width: float
    height: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2


Polyline = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Layout:
    """Where each box goes, each edge's polyline (in the edges' order, from its source's
    border to its target's), and the size of the whole."""

    boxes: dict[str, Placed]
    edges: tuple[Polyline, ...]
    width: float
    height: float


def _reversed_edges(ids: Sequence[str], edges: Sequence[tuple[str, str]]) -> set[int]:
    """The edges (by index) a depth-first search finds closing a cycle, and self-loops."""
    out: dict[str, list[tuple[int, str]]] = {i: [] for i in ids}
    for index, (source, target) in enumerate(edges):
        out[source].append((index, target))
    state: dict[str, int] = {}  # 1 on the path, 2 done
    back: set[int] = set()
    for root in ids:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(out[root]))]
        while stack:
            node, pending = stack[-1]
            step = next(pending, None)
            if step is None:
                state[node] = 2
                stack.pop()
                continue
            index, target = step
            if state.get(target) == 1:
                back.add(index)
            elif target not in state:
                state[target] = 1
                stack.append((target, iter(out[target])))
    return back


def _layers(ids: Sequence[str], forward: Sequence[tuple[str, str]]) -> dict[str, int]:
    """Longest-path layering of an acyclic graph: sources at 0."""
    incoming = {i: 0 for i in ids}
    following: dict[str, list[str]] = {i: [] for i in ids}
    for source, target in forward:
        incoming[target] += 1
        following[source].append(target)
    layer = dict.fromkeys(ids, 0)
    ready = [i for i in ids if incoming[i] == 0]
    while ready:
        node = ready.pop(0)
        for target in following[node]:
            layer[target] = max(layer[target], layer[node] + 1)
            incoming[target] -= 1
            if incoming[target] == 0:
                ready.append(target)
    return layer


def _crossings(upper: list[str], lower: list[str], links: list[tuple[str, str]]) -> int:
    up = {node: i for i, node in enumerate(upper)}
    down = {node: i for i, node in enumerate(lower)}
    pairs = [(up[a], down[b]) for a, b in links if a in up and b in down]
    return sum(1 for i, (a, b) in enumerate(pairs) for c, d in pairs[i + 1:]
               if (a - c) * (b - d) < 0)


def _ordered(rows: list[list[str]], links: list[tuple[str, str]]) -> list[list[str]]:
    """The layers' orders with the fewest crossings the barycentre sweeps find."""
    above: dict[str, list[str]] = {}
    below: dict[str, list[str]] = {}
    for a, b in links:
        below.setdefault(a, []).append(b)
        above.setdefault(b, []).append(a)

    def total(order: list[list[str]]) -> int:
        return sum(_crossings(order[i], order[i + 1], links) for i in range(len(order) - 1))

    def sort(row: list[str], reference: list[str], neighbours: dict[str, list[str]]
             ) -> list[str]:
        place = {node: i for i, node in enumerate(reference)}
        keys = []
        for i, node in enumerate(row):
            near = [place[n] for n in neighbours.get(node, ()) if n in place]
            keys.append((sum(near) / len(near) if near else float(i), i))
        return [row[i] for _, i in sorted(keys)]

    best, fewest = [list(r) for r in rows], total(rows)
    current = [list(r) for r in rows]
    for _ in range(SWEEPS):
        for i in range(1, len(current)):
            current[i] = sort(current[i], current[i - 1], above)
        for i in range(len(current) - 2, -1, -1):
            current[i] = sort(current[i], current[i + 1], below)
        found = total(current)
        if found < fewest:
            best, fewest = [list(r) for r in current], found
        if fewest == 0:
            break
    return best


def _packed(row: list[str], sizes: dict[str, float], wanted: dict[str, float], gap: float
            ) -> dict[str, float]:
    """Left edges for the row in order, each centre as near its wanted one as the gap lets:
    the mean of a left-to-right and a right-to-left packing (both keep the order and gap,
    so their mean does)."""
    left: list[float] = []
    for i, node in enumerate(row):
        x = wanted[node] - sizes[node] / 2
        left.append(x if i == 0 else max(x, left[-1] + sizes[row[i - 1]] + gap))
    right: list[float] = [0.0] * len(row)
    for i in range(len(row) - 1, -1, -1):
        node = row[i]
        x = wanted[node] - sizes[node] / 2
        right[i] = x if i == len(row) - 1 else min(x, right[i + 1] - gap - sizes[node])
    return {node: (left[i] + right[i]) / 2 for i, node in enumerate(row)}


def layered(boxes: Sequence[Box], edges: Sequence[tuple[str, str]], rank_gap: float = 40.0,
            gap: float = 24.0, margin: float = 16.0) -> Layout:
    """The layout of the boxes and edges (see the module); an edge from a box to itself is
    left out of the layout and drawn by the caller."""
    ids = [box.id for box in boxes]
    size = {box.id: box for box in boxes}
    back = _reversed_edges(ids, edges)
    flowing = [(b, a) if i in back else (a, b) for i, (a, b) in enumerate(edges)]
    layer = _layers(ids, [pair for pair in flowing if pair[0] != pair[1]])
    widths = {i: size[i].width for i in ids}
    heights = {i: size[i].height for i in ids}
    rows: list[list[str]] = [[] for _ in range(max(layer.values(), default=0) + 1)]
    for node in ids:
        rows[layer[node]].append(node)
    chains: list[list[str]] = []
    links: list[tuple[str, str]] = []
    for index, (a, b) in enumerate(flowing):
        chain = [a]
        for level in range(layer[a] + 1, layer[b]):
            dummy = f"\x00{index}:{level}"
            rows[level].append(dummy)
            widths[dummy], heights[dummy] = DUMMY_WIDTH, 0.0
            chain.append(dummy)
        chain.append(b)
        chains.append(chain)
        links.extend(pairwise(chain))
    rows = _ordered(rows, [link for link in links if link[0] != link[1]])
    tops, bottom = [], margin
    for row in rows:
        tops.append(bottom)
        bottom += max((heights[n] for n in row), default=0.0) + rank_gap
    row_height = [max((heights[n] for n in row), default=0.0) for row in rows]
    centre: dict[str, float] = {}
    for row in rows:
        x = 0.0
        for node in row:
            centre[node] = x + widths[node] / 2
            x += widths[node] + gap
    neighbours: dict[str, list[str]] = {}
    for a, b in links:
        if a != b:
            neighbours.setdefault(a, []).append(b)
            neighbours.setdefault(b, []).append(a)
    for _ in range(PASSES):
        for row in [*rows[1:], *reversed(rows[:-1])]:
            wanted = {n: sum(centre[m] for m in neighbours[n]) / len(neighbours[n])
                      if neighbours.get(n) else centre[n] for n in row}
            lefts = _packed(row, widths, wanted, gap)
            centre.update({n: lefts[n] + widths[n] / 2 for n in row})
    shift = margin - min((centre[n] - widths[n] / 2 for row in rows for n in row),
                         default=margin)
    placed: dict[str, Placed] = {}
    for level, row in enumerate(rows):
        for node in row:
            top = tops[level] + (row_height[level] - heights[node]) / 2
            placed[node] = Placed(round(centre[node] - widths[node] / 2 + shift, 1),
                                  round(top, 1), widths[node], heights[node])
    right = max((p.x + p.width for p in placed.values()), default=0.0) + margin
    lines = _routes(chains, placed, back, layer, row_height, tops)
    return Layout({i: placed[i] for i in ids}, lines, right, bottom - rank_gap + margin)


def _routes(chains: list[list[str]], placed: dict[str, Placed], back: set[int],
            layer: dict[str, int], row_height: list[float], tops: list[float]
            ) -> tuple[Polyline, ...]:
    """Each edge's polyline, which never enters a box but at its two ends: out of its upper
    box's bottom straight down to the bottom of that box's layer, across each gap between
    layers (where no box is) to the next layer's top, straight down through each dummy
    (whose column its layer keeps clear), and from the last layer's top straight down into
    its lower box's top.  Ports are spread along each side in the order of the other ends;
    an edge that was turned around is given back reversed."""
    ports: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for index, chain in enumerate(chains):
        if chain[0] == chain[-1]:
            continue
        first, last = chain[0], chain[-1]
        ports.setdefault((first, "bottom"), []).append((placed[chain[1]].centre[0], index))
        ports.setdefault((last, "top"), []).append((placed[chain[-2]].centre[0], index))
    at: dict[tuple[str, str, int], float] = {}
    for (node, side), found in ports.items():
        box = placed[node]
        for rank, (_, index) in enumerate(sorted(found)):
            at[(node, side, index)] = box.x + box.width * (rank + 1) / (len(found) + 1)
    out: list[Polyline] = []
    for index, chain in enumerate(chains):
        first, last = chain[0], chain[-1]
        if first == last:
            out.append(())
            continue
        a, b = placed[first], placed[last]
        start, end = at[(first, "bottom", index)], at[(last, "top", index)]
        below, level = a.y + a.height, layer[first]
        points = [(start, below), (start, max(below, tops[level] + row_height[level]))]
        for dummy in chain[1:-1]:
            level = int(dummy.rsplit(":", 1)[1])
            x = placed[dummy].centre[0]
            points += [(x, tops[level]), (x, tops[level] + row_height[level])]
        points += [(end, min(b.y, tops[layer[last]])), (end, b.y)]
        rounded = [(round(x, 1), round(y, 1)) for x, y in points]
        kept = tuple(point for i, point in enumerate(rounded) if i == 0 or point != rounded[i - 1])
        out.append(tuple(reversed(kept)) if index in back else kept)
    return tuple(out)
