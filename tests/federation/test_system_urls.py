"""An external system's URL is judged as the readings are read: http(s), a host, no
credentials (where it resolves is the runtime's to check, at each request)."""

from __future__ import annotations

import pytest

import arest
from arest.api import ReadingError

BACKED = """Customer(.Customer Id) is an entity type.
Noun 'Customer' is backed by External System 'crm'.
External System 'crm' has URL '{url}'.
"""


@pytest.mark.parametrize("url", ["https://crm.example.com", "http://10.0.0.5:8080/api"])
def test_an_http_url_is_read(url: str) -> None:
    D = arest.compile(BACKED.format(url=url))
    rows = arest.apply(D, "query:External_System_has_URL")[0]["rows"]
    assert [row["URL"] for row in rows] == [url]


@pytest.mark.parametrize(("url", "said"), [
    ("file:///etc/passwd", "http or https"),
    ("gopher://crm.example.com", "http or https"),
    ("https://", "names a host"),
    ("https://bob:hunter2@crm.example.com", "AREST_SECRET_<SYSTEM>"),
    ("https://crm.example.com:port", "not a URL"),
])
def test_any_other_url_is_a_reading_error(url: str, said: str) -> None:
    with pytest.raises(ReadingError, match="External System 'crm' has URL") as caught:
        arest.compile(BACKED.format(url=url))
    assert said in str(caught.value)
