"""SQL names for nouns, fact types and predicates (DESIGN §10): lower snake case of the
words, at most 63 characters (PostgreSQL's limit, which it would otherwise apply by cutting
names silently)."""

from __future__ import annotations

import hashlib
import re

MAX_NAME = 63

_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[^\W_]+")


def snake(words: str) -> str:
    """The words in lower snake case, CamelCase boundaries and every run of other characters
    turned into one ``_``; at most :data:`MAX_NAME` characters (a longer name keeps its
    start and ends with 8 hex digits of its digest, so two long names stay apart).

    >>> snake("LineItem"), snake("Member Name"), snake("Logo URL"), snake("HTTPServer")
    ('line_item', 'member_name', 'logo_url', 'http_server')
    >>> snake("Order_was_placed_by_Customer")
    'order_was_placed_by_customer'
    >>> len(snake("Person witnessed Person marry at Place in Year " * 3))
    63
    """
    name = "_".join(word.lower() for word in _WORD.findall(_BOUNDARY.sub(" ", words)))
    if len(name) <= MAX_NAME:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    return f"{name[:MAX_NAME - 9]}_{digest}"


def predicate(reading: str, noun: str) -> str:
    """A reading's words after its first noun, a leading ``has`` dropped: what a column is
    named by when the role's noun alone would collide.

    >>> predicate("Category has parent Category", "Category")
    'parent Category'
    >>> predicate("Customer is a reseller", "Customer")
    'is a reseller'
    """
    rest = reading[len(noun):].strip() if reading.startswith(noun + " ") else reading
    return rest[4:] if rest.startswith("has ") else rest


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words each dialect reserves, or that some of its statements read as keywords: a name that
# is one of them is quoted.  Quoting more than needed is harmless; less would not parse.
_SHARED = _words("""
all analyze and as asc between both by case cast check collate column constraint create
cross current_date current_time current_timestamp default deferrable desc distinct do else
end except exists false fetch for foreign from full group having in initially inner
intersect into is isnull join left like limit natural not notnull null offset on or order
outer primary references returning right select table then to true union unique using
values when where window with
""")

SQLITE_KEYWORDS = _SHARED | _words("""
abort action add after alter always attach autoincrement before begin cascade commit
conflict current database deferred delete detach drop each escape exclude exclusive explain
fail filter first following generated glob groups if ignore immediate index indexed insert
instead key last match materialized no nothing nulls of others over partition plan pragma
preceding query raise range recursive regexp reindex release rename replace restrict
rollback row rows savepoint set temp temporary ties transaction trigger unbounded update
vacuum view virtual without
""")

POSTGRESQL_KEYWORDS = _SHARED | _words("""
analyse any array asymmetric authorization binary collation concurrently current_catalog
current_role current_schema current_user freeze grant ilike lateral leading localtime
localtimestamp only overlaps placing session_user similar some symmetric system_user
tablesample trailing user variadic verbose bigint bit boolean char character coalesce dec
decimal extract float greatest grouping inout int integer interval least national nchar
none normalize nullif numeric out overlay position precision real row setof smallint
substring time timestamp treat trim varchar
""")

_PLAIN = re.compile(r"[a-z_][a-z0-9_]*")


def quoted(name: str, dialect: str) -> str:
    """The name as the dialect must write it: bare when it is a plain lower-case name and not
    a keyword of the dialect, else in double quotes (a quote inside doubled).

    >>> quoted("line_item", "sqlite"), quoted("order", "sqlite"), quoted("user", "postgresql")
    ('line_item', '"order"', '"user"')
    >>> quoted("user", "sqlite"), quoted("2nd_place", "postgresql")
    ('user', '"2nd_place"')
    """
    keywords = POSTGRESQL_KEYWORDS if dialect == "postgresql" else SQLITE_KEYWORDS
    if _PLAIN.fullmatch(name) and name not in keywords:
        return name
    return '"' + name.replace('"', '""') + '"'
