"""Targets: the RAG system under test, as one async call ``question -> RagAnswer``.

A target is a Python function (sync or async), a LangChain Runnable, or an HTTP endpoint. Each
answer is read into one small type, so everything after it (scoring, reports) sees the same thing
whatever the user's system returns: a ``RagAnswer``, a dict, a ``(response, contexts)`` tuple, or
LangChain ``Document`` objects as contexts.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.errors import ConfigError

RESPONSE_KEYS = ("response", "answer", "output", "result")
CONTEXT_KEYS = ("retrieved_contexts", "contexts", "context", "source_documents", "documents")
ID_KEYS = ("retrieved_context_ids", "context_ids", "ids")


class RagAnswer(BaseModel):
    """What a RAG system returns for one question: its response, the contexts it retrieved (in rank
    order) and, when it has them, the ids of those contexts (for the ID-based retrieval metrics)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    response: str
    retrieved_contexts: list[str] = Field(default_factory=list)
    retrieved_context_ids: list[str] | None = None


@runtime_checkable
class Target(Protocol):
    """Anything with ``name`` and ``async answer(question) -> RagAnswer``."""

    name: str

    async def answer(self, question: str) -> RagAnswer: ...


class CallableTarget:
    """A Python function ``f(question)``; a sync one runs in a worker thread so others can run meanwhile."""

    def __init__(self, function: Callable[[str], Any], name: str | None = None) -> None:
        if not callable(function):
            raise ConfigError(f"target must be callable, got {type(function).__name__}")
        self.function = function
        self.name = name or getattr(function, "__name__", None) or type(function).__name__
        self._is_async = inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
            getattr(function, "__call__", None)  # noqa: B004 - an object with an async __call__
        )

    async def answer(self, question: str) -> RagAnswer:
        if self._is_async:
            value = await self.function(question)
        else:
            value = await asyncio.to_thread(self.function, question)
            if inspect.isawaitable(value):
                value = await value
        return as_answer(value)


class RunnableTarget:
    """A LangChain Runnable (a chain, a graph, a retriever-backed agent) invoked with the question.

    ``input_key`` wraps the question as ``{input_key: question}`` for chains that take a dict, such
    as the common ``{"input": ...}`` retrieval chains.
    """

    def __init__(self, runnable: Any, *, input_key: str | None = None, name: str | None = None) -> None:
        self.runnable = runnable
        self.input_key = input_key
        self.name = name or getattr(runnable, "name", None) or type(runnable).__name__

    async def answer(self, question: str) -> RagAnswer:
        payload: Any = {self.input_key: question} if self.input_key else question
        return as_answer(await self.runnable.ainvoke(payload))


def as_answer(value: Any) -> RagAnswer:
    """Read a target's return value: RagAnswer, dict, (response, contexts[, ids]) or a message."""
    if isinstance(value, RagAnswer):
        return value
    if isinstance(value, tuple):
        if len(value) not in (2, 3):
            raise TypeError(
                f"a target returned a tuple of {len(value)} items; return (response, contexts) "
                "or (response, contexts, context_ids)"
            )
        response, contexts, *ids = value
        return _answer(response, contexts, ids[0] if ids else None)
    if isinstance(value, Mapping):
        response = _first(value, RESPONSE_KEYS)
        if response is _MISSING:
            raise TypeError(
                f"a target returned a dict without a response; keys: {', '.join(map(str, value)) or 'none'} "
                f"(expected one of {', '.join(RESPONSE_KEYS)})"
            )
        contexts = _first(value, CONTEXT_KEYS)
        ids = _first(value, ID_KEYS)
        return _answer(response, [] if contexts is _MISSING else contexts, None if ids is _MISSING else ids)
    content = getattr(value, "content", None)  # an AIMessage from a bare chat model
    if isinstance(content, str):
        return _answer(content, [], None)
    raise TypeError(
        f"a target returned {type(value).__name__}; return a RagAnswer, a dict with 'response' and "
        "'retrieved_contexts', or a (response, contexts) tuple"
    )


_MISSING = object()


def _first(mapping: Mapping[str, Any], keys: Sequence[str]) -> Any:
    for key in keys:
        if key in mapping:
            return mapping[key]
    return _MISSING


