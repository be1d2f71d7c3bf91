"""The LLM bridge's transport half: ask the client's LLM for a prompt's answer (MCP sampling).

The engine builds the prompt (the key's prompt-only output) and runs the formal operation
(the same key again with ``llm_response``); in between, the client's model answers:

- handshake era: a ``sampling/createMessage`` request to the client, inside the call;
- modern era: the call answers ``InputRequiredResult`` asking for the message, and the client
  retries the call with the model's answer in ``input_responses``.  The retry carries the
  same arguments, so the prompt is rebuilt from them and no request state is trusted.

A client that does not offer sampling gets the prompt-only output.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

REQUEST = "llm_response"
"""The key of the sampling request in ``input_responses``."""

MAX_TOKENS = 4096


def _offers_sampling(ctx: ServerRequestContext[Any, Any]) -> bool:
    wanted = types.ClientCapabilities(sampling=types.SamplingCapability())
    try:
        return bool(ctx.session.check_client_capability(wanted))
    except (AttributeError, RuntimeError):
        return False  # no session (stateless HTTP): capabilities are unknown


def _messages(prompt: str) -> list[types.SamplingMessage]:
    return [types.SamplingMessage(role="user",
                                  content=types.TextContent(type="text", text=prompt))]


def _text(result: Any) -> str | None:
    """The text a sampling result carries (its first block when it has several)."""
    content = getattr(result, "content", None)
    if isinstance(content, list):
        content = content[0] if content else None
    text = getattr(content, "text", None)
    return text if isinstance(text, str) else None


async def sample(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams,
                 prompt: str) -> str | types.InputRequiredResult | None:
    """The model's answer to the prompt; the request for it (modern era, first round); or
    None when the client cannot sample."""
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        responses = params.input_responses or {}
        if REQUEST in responses:
            return _text(responses[REQUEST])
        if not _offers_sampling(ctx):
            return None
        request = types.CreateMessageRequest(params=types.CreateMessageRequestParams(
            messages=_messages(prompt), max_tokens=MAX_TOKENS))
        return types.InputRequiredResult(input_requests={REQUEST: request},
                                         request_state="arest-llm-bridge")
    if not _offers_sampling(ctx):
        return None
    answer = await ctx.session.create_message(_messages(prompt), max_tokens=MAX_TOKENS,
                                              related_request_id=ctx.request_id)
    return _text(answer)
