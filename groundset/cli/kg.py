"""`groundset kg build`, `groundset kg update` and `groundset kg show`."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from .common import (
    CacheOption,
    ConcurrencyOption,
    EmbeddingsOption,
    EnrichOption,
    ExcludeOption,
    IncludeOption,
    LlmOption,
    NoCacheOption,
    QuietOption,
    RayAddressOption,
    TimeoutOption,
    backend_option,
    err,
    make_engine,
    out,
    typer_app,
    usage_line,
)

if TYPE_CHECKING:
    from ..documents.loader import LoadResult
    from ..kg import BuildReport, KnowledgeGraph

kg_app = typer_app(help="Build, update and inspect knowledge graphs.", no_args_is_help=True)


ForceOption = Annotated[
    bool,
    typer.Option(
        "--force", help="Replace the output folder even if it holds other files (they are deleted)."
    ),
]


def require_docs(
    docs: Path,
    include: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
    *,
    globs: str = "--include/--exclude",
) -> None:
    """Fail before a long build, not after it: DOCS must exist and hold a file the loader takes.
    ``globs``: what the error calls ``include``/``exclude`` (those recorded with a graph, say)."""
    from ..documents.loader import FORMATS, candidate_files

    if candidate_files(docs, include=include, exclude=exclude):
        return
    filtered = f" matching {globs}" if include or exclude else ""
    raise typer.BadParameter(
        f"no documents to load in {docs}: no file{filtered} with a supported extension "
        f"({', '.join(sorted(FORMATS))}); point DOCS at your docs folder (or one such file)",
        param_hint="DOCS",
    )


@kg_app.command("build")
def build(
    docs: Annotated[
        Path, typer.Argument(metavar="DOCS", help="Docs folder (or one file) to build the graph from.")
    ],
    out_dir: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Folder to write the graph to: new, empty, or a graph saved before (replaced as a whole).",
        ),
    ],
    llm: LlmOption = None,
    embeddings: EmbeddingsOption = None,
    include: IncludeOption = None,
    exclude: ExcludeOption = None,
    chunk_size: Annotated[int, typer.Option("--chunk-size", min=16, help="Chunk size in tokens.")] = 256,
    enrich: EnrichOption = "lazy",
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    max_concurrency: ConcurrencyOption = 16,
    timeout: TimeoutOption = 120.0,
    quiet: QuietOption = False,
    force: ForceOption = False,
    backend: Annotated[
        str,
        backend_option("per-text work (splitting, phrases, entities, summaries, relationship partitions)"),
    ] = "local",
    ray_address: RayAddressOption = None,
) -> None:
    """Load DOCS, build its knowledge graph and save it to --out.

    A build keeps its progress in a checkpoint folder beside --out (.<out>.checkpoint): run the same
    command again after a crash or Ctrl-C and it resumes where it stopped. The folder goes once the
    graph is saved."""
    from ..core.atomic import check_output_dir
    from ..core.backends import RayBackend, get_backend
    from ..kg import build_knowledge_graph
    from ..kg.persistence import GRAPH_FILE

    require_docs(docs, include, exclude)
    target = check_output_dir(out_dir, marker=GRAPH_FILE, inputs=[docs], force=force)
    runner = get_backend(backend, address=ray_address)
    start = time.perf_counter()
    engine = make_engine(cache, no_cache, max_concurrency, timeout)
    checkpoint = target.parent / f".{target.name}.checkpoint"
    try:
        result = build_knowledge_graph(
            docs,
            llm=llm,
            embeddings=embeddings,
            engine=engine,
            include=include,
            exclude=exclude,
            show_progress=not quiet,
            chunk_size=chunk_size,
            enrich=enrich,
            backend=runner,
            checkpoint=checkpoint,
            keep_checkpoint=True,
        )
    except BaseException:
        if checkpoint.is_dir():
            err.print(
                f"the build's progress is kept in {checkpoint}: run the same command again to resume",
                highlight=False,
            )
        raise
    if not result.load.documents:
        raise typer.BadParameter(
            f"no loadable documents in {docs} ({result.load.report.summary()})", param_hint="DOCS"
        )
    result.kg.save(target, force=force)
    seconds = time.perf_counter() - start
    if result.checkpoint is not None:
        result.checkpoint.remove()
        if result.checkpoint.started_afresh:
            out.print("a checkpoint of other inputs (or other code) was found and removed", highlight=False)
        if result.checkpoint.summary():
            out.print(result.checkpoint.summary(), highlight=False)
    print_load(result.load)
    print_stages(result.report)
    print_graph(result.kg)
    if isinstance(runner, RayBackend):
        out.print(f"per-text work ran on {runner.describe()}", highlight=False)
    out.print(usage_line(result.report.total_usage(), seconds), highlight=False)
    out.print(f"saved to {out_dir}", highlight=False)


@kg_app.command("update")
def update(
    docs: Annotated[
        Path, typer.Argument(metavar="DOCS", help="Docs folder (or one file) the graph should now reflect.")
    ],
    kg_dir: Annotated[
        Path,
        typer.Option(
            "--kg",
            help="Graph folder written by `groundset kg build`; updated in place (replaced atomically).",
        ),
    ],
    llm: LlmOption = None,
    embeddings: EmbeddingsOption = None,
    include: IncludeOption = None,
    exclude: ExcludeOption = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            "--chunk-size", min=16, help="Chunk size in tokens (default: the one the graph was built with)."
        ),
    ] = None,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    max_concurrency: ConcurrencyOption = 16,
    timeout: TimeoutOption = 120.0,
    quiet: QuietOption = False,
) -> None:
    """Update the graph in --kg to DOCS, paying only for what changed.

    Documents are compared by content hash: unchanged (and renamed) ones keep their chunks and
    facts; added and changed ones are split, extracted and embedded; removed ones leave the graph.
    Relationship edges are rebuilt for all nodes (no model calls), so the result equals a full
    `kg build` of DOCS. Use the same --llm/--embeddings as the build. When nothing changed, the
    folder is left untouched. The files are those the build took: the graph records its
    --include/--exclude; giving either here replaces both, and the graph records the new ones.
    """
    from ..core.atomic import check_output_dir
    from ..kg import KnowledgeGraph, update_kg
    from ..kg.persistence import GRAPH_FILE
    from ..kg.update import update_filters

    require_graph(kg_dir)
    target = check_output_dir(kg_dir, marker=GRAPH_FILE, inputs=[docs])
    start = time.perf_counter()
    old = KnowledgeGraph.load(target)
    filters = update_filters(old, include, exclude)
    require_docs(docs, filters.include, filters.exclude, globs=filters.describe())
    options = {} if chunk_size is None else {"chunk_size": chunk_size}
    result = update_kg(
        old,
        docs,
        llm=llm,
        embeddings=embeddings,
        engine=make_engine(cache, no_cache, max_concurrency, timeout),
        include=include,
        exclude=exclude,
        show_progress=not quiet,
        consume=True,  # the old graph is not needed after: never hold it beside the new one
        **options,
    )
    if not result.load.documents:
        raise typer.BadParameter(
            f"no loadable documents in {docs} ({result.load.report.summary()}); the graph was left as it was",
            param_hint="DOCS",
        )
    if result.changed:
        result.kg.save(target)
    seconds = time.perf_counter() - start
    print_load(result.load)
    out.print(f"filters: {result.filters.describe()}", highlight=False, markup=False)
    diff = result.diff
    out.print(f"changes: {diff.summary()}", highlight=False)
    for label, names in (
        ("added", diff.added),
        ("changed", diff.changed),
        ("removed", diff.removed),
        ("renamed", [f"{a} -> {b}" for a, b in diff.renamed]),
        ("processed again", diff.reprocessed),
    ):
        if names:
            shown = ", ".join(names[:5]) + (f", ... and {len(names) - 5} more" if len(names) > 5 else "")
            out.print(f"  {label}: {shown}", highlight=False, markup=False)
    if result.changed:
        print_stages(result.report)
    out.print(f"nodes: {result.nodes_added} added, {result.nodes_removed} removed", highlight=False)
    print_graph(result.kg)
    out.print(usage_line(result.report.total_usage(), seconds), highlight=False)
    if result.changed:
        out.print(f"saved to {kg_dir}", highlight=False)
    else:
        out.print(f"nothing changed: {kg_dir} left as it was", highlight=False)


def require_graph(kg_dir: Path) -> None:
    """KG_DIR must be a graph folder: say what is wrong before loading anything."""
    from ..kg.persistence import GRAPH_FILE

    build = f"build one with `groundset kg build DOCS --out {kg_dir}`"
    if not kg_dir.exists():
        raise typer.BadParameter(
            f"no knowledge graph at {kg_dir}: the folder does not exist; {build}", param_hint="--kg"
        )
    if not kg_dir.is_dir() or not (kg_dir / GRAPH_FILE).is_file():
        raise typer.BadParameter(
            f"{kg_dir} is not a knowledge graph folder (it has no {GRAPH_FILE}); point --kg at a folder "
            "written by `groundset kg build --out`",
            param_hint="--kg",
        )


def print_load(load: LoadResult) -> None:
    report = load.report
    out.print(f"documents: {report.summary()}", highlight=False)
    for line in report.lines()[:20]:
        out.print(f"  {line}", highlight=False, markup=False)
    if len(report.lines()) > 20:
        out.print(f"  ... and {len(report.lines()) - 20} more", highlight=False)


def print_stages(report: BuildReport) -> None:
    """One row per build stage (nodes, failures, calls, tokens) and the first failures: `kg build`,
    `kg update` and `kg enrich` report alike."""
    table = Table("stage", "nodes", "failed", "calls", "cached", "tokens in/out", "s")
    for stage in report.stages:
        u = stage.usage
        table.add_row(
            stage.name,
            str(stage.selected),
            str(len(stage.failures)),
            str(u.calls),
            str(u.cache_hits + u.shared),
            f"{u.input_tokens:,}/{u.output_tokens:,}",
            "checkpoint" if stage.resumed else f"{stage.seconds:.1f}",
        )
    out.print(table)
    for name, node, error in report.failures[:10]:
        out.print(f"  failed {name} on {node}: {error}", highlight=False, markup=False)


def print_graph(kg: KnowledgeGraph) -> None:
    """The graph's size in one line: documents, chunks and edges by kind."""
    stats = kg.stats()
    edges = ", ".join(f"{kind} {count}" for kind, count in stats["edges"].items())
    out.print(
        f"graph: {stats['nodes'].get('document', 0)} documents, {stats['nodes'].get('chunk', 0)} chunks; "
        f"edges: {edges}",
        highlight=False,
    )


