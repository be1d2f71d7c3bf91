"""MCP over SSE: ``GET /sse`` opens a stream, the client posts to ``/messages/``.  Tool calls
arrive on the posts, which do not carry the stream's URL, so each stream gets its own server,
built for the surface of its ``GET``; a bad tag or tool name there is 400 before any JSON-RPC.
Who calls is read from each post's own key, never from the ``GET``'s: a stream opened with the
admin key is not a Human for a post bearing an API key.

The bounds of :mod:`arest.transports.sessions` hold for streams: the key of the ``GET``
holds at most ``per_key`` streams open (503 beyond, before the stream opens), and a stream
no post has reached for ``idle_seconds`` is closed by the server (its session id is then
404, and the client opens a new stream).  A stream learns its session id from the
``endpoint`` event it sends its client (the SDK keeps it to itself), and the posts it
receives are counted as they pass to the SDK, so the SDK's streams are left as they are."""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp.server.sse import SseServerTransport
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.types import Message, Receive, Scope, Send

from arest.errors import envelope
from arest.transports.server import Caller, mcp_server
from arest.transports.sessions import too_many_sessions
from arest.transports.web import Web, WebRoutes, url_surface
from arest.verbs import SurfaceError

_SESSION_ID = re.compile(rb"session_id=([0-9a-f]{32})")


@dataclass
class _Stream:
    """One open stream: when a post last reached it, and its session id once sent."""

    last_used: float
    session: str | None = None


@dataclass
class _Streams:
    """The open streams: how many each key holds, and each by its session id."""

    web: Web
    transport: SseServerTransport
    held: Counter[str] = field(default_factory=Counter)
    by_session: dict[str, _Stream] = field(default_factory=dict)

    async def connect(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``GET /sse``: the stream of one MCP session, unless its URL is bad (400) or its
        key holds as many streams as it may (503)."""
        request = Request(scope, receive)
        try:
            chosen = url_surface(request.query_params)
        except SurfaceError as error:
            await Response(json.dumps(envelope(
                "invalid_params", str(error), option=error.option, unknown=error.unknown,
                valid=error.valid)),
                status_code=400, media_type="application/json")(scope, receive, send)
            return
        holder = self.web.access.holder(request.headers)
        if self.held[holder] >= self.web.sessions.per_key:
            await Response(too_many_sessions(self.web.sessions), status_code=503,
                           media_type="application/json")(scope, receive, send)
            return
        self.held[holder] += 1
        try:
            await self._serve(scope, receive, send, chosen)
        finally:
            self.held[holder] -= 1
            if not self.held[holder]:
                del self.held[holder]

    async def _serve(self, scope: Scope, receive: Receive, send: Send, chosen: Any) -> None:
        """Run the stream's server until its client leaves or it is idle too long; a
        stream ended by the server is ended on the wire too (its last, empty chunk)."""
        def caller(post: Any) -> Caller:
            return Caller(chosen, self.web.principal(post))

        server = self.web.extend(mcp_server(self.web.tenant, caller, base=self.web.base,
                                             command_seconds=self.web.command_seconds))
        stream = _Stream(anyio.current_time())
        response = {"started": False, "ended": False}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                response["started"] = True
            elif message["type"] == "http.response.body":
                response["ended"] = not message.get("more_body", False)
                found = _SESSION_ID.search(message.get("body", b""))
                if stream.session is None and found is not None:
                    stream.session = found.group(1).decode()
                    self.by_session[stream.session] = stream
            await send(message)

        try:
            async with anyio.create_task_group() as group:
                group.start_soon(self._close_when_idle, stream, group.cancel_scope)
                streams: Any = self.transport.connect_sse(scope, receive, sending)
                async with streams as (read, write):
                    await server.run(read, write, server.create_initialization_options())
                group.cancel_scope.cancel()
        finally:
            if stream.session is not None:
                self.by_session.pop(stream.session, None)
        if response["started"] and not response["ended"]:
            with contextlib.suppress(OSError):  # the client may be gone as well
                await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _close_when_idle(self, stream: _Stream, stream_scope: anyio.CancelScope
                               ) -> None:
        idle = self.web.sessions.idle_seconds
        while (left := stream.last_used + idle - anyio.current_time()) > 0:
            await anyio.sleep(left)
        stream_scope.cancel()

    async def post(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``POST /messages/?session_id=…``: the SDK's, once the stream it names is marked
        used (an unknown session id is the SDK's 404, and marks nothing)."""
        session = QueryParams(scope.get("query_string", b"")).get("session_id", "")
        stream = self.by_session.get(session.replace("-", "").lower())
        if stream is not None:
            stream.last_used = anyio.current_time()
        await self.transport.handle_post_message(scope, receive, send)


class _Asgi:
    """An ASGI app calling one coroutine function (Starlette routes a function as an
    endpoint taking a request, and anything else as ASGI)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


def routes(web: Web) -> WebRoutes:
    streams = _Streams(web, SseServerTransport("/messages/", security_settings=web.security))
    return WebRoutes([Route("/sse", endpoint=_Asgi(streams.connect), methods=["GET"]),
                      Mount("/messages/", app=streams.post)])

