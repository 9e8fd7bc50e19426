"""One chat request through the engine: structured-output kwargs per request, limits, token counts."""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from .engine import CallEngine
from .errors import ModelCallError
from .models import endpoint_identity, model_name
from .structured import Method, bound_for, is_openai_like, request_kwargs

log = logging.getLogger(__name__)

# OpenAI's own API (no base URL, or this one) reads ``max_completion_tokens``, which the OpenAI client
# sends for ``max_tokens``; llama.cpp's, Ollama's and vLLM's servers read ``max_tokens`` and ignore the
# other, so a small model that loops writes until its context is full. For them the limit is sent as
# ``max_tokens`` too, LOCAL_MAX_TOKENS when none is set (``openai:<model>?max_tokens=N`` changes it).
OPENAI_API = "https://api.openai.com/v1"
LOCAL_MAX_TOKENS = 1024


def output_limit(chat: BaseChatModel) -> dict[str, int]:
    """``{"max_tokens": N}`` for an OpenAI-compatible server that is not OpenAI's own API, else {}."""
    base = (getattr(chat, "openai_api_base", None) or "").rstrip("/")
    if not base or base == OPENAI_API:
        return {}
    return {"max_tokens": int(getattr(chat, "max_tokens", None) or LOCAL_MAX_TOKENS)}


async def send_chat(
    chat: BaseChatModel,
    messages: list[BaseMessage],
    method: Method,
    output_model: type[BaseModel],
    n: int,
    engine: CallEngine,
    stage: str,
) -> list[BaseMessage]:
    """One request; OpenAI-like models get n and the format as per-request kwargs.

    A server may refuse ``n`` above its own limit (llama.cpp's server: no more than its parallel slots):
    such a request is asked once with n=1, and where that is accepted the model gets one answer per
    request from then on (the caller asks again for the rest, concurrently)."""
    if not is_openai_like(chat):
        runnable = bound_for(chat, method, output_model)

        async def send_one() -> tuple[list[BaseMessage], tuple[int, int] | None]:
            message = await runnable.ainvoke(messages)
            usage = getattr(message, "usage_metadata", None)
            tokens = (usage["input_tokens"], usage["output_tokens"]) if usage else None
            return [message], tokens

        return await engine.request(chat, stage, send_one)

    # The format goes in as raw body fields: the SDK would otherwise re-walk the whole JSON
    # schema through its typed transforms on every request, its largest per-call cost.
    body = {
        **output_limit(chat),
        **(getattr(chat, "extra_body", None) or {}),
        **request_kwargs(method, output_model),
    }
    client = engine.loop_safe(chat)

    async def ask(answers: int) -> list[BaseMessage]:
        kwargs: dict[str, Any] = {"extra_body": body, **({"n": answers} if answers > 1 else {})}

        async def send() -> tuple[list[BaseMessage], tuple[int, int] | None]:
            result = await client.agenerate([messages], **kwargs)
            generations = result.generations[0]
            return [g.message for g in generations], _token_counts(result.llm_output, generations)

        return await engine.request(chat, stage, send)

    if n == 1:
        return await ask(1)
    endpoint = endpoint_identity(chat)
    if endpoint in engine.one_answer_per_request:
        return await ask(1)
    try:
        return await ask(n)
    except ModelCallError as exc:
        if not exc.rejected or exc.too_long:
            raise
        answers = await ask(1)
        if endpoint not in engine.one_answer_per_request:
            engine.one_answer_per_request.add(endpoint)
            log.warning(
                "%s refused %d answers per request (%s); it is asked one at a time from now on",
                model_name(chat),
                n,
                exc,
            )
        return answers


def _token_counts(llm_output: dict[str, Any] | None, generations: list[Any]) -> tuple[int, int] | None:
    usage = (llm_output or {}).get("token_usage") or {}
    if usage.get("prompt_tokens") is not None:
        return int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    meta = getattr(generations[0].message, "usage_metadata", None) if generations else None
    return (meta["input_tokens"], meta["output_tokens"]) if meta else None
