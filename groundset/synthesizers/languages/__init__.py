"""Offline question wording per language: one module per language, English excepted (its templates are
``question_templates``, ``offline_questions`` and ``styles``, and it has answer-first facts)."""

from __future__ import annotations

from . import de, es, fr, ja, zh
from .wording import CASES, FORMS, Cues, Wording

__all__ = ["CASES", "FORMS", "WORDINGS", "Cues", "Wording", "wording"]

WORDINGS: dict[str, Wording] = {module.WORDING.code: module.WORDING for module in (zh, ja, de, fr, es)}


def wording(code: str) -> Wording | None:
    """The wording of language ``code``; None for English and for languages without templates (those are
    written with the English templates offline)."""
    return WORDINGS.get(code)
