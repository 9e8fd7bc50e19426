"""Keep API keys out of logs, cache files and error messages.

Every key groundset sees (from a model object, the environment or a target's header) is registered
here, and every message that may carry text from a client library passes through ``redact``. As a
net for keys never registered (a mistyped ``--header``, a URL with a password, a server echoing a
header), ``redact`` also hides what follows ``Bearer``, ``api_key=``-like names and ``user:password@``.
"""

from __future__ import annotations

import os
import re
import threading
import traceback
from typing import Any

from pydantic import SecretStr

_SECRET_ENV = ("OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GROUNDSET_API_KEY")
_lock = threading.Lock()
_secrets: set[str] = set()
_HIDDEN = "***"
_CREDENTIALS = (
    # "Bearer <token>", also in a header written without its colon
    (re.compile(r"(?i)\b(bearer\s+)(?!\*\*\*)[\w.~+/=-]{6,}"), r"\1***"),
    # api_key=..., "x-api-key": "...", access_token: ..., client_secret=..., password=...
    (
        re.compile(
            r"(?i)((?:\b|_)(?:api[-_]?key|[\w-]*token|[\w-]*secret|password|passwd)['\"]?\s*[:=]\s*['\"]?)"
            r"(?!\*\*\*)[^\s'\",;&}]{6,}"
        ),
        r"\1***",
    ),
    # OpenAI- and Anthropic-style keys: sk-..., sk-proj-..., sk-ant-...
    (re.compile(r"(?<![\w-])sk-[\w-]{16,}"), "***"),
    # http://user:password@host
    (re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@]*:)[^/\s@]+@"), r"\1***@"),
)


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
    """Replace every known secret, and every credential-shaped value, in ``text`` with ``***``."""
    text = redact_known(text)
    for pattern, replacement in _CREDENTIALS:
        text = pattern.sub(replacement, text)
    return text


def redact_known(text: str) -> str:
    """Replace every registered secret in ``text`` with ``***``, and nothing else: for data (a target's
    answer) where a credential-shaped phrase ("Bearer <token>" in a docs answer) is content, not a leak."""
    for name in _SECRET_ENV:
        register_secret(os.environ.get(name))
    with _lock:
        secrets = sorted(_secrets, key=len, reverse=True)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, _HIDDEN)
    return text


def scrub(exc: BaseException) -> bool:
    """Redact, in place, the messages of ``exc``, its causes and contexts (before --debug lets Python print
    them); True when the traceback they print is then free of secrets (False: a message that is not made
    from its args, which the caller must print redacted itself)."""
    stack, seen = [exc], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        try:
            node.args = tuple(redact(a) if isinstance(a, str) else a for a in node.args)
            notes = getattr(node, "__notes__", None)
            if isinstance(notes, list):
                node.__notes__ = [redact(n) if isinstance(n, str) else n for n in notes]
        except (AttributeError, TypeError):  # an exception type with read-only args
            pass
        stack += [node.__cause__, node.__context__]
    text = "".join(traceback.format_exception(exc))
    return redact(text) == text


def is_secret_field(name: str) -> bool:
    """Field names that must never be copied into a model identity or a log line."""
    lowered = name.lower()
    if lowered.startswith("max_") or lowered.endswith("_tokens"):
        return False  # max_tokens, max_completion_tokens: output settings, not credentials
    return any(word in lowered for word in ("key", "token", "secret", "password", "auth", "header"))
