"""``estimate_generation``: what building a graph and generating a test set would cost, with no model called.

It runs the real pipeline (graph build, personas, drafts, quality gate, refresh) through an
``EstimatingEngine``, so the estimate follows every batching, caching and retry-free path the real run
takes; it lives here because it needs the graph builder and the generator (core may import neither).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

from ...core.aio import run_sync
from ...core.engine import CallEngine
from ...core.estimate import GOOD_RATE, Estimate, EstimatingEngine
from ...core.models import resolve_embeddings, resolve_llm
from ...kg.graph import KnowledgeGraph
from ...personas import Persona
from ...samples.testset import Testset
from ..refresh.run import arefresh_testset
from .generator import TestsetGenerator


async def aestimate_generation(
    docs_or_kg: str | Path | Iterable[Document] | KnowledgeGraph,
    testset_size: int | None = None,
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    cache: Any = True,
    prices: dict[str, tuple[float, float]] | None = None,
    personas: Sequence[Persona] | None = None,
    num_personas: int = 4,
    language: str | None = None,
    refresh: Testset | None = None,
    good_rate: float = GOOD_RATE,
    build_options: dict[str, Any] | None = None,
    **generate_options: Any,
) -> Estimate:
    """The estimate of ``groundset generate``: build the graph of ``docs_or_kg`` (unless it is one), then
    generate ``testset_size`` samples, or refresh the test set ``refresh``, all as a dry run.

    ``engine``: the engine the real run would use (its cache is read, never written; its prices and
    batching apply); else ``cache`` (True: the default dir, False: none, or a dir) and ``prices``.
    ``build_options`` go to ``build_knowledge_graph`` (e.g. chunk_size, enrich); ``generate_options`` to
    ``TestsetGenerator.agenerate`` (query_distribution, seed) or, with ``refresh``, ``arefresh_testset``.
    ``good_rate``: the chance that a made-up verdict passes (see ``core.estimate.GOOD_RATE``). Offline
    models estimate to zero calls.
    """
    from ...kg.build import abuild_knowledge_graph

    llm, embeddings = resolve_llm(llm).model, resolve_embeddings(embeddings).model
    if engine is not None:
        dry = EstimatingEngine.like(engine, good_rate=good_rate)
    else:
        dry = EstimatingEngine(cache=cache, prices=prices, good_rate=good_rate)
    model = dry.dry_model(llm)
    if isinstance(docs_or_kg, KnowledgeGraph):
        kg = docs_or_kg
    else:
        options = dict(build_options or {})
        kg = (
            await abuild_knowledge_graph(docs_or_kg, llm=model, embeddings=embeddings, engine=dry, **options)
        ).kg
    generator = TestsetGenerator(
        model, embeddings, personas, engine=dry, num_personas=num_personas, language=language
    )
    if refresh is not None:
        await arefresh_testset(refresh, kg, testset_size, generator=generator, **generate_options)
    else:
        await generator.agenerate(kg, testset_size or 50, **generate_options)
    return dry.estimate(llm, embeddings)


def estimate_generation(
    docs_or_kg: str | Path | Iterable[Document] | KnowledgeGraph,
    testset_size: int | None = None,
    **kwargs: Any,
) -> Estimate:
    """The sync twin of ``aestimate_generation`` (works inside a running event loop too)."""
    return run_sync(aestimate_generation(docs_or_kg, testset_size, **kwargs))
