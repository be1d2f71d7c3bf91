"""Transports: thin plugins that carry MCP to one tenant, found by entry-point group, one
group per shape:

    arest.transports.process   serve(tenant, surface, principal): answers on this
                               process's stdin and stdout, every call from principal
                               (Signal Source and permissions), until the client closes
                               them; ``arest mcp --mode
                               local`` runs the one named ``stdio``
    arest.transports.web       routes(web) -> WebRoutes: routes mounted into the one
                               Starlette app of ``arest serve``, which mounts every one
                               installed, sorted by name

Each plugin imports the MCP SDK and Starlette itself, so that ``import arest`` (and this
package) stays light.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Final, Protocol, cast

from arest.errors import ArestError

if TYPE_CHECKING:
    from arest.runtime import Tenant
    from arest.system.permissions import Principal
    from arest.transports.web import Web, WebRoutes
    from arest.verbs import Surface

PROCESS: Final = "arest.transports.process"
WEB: Final = "arest.transports.web"


class ProcessTransport(Protocol):
    """A process transport plugin: serves one tenant's surface on stdin/stdout, every call
    from the principal, until the client closes them."""

    def __call__(self, tenant: Tenant, surface: Surface, principal: Principal) -> None: ...


class WebTransport(Protocol):
    """A web transport plugin: its routes (and lifespan) over the web settings."""

    def __call__(self, web: Web) -> WebRoutes: ...


class TransportUnavailable(ArestError, RuntimeError):
    """Raised when a transport plugin cannot be used: none of that name is registered, two
    distributions register the name, or its entry point fails to load or names something
    that is not callable.  The message names the plugin, its group and what to do."""


def plugins(group: str) -> Mapping[str, EntryPoint]:
    """The entry points registered in ``group``, by name, sorted by name; raises
    :class:`TransportUnavailable` when two distributions register one name.

    >>> sorted(plugins(WEB)) == list(plugins(WEB))
    True
    >>> "stdio" in plugins(PROCESS)
    True
    """
    found: dict[str, EntryPoint] = {}
    for entry in sorted(entry_points(group=group), key=lambda entry: entry.name):
        if entry.name in found and found[entry.name].value != entry.value:
            both = ", ".join(sorted((found[entry.name].value, entry.value)))
            raise TransportUnavailable(f"two entry points in {group} are named"
                                       f" {entry.name!r} ({both}): uninstall one of them")
        found[entry.name] = entry
    return found


def load(entry: EntryPoint) -> object:
    """The plugin an entry point names, or :class:`TransportUnavailable` saying why it
    cannot be loaded."""
    where = f"the transport {entry.name!r} ({entry.value}, group {entry.group})"
    try:
        plugin: object = entry.load()
    except Exception as error:  # any failure of a plugin's import is the plugin's
        raise TransportUnavailable(
            f"{where} cannot be loaded: {type(error).__name__}: {error}; reinstall the"
            " distribution that provides it, or uninstall it") from error
    if not callable(plugin):
        raise TransportUnavailable(f"{where} is not callable: {plugin!r}")
    return plugin


def process_transport(name: str) -> ProcessTransport:
    """The process transport registered as ``name``, loaded."""
    registered = plugins(PROCESS)
    if name not in registered:
        raise TransportUnavailable(
            f"no process transport {name!r} is installed (group {PROCESS} has"
            f" {', '.join(registered) or 'none'}): reinstall arest")
    return cast(ProcessTransport, load(registered[name]))


def web_transports() -> Mapping[str, WebTransport]:
    """Every web transport installed, loaded, sorted by name; at least one.

    >>> list(web_transports())
    ['http', 'rest', 'sse']
    """
    registered = plugins(WEB)
    if not registered:
        raise TransportUnavailable(f"no web transport is installed (group {WEB} is empty):"
                                   " reinstall arest")
    return {name: cast(WebTransport, load(entry)) for name, entry in registered.items()}
