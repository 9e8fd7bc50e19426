"""Options and helpers shared by the CLI's commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..core import CallEngine, StageUsage

# Markup and highlighting are off: paths, persona names, notes and document text are printed as
# they are ("run[bold]x.jsonl" stays that name, a "[/]" in a path cannot break the output).
out = Console(soft_wrap=True, markup=False, highlight=False)
err = Console(stderr=True, markup=False, highlight=False)


def typer_app(**settings: object) -> typer.Typer:
    """A command group with plain help: no markup in help texts, no ``<bool>`` type on flags."""
    return typer.Typer(rich_markup_mode=None, **settings)  # type: ignore[arg-type]


LlmOption = Annotated[
    str | None,
    typer.Option(
        "--llm", help="LLM spec: 'offline' or 'openai:<model>' (default: $GROUNDSET_LLM or offline)."
    ),
]
EmbeddingsOption = Annotated[
    str | None,
    typer.Option(
        "--embeddings",
        help="Embeddings spec: 'offline[:dim]' or 'openai:<model>' "
        "(default: $GROUNDSET_EMBEDDINGS or offline).",
    ),
]
CacheOption = Annotated[
    Path | None,
    typer.Option(
        "--cache", help="Call-cache directory (default: $GROUNDSET_CACHE_DIR or the user cache dir)."
    ),
]
NoCacheOption = Annotated[bool, typer.Option("--no-cache", help="Do not read or write the call cache.")]
ConcurrencyOption = Annotated[
    int, typer.Option("--max-concurrency", min=1, help="Model requests in flight at once.")
]
TimeoutOption = Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds per model request.")]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")]
OnlyOption = Annotated[
    list[str] | None,
    typer.Option(
        "--only",
        metavar="SPEC",
        help="Score only the test-set samples that match (repeatable; all must hold): reviewed, unreviewed, "
        "edited, tag=NAME, kind=NAME (the synthesizer), document=TEXT (a source document's path contains "
        "TEXT); tag= and kind= take several names joined by commas, any of which will do. E.g. --only "
        "reviewed --only tag=critical, or --only tag=critical,billing. A selection that keeps no sample is "
        "an error.",
    ),
]
IncludeOption = Annotated[
    list[str] | None, typer.Option("--include", metavar="GLOB", help="Glob of files to take (repeatable).")
]
ExcludeOption = Annotated[
    list[str] | None,
    typer.Option("--exclude", metavar="GLOB", help="Glob of files to leave out (repeatable)."),
]


EnrichOption = Annotated[
    str,
    typer.Option(
        "--enrich",
        metavar="lazy|eager",
        help="lazy (default): the graph's facts come from the offline extractors, so the LLM is paid only "
        "where questions are written; eager: the LLM also extracts every chunk's facts (batched) and "
        "summarises every long document. `groundset kg enrich` makes a lazy graph eager later.",
    ),
]


LanguageOption = Annotated[
    str | None,
    typer.Option(
        "--language",
        metavar="CODE",
        help="Write questions, references and personas in this language (ISO code, e.g. zh, de); default: "
        "each document's detected language. Offline templates exist for en, zh, ja, de, fr, es.",
    ),
]


RateOption = Annotated[
    float | None,
    typer.Option(
        "--requests-per-second",
        min=0.001,
        help="At most this many model requests a second, for the whole run (with --backend ray, all "
        "workers together). Default: no limit but --max-concurrency.",
    ),
]


def backend_option(work: str) -> object:
    """``--backend`` of a command whose ``work`` can run as Ray tasks."""
    return typer.Option(
        "--backend",
        help=f"Where {work} runs: local (this process) or ray (Ray tasks; pip install 'groundset[ray]'). "
        "The result is the same either way.",
    )


RayAddressOption = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        help="With --backend ray: the Ray cluster to use (e.g. ray://head:10001, or auto); "
        "default RAY_ADDRESS, else a Ray started on this machine.",
    ),
]


def make_engine(
    cache: Path | None,
    no_cache: bool,
    max_concurrency: int,
    timeout: float,
    requests_per_second: float | None = None,
) -> CallEngine:
    return CallEngine(
        cache=False if no_cache else (cache or True),
        max_concurrency=max_concurrency,
        timeout=timeout,
        requests_per_second=requests_per_second,
    )


def usage_line(usage: StageUsage, seconds: float) -> str:
    cost = f", ${usage.cost:.4f}" if usage.cost else ""
    unpriced = f" ({usage.unpriced_calls} calls unpriced)" if usage.unpriced_calls else ""
    mended = ", ".join(
        f"{count} {name}"
        for name, count in (
            ("retries", usage.retries),
            ("repairs", usage.repairs),
            ("fallbacks", usage.fallbacks),
        )
        if count
    )
    return (
        f"model calls {usage.calls} (cache hits {usage.cache_hits}, shared {usage.shared}, "
        f"offline {usage.offline}), tokens {usage.input_tokens:,} in / {usage.output_tokens:,} out"
        f"{cost}{unpriced}{f', {mended}' if mended else ''}, {seconds:.1f} s"
    )
