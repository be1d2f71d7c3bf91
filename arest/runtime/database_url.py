"""What a ``--db`` names: ``:memory:``, a SQLite file, or a tenant in PostgreSQL.

A PostgreSQL URL is libpq's (``postgresql://user:password@host:port/database?…``) with one
parameter of arest's own, ``tenant``: the schema that holds the tenant (``arest`` when
absent), so that several tenants share one database.  It is taken out before the URL
reaches libpq, and messages show the URL without its password.
"""

from __future__ import annotations

import re
from typing import TypeGuard
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from arest.runtime.integrity import StorageError

DEFAULT_TENANT = "arest"
"""The schema a URL without a ``tenant`` parameter names."""

TENANT_NAME = re.compile(r"[a-z][a-z0-9_]{0,49}")
"""A tenant's name: a lower-case letter, then up to 49 letters, digits or underscores (a
PostgreSQL identifier that needs no quoting, with room for the channel's prefix)."""


def is_postgresql(db: object) -> TypeGuard[str]:
    """Whether a ``--db`` names PostgreSQL rather than a SQLite file.

    >>> is_postgresql("postgresql://app@db.example.com/shop"), is_postgresql("shop.db")
    (True, False)
    """
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def split_tenant(url: str) -> tuple[str, str]:
    """The libpq URL without its ``tenant`` parameter, and the tenant's name.

    >>> split_tenant("postgresql://app@/shop?host=%2Frun%2Fpg&tenant=east")
    ('postgresql://app@/shop?host=%2Frun%2Fpg', 'east')
    >>> split_tenant("postgresql://app@db/shop")
    ('postgresql://app@db/shop', 'arest')
    """
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    names = [value for key, value in query if key == "tenant"]
    if len(names) > 1:
        raise StorageError(f"{shown(url)}: names {len(names)} tenants; give one ?tenant=NAME")
    name = names[0] if names else DEFAULT_TENANT
    if not TENANT_NAME.fullmatch(name) or name.startswith("pg_"):
        raise StorageError(
            f"{shown(url)}: the tenant {name!r} is not a usable name: expected a lower-case"
            " letter, then up to 49 lower-case letters, digits or underscores (not pg_…),"
            " e.g. ?tenant=shop")
    rest = urlencode([(key, value) for key, value in query if key != "tenant"],
                     quote_via=quote)  # libpq decodes %20, not +
    return urlunsplit(parts._replace(query=rest)), name


def shown(url: str) -> str:
    """The URL as messages show it: without its password (in the address or a parameter).

    >>> shown("postgresql://app:secret@db.example.com:5432/shop?tenant=east")
    'postgresql://app@db.example.com:5432/shop?tenant=east'
    >>> shown("postgresql://db/shop?password=secret&tenant=east")
    'postgresql://db/shop?tenant=east'
    """
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}@" if parts.username else ""
    query = [(key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True)
             if key != "password"]
    return urlunsplit(parts._replace(netloc=user + host,
                                     query=urlencode(query, quote_via=quote)))


def with_tenant(url: str, name: str) -> str:
    """The URL naming the tenant ``name`` in the same PostgreSQL database (its ``tenant``
    parameter replaced); :class:`StorageError` for an unusable name.

    >>> with_tenant("postgresql://app@db/shop?sslmode=require&tenant=east", "west")
    'postgresql://app@db/shop?sslmode=require&tenant=west'
    """
    libpq, _ = split_tenant(url)
    parts = urlsplit(libpq)
    query = "&".join(part for part in (parts.query, urlencode({"tenant": name})) if part)
    named = urlunsplit(parts._replace(query=query))
    split_tenant(named)  # the name's check
    return named
