"""Create benchmark: latency of ``create`` on ``readings/orders`` against SQLite and a dict store.

Each candidate is loaded with a population of |P| facts and then runs two interleaved
commands, timed one at a time:

* **Customer**: ``create:Customer`` with an id and a Name (one fact);
* **Order**: ``create:Order`` placed by an existing, randomly chosen Customer, with two
  LineItems created in the same command (seven facts: the order and, per line item, its
  Order, Product and Quantity).

Candidates, each size and GC setting in its own fresh process (``harness.run_isolated``):

* ``SQLite``: the baseline of every ratio. Standard-library ``sqlite3`` in memory,
  ``PRAGMA foreign_keys=ON``, tables whose PRIMARY KEY, NOT NULL, FOREIGN KEY and CHECK
  constraints match the readings, one transaction per create.
* ``dict``: a hand-written create over mutable dicts that checks the same constraints by key
  lookup (uniqueness, mandatory roles, references, the Quantity comparison).
* ``persistent``: the same hand-written create over persistent maps (``immutables.Map``, the
  maps D is made of): each create returns a new store and keeps the old one, as arest does.
* ``persistent+output``: the persistent store whose Customer create also does what arest's
  does for a Customer and returns the same output: it checks the input as arest reads it
  (an object of known fields, atoms, the flag a boolean, id and Email the same), the id
  unused and the Name given, and returns the command result with the entity's
  representation and its ``_links``.  Before timing, a process of its own checks on a
  sample that its outputs equal arest's and that both refuse the same bad inputs
  (``same_output``).  Its Order is the plain persistent create, left out of its tables.
* ``arest``: ``arest.apply`` over the persistent D of ``arest.load("readings/orders")``,
  populated through ``arest.testing.bulk_load`` with the index of every role of every
  loaded cell built (as SQLite's load builds its keys); every output is checked to be
  accepted.

The population is customers with names, each placing one to three orders of one to three
line items with a product and a quantity, cut at whole customers and topped up with customers
without orders so that it holds exactly |P| facts and satisfies every alethic constraint.
The timed commands run in blocks; after each block every store returns, untimed, to the
loaded population (D is a persistent value; the mutable stores delete the block's rows), so
|P| stays within ``block_facts`` of its nominal size.

GC settings: ``default`` (CPython's thresholds) and ``frozen`` (``gc.freeze()`` after the
bulk load).  Only this benchmark process touches its collector; library code never does.

Snapshot: ``arest.apply(D, "snapshot", {})`` on the loaded D; the baselines' nearest
equivalents are a copy of every dict and ``sqlite3.Connection.backup`` into a fresh database.

Run ``python benchmarks/bench_create.py`` (|P| up to 1e6, about 2.5 minutes on 2 cores),
``--quick`` for a smoke run (|P| up to 1e4), ``--profile 100000`` for a cProfile listing of
arest's creates at one size, ``--parts 1000`` to time each step of arest's create alone,
``--clock cpu`` to time each create by the process's CPU time
(on a shared machine the wall clock's p99 is the scheduler's time slice).
"""

from __future__ import annotations

import argparse
import cProfile
import decimal
import gc
import io
import json
import math
import pstats
import random
import re
import sqlite3
import sys
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from harness import (
    Column,
    format_ratio,
    format_table,
    interpreter_facts,
    publish,
    run_isolated,
    summarize,
    time_calls,
    time_fold,
    timer_overhead_ns,
)

EXAMPLE = Path(__file__).resolve().parent.parent / "readings" / "orders"
SIZES = (1_000, 10_000, 100_000, 1_000_000)
QUICK_SIZES = (1_000, 10_000)
REPRESENTED = "persistent+output"
CANDIDATES = ("SQLite", "dict", "persistent", REPRESENTED, "arest")
BASELINE = "SQLite"
GC_SETTINGS = ("default", "frozen")
KINDS = ("customer", "order")
PRODUCTS = ("sku-hammer", "sku-nails")
ORDER_LINES = (("sku-hammer", 2), ("sku-nails", 1))
FACTS_PER_CUSTOMER_CREATE = 1
FACTS_PER_ORDER_CREATE = 1 + 3 * len(ORDER_LINES)
FULLY_VALIDATED_UP_TO = 10_000
BUDGET_MEDIAN_US = 250.0
BUDGET_P99_US = 2_000.0
BUDGET_GROWTH = 2.0
BUDGET_CUSTOMER_PERSISTENT = 2.0
BUDGET_ORDER_US = 150.0

Fact = tuple[str, tuple[str, ...]]
CLOCKS: dict[str, Callable[[], int]] = {"wall": time.perf_counter_ns, "cpu": time.thread_time_ns}


@dataclass(frozen=True)
class Plan:
    """How much work each process does; ``creates`` and ``warmup`` count each kind."""

    sizes: tuple[int, ...] = SIZES
    creates: int = 5_000
    warmup: int = 200
    block: int = 50
    snapshots: int = 1_000
    baseline_snapshots: int = 20
    seed: int = 1
    clock: str = "wall"
    """``wall`` (``perf_counter_ns``) or ``cpu`` (``thread_time_ns``: the time the process ran,
    without the time the scheduler gave other processes)."""

    @property
    def block_facts(self) -> int:
        """Facts a block adds at most before its store returns to the loaded population."""
        half = self.block // 2
        return half * (FACTS_PER_CUSTOMER_CREATE + FACTS_PER_ORDER_CREATE)

    def quick(self) -> Plan:
        """Sizes up to 1e4 only, with the same counts: a smoke run."""
        return replace(self, sizes=QUICK_SIZES)


@dataclass(frozen=True)
class Command:
    """One create: a Customer (``name``) or an Order (``customer``, ``lines``)."""

    kind: str
    id: str
    name: str = ""
    customer: str = ""
    lines: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Population:
    """The facts to bulk-load, and the customers they name (the targets of new orders)."""

    facts: list[Fact]
    customers: list[str]


