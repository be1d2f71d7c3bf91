"""FFP objects: atoms, the empty sequence φ, sequences, and ⊥ (Backus 1978, §11.2.1).

An object is an atom (a Python ``str``), a sequence (a ``tuple`` of objects), or ⊥ (the
singleton :data:`BOTTOM`).  ``T`` and ``F`` are the atoms ``"T"`` and ``"F"``; φ is the
empty tuple, the one object that is both an atom and a sequence.  A sequence that contains ⊥
is ⊥: build sequences with :func:`sequence`, which enforces that, rather than with ``tuple``.

>>> sequence("a", ("b", "c"))
('a', ('b', 'c'))
>>> sequence("a", BOTTOM)
⊥
>>> is_atom(PHI), PHI == ()
(True, True)
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias, cast


class Bottom:
    """⊥, the undefined object: the value of every function where it is not defined.

    There is one ⊥; it is equal only to itself and survives pickling as itself.

    >>> BOTTOM is Bottom()
    True
    """

    _instance: Bottom | None = None
    __slots__ = ()

    def __new__(cls) -> Bottom:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "⊥"

    def __reduce__(self) -> tuple[type[Bottom], tuple[()]]:
        return (Bottom, ())

    def __bool__(self) -> bool:
        return False


BOTTOM: Final = Bottom()

Object: TypeAlias = "str | tuple[Object, ...] | Bottom"
"""An FFP object: an atom, a sequence of objects, or ⊥."""

T: Final = "T"
F: Final = "F"
PHI: Final[tuple[Object, ...]] = ()


def truth(flag: bool) -> str:
    """The atom for a Python truth value: truth(True) = T, truth(False) = F.

    >>> truth(1 < 2), truth(2 < 1)
    ('T', 'F')
    """
    return T if flag else F


def is_atom(x: Object) -> bool:
    """atom:x = T when x is an atom (φ included), F for any other object but ⊥.

    >>> is_atom("a"), is_atom(()), is_atom(("a",)), is_atom(BOTTOM)
    (True, True, False, False)
    """
    return type(x) is str or x == ()


def sequence(*items: Object) -> Object:
    """⟨x₁,…,xₙ⟩, or ⊥ when some xᵢ is ⊥ (sequences are ⊥-preserving).

    >>> sequence()
    ()
    >>> sequence("a", "b")
    ('a', 'b')
    >>> sequence("a", BOTTOM, "b")
    ⊥
    """
    return BOTTOM if any(item is BOTTOM for item in items) else items


def equal(x: Object, y: Object) -> bool:
    """x = y as objects, decided without recursion.

    Equality is structural: atoms are equal when they are the same text (``2`` and ``2.0``
    are different atoms, as they are different keys), sequences when they have equal lengths
    and equal elements.  Objects nested tens of thousands deep compare without a
    ``RecursionError``, which Python's own ``==`` on tuples would raise.

    >>> equal(("a", ("2", "b")), ("a", ("2", "b")))
    True
    >>> equal(("2",), ("2.0",))
    False
    """
    pending: list[tuple[Object, Object]] = [(x, y)]
    while pending:
        left, right = pending.pop()
        if left is right:
            continue
        if type(left) is tuple and type(right) is tuple:
            if len(left) != len(right):
                return False
            pending.extend(zip(left, right, strict=True))
        elif type(left) is not str or left != right:
            return False
    return True


def depth(x: Object) -> int:
    """How deeply sequences nest in x: 0 for an atom or ⊥, 1 + the deepest element otherwise.

    >>> depth("a"), depth(()), depth((("a",), "b"))
    (0, 1, 2)
    """
    deepest = 0
    pending: list[tuple[Object, int]] = [(x, 0)]
    while pending:
        item, level = pending.pop()
        if type(item) is tuple:
            level += 1
            deepest = max(deepest, level)
            pending.extend((element, level) for element in item)
    return deepest


def as_json(x: Object) -> Any:
    """An object as JSON: atoms are strings, sequences lists, ⊥ null.

    >>> as_json(("a", ("b", ()))), as_json(BOTTOM)
    (['a', ['b', []]], None)
    """
    if type(x) is str:
        return x
    if type(x) is tuple:
        return [as_json(item) for item in x]
    return None


def from_json(x: Any) -> Object:
    """The object a JSON value from :func:`as_json` stands for (null is ⊥).

    >>> from_json(["a", ["b", []]])
    ('a', ('b', ()))
    """
    # What json.loads gives (exact str and list) first, an atom item without a call: a
    # restart decodes every kept object cell through here.
    kind = type(x)
    if kind is str:
        return cast(str, x)
    if kind is list:
        return tuple([item if type(item) is str else from_json(item) for item in x])
    if isinstance(x, str):
        return x
    if isinstance(x, list):
        return tuple(from_json(item) for item in x)
    return BOTTOM
