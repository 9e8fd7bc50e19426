"""Keep API keys out of logs, cache files and error messages.

Every key groundset sees (from a model object or the environment) is registered here, and
every message that may carry text from a client library passes through ``redact``.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from pydantic import SecretStr

_SECRET_ENV = ("OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GROUNDSET_API_KEY")
_lock = threading.Lock()
_secrets: set[str] = set()


def register_secret(value: Any) -> None:
    """Remember a secret value (a str or SecretStr) so that ``redact`` hides it."""
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
    if isinstance(value, str) and len(value) >= 6:
        with _lock:
            _secrets.add(value)


def register_model_secrets(model: Any) -> None:
    """Register every SecretStr field of a LangChain model object."""
    for name in getattr(type(model), "model_fields", {}):
        value = getattr(model, name, None)
        if isinstance(value, SecretStr):
            register_secret(value)


def redact(text: str) -> str:
    """Replace every known secret in ``text`` with ``***``."""
    for name in _SECRET_ENV:
        register_secret(os.environ.get(name))
    with _lock:
        secrets = sorted(_secrets, key=len, reverse=True)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, "***")
    return text


def is_secret_field(name: str) -> bool:
    """Field names that must never be copied into a model identity or a log line."""
    lowered = name.lower()
    if lowered.startswith("max_") or lowered.endswith("_tokens"):
        return False  # max_tokens, max_completion_tokens: output settings, not credentials
    return any(word in lowered for word in ("key", "token", "secret", "password", "auth", "header"))