def population(size: int, seed: int) -> Population:
    """Exactly ``size`` facts of customers, their orders and the orders' line items.

    >>> p = population(40, seed=1)
    >>> len(p.facts), sorted({fact_type for fact_type, _ in p.facts})[0]
    (40, 'Customer_has_Name')
    """
    rng = random.Random(seed)
    facts: list[Fact] = []
    customers: list[str] = []
    orders = line_items = 0
    while len(facts) < size:
        customer = f"customer-{len(customers)}@example.com"
        group: list[Fact] = [("Customer_has_Name", (customer, f"Customer {len(customers)}"))]
        for _ in range(rng.randint(1, 3)):
            order = f"order-{orders}"
            orders += 1
            group.append(("Order_was_placed_by_Customer", (order, customer)))
            for _ in range(rng.randint(1, 3)):
                line_item = f"item-{line_items}"
                line_items += 1
                group += [
                    ("LineItem_belongs_to_Order", (line_item, order)),
                    ("LineItem_is_for_Product", (line_item, rng.choice(PRODUCTS))),
                    ("LineItem_has_Quantity", (line_item, str(rng.randint(1, 10)))),
                ]
        if len(facts) + len(group) > size:
            group = group[:1]
        facts += group
        customers.append(customer)
    return Population(facts, customers)


def commands(plan: Plan, customers: Sequence[str], count: int, start: int) -> list[Command]:
    """``count`` creates of each kind, interleaved, with ids numbered from ``start``.

    >>> [c.kind for c in commands(Plan(), ["c@x"], 2, 0)]
    ['customer', 'order', 'customer', 'order']
    """
    rng = random.Random(plan.seed + start)
    out: list[Command] = []
    for number in range(start, start + count):
        out.append(Command("customer", f"new-{number}@example.com", name=f"New {number}"))
        out.append(
            Command(
                "order", f"new-order-{number}", customer=rng.choice(customers), lines=ORDER_LINES
            )
        )
    return out


