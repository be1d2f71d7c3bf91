"""``@record`` is ``@dataclass(frozen=True)``: for every record class of the reader and the
compiler, on any field values, equality, hash and representation are the dataclass's of the
same fields, and the class is as frozen."""

from __future__ import annotations

import dataclasses
import importlib
import os
import pkgutil
import re
from functools import cache
from pathlib import Path
from types import CodeType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest.algebra
import arest.compiler
import arest.forml2
import arest.record_inits
import arest.runtime
import arest.system
from arest.records import field, initializer_text, record


def _made_by_record(cls: type) -> bool:
    """A class ``record`` made (not a dataclass's subclass that inherits its fields)."""
    return "__record_fields__" in cls.__dict__


@cache
def records() -> tuple[type, ...]:
    found: dict[str, type] = {}
    for package in (arest.forml2, arest.compiler, arest.algebra, arest.system, arest.runtime):
        for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            if module.name.endswith(("duckdb_eval", "postgres")):
                continue  # needs DuckDB or psycopg, optional dependencies
            for value in vars(importlib.import_module(module.name)).values():
                if isinstance(value, type) and _made_by_record(value):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return tuple(found[name] for name in sorted(found))


def frozen(cls: type) -> bool:
    """Made by ``record``, not ``mutable_record``."""
    return "__setattr__" in cls.__dict__


@cache
def dataclass_twin(cls: type) -> type:
    """The plain dataclass of the same fields, name and options, frozen when the record is."""
    made = dataclasses.make_dataclass(cls.__name__, [
        (f.name, f.type, dataclasses.field(
            compare=f.compare, hash=f.hash, repr=f.repr, init=f.init, default=f.default,
            default_factory=f.default_factory))
        for f in dataclasses.fields(cls)], frozen=frozen(cls))
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
    b: object = field(default=None, compare=False)
    c: object = field(default=None, hash=False)
    d: object = field(default=None, repr=False)
    e: object = field(default=None, compare=False, hash=True)


SHAPES = (OneField, NoField, Flagged)
"""Records of the shapes the package may not hold: one field, none, every field option."""

NAN = float("nan")
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.text("ab", max_size=2),
                   st.just(NAN), st.tuples(st.integers(0, 1), st.text("a", max_size=1)))


def test_the_reader_and_the_compiler_define_their_records_with_it() -> None:
    names = {cls.__name__ for cls in records()}
    assert len(names) > 40 and {"Source", "Constraint", "Diagnostic", "Schema"} <= names


def test_the_system_and_the_runtime_define_their_records_on_a_reopen_path_with_it() -> None:
    names = {f"{cls.__module__}.{cls.__qualname__}" for cls in records()}
    assert {"arest.system.commands.Verb", "arest.system.create_plans.Plan",
            "arest.system.derive.Changes", "arest.runtime.recovery.Recovered",
            "arest.algebra.layers.Implied"} <= names


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
    name = dataclasses.fields(cls)[0].name if width else "x"
    if frozen(cls):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(a, name, 1)
    else:
        setattr(a, name, 1)
        setattr(ta, name, 1)
        assert getattr(a, name) == 1 and (a == b) == (ta == tb)


def test_a_record_repr_of_itself_is_the_dataclass_s() -> None:
    @record
    class Node:
        label: str
        child: object = None
        hidden: int = field(default=0, repr=False, compare=False)

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


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_record_s_init_sets_what_the_dataclass_s_sets(data: st.DataObject) -> None:
    cls = data.draw(st.sampled_from((*records(), *SHAPES)))
    fields = dataclasses.fields(cls)
    values = data.draw(st.lists(VALUES, min_size=len(fields), max_size=len(fields)))
    given = data.draw(st.lists(st.booleans(), min_size=len(fields), max_size=len(fields)))
    arguments = {f.name: value for f, value, give in zip(fields, values, given, strict=True)
                 if f.init and (give or (f.default is dataclasses.MISSING
                                         and f.default_factory is dataclasses.MISSING))}
    made, twin = cls(**arguments), dataclass_twin(cls)(**arguments)
    assert vars(made) == vars(twin) and made.__match_args__ == twin.__match_args__


@record
class Base:
    a: int
    b: list[int] = field(default_factory=list)


