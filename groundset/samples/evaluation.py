"""Evaluation samples: one single-turn RAG exchange, or one multi-turn conversation with tool calls.

Types are strict on purpose: a context list given as one string would otherwise be scored as
a list of characters, and a number silently turned into text hides a broken export.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ConfigDict, ValidationError, field_serializer, field_validator

from ..core.errors import ConfigError
from ..core.records import repair_surrogates
from .columns import check_names, keep_in_metadata
from .messages import ToolCallSpec, check_conversation, kind, message_to_dict, tool_call_spec

LEGACY_NAMES: dict[str, str] = {
    "question": "user_input",
    "answer": "response",
    "contexts": "retrieved_contexts",
    "ground_truth": "reference",
    "ground_truths": "reference",  # a list, joined with newlines
}
_LIST_FIELDS = ("retrieved_contexts", "retrieved_context_ids", "reference_contexts", "reference_context_ids")
_LIST_FIELDS += ("multi_responses",)


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
    return [repair_surrogates(item)[0] for item in value]


def _string(value: object) -> object:
    """A string with any lone UTF-16 surrogate made U+FFFD (not Unicode: a tokenizer cannot encode it;
    files read by groundset are repaired the same way, with a warning)."""
    if value is not None and not isinstance(value, str):
        raise ValueError(f"must be a string, got {kind(value)}")
    return repair_surrogates(value)[0] if value is not None else None


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
    # The conversation before user_input (a follow-up question leans on it): messages as in MultiTurnSample.
    history: list[BaseMessage] | None = None
    # "refuse": the documents do not answer the question, the system should say so; None or "answer": answer.
    expected_behaviour: Literal["answer", "refuse"] | None = None
    metadata: dict[str, Any] = {}

    @field_validator("history", mode="before")
    @classmethod
    def _check_history(cls, value: object) -> object:
        return None if value is None or value == [] else check_conversation(value)

    @field_validator("expected_behaviour", mode="before")
    @classmethod
    def _check_behaviour(cls, value: object) -> object:
        if value is not None and value not in ("answer", "refuse"):
            raise ValueError(f'must be "answer" or "refuse", got {value!r}')
        return value

    @field_serializer("history")
    def _dump_history(self, messages: list[BaseMessage] | None) -> list[dict[str, Any]] | None:
        return None if messages is None else [message_to_dict(message) for message in messages]

    def asked(self) -> str | None:
        """The question as a reader of the conversation sees it: user_input, after the earlier turns when
        there are some (what a judge needs to tell what "and for the second one?" asks)."""
        if not self.history or self.user_input is None:
            return self.user_input
        lines = [f"{'User' if m.type == 'human' else 'Assistant'}: {m.text}" for m in self.history]
        earlier = "\n".join(lines)
        return f"Earlier in the conversation:\n{earlier}\n\nThe question now: {self.user_input}"

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
    """A conversation (human, AI with tool calls, tool and system messages) and what should happen in it.

    Messages may be LangChain messages, their dicts or OpenAI chat dicts (see ``messages``)."""

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
        return check_conversation(value)

    @field_validator("reference_tool_calls", mode="before")
    @classmethod
    def _check_tool_calls(cls, value: object) -> object:
        if value is None:
            return None
        if not isinstance(value, list | tuple):
            raise ValueError(f"must be a list of {{name, args}} objects, got {kind(value)}")
        return [tool_call_spec(item, f"item {index}") for index, item in enumerate(value)]

    @field_serializer("user_input")
    def _dump_messages(self, messages: list[BaseMessage]) -> list[dict[str, Any]]:
        return [message_to_dict(message) for message in messages]


# Every name a row may use for a groundset field: what a user's own column must not be, or nearly be.
KNOWN_NAMES = frozenset(SingleTurnSample.model_fields) | frozenset(MultiTurnSample.model_fields)
KNOWN_NAMES |= frozenset(LEGACY_NAMES)


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
