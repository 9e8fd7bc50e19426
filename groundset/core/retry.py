"""Which model-call failures are worth another try, and how long to wait before it."""

from __future__ import annotations

import asyncio
import email.utils
import random
import re
import time
from dataclasses import dataclass
from typing import Any

from .errors import ModelCallError, ModelTimeoutError
from .secrets import redact

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
# Statuses a server gives a request it will never accept as sent (a format, a field it does not know).
REJECTED_STATUS = frozenset({400, 404, 405, 415, 422})
# A 500 that is really a rejection: some servers (llama-cpp-python's) answer a request body their
# validator refuses with a 500 and the validator's words ("Input should be 'text' or 'json_object'").
# Another try sends the same body: it fails the same way.
_REJECTION_WORDS = re.compile(
    r"input should be|validation error|extra (?:inputs|fields?) (?:are|is) not permitted|unrecognized request"
    r"|not supported|unsupported|unknown (?:field|parameter|argument)"
    r"|invalid (?:request|value|type|parameter)|field required|is not one of",
    re.IGNORECASE,
)
MAX_RETRY_AFTER = 120.0


class IncompleteAnswer(Exception):
    """A 200 that holds fewer results than asked for (e.g. an empty "data"): a server glitch, retried."""


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter; a server's Retry-After is a floor on the wait."""

    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 30.0

    def __post_init__(self) -> None:
        if self.max_retries < 0 or self.base_delay < 0 or self.max_delay < 0:
            raise ValueError("RetryPolicy: max_retries, base_delay and max_delay must be >= 0")

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before retry number ``attempt`` (1-based)."""
        backoff = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        wait = backoff / 2 + random.uniform(0, backoff / 2)
        if retry_after is not None:
            wait = max(wait, min(retry_after, MAX_RETRY_AFTER))
        return wait


def status_of(exc: BaseException) -> int | None:
    """The HTTP status an exception carries (openai, httpx and most SDKs expose one)."""
    for obj in (exc, getattr(exc, "response", None)):
        status = getattr(obj, "status_code", None)
        if isinstance(status, int) and status >= 400:  # a 2xx with a broken body is no HTTP error
            return status
    return None


def retry_after_of(exc: BaseException) -> float | None:
    """Seconds from a Retry-After (or retry-after-ms) header on the exception's response."""
    headers: Any = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
    except (AttributeError, TypeError, ValueError):
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        return None if parsed is None else max(0.0, parsed.timestamp() - time.time())


def is_rejection(exc: BaseException) -> bool:
    """The server refuses the request as sent (a 4xx, or a 500 in a validator's words): retrying the same
    body is pointless, and a structured-output format it names may be swapped for the next one."""
    status = status_of(exc) if not isinstance(exc, ModelCallError) else exc.status
    if status in REJECTED_STATUS:
        return True
    return status == 500 and bool(_REJECTION_WORDS.search(str(exc)))


_TOO_LONG = re.compile(
    r"context (?:window|length|size)|maximum context|too many tokens|exceeds? (?:the )?(?:context|n_ctx)"
    r"|prompt is too long",
    re.IGNORECASE,
)


def too_long(exc: BaseException) -> bool:
    """The request was refused because the prompt does not fit the model's context window."""
    return is_rejection(exc) and bool(_TOO_LONG.search(str(exc)))


def is_retryable(exc: BaseException) -> bool:
    """Rate limits, server errors, timeouts and broken connections; never 4xx client mistakes, nor a 500
    that rejects the request (see ``is_rejection``)."""
    if isinstance(exc, asyncio.TimeoutError | TimeoutError | ConnectionError | IncompleteAnswer):
        return True
    status = status_of(exc)
    if status is not None:
        return status in RETRYABLE_STATUS and not is_rejection(exc)
    names = {cls.__name__ for cls in type(exc).__mro__}
    # openai / httpx transport failures that carry no status: connection reset, truncated
    # body, a non-JSON body from a proxy.
    transient = {
        "APIConnectionError",
        "APITimeoutError",
        "APIResponseValidationError",
        "RemoteProtocolError",
        "ReadError",
        "ConnectError",
        "ReadTimeout",
        "WriteError",
        "TransportError",
        "JSONDecodeError",
    }
    return bool(names & transient)


def hidden_cause(exc: BaseException) -> str:
    """For a connection error, the innermost cause that has a message: the SDK's "Connection error."
    says neither that the peer reset the connection nor that it cut the body short."""
    if "APIConnectionError" not in {cls.__name__ for cls in type(exc).__mro__}:
        return ""
    found, seen, current = "", set(), exc.__cause__ or exc.__context__
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if str(current).strip():
            found = f"{type(current).__name__}: {current}"
        current = current.__cause__ or current.__context__
    return found


def final_error(error: Exception, attempts: int, label: str, timeout: float | None) -> ModelCallError:
    """The one-line error a request gives up with after ``attempts``: a timeout, or the last failure."""
    tries = f"{attempts} attempt{'s' if attempts > 1 else ''}"
    if isinstance(error, asyncio.TimeoutError | TimeoutError) or type(error).__name__ == "APITimeoutError":
        return ModelTimeoutError(
            f"{label}: model request timed out after {timeout:g} s ({tries})", attempts=attempts
        )
    return ModelCallError(
        f"{label}: model request failed after {tries} ({describe_failure(error)})",
        attempts=attempts,
        status=status_of(error),
        rejected=is_rejection(error),
        too_long=too_long(error),
    )


def describe_failure(error: BaseException) -> str:
    """One secret-free line describing a failed request."""
    status = status_of(error)
    code = f"HTTP {status}, " if status is not None else ""
    cause = hidden_cause(error)
    detail = redact(f"{error} ({cause})" if cause else str(error)).strip().replace("\n", " ")[:300]
    return f"{code}{type(error).__name__}: {detail}"
