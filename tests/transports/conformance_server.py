"""``python -m tests.transports.conformance_server [READINGS…] [--port N]``: what the MCP
conformance suite runs against, from a checkout of the repository.

arest's web transports (every one installed, as ``arest serve`` mounts them) over the tenant
of READINGS in memory, on 127.0.0.1, without keys, each MCP server extended with the suite's
fixtures (:mod:`tests.transports.conformance`) through the ``extend`` hook of
:class:`arest.transports.web.Web`.  The fixtures are test material, so the shipped ``arest
serve`` has no option that serves them.
"""

from __future__ import annotations

import argparse

import uvicorn

from arest.runtime import Tenant
from arest.transports import web_transports
from arest.transports.access import Access
from arest.transports.web import Web, mount, security_for, web_app
from tests.transports.conformance import extend

HOST = "127.0.0.1"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tests.transports.conformance_server",
        description="arest's web transports with the MCP conformance suite's fixtures,"
                    " the tenant in memory")
    parser.add_argument("readings", nargs="*", help="readings files or folders of *.md")
    parser.add_argument("--port", type=int, default=4010, help="default: 4010")
    options = parser.parse_args(argv)
    with Tenant.open(*options.readings, db=":memory:") as tenant:
        web = Web(tenant, Access(), security_for(HOST, options.port), extend=extend)
        app = web_app(web, list(mount(web, web_transports()).values()))
        uvicorn.run(app, host=HOST, port=options.port, log_level="warning")


if __name__ == "__main__":
    main()
