"""Incremental update of a knowledge graph: when the docs change, pay only for what changed.

``update_kg(kg, docs)`` loads the corpus again, diffs it against the graph's document nodes by content
hash, and returns a *new* graph equal to a full rebuild of the new corpus (same node ids, properties and
edges) while the models are asked only about the added and changed documents:

1. The new corpus's documents become document nodes through ``add_documents``, the code path of a build.
2. Every new document whose text (content hash) and the other properties the transforms read (title,
   format, language) equal an old document's gets that document's computed properties (headlines,
   summary, themes, summary_embedding, ...) and its chunks (text, position, section, entities,
   keyphrases, themes, embedding) with their child and next edges, added through ``kg.add_chunk`` so the
   ids follow the usual rules: an unchanged document keeps its ids, a renamed one gets ids derived from
   its new path. A rename that changes the title (a title taken from the file name) is processed
   again: the prompts see the title (``CorpusDiff.reprocessed``).
3. The chain a build runs (``default_transforms``) runs on that graph. Transforms select what is still
   missing, so only the added and changed documents are split, extracted and embedded.

Design choices:

- Relationship edges (similar, entity_overlap, theme_overlap) are rebuilt over all nodes, not only for
  pairs that involve new nodes. They cost no model call (vectorised, offline), and they are top-k and
  threshold edges: when nodes arrive or leave, an old node's neighbours can change. Recomputing them is
  what makes the result well defined and exactly the full rebuild's.
- Corpus-level statistics: offline, the extractors fit one TF-IDF model over the whole corpus (chunk
  keyphrases and themes; document themes), so those properties of carried-over nodes are dropped and
  recomputed with the new corpus's statistics: free, and equal to a rebuild. Rule-based entities and a
  document's TextRank summary (and so its ``summary_embedding``) depend on their own text only and are
  kept. With an LLM every fact is per node (one prompt per chunk or document), so all of them are
  carried over: a deterministic model would answer the same, and nothing corpus-level remains.
- Node order: the builders break exact ties by node order, so the chunks are put in the order a build
  adds them (document order, per splitter) before anything reads them.
- Models: a graph records which LLM and embeddings built it, and with which chain options. An update
  with other models is refused (carrying their facts over would silently mix two models in one graph);
  a graph saved before that record existed is accepted with a warning.
- Files: a graph records the ``include``/``exclude`` globs its documents were loaded with, and an update
  loads the corpus with them, so a document the build left out is not "added" (nor sent to the model).
  Filters given to the update replace the recorded ones as a whole (``include=["**"]`` takes every file
  again) and are recorded in their place. A graph saved before filters were recorded is updated with
  the given ones, or none, with a warning.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
from langchain_core.documents import Document

from ..core.aio import run_sync
from ..core.engine import CallEngine
from ..core.errors import ConfigError
from ..core.models import describe_model, is_offline, model_identity, resolve_embeddings, resolve_llm
from ..documents.loader import LoadResult, load_documents
from .build import add_documents, record_build, record_filters, transform_options
from .defaults import default_transforms
from .extractors import SummaryExtractor
from .graph import EdgeKind, KnowledgeGraph, NodeKind
from .splitters import ChunkSplitter
from .transform import BuildContext, BuildReport, StageReport, Transform, aapply_transforms

logger = logging.getLogger(__name__)

#: What ``add_chunk`` sets itself; a document's equivalent is whatever ``add_documents`` sets.
_CHUNK_BASE = frozenset({"kind", "text", "source", "document", "position"})
#: Document properties that may differ without changing what the transforms compute.
_NOT_READ = frozenset({"source", "size"})
#: Offline, these come from corpus-wide TF-IDF statistics, so they are recomputed over the new corpus.
_OFFLINE_CHUNK_FACTS = ("keyphrases", "themes")  # corpus TF-IDF; entities are rules on the chunk alone
_OFFLINE_DOCUMENT_FACTS = ("themes",)  # corpus TF-IDF; the TextRank summary reads its document alone
_HOOK_STAGE = "kg.update"


@dataclass
class CorpusDiff:
    """How the corpus differs from the graph's documents, by source path (renamed: ``(old, new)``)."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)
    #: Same text, but its title, format or language changed: processed again (also listed above).
    reprocessed: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.renamed or self.reprocessed)

    def summary(self) -> str:
        parts = [
            f"{len(self.added)} added",
            f"{len(self.changed)} changed",
            f"{len(self.removed)} removed",
            f"{len(self.renamed)} renamed",
            f"{len(self.unchanged)} unchanged",
        ]
        if self.reprocessed:
            parts.append(f"{len(self.reprocessed)} processed again (new title, format or language)")
        return ", ".join(parts)


