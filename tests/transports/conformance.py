"""The MCP conformance suite's fixtures, beside arest's own surface: test material, kept
out of the ``arest`` package.  ``python -m tests.transports.conformance_server`` serves them.

The suite (``@modelcontextprotocol/conformance``) calls fixed names: tools such as
``test_simple_text`` and ``test_sampling``, prompts such as ``test_simple_prompt``, resources
such as ``test://static-text`` and the template ``test://template/{id}/data``.  ``extend``
adds them to a server built by :func:`arest.transports.server.mcp_server`:

    tools/list  = arest's tools (the URL's surface) + the fixture tools, whatever the tags
    tools/call  = the fixture's answer for a fixture's name, else arest's
    resources/… = arest's resources + the fixtures'; prompts/… = the fixtures' alone

Only fixtures for what arest does are here: content of every kind, tool errors, progress,
sampling (through arest's own LLM bridge, :mod:`arest.transports.sampling`), prompts,
resources and templates.  Logging levels, completion, elicitation and subscriptions are
features arest does not offer, so the suite's scenarios for them fail, as the committed
baseline ``tests/transports/conformance-baseline.yml`` says.  A server without ``extend``
registers no prompt handler, so it does not advertise prompts.
"""

from __future__ import annotations

import base64
import io
import json
import re
import struct
import wave
import zlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.lowlevel.server import HandlerEntry
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from arest.transports.sampling import sample

Context = ServerRequestContext[Any, Any]
ToolAnswer = types.CallToolResult | types.InputRequiredResult
_Model = TypeVar("_Model", bound=BaseModel)


