"""The ``groundset`` command: thin; parses, calls the API, prints."""

import os
import sys
import traceback
from typing import Annotated

import typer

from .._version import __version__
from ..core import ConfigError, GroundsetError, default_cache_dir, describe_model
from ..core.secrets import redact, scrub
from .cache import cache_app
from .calibrate import calibrate
from .common import EmbeddingsOption, LlmOption, err, out, typer_app
from .compare import compare_runs_command
from .diff import diff
from .evaluate import evaluate, metrics
from .generate import generate, personas
from .kg import kg_app
from .kg_enrich import enrich
from .review import review
from .score import report, score

app = typer_app(
    name="groundset",
    help="Docs folder -> knowledge graph -> grounded RAG test set -> scores. Offline by default.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        out.print(f"groundset {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
) -> None:
    """groundset: build a grounded RAG test set from your docs and score RAG systems against it."""


kg_app.command("enrich")(enrich)
app.add_typer(kg_app, name="kg")
app.add_typer(cache_app, name="cache")
app.command("generate")(generate)
app.command("personas")(personas)
app.command("evaluate")(evaluate)
app.command("score")(score)
app.command("report")(report)
app.command("metrics")(metrics)
app.command("calibrate")(calibrate)
app.command("diff")(diff)
app.command("compare")(compare_runs_command)
app.command("review")(review)


@app.command()
def models(llm: LlmOption = None, embeddings: EmbeddingsOption = None) -> None:
    """Show the LLM and embeddings groundset would use, and where that configuration came from."""
    from ..core import resolve_embeddings, resolve_llm

    chosen_llm = resolve_llm(llm)
    chosen_emb = resolve_embeddings(embeddings)
    for role, chosen in (("llm", chosen_llm), ("embeddings", chosen_emb)):
        out.print(
            f"{role + ':':<12} {describe_model(chosen.model)}  ({chosen.source})",
            soft_wrap=True,
            highlight=False,
            markup=False,
        )
    out.print(f"{'call cache:':<12} {default_cache_dir()}", soft_wrap=True, highlight=False)
    if chosen_llm.is_offline:
        out.print(
            "offline: every task runs its deterministic classical-NLP form; no data leaves this machine.",
            soft_wrap=True,
        )
        if os.environ.get("OPENAI_API_KEY"):
            out.print(
                "note: OPENAI_API_KEY is set; pass --llm openai:<model> (or set GROUNDSET_LLM) to use it.",
                soft_wrap=True,
            )


def main(argv: list[str] | None = None) -> int:
    """Entry point: one clear line and a non-zero exit on error; a traceback only with --debug."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    _configure_logging(debug)
    command = typer.main.get_command(app)
    try:
        # Without standalone mode click hands back a command's typer.Exit(code) as the return value.
        code = command.main(args=args, prog_name="groundset", standalone_mode=False)
        if isinstance(code, int) and code:
            return code
    except typer.Exit as exc:
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        err.print("aborted")
        return 130
    except Exception as exc:  # noqa: BLE001 - the one place errors become a line
        if hasattr(exc, "show") and isinstance(getattr(exc, "exit_code", None), int):
            exc.show()  # a usage error from the option parser: it prints its own message
            return exc.exit_code
        if debug:  # the full traceback, with every key in it (an echoed header, say) hidden
            if scrub(exc):
                raise
            sys.stderr.write(redact("".join(traceback.format_exception(exc))))
            return 1
        kind = "error" if isinstance(exc, GroundsetError | ConfigError) else f"error ({type(exc).__name__})"
        err.print(f"{kind}: {redact(str(exc))}", markup=False, highlight=False, soft_wrap=True)
        if not isinstance(exc, GroundsetError):
            err.print("run again with --debug for the full traceback", style="dim")
        return 1
    return 0


def _configure_logging(debug: bool) -> None:
    """--debug: everything at DEBUG. Otherwise the loader's per-file warnings stay quiet: the
    command's own summary lists every skipped or repaired file once."""
    import logging

    if debug:
        logging.basicConfig(level=logging.DEBUG, format="%(levelname)s %(name)s: %(message)s")
        return
    logging.getLogger("groundset.documents.loader").setLevel(logging.ERROR)


def run() -> None:
    sys.exit(main())
