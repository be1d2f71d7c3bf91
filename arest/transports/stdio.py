"""MCP over stdio: one connection, on this process's standard input and output."""

from __future__ import annotations

import anyio

from arest.runtime import Tenant
from arest.verbs import Surface


def serve(tenant: Tenant, surface: Surface) -> None:
    """Answer MCP on stdin/stdout until the client closes them."""
    anyio.run(_serve, tenant, surface)


async def _serve(tenant: Tenant, surface: Surface) -> None:
    from mcp.server.stdio import stdio_server

    from arest.transports.server import mcp_server

    server = mcp_server(tenant, surface)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
