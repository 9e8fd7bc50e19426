"""`groundset review TESTSET`: a local page to keep, edit, reject and tag samples, one at a time."""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from .common import out


def review(
    testset: Annotated[
        Path,
        typer.Argument(metavar="TESTSET", help="The test set to review (.jsonl or .csv, from `generate`)."),
    ],
    kg: Annotated[
        Path | None,
        typer.Option(
            "--kg", help="The graph it was generated from: shows each context's document and section."
        ),
    ] = None,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="Port on 127.0.0.1; 0 picks a free one.")
    ] = 0,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Print the URL only; do not open a browser.")
    ] = False,
) -> None:
    """Review a generated test set in the browser, next to the passages each sample came from.

    Serves a page on 127.0.0.1 (this machine only) and prints its URL. For each sample: keep it (marks it
    reviewed), edit its question or reference in place (its id stays, so `generate --refresh` keeps it),
    reject it with a reason (moved to TESTSET's .rejected.jsonl beside it, never deleted; a refresh does
    not ask it again), tag it (e.g. critical; then `score --only tag=critical`) or write a note. Samples a
    refresh sent to .needs-review.jsonl show what changed in their contexts; keeping one puts it back at
    the next refresh. Keys: k keep, e edit, r reject, t tag, n note, j/h next/previous, s summary,
    ? help. Every action is written to the files at once; stop the server with Ctrl+C."""
    import uvicorn

    from ..kg.graph import KnowledgeGraph
    from ..review import ReviewStore, Sources, create_app, summarise
    from ..review.server import bind

    store = ReviewStore(testset)
    graph = KnowledgeGraph.load(kg) if kg is not None else None
    app = create_app(store, Sources(graph))
    sock = bind(port)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    for line in summarise(store.items()).lines():
        out.print(line, highlight=False)
    out.print(f"reviewing {testset} at {url}  (Ctrl+C stops)", highlight=False, soft_wrap=True)
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        for line in summarise(store.items()).lines():
            out.print(line, highlight=False)
