"""``arest mcp --mode remote``: a stdio server that forwards to another arest's ``/mcp``.

Every request is relayed as it is: tools/list, tools/call, resources; the remote decides the
tools, from the surface this process was started with (sent as the URL's query), and its
errors come back with their codes.  Sampling is not relayed: the remote sees a client without
it, so its LLM-bridge verbs answer prompt-only.

Not a transport plugin: it carries no tenant of this process (its shape is ``(url, key,
surface)``, not a process transport's ``(tenant, surface)``); it is a client of the remote's
``http`` transport, and the CLI runs it for ``--mode remote``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.context import CallNext, HandlerResult

from arest.errors import ArestError
from arest.verbs import CATALOGUE, Surface
from arest.version import __version__


def remote_url(base: str, surface: Surface) -> str:
    """The remote's ``/mcp`` with this surface as its query: ``http://h:4009`` →
    ``http://h:4009/mcp?tags=entity,introspection&include_tools=…``."""
    root = base.rstrip("/")
    root = root if root.endswith("/mcp") else root + "/mcp"
    tagged = {name for name, verb in CATALOGUE.items() if verb.tag in surface.tags}
    query = {"tags": ",".join(surface.tags)}
    if surface.verbs - tagged:
        query["include_tools"] = ",".join(sorted(surface.verbs - tagged))
    if tagged - surface.verbs:
        query["exclude_tools"] = ",".join(sorted(tagged - surface.verbs))
    return f"{root}?{urlencode(query, safe=',')}"


class RemoteUnavailable(ArestError):
    """Raised when the remote arest cannot be reached or refuses this process: the message
    says which, and what to do.  The stdio client has been answered with the same words."""


def serve_relay(url: str, api_key: str | None, surface: Surface) -> None:
    """Relay stdin/stdout to the remote arest at ``url`` until the client closes them;
    :class:`RemoteUnavailable` when the remote cannot be reached or refuses the key."""
    address = remote_url(url, surface)
    try:
        anyio.run(_serve, address, api_key)
    except Exception as error:  # the SDK wraps transport failures in exception groups
        reason = _unavailable(error, address) or _refusal(address, api_key)
        if reason is None:
            raise
        _answer_with_error(reason)
        raise RemoteUnavailable(reason) from None


async def _serve(url: str, api_key: str | None) -> None:
    import httpx2
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.server.stdio import stdio_server

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)
                                  ) as http, \
            Client(streamable_http_client(url, http_client=http), mode="legacy") as remote:
        server = relay(remote)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error, *(_leaves(error.__cause__) if error.__cause__ else [])]


def _unavailable(error: BaseException, url: str) -> str | None:
    """What stopped the relay from reaching the remote, in one line; None for anything
    else."""
    import httpx2

    for leaf in _leaves(error):
        if isinstance(leaf, httpx2.HTTPStatusError):
            return _status(leaf.response.status_code, url)
        if isinstance(leaf, httpx2.TransportError):
            return (f"cannot reach an arest server at {url} ({leaf or type(leaf).__name__}):"
                    " start `arest serve` there or correct --url")
    return None


def _refusal(url: str, api_key: str | None) -> str | None:
    """Why the remote refuses this process, asked again in plain HTTP (the SDK reports an
    HTTP refusal without its status); None when it does not."""
    import httpx2

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        status = httpx2.post(url, json={}, headers=headers, timeout=30).status_code
    except httpx2.TransportError as error:
        return _unavailable(error, url)
    return _status(status, url) if status in (401, 403, 404) else None


def _status(status: int, url: str) -> str:
    if status == 401:
        return (f"the arest server at {url} refused the API key (HTTP 401): pass the key it"
                " was started with as --api-key or AREST_API_KEY")
    return f"the arest server at {url} answered HTTP {status}: check --url"


def _answer_with_error(reason: str) -> None:
    """Tell a stdio client why there is no server: the first request on stdin (its
    ``initialize``) is answered with a JSON-RPC error carrying the reason.  A terminal
    gets nothing (the reason is on stderr), and a client that says nothing within a few
    seconds is not waited for."""
    import json
    import select
    import sys

    if sys.stdin.isatty():
        return
    while select.select([sys.stdin], [], [], 5)[0]:
        line = sys.stdin.readline()
        if not line:
            return
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and "id" in message and "method" in message:
            error = {"code": -32603, "message": f"arest remote: {reason}"}
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                                         "error": error}) + "\n")
            sys.stdout.flush()
            return


def relay(remote: Any) -> Server[Any]:
    """A server answering each request with the remote's answer to it."""
    advertised = (remote.server_capabilities.experimental or {}).get("arest")

    async def list_tools(ctx: ServerRequestContext[Any, Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        result: types.ListToolsResult = await remote.list_tools()
        return result

    async def call_tool(ctx: ServerRequestContext[Any, Any],
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        result: types.CallToolResult = await remote.call_tool(params.name, params.arguments)
        return result

    async def list_resources(ctx: ServerRequestContext[Any, Any],
                             params: types.PaginatedRequestParams | None
                             ) -> types.ListResourcesResult:
        result: types.ListResourcesResult = await remote.list_resources()
        return result

    async def read_resource(ctx: ServerRequestContext[Any, Any],
                            params: types.ReadResourceRequestParams
                            ) -> types.ReadResourceResult:
        result: types.ReadResourceResult = await remote.read_resource(str(params.uri))
        return result

    async def advertise(ctx: ServerRequestContext[Any, Any], call_next: CallNext
                        ) -> HandlerResult:
        result = await call_next(ctx)
        if advertised and ctx.method in ("initialize", "server/discover") \
                and isinstance(result, dict):
            result.setdefault("capabilities", {}).setdefault("experimental", {})[
                "arest"] = advertised
        return result

    server: Server[Any] = Server(
        "arest-remote", version=__version__, on_list_tools=list_tools,
        on_call_tool=call_tool, on_list_resources=list_resources,
        on_read_resource=read_resource)
    server.middleware.append(advertise)
    return server