def blocks(items: Sequence[Command], size: int) -> Iterator[Sequence[Command]]:
    """``items`` in consecutive slices of ``size``."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


class Rejected(RuntimeError):
    """Raised when a candidate refuses a create the benchmark meant to be valid."""


@dataclass
class Candidate:
    """One store under test: load it, create into it, return it to the loaded population."""

    name: str
    empty: Callable[[], Any]
    load: Callable[[Any, Population], Any]
    prepare: Callable[[Command], Any]
    step: Callable[[Any, Any], Any]
    reset: Callable[[Any, Any, Sequence[Command]], Any]
    snapshot: Callable[[Any], object]
    snapshots_per_size: Callable[[Plan], int] = field(default=lambda plan: plan.baseline_snapshots)


# arest ---------------------------------------------------------------------------------


def _arest_empty() -> Any:
    import arest
    import arest.testing  # imports Hypothesis: not part of the timed bulk load

    return arest.load(EXAMPLE)


def _arest_load(state: Any, people: Population) -> Any:
    """The population bulk-loaded, with the index of every role of every cell it grew.

    A relation builds a role's index on first use; SQLite's load builds its keys and
    indexes, so arest's load includes its own rather than leave them to the first creates:
    its frozen base's, the O(|P|) part.  A later role's index over the facts layered above
    the base is left to its first search, as every relation leaves it (at most the
    compaction floor's facts, once): a role nobody searches, a Customer's Name, is never
    kept up.
    """
    from arest.algebra.relations import Relation
    from arest.testing import bulk_load

    loaded = bulk_load(state, people.facts)
    for name, cell in loaded.items():
        if isinstance(cell, Relation) and cell is not state.get(name):
            cell.indexed(range(cell.arity))
    return loaded


def _arest_prepare(command: Command) -> tuple[str, dict[str, Any]]:
    if command.kind == "customer":
        return "create:Customer", {"id": command.id, "Name": command.name}
    items = [{"Product": product, "Quantity": quantity} for product, quantity in command.lines]
    return "create:Order", {"id": command.id, "Customer": command.customer, "LineItem": items}


def _arest_step(state: Any, prepared: tuple[str, dict[str, Any]]) -> Any:
    import arest

    out, after = arest.apply(state, *prepared)
    if out.get("rejected") is not False or "error" in out:
        raise Rejected(f"{prepared}: {out}")
    return after


def _arest_snapshot(state: Any) -> object:
    import arest

    out, _ = arest.apply(state, "snapshot", {})
    if "id" not in out:
        raise Rejected(f"snapshot: {out}")
    return out


def _arest_full_check(state: Any) -> None:
    """Validate the whole population (every constraint over every key); raise on any
    violation."""
    from arest.system.validate import all_violations

    violations = all_violations(state)
    if violations:
        raise Rejected(f"the bulk-loaded population violates the readings: {violations[:3]}")


# dict ----------------------------------------------------------------------------------


def _order_warnings(orders: Mapping[str, str], customers: Mapping[str, str],
                    products: Mapping[str, str], id: str, customer: str,
                    lines: Sequence[tuple[str, int]]) -> list[str]:
    """The hand-written stores' checks of a new Order and its LineItems, before anything is
    written: a refusal raises :class:`Rejected`; the deontic warnings are returned."""
    if id in orders:
        raise Rejected(f"Order {id!r} exists")
    if customer not in customers:
        raise Rejected("Each Customer has exactly one Name.")
    warnings = []
    for product, quantity in lines:
        if product not in products:
            raise Rejected("Each Product has exactly one Name.")
        if quantity is None:
            raise Rejected("Each LineItem has exactly one Quantity.")
        if quantity < 1:
            warnings.append("It is forbidden that a LineItem has Quantity less than 1.")
    return warnings


@dataclass
class DictStore:
    """Orders by hand: one dict per fact type, keyed by the role its uniqueness spans."""

    customer_name: dict[str, str] = field(default_factory=dict)
    product_name: dict[str, str] = field(default_factory=dict)
    order_customer: dict[str, str] = field(default_factory=dict)
    orders_of_customer: dict[str, list[str]] = field(default_factory=dict)
    line_item: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    lines_of_order: dict[str, list[str]] = field(default_factory=dict)
    line_items_created: int = 0

    def create_customer(self, id: str, name: str | None) -> list[str]:
        """Add a Customer: its id unused, its Name given; deontic warnings (none here)."""
        if id in self.customer_name:
            raise Rejected(f"Customer {id!r} exists")
        if not name:
            raise Rejected("Each Customer has exactly one Name.")
        self.customer_name[id] = name
        return []

    def create_order(self, id: str, customer: str, lines: Sequence[tuple[str, int]]) -> list[str]:
        """Add an Order and its LineItems, checking every constraint before writing any."""
        warnings = _order_warnings(self.order_customer, self.customer_name, self.product_name,
                                   id, customer, lines)
        self.order_customer[id] = customer
        self.orders_of_customer.setdefault(customer, []).append(id)
        created = []
        for product, quantity in lines:
            self.line_items_created += 1
            line = f"line-item-{self.line_items_created}"
            self.line_item[line] = (id, product, quantity)
            created.append(line)
        self.lines_of_order[id] = created
        return warnings


def _dict_empty() -> DictStore:
    return DictStore(product_name={"sku-hammer": "Hammer", "sku-nails": "Nails, box of 100"})


def _dict_load(store: DictStore, people: Population) -> DictStore:
    items: dict[str, list[str]] = {}
    for fact_type, (first, second) in people.facts:
        if fact_type == "Customer_has_Name":
            store.customer_name[first] = second
        elif fact_type == "Order_was_placed_by_Customer":
            store.order_customer[first] = second
            store.orders_of_customer.setdefault(second, []).append(first)
        else:
            items.setdefault(first, []).append(second)
    for line, (order, product, quantity) in items.items():
        store.line_item[line] = (order, product, int(quantity))
        store.lines_of_order.setdefault(order, []).append(line)
    return store


def _same_command(command: Command) -> Command:
    return command


def _dict_step(store: DictStore, command: Command) -> DictStore:
    if command.kind == "customer":
        store.create_customer(command.id, command.name)
    else:
        store.create_order(command.id, command.customer, command.lines)
    return store


def _dict_reset(store: DictStore, _: Any, block: Sequence[Command]) -> DictStore:
    for command in block:
        if command.kind == "customer":
            del store.customer_name[command.id]
        else:
            del store.order_customer[command.id]
            store.orders_of_customer[command.customer].pop()
            for line in store.lines_of_order.pop(command.id):
                del store.line_item[line]
    return store


def _dict_snapshot(store: DictStore) -> object:
    return {name: value.copy() for name, value in vars(store).items() if isinstance(value, dict)}


# persistent maps -----------------------------------------------------------------------


@dataclass(frozen=True)
class PersistentStore:
    """Orders by hand over persistent maps: the dict store's maps as ``immutables.Map``, a
    customer's orders and an order's line items as tuples; a create returns a new store."""

    customer_name: Any
    product_name: Any
    order_customer: Any
    orders_of_customer: Any
    line_item: Any
    lines_of_order: Any
    line_items_created: int = 0

    def create_customer(self, id: str, name: str | None) -> PersistentStore:
        """The store with a Customer added: its id unused, its Name given."""
        if id in self.customer_name:
            raise Rejected(f"Customer {id!r} exists")
        if not name:
            raise Rejected("Each Customer has exactly one Name.")
        return replace(self, customer_name=self.customer_name.set(id, name))

    def create_order(
        self, id: str, customer: str, lines: Sequence[tuple[str, int]]
    ) -> tuple[PersistentStore, list[str]]:
        """The store with an Order and its LineItems added, every constraint checked before
        anything is written; and the deontic warnings."""
        warnings = _order_warnings(self.order_customer, self.customer_name, self.product_name,
                                   id, customer, lines)
        created = self.line_items_created
        with self.line_item.mutate() as line_item:
            names = []
            for product, quantity in lines:
                created += 1
                line = f"line-item-{created}"
                line_item[line] = (id, product, quantity)
                names.append(line)
            line_items = line_item.finish()
        orders = self.orders_of_customer.get(customer, ())
        store = replace(
            self,
            order_customer=self.order_customer.set(id, customer),
            orders_of_customer=self.orders_of_customer.set(customer, (*orders, id)),
            line_item=line_items,
            lines_of_order=self.lines_of_order.set(id, tuple(names)),
            line_items_created=created,
        )
        return store, warnings


def _persistent_empty() -> PersistentStore:
    from immutables import Map

    products = Map({"sku-hammer": "Hammer", "sku-nails": "Nails, box of 100"})
    return PersistentStore(Map(), products, Map(), Map(), Map(), Map())


def _persistent_load(store: PersistentStore, people: Population) -> PersistentStore:
    from immutables import Map

    loaded = _dict_load(_dict_empty(), people)
    return replace(
        store,
        customer_name=Map(loaded.customer_name),
        order_customer=Map(loaded.order_customer),
        orders_of_customer=Map({c: tuple(o) for c, o in loaded.orders_of_customer.items()}),
        line_item=Map(loaded.line_item),
        lines_of_order=Map({o: tuple(lines) for o, lines in loaded.lines_of_order.items()}),
    )


def _persistent_step(store: PersistentStore, command: Command) -> PersistentStore:
    if command.kind == "customer":
        return store.create_customer(command.id, command.name)
    after, _ = store.create_order(command.id, command.customer, command.lines)
    return after


def _persistent_snapshot(store: PersistentStore) -> object:
    return store


# persistent maps, with arest's output ------------------------------------------------

CUSTOMER_URL = "/customers/"
CUSTOMER_LINK_PATHS = (
    ("orders", "/orders", "children"),
    ("Customer_has_Name", "/Customer_has_Name", "related"),
    ("Customer_has_Unpaid_Order_Count", "/Customer_has_Unpaid_Order_Count", "related"),
    ("Order_was_placed_by_Customer", "/Order_was_placed_by_Customer", "related"),
)
"""A Customer's navigation links after ``self``, as ``links:Customer`` of the readings holds
them: key, path after the Customer's url, rel."""
CUSTOMER_INPUT = frozenset({"id", "Email", "Name", "is a reseller"})
"""The Customer fields the hand create takes: the id (or its reference component, Email),
the Name, and the flag; the derived count and the orders (children) it refuses."""
_UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]*")
_NUMERALS = decimal.Context(prec=28, rounding=decimal.ROUND_HALF_EVEN, Emax=999_999,
                            Emin=-999_999, traps=[])
MAX_ATOM = 1_000_000
MAX_WHOLE = 10**1_000


