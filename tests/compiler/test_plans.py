"""A rule's plans order its conditions as the plain greedy model does: in passes over the
conditions in order, each filter whose variables are bound; between passes, the positive
atom with the most known terms (the first of those).  The compiler keeps what is ready
indexed by variable (so ordering n conditions is not a scan of all n per step); the model
below scans, and both give the same plan, or the same error."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from arest.compiler.plans import (
    _COMPARISONS,
    RuleError,
    _Body,
    _seed_spec,
    _unsafe,
    clause_kind,
    positive_vars,
)
from arest.forml2.constructs import Aggregation, Atom, Comparison, Computation

TERMS = st.sampled_from(["A", "B", "C", "D", "E", "100", "'x'"])
VARIABLES = st.sampled_from(["A", "B", "C", "D", "E"])
CONDITIONS = st.one_of(
    st.builds(Atom, st.sampled_from(["f", "g", "h"]), st.lists(TERMS, min_size=1, max_size=3)
              .map(tuple), st.booleans()),
    st.builds(Atom, st.sampled_from(["f", "g", "h"]), st.lists(TERMS, min_size=1, max_size=3)
              .map(tuple)),
    st.builds(Comparison, TERMS, st.sampled_from([">", "=", "<>"]), TERMS),
    st.builds(Computation, VARIABLES, st.tuples(TERMS, st.sampled_from(["plus", "times"]),
                                                TERMS)),
    st.builds(Aggregation, VARIABLES, st.just("count"), VARIABLES, st.just(()), st.just(())),
)


class _ScanningBody(_Body):
    """The model: every step scans every pending condition."""

    def run(self, conditions: Sequence[Any], reading: str) -> None:
        pending = list(conditions)
        while pending:
            progressed = self._filters(pending)
            atoms = [c for c in pending if clause_kind(c) == "atom" and not c.negated]
            if not atoms:
                if pending and not progressed:
                    raise RuleError(_unsafe(pending, self.columns, reading))
                continue
            best = max(atoms, key=lambda a: (sum(self.known(t) for t in a.terms),
                                             -pending.index(a)))
            pending.remove(best)
            self.step("join", best.fact_type, self.spec(best.terms, negated=False))

    def _filters(self, pending: list[Any]) -> bool:
        progressed = False
        for condition in list(pending):
            kind = clause_kind(condition)
            if kind == "comparison" and self.known(condition.left) and self.known(
                    condition.right):
                self.step("select", (_COMPARISONS[condition.op],
                                     self.operand(condition.left),
                                     self.operand(condition.right)))
            elif (kind == "computation" and all(
                    self.known(p) for p in condition.expression[::2])) or (
                    kind == "atom" and condition.negated and all(
                        self.known(t) for t in condition.terms if t in self.positive_vars)):
                self.apply_filter(condition, kind)
            else:
                continue
            pending.remove(condition)
            progressed = True
        return progressed


def planned(body: type[_Body], conditions: list[Any], seed: tuple[str, ...],
            head: tuple[str, ...]) -> tuple[Any, ...] | str:
    """The steps and columns a body orders the conditions into, from the seed's
    variables, or its error."""
    bound = positive_vars(conditions, head)
    ordered = body(_seed_spec(seed, False, bound)[1], bound)
    try:
        ordered.run(conditions, "the rule")
    except RuleError as error:
        return str(error)
    return tuple(ordered.steps), tuple(ordered.columns.items())


@given(st.lists(CONDITIONS, max_size=12), st.lists(TERMS, min_size=1, max_size=2).map(tuple),
       st.lists(VARIABLES, min_size=1, max_size=2).map(tuple))
def test_the_plan_is_the_greedy_model_s(conditions: list[Any], seed: tuple[str, ...],
                                         head: tuple[str, ...]) -> None:
    assert planned(_Body, conditions, seed, head) == planned(_ScanningBody, conditions,
                                                             seed, head)
