"""What a read fetches of the nouns external systems back (DESIGN §13).

    fetches(D, command) = { X ↦ id   | the command reads X's entity id alone }
                        ∪ { X ↦ None | the command reads X's collection }

for X backed (:mod:`arest.system.backed`).  A command reads X's entity for ``get:X id``,
``read:X id``, ``fetch {"id": "X:id"}``, ``navigate:X {id, …}``, and ``explain`` of one of X's
own asserted facts; X's collection for ``get:X``/``list:X``, ``project {noun: X}``,
``search`` (every backed noun) and a link of another entity to X's entities (``navigate``).
Besides, a command reading fact types F reads the collection of every backed noun whose own
facts F rests on: F itself and, through the rules deriving them, what they read, transitively
(``query:F``, ``project {fact_type: F}``, ``explain``, a link's fact type, the fields an
entity shows).  So ``get:Order o1`` fetches the customers when a rule derives one of its
fields from theirs.

>>> import arest
>>> from arest.system.commands import Command
>>> D = arest.compile("Customer(.Customer Id) is an entity type.\\nCustomer has Name.\\n"
...     "Order(.Order Id) is an entity type.\\nOrder was placed by Customer.\\n"
...     "Order is named.\\n"
...     "* Order is named iff Order was placed by some Customer and that Customer has some Name.\\n"
...     "Noun 'Customer' is backed by External System 'crm'.")
>>> fetches(D, Command("get", "Customer", "acme")), fetches(D, Command("list", "Customer"))
({'Customer': 'acme'}, {'Customer': None})
>>> fetches(D, Command("get", "Order", "o1")), fetches(D, Command("query", "Order_is_named"))
({'Customer': None}, {'Customer': None})
>>> fetches(D, Command("query", "Order_was_placed_by_Customer"))
{}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arest.algebra import State
from arest.compiler.cells import resolve_cell
from arest.compiler.links import PARENT, RELATED
from arest.compiler.population import role_nouns
from arest.system.backed import backed, federated
from arest.system.commands import Command
from arest.system.derive import program_of
from arest.system.entities import fields
from arest.system.errors import Refusal, invalid_input
from arest.system.inputs import bindings_fact, entity_id, fact_type_of
from arest.system.links import followed

Fetches = dict[str, str | None]


def rests_on(state: State, fact_types: Iterable[str]) -> set[str]:
    """The fact types, and every fact type the rules deriving them read, transitively."""
    reads: dict[str, set[str]] = {}
    for rule in program_of(state).rules():
        read = reads.setdefault(rule.fact_type, set())
        read.update(fact_type for fact_type, _ in rule.reads)
        read.update(fact_type for fact_type, _ in rule.antecedents)
    seen: set[str] = set()
    pending = list(fact_types)
    while pending:
        fact_type = pending.pop()
        if fact_type not in seen:
            seen.add(fact_type)
            pending.extend(reads.get(fact_type, ()))
    return seen


def owners(state: State, fact_types: Iterable[str]) -> set[str]:
    """The backed nouns whose own facts the fact types rest on."""
    return {role_nouns(state, fact_type)[0] for fact_type in rests_on(state, fact_types)
            if federated(state, fact_type)}


def fetches(state: State, command: Command) -> Fetches:
    """What the command reads of backed nouns (see the module); nothing for a command whose
    input is not one it takes (its own error is the answer)."""
    if not backed(state):
        return {}
    try:
        items, collections = _reads(state, command)
    except Refusal:
        return {}
    wanted: Fetches = {noun: None for noun in collections}
    for noun, entity in items.items():
        wanted.setdefault(noun, entity)
    return dict(sorted(wanted.items()))


def _reads(state: State, command: Command) -> tuple[dict[str, str], set[str]]:
    """The entities (noun ↦ id) and the collections (nouns) the command reads."""
    verb, noun, request = command.verb, command.target, command.input
    is_backed = set(backed(state))
    if verb in ("get", "read", "list", "fetch"):
        if verb == "fetch":
            noun, entity = _fetched(request)
        else:
            entity = _one(command)
        return _entity_reads(state, noun, entity, is_backed)
    if verb == "navigate":
        return _navigated(state, noun, request, is_backed)
    if verb == "query":
        return {}, owners(state, [noun])
    if verb == "project" and isinstance(request, dict):
        named = request.get("noun", request.get("fact_type"))
        if isinstance(named, str) and not role_nouns(state, named) and type(
                state.get(resolve_cell(named))) is tuple:
            return _entity_reads(state, named, None, is_backed)
        return {}, owners(state, [named]) if isinstance(named, str) else set()
    if verb == "explain":
        return _explained(state, request)
    if verb == "search":
        return {}, is_backed
    return {}, set()


def _entity_reads(state: State, noun: str, entity: str | None, is_backed: set[str]
                  ) -> tuple[dict[str, str], set[str]]:
    """X's entity (or collection), and what the fields it shows rest on."""
    others = owners(state, [field.fact_type for field in fields(state, noun)]) - {noun}
    if noun not in is_backed:
        return {}, others
    if entity is None:
        return {}, others | {noun}
    return {noun: entity}, others


def _navigated(state: State, noun: str, request: Any, is_backed: set[str]
               ) -> tuple[dict[str, str], set[str]]:
    """The entity navigated from, and what its link names."""
    if not isinstance(request, dict) or not isinstance(request.get("link"), str):
        return {}, set()
    entity = entity_id({"id": request.get("id")})
    links = [link for link in followed(state, noun)
             if link.key == request["link"] and link.rel != PARENT]
    items = {noun: entity} if noun in is_backed else {}
    if not links:
        return items, set()
    link = links[0]
    read = [link.fact_type]
    collections: set[str] = set()
    if link.rel != RELATED:
        read += [field.fact_type for field in fields(state, link.noun)]
        collections = {link.noun} & is_backed
    collections |= owners(state, read) - ({noun} if link.noun != noun else set())
    return items, collections


def _explained(state: State, request: Any) -> tuple[dict[str, str], set[str]]:
    """One of a backed noun's own asserted facts needs that entity alone; what else a fact
    rests on needs its nouns' collections."""
    fact_type, roles = fact_type_of(state, request)
    needed = owners(state, [fact_type])
    if rests_on(state, [fact_type]) == {fact_type} and needed:
        fact = bindings_fact(roles, request.get("bindings"))
        return {roles[0]: fact[0]}, set()
    return {}, needed


def _fetched(request: Any) -> tuple[str, str | None]:
    """The noun and id a ``fetch`` names (``"Noun:id"``)."""
    given = request.get("id") if isinstance(request, dict) else request
    noun, colon, entity = given.partition(":") if isinstance(given, str) else ("", "", "")
    if not (colon and noun and entity):
        raise invalid_input("$.id", '"Noun:entityId", a search result\'s id')
    return noun, entity


def _one(command: Command) -> str | None:
    """The id of the one entity a read names; None when it reads the whole collection
    (``list``, ``get`` without an id, as ``get`` itself decides)."""
    request = command.input
    if command.verb == "read" or (command.verb == "get" and request not in (None, {}) and not (
            isinstance(request, dict) and "id" not in request)):
        return entity_id(request)
    return None
