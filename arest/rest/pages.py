"""The REST surface as pages for a browser (``Accept: text/html``), rendered from the very
answers JSON clients get: a page is a function of the JSON answer, never a second read.

    page(state, path, answer) = the HTML of answer's body, the kind of page its path names

- every ``_links`` entry is a link (a templated one a small GET form), and every transition
  link (``{"href", "method", "event"}``) a button;
- a collection of a noun has a create form, an entity an update form, each generated from
  the noun's fields (:func:`~arest.rest.representations.noun_view`): a field with possible
  values (``The possible values of Format are …``) is a ``<select>`` of them;
- an error is its problem document, a rejection's violated readings listed.

The forms are not HTML form submissions: the page's script (``/_static/app.js``) sends each
as the JSON request the REST API takes, with the key the person entered (kept in the tab's
``sessionStorage``), and shows a problem's readings beside the form.  So the server has no
second write path and no cookie: every call bears its key, which decides what it may do.
Every text from the tenant is escaped (:func:`html.escape`); the page runs no inline script.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

from arest.algebra import State
from arest.compiler.fields import Field
from arest.compiler.schema import schema_of
from arest.rest.answer import Headers, Problem, Response, nouns_by_plural, segments
from arest.rest.representations import NounView, noun_view
from arest.rest.routes import RESERVED_SEGMENTS

HTML: Final = "text/html; charset=utf-8"
STATIC: Final = "_static"
"""The first path segment of the page's script and stylesheet (a reserved segment: no
noun's plural can be it)."""
ASSETS: Final[Mapping[str, str]] = {"app.js": "text/javascript; charset=utf-8",
                                    "app.css": "text/css; charset=utf-8"}
