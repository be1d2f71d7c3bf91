"""Records: dataclasses defined without the ``dataclasses`` module's per-class compiling.

``@record`` on a class is ``@dataclass(frozen=True)``, ``@mutable_record`` is ``@dataclass``:
the same fields (inherited ones first), ``__init__``, ``__match_args__``, attributes frozen or
not, ``dataclasses.fields``/``replace``/``asdict``/``is_dataclass``, and an ``__eq__``,
``__hash__`` and ``__repr__`` that give what the dataclass's would:

    a == b   ⇔  a.__class__ is b.__class__ ∧ ⟨compared fields of a⟩ = ⟨those of b⟩
    hash(a)  =  hash(⟨hashed fields of a⟩)    (a record; a mutable record is unhashable)
    repr(a)  =  Name(field=value!r, …)        (the fields shown, ``...`` on recursion)

Why: CPython 3.11 writes each method a dataclass adds as source text and compiles it, six
texts for a frozen class, about 1 ms a class, and importing ``dataclasses`` brings
``inspect`` with ``ast``, ``dis`` and ``tokenize`` (about 11 ms).  A reopen defined 27 such
classes before its first command.  Here ``__init__`` is the one text (the dataclass's own
text, so an instance costs what a dataclass's does), and not compiled at a start either: the
package's records' texts are compiled ahead of time into :mod:`arest.record_inits`'s bytecode,
each looked up by its exact text (a text not there is compiled as the class is made);
``__eq__``, ``__hash__``, ``__repr__`` and the frozen ``__setattr__``/``__delattr__`` are
closures over the field names; ``dataclasses`` is imported only when something asks for a record's
``__dataclass_fields__`` (``fields``, ``replace``, ``asdict``) or assigns to a frozen field,
to raise its ``FrozenInstanceError``.  A class that writes its own ``__eq__``, ``__hash__``
or ``__repr__`` keeps it, as a dataclass does.  ``tests/test_records.py`` checks every record
against the dataclass of the same fields.

>>> @record
... class Point:
...     x: int
...     y: int = 0
>>> Point(1) == Point(1, 0), hash(Point(1)) == hash((1, 0)), Point(1)
(True, True, Point(x=1, y=0))
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from operator import attrgetter
from types import FunctionType
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


class _Missing:
    """No default: a field without one must be given."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Field:
    """What ``field(...)`` says of one field: its default or the function making it, and
    whether ``__init__`` takes it, the representation shows it, equality compares it and
    the hash includes it (``None``: when compared)."""

    __slots__ = ("compare", "default", "default_factory", "hash", "init", "name", "repr", "type")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool,
                 hash: bool | None, compare: bool) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.hash, self.compare = init, repr, hash, compare
        self.name = ""
        self.type: Any = None

    @property
    def hashed(self) -> bool:
        return self.compare if self.hash is None else self.hash


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True,
          repr: bool = True, hash: bool | None = None, compare: bool = True) -> Any:
    """A field's options, as ``dataclasses.field`` takes them."""
    return Field(default, default_factory, init, repr, hash, compare)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """``dataclass(frozen=True)(cls)``, made without compiling but ``__init__`` (see the
    module)."""
    return _made(cls, frozen=True)


@dataclass_transform(field_specifiers=(field,))
def mutable_record(cls: type[T]) -> type[T]:
    """``dataclass(cls)``: attributes that can be assigned, equality by fields, no hash."""
    return _made(cls, frozen=False)


def _made(cls: type[T], frozen: bool) -> type[T]:
    fields = _fields(cls)
    names = tuple(f.name for f in fields)
    if "__init__" not in cls.__dict__:
        _define(cls, "__init__", _initializer(cls, fields, frozen))
    _define(cls, "__match_args__", tuple(f.name for f in fields if f.init))
    if "__repr__" not in cls.__dict__:
        _define(cls, "__repr__", _representation(tuple(f.name for f in fields if f.repr)))
    if "__eq__" not in cls.__dict__:
        _define(cls, "__eq__", _equality(_values([f.name for f in fields if f.compare])))
    own_hash = cls.__dict__.get("__hash__", MISSING)
    if own_hash is MISSING or (own_hash is None and "__eq__" in cls.__dict__):
        if frozen:
            _define(cls, "__hash__", _hash(_values([f.name for f in fields if f.hashed])))
        else:
            type.__setattr__(cls, "__hash__", None)
    if frozen:
        _define(cls, "__setattr__", _frozen_setattr(cls, frozenset(names)))
        _define(cls, "__delattr__", _frozen_delattr(cls, frozenset(names)))
    type.__setattr__(cls, "__record_fields__", fields)
    type.__setattr__(cls, "__dataclass_fields__", _DataclassFields(frozen))
    if cls.__doc__ is None:
        type.__setattr__(cls, "__doc__", f"{cls.__name__}({', '.join(names)})")
    return cls


