"""REST over HTTP (DESIGN §9): every path the other web transports do not route, answered by
:func:`arest.rest.answer.answer` over the server's tenant.

This module only carries HTTP: it checks the Host (421) and Origin (403) headers as the MCP
routes do, answers CORS for the origins ``--cors-origin`` names, asks for a key the server
accepts (401), reads at most :data:`~arest.rest.answer.MAX_BODY_BYTES` of body (413), and
hands the request over as a :class:`~arest.rest.answer.Request` with the raw path, whose
segments the answer decodes once.  The caller is who the request's own key makes it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qsl

import anyio.to_thread
from starlette.datastructures import Headers
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import Receive, Scope, Send

from arest.rest.answer import (
    JSON,
    MAX_BODY_BYTES,
    PROBLEM,
    Problem,
    Request,
    Response,
    answer,
    answer_at_once,
    problem,
    segments,
)
from arest.rest.pages import STATIC, TextResponse, asset, negotiated, prefers_html
from arest.rest.routes import MIN_SEQUENCE_HEADER, OPENAPI, SEQUENCE_HEADER
from arest.runtime import Tenant
from arest.runtime.budget import Budget
from arest.transports.prefix import prefixed, prefixed_links, prefixed_page
from arest.transports.sequence import (
    MIN_SEQUENCE_WAIT_SECONDS,
    RETRY_AFTER_SECONDS,
    BadMinimum,
    minimum_of,
    reached,
)
from arest.transports.web import Web, WebRoutes

log = logging.getLogger(__name__)

CORS_METHODS = "GET, POST, PATCH, DELETE"
CORS_HEADERS = "Authorization, Content-Type, If-Match, If-None-Match, Arest-Min-Sequence"


DRAINED_BYTES = 16 << 20
"""How much of a body beyond the limit is read and dropped before the 413 is sent, so a
client still sending it reads the answer instead of a reset connection."""


class _TooLarge(Exception):
    """Raised while reading a body that goes beyond the limit."""


async def _drain(receive: Receive, declared: str | None, more: bool) -> None:
    """Read and drop the rest of a body too large to take (up to :data:`DRAINED_BYTES`)."""
    if declared is not None and declared.isdigit() \
            and int(declared) > MAX_BODY_BYTES + DRAINED_BYTES:
        return
    drained = 0
    while more and drained < DRAINED_BYTES:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        drained += len(message.get("body", b""))
        more = message.get("more_body", False)


async def _body(receive: Receive, declared: str | None) -> bytes:
    """The request's body, or :class:`_TooLarge` as soon as it is known to be too large
    (the rest of it drained)."""
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        await _drain(receive, declared, True)
        raise _TooLarge
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            await _drain(receive, declared, message.get("more_body", False))
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def _send(send: Send, response: Response | TextResponse, extra: list[tuple[str, str]],
                head: bool) -> None:
    headers = [*response.headers, *extra]
    body = b""
    if isinstance(response, TextResponse):
        body = response.body
        if response.status != 304:
            headers.append(("content-type", response.media_type))
    elif response.body is not None:
        body = response.body.encode() if response.media else \
            json.dumps(response.body, ensure_ascii=False).encode()
        headers.append(("content-type", response.media_type))
    headers.append(("content-length", str(len(body))))
    await send({"type": "http.response.start", "status": response.status,
                "headers": [(k.encode("latin-1"), v.encode("utf-8")) for k, v in headers]})
    await send({"type": "http.response.body", "body": b"" if head else body})


async def _answered_while_connected(tenant: Tenant, request: Request, receive: Receive
                                    ) -> Response:
    """The answer, computed on a worker thread; a client that goes away before it is ready
    cancels the request's budget, so its command stops, changes nothing and is logged."""
    async def cancel_on_disconnect() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass  # the body is read already: nothing else is expected before the end
        if request.budget is not None:
            request.budget.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(cancel_on_disconnect)
        response = await anyio.to_thread.run_sync(answer, tenant, request)
        group.cancel_scope.cancel()
    if response.body and isinstance(response.body, dict) and \
            response.body.get("reason") == "cancelled":
        log.warning("arest REST: %s %s ended, its client gone: limit_exceeded",
                    request.method, request.path)
    return response


def _raw_path(scope: Scope) -> str:
    """The path as sent (each byte the latin-1 character of it), below the prefix the
    tenant is served under (``root_path``: ``/t/<tenant>``, whose characters are sent as
    they are)."""
    raw: bytes = scope.get("raw_path") or scope["path"].encode()
    path, root = raw.decode("latin-1"), scope.get("root_path", "")
    return (path[len(root):] or "/") if root and path.startswith(root) else path


def _static_name(scope: Scope) -> str | None:
    """The file a ``/_static/<name>`` path names, or None for any other path."""
    try:
        parts = segments(_raw_path(scope))
    except Problem:
        return None
    return parts[1] if len(parts) == 2 and parts[0] == STATIC else None


