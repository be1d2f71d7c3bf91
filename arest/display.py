"""Rich display in Jupyter: small views of what a notebook holds — a D, an entity with its
links, an explanation tree, a state machine, a fact type's rows — each a value with the
command output it shows and a ``_repr_html_`` of escaped HTML tables; an explanation and a
machine show their picture (:mod:`arest.pictures`) above the table.

Every view is built through :func:`arest.api.apply`, so it shows what a caller of the API
sees; building one changes nothing (D is a value).  Text is always escaped: a name or a
value holding ``<`` or ``&`` shows as written.

>>> import arest
>>> D = arest.compile("Customer(.Name) is an entity type.\\nCustomer is active.\\n"
...                   "Customer 'a<b' is active.")
>>> view = entity(D, "Customer", "a<b")
>>> view.data["is active"], "a&lt;b" in view._repr_html_(), "a<b" in view._repr_html_()
(True, True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from typing import Any

from arest.algebra import State
from arest.api import apply
from arest.compiler.schema import schema_of
from arest.pictures import explanation_svg, guards, machine_svg
from arest.system.machines import machine_of

__all__ = ["EntityView", "ExplanationView", "MachineView", "RowsView", "StateView", "entity",
           "explanation", "machine", "rows", "state"]


def _text(value: Any) -> str:
    """A value as escaped text: strings as they are, anything else as its ``repr``."""
    return escape(value if isinstance(value, str) else repr(value))


def _table(header: Iterable[str], body: Iterable[Iterable[Any]], caption: str = "") -> str:
    """An HTML table with a header row, every cell escaped.

    >>> _table(["a"], [["<b>"]], "c&d")
    '<table><caption>c&amp;d</caption><tr><th>a</th></tr><tr><td>&lt;b&gt;</td></tr></table>'
    """
    head = "".join(f"<th>{_text(h)}</th>" for h in header)
    rows = "".join("<tr>" + "".join(f"<td>{_text(c)}</td>" for c in row) + "</tr>"
                   for row in body)
    caption_html = f"<caption>{_text(caption)}</caption>" if caption else ""
    return f"<table>{caption_html}<tr>{head}</tr>{rows}</table>"


def _refused(out: dict[str, Any]) -> str:
    """The error or rejection a command gave, as a line of HTML ("" when it gave none)."""
    if "error" in out:
        return f"<p><b>{_text(out['error'].get('code', 'error'))}</b>: " \
               f"{_text(out['error'].get('message', ''))}</p>"
    return ""


@dataclass(frozen=True)
class StateView:
    """A summary of D: per noun of the tenant's schema its entity count, per fact type its
    fact count, its constraints, rules and machines, and its snapshots."""

    schema: dict[str, Any]
    entities: dict[str, int]
    facts: dict[str, int]
    snapshots: tuple[str, ...]

    def _repr_html_(self) -> str:
        return "".join((
            _table(["noun", "kind", "entities"],
                   [[n["name"], n["kind"], self.entities.get(n["name"], "")]
                    for n in self.schema["nouns"]], "Nouns"),
            _table(["fact type", "reading", "facts"],
                   [[f["id"], f["readings"][0] if f["readings"] else "", self.facts[f["id"]]]
                    for f in self.schema["fact_types"]], "Fact types"),
            _table(["kind", "modality", "reading"],
                   [[c["kind"], c["modality"], c["reading"]] for c in self.schema["constraints"]],
                   "Constraints"),
            _table(["derives", "rule"], [[r["fact_type"], r["reading"]]
                                         for r in self.schema["rules"]], "Rules"),
            _table(["machine", "noun", "initial", "statuses"],
                   [[m["id"], m["noun"], ", ".join(m["initial"]), ", ".join(m["statuses"])]
                    for m in self.schema["machines"]], "Machines"),
            _table(["snapshot"], [[label] for label in self.snapshots], "Snapshots"),
        ))


def state(D: State) -> StateView:
    """The summary of D's tenant: its own nouns, fact types, constraints, rules and
    machines (``schema {}``), each entity type's entity count (terminal ones included), each
    fact type's fact count and the snapshots' labels.

    >>> import arest
    >>> D = arest.compile("Customer(.Name) is an entity type.\\nCustomer is active.\\n"
    ...                   "Customer 'acme' is active.")
    >>> view = state(D)
    >>> view.entities, view.facts
    ({'Customer': 1}, {'Customer_has_Name': 0, 'Customer_is_active': 1})
    """
    schema = apply(D, "schema", {})[0]
    entities = {
        n["name"]: apply(D, f"list:{n['name']}", {"include_terminal": True})[0].get("total", 0)
        for n in schema["nouns"] if n["kind"] != "value"}
    facts = {f["id"]: apply(D, f"query:{f['id']}")[0].get("total", 0)
             for f in schema["fact_types"]}
    snapshots = tuple(s["id"] for s in apply(D, "snapshots", {})[0].get("snapshots", []))
    return StateView(schema, entities, facts, snapshots)


@dataclass(frozen=True)
class EntityView:
    """An entity as ``read`` gives it: its fields and its links (``data``)."""

    data: dict[str, Any]

    def _repr_html_(self) -> str:
        refused = _refused(self.data)
        if refused:
            return refused
        fields = [[name, value] for name, value in self.data.items() if name != "_links"]
        links = [[key, link.get("rel", link.get("event", "")), link.get("href", "")]
                 for key, link in self.data.get("_links", {}).items()]
        title = f"{self.data.get('noun', '')} {self.data.get('id', '')}"
        return _table(["field", "value"], fields, title) + _table(
            ["link", "rel or event", "href"], links, "Links")


def entity(D: State, noun: str, id: str) -> EntityView:
    """The entity ``read:<noun>`` gives for id, with its links (a refusal shows as such)."""
    return EntityView(apply(D, f"read:{noun}", {"id": id})[0])


@dataclass(frozen=True)
class ExplanationView:
    """A fact's explanation tree as ``explain`` gives it (``data``): the fact, the rule
    that derives it, and each antecedent's own tree."""

    data: dict[str, Any]
    svg: str = ""
    """Its tree as a picture (empty for a refusal)."""

    def _repr_html_(self) -> str:
        return _refused(self.data) or f"{self.svg}<ul>{_node(self.data)}</ul>"


