"""The words a noun gives urls (DESIGN §5, §9): its slug, its plural, and the plurals REST
keeps for its own routes.

A noun's slug is its name with spaces and CamelCase boundaries turned into hyphens,
lower-cased; its plural adds ``s`` unless ``Noun 'X' has Plural 'y'`` says otherwise.  A
collection is served at ``/<plural>``, so a plural that is the first segment of a fixed route
(``/facts``, ``/schema``, …) or of another transport (``/mcp``) names no collection: the
fixed route wins.  :func:`reserved_plurals` makes that a diagnostic at the noun's
declaration, suggesting a plural of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from arest.forml2.constructs import Construct, Source

NOUN_PLURALS: Final = "Noun_has_Plural"
"""⟨noun, plural⟩: a declared plural, for urls."""

RESERVED_SEGMENTS: Final = frozenset({
    "facts", "snapshots", "readings", "domain-changes", "schema", "search", "fetch",
    "openapi.json", "schema.svg", "mcp", "sse", "messages", "t", "_static"})
"""The first path segments REST keeps for its fixed routes, the other transports (``/mcp``,
``/sse``, ``/messages``), federation (``/t``) and the pages' script and stylesheet
(``/_static``); ``arest.rest.routes`` derives the same set from its route table."""

METAMODEL_PLURALS: Final = {"Domain Change": "domain-changes"}
"""The metamodel's nouns whose collection is a fixed route's: ``/domain-changes`` lists the
Domain Changes, and ``POST`` there proposes one."""

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@lru_cache(maxsize=4096)
def slug(noun: str) -> str:
    """A noun's slug: spaces and CamelCase boundaries become hyphens, lower-cased.  Cached:
    every href a representation shows needs one, and a regular expression costs more than
    the rest of the href.

    >>> slug("LineItem"), slug("Fact Type"), slug("URL Alias")
    ('line-item', 'fact-type', 'url-alias')
    """
    return "-".join(_CAMEL.sub("-", noun).lower().split())


def plural(noun: str, declared: str | None = None) -> str:
    """The declared plural (``Noun 'Category' has Plural 'categories'``), or the slug with ``s``.

    >>> plural("LineItem"), plural("Category", "categories")
    ('line-items', 'categories')
    """
    return declared or slug(noun) + "s"


def reserved_plurals(constructs: Iterable[Construct]) -> Iterator[tuple[Source, str]]:
    """A diagnostic, at its declaration, for each entity type the constructs declare whose
    plural (declared among them, or its slug with ``s``) is one of :data:`RESERVED_SEGMENTS`.

    >>> from arest.forml2.constructs import InstanceFact, NounDecl
    >>> found = reserved_plurals([NounDecl("Fact", "entity", ("id",))])
    >>> next(found)[1].startswith("the plural of 'Fact', 'facts', is the REST route /facts")
    True
    >>> list(reserved_plurals([NounDecl("Fact", "entity", ("id",)),
    ...                        InstanceFact(NOUN_PLURALS, ("Fact", "fact-records"))]))
    []
    """
    from arest.forml2.constructs import InstanceFact, NounDecl  # the reader's, loaded with it

    constructs = list(constructs)
    declared = {c.values[0]: c.values[1] for c in constructs
                if isinstance(c, InstanceFact) and c.fact_type == NOUN_PLURALS
                and len(c.values) == 2}
    for construct in constructs:
        if not isinstance(construct, NounDecl) or construct.kind != "entity":
            continue
        name = construct.name
        segment = plural(name, declared.get(name))
        if segment in RESERVED_SEGMENTS and METAMODEL_PLURALS.get(name) != segment:
            yield construct.source, (
                f"the plural of '{name}', '{segment}', is the REST route /{segment}, so its"
                f" entities would have no url: give it another plural, e.g."
                f" Noun '{name}' has Plural '{slug(name)}-records'.")
