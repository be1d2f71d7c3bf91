"""A relation is a map fact → payload, however its layers (frozen base, overlay, removed) lie.

Every version a sequence of operations makes is checked against a plain ``dict`` model after
every step, so earlier versions are seen to stay as they were (persistence).  Subclasses with
a tiny ``compaction_floor`` fold the layers into a new base every few changes, so folding,
and every mix of base, overlay and removed, is met often; three atoms per role make facts
collide.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from arest.algebra.layers import KEPT, Implied
from arest.algebra.relations import ASSERTED, Fact, Relation
from arest.runtime.codec import decode_cell, encode_cell


class FoldsAtOnce(Relation):
    """Folds as soon as the layers would outgrow half its base (so any change to a tiny one)."""

    compaction_floor = 0


class FoldsOften(Relation):
    compaction_floor = 3


KINDS: tuple[type[Relation], ...] = (Relation, FoldsAtOnce, FoldsOften)
ATOMS = ("a", "b", "c")
ALL_FACTS: list[Fact] = list(product(ATOMS, repeat=2))
NOT_FACTS: list[object] = [("a",), ("a", "b", "c"), "ab", ["a", "b"], ("z", "a"), ()]

facts = st.sampled_from(ALL_FACTS)
# Payloads are FFP objects (or ASSERTED); some are equal without being the same object.
payloads = st.sampled_from([ASSERTED, "T", (), ("r1",), ("r2", ("a", "b"))]) | st.builds(
    lambda name: (name,), st.sampled_from(["r1", "r3"]))
kinds = st.sampled_from(KINDS)
whole = st.sampled_from([ASSERTED, (), ("r1", "0", ("a", "b", "c"))])
"""Payloads a base keeping others implied holds whole: never an atom."""
IMPLIED = Implied(("r1", "0"), (0, KEPT, 1))
Model = dict[Fact, object]


def agrees(relation: Relation, model: Model) -> None:
    """Every query of relation answers as the model does."""
    assert len(relation) == len(model)
    listed = list(relation)
    assert len(listed) == len(set(listed)) and set(listed) == set(model)
    pairs = list(relation.items())
    assert len(pairs) == len(model) and dict(pairs) == model
    held, find = relation.membership(), relation.lookup()
    for fact in ALL_FACTS:
        assert (fact in relation) == (fact in model) == held(fact)
        assert relation.payload(fact) == model.get(fact) == find(fact)
    for thing in NOT_FACTS:
        assert thing not in relation
    for role in (0, 1):
        for value in (*ATOMS, "z"):
            expected = [fact for fact in model if fact[role] == value]
            found = list(relation.matching(role, value))
            assert len(found) == len(expected) and set(found) == set(expected)
            looked_up = list(relation.by_value(role).get(value, ()))
            assert len(looked_up) == len(expected) and set(looked_up) == set(expected)
            assert relation.count(role, value) == len(expected)
        distinct = list(relation.values(role))
        assert len(distinct) == len(set(distinct)) and set(distinct) == {
            fact[role] for fact in model}
    assert relation.as_object() == tuple(sorted(model))
    assert relation == Relation.frozen(relation.arity, dict(model))
    assert relation == Relation(relation.arity).updated(model.items())
    assert repr(relation)  # any layering prints


class Versions(RuleBasedStateMachine):
    """Operations on any version seen so far; each result is a new version with its model."""

    def __init__(self) -> None:
        super().__init__()
        self.versions: list[tuple[Relation, Model]] = []
        # Each dict handed to Relation.frozen, with a copy of what it held then.
        self.handed: list[tuple[Model, Model]] = []

    def keep(self, relation: Relation, model: Model) -> None:
        self.versions.append((relation, dict(model)))

    @initialize(kind=kinds, start=st.dictionaries(facts, payloads))
    def frozen(self, kind: type[Relation], start: Model) -> None:
        self.handed.append((start, dict(start)))
        self.keep(kind.frozen(2, start), start)
        self.keep(kind(2), {})

    @rule(kind=kinds, start=st.dictionaries(facts, st.sampled_from(ATOMS) | whole))
    def implied(self, kind: type[Relation], start: Model) -> None:
        """A base keeping some payloads implied (an atom each): the relation is the
        model of the payloads they stand for, whatever is done to it after."""
        model = {fact: IMPLIED.payload(fact, stored) for fact, stored in start.items()}
        self.handed.append((start, dict(start)))
        self.keep(kind.frozen(2, start, IMPLIED), model)

    @rule(data=st.data(), kind=kinds, batch=st.lists(facts))
    def of(self, data: st.DataObject, kind: type[Relation], batch: list[Fact]) -> None:
        self.keep(kind.of(2, batch), dict.fromkeys(batch, ASSERTED))

    def pick(self, data: st.DataObject) -> tuple[Relation, Model]:
        return data.draw(st.sampled_from(self.versions), label="version")

    @rule(data=st.data(), fact=facts, payload=payloads | st.none())
    def add(self, data: st.DataObject, fact: Fact, payload: object) -> None:
        relation, model = self.pick(data)
        payload = ASSERTED if payload is None else payload
        added = relation.add(fact) if payload is ASSERTED else relation.add(fact, payload)
        unchanged = fact in model and model[fact] == payload
        assert (added is relation) == unchanged
        self.keep(added, {**model, fact: payload})

    @rule(data=st.data(), fact=facts, role=st.sampled_from([0, 1]))
    def add_new_in(self, data: st.DataObject, fact: Fact, role: int) -> None:
        relation, model = self.pick(data)
        grown = relation.add_new_in(role, fact)
        if any(held[role] == fact[role] for held in model):
            assert grown is None
        else:
            assert grown is not None and grown.count(role, fact[role]) == 1
            self.keep(grown, {**model, fact: ASSERTED})

    @rule(data=st.data(), fact=facts)
    def remove(self, data: st.DataObject, fact: Fact) -> None:
        relation, model = self.pick(data)
        removed = relation.remove(fact)
        assert (removed is relation) == (fact not in model)
        self.keep(removed, {f: p for f, p in model.items() if f != fact})

    @rule(data=st.data(), added=st.lists(st.tuples(facts, payloads)), gone=st.lists(facts))
    def updated(
        self, data: st.DataObject, added: list[tuple[Fact, object]], gone: list[Fact]
    ) -> None:
        relation, model = self.pick(data)
        changed = relation.updated(added, removed=gone)
        expected = {fact: p for fact, p in model.items() if fact not in gone}
        expected.update(added)
        assert (changed is relation) == (expected == model)
        self.keep(changed, expected)

    @rule(data=st.data(), batch=st.lists(facts))
    def extended(self, data: st.DataObject, batch: list[Fact]) -> None:
        relation, model = self.pick(data)
        grown = relation.extended(batch)
        assert (grown is relation) == all(fact in model for fact in batch)
        self.keep(grown, {**dict.fromkeys(batch, ASSERTED), **model})

    @rule(data=st.data(), kind=kinds)
    def refrozen(self, data: st.DataObject, kind: type[Relation]) -> None:
        """A version's contents as a fresh base, to compare layerings of equal relations."""
        _, model = self.pick(data)
        handed = dict(model)
        self.handed.append((handed, dict(model)))
        self.keep(kind.frozen(2, handed), model)

    @precondition(lambda self: self.versions)
    @invariant()
    def every_version_agrees_with_its_model(self) -> None:
        for relation, model in self.versions:
            agrees(relation, model)

    @precondition(lambda self: self.versions)
    @invariant()
    def equality_is_equality_of_models(self) -> None:
        # Each pair of versions is compared once, when the later of the two is made.
        newest, newest_model = self.versions[-1]
        for other, other_model in self.versions:
            assert (newest == other) == (newest_model == other_model)
            assert (other == newest) == (newest_model == other_model)
            assert (newest != other) == (newest_model != other_model)

    @invariant()
    def handed_dicts_are_never_changed(self) -> None:
        for handed, then in self.handed:
            assert handed == then


