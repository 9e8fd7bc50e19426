"""Conversation messages: read from LangChain messages, our flat dicts or OpenAI chat dicts; written flat.

Three spellings of one conversation reach us: LangChain message objects (or their ``messages_to_dict``
form), the flat ``{type, content, tool_calls, tool_call_id}`` dicts groundset writes, and OpenAI chat
dicts (``{role, content, tool_calls: [{id, type: "function", function: {name, arguments}}]}``), which
is what most agent logs hold. All become LangChain messages, so a metric sees one form; output is
always the flat form, so files stay stable whichever form was read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    messages_from_dict,
)
from pydantic import ValidationError
from typing_extensions import TypedDict

from ..core.records import repair_surrogates

MESSAGE_TYPES: dict[str, type[BaseMessage]] = {"human": HumanMessage, "ai": AIMessage}
MESSAGE_TYPES.update(tool=ToolMessage, system=SystemMessage)
_MESSAGE_KEYS = {"human": {"content"}, "system": {"content"}, "ai": {"content", "tool_calls"}}
_MESSAGE_KEYS["tool"] = {"content", "tool_call_id"}
# OpenAI roles; "developer" is the newer name of the system role.
OPENAI_ROLES = {"user": "human", "assistant": "ai", "system": "system", "developer": "system", "tool": "tool"}
# ``name`` (a participant's or a tool's name) is read and not kept: no metric compares it.
_OPENAI_KEYS = {"human": {"content", "name"}, "system": {"content", "name"}}
_OPENAI_KEYS["tool"] = {"content", "tool_call_id", "name"}
_OPENAI_KEYS["ai"] = {"content", "name", "tool_calls", "refusal"}


class ToolCallSpec(TypedDict):
    """An expected tool call: which tool, with which arguments (LangChain call ids are not compared)."""

    name: str
    args: dict[str, Any]


def kind(value: object) -> str:
    """A value's type in JSON words, since most data comes from JSON, CSV or a DataFrame."""
    names = {str: "a string", bool: "a boolean", int: "a number", float: "a number", dict: "an object"}
    if value is None:
        return "null"
    return names.get(type(value), "a list" if isinstance(value, list | tuple) else type(value).__name__)


