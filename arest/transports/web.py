"""MCP over HTTP: one Starlette app over one tenant, built from the routes of the web
transports (the plugins of the entry-point group ``arest.transports.web``, :mod:`arest.transports`).

The caller of each request is read from it (DESIGN §6):

    surface = tags → +include_tools → −exclude_tools   (URL query; default entity,introspection)
    source  = Human if the request bears the admin key, else Agent

and, when an API key is set, every request must bear a key (``Authorization: Bearer KEY``,
the API key or the admin key), or it gets 401.  DNS-rebinding protection is on: the Host and
Origin headers must name the address served.
"""

from __future__ import annotations

import contextlib
import hmac
import json
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.datastructures import Headers, QueryParams
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from arest.errors import envelope
from arest.runtime import Tenant
from arest.system.context import AGENT, HUMAN
from arest.transports import TransportUnavailable, WebTransport
from arest.transports.server import Caller
from arest.verbs import Surface, surface


@dataclass(frozen=True)
class Access:
    """The keys a server was started with; None: not required / not offered."""

    api_key: str | None = None
    admin_key: str | None = None

    def _bearer(self, headers: Headers) -> str | None:
        scheme, _, token = headers.get("authorization", "").partition(" ")
        return token.strip() if scheme.lower() == "bearer" and token.strip() else None

    def allows(self, headers: Headers) -> bool:
        """Without an API key, anyone; with one, a request bearing it or the admin key."""
        if self.api_key is None:
            return True
        token = self._bearer(headers)
        return token is not None and any(
            key is not None and hmac.compare_digest(token, key)
            for key in (self.api_key, self.admin_key))

    def source(self, headers: Headers) -> str:
        """``Human`` for a request bearing the admin key, else ``Agent``."""
        token = self._bearer(headers)
        admin = self.admin_key
        return HUMAN if admin and token and hmac.compare_digest(token, admin) else AGENT


def url_surface(query: QueryParams) -> Surface:
    """The surface a URL asks for: ``?tags=a,b&include_tools=x&exclude_tools=y``; a
    parameter given twice counts both values.  Raises ``SurfaceError``."""
    def values(name: str) -> str | None:
        found = query.getlist(name)
        return ",".join(found) if found else None

    return surface(values("tags"), values("include_tools"), values("exclude_tools"))


@dataclass(frozen=True)
class Web:
    """What a web transport is given: the tenant, the access keys, the callers' policy and
    the DNS-rebinding settings for the address served."""

    tenant: Tenant
    access: Access
    security: TransportSecuritySettings
    extend: Callable[[Any], Any] = field(default=lambda server: server)
    """Applied to each MCP server built: an embedding program's hook to serve more (tools,
    prompts, resources) beside arest's, as the conformance suite's fixtures do in the tests."""

    def caller(self, request: Any) -> Caller:
        return Caller(url_surface(request.query_params), self.access.source(request.headers))


@dataclass(frozen=True)
class WebRoutes:
    """What a web transport mounts: its routes, and the lifespan they need running."""

    routes: Sequence[BaseRoute]
    lifespan: Callable[[], contextlib.AbstractAsyncContextManager[None]] | None = None

    def paths(self) -> list[str]:
        """The paths routed, as Starlette keeps them (a mount's without its trailing slash).

        >>> from starlette.routing import Mount, Route
        >>> sse = [Route("/sse", endpoint=lambda request: None), Mount("/messages/", routes=[])]
        >>> WebRoutes(sse).paths()
        ['/sse', '/messages']
        """
        return [str(getattr(route, "path", "")) for route in self.routes]


def mount(web: Web, transports: Mapping[str, WebTransport]) -> dict[str, WebRoutes]:
    """Each transport's routes over ``web``, by name; :class:`TransportUnavailable` when one
    fails to build its routes or routes a path another one routes (Starlette would answer
    the first and hide the second)."""
    mounted: dict[str, WebRoutes] = {}
    owners: dict[str, str] = {}
    for name, transport in transports.items():
        try:
            mounted[name] = transport(web)
        except Exception as error:  # a plugin's failure, told in one line
            raise TransportUnavailable(f"the web transport {name!r} cannot build its routes:"
                                       f" {type(error).__name__}: {error}") from error
        for path in mounted[name].paths():
            if path in owners:
                raise TransportUnavailable(
                    f"the web transports {owners[path]!r} and {name!r} both route {path}:"
                    " uninstall one of them")
            owners[path] = name
    return mounted


def security_for(host: str, port: int, names: Sequence[str] = ()) -> TransportSecuritySettings:
    """Requests must name this server (Host) and come from a page of it (Origin), so a page
    elsewhere cannot reach a local server through DNS rebinding.  The server's names are the
    address served (all loopback names for a loopback address) and the given names, the
    ones its clients use to reach it (``arest.example.com``).

    >>> security_for("127.0.0.1", 4009).allowed_hosts[:2]
    ['127.0.0.1:4009', '[::1]:4009']
    >>> security_for("0.0.0.0", 80, ["arest.example.com"]).allowed_origins[:4]
    ['http://0.0.0.0:80', 'http://arest.example.com:80', 'http://0.0.0.0', 'http://arest.example.com']
    """
    hosts = {host, "127.0.0.1", "localhost", "[::1]"} if host in (
        "127.0.0.1", "localhost", "::1") else {host}
    hosts |= set(names)
    served = sorted(f"[{h}]" if ":" in h and not h.startswith("[") else h for h in hosts)
    places = [f"{name}:{port}" for name in served] + served
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=places,
        allowed_origins=[f"{scheme}://{place}" for scheme in ("http", "https")
                         for place in places])


class _Authorization:
    """401 for a request without a key the server accepts."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app, self.access = app, access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self.access.allows(Headers(scope=scope)):
            body = json.dumps(envelope(
                "unauthorized", "this server needs Authorization: Bearer <API key>")).encode()
            await send({"type": "http.response.start", "status": 401, "headers": [
                (b"content-type", b"application/json"),
                (b"www-authenticate", b'Bearer realm="arest"')]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def web_app(web: Web, mounted: Sequence[WebRoutes]) -> ASGIApp:
    """One app with the routes and lifespans mounted, behind the key check."""
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            for routes in mounted:
                if routes.lifespan is not None:
                    await stack.enter_async_context(routes.lifespan())
            yield

    app = Starlette(routes=[route for routes in mounted for route in routes.routes],
                    lifespan=lifespan)
    return _Authorization(app, web.access)
