"""The verb catalogue: surfaces, schemas, and the SYSTEM command each call makes."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import arest
from arest.verbs import (
    CATALOGUE,
    DEFAULT_TAGS,
    TAGS,
    SurfaceError,
    VerbError,
    command_for,
    from_notation,
    surface,
)

EVERYTHING = surface(TAGS)

SEED_TIERS = {
    "primitive": {"assert", "retract", "project", "compile"},
    "entity": {"get", "query", "apply", "create", "read", "update", "transition", "delete"},
    "introspection": {"explain", "actions", "schema", "verify"},
    "persistence": {"snapshot", "rollback", "snapshots"},
    "evolution": {"propose"},
    "llm": {"ask", "synthesize", "validate"},
    "chatgpt": {"search", "fetch"},
}


def test_every_verb_of_the_seed_is_catalogued_under_its_tier() -> None:
    assert {name: verb.tag for name, verb in CATALOGUE.items()} == {
        name: tag for tag, names in SEED_TIERS.items() for name in names}
    assert all(verb.description and verb.schema["type"] == "object"
               for verb in CATALOGUE.values())


def test_the_default_surface_is_entity_and_introspection() -> None:
    assert surface().tags == DEFAULT_TAGS
    assert surface().verbs == SEED_TIERS["entity"] | SEED_TIERS["introspection"]


@pytest.mark.parametrize("tag", TAGS)
def test_each_tag_alone_gives_its_verbs(tag: str) -> None:
    assert surface([tag]).verbs == SEED_TIERS[tag]


@given(st.sets(st.sampled_from(TAGS), min_size=1), st.sets(st.sampled_from(sorted(CATALOGUE))),
       st.sets(st.sampled_from(sorted(CATALOGUE))))
def test_tags_then_include_then_exclude(tags: set[str], include: set[str],
                                        exclude: set[str]) -> None:
    chosen = surface(",".join(sorted(tags)), sorted(include), sorted(exclude))
    expected = (set().union(*(SEED_TIERS[t] for t in tags)) | include) - exclude
    assert chosen.verbs == expected
    assert [v.name for v in chosen.listed()] == [n for n in CATALOGUE if n in expected]


@pytest.mark.parametrize(("option", "arguments"), [
    ("tags", {"tags": "entity,*"}),
    ("include_tools", {"include": "create,forget"}),
    ("exclude_tools", {"exclude": ["Create"]}),
])
def test_an_unknown_name_lists_the_valid_ones(option: str, arguments: dict[str, Any]) -> None:
    with pytest.raises(SurfaceError) as raised:
        surface(**arguments)
    assert raised.value.option == option
    valid = TAGS if option == "tags" else tuple(CATALOGUE)
    assert raised.value.valid == list(valid)


def test_the_advertisement_names_every_tool_and_the_active_tags() -> None:
    shown = surface("persistence,entity").advertisement()
    assert shown["tags_available"] == list(TAGS)
    assert shown["tags_active"] == ["entity", "persistence"]
    assert shown["tool_tags"]["snapshot"] == ["persistence"]
    assert set(shown["tool_tags"]) == set(CATALOGUE)


@pytest.mark.parametrize(("verb", "arguments", "command"), [
    ("create", {"noun": "Order", "id": "o-1", "fields": {"Customer": "a"}},
     ("create:Order", {"Customer": "a", "id": "o-1"})),
    ("create", {"noun": "Order", "fields": {"Customer": "a"}},
     ("create:Order", {"Customer": "a"})),
    ("update", {"noun": "Order", "id": "o-1", "fields": {"Priority": None}},
     ("update:Order", {"Priority": None, "id": "o-1"})),
    ("get", {"noun": "Order", "id": "o-1"}, ("get:Order", {"id": "o-1"})),
    ("get", {"noun": "Order"}, ("get:Order", None)),
    ("get", {"noun": "Order", "filter": {"Customer": "a"}, "limit": 2},
     ("get:Order", {"filter": {"Customer": "a"}, "limit": 2})),
    ("read", {"noun": "Order", "id": "o-1"}, ("read:Order", {"id": "o-1"})),
    ("delete", {"noun": "Order", "id": "o-1"}, ("delete:Order", {"id": "o-1"})),
    ("transition", {"noun": "Order", "id": "o-1", "event": "place"},
     ("transition:Order", {"id": "o-1", "event": "place"})),
    ("query", {"fact_type": "F"}, ("query:F", None)),
    ("query", {"fact_type": "F", "filter": {"A": "x"}}, ("query:F", {"A": "x"})),
    ("assert", {"fact_type": "F", "bindings": ["x", "y"]},
     ("assert", {"fact_type": "F", "bindings": ["x", "y"]})),
    ("project", {"noun": "Order", "roles": ["id"]},
     ("project", {"noun": "Order", "roles": ["id"]})),
    ("schema", {}, ("schema", {})),
    ("snapshots", None, ("snapshots", {})),
    ("apply", {"key": "read:Order", "input": "o-1"}, ("read:Order", "o-1")),
    ("apply", {"key": "create:Order", "input": "<<Order Number, o-1>, <Customer, a>>"},
     ("create:Order", {"Order Number": "o-1", "Customer": "a"})),
    ("apply", {"key": "schema", "input": '{"noun": "Order"}'},
     ("schema", {"noun": "Order"})),
    ("apply", {"operation": "transition", "noun": "Order", "id": "o-1", "event": "place"},
     ("transition:Order", {"id": "o-1", "event": "place"})),
])
def test_each_call_maps_to_its_system_command(verb: str, arguments: Any,
                                              command: tuple[str, Any]) -> None:
    made = command_for(verb, arguments, EVERYTHING)
    assert (made.key, made.input) == command


@pytest.mark.parametrize(("verb", "arguments", "path"), [
    ("create", {"id": "o-1"}, "$"),
    ("create", {"noun": "Order", "colour": "red"}, "$"),
    ("create", {"noun": "Order", "fields": []}, "$.fields"),
    ("create", {"noun": "Order", "id": "o-1", "fields": {"id": "o-2"}}, "$.fields.id"),
    ("transition", {"noun": "Order", "id": "o-1"}, "$"),
    ("project", {"noun": "Order", "fact_type": "F"}, "$"),
    ("query", {"fact_type": ""}, "$.fact_type"),
    ("apply", {"key": "schema", "operation": "get", "noun": "Order"}, "$.operation"),
    ("apply", {"key": "schema", "input": "<a, <b>"}, "$.input"),
    ("apply", {"key": "schema", "input": "{nope"}, "$.input"),
    ("apply", {"operation": "update", "noun": "Order", "event": "x"}, "$"),
])
def test_bad_arguments_name_the_path(verb: str, arguments: Any, path: str) -> None:
    with pytest.raises(VerbError) as raised:
        command_for(verb, arguments, EVERYTHING)
    error = raised.value.envelope["error"]
    assert error["code"] == "invalid_input"
    assert error["path"] == path and error["expected"]


def test_apply_refuses_keys_outside_the_surface() -> None:
    entity_only = surface("entity")
    assert command_for("apply", {"key": "list:Order"}, entity_only).key == "list:Order"
    for arguments in ({"key": "snapshot"}, {"key": "schema", "input": {}},
                      {"operation": "actions", "noun": "Order", "id": "o-1"}):
        with pytest.raises(VerbError) as raised:
            command_for("apply", arguments, entity_only)
        error = raised.value.envelope["error"]
        assert error["code"] == "not_allowed"
        assert "create" in error["allowed"] and "snapshot" not in error["allowed"]


def test_apply_through_the_system_function_agrees_with_the_verb() -> None:
    state = arest.compile("Customer(.Email) is an entity type.\nCustomer has Name.\n")
    by_verb = command_for("create", {"noun": "Customer", "id": "a@x", "fields": {"Name": "A"}},
                          EVERYTHING)
    by_apply = command_for("apply", {"key": "create:Customer",
                                     "input": "<<id, a@x>, <Name, A>>"}, EVERYTHING)
    assert arest.apply(state, by_verb.key, by_verb.input)[0] == \
        arest.apply(state, by_apply.key, by_apply.input)[0]


@given(st.recursive(st.text(alphabet="abcxyz -", min_size=1).map(str.strip).filter(bool),
                    lambda inner: st.lists(inner, min_size=1, max_size=4), max_leaves=10))
def test_notation_reads_back_what_show_writes(value: Any) -> None:
    from arest.algebra import show

    def as_object(v: Any) -> Any:
        return tuple(as_object(x) for x in v) if isinstance(v, list) else v

    def as_json(v: Any) -> Any:
        if isinstance(v, list) and all(isinstance(p, list) and len(p) == 2
                                       and isinstance(p[0], str) for p in v):
            return {p[0]: as_json(p[1]) for p in v}
        return [as_json(x) for x in v] if isinstance(v, list) else v

    text = show(as_object(value))
    if isinstance(value, str):
        return  # a bare atom is text, returned as it is
    assert from_notation(text) == as_json(value)


def test_read_only_verbs_never_change_the_state() -> None:
    from arest.verbs import DESTRUCTIVE, READ_ONLY

    state = arest.compile("Customer(.Email) is an entity type.\nCustomer has Name.\n"
                          "Customer 'a@x' has Name 'A'.\n")
    calls = {"project": {"noun": "Customer"}, "get": {"noun": "Customer"},
             "query": {"fact_type": "Customer_has_Name"},
             "read": {"noun": "Customer", "id": "a@x"},
             "explain": {"fact_type": "Customer_has_Name", "bindings": ["a@x", "A"]},
             "actions": {"noun": "Customer", "id": "a@x"}, "schema": {},
             "verify": {"fact_type": "Customer_has_Name", "bindings": ["b@x", "B"]},
             "snapshots": {}, "ask": {"question": "Who?"},
             "synthesize": {"noun": "Customer", "id": "a@x"},
             "validate": {"text": "A", "constraint": "x"}, "search": {"query": "a"},
             "fetch": {"id": "Customer:a@x"}}
    assert set(calls) == READ_ONLY and not READ_ONLY & DESTRUCTIVE
    for verb, arguments in calls.items():
        command = command_for(verb, arguments, EVERYTHING)
        assert arest.apply(state, command.key, command.input)[1] is state, verb
