"""The conformance suite's fixtures beside arest's surface, in process with the SDK's client
(the suite itself runs against them in ``test_third_party.py``): listed after arest's own
items whatever the tags, answered by name, and everything else still arest's."""

from __future__ import annotations

import base64
import io
import wave
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from arest.runtime import Tenant
from arest.transports.server import mcp_server
from arest.verbs import surface
from tests.transports.conformance import PROMPTS, TOOLS, extend, png_pixel, wav_silence

READINGS = Path(__file__).parent / "readings"

pytestmark = pytest.mark.anyio


@pytest.fixture
def tenant() -> Iterator[Tenant]:
    with Tenant.open(READINGS, db=":memory:") as opened:
        yield opened


def test_the_png_is_one_red_pixel_with_good_checksums() -> None:
    png = png_pixel(255, 0, 0)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    while at < len(png):
        size = int.from_bytes(png[at:at + 4], "big")
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + size]
        assert int.from_bytes(png[at + 8 + size:at + 12 + size], "big") == zlib.crc32(kind + data)
        chunks[kind] = data
        at += 12 + size
    assert list(chunks) == [b"IHDR", b"IDAT", b"IEND"]
    assert zlib.decompress(chunks[b"IDAT"]) == bytes([0, 255, 0, 0])


def test_the_wav_is_a_tenth_of_a_second_of_silence() -> None:
    with wave.open(io.BytesIO(wav_silence(0.1))) as audio:
        assert (audio.getnchannels(), audio.getframerate(), audio.getnframes()) == (1, 8000, 800)
        assert set(audio.readframes(800)) == {0x80}


async def test_fixtures_are_listed_after_arest_and_answered_by_name(tenant: Tenant) -> None:
    server = extend(mcp_server(tenant, surface("persistence")))
    async with Client(server, mode="legacy") as client:
        listed = [tool.name for tool in (await client.list_tools()).tools]
        assert listed == ["snapshot", "rollback", "snapshots", *TOOLS]
        image = (await client.call_tool("test_image_content", {})).content[0]
        assert base64.b64decode(image.data) == png_pixel(255, 0, 0)  # type: ignore[union-attr]
        snapshots = await client.call_tool("snapshots", {})
        assert snapshots.is_error is False and "snapshots" in snapshots.structured_content
        prompts = [prompt.name for prompt in (await client.list_prompts()).prompts]
        assert prompts == list(PROMPTS)
        read = await client.read_resource("test://template/42/data")
        assert '"id": "42"' in read.contents[0].text  # type: ignore[union-attr]
        with pytest.raises(MCPError) as unknown:
            await client.get_prompt("no_such_prompt")
        assert unknown.value.code == -32602
