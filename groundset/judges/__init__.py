"""Judging prompts shared by the test-set quality gate and the metrics (one prompt, one paid answer)."""

from .support import StatementsAndContext, StatementVerdict, SupportPrompt, Verdicts

__all__ = ["StatementVerdict", "StatementsAndContext", "SupportPrompt", "Verdicts"]