def _answer(response: Any, contexts: Any, ids: Any) -> RagAnswer:
    if not isinstance(response, str):
        response = getattr(response, "content", response)  # an AIMessage as the response
    texts, found_ids = _contexts(contexts)
    if ids is None and found_ids and all(i is not None for i in found_ids):
        ids = found_ids
    if isinstance(ids, list | tuple):
        ids = [str(i) for i in ids]
    try:
        return RagAnswer(response=response, retrieved_contexts=texts, retrieved_context_ids=ids)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise TypeError(f"a target's answer is not usable: {problems}") from None


def _contexts(contexts: Any) -> tuple[list[str], list[str | None]]:
    """Context texts and their ids: strings, LangChain Documents, or dicts with text and id."""
    if isinstance(contexts, str):
        raise TypeError("a target returned its contexts as one string; return a list of strings")
    if not isinstance(contexts, Sequence):
        raise TypeError(f"a target's contexts must be a list, got {type(contexts).__name__}")
    texts: list[str] = []
    ids: list[str | None] = []
    for index, item in enumerate(contexts):
        if isinstance(item, str):
            texts.append(item)
            ids.append(None)
        elif hasattr(item, "page_content"):  # langchain_core.documents.Document
            texts.append(str(item.page_content))
            metadata = getattr(item, "metadata", None) or {}
            ids.append(getattr(item, "id", None) or metadata.get("id"))
        elif isinstance(item, Mapping):
            text = _first(item, ("text", "page_content", "content", "chunk"))
            if not isinstance(text, str):
                raise TypeError(f"context {index} is an object with no text, page_content or content string")
            texts.append(text)
            found = _first(item, ("id", "chunk_id", "doc_id"))
            ids.append(None if found is _MISSING else str(found))
        else:
            raise TypeError(f"context {index} is {type(item).__name__}; expected a string or a Document")
    return texts, ids


def as_target(target: Any, **options: Any) -> Target:
    """A Target from what the user gave: a Target, ``"http(s)://..."``, ``"module:function"``, a
    LangChain Runnable or a callable. ``options`` go to the HTTP target (field names, timeout)."""
    if isinstance(target, str):
        if target.startswith(("http://", "https://")):
            from .http_target import HttpTarget

            return HttpTarget(target, **options)
        if options:
            raise ConfigError(f"options {', '.join(options)} apply to HTTP targets only")
        return CallableTarget(load_function(target), name=target)
    if options:
        raise ConfigError(f"options {', '.join(options)} apply to HTTP targets only")
    if isinstance(target, Target):
        return target
    if hasattr(target, "ainvoke") and hasattr(target, "invoke"):
        return RunnableTarget(target)
    if callable(target):
        return CallableTarget(target)
    raise ConfigError(
        f"target must be a function, a LangChain Runnable, an http(s) URL or 'module:function', "
        f"got {type(target).__name__}"
    )


def load_function(spec: str) -> Callable[..., Any]:
    """Import ``package.module:function`` (the current directory is importable, as with ``python -m``)."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ConfigError(
            f"target {spec!r}: write it as module:function (e.g. my_rag.app:answer), an http(s) URL, "
            "or 'baseline'"
        )
    if str(Path.cwd()) not in sys.path and "" not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"target {spec!r}: cannot import {module_name!r} ({exc})") from exc
    found: Any = module
    for part in attribute.split("."):
        found = getattr(found, part, _MISSING)
        if found is _MISSING:
            raise ConfigError(f"target {spec!r}: {module_name} has no attribute {attribute!r}")
    if not callable(found):
        raise ConfigError(f"target {spec!r}: {attribute} is {type(found).__name__}, not a function")
    return found


async def timed_answer(target: Target, question: str, timeout: float | None) -> RagAnswer:
    """One answer within ``timeout`` seconds (a slow target fails that question, not the run). A
    TimeoutError the target raises itself (its own HTTP timeout) keeps its own message."""
    task = asyncio.ensure_future(target.answer(question))
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        raise TimeoutError(f"the target took longer than {timeout:g} s")
    return task.result()
