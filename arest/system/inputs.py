"""Reading command input: values, bindings, fact types (DESIGN §4).

Values are atoms: a string as it is, a JSON number as its numeral (``42``, ``2.5``), never
a boolean outside a flag.  Bindings name a fact type's roles by their nouns, numbered in
role order where a noun plays several roles (``Book1``, ``Book2``), or list the values in
role order.
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.algebra.relations import Fact, Relation
from arest.compiler.cells import FACT_TYPE_READINGS
from arest.compiler.population import role_nouns
from arest.system.errors import Refusal, closest, invalid_input

MAX_ATOM = 1_000_000
"""The longest atom a command may give, in characters."""

MAX_DEPTH = 64
"""The deepest a command's input may nest lists and objects."""

MAX_DIGITS = 1_000
"""The most digits a whole number in a command's input may have."""

_TOO_MANY_DIGITS = 10**MAX_DIGITS


def checked_input(value: Any, path: str) -> Any:
    """``value``, when no list or object in it nests deeper than :data:`MAX_DEPTH` and no
    whole number in it (a value or a key) has more than :data:`MAX_DIGITS` digits;
    ``invalid_input`` at the first place that does.  The walk keeps its own stack, so no
    input is too deep for it.

    >>> checked_input({"bindings": [1, "a"]}, "$")
    {'bindings': [1, 'a']}
    >>> checked_input({"bindings": [1, 10**1000]}, "$")
    Traceback (most recent call last):
    ...
    arest.system.errors.Refusal: $.bindings[1]: expected a number of at most 1,000 digits
    """
    if type(value) is dict:
        # An object of strings alone (a create's flat input) holds no number and no nesting:
        # nothing below could refuse it, so the walk is skipped.
        for key, item in value.items():
            if type(key) is not str or type(item) is not str:
                break
        else:
            return value
    # Each entry's place is (parent's place, key), built into a path only for an error:
    # a valid input, the common case, never pays for its paths' strings.
    stack: list[tuple[Any, Any, int]] = [(value, path, 0)]
    while stack:
        item, place, depth = stack.pop()
        kind = type(item)
        if kind is str:
            continue
        if isinstance(item, int) and kind is not bool:
            if abs(item) >= _TOO_MANY_DIGITS:
                raise invalid_input(_path(place), f"a number of at most {MAX_DIGITS:,} digits")
        elif isinstance(item, list | tuple | dict):
            if depth >= MAX_DEPTH:
                raise invalid_input(_path(place), f"input nested at most {MAX_DEPTH} deep")
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in pairs:
                stack.append((key, place, depth + 1))
                stack.append((child, (place, key), depth + 1))
    return value


def _path(place: Any) -> str:
    """The path a place names: the root's path, then a step per key (see ``checked_input``)."""
    steps: list[str] = []
    while type(place) is tuple:
        place, key = place
        steps.append(_step(key))
    return place + "".join(reversed(steps))  # type: ignore[no-any-return]


def _step(key: Any) -> str:
    """A path's step to the item at ``key``: ``.name``, ``[index]``, or the key's type."""
    if isinstance(key, str):
        return f".{key}"
    if isinstance(key, int) and abs(key) < _TOO_MANY_DIGITS:
        return f"[{key}]"
    return f"[{type(key).__name__}]"


def checked_text(value: str, path: str) -> str:
    """A string the store can keep: valid Unicode (no lone surrogates) and not huge."""
    if len(value) > MAX_ATOM:
        raise invalid_input(path, f"a string of at most {MAX_ATOM:,} characters")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise invalid_input(path, "valid Unicode text (no lone surrogates)") from None
    return value


