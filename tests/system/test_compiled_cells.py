"""The compiled evaluator equals the reference β-reducer on every compiled cell of every corpus
domain, applied to the arguments the system feeds it.

The cells of D that hold FFP functions are ``constraint:<id>`` (each part's check, applied to
a sequence of keys), ``machine:<Noun>`` (the transition function, applied to ⟨status,
event⟩, and its fold) and ``derivation:<rule id>`` (seed, goal and total plans, applied to
facts). Each is applied, in the fast evaluator (:func:`arest.algebra.evaluate`) and in the
reference reducer (:func:`arest.algebra.reduce`), to:

- a check: every key its triggers select in D (what full validation feeds it), and those
  keys with one key naming no entity, so that mandatory and frequency checks report;
- a transition function: every status with every event and one event the machine lacks; the
  fold: s₀ with every event in order;
- a seed plan: the facts of its seed fact type; a goal plan: the facts of its fact type; a
  total plan: the groups its rule's first positive seed plan finds.

Both must finish within the reference reducer's default fuel and give equal objects. The
domains are every folder of ``readings/`` and every file of the tutor corpus; catalog.md and
notifications.md are read without the sentences that give an entity a second reference value
(``Brand 'acme' has Brand Name 'Acme Corp'.``), which the reader refuses
(tests/system/test_corpus_constraints.py).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import arest
from arest.algebra import Object, equal, evaluate, reduce, show
from arest.algebra.relations import Relation
from arest.compiler.constraints import ENTITIES, Compiled
from arest.compiler.derivations import Rule
from arest.compiler.machines import Machine
from arest.compiler.population import role_nouns
from arest.system.derive import heads, rows
from arest.system.validate import every_key
from tests.corpus import OWN_DOMAINS, OWN_READINGS, TUTOR_FILES

FUNCTION_CELLS = ("constraint", "machine", "derivation")
SECOND_NAME = re.compile(r"(Brand|Channel) '[^']+' has \1 Name '[^']+'\.")
NO_SUCH = "no-such-entity"

Sample = tuple[str, Object, Object]
"""(cell, function, argument)."""


def facts(D: Any, name: str) -> tuple[Any, ...]:
    relation = D.get(name)
    return tuple(sorted(relation)) if isinstance(relation, Relation) else ()


def absent_key(D: Any, trigger: tuple[str, str, tuple[int, ...]]) -> Object:
    """A key of the trigger's shape that names no entity."""
    event, target, roles = trigger
    width = 1 if event == ENTITIES else len(roles) or len(role_nouns(D, target))
    return (NO_SUCH,) * width


def constraint_samples(D: Any, name: str) -> Iterator[Sample]:
    constraint = Compiled.from_object(D.get(name))
    for triggers, check in constraint.parts():
        keys = tuple(every_key(D, dataclasses.replace(constraint, triggers=triggers)))
        yield name, check, keys
        yield name, check, keys + tuple(absent_key(D, t) for t in triggers)


def machine_samples(D: Any, name: str) -> Iterator[Sample]:
    machine = Machine.from_object(D.get(name))
    statuses = sorted({machine.initial, *machine.terminal,
                       *(s for t in machine.transitions for s in (t.source, t.target))})
    for status in statuses:
        for event in (*machine.events, "no-such-event"):
            yield name, machine.function, (status, event)
    yield name, machine.fold(), (machine.initial, tuple(machine.events))


def derivation_samples(D: Any, name: str) -> Iterator[Sample]:
    rule = Rule.from_object(D.get(name))
    for plan in rule.seeds:
        yield name, plan.steps, facts(D, plan.seed)
    yield name, rule.goal.steps, facts(D, rule.fact_type)
    if rule.total is not None:
        inner = next(plan for plan in rule.seeds if not plan.negated)
        groups = {head for head, _ in heads(inner, rows(inner, facts(D, inner.seed), D))}
        yield name, rule.total.steps, tuple(sorted(groups))


SAMPLERS = {"constraint": constraint_samples, "machine": machine_samples,
            "derivation": derivation_samples}


def samples(D: Any) -> Iterator[Sample]:
    for name in sorted(D):
        kind = name.split(":")[0]
        if kind in SAMPLERS and ":" in name:
            yield from SAMPLERS[kind](D, name)


def assert_evaluators_agree(D: Any) -> None:
    """Every sample gives the same object in both evaluators; every function cell is sampled,
    and some samples give more than φ (the comparison is not only of empty answers)."""
    sampled: set[str] = set()
    answered: Counter[str] = Counter()
    for name, function, argument in samples(D):
        reference = reduce(function, argument, D)
        assert not reference.exhausted, name
        fast = evaluate(function, argument, D)
        assert equal(reference.value, fast), (name, show(reference.value), show(fast))
        sampled.add(name)
        if fast != ():
            answered[name.split(":")[0]] += 1
    cells = {name for name in D if name.split(":")[0] in FUNCTION_CELLS and ":" in name}
    assert sampled == cells
    assert answered["constraint"] and answered["machine"], answered


# A fixed list, so that a missing folder fails instead of collecting nothing.
DOMAINS = sorted({*OWN_DOMAINS, "orders"})


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_evaluator_is_the_reducer_on_an_own_domain(domain: str) -> None:
    assert_evaluators_agree(arest.load(OWN_READINGS / domain))


@pytest.mark.parametrize("name", TUTOR_FILES)
def test_the_compiled_evaluator_is_the_reducer_on_a_tutor_domain(
        name: str, tutor_corpus: Path) -> None:
    text = "\n".join(line for line in (tutor_corpus / name).read_text().splitlines()
                     if not SECOND_NAME.fullmatch(line))
    assert_evaluators_agree(arest.compile(text))
