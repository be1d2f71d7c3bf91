"""Where an answer's facts came from, when some were fetched from external systems (DESIGN §13).

    marked(D, command, out, fetches) = out, with
        "source": {system, url, fetched_at}   on each entity, row, search result or document
                                              that came from a fetch
        "depends_on": [source, …]             on each derived fact (a row, an explanation
                                              node) and each local entity whose derived
                                              fields rest on fetched facts
        a fetch leaf under each fetched fact  in an explanation: ``{"source", "reading",
                                              "derived": false, "antecedents": []}``

D is the joined D the command ran on (:func:`arest.system.federated.joined_all`), and each
fetch names the noun, the entities and the asserted facts that came from one request.

>>> tree = {"fact_type": "Customer_has_Name", "bindings": {"Customer": "acme", "Name": "Acme"},
...         "reading": "Customer 'acme' has Name 'Acme'.", "derived": False, "antecedents": []}
>>> crm = Fetch("Customer", frozenset({"acme"}),
...             frozenset({("Customer_has_Name", ("acme", "Acme"))}),
...             {"system": "crm", "url": "https://crm.test/customers/acme", "fetched_at": "t"})
>>> marked({}, Command("explain", "", None), tree, [crm])["antecedents"][0]["reading"]
'Fetched from crm: https://crm.test/customers/acme, at t.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arest.algebra import State
from arest.algebra.relations import Fact, Relation
from arest.compiler.links import RELATED
from arest.compiler.population import role_nouns
from arest.system.commands import Command
from arest.system.derive import is_derived
from arest.system.entities import fields
from arest.system.explain import asserted_under
from arest.system.inputs import role_names
from arest.system.links import followed

Output = dict[str, Any]
Key = tuple[str, Fact]
Source = Mapping[str, str]


@dataclass(frozen=True, eq=False)
class Fetch:
    """What one request to an external system gave a command."""

    noun: str
    ids: frozenset[str]
    """The entities it gave."""
    facts: frozenset[Key]
    """The asserted facts it gave (those D held already are local)."""
    source: Source
    """``{"system", "url", "fetched_at"}``."""


@dataclass(frozen=True)
class _Found:
    state: State
    entities: dict[tuple[str, str], Source]
    facts: dict[Key, Source]

    def depends_on(self, keys: Sequence[Key]) -> list[Source]:
        """The fetches the derived facts among keys rest on, by URL."""
        sources: dict[str, Source] = {}
        for fact_type, fact in keys:
            relation = self.state.get(fact_type)
            if isinstance(relation, Relation) and is_derived(relation.payload(fact)):
                for under in asserted_under(self.state, fact_type, fact):
                    if under in self.facts:
                        sources.setdefault(self.facts[under]["url"], self.facts[under])
        return [sources[url] for url in sorted(sources)]


def marked(state: State, command: Command, out: Output, fetches: Sequence[Fetch]) -> Output:
    """The output with the marks of the module."""
    if "error" in out:
        return out
    found = _Found(state, {(f.noun, entity): f.source for f in fetches for entity in f.ids},
                   {key: f.source for f in fetches for key in f.facts})
    if command.verb == "explain":
        _explained(out, found.facts, {})
        return out
    if isinstance(out.get("results"), list):  # search
        return {**out, "results": [_result(result, found) for result in out["results"]]}
    if isinstance(out.get("metadata"), dict):  # fetch
        source = found.entities.get((out["metadata"].get("noun"),
                                     out["metadata"].get("entityId")))
        return out if source is None else {**out, "source": source}
    if isinstance(out.get("items"), list):
        return {**out, "items": [_entity(item, found) for item in out["items"]]}
    if isinstance(out.get("rows"), list):
        fact_type = _rows_fact_type(state, command)
        projected = _projected_noun(state, command)
        return {**out, "rows": [_row(row, fact_type, projected, found) for row in out["rows"]]}
    entity: Output = _entity(out, found)
    return entity


def _entity(entity: Any, found: _Found) -> Any:
    """An entity representation with its source, or the fetches its derived fields rest on."""
    if not isinstance(entity, dict) or not isinstance(entity.get("noun"), str) or (
            not isinstance(entity.get("id"), str)):
        return entity
    noun, key = entity["noun"], entity["id"]
    source = found.entities.get((noun, key))
    shown: list[Key] = []
    for field in fields(found.state, noun):
        relation = found.state.get(field.fact_type)
        if isinstance(relation, Relation):
            shown.extend((field.fact_type, fact) for fact in relation.matching(field.role, key))
    depends = [each for each in found.depends_on(shown) if each != source]
    marks: Output = {}
    if source is not None:
        marks["source"] = source
    if depends:
        marks["depends_on"] = depends
    return {**entity, **marks} if marks else entity


def _rows_fact_type(state: State, command: Command) -> str | None:
    """The fact type whose facts a command's rows are (None for a projection's rows)."""
    if command.verb == "query":
        return command.target
    if command.verb == "navigate" and isinstance(command.input, dict):
        for link in followed(state, command.target):
            if link.key == command.input.get("link") and link.rel == RELATED:
                return link.fact_type
    return None


def _projected_noun(state: State, command: Command) -> str | None:
    """The noun whose entities a projection's rows are (their ``id``), if any."""
    request = command.input
    if command.verb != "project" or not isinstance(request, dict):
        return None
    named = request.get("noun", request.get("fact_type"))
    return named if isinstance(named, str) and not role_nouns(state, named) else None


