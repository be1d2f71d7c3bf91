"""What the LLM bridge's verbs share: their input, the prompt-only answer, and reading the
LLM's answer back.

Each verb is called twice (DESIGN §6): without ``llm_response`` it answers ``{"mode":
"prompt-only", "prompt", "next_step"}``; the caller (the transport, through MCP sampling, or
whoever holds an LLM) runs the prompt and calls again with the same input plus
``llm_response``, the LLM's answer as text.  The engine never calls an LLM: it writes the
prompt and runs the formal operation on what came back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from arest.system.errors import Refusal, invalid_input
from arest.system.inputs import checked_text

Output = dict[str, Any]
RESPONSE = "$.llm_response"
"""Where the LLM's answer is in a bridge verb's input; paths into the JSON read from it
continue from here (``$.llm_response.filter``, ``$.llm_response[0].bindings``)."""

MAX_STARTS = 200
"""How many places in an answer are tried as the start of its JSON: enough for any prose
around one object, and it keeps a pathological answer from costing |text|²."""


def request_of(request: Any, required: tuple[str, ...], optional: tuple[str, ...]) -> Output:
    """The input as an object with the required keys and no unknown ones."""
    accepted = (*required, *optional, "llm_response")
    if not isinstance(request, dict):
        raise invalid_input("$", "an object with " + ", ".join(required))
    for key in request:
        if key not in accepted:
            raise invalid_input(f"$.{key}", "one of " + ", ".join(accepted))
    for key in required:
        if key not in request:
            raise invalid_input(f"$.{key}", f"a value for {key}")
    return request


def text(request: Output, key: str, expected: str) -> str:
    """A required, non-blank string of the input."""
    value = request.get(key)
    if not isinstance(value, str) or not value.strip():
        raise invalid_input(f"$.{key}", expected)
    return checked_text(value, f"$.{key}")


def llm_response(request: Output) -> str | None:
    """The LLM's answer when the input carries one."""
    if "llm_response" not in request:
        return None
    return text(request, "llm_response", "the LLM's answer to the prompt, as text")


def prompt_only(prompt: str) -> Output:
    """The first call's answer: the prompt, and what to do with it."""
    return {
        "mode": "prompt-only",
        "prompt": prompt,
        "next_step": "Run this prompt with an LLM, then call this verb again with the same "
                     "input plus \"llm_response\": the LLM's answer, as text.",
    }


_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n(.*?)```", re.DOTALL)


def _decoded(candidate: str, wanted: type) -> Any:
    """The JSON value candidate starts with, when it is of the wanted type."""
    try:
        value, _ = json.JSONDecoder().raw_decode(candidate)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, wanted) else None


def _values(answer: str, wanted: type) -> Iterator[Any]:
    """Each JSON value of the wanted type found in the answer, in the order json_in tries."""
    for candidate in (answer.strip(), *(block.strip() for block in _FENCE.findall(answer))):
        value = _decoded(candidate, wanted)
        if value is not None:
            yield value
    opener = "{" if wanted is dict else "["
    start = answer.find(opener)
    for _ in range(MAX_STARTS):
        if start < 0:
            return
        value = _decoded(answer[start:], wanted)
        if value is not None:
            yield value
        start = answer.find(opener, start + 1)


def json_in(answer: str, wanted: type, fits: Callable[[Any], bool] = bool) -> Any:
    """The JSON value of the wanted type (dict or list) an LLM's answer gives: the whole
    answer, else a fenced block (```json … ```), else the first place in the prose where one
    starts.  The first value that fits wins (prose may hold other brackets: ``see [1]``),
    else the first value of the type; None when there is none.

    >>> json_in('Here it is:\\n```json\\n{"noun": "Order"}\\n```\\nDone.', dict)
    {'noun': 'Order'}
    >>> json_in('The spec is {"fact_type": "A_has_B"} as asked.', dict)
    {'fact_type': 'A_has_B'}
    >>> json_in('See [1]: [{"fact_type": "A_is_b"}]', list, lambda v: bool(v) and
    ...         all(isinstance(item, dict) for item in v))
    [{'fact_type': 'A_is_b'}]
    >>> json_in('No facts: [] at all.', list), json_in('no JSON here', dict)
    ([], None)
    """
    first: Any = None
    for value in _values(answer, wanted):
        if fits(value):
            return value
        if first is None:
            first = value
    return first


def relocated(refusal: Refusal, prefix: str, **details: Any) -> Refusal:
    """The refusal of an operation run on JSON read from the LLM's answer, its path (``$…``,
    relative to that JSON) continued from prefix, with details added."""
    error = refusal.envelope["error"]
    path = error.get("path")
    if isinstance(path, str) and path.startswith("$"):
        error["path"] = prefix + path[1:]
        if error["message"].startswith(path):
            error["message"] = prefix + error["message"][1:]
    error.update(details)
    return refusal


def unusable(expected: str, message: str) -> Refusal:
    """``invalid_input`` at the LLM's answer."""
    return invalid_input(RESPONSE, expected, message)