def _node(node: dict[str, Any]) -> str:
    """One fact of the tree as a list item, its antecedents nested under it."""
    rule = node.get("rule")
    how = f" <i>by {_text(rule['reading'])}</i>" if rule else (
        " <i>derived</i>" if node.get("derived") else " <i>asserted</i>")
    inner = "".join(_node(child) for child in node.get("antecedents", []))
    return f"<li>{_text(node.get('reading', ''))}{how}" + (
        f"<ul>{inner}</ul>" if inner else "") + "</li>"


def explanation(D: State, fact_type: str, bindings: Any) -> ExplanationView:
    """The explanation tree of a fact (``explain {fact_type, bindings}``)."""
    out = apply(D, "explain", {"fact_type": fact_type, "bindings": bindings})[0]
    return ExplanationView(out, "" if "error" in out else explanation_svg(out))


@dataclass(frozen=True)
class MachineView:
    """A state machine as the schema declares it (``data``): statuses and transitions, and
    its picture, an entity's current status highlighted."""

    data: dict[str, Any]
    svg: str = ""

    def _repr_html_(self) -> str:
        m = self.data
        rows = [[t["name"], t["event"], ", ".join(t["from"]), ", ".join(t["to"])]
                for t in m["transitions"]]
        return self.svg + _table(["transition", "event", "from", "to"], rows,
                      f"{m['noun']}: initial {', '.join(m['initial'])}; terminal "
                      f"{', '.join(m['terminal']) or 'none'}")


def machine(D: State, noun: str, id: str | None = None) -> MachineView:
    """The state machine of noun (``schema {"noun"}``), the status of the entity ``id``
    highlighted in its picture; a noun without one is a ``ValueError`` naming the nouns
    that have one."""
    found = apply(D, "schema", {"noun": noun})[0].get("machines", [])
    compiled = machine_of(D, noun)
    if not found or compiled is None:
        nouns = sorted(m["noun"] for m in apply(D, "schema", {})[0]["machines"])
        raise ValueError(f"{noun!r} has no state machine; these nouns have one: {nouns}")
    current = None if id is None else apply(D, f"get:{noun}", {"id": id})[0].get("status")
    return MachineView(found[0], machine_svg(compiled, current, guards(schema_of(D), noun)))


@dataclass(frozen=True)
class RowsView:
    """A fact type's facts as ``query`` gives them (``data``), one row each."""

    fact_type: str
    data: dict[str, Any]

    def _repr_html_(self) -> str:
        found = self.data.get("rows", [])
        header = list(dict.fromkeys(key for row in found for key in row))
        return _refused(self.data) or _table(
            header, [[row.get(key, "") for key in header] for row in found],
            f"{self.fact_type}: {self.data.get('total', 0)}")


def rows(D: State, fact_type: str) -> RowsView:
    """The facts of a fact type, asserted and derived (``query:<fact type>``)."""
    return RowsView(fact_type, apply(D, f"query:{fact_type}")[0])
