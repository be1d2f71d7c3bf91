"""Transports: thin plugins that carry MCP to one tenant.

A transport is registered in the entry-point group ``arest.transports`` and is a callable
``serve(tenant, surface)`` that answers until its connection ends (:class:`Transport`).  Each
imports the MCP SDK itself, so that ``import arest`` stays light.
"""

from __future__ import annotations

from typing import Protocol

from arest.runtime import Tenant
from arest.verbs import Surface

GROUP = "arest.transports"


class Transport(Protocol):
    def __call__(self, tenant: Tenant, surface: Surface) -> None: ...
