"""Each command's permission comes from the command table, and docs/security.md shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arest.system.commands import TABLE, Command
from arest.system.permissions import (
    ADMIN,
    AGENT_PRINCIPAL,
    PERMISSIONS,
    Principal,
    forbidden,
    required,
)

SECURITY = Path(__file__).resolve().parents[2] / "docs" / "security.md"


def test_each_command_needs_its_table_permission() -> None:
    for verb in TABLE:
        assert required(Command(verb.name, "X", {"id": "x", "event": "apply"})) == \
            verb.permission


@pytest.mark.parametrize("event", ["apply", "approve", "review"])
def test_applying_a_domain_change_needs_schema(event: str) -> None:
    command = Command("transition", "Domain Change", {"id": "dc", "event": event})
    assert required(command) == ("schema" if event == "apply" else "write")
    refused = forbidden(AGENT_PRINCIPAL, command)
    assert (refused is None) == (event != "apply")
    assert forbidden(ADMIN, command) is None


def test_forbidden_names_the_permission_and_the_command() -> None:
    reader = Principal("Agent", frozenset({"read"}))
    refused = forbidden(reader, Command("delete", "Task", {"id": "t"}))
    assert refused is not None
    assert {k: refused["error"][k] for k in ("code", "permission", "command")} == {
        "code": "forbidden", "permission": "write", "command": "delete:Task"}
    assert forbidden(reader, Command("get", "Task", None)) is None


def test_the_documented_table_is_the_command_table() -> None:
    rows = re.findall(r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \|$", SECURITY.read_text(), re.M)
    # A permission no verb names (``outbound``, checked by the runtime) says so in words.
    documented = {name: set() if verbs.startswith("besides") else
                  {v.strip() for v in verbs.split(";")[0].split(",")}
                  for name, verbs in rows if name in PERMISSIONS}
    assert documented == {p: {v.name for v in TABLE if v.permission == p} for p in PERMISSIONS}
