"""An entity's ``_links`` (DESIGN §5): ``self``, then the navigation links of Theorem 4.

``links(state, noun, entity)`` is the dict a representation shows: ``self`` first
(``/<plural>/<id>``), then the links of the cell ``links:<Noun>``
(:mod:`arest.compiler.links`, which says which fact types give which links and how they are
keyed): a parent is looked up by index among the entity's own facts and points at the
related entity, ``{"href": "/customers/acme", "rel": "parent"}``; children, peers and related
links are collections under the entity, ``{"href": "/orders/ord-1/line-items", "rel":
"children"}``. So a representation costs what the entity's own facts cost, whatever |P|.

The legal transitions of the entity's state machine belong in the same dict, keyed by event,
between ``self`` and the navigation links: ``"ship": {"href": "/orders/o1/transition",
"method": "POST", "event": "ship"}``. This module does not compute them; :func:`links` is the
place to merge them in, and a navigation key never equals ``self``.

>>> import arest
>>> D = arest.compile('''Order(.Order Id) is an entity type.
... Customer(.Name) is an entity type.
... Order was placed by Customer.
...   Each Order was placed by exactly one Customer.
... Order 'o1' was placed by Customer 'acme'.''')
>>> links(D, "Order", "o1")["customer"]
{'href': '/customers/acme', 'rel': 'parent'}
>>> links(D, "Customer", "acme")["orders"]
{'href': '/customers/acme/orders', 'rel': 'children'}
"""

from __future__ import annotations

import re
from typing import Any, Final
from urllib.parse import quote

from arest.algebra import Object, State
from arest.algebra.memo import IdentityMemo
from arest.algebra.relations import Relation
from arest.compiler.cells import NOUN_PLURALS, links_cell
from arest.compiler.links import PARENT, Link
from arest.compiler.links import plural as plural_of
from arest.system.machines import machine_of, status_of

MACHINE_PICTURE = "machine.svg"
"""The key of the link to the picture of an entity's machine, and the last segment of its
href (``/orders/o-1/machine.svg``)."""


def declared_plurals(declared: object) -> dict[str, str]:
    """Noun → its declared plural, from ``Noun_has_Plural`` (the first for each noun)."""
    if not isinstance(declared, Relation):
        return {}
    return {noun: next(value for _, value in declared.matching(0, noun))
            for noun in declared.values(0)}


_plurals_by_relation = IdentityMemo(declared_plurals, limit=64)
"""The declared plurals of each ``Noun_has_Plural`` relation (by identity): every
representation asks for one."""


def plural(state: State, noun: str) -> str:
    """``Noun 'X' has Plural 'y'``, or the slug with ``s``."""
    declared = _plurals_by_relation(state.get(NOUN_PLURALS))
    found = declared.get(noun)
    return found if found is not None else plural_of(noun)


def segment(entity: str) -> str:
    """An id as one path segment: percent-encoded, and ``.`` encoded too where the id is
    ``.`` or ``..``, which every client would otherwise remove as a dot segment (RFC 3986
    §5.2.4) and so reach another resource.

    >>> segment("ann@example.com"), segment("a/b"), segment(".."), segment("v1.2")
    ('ann%40example.com', 'a%2Fb', '%2E%2E', 'v1.2')
    """
    if entity.isascii():
        # An ASCII id's reserved characters are what a table deletion of the unreserved
        # bytes leaves, in C: none, or one (an email's ``@``), is the common case, and one
        # reserved character is encoded by one replace, with no regular expression run.
        reserved = entity.encode().translate(None, _UNRESERVED_BYTES)
        if not reserved:
            encoded = entity
        elif len(reserved) == 1:
            encoded = entity.replace(chr(reserved[0]), _BYTE_ESCAPES[reserved[0]])
        else:
            encoded = _RESERVED.sub(_percent_encoded, entity)
    else:
        encoded = _RESERVED.sub(_percent_encoded, entity) if _RESERVED.search(entity) \
            else entity
    return encoded.replace(".", "%2E") if encoded in (".", "..") else encoded


_RESERVED = re.compile(r"[^A-Za-z0-9_.~-]+")
"""The characters ``quote(text, safe="")`` encodes: all but RFC 3986's unreserved ones."""


