"""The load report: what happened to every file of a docs folder, for the user to read."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from langchain_core.documents import Document


@dataclass(frozen=True)
class SkippedFile:
    path: str
    reason: str


@dataclass(frozen=True)
class RepairedFile:
    path: str
    what: str


@dataclass(frozen=True)
class DuplicateFile:
    path: str
    duplicate_of: str
    reason: str


@dataclass(frozen=True)
class LoadReport:
    """What happened to every file: the caller shows ``summary()`` and ``lines()`` to the user.

    ``ignored`` counts files that were never candidates: unsupported extensions (LICENSE, .png ...)
    and files left out by ``include``/``exclude``; they are normal, so they get no line.
    """

    loaded: list[str] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    repaired: list[RepairedFile] = field(default_factory=list)
    duplicates: list[DuplicateFile] = field(default_factory=list)
    ignored: int = 0

    def summary(self) -> str:
        return (
            f"{len(self.loaded)} loaded, {len(self.repaired)} repaired, {len(self.skipped)} skipped, "
            f"{len(self.duplicates)} duplicates"
        )

    def lines(self) -> list[str]:
        """One human line per problem file, in path order within each kind."""
        return (
            [f"skipped {item.path}: {item.reason}" for item in self.skipped]
            + [f"repaired {item.path}: {item.what}" for item in self.repaired]
            + [f"duplicate {item.path} of {item.duplicate_of}: {item.reason}" for item in self.duplicates]
        )


@dataclass(frozen=True)
class LoadResult:
    """Loaded Documents in sorted path order, the report, and the resolved root (None for Documents)."""

    documents: list[Document]
    report: LoadReport
    root: Path | None

    def __repr__(self) -> str:  # the documents' full text would flood a notebook cell
        return f"LoadResult({len(self.documents)} documents from {self.root}; {self.report.summary()})"
