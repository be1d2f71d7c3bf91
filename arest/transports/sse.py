"""MCP over SSE: ``GET /sse`` opens a stream, the client posts to ``/messages/``.  Tool calls
arrive on the posts, which do not carry the stream's URL, so each stream gets its own server,
built for the caller of its ``GET``; a bad tag or tool name there is 400 before any JSON-RPC."""

from __future__ import annotations

import json
from typing import Any

from mcp.server.sse import SseServerTransport
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

from arest.errors import envelope
from arest.transports.server import mcp_server
from arest.transports.web import Web, WebRoutes
from arest.verbs import SurfaceError


def routes(web: Web) -> WebRoutes:
    transport = SseServerTransport("/messages/", security_settings=web.security)

    async def connect(request: Request) -> Response:
        try:
            caller = web.caller(request)
        except SurfaceError as error:
            return Response(json.dumps(envelope(
                "invalid_params", str(error), option=error.option, unknown=error.unknown,
                valid=error.valid)),
                status_code=400, media_type="application/json")
        server = web.extend(mcp_server(web.tenant, lambda _: caller))
        streams: Any = transport.connect_sse(request.scope, request.receive, request._send)
        async with streams as (read, write):
            await server.run(read, write, server.create_initialization_options())
        return Response()

    return WebRoutes([Route("/sse", endpoint=connect, methods=["GET"]),
                      Mount("/messages/", app=transport.handle_post_message)])
