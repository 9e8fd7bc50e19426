"""TestsetGenerator: personas -> scenarios -> samples -> quality gate -> Testset.

Counts per synthesizer follow the distribution by largest remainder; a synthesizer with no
grounded scenario hands its share to the others (one warning); a corpus too small for the
requested size yields what it can and says so. The same graph, models and seed give the same
test set. A refresh (see ``refresh``) passes the samples it keeps (``existing``: never asked again,
their contexts count toward the spread) and the chunks of new or changed documents (``prefer``:
scenarios on them are tried first).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.documents import Document

from ...core.aio import run_sync
from ...core.engine import CallEngine, get_engine
from ...core.errors import GroundsetError, PromptOutputError
from ...core.frozen_heap import frozen_heap
from ...core.models import describe_model, resolve_embeddings, resolve_llm
from ...core.offline_embeddings import cosine_thresholds
from ...core.wordllama_embeddings import shared_model
from ...kg.document_changes import graph_documents
from ...kg.graph import KnowledgeGraph
from ...personas import Cluster, Persona, acluster_documents, apersonas_of
from ...personas.language import check_language
from ...samples.testset import Testset, TestsetSample
from ..base import Synthesizer
from ..registry import DEFAULT_KINDS, SHORT_NAMES, SYNTHESIZERS, parse_distribution
from ..scenarios.fact_index import FactIndex
from ..scenarios.scenario import PersonaPool, QueryMix, Scenario, largest_remainder
from ..scenarios.source import ScenarioSource
from ..scenarios.spread import ContextBudget
from .filling import Filler, describe, embed_or_none

log = logging.getLogger("groundset.synthesizers")
SCENARIO_POOL_FACTOR = 3  # scenarios found at first per sample asked for (more only if they run out)


class TestsetGenerator:
    """Generates a grounded test set from a knowledge graph (or straight from documents)."""

    __test__ = False  # not a pytest test class

    def __init__(
        self,
        llm: Any = None,
        embeddings: Any = None,
        personas: Sequence[Persona] | None = None,
        *,
        engine: CallEngine | None = None,
        num_personas: int = 4,
        mix: QueryMix | None = None,
        duplicate_threshold: float | None = None,
        language: str | None = None,
    ) -> None:
        # None: questions, references and personas follow each document's detected language; an ISO 639-1
        # code ("zh", "de") writes them all in that language (a ValueError lists the supported codes).
        self.language = check_language(language)
        self.llm = resolve_llm(llm).model
        self.embeddings = resolve_embeddings(embeddings).model
        self.personas = list(personas) if personas else None
        self.engine = engine
        self.num_personas = num_personas
        self.mix = mix or QueryMix()
        # None: the embeddings model's own near-duplicate cosine (see core.offline_embeddings)
        self.duplicate_threshold = duplicate_threshold or cosine_thresholds(self.embeddings)[1]

    def default_distribution(self) -> list[tuple[Synthesizer, float]]:
        return [(self._synthesizer(name), 1 / len(DEFAULT_KINDS)) for name in DEFAULT_KINDS]

    def _synthesizer(self, name: str) -> Synthesizer:
        cls, options = SYNTHESIZERS[name], {"engine": self.engine, "mix": self.mix, "language": self.language}
        if "embeddings" in inspect.signature(cls).parameters:  # it embeds questions (out_of_scope)
            options["embeddings"] = self.embeddings
        return cls(self.llm, **options)

    def distribution(self, given: Any) -> list[tuple[Synthesizer, float]]:
        """The (synthesizer, weight) pairs a query distribution names, as ``agenerate`` reads it: None (the
        default), a string ("single=0.5,multi_abstract=0.5"), a mapping name -> weight, or the pairs."""
        if given is None:
            return self.default_distribution()
        if isinstance(given, str):
            given = parse_distribution(given)
        if isinstance(given, Mapping):
            return [(self._synthesizer(SHORT_NAMES.get(k, k)), float(w)) for k, w in given.items()]
        return [(s, float(w)) for s, w in given]

    @frozen_heap()  # the graph outlives the run: no full collection walks it again meanwhile
    async def agenerate(
        self,
        kg: KnowledgeGraph,
        testset_size: int,
        query_distribution: Any = None,
        *,
        seed: int = 0,
        show_progress: bool = False,
        prefer: Collection[str] = (),
        existing: Sequence[TestsetSample] = (),
        per_synthesizer: Sequence[int] | None = None,
    ) -> Testset:
        """``testset_size`` new samples. ``prefer``: chunk ids whose scenarios go first in every synthesizer's
        queue. ``existing``: samples already in the test set (not returned): no new question duplicates
        one of them and their contexts count toward the spread. ``per_synthesizer``: the count of each
        synthesizer of the distribution (summing to ``testset_size``) instead of one from the weights; one
        given none but weighted above 0 may still fill in for another that runs short."""
        if testset_size < 1:
            raise ValueError(f"testset_size must be >= 1, got {testset_size}")
        engine = self.engine or get_engine()
        distribution = self.distribution(query_distribution)
        given = None if per_synthesizer is None else (len(per_synthesizer), sum(per_synthesizer))
        if given not in (None, (len(distribution), testset_size)):
            raise ValueError(
                f"per_synthesizer {per_synthesizer}: a count per synthesizer, {testset_size} in all"
            )
        notes: list[str] = []
        clusters = None  # clustered first: the groundwork thread below would slow it down
        if not self.personas:
            clusters = await acluster_documents(
                kg, self.num_personas, embeddings=self.embeddings, engine=engine
            )
        # The scenarios' offline groundwork (the corpus's facts) is CPU work: done in a thread while the
        # persona calls wait on the model, not after them.
        groundwork = asyncio.ensure_future(asyncio.to_thread(FactIndex.of, kg))
        try:
            personas, pool = await self._persona_pool(kg, engine, notes, clusters)
        finally:
            await groundwork
        counts = list(per_synthesizer or largest_remainder([w for _, w in distribution], testset_size))
        queues: list[list[Scenario]] = [[] for _ in distribution]
        sources = [
            ScenarioSource(synth, kg, pool, f"{seed}:{index}:{synth.name}", self.language)
            for index, (synth, _) in enumerate(distribution)
        ]
        asked = {(tuple(s.reference_context_ids), tuple(s.terms)) for s in existing}
        # The word vectors that compare facts (multi-hop scenarios) are read while the first are found.
        words = asyncio.ensure_future(asyncio.to_thread(shared_model))
        words.add_done_callback(lambda done: done.cancelled() or done.exception())  # raised where used

        async def found_in_turn() -> AsyncIterator[int]:
            """Each synthesizer's first scenarios, in turn, in a worker thread (CPU work the model calls
            must not wait on): the filler drafts from a queue as soon as it is filled. Then the share of
            a synthesizer with no scenario at all goes to the others."""
            found = []
            for index, ((_, weight), count) in enumerate(zip(distribution, counts, strict=True)):
                standby = per_synthesizer is not None and weight > 0  # a few scenarios to fill in with
                wanted = max(count * SCENARIO_POOL_FACTOR, count + 5) if count or standby else 0
                queues[index] += await asyncio.to_thread(sources[index].first, wanted, asked, prefer)
                found.append(len(queues[index]))
                yield index  # its first drafts take scenarios from the queue
            for note in share_out_empty(
                counts, found, distribution, lambda i: sources[i].synthesizer.shortage(kg)
            ):
                notes.append(note)
                log.warning(note)

        fingerprint = kg.fingerprint()
        filler = Filler(
            [synth for synth, _ in distribution], queues, counts, testset_size, self.llm, self.embeddings,
            engine, self.duplicate_threshold, fingerprint, existing, sources,
        )  # fmt: skip
        kept, rejections, failures, overused = await filler.run(show_progress, found_in_turn())
        if failures and not kept and not all(isinstance(f, PromptOutputError) for f in failures):
            raise _all_failed(failures)  # e.g. a bad key or a dead server: say why, not "0 samples"
        # Every answer unusable (a small model) is no broken setup: the run ends with none kept, saying why.
        if failures:
            notes.append(_failure_note(failures))
            log.warning(notes[-1])
        if overused:
            notes.append(
                f"{overused} context(s) back more than "
                f"{ContextBudget(testset_size + len(existing)).cap} samples: "
                "the corpus has "
                "too few usable contexts for this size"
            )
            log.warning(notes[-1])
        made = Counter(s.synthesizer for s in kept)
        for i, ((synth, _), count, source) in enumerate(zip(distribution, counts, sources, strict=True)):
            if made[synth.name] < count and len(kept) == testset_size:
                notes.append(
                    f"too few good scenarios for {synth.name}, {made[synth.name]} of {count}: "
                    f"{_shortfall(source, filler.rates.judged(i))}; the other synthesizers filled in"
                )
                log.warning(notes[-1])
        if len(kept) < testset_size:
            causes = [
                f"{source.synthesizer.name}: {_shortfall(source, filler.rates.judged(i))}"
                for i, source in enumerate(sources)
                if source.found and source.exhausted
            ]  # those with no scenario at all were named above
            notes.append(
                f"the corpus gave {len(kept)} of the {testset_size} samples asked for "
                f"(not enough grounded scenarios passed the quality gate{': ' if causes else ''}"
                f"{'. '.join(causes)})"
            )
            log.warning(notes[-1])
        metadata = {
            "requested": testset_size,
            "generated": len(kept),
            "seed": seed,
            "distribution": {s.name: w for s, w in distribution},
            "by_synthesizer": dict(Counter(s.synthesizer for s in kept)),
            "rejections": dict(rejections),
            **({"surplus_drafts": len(filler.spares)} if filler.spares else {}),
            "personas": [p.model_dump() for p in personas],
            "llm": describe_model(self.llm),
            "embeddings": describe_model(self.embeddings),
            "graph_fingerprint": fingerprint,
            "documents": graph_documents(kg),
            "notes": notes,
        }  # no usage figures here: a rerun from the cache must write the identical file
        return Testset(kept, metadata)

    async def _persona_pool(
        self, kg: KnowledgeGraph, engine: CallEngine, notes: list[str], clusters: Sequence[Cluster] | None
    ) -> tuple[Sequence[Persona], PersonaPool]:
        """The personas (given, or written for the ``clusters`` of the graph) and their vectors, to match
        scenarios: a written persona's is the centre of the documents it was written for (the chunks' own
        vector space, no call); given personas' descriptions are embedded."""
        if self.personas:
            personas, centres = list(self.personas), []
        else:
            written = await apersonas_of(clusters or (), llm=self.llm, engine=engine, language=self.language)
            personas, centres = [p for p, _ in written], [c.centre for _, c in written]
        if centres and all(c is not None and c.shape == centres[0].shape for c in centres):
            return personas, PersonaPool(personas, np.vstack(centres))
        described = [f"{p.name}: {p.role_description}" for p in personas]
        vectors = await embed_or_none(engine, self.embeddings, described, failures := [])
        if vectors is None:  # personas then go to scenarios at random (seeded), not by content
            notes.append(
                f"persona embeddings failed ({describe(failures[0])[:200]}); personas drawn at random"
            )
            log.warning(notes[-1])
            vectors = np.zeros((len(personas), 0), dtype=np.float32)
        return personas, PersonaPool(personas, vectors)

    def generate(
        self, kg: KnowledgeGraph, testset_size: int, query_distribution: Any = None, **kwargs: Any
    ) -> Testset:
        """The sync twin of ``agenerate`` (works inside a running event loop too)."""
        return run_sync(self.agenerate(kg, testset_size, query_distribution, **kwargs))

    async def agenerate_from_documents(
        self,
        documents: str | Path | Iterable[Document],
        testset_size: int,
        query_distribution: Any = None,
        *,
        seed: int = 0,
        show_progress: bool = False,
        **build_options: Any,
    ) -> Testset:
        """Build the knowledge graph of ``documents`` (see ``build_knowledge_graph``), then generate."""
        from ...kg.build import abuild_knowledge_graph

        built = await abuild_knowledge_graph(
            documents,
            llm=self.llm,
            embeddings=self.embeddings,
            engine=self.engine,
            show_progress=show_progress,
            **build_options,
        )
        return await self.agenerate(
            built.kg, testset_size, query_distribution, seed=seed, show_progress=show_progress
        )

    def generate_from_documents(
        self, documents: str | Path | Iterable[Document], size: int, *args: Any, **kw: Any
    ) -> Testset:
        """The sync twin of ``agenerate_from_documents``."""
        return run_sync(self.agenerate_from_documents(documents, size, *args, **kw))