def _hand_atom(value: Any, path: str) -> str:
    """A JSON value as an atom, as arest reads one: a non-empty string of valid Unicode as it
    is, a number as its canonical numeral; anything else refused."""
    if isinstance(value, bool) or value is None:
        raise Rejected(f"{path}: expected a string or a number")
    if isinstance(value, str):
        if not value or len(value) > MAX_ATOM:
            raise Rejected(f"{path}: expected a non-empty string of at most {MAX_ATOM:,}")
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise Rejected(f"{path}: expected valid Unicode") from None
        return value
    if isinstance(value, int):
        if abs(value) >= MAX_WHOLE:
            raise Rejected(f"{path}: expected a number of at most 1,000 digits")
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        number = decimal.Decimal(repr(value))
        text = str(number)
        if "E" in text:
            text = format(number.normalize(_NUMERALS), "f")
        elif "." in text:
            text = text.rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    raise Rejected(f"{path}: expected a string or a number")


def _hand_segment(entity: str) -> str:
    """An id as one path segment, as arest's links encode it: percent-encoded, and ``.`` or
    ``..`` with its dots encoded."""
    if _UNRESERVED.fullmatch(entity) is None:
        return urllib.parse.quote(entity, safe="")
    return entity.replace(".", "%2E") if entity in (".", "..") else entity


@dataclass(frozen=True)
class RepresentingStore(PersistentStore):
    """The persistent store whose Customer create does what arest's does for a Customer and
    returns the same output: the input checked (an object of known fields, each value an
    atom, the flag a boolean, the id and Email the same when both are given), the id unused,
    the Name given (else refused), and the command result with the entity's representation
    and its ``_links``."""

    resellers: Any = None

    def create_customer_output(self, request: Any) -> tuple[RepresentingStore, dict[str, Any]]:
        """The store with the Customer added, and arest's output of ``create:Customer``."""
        if not isinstance(request, dict):
            raise Rejected("$: expected an object: the Customer's id and fields")
        unknown = request.keys() - CUSTOMER_INPUT
        if unknown:
            raise Rejected(f"$.{min(unknown)}: not a field the hand create takes")
        id = _hand_atom(request["id"], "$.id") if "id" in request else None
        if "Email" in request:
            email = _hand_atom(request["Email"], "$.Email")
            if id is not None and email != id:
                raise Rejected(f"$.Email: expected the same value as id ({id!r})")
            id = email
        if id is None:
            raise Rejected("$: expected id, or the reference components Email")
        if id in self.customer_name:
            raise Rejected(f"Customer {id!r} exists")
        name = _hand_atom(request["Name"], "$.Name") if "Name" in request else None
        reseller = request.get("is a reseller", False)
        if not isinstance(reseller, bool):
            raise Rejected("$.is a reseller: expected true or false")
        if name is None:
            raise Rejected("Each Customer has exactly one Name.")
        url = CUSTOMER_URL + _hand_segment(id)
        links: dict[str, Any] = {"self": {"href": url}}
        for key, path, rel in CUSTOMER_LINK_PATHS:
            links[key] = {"href": url + path, "rel": rel}
        entity: dict[str, Any] = {"id": id, "noun": "Customer", "Name": name}
        resellers = self.resellers
        if reseller:
            entity["is a reseller"] = True
            resellers = resellers.set(id, True)
        entity["_links"] = links
        out = {"rejected": False, "entity": entity, "violations": [], "derived": [],
               "effects": [], "next_actions": []}
        store = replace(self, customer_name=self.customer_name.set(id, name),
                        resellers=resellers)
        return store, out


def _represented_empty() -> RepresentingStore:
    from immutables import Map

    plain = _persistent_empty()
    return RepresentingStore(**{**vars(plain), "resellers": Map()})


def _represented_load(store: RepresentingStore, people: Population) -> RepresentingStore:
    loaded = _persistent_load(store, people)
    assert isinstance(loaded, RepresentingStore)
    return loaded


def _represented_prepare(command: Command) -> Any:
    return _arest_prepare(command)[1] if command.kind == "customer" else command


def _represented_step(store: RepresentingStore, prepared: Any) -> RepresentingStore:
    if isinstance(prepared, Command):
        after, _ = store.create_order(prepared.id, prepared.customer, prepared.lines)
        assert isinstance(after, RepresentingStore)
        return after
    after, out = store.create_customer_output(prepared)
    if out["rejected"] is not False:
        raise Rejected(f"{prepared}: {out}")
    return after


SAME_OUTPUT_SAMPLE: tuple[dict[str, Any], ...] = (
    {"id": "ann@example.com", "Name": "Ann"},
    {"Email": "bo b@example.com", "Name": "Bob", "is a reseller": True},
    {"id": "x/é.", "Email": "x/é.", "Name": 3.5, "is a reseller": False},
    {"id": 42, "Name": 1e21},
    {"id": "..", "Name": "Dot"},
)
"""Customer inputs on which the benchmark checks, before timing, that the hand create's
output equals arest's: every field it takes, atoms of each kind, ids to encode."""
REFUSED_SAMPLE: tuple[Any, ...] = (
    {"id": "customer-0@example.com", "Name": "Taken"},
    {"id": "nameless@example.com"},
    {"id": "a@example.com", "Name": ""},
    {"id": "b@example.com", "Name": True},
    {"id": "c@example.com", "Email": "d@example.com", "Name": "C"},
    {"id": "e@example.com", "Name": "E", "is a reseller": "yes"},
    {"id": "f@example.com", "Name": "F", "Unpaid Order Count": 1},
    [],
)
"""Customer inputs both creates must refuse: a used id, no Name, values that are no atom or
no boolean, an id and an Email that differ, a derived field, no object."""


