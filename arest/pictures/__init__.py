"""Pictures of a compiled domain as SVG text, made in Python with no external program
(docs/pictures.md): a state machine with an entity's current status highlighted
(:func:`machine_svg`), an explanation tree of the ``explain`` verb (:func:`explanation_svg`),
and the relational schema's tables (:func:`tables_svg`).  Each is a pure function of its
input: the same input gives the same bytes.  :class:`Picture` shows one in a notebook.

The layout is arest's own layered one (:mod:`arest.pictures.layout`); the text is written
and escaped by :mod:`arest.pictures.svg`.
"""

from __future__ import annotations

from dataclasses import dataclass

from arest.pictures.explanation import explanation_svg
from arest.pictures.machine import guards, machine_svg
from arest.pictures.tables import tables_svg

SVG = "image/svg+xml"
"""The media type of every picture."""


@dataclass(frozen=True)
class Picture:
    """An SVG document a notebook shows as itself (IPython's ``_repr_svg_``).

    >>> Picture("<svg/>")._repr_svg_()
    '<svg/>'
    """

    svg: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg


__all__ = ["SVG", "Picture", "explanation_svg", "guards", "machine_svg", "tables_svg"]
