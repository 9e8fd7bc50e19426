"""Evaluation samples: one single-turn RAG exchange, or one multi-turn conversation with tool calls.

Types are strict on purpose: a context list given as one string would otherwise be scored as
a list of characters, and a number silently turned into text hides a broken export.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    messages_from_dict,
)
from pydantic import BaseModel, ConfigDict, ValidationError, field_serializer, field_validator
from typing_extensions import TypedDict

from ..core.errors import ConfigError
from .columns import check_names, keep_in_metadata

MESSAGE_TYPES: dict[str, type[BaseMessage]] = {"human": HumanMessage, "ai": AIMessage}
MESSAGE_TYPES.update(tool=ToolMessage, system=SystemMessage)
LEGACY_NAMES: dict[str, str] = {
    "question": "user_input",
    "answer": "response",
    "contexts": "retrieved_contexts",
    "ground_truth": "reference",
    "ground_truths": "reference",  # a list, joined with newlines
}
_LIST_FIELDS = ("retrieved_contexts", "retrieved_context_ids", "reference_contexts", "reference_context_ids")
_LIST_FIELDS += ("multi_responses",)
_MESSAGE_KEYS = {"human": {"content"}, "system": {"content"}, "ai": {"content", "tool_calls"}}
_MESSAGE_KEYS["tool"] = {"content", "tool_call_id"}


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


def _string_list(value: object) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        raise ValueError("must be a list of strings, got a string; wrap it in [...]")
    if not isinstance(value, list | tuple):
        raise ValueError(f"must be a list of strings, got {kind(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise ValueError(f"must be a list of strings, item {index} is {kind(item)}")
    return list(value)


def _string(value: object) -> object:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"must be a string, got {kind(value)}")
    return value


def _metadata(value: object) -> object:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise ValueError(f"must be an object with string keys, got {kind(value)}")
    return dict(value)


class _Sample(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, validate_assignment=True)

    @field_validator("metadata", mode="before", check_fields=False)
    @classmethod
    def _check_metadata(cls, value: object) -> object:
        return _metadata(value)

    def present_fields(self) -> set[str]:
        """The data fields that are set (metadata aside): what a metric can rely on for this sample."""
        return {
            name for name in type(self).model_fields if name != "metadata" and getattr(self, name) is not None
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of the fields that are set; from_list() reads it back to an equal sample."""
        data = {key: value for key, value in self.model_dump(mode="json").items() if value is not None}
        if not data["metadata"]:
            del data["metadata"]
        return data


class SingleTurnSample(_Sample):
    """One question, what the system retrieved and answered, and what it should have."""

    user_input: str | None = None
    retrieved_contexts: list[str] | None = None
    retrieved_context_ids: list[str] | None = None
    reference_contexts: list[str] | None = None
    reference_context_ids: list[str] | None = None
    response: str | None = None
    multi_responses: list[str] | None = None
    reference: str | None = None
    rubrics: dict[str, str] | None = None
    metadata: dict[str, Any] = {}

    @field_validator(*_LIST_FIELDS, mode="before")
    @classmethod
    def _check_lists(cls, value: object) -> object:
        return _string_list(value)

    @field_validator("user_input", "response", "reference", mode="before")
    @classmethod
    def _check_strings(cls, value: object) -> object:
        return _string(value)

    @field_validator("rubrics", mode="before")
    @classmethod
    def _check_rubrics(cls, value: object) -> object:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise ValueError(f"must be an object mapping score names to descriptions, got {kind(value)}")
        for key, text in value.items():
            if not isinstance(key, str) or not isinstance(text, str):
                raise ValueError(f"entry {key!r} must map a string to a string, got {kind(text)}")
        return dict(value)


