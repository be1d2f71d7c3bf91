"""The frames one MCP ``create`` passes through, from the tool handler to the verb's code.

    python benchmarks/request_depth.py

Runs one ``create`` through the SDK's in-process client and prints the chain of arest
frames on the stack when the create semantics start (``entity_verbs.create``), the tool
handler's frames (on the event loop) and the worker thread's (where the tenant runs the
command) together, and their count.  A review figure, not a timing.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _arest_frames(frame: Any) -> list[str]:
    """The stack's frames from the outermost arest frame down, innermost last (the
    caller's own frame left out)."""
    chain = []
    frame = frame.f_back
    while frame is not None:
        chain.append(f"{frame.f_globals.get('__name__', '')}.{frame.f_code.co_name}")
        frame = frame.f_back
    chain.reverse()
    first = next(i for i, name in enumerate(chain) if name.startswith("arest."))
    return chain[first:]


async def main() -> None:
    from mcp.client import Client

    from arest.runtime import Tenant
    from arest.system import entity_verbs
    from arest.transports import server
    from arest.verbs import surface

    seen: dict[str, list[str]] = {}
    create, run = entity_verbs.create, server._run

    def spying_create(*args: Any, **kwargs: Any) -> Any:
        seen["worker"] = _arest_frames(sys._getframe())
        return create(*args, **kwargs)

    async def spying_run(*args: Any, **kwargs: Any) -> Any:
        seen["handler"] = _arest_frames(sys._getframe())
        return await run(*args, **kwargs)

    entity_verbs.create = spying_create  # type: ignore[assignment]
    server._run = spying_run  # type: ignore[assignment]
    with Tenant.open(ROOT / "readings" / "orders", db=":memory:") as tenant:
        async with Client(server.mcp_server(tenant, surface()), mode="legacy") as client:
            await client.call_tool("create", {"noun": "Customer", "id": "acme"})
    chain = seen["handler"] + seen["worker"]
    print("\n".join(f"{depth:3} {name}" for depth, name in enumerate(chain, 1)))
    own = sum(name.startswith("arest.") for name in chain)
    print(f"{len(chain)} frames ({own} of them arest's) from the tool handler to the create"
          " semantics")


if __name__ == "__main__":
    anyio.run(main)
