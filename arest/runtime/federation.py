"""The runtime's side of federation (DESIGN §13): fetch what a read needs, join it, answer.

    answer(D, get:X id)  = apply(joined(D, X, [GET url+uri+/id]), get:X id)   + source
    answer(D, list:X …)  = apply(joined(D, X, GET url+uri), list:X …)          + source
    answer(D, query:F …) = as list:X, X the noun playing F's first role
    answer(D, write to X's own facts) = forbidden
    answer(D, anything else)          = None (the tenant runs it as ever)

X is a noun with ``Noun 'X' is backed by External System 'S'``; ``S``'s ``URL``, X's
``URI`` (default ``/<plural>``) and ``S``'s ``Header`` s say where and how to ask.  ``apply``
stays pure: the fetched facts join D for this one command (:func:`arest.system.federated
.joined`), and the joined D is never kept or journaled.  They do not go in the command's
context, because the context is journaled with every command.  A write runs on the local D
alone, so a replay never depends on a remote system.

Requests go through :mod:`arest.runtime.outbound` under the operator's policy, with a
conditional request (``If-None-Match``) for what the cache holds; a system's secret comes from
the environment variable ``AREST_SECRET_<SYSTEM>`` (the name upper-cased, other characters
``_``), placed where a Header says ``{secret}``, else sent as ``Authorization: Bearer``.  It is
read per request and never enters D, the journal, the cache key or an error.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar
from urllib.parse import quote, urljoin, urlsplit

from arest.algebra import State
from arest.compiler.change import Change
from arest.compiler.population import relation_in
from arest.forml2.system_settings import MAX_BYTES, TIMEOUT, byte_count, seconds
from arest.runtime.outbound import Policy, Response, fetch, unavailable
from arest.system.apply import run
from arest.system.commands import Command
from arest.system.context import Context
from arest.system.errors import Refusal
from arest.system.federated import item_fields, joined
from arest.system.inputs import entity_id
from arest.system.links import plural

BACKED_BY = "Noun_is_backed_by_External_System"
SYSTEM_URL = "External_System_has_URL"
SYSTEM_HEADER = "External_System_has_Header"
SYSTEM_FRESHNESS = "External_System_has_Freshness_Seconds"
NOUN_URI = "Noun_has_URI"

N = TypeVar("N", int, float)

SECRET_PREFIX = "AREST_SECRET_"
PAGES = 20
"""The most pages of a collection followed by its ``_links.next`` (another arest pages its
collections)."""

CACHE_ENTRIES = 1024
"""The most responses the cache keeps (the least recently used goes first)."""

_WRITES = frozenset({"create", "update", "delete", "transition"})
_FACT_WRITES = frozenset({"assert", "retract"})


def secret_variable(system: str) -> str:
    """The environment variable holding a system's secret.

    >>> secret_variable("crm-eu.1")
    'AREST_SECRET_CRM_EU_1'
    """
    return SECRET_PREFIX + re.sub(r"[^A-Z0-9]", "_", system.upper())


@dataclass(frozen=True)
class Backing:
    """Where a backed noun's population comes from."""

    noun: str
    system: str
    url: str
    uri: str
    headers: tuple[str, ...]
    freshness: float = 0.0
    """Seconds a cached answer is used without asking again (0: always revalidate)."""
    timeout: float | None = None
    """The deadline of one request to the system in seconds (None: the server's)."""
    max_bytes: int | None = None
    """The longest body read from the system (None: the server's bound)."""

    @property
    def collection(self) -> str:
        return self.url.rstrip("/") + "/" + self.uri.lstrip("/")

    def item(self, entity: str) -> str:
        return self.collection.rstrip("/") + "/" + quote(entity, safe="")


def _values(state: State, fact_type: str, key: str) -> list[str]:
    relation = relation_in(state, fact_type)
    return [] if relation is None else sorted(fact[1] for fact in relation.matching(0, key))


def backing(state: State, noun: str) -> Backing | None:
    """The noun's backing, when it is backed by a system with a URL."""
    systems = _values(state, BACKED_BY, noun)
    if not systems:
        return None
    system = systems[0]
    urls = _values(state, SYSTEM_URL, system)
    if not urls:
        return None
    uris = _values(state, NOUN_URI, noun)
    uri = uris[0] if uris else "/" + plural(state, noun)
    return Backing(noun, system, urls[0], uri, tuple(_values(state, SYSTEM_HEADER, system)),
                   _seconds(_values(state, SYSTEM_FRESHNESS, system)),
                   _setting(_values(state, TIMEOUT, system), seconds),
                   _setting(_values(state, MAX_BYTES, system), byte_count))


def _setting(values: list[str], parse: Callable[[str], N | None]) -> N | None:
    """A system's own bound, parsed; None (the server's) without one.  The readings refuse
    a value that is not a number above 0 as they are read (``arest.forml2.system_settings``).

    >>> _setting(["2.5"], seconds), _setting([], seconds), _setting(["0"], byte_count)
    (2.5, None, None)
    """
    parsed = parse(values[0]) if values else None
    return parsed or None