class MultiTurnSample(_Sample):
    """A conversation (human, AI with tool calls, tool and system messages) and what should happen in it."""

    user_input: list[BaseMessage]
    reference: str | None = None
    reference_tool_calls: list[ToolCallSpec] | None = None
    reference_topics: list[str] | None = None
    metadata: dict[str, Any] = {}

    @field_validator("reference", mode="before")
    @classmethod
    def _check_reference(cls, value: object) -> object:
        return _string(value)

    @field_validator("reference_topics", mode="before")
    @classmethod
    def _check_topics(cls, value: object) -> object:
        return _string_list(value)

    @field_validator("user_input", mode="before")
    @classmethod
    def _check_messages(cls, value: object) -> list[BaseMessage]:
        if not isinstance(value, list | tuple) or not value:
            raise ValueError(f"must be a non-empty list of messages, got {kind(value)}")
        if all(isinstance(item, str) for item in value):
            raise ValueError(
                "must be a list of messages {type, content}, got a list of strings (single-turn: one string)"
            )
        messages = [_to_message(item, index) for index, item in enumerate(value)]
        called = False
        for index, message in enumerate(messages):
            called = called or isinstance(message, AIMessage) and bool(message.tool_calls)
            if isinstance(message, ToolMessage) and not called:
                raise ValueError(f"item {index}: a tool message must follow an AI message with tool_calls")
        return messages

    @field_validator("reference_tool_calls", mode="before")
    @classmethod
    def _check_tool_calls(cls, value: object) -> object:
        if value is None:
            return None
        if not isinstance(value, list | tuple):
            raise ValueError(f"must be a list of {{name, args}} objects, got {kind(value)}")
        return [_tool_call(item, f"item {index}") for index, item in enumerate(value)]

    @field_serializer("user_input")
    def _dump_messages(self, messages: list[BaseMessage]) -> list[dict[str, Any]]:
        return [message_to_dict(message) for message in messages]


# Every name a row may use for a groundset field: what a user's own column must not be, or nearly be.
KNOWN_NAMES = frozenset(SingleTurnSample.model_fields) | frozenset(MultiTurnSample.model_fields)
KNOWN_NAMES |= frozenset(LEGACY_NAMES)


def _tool_call(value: object, where: str) -> ToolCallSpec:
    """Normalise a tool call; LangChain's own ToolCall dicts (with id and type) are accepted too."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: a tool call must be an object {{name, args}}, got {kind(value)}")
    extra = set(value) - {"name", "args", "id", "type"}
    if extra:
        raise ValueError(f"{where}: unknown tool call key(s) {sorted(extra)}; expected name and args")
    name, args = value.get("name"), value.get("args", {})
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}: name must be a non-empty string, got {kind(name)}")
    if not isinstance(args, Mapping):
        raise ValueError(f"{where}: args must be an object, got {kind(args)}")
    return {"name": name, "args": dict(args)}


def _to_message(value: object, index: int) -> BaseMessage:
    """A message from an instance, our flat dict, or LangChain's messages_to_dict form ({type, data})."""
    where = f"item {index}"
    if isinstance(value, BaseMessage):
        if type(value) not in MESSAGE_TYPES.values():
            raise ValueError(f"{where}: unsupported message class {type(value).__name__}")
        return value
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: a message must be an object with type and content, got {kind(value)}")
    type_name = value.get("type")
    if type_name not in MESSAGE_TYPES:
        raise ValueError(f"{where}: type must be one of {', '.join(MESSAGE_TYPES)}, got {type_name!r}")
    if set(value) == {"type", "data"} and isinstance(value["data"], Mapping):
        try:
            return messages_from_dict([dict(value)])[0]
        except (ValidationError, ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"{where}: not a valid {type_name} message ({exc})") from None
    fields = {key: item for key, item in value.items() if key != "type"}
    extra = set(fields) - _MESSAGE_KEYS[type_name]
    if extra:
        allowed = ", ".join(sorted(_MESSAGE_KEYS[type_name]))
        raise ValueError(
            f"{where}: unknown key(s) {sorted(extra)} for a {type_name} message; expected {allowed}"
        )
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
            _ai_tool_call(call, f"{where}: tool call {n}") for n, call in enumerate(calls)
        ]
    try:
        return MESSAGE_TYPES[type_name](**fields)
    except (ValidationError, ValueError, TypeError) as exc:
        raise ValueError(f"{where}: not a valid {type_name} message ({exc})") from None


def _ai_tool_call(call: object, where: str) -> dict[str, Any]:
    """A tool call inside an AI message keeps its id: tool messages answer it by that id."""
    spec = _tool_call(call, where)
    call_id = call.get("id") if isinstance(call, Mapping) else None
    if not isinstance(call_id, str | None):
        raise ValueError(f"{where}: id must be a string, got {kind(call_id)}")
    return {"name": spec["name"], "args": spec["args"], "id": call_id}