def png_pixel(red: int, green: int, blue: int) -> bytes:
    """A 1×1 RGB PNG of one colour: signature, IHDR, IDAT (one filtered row), IEND.

    >>> png_pixel(255, 0, 0)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)  # 1×1, 8-bit RGB
    row = bytes([0, red, green, blue])  # filter type 0, then the pixel
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(row))
            + chunk(b"IEND", b""))


def wav_silence(seconds: float, rate: int = 8000) -> bytes:
    """A mono 8-bit PCM WAV of silence (8-bit PCM is unsigned: silence is 0x80).

    >>> len(wav_silence(0.01))  # a 44-byte header and 80 samples
    124
    """
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as audio:
        audio.setnchannels(1)
        audio.setsampwidth(1)
        audio.setframerate(rate)
        audio.writeframes(b"\x80" * round(seconds * rate))
    return buffer.getvalue()


RED_PIXEL: Final = base64.b64encode(png_pixel(255, 0, 0)).decode()
SILENCE: Final = base64.b64encode(wav_silence(0.1)).decode()
NO_ARGUMENTS: Final = {"type": "object", "properties": {}}
ERROR_TEXT: Final = "This tool intentionally returns an error for testing"


def _text(text: str) -> types.TextContent:
    return types.TextContent(type="text", text=text)


def _image() -> types.ImageContent:
    return types.ImageContent(type="image", data=RED_PIXEL, mime_type="image/png")


def _embedded(uri: str, text: str, mime_type: str = "text/plain") -> types.EmbeddedResource:
    return types.EmbeddedResource(type="resource", resource=types.TextResourceContents(
        uri=uri, mime_type=mime_type, text=text))


def _content(*content: types.ContentBlock) -> types.CallToolResult:
    return types.CallToolResult(content=list(content))


async def _simple_text(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer:
    return _content(_text("This is a simple text response for testing."))


async def _image_content(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer:
    return _content(_image())


async def _audio_content(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer:
    return _content(types.AudioContent(type="audio", data=SILENCE, mime_type="audio/wav"))


async def _embedded_resource(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer:
    return _content(_embedded("test://embedded-resource", "This is an embedded resource content."))


async def _multiple_content(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer:
    return _content(_text("Multiple content types test:"), _image(),
                    _embedded("test://mixed-content-resource",
                              json.dumps({"test": "data", "value": 123}), "application/json"))


async def _error(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer:
    return types.CallToolResult(content=[_text(ERROR_TEXT)], is_error=True)


async def _progress(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer:
    """0/100, 50/100, 100/100, about 50 ms apart; no notification without a progress token."""
    for step, progress in enumerate((0, 50, 100)):
        if step:
            await anyio.sleep(0.05)
        await ctx.session.report_progress(progress, 100)
    return _content(_text("Progress reported: 0, 50 and 100 of 100."))


async def _sampling(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer:
    """The client's model answers the prompt, through arest's own LLM bridge (either era)."""
    prompt = (params.arguments or {}).get("prompt")
    if not isinstance(prompt, str):
        return types.CallToolResult(content=[_text("test_sampling needs a string `prompt`")],
                                    is_error=True)
    answer = await sample(ctx, params, prompt)
    if isinstance(answer, types.InputRequiredResult):
        return answer
    if answer is None:
        return types.CallToolResult(content=[_text("the client does not offer sampling")],
                                    is_error=True)
    return _content(_text(f"LLM response: {answer}"))


async def _echo(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer:
    return _content(_text(json.dumps(params.arguments or {})))


@dataclass(frozen=True)
class FixtureTool:
    tool: types.Tool
    answer: Callable[[Context, types.CallToolRequestParams], Awaitable[ToolAnswer]]


def _tool(name: str, description: str,
          answer: Callable[[Context, types.CallToolRequestParams], Awaitable[ToolAnswer]],
          schema: Mapping[str, Any] = NO_ARGUMENTS) -> tuple[str, FixtureTool]:
    return name, FixtureTool(types.Tool(name=name, description=description,
                                        input_schema=dict(schema)), answer)


TOOLS: Final[Mapping[str, FixtureTool]] = dict([
    _tool("test_simple_text", "Conformance fixture: returns one text content.", _simple_text),
    _tool("test_image_content", "Conformance fixture: returns a 1x1 red PNG.", _image_content),
    _tool("test_audio_content", "Conformance fixture: returns 0.1 s of silence as WAV.",
          _audio_content),
    _tool("test_embedded_resource", "Conformance fixture: returns an embedded text resource.",
          _embedded_resource),
    _tool("test_multiple_content_types",
          "Conformance fixture: returns text, an image and an embedded resource.",
          _multiple_content),
    _tool("test_error_handling", "Conformance fixture: always a tool error (isError).", _error),
    _tool("test_tool_with_progress",
          "Conformance fixture: reports progress 0, 50, 100 of 100 when given a progress token.",
          _progress),
    _tool("test_sampling",
          "Conformance fixture: asks the client's model to answer `prompt` (MCP sampling).",
          _sampling, {"type": "object", "properties": {"prompt": {
              "type": "string", "description": "The prompt to send to the LLM"}},
              "required": ["prompt"]}),
    _tool("json_schema_2020_12_tool",
          "Conformance fixture: a JSON Schema 2020-12 input schema, kept as written.", _echo, {
              "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
              "$defs": {"address": {"type": "object", "properties": {
                  "street": {"type": "string"}, "city": {"type": "string"}}}},
              "properties": {"name": {"type": "string"},
                             "address": {"$ref": "#/$defs/address"}},
              "additionalProperties": False}),
])


@dataclass(frozen=True)
class FixtureResource:
    resource: types.Resource
    contents: types.TextResourceContents | types.BlobResourceContents


RESOURCES: Final[Mapping[str, FixtureResource]] = {fixture.resource.uri: fixture for fixture in (
    FixtureResource(
        types.Resource(name="static-text", uri="test://static-text", mime_type="text/plain",
                       description="Conformance fixture: a static text resource."),
        types.TextResourceContents(uri="test://static-text", mime_type="text/plain",
                                   text="This is the content of the static text resource.")),
    FixtureResource(
        types.Resource(name="static-binary", uri="test://static-binary", mime_type="image/png",
                       description="Conformance fixture: a static binary resource (a PNG)."),
        types.BlobResourceContents(uri="test://static-binary", mime_type="image/png",
                                   blob=RED_PIXEL)),
)}

TEMPLATE: Final = types.ResourceTemplate(
    name="template-data", uri_template="test://template/{id}/data", mime_type="application/json",
    description="Conformance fixture: a JSON document for any id.")
_TEMPLATE_URI: Final = re.compile(r"test://template/(?P<id>[^/]+)/data")


def _from_template(uri: str) -> types.TextResourceContents | None:
    """``test://template/{id}/data`` for one id, or None for another URI."""
    found = _TEMPLATE_URI.fullmatch(uri)
    if found is None:
        return None
    document = {"id": found["id"], "templateTest": True, "data": f"Data for ID: {found['id']}"}
    return types.TextResourceContents(uri=uri, mime_type="application/json",
                                      text=json.dumps(document))


def _argument(name: str, description: str) -> types.PromptArgument:
    return types.PromptArgument(name=name, description=description, required=True)


PROMPTS: Final[Mapping[str, types.Prompt]] = {prompt.name: prompt for prompt in (
    types.Prompt(name="test_simple_prompt",
                 description="Conformance fixture: a prompt without arguments."),
    types.Prompt(name="test_prompt_with_arguments",
                 description="Conformance fixture: a prompt with two arguments.",
                 arguments=[_argument("arg1", "First test argument"),
                            _argument("arg2", "Second test argument")]),
    types.Prompt(name="test_prompt_with_embedded_resource",
                 description="Conformance fixture: a prompt embedding a resource.",
                 arguments=[_argument("resourceUri", "URI of the resource to embed")]),
    types.Prompt(name="test_prompt_with_image",
                 description="Conformance fixture: a prompt with an image."),
)}


