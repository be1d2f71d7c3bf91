"""The hrefs of a tenant served under a path prefix (``/t/<tenant>``, DESIGN §11): every
path of the server that an answer names (an ``href`` of ``_links``, a search result's
``url``, the ``Location`` header) carries the prefix, so it resolves where the tenant is
served.  The answers are computed as at the root; this is the one place that moves them.

    prefixed(base, "/orders/o-1") = base + "/orders/o-1"
    prefixed(base, x)             = x     (x not a path of this server: "//host", "https:…")
"""

from __future__ import annotations

import re
from typing import Any, Final


def _is_link(key: str, holder: dict[str, Any]) -> bool:
    """Whether a key of a dict holds a link: an ``href`` (``_links``), or the ``url`` of a
    search or fetch result (which has a ``title`` beside it; an entity's fields never do)."""
    return key == "href" or (key == "url" and "title" in holder)


def prefixed(base: str, path: str) -> str:
    """The path under the prefix, when it is a path of this server (one leading slash).

    >>> prefixed("/t/shop", "/orders/o-1"), prefixed("/t/shop", "https://example.com/x")
    ('/t/shop/orders/o-1', 'https://example.com/x')
    >>> prefixed("", "/orders")
    '/orders'
    """
    return base + path if path.startswith("/") and not path.startswith("//") else path


def prefixed_links(base: str, value: Any) -> Any:
    """The value with every link (an ``href``, a result's ``url``, at any depth) prefixed;
    the value itself when the base is empty.

    >>> prefixed_links("/t/shop", {"id": "/x", "_links": {"self": {"href": "/orders/o%2F1"}}})
    {'id': '/x', '_links': {'self': {'href': '/t/shop/orders/o%2F1'}}}
    >>> prefixed_links("/t/shop", {"results": [{"url": "/orders/o-2", "title": "Order o-2"}]})
    {'results': [{'url': '/t/shop/orders/o-2', 'title': 'Order o-2'}]}
    """
    if not base:
        return value
    if isinstance(value, dict):
        return {key: prefixed(base, item) if isinstance(item, str) and _is_link(key, value)
                else prefixed_links(base, item) for key, item in value.items()}
    if isinstance(value, list):
        return [prefixed_links(base, item) for item in value]
    return value


_PAGE_PATH: Final = re.compile(rb'(\s(?:href|src|action|data-action)=")/(?!/)')
"""An attribute of a page naming a path of this server (values are escaped: no ``"``)."""


def prefixed_page(base: str, page: bytes) -> bytes:
    """The HTML page with every attribute naming a path of this server prefixed: the
    page's links, its script and style, its forms' targets.

    >>> prefixed_page("/t/shop", b'<a href="/orders/o-1">o</a><a href="//x.org/">x</a>')
    b'<a href="/t/shop/orders/o-1">o</a><a href="//x.org/">x</a>'
    """
    return _PAGE_PATH.sub(lambda found: found.group(1) + base.encode() + b"/", page)
