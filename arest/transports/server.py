"""One MCP server over one tenant, built from the verb catalogue.

``mcp_server(tenant, caller_of)`` is the SDK's low-level ``Server`` with four handlers and
nothing else to know: each request's caller (:class:`Caller`: its surface, and the
:class:`~arest.system.permissions.Principal` of its key — Signal Source and permissions —
read from the transport's request, or fixed for stdio) decides the tools listed; a call is
``tenant.run(command_for(tool, arguments), source)`` once the principal holds the permission
the command needs (else the SYSTEM error ``forbidden``, a result with ``isError``, whatever
the tools listed: tags choose what a client sees, permissions what it may do); resources
are :mod:`arest.resources`.  Every transport runs this server; it serves both protocol eras
(the client's first message decides), and advertises the caller's surface under
``capabilities.experimental.arest`` in either era's handshake.

A call runs its command on a worker thread within a budget (:mod:`arest.runtime.budget`):
``command_seconds`` (None: no time limit), and cancelled when the call is (its client went
away: the modern era cancels a call whose HTTP request is dropped); such a command is
stopped at its next read of D, D unchanged.  A call reports progress 0 when its command
starts, to a client that asked for progress.

Errors, as DESIGN §6 fixes them: a tool outside the surface is JSON-RPC -32601, a tool that
does not exist -32602 (so is a bad tag or tool name in the caller's URL); bad arguments and
SYSTEM errors are results with ``isError``; any other exception becomes -32603 without its
text.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.context import CallNext, HandlerResult
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from arest.errors import envelope
from arest.resources import RESOURCES
from arest.runtime import Tenant
from arest.runtime.budget import Budget
from arest.runtime.tenant import utc_now
from arest.system.permissions import AGENT_PRINCIPAL, Principal, forbidden
from arest.transports.prefix import prefixed_links
from arest.transports.sampling import REQUEST, sample
from arest.transports.sequence import (
    MIN_SEQUENCE_META,
    MIN_SEQUENCE_WAIT_SECONDS,
    SEQUENCE_META,
    BadMinimum,
    minimum_of,
    reached,
)
from arest.verbs import CATALOGUE, Surface, SurfaceError, VerbError, command_for
from arest.version import __version__

INSTRUCTIONS = (
    "arest runs a domain written as FORML 2 readings. Start with `schema` to learn the nouns, "
    "fact types and state machines; entities are read and changed with get, create, update, "
    "transition and delete; every answer carries the violations that rejected a change and "
    "the links (legal events) that can follow it."
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Caller:
    """Who is calling: the tools they see (from the URL or the options) and who they are
    (from the key of the request: Signal Source and permissions)."""

    surface: Surface
    principal: Principal = AGENT_PRINCIPAL

    @property
    def source(self) -> str:
        """The Signal Source of the caller's commands."""
        return self.principal.source


CallerOf = Callable[[Any], Caller]
"""The caller of one request, from the transport's request (a Starlette ``Request`` on
HTTP; None on stdio).  Raises :class:`SurfaceError` for a bad tag or tool name."""


def _tools(surface: Surface) -> list[types.Tool]:
    return [types.Tool(name=tool.name, description=tool.description,
                       input_schema=dict(tool.schema), annotations=types.ToolAnnotations(
                           read_only_hint=tool.read_only, destructive_hint=tool.destructive,
                           open_world_hint=False))
            for tool in surface.listed()]


def _result(out: dict[str, Any], sequence: int) -> types.CallToolResult:
    text = json.dumps(out, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                structured_content=out, is_error="error" in out,
                                _meta={SEQUENCE_META: sequence})


async def _unreached(tenant: Tenant, params: types.CallToolRequestParams
                     ) -> dict[str, Any] | None:
    """The error of a call whose ``_meta`` names a minimum sequence that is not usable, or
    that the tenant's D has not reached within the wait (docs/scale.md); else None."""
    try:
        minimum = minimum_of((params.meta or {}).get(MIN_SEQUENCE_META))
    except BadMinimum as error:
        return envelope("invalid_input", str(error), path=f"_meta.{MIN_SEQUENCE_META}",
                        expected="a whole number ≥ 0")
    if await reached(tenant, minimum):
        return None
    return envelope("not_yet", f"this server has not reached the sequence {minimum} within"
                    f" {MIN_SEQUENCE_WAIT_SECONDS:g} s (it holds {tenant.sequence}): retry",
                    sequence=tenant.sequence, min_sequence=minimum)


async def _run(tenant: Tenant, verb: str, arguments: dict[str, Any], caller: Caller,
               seconds: float | None = None,
               starting: Callable[[], Coroutine[Any, Any, None]] | None = None
               ) -> dict[str, Any]:
    """The verb's SYSTEM output: the tenant's answer to its command within a budget of
    ``seconds``, or the argument error, or ``forbidden`` when the caller lacks the
    command's permission.  ``starting`` is awaited once the command's thread runs."""
    try:
        command = command_for(verb, arguments, caller.surface)
    except VerbError as error:
        return error.envelope
    refused = forbidden(caller.principal, command)
    if refused is not None:
        return refused
    outbound = caller.principal.holds("outbound")
    budget = Budget(seconds)
    answers: list[dict[str, Any]] = []
    running, finished = threading.Event(), threading.Event()

    def work() -> None:
        running.set()
        try:
            if starting is not None:
                anyio.from_thread.run(starting)
            answers.append(tenant.run(command, caller.source, budget=budget, outbound=outbound))
        finally:
            finished.set()

    try:
        await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        # The call is cancelled (its client is gone): stop the command, and wait for it
        # to stop, so that nothing of it outlives the call.  A thread not yet running
        # never runs it, or meets the spent budget at its first check.
        budget.cancel()
        if running.is_set():
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(finished.wait)
        log.warning("arest MCP: %s ended, its call cancelled: %s", command.key,
                    answers[0].get("error", {}).get("code", "done") if answers
                    else "stopped before it ran")
        raise
    return answers[0]


