"""The transports' tests run their clients on asyncio, as the SDK's servers do."""

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
