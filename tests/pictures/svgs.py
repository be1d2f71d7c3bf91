"""What the picture tests read in an SVG document: its elements by class, their titles and
texts (SVG's namespace spelled once)."""

from __future__ import annotations

from xml.etree import ElementTree

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ElementTree.Element:
    """The document's root, checked to be an SVG element (so the text is well-formed XML)."""
    root = ElementTree.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def of_class(root: ElementTree.Element, css: str) -> list[ElementTree.Element]:
    """The groups whose class list holds css, in document order."""
    return [g for g in root.iter(SVG + "g") if css in g.get("class", "").split()]


def title(element: ElementTree.Element) -> str:
    return element.findtext(SVG + "title") or ""


def texts(element: ElementTree.Element) -> list[str]:
    """Every text of the element, in document order."""
    return [text.text or "" for text in element.iter(SVG + "text")]


def ids(root: ElementTree.Element) -> list[str]:
    return [e.get("id", "") for e in root.iter() if e.get("id")]