"""The files served under ``/_static/``, and their media types."""
SECURITY_HEADERS: Final[Headers] = (
    ("content-security-policy",
     "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
     " connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
    ("x-content-type-options", "nosniff"),
)
"""A page runs only the server's own script and style, and is framed by no other page."""


@dataclass(frozen=True)
class TextResponse:
    """A response whose body is text of a media type other than JSON (a page, the script,
    the stylesheet)."""

    status: int
    body: bytes
    media_type: str
    headers: Headers = field(default=())


# Content negotiation ------------------------------------------------------------------------

def _quality(ranges: Sequence[tuple[str, float]], media: str) -> float:
    """The quality the most specific matching range gives ``media`` (0 when none does)."""
    kind = media.split("/")[0] + "/*"
    for wanted in (media, kind, "*/*"):
        found = [q for name, q in ranges if name == wanted]
        if found:
            return max(found)
    return 0.0


def prefers_html(accept: str | None) -> bool:
    """Whether an ``Accept`` header ranks ``text/html`` above ``application/json`` by its
    q-values (a tie, ``*/*`` or no header keeps JSON).

    >>> prefers_html("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
    True
    >>> prefers_html("application/json"), prefers_html("*/*"), prefers_html(None)
    (False, False, False)
    >>> prefers_html("application/json;q=0.5, text/html"), prefers_html("text/html;q=0")
    (True, False)
    """
    if not accept:
        return False
    ranges: list[tuple[str, float]] = []
    for part in accept.split(","):
        name, *parameters = (piece.strip() for piece in part.split(";"))
        quality = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        ranges.append((name.lower(), quality))
    html_q = _quality(ranges, "text/html")
    return html_q > 0 and html_q > _quality(ranges, "application/json")


def asset(name: str) -> TextResponse | None:
    """The script or stylesheet ``/_static/<name>`` (package data), or None for any other
    name."""
    if name not in ASSETS:
        return None
    body = resources.files("arest.rest").joinpath("static", name).read_bytes()
    return TextResponse(200, body, ASSETS[name], (("cache-control", "no-cache"),
                                                   ("x-content-type-options", "nosniff")))


def tag_of(text: bytes) -> str:
    """The strong validator of a page: its own bytes decide it, so it differs from the JSON
    representation's."""
    return '"h' + hashlib.sha256(text).hexdigest()[:31] + '"'


def negotiated(state: State, path: str, response: Response, if_none_match: str | None
               ) -> TextResponse:
    """The page of a JSON answer to ``GET path``: same status, an ``ETag`` of the page's
    own where the answer has one (``If-None-Match`` naming it: 304), ``Vary: Accept``."""
    headers = [(name, value) for name, value in response.headers if name != "etag"]
    headers += [("vary", "Accept"), ("cache-control", "no-cache"), *SECURITY_HEADERS]
    if response.body is None:
        return TextResponse(response.status, b"", HTML, tuple(headers))
    text = page(state, path, response).encode()
    if any(name == "etag" for name, _ in response.headers):
        tag = tag_of(text)
        headers.append(("etag", tag))
        if if_none_match is not None and tag in [t.strip() for t in if_none_match.split(",")]:
            return TextResponse(304, b"", HTML, tuple(headers))
    return TextResponse(response.status, text, HTML, tuple(headers))


# Pages -----------------------------------------------------------------------------------

def e(text: object) -> str:
    """Text escaped for HTML content and attribute values.

    >>> e('<b title="x">&</b>')
    '&lt;b title=&quot;x&quot;&gt;&amp;&lt;/b&gt;'
    """
    return html.escape(str(text), quote=True)


def page(state: State, path: str, response: Response) -> str:
    """The HTML page of a JSON answer to ``GET path`` (see the module)."""
    body = response.body
    try:
        parts = segments(path.split("?")[0])
    except Problem:
        parts = ()
    plurals = nouns_by_plural(state)
    noun = plurals.get(parts[0]) if parts else None
    if response.status >= 400 and isinstance(body, dict):
        title, main = f"{response.status} {body.get('title', '')}", problem_html(body)
    elif not parts and isinstance(body, dict):
        title, main = "arest", "<h1>arest</h1>" + links_html(body.get("_links", {}))
    elif noun is not None and len(parts) == 1 and isinstance(body, dict) and "items" in body:
        view = noun_view(state, schema_of(state), noun)
        title, main = f"{view.plural}", collection_html(view, body)
    elif noun is not None and len(parts) == 2 and isinstance(body, dict) and "_links" in body:
        view = noun_view(state, schema_of(state), noun)
        title, main = f"{noun} {body.get('id', '')}", entity_html(view, body)
    else:
        title, main = path, f"<h1>{e(path)}</h1>" + value_html(body)
    return document(title, path, response.status, main)


def document(title: str, path: str, status: int, main: str) -> str:
    """The page around ``main``: the key form, a link home, the page's script and style."""
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{e(title)}</title>"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<link rel=\"stylesheet\" href=\"/{STATIC}/app.css\">"
        f"<script src=\"/{STATIC}/app.js\" defer></script></head>"
        f"<body data-status=\"{status}\" data-path=\"{e(path)}\">"
        "<header><a class=\"home\" href=\"/\">arest</a>"
        "<form id=\"key-form\" class=\"key\"><label>Key <input type=\"password\" name=\"key\""
        " autocomplete=\"off\"></label> <button type=\"submit\">Use key</button>"
        " <button type=\"button\" id=\"forget-key\">Forget key</button>"
        " <span id=\"key-state\"></span></form></header>"
        f"<main>{main}</main></body></html>\n")


def _href_safe(href: object) -> bool:
    """Whether an href is one a page may link to: a path of this server, or http(s)."""
    return isinstance(href, str) and (
        (href.startswith("/") and not href.startswith("//"))
        or href.startswith(("http://", "https://")))


def links_html(links: Mapping[str, Any]) -> str:
    """Every link of ``_links``: a transition a button, a templated link (``/search{?q}``)
    a GET form of its variables, any other an ``<a>``."""
    plain: list[str] = []
    buttons: list[str] = []
    for key, link in links.items():
        if not isinstance(link, dict) or not _href_safe(link.get("href")):
            continue
        if "event" in link:
            buttons.append(transition_html(key, link))
        elif link.get("templated"):
            plain.append(f"<li>{_templated(key, link['href'])}</li>")
        else:
            note = " ".join(str(link[k]) for k in ("rel", "noun", "protocol") if k in link)
            extra = f" data-protocol=\"{e(link['protocol'])}\"" if "protocol" in link else ""
            plain.append(f"<li><a href=\"{e(link['href'])}\" data-rel=\"{e(key)}\"{extra}>"
                         f"{e(key)}</a>{f' <small>{e(note)}</small>' if note else ''}</li>")
    out = f"<nav class=\"links\"><h2>Links</h2><ul>{''.join(plain)}</ul></nav>" if plain else ""
    if buttons:
        out += ("<section class=\"transitions\"><h2>Transitions</h2>"
                f"{''.join(buttons)}</section>")
    return out