@dataclass
class GraphUpdate:
    """An updated graph (a new object; the old one is left as it was) and what the update did."""

    kg: KnowledgeGraph
    load: LoadResult
    report: BuildReport
    diff: CorpusDiff
    nodes_added: int
    nodes_removed: int
    #: False when the result equals the old graph (same nodes, properties, edges and records).
    changed: bool
    #: The include/exclude globs the corpus was loaded with, and where they came from.
    filters: UpdateFilters


@dataclass(frozen=True)
class UpdateFilters:
    """The ``include``/``exclude`` globs an update loads the corpus with. ``origin``: "recorded" (with
    the graph, at its build), "given" (to the update: they replace ``replaced``, the recorded ones, None
    when the graph had none) or "not recorded" (a graph saved before filters were recorded: none)."""

    include: Sequence[str] | None
    exclude: Sequence[str]
    origin: str
    replaced: UpdateFilters | None = None

    def globs(self) -> str:
        """``include a, b; exclude c`` (or ``none``), as the update's output shows them."""
        parts = [] if self.include is None else [f"include {', '.join(self.include)}"]
        parts += [f"exclude {', '.join(self.exclude)}"] if self.exclude else []
        return "; ".join(parts) or "none"

    def describe(self) -> str:
        """The globs and where they came from, e.g. ``exclude drafts/ (recorded with the graph)``."""
        if self.origin == "recorded":
            return f"{self.globs()} (recorded with the graph)"
        if self.origin == "not recorded":
            return (
                f"{self.globs()} (this graph does not record the --include/--exclude it was built with: "
                "saved by an older groundset; give them to the update if the build had some, and they are "
                "recorded)"
            )
        if self.replaced is None:
            return f"{self.globs()} (given: recorded with the graph from now on)"
        if self.replaced.globs() == self.globs():
            return f"{self.globs()} (given, the same as recorded with the graph)"
        return f"{self.globs()} (given: they replace the recorded {self.replaced.globs()})"


def update_filters(
    kg: KnowledgeGraph, include: Sequence[str] | None, exclude: Sequence[str] | None
) -> UpdateFilters:
    """The filters an update of ``kg`` loads the corpus with: those given (either one given replaces
    both), else those the graph recorded at its build; none for a graph that recorded none."""
    recorded = kg.graph.graph.get("filters")
    was = None
    if isinstance(recorded, dict):
        was = UpdateFilters(recorded.get("include"), recorded.get("exclude") or [], "recorded")
    if include is not None or exclude is not None:
        return UpdateFilters(include, exclude or [], "given", was)
    return was or UpdateFilters(None, [], "not recorded")


