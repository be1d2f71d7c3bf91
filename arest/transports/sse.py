"""MCP over SSE: ``GET /sse`` opens a stream, the client posts to ``/messages/``.  Tool calls
arrive on the posts, which do not carry the stream's URL, so each stream gets its own server,
built for the surface of its ``GET``; a bad tag or tool name there is 400 before any JSON-RPC.
Who calls is read from each post's own key, never from the ``GET``'s: a stream opened with the
admin key is not a Human for a post bearing an API key."""

from __future__ import annotations

import json
from typing import Any

from mcp.server.sse import SseServerTransport
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

from arest.errors import envelope
from arest.transports.server import Caller, mcp_server
from arest.transports.web import Web, WebRoutes, url_surface
from arest.verbs import SurfaceError


def routes(web: Web) -> WebRoutes:
    transport = SseServerTransport("/messages/", security_settings=web.security)

    async def connect(request: Request) -> Response:
        try:
            chosen = url_surface(request.query_params)
        except SurfaceError as error:
            return Response(json.dumps(envelope(
                "invalid_params", str(error), option=error.option, unknown=error.unknown,
                valid=error.valid)),
                status_code=400, media_type="application/json")
        def caller(post: Any) -> Caller:
            return Caller(chosen, web.principal(post))

        server = web.extend(mcp_server(web.tenant, caller, base=web.base))
        streams: Any = transport.connect_sse(request.scope, request.receive, request._send)
        async with streams as (read, write):
            await server.run(read, write, server.create_initialization_options())
        return Response()

    return WebRoutes([Route("/sse", endpoint=connect, methods=["GET"]),
                      Mount("/messages/", app=transport.handle_post_message)])
