"""Paths of the shared corpora (the repo and shared/ sit side by side, in CI too)."""

from __future__ import annotations

import os
from pathlib import Path

# GROUNDSET_SHARED_CORPORA points elsewhere (a test uses it to check the "not run" summary).
SHARED = Path(
    os.environ.get("GROUNDSET_SHARED_CORPORA") or Path(__file__).resolve().parents[2] / "shared" / "corpora"
)
PROMETHEUS_DOCS = SHARED / "prometheus-docs" / "docs"
MESSY = SHARED / "messy"
EXAMPLE_DOCS = Path(__file__).resolve().parents[1] / "examples" / "docs"


def copy_example_pages(root: Path, pages: tuple[str, ...]) -> Path:
    """``pages`` of the example docs copied to ``root/docs`` (a folder a test may change); returns it."""
    import shutil

    docs = root / "docs"
    for page in pages:
        target = docs / page
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(EXAMPLE_DOCS / page, target)
    return docs
