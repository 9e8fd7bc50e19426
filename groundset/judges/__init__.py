"""Judging prompts shared by the test-set quality gate and the metrics (one prompt, one paid answer),
and the keyed-verdict machinery every list judge uses."""

from .aligned import BATCH_SIZE, AlignedPrompt, Judged, KeyedVerdicts, Verdict, judge, keyed, numbered
from .support import StatementsAndContext, SupportPrompt

__all__ = [
    "BATCH_SIZE",
    "AlignedPrompt",
    "Judged",
    "KeyedVerdicts",
    "StatementsAndContext",
    "SupportPrompt",
    "Verdict",
    "judge",
    "keyed",
    "numbered",
]
