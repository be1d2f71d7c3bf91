"""search and fetch: the ChatGPT pair (DESIGN §4, §6) over the tenant's entities.

``search {"query"}`` → ``{"results": [{"id": "Order:o-1", "title": "Order o-1", "url":
"/orders/o-1"}, …]}``: the entities BM25 ranks for the query, best first.  An entity's
document is its noun's name, its id and its field values (a flag, whose value is ``true``,
by its name: ``is rush``); its tokens are its runs of letters and digits, case-folded
(``ann@x.com`` → ``ann``, ``x``, ``com``).  An entity whose id is the query itself
(case-insensitively) comes first; then score, best first; then the entities no whole token
matches but one of whose texts (noun, id, field values) holds the query as a substring,
case-insensitively (``cme`` finds ``acme``); ties by noun, then id.  At most
:data:`MAX_RESULTS`; an entity that neither scores nor holds the query is left out.

``fetch {"id": "Noun:entityId"}`` → ``{"id", "title", "text", "url", "metadata": {"noun",
"entityId", "status"}}``: the entity as ``read:<Noun>`` shows it, as JSON text.  ``status`` is
null for a noun without a machine, so the shape never changes.

Which entities are searched (:func:`tenant_nouns`): the entity types of the tenant's
readings, not the bundled metamodel's, whose entities describe the schema (``Noun
'Order'``, ``Status 'Placed'``) and are served by ``schema`` and ``list:Noun``.  A metamodel
noun the tenant made part of its domain — it plays a role in a fact type of the tenant's
(``App belongs to Organization``) — is searched too.  Entities in a terminal status are
deleted, so they are left out, as ``list`` leaves them out; an entity of a subtype is found
once, under the subtype (whose representation has the supertype's fields too).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from arest.algebra import State
from arest.algebra.relations import Relation
from arest.compiler.cells import FACT_TYPE_ROLES, NOUN_SUPERTYPES
from arest.compiler.fields import status_fact_type
from arest.compiler.population import entity_ids, exists, noun_kind, role_nouns
from arest.forml2 import metamodel
from arest.system.entities import nouns, represent
from arest.system.entity_verbs import read
from arest.system.errors import invalid_input
from arest.system.inputs import checked_text
from arest.system.links import href
from arest.system.machines import is_terminal

Output = dict[str, Any]
MAX_RESULTS = 50
"""The most results a search gives."""
K1, B = 1.2, 0.75
"""BM25's term-frequency saturation and length normalisation, at their usual values."""

_WORD = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """The runs of letters and digits in text, case-folded.

    >>> tokens("Ann@X.com ordered sku_hammer-2")
    ['ann', 'x', 'com', 'ordered', 'sku', 'hammer', '2']
    """
    return _WORD.findall(text.casefold())


def bm25(tf: int, df: int, documents: int, length: int, mean_length: float) -> float:
    """One query term's BM25 weight in one document: IDF · tf·(k₁+1) / (tf + k₁·(1−b+b·|d|/avgdl)),
    with IDF = ln(1 + (N − df + ½)/(df + ½)), which stays positive when most documents hold
    the term.

    >>> round(bm25(1, 1, 10, 4, 4.0), 4), round(bm25(2, 1, 10, 4, 4.0), 4)
    (1.9924, 2.7396)
    >>> bm25(0, 1, 10, 4, 4.0)
    0.0
    """
    if tf == 0:
        return 0.0
    idf = math.log(1 + (documents - df + 0.5) / (df + 0.5))
    return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / mean_length))


def tenant_fact_types(state: State) -> list[str]:
    """The fact types the tenant's readings declare (with their machines' ``<Noun> has
    Status``), by id: D's fact types that are not the bundled metamodel's."""
    relation = state.get(FACT_TYPE_ROLES)
    known = metamodel().schema.fact_types
    ids = {fact[0] for fact in relation} if isinstance(relation, Relation) else set()
    return sorted(fact_type for fact_type in ids if fact_type not in known)


def tenant_nouns(state: State) -> list[str]:
    """The entity types search covers: the tenant's, and the metamodel's that play a role in
    a fact type of the tenant's (a machine's status aside: every machine's noun plays
    ``<Noun> has Status`` with the metamodel's Status)."""
    bundled = metamodel().schema.metamodel
    adopted: set[str] = set()
    for fact_type in tenant_fact_types(state):
        roles = role_nouns(state, fact_type)
        if fact_type != status_fact_type(roles[0]):
            adopted.update(roles)
    return [noun for noun in nouns(state)
            if noun_kind(state, noun) == "entity" and (noun not in bundled or noun in adopted)]


