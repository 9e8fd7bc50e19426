"""Give OpenAI-style LangChain models an async HTTP client owned by the engine loop.

langchain-openai shares one pooled ``httpx.AsyncClient`` per base URL across every model object
in the process. A connection pooled by one event loop cannot be used from another ("Event loop
is closed", hangs). If the caller ever used the same model (or another with the same base URL)
on its own loop, our loop would inherit those connections. So before the engine sends anything
through such a model it works on a copy whose async client is its own; the caller's object and
its sync client are left untouched. A model given an explicit ``http_async_client`` by its owner
is used as it is.
"""

from __future__ import annotations

import weakref
from typing import Any

_ASYNC_CLIENT_FIELDS = ("async_client", "root_async_client")


def needs_private_client(model: Any) -> bool:
    fields = getattr(type(model), "model_fields", {})
    return (
        "http_async_client" in fields
        and "async_client" in fields
        and getattr(model, "http_async_client", None) is None
        and callable(getattr(model, "validate_environment", None))
    )


def with_private_client(model: Any, max_connections: int) -> Any:
    """A copy of ``model`` whose async requests go through a new client of its own.

    The client is the OpenAI SDK's own default class (so it is built on whichever httpx the
    installed SDK uses), with enough keep-alive connections for the engine's concurrency.
    """
    import openai

    limits_type = type(openai.DEFAULT_CONNECTION_LIMITS)
    proxy = getattr(model, "openai_proxy", None) or None
    options: dict[str, Any] = {
        "limits": limits_type(
            max_connections=max(100, 2 * max_connections), max_keepalive_connections=max(20, max_connections)
        ),
    }
    if proxy is not None:
        options["proxy"] = proxy
    client = openai.DefaultAsyncHttpxClient(**options)
    fields = type(model).model_fields
    update: dict[str, Any] = {"http_async_client": client}
    update.update({name: None for name in _ASYNC_CLIENT_FIELDS if name in fields})
    if proxy is not None:
        update["openai_proxy"] = None  # the proxy is on our client; the model refuses both
    clone = model.model_copy(update=update)
    clone.validate_environment()
    return clone


class PrivateClients:
    """Per-engine memo: one private copy per model object, made on first use, dropped with the model."""

    def __init__(self, max_connections: int) -> None:
        self._max_connections = max_connections
        self._copies: dict[int, tuple[weakref.ref[Any], Any]] = {}

    def get(self, model: Any) -> Any:
        if not needs_private_client(model):
            return model
        key = id(model)
        entry = self._copies.get(key)
        if entry is None or entry[0]() is not model:
            entry = (weakref.ref(model), with_private_client(model, self._max_connections))
            self._copies[key] = entry
            weakref.finalize(model, self._copies.pop, key, None)
        return entry[1]

    def __len__(self) -> int:
        return len(self._copies)
