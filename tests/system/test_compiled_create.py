"""A create compiled per schema, noun and input keys (``arest.system.compiled_create``) answers
as the interpreted create does: the same output (entity, violations, derived facts, effects,
next actions, errors and refusals) and the same D′ (D itself when rejected), over the example
domains and generated domains, on valid and invalid inputs, nested children included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import arest
from arest.compiler.change import Change
from arest.system.apply import _flat_create, interpret, run
from arest.system.commands import parse_key
from arest.system.compiled_create import compiled_create
from arest.system.context import DEFAULT, read_context
from arest.system.create_plans import MOST_SHAPES, plans_for
from arest.system.entities import fields, nouns
from arest.system.errors import Refusal
from arest.system.machines import machine_of
from arest.testing import bulk_load, populations, readings
from arest.testing.domains import command_keys, commands
from tests.corpus import loaded

EXAMPLES = Path(__file__).parents[2] / "readings"
DOMAINS = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir())
HUMAN, AGENT = read_context({"source": "Human"}), read_context({"source": "Agent"})


def same_answer(state: Any, key: str, request: Any, context: Any = HUMAN) -> tuple[Any, bool]:
    """Run the command both ways; assert the outputs and states agree (a rejection or an
    error leaving D itself); the state reached, and whether the compiled create answered."""
    try:
        command = parse_key(key, request)
    except Refusal:
        return state, False
    compiled = compiled_create(state, command, context)
    out, after = run(state, command, context)
    expected, reached = interpret(state, command, context)
    assert out == expected, (key, request)
    assert after == reached, (key, request)
    if expected.get("rejected") is not False:
        assert after is state and reached is state
    return reached, compiled is not None


def create_keys(D: Any) -> list[str]:
    return [key for key in command_keys(D) if key.startswith("create:")]


class Shown:
    """A D as a strategy's argument, shown by a short name (a D's repr is huge)."""

    def __init__(self, D: Any) -> None:
        self.D = D

    def __repr__(self) -> str:
        return "D"


@st.composite
def create_inputs(draw: st.DrawFn, shown: Shown, keys: list[str] | None = None
                  ) -> tuple[str, Any]:
    """A create over D's domain (:func:`arest.testing.commands`), often changed: its id
    dropped (an automatic id) or given by the reference value type's name, a field's value
    of a wrong kind (a boolean, a list where one value goes, an empty string, null, a
    number), an unknown field, a field named by its fact type, or a field's values replaced
    by children created in the same command.  ``keys``: the create keys to draw from (all
    of D's by default)."""
    D = shown.D
    key, request = draw(commands(D, keys=keys or create_keys(D)))
    noun = key.partition(":")[2]
    request = dict(request)
    change = Change(D)
    for _ in range(draw(st.integers(0, 2))):
        how = draw(st.sampled_from(["auto id", "alias", "kind", "unknown", "fact type",
                                    "children", "children", "children"]))
        names = sorted(k for k in request if k != "id")
        if how == "auto id":
            request.pop("id", None)
        elif how == "alias":
            scheme = change.reference(noun)
            if "id" in request:
                request[scheme[0]] = draw(st.sampled_from([request["id"], "other"]))
        elif how == "kind" and names:
            request[draw(st.sampled_from(names))] = draw(st.sampled_from(
                [True, False, None, "", 7, 2.5, ["x", "y"], [], {}, [{}]]))
        elif how == "unknown":
            request["Nope"] = "x"
        elif how == "fact type":
            field = draw(st.sampled_from(fields(D, noun)))
            request[field.fact_type] = request.pop(field.name, "x")
        elif how == "children":
            request.update(draw(children(shown, noun)))
    return key, request


@st.composite
def children(draw: st.DrawFn, shown: Shown, noun: str) -> dict[str, Any]:
    """One field of noun given as entities of its other role's noun, created with it (some
    with ids, some automatic)."""
    D = shown.D
    change = Change(D)
    candidates = [field for field in fields(D, noun) if field.shape in ("one", "many")
                  and change.roles(field.fact_type)[field.keys[0][1]] in nouns(D)]
    if not candidates:
        return {}
    field = draw(st.sampled_from(candidates))
    child = change.roles(field.fact_type)[field.keys[0][1]]
    made = []
    for _ in range(1 if field.shape == "one" else draw(st.integers(1, 2))):
        if f"create:{child}" in create_keys(D):
            _, request = draw(commands(D, keys=[f"create:{child}"]))
            request = dict(request)
        else:
            request = {}
        if draw(st.booleans()):
            request.pop("id", None)
        made.append(request)
    return {field.name: made[0] if field.shape == "one" and draw(st.booleans()) else made}


@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(DOMAINS), st.sampled_from([HUMAN, AGENT]), st.data())
def test_a_compiled_create_answers_as_the_interpreted_one_on_the_example_domains(
        name: str, context: Any, data: st.DataObject) -> None:
    D = loaded(name)
    population = data.draw(populations(D))
    if population.facts:
        out, D = arest.apply(D, *population.command())
        assert out.get("rejected") is False
    for key, request in data.draw(st.lists(create_inputs(Shown(D)), min_size=1, max_size=6)):
        D, _ = same_answer(D, key, request, context)


