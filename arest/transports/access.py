"""Who a request is, from the key it bears (DESIGN §12): the keys ``arest serve`` accepts,
checked before anything is served.

    no keys  ⇒  every request an Agent holding read,write (a loopback address only)
    keys     ⇒  a request bearing none is refused; the admin key a Human holding every
                permission, an API key an Agent holding its permissions

Kept apart from the web app, so that a server refuses unusable keys before it loads the
MCP SDK.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from arest.errors import ArestError
from arest.system.context import AGENT
from arest.system.permissions import ADMIN, AGENT_PRINCIPAL, Principal

if TYPE_CHECKING:
    from starlette.datastructures import Headers

NO_PERMISSIONS: Final = Principal(AGENT, frozenset())
"""Who a request is when its key cannot be told (never past the key check): allowed nothing."""


class UnusableKey(ArestError, ValueError):
    """Raised for a key the server cannot use; the message says why and what would do."""


def usable_key(option: str, key: str) -> str:
    """The key, or :class:`UnusableKey` when it is empty or holds anything but visible ASCII
    (an HTTP header carries it; a key a client cannot send would lock everyone out).

    >>> usable_key("--api-key", "s3cret")
    's3cret'
    >>> usable_key("--admin-key", "clé")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arest.transports.access.UnusableKey: --admin-key: a key is visible ASCII characters ...
    """
    if not key or not all("!" <= char <= "~" for char in key):
        what = "empty" if not key else "not"
        raise UnusableKey(f"{option}: a key is visible ASCII characters (no spaces), and this"
                        f" one is {what}")
    return key


@dataclass(frozen=True)
class Key:
    """One key the server accepts: its name (for the operator), its secret and who bears it."""

    name: str
    secret: str
    principal: Principal


def api_keys(values: Sequence[str], granted: frozenset[str]) -> list[Key]:
    """The API keys ``--api-key`` gives, each ``KEY`` or ``NAME=KEY`` (a key holding ``=``
    is given with a name), each an Agent with the granted permissions; :class:`UnusableKey`
    for an unusable one or a name given twice.

    >>> [(k.name, k.secret) for k in api_keys(["ci=abc", "xyz"], frozenset({"read"}))]
    [('ci', 'abc'), ('api-key-2', 'xyz')]
    """
    keys: list[Key] = []
    for number, value in enumerate(values, 1):
        name, equals, secret = value.partition("=")
        if not equals:
            name, secret = f"api-key-{number}", value
        elif not name:
            raise UnusableKey("--api-key: NAME=KEY needs a name before '='")
        if name in {key.name for key in keys}:
            raise UnusableKey(f"--api-key: the name {name!r} is given twice")
        keys.append(Key(name, usable_key("--api-key", secret), Principal(AGENT, granted)))
    return keys


@dataclass(frozen=True)
class Access:
    """The keys a server accepts (DESIGN §12): none, and every request is an Agent with
    read,write (a server without keys serves a loopback address only); else every request
    must bear one of them (``Authorization: Bearer KEY``), and is who that key makes it:
    the admin key a Human with every permission, an API key an Agent with its permissions.
    The key of each request decides, never a session's."""

    keys: tuple[Key, ...] = ()

    @classmethod
    def of(cls, api: Sequence[str] = (), admin: str | None = None,
           granted: frozenset[str] = AGENT_PRINCIPAL.permissions) -> Access:
        """The access of ``arest serve --api-key … --admin-key … --api-key-permissions …``;
        :class:`UnusableKey` for an unusable key."""
        keys = api_keys(api, granted)
        if admin is not None:
            keys.append(Key("admin", usable_key("--admin-key", admin), ADMIN))
        secrets = [key.secret for key in keys]
        if len(set(secrets)) != len(secrets):
            raise UnusableKey("the same key is given twice (as two API keys, or as an API key"
                            " and the admin key): each key must be distinct")
        return cls(tuple(keys))

    def _bearer(self, headers: Headers) -> str | None:
        scheme, _, token = headers.get("authorization", "").partition(" ")
        return token.strip() if scheme.lower() == "bearer" and token.strip() else None

    def key(self, headers: Headers) -> Key | None:
        """The key a request bears, if the server accepts it.  A token that is not ASCII
        matches no key (every accepted key is ASCII), so it is refused, never an error."""
        token = self._bearer(headers)
        if token is None or not token.isascii():
            return None
        found = None
        for key in self.keys:  # compare with every key, so the time says nothing of which
            if hmac.compare_digest(token.encode(), key.secret.encode()):
                found = key
        return found

    def allows(self, headers: Headers) -> bool:
        """Without keys, anyone; with keys, a request bearing one of them."""
        return not self.keys or self.key(headers) is not None

    def holder(self, headers: Headers) -> str:
        """The name of the key a request bears, whose sessions it opens and uses (``""``
        on a server without keys, or for a key it does not accept)."""
        key = self.key(headers) if self.keys else None
        return "" if key is None else key.name

    def holders(self) -> list[str]:
        """Every name :meth:`holder` may give.

        >>> Access.of(["ci=abc"], "root").holders()
        ['', 'ci', 'admin']
        """
        return ["", *(key.name for key in self.keys)]

    def principal(self, headers: Headers) -> Principal:
        """Who a request is, from its key: an Agent with read,write when the server has no
        keys; nothing allowed for a request with no accepted key (the key check answers it
        401 first)."""
        if not self.keys:
            return AGENT_PRINCIPAL
        key = self.key(headers)
        return NO_PERMISSIONS if key is None else key.principal
