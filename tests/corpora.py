"""Paths of the shared corpora (the repo and shared/ sit side by side, in CI too)."""

from __future__ import annotations

from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"
PROMETHEUS_DOCS = SHARED / "prometheus-docs" / "docs"
MESSY = SHARED / "messy"
EXAMPLE_DOCS = Path(__file__).resolve().parents[1] / "examples" / "docs"
