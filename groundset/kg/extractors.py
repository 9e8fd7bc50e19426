"""Extractors: properties of documents and chunks, from the LLM or from their offline forms.

Offline, the corpus-level methods (TF-IDF phrases, entity rules) run once over all nodes that
need them, which is both faster and better than node by node; with an LLM each node is one
prompt call through the engine (cached, shared, bounded, retried). Offline, each document is read
in its ``language`` property, and each chunk in its document's (None, for graphs saved without
one, lets the text tools detect it).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence
from typing import Any

from ..core.errors import PromptOutputError
from ..core.models import is_offline
from ..text.entities import EntityExtractor
from ..text.language import languages_of
from ..text.markdown import structural_headings
from ..text.mdparse import read_once
from ..text.phrases import PhraseInputs, PhraseModel, inputs_of_plain, phrase_inputs
from ..text.plaintext import plain_text
from ..text.textrank import summary_of_plain
from .facts_batch import BATCH_CHARS, BATCH_PASSAGES, ChunkBatch, ChunkFactsBatchPrompt, batches
from .graph import KnowledgeGraph, NodeKind
from .prompts import ChunkFacts, ChunkText, DocumentText, HeadlinesPrompt, SummaryPrompt
from .splitters import count_tokens
from .transform import BuildContext, StageReport, Transform, each_node

logger = logging.getLogger(__name__)

LONG_DOCUMENT_TOKENS = 400
MAX_PROMPT_CHARS = 24_000


def is_long(data: dict[str, Any], threshold: int = LONG_DOCUMENT_TOKENS) -> bool:
    return count_tokens(data["text"], up_to=threshold) >= threshold


class HeadlinesExtractor(Transform):
    """Headlines from Markdown/rst structure; an LLM call only for long documents that have none."""

    stage = "kg.headlines"
    name = "headlines"

    def __init__(self, long_tokens: int = LONG_DOCUMENT_TOKENS, *, use_llm: bool = True) -> None:
        self.long_tokens = long_tokens
        self.use_llm = use_llm  # False: a lazy build, structure only
        self.prompt = HeadlinesPrompt()

    def select(self, kg: KnowledgeGraph) -> list[str]:
        return [d for d in kg.nodes(NodeKind.DOCUMENT) if "headlines" not in kg.get(d)]

    async def apply(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        async def work(node: str) -> None:
            data = kg.get(node)
            found = [h.title for h in structural_headings(data["text"], data.get("format", "markdown"))]
            if not found and is_long(data, self.long_tokens) and self.use_llm and not is_offline(ctx.llm):
                try:
                    answer = await self.prompt.run(
                        ctx.llm, _document_input(data), engine=ctx.engine, stage=self.stage
                    )
                except PromptOutputError as exc:  # the model answered, but nothing usable: none, as offline
                    logger.info(
                        "%s: the model gave no usable headlines of %s (%s)", self.stage, node, exc.error
                    )
                    ctx.engine.record(self.stage, fallbacks=1)
                else:
                    lines = {line.strip() for line in data["text"].split("\n")}
                    found = [h.strip() for h in answer.headlines if h.strip() in lines]
            data["headlines"] = found

        return await each_node(nodes, work, self.report(nodes), ctx)


class SummaryExtractor(Transform):
    """A summary and themes for each long document: one LLM call each, or TextRank + corpus TF-IDF."""

    stage = "kg.summary"
    name = "summaries"

    def __init__(self, long_tokens: int = LONG_DOCUMENT_TOKENS, *, use_llm: bool = True) -> None:
        self.long_tokens = long_tokens
        self.use_llm = use_llm  # False: a lazy build, TextRank summaries and TF-IDF themes
        self.prompt = SummaryPrompt()

    def select(self, kg: KnowledgeGraph) -> list[str]:
        """Long documents without a summary or without themes (an update drops only the offline themes,
        which depend on the whole corpus; a TextRank summary depends on its document alone)."""
        return [
            d
            for d in kg.nodes(NodeKind.DOCUMENT)
            if not {"summary", "themes"} <= kg.get(d).keys() and is_long(kg.get(d), self.long_tokens)
        ]

    async def apply(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        if is_offline(ctx.llm) or not self.use_llm:
            return self._offline(kg, nodes, ctx)
        failed: list[str] = []

        async def work(node: str) -> None:
            try:
                answer = await self.prompt.run(
                    ctx.llm, _document_input(kg.get(node)), engine=ctx.engine, stage=self.stage
                )
            except PromptOutputError as exc:  # the model answered, but nothing usable
                logger.info("%s: the model gave no usable summary of %s (%s)", self.stage, node, exc.error)
                failed.append(node)
            else:
                kg.set(node, summary=answer.summary.strip(), themes=_clean_items(answer.themes))

        report = await each_node(nodes, work, self.report(nodes), ctx)
        if failed:
            # A document the model could not summarise (a small model's cut-off or broken JSON) takes the
            # offline summary and themes, as a lazy build would: the build goes on, and says how many.
            report.done -= len(failed)
            report.done += self._offline(kg, failed, ctx).done
            ctx.engine.record(self.stage, fallbacks=len(failed))
            logger.warning(
                "%s: %d of %d documents took the offline summary", self.name, len(failed), len(nodes)
            )
        return report

    def _offline(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        """TextRank summaries (a summary already there is kept) and themes ranked over the corpus."""
        report = self.report(nodes)
        documents = kg.nodes(NodeKind.DOCUMENT)
        # Themes are ranked over every document; a summary already there is kept (it depends on its
        # document alone; an update drops themes only). Both come from one reading of each document.
        todo = {node for node in nodes if not kg.get(node).get("summary")}
        texts = [kg.get(d)["text"] for d in documents]
        given = languages(kg, documents)
        codes = languages_of(texts, given)
        items = [
            (text, code, lang, node in todo)
            for node, text, code, lang in zip(documents, texts, codes, given, strict=True)
        ]
        del texts
        with ctx.progress.stage("document phrases and summaries", len(documents)) as advance:
            parts = ctx.backend.map_batches(_document_facts_of, items, progress=advance)
        del items
        at = {node: i for i, node in enumerate(documents)}
        _, themes_of = PhraseModel().fit_rank_found(
            [phrases for phrases, _ in parts], keyphrases=0, themes=5, rank=[at[node] for node in nodes]
        )
        found = _flat([summaries for _, summaries in parts])
        del parts
        made = {node: found[at[node]] for node in todo}
        with ctx.progress.stage(self.name, len(nodes)) as advance:
            for node, themes in zip(nodes, themes_of, strict=True):
                summary = kg.get(node).get("summary") or made[node]
                kg.set(node, summary=summary, themes=themes)
                report.done += 1
                advance()
        ctx.engine.record(self.stage, offline=len(nodes))
        return report


class ChunkFactsExtractor(Transform):
    """Entities, keyphrases and themes of each chunk: LLM calls over batches of chunks (keyed per chunk,
    see ``facts_batch``), or offline rules and corpus TF-IDF (also what a lazy build uses)."""

    stage = "kg.chunk_facts"
    name = "chunk facts"

    def __init__(
        self, *, use_llm: bool = True, batch_passages: int = BATCH_PASSAGES, batch_chars: int = BATCH_CHARS
    ) -> None:
        self.use_llm = use_llm
        self.batch_passages, self.batch_chars = batch_passages, batch_chars
        self.prompt = ChunkFactsBatchPrompt()

    def select(self, kg: KnowledgeGraph) -> list[str]:
        """Chunks without facts, or (after an update, offline) without the corpus-dependent phrases."""
        return [c for c in kg.nodes(NodeKind.CHUNK) if not {"entities", "keyphrases"} <= kg.get(c).keys()]

    async def apply(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        if is_offline(ctx.llm) or not self.use_llm:
            return self._offline(kg, nodes, ctx)
        inputs = [self._input(kg, node) for node in nodes]
        groups = batches([len(i.text) for i in inputs], passages=self.batch_passages, chars=self.batch_chars)
        report = self.report(nodes)
        with ctx.progress.stage(self.name, len(nodes)) as advance:
            failed: list[str] = []

            async def one(group: range) -> None:
                keys = {f"p{i}": index for i, index in enumerate(group, start=1)}
                batch = ChunkBatch(passages={key: inputs[index] for key, index in keys.items()})
                try:
                    answer = await self.prompt.run(ctx.llm, batch, engine=ctx.engine, stage=self.stage)
                except PromptOutputError as exc:  # the model answered, but nothing usable
                    logger.info("%s: the model gave no usable facts (%s)", self.stage, exc.error)
                    failed.extend(nodes[i] for i in group)
                except Exception as exc:  # noqa: BLE001 - one batch's failure must not stop the build
                    report.failures += [(nodes[i], f"{type(exc).__name__}: {exc}") for i in group]
                else:
                    for key, facts in answer.by_key().items():
                        _set_facts(kg, nodes[keys[key]], facts)
                        report.done += 1
                for _ in group:
                    advance()

            await asyncio.gather(*(one(group) for group in groups))
        if failed:
            # A chunk the model could not describe (a small model's cut-off or broken JSON) takes the
            # offline extractors' facts, as a lazy build would: the build goes on, and says how many.
            report.done += self._offline(kg, failed, ctx).done
            ctx.engine.record(self.stage, fallbacks=len(failed))
            logger.warning("%s: %d of %d chunks took the offline facts", self.name, len(failed), len(nodes))
        return report

    @staticmethod
    def _input(kg: KnowledgeGraph, node: str) -> ChunkText:
        data = kg.get(node)
        title = kg.get(data["document"]).get("title", "")
        return ChunkText(title=title, section=data.get("section", ""), text=data["text"][:MAX_PROMPT_CHARS])

    def _offline(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        report = self.report(nodes)
        chunks = kg.nodes(NodeKind.CHUNK)
        at = {node: i for i, node in enumerate(chunks)}
        # Phrases are ranked over every chunk; entities follow rules on the chunk alone, and are kept when
        # present (an update keeps them). Both come from one reading of each chunk (one Markdown parse).
        wanted = {node for node in nodes if "entities" not in kg.get(node)}
        texts = [kg.get(c)["text"] for c in chunks]  # markdown: the offline extractors strip it themselves
        items = [
            (text, code, node in wanted)
            for node, text, code in zip(
                chunks, texts, languages_of(texts, languages(kg, chunks)), strict=True
            )
        ]
        del texts
        with ctx.progress.stage("chunk phrases and entities", len(chunks)) as advance:
            parts = ctx.backend.map_batches(_chunk_facts_of, items, progress=advance)
        del items
        keyphrases, themes = PhraseModel().fit_rank_found(
            [phrases for phrases, _ in parts], keyphrases=8, themes=4, rank=[at[node] for node in nodes]
        )
        found = _flat([entities for _, entities in parts])
        del parts
        entities = [kg.get(node)["entities"] if node not in wanted else found[at[node]] for node in nodes]
        del found
        with ctx.progress.stage(self.name, len(nodes)) as advance:
            for i, node in enumerate(nodes):
                _set_facts(
                    kg, node, ChunkFacts(entities=entities[i], keyphrases=keyphrases[i], themes=themes[i])
                )
                report.done += 1
                advance()
        ctx.engine.record(self.stage, offline=len(nodes))
        return report


class EmbeddingExtractor(Transform):
    """Embeds a text property of every node of one kind into a vector property, in batches."""

    def __init__(
        self, kind: NodeKind = NodeKind.CHUNK, source: str = "text", target: str = "embedding"
    ) -> None:
        self.kind, self.source, self.target = NodeKind(kind), source, target

    @property
    def stage(self) -> str:  # type: ignore[override]
        return f"kg.embed.{self.kind.value}.{self.source}"

    @property
    def name(self) -> str:
        return f"embed {self.kind.value} {self.source}"

    def select(self, kg: KnowledgeGraph) -> list[str]:
        return [
            n
            for n in kg.nodes(self.kind)
            if kg.get(n).get(self.source) and kg.get(n).get(self.target) is None
        ]

    async def apply(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        report = self.report(nodes)
        with ctx.progress.stage(self.name, len(nodes)) as advance:
            if nodes:
                matrix = await ctx.engine.embed(
                    ctx.embeddings, [kg.get(n)[self.source] for n in nodes], stage=self.stage
                )
                for node, row in zip(nodes, matrix, strict=True):
                    kg.set(node, **{self.target: row})
                    report.done += 1
                    advance()
        return report


def languages(kg: KnowledgeGraph, nodes: Sequence[str]) -> list[str | None]:
    """The language of each node: a document's ``language``, a chunk's document's (None if unknown)."""
    found: list[str | None] = []
    for node in nodes:
        data = kg.get(node)
        if data.get("kind") == NodeKind.CHUNK.value and data.get("document") in kg:
            data = kg.get(data["document"])
        found.append(data.get("language"))
    return found


