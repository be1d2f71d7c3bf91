"""MCP over streamable HTTP at ``/mcp``: one server for every request, each request's tools
read from its URL.  A route, not a mount: a mount answers ``POST /mcp`` with a redirect."""

from __future__ import annotations

from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from starlette.routing import Route

from arest.transports.server import mcp_server
from arest.transports.web import Web, WebRoutes


def routes(web: Web) -> WebRoutes:
    server = web.extend(mcp_server(web.tenant, web.caller))
    manager = StreamableHTTPSessionManager(app=server, security_settings=web.security)
    return WebRoutes([Route("/mcp", endpoint=StreamableHTTPASGIApp(manager),
                            methods=["GET", "POST", "DELETE"])], manager.run)