def message_to_dict(message: BaseMessage) -> dict[str, Any]:
    """The flat JSON form: {type, content} plus tool_calls (AI) or tool_call_id (tool)."""
    data: dict[str, Any] = {"type": message.type, "content": message.content}
    if isinstance(message, AIMessage) and message.tool_calls:
        data["tool_calls"] = [
            {"name": call["name"], "args": call["args"], **({"id": call["id"]} if call.get("id") else {})}
            for call in message.tool_calls
        ]
    if isinstance(message, ToolMessage):
        data["tool_call_id"] = message.tool_call_id
    return data


def sample_from_row(
    row: object, where: str, renames: dict[str, str] | None = None, kept: dict[str, None] | None = None
) -> SingleTurnSample | MultiTurnSample:
    """One raw row (a JSON object) as a sample; a ConfigError names ``where`` and the field.

    Legacy names are mapped and recorded in ``renames`` (old -> new), so a loader gives one notice.
    With ``kept`` (an ordered set), fields groundset does not use go to metadata and their names to
    ``kept``; without it they are an error. A near miss of a known field is an error either way.
    A row is multi-turn when user_input is a list (of messages) or it has a multi-turn-only field.
    """
    if not isinstance(row, Mapping):
        raise ConfigError(f"{where}: expected an object with the sample's fields, got {kind(row)}")
    check_names(row, KNOWN_NAMES, where)
    record, origin = _rename(dict(row), where)
    if renames is not None:
        renames.update({old: new for new, old in origin.items()})
    multi_only = set(MultiTurnSample.model_fields) - set(SingleTurnSample.model_fields)
    multi = isinstance(record.get("user_input"), list) or bool(multi_only & record.keys())
    model: type[SingleTurnSample | MultiTurnSample] = MultiTurnSample if multi else SingleTurnSample
    unknown = [name for name in record if name not in model.model_fields]
    wrong = unknown if kept is None else [name for name in unknown if name in KNOWN_NAMES]
    if wrong:
        raise ConfigError(f"{where}: unknown field(s) {', '.join(wrong)}; {valid_fields(model)}")
    if unknown and kept is not None:
        keep_in_metadata(record, unknown, where)
        kept.update(dict.fromkeys(unknown))
    try:
        return model.model_validate(record)
    except ValidationError as exc:
        raise ConfigError(f"{where}: {_describe(exc, origin)}") from None


def valid_fields(model: type[BaseModel]) -> str:
    names = ", ".join(name for name in model.model_fields)
    return f"valid fields: {names} (legacy names {', '.join(LEGACY_NAMES)} are read too)"


def _rename(record: dict[str, Any], where: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Map legacy names to current ones; returns the record and {new name: name in the data}."""
    origin: dict[str, str] = {}
    for target in dict.fromkeys(LEGACY_NAMES.values()):
        aliases = [old for old, new in LEGACY_NAMES.items() if new == target]
        given = [name for name in (target, *aliases) if name in record]
        if len(given) > 1:
            names = " and ".join(repr(name) for name in given)
            raise ConfigError(f"{where}: {names} are both given and both mean {target}; keep one")
        if not given or given[0] == target:
            continue
        old = given[0]
        value = record.pop(old)
        if old == "ground_truths" and value is not None:
            try:
                value = "\n".join(_string_list(value) or [])
            except ValueError as exc:
                raise ConfigError(f"{where}: ground_truths: {exc}") from None
        record[target], origin[target] = value, old
    return record, origin


def _describe(exc: ValidationError, origin: Mapping[str, str]) -> str:
    """Pydantic errors as 'field: message', naming a renamed field as the data spelled it."""
    parts = []
    for error in exc.errors(include_url=False):
        location = [str(part) for part in error["loc"]]
        if location and location[0] in origin:
            location[0] = f"{origin[location[0]]} (read as {location[0]})"
        message = error["msg"].removeprefix("Value error, ")
        parts.append(f"{'.'.join(location)}: {message}" if location else message)
    return "; ".join(parts)