def _row(row: Any, fact_type: str | None, projected: str | None, found: _Found) -> Any:
    """A row with its source when its fact (or, for a projection's row, an entity in it) was
    fetched, and the fetches a derived fact rests on."""
    if not isinstance(row, dict):
        return row
    if fact_type is None:
        sources = [found.entities[(str(projected) if name == "id" else name, value)]
                   for name, value in row.items() if isinstance(value, str) and (
                       str(projected) if name == "id" else name, value) in found.entities]
        return {**row, "source": sources[0]} if sources else row
    names = role_names(role_nouns(found.state, fact_type))
    if not all(isinstance(row.get(name), str) for name in names):
        return row
    key = (fact_type, tuple(row[name] for name in names))
    if key in found.facts:
        return {**row, "source": found.facts[key]}
    depends = found.depends_on([key])
    return {**row, "depends_on": depends} if depends else row


def _result(result: Any, found: _Found) -> Any:
    """A search result (``{"id": "Noun:id", …}``) with its source when it was fetched."""
    if not isinstance(result, dict) or not isinstance(result.get("id"), str):
        return result
    noun, _, entity = result["id"].partition(":")
    source = found.entities.get((noun, entity))
    return result if source is None else {**result, "source": source}


def _explained(node: Output, facts: dict[Key, Source], seen: dict[int, list[Source]]
               ) -> list[Source]:
    """Mark an explanation in place: a fetched fact rests on its fetch (a leaf), a derived
    fact says the fetches it depends on; the fetches under the node, by URL."""
    if id(node) in seen:
        return seen[id(node)]
    bindings = node.get("bindings")
    key = (str(node.get("fact_type")),
           tuple(bindings.values()) if isinstance(bindings, dict) else ())
    source = facts.get(key) if not node.get("derived") else None
    if source is not None:
        node["antecedents"] = [{
            "source": source,
            "reading": f"Fetched from {source['system']}: {source['url']}, at "
                       f"{source['fetched_at']}.",
            "derived": False, "antecedents": []}]
        under = [source]
    else:
        by_url: dict[str, Source] = {}
        for child in node.get("antecedents", ()):
            for each in _explained(child, facts, seen):
                by_url.setdefault(each["url"], each)
        under = [by_url[url] for url in sorted(by_url)]
        if node.get("derived") and under:
            node["depends_on"] = under
    seen[id(node)] = under
    return under
