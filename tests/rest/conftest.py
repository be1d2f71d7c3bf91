"""The REST surface end to end (DESIGN §9): one real server per module, shared by its tests,
each test using ids of its own (each module is one xdist group, so it starts its servers
once under xdist too)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.rest.calls import ADMIN_KEY, API_KEY, served


@pytest.fixture(scope="module")
def rest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A server without keys (127.0.0.1 only, every request an Agent holding read,write)."""
    with served(tmp_path_factory) as client:
        yield client


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A server with an API key (read,write) and an admin key; the client bears neither."""
    with served(tmp_path_factory, "--api-key", API_KEY, "--admin-key", ADMIN_KEY) as client:
        yield client
