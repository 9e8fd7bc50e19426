"""`groundset score` (run a RAG system over a test set and score it) and `groundset report`."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from ..core import ConfigError
from .common import (
    CacheOption,
    ConcurrencyOption,
    EmbeddingsOption,
    LlmOption,
    NoCacheOption,
    OnlyOption,
    QuietOption,
    RateOption,
    RayAddressOption,
    TimeoutOption,
    backend_option,
    err,
    make_engine,
    out,
)
from .summary import (
    FailUnderOption,
    MaxTargetErrorsOption,
    ReportOption,
    check_gate,
    chosen_metrics,
    gate,
    print_summary,
    print_where,
    write_outputs,
)

TARGET_HELP = (
    "The RAG system to score: 'baseline' (BM25 over the graph's chunks, needs --kg), "
    "'module:function' (a Python function taking the question; the current directory is importable), "
    "or an http(s):// URL (POST JSON, see the --*-field options)."
)


def score(
    testset: Annotated[Path, typer.Option("--testset", "-t", help="Test set (JSONL or CSV) to ask.")],
    target: Annotated[str, typer.Option("--target", help=TARGET_HELP)],
    kg: Annotated[
        Path | None,
        typer.Option("--kg", help="Graph folder for --target baseline (from --save-kg or kg build)."),
    ] = None,
    top_k: Annotated[int, typer.Option("--top-k", min=1, help="Chunks the baseline retrieves.")] = 5,
    metrics: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated metric names (see `groundset metrics`); default four, plus ID-based "
            "context recall when the target returns context ids."
        ),
    ] = None,
    only: OnlyOption = None,
    out_file: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the run (JSONL; input of `compare`) here.")
    ] = None,
    report: ReportOption = None,
    fail_under: FailUnderOption = None,
    max_target_errors: MaxTargetErrorsOption = None,
    question_field: Annotated[
        str, typer.Option(help="HTTP target: request JSON field that carries the question.")
    ] = "question",
    response_field: Annotated[
        str | None,
        typer.Option(help="HTTP target: reply field (dotted path) of the answer; default response/answer."),
    ] = None,
    contexts_field: Annotated[
        str | None,
        typer.Option(
            help="HTTP target: reply field of the retrieved contexts (strings or {text, id} objects)."
        ),
    ] = None,
    ids_field: Annotated[
        str | None, typer.Option(help="HTTP target: reply field of the retrieved context ids (optional).")
    ] = None,
    header: Annotated[
        list[str] | None,
        typer.Option("--header", metavar="'NAME: VALUE'", help="HTTP target: a request header (repeatable)."),
    ] = None,
    target_timeout: Annotated[
        float,
        typer.Option(min=0.1, help="Seconds the target may take per question before it counts as failed."),
    ] = 60.0,
    target_concurrency: Annotated[int, typer.Option(min=1, help="Questions sent to the target at once.")] = 8,
    llm: LlmOption = None,
    embeddings: EmbeddingsOption = None,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    max_concurrency: ConcurrencyOption = 16,
    timeout: TimeoutOption = 120.0,
    requests_per_second: RateOption = None,
    backend: Annotated[
        str, backend_option("the scoring of the answers (batches of samples, with their model calls)")
    ] = "local",
    ray_address: RayAddressOption = None,
    quiet: QuietOption = False,
) -> None:
    """Ask the --target RAG system every question of the test set, score its answers and print the summary;
    optionally write the run and an HTML report, and exit 1 when a metric misses its --fail-under value
    or the target failed on more questions than --max-target-errors allows.

    With --backend ray, the answers are scored in Ray workers (the target is asked from here); their model
    calls share this run's call cache and --requests-per-second limit."""
    from ..core.backends import get_backend
    from ..samples.selection import parse_selection
    from ..scoring.score_rag import GraphMismatchWarning, as_dataset, score_rag

    check_gate(fail_under)
    runner = get_backend(backend, address=ray_address)
    selection = parse_selection(only)
    if selection:
        # Said (or refused, when it keeps nothing) before the target is built. score_rag reads the file
        # again, given its path: the header names the graph the test set was written from.
        out.print(f"scoring {selection.describe(as_dataset(testset))}")
    chosen = chosen_metrics(metrics) or None
    engine = make_engine(cache, no_cache, max_concurrency, timeout, requests_per_second)
    http = {
        "question_field": question_field,
        "response_field": response_field,
        "contexts_field": contexts_field,
        "ids_field": ids_field,
        "headers": _headers(header or []),
        "timeout": target_timeout,
    }
    system = _target(target, kg, top_k, llm, engine, http)
    start = time.perf_counter()
    with _warnings_as_lines(GraphMismatchWarning):
        result = score_rag(
            testset,
            system,
            chosen,
            only=selection,
            llm=llm,
            embeddings=embeddings,
            engine=engine,
            target_concurrency=target_concurrency,
            target_timeout=target_timeout,
            show_progress=not quiet,
            backend=runner,
        )
    print_summary(result, time.perf_counter() - start)
    print_where(runner)
    write_outputs(result, out_file, report)
    gate(result, fail_under, max_target_errors)


@contextmanager
def _warnings_as_lines(*categories: type[Warning]) -> Iterator[None]:
    """Inside, a warning of ``categories`` prints at once as one ``warning: ...`` line (not as Python's
    file, line and source); any other warning shows as usual."""
    with warnings.catch_warnings():
        shown = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], *where: object, **more: object) -> None:
            if issubclass(category, categories):
                err.print(f"warning: {message}", soft_wrap=True)
            else:
                shown(message, category, *where, **more)  # type: ignore[arg-type]

        warnings.showwarning = show
        for category in categories:
            warnings.simplefilter("always", category)
        yield


def _target(spec: str, kg: Path | None, top_k: int, llm: str | None, engine: object, http: dict) -> object:
    from ..scoring.targets import as_target

    if spec == "baseline":
        if kg is None:
            raise ConfigError(
                "--target baseline needs --kg KG_DIR: save a graph with `groundset generate DOCS --save-kg "
                "KG_DIR` or `groundset kg build DOCS --out KG_DIR`"
            )
        from ..scoring.baseline import BaselineRAG

        return BaselineRAG(kg, top_k=top_k, llm=llm, engine=engine)
    if spec.startswith(("http://", "https://")):
        return as_target(spec, **http)
    return as_target(spec)


def _headers(lines: list[str]) -> dict[str, str]:
    headers = {}
    for line in lines:
        name, sep, value = line.partition(":")
        if not sep or not name.strip():
            raise ConfigError(f"--header {line!r}: write it as 'Name: value'")
        headers[name.strip()] = value.strip()
    return headers


def report(
    run: Annotated[
        Path, typer.Argument(metavar="RUN", help="A run file written by score or evaluate --out.")
    ],
    out_file: Annotated[Path, typer.Option("--out", "-o", help="The HTML report to write.")] = Path(
        "report.html"
    ),
) -> None:
    """Write the HTML report of a saved run (no model calls)."""
    from ..scoring.result import EvaluationResult

    EvaluationResult.load(run).report(out_file)
    out.print(f"wrote the report {out_file} (open it in a browser)")
