"""Targets: the RAG system under test, as one async call ``question -> RagAnswer``.

A target is a Python function (sync or async), a LangChain Runnable, or an HTTP endpoint. Each
answer is read into one small type, so everything after it (scoring, reports) sees the same thing
whatever the user's system returns: a ``RagAnswer``, a dict, a ``(response, contexts)`` tuple, or
LangChain ``Document`` objects as contexts.

A follow-up question comes with ``history``: the earlier turns as OpenAI-style messages
(``{"role": "user" | "assistant", "content": ...}``). A target that cannot take them gets the
conversation written out before the question, as one text (``conversation_text``).
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.errors import ConfigError
from ..samples.evaluation import SingleTurnSample
from .target_threads import TARGET_THREADS

RESPONSE_KEYS = ("response", "answer", "output", "result")
CONTEXT_KEYS = ("retrieved_contexts", "contexts", "context", "source_documents", "documents")
ID_KEYS = ("retrieved_context_ids", "context_ids", "ids")
History = list[dict[str, str]]
HISTORY_AS_TEXT = "the target takes no history parameter: conversations were sent as one text"
CANCEL_GRACE_S = 1.0  # how long a timed-out async call may take to unwind before the run goes on without it


class RagAnswer(BaseModel):
    """What a RAG system returns for one question: its response, the contexts it retrieved (in rank
    order) and, when it has them, the ids of those contexts (for the ID-based retrieval metrics)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    response: str
    retrieved_contexts: list[str] = Field(default_factory=list)
    retrieved_context_ids: list[str] | None = None


@runtime_checkable
class Target(Protocol):
    """Anything with ``name`` and ``async answer(question) -> RagAnswer``; ``answer`` may also take
    ``history`` (the earlier turns, see the module docstring), else follow-ups come as one text."""

    name: str

    async def answer(self, question: str) -> RagAnswer: ...


class CallableTarget:
    """A Python function ``f(question)``; a sync one runs on a daemon thread (``target_threads``) so others
    run meanwhile and a hung one can be abandoned at its timeout.

    A follow-up question goes as ``f(question, history=[...])`` when the function has a ``history``
    parameter (or ``**kwargs``), else as ``f(conversation_text(question, history))``. Other questions
    go as ``f(question)``, or as ``f(question, history=[])`` when ``history`` has no default."""

    def __init__(self, function: Callable[..., Any], name: str | None = None) -> None:
        if not callable(function):
            raise ConfigError(f"target must be callable, got {type(function).__name__}")
        self.function = function
        self.name = name or getattr(function, "__name__", None) or type(function).__name__
        self._is_async = inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
            getattr(function, "__call__", None)  # noqa: B004 - an object with an async __call__
        )
        self.takes_history = takes_keyword(function, "history")
        self._needs_history = _required(function, "history")

    async def answer(self, question: str, history: History | None = None) -> RagAnswer:
        args: tuple[Any, ...] = (question,)
        kwargs: dict[str, Any] = {}
        if (history and self.takes_history) or self._needs_history:
            kwargs["history"] = list(history or [])
        elif history:
            args = (conversation_text(question, history),)
        if self._is_async:
            value = await self.function(*args, **kwargs)
        else:
            value = await TARGET_THREADS.run(self.function, *args, **kwargs)
            if inspect.isawaitable(value):
                value = await value
        return as_answer(value)


class RunnableTarget:
    """A LangChain Runnable (a chain, a graph, a retriever-backed agent) invoked with the question.

    ``input_key`` wraps the question as ``{input_key: question}`` for chains that take a dict, such
    as the common ``{"input": ...}`` retrieval chains; a follow-up question adds the earlier turns as
    ``{"history": [{"role": ..., "content": ...}, ...]}`` beside it. Without ``input_key`` the runnable
    takes one string, so a follow-up is sent as the conversation written out before the question.
    A sync-only Runnable (see ``sync_only``) is invoked on a daemon thread, as a sync function is.
    """

    def __init__(self, runnable: Any, *, input_key: str | None = None, name: str | None = None) -> None:
        self.runnable = runnable
        self.input_key = input_key
        self.name = name or getattr(runnable, "name", None) or type(runnable).__name__
        self.takes_history = input_key is not None
        self._sync_only = sync_only(runnable)

    async def answer(self, question: str, history: History | None = None) -> RagAnswer:
        payload: Any
        if self.input_key:
            payload = {self.input_key: question, **({"history": history} if history else {})}
        else:
            payload = conversation_text(question, history) if history else question
        if self._sync_only:
            return as_answer(await TARGET_THREADS.run(self.runnable.invoke, payload))
        return as_answer(await self.runnable.ainvoke(payload))


