"""MCP over HTTP: one Starlette app over one tenant, built from the routes of the web
transports (the plugins of the entry-point group ``arest.transports.web``, :mod:`arest.transports`).

The caller of each request is read from it (DESIGN §6):

    surface   = tags → +include_tools → −exclude_tools   (URL query; default entity,introspection)
    principal = who the request's key makes it (``access.Access``): Signal Source, permissions

and, when keys are set, every request must bear one (``Authorization: Bearer KEY``: an API
key or the admin key), or it gets 401.  The URL chooses what a client sees; what it may do
is its key's (DESIGN §12).  DNS-rebinding protection is on: the Host and
Origin headers must name the address served.
"""

from __future__ import annotations

import contextlib
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
from arest.system.permissions import Principal
from arest.transports import TransportUnavailable, WebTransport
from arest.transports.access import NO_PERMISSIONS, Access
from arest.transports.server import Caller
from arest.transports.sessions import SessionLimits
from arest.verbs import Surface, surface


def url_surface(query: QueryParams) -> Surface:
    """The surface a URL asks for: ``?tags=a,b&include_tools=x&exclude_tools=y``; a
    parameter given twice counts both values.  Raises ``SurfaceError``."""
    def values(name: str) -> str | None:
        found = query.getlist(name)
        return ",".join(found) if found else None

    return surface(values("tags"), values("include_tools"), values("exclude_tools"))


@dataclass(frozen=True)
class Web:
    """What a web transport is given: the tenant, the access keys, the callers' policy, the
    DNS-rebinding settings for the address served and the bounds on sessions."""

    tenant: Tenant
    access: Access
    security: TransportSecuritySettings
    cors_origins: tuple[str, ...] = ()
    """The origins whose pages may call the REST routes (``--cors-origin``); none: CORS is
    off."""
    sessions: SessionLimits = field(default_factory=SessionLimits)
    """How many MCP sessions each key may hold open, and for how long unused."""
    command_seconds: float | None = None
    """The budget of each MCP tool call's command (``--command-seconds``; None: no time
    limit); a call cancelled by its client stops its command whatever it is."""
    base: str = ""
    """The path prefix the tenant is served under (``/t/<tenant>``; empty: the root): every
    href an answer names carries it (DESIGN §11)."""
    extend: Callable[[Any], Any] = field(default=lambda server: server)
    """Applied to each MCP server built: an embedding program's hook to serve more (tools,
    prompts, resources) beside arest's, as the conformance suite's fixtures do in the tests."""

    def caller(self, request: Any) -> Caller:
        """The caller of one HTTP request: the tools its URL asks for, who its key makes it."""
        return Caller(url_surface(request.query_params), self.principal(request))

    def principal(self, request: Any) -> Principal:
        """Who one HTTP request is, from its own key (None, no request: allowed nothing)."""
        if request is None:
            return NO_PERMISSIONS
        return self.access.principal(request.headers)


@dataclass(frozen=True)
class WebRoutes:
    """What a web transport mounts: its routes, and the lifespan they need running."""

    routes: Sequence[BaseRoute]
    lifespan: Callable[[], contextlib.AbstractAsyncContextManager[None]] | None = None
    fallback: bool = False
    """Whether the routes take what no other transport routes (REST): they are tried last,
    and check keys themselves."""

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
            if mounted[name].fallback:
                continue
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
    """401 for a request to a routed path (and below it) without a key the server accepts;
    the fallback routes answer the other paths, and check keys themselves."""

    def __init__(self, app: ASGIApp, access: Access, paths: Sequence[str]) -> None:
        self.app, self.access, self.paths = app, access, tuple(paths)

    def _routed(self, path: str) -> bool:
        return any(path == p or path.startswith(p.rstrip("/") + "/") for p in self.paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self._routed(route_path(scope)) \
                and not self.access.allows(Headers(scope=scope)):
            body = json.dumps(envelope(
                "unauthorized", "this server needs Authorization: Bearer <API key>")).encode()
            await send({"type": "http.response.start", "status": 401, "headers": [
                (b"content-type", b"application/json"),
                (b"www-authenticate", b'Bearer realm="arest"')]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def route_path(scope: Scope) -> str:
    """The path a request names below the prefix it is served under (``root_path``, as
    ASGI has it: ``/t/shop`` for ``/t/shop/orders``), with one leading slash.

    >>> route_path({"path": "/t/shop/orders", "root_path": "/t/shop"}), route_path({"path": "/mcp"})
    ('/orders', '/mcp')
    """
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        return path[len(root):] or "/"
    return path


def lifespan_of(mounted: Sequence[WebRoutes]
                ) -> Callable[[Any], contextlib.AbstractAsyncContextManager[None]]:
    """The lifespan that runs every mounted transport's for as long as the app serves."""
    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            for routes in mounted:
                if routes.lifespan is not None:
                    await stack.enter_async_context(routes.lifespan())
            yield

    return lifespan


def web_app(web: Web, mounted: Sequence[WebRoutes], lifespan: bool = True) -> ASGIApp:
    """One app with the routes mounted, behind the key check, running their lifespans (or
    not: an app that mounts this one runs them, as :mod:`arest.transports.tenants` does)."""
    ordered = sorted(mounted, key=lambda routes: routes.fallback)
    app = Starlette(routes=[route for routes in ordered for route in routes.routes],
                    lifespan=lifespan_of(mounted) if lifespan else None)
    routed = [path for routes in mounted if not routes.fallback for path in routes.paths()]
    return _Authorization(app, web.access, routed)
