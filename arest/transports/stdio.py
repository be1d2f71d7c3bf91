"""MCP over stdio: one connection, on this process's standard input and output."""

from __future__ import annotations

import anyio

from arest.runtime import Tenant
from arest.system.permissions import AGENT_PRINCIPAL, Principal
from arest.verbs import Surface


def serve(tenant: Tenant, surface: Surface, principal: Principal = AGENT_PRINCIPAL) -> None:
    """Answer MCP on stdin/stdout until the client closes them; every call comes from
    ``principal`` (by default an Agent with read,write)."""
    anyio.run(_serve, tenant, surface, principal)


async def _serve(tenant: Tenant, surface: Surface, principal: Principal) -> None:
    from mcp.server.stdio import stdio_server

    from arest.transports.server import Caller, mcp_server

    server = mcp_server(tenant, Caller(surface, principal))
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