def _seconds(values: list[str]) -> float:
    """A Freshness Seconds value as a number of seconds (0 when absent or not a number ≥ 0).

    >>> _seconds(["60"]), _seconds([]), _seconds(["soon"])
    (60.0, 0.0, 0.0)
    """
    try:
        seconds = float(values[0]) if values else 0.0
    except ValueError:
        return 0.0
    return seconds if seconds >= 0 else 0.0


@dataclass(frozen=True)
class _Cached:
    etag: str | None
    body: Any
    fetched_at: str
    stored: float
    """When it was stored, on the monotonic clock."""


class Federation:
    """Fetches for the commands of one tenant: the operator's policy, the environment the
    secrets come from, the clock that stamps a fetch, and a bounded cache of responses."""

    def __init__(self, policy: Policy, environ: Mapping[str, str],
                 clock: Callable[[], str], entries: int = CACHE_ENTRIES,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._policy = policy
        self._environ = environ
        self._clock = clock
        self._entries = entries
        self._monotonic = monotonic
        self._cache: OrderedDict[tuple[str, str], _Cached] = OrderedDict()
        self._lock = threading.Lock()

    def backed_target(self, state: State, command: Command) -> Backing | None:
        """The backing of the noun a command reads or writes the own facts of, if any (None
        too for a command naming what D does not hold: its own error is the answer)."""
        try:
            return self._backed_target(state, command)
        except Refusal:
            return None

    def _backed_target(self, state: State, command: Command) -> Backing | None:
        if command.verb in _FACT_WRITES:
            for fact_type in _fact_types(command.input):
                found = self._first_role_backing(state, fact_type)
                if found is not None:
                    return found
            return None
        if command.verb == "query":
            return self._first_role_backing(state, command.target)
        if command.verb in _WRITES or command.verb in ("get", "read", "list"):
            return backing(state, command.target)
        return None

    @staticmethod
    def _first_role_backing(state: State, fact_type: str) -> Backing | None:
        roles = Change(state).roles(fact_type)
        return backing(state, roles[0]) if roles else None

    def answer(self, state: State, command: Command, context: Context, outbound: bool = True
               ) -> dict[str, Any] | None:
        """The command's output when it concerns a backed noun (None otherwise); a read is
        ``forbidden`` when the caller does not hold ``outbound``."""
        found = self.backed_target(state, command)
        if found is None:
            return None
        if command.verb in _WRITES or command.verb in _FACT_WRITES:
            return Refusal(
                "forbidden",
                f"{command.verb}: {found.noun}'s own facts come from external system "
                f"{found.system!r} and change there, not here; facts where {found.noun} "
                "plays a later role are local and may be written",
                command=command.key, system=found.system, noun=found.noun).envelope
        if not outbound:
            return Refusal(
                "forbidden",
                f"{command.key} reads {found.noun}, which external system {found.system!r}"
                " holds: fetching it needs the permission 'outbound'; use a key that holds it"
                " (--api-key-permissions read,outbound)",
                permission="outbound", command=command.key, system=found.system,
                noun=found.noun).envelope
        try:
            entity = _one(command)
        except Refusal as refusal:  # the command's own input error
            return refusal.envelope
        try:
            items, url, fetched_at = self._items(found, entity)
            local = joined(state, found.noun, items)
            fetched = {item_fields(state, found.noun, item, "$")[0] for item in items}
        except Refusal as refusal:
            if refusal.envelope["error"]["code"] == "external_unavailable":
                return refusal.envelope
            error = refusal.envelope["error"]
            return unavailable(found.system, "bad_response",
                               f"its answer does not map to {found.noun}: "
                               f"{error['message']}").envelope
        out, _ = run(local, command, context)
        return _marked(out, found, fetched,
                       {"system": found.system, "url": url, "fetched_at": fetched_at})

    def _items(self, found: Backing, entity: str | None) -> tuple[list[Any], str, str]:
        """The JSON items a command reads (the entity's, or the collection's), the URL they
        came from and when."""
        if entity is not None:
            url = found.item(entity)
            body, fetched_at = self._get(url, found, missing_ok=True)
            return ([] if body is None else [body]), url, fetched_at
        url = found.collection
        items: list[Any] = []
        page: str | None = url
        for _ in range(PAGES):
            if page is None:
                break
            body, fetched_at = self._get(page, found, missing_ok=False)
            items.extend(_page_items(body, page, found.system))
            page = _next_page(body, page, found.system)
        return items, url, fetched_at

    def _headers(self, found: Backing) -> dict[str, str]:
        secret = self._environ.get(secret_variable(found.system))
        headers: dict[str, str] = {}
        placed = False
        for line in found.headers:
            name, _, value = line.partition(":")
            if secret is not None and "{secret}" in value:
                value, placed = value.replace("{secret}", secret), True
            headers[name.strip()] = value.strip()
        if secret is not None and not placed:
            headers["Authorization"] = f"Bearer {secret}"
        return headers

    def _get(self, url: str, found: Backing, missing_ok: bool) -> tuple[Any, str]:
        """The JSON body at url (None for a 404 when missing_ok) and when it was fetched:
        from the cache while fresh, else revalidating what it holds."""
        key = (found.system, url)
        with self._lock:
            cached = self._cache.get(key)
        if cached is not None and self._monotonic() - cached.stored < found.freshness:
            return cached.body, cached.fetched_at
        headers = self._headers(found)
        if cached is not None and cached.etag is not None:
            headers["If-None-Match"] = cached.etag
        response = fetch(url, self.policy_for(found), found.system, headers)
        if response.status == 304 and cached is not None:
            self._keep(key, _Cached(cached.etag, cached.body, cached.fetched_at,
                                    self._monotonic()))
            return cached.body, cached.fetched_at
        if response.status == 404 and missing_ok:
            return None, self._clock()
        if not 200 <= response.status < 300:
            raise unavailable(found.system, response.status,
                              f"{url} answered HTTP {response.status}")
        body = _json(response, found.system)
        fetched_at = self._clock()
        etag = response.headers.get("etag")
        if etag or found.freshness > 0:
            self._keep(key, _Cached(etag, body, fetched_at, self._monotonic()))
        return body, fetched_at

    def policy_for(self, found: Backing) -> Policy:
        """The operator's policy, with the system's own Timeout Seconds and Max Response
        Bytes where its readings give them (the server's bounds are the defaults).

        >>> federation = Federation(Policy(timeout=10.0), {}, lambda: "now")
        >>> slow = Backing("Customer", "crm", "https://crm.test", "/customers", (), 0.0, 30.0)
        >>> federation.policy_for(slow).timeout, federation.policy_for(slow).max_bytes
        (30.0, 8388608)
        """
        policy = self._policy
        if found.timeout is not None:
            policy = replace(policy, timeout=found.timeout)
        if found.max_bytes is not None:
            policy = replace(policy, max_bytes=found.max_bytes)
        return policy

    def _keep(self, key: tuple[str, str], entry: _Cached) -> None:
        with self._lock:
            self._cache[key] = entry
            self._cache.move_to_end(key)
            while len(self._cache) > self._entries:
                self._cache.popitem(last=False)


def _json(response: Response, system: str) -> Any:
    try:
        return json.loads(response.body)
    except (ValueError, RecursionError):
        raise unavailable(system, "bad_response",
                          f"{response.url} answers no JSON") from None


def _page_items(body: Any, url: str, system: str) -> list[Any]:
    """A page's items: the body, a JSON list, or its ``items``."""
    if isinstance(body, dict) and isinstance(body.get("items"), list):
        body = body["items"]
    if not isinstance(body, list):
        raise unavailable(system, "bad_response",
                          f"{url} answers no list of items (nor an object with items)")
    return body


def _next_page(body: Any, url: str, system: str) -> str | None:
    """The URL of the page after this one (``_links.next.href``), on the same origin: the
    system's headers, a secret among them, are sent to its own origin only."""
    links = body.get("_links") if isinstance(body, dict) else None
    following = links.get("next") if isinstance(links, dict) else None
    href = following.get("href") if isinstance(following, dict) else None
    if not isinstance(href, str):
        return None
    page = urljoin(url, href)
    here, there = urlsplit(url), urlsplit(page)
    if (here.scheme, here.netloc) != (there.scheme, there.netloc):
        raise unavailable(system, "bad_response",
                          f"{url} names a next page on another origin, {there.netloc}")
    return page


def _fact_types(request: Any) -> list[str]:
    """The fact types an assert or retract names (its shape is checked by the command)."""
    if not isinstance(request, dict):
        return []
    facts = request.get("facts", [request])
    if not isinstance(facts, list):
        return []
    return [fact["fact_type"] for fact in facts
            if isinstance(fact, dict) and isinstance(fact.get("fact_type"), str)]


def _one(command: Command) -> str | None:
    """The id of the one entity a read names; None when it reads the whole collection
    (``list``, ``query``, ``get`` without an id, as ``get`` itself decides)."""
    request = command.input
    if command.verb == "read" or (command.verb == "get" and request not in (None, {}) and not (
            isinstance(request, dict) and "id" not in request)):
        return entity_id(request)
    return None


def _marked(out: dict[str, Any], found: Backing, fetched: set[str],
            source: dict[str, str]) -> dict[str, Any]:
    """The output with ``source`` on each entity or row that came from the system."""
    def mark(entity: Any) -> Any:
        if isinstance(entity, dict) and entity.get("noun") == found.noun and (
                entity.get("id") in fetched):
            return {**entity, "source": source}
        return entity

    if "error" in out:
        return out
    if isinstance(out.get("items"), list):
        return {**out, "items": [mark(item) for item in out["items"]]}
    if isinstance(out.get("rows"), list):
        return {**out, "rows": [{**row, "source": source}
                                if isinstance(row, dict) and row.get(found.noun) in fetched
                                else row for row in out["rows"]]}
    entity: dict[str, Any] = mark(out)
    return entity
