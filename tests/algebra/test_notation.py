"""The notation: read and show are inverse, write what DESIGN §2 says, and teach on errors."""

import pytest
from hypothesis import given

from arest.algebra import BOTTOM, NotationError, read, show
from arest.testing import objects


@given(objects())
def test_read_inverts_show(x: object) -> None:
    assert read(show(x)) == x  # type: ignore[arg-type]


@given(objects())
def test_show_is_canonical(x: object) -> None:
    text = show(x)  # type: ignore[arg-type]
    assert show(read(text)) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<a, <b, c>>", ("a", ("b", "c"))),
        ("<>", ()),
        ("< >", ()),
        ("T", "T"),
        ("⊥", BOTTOM),
        ("_|_", BOTTOM),
        ("<a, _|_>", BOTTOM),
        ("<<Order Id, ord-1>>", (("Order Id", "ord-1"),)),
        ("  padded atom  ", "padded atom"),
        ("'it''s'", "it's"),
        ("''", ""),
        ("' a, <b> '", " a, <b> "),
        ("<1,2,3>", ("1", "2", "3")),
    ],
)
def test_read(text: str, expected: object) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (("a", ("b", "c")), "<a, <b, c>>"),
        ((), "<>"),
        (BOTTOM, "⊥"),
        ("⊥", "'⊥'"),
        ("", "''"),
        ("a,b", "'a,b'"),
        (" x", "' x'"),
        (("Order Id", "ord-1"), "<Order Id, ord-1>"),
    ],
)
def test_show(obj: object, expected: str) -> None:
    assert show(obj) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "where", "expected"),
    [
        ("<a,,b>", (1, 4), "an object"),
        ("<a", (1, 3), "'>' to close a sequence"),
        ("<a> b", (1, 5), "the end of the text after the object"),
        ("'open", (1, 6), "a closing quote"),
        ("<a b'c'>", (1, 5), "an atom quoted whole"),
        ("", (1, 1), "an object"),
        ("<a,\n<b c>", (2, 6), "'>' to close a sequence"),
    ],
)
def test_errors_name_the_place_and_what_was_expected(
    text: str, where: tuple[int, int], expected: str
) -> None:
    with pytest.raises(NotationError) as caught:
        read(text)
    assert (caught.value.line, caught.value.column) == where
    assert expected in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_deeply_nested_objects_read_and_show() -> None:
    deep: object = "a"
    for _ in range(20_000):
        deep = (deep, "b")
    text = show(deep)  # type: ignore[arg-type]
    assert text.startswith("<" * 20_000 + "a, b>")
    again = read(text)
    assert show(again) == text
