"""Structured output from any LangChain chat model: json_schema, tool calling, or JSON in text.

``json_schema`` (OpenAI-style ``response_format``) is tried first; a model or server that
rejects it falls back to ``json_object`` with the schema (llama.cpp's servers), then to forced tool
calling, then to plain text with the schema in the prompt. Every answer is parsed here, never
executed or evaluated.
"""

from __future__ import annotations

import functools
import json
import re
from enum import StrEnum
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, ValidationError


class Method(StrEnum):
    JSON_SCHEMA = "json_schema"
    # ``response_format: {"type": "json_object", "schema": ...}``: llama.cpp's servers constrain the answer
    # to the schema this way where they refuse ``json_schema`` (OpenAI-like models only).
    JSON_OBJECT = "json_object"
    FUNCTION_CALLING = "function_calling"
    JSON_TEXT = "json_text"

    def fallback(self, *, openai_like: bool = True) -> Method | None:
        order = [m for m in Method if openai_like or m is not Method.JSON_OBJECT]
        index = order.index(self)
        return order[index + 1] if index + 1 < len(order) else None


def is_openai_like(model: Any) -> bool:
    """ChatOpenAI and its subclasses accept ``response_format``, ``tools`` and ``n`` per request."""
    try:
        from langchain_openai.chat_models.base import BaseChatOpenAI
    except ImportError:  # pragma: no cover - langchain-openai is a dependency
        return False
    return isinstance(model, BaseChatOpenAI) and not getattr(model, "use_responses_api", False)


def first_method(model: BaseChatModel) -> Method:
    """json_schema where the model can do it, else tool calling, else JSON in text."""
    own_structured_output = type(model).with_structured_output is not BaseChatModel.with_structured_output
    if is_openai_like(model) or own_structured_output:
        return Method.JSON_SCHEMA
    if type(model).bind_tools is not BaseChatModel.bind_tools:
        return Method.FUNCTION_CALLING
    return Method.JSON_TEXT


def tool_name(output_model: type[BaseModel]) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", output_model.__name__)[:64] or "answer"


@functools.lru_cache(maxsize=512)
def output_schema(output_model: type[BaseModel]) -> dict[str, Any]:
    """The output model's JSON schema (memoised: building it costs more than a local request)."""
    return output_model.model_json_schema()


@functools.lru_cache(maxsize=512)
def _request_kwargs(method: Method, output_model: type[BaseModel]) -> str:
    return json.dumps(_build_request_kwargs(method, output_model))


def request_kwargs(method: Method, output_model: type[BaseModel]) -> dict[str, Any]:
    """Per-request kwargs for an OpenAI-like model (no shared client settings are touched)."""
    return json.loads(_request_kwargs(method, output_model))


def _build_request_kwargs(method: Method, output_model: type[BaseModel]) -> dict[str, Any]:
    name, schema = tool_name(output_model), output_schema(output_model)
    if method is Method.JSON_SCHEMA:
        return {"response_format": {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}}
    if method is Method.JSON_OBJECT:
        return {"response_format": {"type": "json_object", "schema": schema}}
    if method is Method.FUNCTION_CALLING:
        function = {"name": name, "description": f"Return the {name} result.", "parameters": schema}
        return {
            "tools": [{"type": "function", "function": function}],
            "tool_choice": {"type": "function", "function": {"name": name}},
        }
    return {}


def bound_for(model: BaseChatModel, method: Method, output_model: type[BaseModel]) -> Any:
    """A runnable for a non-OpenAI model that returns the model's raw message.

    json_schema and tool calling go through ``with_structured_output(include_raw=True)``, so
    each provider maps the schema its own way; the raw message is parsed and, if need be,
    repaired here, like every other answer. Raises NotImplementedError when the model has no
    such method, which moves the prompt on to the next one.
    """
    if method is Method.JSON_TEXT:
        return model
    try:
        structured = model.with_structured_output(output_model, method=method.value, include_raw=True)
    except (NotImplementedError, ValueError, TypeError) as exc:
        raise NotImplementedError(f"{type(model).__name__} cannot do {method.value}: {exc}") from exc
    return structured | (lambda out: out["raw"] if isinstance(out, dict) and "raw" in out else out)


def raw_answer(message: BaseMessage, method: Method) -> str:
    """The answer text to parse: the tool call's arguments, or the message text."""
    if method is Method.FUNCTION_CALLING and isinstance(message, AIMessage):
        if message.tool_calls:
            return json.dumps(message.tool_calls[0].get("args", {}))
        if message.invalid_tool_calls:
            return str(message.invalid_tool_calls[0].get("args") or "")
    content = message.content
    if isinstance(content, list):
        parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
        return "".join(parts)
    return str(content or "")


_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def load_json(raw: str) -> tuple[Any, str]:
    """The JSON value in a model's answer (code fences and text around one object tolerated):
    (value, "") or (None, what was wrong)."""
    text = raw.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    # strict=False: a raw line break or tab inside a string (llama.cpp's JSON grammar lets a model
    # write them) is read as the character it is, not refused.
    try:
        return json.loads(text, strict=False), ""
    except json.JSONDecodeError as exc:
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end <= start:
            return None, f"not JSON ({exc.msg} at position {exc.pos})"
        try:
            return json.loads(text[start : end + 1], strict=False), ""
        except json.JSONDecodeError as inner:
            return None, f"not JSON ({inner.msg} at position {inner.pos})"


def load_cut_off_json(raw: str) -> dict[str, Any] | None:
    """The object an answer cut off at the length limit had begun, closed where it stopped (its last string
    or list may be cut short), or None when it had not begun one."""
    from langchain_core.utils.json import parse_partial_json

    start = raw.find("{")
    if start < 0:
        return None
    try:
        value = parse_partial_json(raw[start:], strict=False)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def parse_answer(output_model: type[BaseModel], raw: str) -> tuple[BaseModel | None, str]:
    """Parse ``raw`` into ``output_model``; returns (value, "") or (None, what was wrong)."""
    data, problem = load_json(raw)
    if problem:
        return None, problem
    try:
        return output_model.model_validate(data), ""
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors()[:5]
        )
        return None, f"does not match the schema ({problems})"
