"""Made-up answers for a dry run: a schema-valid, typical-looking JSON value for an output schema.

A dry run (``core.estimate``) must flow through the pipeline the way a real run does, so its
answers must pass every parse and check a real answer passes (required and keyed properties, item
counts, enums, bounds), look like real answers to the checks that read them (a question has a
dozen words, a reference other words than its question), and be about as long as a model's answer,
since the output tokens are estimated from them. Lengths follow the schema's own hints ("3 to 8 key
phrases", "1 to 2 sentences", "one short sentence"). Deterministic for a given seed.

``synthesise`` answers one chat request so, with the request's own words; ``DryChat`` stands in for a
chat model the engine cannot intercept; ``text_tokens`` is the token estimate both are counted with.
"""

from __future__ import annotations

import json
import math
import random
import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult, LLMResult
from langchain_core.runnables import RunnableLambda

from .hashing import stable_hash
from .structured import output_schema

CHARS_PER_TOKEN = 4  # OpenAI's rule of thumb for English (and what mockllm reports)
MESSAGE_OVERHEAD = 4  # tokens per chat message (role and separators), as OpenAI counts them
REPLY_OVERHEAD = 3  # tokens priming the reply
_SCHEMA_IN_TEXT = "follows this JSON schema:"
_WORD = re.compile(r"[^\W\d_][\w'-]*")
MAX_DEPTH = 12  # deeper (recursive) schemas get their smallest value
DEFAULT_ITEMS = 3
# Filler words when the request gives none: plain, distinct content words of everyday length.
_WORDS = (  # noqa: SIM905 - one word list, read as prose
    "server metric alert rule query label target scrape interval storage retention sample series "
    "counter gauge histogram summary exporter endpoint config file value limit timeout default "
    "record dashboard panel node cluster service instance job duration window range vector scalar "
    "function operator result error warning status report format version release update option "
    "client request response header token schema field index cache disk memory network process"
).split()
_FORMATS = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "00:00:00",
    "email": "someone@example.com",
    "uri": "https://example.com/page",
    "uuid": "00000000-0000-4000-8000-000000000000",
}
_RANGE = re.compile(r"(\d+)\s*(?:to|-|–)\s*(\d+)")
_SENTENCES = re.compile(r"(\d+|one|two|three)(?:\s+(?:or|to)\s+(\d+|two|three))?\s+(?:short\s+)?sentences?")
_NUMBERS = {"one": 1, "two": 2, "three": 3}
_WORDS_PER_SENTENCE = 14
COPY_RATE = 0.5
# Booleans named like these are good answers when false (an evasive response, a contradiction).
_NEGATIVE = ("noncommittal", "hallucinat", "contradict", "refus", "toxic", "harm", "error", "duplicate")
# Property names whose text is a sentence or more.
_PROSE = ("reason", "reference", "answer", "summary", "description", "explanation", "statement", "state")