def share_out_empty(
    counts: list[int],
    found: Sequence[int],
    distribution: Sequence[tuple[Synthesizer, float]],
    why: Callable[[int], str] | None = None,
) -> list[str]:
    """Move the count of each synthesizer that ``found`` no scenario to the others (by weight, in place);
    a note for each (with ``why(i)``, asked only of those, when given). When none found any, nothing
    moves: the run makes no sample, and the notes say why."""
    empty = [i for i, n in enumerate(found) if counts[i] and not n]
    if not empty:
        return []
    live = [i for i in range(len(distribution)) if i not in empty]
    if live:
        moved = largest_remainder([distribution[i][1] or 1e-9 for i in live], sum(counts[i] for i in empty))
        for i, extra in zip(live, moved, strict=True):
            counts[i] += extra
        for i in empty:
            counts[i] = 0
    notes = []
    for i in empty:
        cause = why(i) if why is not None else ""
        went = "its share went to the other synthesizers" if live else "no sample could be made"
        notes.append(
            f"no grounded scenario for {distribution[i][0].name}{f': {cause}' if cause else ''}; {went}"
        )
    return notes


def _shortfall(source: ScenarioSource, judged: tuple[int, int]) -> str:
    """Why a synthesizer made fewer samples than its share: the corpus had too few scenarios for it (and
    why, when the synthesizer can say), or the quality gate rejected its drafts."""
    drafted, passed = judged
    gate = f"{drafted - passed} of {drafted} drafts failed the quality gate" if drafted > passed else ""
    if not source.exhausted:
        return gate or "its drafts were duplicates or their passages were used up"
    why = source.synthesizer.shortage(source.kg)
    found = f"the corpus gave {source.found} scenario{'s' if source.found != 1 else ''}"
    return "; ".join(part for part in (found, why, gate) if part)


def _failure_note(failures: list[BaseException]) -> str:
    many = len(failures) > 1
    return (
        f"{len(failures)} scenario{'s' if many else ''} failed and {'were' if many else 'was'} skipped "
        f"(first: {describe(failures[0])[:300]})"
    )


def _all_failed(failures: list[BaseException]) -> Exception:
    first = next((f for f in failures if isinstance(f, Exception)), None)
    return first or GroundsetError(f"every scenario failed; {_failure_note(failures)}")