def _templated(key: str, href: str) -> str:
    """A GET form for a templated link ``/path{?a,b}``: one input per variable."""
    action, _, variables = href.partition("{?")
    inputs = "".join(f"<label>{e(name)} <input name=\"{e(name)}\"></label> "
                     for name in variables.rstrip("}").split(",") if name)
    return (f"<form class=\"templated\" method=\"get\" action=\"{e(action)}\""
            f" data-rel=\"{e(key)}\">{inputs}<button type=\"submit\">{e(key)}</button></form>")


def transition_html(key: str, link: Mapping[str, Any]) -> str:
    """A transition link as a button: a form the script sends as ``{"event": …}``."""
    return (f"<form class=\"transition\" data-method=\"{e(link.get('method', 'POST'))}\""
            f" data-action=\"{e(link['href'])}\" data-send=\"all\">"
            f"<input type=\"hidden\" name=\"event\" value=\"{e(link['event'])}\""
            " data-shape=\"one\">"
            f"<button type=\"submit\" data-event=\"{e(link['event'])}\">{e(key)}</button>"
            "<div class=\"problem\" role=\"alert\"></div></form>")


def problem_html(body: Mapping[str, Any]) -> str:
    """A problem document: its title, detail and code, a rejection's violated readings, and
    the error's other fields."""
    violations = body.get("violations") or []
    readings = "".join(f"<li class=\"violation\">{e(v.get('reading', v))}</li>"
                       for v in violations if isinstance(v, dict))
    rest = {k: v for k, v in body.items()
            if k not in ("type", "title", "status", "detail", "code", "violations")}
    return (f"<section class=\"problem-page\"><h1>{e(body.get('status', ''))}"
            f" {e(body.get('title', ''))}</h1>"
            f"<p class=\"detail\">{e(body.get('detail', ''))}</p>"
            f"<p>code <code>{e(body.get('code', ''))}</code></p>"
            f"{f'<ul class=violations>{readings}</ul>' if readings else ''}"
            f"{value_html(rest) if rest else ''}</section>")


def value_html(value: Any) -> str:
    """Any JSON value: an object a definition list (its ``_links`` links), a list of flat
    objects a table, another list a list, a scalar its text."""
    if isinstance(value, dict):
        items = "".join(f"<dt>{e(k)}</dt><dd>{value_html(v)}</dd>"
                        for k, v in value.items() if k != "_links")
        links = value.get("_links")
        return (f"<dl>{items}</dl>" if items else "") + (
            links_html(links) if isinstance(links, dict) else "")
    if isinstance(value, list):
        if value and all(isinstance(v, dict) and not any(isinstance(x, (dict, list))
                                                         for x in v.values()) for v in value):
            return table_html(value)
        return "<ul>" + "".join(f"<li>{value_html(v)}</li>" for v in value) + "</ul>"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else e(value)


def table_html(rows: Sequence[Mapping[str, Any]]) -> str:
    """Flat objects as a table, a column per key."""
    columns = list(dict.fromkeys(k for row in rows for k in row))
    head = "".join(f"<th>{e(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{value_html(row.get(c))}</td>" for c in columns)
                   + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _self(item: Mapping[str, Any]) -> str | None:
    links = item.get("_links")
    link = links.get("self") if isinstance(links, dict) else None
    href = link.get("href") if isinstance(link, dict) else None
    return href if _href_safe(href) else None


def collection_html(view: NounView, body: Mapping[str, Any]) -> str:
    """A page of a noun's collection: each item's id a link to it, its status and fields,
    the page's links, and the create form (none where a fixed route has the segment, as
    ``POST /domain-changes`` proposes rather than creates)."""
    items = [item for item in body.get("items", []) if isinstance(item, dict)]
    columns = list(dict.fromkeys(k for item in items for k in item
                                 if k not in ("id", "noun", "_links")))
    rows = []
    for item in items:
        href = _self(item)
        name = f"<a href=\"{e(href)}\">{e(item.get('id'))}</a>" if href else e(item.get("id"))
        cells = "".join(f"<td>{value_html(item.get(c))}</td>" for c in columns)
        rows.append(f"<tr><td>{name}</td>{cells}</tr>")
    head = "".join(f"<th>{e(c)}</th>" for c in ["id", *columns])
    return (f"<h1>{e(view.plural)} <small>{e(view.name)}</small></h1>"
            f"<p class=\"total\">{e(body.get('total', len(items)))} in all</p>"
            f"<table class=\"items\"><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
            f"{links_html(body.get('_links', {}))}"
            f"{'' if view.plural in RESERVED_SEGMENTS else create_form(view)}")


