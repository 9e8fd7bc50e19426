"""`groundset generate` (and its --refresh) and `groundset personas`."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from .common import (
    CacheOption,
    ConcurrencyOption,
    EmbeddingsOption,
    EnrichOption,
    ExcludeOption,
    IncludeOption,
    LanguageOption,
    LlmOption,
    NoCacheOption,
    QuietOption,
    TimeoutOption,
    make_engine,
    out,
    usage_line,
)

if TYPE_CHECKING:
    from ..synthesizers import RefreshResult


def generate(
    docs: Annotated[
        Path | None,
        typer.Argument(metavar="DOCS", help="Docs folder to build the graph from (or use --kg)."),
    ] = None,
    kg_dir: Annotated[
        Path | None, typer.Option("--kg", help="Use a graph saved by `groundset kg build`.")
    ] = None,
    size: Annotated[
        int | None,
        typer.Option(
            "-n", "--size", min=1, help="Number of samples (default 50; with --refresh, as many as OLD has)."
        ),
    ] = None,
    out_file: Annotated[Path, typer.Option("--out", "-o", help="Test set file (.jsonl, or .csv).")] = Path(
        "testset.jsonl"
    ),
    distribution: Annotated[
        str | None,
        typer.Option(
            help="Weights per kind of question, e.g. single=0.5,multi_abstract=0.25,out_of_scope=0.25 "
            "(kinds: see --kinds)."
        ),
    ] = None,
    kinds: Annotated[
        str | None,
        typer.Option(
            help="Kinds of question, in equal shares: 'default' (single_hop_specific, multi_hop_specific, "
            "multi_hop_abstract), 'all' (adds out_of_scope, distracting, situational, double, comparative, "
            "conversational) or a comma list of kinds. Use --distribution for other shares."
        ),
    ] = None,
    personas_file: Annotated[Path | None, typer.Option("--personas", help="Personas (JSON or YAML).")] = None,
    seed: Annotated[int, typer.Option(help="Random seed: same inputs and seed, same test set.")] = 0,
    refresh: Annotated[
        Path | None,
        typer.Option(
            "--refresh",
            metavar="OLD",
            help="Refresh the test set OLD for the current docs: keep every sample whose contexts still "
            "stand word for word in their documents (reviewed ones with their edits; renamed files are "
            "followed), replace the others, preferring new or changed documents. Reviewed samples whose "
            'contexts changed go to <out>.needs-review.jsonl; records there marked "restore": true come '
            "back. --out may be OLD itself (written atomically).",
        ),
    ] = None,
    save_kg: Annotated[
        Path | None,
        typer.Option(
            "--save-kg",
            help="Also save the graph built from DOCS to this folder: new, empty, or a graph saved before.",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="With --save-kg: replace that folder even if it holds other files."),
    ] = False,
    include: IncludeOption = None,
    exclude: ExcludeOption = None,
    sample_docs: Annotated[
        int | None,
        typer.Option(
            "--sample-docs",
            metavar="N",
            min=1,
            help="Build the graph over N of the documents of DOCS only: a sample stratified by top folder "
            "and topic (offline embeddings, --seed), for corpora too big to build whole. The graph and "
            "the test set record which (as --include), so `kg update` keeps to them; with --refresh, the "
            "sample recorded in OLD is used again.",
        ),
    ] = None,
    enrich: EnrichOption = "lazy",
    language: LanguageOption = None,
    estimate: Annotated[
        bool,
        typer.Option(
            "--estimate",
            help="Print the LLM calls, tokens and cost this run would make, without calling any model "
            "(a dry run of the same pipeline; the cache is read, never written), and stop.",
        ),
    ] = False,
    llm: LlmOption = None,
    embeddings: EmbeddingsOption = None,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    max_concurrency: ConcurrencyOption = 16,
    timeout: TimeoutOption = 120.0,
    quiet: QuietOption = False,
) -> None:
    """Generate a grounded test set from DOCS (or from --kg) and write it to --out.

    Offline (the default), questions are written answer first: from sentences that define something,
    give its purpose, a default, a limit, a rule, a procedure or a consequence, so each reference
    answers its question. The summary lists rejections by reason and notes such as a synthesizer
    that found too few good scenarios.

    With --refresh OLD (and the graph of the changed docs: DOCS or --kg), samples the change did not
    touch are kept as they are, the others are dropped (source changed or removed) and replaced; reviewed
    samples whose sources changed are merged into <out>.needs-review.jsonl instead of being dropped, and
    those a person marked there with "restore": true go back into the test set.
    """
    from ..core import track
    from ..kg import KnowledgeGraph, build_knowledge_graph
    from ..personas import load_personas
    from ..synthesizers import (
        Testset,
        TestsetGenerator,
        kinds_distribution,
        parse_distribution,
        refresh_testset,
    )

    if (docs is None) == (kg_dir is None):
        raise typer.BadParameter("give either DOCS or --kg KG_DIR (exactly one)")
    _check_language(language)
    old = None
    if refresh is not None:  # read first: a bad file costs a second, not a build
        old = Testset.from_csv(refresh) if refresh.suffix.lower() == ".csv" else Testset.from_jsonl(refresh)
    if distribution and kinds:
        raise typer.BadParameter("give --kinds or --distribution, not both (--distribution sets the shares)")
    try:
        weights = parse_distribution(distribution) if distribution else None
        weights = kinds_distribution(kinds) if kinds else weights
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    personas = load_personas(personas_file) if personas_file else None
    if docs is not None:
        save_kg = _check_before_build(docs, save_kg, force, include, exclude)
    sample = None
    if sample_docs is not None:
        if docs is None:
            raise typer.BadParameter("--sample-docs needs DOCS (a graph given with --kg is built already)")
        sample = _sample(docs, sample_docs, seed, include, exclude, old)
        include = sample["include"]
    if estimate:
        from ..synthesizers.pipeline.estimate import estimate_generation

        source = KnowledgeGraph.load(kg_dir) if kg_dir is not None else docs
        build = {"enrich": enrich, "include": include, "exclude": exclude}
        found = estimate_generation(
            source,
            size if old is not None else size or 50,
            llm=llm,
            embeddings=embeddings,
            cache=False if no_cache else (cache or True),
            personas=personas,
            language=language,
            refresh=old,
            build_options=build,
            query_distribution=weights,
            seed=seed,
        )
        out.print(str(found), highlight=False)
        return
    start = time.perf_counter()
    engine = make_engine(cache, no_cache, max_concurrency, timeout)
    with track() as usage:
        if kg_dir is not None:
            kg = KnowledgeGraph.load(kg_dir)
        else:
            built = build_knowledge_graph(
                docs,
                llm=llm,
                embeddings=embeddings,
                engine=engine,
                show_progress=not quiet,
                enrich=enrich,
                include=include,
                exclude=exclude,
            )
            if not built.load.documents:
                raise typer.BadParameter(f"no loadable documents in {docs} ({built.load.report.summary()})")
            from .kg import print_load

            print_load(built.load)  # every skipped, repaired or duplicate file, with its reason
            kg = built.kg
            if sample is not None:
                kg.graph.graph["sample_docs"] = {k: v for k, v in sample.items() if k != "include"}
                out.print(
                    f"sampled {sample['documents']} of {sample['of']} documents (stratified by top folder "
                    "and topic); the graph and the test set record which",
                    highlight=False,
                )
            if save_kg is not None:
                kg.save(save_kg, force=force)
        generator = TestsetGenerator(llm, embeddings, personas, engine=engine, language=language)
        if old is None:
            testset = generator.generate(kg, size or 50, weights, seed=seed, show_progress=not quiet)
            made = len(testset)
        else:
            options = {"seed": seed, "query_distribution": weights, "show_progress": not quiet}
            from ..samples.rejected import rejected_path
            from ..synthesizers import needs_review_path

            review = needs_review_path(out_file)
            rejected = list(dict.fromkeys([rejected_path(refresh), rejected_path(out_file)]))
            options |= {"review": review, "rejected": rejected}
            result = refresh_testset(old, kg, size, generator=generator, **options)
            testset, made = result.testset, len(result.new)
    if sample is not None:
        testset.metadata["sample_docs"] = sample
    if old is not None:
        _report_refresh(result, refresh, result.write(out_file))
    elif out_file.suffix.lower() == ".csv":
        testset.to_csv(out_file)
    else:
        testset.to_jsonl(out_file)
    seconds = time.perf_counter() - start
    meta = testset.metadata
    out.print(f"samples: {len(testset)} of {meta.get('requested', size)} requested", highlight=False)
    for field in ("synthesizer", "style", "length", "persona"):
        counts = Counter(getattr(s, field) for s in testset)
        out.print(f"  by {field}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()), highlight=False)
    rejected = meta.get("rejections") or {}
    out.print("rejected: " + (", ".join(f"{k} {v}" for k, v in rejected.items()) or "none"), highlight=False)
    for note in meta.get("notes", []):
        out.print(f"note: {note}", highlight=False)
    total = usage.total()
    generation = sum(
        s.calls for name, s in usage.stages.items() if not name.startswith(("kg.", "synth.embed"))
    )
    if made:
        out.print(
            f"LLM calls for generation (personas, questions, quality gate): {generation} "
            f"= {generation / made:.2f} per {'kept' if old is None else 'new'} sample",
            highlight=False,
        )
    out.print(usage_line(total, seconds), highlight=False)
    if total.calls:  # the same figures --estimate prints, measured, so the two can be compared
        from ..core.estimate import Estimate
        from ..core.models import resolve_embeddings, resolve_llm

        measured = Estimate.from_usage(
            usage, llm=resolve_llm(llm).model, embeddings=resolve_embeddings(embeddings).model
        )
        out.print(str(measured), highlight=False)
    out.print(f"wrote {out_file}", highlight=False)


def _report_refresh(result: RefreshResult, old: Path | None, side: Path | None) -> None:
    """Kept, dropped by reason with their documents, needs review (and where), put back, new."""
    from ..synthesizers.refresh.review_file import read_records

    out.print(f"refresh of {old}:", highlight=False)
    for line in result.summary():
        out.print(f"  {line}", highlight=False)
    if side is not None:
        waiting = len(read_records(side))
        out.print(
            f"needs review: {waiting} sample(s) in {side} ({len(result.needs_review)} sent by this refresh); "
            'edit a sample there and set "restore": true to put it back at the next refresh',
            highlight=False,
        )


def _sample(
    docs: Path, n: int, seed: int, include: list[str] | None, exclude: list[str] | None, old: Any
) -> dict[str, Any]:
    """The documents of DOCS to build over: the sample OLD recorded (a refresh keeps to it), else a new
    stratified one; as the anchored --include globs that load exactly them."""
    from ..documents.loader import load_documents
    from ..documents.sampling import literal_globs, sample_documents

    recorded = (old.metadata.get("sample_docs") or {}) if old is not None else {}
    if recorded.get("include"):
        return dict(recorded)
    documents = load_documents(docs, include=include, exclude=exclude).documents
    chosen = sample_documents(documents, n, seed=seed)
    sources = [str(doc.metadata["source"]) for doc in chosen]
    return {"documents": len(chosen), "of": len(documents), "seed": seed, "include": literal_globs(sources)}


def _check_before_build(
    docs: Path, save_kg: Path | None, force: bool, include: list[str] | None, exclude: list[str] | None
) -> Path | None:
    """Check DOCS and --save-kg first, so a bad path costs a second, not a whole build."""
    from ..core.atomic import check_output_dir
    from ..kg.persistence import GRAPH_FILE
    from .kg import require_docs

    require_docs(docs, include, exclude)
    if save_kg is None:
        return None
    return check_output_dir(save_kg, marker=GRAPH_FILE, inputs=[docs], force=force)


def personas(
    kg_dir: Annotated[
        Path, typer.Argument(metavar="KG_DIR", help="A graph directory written by `groundset kg build`.")
    ],
    n: Annotated[int, typer.Option("-n", min=1, help="How many personas.")] = 4,
    out_file: Annotated[Path | None, typer.Option("--out", "-o", help="Save them (JSON or YAML).")] = None,
    llm: LlmOption = None,
    embeddings: EmbeddingsOption = None,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    language: LanguageOption = None,
) -> None:
    """Generate personas from a graph's documents and print them."""
    from ..kg import KnowledgeGraph
    from ..personas import generate_personas, save_personas

    _check_language(language)
    kg = KnowledgeGraph.load(kg_dir)
    engine = make_engine(cache, no_cache, 16, 120.0)
    found = generate_personas(kg, n, llm=llm, embeddings=embeddings, engine=engine, language=language)
    table = Table("name", "role description")
    for persona in found:
        table.add_row(persona.name, persona.role_description)
    out.print(table)
    if out_file:
        save_personas(found, out_file)
        out.print(f"wrote {out_file}", highlight=False)


def _check_language(language: str | None) -> None:
    """A bad --language fails before the build, as a usage error listing the codes."""
    from ..personas.language import check_language

    try:
        check_language(language)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--language") from None