def _caller(caller_of: CallerOf, ctx: ServerRequestContext[Any, Any]) -> Caller:
    try:
        return caller_of(ctx.request)
    except SurfaceError as error:
        raise MCPError(types.INVALID_PARAMS, str(error),
                       data={"option": error.option, "unknown": error.unknown,
                             "valid": error.valid}) from None


def _middleware(caller_of: CallerOf) -> Any:
    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext
                         ) -> HandlerResult:
        """Advertise the caller's surface in the handshake of either era (the SDK drops
        unknown keys under ``capabilities.tools``, hence ``experimental.arest``), and turn
        a stray exception into -32603 with no traceback or text: the handshake era would
        otherwise send its message verbatim under code 0."""
        try:
            result = await call_next(ctx)
        except (MCPError, ValidationError):
            raise  # the SDK's own answers: -32602 for malformed params, and ours
        except Exception:  # this middleware's whole job is to catch any other exception
            log.exception("arest MCP: %s failed", ctx.method)
            raise MCPError(types.INTERNAL_ERROR, "internal error") from None
        if ctx.method in ("initialize", "server/discover") and isinstance(result, dict):
            capabilities = result.setdefault("capabilities", {})
            experimental = capabilities.setdefault("experimental", {})
            experimental["arest"] = _caller(caller_of, ctx).surface.advertisement()
        return result

    return middleware


def mcp_server(tenant: Tenant, caller_of: CallerOf | Caller | Surface, name: str = "arest",
               base: str = "", command_seconds: float | None = None) -> Server[Any]:
    """The MCP server over a tenant; each request's tools, Signal Source and permissions
    come from ``caller_of`` (a fixed caller; a fixed surface: an Agent with read,write);
    each call's command runs within ``command_seconds`` (None: no time limit).  Every href
    a result names carries ``base``, the path the tenant is served under; every result's
    ``_meta`` names the sequence of the D it was computed on, and a call whose ``_meta``
    names a minimum is answered on a D that has reached it (docs/scale.md)."""
    if isinstance(caller_of, Surface):
        caller_of = Caller(caller_of)
    if isinstance(caller_of, Caller):
        fixed = caller_of
        caller_of = lambda request: fixed  # noqa: E731 - a constant caller
    callers: CallerOf = caller_of

    async def list_tools(ctx: ServerRequestContext[Any, Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=_tools(_caller(callers, ctx).surface))

    async def call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
                        ) -> types.CallToolResult | types.InputRequiredResult:
        caller = _caller(callers, ctx)
        surface = caller.surface
        if params.name not in CATALOGUE:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}",
                           data={"tool": params.name, "tools": sorted(surface.verbs)})
        if params.name not in surface.verbs:
            raise MCPError(types.METHOD_NOT_FOUND, surface.why_inactive(params.name),
                           data={"tool": params.name, "tag": CATALOGUE[params.name].tag,
                                 "tags_active": list(surface.tags)})
        unreached = await _unreached(tenant, params)
        if unreached is not None:
            return _result(unreached, tenant.sequence)
        arguments = dict(params.arguments or {})
        async def starting() -> None:
            await ctx.session.report_progress(0, message=f"running {params.name}")

        # Reporting progress takes the command's thread back to the event loop and waits
        # for it there: under load, a turn in the loop's queue for every call.  Over HTTP
        # it is made only for a request that carries a progress token (without one it
        # goes nowhere); elsewhere (stdio, in process: one client) always, as the SDK
        # decides there whether anyone listens.
        asked = ctx.request is None or (ctx.meta or {}).get("progress_token") is not None
        out = await _run(tenant, params.name, arguments, caller, command_seconds,
                         starting if asked else None)
        if out.get("mode") == "prompt-only" and REQUEST not in arguments:
            answer = await sample(ctx, params, out["prompt"])
            if isinstance(answer, types.InputRequiredResult):
                return answer
            if answer is not None:
                out = await _run(tenant, params.name, {**arguments, REQUEST: answer}, caller,
                                 command_seconds)
        # Read after the answer, as on REST (arest/transports/sequence.py).
        return _result(prefixed_links(base, out), tenant.sequence)

    async def list_resources(ctx: ServerRequestContext[Any, Any],
                             params: types.PaginatedRequestParams | None
                             ) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(name=r.name, uri=r.uri, description=r.description,
                           mime_type="application/json")
            for r in RESOURCES.values()])

    async def read_resource(ctx: ServerRequestContext[Any, Any],
                            params: types.ReadResourceRequestParams
                            ) -> types.ReadResourceResult:
        resource = RESOURCES.get(str(params.uri))
        if resource is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown resource: {params.uri}",
                           data={"uri": str(params.uri), "resources": list(RESOURCES)})
        document = await anyio.to_thread.run_sync(resource.document, tenant, utc_now())
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=resource.uri, mime_type="application/json",
            text=json.dumps(document, ensure_ascii=False))])

    server: Server[Any] = Server(
        name, version=__version__, instructions=INSTRUCTIONS,
        on_list_tools=list_tools, on_call_tool=call_tool,
        on_list_resources=list_resources, on_read_resource=read_resource,
    )
    server.middleware.append(_middleware(callers))
    return server