def atom(value: Any, path: str) -> str:
    """A JSON value as an atom: strings as they are, numbers as numerals; ``invalid_input``
    at path for anything else, the empty string too (an id or value that is nothing would
    name no resource: its href would be its collection's).

    >>> atom("o1", "$.id"), atom(3, "$.id"), atom(2.50, "$.id")
    ('o1', '3', '2.5')
    >>> atom(True, "$.id")
    Traceback (most recent call last):
    ...
    arest.system.errors.Refusal: $.id: expected a string or a number
    >>> atom("", "$.id")
    Traceback (most recent call last):
    ...
    arest.system.errors.Refusal: $.id: expected a non-empty string or a number
    """
    if isinstance(value, bool) or value is None:
        raise invalid_input(path, "a string or a number")
    if isinstance(value, str):
        if not value:
            raise invalid_input(path, "a non-empty string or a number")
        return checked_text(value, path)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        # decimal and the numerals load with the first number given as a float
        from decimal import Decimal

        from arest.algebra.numerals import numeral

        text = numeral(Decimal(repr(value)))
        if text is None:
            raise invalid_input(path, "a finite number")
        return text
    raise invalid_input(path, "a string or a number")


def fact_type_of(state: State, request: Any) -> tuple[str, tuple[str, ...]]:
    """The fact type a request names (``fact_type``), with its role nouns."""
    if not isinstance(request, dict):
        raise invalid_input("$", "an object with fact_type and bindings")
    fact_type = request.get("fact_type")
    if not isinstance(fact_type, str):
        raise invalid_input("$.fact_type", "a fact type id")
    roles = role_nouns(state, fact_type)
    if not roles:
        known = state.get(FACT_TYPE_READINGS)
        ids = {fact[0] for fact in known} if isinstance(known, Relation) else set()
        raise Refusal("unknown_fact_type", f"no fact type {fact_type!r}", fact_type=fact_type,
                      candidates=closest(fact_type, ids))
    return fact_type, roles


def role_names(roles: tuple[str, ...]) -> list[str]:
    """Each role's name: its noun, numbered in role order where the noun repeats.

    >>> role_names(("Book", "Book", "Year"))
    ['Book1', 'Book2', 'Year']
    """
    seen: dict[str, int] = {}
    names: list[str] = []
    for noun in roles:
        seen[noun] = seen.get(noun, 0) + 1
        names.append(f"{noun}{seen[noun]}" if roles.count(noun) > 1 else noun)
    return names


def bindings_fact(roles: tuple[str, ...], bindings: Any, path: str = "$.bindings") -> Fact:
    """The fact bindings describe: a value for every role, by role name or in role order.

    >>> roles = ("Order", "Customer")
    >>> bindings_fact(roles, {"Customer": "acme", "Order": "o1"}), bindings_fact(roles, ["o1", 7])
    (('o1', 'acme'), ('o1', '7'))
    """
    names = role_names(roles)
    if isinstance(bindings, list):
        if len(bindings) != len(roles):
            raise invalid_input(path, f"{len(roles)} values, one per role: {', '.join(names)}")
        return tuple(atom(value, f"{path}[{i}]") for i, value in enumerate(bindings))
    if not isinstance(bindings, dict):
        raise invalid_input(path, "an object of role names to values, or a list in role order")
    for key in bindings:
        if key not in names:
            if key in roles:
                raise Refusal("ambiguous_field", f"{key!r} plays more than one role here",
                              field=key, candidates=[n for n in names if n.startswith(key)])
            raise Refusal("unknown_field", f"no role {key!r}", field=key,
                          candidates=closest(str(key), names))
    missing = [name for name in names if name not in bindings]
    if missing:
        raise invalid_input(f"{path}.{missing[0]}", f"a value for every role: {', '.join(names)}")
    return tuple(atom(bindings[name], f"{path}.{name}") for name in names)


def entity_id(request: Any, path: str = "$") -> str:
    """The id a read-like request names: ``{"id": …}`` or the id itself.

    >>> entity_id({"id": "o1"}), entity_id(42)
    ('o1', '42')
    """
    if isinstance(request, dict):
        if set(request) != {"id"}:
            raise invalid_input(path, 'an object with just "id", or the id')
        request = request["id"]
    return atom(request, f"{path}.id" if path == "$" else path)
