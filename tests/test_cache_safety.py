"""The call cache never replays a bad answer, keeps models apart, and survives cancelled callers.

Review issue 15, items 9 (answers failing a prompt's semantic check are repaired, never cached),
10 (custom chat models with different fields get different cache keys) and 11 (a cancelled shared
call neither leaks into a new caller nor aborts a whole evaluation or generation run).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import SecretStr
from typer.testing import CliRunner

from groundset.cli import app, main
from groundset.core import CallCache, CallEngine, PromptOutputError, RetryPolicy, model_identity
from groundset.core.aio import on_engine
from groundset.judges import StatementsAndContext, SupportPrompt, numbered
from groundset.scoring import ContextPrecision, EvaluationDataset, SingleTurnSample, aevaluate
from groundset.scoring.metric import Metric, MetricResult
from groundset.scoring.prompts import (
    CompareStatementsPrompt,
    ContextsToJudge,
    ContextUsefulnessPrompt,
    StatementsToCompare,
)

from .corpora import EXAMPLE_DOCS
from .openai_stub import Reply
from .prompts_for_tests import JudgePrompt, Passage, SplitPrompt, Statements
from .verdicts import keyed

THREE = ContextsToJudge(
    question="Which port does the exporter use?",
    answer="The node exporter listens on port 9100.",
    contexts=numbered(
        ["The node exporter listens on port 9100.", "Grafana draws dashboards.", "Alerts are grouped."]
    ),
)
GOOD = keyed([True, False, False])
SHORT = keyed([True, False])  # no verdict for item 3
REST = {"3": {"verdict": False, "reason": "not about ports"}}


def _human(request: Any) -> str:
    return request.body["messages"][-1]["content"]


def _flags(judged: Any) -> list[bool]:
    return [v.verdict for v in judged.by_key().values()]


class NonEmptySplit(SplitPrompt):
    """A prompt with a semantic check the schema cannot express: at least one statement."""

    name = "test.split_nonempty"

    def validate(self, data: Passage, output: Statements) -> str | None:
        return None if output.statements else "gave no statements; give at least one"


# -- item 9: checks before caching ------------------------------------------------------------------


async def test_a_missing_item_is_asked_for_alone_and_only_the_merged_answer_is_cached(stub, chat, engine):
    stub.push(Reply.json(SHORT), Reply.json(REST))
    judged = await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)
    assert _flags(judged) == [True, False, False]
    assert len(stub.chat_requests) == 2
    repair = stub.chat_requests[1].body
    assert "item(s) 3" in _human(stub.chat_requests[1])
    assert repair["response_format"]["json_schema"]["schema"]["required"] == ["3"]  # only the missing one
    assert engine.usage["scoring.context_usefulness"].repairs == 1
    again = await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)
    assert again == judged and len(stub.chat_requests) == 2  # the merged answer came from the cache


async def test_an_answer_that_stays_incomplete_raises_and_nothing_is_cached(stub, chat, engine):
    stub.push(Reply.json(SHORT), Reply.json(SHORT))
    with pytest.raises(PromptOutputError) as caught:
        await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)
    assert "item(s) 3 after one repair request" in caught.value.error
    assert len(engine.cache) == 0
    stub.push(Reply.json(GOOD))
    judged = await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)  # a rerun asks again
    assert _flags(judged) == [True, False, False] and len(stub.chat_requests) == 3


async def test_a_metric_nan_from_a_miscount_is_not_permanent(stub, chat, tmp_path):
    contexts = list(THREE.contexts.values())
    sample = SingleTurnSample(user_input=THREE.question, retrieved_contexts=contexts, reference=THREE.answer)
    dataset = EvaluationDataset([sample])
    stub.always(Reply.json(SHORT))
    first = await aevaluate(dataset, [ContextPrecision(llm=chat)], cache=tmp_path, show_progress=False)
    cell = first.cells[0]["context_precision"]
    assert math.isnan(cell.value) and "no usable verdict for item(s) 3" in cell.error
    stub.always(Reply.json(GOOD))
    second = await aevaluate(dataset, [ContextPrecision(llm=chat)], cache=tmp_path, show_progress=False)
    assert second.cells[0]["context_precision"].value == pytest.approx(1.0)


async def test_an_answer_failing_validate_is_repaired_and_never_cached(stub, chat, engine):
    stub.push(Reply.json({"statements": []}), Reply.json({"statements": []}))
    with pytest.raises(PromptOutputError, match="gave no statements"):
        await NonEmptySplit().run(chat, Passage(text="One. Two."), engine=engine)
    assert "gave no statements; give at least one" in _human(stub.chat_requests[1])
    assert len(engine.cache) == 0


async def test_a_bad_answer_cached_by_an_older_version_is_not_replayed(stub, chat, engine, monkeypatch):
    monkeypatch.setattr(NonEmptySplit, "validate", lambda self, data, output: None)
    stub.push(Reply.json({"statements": []}))
    assert (await NonEmptySplit().run(chat, Passage(text="One."), engine=engine)).statements == []
    monkeypatch.undo()
    stub.push(Reply.json({"statements": ["One."]}))
    assert (await NonEmptySplit().run(chat, Passage(text="One."), engine=engine)).statements == ["One."]
    assert len(stub.chat_requests) == 2
    assert (await NonEmptySplit().run(chat, Passage(text="One."), engine=engine)).statements == ["One."]
    assert len(stub.chat_requests) == 2  # the fresh answer replaced the bad one


def test_the_checks_name_the_missing_items():
    assert ContextUsefulnessPrompt()._checked(THREE, json.dumps(SHORT)) == (
        None,
        "no usable verdict for item(s) 3",
    )
    pair = StatementsToCompare(response=numbered(["a", "b"], "r"), reference=numbered(["c"], "g"))
    _, problem = CompareStatementsPrompt()._checked(
        pair, json.dumps({**keyed([True], "r"), "g1": {"verdict": 1}})
    )
    assert problem == "no usable verdict for item(s) r2"  # g1: 1 reads as true
    data = StatementsAndContext(statements=numbered(["x is y.", "z is w."]), context="x is y.")
    assert (
        SupportPrompt()._checked(data, '{"verdicts": [true, true]}')[1]
        == "no usable verdict for item(s) 1, 2"
    )


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_offline_forms_answer_every_key(count):
    texts = ["The exporter listens on port 9100.", "Grafana draws dashboards.", "Blocks are kept."][:count]
    prompts_and_inputs = [
        (
            ContextUsefulnessPrompt(),
            ContextsToJudge(question="q?", answer="port 9100", contexts=numbered(texts)),
        ),
        (
            CompareStatementsPrompt(),
            StatementsToCompare(response=numbered(texts, "r"), reference=numbered(texts[:1], "g")),
        ),
        (
            SupportPrompt(),
            StatementsAndContext(statements=numbered(texts), context="The exporter listens on port 9100."),
        ),
    ]
    for prompt, data in prompts_and_inputs:
        assert tuple(prompt.offline(data).by_key()) == prompt.keys(data)


# -- item 9: prompt names in the cache, migration, CLI -------------------------------------------


async def test_each_entry_stores_its_prompt_name(stub, chat, engine):
    stub.push(Reply.json(GOOD))
    await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)
    await JudgePrompt().run(chat, Passage(text="labelled"), engine=engine)
    stats = engine.cache.stats()
    assert stats["entries"] == 2
    assert stats["by_label"] == {"scoring.context_usefulness": 1, "test.judge": 1}
    assert stats["by_kind"] == {"chat": 2}


def _old_cache(directory, rows):
    directory.mkdir(parents=True)
    conn = sqlite3.connect(directory / "calls.sqlite")
    conn.execute(
        "CREATE TABLE calls (key TEXT PRIMARY KEY, kind TEXT NOT NULL, value BLOB NOT NULL, "
        "created REAL NOT NULL)"
    )
    conn.executemany("INSERT INTO calls VALUES (?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()


def test_a_cache_file_without_prompt_names_is_migrated(tmp_path):
    _old_cache(tmp_path / "c", [("old", "chat", b"[1]", time.time() - 10 * 86400)])
    cache = CallCache(tmp_path / "c")
    assert cache.get("old") == b"[1]"
    cache.put("new", b"[2]", "chat", label="test.judge")
    stats = cache.stats()
    assert stats["entries"] == 2 and stats["by_label"] == {"test.judge": 1, None: 1}
    assert cache.remove(older_than_days=5) == 1 and cache.get("old") is None
    cache.close()
    again = CallCache(tmp_path / "c")  # opening a migrated file again changes nothing
    assert again.get("new") == b"[2]" and len(again) == 1
    again.close()


def _filled_cache(directory):
    cache = CallCache(directory)
    cache.put("a", b"1", "chat", label="scoring.statements")
    cache.put("b", b"2", "chat", label="scoring.statements")
    cache.put("c", b"3", "chat", label="kg.summary[x]")
    cache.put_many([("e1", b"4"), ("e2", b"5")], "embedding")
    cache.close()


def test_cache_info_and_clear_commands(tmp_path, capsys):
    where = tmp_path / "cache"
    _filled_cache(where)
    assert main(["cache", "info", "--cache", str(where)]) == 0
    shown = capsys.readouterr().out
    assert str(where) in shown and re.search(r"entries:\s+5\n", shown)
    assert "scoring.statements" in shown and "kg.summary[x]" in shown and "embedding" in shown
    assert main(["cache", "clear", "--cache", str(where), "--prompt", "scoring.statements", "--yes"]) == 0
    assert "removed 2 entries" in capsys.readouterr().out
    assert main(["cache", "clear", "--cache", str(where), "--older-than", "1", "--yes"]) == 0
    assert "removed 0 entries" in capsys.readouterr().out
    assert main(["cache", "clear", "--cache", str(where), "--yes"]) == 0
    assert "removed 3 entries" in capsys.readouterr().out
    assert len(CallCache(where)) == 0


def test_cache_clear_asks_first_and_info_on_a_missing_cache(tmp_path):
    where = tmp_path / "cache"
    _filled_cache(where)
    runner = CliRunner()
    refused = runner.invoke(app, ["cache", "clear", "--cache", str(where)], input="n\n")
    assert refused.exit_code != 0 and "5 entries" in refused.output
    assert len(CallCache(where)) == 5
    accepted = runner.invoke(app, ["cache", "clear", "--cache", str(where)], input="y\n")
    assert accepted.exit_code == 0 and "removed 5 entries" in accepted.output
    missing = runner.invoke(app, ["cache", "info", "--cache", str(tmp_path / "none")])
    assert missing.exit_code == 0 and "no call cache" in missing.output
    assert not (tmp_path / "none").exists()


# -- item 10: model identity from the model's fields ---------------------------------------------


class EchoChat(BaseChatModel):
    """A custom chat model (as a user would write one): its answer names its own settings."""

    model: str = "echo-1"
    temperature: float = 0.0
    api_key: SecretStr | None = None

    @property
    def _llm_type(self) -> str:
        return "echo"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        reason = f"{self.model} at {self.temperature}"
        message = AIMessage(json.dumps({"supported": True, "reason": reason}))
        return ChatResult(generations=[ChatGeneration(message=message)])


def test_custom_models_differing_in_a_field_have_different_identities():
    base = EchoChat()
    assert model_identity(base) != model_identity(EchoChat(model="echo-2"))
    assert model_identity(base) != model_identity(EchoChat(temperature=1.0))
    assert model_identity(base) == model_identity(EchoChat())
    with_key = EchoChat(api_key=SecretStr("sk-echo-secret-123456"))
    assert model_identity(with_key) == model_identity(base)  # credentials are not part of it


async def test_custom_models_differing_in_a_field_get_their_own_cached_answers(engine):
    data = Passage(text="the same question to every model")
    one = await JudgePrompt().run(EchoChat(), data, engine=engine)
    two = await JudgePrompt().run(EchoChat(model="echo-2"), data, engine=engine)
    hot = await JudgePrompt().run(EchoChat(temperature=1.0), data, engine=engine)
    same = await JudgePrompt().run(EchoChat(), data, engine=engine)
    assert (one.reason, two.reason, hot.reason) == ("echo-1 at 0.0", "echo-2 at 0.0", "echo-1 at 1.0")
    assert same == one
    usage = engine.usage["test.judge"]
    assert (usage.calls, usage.cache_hits) == (3, 1)


# -- item 11: cancelled shared calls -------------------------------------------------------------


async def test_a_new_caller_after_the_last_waiter_cancelled_gets_a_fresh_answer(tmp_path):
    engine = CallEngine(cache=tmp_path / "cache")

    async def scenario() -> bytes:
        started, wound_down = asyncio.Event(), asyncio.Event()

        async def slow_to_stop() -> bytes:
            started.set()
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                await wound_down.wait()  # e.g. closing a connection takes a moment
                raise
            return b"never"

        async def quick() -> bytes:
            return b"fresh"

        first = asyncio.ensure_future(engine.cached("k", "s", slow_to_stop, "chat"))
        await started.wait()
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        answer = await engine.cached("k", "s", quick, "chat")  # the old task is still winding down
        wound_down.set()
        return answer

    assert await on_engine(scenario()) == b"fresh"
    assert engine.cache.get("k") == b"fresh"


async def test_an_old_shared_task_finishing_late_does_not_evict_the_new_one(tmp_path):
    engine = CallEngine(cache=False)

    async def scenario() -> list[bytes]:
        started, new_started, release = asyncio.Event(), asyncio.Event(), asyncio.Event()
        let_old_finish, old_finished = asyncio.Event(), asyncio.Event()
        calls = 0

        async def stubborn() -> bytes:
            started.set()
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                await let_old_finish.wait()
                raise
            finally:
                old_finished.set()
            return b"never"

        async def slow_new() -> bytes:
            nonlocal calls
            calls += 1
            new_started.set()
            await release.wait()
            return b"new"

        first = asyncio.ensure_future(engine.cached("k", "s", stubborn, "chat"))
        await started.wait()
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
        second = asyncio.ensure_future(engine.cached("k", "s", slow_new, "chat"))
        await new_started.wait()
        let_old_finish.set()
        await old_finished.wait()
        for _ in range(5):  # let the old task end and its done callbacks run: they must not evict the new one
            await asyncio.sleep(0)
        third = asyncio.ensure_future(engine.cached("k", "s", slow_new, "chat"))
        await asyncio.sleep(0)  # the third caller joins the second's computation
        release.set()
        results = await asyncio.gather(second, third)
        assert calls == 1  # the third caller shared the second's computation
        return results

    assert await on_engine(scenario()) == [b"new", b"new"]


class _Flaky(Metric):
    """Raises CancelledError for one sample, as awaiting a shared call cancelled elsewhere does."""

    name = "flaky"
    columns = ("response",)

    async def _ascore(self, sample, ctx) -> MetricResult:
        if sample.response == "cancelled elsewhere":
            raise asyncio.CancelledError()
        return MetricResult(1.0, "fine")


async def test_a_cancelled_error_not_from_the_run_is_a_nan_cell():
    dataset = EvaluationDataset(
        [SingleTurnSample(response="fine"), SingleTurnSample(response="cancelled elsewhere")]
    )
    result = await aevaluate(dataset, [_Flaky()], cache=False, show_progress=False)
    assert result.cells[0]["flaky"].value == 1.0
    bad = result.cells[1]["flaky"]
    assert math.isnan(bad.value) and bad.error.startswith("CancelledError")


async def test_cancelling_the_run_itself_still_cancels_it():
    class Slow(Metric):
        name = "slow"
        columns = ("response",)

        async def _ascore(self, sample, ctx) -> MetricResult:
            await asyncio.sleep(10)
            return MetricResult(1.0)

    dataset = EvaluationDataset([SingleTurnSample(response="x")])
    run = asyncio.ensure_future(aevaluate(dataset, [Slow()], cache=False, show_progress=False))
    await asyncio.sleep(0.05)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run


@pytest.fixture(scope="module")
def small_graph():
    from groundset.kg import build_knowledge_graph

    return build_knowledge_graph(EXAMPLE_DOCS, engine=CallEngine(cache=False)).kg


@pytest.mark.parametrize(
    "error", [asyncio.CancelledError, lambda: PromptOutputError("synth.x", "gave nothing", "")]
)
def test_a_failing_scenario_is_a_rejection_not_an_aborted_generation(small_graph, error):
    from groundset.synthesizers import TestsetGenerator
    from groundset.synthesizers.kinds.single_hop import SingleHopSpecificQuerySynthesizer

    synth = SingleHopSpecificQuerySynthesizer(engine=CallEngine(cache=False))
    original, seen = synth.generate, []

    async def every_other(scenario, **kwargs):
        seen.append(scenario)
        if len(seen) % 2:
            raise error()
        return await original(scenario, **kwargs)

    synth.generate = every_other
    generator = TestsetGenerator(engine=CallEngine(cache=False))
    testset = generator.generate(small_graph, 3, [(synth, 1.0)], seed=1)
    assert len(testset) >= 1
    failures = {k: v for k, v in testset.metadata["rejections"].items() if k.startswith("failed")}
    assert sum(failures.values()) >= 1


# -- issue 27: another process locking the cache file stalls no call and loses no paid answer ---------

LOCKED_PASSAGES = [Passage(text=f"Prometheus scrapes target number {i} every 15 seconds.") for i in range(6)]
LOCKED_TEXTS = ["alerting rules", "recording rules", "scrape configs"]
VERDICT = {"supported": True, "reason": "A fact about Prometheus."}


def _stored_keys(directory) -> set[str]:
    """The keys written to the cache file, read by a connection of its own (as another process would)."""
    conn = sqlite3.connect(directory / "calls.sqlite", timeout=30)
    try:
        return {row[0] for row in conn.execute("SELECT key FROM calls")}
    finally:
        conn.close()


def _locked(directory) -> sqlite3.Connection:
    """A connection holding the cache file's write lock, as a `groundset cache clear` in another process
    does while it deletes and vacuums; ROLLBACK and close it to let go."""
    holder = sqlite3.connect(directory / "calls.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    return holder


async def _answer_while_a_ticker_runs(engine, chat, embeddings) -> tuple[list, Any, Any, float]:
    """Answer the prompts one after the other, then the embeddings, on the engine loop, while a task
    ticks every 10 ms; returns the answers and the longest the ticker had to wait for the loop."""
    gaps: list[float] = []
    finished = asyncio.Event()

    async def ticker() -> None:
        last = time.monotonic()
        while not finished.is_set():
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticking = asyncio.ensure_future(ticker())
    try:
        verdicts = [await JudgePrompt().run(chat, p, engine=engine) for p in LOCKED_PASSAGES]
        vectors = await engine.embed(embeddings, LOCKED_TEXTS)
        again = await JudgePrompt().run(chat, LOCKED_PASSAGES[0], engine=engine)
    finally:
        finished.set()
        await ticking
    return verdicts, again, vectors, max(gaps)


async def test_a_locked_cache_file_stalls_no_call_and_loses_no_paid_answer(
    stub, chat, openai_embeddings, tmp_path
):
    stub.always(Reply.json(VERDICT))
    where = tmp_path / "cache"
    engine = CallEngine(cache=where, timeout=10)
    holder = _locked(where)
    try:
        answered = await on_engine(_answer_while_a_ticker_runs(engine, chat, openai_embeddings))
        verdicts, again, vectors, longest_wait = answered
        # every call was answered while the file stayed locked, and the loop kept turning: a generous
        # bound, as a write on the loop would hold it for SQLite's whole 30 s busy timeout
        assert all(v.supported for v in verdicts) and vectors.shape[0] == len(LOCKED_TEXTS)
        assert longest_wait < 5.0
        # the answer paid for is kept in memory until it is written: asking again pays nothing
        assert again == verdicts[0] and engine.usage["test.judge"].cache_hits == 1
        assert len(stub.chat_requests) == len(LOCKED_PASSAGES) and len(stub.embedding_requests) == 1
        assert _stored_keys(where) == set()  # the lock really kept every write out
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # once the lock is gone the answers reach the file with no help (no flush, no close) ...
    expected = len(LOCKED_PASSAGES) + len(LOCKED_TEXTS)
    deadline = time.monotonic() + 60
    while len(_stored_keys(where)) < expected and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert len(_stored_keys(where)) == expected
    # ... so a rerun, in this or any other process, makes no model call
    requests = len(stub.requests)
    rerun = CallEngine(cache=where)
    assert [await JudgePrompt().run(chat, p, engine=rerun) for p in LOCKED_PASSAGES] == verdicts
    assert (await rerun.embed(openai_embeddings, LOCKED_TEXTS)).tolist() == vectors.tolist()
    assert len(stub.requests) == requests


EXIT_SCRIPT = """
import sys
from groundset.core import CallEngine
from groundset.core.aio import run_sync