class RestRoute(BaseRoute):
    """A route that takes every HTTP request: mounted after every other route, it answers
    what they do not."""

    path = "/"

    def __init__(self, web: Web) -> None:
        self.web = web
        self.hosts = set(web.security.allowed_hosts)
        self.origins = set(web.security.allowed_origins) | set(web.cors_origins)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        return (Match.FULL if scope["type"] == "http" else Match.NONE), {}

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        raise NoMatchFound(name, path_params)  # REST routes have no names to look up

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        head = scope["method"] == "HEAD"
        if head:  # a GET whose body is not sent
            scope = {**scope, "method": "GET"}
        origin = headers.get("origin")
        cors = ([("access-control-allow-origin", origin), ("vary", "Origin"),
                 ("access-control-expose-headers", "ETag, Location, Arest-Sequence")]
                if origin is not None and origin in self.web.cors_origins else [])
        # A GET is negotiated: a browser (text/html first by q-values) gets the page of the
        # very answer a JSON client gets (arest/rest/pages.py); the answer is computed as a
        # JSON client's, without the page's If-None-Match, which names a page's tag.
        html = scope["method"] == "GET" and prefers_html(headers.get("accept"))
        response: Response | TextResponse = await self._respond(
            scope, receive, headers, origin, bool(cors), html)
        # Only a JSON answer has a page: another media type (an image) is sent as it is.
        if html and isinstance(response, Response) and response.media_type in (JSON, PROBLEM):
            response = await anyio.to_thread.run_sync(
                negotiated, self.web.tenant.state, _raw_path(scope), response,
                headers.get("if-none-match"))
            if self.web.base:
                response = replace(response, body=prefixed_page(self.web.base, response.body))
        elif isinstance(response, Response):
            response = self._prefixed(response, _raw_path(scope))
            if scope["method"] == "GET":
                response = replace(response, headers=(*response.headers, ("vary", "Accept")))
        await _send(send, response, cors, head)

    def _prefixed(self, response: Response, path: str) -> Response:
        """The answer as the tenant's prefix has it: every link and ``Location`` under it,
        and the OpenAPI document's paths relative to a server at the prefix."""
        base = self.web.base
        if not base:
            return response
        headers = tuple((name, prefixed(base, value) if name == "location" else value)
                        for name, value in response.headers)
        body = response.body if response.media else prefixed_links(base, response.body)
        if path == OPENAPI and response.status == 200 and isinstance(body, dict):
            body = {**body, "servers": [{"url": base}]}
        return replace(response, body=body, headers=headers)

    async def _respond(self, scope: Scope, receive: Receive, headers: Headers,
                       origin: str | None, cors: bool, html: bool
                       ) -> Response | TextResponse:
        if headers.get("host") not in self.hosts:
            return problem("misdirected_request", "this server does not serve the Host"
                           f" {headers.get('host')!r}: reach it by a name it serves"
                           " (--allowed-host)")
        if origin is not None and origin not in self.origins:
            return problem("forbidden_origin", f"requests from {origin!r} are not allowed:"
                           " arest serve --cors-origin names the origins allowed")
        if scope["method"] == "OPTIONS" and cors:
            return Response(204, None, (
                ("access-control-allow-methods", CORS_METHODS),
                ("access-control-allow-headers", CORS_HEADERS),
                ("access-control-max-age", "600")))
        static = _static_name(scope)
        if static is not None:  # the page's script and style: no data, served without a key
            found = asset(static) if scope["method"] == "GET" else None
            return found or problem("unknown_path", f"no resource at /{STATIC}/{static}",
                                    path=f"/{STATIC}/{static}")
        if not self.web.access.allows(headers):
            return problem("unauthorized", "this server needs Authorization: Bearer <key>",
                           (("www-authenticate", 'Bearer realm="arest"'),))
        try:
            body = await _body(receive, headers.get("content-length"))
        except _TooLarge:
            return problem("body_too_large", f"a body is at most {MAX_BODY_BYTES} bytes",
                           limit=MAX_BODY_BYTES)
        try:
            minimum = minimum_of(headers.get(MIN_SEQUENCE_HEADER))
        except BadMinimum as error:
            return problem("invalid_input", str(error), path=MIN_SEQUENCE_HEADER,
                           expected="a whole number ≥ 0")
        if not await reached(self.web.tenant, minimum):
            return problem(
                "not_yet", f"this server has not reached the sequence {minimum} within"
                f" {MIN_SEQUENCE_WAIT_SECONDS:g} s (it holds {self.web.tenant.sequence}):"
                " retry, or send the request to the server that answered it",
                (("retry-after", str(RETRY_AFTER_SECONDS)),),
                sequence=self.web.tenant.sequence, min_sequence=minimum)
        raw = _raw_path(scope).encode("latin-1")
        try:
            query = parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                              keep_blank_values=True, errors="strict")
        except UnicodeDecodeError:
            return problem("invalid_input", "the query string is not UTF-8", path="?",
                           expected="percent-encoded UTF-8")
        request = Request(
            method=scope["method"], path=raw.decode("latin-1"),
            principal=self.web.access.principal(headers), query=tuple(query),
            body=body, content_type=headers.get("content-type"),
            if_match=headers.get("if-match"),
            if_none_match=None if html else headers.get("if-none-match"),
            budget=Budget(self.web.command_seconds))
        try:
            # The read of one entity whose D is durable is answered here, at once; a hop to a
            # worker thread would cost it more than the read (docs/performance.md, REST).
            now = answer_at_once(self.web.tenant, request) if request.method == "GET" else None
            response: Response = now if now is not None else \
                await _answered_while_connected(self.web.tenant, request, receive)
        except Exception:  # a fault of arest's, never the client's: logged, told plainly
            log.exception("arest REST: %s %s failed", request.method, request.path)
            return Response(500, {"type": "urn:arest:error:internal_error",
                                  "title": "Internal error", "status": 500,
                                  "detail": "arest failed to answer; the server log says why",
                                  "code": "internal_error"})
        # Read after the answer: D then holds every command the answer reflects (a write's
        # own included), so a client naming it elsewhere sees at least what it saw here.
        sequence = (SEQUENCE_HEADER, str(self.web.tenant.sequence))
        return replace(response, headers=(*response.headers, sequence))


def routes(web: Web) -> WebRoutes:
    return WebRoutes([RestRoute(web)], fallback=True)
