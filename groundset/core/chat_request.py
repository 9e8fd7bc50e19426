"""One chat request through the engine: structured-output kwargs per request, limits, token counts."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from .engine import CallEngine
from .structured import Method, bound_for, is_openai_like, request_kwargs

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
    """One request; OpenAI-like models get n and the format as per-request kwargs."""
    if is_openai_like(chat):
        # The format goes in as raw body fields: the SDK would otherwise re-walk the whole JSON
        # schema through its typed transforms on every request, its largest per-call cost.
        body = {
            **output_limit(chat),
            **(getattr(chat, "extra_body", None) or {}),
            **request_kwargs(method, output_model),
        }
        kwargs: dict[str, Any] = {"extra_body": body}
        if n > 1:
            kwargs["n"] = n
        client = engine.loop_safe(chat)

        async def send() -> tuple[list[BaseMessage], tuple[int, int] | None]:
            result = await client.agenerate([messages], **kwargs)
            generations = result.generations[0]
            return [g.message for g in generations], _token_counts(result.llm_output, generations)
    else:
        runnable = bound_for(chat, method, output_model)

        async def send() -> tuple[list[BaseMessage], tuple[int, int] | None]:
            message = await runnable.ainvoke(messages)
            usage = getattr(message, "usage_metadata", None)
            tokens = (usage["input_tokens"], usage["output_tokens"]) if usage else None
            return [message], tokens

    return await engine.request(chat, stage, send)


def _token_counts(llm_output: dict[str, Any] | None, generations: list[Any]) -> tuple[int, int] | None:
    usage = (llm_output or {}).get("token_usage") or {}
    if usage.get("prompt_tokens") is not None:
        return int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    meta = getattr(generations[0].message, "usage_metadata", None) if generations else None
    return (meta["input_tokens"], meta["output_tokens"]) if meta else None