def _document_input(data: dict[str, Any]) -> DocumentText:
    return DocumentText(title=data.get("title", ""), text=data["text"][:MAX_PROMPT_CHARS])


def _set_facts(kg: KnowledgeGraph, node: str, facts: ChunkFacts) -> None:
    """Store the facts; a chunk always gets at least one entity and one keyphrase to link by."""
    data = kg.get(node)
    entities = _clean_items(facts.entities)
    keyphrases = _clean_items(facts.keyphrases)
    if not keyphrases:
        keyphrases = _clean_items(
            [data.get("section", "").split(" > ")[-1], kg.get(data["document"]).get("title", "")]
        )
    if not entities:
        entities = keyphrases[:1]
    kg.set(node, entities=entities, keyphrases=keyphrases, themes=_clean_items(facts.themes))


def _clean_items(items: Sequence[str]) -> list[str]:
    """Items with their spaces tidied, each once (case aside), as one string object a value: the same
    entity or phrase in thousands of chunks is held once, not once a chunk (about 0.7 KB a chunk)."""
    seen: dict[str, str] = {}
    for item in items:
        text = " ".join(str(item).split())
        if text and text.casefold() not in seen:
            seen[text.casefold()] = sys.intern(text)
    return list(seen.values())


# Work on a batch of texts that runs wherever the build's backend puts it: module-level
# and pure, so a batch's result does not depend on where it ran.
def _chunk_facts_of(
    items: list[tuple[str, str, bool]],
) -> tuple[PhraseInputs, list[list[str] | None]]:
    """Each chunk's phrase candidates, and the entities of those (text, language, wanted) that want them."""
    with read_once():  # both read a chunk's one parse; later stages read other texts
        inputs = phrase_inputs([(text, code) for text, code, _ in items])
        wanted = [(text, code) for text, code, want in items if want]
        found = iter(EntityExtractor().extract_many([t for t, _ in wanted], lang=[c for _, c in wanted]))
        return inputs, [next(found) if want else None for _, _, want in items]


def _document_facts_of(
    items: list[tuple[str, str, str | None, bool]],
) -> tuple[PhraseInputs, list[str | None]]:
    """Each document's phrase candidates, and the TextRank summary of those (text, language, language
    given, wanted) that want one."""
    with read_once():
        plains = [plain_text(text) for text, _, _, _ in items]
    inputs = inputs_of_plain([(plain, code) for plain, (_, code, _, _) in zip(plains, items, strict=True)])
    return inputs, [
        summary_of_plain(plain, lang=lang) if want else None
        for plain, (_, _, lang, want) in zip(plains, items, strict=True)
    ]


def _flat(batches: list[list[Any]]) -> list[Any]:
    return [item for batch in batches for item in batch]