def tool_call_spec(value: object, where: str) -> ToolCallSpec:
    """Normalise a tool call: ``{name, args}``, LangChain's ToolCall (with id and type) or OpenAI's
    ``{id, type: "function", function: {name, arguments}}``."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: a tool call must be an object {{name, args}}, got {kind(value)}")
    if "function" in value:
        return _openai_call(value, where)
    extra = set(value) - {"name", "args", "id", "type"}
    if extra:
        raise ValueError(f"{where}: unknown tool call key(s) {sorted(extra)}; expected name and args")
    name, args = value.get("name"), value.get("args", {})
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}: name must be a non-empty string, got {kind(name)}")
    if not isinstance(args, Mapping):
        raise ValueError(f"{where}: args must be an object, got {kind(args)}")
    return {"name": name, "args": dict(args)}


def _openai_call(value: Mapping[str, Any], where: str) -> ToolCallSpec:
    """An OpenAI tool call; its arguments are a JSON string (an object is taken as already decoded)."""
    extra = set(value) - {"id", "type", "function", "index"}
    if extra:
        raise ValueError(f"{where}: unknown tool call key(s) {sorted(extra)}; expected id, type and function")
    if value.get("type", "function") != "function":
        raise ValueError(f"{where}: type must be 'function', got {value.get('type')!r}")
    function = value["function"]
    if not isinstance(function, Mapping):
        raise ValueError(f"{where}: function must be an object {{name, arguments}}, got {kind(function)}")
    name, arguments = function.get("name"), function.get("arguments", "{}")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}: function.name must be a non-empty string, got {kind(name)}")
    if isinstance(arguments, str):
        try:
            # An empty string is what a call without arguments sometimes carries once streamed.
            arguments = json.loads(arguments) if arguments.strip() else {}
            arguments, _ = repair_surrogates(arguments)  # "\ud83d" in the string: not Unicode once decoded
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"{where}: function.arguments is not valid JSON ({exc.msg} at character {exc.pos}): "
                f'{_clip(arguments)}; it must be a JSON object as a string, such as \'{{"city": "Oslo"}}\''
            ) from None
    if not isinstance(arguments, Mapping):
        raise ValueError(f"{where}: function.arguments must decode to a JSON object, got {kind(arguments)}")
    return {"name": name, "args": dict(arguments)}


def _clip(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def check_conversation(value: object) -> list[BaseMessage]:
    """A non-empty list of messages in any accepted form, each tool message after a call it answers."""
    if not isinstance(value, list | tuple) or not value:
        raise ValueError(f"must be a non-empty list of messages, got {kind(value)}")
    if all(isinstance(item, str) for item in value):
        raise ValueError(
            "must be a list of messages {type, content}, got a list of strings (single-turn: one string)"
        )
    messages = [to_message(item, index) for index, item in enumerate(value)]
    called = False
    for index, message in enumerate(messages):
        called = called or isinstance(message, AIMessage) and bool(message.tool_calls)
        if isinstance(message, ToolMessage) and not called:
            raise ValueError(f"item {index}: a tool message must follow an AI message with tool_calls")
    return messages


def to_message(value: object, index: int) -> BaseMessage:
    """A message from an instance, our flat dict, LangChain's messages_to_dict form ({type, data}) or an
    OpenAI chat dict ({role, ...})."""
    where = f"item {index}"
    if isinstance(value, BaseMessage):
        if type(value) not in MESSAGE_TYPES.values():
            raise ValueError(f"{where}: unsupported message class {type(value).__name__}")
        return value
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: a message must be an object with type and content, got {kind(value)}")
    if "role" in value:
        if "type" in value:
            raise ValueError(
                f"{where}: has both type (LangChain form) and role (OpenAI form); give one of them"
            )
        return _from_openai(value, where)
    type_name = value.get("type")
    if type_name not in MESSAGE_TYPES:
        raise ValueError(
            f"{where}: type must be one of {', '.join(MESSAGE_TYPES)}, got {type_name!r} "
            f"(OpenAI chat dicts give role instead: {', '.join(OPENAI_ROLES)})"
        )
    if set(value) == {"type", "data"} and isinstance(value["data"], Mapping):
        try:
            return messages_from_dict([dict(value)])[0]
        except (ValidationError, ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"{where}: not a valid {type_name} message ({exc})") from None
    fields = {key: item for key, item in value.items() if key != "type"}
    _check_keys(fields, _MESSAGE_KEYS[type_name], f"{where}: unknown key(s) {{}} for a {type_name} message")
    return _build(type_name, fields, where)


def _from_openai(value: Mapping[str, Any], where: str) -> BaseMessage:
    role = value["role"]
    if role not in OPENAI_ROLES:
        raise ValueError(f"{where}: role must be one of {', '.join(OPENAI_ROLES)}, got {role!r}")
    type_name = OPENAI_ROLES[role]
    fields = {key: item for key, item in value.items() if key != "role"}
    if type_name == "ai":
        _assistant_extras(fields, where)
    _check_keys(fields, _OPENAI_KEYS[type_name], f"{where}: unknown key(s) {{}} for an OpenAI {role} message")
    fields.pop("name", None)
    refusal = fields.pop("refusal", None)
    if type_name == "ai" and fields.get("content") is None:
        # An assistant message that only calls tools has content null; a refusal is what it said.
        fields["content"] = refusal if isinstance(refusal, str) else ""
    return _build(type_name, fields, where)


def _assistant_extras(fields: dict[str, Any], where: str) -> None:
    """What an OpenAI SDK message's model_dump() adds to an assistant message, read or set aside."""
    if fields.pop("function_call", None) is not None:
        raise ValueError(f"{where}: function_call (the legacy one-call form) is not read; use tool_calls")
    if "tool_calls" in fields and fields["tool_calls"] is None:
        del fields["tool_calls"]  # a plain answer's dump says tool_calls: null
    fields.pop("annotations", None)  # citations of a web search: no metric reads them
    audio = fields.pop("audio", None)
    spoken = audio.get("transcript") if isinstance(audio, Mapping) else None
    if fields.get("content") is None and isinstance(spoken, str):
        fields["content"] = spoken  # a spoken answer: what it said


def _check_keys(fields: Mapping[str, Any], allowed: set[str], problem: str) -> None:
    extra = set(fields) - allowed
    if extra:
        raise ValueError(problem.format(sorted(extra)) + f"; expected {', '.join(sorted(allowed))}")


