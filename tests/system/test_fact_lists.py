"""assert and retract of several facts as one command: all or none, the constraints checked
on the combined result, so invariants that span two facts can change through the verbs."""

from __future__ import annotations

from typing import Any

import pytest

import arest
from arest.verbs import CATALOGUE, VerbError, command_for, surface

PEOPLE = """Person(.id) is an entity type.
Car(.id) is an entity type.
Person likes Person.
If Person1 likes Person2 then Person2 likes Person1.
Person owns Car.
Person rents Car.
Person owns some Car if and only if Person rents some Car.
"""


def facts(*pairs: tuple[str, list[str]]) -> dict[str, Any]:
    return {"facts": [{"fact_type": ft, "bindings": b} for ft, b in pairs]}


LIKES = facts(("Person_likes_Person", ["a", "b"]), ("Person_likes_Person", ["b", "a"]))


def test_a_symmetric_pair_is_asserted_and_retracted_as_one_command() -> None:
    D = arest.compile(PEOPLE)
    out, _ = arest.apply(D, "assert", {"fact_type": "Person_likes_Person",
                                       "bindings": ["a", "b"]})
    assert out["rejected"]  # one fact alone breaks the symmetry
    out, D = arest.apply(D, "assert", LIKES)
    assert not out["rejected"], out["violations"]
    assert out["facts"] == [{"fact_type": "Person_likes_Person",
                             "bindings": {"Person1": "a", "Person2": "b"}},
                            {"fact_type": "Person_likes_Person",
                             "bindings": {"Person1": "b", "Person2": "a"}}]
    assert len(arest.apply(D, "query:Person_likes_Person")[0]["rows"]) == 2
    out, D = arest.apply(D, "retract", LIKES)
    assert not out["rejected"] and arest.apply(D, "query:Person_likes_Person")[0]["rows"] == []


def test_an_equality_constraint_changes_through_two_facts_at_once() -> None:
    D = arest.compile(PEOPLE)
    both = facts(("Person_owns_Car", ["p1", "c1"]), ("Person_rents_Car", ["p1", "c1"]))
    out, D = arest.apply(D, "assert", both)
    assert not out["rejected"], out["violations"]
    out, D = arest.apply(D, "retract", both)
    assert not out["rejected"] and arest.apply(D, "query:Person_owns_Car")[0]["rows"] == []


def test_a_rejected_list_leaves_D_as_it_was() -> None:
    D = arest.compile(PEOPLE)
    half = facts(("Person_owns_Car", ["p1", "c1"]), ("Person_likes_Person", ["a", "b"]))
    out, after = arest.apply(D, "assert", half)
    assert out["rejected"] and after is D
    assert {v["kind"] for v in out["violations"]} == {"EQ", "SY"}
    out, after = arest.apply(D, "assert", {"facts": [LIKES["facts"][0], {"fact_type": "nope"}]})
    assert out["error"]["code"] == "unknown_fact_type" and after is D
    out, after = arest.apply(D, "assert", {"facts": [LIKES["facts"][0], {"bindings": []}]})
    assert out["error"]["path"] == "$.facts[1].fact_type" and after is D
    out, after = arest.apply(D, "assert", {"facts": [LIKES["facts"][0], {"fact_type":
                                           "Person_likes_Person", "bindings": ["a"]}]})
    assert out["error"]["path"] == "$.facts[1].bindings" and after is D
    out, after = arest.apply(D, "assert", {"facts": []})
    assert out["error"]["path"] == "$.facts" and after is D


def test_the_verb_catalogue_takes_a_list_of_facts() -> None:
    for name in ("assert", "retract"):
        command = command_for(name, LIKES, surface())
        assert (command.key, command.input) == (name, LIKES)
        single = LIKES["facts"][0]
        assert command_for(name, single, surface()).input == single
        for wrong in ({"facts": []}, {**single, **LIKES}, {"facts": [{"fact_type": "x"}]}):
            with pytest.raises(VerbError) as caught:
                CATALOGUE[name].check(wrong)
            assert caught.value.envelope["error"]["code"] == "invalid_input"
