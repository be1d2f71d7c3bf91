"""The MCP client of the federation tests runs on asyncio, as the SDK's servers do."""

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
