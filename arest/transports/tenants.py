"""Several tenants in one server (DESIGN §11): each is served at ``/t/<tenant>/`` by the
routes every web transport builds over it (REST, ``/t/<tenant>/mcp``,
``/t/<tenant>/sse``), as one tenant is served at the root; the prefix is the request's
``root_path`` (ASGI), and every href an answer names carries it
(:mod:`arest.transports.prefix`).  The keys are the server's, the same for every tenant.
A path outside ``/t/<tenant>/`` of a tenant served is 404 ``unknown_tenant`` (401 first
for a request without an accepted key, so the names served are told to key holders only).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import ASGIApp, Receive, Scope, Send

from arest.transports.access import Access
from arest.transports.web import Web, WebRoutes, lifespan_of, web_app

TENANTS_SEGMENT: Final = "t"
"""The first path segment of a tenant's prefix (reserved: no noun's plural, DESIGN §9)."""


def prefix_of(name: str) -> str:
    """The path a tenant is served under.

    >>> prefix_of("shop")
    '/t/shop'
    """
    return f"/{TENANTS_SEGMENT}/{name}"


def _problem(status: int, code: str, detail: str, **details: Any) -> tuple[int, bytes]:
    body = {"type": f"urn:arest:error:{code}", "title": code.replace("_", " ").capitalize(),
            "status": status, "detail": detail, "code": code, **details}
    return status, json.dumps(body).encode()


class _TenantsRoute(BaseRoute):
    """Takes every request: one under a tenant's prefix goes to that tenant's app, with the
    prefix as its ``root_path``; any other is answered here."""

    path = "/"

    def __init__(self, apps: Mapping[str, ASGIApp], access: Access) -> None:
        self.apps, self.access = dict(apps), access

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        return (Match.FULL if scope["type"] in ("http", "websocket") else Match.NONE), {}

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        raise NoMatchFound(name, path_params)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope["path"]
        first, _, rest = path.removeprefix("/").partition("/")
        name = rest.partition("/")[0]
        app = self.apps.get(name) if first == TENANTS_SEGMENT else None
        if app is not None:
            prefix = prefix_of(name)
            if scope["path"] == prefix:  # the tenant's entry point, as /t/<tenant>/
                scope = {**scope, "path": prefix + "/", "raw_path": (prefix + "/").encode()}
            await app({**scope, "root_path": scope.get("root_path", "") + prefix},
                      receive, send)
            return
        if scope["type"] != "http":
            return  # a websocket no tenant serves: closed unanswered
        if not self.access.allows(Headers(scope=scope)):
            status, body = _problem(401, "unauthorized",
                                    "this server needs Authorization: Bearer <key>")
        else:
            status, body = _problem(
                404, "unknown_tenant", "this server serves tenants at /t/<tenant>/, and"
                f" {scope['path']!r} names none of them", tenants=sorted(self.apps))
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def tenants_app(served: Mapping[str, tuple[Web, Sequence[WebRoutes]]], access: Access
                ) -> ASGIApp:
    """One app serving each tenant named at ``/t/<name>/`` (its :class:`Web`, whose base
    is that prefix, and the routes mounted over it), running every tenant's lifespans."""
    apps = {name: web_app(web, mounted, lifespan=False) for name, (web, mounted)
            in served.items()}
    every = [routes for _, mounted in served.values() for routes in mounted]
    return Starlette(routes=[_TenantsRoute(apps, access)], lifespan=lifespan_of(every))

