"""Secrets: an API key given as OPENAI_API_KEY and as an HTTP target's header appears nowhere we write.

Every command runs against the local stub with and without --debug, while the model endpoint and the
RAG target fail now and then with error bodies that echo the Authorization header back. The key must
not show up on stdout or stderr, in a log record, an exception (with its causes), the call cache's
bytes or any output file. The call cache, which holds document text, must be private to the user.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import stat
import subprocess
import sys
import threading
import traceback
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from groundset.cli import main
from groundset.core.secrets import redact

from ..corpora import EXAMPLE_DOCS
from ..openai_stub import Reply
from ..scripted_model import scripted

KEY = "sk-groundset-LEAKCHECK-0123456789"
# A second secret only ever given as a --header (never in the environment): found by its header alone.
HEADER_KEY = "tok-groundset-HEADERLEAK-9876543210"
# A header given with a typo (no colon), so it is never read as a header: only its own error shows it.
TYPO_KEY = "tok-groundset-TYPOLEAK-5555555555"
SECRETS = (KEY, HEADER_KEY, TYPO_KEY)
ECHO = f"invalid request: Authorization: Bearer {KEY}"  # what the model endpoint sends back
FAIL_WORD = "zebra"  # a question or answer holding it makes the model endpoint answer 401 (echoing the key)
MODELS = ["--llm", "openai:stub-model", "--embeddings", "openai:stub-embed"]
PAGES = ["concepts/data_model.md", "concepts/metric_types.md", "practices/naming.md"]


class _Rag(BaseHTTPRequestHandler):
    """A RAG endpoint: answers from a fixed text, fails (echoing the request's headers) for some questions."""

    def do_POST(self) -> None:  # noqa: N802 - the http.server hook name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        question = body.get("question", "")
        echoed = "; ".join(f"{k}: {v}" for k, v in self.headers.items())
        self.server.seen.append(dict(self.headers))  # type: ignore[attr-defined]
        number = sum(map(ord, question))
        if number % 5 == 1:
            self._send(500, f'{{"error": "upstream refused {echoed}"}}', "application/json")
        elif number % 5 == 2:
            self._send(200, f"<html>proxy login page for {echoed}</html>", "text/html")
        else:
            tail = FAIL_WORD if number % 5 == 3 else ""
            answer = {
                "response": f"Samples are identified by metric name and labels. {tail}",
                "retrieved_contexts": ["Every time series is identified by its metric name and labels."],
            }
            self._send(200, json.dumps(answer), "application/json")

    def _send(self, status: int, text: str, kind: str) -> None:
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def rag() -> Iterator[Any]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Rag)
    server.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _model(stub: Any) -> None:
    """The scripted model, with a retryable 503 every 7th request and a 401 for FAIL_WORD, both echoing the
    key."""
    count = {"n": 0}

    def answer(body: dict[str, Any]) -> Reply | None:
        count["n"] += 1
        if FAIL_WORD in json.dumps(body["messages"]):
            return Reply.error(401, message=ECHO)
        if count["n"] % 7 == 0:
            return Reply.error(503, message=ECHO, retry_after=0)
        return scripted(body)

    stub.on_chat(answer)