async def aupdate_kg(
    kg: KnowledgeGraph | str | Path,
    source: str | Path | Iterable[Document],
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    include: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
    show_progress: bool = False,
    consume: bool = False,
    **options: Any,
) -> GraphUpdate:
    """Update ``kg`` (a graph or a saved graph's folder) to the corpus at ``source``; see the module doc.

    ``consume=True``: the update takes ``kg`` apart, moving what it keeps of it into the new graph instead
    of copying it, and leaves ``kg`` empty; for a caller done with it (``groundset kg update``), so that
    the old graph and the new one are not held side by side. A folder given as ``kg`` is always consumed.

    ``options`` go to ``default_transforms`` like a build's; those the graph recorded are the defaults,
    and a different value is refused (a different chunk size would re-chunk everything: rebuild instead).
    ``include``/``exclude``: None (both) loads the files the build loaded (its recorded globs); given,
    they replace the recorded ones as a whole and are recorded in their place (see ``update_filters``).
    """
    consume = consume or not isinstance(kg, KnowledgeGraph)
    old = kg if isinstance(kg, KnowledgeGraph) else KnowledgeGraph.load(kg)
    llm, embeddings = resolve_llm(llm).model, resolve_embeddings(embeddings).model
    check_models(old, llm, embeddings)
    options = _options(old, options)
    filters = update_filters(old, include, exclude)
    if filters.origin == "not recorded":
        logger.warning(
            "this knowledge graph does not record the --include/--exclude it was built with (saved by an "
            "older groundset): updating it with every file of the corpus; give the filters to the update "
            "(include=/exclude= in Python) if the build had some, and the graph records them"
        )
    loaded = load_documents(source, include=filters.include, exclude=filters.exclude)
    new = KnowledgeGraph()
    add_documents(new, loaded.documents)
    diff, matches = diff_documents(old, new)
    # A lazy graph's facts come from the offline extractors, corpus-wide TF-IDF included: carried over
    # and recomputed as offline ones are.
    offline_facts = is_offline(llm) or options.get("enrich", "lazy") == "lazy"
    before, old_digest = set(old.graph.nodes), old.content_digest()
    stash = _carry_over(old, new, matches, offline=offline_facts, move=consume)
    if consume:
        emptied = KnowledgeGraph()
        old.graph, old.relations = emptied.graph, emptied.relations
    chain = _with_hooks(default_transforms(new, llm, embeddings, **options), stash)
    report = await aapply_transforms(
        new, chain, llm=llm, embeddings=embeddings, engine=engine, show_progress=show_progress
    )
    report.stages = [s for s in report.stages if s.stage != _HOOK_STAGE]
    record_build(new, llm, embeddings, options)
    record_filters(new, filters.include, filters.exclude)
    after = set(new.graph.nodes)
    return GraphUpdate(
        kg=new,
        load=loaded,
        report=report,
        diff=diff,
        nodes_added=len(after - before),
        nodes_removed=len(before - after),
        changed=new.content_digest() != old_digest,
        filters=filters,
    )


def update_kg(
    kg: KnowledgeGraph | str | Path, source: str | Path | Iterable[Document], **kwargs: Any
) -> GraphUpdate:
    """The sync twin of ``aupdate_kg``."""
    return run_sync(aupdate_kg(kg, source, **kwargs))


def check_models(kg: KnowledgeGraph, llm: Any, embeddings: Any) -> None:
    """Refuse models other than those that built ``kg``; warn when the graph has no record of them."""
    recorded = kg.graph.graph.get("models")
    if not isinstance(recorded, dict):
        logger.warning(
            "this knowledge graph does not record which models built it (saved by an older groundset, or "
            "not built by build_knowledge_graph); "
            "updating it with llm %s and embeddings %s, which it will record from now on",
            describe_model(llm),
            describe_model(embeddings),
        )
        return
    now = {"llm": llm, "embeddings": embeddings}
    wrong = [
        role
        for role, model in now.items()
        if (recorded.get(role) or {}).get("identity") != model_identity(model)
    ]
    if not wrong:
        return
    names = {role: (recorded.get(role) or {}).get("name", "unknown") for role in now}
    was = ", ".join(f"{role} {names[role]}" for role in now)
    asked = ", ".join(f"{role} {describe_model(model)}" for role, model in now.items())
    what = [f"{r}: same model, other settings" if names[r] == describe_model(now[r]) else r for r in wrong]
    raise ConfigError(
        f"this knowledge graph was built with {was}; this update uses {asked} "
        f"(different {' and '.join(what)}). Carrying its facts over would mix two models' output in one "
        "graph: pass the same --llm/--embeddings as the build (llm=/embeddings= in Python), or run "
        "`groundset kg build` again to rebuild it with the new ones"
    )