def same_output(size: int, plan: dict[str, Any]) -> dict[str, int]:
    """Check that the hand create with output and arest's agree on a sample over the same
    population: equal outputs on :data:`SAME_OUTPUT_SAMPLE` and on a block of the timed
    commands, each input created in turn; both refuse every input of :data:`REFUSED_SAMPLE`.
    Raise :class:`Rejected` at the first difference; run in its own process, untimed."""
    import arest

    p = Plan(**{**plan, "sizes": tuple(plan["sizes"])})
    people = population(size, p.seed)
    state = _arest_load(_arest_empty(), people)
    store = _represented_load(_represented_empty(), people)
    requests = [dict(request) for request in SAME_OUTPUT_SAMPLE] + [
        _arest_prepare(command)[1] for command in commands(p, people.customers, p.block, 0)
        if command.kind == "customer"]
    for request in requests:
        expected, state = arest.apply(state, "create:Customer", request)
        store, out = store.create_customer_output(request)
        if out != expected:
            raise Rejected(f"the hand create's output differs from arest's on {request}:"
                           f"\n  hand:  {out}\n  arest: {expected}")
    for request in REFUSED_SAMPLE:
        expected, _ = arest.apply(state, "create:Customer", request)
        if expected.get("rejected") is False:
            raise Rejected(f"arest accepted {request}, which the hand create refuses")
        try:
            store.create_customer_output(request)
        except Rejected:
            continue
        raise Rejected(f"the hand create accepted {request}, which arest refuses")
    return {"equal": len(requests), "refused": len(REFUSED_SAMPLE)}


# SQLite --------------------------------------------------------------------------------

SQLITE_SCHEMA = """
CREATE TABLE customer (
    email TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
CREATE TABLE product (
    sku TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
CREATE TABLE orders (
    order_number TEXT PRIMARY KEY,
    customer TEXT NOT NULL REFERENCES customer (email),
    priority TEXT CHECK (priority IN ('low', 'normal', 'rush'))
);
CREATE INDEX orders_customer ON orders (customer);
CREATE TABLE line_item (
    id TEXT PRIMARY KEY,
    order_number TEXT NOT NULL REFERENCES orders (order_number),
    product TEXT NOT NULL REFERENCES product (sku),
    quantity INTEGER NOT NULL CHECK (quantity >= 1),
    amount NUMERIC
);
CREATE INDEX line_item_order ON line_item (order_number);
CREATE INDEX line_item_product ON line_item (product);
"""


@dataclass
class SQLiteStore:
    """An in-memory database and the number of line items created through it."""

    connection: sqlite3.Connection
    line_items_created: int = 0


def _sqlite_empty() -> SQLiteStore:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.execute("PRAGMA foreign_keys = ON")
    connection.executescript(SQLITE_SCHEMA)
    connection.executemany(
        "INSERT INTO product VALUES (?, ?)",
        [("sku-hammer", "Hammer"), ("sku-nails", "Nails, box of 100")],
    )
    return SQLiteStore(connection)


def _sqlite_load(store: SQLiteStore, people: Population) -> SQLiteStore:
    connection = store.connection
    customers: list[tuple[str, str]] = []
    orders: list[tuple[str, str]] = []
    items: dict[str, list[str]] = {}
    for fact_type, (first, second) in people.facts:
        if fact_type == "Customer_has_Name":
            customers.append((first, second))
        elif fact_type == "Order_was_placed_by_Customer":
            orders.append((first, second))
        else:
            items.setdefault(first, []).append(second)
    connection.execute("BEGIN")
    connection.executemany("INSERT INTO customer VALUES (?, ?)", customers)
    connection.executemany("INSERT INTO orders (order_number, customer) VALUES (?, ?)", orders)
    connection.executemany(
        "INSERT INTO line_item (id, order_number, product, quantity) VALUES (?, ?, ?, ?)",
        [(line, order, product, int(q)) for line, (order, product, q) in items.items()],
    )
    connection.execute("COMMIT")
    return store


def _sqlite_step(store: SQLiteStore, command: Command) -> SQLiteStore:
    execute = store.connection.execute
    try:
        execute("BEGIN")
        if command.kind == "customer":
            execute("INSERT INTO customer VALUES (?, ?)", (command.id, command.name))
        else:
            execute(
                "INSERT INTO orders (order_number, customer) VALUES (?, ?)",
                (command.id, command.customer),
            )
            for product, quantity in command.lines:
                store.line_items_created += 1
                execute(
                    "INSERT INTO line_item (id, order_number, product, quantity) "
                    "VALUES (?, ?, ?, ?)",
                    (f"line-item-{store.line_items_created}", command.id, product, quantity),
                )
        execute("COMMIT")
    except sqlite3.IntegrityError as error:
        execute("ROLLBACK")
        raise Rejected(f"{command}: {error}") from None
    return store


def _sqlite_reset(store: SQLiteStore, _: Any, block: Sequence[Command]) -> SQLiteStore:
    execute = store.connection.execute
    execute("BEGIN")
    for command in block:
        if command.kind == "order":
            execute("DELETE FROM line_item WHERE order_number = ?", (command.id,))
            execute("DELETE FROM orders WHERE order_number = ?", (command.id,))
    for command in block:
        if command.kind == "customer":
            execute("DELETE FROM customer WHERE email = ?", (command.id,))
    execute("COMMIT")
    return store


def _sqlite_snapshot(store: SQLiteStore) -> object:
    copy = sqlite3.connect(":memory:")
    store.connection.backup(copy)
    return copy


def _to_loaded(_: Any, loaded: Any, __: Sequence[Command]) -> Any:
    return loaded


def candidate(name: str) -> Candidate:
    """The candidate called ``name``; arest is imported only in the process measuring it."""
    if name == "arest":
        return Candidate(
            "arest",
            _arest_empty,
            _arest_load,
            _arest_prepare,
            _arest_step,
            _to_loaded,
            _arest_snapshot,
            snapshots_per_size=lambda plan: plan.snapshots,
        )
    if name == "persistent":
        return Candidate(
            "persistent",
            _persistent_empty,
            _persistent_load,
            _same_command,
            _persistent_step,
            _to_loaded,
            _persistent_snapshot,
            snapshots_per_size=lambda plan: plan.snapshots,
        )
    if name == REPRESENTED:
        return Candidate(
            REPRESENTED,
            _represented_empty,
            _represented_load,
            _represented_prepare,
            _represented_step,
            _to_loaded,
            _persistent_snapshot,
            snapshots_per_size=lambda plan: plan.snapshots,
        )
    if name == "dict":
        return Candidate(
            "dict", _dict_empty, _dict_load, _same_command, _dict_step, _dict_reset, _dict_snapshot
        )
    if name == "SQLite":
        return Candidate(
            "SQLite",
            _sqlite_empty,
            _sqlite_load,
            _same_command,
            _sqlite_step,
            _sqlite_reset,
            _sqlite_snapshot,
        )
    raise ValueError(f"unknown candidate {name!r}; expected one of {', '.join(CANDIDATES)}")


