"""How targets are called: sync calls on their own daemon threads, bounded by target_concurrency and
abandoned at their timeout (the run, a later run and the interpreter never wait for them); HTTP redirects
named, not followed; header values a server echoes back never reach the run file."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from langchain_core.runnables import RunnableLambda

from groundset.samples.dataset import EvaluationDataset
from groundset.scoring.metrics import ExactMatch
from groundset.scoring.score_rag import score_rag


def questions(n: int) -> EvaluationDataset:
    return EvaluationDataset.from_list(
        [{"user_input": f"question {i}", "reference": f"answer {i}"} for i in range(n)]
    )


def run(target: object, n: int, **options: object):
    return score_rag(questions(n), target, [ExactMatch()], show_progress=False, **options)


def errors(result) -> list[str | None]:
    """Each row's target error, None where the target answered."""
    return [call.error or None for call in result.target_calls]


@pytest.fixture
def release():
    """An event the hung targets of a test wait on; set at the end so their threads finish."""
    event = threading.Event()
    yield event
    event.set()


def meeting(parties: int):
    """A sync target that answers only once ``parties`` calls are running at the same time."""
    barrier = threading.Barrier(parties, timeout=10)

    def answer(question: str) -> tuple[str, list[str]]:
        barrier.wait()
        return f"answer {question.split()[-1]}", []

    return answer


# --- item 7: sync targets are bounded by --target-concurrency and --target-timeout ---------------------


def test_a_hung_sync_call_fails_its_row_at_the_timeout_and_the_others_answer(release):
    def answer(question: str) -> tuple[str, list[str]]:
        if question.endswith(" 1"):
            release.wait(60)
        return f"answer {question.split()[-1]}", []

    start = time.perf_counter()
    result = run(answer, 4, target_timeout=0.5)
    assert time.perf_counter() - start < 20  # a generous bound: the hung call would hold it for 60 s
    assert errors(result) == [None, "TimeoutError: timed out after 0.5 s", None, None]
    assert [result.scores("exact_match")[i] for i in (0, 2, 3)] == [1.0, 1.0, 1.0]


def test_sync_calls_run_target_concurrency_at_a_time():
    result = run(meeting(12), 12, target_concurrency=12, target_timeout=30)
    assert errors(result) == [None] * 12  # all 12 were running at once (the barrier needs all 12)

    lock, live, peak = threading.Lock(), [0], [0]

    def counted(question: str) -> tuple[str, list[str]]:
        with lock:
            live[0] += 1
            peak[0] = max(peak[0], live[0])
        time.sleep(0.05)
        with lock:
            live[0] -= 1
        return "x", []

    run(counted, 9, target_concurrency=3)
    assert peak[0] <= 3


def test_hung_calls_give_their_slot_back_to_the_rest_of_the_run(release):
    def answer(question: str) -> tuple[str, list[str]]:
        if question.endswith((" 0", " 1")):
            release.wait(60)
        return f"answer {question.split()[-1]}", []

    result = run(answer, 6, target_concurrency=2, target_timeout=0.5)
    assert [e is None for e in errors(result)] == [False, False, True, True, True, True]


def test_a_later_run_in_the_same_process_is_not_stalled_by_hung_calls(release):
    hung = run(lambda question: release.wait(60), 8, target_concurrency=8, target_timeout=0.3)
    assert all("timed out after 0.3 s" in e for e in errors(hung))
    result = run(meeting(8), 8, target_concurrency=8, target_timeout=30)
    assert errors(result) == [None] * 8


def test_idle_threads_are_reused_so_thread_local_clients_survive():
    seen: set[str] = set()

    def answer(question: str) -> tuple[str, list[str]]:
        seen.add(threading.current_thread().name)
        return f"answer {question.split()[-1]}", []

    for _ in range(3):
        assert errors(run(answer, 8, target_concurrency=2)) == [None] * 8
    assert len(seen) <= 2 and all(name.startswith("groundset-target") for name in seen)