@pytest.fixture
def world(tmp_path, stub, rag, monkeypatch):
    monkeypatch.setattr("groundset.core.secrets._secrets", set())  # no key known from an earlier test
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    monkeypatch.setenv("GROUNDSET_CACHE_DIR", str(tmp_path / "cache"))
    docs = tmp_path / "docs"
    for page in PAGES:
        (docs / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(EXAMPLE_DOCS / page, docs / page)
    _model(stub)
    return tmp_path


def _commands(root: Path, rag_url: str) -> list[tuple[list[str], set[int]]]:
    """Every command, with the exit codes it may end with (a gate or a failed run is an answer too)."""
    docs, kg, out = root / "docs", root / "kg", root / "out"
    header = ["--header", f"Authorization: Bearer {KEY}", "--header", f"X-Api-Key: {HEADER_KEY}"]
    score = ["score", "--testset", str(out / "testset.jsonl"), "--target", rag_url, *header, *MODELS, "-q"]
    return [
        (["kg", "build", str(docs), "--out", str(kg), "--enrich", "eager", *MODELS, "-q", "--force"], {0}),
        (["kg", "update", str(docs), "--kg", str(kg), *MODELS, "-q"], {0}),
        (["generate", "--kg", str(kg), "-n", "4", "--out", str(out / "testset.jsonl"), *MODELS, "-q"], {0}),
        (["personas", str(kg), "-n", "2", "--out", str(out / "personas.yaml"), *MODELS], {0}),
        (["evaluate", str(root / "data.jsonl"), "--out", str(out / "eval.jsonl"), *MODELS, "-q",
          "--report", str(out / "eval.html")], {0}),
        ([*score, "--out", str(out / "run_a.jsonl"), "--report", str(out / "run_a.html")], {0}),
        ([*score, "--out", str(out / "run_b.jsonl"), "--no-cache"], {0}),
        (["compare", str(out / "run_a.jsonl"), str(out / "run_b.jsonl"), "--report", str(out / "cmp.html")],
         {0, 1}),
        (["calibrate", str(root / "labels.jsonl"), "-m", "faithfulness", "--out", str(out / "cal.json"),
          *MODELS, "-q"], {0, 1}),
        (["report", str(out / "run_a.jsonl"), "--out", str(out / "report.html")], {0}),
        (["cache", "info"], {0}),
        (["models", *MODELS], {0}),
        # and commands that fail as a whole: every model request refused, a target that is not there
        (["generate", "--kg", str(kg), "-n", "2", "--out", str(out / "never.jsonl"), *MODELS, "--no-cache",
          "-q", "--enrich", "eager"], {0, 1}),
        (["kg", "build", str(docs), "--out", str(root / "kg2"), "--enrich", "eager", *MODELS, "--no-cache",
          "-q"], {1}),
        ([*score[:4], "http://127.0.0.1:9/rag", *score[5:], "--no-cache"], {0, 1}),
        ([*score[:6], "Authorization Bearer " + TYPO_KEY, *score[7:]], {1}),  # a mistyped header
    ]  # fmt: skip


def _inputs(root: Path) -> None:
    """The evaluate data and the calibration labels, made from the generated test set."""
    rows = [json.loads(line) for line in (root / "out" / "testset.jsonl").read_text().splitlines() if line]
    rows = [r for r in rows if "user_input" in r]
    data = [
        {
            "user_input": r["user_input"],
            "response": r["reference"] + (f" {FAIL_WORD}" if i == 0 else ""),
            "retrieved_contexts": r.get("reference_contexts") or [r["reference"]],
            "reference": r["reference"],
        }
        for i, r in enumerate(rows)
    ]
    (root / "data.jsonl").write_text("".join(json.dumps(d) + "\n" for d in data))
    labels = [{**d, "human_score": i % 2} for i, d in enumerate(data)]
    (root / "labels.jsonl").write_text("".join(json.dumps(d) + "\n" for d in labels))


def _chain(exc: BaseException) -> str:
    """Everything Python prints for an uncaught exception: the traceback, every cause, repr and args."""
    parts = ["".join(traceback.format_exception(exc))]
    seen: BaseException | None = exc
    while seen is not None:
        parts += [repr(seen), repr(seen.args), str(getattr(seen, "__notes__", ""))]
        seen = seen.__cause__ or seen.__context__
    return "\n".join(parts)


def _files(root: Path) -> Iterator[Path]:
    return (p for p in root.rglob("*") if p.is_file() and not p.is_symlink())


@pytest.mark.slow
@pytest.mark.parametrize("debug", [False, True], ids=["plain", "debug"])
def test_the_key_appears_nowhere(world, stub, rag, capsys, caplog, debug):
    caplog.set_level(logging.DEBUG)
    root = world
    rag_url = f"http://127.0.0.1:{rag.server_address[1]}/rag"
    printed, raised = [], []
    for args, codes in _commands(root, rag_url):
        if args[0] == "evaluate" and not (root / "data.jsonl").exists():
            _inputs(root)
        if args[0] == "generate" and "--no-cache" in args:
            stub.always(Reply.error(401, message=ECHO))  # from here on every model request is refused
        argv = ["--debug", *args] if debug else args
        try:
            code = main(argv)
        except Exception as exc:  # noqa: BLE001 - with --debug main re-raises, as the console script prints it
            assert debug, f"{args[:2]} raised without --debug: {exc!r}"
            raised.append(_chain(exc))
            code = 1
        captured = capsys.readouterr()
        printed.append(captured.out + captured.err)
        assert code in codes, (args[:2], code, captured.out[-500:], captured.err[-2000:])
    assert rag.seen and all(h.get("Authorization") == f"Bearer {KEY}" for h in rag.seen)  # really sent
    assert any(r.headers.get("authorization") == f"Bearer {KEY}" for r in stub.requests)
    assert any(ECHO in json.dumps(r.body) or r.status in (401, 503) for r in stub.requests)
    texts = {"stdout/stderr": "\n".join(printed), "log records": caplog.text, "exceptions": "\n".join(raised)}
    texts["log args"] = "\n".join(repr(r.args) + repr(r.exc_info) for r in caplog.records)
    for where, text in texts.items():
        for secret in SECRETS:
            assert secret not in text, f"{secret} in {where}: ...{_around(text, secret)}..."
    written = list(_files(root / "out")) + list(_files(root / "kg")) + list(_files(root / "cache"))
    assert any(p.name == "calls.sqlite" for p in written) and any(p.suffix == ".html" for p in written)
    for path in written:
        blob = path.read_bytes()
        for secret in SECRETS:
            assert secret.encode() not in blob, f"{secret} in {path}"
    run = (root / "out" / "run_a.jsonl").read_text()
    assert "***" in run and "HTTP 500" in run  # the echoing target errors are recorded, redacted


def _around(text: str, secret: str) -> str:
    at = text.index(secret)
    return text[max(0, at - 300) : at + 100]


@pytest.mark.slow
def test_the_console_script_with_debug_prints_no_key(world, stub, rag):
    """The real process: --debug turns on DEBUG logging of every library (openai, httpx) on stderr, and an
    uncaught error prints its whole traceback, causes included (the model's 401 body echoes the key)."""
    root = world
    assert main(["kg", "build", str(root / "docs"), "--out", str(root / "kg"), "--no-cache", "-q"]) == 0
    (root / "t.jsonl").write_text(
        json.dumps({"user_input": "What identifies a time series?", "reference": "Its name and labels."})
        + "\n"
    )
    stub.always(Reply.error(401, message=ECHO))
    rag_url = f"http://127.0.0.1:{rag.server_address[1]}/rag"
    runs = [
        ["generate", "--kg", str(root / "kg"), "-n", "2", "--out", str(root / "t2.jsonl"), *MODELS, "-q"],
        ["score", "--testset", str(root / "t.jsonl"), "--target", rag_url, "--metrics", "faithfulness",
         "--header", f"Authorization: Bearer {KEY}", "--header", f"X-Api-Key: {HEADER_KEY}", *MODELS, "-q"],
    ]  # fmt: skip
    exe = Path(sys.executable).parent / "groundset"
    outputs = []
    for args in runs:
        done = subprocess.run(
            [str(exe), "--debug", *args],
            capture_output=True,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
            timeout=120,
            check=False,
        )
        outputs.append(done.stdout + done.stderr)
    generate, score = outputs
    assert "Traceback" in generate and "ModelCallError" in generate and "Bearer ***" in generate
    assert "DEBUG" in score and "HTTP Request: POST" in score  # the libraries' debug logging was on
    for output in outputs:
        for secret in SECRETS:
            assert secret not in output, _around(output, secret)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (f"Incorrect API key provided: {KEY}.", "Incorrect API key provided: ***."),
        ("--header 'Authorization Bearer abcdef0123456789'", "--header 'Authorization Bearer ***'"),
        ('{"x-api-key": "tok-0123456789"}', '{"x-api-key": "***"}'),
        (
            "GET https://bob:pa55-word@rag.test/q?api_key=abc123456&n=1",
            "GET https://bob:***@rag.test/q?api_key=***&n=1",
        ),
        ("key sk-proj-abcdefghijklmnop0123 used", "key *** used"),
        # what must stay as it is: counts, settings, plain URLs, short words
        ("tokens 1,200 in / 300 out, max_tokens=4096, input_tokens: 1200", None),
        ("http://127.0.0.1:9/rag: ConnectError; the token limit was exceeded; bearer of bad news", None),
        ("password is too short; Incorrect API key provided", None),
    ],
)
def test_redact_hides_known_keys_and_credential_shaped_values(monkeypatch, text, shown):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    assert redact(text) == (text if shown is None else shown)


