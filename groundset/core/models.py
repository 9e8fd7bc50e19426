"""Resolve the LLM and embeddings model from a spec string, an object, or the environment.

Specs: ``offline`` (the default when nothing is configured), ``openai:<model>`` with optional
``?temperature=0&max_tokens=512&base_url=...`` (OPENAI_API_KEY / OPENAI_BASE_URL are honoured,
so vLLM, Ollama and llama.cpp servers work through the same client), and for embeddings
``offline`` / ``offline:wordllama`` (semantic, the weights bundled in the wordllama wheel) and
``offline:hashing`` / ``offline:<dimension>`` (lexical, no weights). Any LangChain
``BaseChatModel`` / ``Embeddings`` object works too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qsl

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, SecretStr

from .errors import ConfigError
from .hashing import stable_hash
from .offline_embeddings import DEFAULT_DIMENSION, HashingEmbeddings, OfflineEmbeddings
from .secrets import is_secret_field, register_model_secrets, register_secret
from .wordllama_embeddings import DIMENSION as WORDLLAMA_DIMENSION
from .wordllama_embeddings import WordLlamaEmbeddings

LLM_ENV = "GROUNDSET_LLM"
EMBEDDINGS_ENV = "GROUNDSET_EMBEDDINGS"
SPEC_HELP = "use 'offline' or 'openai:<model>' (e.g. openai:gpt-4o-mini)"
OFFLINE_EMBEDDINGS_HELP = (
    "use 'offline:wordllama' (semantic), or 'offline:hashing' / 'offline:<dimension>' "
    "(lexical; the dimension an integer >= 16, e.g. offline:1024)"
)


class OfflineLLM:
    """The offline 'model': prompts run their deterministic classical-NLP form instead of a call."""

    identity = "offline"

    def __repr__(self) -> str:
        return "OfflineLLM()"


OFFLINE_LLM = OfflineLLM()


@dataclass(frozen=True)
class ResolvedModel:
    """A model plus where its configuration came from (for `groundset models` and artefacts)."""

    kind: Literal["llm", "embeddings"]
    model: Any
    spec: str
    source: str

    @property
    def is_offline(self) -> bool:
        return is_offline(self.model)


def is_offline(model: Any) -> bool:
    return model is None or isinstance(model, OfflineLLM | OfflineEmbeddings)


def resolve_llm(value: Any = None, *, env: Mapping[str, str] | None = None) -> ResolvedModel:
    """Resolve an LLM from ``value`` (spec string or BaseChatModel), else GROUNDSET_LLM, else offline."""
    env = os.environ if env is None else env
    if isinstance(value, ResolvedModel):
        return value
    if isinstance(value, OfflineLLM | BaseChatModel):
        register_model_secrets(value)
        return ResolvedModel("llm", value, describe_model(value), "object passed in")
    if value is not None and not isinstance(value, str):
        raise ConfigError(
            f"llm must be a spec string or a LangChain BaseChatModel, got {type(value).__name__}; "
            + SPEC_HELP
        )
    spec, source = _pick_spec(value, env, LLM_ENV)
    provider, name, options = _parse_spec(spec, LLM_ENV if source.startswith("env") else "llm")
    if provider == "offline":
        if name:
            raise ConfigError(f"llm spec {spec!r}: 'offline' takes no model name; " + SPEC_HELP)
        return ResolvedModel("llm", OFFLINE_LLM, "offline", source)
    from langchain_openai import ChatOpenAI

    kwargs = _openai_kwargs(spec, options, env, {"temperature": float, "max_tokens": int})
    model = ChatOpenAI(model=name, max_retries=0, **kwargs)
    return ResolvedModel("llm", model, spec, source)


def resolve_embeddings(value: Any = None, *, env: Mapping[str, str] | None = None) -> ResolvedModel:
    """Resolve embeddings from ``value`` (spec or Embeddings), else GROUNDSET_EMBEDDINGS, else offline."""
    env = os.environ if env is None else env
    if isinstance(value, ResolvedModel):
        return value
    if isinstance(value, Embeddings):
        register_model_secrets(value)
        return ResolvedModel("embeddings", value, describe_model(value), "object passed in")
    if value is not None and not isinstance(value, str):
        raise ConfigError(
            f"embeddings must be a spec string or a LangChain Embeddings, got {type(value).__name__}; "
            "use 'offline', 'offline:wordllama', 'offline:<dimension>' or 'openai:<model>'"
        )
    spec, source = _pick_spec(value, env, EMBEDDINGS_ENV)
    where = EMBEDDINGS_ENV if source.startswith("env") else "embeddings"
    provider, name, options = _parse_spec(spec, where)
    if provider == "offline":
        model = _offline_embeddings(name, f"{where} spec {spec!r}")
        return ResolvedModel("embeddings", model, model.identity, source)
    from langchain_openai import OpenAIEmbeddings

    kwargs = _openai_kwargs(spec, options, env, {"dimensions": int})
    # check_embedding_ctx_length=False: the length check needs tiktoken files from the internet.
    model = OpenAIEmbeddings(model=name, max_retries=0, check_embedding_ctx_length=False, **kwargs)
    return ResolvedModel("embeddings", model, spec, source)


def _offline_embeddings(name: str, where: str) -> OfflineEmbeddings:
    """``offline[:name]`` -> a model; each identity (``hashing-1024``, ``wordllama-256``) resolves back."""
    name = name.lower()
    if name in ("", "wordllama", f"wordllama-{WORDLLAMA_DIMENSION}"):
        return WordLlamaEmbeddings()
    hashing = re.fullmatch(r"(?:hashing(?:-(\d+))?|(\d+))?", name)
    dimension = int(hashing[1] or hashing[2] or DEFAULT_DIMENSION) if hashing else 0
    try:
        return HashingEmbeddings(dimension)
    except ValueError as exc:  # too small, or not a hashing name at all
        raise ConfigError(f"{where}: {OFFLINE_EMBEDDINGS_HELP}") from exc


def _pick_spec(value: str | None, env: Mapping[str, str], var: str) -> tuple[str, str]:
    if value is not None and value.strip():
        return value.strip(), "argument"
    if env.get(var, "").strip():
        return env[var].strip(), f"environment variable {var}"
    return "offline", "default: nothing configured"


def _parse_spec(spec: str, where: str) -> tuple[str, str, dict[str, str]]:
    head, _, query = spec.partition("?")
    provider, _, name = head.partition(":")
    provider = provider.strip().lower()
    if provider not in ("offline", "openai"):
        raise ConfigError(f"{where}: unknown model spec {spec!r}; " + SPEC_HELP)
    if provider == "openai" and not name.strip():
        raise ConfigError(f"{where}: {spec!r} names no model; write openai:<model>, e.g. openai:gpt-4o-mini")
    return provider, name.strip(), dict(parse_qsl(query, keep_blank_values=True))


def _openai_kwargs(
    spec: str, options: dict[str, str], env: Mapping[str, str], typed: dict[str, type]
) -> dict[str, Any]:
    allowed = {**typed, "base_url": str}
    kwargs: dict[str, Any] = {}
    for key, raw in options.items():
        if key not in allowed:
            raise ConfigError(
                f"model spec {spec!r}: unknown option {key!r}; allowed: {', '.join(sorted(allowed))}"
            )
        try:
            kwargs[key] = allowed[key](raw)
        except ValueError as exc:
            raise ConfigError(
                f"model spec {spec!r}: option {key}={raw!r} is not a valid {allowed[key].__name__}"
            ) from exc
    base_url = kwargs.pop("base_url", None) or env.get("OPENAI_BASE_URL") or None
    api_key = env.get("OPENAI_API_KEY") or None
    if api_key is None and base_url is None:
        raise ConfigError(
            f"{spec!r} needs an API key: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local "
            "OpenAI-compatible server (vLLM, Ollama, llama.cpp); or use 'offline'"
        )
    # Local servers usually ignore the key, but the client insists on one.
    key = SecretStr(api_key or "not-needed")
    register_secret(key)
    kwargs["api_key"] = key
    if base_url:
        kwargs["base_url"] = base_url
    return kwargs


_VOLATILE = {
    "max_retries",
    "request_timeout",
    "timeout",
    "verbose",
    "callbacks",
    "callback_manager",
    "tags",
    "metadata",
    "cache",
    "rate_limiter",
    "show_progress_bar",
    "chunk_size",
    "retry_min_seconds",
    "retry_max_seconds",
    "disable_streaming",
    "streaming",
    "stream",
    "stream_chunk_timeout",
    "http_socket_options",
    "openai_proxy",
    "name",  # a label for traces
    "profile",  # the provider's capability sheet (release dates...), not a setting
}


def model_parameters(model: Any) -> dict[str, Any]:
    """The settings that shape a model's output, with credentials and transport settings left out.

    Taken from the model's own fields merged with ``_identifying_params``: langchain-core leaves the
    latter empty for custom chat models, and two of them differing only in ``model`` must not share
    cached answers.
    """
    params: dict[str, Any] = {}
    if isinstance(model, BaseModel):
        params.update({name: getattr(model, name, None) for name in type(model).model_fields})
    identifying = getattr(model, "_identifying_params", None)
    if isinstance(identifying, Mapping):
        params.update(identifying)
    for attr in ("openai_api_base", "base_url"):
        value = getattr(model, attr, None)
        if isinstance(value, str):
            params["base_url"] = value
    clean: dict[str, Any] = {}
    for key, value in params.items():
        if value is None or key in _VOLATILE or is_secret_field(key) or isinstance(value, SecretStr):
            continue  # None: unset, so a new optional field in a library update changes no identity
        if is_plain(value):
            clean[key] = _without_secrets(value)
    return clean


def is_plain(value: Any) -> bool:
    """A setting JSON can hold (str, number, bool, None, and lists and dicts of them)."""
    if value is None or isinstance(value, str | int | float | bool):
        return True
    if isinstance(value, list | tuple):
        return all(is_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain(v) for k, v in value.items())
    return False


def _without_secrets(value: Any) -> Any:
    """Nested settings (model_kwargs, extra_body) minus key-like entries: a key is not an identity."""
    if isinstance(value, dict):
        return {k: _without_secrets(v) for k, v in value.items() if not is_secret_field(k)}
    if isinstance(value, list | tuple):
        return [_without_secrets(v) for v in value]
    return value


def model_identity(model: Any) -> str:
    """A stable, secret-free string naming a model and its output-shaping settings (cache key part)."""
    return _identity(model, lambda: model_parameters(model))


def endpoint_identity(model: Any) -> str:
    """The model behind a chat object, whatever its sampling settings: the class, model name and server.

    What output formats a model accepts belongs to the model and its server, so a judge at temperature 0
    and a writer at 0.7 of one server share what the first of them found out."""
    return _identity(model, lambda: [model_name(model), model_parameters(model).get("base_url")])


def _identity(model: Any, content: Callable[[], Any]) -> str:
    """The model's own ``identity`` string where it has one, else its class and a hash of ``content``."""
    own = getattr(model, "identity", None)
    if isinstance(own, str):
        return own
    cls = type(model)
    return f"{cls.__module__}.{cls.__qualname__}#{stable_hash(content(), length=16)}"


def model_name(model: Any) -> str:
    """The model's short name (for price lookup and display), or its class name."""
    for attr in ("model_name", "model", "deployment_name"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    own = getattr(model, "identity", None)
    return own if isinstance(own, str) else type(model).__name__


def describe_model(model: Any) -> str:
    """A one-line human description, e.g. ``ChatOpenAI gpt-4o-mini @ http://localhost:8000/v1``."""
    if is_offline(model):
        return model.identity if model is not None else "offline"
    base = model_parameters(model).get("base_url")
    text = f"{type(model).__name__} {model_name(model)}"
    return f"{text} @ {base}" if base else text
