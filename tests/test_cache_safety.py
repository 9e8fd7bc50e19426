"""The call cache never replays a bad answer, keeps models apart, and survives cancelled callers.

Review issue 15, items 9 (answers failing a prompt's semantic check are repaired, never cached),
10 (custom chat models with different fields get different cache keys) and 11 (a cancelled shared
call neither leaks into a new caller nor aborts a whole evaluation or generation run).
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import sqlite3
import time
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import SecretStr
from typer.testing import CliRunner

from groundset.cli import app, main
from groundset.core import CallCache, CallEngine, PromptOutputError, model_identity
from groundset.core.aio import on_engine
from groundset.judges.support import StatementsAndContext, StatementVerdict, SupportPrompt, Verdicts
from groundset.scoring import ContextPrecision, EvaluationDataset, SingleTurnSample, aevaluate
from groundset.scoring.metric import Metric, MetricResult
from groundset.scoring.prompts import (
    CompareStatementsPrompt,
    Comparison,
    ContextsToJudge,
    ContextUsefulnessPrompt,
    StatementsToCompare,
    Usefulness,
)

from .corpora import EXAMPLE_DOCS
from .openai_stub import Reply
from .prompts_for_tests import JudgePrompt, Passage

THREE = ContextsToJudge(
    question="Which port does the exporter use?",
    answer="The node exporter listens on port 9100.",
    contexts=["The node exporter listens on port 9100.", "Grafana draws dashboards.", "Alerts are grouped."],
)
GOOD = {"useful": [True, False, False]}
SHORT = {"useful": [True, False]}


def _human(request: Any) -> str:
    return request.body["messages"][-1]["content"]


# -- item 9: validate before caching -------------------------------------------------------------


async def test_an_answer_failing_validation_is_repaired_and_only_the_repair_is_cached(stub, chat, engine):
    stub.push(Reply.json(SHORT), Reply.json(GOOD))
    judged = await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)
    assert judged.useful == [True, False, False]
    assert len(stub.chat_requests) == 2
    repair = _human(stub.chat_requests[1])
    assert "gave 2 verdicts for 3 contexts" in repair and "exactly one" in repair
    assert engine.usage["scoring.context_usefulness"].repairs == 1
    again = await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)
    assert again == judged and len(stub.chat_requests) == 2  # the repaired answer came from the cache


async def test_an_answer_that_stays_invalid_raises_and_nothing_is_cached(stub, chat, engine):
    stub.push(Reply.json(SHORT), Reply.json(SHORT))
    with pytest.raises(PromptOutputError) as caught:
        await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)
    assert "gave 2 verdicts for 3 contexts" in caught.value.error
    assert len(engine.cache) == 0
    stub.push(Reply.json(GOOD))
    judged = await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)  # a rerun asks again
    assert judged.useful == GOOD["useful"] and len(stub.chat_requests) == 3


async def test_a_metric_nan_from_a_bad_count_is_not_permanent(stub, chat, tmp_path):
    sample = SingleTurnSample(
        user_input=THREE.question, retrieved_contexts=THREE.contexts, reference=THREE.answer
    )
    dataset = EvaluationDataset([sample])
    stub.always(Reply.json(SHORT))
    first = await aevaluate(dataset, [ContextPrecision(llm=chat)], cache=tmp_path, show_progress=False)
    cell = first.cells[0]["context_precision"]
    assert math.isnan(cell.value) and "2 verdicts for 3 contexts" in cell.error
    stub.always(Reply.json(GOOD))
    second = await aevaluate(dataset, [ContextPrecision(llm=chat)], cache=tmp_path, show_progress=False)
    assert second.cells[0]["context_precision"].value == pytest.approx(1.0)


async def test_a_bad_answer_cached_by_an_older_version_is_not_replayed(stub, chat, engine, monkeypatch):
    monkeypatch.setattr(ContextUsefulnessPrompt, "validate", lambda self, data, output: None)
    stub.push(Reply.json(SHORT))
    assert (await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)).useful == SHORT["useful"]
    monkeypatch.undo()
    stub.push(Reply.json(GOOD))
    assert (await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)).useful == GOOD["useful"]
    assert len(stub.chat_requests) == 2
    assert (await ContextUsefulnessPrompt().run(chat, THREE, engine=engine)).useful == GOOD["useful"]
    assert len(stub.chat_requests) == 2  # the fresh answer replaced the bad one


def test_the_count_checks_name_the_problem_and_the_fix():
    usefulness = ContextUsefulnessPrompt()
    assert usefulness.validate(THREE, Usefulness(useful=[True] * 3)) is None
    assert usefulness.validate(THREE, Usefulness(**SHORT)) == (
        "gave 2 verdicts for 3 contexts; give exactly one true or false per context, in order"
    )
    compare = CompareStatementsPrompt()
    pair = StatementsToCompare(response=["a", "b"], reference=["c"])
    assert (
        compare.validate(pair, Comparison(response_supported=[True, False], reference_covered=[True])) is None
    )
    problem = compare.validate(pair, Comparison(response_supported=[True], reference_covered=[True, True]))
    assert "1 verdicts for 2 response statements" in problem
    assert "2 verdicts for 1 reference statements" in problem
    support = SupportPrompt()
    data = StatementsAndContext(statements=["x is y.", "z is w."], context="x is y.")
    one = Verdicts(verdicts=[StatementVerdict(statement="x is y.", supported=True)])
    assert "gave 1 verdicts for 2 statements" in support.validate(data, one)


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_offline_forms_pass_their_own_checks(count):
    texts = ["The exporter listens on port 9100.", "Grafana draws dashboards.", "Blocks are kept."][:count]
    judge = ContextsToJudge(question="q?", answer="port 9100", contexts=texts)
    assert ContextUsefulnessPrompt().validate(judge, ContextUsefulnessPrompt().offline(judge)) is None
    pair = StatementsToCompare(response=texts, reference=texts[:1])
    assert CompareStatementsPrompt().validate(pair, CompareStatementsPrompt().offline(pair)) is None
    data = StatementsAndContext(statements=texts, context="The exporter listens on port 9100.")
    assert SupportPrompt().validate(data, SupportPrompt().offline(data)) is None


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
        started = asyncio.Event()

        async def slow_to_stop() -> bytes:
            started.set()
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                await asyncio.sleep(0.3)  # e.g. closing a connection takes a moment
                raise
            return b"never"

        async def quick() -> bytes:
            return b"fresh"

        first = asyncio.ensure_future(engine.cached("k", "s", slow_to_stop, "chat"))
        await started.wait()
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        return await engine.cached("k", "s", quick, "chat")  # the old task is still winding down

    assert await on_engine(scenario()) == b"fresh"
    assert engine.cache.get("k") == b"fresh"


async def test_an_old_shared_task_finishing_late_does_not_evict_the_new_one(tmp_path):
    engine = CallEngine(cache=False)

    async def scenario() -> list[bytes]:
        release = asyncio.Event()
        calls = 0

        async def stubborn() -> bytes:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                await asyncio.sleep(0.1)
                raise
            return b"never"

        async def slow_new() -> bytes:
            nonlocal calls
            calls += 1
            await release.wait()
            return b"new"

        first = asyncio.ensure_future(engine.cached("k", "s", stubborn, "chat"))
        await asyncio.sleep(0.01)
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
        second = asyncio.ensure_future(engine.cached("k", "s", slow_new, "chat"))
        await asyncio.sleep(0.3)  # the old task has finished by now
        third = asyncio.ensure_future(engine.cached("k", "s", slow_new, "chat"))
        await asyncio.sleep(0.01)
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
    from groundset.synthesizers.single_hop import SingleHopSpecificQuerySynthesizer

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
