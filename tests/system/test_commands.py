"""The command table: every command is reached by the transports that should reach it, and
the table in docs/system.md is the table in the code."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

import arest
from arest.system.commands import TABLE, VERBS, Command, Effect, parse_key, usage
from arest.verbs import CATALOGUE, TAGS, VerbError, command_for, surface

ORDERS = Path(__file__).parents[2] / "readings" / "orders"
DOCS = Path(__file__).parents[2] / "docs" / "system.md"
EVERYTHING = surface(TAGS)

INPUTS: dict[str, tuple[str, Any]] = {
    "assert": ("", {"fact_type": "Customer_has_Name", "bindings": ["a@x", "A"]}),
    "retract": ("", {"fact_type": "Customer_has_Name", "bindings": ["a@x", "A"]}),
    "project": ("", {"noun": "Customer"}),
    "compile": ("", {"readings": "Customer has Nickname."}),
    "get": ("Customer", None),
    "list": ("Customer", None),
    "navigate": ("Customer", {"id": "a@x", "link": "Customer_has_Name"}),
    "query": ("Customer_has_Name", None),
    "create": ("Customer", {"id": "b@x", "Name": "B"}),
    "read": ("Customer", {"id": "a@x"}),
    "update": ("Customer", {"id": "a@x", "Name": "Ann"}),
    "transition": ("Order", {"id": "o-1", "event": "place"}),
    "delete": ("Customer", {"id": "z@x"}),
    "explain": ("", {"fact_type": "Customer_has_Name", "bindings": ["a@x", "A"]}),
    "actions": ("", {"noun": "Customer", "id": "a@x"}),
    "schema": ("", {}),
    "verify": ("", {"fact_type": "Customer_has_Name", "bindings": ["c@x", "C"]}),
    "snapshot": ("", {}),
    "rollback": ("", {"id": "none"}),
    "snapshots": ("", {}),
    "propose": ("", {"target_domain": "orders", "readings": "Customer has Nickname."}),
    "ask": ("", {"question": "Who?"}),
    "synthesize": ("", {"noun": "Customer", "id": "a@x"}),
    "validate": ("", {"text": "A", "constraint": "x"}),
    "search": ("", {"query": "a"}),
    "fetch": ("", {"id": "Customer:a@x"}),
}


@pytest.fixture(scope="module")
def orders() -> Any:
    state = arest.load(ORDERS)
    out, state = arest.apply(state, "create:Customer", {"id": "a@x", "Name": "A"})
    assert not out["rejected"]
    return state


def test_every_command_has_a_sample_here() -> None:
    assert set(INPUTS) == set(VERBS)


@pytest.mark.parametrize("verb", list(VERBS))
def test_every_command_runs_through_the_python_api(verb: str, orders: Any) -> None:
    target, request = INPUTS[verb]
    out, after = arest.apply(orders, Command(verb, target, request).key, request)
    assert out.get("error", {}).get("code") != "unknown_key"
    if VERBS[verb].effect is Effect.READS:
        assert after is orders


@pytest.mark.parametrize("verb", list(VERBS))
def test_every_command_is_reached_over_mcp_by_its_tool_and_by_apply(verb: str) -> None:
    """A command offered to MCP is a tool of its tag; the others are reached by a tool that
    names them in ``also``; ``apply`` runs its key wherever one of those tools is active."""
    tools = [name for name, tool in CATALOGUE.items() if verb in tool.reaches]
    assert tools, f"no MCP tool reaches {verb}"
    target, request = INPUTS[verb]
    key = Command(verb, target, request).key
    for name in tools:
        active = surface(CATALOGUE[name].tag)
        assert command_for("apply", {"key": key}, active).verb == verb
        without = surface(CATALOGUE[name].tag, exclude=name)
        if not any(verb in CATALOGUE[other].reaches for other in without.verbs):
            with pytest.raises(VerbError):
                command_for("apply", {"key": key}, without)


def test_each_tool_of_a_command_makes_that_command() -> None:
    samples = {"create": {"noun": "Order", "id": "o"}, "get": {"noun": "Order"},
               "read": {"noun": "Order", "id": "o"}, "update": {"noun": "Order", "id": "o",
                                                                 "fields": {}},
               "transition": {"noun": "Order", "id": "o", "event": "e"},
               "delete": {"noun": "Order", "id": "o"}, "query": {"fact_type": "F"}}
    for name in CATALOGUE:
        if name == "apply":
            continue
        made = command_for(name, samples.get(name, INPUTS[name][1]), EVERYTHING)
        assert made.verb == name and parse_key(made.key, made.input) == made


def test_the_runtime_policy_and_the_mcp_hints_follow_the_effects() -> None:
    for name, tool in CATALOGUE.items():
        if name != "apply":
            assert tool.read_only == all(VERBS[v].effect is Effect.READS for v in tool.reaches)
    assert {v.name for v in TABLE if v.effect is Effect.WHOLE} == {
        "snapshot", "rollback", "compile"}


def test_a_key_names_a_target_exactly_when_its_verb_takes_one() -> None:
    EMPTY = arest.compile("Customer(.Email) is an entity type.")
    for verb in TABLE:
        wrong = verb.name if verb.target else f"{verb.name}:X"
        out, _ = arest.apply(EMPTY, wrong)
        assert out["error"]["code"] == "unknown_key"
        assert out["error"]["candidates"]
    assert "create:<Noun>" in usage() and "query:<fact type>" in usage()


def _docs_table() -> str:
    rows = ["| verb | key | effect | permission | MCP tool | REST |", "|---|---|---|---|---|---|"]
    for verb in TABLE:
        key = (f"`{verb.name}:<{'fact type' if verb.target == 'fact type' else 'Noun'}>`"
               if verb.target else f"`{verb.name}`")
        tools = ", ".join(name for name, tool in CATALOGUE.items()
                          if verb.name in tool.reaches and name != "apply")
        tag = f"`{tools}` ({CATALOGUE[tools.split(', ')[0]].tag})" if tools else ""
        routes = ", ".join(f"`{r.method} {r.path}`" for r in verb.routes)
        rows.append(f"| {verb.name} | {key} | {verb.effect.value} | {verb.permission} |"
                    f" {tag} | {routes} |")
    return "\n".join(rows)


def test_the_docs_show_the_table_of_the_code() -> None:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"<!-- command table -->\n(.*?)\n<!-- /command table -->", text, re.S)
    assert found, "docs/system.md lacks the command table markers"
    if os.environ.get("AREST_REGENERATE_GOLDEN"):
        DOCS.write_text(text.replace(found.group(1), _docs_table()), encoding="utf-8")
        return
    assert found.group(1) == _docs_table(), "regenerate with AREST_REGENERATE_GOLDEN=1"