class SchemaFiller:
    """Fills JSON schemas (a practical subset: $ref/$defs, anyOf/oneOf/allOf, objects, arrays, enums,
    const, numbers with bounds, strings with formats and lengths). ``vocabulary``: words to write
    strings with, e.g. the request's own, so answers read like the input and have its word lengths.
    ``good_rate``: the chance that a boolean gives the good answer (a verdict true, "noncommittal"
    false); below 1, some answers fail the checks that read them, as some of a model's do.
    ``source``: the passage prose answers copy from, as its whitespace-separated tokens in order."""

    def __init__(
        self,
        seed: Any = 0,
        vocabulary: list[str] | None = None,
        good_rate: float = 1.0,
        source: list[str] | None = None,
        asked: str = "",
    ) -> None:
        self.rng = random.Random(str(seed))
        self.good_rate = good_rate
        self.source = list(source or [])
        words = list(dict.fromkeys(w for w in (vocabulary or []) if w.isalpha() and len(w) > 2))
        self.words = words if len(words) >= 20 else list(_WORDS)
        # A model asked about the same passage twice writes about the same question (and the generator's
        # de-duplication drops the second, as it drops a real run's): questions are seeded by the passage,
        # and by what is asked of it (``asked``: the instruction), since a comparison of two passages is no
        # copy of a single-hop question on one of them.
        self.topic_rng = random.Random(asked + " ".join(self.source[:300])) if self.source else self.rng
        topic = dict.fromkeys(w.strip(".,;:()`*'\"").lower() for w in self.source)
        self.topic_words = [w for w in topic if w.isalpha() and len(w) > 2] or self.words

    def fill(self, schema: Any) -> Any:
        return self._value(schema, schema if isinstance(schema, dict) else {}, "", 0)

    # -- dispatch -------------------------------------------------------------------------
    def _value(self, schema: Any, root: dict[str, Any], name: str, depth: int) -> Any:
        if not isinstance(schema, dict):
            return "" if schema is True else None
        if "$ref" in schema and depth <= MAX_DEPTH * 2:
            return self._value(_resolve(root, schema["$ref"]), root, name, depth + 1)
        if "const" in schema:
            return schema["const"]
        if schema.get("enum"):
            return schema["enum"][0]
        for key in ("anyOf", "oneOf", "allOf"):
            branches = [
                b for b in schema.get(key) or [] if not (isinstance(b, dict) and b.get("type") == "null")
            ]
            if branches:
                hints = {k: schema[k] for k in ("description", "title") if k in schema}
                return self._value({**hints, **branches[0]}, root, name, depth + 1)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind is None:
            kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
        if kind == "object":
            return self._object(schema, root, depth)
        if kind == "array":
            return self._array(schema, root, name, depth)
        if kind == "string":
            return self._string(schema, name)
        if kind in ("integer", "number"):
            return _number(schema, kind == "integer")
        if kind == "boolean":
            good = self.good_rate >= 1 or self.rng.random() < self.good_rate
            return good != any(part in name.lower() for part in _NEGATIVE)
        return None

    def _object(self, schema: dict[str, Any], root: dict[str, Any], depth: int) -> dict[str, Any]:
        """Every property (a model fills in the optional ones too: they cost tokens); past the depth
        limit only the required ones."""
        required = set(schema.get("required") or [])
        props = schema.get("properties") or {}
        return {
            key: self._value(sub, root, key, depth + 1)
            for key, sub in props.items()
            if depth < MAX_DEPTH or key in required
        }

    def _array(self, schema: dict[str, Any], root: dict[str, Any], name: str, depth: int) -> list[Any]:
        prefix, items = schema.get("prefixItems") or [], schema.get("items", {})
        if isinstance(items, list):  # draft-4 tuple form
            prefix, items = items, schema.get("additionalItems", {})
        low, high = _hinted_range(schema.get("description", ""), (DEFAULT_ITEMS, DEFAULT_ITEMS))
        count = (low + high + 1) // 2 if depth < MAX_DEPTH else 0
        count = max(count, schema.get("minItems", 0), len(prefix))
        count = min(count, schema.get("maxItems", count))
        subs = [prefix[i] if i < len(prefix) else items for i in range(count)]
        values = [self._value(sub, root, name, depth + 1) for sub in subs]
        if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            values = [v + i for i, v in enumerate(values)]  # e.g. a ranking: distinct item numbers
        return values

    def _string(self, schema: dict[str, Any], name: str) -> str:
        if schema.get("format") in _FORMATS:
            text = _FORMATS[schema["format"]]
        else:
            text = self._text(schema.get("description", "") or "", name.lower())
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        while len(text) < low:
            text += " " + self.rng.choice(self.words)
        return text[:high] if high is not None else text

    def _text(self, description: str, name: str) -> str:
        """Words in the amount the description asks for, else a typical amount for the field."""
        hint = description.lower()
        sentences = _SENTENCES.search(hint)
        if sentences:
            low = _count(sentences.group(1))
            high = _count(sentences.group(2)) if sentences.group(2) else low
            return self._sentences((low + high + 1) // 2)
        words = re.search(r"(\d+)\s*(?:to|-)\s*(\d+)\s+words", hint)
        if words:
            return self._phrase((int(words.group(1)) + int(words.group(2)) + 1) // 2)
        if "question" in name:
            return " ".join(self.topic_rng.choice(self.topic_words) for _ in range(12)) + "?"
        if any(part in name for part in _PROSE) or "sentence" in hint:
            return self._sentences(2 if name in ("reference", "answer", "summary") else 1)
        return self._phrase(4)

    def _phrase(self, count: int) -> str:
        return " ".join(self.rng.choice(self.words) for _ in range(max(1, count)))

    def _sentences(self, count: int) -> str:
        """Prose: half the time a passage of the input copied word for word (a grounded answer mostly
        restates its source, and the checks that compare it with the source see it so), else its words
        in any order."""
        copy = len(self.source) > 2 * _WORDS_PER_SENTENCE and self.rng.random() < COPY_RATE
        parts = []
        for _ in range(max(1, count)):
            if copy:
                start = self.rng.randrange(len(self.source) - _WORDS_PER_SENTENCE)
                words = " ".join(self.source[start : start + _WORDS_PER_SENTENCE])
            else:
                words = self._phrase(_WORDS_PER_SENTENCE)
            parts.append(words[:1].upper() + words[1:].rstrip(".") + ".")
        return " ".join(parts)


def fill_schema(
    schema: dict[str, Any],
    *,
    seed: Any = 0,
    vocabulary: list[str] | None = None,
    good_rate: float = 1.0,
    source: list[str] | None = None,
    asked: str = "",
) -> Any:
    """A JSON value valid against ``schema``, of typical size (see ``SchemaFiller``)."""
    return SchemaFiller(seed, vocabulary, good_rate, source, asked).fill(schema)


def _resolve(root: dict[str, Any], ref: str) -> Any:
    """A local ``#/...`` JSON pointer (anything else resolves to an empty schema)."""
    node: Any = root if ref.startswith("#") else {}
    for part in filter(None, ref[1:].split("/")):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node.get(part, {}) if isinstance(node, dict) else {}
    return node


def _hinted_range(description: str, default: tuple[int, int]) -> tuple[int, int]:
    found = _RANGE.search(description)
    return (int(found.group(1)), int(found.group(2))) if found else default


def _count(word: str) -> int:
    return _NUMBERS.get(word) or int(word)


def _number(schema: dict[str, Any], integer: bool) -> int | float:
    """The upper bound when there is one (a rating's best: an answer that passes the checks that read
    it, as most answers of a good model do), else the lower bound, else 1."""
    step = 1 if integer else 1e-3
    low = [b for b in (schema.get("minimum"), _shift(schema.get("exclusiveMinimum"), step)) if b is not None]
    high = [
        b for b in (schema.get("maximum"), _shift(schema.get("exclusiveMaximum"), -step)) if b is not None
    ]
    value: float = min(high) if high else max(low) if low else 1
    if integer:
        value = math.floor(value) if high else math.ceil(value)
    if low and value < max(low):
        value = math.ceil(max(low)) if integer else max(low)
    return int(value) if integer else float(value)


def _shift(bound: Any, delta: float) -> float | None:
    numeric = isinstance(bound, int | float) and not isinstance(bound, bool)
    return bound + delta if numeric else None


def text_tokens(text: str) -> int:
    """Tokens of ``text``: characters / 4, rounded up. No tokenizer is available offline (tiktoken
    downloads its files), and a BPE tokenizer gives about this on English prose and JSON alike."""
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def _content(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content or "")


def prompt_tokens(messages: list[BaseMessage]) -> int:
    return sum(text_tokens(_content(m)) + MESSAGE_OVERHEAD for m in messages) + REPLY_OVERHEAD


def schema_in_text(messages: list[BaseMessage]) -> dict[str, Any] | None:
    """The schema a JSON-in-text request writes into its prompt (see ``Prompt.messages``), if any."""
    for message in messages:
        text = _content(message)
        at = text.find(_SCHEMA_IN_TEXT)
        if at >= 0:
            try:
                return json.JSONDecoder().raw_decode(text[at + len(_SCHEMA_IN_TEXT) :].lstrip())[0]
            except ValueError:
                return None
    return None


def synthesise(
    messages: list[BaseMessage], schema: dict[str, Any] | None, index: int, good_rate: float = 1.0
) -> str:
    """The answer text to a request: JSON valid for ``schema`` written with the input's own words,
    different for each request and choice ``index``, or a sentence when no schema was asked for."""
    seed = stable_hash([[_content(m) for m in messages], index])
    text = _content(messages[-1]) if messages else ""
    given = _input(text)
    texts = (_input_texts(given) or [text]) if messages else []
    words = {"vocabulary": _WORD.findall(" ".join(texts)), "source": max(texts, key=len, default="").split()}
    # what is asked: the instructions, and the kind of question when one prompt writes several kinds
    kind = str(given.get("kind", "")) if isinstance(given, dict) else ""
    asked = stable_hash([[_content(m).split("Input: ", 1)[0] for m in messages], kind])
    if schema is None:
        return fill_schema({"type": "string", "description": "2 sentences"}, seed=seed, **words)
    return json.dumps(fill_schema(schema, seed=seed, good_rate=good_rate, asked=asked, **words))


def answer_request(messages: list[BaseMessage], kwargs: dict[str, Any], good_rate: float) -> LLMResult:
    """What an OpenAI-like model would return for this request (``chat_request.send_chat``'s kwargs: the
    output format in ``extra_body``, ``n``): n made-up answers, as content or as a forced tool call,
    and their token counts."""
    body = kwargs.get("extra_body") or {}
    tools = body.get("tools") or []
    function = (tools[0].get("function") or {}) if tools else {}
    response_format = body.get("response_format") or {}
    fmt = response_format.get("json_schema") or response_format  # json_object carries "schema" itself
    schema = function.get("parameters") or fmt.get("schema") or schema_in_text(messages)
    generations, out_tokens = [], 0
    for index in range(int(kwargs.get("n") or 1)):
        text = synthesise(messages, schema, index, good_rate)
        out_tokens += text_tokens(text)
        if tools:
            call = {"name": function.get("name", "answer"), "args": json.loads(text), "id": f"dry_{index}"}
            message = AIMessage(content="", tool_calls=[call])
        else:
            message = AIMessage(content=text)
        generations.append(ChatGeneration(message=message))
    usage = {"prompt_tokens": prompt_tokens(messages), "completion_tokens": out_tokens}
    return LLMResult(generations=[generations], llm_output={"token_usage": usage})


def _input(text: str) -> Any:
    """A prompt's input (``Input: {json}``, see ``Prompt.messages``) as parsed JSON; None when not JSON."""
    try:
        return json.loads(text.removeprefix("Input: "))
    except ValueError:
        return None


def _input_texts(value: Any) -> list[str]:
    """The strings of a parsed input, in order ([] for none or no input)."""
    found: list[str] = []

    def walk(item: Any) -> None:
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict | list):
            for inner in item.values() if isinstance(item, dict) else item:
                walk(inner)

    walk(value)
    return found


class DryChat(BaseChatModel):
    """Stands in for a chat model that is not OpenAI-like (its requests do not go through the engine's
    client): the real model's identity, name and temperature, so cache keys and prices are its own."""

    identity: str
    model_name: str
    temperature: float | None = None
    good_rate: float = 1.0

    @property
    def _llm_type(self) -> str:
        return "groundset-dry-run"

    def answer(self, messages: list[BaseMessage], schema: dict[str, Any] | None) -> AIMessage:
        text = synthesise(messages, schema, 0, self.good_rate)
        tokens = {"input_tokens": prompt_tokens(messages), "output_tokens": text_tokens(text)}
        return AIMessage(content=text, usage_metadata={**tokens, "total_tokens": sum(tokens.values())})

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **_: Any
    ) -> ChatResult:
        return ChatResult(
            generations=[ChatGeneration(message=self.answer(messages, schema_in_text(messages)))]
        )

    def with_structured_output(self, schema: Any, **_: Any) -> Any:  # type: ignore[override]
        json_schema = output_schema(schema) if isinstance(schema, type) else schema
        return RunnableLambda(lambda messages: self.answer(list(messages), json_schema))
