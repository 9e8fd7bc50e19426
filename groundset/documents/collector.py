"""Decoded files -> Documents: normalise, drop empty and duplicate content, and record every problem.

Each problem file gets exactly one report entry and one logged warning.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from langchain_core.documents import Document

from ..core.hashing import stable_hash
from ..text.language import detect_language
from ..text.markup import strip_markup
from .decoding import decode_bytes, normalise_text, split_front_matter
from .html_text import html_to_text
from .report import DuplicateFile, LoadReport, LoadResult, RepairedFile, SkippedFile
from .titles import markdown_title, rst_title, title_from_name

logger = logging.getLogger("groundset.documents.loader")

_FRONT_MATTER_FORMATS = frozenset({"markdown", "text"})
_VISIBLE = re.compile(r"[^\s\u200b\u200c\u200d\u2060\ufeff]")  # zero-width characters show nothing


class Collector:
    """Turns decoded texts into Documents and records every skip, repair and duplicate as it goes."""

    def __init__(self) -> None:
        self.documents: list[Document] = []
        self.loaded: list[str] = []
        self.skipped: list[SkippedFile] = []
        self.repaired: list[RepairedFile] = []
        self.duplicates: list[DuplicateFile] = []
        self.ignored = 0
        self.by_hash: dict[str, str] = {}
        self.by_near_hash: dict[str, str] = {}
        self.kept: dict[str, str] = {}  # path -> the loaded path that holds its content

    def skip(self, path: str, reason: str) -> None:
        self.skipped.append(SkippedFile(path, reason))
        logger.warning("skipped %s: %s", path, reason)

    def duplicate(self, path: str, of: str, reason: str) -> None:
        self.duplicates.append(DuplicateFile(path, of, reason))
        self.kept[path] = of
        logger.warning("duplicate %s of %s: %s", path, of, reason)

    def add_bytes(self, path: str, data: bytes, fmt: str) -> None:
        if not data:
            self.skip(path, "empty file")
            return
        decoded = decode_bytes(data)
        if decoded.text is None:
            self.skip(path, decoded.binary or "binary file")
            return
        self.add_text(path, decoded.text, fmt, size=len(data), notes=list(decoded.notes), metadata={})

    def add_text(
        self, path: str, raw: str, fmt: str, *, size: int, notes: list[str], metadata: dict[str, object]
    ) -> None:
        """Normalise, check for emptiness and duplicates, then append the Document (or report why not)."""
        if not raw:
            self.skip(path, "empty file")
            return
        title = metadata.get("title") if isinstance(metadata.get("title"), str) else None
        text, more = normalise_text(raw, check_lines=fmt != "html")
        notes += more
        if fmt == "html":
            text, html_title = html_to_text(text)
            text, more = normalise_text(text)
            notes += more
            title = title or html_title or None
            if not text.strip() and raw.strip():
                self.skip(path, "no text content in HTML")
                return
        front_matter: dict[str, str] | None = None
        if fmt in _FRONT_MATTER_FORMATS:
            text, front_matter, note = split_front_matter(text)
            if note:
                notes.append(note)
            if front_matter is not None and not _VISIBLE.search(text):
                self.skip(path, "no content besides front matter")
                return
            title = title or (front_matter or {}).get("title", "").strip() or None
        if fmt == "markdown" and _VISIBLE.search(text):
            # Template directives, HTML wrappers and comments never reach the page: nor may they reach
            # documents, chunks and questions. Normal cleaning, not a repair.
            text = strip_markup(text)
            if not _VISIBLE.search(text):
                self.skip(path, "no content besides markup (HTML, comments, template directives)")
                return
        if not _VISIBLE.search(text):
            self.skip(path, "no content after stripping whitespace")
            return
        content_hash = stable_hash(text)
        if content_hash in self.by_hash:
            self.duplicate(
                path, self.by_hash[content_hash], "; ".join(["exact duplicate (same content hash)", *notes])
            )
            return
        near_hash = stable_hash(" ".join(text.split()))
        if near_hash in self.by_near_hash:
            self.duplicate(
                path, self.by_near_hash[near_hash], "; ".join(["near duplicate (whitespace only)", *notes])
            )
            return
        self.by_hash[content_hash] = path
        self.by_near_hash[near_hash] = path
        if title is None:
            title = rst_title(text) if fmt == "rst" else markdown_title(text)
        meta: dict[str, object] = {
            **metadata,
            "source": path,
            "title": title or title_from_name(path),
            "content_hash": content_hash,
            "size": size,
            "format": fmt,
            # A language given with a LangChain Document wins; otherwise detect it (a bounded prefix).
            "language": metadata.get("language") or detect_language(text),
        }
        if front_matter is not None:
            meta["front_matter"] = front_matter
        if notes:
            self.repaired.append(RepairedFile(path, "; ".join(notes)))
            logger.warning("repaired %s: %s", path, "; ".join(notes))
        self.documents.append(Document(page_content=text, metadata=meta))
        self.loaded.append(path)
        self.kept[path] = path

    def result(self, root: Path | None) -> LoadResult:
        report = LoadReport(
            loaded=self.loaded,
            skipped=sorted(self.skipped, key=lambda item: item.path),
            repaired=sorted(self.repaired, key=lambda item: item.path),
            duplicates=sorted(self.duplicates, key=lambda item: item.path),
            ignored=self.ignored,
        )
        return LoadResult(documents=self.documents, report=report, root=root)