def test_an_http_target_hides_its_header_values_and_url_password(monkeypatch, rag):
    import asyncio

    from groundset.scoring.http_target import HttpTarget

    monkeypatch.setattr("groundset.core.secrets._secrets", set())
    port = rag.server_address[1]
    password = "pw-groundset-URLLEAK-42"
    target = HttpTarget(f"http://bob:{password}@127.0.0.1:{port}/rag", headers={"X-Api-Key": HEADER_KEY})
    assert password not in target.name and target.name.startswith("http://bob:***@")
    assert HEADER_KEY not in redact(f"got {HEADER_KEY} back") and password not in redact(password)
    # a 200 whose body is not JSON but echoes the request's headers: the error still hides them
    question = next(q for q in (f"q{i}" for i in range(50)) if sum(map(ord, q)) % 5 == 2)
    with pytest.raises(ValueError, match="did not answer with JSON") as caught:
        asyncio.run(_ask(target, question))
    assert HEADER_KEY not in str(caught.value) and "***" in str(caught.value)


async def _ask(target: Any, question: str) -> Any:
    try:
        return await target.answer(question)
    finally:
        await target.aclose()


class _OpaqueError(Exception):
    """An error whose message is not made from its args (scrubbing the args cannot clean it)."""

    def __str__(self) -> str:
        return f"upstream said Authorization: Bearer {KEY}"