def sync_only(runnable: Any) -> bool:
    """Whether a Runnable has no async code of its own: its ``ainvoke`` would only run ``invoke`` on the
    event loop's shared executor (a sync ``RunnableLambda``, a chain of them, a binding of one, or a class
    that implements ``invoke`` only). Such a Runnable is invoked on groundset's own daemon threads."""
    from langchain_core.runnables import Runnable, RunnableBinding, RunnableLambda, RunnableSequence

    if isinstance(runnable, RunnableLambda):
        return not hasattr(runnable, "afunc")
    if isinstance(runnable, RunnableSequence):
        return all(sync_only(step) for step in runnable.steps)
    if isinstance(runnable, RunnableBinding):
        return sync_only(runnable.bound)
    return isinstance(runnable, Runnable) and type(runnable).ainvoke is Runnable.ainvoke


def takes_keyword(function: Any, name: str) -> bool:
    """Whether ``function`` can be called with ``name=...`` (a parameter of that name, or ``**kwargs``)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # a builtin or C callable without a signature
        return False
    return any(
        p.kind is inspect.Parameter.VAR_KEYWORD
        or (p.name == name and p.kind is not inspect.Parameter.POSITIONAL_ONLY)
        for p in parameters
    )


def _required(function: Any, name: str) -> bool:
    """Whether ``function`` has a parameter ``name`` that must be given (no default)."""
    try:
        found = inspect.signature(function).parameters.get(name)
    except (TypeError, ValueError):
        return False
    keyword = found is not None and found.kind not in (found.POSITIONAL_ONLY, found.VAR_POSITIONAL)
    return keyword and found.default is inspect.Parameter.empty  # type: ignore[union-attr]


def takes_history(target: Target) -> bool:
    """Whether ``target`` receives a conversation's earlier turns as such (not written into the question)."""
    declared = getattr(target, "takes_history", None)
    return declared if isinstance(declared, bool) else takes_keyword(target.answer, "history")


def conversation_text(question: str, history: History) -> str:
    """The question after the earlier turns written out, as a judge reads it (``SingleTurnSample.asked``)."""
    return SingleTurnSample(user_input=question, history=list(history)).asked() or question


def history_messages(sample: SingleTurnSample) -> History | None:
    """A sample's earlier turns as OpenAI-style messages (None without history)."""
    if not sample.history:
        return None
    roles = {"human": "user", "ai": "assistant"}
    return [{"role": roles.get(m.type, m.type), "content": m.text} for m in sample.history]


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


async def ask(target: Target, question: str, history: History | None = None) -> RagAnswer:
    """The target's answer to ``question``; a follow-up goes with its ``history`` when ``answer`` takes
    one, else written out before the question."""
    if not history:
        return await target.answer(question)
    if takes_keyword(target.answer, "history"):
        return await target.answer(question, history=history)  # type: ignore[call-arg]
    return await target.answer(conversation_text(question, history))


async def timed_answer(
    target: Target, question: str, timeout: float | None, history: History | None = None
) -> RagAnswer:
    """One answer within ``timeout`` seconds of the call (a slow target fails that question, not the run).

    The caller takes its concurrency slot first, so waiting for one never counts. A call still running at
    the timeout is abandoned: cancelled, and given ``CANCEL_GRACE_S`` to unwind; a sync call (no thread can
    be stopped) or an async one that ignores the cancellation runs on unobserved, and its slot is free
    again at once. A TimeoutError the target raises itself (its own HTTP timeout) keeps its own message.
    """
    task = asyncio.ensure_future(ask(target, question, history))
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        task.add_done_callback(_forget_outcome)
        await asyncio.wait({task}, timeout=CANCEL_GRACE_S)
        raise TimeoutError(f"timed out after {timeout:g} s")
    return task.result()


def _forget_outcome(task: asyncio.Future[Any]) -> None:
    """An abandoned call's late failure is no "exception was never retrieved" warning: its row has failed."""
    if not task.cancelled():
        task.exception()