@settings(max_examples=6, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(DOMAINS), st.data())
def test_a_broken_population_s_create_answers_alike(name: str, data: st.DataObject) -> None:
    """Creates over a population that breaks a constraint (written unchecked): violations
    of uniqueness and mandatory roles already there."""
    D = loaded(name)
    population = data.draw(populations(D, invalid=True))
    D = bulk_load(D, population.facts)
    for key, request in data.draw(st.lists(create_inputs(Shown(D)), min_size=1, max_size=4)):
        D, _ = same_answer(D, key, request)


@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(readings(max_constructs=4), st.data())
def test_a_compiled_create_answers_as_the_interpreted_one_on_generated_domains(
        text: str, data: st.DataObject) -> None:
    D = arest.compile(text)
    assume(create_keys(D))
    population = data.draw(populations(D))
    if population.facts:
        out, after = arest.apply(D, *population.command())
        if out.get("rejected") is False:
            D = after
    for key, request in data.draw(st.lists(create_inputs(Shown(D)), min_size=1, max_size=5)):
        D, _ = same_answer(D, key, request)


@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(readings(max_constructs=3, machines=True), st.sampled_from([HUMAN, AGENT]), st.data())
def test_a_create_whose_machine_starts_answers_alike_on_generated_domains(
        text: str, context: Any, data: st.DataObject) -> None:
    """Generated domains with a state machine (a verb performed in its initial status, a
    transition triggered by a fact type) and the derivation rules their schema allows:
    creates of the machine's noun, which start it, show its status, events and picture,
    list next actions and effects, and wake the rules (an aggregate's count among them),
    whether their plan holds the rest of the create or leaves it to the interpreter."""
    D = arest.compile(text)
    started = [key for key in create_keys(D)
               if machine_of(D, key.partition(":")[2]) is not None]
    assume(started)
    population = data.draw(populations(D))
    if population.facts:
        out, after = arest.apply(D, *population.command())
        if out.get("rejected") is False:
            D = after
    inputs = st.one_of(create_inputs(Shown(D), started), create_inputs(Shown(D)))
    for key, request in data.draw(st.lists(inputs, min_size=1, max_size=4)):
        if data.draw(st.booleans()):
            request = {k: v for k, v in request.items() if k != "id"}  # a new entity
        D, _ = same_answer(D, key, request, context)


ORDER = {"id": "o-1", "Customer": "ann@example.com", "LineItem": [
    {"Product": "sku-hammer", "Quantity": 2}, {"Product": "sku-nails", "Quantity": 1}]}


def test_the_benchmark_s_creates_are_compiled_and_answer_alike() -> None:
    D = loaded("orders")
    D, compiled = same_answer(D, "create:Customer", {"id": "ann@example.com", "Name": "Ann"})
    assert compiled
    D, compiled = same_answer(D, "create:Order", ORDER)
    assert compiled
    plan = plans_for(D).plan(D, "Order", frozenset(ORDER))
    assert plan is not None and not plan.quiet and plan.compiled_tail
    out = arest.apply(D, "read:Order", "o-1")[0]
    assert out["status"] == "Placed" and len(out["LineItem"]) == 2
    customer = arest.apply(D, "read:Customer", "ann@example.com")[0]
    assert customer["Unpaid Order Count"] == "1"


TASKS = """Project(.id) is an entity type.
Task(.id) is an entity type.
Open Task Count is a value type.
Task belongs to Project.
  Each Task belongs to at most one Project.
Task is urgent.
Task is noted.
* Task is noted iff Task is urgent.
Project has Open Task Count.
  Each Project has at most one Open Task Count.
* Project has Open Task Count iff Open Task Count is the count of Task
  where Task belongs to that Project and Task has Status 'Open'.
State Machine Definition 'Task' is for Noun 'Task'.
Status 'Open' is initial in State Machine Definition 'Task'.
Status 'Done' is terminal in State Machine Definition 'Task'.
Transition 'finish' is defined in State Machine Definition 'Task'.
Transition 'finish' is from Status 'Open'.
Transition 'finish' is to Status 'Done'.
Verb 'welcome' is performed in Status 'Open'.
"""


