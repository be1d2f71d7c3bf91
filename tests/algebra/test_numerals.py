"""Numerals compute as decimals in one fixed context and print canonically."""

import decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arest.algebra import BOTTOM, apply, read


@pytest.mark.parametrize(
    ("program", "argument", "expected"),
    [
        ("+", "<2, 3>", "5"),
        ("+", "<1.5, 1.5>", "3"),
        ("*", "<1.25, 4>", "5"),
        ("-", "<0.1, 0.3>", "-0.2"),
        ("/", "<1, 3>", "0.3333333333333333333333333333"),
        ("/", "<10, 4>", "2.5"),
        ("/", "<1, 0>", BOTTOM),
        ("+", "<2, two>", BOTTOM),
        ("+", "<1e5, 1>", BOTTOM),
        ("-", "<2024-03-01, 2024-02-01>", "29"),
        ("-", "<2024-01-01T10:00:00Z, 2024-01-01T09:59:30Z>", "30"),
        ("-", "<2024-01-01T10:00:00Z, 2024-01-01T09:59:30>", BOTTOM),
        ("-", "<2024-01-02, 2024-01-01T00:00:00>", BOTTOM),
        ("lt", "<9, 10>", "T"),
        ("lt", "<apple, banana>", BOTTOM),
        ("ge", "<2.50, 2.5>", "T"),
        ("gt", "<2024-05-01, 2024-04-30>", "T"),
        ("eq", "<2.5, 2.50>", "F"),
    ],
)
def test_arithmetic_and_ordering(program: str, argument: str, expected: object) -> None:
    assert apply(program, read(argument)) == expected


def test_the_ambient_decimal_context_changes_nothing() -> None:
    with decimal.localcontext() as context:
        context.prec = 3
        context.traps[decimal.Inexact] = True
        assert apply("/", read("<1, 3>")) == "0.3333333333333333333333333333"
        assert apply("*", read("<12345, 6789>")) == "83810205"


@given(st.integers(-10**12, 10**12), st.integers(-10**12, 10**12))
def test_integer_arithmetic_is_exact(a: int, b: int) -> None:
    assert apply("+", (str(a), str(b))) == str(a + b)
    assert apply("*", (str(a), str(b))) == str(a * b)
    assert apply("-", (str(a), str(b))) == str(a - b)
    assert apply("lt", (str(a), str(b))) == ("T" if a < b else "F")
