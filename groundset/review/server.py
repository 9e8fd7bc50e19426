"""The review server: Starlette on 127.0.0.1, pages rendered here, actions as JSON posts.

Only this machine can reach it (it binds the loopback address and answers only requests addressed to
``127.0.0.1`` or ``localhost``, which also stops a web page that rebinds a host name to it). Every write
needs the CSRF token of a page it served, and a cross-site request is refused; the page may load only
the server's own script and styles (Content-Security-Policy), so document text can never run as script.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..core.errors import ConfigError
from .pages import Filters, Sources, sample_page, summary_page
from .store import ReviewConflict, ReviewStore, UnknownSample
from .summary import summarise

__all__ = ["LOOPBACK", "bind", "create_app", "running"]

LOOPBACK = "127.0.0.1"
_HOSTS = {LOOPBACK, "localhost"}
_STATIC_DIR = Path(__file__).resolve().parent / "static"
_STATIC = {"review.js": "text/javascript; charset=utf-8", "review.css": "text/css; charset=utf-8"}
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
ACTIONS = ("keep", "edit", "reject", "restore", "tag", "note")


def create_app(store: ReviewStore, sources: Sources | None = None, *, token: str | None = None) -> Starlette:
    """The review app over ``store`` (``sources``: where contexts come from, from a graph; ``token``: the
    CSRF token, a fresh random one by default)."""
    token = token or secrets.token_urlsafe(32)
    sources = sources or Sources()
    name = store.path.name

    async def index(request: Request) -> Response:
        items = await run_in_threadpool(store.items)
        filters = Filters.of(request.query_params)
        shown = [i for i in items if filters.matches(i)]
        wanted = request.query_params.get("at", "")
        current = next((i for i in shown if i.sample.id == wanted), shown[0] if shown else None)
        return _html(sample_page(name, items, shown, current, filters, sources, token))

    async def summary(request: Request) -> Response:
        items = await run_in_threadpool(store.items)
        return _html(summary_page(name, summarise(items), token))

    async def static(request: Request) -> Response:
        file = request.path_params["file"]
        if file not in _STATIC:
            return PlainTextResponse("not found", status_code=404, headers=_HEADERS)
        body = (_STATIC_DIR / file).read_text(encoding="utf-8")  # a name from the fixed table above
        return Response(body, media_type=_STATIC[file], headers=_HEADERS)

    async def act(request: Request) -> Response:
        if request.headers.get("x-csrf-token", "") != token:
            return _error("this page is out of date or not from this server: reload it", 403)
        origin = request.headers.get("origin")
        if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
            return _error("cross-site request refused", 403)
        action = request.path_params["action"]
        if action not in ACTIONS:
            return _error(f"unknown action {action!r}; one of: {', '.join(ACTIONS)}", 404)
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _error("the request body must be a JSON object", 400)
        if not isinstance(body, dict):
            return _error("the request body must be a JSON object", 400)
        sample_id = request.path_params["sample_id"]
        try:
            item = await run_in_threadpool(_apply, store, action, sample_id, body)
        except UnknownSample as exc:
            return _error(str(exc), 404)
        except ReviewConflict as exc:
            return _error(str(exc), 409)
        except (ConfigError, TypeError, ValueError) as exc:
            return _error(str(exc), 400)
        return JSONResponse(
            {"id": item.sample.id, "status": item.status, "place": item.place},
            headers=_HEADERS,
        )

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/summary", summary),
            Route("/static/{file}", static),
            Route("/api/samples/{sample_id}/{action}", act, methods=["POST"]),
            Route("/favicon.ico", lambda request: Response(status_code=204, headers=_HEADERS)),
        ]
    )
    return _LoopbackOnly(app)


def _apply(store: ReviewStore, action: str, sample_id: str, body: dict[str, Any]) -> Any:
    if action == "keep":
        return store.keep(sample_id, bool(body.get("keep", True)))
    if action == "edit":
        base = body.get("base") if isinstance(body.get("base"), dict) else {}
        question, reference = _text(body, "question"), _text(body, "reference")
        return store.edit(sample_id, question=question, reference=reference, base=base)
    if action == "reject":
        return store.reject(sample_id, _text(body, "reason"))
    if action == "restore":
        return store.restore(sample_id)
    if action == "tag":
        return store.tag(sample_id, add=_words(body.get("add")), remove=_words(body.get("remove")))
    base = body.get("base")
    return store.note(sample_id, _text(body, "note"), base=base if isinstance(base, str) else None)


def _text(body: dict[str, Any], name: str) -> str:
    value = body.get(name, "")
    if not isinstance(value, str):
        raise ConfigError(f"{name} must be text")
    return value


def _words(value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError("tags are given as a list of words")
    return value


def _html(body: str) -> HTMLResponse:
    return HTMLResponse(body, headers=_HEADERS)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=_HEADERS)


class _LoopbackOnly:
    """Answers only requests addressed to this machine by name (``Host``: 127.0.0.1 or localhost)."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
            if host.rsplit(":", 1)[0] not in _HOSTS:
                response = PlainTextResponse("this review server answers on 127.0.0.1 only", status_code=421)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def bind(port: int = 0) -> socket.socket:
    """A listening socket on 127.0.0.1 (``port`` 0: any free one); a taken port is a ConfigError."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((LOOPBACK, port))
    except OSError as exc:
        sock.close()
        problem = f"cannot listen on {LOOPBACK}:{port} ({exc.strerror}); use --port 0 for a free port"
        raise ConfigError(problem) from None
    sock.listen(64)
    return sock


@contextlib.contextmanager
def running(app: Any, port: int = 0) -> Iterator[str]:
    """Serve ``app`` in a background thread while the block runs; yields its URL (tests, notebooks)."""
    import uvicorn

    sock = bind(port)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the review server stopped while starting")
            threading.Event().wait(0.02)
        yield f"http://{LOOPBACK}:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
