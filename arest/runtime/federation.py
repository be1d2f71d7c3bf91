"""The runtime's side of federation (DESIGN §13): fetch what a read needs, join it, answer.

    answer(D, read)   = marked(apply(joined(D, fetched), read))   when the read fetches
    fetched           = [GET url+uri+/id | X's entity it reads] ++ [GET url+uri | X's
                        collection it reads]       (:mod:`arest.system.federated_reads`)
    answer(D, write to X's own facts) = forbidden
    answer(D, anything else)          = None (the tenant runs it as ever)

X is a noun with ``Noun 'X' is backed by External System 'S'``; ``S``'s ``URL``, X's
``URI`` (default ``/<plural>``) and ``S``'s ``Header`` s and ``Prefix`` say where and how to
ask.  ``apply`` stays pure: the fetched facts join D for this one command
(:func:`arest.system.federated.joined_all`), and the joined D is never kept or journaled.
They do not go in the command's context, because the context is journaled with every
command.  The answer says what came from which request, and what rests on it
(:mod:`arest.system.provenance`).  A write runs on the local D alone, so a replay never
depends on a remote system.

Requests go through :mod:`arest.runtime.outbound` under the operator's policy, with a
conditional request (``If-None-Match``) for what the cache holds; a system's secret comes from
the environment variable ``AREST_SECRET_<SYSTEM>`` (the name upper-cased, other characters
``_``), placed as :func:`headers_sent` says.  It is read per request and never enters D, the
journal, the cache key or an error.
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
from arest.system.backed import BACKED_BY
from arest.system.commands import Command
from arest.system.context import Context
from arest.system.errors import Refusal
from arest.system.federated import joined_all
from arest.system.federated_reads import fetches
from arest.system.links import plural
from arest.system.provenance import Fetch, marked

SYSTEM_URL = "External_System_has_URL"
SYSTEM_HEADER = "External_System_has_Header"
SYSTEM_FRESHNESS = "External_System_has_Freshness_Seconds"
SYSTEM_PREFIX = "External_System_has_Prefix"
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


def headers_sent(lines: tuple[str, ...], prefix: str, secret: str | None) -> dict[str, str]:
    """The headers a system's requests carry: each Header ``Name: value`` as it is, its
    ``{secret}`` replaced by the secret; the secret, unless a Header placed it, in the Header
    naming no value (``Authorization``, ``X-Api-Key``) or else ``Authorization``, after the
    system's Prefix and a space (a named header takes the secret alone without a Prefix,
    ``Authorization`` takes ``Bearer``).  Without a secret, no header carries one.

    >>> headers_sent(("X-Tenant: acme",), "", "s3")
    {'X-Tenant': 'acme', 'Authorization': 'Bearer s3'}
    >>> headers_sent(("Authorization",), "Token", "s3"), headers_sent(("X-Api-Key",), "", "s3")
    ({'Authorization': 'Token s3'}, {'X-Api-Key': 's3'})
    >>> headers_sent(("X-Key: k-{secret}", "X-Api-Key"), "Token", "s3")
    {'X-Key': 'k-s3'}
    >>> headers_sent(("X-Key: k-{secret}", "X-Api-Key"), "Token", None)
    {}
    """
    headers: dict[str, str] = {}
    named: str | None = None
    placed = False
    for line in lines:
        name, colon, value = line.partition(":")
        if not colon:
            named = named or name.strip()
            continue
        if "{secret}" in value:
            if secret is None:
                continue
            value, placed = value.replace("{secret}", secret), True
        headers[name.strip()] = value.strip()
    if secret is not None and not placed:
        word = prefix or ("" if named else "Bearer")
        headers[named or "Authorization"] = f"{word} {secret}" if word else secret
    return headers


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
    prefix: str = ""
    """What goes before the secret, when the system places it (``Bearer``, ``Token``)."""
    timeout: float | None = None
    """The deadline of one request to the system in seconds, when below the server's
    (None: the server's)."""
    max_bytes: int | None = None
    """The longest body read from the system, when below the server's (None: the
    server's bound)."""

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
    prefixes = _values(state, SYSTEM_PREFIX, system)
    return Backing(noun, system, urls[0], uri, tuple(_values(state, SYSTEM_HEADER, system)),
                   _seconds(_values(state, SYSTEM_FRESHNESS, system)),
                   prefixes[0] if prefixes else "",
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

    def reads(self, state: State, command: Command) -> list[tuple[Backing, str | None]]:
        """What a read fetches (:func:`arest.system.federated_reads.fetches`): each backed
        noun's entity (its id) or collection (None), for the nouns with a URL."""
        found = [(backing(state, noun), entity)
                 for noun, entity in fetches(state, command).items()]
        return [(each, entity) for each, entity in found if each is not None]

    def backed_target(self, state: State, command: Command) -> Backing | None:
        """The backing of a noun the command fetches of, or writes the own facts of, if any
        (None too for a command naming what D does not hold: its own error is the answer)."""
        try:
            written = self._written(state, command)
        except Refusal:
            return None
        if written is not None:
            return written
        read = self.reads(state, command)
        return read[0][0] if read else None

    def _written(self, state: State, command: Command) -> Backing | None:
        if command.verb in _FACT_WRITES:
            for fact_type in _fact_types(command.input):
                found = self._first_role_backing(state, fact_type)
                if found is not None:
                    return found
            return None
        if command.verb in _WRITES:
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
        try:
            written = self._written(state, command)
        except Refusal:
            written = None
        if written is not None:
            return Refusal(
                "forbidden",
                f"{command.verb}: {written.noun}'s own facts come from external system "
                f"{written.system!r} and change there, not here; facts where {written.noun} "
                "plays a later role are local and may be written",
                command=command.key, system=written.system, noun=written.noun).envelope
        reads = self.reads(state, command)
        if not reads:
            return None
        if not outbound:
            first = reads[0][0]
            return Refusal(
                "forbidden",
                f"{command.key} reads {first.noun}, which external system {first.system!r}"
                " holds: fetching it needs the permission 'outbound'; use a key that holds it"
                " (--api-key-permissions read,outbound)",
                permission="outbound", command=command.key, system=first.system,
                noun=first.noun).envelope
        fetched: list[tuple[Backing, list[Any], dict[str, str]]] = []
        for found, entity in reads:
            try:
                items, url, fetched_at = self._items(found, entity)
            except Refusal as refusal:
                return refusal.envelope
            fetched.append((found, items, {"system": found.system, "url": url,
                                           "fetched_at": fetched_at}))
        try:
            joined = joined_all(state, [(found.noun, items) for found, items, _ in fetched])
            given = [Fetch(found.noun, ids, frozenset(facts), source)
                     for (found, _, source), facts, ids
                     in zip(fetched, joined.asserted, joined.ids, strict=True)]
        except Refusal as refusal:
            return _unmapped(state, fetched, refusal).envelope
        out, _ = run(joined.state, command, context)
        return marked(joined.state, command, out, given)

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
        return headers_sent(found.headers, found.prefix,
                            self._environ.get(secret_variable(found.system)))

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
        """The operator's policy, its timeout and size lowered to the system's own Timeout
        Seconds and Max Response Bytes where its readings give smaller ones:

            timeout(S) = min(server's timeout, S's Timeout Seconds)
            max_bytes(S) = min(server's max bytes, S's Max Response Bytes)

        The server's bounds are ceilings: whoever may write readings must not exceed the
        operator's safety bound.

        >>> federation = Federation(Policy(timeout=10.0), {}, lambda: "now")
        >>> slow = Backing("Customer", "crm", "https://crm.test", "/customers", (), 0.0,
        ...                timeout=30.0, max_bytes=1024)
        >>> federation.policy_for(slow).timeout, federation.policy_for(slow).max_bytes
        (10.0, 1024)
        """
        policy = self._policy
        if found.timeout is not None and found.timeout < policy.timeout:
            policy = replace(policy, timeout=found.timeout)
        if found.max_bytes is not None and found.max_bytes < policy.max_bytes:
            policy = replace(policy, max_bytes=found.max_bytes)
        return policy

    def _keep(self, key: tuple[str, str], entry: _Cached) -> None:
        with self._lock:
            self._cache[key] = entry
            self._cache.move_to_end(key)
            while len(self._cache) > self._entries:
                self._cache.popitem(last=False)


def _unmapped(state: State, fetched: list[tuple[Backing, list[Any], dict[str, str]]],
              refusal: Refusal) -> Refusal:
    """``bad_response`` naming the system whose answer does not map to its noun (found on
    this error path by joining each answer alone)."""
    failing, error = fetched[0][0], refusal.envelope["error"]
    for found, items, _ in fetched:
        try:
            joined_all(state, [(found.noun, items)])
        except Refusal as alone:
            failing, error = found, alone.envelope["error"]
            break
    return unavailable(failing.system, "bad_response",
                       f"its answer does not map to {failing.noun}: {error['message']}")


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
