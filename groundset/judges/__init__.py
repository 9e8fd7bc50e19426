"""Judging prompts shared by the test-set quality gate and the metrics (one prompt, one paid answer),
and the keyed-verdict machinery every list judge uses."""

from .aligned import BATCH_SIZE, AlignedPrompt, Judged, KeyedVerdicts, Verdict, judge, keyed, numbered
from .sample_check import ANSWERS, SampleCheckPrompt, SampleToCheck, answer_shape_problem
from .support import StatementsAndContext, SupportPrompt

__all__ = [
    "ANSWERS",
    "BATCH_SIZE",
    "AlignedPrompt",
    "Judged",
    "KeyedVerdicts",
    "SampleCheckPrompt",
    "SampleToCheck",
    "StatementsAndContext",
    "SupportPrompt",
    "Verdict",
    "answer_shape_problem",
    "judge",
    "keyed",
    "numbered",
]