def test_a_started_entity_s_create_is_compiled_whole_and_answers_alike() -> None:
    """A machine's start, its status, events and picture in the links, the next actions,
    a verb performed in s₀, a derived field of the new entity and a count woken, from the
    plan: the same answer as the interpreter's, created alone or with children."""
    D = arest.compile(TASKS)
    D, _ = same_answer(D, "create:Project", {"id": "p1"})
    keys = frozenset({"id", "Project", "is urgent"})
    plan = plans_for(D).plan(D, "Task", keys)
    assert plan is not None and not plan.quiet and plan.compiled_tail
    for request in ({"id": "t1", "Project": "p1", "is urgent": True}, {"Project": "p1"},
                    {"id": "t1", "Project": "p1"}):  # the last: entity_exists
        D, compiled = same_answer(D, "create:Task", request)
    out = arest.apply(D, "create:Task", {"id": "t2", "Project": "p1", "is urgent": True})[0]
    assert out["entity"]["is noted"] and out["entity"]["status"] == "Open"
    assert out["effects"] == [{"verb": "welcome", "noun": "Task", "id": "t2", "status": "Open"}]
    assert [d["fact_type"] for d in out["derived"]] == ["Project_has_Open_Task_Count",
                                                        "Task_is_noted"]
    D, compiled = same_answer(D, "create:Project", {"id": "p2", "Task": [
        {"id": "t3", "is urgent": True}, {}]}, AGENT)
    assert compiled


def test_a_rejected_compiled_create_leaves_d_as_it_was() -> None:
    D = loaded("orders")
    D, _ = same_answer(D, "create:Customer", {"id": "ann@example.com", "Name": "Ann"})
    nameless = parse_key("create:Customer", {"id": "bob@example.com"})
    out, after = run(D, nameless, HUMAN)
    assert out["rejected"] and after is D
    assert compiled_create(D, nameless, HUMAN) is not None
    for request in ({"id": "ann@example.com", "Name": "Again"},  # entity_exists
                    {"id": "o-2", "Customer": "nobody"},  # a Customer without a Name
                    {**ORDER, "id": "o-3", "LineItem": [{"Product": "sku-hammer"}]}):
        key = "create:Customer" if "Name" in request else "create:Order"
        same_answer(D, key, request)


def test_inputs_with_ever_new_keys_keep_the_plans_bounded() -> None:
    D = loaded("orders")
    for n in range(MOST_SHAPES + 50):
        out, _ = arest.apply(D, "create:Customer", {"id": "x@example.com", f"Field {n}": "v"})
        assert out["error"]["code"] == "unknown_field"
    assert len(plans_for(D).by_shape) <= MOST_SHAPES


@st.composite
def flat_inputs(draw: st.DrawFn, shown: Shown) -> tuple[str, Any]:
    """A create over D's domain with flat input (each value one string, a flag true), as a
    plan's straight-line create takes it (:mod:`arest.system.flat_create`): a list's first
    value, a flag false dropped, the id often a new one; now and then a value it leaves to
    the general steps (a number, text that is not ASCII, a flag false)."""
    D = shown.D
    key, request = draw(commands(D, keys=create_keys(D)))
    if draw(st.booleans()):
        request = {**request, "id": draw(st.sampled_from(["new-1", "new 2@x", "..", "a/b"]))}
    flat: dict[str, Any] = {}
    for name, value in request.items():
        if type(value) is list:
            if value:
                flat[name] = value[0]
        elif value is not False:
            flat[name] = value
    if flat and draw(st.integers(0, 4)) == 0:
        flat[draw(st.sampled_from(sorted(flat)))] = draw(st.sampled_from([7, "é", False]))
    return key, flat


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(readings(max_constructs=4), st.booleans(), st.data())
def test_a_flat_create_answers_as_the_interpreted_one_on_generated_domains(
        text: str, broken: bool, data: st.DataObject) -> None:
    """Creates of flat input over generated domains whose population may break their
    constraints: where the plan's straight-line create answers, it gives the interpreted
    create's output and D′ (its count bounds read by index, or, where one does not hold,
    the general checks' report); elsewhere it leaves the command alone."""
    D = arest.compile(text)
    assume(create_keys(D))
    D = bulk_load(D, data.draw(populations(D, invalid=broken)).facts)
    for key, request in data.draw(st.lists(flat_inputs(Shown(D)), min_size=1, max_size=5)):
        command = parse_key(key, request)
        plan = plans_for(D).plan(D, command.target, frozenset(request))
        flat = plan.flat if plan is not None else None
        answered = flat.create(D, request) if flat is not None else None
        expected = interpret(D, command, HUMAN)
        assert answered is None or answered == expected, (key, request)
        from_key = _flat_create(D, key, request)
        applied = arest.apply(D, key, request)
        assert applied == interpret(D, command, DEFAULT), (key, request)
        assert from_key is None or from_key == applied, (key, request)
        D, _ = same_answer(D, key, request)


