"""Which files of a docs folder to read: a sorted walk that never leaves the root and never loops.

Symlinks are followed only to files inside the root; loops, dangling links, links out of the root
and unreadable folders are reported to the sink, never raised.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

FORMATS: dict[str, str] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".txt": "text",
    ".rst": "rst",
    ".html": "html",
    ".htm": "html",
}
_VCS_DIRS = frozenset({".git", ".hg", ".svn"})


class Sink(Protocol):
    """Where the walk reports problem files and counts files it leaves out."""

    ignored: int

    def skip(self, path: str, reason: str) -> None: ...


@dataclass(frozen=True)
class Candidate:
    rel: str
    path: Path
    fmt: str
    real: Path
    is_link: bool


def glob_regex(pattern: str) -> re.Pattern[str]:
    """Glob -> regex: ``*``/``?`` stay inside one path segment, ``**`` crosses them, ``**/`` may be empty.

    A pattern without ``/`` matches the file name at any depth (like .gitignore), so ``*.md`` means
    every Markdown file, and a leading ``/`` anchors it at the root (``/index.md``: the top one only); a
    trailing ``/`` means everything below that folder.
    """
    pattern = pattern.strip().removeprefix("./")
    anchored = pattern.startswith("/")
    pattern = pattern.lstrip("/")
    if "/" not in pattern.rstrip("/") and not anchored:
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


class Walker:
    """Sorted directory walk that never leaves the root through a symlink and never loops."""

    def __init__(self, root: Path, sink: Sink, include: Sequence[str] | None, exclude: Sequence[str]):
        self.root = root
        self.sink = sink
        self.include = [glob_regex(p) for p in include] if include is not None else None
        self.exclude = [glob_regex(p) for p in exclude]
        self.candidates: list[Candidate] = []

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

    def walk(self) -> list[Candidate]:
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
                                Candidate(rel, Path(entry.path), fmt, real_dir / entry.name, False)
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
                self.candidates.append(Candidate(rel, path, fmt, target, True))
            else:
                self.sink.skip(rel, "symlink to something that is not a regular file")