async def paid() -> bytes:
    return b"a paid answer"

engine = CallEngine(cache=sys.argv[1])
print(run_sync(engine.cached("key", "test", paid, "chat", label="test.judge")).decode(), flush=True)
"""


@dataclass
class LockedRun:
    first_line: str  # what the script printed while the cache file was locked
    waiting: bool  # still running half a second later, with nothing written to the file
    rest: str  # what it printed after the lock was released
    stored: set[str]  # the keys in the file once it ended


def _run_while_locked(where: Path, script: str) -> LockedRun:
    """Run ``script`` on a cache at ``where`` while another connection holds the file's write lock, then
    release the lock and wait for the script to end (it must end with exit code 0)."""
    CallCache(where).close()
    holder = _locked(where)
    run = [sys.executable, "-c", script, str(where)]
    with subprocess.Popen(run, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        try:
            first = process.stdout.readline().strip()
            time.sleep(0.5)  # let it reach its exit, where its answers still wait for the lock
            waiting = process.poll() is None and _stored_keys(where) == set()
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert process.wait(timeout=60) == 0, process.stderr.read()
        return LockedRun(
            first or process.stderr.read(), waiting, process.stdout.read().strip(), _stored_keys(where)
        )


def test_answers_waiting_for_a_locked_file_are_written_before_the_process_exits(tmp_path):
    run = _run_while_locked(tmp_path / "cache", EXIT_SCRIPT)
    assert run.first_line == "a paid answer"  # answered while the file is locked
    assert run.waiting and run.stored == {"key"}


def test_an_answer_that_cannot_be_written_in_time_is_kept_and_warned_about_once(tmp_path, caplog):
    where = tmp_path / "cache"
    cache = CallCache(where)
    holder = _locked(where)
    try:
        cache.put("key", b"a paid answer", "chat", label="test.judge")
        assert cache.get("key") == b"a paid answer"  # from memory, while the file is locked
        with caplog.at_level(logging.WARNING, logger="groundset.cache"):
            assert cache.flush(timeout=0.3) is False
            assert cache.flush(timeout=0.3) is False
        warnings = [r.getMessage() for r in caplog.records if r.name == "groundset.cache"]
        assert len(warnings) == 1 and "1 answer" in warnings[0] and str(where) in warnings[0]
        assert "lock" in warnings[0]  # "database is locked", or still waiting for it
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert cache.flush(timeout=30) is True and _stored_keys(where) == {"key"}
    cache.close()


FORK_SCRIPT = """
import multiprocessing
import sys
from groundset.core import CallEngine
from groundset.core.aio import run_sync