def test_the_benchmark_s_customer_is_created_by_its_straight_line_steps() -> None:
    """The benchmark's Customer (and one breaking its mandatory Name, and one whose id is
    in use) answer alike, the first by the plan's straight-line create."""
    D = loaded("orders")
    request = {"id": "ann@example.com", "Name": "Ann"}
    plan = plans_for(D).plan(D, "Customer", frozenset(request))
    assert plan is not None and plan.flat is not None
    assert plan.flat.create(D, request) == interpret(D, parse_key("create:Customer", request),
                                                     HUMAN)
    D, _ = same_answer(D, "create:Customer", request)
    for request, compiled in (({"id": "bob@example.com"}, True),
                              ({"id": "ann@example.com", "Name": "Ann"}, False),
                              ({"id": "bob@example.com", "Name": "Bob", "is a reseller": True},
                               True)):
        D, answered = same_answer(D, "create:Customer", request)
        assert answered is compiled


def test_a_create_key_goes_to_its_straight_line_steps_only_where_they_answer() -> None:
    """``apply`` takes a create of flat input to its plan's straight-line steps from the key
    (no command built): the benchmark's Customer is answered there, as ``run`` answers it;
    a key refused, a noun without a plan, an input the steps leave alone and a context
    given go the general way, with its answer."""
    D = loaded("orders")
    request = {"id": "ann@example.com", "Name": "Ann"}
    from_key = _flat_create(D, "create:Customer", request)
    assert from_key is not None
    assert from_key == arest.apply(D, "create:Customer", request) == run(
        D, parse_key("create:Customer", request), DEFAULT)
    for key, other in (("create:", request), ("create:Nothing", request),
                       ("create:Customer", {"id": "ann@example.com", "Name": 7}),
                       ("create:Customer", {"id": "bob@example.com", "Name": ["Bob"]})):
        assert _flat_create(D, key, other) is None
        out, after = arest.apply(D, key, other)
        try:
            expected = interpret(D, parse_key(key, other), DEFAULT)
        except Refusal as refusal:
            expected = refusal.envelope, D
        assert (out, after) == expected, key
    human = arest.apply(D, "create:Customer", request, {"source": "Human"})
    assert human == run(D, parse_key("create:Customer", request), HUMAN)


RANKED = """Customer(.Email) is an entity type.
Region(.code) is an entity type.
Name is a value type.
Rank is a value type.
  The possible values of Rank are 'gold', 'silver'.
Customer has Name.
  Each Customer has exactly one Name.
  Each Name is of at most one Customer.
Customer has Rank.
  Each Customer has at most one Rank.
  It is obligatory that each Customer has some Rank.
Customer is a reseller.
Customer is in Region.
  Each Customer is in at most one Region.
"""


def test_a_flat_create_s_checks_count_the_entity_and_the_values_or_report_as_before() -> None:
    """Count bounds on the new entity and on a value it names, read by index; a value
    constraint, a deontic mandatory role and a broken uniqueness reported by the general
    checks: each create answered by the plan's straight-line steps, as the interpreter
    answers it."""
    D = arest.compile(RANKED)
    D, _ = same_answer(D, "create:Region", {"id": "eu"})
    for request, rejected in (
            ({"id": "a@x", "Name": "Ann", "Rank": "gold", "Region": "eu", "is a reseller": True},
             False),
            ({"id": "b@x", "Name": "Ann", "Rank": "gold"}, True),  # the Name is Ann's
            ({"id": "c@x", "Name": "Cy"}, False),  # no Rank: a deontic violation
            ({"id": "d@x", "Name": "Di", "Rank": "bronze"}, True),  # not a possible Rank
            ({"Email": "e@x", "Name": "E", "Region": "eu"}, False)):
        plan = plans_for(D).plan(D, "Customer", frozenset(request))
        assert plan is not None and plan.flat is not None
        answered = plan.flat.create(D, request)
        assert answered is not None and answered[0]["rejected"] is rejected
        D, _ = same_answer(D, "create:Customer", request)