def _fields(cls: type) -> tuple[Field, ...]:
    """The fields of the bases that are records, then those the class annotates (a
    ``ClassVar`` is not a field); a field's default becomes the class attribute, as the
    dataclass makes it."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for inherited in base.__dict__.get("__record_fields__", ()):
            found[inherited.name] = inherited
    # the class's own annotations, read without importing inspect (see the module)
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():  # noqa: RUF063
        if _is_class_variable(annotation):
            continue
        given = cls.__dict__.get(name, MISSING)
        if type(given).__module__ == "dataclasses":
            raise TypeError(f"{cls.__qualname__}.{name}: a record's field options are "
                            "arest.records.field's, not dataclasses.field's")
        made = given if isinstance(given, Field) else field(default=given)
        if type(made.default) in (list, dict, set):
            raise ValueError(f"mutable default {type(made.default)} for field {name} is not "
                             "allowed: use default_factory")
        made.name, made.type = name, annotation
        if made.default is MISSING:
            if name in cls.__dict__:
                type.__delattr__(cls, name)
        else:
            type.__setattr__(cls, name, made.default)
        found.pop(name, None)
        found[name] = made
    fields = tuple(found.values())
    _ordered(cls, fields)
    return fields


def _is_class_variable(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _ordered(cls: type, fields: tuple[Field, ...]) -> None:
    """A field without a default may not follow one with a default, as in the dataclass."""
    defaulted = False
    for f in fields:
        if not f.init:
            continue
        if f.default is MISSING and f.default_factory is MISSING:
            if defaulted:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
        else:
            defaulted = True


def _initializer(cls: type, fields: tuple[Field, ...], frozen: bool) -> Callable[..., None]:
    """``__init__`` as the dataclass writes it: its code compiled from exactly this text
    ahead of time when :mod:`arest.record_inits` holds it (bound to the class's defaults
    and factories), else compiled now, once for the class."""
    text, scope, defaults = initializer_text(cls, fields, frozen)
    from arest.record_inits import WRITTEN  # a module of code objects, loaded once

    code = WRITTEN.get(text)
    if code is None:
        exec(compile(text, f"<record {cls.__qualname__}>", "exec"), scope)
        made: Callable[..., None] = scope["__init__"]
        return made
    code = code.replace(co_name="__init__", co_qualname="__init__",
                        co_filename=f"<record {cls.__qualname__}>")
    return FunctionType(code, scope, "__init__", defaults or None)


def initializer_text(cls: type, fields: tuple[Field, ...], frozen: bool
                     ) -> tuple[str, dict[str, Any], tuple[Any, ...]]:
    """The dataclass's text of ``__init__`` for these fields, the globals it reads (the
    defaults and factories, by name) and its parameters' defaults, in order."""
    scope: dict[str, Any] = {"__object_setattr": object.__setattr__, "__MISSING": MISSING}
    parameters, lines, defaults = ["self"], [], []
    for f in fields:
        value = f.name
        if f.default_factory is not MISSING:
            scope[f"__factory_{f.name}"] = f.default_factory
            value = (f"__factory_{f.name}() if {f.name} is __MISSING else {f.name}" if f.init
                     else f"__factory_{f.name}()")
        elif not f.init:
            if f.default is MISSING:
                continue
            scope[f"__default_{f.name}"] = f.default
            value = f"__default_{f.name}"
        if f.init:
            parameters.append(f.name if f.default is MISSING and f.default_factory is MISSING
                              else f"{f.name}=__MISSING" if f.default is MISSING
                              else f"{f.name}=__default_{f.name}")
            if f.default is not MISSING:
                scope[f"__default_{f.name}"] = f.default
                defaults.append(f.default)
            elif f.default_factory is not MISSING:
                defaults.append(MISSING)
        lines.append(f"__object_setattr(self, {f.name!r}, {value})" if frozen
                     else f"self.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        lines.append("self.__post_init__()")
    body = "\n  ".join(lines or ["pass"])
    return f"def __init__({', '.join(parameters)}):\n  {body}\n", scope, tuple(defaults)


def _define(cls: type, name: str, value: Any) -> None:
    if callable(value) and hasattr(value, "__qualname__"):
        value.__qualname__ = f"{cls.__qualname__}.{name}"
        value.__module__ = cls.__module__
    type.__setattr__(cls, name, value)


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


def _frozen_setattr(cls: Any, names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(name)
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _frozen_delattr(cls: Any, names: frozenset[str]) -> Callable[[Any, str], None]:
    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(name, "delete")
        super(cls, self).__delattr__(name)

    return __delattr__


def _frozen_error(name: str, verb: str = "assign to") -> Exception:
    """The dataclass's error, imported on the only path that raises it."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(f"cannot {verb} field {name!r}")


class _DataclassFields:
    """A record's ``__dataclass_fields__``, the ``dataclasses.Field`` of each field, made on
    first read: by the dataclass of the same fields and options (never compiling a method
    the record uses), then kept on the class in place of this."""

    def __init__(self, frozen: bool) -> None:
        self.frozen = frozen

    def __get__(self, instance: object, owner: Any) -> dict[str, Any]:
        import dataclasses

        shadow = dataclasses.make_dataclass(
            owner.__name__,
            [(f.name, f.type, _dataclass_field(dataclasses, f))
             for f in owner.__record_fields__],
            init=False, repr=False, eq=False, frozen=self.frozen)
        made: dict[str, Any] = shadow.__dataclass_fields__  # type: ignore[attr-defined]
        type.__setattr__(owner, "__dataclass_fields__", made)
        type.__setattr__(owner, "__dataclass_params__",
                         shadow.__dataclass_params__)  # type: ignore[attr-defined]
        return made


def _dataclass_field(dataclasses: Any, f: Field) -> Any:
    options: dict[str, Any] = {"init": f.init, "repr": f.repr, "hash": f.hash,
                               "compare": f.compare}
    if f.default is not MISSING:
        options["default"] = f.default
    if f.default_factory is not MISSING:
        options["default_factory"] = f.default_factory
    return dataclasses.field(**options)
