"""Docs folder (or LangChain Documents) -> clean, de-duplicated Documents plus a report of every problem.

A real docs folder holds binary files renamed to .md, broken encodings, symlink loops and copies of
the same page. None of that may stop a load or leak garbage into the knowledge graph, and none of it
may be silent: each problem file gets exactly one report entry and one logged warning.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from langchain_core.documents import Document

from groundset.core.errors import ConfigError
from groundset.core.hashing import stable_hash
from groundset.kg.decoding import (
    decode_bytes,
    markdown_title,
    normalise_text,
    rst_title,
    split_front_matter,
    title_from_name,
)
from groundset.kg.html_text import html_to_text

__all__ = ["DuplicateFile", "LoadReport", "LoadResult", "RepairedFile", "SkippedFile", "load_documents"]

logger = logging.getLogger("groundset.kg.loader")

FORMATS: dict[str, str] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".rst": "rst",
    ".html": "html",
    ".htm": "html",
}
_FRONT_MATTER_FORMATS = frozenset({"markdown", "text"})
_VCS_DIRS = frozenset({".git", ".hg", ".svn"})
_VISIBLE = re.compile(r"[^\s\u200b\u200c\u200d\u2060\ufeff]")  # zero-width characters show nothing


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


@dataclass(frozen=True)
class _Candidate:
    rel: str
    path: Path
    fmt: str
    real: Path
    is_link: bool


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """Glob -> regex: ``*``/``?`` stay inside one path segment, ``**`` crosses them, ``**/`` may be empty.

    A pattern without ``/`` matches the file name at any depth (like .gitignore), so ``*.md`` means
    every Markdown file; a trailing ``/`` means everything below that folder.
    """
    pattern = pattern.strip().removeprefix("./").lstrip("/")
    if "/" not in pattern.rstrip("/"):
        pattern = "**/" + pattern
    if pattern.endswith("/"):
        pattern += "**"
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        end = pattern.find("]", i + 2) if char == "[" else -1
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif end != -1:
            body = pattern[i + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            body = body.replace("\\", "\\\\").replace("[", "\\[")
            out.append(f"[^/{body}]" if negate else f"[{body}]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return re.compile("".join(out))


class _Collector:
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


class _Walker:
    """Sorted directory walk that never leaves the root through a symlink and never loops."""

    def __init__(self, root: Path, sink: _Collector, include: Sequence[str] | None, exclude: Sequence[str]):
        self.root = root
        self.sink = sink
        self.include = [_glob_regex(p) for p in include] if include is not None else None
        self.exclude = [_glob_regex(p) for p in exclude]
        self.candidates: list[_Candidate] = []

    def selected(self, rel: str) -> bool:
        if any(p.fullmatch(rel) for p in self.exclude):
            return False
        return self.include is None or any(p.fullmatch(rel) for p in self.include)

    def wanted(self, rel: str) -> str | None:
        """The format of a file that should be loaded, or None (counted as ignored)."""
        fmt = FORMATS.get(os.path.splitext(rel)[1].lower())
        if fmt is None or not self.selected(rel):
            self.sink.ignored += 1
            return None
        return fmt

    def walk(self) -> list[_Candidate]:
        visited: set[Path] = set()
        stack: list[tuple[Path, Path, str]] = [(self.root, self.root, "")]
        while stack:
            directory, real_dir, prefix = stack.pop()
            if real_dir in visited:
                self.sink.skip(prefix.rstrip("/") or ".", "symlink loop (directory already visited)")
                continue
            visited.add(real_dir)
            try:
                with os.scandir(directory) as entries:
                    listing = sorted(entries, key=lambda entry: entry.name)
            except OSError as exc:
                self.sink.skip(prefix.rstrip("/") or ".", f"cannot list directory ({exc.strerror or exc})")
                continue
            subdirs: list[tuple[Path, Path, str]] = []
            for entry in listing:
                rel = prefix + entry.name
                try:
                    if entry.is_symlink():
                        self.link(Path(entry.path), rel, real_dir)
                    elif entry.is_dir(follow_symlinks=False):
                        if entry.name not in _VCS_DIRS:
                            subdirs.append((Path(entry.path), real_dir / entry.name, rel + "/"))
                    elif (fmt := self.wanted(rel)) is not None:
                        if entry.is_file(follow_symlinks=False):
                            self.candidates.append(
                                _Candidate(rel, Path(entry.path), fmt, real_dir / entry.name, False)
                            )
                        else:
                            self.sink.skip(rel, "not a regular file")
                except OSError as exc:
                    self.sink.skip(rel, f"cannot inspect file ({exc.strerror or exc})")
            stack.extend(reversed(subdirs))
        return sorted(self.candidates, key=lambda c: (c.is_link, c.rel))

    def link(self, path: Path, rel: str, real_dir: Path) -> None:
        """Follow a file symlink that stays inside the root; report loops, dangling and escaping links."""
        try:
            target = Path(os.path.realpath(path, strict=True))
        except OSError as exc:
            if self.wanted(rel) is not None:
                if isinstance(exc, FileNotFoundError):
                    self.sink.skip(rel, f"dangling symlink (target {os.readlink(path)!r} does not exist)")
                else:
                    self.sink.skip(rel, f"symlink loop ({exc.strerror or exc})")
            return
        if not target.is_relative_to(self.root):
            if target.is_dir() or self.wanted(rel) is not None:
                self.sink.skip(rel, "symlink points outside the docs root")
            return
        target_rel = target.relative_to(self.root).as_posix() or "."
        if target.is_dir():
            if real_dir.is_relative_to(target):
                self.sink.skip(rel, f"symlink loop (points to its ancestor folder {target_rel!r})")
            else:
                self.sink.skip(rel, f"directory symlink not followed ({target_rel!r} is loaded directly)")
        elif (fmt := self.wanted(rel)) is not None:
            if target.is_file():
                self.candidates.append(_Candidate(rel, path, fmt, target, True))
            else:
                self.sink.skip(rel, "symlink to something that is not a regular file")


def _load_folder(root: Path, include: Sequence[str] | None, exclude: Sequence[str]) -> LoadResult:
    sink = _Collector()
    seen_real: dict[Path, str] = {}
    for candidate in _Walker(root, sink, include, exclude).walk():
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
    sink = _Collector()
    if _Walker(root, sink, include, exclude).wanted(path.name) is not None:
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
    sink = _Collector()
    walker = _Walker(Path("."), sink, include, exclude)
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
    relative to the root (see :func:`_glob_regex`); exclude wins. Problems go to ``result.report``.
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
    walker = _Walker(root, _QuietCollector(), include, list(exclude or []))
    if path.is_dir():
        return [candidate.rel for candidate in walker.walk()]
    return [path.name] if walker.wanted(path.name) is not None else []


class _QuietCollector(_Collector):
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