@record
class Derived(Base):
    c: str = "c"
    hidden: int = field(default=7, init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hidden", self.a * 2)


def test_a_record_inherits_fields_and_runs_its_post_init() -> None:
    made = Derived(1, [2])
    assert (made.a, made.b, made.c, made.hidden) == (1, [2], "c", 2)
    assert Derived(1).b == [] and Derived(1).b is not Derived(1).b
    assert [f.name for f in dataclasses.fields(Derived)] == ["a", "b", "c", "hidden"]
    assert dataclasses.replace(made, c="d") == Derived(1, [2], "d")
    assert dataclasses.asdict(made) == {"a": 1, "b": [2], "c": "c", "hidden": 2}
    assert Derived.__match_args__ == ("a", "b", "c") and dataclasses.is_dataclass(made)


def test_a_mutable_record_is_the_dataclass() -> None:
    from arest.records import mutable_record

    @mutable_record
    class Box:
        items: list[int] = field(default_factory=list)
        size: int = 0

    @dataclasses.dataclass
    class Twin:
        items: list[int] = dataclasses.field(default_factory=list)
        size: int = 0

    box = Box()
    box.size = 2
    assert box == Box([], 2) and repr(box) == repr(Twin([], 2)).replace("Twin", "Box")
    assert Box.__hash__ is None and Twin.__hash__ is None
    del box.size
    assert vars(box) == {"items": []}


def test_a_record_refuses_what_the_dataclass_refuses() -> None:
    with pytest.raises(ValueError, match="mutable default"):
        record(type("Listed", (), {"__annotations__": {"a": "list[int]"}, "a": []}))
    with pytest.raises(TypeError, match="non-default argument"):
        record(type("Late", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 1}))
    with pytest.raises(TypeError, match=r"arest\.records\.field"):
        record(type("Foreign", (), {"__annotations__": {"a": "int"},
                                    "a": dataclasses.field(default=1)}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        del Derived(1).a


def test_a_plain_subclass_of_a_record_has_its_fields() -> None:
    class Plain(Derived):
        pass

    assert [f.name for f in dataclasses.fields(Plain)] == ["a", "b", "c", "hidden"]
    assert dataclasses.replace(Plain(1), c="d").c == "d" and Plain(1) != Derived(1)


# the records' __init__s compiled ahead of time --------------------------------------------

INITS = Path(arest.record_inits.__file__)

CODE_PARTS = ("co_code", "co_consts", "co_names", "co_varnames", "co_argcount", "co_flags",
              "co_kwonlyargcount", "co_posonlyargcount", "co_nlocals", "co_stacksize",
              "co_freevars", "co_cellvars", "co_exceptiontable")
"""What a code object runs (its name, file and line numbers aside)."""


def _text(cls: type) -> tuple[str, dict[str, Any], tuple[Any, ...]]:
    return initializer_text(cls, cls.__record_fields__,  # type: ignore[attr-defined]
                            frozen(cls))


def _compiled(text: str, scope: dict[str, Any]) -> CodeType:
    """The code of the text compiled now, as ``arest.records`` compiles one not written."""
    scope = dict(scope)
    exec(compile(text, "<record>", "exec"), scope)
    code: CodeType = scope["__init__"].__code__
    return code


def _written_out(text: str, number: int) -> str:
    """The text as a typed function of the module, under its own name."""
    head, _, body = text.partition("\n")
    parameters = head[len("def __init__("):-len("):")].split(", ")
    typed = [p.replace("=", ": Any = ", 1) if "=" in p else f"{p}: Any" for p in parameters]
    return (f"def _init_{number}({', '.join(typed)}) -> None:\n{body.replace('  ', '    ')}"
            f"\n\nWRITTEN[{text!r}] = _init_{number}.__code__\n")


def record_inits_module() -> str:
    """The text of :mod:`arest.record_inits` for the package's records as they are now."""
    texts = sorted({_text(cls)[0] for cls in records()})
    names = sorted({name for text in texts for name in re.findall(r"__\w+", text)
                    if name not in ("__init__", "__post_init__")})
    return "\n".join([
        '"""The records\' ``__init__``s compiled ahead of time, so that a start compiles none.',
        "",
        "Generated from every record of the package by ``tests/test_records.py``; do not edit,",
        "regenerate with ``AREST_REGENERATE_RECORD_INITS=1 pytest tests/test_records.py``.  Each",
        "function is the text :func:`arest.records.initializer_text` makes for a record, typed",
        "and renamed (neither changes its code), and ``WRITTEN`` maps that text to the code,",
        "which :mod:`arest.records` binds to the record's own defaults and factories.  A record",
        "whose text is not here (new or changed) is compiled as it is made, as before, and the",
        "test fails until this module is regenerated.",
        '"""',
        "",
        "# ruff: noqa: E501  (each text as it is, one line per line of code)",
        "",
        "from __future__ import annotations  # as arest.records compiles, so the same flags",
        "",
        "from types import CodeType",
        "from typing import Any",
        "",
        "WRITTEN: dict[str, CodeType] = {}",
        "",
        "# the globals the functions read, each record's own bound in their place",
        *(f"{name}: Any = None" for name in names),
        "",
        *(f"\n{_written_out(text, number)}" for number, text in enumerate(texts)),
    ])


def test_every_record_s_init_is_compiled_ahead_of_time_from_its_own_text() -> None:
    if os.environ.get("AREST_REGENERATE_RECORD_INITS") == "1":
        INITS.write_text(record_inits_module())
    assert INITS.read_text() == record_inits_module(), (
        "a record changed: run with AREST_REGENERATE_RECORD_INITS=1")
    for cls in records():
        made = cls.__dict__["__init__"]
        if not made.__code__.co_filename.startswith("<record"):
            continue  # the class writes its own
        text, scope, defaults = _text(cls)
        written = arest.record_inits.WRITTEN[text]
        for part in CODE_PARTS:
            assert getattr(made.__code__, part) == getattr(_compiled(text, scope), part) == getattr(
                written, part), (cls, part)
        assert made.__defaults__ == (defaults or None)
        assert made.__globals__ == scope
        assert (made.__name__, made.__qualname__) == ("__init__", f"{cls.__qualname__}.__init__")


def test_a_record_whose_text_is_not_written_is_compiled_when_made() -> None:
    @record
    class Unwritten:
        first_of_its_kind: object
        with_a_default: object = 3
        made: list[object] = field(default_factory=list)

    assert _text(Unwritten)[0] not in arest.record_inits.WRITTEN
    assert Unwritten(1).__dict__ == {"first_of_its_kind": 1, "with_a_default": 3, "made": []}
    assert Unwritten.__init__.__code__.co_filename.endswith("Unwritten>")