# measuring -----------------------------------------------------------------------------


def _log(name: str, size: int, setting: str, message: str) -> None:
    print(f"  [{name}, |P| {size:,}, gc {setting}] {message}", file=sys.stderr, flush=True)


def run_blocks(
    kind: Candidate, loaded: Any, plan: Plan, work: Sequence[Command]
) -> tuple[Any, list[int]]:
    """Time every command of ``work``, returning the store to ``loaded`` after each block."""
    samples: list[int] = []
    store = loaded
    for block in blocks(work, plan.block):
        prepared = [kind.prepare(command) for command in block]
        store, timed = time_fold(kind.step, store, prepared, CLOCKS[plan.clock])
        samples += timed
        store = kind.reset(store, loaded, block)
    return store, samples


def measure(name: str, size: int, setting: str, plan: dict[str, Any]) -> dict[str, Any]:
    """Load, warm up and time one candidate at one size and GC setting; run by ``main`` in a
    fresh process.  Creates alternate Customer, Order, so even samples are Customers."""
    p = Plan(**{**plan, "sizes": tuple(plan["sizes"])})
    kind = candidate(name)
    people = population(size, p.seed)
    _log(name, size, setting, "bulk load")
    gc.collect()
    empty = kind.empty()
    gc.collect()
    start = time.perf_counter_ns()
    state = kind.load(empty, people)
    load_ns = time.perf_counter_ns() - start
    if name == "arest" and size <= FULLY_VALIDATED_UP_TO:
        _arest_full_check(state)
    customers = people.customers
    del people
    gc.collect()
    if setting == "frozen":
        gc.freeze()
    try:
        _log(name, size, setting, f"{p.warmup:,} + {p.creates:,} creates of each kind")
        warmup = commands(p, customers, p.warmup, start=0)
        state, _ = run_blocks(kind, state, p, warmup)
        timed = commands(p, customers, p.creates, start=p.warmup)
        state, samples = run_blocks(kind, state, p, timed)
        snapshots = time_calls(lambda: kind.snapshot(state), kind.snapshots_per_size(p))
    finally:
        gc.unfreeze()
    return {
        "candidate": name,
        "size": size,
        "gc": setting,
        "load_s": load_ns / 1e9,
        "customer": summarize(samples[0::2]).as_dict(),
        "order": summarize(samples[1::2]).as_dict(),
        "snapshot": summarize(snapshots).as_dict(),
        "timer_floor_ns": timer_overhead_ns(),
    }


def profile(size: int, creates: int, plan: dict[str, Any]) -> str:
    """cProfile of arest's creates (``creates`` of each kind, default GC) at one size: the
    top functions by cumulative and by own time."""
    p = Plan(**{**plan, "sizes": tuple(plan["sizes"])})
    kind = candidate("arest")
    people = population(size, p.seed)
    loaded = kind.load(kind.empty(), people)
    customers = people.customers
    del people
    run_blocks(kind, loaded, p, commands(p, customers, p.warmup, start=0))
    work = commands(p, customers, creates, start=p.warmup)
    profiler = cProfile.Profile()
    profiler.enable()
    run_blocks(kind, loaded, p, work)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    for order in ("cumulative", "tottime"):
        print(f"\n### by {order}", file=out)
        stats.sort_stats(order).print_stats(35)
    return out.getvalue()


PARTS = ("apply", "parse", "resolve", "derive", "triggered", "validate", "represent",
         "next actions", "effects", "governed")
COMPILED_PARTS = ("compiled resolve", "compiled derive", "compiled validate",
                  "compiled represent", "flat create")
"""The steps of a create compiled per schema, noun and input keys
(``arest.system.compiled_create``), in a tree that has it: writing the relations and
populations (the machine's start too), the derivation of a create that is not quiet, the
woken checks, the representation from the noun's link template (in a tree whose plan holds
the rest of a create that is not quiet, an Order's too); in a tree whose plans have a
straight-line create for flat input (``arest.system.flat_create``), that create whole
(writes, checks, representation and output), which a Customer's create takes instead of
the three steps before."""