def diff_documents(old: KnowledgeGraph, new: KnowledgeGraph) -> tuple[CorpusDiff, dict[str, str]]:
    """The diff of two graphs' documents, and for each new document the old one to carry over from.

    A new document is carried over from an old one with the same content hash (the same source
    preferred) whose title, format and language are the same too: the transforms read those.
    """
    old_docs = old.nodes(NodeKind.DOCUMENT)
    old_by_source = {old.get(d)["source"]: d for d in old_docs}
    old_by_hash: dict[str, list[str]] = {}
    for doc in old_docs:
        old_by_hash.setdefault(old.get(doc)["content_hash"], []).append(doc)
    new_sources = {new.get(d)["source"] for d in new.nodes(NodeKind.DOCUMENT)}
    diff, matches, renamed_from = CorpusDiff(), {}, set()
    for doc in new.nodes(NodeKind.DOCUMENT):
        data = new.get(doc)
        source, content_hash = data["source"], data["content_hash"]
        candidates = old_by_hash.get(content_hash, [])
        if source in old_by_source:
            same = old.get(old_by_source[source])["content_hash"] == content_hash
            (diff.unchanged if same else diff.changed).append(source)
        else:
            gone = [
                old.get(o)["source"]
                for o in candidates
                if old.get(o)["source"] not in new_sources and old.get(o)["source"] not in renamed_from
            ]
            if gone:
                diff.renamed.append((gone[0], source))
                renamed_from.add(gone[0])
            else:
                diff.added.append(source)
        ranked = sorted(candidates, key=lambda o: old.get(o)["source"] != source)
        match = next((o for o in ranked if _same_inputs(old.get(o), data)), None)
        if match is not None:
            matches[doc] = match
        elif candidates:
            diff.reprocessed.append(source)
    diff.removed = [s for s in old_by_source if s not in new_sources and s not in renamed_from]
    return diff, matches


def same_graph(a: KnowledgeGraph, b: KnowledgeGraph) -> bool:
    """Equal graph-level records, nodes (ids and properties, vectors by value) and edges (with their
    scores and shared items), whatever order they came in: equal ``content_digest``s."""
    return a.content_digest() == b.content_digest()


def _same_inputs(old: dict[str, Any], new: dict[str, Any]) -> bool:
    return all(old.get(name) == value for name, value in new.items() if name not in _NOT_READ)


def _options(kg: KnowledgeGraph, options: dict[str, Any]) -> dict[str, Any]:
    """The chain options: those the graph was built with, unless given; a different value is refused."""
    recorded = kg.graph.graph.get("options")
    if not isinstance(recorded, dict):
        return dict(options)
    # Graphs recorded before builds could be lazy were all built eagerly.
    recorded = transform_options({"enrich": "eager", **recorded})
    clash = [
        f"{n}={recorded[n]!r} (asked: {v!r})"
        for n, v in options.items()
        if n in recorded and recorded[n] != v
    ]
    if clash:
        raise ConfigError(
            f"this knowledge graph was built with {', '.join(clash)}; an update keeps the build's options "
            "(a new chunk size changes every chunk). Leave them out, or run `groundset kg build` again"
        )
    return {**recorded, **options}


