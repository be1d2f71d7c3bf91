"""⊥ is preserved: by sequences, by every primitive, by every form and by every function."""

import pytest
from hypothesis import given

from arest.algebra import BOTTOM, PRIMITIVES, apply, evaluate, read, sequence
from arest.algebra import forms as f
from arest.testing import functions

ENVIRONMENTAL = ["holds", "count", "matching", "values", "path"]
ALL_PRIMITIVES = [*sorted(PRIMITIVES), *ENVIRONMENTAL, "1", "2r", "apply"]
EXAMPLE_FORMS = [
    f.const("a"),
    f.comp("tl", "tl"),
    f.comp(),
    f.cons("id", f.const("a")),
    f.cons(),
    f.cond("null", f.const("a"), f.const("b")),
    f.alpha("id"),
    f.insert("+"),
    f.bu("+", "1"),
    f.while_(f.const("F"), "id"),
    f.filter_(f.const("T")),
    f.foldl("+"),
]


def test_a_sequence_holding_bottom_is_bottom() -> None:
    assert sequence("a", BOTTOM) is BOTTOM
    assert read("<a, <b, ⊥>>") is BOTTOM


@pytest.mark.parametrize("name", ALL_PRIMITIVES)
def test_every_primitive_maps_bottom_to_bottom(name: str) -> None:
    assert apply(name, BOTTOM) is BOTTOM
    assert evaluate(name, BOTTOM) is BOTTOM


@pytest.mark.parametrize("form", EXAMPLE_FORMS, ids=lambda form: str(form[0]))
def test_every_form_maps_bottom_to_bottom(form: object) -> None:
    assert apply(form, BOTTOM) is BOTTOM  # type: ignore[arg-type]
    assert evaluate(form, BOTTOM) is BOTTOM  # type: ignore[arg-type]


@given(functions())
def test_every_function_maps_bottom_to_bottom(function: object) -> None:
    assert apply(function, BOTTOM, fuel=1_000) is BOTTOM  # type: ignore[arg-type]
    assert evaluate(function, BOTTOM, fuel=1_000) is BOTTOM  # type: ignore[arg-type]


def test_bottom_applied_is_bottom() -> None:
    assert apply(BOTTOM, "a") is BOTTOM
    assert apply((), "a") is BOTTOM
    assert evaluate(BOTTOM, "a") is BOTTOM


@pytest.mark.parametrize(
    "malformed", ["<COND, null, id>", "<CONST>", "<CONST, a, b>", "<APPLYTOALL>", "<BU, +>"]
)
def test_a_form_of_the_wrong_arity_is_bottom(malformed: str) -> None:
    assert apply(read(malformed), "a") is BOTTOM
    assert evaluate(read(malformed), "a") is BOTTOM


@pytest.mark.parametrize("name", ["nosuch", "T", "0", "01"])
def test_an_atom_without_meaning_is_bottom(name: str) -> None:
    assert apply(name, read("<a, b>")) is BOTTOM
    assert evaluate(name, read("<a, b>")) is BOTTOM