def test_debug_tracebacks_are_scrubbed_or_printed_redacted(monkeypatch, capsys):
    import groundset.core

    monkeypatch.setenv("OPENAI_API_KEY", KEY)

    def refuse(spec: Any) -> Any:
        try:
            raise RuntimeError(f"proxy echoed {KEY}")
        except RuntimeError as cause:
            raise ValueError(f"model {spec!r} refused: {KEY}") from cause

    monkeypatch.setattr(groundset.core, "resolve_llm", refuse)
    with pytest.raises(ValueError) as caught:
        main(["--debug", "models", "--llm", "openai:x"])
    assert KEY not in _chain(caught.value) and "***" in str(caught.value)

    def opaque(spec: Any) -> Any:
        raise _OpaqueError()

    monkeypatch.setattr(groundset.core, "resolve_llm", opaque)
    assert main(["--debug", "models", "--llm", "openai:x"]) == 1  # printed here, not left to Python
    err = capsys.readouterr().err
    assert "Traceback" in err and "_OpaqueError: upstream said Authorization: Bearer ***" in err
    assert KEY not in err


# --- permissions ----------------------------------------------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_call_cache_is_private_to_the_user(tmp_path):
    from groundset.core.cache import CallCache

    old = os.umask(0o022)
    try:
        cache = CallCache(tmp_path / "cache" / "deep")
        cache.put("k", b"document text", "chat", label="kg.summary")
        cache.close()
    finally:
        os.umask(old)
    folder = tmp_path / "cache" / "deep"
    assert _mode(folder) == 0o700
    for path in folder.iterdir():
        assert _mode(path) & 0o077 == 0, (path.name, oct(_mode(path)))