def _carry_over(
    old: KnowledgeGraph, new: KnowledgeGraph, matches: dict[str, str], *, offline: bool, move: bool = False
) -> dict:
    """Copy each matched old document's computed properties and chunks into ``new`` (see module doc);
    ``move``: share them instead (``old`` is about to be dropped, and its values are never changed in place).

    Returns, offline, the old summary of each carried-over document whose summary is recomputed.
    """
    summaries: dict[str, str] = {}
    take = (lambda value: value) if move else copy.deepcopy
    for new_doc, old_doc in matches.items():
        target = new.get(new_doc)
        for name, value in old.get(old_doc).items():
            if name not in target:  # add_documents' own properties come from the new corpus
                target[name] = take(value)
        if offline and "summary" in target:
            summaries[new_doc] = target["summary"]
            for name in _OFFLINE_DOCUMENT_FACTS:
                target.pop(name, None)
        ids: dict[str, str] = {}
        chunks = old.chunks_of(old_doc)
        for chunk in chunks:
            data = old.get(chunk)
            props = {k: take(v) for k, v in data.items() if k not in _CHUNK_BASE}
            if offline:
                for name in _OFFLINE_CHUNK_FACTS:
                    props.pop(name, None)
            ids[chunk] = new.add_chunk(new_doc, data["text"], position=data["position"], **props)
        for chunk in chunks:
            for following in old.neighbours(chunk, EdgeKind.NEXT):
                if following in ids:
                    new.add_edge(ids[chunk], ids[following], EdgeKind.NEXT)
    return summaries


class _Hook(Transform):
    """A step of the update between two transforms of the chain (no nodes, no calls, not reported)."""

    stage = _HOOK_STAGE
    name = "update"

    def __init__(self, action: Callable[[KnowledgeGraph], None]) -> None:
        self.action = action

    def select(self, kg: KnowledgeGraph) -> list[str]:
        return []

    async def apply(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        self.action(kg)
        return self.report(nodes)


def _with_hooks(chain: list[Transform], summaries: dict[str, str]) -> list[Transform]:
    """The chain plus two hooks: build order after the last splitter; after the summaries, each kept
    ``summary_embedding`` is dropped unless its document's summary came out the same."""
    splitters = [t for t in chain if isinstance(t, ChunkSplitter)]

    def reorder(kg: KnowledgeGraph) -> None:
        build_order(kg, splitters)

    def check_summaries(kg: KnowledgeGraph) -> None:
        for doc, summary in summaries.items():
            if kg.get(doc).get("summary") != summary:
                kg.get(doc).pop("summary_embedding", None)

    out: list[Transform] = []
    last_split = max((i for i, t in enumerate(chain) if isinstance(t, ChunkSplitter)), default=-1)
    summarised = next((i for i, t in enumerate(chain) if isinstance(t, SummaryExtractor)), last_split)
    for index, transform in enumerate(chain):
        out.append(transform)
        if index == last_split:
            out.append(_Hook(reorder))
        if index == summarised:
            out.append(_Hook(check_summaries))
    if last_split < 0:
        out[:0] = [_Hook(reorder), _Hook(check_summaries)]
    return out


def build_order(kg: KnowledgeGraph, splitters: Sequence[ChunkSplitter]) -> None:
    """Put ``kg``'s nodes in the order a build adds them: documents, then each splitter's chunks in turn
    (the documents it selects on a fresh graph, in order; each document's chunks by position)."""
    documents = kg.nodes(NodeKind.DOCUMENT)
    order: dict[str, None] = dict.fromkeys(documents)
    claimed: set[str] = set()
    for splitter in splitters:
        for doc in documents:
            if doc not in claimed and (splitter.where is None or splitter.where(kg.get(doc))):
                claimed.add(doc)
                order.update(dict.fromkeys(kg.chunks_of(doc)))
    order.update(dict.fromkeys(kg.graph.nodes))  # anything else keeps its place after them
    graph = nx.MultiDiGraph()
    graph.graph.update(kg.graph.graph)
    graph.add_nodes_from((node, kg.graph.nodes[node]) for node in order)  # edges are in kg.relations
    kg.graph = graph
