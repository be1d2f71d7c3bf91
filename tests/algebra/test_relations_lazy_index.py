"""A later role's overlay index is built on its first search and kept from then on.

    r._index(i) = {v ↦ {f: True | f ∈ overlay(r), f[i] = v}}   for 0 < i < arity

Whether a relation's later roles were searched before an edit, between edits or never, every
version answers every query as a plain ``dict`` model of its facts does, and as the same
edits answer when every role is searched after every edit (each index kept up all along).
Versions are read again at the end in a drawn order, so a search that builds an index on an
old version is seen to change nothing that version or any other answers.
"""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from arest.algebra.relations import ASSERTED, Fact, Relation


class FoldsOften(Relation):
    compaction_floor = 3


ATOMS = ("a", "b", "c")
Model = dict[Fact, object]


def _answers(relation: Relation) -> tuple[object, ...]:
    """Every by-role answer of relation, for each role and atom (and one atom not there)."""
    answers: list[object] = []
    for role in range(relation.arity):
        for value in (*ATOMS, "z"):
            answers.append(sorted(relation.matching(role, value)))
            answers.append(sorted(relation.by_value(role).get(value, ())))
            answers.append(relation.count(role, value))
        answers.append(sorted(relation.values(role)))
    return tuple(answers)


def _expected(model: Model, arity: int) -> tuple[object, ...]:
    answers: list[object] = []
    for role in range(arity):
        for value in (*ATOMS, "z"):
            held = sorted(fact for fact in model if fact[role] == value)
            answers.extend((held, held, len(held)))
        answers.append(sorted({fact[role] for fact in model}))
    return tuple(answers)


def _edit(relation: Relation, model: Model, kind: int, fact: Fact, role: int
          ) -> tuple[Relation, Model]:
    """One edit of five kinds, made to the relation and to its model."""
    model = dict(model)
    if kind == 0:
        model[fact] = ASSERTED
        return relation.add(fact), model
    if kind == 1:
        model.pop(fact, None)
        return relation.remove(fact), model
    if kind == 2:
        grown = relation.add_new_in(role, fact)
        if grown is None:
            assert any(held[role] == fact[role] for held in model)
            return relation, model
        model[fact] = ASSERTED
        return grown, model
    if kind == 3:
        model[fact] = ("why",)
        return relation.updated([(fact, ("why",))]), model
    if fact in model:
        return relation, model
    model[fact] = ASSERTED
    return relation.with_new({fact: ASSERTED}), model


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 3), st.sampled_from([Relation, FoldsOften]), st.data())
def test_an_index_built_when_first_searched_answers_as_one_kept_up_all_along(
        arity: int, kind: type[Relation], data: st.DataObject) -> None:
    facts = st.sampled_from(list(product(ATOMS, repeat=arity)))
    edits = data.draw(st.lists(st.tuples(st.integers(0, 4), facts, st.integers(0, arity - 1),
                                         st.booleans()), max_size=25))
    lazy, eager, model = kind(arity), kind(arity), {}
    versions: list[tuple[Relation, Model]] = [(lazy, model)]
    for edit_kind, fact, role, searched in edits:
        lazy, _ = _edit(lazy, model, edit_kind, fact, role)
        eager, model = _edit(eager, model, edit_kind, fact, role)
        _answers(eager)  # every role searched: each index kept up from here on
        if searched:  # one role of the lazy one searched now, its index built here
            assert lazy.count(role, fact[role]) == sum(
                1 for held in model if held[role] == fact[role])
        versions.append((lazy, model))
        assert lazy == eager
    order = data.draw(st.permutations(range(len(versions))))
    for at in order:
        relation, then = versions[at]
        assert _answers(relation) == _expected(then, arity)
        assert dict(relation.items()) == then


def test_a_role_nobody_searches_is_not_indexed_and_is_kept_once_searched() -> None:
    names = Relation(2).add(("c1", "Ann")).add(("c2", "Bo"))
    assert names._indexes[1] is None  # two adds, one path each
    assert names.count(1, "Ann") == 1 and sorted(names.matching(1, "Bo")) == [("c2", "Bo")]
    kept = names._indexes[1]
    assert kept is not None
    grown = names.add(("c3", "Ann"))
    assert grown._indexes[1] is not None and grown.count(1, "Ann") == 2
    assert names.count(1, "Ann") == 1 and names._indexes[1] is kept
    assert grown.add_new_in(1, ("c4", "Ann")) is None
    assert grown.add_new_in(0, ("c4", "Cy")) == grown.add(("c4", "Cy"))