def _percent_encoded(found: re.Match[str]) -> str:
    """``quote(text, safe="")`` of a run of reserved characters: each UTF-8 byte as ``%XX``.
    An id is mostly unreserved, and a search that finds nothing is cheaper than ``quote``;
    a run of one ASCII character (an email's ``@``) is looked up.

    >>> _RESERVED.sub(_percent_encoded, "a b/é"), _RESERVED.sub(_percent_encoded, "a@b")
    ('a%20b%2F%C3%A9', 'a%40b')
    """
    text = found.group()
    known = _ASCII_ESCAPES.get(text)
    if known is not None:
        return known
    return "".join([f"%{byte:02X}" for byte in text.encode("utf-8")])


_ASCII_ESCAPES: Final = {chr(code): f"%{code:02X}" for code in range(128)
                         if _RESERVED.fullmatch(chr(code))}
"""Each reserved ASCII character's escape: what :func:`_percent_encoded` finds for it."""

_BYTE_ESCAPES: Final = {ord(char): escape for char, escape in _ASCII_ESCAPES.items()}
""":data:`_ASCII_ESCAPES` by the character's code."""

_UNRESERVED_BYTES: Final = bytes(code for code in range(128) if chr(code) not in _ASCII_ESCAPES)
"""RFC 3986's unreserved characters as bytes: deleted, an ASCII id leaves its reserved ones."""


def href(state: State, noun: str, entity: str) -> str:
    """The entity's url, ``/<plural>/<id>`` (the id one :func:`segment`).

    >>> import arest
    >>> D = arest.compile("LineItem(.id) is an entity type.\\nCategory(.id) is an entity type.\\n"
    ...                   "Noun 'Category' has Plural 'categories'.")
    >>> href(D, "LineItem", "a/1"), href(D, "Category", "tools"), href(D, "Category", "..")
    ('/line-items/a%2F1', '/categories/tools', '/categories/%2E%2E')
    """
    return f"/{plural(state, noun)}/{segment(entity)}"


def _decode(contents: Object) -> tuple[tuple[Link, str], ...]:
    """Each link, with the path it adds after the entity's url (for all but parents)."""
    assert type(contents) is tuple
    decoded = (Link.from_object(item) for item in contents)
    return tuple((link, "/" + quote(link.key, safe="")) for link in decoded)


_decoded = IdentityMemo(_decode)


def followed(state: State, noun: str) -> tuple[Link, ...]:
    """The noun's navigation links, as its cell ``links:<Noun>`` holds them."""
    contents = state.get(links_cell(noun))
    return tuple(link for link, _ in _decoded(contents)) if type(contents) is tuple else ()


def navigation(state: State, noun: str, entity: str, url: str) -> dict[str, Any]:
    """The navigation links of the entity, whose url is ``url``, by the noun's cell."""
    contents = state.get(links_cell(noun))
    if type(contents) is not tuple:
        return {}
    out: dict[str, Any] = {}
    for link, path in _decoded(contents):
        if link.rel != PARENT:
            out[link.key] = {"href": url + path, "rel": link.rel}
            continue
        relation = state.get(link.fact_type)
        if not isinstance(relation, Relation):
            continue
        targets = [fact[link.other] for fact in relation.matching(link.role, entity)]
        if targets:
            out[link.key] = {"href": href(state, link.noun, min(targets)), "rel": PARENT}
    return out


def links(state: State, noun: str, entity: str) -> dict[str, Any]:
    """The entity's ``_links``: ``self`` first, then the events legal from its status (keyed
    by event: π_event of the transitions from the status, Theorem 4), then its navigation
    links, and last, for an entity in a machine's status, ``machine.svg``: the picture of its
    machine with its status highlighted (docs/pictures.md).  A navigation key never takes an
    event's place, nor the picture's key either (a key with a dot is no slug or fact type id).

    >>> import arest
    >>> D = arest.compile(TASKS)  # a Task machine, Open --finish--> Done (conftest.py)
    >>> _, D = arest.apply(D, "create:Task", {"id": "t1"})
    >>> list(links(D, "Task", "t1")), links(D, "Task", "t1")["machine.svg"]["href"]
    (['self', 'finish', 'machine.svg'], '/tasks/t1/machine.svg')
    """
    url = href(state, noun, entity)
    out: dict[str, Any] = {"self": {"href": url}}
    machine = machine_of(state, noun)
    status = status_of(state, noun, entity) if machine is not None else None
    if machine is not None and status is not None:
        for transition in machine.legal(status):
            out.setdefault(transition.event, {"href": f"{url}/transition", "method": "POST",
                                              "event": transition.event})
    for key, link in navigation(state, noun, entity, url).items():
        out.setdefault(key, link)
    if status is not None:
        out.setdefault(MACHINE_PICTURE, {"href": f"{url}/{MACHINE_PICTURE}",
                                         "type": "image/svg+xml"})
    return out
