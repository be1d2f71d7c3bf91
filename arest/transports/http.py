"""MCP over streamable HTTP at ``/mcp``: one server for every request, each request's tools
read from its URL and its caller from its key.  A route, not a mount: a mount answers
``POST /mcp`` with a redirect.

Each key has its own session manager, so a session belongs to the key that opened it (a
request bearing another key is answered 404 for it, as for a session that does not
exist), and the bounds of :mod:`arest.transports.sessions` hold per key: a session no
request has used for ``idle_seconds`` is closed (a client starts a new one), and a key
holds at most ``per_key`` open at once (a new one beyond is refused with 503 until one
closes).  The modern protocol era has no session: its requests are never refused for it."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from arest.transports.access import Access
from arest.transports.server import mcp_server
from arest.transports.web import Web, WebRoutes


class _ByKey:
    """The ASGI app of ``/mcp``: each request goes to the session manager of its key."""

    def __init__(self, access: Access, managers: Mapping[str, StreamableHTTPSessionManager]
                 ) -> None:
        self.access, self.managers = access, managers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        manager = self.managers[self.access.holder(Headers(scope=scope))]
        await manager.handle_request(scope, receive, send)


def routes(web: Web) -> WebRoutes:
    server = web.extend(mcp_server(web.tenant, web.caller, base=web.base,
                                    command_seconds=web.command_seconds))
    managers = {holder: StreamableHTTPSessionManager(
        app=server, security_settings=web.security,
        session_idle_timeout=web.sessions.idle_seconds, max_sessions=web.sessions.per_key)
        for holder in web.access.holders()}

    @contextlib.asynccontextmanager
    async def running() -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            for manager in managers.values():
                await stack.enter_async_context(manager.run())
            yield

    return WebRoutes([Route("/mcp", endpoint=_ByKey(web.access, managers),
                            methods=["GET", "POST", "DELETE"])], running)