Versions.TestCase.settings = settings(max_examples=150, stateful_step_count=30)
test_versions = pytest.mark.slow(Versions.TestCase)


@settings(max_examples=60)
@given(kinds, st.lists(st.tuples(st.booleans(), facts, payloads), max_size=40))
def test_an_encoded_relation_decodes_to_itself(
    kind: type[Relation], steps: list[tuple[bool, Fact, object]]
) -> None:
    relation = kind.frozen(2, {("a", "a"): ("seed",)})
    for adding, fact, payload in steps:
        relation = relation.add(fact, payload) if adding else relation.remove(fact)
        assert decode_cell(encode_cell(relation)) == relation


@settings(max_examples=60)
@given(kinds, st.dictionaries(facts, st.sampled_from(ATOMS) | whole),
       st.lists(st.tuples(st.booleans(), facts, payloads), max_size=12))
def test_a_base_keeping_payloads_implied_is_the_relation_of_its_expanded_payloads(
    kind: type[Relation], start: Model, steps: list[tuple[bool, Fact, object]]
) -> None:
    relation = kind.frozen(2, dict(start), IMPLIED)
    model = {fact: IMPLIED.payload(fact, stored) for fact, stored in start.items()}
    for adding, fact, payload in [(True, ("a", "a"), ASSERTED), *steps]:
        agrees(relation, model)
        assert decode_cell(encode_cell(relation)) == relation
        assert encode_cell(relation) == encode_cell(Relation.frozen(2, dict(relation.items())))
        relation = relation.add(fact, payload) if adding else relation.remove(fact)
        if adding:
            model[fact] = payload
        else:
            model.pop(fact, None)
    agrees(relation, model)