def entity_html(view: NounView, entity: Mapping[str, Any]) -> str:
    """An entity: its status and fields, its links and transition buttons, the update form
    and a delete button."""
    href = _self(entity) or ""
    status = (f"<p class=\"status\">status <strong id=\"status\">{e(entity['status'])}"
              "</strong></p>") if "status" in entity else ""
    shown = {k: v for k, v in entity.items() if k not in ("id", "noun", "status", "_links")}
    parent = f"/{view.plural}"
    return (f"<h1>{e(view.name)} <span class=\"id\">{e(entity.get('id', ''))}</span></h1>"
            f"{status}{value_html(shown)}{links_html(entity.get('_links', {}))}"
            f"{update_form(view, entity, href)}"
            f"<form class=\"delete\" data-method=\"DELETE\" data-action=\"{e(href)}\""
            f" data-send=\"all\" data-then=\"{e(parent)}\"><button type=\"submit\">Delete"
            "</button><div class=\"problem\" role=\"alert\"></div></form>")


def _writable(view: NounView) -> list[Field]:
    return [f for f in view.fields if f.name != "status" and f.name not in view.derived]


def create_form(view: NounView) -> str:
    """The form of ``POST /<plural>``: the id and each writable field."""
    inputs = ["<label>id <input name=\"id\" data-shape=\"one\"></label>"]
    inputs += [field_input(view, f, None) for f in _writable(view)]
    return (f"<form class=\"create\" data-method=\"POST\" data-action=\"/{e(view.plural)}\""
            f" data-send=\"all\"><h2>New {e(view.name)}</h2>{''.join(inputs)}"
            "<button type=\"submit\">Create</button>"
            "<div class=\"problem\" role=\"alert\"></div></form>")


def update_form(view: NounView, entity: Mapping[str, Any], href: str) -> str:
    """The form of ``PATCH`` on the entity: each writable field with its current value;
    the script sends only the fields changed (an emptied one as null, which retracts)."""
    inputs = "".join(field_input(view, f, entity.get(f.name)) for f in _writable(view))
    return (f"<form class=\"update\" data-method=\"PATCH\" data-action=\"{e(href)}\""
            f" data-send=\"changes\"><h2>Change</h2>{inputs}"
            "<button type=\"submit\">Save</button>"
            "<div class=\"problem\" role=\"alert\"></div></form>")


def field_input(view: NounView, field_: Field, current: Any) -> str:
    """A field's input: a ``<select>`` of its possible values (several for a ``many``
    field), a text input (a textarea, a line per value, for ``many``), a true/false choice
    for a flag, JSON for a ``rows`` field; a mandatory field's label says so."""
    name, shape = field_.name, field_.shape
    label = e(name) + (" <small>(required)</small>" if name in view.mandatory else "")
    attributes = f"name=\"{e(name)}\" data-shape=\"{'json' if shape == 'rows' else shape}\""
    if shape == "flag":
        chosen = "" if current is None else ("true" if current else "false")
        control = f"<select {attributes}>{_options(['', 'true', 'false'], {chosen})}</select>"
    elif shape == "rows":
        text = "" if current is None else json.dumps(current, ensure_ascii=False)
        control = f"<textarea {attributes}>{e(text)}</textarea>"
    elif name in view.values:
        values = list(view.values[name])
        if shape == "many":
            chosen_many = set(current) if isinstance(current, list) else set()
            control = f"<select multiple {attributes}>{_options(values, chosen_many)}</select>"
        else:
            chosen_one = "" if current is None else str(current)
            control = f"<select {attributes}>{_options(['', *values], {chosen_one})}</select>"
    elif shape == "many":
        lines = "\n".join(map(str, current)) if isinstance(current, list) else ""
        control = f"<textarea {attributes}>{e(lines)}</textarea>"
    else:
        value = "" if current is None else str(current)
        control = f"<input {attributes} value=\"{e(value)}\">"
    return f"<label>{label} {control}</label>"


def _options(values: Sequence[str], chosen: set[str]) -> str:
    return "".join(f"<option value=\"{e(v)}\"{' selected' if v in chosen else ''}>"
                   f"{e(v) if v else '—'}</option>" for v in values)
