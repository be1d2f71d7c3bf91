"""Who may run a command: permissions and the callers that hold them (DESIGN §12).

    required(command)            = schema                      if it applies a Domain Change
                                 = VERBS[command.verb].permission   otherwise
    allowed(principal, command)  ⟺  required(command) ∈ principal.permissions

Each command of the command table has one permission; nothing here lists verbs.  A
:class:`Principal` is who sends a command: the Signal Source its commands are recorded with
and the permissions it holds.  The server decides, from each request's key, before the
tenant runs the command; the Python API runs what it is told and checks nothing.

>>> from arest.system.commands import Command
>>> required(Command("rollback", "", {"id": "snap-0"}))
'history'
>>> required(Command("transition", "Domain Change", {"id": "dc-1", "event": "apply"}))
'schema'
>>> forbidden(AGENT_PRINCIPAL, Command("compile", "", {"readings": "A is an entity type."}))
... # doctest: +ELLIPSIS
{'error': {'code': 'forbidden', 'message': "compile needs the permission 'schema'...
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from arest.errors import ArestError
from arest.system import evolution
from arest.system.commands import VERBS, Command, Permission
from arest.system.context import AGENT, HUMAN
from arest.system.errors import Refusal

PERMISSIONS: Final[tuple[Permission, ...]] = ("read", "write", "schema", "history", "outbound")
"""Every permission, from the one that changes nothing to the ones that change the most, then
``outbound``: a command's reading of a noun backed by an external system makes the server
send requests out (DESIGN §13), so it needs a key that holds ``outbound`` besides the command's own
permission (the runtime checks it, since only it knows what a command will fetch)."""


@dataclass(frozen=True)
class Principal:
    """Who sends a command: its Signal Source and the permissions it holds."""

    source: str
    permissions: frozenset[str]

    def holds(self, permission: str) -> bool:
        return permission in self.permissions


AGENT_PRINCIPAL: Final = Principal(AGENT, frozenset({"read", "write"}))
"""An agent with an API key, over stdio, or on a loopback server without keys."""

ADMIN: Final = Principal(HUMAN, frozenset(PERMISSIONS))
"""The holder of the admin key, or a person at the terminal: every permission."""


class PermissionsError(ArestError, ValueError):
    """Raised by :func:`permissions` for a name that is not a permission."""


def permissions(text: str | Iterable[str]) -> frozenset[str]:
    """The permissions a comma-separated list (or a list) names; :class:`PermissionsError`
    naming the valid ones for any other name, or for none.

    >>> sorted(permissions("read, write,history"))
    ['history', 'read', 'write']
    >>> permissions("read,admin")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arest.system.permissions.PermissionsError: unknown permission 'admin'; valid: read, ...
    """
    names = text.split(",") if isinstance(text, str) else list(text)
    chosen = [name.strip() for name in names if name.strip()]
    for name in chosen:
        if name not in PERMISSIONS:
            raise PermissionsError(f"unknown permission {name!r}; valid: {', '.join(PERMISSIONS)}")
    if not chosen:
        raise PermissionsError(f"no permission given; valid: {', '.join(PERMISSIONS)}")
    return frozenset(chosen)


def required(command: Command) -> str:
    """The permission a command needs: its verb's, from the command table, except that
    applying a Domain Change changes the schema (:func:`evolution.applies_a_change`)."""
    if evolution.applies_a_change(command):
        return "schema"
    return VERBS[command.verb].permission


def forbidden(caller: Principal, command: Command) -> dict[str, Any] | None:
    """The ``forbidden`` error when the caller lacks the permission the command needs
    (naming it and the command), else None."""
    needed = required(command)
    if caller.holds(needed):
        return None
    held = ", ".join(p for p in PERMISSIONS if caller.holds(p)) or "none"
    return Refusal(
        "forbidden", f"{command.key} needs the permission {needed!r}; this caller"
        f" ({caller.source}) holds {held}: use a key that holds {needed!r}",
        permission=needed, command=command.key, held=sorted(caller.permissions)).envelope
