"""Documents folder -> knowledge graph in one call: load, add document nodes, run the transforms."""

from __future__ import annotations

import functools
import hashlib
import inspect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

from ..core.aio import run_sync
from ..core.backends import Backend
from ..core.engine import CallEngine
from ..core.hashing import stable_hash
from ..core.models import describe_model, model_identity, resolve_embeddings, resolve_llm
from ..documents.loader import LoadResult, load_documents
from ..text.language import detect_language, language_code
from .checkpoint import BuildCheckpoint
from .defaults import default_transforms
from .graph import KnowledgeGraph
from .transform import BuildReport, Transform, aapply_transforms


@dataclass
class GraphBuild:
    """A built graph, with the load report and what each stage did."""

    kg: KnowledgeGraph
    load: LoadResult
    report: BuildReport
    checkpoint: BuildCheckpoint | None = None  # kept only with keep_checkpoint=True

    def __repr__(self) -> str:  # short: the graph is in .kg, the documents' text would flood a notebook
        failures = len(self.report.failures)
        return f"GraphBuild(kg={self.kg!r}, load={self.load!r}, {failures} failed nodes)"


def add_documents(kg: KnowledgeGraph, documents: Iterable[Document]) -> list[str]:
    """Add loaded documents as document nodes (ids from source and content hash); returns their ids.

    Each node's ``language`` is the ISO 639-1 code of the document's ``metadata["language"]`` ("en-US"
    -> "en"), detected when missing: the offline extractors read the document and its chunks in it.
    """
    ids = []
    for doc in documents:
        meta = doc.metadata
        language = meta.get("language")
        ids.append(
            kg.add_document(
                doc.page_content,
                source=meta["source"],
                content_hash=meta.get("content_hash"),
                title=meta.get("title", ""),
                format=meta.get("format", "text"),
                size=meta.get("size", len(doc.page_content.encode("utf-8"))),
                language=language_code(language) if language else detect_language(doc.page_content),
            )
        )
    return ids


async def abuild_knowledge_graph(
    source: str | Path | Iterable[Document],
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    transforms: Sequence[Transform] | None = None,
    include: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
    show_progress: bool = False,
    backend: Backend | str | None = None,
    checkpoint: str | Path | BuildCheckpoint | None = None,
    keep_checkpoint: bool = False,
    **options: Any,
) -> GraphBuild:
    """Load ``source`` and build its graph; ``options`` go to ``default_transforms`` (e.g. chunk_size).
    ``backend``: where per-text work runs ("local", the default, or "ray": the same graph).
    ``checkpoint``: a folder where the build keeps its progress, so that a build of the same inputs
    stopped part way resumes there; it is removed when the build is done (``keep_checkpoint=True``: kept,
    for the caller to remove once the graph is saved: ``result.checkpoint.remove()``)."""
    llm, embeddings = resolve_llm(llm).model, resolve_embeddings(embeddings).model
    loaded = load_documents(source, include=include, exclude=exclude)
    kg = KnowledgeGraph()
    add_documents(kg, loaded.documents)
    chain = list(transforms) if transforms is not None else default_transforms(kg, llm, embeddings, **options)
    kept = None
    if checkpoint is not None:
        identity = build_identity(kg, chain, llm, embeddings, options if transforms is None else None)
        kept = checkpoint if isinstance(checkpoint, BuildCheckpoint) else BuildCheckpoint(checkpoint)
        kept.identity = stable_hash([identity, include, exclude], length=32)
    report = await aapply_transforms(
        kg,
        chain,
        llm=llm,
        embeddings=embeddings,
        engine=engine,
        show_progress=show_progress,
        backend=backend,
        checkpoint=kept,
    )
    record_build(kg, llm, embeddings, options if transforms is None else None)
    record_filters(kg, include, exclude)
    if kept is not None and not keep_checkpoint:
        kept.remove()
    return GraphBuild(kg, loaded, report, kept)


@functools.cache
def code_identity() -> str:
    """A hash of groundset's own source files: a checkpoint left by other code is never resumed."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode("utf-8") + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


def build_identity(
    kg: KnowledgeGraph, chain: Sequence[Transform], llm: Any, embeddings: Any, options: dict[str, Any] | None
) -> list[Any]:
    """Everything a built graph depends on: the documents (ids hash path and content), the models, the
    chain's stages and options, and this groundset's code."""
    return [
        code_identity(),
        sorted(kg.graph.nodes),
        [model_identity(llm), model_identity(embeddings)],
        [f"{type(t).__module__}.{type(t).__qualname__}:{t.name}" for t in chain],
        None if options is None else transform_options(options),
    ]


def transform_options(options: dict[str, Any]) -> dict[str, Any]:
    """``default_transforms`` options with its defaults filled in (what a graph records it was built with)."""
    defaults = {
        name: p.default
        for name, p in inspect.signature(default_transforms).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }
    return {**defaults, **{name: value for name, value in options.items() if name in defaults}}


def record_build(kg: KnowledgeGraph, llm: Any, embeddings: Any, options: dict[str, Any] | None) -> None:
    """Record in the graph which models built it and the ``default_transforms`` options (None: a chain of
    its own); saved with the graph, checked by ``update_kg``."""
    kg.graph.graph["models"] = {
        role: {"name": describe_model(model), "identity": model_identity(model)}
        for role, model in (("llm", llm), ("embeddings", embeddings))
    }
    if options is None:
        kg.graph.graph.pop("options", None)
    else:
        kg.graph.graph["options"] = transform_options(options)


def record_filters(kg: KnowledgeGraph, include: Sequence[str] | None, exclude: Sequence[str] | None) -> None:
    """Record the ``include``/``exclude`` globs the documents were loaded with (saved with the graph), so
    ``update_kg`` loads the same files: a document the build left out must not come back as "added"."""
    kg.graph.graph["filters"] = {
        "include": None if include is None else list(include),
        "exclude": list(exclude or []),
    }


def build_knowledge_graph(source: str | Path | Iterable[Document], **kwargs: Any) -> GraphBuild:
    """The sync twin of ``abuild_knowledge_graph``."""
    return run_sync(abuild_knowledge_graph(source, **kwargs))
