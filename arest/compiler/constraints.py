"""Constraints → FFP objects, one cell ``constraint:<id>`` each.

A compiled constraint is the object

    ⟨CONSTRAINT, id, kind, modality, reading, ⟨fact types⟩, ⟨trigger, …⟩, check⟩

- a *trigger* says which keys of a command's delta the check must look at:
  ⟨added, f, ⟨i, …⟩⟩ — each fact added to f, projected on roles i, … (1-based; ⟨⟩: the whole
  fact); ⟨removed, f, ⟨i, …⟩⟩ — each fact removed from f, likewise; ⟨entities, N⟩ — ⟨e⟩ for each
  entity of N the command created or gave a fact;
- *check* maps a sequence of keys to the violations among them, ⟨⟨key, detail⟩, …⟩, reading D
  only through the primitives of :mod:`arest.algebra.environment` (count by key, indexed
  lookup, membership, reachability).

Two families, as in the paper: the cardinality family counts the facts a key selects and
compares the count with bounds (UC, FC, MC, OR, XO, XC); the membership family asks whether
a fact is present or absent (SS, EQ, the rings, VC).  Full validation runs the same check
over every key (every fact as if added, every entity), so incremental and full validation
are one computation over different keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from arest.algebra import Object
from arest.compiler.cells import constraint_cell, entity_triggers_cell, fact_triggers_cell
from arest.compiler.checks import ADDED, ENTITIES, KINDS, NOTHING, REMOVED, Check, Trigger
from arest.records import record

if TYPE_CHECKING:
    from arest.compiler.schema import ConstraintInfo, Schema

CONSTRAINT = "CONSTRAINT"


@record
class Compiled:
    """A compiled constraint, as the system layer reads it back from its cell."""

    id: str
    kind: str
    modality: str
    reading: str
    fact_types: tuple[str, ...]
    triggers: tuple[Trigger, ...]
    check: Object
    more: tuple[tuple[tuple[Trigger, ...], Object], ...] = ()
    """Further (triggers, check) parts for keys the primary triggers cannot take from one fact
    of a delta; their checks report violations keyed as the primary check does."""

    def parts(self) -> tuple[tuple[tuple[Trigger, ...], Object], ...]:
        """Each part's triggers and its check, an FFP function."""
        return ((self.triggers, self.check), *self.more)

    def all_triggers(self) -> tuple[Trigger, ...]:
        """Every trigger of every part: what wakes this constraint."""
        return tuple(trigger for triggers, _ in self.parts() for trigger in triggers)

    def as_object(self) -> Object:
        """The constraint as the FFP object its cell holds."""
        def encoded(triggers: tuple[Trigger, ...]) -> Object:
            return tuple((event, target, tuple(str(role) for role in roles))
                         for event, target, roles in triggers)

        more: Object = tuple((encoded(triggers), check) for triggers, check in self.more)
        return (CONSTRAINT, self.id, self.kind, self.modality, self.reading,
                self.fact_types, encoded(self.triggers), self.check, more)

    @classmethod
    def from_object(cls, obj: Object) -> Compiled:
        """The constraint a cell holds: the inverse of :meth:`as_object`."""
        assert type(obj) is tuple and len(obj) == 9 and obj[0] == CONSTRAINT
        _, cid, kind, modality, reading, fact_types, triggers, check, more = obj
        assert type(cid) is str and type(kind) is str and type(modality) is str
        assert type(reading) is str and type(fact_types) is tuple and type(more) is tuple

        def decoded(triggers: Object) -> tuple[Trigger, ...]:
            assert type(triggers) is tuple
            return tuple(
                (str(t[0]), str(t[1]), tuple(int(str(r)) for r in t[2]))  # type: ignore[index, union-attr]
                for t in triggers
            )

        return cls(
            cid, kind, modality, reading, tuple(str(f) for f in fact_types), decoded(triggers),
            check, tuple((decoded(part[0]), part[1]) for part in more),  # type: ignore[index]
        )


def compile_constraint(c: ConstraintInfo, schema: Schema) -> Compiled | None:
    """The constraint compiled, or None for a shape it does not enforce (refused by
    :func:`compile_constraints`); a permitted constraint constrains nothing and compiles to
    no check."""
    # Compiling readings needs it; a start that decodes compiled constraints does not.
    from arest.compiler.join_paths import join_path

    if any(f not in schema.fact_types for f, _, _ in c.spans):
        return None
    if c.operator == "permitted" or (c.kind == "TR" and c.modality == "alethic"):
        # An alethic transitive ring is kept by deriving its closure
        # (:mod:`arest.compiler.derivations`), so no population can violate it.
        found: Check | list[Check] | None = ([], NOTHING)
    elif c.terms and (len(c.atoms()) > 2 or c.kind == "EQ" or _repeats_a_noun(c, schema)):
        # More than two clauses, an equality of combinations, or a clause whose roles a
        # noun alone cannot tell apart: the clauses' own variables say how they join.
        found = join_path(c, schema)
    else:
        compile_kind = KINDS.get(c.kind)
        found = compile_kind(c, schema) if compile_kind is not None else None
        if found is None and c.terms:
            found = join_path(c, schema)
    if found is None:
        return None
    (triggers, check), *more = found if isinstance(found, list) else [found]
    fact_types = tuple(sorted({f for f, _, _ in c.spans}))
    return Compiled(c.id, c.kind, c.modality, c.reading, fact_types, tuple(triggers), check,
                    tuple((tuple(t), k) for t, k in more))


def _repeats_a_noun(c: ConstraintInfo, schema: Schema) -> bool:
    """Whether some clause's fact type plays one noun at two roles (a ring)."""
    return any(len(set(roles)) < len(roles)
               for roles in (schema.fact_types[f].roles for f, _ in c.atoms()
                             if f in schema.fact_types))


def compile_constraints(schema: Schema) -> tuple[list[Compiled], list[ConstraintInfo]]:
    """Every constraint of the schema compiled, and those whose shape has no check (the
    reader's caller refuses them at their sentences: a constraint is never dropped)."""
    compiled: list[Compiled] = []
    refused: list[ConstraintInfo] = []
    for c in schema.constraints.values():
        found = compile_constraint(c, schema)
        if found is None:
            refused.append(c)
        else:
            compiled.append(found)
    return compiled, refused


def constraint_cells(compiled: Sequence[Compiled]) -> list[tuple[str, Object]]:
    """``constraint:<id>`` for every compiled constraint, and the trigger index."""
    return [
        *((constraint_cell(c.id), c.as_object()) for c in compiled),
        *trigger_cells(compiled),
    ]


def trigger_cells(compiled: Sequence[Compiled]) -> list[tuple[str, Object]]:
    """For each fact type and noun, the ids of the constraints its changes wake, so that a
    command looks only at the constraints spanning what it changed."""
    woken: dict[str, set[str]] = {}
    for constraint in compiled:
        for event, target, _ in constraint.all_triggers():
            cell = entity_triggers_cell(target) if event == ENTITIES \
                else fact_triggers_cell(target)
            woken.setdefault(cell, set()).add(constraint.id)
    return [(cell, tuple(sorted(ids))) for cell, ids in sorted(woken.items())]


__all__ = [
    "ADDED", "CONSTRAINT", "ENTITIES", "REMOVED", "Compiled", "compile_constraint",
    "compile_constraints", "constraint_cells",
]
