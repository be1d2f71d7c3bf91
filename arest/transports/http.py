"""MCP over streamable HTTP at ``/mcp``: one server for every request, each request's tools
read from its URL and its caller from its key.  A route, not a mount: a mount answers
``POST /mcp`` with a redirect.  A session no request has used for
:data:`IDLE_SESSION_SECONDS` is closed (a client starts a new one), and at most
:data:`MAX_SESSIONS` are open at once (a new one beyond is refused until one closes)."""

from __future__ import annotations

from typing import Final

from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from starlette.routing import Route

from arest.transports.server import mcp_server
from arest.transports.web import Web, WebRoutes

IDLE_SESSION_SECONDS: Final = 300.0
MAX_SESSIONS: Final = 256


def routes(web: Web) -> WebRoutes:
    server = web.extend(mcp_server(web.tenant, web.caller, base=web.base))
    manager = StreamableHTTPSessionManager(
        app=server, security_settings=web.security, session_idle_timeout=IDLE_SESSION_SECONDS,
        max_sessions=MAX_SESSIONS)
    return WebRoutes([Route("/mcp", endpoint=StreamableHTTPASGIApp(manager),
                            methods=["GET", "POST", "DELETE"])], manager.run)
