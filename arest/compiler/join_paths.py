"""Conditional constraints over join paths: subsets and equalities whose clauses name their
variables (``If some Person owns some Car and that Car is kept in some Garage and that
Garage is in some City then that Person lives in that City.``).

A conditional relates the tuples of the variables both its sides share: with
Q_X = π_shared(X₁ ⋈ … ⋈ Xₙ) for a side X, a subset says Q_A ⊆ Q_C of its antecedent A and
consequent C, an equality says Q_A = Q_C (a subset each way).  Each side is evaluated by the
derivation engine's plans (:mod:`arest.compiler.plans`): a *seed plan* from facts of one
clause to the shared tuples they take part in, a *goal plan* from shared tuples to their rows
on a side.

A tuple t violates Q_X ⊆ Q_Y when goal_X:⟨t⟩ ≠ φ and goal_Y:⟨t⟩ = φ.  A command's keys only
propose tuples, and each is verified on both sides, so a proposal is never taken on trust:

- a fact added to a clause Xᵢ proposes the tuples its seed plan finds;
- a fact removed from a clause Yⱼ proposes the tuples of Q_X that agree with it on the
  shared variables Yⱼ binds (all of Q_X when it binds none).

Full validation runs the primary part, seeded by every fact of X₁ (and, for an equality, of
the consequent's first clause as well), so it finds every violation.  A violation's key is
the tuple, its evidence the shared variables' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from arest.algebra import Object
from arest.algebra.forms import alpha, comp, cons, const, filter_
from arest.compiler.checks import ADDED, REMOVED, Check, Trigger
from arest.compiler.plans import Plan, RuleError, build_plan, literal_of, positive_vars
from arest.records import record

if TYPE_CHECKING:
    from arest.compiler.schema import ConstraintInfo, Schema


@record
class _Atom:
    """A clause as the plans read it."""

    fact_type: str
    terms: tuple[str, ...]
    negated: bool = False


def _variables(atoms: Sequence[_Atom]) -> set[str]:
    return {t for a in atoms for t in a.terms if literal_of(t) is None}


def join_path(c: ConstraintInfo, schema: Schema) -> list[Check] | None:
    """The parts of a subset (SS) or equality (EQ) over the clauses ``c`` names, or None
    when its clauses share no variable or the plans cannot evaluate them."""
    atoms = [_Atom(f, terms) for f, terms in c.atoms()]
    if c.kind not in ("SS", "EQ") or not 0 < c.antecedents < len(atoms) or any(
        a.fact_type not in schema.fact_types
        or len(a.terms) != len(schema.fact_types[a.fact_type].roles) for a in atoms
    ):
        return None
    antecedent, consequent = atoms[:c.antecedents], atoms[c.antecedents:]
    common = _variables(consequent)
    shared = tuple(t for t in dict.fromkeys(t for a in antecedent for t in a.terms)
                   if t in common)
    if not shared:
        return None
    try:
        sides = [_Direction(antecedent, consequent, shared, c.reading)]
        if c.kind == "EQ":
            sides.append(_Direction(consequent, antecedent, shared, c.reading))
    except RuleError:
        return None
    primary: list[Trigger] = [(ADDED, side.subset[0].fact_type, ()) for side in sides]
    check = sides[0].from_added(0)
    if len(sides) == 2:
        check = comp("concat", cons(*(
            comp(side.from_added(0), filter_(_arity_is(len(side.subset[0].terms))))
            for side in sides)))
    parts: list[Check] = [(primary, check)]
    for side in sides:
        parts.extend(([(ADDED, atom.fact_type, ())], side.from_added(index))
                     for index, atom in enumerate(side.subset) if index)
        parts.extend(side.from_removed(atom) for atom in side.superset)
    return parts


def _arity_is(n: int) -> Object:
    return comp("eq", cons("length", const(str(n))))


class _Direction:
    """Q_subset ⊆ Q_superset over the shared variables, and the checks that keep it."""

    def __init__(self, subset: list[_Atom], superset: list[_Atom], shared: tuple[str, ...],
                 reading: str) -> None:
        self.subset, self.superset, self.shared, self.reading = subset, superset, shared, reading
        self.positive = positive_vars(subset, shared)
        held = _nonempty(comp(self._goal(subset).steps, cons("id")))
        missing = comp("null", comp(self._goal(superset).steps, cons("id")))
        self.violated = comp("and", cons(held, missing))

    def _goal(self, atoms: list[_Atom]) -> Plan:
        return build_plan("", False, self.shared, atoms, self.shared,
                          positive_vars(atoms, self.shared), self.reading)

    def _verdict(self, proposed: Object) -> Object:
        """keys ↦ ⟨⟨t, shared names⟩ | t proposed by the keys, t violates⟩."""
        return comp(alpha(cons("id", const(self.shared))), filter_(self.violated), proposed)

    def _tuples(self, plan: Plan) -> Object:
        columns = tuple(k for _, k in plan.head)
        return comp("project", cons(const(columns), plan.steps))

    def from_added(self, index: int) -> Object:
        """Facts added to subset clause ``index`` ↦ the violations they make."""
        atom = self.subset[index]
        rest = self.subset[:index] + self.subset[index + 1:]
        plan = build_plan(atom.fact_type, False, atom.terms, rest, self.shared, self.positive,
                          self.reading)
        return self._verdict(self._tuples(plan))

    def from_removed(self, atom: _Atom) -> Check:
        """Facts removed from a superset clause, keyed by the shared variables it binds,
        ↦ the violations among the subset's tuples that agree with them."""
        bound = [t for t in dict.fromkeys(atom.terms) if t in self.shared]
        if bound:
            roles = tuple(atom.terms.index(t) + 1 for t in bound)
            plan = build_plan("", False, bound, self.subset, self.shared, self.positive,
                              self.reading)
            return [(REMOVED, atom.fact_type, roles)], self._verdict(self._tuples(plan))
        first, role = next((a, r) for a in self.subset for r, t in enumerate(a.terms)
                           if literal_of(t) is None)
        plan = build_plan("", False, [first.terms[role]], self.subset, self.shared,
                          self.positive, self.reading)
        every = comp(alpha(cons("id")), "values", const((first.fact_type, str(role + 1))))
        return [(REMOVED, atom.fact_type, ())], self._verdict(
            comp(self._tuples(plan), every))


def _nonempty(sequence: Object) -> Object:
    return comp("not", "null", sequence)