def parts(size: int, creates: int, plan: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Each step of arest's create timed alone, per kind, by the CPU clock: each step called
    three times on the same state and the fastest kept, then the quarter quantile over
    ``creates`` commands (µs).  ``apply`` is the whole command; ``resolve`` the ``Change``,
    ``create_entity`` and the machines' start; ``derive`` ``settle``; ``validate`` the woken
    constraints; ``governed`` the protected-cells check of the state the command reached;
    in a tree with the compiled create, its steps too (:data:`COMPILED_PARTS`)."""
    from functools import partial

    import arest
    from arest.compiler.change import Change, Delta
    from arest.compiler.population import role_nouns
    from arest.system import entity_verbs, evolution
    from arest.system.commands import parse_key
    from arest.system.context import read_context
    from arest.system.entities import represent
    from arest.system.machines import effects, next_actions, start, triggered
    from arest.system.validate import violations

    try:
        from arest.system import compiled_create
    except ImportError:
        compiled_create = None  # type: ignore[assignment]
    p = Plan(**{**plan, "sizes": tuple(plan["sizes"])})
    people = population(size, p.seed)
    state = _arest_load(_arest_empty(), people)
    context = read_context(None)

    def resolve(target: str, request: dict[str, Any]) -> tuple[Any, str]:
        change = Change(state)
        entity = entity_verbs.create_entity(change, target, dict(request), "$")
        start(change)
        return change, entity

    def written(target: str, request: dict[str, Any]) -> Any:
        plans = compiled_create.plans_for(state)
        compiled_plan = plans.plan(state, target, frozenset(request))
        writer = compiled_create._Writer(state, plans)
        entity, quiet, values = writer.entity(compiled_plan, request)
        return compiled_plan, state.update(writer.cells), writer.delta, entity, quiet, values

    def compiled_derive(wrote: Any, delta: Any) -> Any:
        """``settled`` on a copy of the written delta, which it changes in place."""
        copy = Delta(added=dict(delta.added), removed=dict(delta.removed),
                     entities=delta.entities)
        return entity_verbs.settled(state, wrote, copy, partial(role_nouns, wrote))

    out: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        timed: dict[str, list[int]] = {part: [] for part in PARTS}
        work = [c for c in commands(p, people.customers, creates, start=p.warmup)
                if c.kind == kind]
        for key, request in map(_arest_prepare, work):
            command = parse_key(key, request)
            change, entity = resolve(command.target, request)
            reached, delta, _ = entity_verbs.settle(state, change)
            _, after = arest.apply(state, key, request)
            steps: list[tuple[str, Callable[..., object], tuple[Any, ...]]] = [
                ("apply", arest.apply, (state, key, request)),
                ("parse", parse_key, (key, request)),
                ("resolve", resolve, (command.target, request)),
                ("derive", entity_verbs.settle, (state, change)),
                ("triggered", triggered, (reached, delta.added)),
                ("validate", violations, (reached, delta)),
                ("represent", represent, (reached, command.target, entity)),
                ("next actions", next_actions, (reached, command.target, entity)),
                ("effects", effects, (reached, [], delta.added)),
                ("governed", evolution.governed, (state, after, command, context)),
            ]
            if compiled_create is not None:
                plan_, wrote, wrote_delta, _, quiet, values = written(command.target, request)
                steps += [
                    ("compiled resolve", written, (command.target, request)),
                    ("compiled validate", compiled_create._validated,
                     (compiled_create.plans_for(state), plan_, wrote, wrote_delta)),
                ]
                tail = getattr(plan_, "compiled_tail", False)
                if tail and not quiet:
                    steps.append(("compiled derive", compiled_derive, (wrote, wrote_delta)))
                if quiet or tail:
                    shown = (plan_, entity, values, wrote) if tail else (plan_, entity, values)
                    steps.append(("compiled represent", compiled_create._represented, shown))
                flat = getattr(plan_, "flat", None)
                if flat is not None:
                    steps.append(("flat create", flat.create, (state, request)))
            for part, step, arguments in steps:
                timed.setdefault(part, []).append(_fastest_of_3(step, arguments))
        out[kind] = {part: sorted(t)[len(t) // 4] / 1e3 if t else float("nan")
                     for part, t in timed.items()}
    return out


def _fastest_of_3(step: Callable[..., object], arguments: tuple[Any, ...]) -> int:
    """The least CPU time, ns, of three calls of step(*arguments)."""
    fastest = None
    for _ in range(3):
        begin = time.thread_time_ns()
        step(*arguments)
        took = time.thread_time_ns() - begin
        fastest = took if fastest is None else min(fastest, took)
    assert fastest is not None
    return fastest


# reporting -----------------------------------------------------------------------------


def machine_facts(plan: Plan) -> dict[str, str]:
    """Interpreter, cores, SQLite version and the run's counts."""
    return {
        **interpreter_facts(),
        "sqlite": sqlite3.sqlite_version,
        "gc": f"default {gc.get_threshold()}; frozen: gc.freeze() after the bulk load",
        "creates": f"{plan.creates:,} of each kind timed after {plan.warmup:,} of each kind, "
        f"in blocks of {plan.block} commands (≤ {plan.block_facts} facts above |P|), "
        f"{plan.clock} clock",
    }


def _row_name(name: str, setting: str) -> str:
    return name if setting == "default" else f"{name}, gc.freeze()"


def report(results: list[dict[str, Any]], plan: Plan) -> str:
    """The Markdown tables: bulk load, creates per size, snapshots, and the budget."""
    by = {(r["candidate"], r["size"], r["gc"]): r for r in results}
    sizes = sorted({r["size"] for r in results})
    names = [n for n in CANDIDATES if any(r["candidate"] == n for r in results)]
    us = "{:,.1f}"
    out: list[str] = []

    rows: dict[str, dict[str, float | str | None]] = {}
    for name in names:
        rows[name] = {str(s): by[(name, s, "default")]["load_s"] for s in sizes}
    out.append("**Bulk load** (default GC), seconds\n")
    columns = [Column(str(s), f"|P| = {s:,}", "{:,.3f}") for s in sizes]
    out.append(format_table(rows, columns, BASELINE) + "\n")

    for size in sizes:
        rows = {}
        for setting in GC_SETTINGS:
            for name in names:
                r = by.get((name, size, setting))
                if r is None:
                    continue
                # Its Order is the plain persistent create: only its Customer has the output.
                rows[_row_name(name, setting)] = {
                    f"{kind}_{stat}": r[kind][f"{stat}_ns"] / 1e3
                    for kind in KINDS
                    for stat in ("median", "p99")
                    if kind == "customer" or name != REPRESENTED
                }
        out.append(
            f"**Create at |P| = {size:,}**, µs per create; ratios against SQLite, default GC\n"
        )
        columns = [
            Column("customer_median", "Customer median", us),
            Column("customer_p99", "Customer p99", us),
            Column("order_median", "Order + 2 LineItems median", us),
            Column("order_p99", "Order + 2 LineItems p99", us),
        ]
        out.append(format_table(rows, columns, BASELINE) + "\n")

    rows = {}
    for name in names:
        rows[name] = {
            str(s): by[(name, s, "default")]["snapshot"]["median_ns"] / 1e3 for s in sizes
        }
    counts = ", ".join(
        f"{name} {by[(name, sizes[0], 'default')]['snapshot']['count']:,}" for name in names
    )
    out.append(f"**Snapshot** (default GC), median µs per snapshot ({counts} calls per size)\n")
    columns = [Column(str(s), f"|P| = {s:,}", "{:,.1f}") for s in sizes]
    out.append(format_table(rows, columns, BASELINE) + "\n")

    out.append(budget(by, sizes))
    floor = max(r["timer_floor_ns"] for r in results)
    out.append(f"\nTiming floor (clock reading plus call, per sample): ≤ {floor:,.0f} ns.")
    return "\n".join(out)


def _verdict(holds: bool) -> str:
    return "yes" if holds else "**no**"


def budget(by: dict[tuple[str, int, str], dict[str, Any]], sizes: Sequence[int]) -> str:
    """arest's figures at the largest size against the budgets (each create's own: a Customer
    within 2× the persistent-map create, an Order within 150 µs), and against the baselines."""
    largest, smallest = sizes[-1], sizes[0]
    rows: dict[str, dict[str, float | str | None]] = {}
    for kind in KINDS:
        for setting in GC_SETTINGS:
            big = by.get(("arest", largest, setting))
            small = by.get(("arest", smallest, setting))
            if big is None or small is None:
                continue
            median, p99 = big[kind]["median_ns"] / 1e3, big[kind]["p99_ns"] / 1e3
            growth = big[kind]["median_ns"] / small[kind]["median_ns"]
            row: dict[str, float | str | None] = {
                "median": median,
                "p99": p99,
                "growth": format_ratio(growth),
                "median_ok": _verdict(median < BUDGET_MEDIAN_US),
                "p99_ok": _verdict(p99 < BUDGET_P99_US),
                "growth_ok": _verdict(growth <= BUDGET_GROWTH),
            }
            for name in ("SQLite", "dict", "persistent", REPRESENTED):
                base = by.get((name, largest, setting))
                row[name] = (
                    None
                    if base is None or (name == REPRESENTED and kind == "order")
                    else format_ratio(big[kind]["median_ns"] / base[kind]["median_ns"])
                )
            if kind == "order":
                row["own"] = f"{_verdict(median <= BUDGET_ORDER_US)} (≤ {BUDGET_ORDER_US:,.0f} µs)"
            else:
                verdicts = []
                for name in ("persistent", REPRESENTED):
                    base = by.get((name, largest, setting))
                    if base is not None:
                        ratio = big[kind]["median_ns"] / base[kind]["median_ns"]
                        verdicts.append(f"{_verdict(ratio <= BUDGET_CUSTOMER_PERSISTENT)}"
                                        f" (≤ 2× {name})")
                row["own"] = "; ".join(verdicts) or None
            label = "Customer" if kind == "customer" else "Order + 2 LineItems"
            rows[_row_name(label, setting)] = row
    columns = [
        Column("median", "median µs", "{:,.1f}", ratio=False),
        Column("p99", "p99 µs", "{:,.1f}", ratio=False),
        Column("median_ok", "median < 250 µs", ratio=False),
        Column("p99_ok", "p99 < 2 ms", ratio=False),
        Column("growth", f"median ÷ median at {smallest:,}", ratio=False),
        Column("growth_ok", "≤ 2×", ratio=False),
        Column("SQLite", "median × SQLite", ratio=False),
        Column("dict", "median × dict", ratio=False),
        Column("persistent", "median × persistent", ratio=False),
        Column(REPRESENTED, f"median × {REPRESENTED}", ratio=False),
        Column("own", "own budget", ratio=False),
    ]
    title = f"**Budget: arest at |P| = {largest:,}**\n"
    return title + "\n" + format_table(rows, columns, "", label="create") + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, measure each size, GC setting and candidate in its own process, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="|P| up to 1e4 only: smoke run")
    parser.add_argument("--sizes", default=None, help="comma-separated |P| values")
    parser.add_argument("--candidates", default=",".join(CANDIDATES), help="comma-separated subset")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall",
        help="time each create by the wall clock or by the process's CPU time",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    parser.add_argument(
        "--from-json", type=Path, default=None, help="print the tables of a saved run"
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=None,
        metavar="SIZE",
        help="print a cProfile of arest's creates at |P| = SIZE and measure nothing else",
    )
    parser.add_argument(
        "--profile-creates", type=int, default=500, help="creates of each kind to profile"
    )
    parser.add_argument(
        "--parts",
        type=int,
        default=None,
        metavar="SIZE",
        help="time each step of arest's creates alone at |P| = SIZE (CPU µs) and nothing else",
    )
    options = parser.parse_args(argv)
    if options.from_json is not None:
        saved = json.loads(options.from_json.read_text())
        plan = Plan(**{**saved["plan"], "sizes": tuple(saved["plan"]["sizes"])})
        print("\n".join(f"- {key}: {value}" for key, value in saved["machine"].items()))
        print()
        print(report(saved["results"], plan))
        return
    plan = Plan().quick() if options.quick else Plan()
    if options.sizes is not None:
        plan = replace(plan, sizes=tuple(int(s) for s in options.sizes.split(",")))
    plan = replace(plan, clock=options.clock)
    if options.profile is not None:
        arguments = {
            "size": options.profile,
            "creates": options.profile_creates,
            "plan": asdict(plan),
        }
        print(run_isolated(Path(__file__), "profile", arguments))
        return
    if options.parts is not None:
        arguments = {"size": options.parts, "creates": 200, "plan": asdict(plan)}
        found = run_isolated(Path(__file__), "parts", arguments)
        rows = {kind: found[kind] for kind in KINDS}
        shown = [part for part in (*PARTS, *COMPILED_PARTS)
                 if any(part in found[kind] for kind in KINDS)]
        columns = [Column(part, part, "{:,.1f}", ratio=False) for part in shown]
        print(format_table(rows, columns, "", label="create"))
        return
    names = [name.strip() for name in options.candidates.split(",")]
    for name in names:
        candidate(name)

    facts = machine_facts(plan)
    print("\n".join(f"- {key}: {value}" for key, value in facts.items()), file=sys.stderr)
    if REPRESENTED in names:
        arguments = {"size": min(plan.sizes), "plan": asdict(plan)}
        checked = run_isolated(Path(__file__), "same_output", arguments)
        facts["same output"] = (
            f"{REPRESENTED} and arest: {checked['equal']} equal Customer outputs, both refuse"
            f" {checked['refused']} inputs (|P| = {min(plan.sizes):,})")
        print(f"- same output: {facts['same output']}", file=sys.stderr)
    results = []
    for size in plan.sizes:
        for setting in GC_SETTINGS:
            for name in names:
                arguments = {"name": name, "size": size, "setting": setting, "plan": asdict(plan)}
                results.append(run_isolated(Path(__file__), "measure", arguments))
    publish(facts, asdict(plan), results, report(results, plan), options.json)


if __name__ == "__main__":
    main()