def test_a_payload_kept_implied_equals_the_same_payload_kept_whole() -> None:
    implied = Relation.frozen(2, {("a", "c"): "b", ("a", "b"): True}, IMPLIED)
    whole = ("r1", "0", ("a", "b", "c"))
    # Taken out and put back whole, then folded: one base keeps it implied, the other whole.
    refolded = FoldsAtOnce.frozen(2, {("a", "c"): "b", ("a", "b"): True}, IMPLIED).remove(
        ("a", "c")).add(("a", "c"), whole)
    assert refolded.payload(("a", "c")) == whole == implied.payload(("a", "c"))
    assert refolded == implied and implied == refolded
    assert refolded != implied.add(("a", "c"), ("r2",))


def test_equality_over_one_base_reads_both_sides_layers() -> None:
    base = Relation.frozen(2, {("a", "a"): True, ("b", "b"): True})
    swapped = base.remove(("a", "a")).add(("c", "c"))
    repaid = base.add(("a", "a"), ("why",))
    for one, other in [(base, swapped), (base, repaid), (swapped, repaid)]:
        assert one != other and other != one
    again = base.remove(("b", "b")).add(("b", "b"))
    assert again == base and base == again


def test_relations_of_plain_assertions_keep_the_old_encoding() -> None:
    relation = Relation.of(2, [("a", "b")])
    assert encode_cell(relation) == '{"r":2,"f":[["a","b"]]}'
    assert decode_cell('{"r":2,"f":[["a","b"]]}') == relation


class CountedDict(dict[Fact, object]):
    """A dict that counts how often it is read through: an index build reads it once."""

    reads = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        self.reads += 1
        return super().__iter__()


def test_a_base_builds_each_role_index_once_and_only_when_searched() -> None:
    facts = CountedDict({("a", "x"): True, ("b", "x"): ("why",), ("c", "y"): True})
    relation = Relation.frozen(2, facts)
    assert len(relation) == 3 and ("b", "x") in relation and relation.payload(("b", "x")) == (
        "why",)
    assert facts.reads == 0
    assert sorted(relation.matching(1, "x")) == [("a", "x"), ("b", "x")]
    assert relation.count(1, "y") == 1 and sorted(relation.values(1)) == ["x", "y"]
    assert facts.reads == 1
    layered = relation.remove(("a", "x")).add(("d", "x"))
    assert sorted(layered.matching(1, "x")) == [("b", "x"), ("d", "x")]
    assert facts.reads == 1  # the layered relation shares the base and its index
    assert list(relation.matching(0, "c")) == [("c", "y")]
    assert facts.reads == 2


def test_a_large_batch_and_the_changes_after_it_agree_with_a_model() -> None:
    batch = [(f"o{i}", f"c{i % 7}") for i in range(10_000)]
    relation = Relation.of(2, batch)
    model: Model = dict.fromkeys(batch, ASSERTED)
    for i in range(6_000):  # enough single changes to fold into a new base at least once
        fact = (f"o{i * 3}", f"c{i % 7}")
        if i % 2:
            relation, model[fact] = relation.add(fact, ("r", str(i))), ("r", str(i))
        else:
            relation = relation.remove(fact)
            model.pop(fact, None)
    assert len(relation) == len(model) and dict(relation.items()) == model
    for value in ("c0", "c3"):
        assert set(relation.matching(1, value)) == {f for f in model if f[1] == value}
        assert relation.count(1, value) == sum(1 for f in model if f[1] == value)
    assert relation == Relation.frozen(2, model)


@pytest.mark.parametrize("kind", KINDS)
def test_relations_of_one_role_and_of_none(kind: type[Relation]) -> None:
    one = kind(1).add(("a",)).add(("b",), ("why",)).remove(("a",))
    assert list(one.items()) == [(("b",), ("why",))] and list(one.values(0)) == ["b"]
    none = kind(0).add(())
    assert () in none and len(none) == 1 and none.remove(()) == kind(0)


