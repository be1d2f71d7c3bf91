"""What a reading may say an external system's URL is (DESIGN §13), checked as it is read.

    url_problem(url) = None                 for http(s)://host[:port][/path], no credentials
                     = what is wrong with it otherwise

Only the shape is judged here: where the host resolves to, and whether the operator allows
that address, are the runtime's to check at each request (``arest/runtime/outbound.py``).
Credentials never belong in a URL: the readings, and so D, the journal and snapshots, would
keep them; a system's secret comes from ``AREST_SECRET_<SYSTEM>``.

>>> url_problem("https://crm.example.com/api") is None
True
>>> print(url_problem("file:///etc/passwd"))
file:///etc/passwd: an external system's URL is http or https (e.g. 'https://crm.example.com')
>>> print(url_problem("https://bob:hunter2@crm.example.com"))  # doctest: +ELLIPSIS
an external system's URL holds no user nor password (...): ... AREST_SECRET_<SYSTEM>, ...
"""

from __future__ import annotations

from urllib.parse import urlsplit

EXTERNAL_SYSTEM_URL = "External_System_has_URL"

_EXAMPLE = "(e.g. 'https://crm.example.com')"


def url_problem(url: str) -> str | None:
    """What keeps a URL from being an external system's, or None when it may be one."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        return f"{url}: not a URL {_EXAMPLE}"
    if parts.scheme not in ("http", "https"):
        return f"{url}: an external system's URL is http or https {_EXAMPLE}"
    if parts.username is not None or parts.password is not None:
        return ("an external system's URL holds no user nor password (the readings keep it"
                " in D and its journal): give the secret to the server as"
                " AREST_SECRET_<SYSTEM>, sent as Authorization: Bearer, or where a Header"
                " says {secret}")
    if not parts.hostname:
        return f"{url}: an external system's URL names a host {_EXAMPLE}"
    return None