def _words(value: Any) -> Iterator[str]:
    """The text a field's value adds to a document: strings, lists and rows of them."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _words(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _words(item)


def document(entity: Output) -> list[str]:
    """The tokens of an entity representation: noun, id, field values (a flag by its name).

    >>> document({"id": "o-1", "noun": "Order", "Customer": "acme", "is rush": True,
    ...           "_links": {"self": {"href": "/orders/o-1"}}})
    ['order', 'o', '1', 'acme', 'is', 'rush']
    """
    return [token for part in _texts(entity) for token in tokens(part)]


def _texts(entity: Output) -> list[str]:
    """The texts of a document: noun, id, field values (a flag by its name)."""
    text = [entity["noun"], entity["id"]]
    for key, value in entity.items():
        if key in ("id", "noun", "_links"):
            continue
        text.extend([key] if value is True else _words(value))
    return text


def _subtypes(state: State, noun: str) -> list[str]:
    relation = state.get(NOUN_SUPERTYPES)
    return sorted(sub for sub, _ in relation.matching(1, noun)) if isinstance(
        relation, Relation) else []


def _searched(state: State) -> Iterator[tuple[str, str]]:
    """Each searched entity once, as (noun, id): live, under its most specific noun."""
    for noun in tenant_nouns(state):
        subtypes = _subtypes(state, noun)
        for entity in entity_ids(state, noun):
            if any(exists(state, sub, entity) for sub in subtypes):
                continue
            if not is_terminal(state, noun, entity):
                yield noun, entity


def _query(request: Any) -> list[str]:
    if not isinstance(request, dict) or set(request) - {"query"}:
        raise invalid_input("$", 'an object with just "query"')
    query = request.get("query")
    if not isinstance(query, str) or not query.strip():
        raise invalid_input("$.query", "text to search for")
    words = sorted(set(tokens(checked_text(query, "$.query"))))
    if not words:
        raise invalid_input("$.query", "text with at least one word (letters or digits)")
    return words


def search(state: State, request: Any) -> Output:
    """``search {"query"}``: the best-matching entities, ``{"results": [{"id", "title",
    "url"}, …]}``, one pass over the searched entities (only the query's terms are counted).

    >>> import arest
    >>> D = arest.compile("Task(.id) is an entity type.\\nMilestone(.id) is an entity type.\\n"
    ...     "Task targets Milestone.\\nMilestone is targeted.\\n"
    ...     "* Milestone is targeted iff some Task targets that Milestone.")
    >>> _, D = arest.apply(D, "create:Task", {"id": "t1", "Milestone": "m1"})
    >>> search(D, {"query": "t1"})["results"][0]
    {'id': 'Task:t1', 'title': 'Task t1', 'url': '/tasks/t1'}
    """
    words = _query(request)
    wanted = request["query"].strip().casefold()
    counted: list[tuple[str, str, int, Counter[str], bool]] = []
    frequency: Counter[str] = Counter()
    total = 0
    for noun, entity in _searched(state):
        texts = _texts(represent(state, noun, entity))
        found = [token for part in texts for token in tokens(part)]
        hits = Counter(token for token in found if token in words)
        frequency.update(hits.keys())
        total += len(found)
        within = any(wanted in part.casefold() for part in texts)
        counted.append((noun, entity, len(found), hits, within))
    mean = total / len(counted) if counted and total else 1.0
    ranked = []
    for noun, entity, length, hits, within in counted:
        score = sum(bm25(hits[w], frequency[w], len(counted), length, mean) for w in words)
        if score > 0 or within:
            ranked.append((entity.casefold() != wanted, score == 0, -score, noun, entity))
    ranked.sort()
    return {"results": [
        {"id": f"{noun}:{entity}", "title": f"{noun} {entity}", "url": href(state, noun, entity)}
        for *_, noun, entity in ranked[:MAX_RESULTS]
    ]}


def fetch(state: State, request: Any) -> Output:
    """``fetch {"id": "Noun:entityId"}`` (or the id alone): the entity as a document, its
    JSON as ``text``."""
    if isinstance(request, dict) and set(request) == {"id"}:
        given, path = request["id"], "$.id"
    elif isinstance(request, str):
        given, path = request, "$"  # as read takes the id alone
    else:
        raise invalid_input("$", 'an object with just "id", such as {"id": "Order:ord-1"}')
    noun, colon, entity = checked_text(given, path).partition(":") if isinstance(
        given, str) else ("", "", "")
    if not (colon and noun.strip() and entity):
        raise invalid_input(path, '"Noun:entityId", a search result\'s id, such as "Order:ord-1"')
    shown = read(state, noun, {"id": entity})
    return {
        "id": f"{noun}:{entity}",
        "title": f"{noun} {entity}",
        "text": json.dumps(shown, ensure_ascii=False),
        "url": shown["_links"]["self"]["href"],
        "metadata": {"noun": noun, "entityId": entity, "status": shown.get("status")},
    }
