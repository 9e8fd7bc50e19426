"""User prompt templates, filled safely, and the three judges that answer them (a value from a list,
a number in a range, a ranking of items).

A template names sample fields in braces: ``"Is {response} a correct answer to {user_input}?"``. Only
plain names of sample fields are placeholders: no attribute access, indexing or format specs, so a
template cannot reach anything but the sample's text. The template alone is formatted; braces inside
a sample's text are data and come out as written. Write a literal brace in the template as ``{{``/``}}``.
"""

from __future__ import annotations

import difflib
import json
import math
from string import Formatter
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, Field, create_model

from ..core.errors import ConfigError
from ..core.prompts import Prompt
from ..samples.evaluation import MultiTurnSample, SingleTurnSample

# Every field a sample can have (metadata aside): what a template or a metric function may name.
SAMPLE_FIELDS = tuple(dict.fromkeys([*SingleTurnSample.model_fields, *MultiTurnSample.model_fields]))
SAMPLE_FIELDS = tuple(f for f in SAMPLE_FIELDS if f != "metadata")


def unknown_field(name: str, owner: str, what: str) -> ConfigError:
    """The error for a name that is no sample field: the near miss, then every valid field."""
    close = difflib.get_close_matches(name, SAMPLE_FIELDS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return ConfigError(
        f"{owner}: {what} {name!r} is not a sample field{hint}; valid fields: {', '.join(SAMPLE_FIELDS)}"
    )


def template_fields(template: object, owner: str, *, need_one: bool = True) -> tuple[str, ...]:
    """The sample fields a template names, in order of first use. Raises ConfigError for anything that
    is not a plain ``{field}`` placeholder of a known field."""
    if not isinstance(template, str) or not template.strip():
        raise ConfigError(f"{owner}: prompt must be a non-empty template text, got {template!r}")
    try:
        parts = list(Formatter().parse(template))
    except ValueError as exc:
        raise ConfigError(
            f"{owner}: prompt template is malformed ({exc}); write a literal brace as '{{{{' or '}}}}'"
        ) from exc
    found: list[str] = []
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if not field.isidentifier():
            raise ConfigError(
                f"{owner}: placeholder {{{field}}} is not allowed; use plain field names such as "
                "{response} "
                "(no positions, attributes or indexes)"
            )
        if spec or conversion:
            raise ConfigError(f"{owner}: placeholder {{{field}}} must be plain, without '!' or ':' parts")
        if field not in SAMPLE_FIELDS:
            raise unknown_field(field, owner, "placeholder")
        found.append(field)
    if need_one and not found:
        raise ConfigError(
            f"{owner}: the prompt names no sample field; put the data to judge in placeholders such as "
            "{response} or {reference}"
        )
    return tuple(dict.fromkeys(found))


def as_text(value: Any) -> str:
    """A field's value as prompt text: lists numbered one per line, rubrics and messages one per line."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(f"{key}: {text}" for key, text in value.items())
    if isinstance(value, list):
        if not value:
            return "(none)"
        if all(isinstance(v, BaseMessage) for v in value):
            return "\n".join(
                f"{m.type}: {m.content if isinstance(m.content, str) else json.dumps(m.content)}"
                for m in value
            )
        if all(isinstance(v, str) for v in value):
            return "\n".join(f"[{i}] {text}" for i, text in enumerate(value, 1))
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def fill(template: str, fields: tuple[str, ...], sample: Any) -> str:
    """The template with each placeholder replaced by the sample's text (``str.format_map`` on plain
    strings: a value's own braces are never read as placeholders)."""
    return template.format_map({name: as_text(getattr(sample, name, None)) for name in fields})


class ChoiceTask(BaseModel):
    task: str = Field(description="the user's evaluation instructions, with the sample's data filled in")
    allowed_values: list[str] = Field(description="the only answers allowed")


class Choice(BaseModel):
    reason: str = Field(default="", description="one or two short sentences on why")
    value: str = Field(description="exactly one of the allowed values")


class NumberTask(BaseModel):
    task: str = Field(description="the user's evaluation instructions, with the sample's data filled in")
    lowest: float = Field(description="the lowest number allowed")
    highest: float = Field(description="the highest number allowed")


class Number(BaseModel):
    reason: str = Field(default="", description="one or two short sentences on why")
    value: float = Field(description="a number from lowest to highest inclusive")


class RankingTask(BaseModel):
    task: str = Field(description="the user's instructions for ordering the items")
    items: dict[str, str] = Field(description="the items to order, by number")


class Ranking(BaseModel):
    reason: str = Field(default="", description="one or two short sentences on why")
    ranking: list[int] = Field(description="every item number exactly once, best first")


def _constrained(model: type[BaseModel], field: str, schema: dict[str, Any]) -> type[BaseModel]:
    """``model`` whose JSON schema for ``field`` carries ``schema`` (enum, bounds, lengths). Parsing is
    unchanged, so ``validate`` still words what is wrong in a repair request."""
    base = model.model_fields[field]
    extra = Field(default=base.default, description=base.description, json_schema_extra=schema)
    return create_model(model.__name__, __base__=model, **{field: (base.annotation, extra)})


def match_choice(answer: str, allowed: list[str]) -> str | None:
    """The allowed value the answer names, ignoring case and surrounding space; None if it names none."""
    wanted = answer.strip().casefold()
    return next((value for value in allowed if value.casefold() == wanted), None)


class ChoicePrompt(Prompt[ChoiceTask, Choice]):
    name = "metric.custom.discrete"
    instruction = (
        "You are an evaluator. The task field holds instructions written by a person, with the data to "
        "judge already filled in. Carry the task out carefully, then answer with a short reason and a "
        "value that is exactly one of allowed_values, spelled as listed. Judge only what the task asks."
    )
    examples = [
        (
            ChoiceTask(
                task="Does the answer 'Backups run at 02:00.' give the time in the reference 'The backup "
                "starts at 2 a.m.'? Say pass or fail.",
                allowed_values=["pass", "fail"],
            ),
            Choice(reason="02:00 and 2 a.m. are the same time.", value="pass"),
        )
    ]

    def output_model_for(self, data: ChoiceTask) -> type[BaseModel]:
        """The allowed values as the schema's enum, so a server that honours schemas cannot stray; the
        answer is still read leniently (case, spaces) and checked by ``validate``."""
        return _constrained(Choice, "value", {"enum": list(data.allowed_values)})

    def validate(self, data: ChoiceTask, output: Choice) -> str | None:
        if match_choice(output.value, data.allowed_values) is None:
            return f"gave value {output.value!r}; answer with exactly one of {', '.join(data.allowed_values)}"
        return None


class NumberPrompt(Prompt[NumberTask, Number]):
    name = "metric.custom.numeric"
    instruction = (
        "You are an evaluator. The task field holds instructions written by a person, with the data to "
        "judge already filled in. Carry the task out carefully, then answer with a short reason and one "
        "number from lowest to highest inclusive, as the task defines it. Judge only what the task asks."
    )
    examples = [
        (
            NumberTask(
                task="What share of the reference's facts (port 9100, written in Go) does the answer "
                "'It listens on port 9100.' state?",
                lowest=0,
                highest=1,
            ),
            Number(reason="It states the port but not the language: one of two facts.", value=0.5),
        )
    ]

    def output_model_for(self, data: NumberTask) -> type[BaseModel]:
        """The range as the schema's minimum and maximum."""
        return _constrained(Number, "value", {"minimum": data.lowest, "maximum": data.highest})

    def validate(self, data: NumberTask, output: Number) -> str | None:
        if not math.isfinite(output.value) or not data.lowest <= output.value <= data.highest:
            return f"gave {output.value}; answer with a number from {data.lowest:g} to {data.highest:g}"
        return None


class RankingPrompt(Prompt[RankingTask, Ranking]):
    name = "metric.custom.ranking"
    instruction = (
        "You are an evaluator. The items field holds numbered texts and the task field says, in a "
        "person's words, what makes one item better than another. Order all the items from best to "
        "worst by that standard and answer with their numbers in that order: every number exactly once, "
        "none added. Give a short reason first."
    )
    examples = [
        (
            RankingTask(
                task="Rank the answers to 'What port does the node exporter use?' by correctness.",
                items={
                    "1": "It uses port 8080.",
                    "2": "Port 9100.",
                    "3": "The node exporter listens on 9100.",
                },
            ),
            Ranking(reason="2 and 3 are right, 3 states it fully; 1 is wrong.", ranking=[3, 2, 1]),
        )
    ]

    def output_model_for(self, data: RankingTask) -> type[BaseModel]:
        """One entry per item, each an item number, no repeats: what a schema can say of a permutation."""
        numbers = sorted(int(key) for key in data.items)
        limits = {"minItems": len(numbers), "maxItems": len(numbers), "uniqueItems": True}
        return _constrained(Ranking, "ranking", {**limits, "items": {"type": "integer", "enum": numbers}})

    def validate(self, data: RankingTask, output: Ranking) -> str | None:
        expected = sorted(int(key) for key in data.items)
        if sorted(output.ranking) != expected:
            numbers = ", ".join(map(str, expected))
            return f"gave ranking {output.ranking}; list each of the item numbers {numbers} once, best first"
        return None
