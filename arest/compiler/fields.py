"""Each noun's fields (DESIGN §4), compiled into the cell ``resolve:<Noun>``.

A binary fact type the noun plays gives one field named by the other role's noun
(``Customer``); a ring, or two fact types that would share a name, is named by the reading's
text after the noun (``parent Category``, ``is a sequel of Book``).  A unary fact type is a
flag named by its predicate (``is active``); a ternary or longer one is a field named by its
id holding rows keyed by the other roles.  A field is single-valued when the noun's role has
a uniqueness constraint of its own.  ``<Noun> has Status`` is the ``status`` field.

The cell holds an FFP object, one ⟨name, fact type, role, shape, ⟨⟨key, role⟩, …⟩⟩ per field,
shape ``one``, ``many``, ``flag`` or ``rows``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from arest.algebra import Object
from arest.compiler.cells import resolve_cell
from arest.records import record

if TYPE_CHECKING:
    from arest.compiler.schema import FactTypeInfo, Schema

RESERVED = frozenset({"id", "noun", "status", "_links"})


@record
class Field:
    """One field of a noun: its name, fact type, role, shape and keys."""

    name: str
    fact_type: str
    role: int
    shape: str
    keys: tuple[tuple[str, int], ...] = ()
    """For ``rows``: each other role's key and position; for ``one``/``many``, the other role."""

    def as_object(self) -> Object:
        """The field as the FFP object ``resolve:<Noun>`` holds."""
        keys: Object = tuple((key, str(role)) for key, role in self.keys)
        return (self.name, self.fact_type, str(self.role), self.shape, keys)

    @classmethod
    def from_object(cls, obj: Object) -> Field:
        """The field a cell holds: the inverse of :meth:`as_object`."""
        assert type(obj) is tuple and len(obj) == 5
        name, fact_type, role, shape, keys = obj
        assert type(name) is str and type(fact_type) is str and type(role) is str
        assert type(shape) is str and type(keys) is tuple
        return cls(name, fact_type, int(role), shape,
                   tuple((str(k[0]), int(str(k[1]))) for k in keys if type(k) is tuple))


def status_fact_type(noun: str) -> str:
    """The fact type a noun's state machine maintains: ``<Noun>_has_Status``."""
    return f"{noun.replace(' ', '_')}_has_Status"


def _unique(schema: Schema, fact_type: str, role: int) -> bool:
    return any(
        c.kind == "UC" and c.modality == "alethic" and c.spans == ((fact_type, role, 1),)
        for c in schema.constraints.values()
    )


def _after_noun(fact_type: FactTypeInfo, noun: str) -> str:
    """The reading's text after the noun, from a reading that starts with it; ``has`` dropped."""
    for reading in fact_type.readings:
        if reading.startswith(noun + " "):
            rest = reading[len(noun) + 1:]
            return rest[4:] if rest.startswith("has ") else rest
    return fact_type.id


def _keys(roles: tuple[str, ...], skip: int) -> tuple[tuple[str, int], ...]:
    counts = Counter(noun for index, noun in enumerate(roles) if index != skip)
    seen: Counter[str] = Counter()
    keys: list[tuple[str, int]] = []
    for index, noun in enumerate(roles):
        if index == skip:
            continue
        seen[noun] += 1
        keys.append((f"{noun}{seen[noun]}" if counts[noun] > 1 else noun, index))
    return tuple(keys)


def fields_of(schema: Schema, noun: str) -> tuple[Field, ...]:
    """The fields of noun's entity representation, by name."""
    fields: list[Field] = []
    ring_or_binary: list[tuple[FactTypeInfo, int]] = []
    status = status_fact_type(noun)
    for fact_type in schema.played_by(noun):
        role = fact_type.roles.index(noun)
        if fact_type.id == status:
            fields.append(Field("status", fact_type.id, role, "one", ((noun, 1 - role),)))
        elif len(fact_type.roles) == 1:
            predicate = fact_type.readings[0][len(noun):].strip() if fact_type.readings else ""
            fields.append(Field(predicate or fact_type.id, fact_type.id, 0, "flag"))
        elif len(fact_type.roles) == 2:
            ring_or_binary.append((fact_type, role))
        else:
            fields.append(Field(fact_type.id, fact_type.id, role, "rows",
                                _keys(fact_type.roles, role)))
    names = Counter(ft.roles[1 - role] for ft, role in ring_or_binary if ft.roles.count(noun) == 1)
    for fact_type, role in ring_or_binary:
        other = 1 - role
        ring = fact_type.roles.count(noun) == 2
        name = fact_type.roles[other]
        if ring or names[name] > 1:
            name = _after_noun(fact_type, noun)
        shape = "one" if _unique(schema, fact_type.id, role) else "many"
        fields.append(Field(name, fact_type.id, role, shape, ((fact_type.roles[other], other),)))
    renamed = [
        Field(field.fact_type, field.fact_type, field.role, field.shape, field.keys)
        if field.name in RESERVED and field.fact_type != status
        else field
        for field in fields
    ]
    return tuple(sorted(renamed, key=lambda field: field.name))


def inherited_fields(schema: Schema, noun: str) -> tuple[Field, ...]:
    """The noun's fields and its supertypes' (an entity of a subtype plays its supertypes'
    roles), nearest first: a name the noun or a nearer supertype uses wins."""
    found: dict[str, Field] = {}
    pending, seen = [noun], {noun}
    while pending:
        current = pending.pop(0)
        for field in fields_of(schema, current):
            found.setdefault(field.name, field)
        info = schema.nouns.get(current)
        for parent in info.supertypes if info is not None else ():
            if parent not in seen:
                seen.add(parent)
                pending.append(parent)
    return tuple(sorted(found.values(), key=lambda field: field.name))


def resolve_cells(schema: Schema) -> list[tuple[str, Object]]:
    """``resolve:<Noun>`` for every noun: its fields (inherited ones too) as an FFP object."""
    return [
        (resolve_cell(noun),
         tuple(field.as_object() for field in inherited_fields(schema, noun)))
        for noun in schema.nouns
    ]
