"""Docs folder (or LangChain Documents) -> clean, de-duplicated Documents plus a report of every problem.

A real docs folder holds binary files renamed to .md, broken encodings, symlink loops and copies of
the same page. None of that may stop a load or leak garbage into the knowledge graph, and none of it
may be silent (see ``collector`` and ``walker``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from langchain_core.documents import Document

from ..core.errors import ConfigError
from .collector import Collector
from .report import DuplicateFile, LoadReport, LoadResult, RepairedFile, SkippedFile
from .walker import FORMATS, Walker

__all__ = [
    "FORMATS",
    "DuplicateFile",
    "LoadReport",
    "LoadResult",
    "RepairedFile",
    "SkippedFile",
    "candidate_files",
    "load_documents",
]


def _load_folder(root: Path, include: Sequence[str] | None, exclude: Sequence[str]) -> LoadResult:
    sink = Collector()
    seen_real: dict[Path, str] = {}
    for candidate in Walker(root, sink, include, exclude).walk():
        first = seen_real.setdefault(candidate.real, candidate.rel)
        if first != candidate.rel:
            if (kept := sink.kept.get(first)) is not None:
                sink.duplicate(candidate.rel, kept, f"symlink to {first}, which is already loaded")
            else:
                sink.skip(candidate.rel, f"symlink to {first}, which was not loaded")
            continue
        try:
            data = candidate.path.read_bytes()
        except OSError as exc:
            sink.skip(candidate.rel, f"cannot read file ({exc.strerror or exc})")
            continue
        sink.add_bytes(candidate.rel, data, candidate.fmt)
    return sink.result(root)


def _load_file(path: Path, include: Sequence[str] | None, exclude: Sequence[str]) -> LoadResult:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ConfigError(
            f"not a supported document type: {path} (supported extensions: {', '.join(sorted(FORMATS))})"
        )
    root = path.parent.resolve()
    sink = Collector()
    if Walker(root, sink, include, exclude).wanted(path.name) is not None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            sink.skip(path.name, f"cannot read file ({exc.strerror or exc})")
        else:
            sink.add_bytes(path.name, data, fmt)
    return sink.result(root)


def _load_documents_input(
    docs: Iterable[object], include: Sequence[str] | None, exclude: Sequence[str]
) -> LoadResult:
    sink = Collector()
    walker = Walker(Path("."), sink, include, exclude)
    for index, doc in enumerate(docs):
        if not isinstance(doc, Document):
            raise ConfigError(f"expected LangChain Documents, got {type(doc).__name__} at index {index}")
        source = doc.metadata.get("source")
        path = str(source) if source not in (None, "") else f"document-{index}"
        if not walker.selected(path):
            sink.ignored += 1
            continue
        fmt = doc.metadata.get("format")
        text = doc.page_content
        metadata = dict(doc.metadata)
        size = len(text.encode("utf-8", errors="surrogatepass"))
        sink.add_text(
            path,
            text,
            fmt if isinstance(fmt, str) and fmt else "text",
            size=size,
            notes=[],
            metadata=metadata,
        )
    return sink.result(None)


def load_documents(
    source: str | os.PathLike[str] | Iterable[Document],
    *,
    include: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
) -> LoadResult:
    """Load a docs folder, a single file or LangChain Documents; never raises on a bad file.

    Files are loaded in sorted path order; ``include``/``exclude`` are globs on the POSIX path
    relative to the root (see :func:`groundset.documents.walker.glob_regex`); exclude wins. Problems
    go to ``result.report``.
    """
    for name, patterns in (("include", include), ("exclude", exclude)):
        if isinstance(patterns, str):
            raise ConfigError(f"{name} must be a list of glob patterns, not a single string: [{patterns!r}]")
    exclude = list(exclude or [])
    if isinstance(source, str | os.PathLike):
        path = _source_path(source)
        if path.is_dir():
            return _load_folder(path.resolve(), include, exclude)
        return _load_file(path, include, exclude)
    if isinstance(source, bytes | bytearray | Document) or not isinstance(source, Iterable):
        raise ConfigError(
            f"load_documents() takes a folder path or an iterable of LangChain Documents, "
            f"not {type(source).__name__}"
        )
    return _load_documents_input(source, include, exclude)


def candidate_files(
    source: str | os.PathLike[str],
    *,
    include: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
) -> list[str]:
    """The files :func:`load_documents` would try, found without reading them.

    A command calls this before a long build, so an empty or mistyped docs folder fails at once
    instead of after the work. Raises ConfigError when ``source`` does not exist.
    """
    path = _source_path(source)
    root = path.resolve() if path.is_dir() else path.parent.resolve()
    walker = Walker(root, _QuietCollector(), include, list(exclude or []))
    if path.is_dir():
        return [candidate.rel for candidate in walker.walk()]
    return [path.name] if walker.wanted(path.name) is not None else []


class _QuietCollector(Collector):
    """Drops the walk's problem reports: the load that follows reports (and logs) them once."""

    def skip(self, path: str, reason: str) -> None:
        pass


def _source_path(source: str | os.PathLike[str]) -> Path:
    raw = os.fspath(source)
    if not isinstance(raw, str) or not raw:
        raise ConfigError(f"docs folder must be a non-empty text path, got {raw!r}")
    path = Path(raw).expanduser()
    if not path.exists():
        raise ConfigError(f"docs folder not found: {path}")
    if not (path.is_dir() or path.is_file()):
        raise ConfigError(f"not a folder or regular file: {path}")
    return path