engine = CallEngine(cache=sys.argv[1])

async def paid() -> bytes:
    return b"a paid answer"

def ask(key: str) -> str:
    return run_sync(engine.cached(key, "test", paid, "chat", label="test.judge")).decode()

def child() -> None:
    # the parent's reader and writer threads are not the child's: a read here hung, a new answer was lost
    print("child:", ask("parent"), "/", ask("child"), flush=True)

if __name__ == "__main__":
    ask("parent")
    ask("parent")  # read back by the parent's reader thread, which the child inherits as a dead one
    worker = multiprocessing.get_context("fork").Process(target=child)
    worker.start()
    worker.join(60)
    print("child exit code:", worker.exitcode, flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no fork")
def test_a_forked_worker_reads_the_cache_and_keeps_its_answers(tmp_path):
    run = _run_while_locked(tmp_path / "cache", FORK_SCRIPT)
    assert run.first_line == "child: a paid answer / a paid answer"
    assert run.waiting  # the child reached its exit (os._exit: no atexit), its answer waiting for the lock
    assert run.rest == "child exit code: 0" and run.stored == {"parent", "child"}


async def test_a_request_keeps_its_slot_until_its_answer_is_on_disk(stub, chat, tmp_path, monkeypatch):
    """So a run killed at any moment has at most max_concurrency paid answers that are not in the file:
    with one slot and slow writes, the next request goes out only once the last answer is stored."""
    import groundset.core.cache as cache_module

    write = cache_module._write

    def slow_write(conn, batch):
        time.sleep(0.2)
        write(conn, batch)

    monkeypatch.setattr(cache_module, "_write", slow_write)
    where = tmp_path / "cache"
    engine = CallEngine(cache=where, max_concurrency=1)
    stored_at_arrival: list[int] = []

    def answer(body: dict[str, Any]) -> Reply:
        stored_at_arrival.append(len(_stored_keys(where)))
        return Reply.json(VERDICT)

    stub.on_chat(answer)

    async def ask_three() -> list[Any]:
        return await asyncio.gather(
            *(JudgePrompt().run(chat, Passage(text=f"slot {i}"), engine=engine) for i in range(3))
        )

    assert len(await on_engine(ask_three())) == 3
    assert stored_at_arrival == [0, 1, 2]


async def test_a_failed_computation_leaves_no_slot_behind(tmp_path):
    """One part of a computation fails (an answer that stayed unusable) while a sibling request is still
    in flight: that sibling's slot comes back when it ends. It was kept for good before, and with every
    slot lost so, the next request waited forever (a real model's evaluate run hung this way)."""
    engine = CallEngine(cache=tmp_path / "cache", max_concurrency=1, retry=RetryPolicy(max_retries=0))

    async def answered(delay: float) -> tuple[bytes, None]:
        await asyncio.sleep(delay)
        return b"{}", None

    async def part(delay: float, fails: bool) -> bytes:
        value = await engine.request(None, "test", lambda: answered(delay))
        if fails:
            raise ValueError("this answer stayed unusable")
        return value

    async def compute() -> bytes:
        first, second = await asyncio.gather(part(0.0, True), part(0.05, False))
        return first + second

    async def fail_then_ask_again() -> bytes:
        with pytest.raises(ValueError, match="unusable"):
            await engine.cached("key", "test", compute, "chat")
        await asyncio.sleep(0.2)  # the sibling's request ends after its computation failed
        return await asyncio.wait_for(engine.request(None, "test", lambda: answered(0.0)), 5)

    assert await on_engine(fail_then_ask_again()) == b"{}"
