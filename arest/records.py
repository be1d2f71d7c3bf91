"""Records: frozen dataclasses that are cheaper to define.

``@record`` on a class is ``@dataclass(frozen=True)``: the same fields, ``__init__``,
``__match_args__``, frozen attributes, ``fields``/``replace``/``asdict``, and an ``__eq__``,
``__hash__`` and ``__repr__`` that give what the dataclass's would:

    a == b   ⇔  a.__class__ is b.__class__ ∧ ⟨compared fields of a⟩ = ⟨those of b⟩
    hash(a)  =  hash(⟨hashed fields of a⟩)
    repr(a)  =  Name(field=value!r, …)   (the fields shown, ``...`` on recursion)

Why: CPython 3.11 writes each method a dataclass adds as source text and compiles it, six
texts for a frozen class, about 0.8 ms a class; the reader, the compiler and the system
define over a hundred, and a process starting on new readings spent about 60 ms of its
start defining them.  Here the dataclass writes ``__init__`` and the frozen
``__setattr__``/``__delattr__``, and the other three are closures over the field names,
made without compiling anything: about 40% less a class.  A class that writes its own
``__eq__``, ``__hash__`` or ``__repr__`` is left to ``dataclass`` whole.
``tests/test_records.py`` checks every record against the dataclass of the same fields.

>>> @record
... class Point:
...     x: int
...     y: int = 0
>>> Point(1) == Point(1, 0), hash(Point(1)) == hash((1, 0)), Point(1)
(True, True, Point(x=1, y=0))
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, cast, dataclass_transform

T = TypeVar("T")

_OWN = ("__eq__", "__hash__", "__repr__")
"""The methods a class may write itself, which the dataclass then keeps."""


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: type[T]) -> type[T]:
    """``dataclass(frozen=True)(cls)``, its ``__eq__``, ``__hash__`` and ``__repr__`` made
    without compiling (see the module)."""
    if any(name in cls.__dict__ for name in _OWN):
        return dataclasses.dataclass(frozen=True)(cls)
    made = dataclasses.dataclass(frozen=True, eq=False, repr=False)(cls)
    fields = dataclasses.fields(cast(Any, made))
    for method in (
        _equality(_values([f.name for f in fields if f.compare])),
        _hash(_values([f.name for f in fields if (f.compare if f.hash is None else f.hash)])),
        _representation(tuple(f.name for f in fields if f.repr)),
    ):
        method.__qualname__ = f"{made.__qualname__}.{method.__name__}"
        method.__module__ = made.__module__
        setattr(made, method.__name__, method)
    return made


def _values(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an object's attributes named, as the dataclass's methods build it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda x: (one(x),)
    return lambda x: ()


def _equality(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _representation(names: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr("...")
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__
