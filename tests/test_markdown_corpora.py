"""No heading attribute syntax ({#id}, {.class}) in the graph or questions built from the shared corpora."""

from __future__ import annotations

from pathlib import Path

import pytest

from .corpora import SHARED
from .test_markdown import attribute_leaks


@pytest.mark.slow
@pytest.mark.parametrize("folder", sorted(p for p in SHARED.iterdir() if p.is_dir()), ids=lambda p: p.name)
def test_no_attribute_syntax_reaches_the_graph_or_questions_of_a_shared_corpus(folder: Path) -> None:
    """Every folder under the shared corpora, built offline, then an offline test set generated from it."""
    leaks, _ = attribute_leaks(folder, 30)
    assert leaks == []
