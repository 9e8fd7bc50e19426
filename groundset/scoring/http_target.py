"""A RAG system behind an HTTP endpoint: POST the question as JSON, read the answer from the JSON reply."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx

from ..core.errors import ConfigError
from ..core.secrets import redact, redact_known, register_secret
from .targets import History, RagAnswer, as_answer, conversation_text

DEFAULT_TIMEOUT = 60.0
# Headers that say how to talk, not who is talking: their values are no secret (and "application/json"
# must not vanish from every answer and message). Every other header's value is treated as a secret.
PLAIN_HEADERS = frozenset(
    {
        "accept",
        "accept-encoding",
        "accept-language",
        "cache-control",
        "connection",
        "content-type",
        "user-agent",
    }
)


class HttpTarget:
    """``POST url`` with ``{question_field: question, **payload}``; the reply is a JSON object.

    Without field names the reply is read like a Python target's dict (``response``/``answer``,
    ``retrieved_contexts``/``contexts``/``context``, ``retrieved_context_ids``/``context_ids``).
    ``response_field``, ``contexts_field`` and ``ids_field`` take dotted paths (``data.answer``)
    for other shapes; ``contexts_field=""`` says the endpoint returns no contexts. A follow-up
    question adds the earlier turns, ``[{"role": "user" | "assistant", "content": ...}, ...]``, to the
    body as ``history_field`` (only for questions that have them); ``history_field=""`` says the
    endpoint takes no history, and the conversation is then written out before the question.

    Redirects are not followed (a POST does not survive every redirect, and credentials must not travel to
    another host): a 3xx reply fails its question, naming where it pointed. Header values (but those of
    ``PLAIN_HEADERS``) are secrets: hidden in errors, and in answers that echo them back.
    """

    def __init__(
        self,
        url: str,
        *,
        question_field: str = "question",
        response_field: str | None = None,
        contexts_field: str | None = None,
        ids_field: str | None = None,
        history_field: str | None = "history",
        payload: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise ConfigError(f"HTTP target: {url!r} is not an http(s) URL")
        if not question_field:
            raise ConfigError("HTTP target: question_field must not be empty")
        if history_field and history_field == question_field:
            raise ConfigError(f"HTTP target: history_field and question_field are both {question_field!r}")
        if timeout <= 0:
            raise ConfigError(f"HTTP target: timeout must be > 0 seconds, got {timeout}")
        self.url = url
        password = urlsplit(url).password
        if password:  # https://user:password@host: the password never reaches a name, log or run file
            register_secret(unquote(password))
            register_secret(password)
        self.name = redact(url)
        self.question_field = question_field
        self.response_field = response_field
        self.contexts_field = contexts_field
        self.ids_field = ids_field
        self.history_field = history_field or ""
        self.takes_history = bool(history_field)
        self.payload = dict(payload or {})
        self.headers = dict(headers or {})
        for key, value in self.headers.items():  # an Authorization or API-key header never reaches a log
            if key.strip().lower() not in PLAIN_HEADERS:
                register_secret(value)  # the whole value, and the token after a scheme ("Bearer ...")
                register_secret(value.split(" ", 1)[-1])
        self.timeout = timeout
        self._client: httpx.AsyncClient | None = None

    async def answer(self, question: str, history: History | None = None) -> RagAnswer:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.timeout, headers=self.headers)
        if history and not self.history_field:
            question, history = conversation_text(question, history), None
        body = {**self.payload, self.question_field: question}
        if history:
            body[self.history_field] = history
        try:
            reply = await self._client.post(self.url, json=body)
        except httpx.TimeoutException:
            raise TimeoutError(f"{self.name} did not answer within {self.timeout:g} s") from None
        except httpx.HTTPError as exc:
            raise ConnectionError(f"{self.name}: {type(exc).__name__}: {redact(str(exc))}") from None
        if 300 <= reply.status_code < 400:
            raise ConnectionError(self._redirect_error(reply))
        if reply.status_code >= 400:
            text = redact(reply.text[:200].replace("\n", " "))
            raise ConnectionError(f"{self.name} answered HTTP {reply.status_code}: {text}")
        try:
            data = reply.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ValueError(
                f"{self.name} did not answer with JSON: {redact(repr(reply.text[:120]))}"
            ) from None
        return _without_secrets(self.read(data))

    def _redirect_error(self, reply: httpx.Response) -> str:
        """Where a redirect pointed (resolved against the target's URL, credentials removed)."""
        status, location = reply.status_code, reply.headers.get("location")
        if not location:
            return f"{self.name} answered HTTP {status} (a redirect with no Location); expected JSON"
        try:
            where = str(httpx.URL(self.url).join(location).copy_with(username=None, password=None))
        except httpx.InvalidURL:
            where = repr(location[:200])
        return (
            f"{self.name} answered HTTP {status}, a redirect to {redact(where)}: redirects are not followed; "
            "use that URL as the target"
        )

    def read(self, data: Any) -> RagAnswer:
        """The answer in a decoded JSON reply, by the configured field paths or the usual key names."""
        if self.response_field is None and self.contexts_field is None and self.ids_field is None:
            if not isinstance(data, Mapping):
                raise TypeError(f"{self.name} answered with JSON {type(data).__name__}, not an object")
            return as_answer(data)
        response = _at(data, self.response_field or "response", self.name)
        contexts = (
            [] if self.contexts_field == "" else _at(data, self.contexts_field or "contexts", self.name)
        )
        ids = _at(data, self.ids_field, self.name) if self.ids_field else None
        return as_answer((response, contexts, ids) if ids is not None else (response, contexts))

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


def _without_secrets(answer: RagAnswer) -> RagAnswer:
    """The answer with every registered secret (header values a server echoed back) replaced by ``***``,
    before it reaches the run file, the report or a log."""
    ids = answer.retrieved_context_ids
    return RagAnswer(
        response=redact_known(answer.response),
        retrieved_contexts=[redact_known(text) for text in answer.retrieved_contexts],
        retrieved_context_ids=None if ids is None else [redact_known(i) for i in ids],
    )


def _at(data: Any, path: str, url: str) -> Any:
    """``data["a"]["b"]`` for ``"a.b"``; a missing step names the keys that are there."""
    found = data
    for step in path.split("."):
        if isinstance(found, Mapping) and step in found:
            found = found[step]
        elif isinstance(found, list) and step.isdigit() and int(step) < len(found):
            found = found[int(step)]
        else:
            keys = ", ".join(map(str, found)) if isinstance(found, Mapping) else type(found).__name__
            raise KeyError(f"{url}: the reply has no {path!r} (at {step!r}; found {keys or 'nothing'})")
    return found