def test_a_sync_only_runnable_is_bounded_the_same_way(release):
    hung = run(RunnableLambda(lambda question: release.wait(60)), 8, target_timeout=0.3)
    assert all("timed out after 0.3 s" in e for e in errors(hung))
    result = run(RunnableLambda(meeting(10)), 10, target_concurrency=10, target_timeout=30)
    assert errors(result) == [None] * 10


def test_an_async_target_that_ignores_cancellation_does_not_hold_the_run():
    async def stubborn(question: str) -> str:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            await asyncio.sleep(15)  # swallows the cancellation and goes on
        return "late"

    start = time.perf_counter()
    result = run(stubborn, 2, target_timeout=0.3)
    assert time.perf_counter() - start < 10  # a generous bound: the target holds on for 15 s more
    assert errors(result) == ["TimeoutError: timed out after 0.3 s"] * 2


HUNG_PROCESS = """
import time
from groundset.samples.dataset import EvaluationDataset
from groundset.scoring.metrics import ExactMatch
from groundset.scoring.score_rag import score_rag

def answer(question):
    time.sleep(300)
    return "late", []

data = EvaluationDataset.from_list([{"user_input": f"q{i}", "reference": "a"} for i in range(3)])
result = score_rag(data, answer, [ExactMatch()], target_timeout=0.5, show_progress=False)
print([call.error for call in result.target_calls])
"""


def test_the_interpreter_exits_without_waiting_for_a_hung_call():
    done = subprocess.run(
        [sys.executable, "-c", HUNG_PROCESS], capture_output=True, text=True, timeout=120
    )  # the hung calls sleep 300 s: before, exiting waited for them
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("timed out after 0.5 s") == 3


# --- item 14: HTTP redirects and echoed header values ----------------------------------------------------

TOKEN = "tok-groundset-ECHOED-9a8b7c6d5e"
TENANT = "tenant-ECHOED-0f1e2d3c"


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/moved":
            self._send(302, b"", {"Location": "http://bob:hunter2-secret@example.invalid/v2/rag?x=1"})
        elif self.path == "/relative":
            self._send(308, b"", {"Location": "/v2/rag"})
        else:  # echoes the request's headers inside a 200 answer, as a misconfigured proxy might
            headers = dict(self.headers)
            reply = {
                "response": f"you sent {headers}",
                "contexts": [{"text": f"Authorization was {self.headers['Authorization']}", "id": TENANT}],
                "accept": "application/json is fine",
            }
            self._send(200, json.dumps(reply).encode(), {"Content-Type": "application/json"})

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_a_redirect_is_named_with_where_it_points_and_not_followed(server):
    from groundset.scoring.http_target import HttpTarget

    result = run(HttpTarget(f"{server}/moved"), 1)
    error = errors(result)[0]
    assert "HTTP 302" in error and "redirects are not followed" in error
    assert "http://example.invalid/v2/rag?x=1" in error and "hunter2" not in error and "bob" not in error
    relative = errors(run(HttpTarget(f"{server}/relative"), 1))[0]
    assert "HTTP 308" in relative and f"{server}/v2/rag" in relative


def test_header_values_echoed_in_a_200_answer_never_reach_the_run_file(server, tmp_path, monkeypatch):
    from groundset.scoring.http_target import HttpTarget

    monkeypatch.setattr("groundset.core.secrets._secrets", set())
    headers = {"Authorization": f"Bearer {TOKEN}", "X-Tenant": TENANT, "Accept": "application/json"}
    result = run(HttpTarget(f"{server}/echo", headers=headers), 1)
    answer = result.dataset[0]
    assert answer.response.startswith("you sent") and "***" in answer.response
    assert answer.retrieved_contexts == ["Authorization was ***"]
    assert answer.retrieved_context_ids == ["***"]
    result.to_jsonl(tmp_path / "run.jsonl")
    result.report(tmp_path / "run.html")
    for written in (tmp_path / "run.jsonl", tmp_path / "run.html"):
        text = written.read_text(encoding="utf-8")
        assert TOKEN not in text and TENANT not in text
    assert "application/json" in answer.response  # a plain Accept header is no secret: answers keep it