def test_facts_of_another_arity_are_refused() -> None:
    relation = Relation.frozen(2, {("a", "b"): True})
    with pytest.raises(ValueError, match="relation of 2"):
        relation.add(("a",))
    with pytest.raises(ValueError, match="relation of 2"):
        relation.extended([("a", "b", "c")])
    with pytest.raises(ValueError, match="relation of 2"):
        relation.updated([(("a",), True)])
    assert relation.remove(("a",)) is relation  # a fact that cannot be there is not there


def test_a_built_base_index_is_left_alone_by_the_garbage_collector() -> None:
    # Its groups are tuples of facts, so once collected neither they nor the index dict are
    # tracked: a full collection then skips the facts of every index of a large relation.
    import gc

    facts: dict[tuple[str, ...], object] = {(f"p{i % 7}", f"c{i}"): True for i in range(100)}
    index = Relation.frozen(2, facts).by_value(0)
    assert sorted(index.get("p3", ())) == sorted(f for f in facts if f[0] == "p3")
    # A collection untracks a tuple whose items it has already untracked, so a group met
    # before its facts waits for the next one.
    gc.collect()
    gc.collect()
    assert not gc.is_tracked(index)
    assert not any(gc.is_tracked(group) for group in index.values())


@settings(max_examples=60)
@given(st.integers(1, 3), kinds, st.data())
def test_adds_and_removes_of_every_arity_agree_with_a_model(
        arity: int, kind: type[Relation], data: st.DataObject) -> None:
    """``add`` writes each role's index in its own way for one, two and more roles: the
    versions made, their indexes and the changes between them answer as a dict model."""
    facts_of = st.tuples(*[st.sampled_from(ATOMS)] * arity)
    relation, model = kind(arity), {}
    for fact, payload, removing in data.draw(st.lists(
            st.tuples(facts_of, payloads, st.booleans()), max_size=25)):
        before, earlier = relation, dict(model)
        if removing:
            relation = relation.remove(fact)
            model.pop(fact, None)
        else:
            relation = relation.add(fact, payload)
            assert (relation is before) == (earlier.get(fact, ()) == payload and fact in earlier)
            model[fact] = payload
        assert dict(relation.items()) == model and len(relation) == len(model)
        for role in range(arity):
            for value in ATOMS:
                held = sorted(f for f in model if f[role] == value)
                assert sorted(relation.matching(role, value)) == held
                assert relation.count(role, value) == len(held)
        changed = {f for f in {*model, *earlier} if model.get(f) != earlier.get(f)}
        assert {f for f, _, _ in relation.changes_since(before)} == changed


@settings(max_examples=80)
@given(st.integers(1, 3), kinds, st.data())
def test_a_fact_added_where_its_value_is_new_in_a_role_is_the_fact_added(
        arity: int, kind: type[Relation], data: st.DataObject) -> None:
    """``add_new_in(i, f)`` is ``add(f)`` where no fact holds f's value of role i, and its
    count is then 1; None elsewhere, over relations of every layering (a base, facts over
    it, some of its facts hidden, folds) and arity."""
    facts_of = st.tuples(*[st.sampled_from(ATOMS)] * arity)
    start = data.draw(st.dictionaries(facts_of, payloads, max_size=6))
    relation, model = kind.frozen(arity, dict(start)), dict(start)
    for fact, removing in data.draw(st.lists(st.tuples(facts_of, st.booleans()), max_size=8)):
        relation = relation.remove(fact) if removing else relation.add(fact)
        if removing:
            model.pop(fact, None)
        else:
            model[fact] = ASSERTED
    if data.draw(st.booleans()):
        for role in range(arity):
            relation.by_value(role)  # the base's indexes built before, or on the probe
    for fact in data.draw(st.lists(facts_of, min_size=1, max_size=4)):
        role = data.draw(st.integers(0, arity - 1))
        grown = relation.add_new_in(role, fact)
        if any(held[role] == fact[role] for held in model):
            assert grown is None
            continue
        assert grown is not None and grown == relation.add(fact)
        assert dict(grown.items()) == {**model, fact: ASSERTED}
        assert grown.count(role, fact[role]) == 1 and list(grown.matching(role, fact[role])) == [
            fact]
        assert {f for f, _, _ in grown.changes_since(relation)} == {fact}
        relation, model = grown, {**model, fact: ASSERTED}