def _build(type_name: str, fields: dict[str, Any], where: str) -> BaseMessage:
    content = fields.get("content")
    if not isinstance(content, str | list):
        raise ValueError(
            f"{where}: content must be a string or a list of content blocks, got {kind(content)}"
        )
    if type_name == "tool" and not isinstance(fields.get("tool_call_id"), str):
        raise ValueError(f"{where}: a tool message needs tool_call_id (a string)")
    if type_name == "ai" and "tool_calls" in fields:
        calls = fields["tool_calls"]
        if not isinstance(calls, list):
            raise ValueError(f"{where}: tool_calls must be a list, got {kind(calls)}")
        fields["tool_calls"] = [
            _ai_tool_call(call, f"{where}: tool_calls[{n}]") for n, call in enumerate(calls)
        ]
    try:
        return MESSAGE_TYPES[type_name](**fields)
    except (ValidationError, ValueError, TypeError) as exc:
        raise ValueError(f"{where}: not a valid {type_name} message ({exc})") from None


def _ai_tool_call(call: object, where: str) -> dict[str, Any]:
    """A tool call inside an AI message keeps its id: tool messages answer it by that id."""
    spec = tool_call_spec(call, where)
    call_id = call.get("id") if isinstance(call, Mapping) else None
    if not isinstance(call_id, str | None):
        raise ValueError(f"{where}: id must be a string, got {kind(call_id)}")
    return {"name": spec["name"], "args": spec["args"], "id": call_id}


def message_to_dict(message: BaseMessage) -> dict[str, Any]:
    """The flat JSON form: {type, content} plus tool_calls (AI) or tool_call_id (tool)."""
    data: dict[str, Any] = {"type": message.type, "content": message.content}
    if isinstance(message, AIMessage) and message.tool_calls:
        data["tool_calls"] = [_flat_call(call) for call in message.tool_calls]
    if isinstance(message, ToolMessage):
        data["tool_call_id"] = message.tool_call_id
    return data


def _flat_call(call: Mapping[str, Any]) -> dict[str, Any]:
    """A call as written: its id kept whenever it has one, even "" (tool messages answer by it)."""
    flat = {"name": call["name"], "args": call["args"]}
    return flat if call.get("id") is None else {**flat, "id": call["id"]}


def tool_calls_made(messages: Sequence[BaseMessage]) -> list[ToolCallSpec]:
    """Every tool call the AI messages made, in conversation order (ids dropped)."""
    return [
        {"name": call["name"], "args": dict(call["args"])}
        for message in messages
        if isinstance(message, AIMessage)
        for call in message.tool_calls
    ]


def text_of(message: BaseMessage) -> str:
    """A message's text; content blocks other than text (images, audio) are left out."""
    if isinstance(message.content, str):
        return message.content
    parts = [
        block if isinstance(block, str) else str(block.get("text", ""))
        for block in message.content
        if isinstance(block, str) or (isinstance(block, Mapping) and block.get("type") == "text")
    ]
    return "\n".join(part for part in parts if part)


_SPEAKERS = {"human": "User", "ai": "Assistant", "system": "System", "tool": "Tool result"}


def transcript(messages: Sequence[BaseMessage], tool_result_limit: int | None = None) -> str:
    """The conversation as a judge reads it: one numbered turn per message, tool calls with their
    arguments as JSON, tool results with the call they answer (cut to ``tool_result_limit`` characters:
    a tool can return megabytes, which no judge needs to read in full)."""
    lines = []
    for number, message in enumerate(messages, start=1):
        text = text_of(message).strip()
        speaker = _SPEAKERS.get(message.type, message.type)
        if isinstance(message, ToolMessage):
            speaker = f"Tool result for {message.tool_call_id}"
            if tool_result_limit is not None and len(text) > tool_result_limit:
                text = f"{text[:tool_result_limit]} [... {len(text) - tool_result_limit} more characters]"
        if text:
            lines.append(f"[{number}] {speaker}: {text}")
        if isinstance(message, AIMessage):
            for call in message.tool_calls:
                args = json.dumps(call["args"], ensure_ascii=False, sort_keys=True)
                label = f" ({call['id']})" if call.get("id") else ""
                lines.append(f"[{number}] Assistant calls {call['name']}{label} with {args}")
    return "\n".join(lines)