def _messages(name: str, arguments: Mapping[str, str]) -> list[types.PromptMessage]:
    def user(content: types.ContentBlock) -> types.PromptMessage:
        return types.PromptMessage(role="user", content=content)

    if name == "test_prompt_with_arguments":
        return [user(_text(f"Prompt with arguments: arg1='{arguments['arg1']}', "
                           f"arg2='{arguments['arg2']}'"))]
    if name == "test_prompt_with_embedded_resource":
        return [user(_embedded(arguments["resourceUri"],
                               "Embedded resource content for testing.")),
                user(_text("Please process the embedded resource above."))]
    if name == "test_prompt_with_image":
        return [user(_image()), user(_text("Please analyze the image above."))]
    return [user(_text("This is a simple prompt for testing."))]


def _as(model: type[_Model], result: Any) -> _Model:
    """A handler's result as its model (a handler may answer a model or its wire dict)."""
    return result if isinstance(result, model) else model.model_validate(result)


Handler = Callable[[Context, Any], Awaitable[Any]]


def _listing(entry: HandlerEntry[Any] | None, model: type[_Model], field: str,
             fixtures: Sequence[Any]) -> Handler:
    """A list method: the server's own page (none without a handler), then, on the last
    page, the fixtures."""
    async def handler(ctx: Context, params: types.PaginatedRequestParams | None) -> _Model:
        listed = (_as(model, await entry.handler(ctx, params)) if entry is not None
                  else model.model_validate({field: []}))
        if getattr(listed, "next_cursor", None) is not None:
            return listed
        return listed.model_copy(update={field: [*getattr(listed, field), *fixtures]})

    return handler


def _answering(entry: HandlerEntry[Any] | None, fixture: Handler, unknown: str) -> Handler:
    """A method that names one item: the fixture's answer when it knows the item (not None),
    else the server's own handler; without one, -32602 for an unknown item."""
    async def handler(ctx: Context, params: Any) -> Any:
        answer = await fixture(ctx, params)
        if answer is not None:
            return answer
        if entry is None:
            named = getattr(params, "name", None) or str(getattr(params, "uri", ""))
            raise MCPError(types.INVALID_PARAMS, f"{unknown}: {named}", data={"name": named})
        return await entry.handler(ctx, params)

    return handler


async def _call_tool(ctx: Context, params: types.CallToolRequestParams) -> ToolAnswer | None:
    fixture = TOOLS.get(params.name)
    return None if fixture is None else await fixture.answer(ctx, params)


async def _read_resource(ctx: Context, params: types.ReadResourceRequestParams
                         ) -> types.ReadResourceResult | None:
    uri = str(params.uri)
    fixture = RESOURCES.get(uri)
    contents = fixture.contents if fixture is not None else _from_template(uri)
    return None if contents is None else types.ReadResourceResult(contents=[contents])


async def _get_prompt(ctx: Context, params: types.GetPromptRequestParams
                      ) -> types.GetPromptResult | None:
    prompt = PROMPTS.get(params.name)
    if prompt is None:
        return None
    arguments = params.arguments or {}
    missing = [a.name for a in prompt.arguments or () if a.required and a.name not in arguments]
    if missing:
        raise MCPError(types.INVALID_PARAMS, f"Prompt {prompt.name} needs {', '.join(missing)}",
                       data={"prompt": prompt.name, "missing": missing})
    return types.GetPromptResult(description=prompt.description,
                                 messages=_messages(prompt.name, arguments))


def extend(server: Server[Any]) -> Server[Any]:
    """The same server, also answering the conformance suite's fixtures: each list method
    lists the server's own items, then the fixtures; a request naming a fixture gets the
    fixture's answer, any other goes to the handler the server had."""
    def listing(method: str, model: type[BaseModel], field: str, fixtures: Sequence[Any]
                ) -> None:
        server.add_request_handler(method, types.PaginatedRequestParams, _listing(
            server.get_request_handler(method), model, field, fixtures))

    def answering(method: str, params_type: type[BaseModel], fixture: Handler, unknown: str
                  ) -> None:
        server.add_request_handler(method, params_type, _answering(
            server.get_request_handler(method), fixture, unknown))

    listing("tools/list", types.ListToolsResult, "tools", [t.tool for t in TOOLS.values()])
    listing("resources/list", types.ListResourcesResult, "resources",
            [r.resource for r in RESOURCES.values()])
    listing("resources/templates/list", types.ListResourceTemplatesResult,
            "resource_templates", [TEMPLATE])
    listing("prompts/list", types.ListPromptsResult, "prompts", list(PROMPTS.values()))
    answering("tools/call", types.CallToolRequestParams, _call_tool, "Unknown tool")
    answering("resources/read", types.ReadResourceRequestParams, _read_resource,
              "Unknown resource")
    answering("prompts/get", types.GetPromptRequestParams, _get_prompt, "Unknown prompt")
    return server
