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
