"""`groundset kg enrich`: ask the LLM for the facts a lazy graph took from the offline extractors."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from .common import (
    CacheOption,
    ConcurrencyOption,
    EmbeddingsOption,
    LlmOption,
    NoCacheOption,
    QuietOption,
    TimeoutOption,
    make_engine,
    out,
    usage_line,
)
from .kg import print_graph, print_stages, require_graph


def enrich(
    kg_dir: Annotated[
        Path, typer.Argument(metavar="KG_DIR", help="A graph folder built lazily (the default) to enrich.")
    ],
    llm: LlmOption = None,
    embeddings: EmbeddingsOption = None,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    max_concurrency: ConcurrencyOption = 16,
    timeout: TimeoutOption = 120.0,
    quiet: QuietOption = False,
) -> None:
    """Make a lazy graph eager: the LLM extracts every chunk's entities, keyphrases and themes (in keyed
    batches) and summarises every long document; overlap edges are rebuilt. Chunks, ids and embeddings
    stay, so test sets drawn from the graph stay valid. Saved in place (atomically)."""
    from ..kg.enrich import enrich_kg

    require_graph(kg_dir)
    start = time.perf_counter()
    engine = make_engine(cache, no_cache, max_concurrency, timeout)
    result = enrich_kg(kg_dir, llm=llm, embeddings=embeddings, engine=engine, show_progress=not quiet)
    if not result.enriched:
        out.print(f"{kg_dir} was built eagerly: its facts come from the LLM already; nothing to do")
        return
    print_stages(result.report)
    print_graph(result.kg)
    result.kg.save(kg_dir)
    out.print(usage_line(result.report.total_usage(), time.perf_counter() - start))
    out.print(f"saved to {kg_dir}")
