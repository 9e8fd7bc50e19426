"""Typed errors: every failure a user can act on has its own class and a message naming the fix."""

from __future__ import annotations


class GroundsetError(Exception):
    """Base of every error groundset raises on purpose."""


class ConfigError(GroundsetError, ValueError):
    """A model spec, option or environment variable is wrong; the message says which and how to fix it."""


class OfflineUnsupported(GroundsetError):
    """The task has no honest offline form; callers turn this into NaN with this reason."""

    def __init__(self, prompt_name: str, reason: str = "") -> None:
        self.prompt_name = prompt_name
        self.reason = reason or "this task needs an LLM; configure one with --llm or GROUNDSET_LLM"
        super().__init__(f"prompt {prompt_name!r} has no offline form: {self.reason}")


class PromptOutputError(GroundsetError):
    """The model's answer could not be parsed into the prompt's output type, even after one repair."""

    def __init__(self, prompt_name: str, error: str, raw: str) -> None:
        self.prompt_name = prompt_name
        self.error = error
        self.raw = raw
        preview = raw if len(raw) <= 200 else raw[:200] + "..."
        super().__init__(
            f"prompt {prompt_name!r}: the model's answer is not a valid output after one repair "
            f"attempt ({error}); raw answer: {preview!r}"
        )


class ModelCallError(GroundsetError):
    """A model request failed for good (after the configured retries)."""

    def __init__(
        self,
        message: str,
        *,
        attempts: int,
        status: int | None = None,
        rejected: bool = False,
        too_long: bool = False,
    ) -> None:
        self.attempts = attempts
        self.status = status
        # The server refused the request as sent (retry.is_rejection): another format may be accepted.
        self.rejected = rejected
        # ... because the prompt does not fit the model's context: no format would (retry.too_long).
        self.too_long = too_long
        super().__init__(message)


class ModelTimeoutError(ModelCallError, TimeoutError):
    """A model request took longer than the per-call timeout on every attempt."""
