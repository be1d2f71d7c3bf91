"""A real browser for the tests: Debian's ``chromium`` driven through ``chromium-driver``
(selenium, pointed at the installed driver, so it never downloads one).

:func:`find_browser` finds the two programs (``AREST_CHROMIUM`` and ``AREST_CHROMEDRIVER``
name them, else the PATH). The policy is the PostgreSQL one (``tests/postgres.py``): when they
are absent the browser tests are skipped with one reason, and fail instead when ``CI=true`` or
``AREST_REQUIRE_BROWSER=1``, so a CI run never passes by skipping them. ``python -m
tests.browser`` prints the two programs, or the reason and exits 1 (``.ci/run`` installs them
then).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

INSTALL = "apt-get install chromium chromium-driver"


@dataclass(frozen=True)
class Browser:
    """The browser program and its driver."""

    chromium: Path
    driver: Path


def missing_reason(missing: list[str]) -> str:
    """The one reason the browser tests are skipped.

    >>> reason = missing_reason(["chromedriver"])
    >>> reason.startswith("no browser to test the pages in (chromedriver not found); ")
    True
    >>> reason.endswith("apt-get install chromium chromium-driver")
    True
    """
    return f"no browser to test the pages in ({', '.join(missing)} not found); {INSTALL}"


def find_browser(environ: Mapping[str, str]) -> Browser | str:
    """The installed chromium and chromedriver; else the reason (:func:`missing_reason`)."""
    found: dict[str, Path] = {}
    missing: list[str] = []
    for program, variable in (("chromium", "AREST_CHROMIUM"),
                              ("chromedriver", "AREST_CHROMEDRIVER")):
        named = environ.get(variable)
        place = named if named and os.access(named, os.X_OK) else (
            None if named else shutil.which(program, path=environ.get("PATH")))
        if place is None:
            missing.append(named or program)
        else:
            found[program] = Path(place)
    if missing:
        return missing_reason(missing)
    return Browser(found["chromium"], found["chromedriver"])


def browser_required(environ: Mapping[str, str]) -> bool:
    """Whether a missing browser fails the tests that need it: in CI (``CI=true``) or when
    asked (``AREST_REQUIRE_BROWSER=1``).

    >>> browser_required({"CI": "true"}), browser_required({"AREST_REQUIRE_BROWSER": "1"})
    (True, True)
    >>> browser_required({}), browser_required({"CI": "false"})
    (False, False)
    """
    return environ.get("CI") == "true" or environ.get("AREST_REQUIRE_BROWSER") == "1"


def installed_browser(environ: Mapping[str, str] | None = None) -> Browser:
    """The browser (:func:`find_browser`); else skips the calling test with the reason, or
    fails it when :func:`browser_required`."""
    environ = os.environ if environ is None else environ
    found = find_browser(environ)
    if isinstance(found, Browser):
        return found
    if browser_required(environ):
        pytest.fail(f"{found} (CI=true or AREST_REQUIRE_BROWSER=1 makes this a failure)",
                    pytrace=False)
    pytest.skip(found)


@contextmanager
def driven(browser: Browser) -> Iterator[Any]:
    """A headless chromium under selenium, quit on exit. As root, chromium runs only
    without its sandbox."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(browser.chromium)
    for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1200,1000", "--no-first-run"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    driver = webdriver.Chrome(service=Service(executable_path=str(browser.driver)),
                              options=options)
    try:
        yield driver
    finally:
        driver.quit()


def main() -> int:
    found = find_browser(os.environ)
    if isinstance(found, Browser):
        print(found.chromium, found.driver)
        return 0
    print(found, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
