"""Input limits: a command's input nested deeper than ``MAX_DEPTH`` or holding a whole
number of more than ``MAX_DIGITS`` digits is ``invalid_input`` at its path, and D is
unchanged; an input within them is read as before."""

from __future__ import annotations

from typing import Any

import pytest

import arest
from arest.system.inputs import MAX_DEPTH, MAX_DIGITS

D = arest.compile("""\
Category(.Category Code) is an entity type.
Category has parent Category.
  Each Category has at most one parent Category.
Category has Rank.
  Each Category has at most one Rank.
Rank is a value type.
""")


def chain(depth: int) -> dict[str, Any]:
    """A Category whose parent Category is given inline, ``depth`` objects deep."""
    category: dict[str, Any] = {"id": "c0"}
    for level in range(1, depth):
        category = {"id": f"c{level}", "parent Category": category}
    return category


def test_a_chain_of_inline_parents_within_the_depth_limit_creates_them_all() -> None:
    out, after = arest.apply(D, "create:Category", chain(20))
    assert out["entity"]["id"] == "c19"
    listed, _ = arest.apply(after, "list:Category")
    assert listed["total"] == 20


def test_input_nested_past_the_depth_limit_is_invalid_input_at_its_path() -> None:
    out, after = arest.apply(D, "create:Category", chain(1000))
    error = out["error"]
    assert error["code"] == "invalid_input" and after is D
    assert error["expected"] == f"input nested at most {MAX_DEPTH} deep"
    assert error["path"] == "$" + ".parent Category" * MAX_DEPTH


@pytest.mark.parametrize("key, request_, path", [
    ("create:Category", {"id": "c", "Rank": 10**5000}, "$.Rank"),
    ("create:Category", {"id": "c", "Rank": -(10**MAX_DIGITS)}, "$.Rank"),
    ("read:Category", 10**5000, "$"),
    ("assert", {"fact_type": "Category_has_Rank", "bindings": ["c", 10**5000]},
     "$.bindings[1]"),
    ("list:Category", {"filter": {"Rank": 10**5000}}, "$.filter.Rank"),
], ids=["create", "create-negative", "read", "assert", "list-filter"])
def test_a_number_past_the_digit_limit_is_invalid_input_at_its_path(
        key: str, request_: Any, path: str) -> None:
    out, after = arest.apply(D, key, request_)
    assert out["error"] == {
        "code": "invalid_input", "path": path,
        "expected": f"a number of at most {MAX_DIGITS:,} digits",
        "message": f"{path}: expected a number of at most {MAX_DIGITS:,} digits"}
    assert after is D


def test_a_number_of_the_most_digits_is_a_numeral() -> None:
    rank = 10**MAX_DIGITS - 1
    out, _ = arest.apply(D, "create:Category", {"id": "c", "Rank": rank})
    assert out["entity"]["Rank"] == str(rank)


def test_a_key_that_is_a_huge_number_is_an_unknown_key() -> None:
    out, after = arest.apply(D, 10**5000)
    assert out["error"]["code"] == "unknown_key" and out["error"]["key"] == "int"
    assert after is D