@kg_app.command("show")
def show(
    kg_dir: Annotated[
        Path, typer.Argument(metavar="KG_DIR", help="A graph directory written by `groundset kg build`.")
    ],
    top: Annotated[int, typer.Option("--top", min=1, help="How many entities and themes to list.")] = 15,
) -> None:
    """Print a graph's statistics, top entities and themes, degrees by edge kind and a sample chunk."""
    from ..kg import EdgeKind, KnowledgeGraph, NodeKind

    kg = KnowledgeGraph.load(kg_dir)
    stats = kg.stats()
    out.print(f"nodes: {_counts(stats['nodes'])}")
    out.print(f"edges: {_counts(stats['edges'])}")
    for kind, props in stats["properties"].items():
        total = stats["nodes"].get(kind, 0)
        out.print(f"{kind} properties (nodes that have each, of {total}): {_counts(props)}")
    chunks = kg.nodes(NodeKind.CHUNK)
    for prop in ("entities", "themes"):
        counts = Counter(item for c in chunks for item in kg.get(c).get(prop) or [])
        common = ", ".join(f"{item} ({n})" for item, n in counts.most_common(top))
        out.print(f"top {prop}: {common or '-'}", highlight=False, markup=False)
    table = Table("edge kind", "edges", "nodes with any", "mean degree", "median", "max")
    for kind in EdgeKind:
        degrees = [
            len(kg.neighbours(c, kind))
            for c in (chunks if kind is not EdgeKind.CHILD else kg.nodes(NodeKind.DOCUMENT))
        ]
        linked = [d for d in degrees if d]
        table.add_row(
            kind.value,
            str(stats["edges"][kind.value]),
            str(len(linked)),
            f"{statistics.fmean(degrees):.2f}" if degrees else "-",
            f"{statistics.median(degrees):g}" if degrees else "-",
            str(max(degrees, default=0)),
        )
    out.print(table)
    if chunks:
        sample = max(chunks, key=lambda c: len(kg.neighbours(c)))
        data = kg.get(sample)
        out.print(
            f"sample chunk {sample} (from {data.get('source')}, section {data.get('section') or '-'}):",
            highlight=False,
            markup=False,
        )
        text = data.get("text", "")
        out.print("  " + (text[:300] + ("..." if len(text) > 300 else "")).replace("\n", " "), markup=False)
        for prop in ("entities", "keyphrases", "themes"):
            out.print(f"  {prop}: {', '.join(data.get(prop) or [])}", markup=False, highlight=False)


def _counts(counts: dict[str, int]) -> str:
    """``{"chunk": 68, "document": 7}`` as a person reads it: ``chunk 68, document 7``."""
    return ", ".join(f"{name} {count:,}" for name, count in counts.items()) or "none"
