"""``@record`` is ``@dataclass(frozen=True)``: for every record class of the reader and the
compiler, on any field values, equality, hash and representation are the dataclass's of the
same fields, and the class is as frozen."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest.compiler
import arest.forml2
from arest.records import record


def _made_by_record(cls: type) -> bool:
    """A dataclass whose ``__eq__`` the dataclass left to ``record``."""
    params = getattr(cls, "__dataclass_params__", None)
    return params is not None and not params.eq and "__eq__" in cls.__dict__


@cache
def records() -> tuple[type, ...]:
    found: dict[str, type] = {}
    for package in (arest.forml2, arest.compiler):
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            if module.name.endswith("duckdb_eval"):
                continue  # needs DuckDB, an optional dependency
            for value in vars(importlib.import_module(module.name)).values():
                if isinstance(value, type) and _made_by_record(value):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return tuple(found[name] for name in sorted(found))


@cache
def dataclass_twin(cls: type) -> type:
    """The plain frozen dataclass of the same fields, name and options."""
    made = dataclasses.make_dataclass(cls.__name__, [
        (f.name, f.type, dataclasses.field(compare=f.compare, hash=f.hash, repr=f.repr))
        for f in dataclasses.fields(cls)], frozen=True)
    made.__qualname__ = cls.__qualname__
    return made


def instance(cls: type, values: list[Any]) -> Any:
    made = object.__new__(cls)
    for f, value in zip(dataclasses.fields(cls), values, strict=False):
        object.__setattr__(made, f.name, value)
    return made


@record
class OneField:
    value: object


@record
class NoField:
    pass


@record
class Flagged:
    a: object
    b: object = dataclasses.field(default=None, compare=False)
    c: object = dataclasses.field(default=None, hash=False)
    d: object = dataclasses.field(default=None, repr=False)
    e: object = dataclasses.field(default=None, compare=False, hash=True)


SHAPES = (OneField, NoField, Flagged)
"""Records of the shapes the package may not hold: one field, none, every field option."""

NAN = float("nan")
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.text("ab", max_size=2),
                   st.just(NAN), st.tuples(st.integers(0, 1), st.text("a", max_size=1)))


def test_the_reader_and_the_compiler_define_their_records_with_it() -> None:
    names = {cls.__name__ for cls in records()}
    assert len(names) > 40 and {"Source", "Constraint", "Diagnostic", "Schema"} <= names


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_record_is_the_frozen_dataclass_of_its_fields(data: st.DataObject) -> None:
    cls = data.draw(st.sampled_from((*records(), *SHAPES)))
    width = len(dataclasses.fields(cls))
    first = data.draw(st.lists(VALUES, min_size=width, max_size=width))
    changed = data.draw(st.lists(st.booleans(), min_size=width, max_size=width))
    second = [data.draw(VALUES) if change else value for value, change in zip(first, changed,
                                                                               strict=True)]
    twin = dataclass_twin(cls)
    a, b = instance(cls, first), instance(cls, second)
    ta, tb = instance(twin, first), instance(twin, second)
    assert (a == b) == (ta == tb) and (a != b) == (ta != tb)
    assert repr(a) == repr(ta)
    try:
        expected: object = hash(ta)
    except TypeError as error:  # an unhashable value among the fields
        expected = type(error)
    try:
        assert hash(a) == expected
    except TypeError as error:
        assert type(error) is expected
    assert a.__eq__(ta) is NotImplemented and a.__eq__(object()) is NotImplemented
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(a, dataclasses.fields(cls)[0].name, 1) if width else setattr(a, "x", 1)


def test_a_record_repr_of_itself_is_the_dataclass_s() -> None:
    @record
    class Node:
        label: str
        child: object = None
        hidden: int = dataclasses.field(default=0, repr=False, compare=False)

    @dataclasses.dataclass(frozen=True)
    class Twin:
        label: str
        child: object = None
        hidden: int = dataclasses.field(default=0, repr=False, compare=False)

    node, twin = Node("a", hidden=1), Twin("a", hidden=1)
    object.__setattr__(node, "child", node)
    object.__setattr__(twin, "child", twin)
    assert repr(node) == repr(twin).replace("Twin", "Node") == "test_a_record_repr_of_itself_is_" \
        "the_dataclass_s.<locals>.Node(label='a', child=...)"
    assert Node("a", hidden=1) == Node("a", hidden=2) and hash(Node("a")) == hash(("a", None))


def test_a_class_with_its_own_equality_keeps_it() -> None:
    @record
    class Loose:
        value: int

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    assert Loose(1) == Loose(2) and dataclasses.is_dataclass(Loose)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Loose(1).value = 2  # type: ignore[misc]
