"""SVG text, written by hand: escaped text, numbers printed one way, monospace text metrics.

A picture is well-formed XML whatever the names in it hold: every text and attribute value
goes through :func:`escape`, which also replaces the characters XML 1.0 cannot hold.  Numbers
are rounded to one decimal and printed without a trailing ``.0``, so the same input gives the
same bytes.  Text is set in a monospace font, whose advance is 0.6 em per character, so a
box's width follows from its label without font metrics.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Final

FONT: Final = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace"
ADVANCE: Final = 0.6
"""A monospace character's width, in ems."""
SIZE: Final = 13.0
"""The font size of a label, in pixels."""
SMALL: Final = 11.0
"""The font size of a label's second line (a guard, a rule)."""
LINE: Final = 1.35
"""A line's height, in ems."""

_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str) -> str:
    """Text as XML character data or an attribute value: ``&``, ``<``, ``>`` and both quotes
    escaped; a character XML 1.0 cannot hold becomes U+FFFD.

    >>> escape('a < b & "c" \\'d\\'\\x00')
    'a &lt; b &amp; &quot;c&quot; &#39;d&#39;\\ufffd'
    """
    text = _NOT_XML.sub("\ufffd", text)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def number(value: float) -> str:
    """A coordinate as SVG prints it here: one decimal, no trailing ``.0``, never ``-0``.

    >>> number(12.0), number(3.14159), number(-0.01)
    ('12', '3.1', '0')
    """
    text = f"{round(value, 1):.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def width_of(text: str, size: float = SIZE) -> float:
    """The width of one line of text in the monospace font.

    >>> width_of("Placed")
    46.8
    """
    return round(len(text) * ADVANCE * size, 1)


def wrapped(text: str, columns: int) -> list[str]:
    """Text broken into lines of at most ``columns`` characters at spaces (a longer word is
    broken too); one empty line for empty text.

    >>> wrapped("Order 'o-1' was placed by Customer 'ann'.", 24)
    ["Order 'o-1' was placed", "by Customer 'ann'."]
    """
    return textwrap.wrap(text, columns, break_on_hyphens=False) or [""]


def shortened(text: str, columns: int) -> str:
    """Text cut to ``columns`` characters, an ellipsis ending what was cut.

    >>> shortened("each Order has some Tracking Number", 16)
    'each Order has …'
    """
    return text if len(text) <= columns else text[: columns - 1] + "…"


def identifier(kind: str, name: str) -> str:
    """A stable XML id for a named element: its kind and 10 hex digits of the name's SHA-256,
    so an id never depends on what else the picture shows and any name gives a valid one.

    >>> identifier("status", "Placed")
    'status-cfa70d64a4'
    """
    return f"{kind}-{hashlib.sha256(name.encode()).hexdigest()[:10]}"


def attributes(pairs: Iterable[tuple[str, str | float]]) -> str:
    """Attributes in the order given, values escaped (numbers by :func:`number`)."""
    return "".join(f' {name}="{number(value) if isinstance(value, float | int) else escape(value)}"'
                   for name, value in pairs)


def element(tag: str, *pairs: tuple[str, str | float], body: str | None = None) -> str:
    """One element: empty (``<rect …/>``), or holding ``body`` (already SVG).

    >>> element("text", ("x", 1.0), body=escape("a<b"))
    '<text x="1">a&lt;b</text>'
    """
    opened = f"<{tag}{attributes(pairs)}"
    return opened + "/>" if body is None else f"{opened}>{body}</{tag}>"


def text_lines(lines: Sequence[tuple[str, float]], x: float, top: float,
               anchor: str = "middle", css: str = "") -> str:
    """Lines of text, each with its font size (:data:`SIZE`, or :data:`SMALL` by the class
    ``small``: a style sheet's font size beats an attribute's), the first one's top at
    ``top``: one ``<text>`` per line, so no line depends on how a renderer spaces
    ``<tspan>``s."""
    out: list[str] = []
    y = top
    for line, size in lines:
        y += size * LINE
        pairs: list[tuple[str, str | float]] = [("x", x), ("y", y - size * (LINE - 1) - 2),
                                                ("text-anchor", anchor)]
        classes = " ".join(c for c in (css, "small" if size == SMALL else "") if c)
        if classes:
            pairs.append(("class", classes))
        out.append(element("text", *pairs, body=escape(line)))
    return "".join(out)


def height_of(lines: Sequence[tuple[str, float]]) -> float:
    """The height the lines of :func:`text_lines` take."""
    return sum(size * LINE for _, size in lines)


STYLE: Final = (
    f"text{{font-family:{FONT};font-size:{number(SIZE)}px;fill:#1a202c}}"
    ".box{fill:#f7fafc;stroke:#4a5568;stroke-width:1.2}"
    ".edge{fill:none;stroke:#4a5568;stroke-width:1.2}"
    f".small{{font-size:{number(SMALL)}px}}"
    ".muted{fill:#4a5568}"
)
"""The style every picture shares; each adds its own classes."""


def document(width: float, height: float, title: str, body: Sequence[str],
             style: str = "") -> str:
    """A whole SVG document: its size, an accessible title, the arrowhead marker, the
    style, then the body's elements, one per line.

    >>> import xml.etree.ElementTree as ET
    >>> ET.fromstring(document(10.0, 10.0, "A & B", [])).tag
    '{http://www.w3.org/2000/svg}svg'
    """
    size: list[tuple[str, str | float]] = [
        ("width", width), ("height", height),
        ("viewBox", f"0 0 {number(width)} {number(height)}")]
    opened = element("svg", ("xmlns", "http://www.w3.org/2000/svg"), *size,
                     ("role", "img"), ("aria-label", title), body="\x00")
    head, tail = opened.split("\x00")
    arrow = ('<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5"'
             ' markerWidth="8" markerHeight="8" orient="auto-start-reverse">'
             '<path d="M0,0L10,5L0,10z" fill="#4a5568"/></marker></defs>')
    lines = [head, element("title", body=escape(title)), arrow,
             element("style", body=STYLE + style), *body, tail]
    return "\n".join(lines) + "\n"


def curve_path(points: Sequence[tuple[float, float]]) -> str:
    """The ``d`` of a smooth path through the points of a layout's polyline: a vertical
    segment straight, any other one (a crossing of the gap between two layers) a cubic
    Bézier leaving and arriving vertically, whose control points sit at the gap's middle
    height, so the curve stays inside the gap the segment crossed.

    >>> curve_path([(0.0, 0.0), (0.0, 10.0), (20.0, 30.0), (20.0, 40.0)])
    'M0,0L0,10C0,20 20,20 20,30L20,40'
    """
    first, *rest = points
    d = f"M{number(first[0])},{number(first[1])}"
    (x0, y0) = first
    for x, y in rest:
        if x == x0:
            d += f"L{number(x)},{number(y)}"
        else:
            middle = number((y0 + y) / 2)
            d += f"C{number(x0)},{middle} {number(x)},{middle} {number(x)},{number(y)}"
        x0, y0 = x, y
    return d
