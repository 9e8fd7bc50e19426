"""Splitters: documents -> chunk nodes with child and next edges.

``HeadlineSplitter`` cuts a document at its headlines first (Markdown/rst structure, or
headlines an LLM found), then bounds each section's size; ``ChunkSplitter`` only bounds size.
Size bounding uses langchain-text-splitters with Markdown-aware separators, measured in
tokens (words and punctuation marks, a close stand-in for model tokens) or characters.
The cutting runs on the build's backend, in batches of documents (``split_documents``: settings and
text in, chunks out), so on Ray it runs on the workers; the driver only adds the chunks to the graph.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

from ..text.markdown import Heading, strip_attributes, structural_headings
from ..text.markdown import sections as cut_at_headings
from .graph import EdgeKind, KnowledgeGraph, NodeKind
from .transform import BuildContext, StageReport, Transform

_TOKEN = re.compile(r"\w+|[^\w\s]")
_HAS_WORD = re.compile(r"[^\W_]{2,}")
NodeFilter = Callable[[dict[str, Any]], bool]


def count_tokens(text: str, *, up_to: int | None = None) -> int:
    """Words and punctuation marks: about what an LLM tokenizer counts for English prose. With ``up_to``,
    counting stops there (is a long document long: no need to count all of it)."""
    if up_to is None:
        return len(_TOKEN.findall(text))
    return sum(1 for _ in itertools.islice(_TOKEN.finditer(text), up_to))


class ChunkSplitter(Transform):
    """Size-bounded chunks of a whole document, with overlap."""

    stage = "kg.split"
    name = "split by size"

    def __init__(
        self,
        chunk_size: int = 256,
        chunk_overlap: int = 32,
        unit: Literal["tokens", "chars"] = "tokens",
        where: NodeFilter | None = None,
    ) -> None:
        if chunk_size < 16 or not 0 <= chunk_overlap < chunk_size:
            raise ValueError(
                f"{type(self).__name__}: need chunk_size >= 16 and 0 <= chunk_overlap < chunk_size, "
                f"got {chunk_size} and {chunk_overlap}"
            )
        if unit not in ("tokens", "chars"):
            raise ValueError(f"{type(self).__name__}: unit must be 'tokens' or 'chars', got {unit!r}")
        self.chunk_size, self.chunk_overlap, self.unit, self.where = chunk_size, chunk_overlap, unit, where
        self._splitter = RecursiveCharacterTextSplitter.from_language(
            Language.MARKDOWN,
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            length_function=count_tokens if unit == "tokens" else len,
            keep_separator=True,
        )

    def select(self, kg: KnowledgeGraph) -> list[str]:
        return [
            d
            for d in kg.nodes(NodeKind.DOCUMENT)
            if not kg.neighbours(d, EdgeKind.CHILD) and (self.where is None or self.where(kg.get(d)))
        ]

    def sections(self, data: dict[str, Any]) -> list[tuple[str, str]]:
        """(heading path, text) pieces to bound in size; here the whole document is one piece."""
        return [("", data["text"])]

    def split(self, data: dict[str, Any]) -> list[tuple[str, str]]:
        """(heading path, chunk text) for a document's properties; chunks without words are dropped."""
        chunks: list[tuple[str, str]] = []
        for path, text in self.sections(data):
            for piece in self._splitter.split_text(text):
                piece = piece.strip()
                if _HAS_WORD.search(piece):
                    chunks.append((path, piece))
        return chunks

    def settings(self) -> tuple[str, tuple[tuple[str, Any], ...]] | None:
        """What rebuilds this splitter anywhere (``split_documents``); None for a subclass of one's own,
        which splits in this process."""
        if type(self) not in (ChunkSplitter, HeadlineSplitter):
            return None
        options = {"chunk_size": self.chunk_size, "chunk_overlap": self.chunk_overlap, "unit": self.unit}
        if isinstance(self, HeadlineSplitter):
            options["min_section_tokens"] = self.min_section_tokens
        return type(self).__name__, tuple(sorted(options.items()))

    async def apply(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        report = self.report(nodes)
        settings = self.settings()
        with ctx.progress.stage(self.name, len(nodes)) as advance:
            if settings is None:
                pieces = [self.split(kg.get(document)) for document in nodes]
            else:  # the bar moves as batches of documents are cut; adding their chunks is quick
                items = [(settings, {k: kg.get(d).get(k) for k in SPLIT_INPUTS}) for d in nodes]
                batches = ctx.backend.map_batches(split_documents, items, progress=advance)
                pieces = [p for batch in batches for p in batch]
            for document, chunks in zip(nodes, pieces, strict=True):
                previous = None
                for position, (path, text) in enumerate(chunks):
                    chunk = kg.add_chunk(document, text, position=position, section=path)
                    if previous is not None:
                        kg.add_edge(previous, chunk, EdgeKind.NEXT)
                    previous = chunk
                report.done += 1
                if settings is None:
                    advance()
        return report


class HeadlineSplitter(ChunkSplitter):
    """Sections at the document's headlines (structure first, else its ``headlines``), then size bounds."""

    name = "split at headlines"

    def __init__(self, *args: Any, min_section_tokens: int = 24, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.min_section_tokens = min_section_tokens

    def sections(self, data: dict[str, Any]) -> list[tuple[str, str]]:
        """(heading path, text) per section, as ``markdown.sections`` cuts them; a section with almost
        no body travels with the next one."""
        text: str = data["text"]
        headings = structural_headings(text, data.get("format", "markdown"))
        if not headings and data.get("headlines"):
            headings = _headline_headings(text, data["headlines"])
        if not headings:
            return [("", text)]
        lines = text.split("\n")
        found = cut_at_headings(text, headings=headings)
        out: list[tuple[str, str]] = []
        pending = ""
        for index, section in enumerate(found):
            body = "\n".join(lines[section.start : section.end]).strip()
            pending = f"{pending}\n\n{body}".strip() if pending else body
            if count_tokens(pending) < self.min_section_tokens and index + 1 < len(found):
                continue
            out.append((" > ".join(section.path), pending))
            pending = ""
        return [(path, body) for path, body in out if body]


SPLIT_INPUTS = ("text", "format", "headlines")  # what ``split`` reads of a document


def split_documents(
    items: list[tuple[tuple[str, tuple[tuple[str, Any], ...]], dict[str, Any]]],
) -> list[list[tuple[str, str]]]:
    """The (heading path, chunk text) pieces of each (splitter settings, document) pair: a pure function of
    its input, so batches of documents may be cut on any backend."""
    return [_splitter(settings).split(data) for settings, data in items]


@functools.lru_cache(maxsize=8)
def _splitter(settings: tuple[str, tuple[tuple[str, Any], ...]]) -> ChunkSplitter:
    kind, options = settings
    return {"ChunkSplitter": ChunkSplitter, "HeadlineSplitter": HeadlineSplitter}[kind](**dict(options))


def _headline_headings(text: str, headlines: Sequence[str]) -> list[Heading]:
    """The lines an LLM named as headlines, as level-1 headings (a document without structure)."""
    wanted = {_norm(h) for h in headlines}
    return [Heading(1, _bare(line), i) for i, line in enumerate(text.split("\n")) if _norm(line) in wanted]


def _bare(line: str) -> str:
    """A line an LLM named as a headline, as a title: no ``#`` marks, no ``{#id}`` attribute block."""
    return strip_attributes(line.strip().strip("#").strip())[0]


def _norm(line: str) -> str:
    return re.sub(r"\s+", " ", _bare(line)).casefold()
